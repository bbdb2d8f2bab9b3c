//! Every rule, good and bad, through the whole loader on real folders:
//! each case is a tree and the problems it must produce (rule, file, line).
//! Rows of the reference validator's table (`agent-skills-format.md` §2.5)
//! are marked `ref N`.

use std::path::{Path, PathBuf};

use skills_core::{Options, Rule, load};

/// A fresh folder holding `files`.
fn tree(name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let root =
        std::env::temp_dir().join(format!("skills-core-rules-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    for (path, content) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    root
}

/// A frontmatter case: its name, the SKILL.md text, and the problems `(rule, line)`.
type Case = (&'static str, String, Vec<(Rule, Option<u32>)>);

fn skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does a thing. Use when asked.\n---\n# {name}\n")
}

/// `(rule, file, line)` of every problem, in report order.
fn problems(root: &Path, options: &Options) -> Vec<(Rule, String, Option<u32>)> {
    match load(root, options) {
        Ok(_) => Vec::new(),
        Err(report) => report
            .diagnostics()
            .iter()
            .map(|d| (d.rule, d.file.clone(), d.line))
            .collect(),
    }
}

fn check(name: &str, files: &[(&str, &[u8])], expected: &[(Rule, &str, Option<u32>)]) {
    let root = tree(name, files);
    let found = problems(&root, &Options::default());
    let expected: Vec<(Rule, String, Option<u32>)> = expected
        .iter()
        .map(|(rule, file, line)| (*rule, file.to_string(), *line))
        .collect();
    assert_eq!(found, expected, "case {name}");
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn frontmatter_rules() {
    let valid = skill("a");
    let cases: Vec<Case> = vec![
        ("valid", valid.clone(), vec![]),
        ("crlf (ref 27)", valid.replace('\n', "\r\n"), vec![]),
        (
            "cr only (ref 27)",
            valid.replace('\n', "\r"),
            vec![(Rule::FrontmatterStart, Some(1))],
        ),
        (
            "bom (ref 3)",
            format!("\u{feff}{valid}"),
            vec![(Rule::Encoding, Some(1))],
        ),
        (
            "blank first line (ref 3)",
            format!("\n{valid}"),
            vec![(Rule::FrontmatterStart, Some(1))],
        ),
        (
            "not closed (ref 4)",
            "---\nname: a\ndescription: d\n".into(),
            vec![(Rule::FrontmatterEnd, Some(1))],
        ),
        (
            "bad yaml (ref 5)",
            "---\nname: a\ndescription: x: y\n---\n".into(),
            vec![(Rule::YamlSyntax, Some(3))],
        ),
        (
            "list (ref 6)",
            "---\n- a\n---\n".into(),
            vec![(Rule::NotAMapping, Some(2))],
        ),
        (
            "unknown key (ref 7)",
            format!("{}x: 1\n---\n", &valid[..valid.find("---\n#").unwrap()]),
            vec![(Rule::UnknownField, Some(4))],
        ),
        (
            "no name (ref 8)",
            "---\ndescription: d\n---\n".into(),
            vec![(Rule::RequiredField, Some(2))],
        ),
        (
            "empty name (ref 9)",
            "---\nname: \"\"\ndescription: d\n---\n".into(),
            vec![(Rule::FieldLength, Some(2))],
        ),
        (
            "list name (ref 9)",
            "---\nname:\n  - a\ndescription: d\n---\n".into(),
            vec![(Rule::FieldType, Some(3))],
        ),
        (
            "long name (ref 10)",
            format!("---\nname: {}\ndescription: d\n---\n", "a".repeat(65)),
            vec![(Rule::FieldLength, Some(2))],
        ),
        (
            "upper name (ref 11)",
            "---\nname: A\ndescription: d\n---\n".into(),
            vec![(Rule::NameFormat, Some(2))],
        ),
        (
            "hyphen edge (ref 12)",
            "---\nname: a-\ndescription: d\n---\n".into(),
            vec![(Rule::NameFormat, Some(2))],
        ),
        (
            "double hyphen (ref 13)",
            "---\nname: a--b\ndescription: d\n---\n".into(),
            vec![(Rule::NameFormat, Some(2))],
        ),
        (
            "unicode name (ref 14, stricter)",
            "---\nname: мой\ndescription: d\n---\n".into(),
            vec![(Rule::NameFormat, Some(2))],
        ),
        (
            "folder mismatch (ref 15)",
            "---\nname: b\ndescription: d\n---\n".into(),
            vec![(Rule::NameMismatch, Some(2))],
        ),
        (
            "no description (ref 17)",
            "---\nname: a\n---\n".into(),
            vec![(Rule::RequiredField, Some(2))],
        ),
        (
            "blank description (ref 18)",
            "---\nname: a\ndescription: \"  \"\n---\n".into(),
            vec![(Rule::FieldLength, Some(3))],
        ),
        (
            "long description (ref 19)",
            format!("---\nname: a\ndescription: {}\n---\n", "é".repeat(1025)),
            vec![(Rule::FieldLength, Some(3))],
        ),
        (
            "block description at the limit",
            format!(
                "---\nname: a\ndescription: |-\n  {}\n---\n",
                "x".repeat(1024)
            ),
            vec![],
        ),
        (
            "map compatibility (ref 20)",
            "---\nname: a\ndescription: d\ncompatibility:\n  x: y\n---\n".into(),
            vec![(Rule::FieldType, Some(5))],
        ),
        (
            "long compatibility (ref 21)",
            format!(
                "---\nname: a\ndescription: d\ncompatibility: {}\n---\n",
                "c".repeat(501)
            ),
            vec![(Rule::FieldLength, Some(4))],
        ),
        (
            "empty compatibility (ref 21, stricter)",
            "---\nname: a\ndescription: d\ncompatibility: ''\n---\n".into(),
            vec![(Rule::FieldLength, Some(4))],
        ),
        (
            "nested metadata (ref 22, stricter)",
            "---\nname: a\ndescription: d\nmetadata:\n  a:\n    b: c\n---\n".into(),
            vec![(Rule::FieldType, Some(6))],
        ),
        (
            "scalar metadata (ref 22, stricter)",
            "---\nname: a\ndescription: d\nmetadata: hi\n---\n".into(),
            vec![(Rule::FieldType, Some(4))],
        ),
        (
            "allowed-tools list (ref 23, stricter)",
            "---\nname: a\ndescription: d\nallowed-tools:\n  - Read\n---\n".into(),
            vec![(Rule::FieldType, Some(5))],
        ),
        (
            "license map (ref 24, stricter)",
            "---\nname: a\ndescription: d\nlicense:\n  x: y\n---\n".into(),
            vec![(Rule::FieldType, Some(5))],
        ),
        (
            "yes (YAML 1.1 vs 1.2), no cascade",
            "---\nname: a\ndescription: d\nmetadata:\n  beta: yes\n---\n".into(),
            vec![(Rule::AmbiguousScalar, Some(5))],
        ),
        (
            "date",
            "---\nname: a\ndescription: d\nmetadata:\n  since: 2024-01-01\n---\n".into(),
            vec![(Rule::AmbiguousScalar, Some(5))],
        ),
        (
            "duplicate key",
            "---\nname: a\nname: a\ndescription: d\n---\n".into(),
            vec![(Rule::DuplicateKey, Some(3))],
        ),
        (
            "anchor",
            "---\nname: &n a\ndescription: d\n---\n".into(),
            vec![(Rule::YamlAnchor, Some(2))],
        ),
        (
            "tag",
            "---\nname: !!str a\ndescription: d\n---\n".into(),
            vec![(Rule::YamlTag, Some(2))],
        ),
        (
            "reserved metadata",
            "---\nname: a\ndescription: d\nmetadata:\n  io.modelcontextprotocol/x: y\n---\n".into(),
            vec![(Rule::ReservedMetadataKey, Some(5))],
        ),
        (
            "all at once (ref 28)",
            "---\nName: x\nname: Bad--Name-\ndescription: \"\"\nlicense: yes\n---\n".into(),
            vec![
                (Rule::UnknownField, Some(2)),
                (Rule::NameFormat, Some(3)),
                (Rule::FieldLength, Some(4)),
                (Rule::AmbiguousScalar, Some(5)),
            ],
        ),
    ];
    for (index, (name, text, expected)) in cases.into_iter().enumerate() {
        let expected: Vec<(Rule, &str, Option<u32>)> = expected
            .into_iter()
            .map(|(rule, line)| (rule, "a/SKILL.md", line))
            .collect();
        check(
            &format!("fm-{index} {name}"),
            &[("a/SKILL.md", text.as_bytes())],
            &expected,
        );
    }
}

#[test]
fn encoding_is_utf8_only() {
    // ref 26: Latin-1 `é` is one byte that starts no UTF-8 character.
    check(
        "latin-1",
        &[("a/SKILL.md", b"---\nname: a\ndescription: caf\xe9\n---\n")],
        &[(Rule::Encoding, "a/SKILL.md", Some(3))],
    );
    check(
        "utf-16",
        &[("a/SKILL.md", b"\xff\xfe-\0-\0-\0")],
        &[(Rule::Encoding, "a/SKILL.md", Some(1))],
    );
    check(
        "nul",
        &[("a/SKILL.md", b"---\nname: a\0\n---\n")],
        &[(Rule::Encoding, "a/SKILL.md", Some(2))],
    );
}

#[test]
fn layout_rules() {
    let a = skill("a");
    let b = skill("b");
    // ref 1: the root must be a folder.
    let file_root = tree("file-root", &[("x", b"")]).join("x");
    assert_eq!(
        problems(&file_root, &Options::default())[0].0,
        Rule::RootMissing
    );
    check(
        "no-skills (ref 2)",
        &[("notes.md", b"x")],
        &[(Rule::NoSkills, "", None)],
    );
    check(
        "not-a-skill, misnamed (ref 2)",
        &[("a/SKILL.md", a.as_bytes()), ("b/skill.md", b.as_bytes())],
        &[(Rule::NotASkill, "b", None)],
    );
    check(
        "nested and prefixed skills",
        &[
            ("a/SKILL.md", a.as_bytes()),
            ("a/b/SKILL.md", b.as_bytes()),
            ("org/team/c/SKILL.md", skill("c").as_bytes()),
            ("org/README.md", b"loose files outside skills are ignored"),
            ("loose.md", b"ignored"),
            ("a/.hidden/x", b"hidden entries are never embedded"),
            (".git/config", b"ignored"),
        ],
        &[],
    );
    check(
        "empty prefix folder",
        &[
            ("org/team/c/SKILL.md", skill("c").as_bytes()),
            ("org/other/notes.md", b"x"),
        ],
        &[(Rule::NotASkill, "org/other", None)],
    );
    check(
        "unportable names",
        &[
            ("a/SKILL.md", a.as_bytes()),
            ("a/what?.md", b"x"),
            ("a/trailing.", b"x"),
            ("a/aux.txt", b"x"),
            ("a/back\\slash", b"x"),
        ],
        &[
            (Rule::UnportableName, "a/aux.txt", None),
            (Rule::UnportableName, "a/back\\slash", None),
            (Rule::UnportableName, "a/trailing.", None),
            (Rule::UnportableName, "a/what?.md", None),
        ],
    );
    check(
        "case collision",
        &[
            ("a/SKILL.md", a.as_bytes()),
            ("a/README.md", b"1"),
            ("a/readme.md", b"2"),
        ],
        &[(Rule::CaseCollision, "a/readme.md", None)],
    );
    // The portable-name rule (issue 30): the same as the sync's and the
    // folder writer's, across the whole tree.
    check(
        "portable names",
        &[
            ("a/SKILL.md", a.as_bytes()),
            ("a/\u{3c3}.md", b"sigma"),
            ("a/\u{3c2}.md", b"final sigma"),
            ("a/s.md", b"s"),
            ("a/\u{17f}.md", b"long s"),
            ("a/COM\u{b9}.md", b"x"),
            ("a/lpt\u{b2}.txt", b"x"),
            ("a/COM0.md", b"x"),
            ("a/CONIN$", b"x"),
            ("a/CONOUT$", b"x"),
        ],
        &[
            (Rule::UnportableName, "a/COM0.md", None),
            (Rule::UnportableName, "a/COM\u{b9}.md", None),
            (Rule::UnportableName, "a/CONIN$", None),
            (Rule::UnportableName, "a/CONOUT$", None),
            (Rule::UnportableName, "a/lpt\u{b2}.txt", None),
            (Rule::CaseCollision, "a/\u{17f}.md", None),
            (Rule::CaseCollision, "a/\u{3c3}.md", None),
        ],
    );
    check(
        "portable names across skills",
        &[
            ("Team/pdf/SKILL.md", skill("pdf").as_bytes()),
            ("team/pdf/SKILL.md", skill("pdf").as_bytes()),
            ("caf\u{e9}/menu/SKILL.md", skill("menu").as_bytes()),
            ("cafe\u{301}/menus/SKILL.md", skill("menus").as_bytes()),
        ],
        &[
            (Rule::CaseCollision, "caf\u{e9}", None),
            (Rule::CaseCollision, "team", None),
            (Rule::DuplicateName, "team/pdf/SKILL.md", Some(2)),
        ],
    );
    check(
        "duplicate names",
        &[
            ("x/a/SKILL.md", a.as_bytes()),
            ("y/a/SKILL.md", a.as_bytes()),
        ],
        &[(Rule::DuplicateName, "y/a/SKILL.md", Some(2))],
    );
    let many: Vec<(String, Vec<u8>)> = (0..512)
        .map(|n| (format!("a/f/{n:03}.md"), b"x".to_vec()))
        .collect();
    let mut files: Vec<(&str, &[u8])> = many
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_slice()))
        .collect();
    files.push(("a/SKILL.md", a.as_bytes()));
    check(
        "513 files",
        &files,
        &[(Rule::TooManyFiles, "a/SKILL.md", None)],
    );
}

#[test]
fn size_limits_say_by_how_much() {
    let root = tree("sizes", &[("a/SKILL.md", skill("a").as_bytes())]);
    let big = std::fs::File::create(root.join("a/big.bin")).unwrap();
    big.set_len(12 * 1024 * 1024 + 1).unwrap();
    for n in 0..2 {
        let part = std::fs::File::create(root.join(format!("a/part{n}.bin"))).unwrap();
        part.set_len(7 * 1024 * 1024).unwrap();
    }
    let report = load(&root, &Options::default()).unwrap_err();
    let rendered: Vec<String> = report.rendered().collect();
    assert!(
        rendered
            .iter()
            .any(|r| r.contains("file-too-large") && r.contains("1 over")),
        "{rendered:#?}"
    );
    assert!(
        rendered
            .iter()
            .any(|r| r.contains("skill-too-large") && r.contains("over the 16777216")),
        "{rendered:#?}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[cfg(unix)]
#[test]
fn links_sockets_and_foreign_names_are_refused() {
    use std::os::unix::ffi::OsStrExt;
    let root = tree(
        "unix",
        &[
            ("a/SKILL.md", skill("a").as_bytes()),
            ("outside.txt", b"secret"),
        ],
    );
    std::os::unix::fs::symlink(root.join("outside.txt"), root.join("a/link.txt")).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(root.join("a/sock")).unwrap();
    std::fs::write(
        root.join("a")
            .join(std::ffi::OsStr::from_bytes(b"caf\xe9.md")),
        b"x",
    )
    .unwrap();
    let found = problems(&root, &Options::default());
    let rules: Vec<Rule> = found.iter().map(|p| p.0).collect();
    assert_eq!(
        rules,
        [Rule::NonUtf8Name, Rule::Symlink, Rule::SpecialFile],
        "{found:?}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_root_holding_skill_md_is_one_skill() {
    let root = tree("single", &[]).join("solo");
    std::fs::create_dir_all(root.join("references")).unwrap();
    std::fs::write(root.join("SKILL.md"), skill("solo")).unwrap();
    std::fs::write(root.join("references/a.md"), "ref").unwrap();
    let loaded = load(&root, &Options::default()).unwrap();
    let skill = loaded.skills().get("solo").unwrap();
    assert_eq!(skill.uri(), "skill://solo/SKILL.md");
    assert_eq!(skill.files().len(), 2);
    assert_eq!(
        loaded.source_path(0, &skill.files()[1]),
        root.join("references/a.md")
    );
}

#[test]
fn nested_skills_are_their_own_and_part_of_the_parent() {
    let root = tree(
        "nested",
        &[
            ("a/SKILL.md", skill("a").as_bytes()),
            ("a/b/SKILL.md", skill("b").as_bytes()),
            ("a/b/x.md", b"x"),
        ],
    );
    let loaded = load(&root, &Options::default()).unwrap();
    let skills = loaded.skills();
    let parent = skills.get("a").unwrap();
    let child = skills.get("a/b").unwrap();
    let paths: Vec<&str> = parent.files().iter().map(|f| f.path()).collect();
    assert_eq!(paths, ["SKILL.md", "b/SKILL.md", "b/x.md"]);
    // Both hold the bytes: the parent's copy and the child's own.
    assert_eq!(parent.file("b/x.md").unwrap().bytes(), b"x");
    assert_eq!(child.file("x.md").unwrap().bytes(), b"x");
    assert_eq!(
        parent.file("b/SKILL.md").unwrap().bytes(),
        child.skill_md().bytes()
    );
    assert_eq!(child.uri(), "skill://a/b/SKILL.md");
    // A shared file is served once, owned by the innermost skill.
    let (owner, _) = skills.file_by_uri("skill://a/b/x.md").unwrap();
    assert_eq!(owner.path(), "a/b");
    assert_eq!(skills.files().count(), 3);
    assert_eq!(skills.by_uri("skill://a/b/SKILL.md").unwrap().path(), "a/b");
}

#[test]
fn options_loosen_what_they_name() {
    let text = "---\nname: a\ndescription: d\ndependencies: [x]\n---\nSee [missing](references/nope.md).\n";
    let token = format!("token = ghp_{}\n", "Zq8wNc3VrT6yLp2KdX9mHs4JbF7gA1eQ5tY0");
    let root = tree(
        "options",
        &[
            ("a/SKILL.md", text.as_bytes()),
            ("a/fake.md", token.as_bytes()),
        ],
    );
    let strict = problems(&root, &Options::default());
    let rules: Vec<Rule> = strict.iter().map(|p| p.0).collect();
    assert_eq!(
        rules,
        [Rule::UnknownField, Rule::BrokenLink, Rule::Secret],
        "{strict:?}"
    );
    let mut loose = Options::default();
    loose.allow_fields = vec!["dependencies".into()];
    loose.check_links = false;
    loose.allow_secrets_in = vec!["a/fake.md".into()];
    assert_eq!(problems(&root, &loose), []);
    loose.allow_secrets_in = vec!["a/typo.md".into()];
    assert_eq!(
        problems(&root, &loose)[0].0,
        Rule::Secret,
        "an unknown allowed path is reported"
    );
}

#[test]
fn two_loads_are_identical() {
    let root = tree(
        "stable",
        &[
            ("b/SKILL.md", skill("b").as_bytes()),
            ("a/SKILL.md", skill("a").as_bytes()),
            ("a/z.md", b"z"),
            ("a/m/x.md", b"x"),
        ],
    );
    let first = load(&root, &Options::default()).unwrap();
    let second = load(&root, &Options::default()).unwrap();
    assert_eq!(first.skills().fingerprint(), second.skills().fingerprint());
    let order: Vec<String> = first.skills().files().map(|(s, f)| s.file_uri(f)).collect();
    assert_eq!(
        order,
        [
            "skill://a/SKILL.md",
            "skill://a/m/x.md",
            "skill://a/z.md",
            "skill://b/SKILL.md"
        ]
    );
    std::fs::write(root.join("a/z.md"), "Z").unwrap();
    let changed = load(&root, &Options::default()).unwrap();
    assert_ne!(
        changed.skills().get("a").unwrap().version(),
        first.skills().get("a").unwrap().version()
    );
    assert_eq!(
        changed.skills().get("b").unwrap().version(),
        first.skills().get("b").unwrap().version()
    );
}

/// The guide's reader table (docs/guide/embed.md) has one row per reader
/// rule, citing the rule's source as the table in skills-core holds it, so
/// the guide cannot drift from what `skills check` predicts.
#[test]
fn the_guide_has_a_row_per_reader_rule_citing_its_source() {
    let guide = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/guide/embed.md"
    ))
    .unwrap();
    let rows: Vec<&str> = guide
        .lines()
        .filter(|line| line.starts_with("| "))
        .collect();
    for rule in skills_core::readers::RULES {
        let row = rows
            .iter()
            .find(|row| row.contains(&format!("| `{}` |", rule.id)))
            .unwrap_or_else(|| panic!("no row for `{}` in the guide's reader table", rule.id));
        assert!(
            row.contains(&format!("`{}`", rule.source)) && row.contains(rule.summary),
            "the guide's row for `{}` differs from the rule:\n{row}\n{} / {}",
            rule.id,
            rule.summary,
            rule.source
        );
        let build = if rule.in_build {
            "| warns |"
        } else {
            "| — |"
        };
        assert!(row.contains(build), "{}: {row}", rule.id);
        assert!(
            row.contains(&format!("| {} |", rule.verdict)),
            "{}: {row}",
            rule.id
        );
    }
}

/// A main file with another name (`Options::main_file`) passes exactly the
/// rules of a `SKILL.md`, reported at the same lines of that file; the
/// loaded skill holds it as `SKILL.md` and records the name; a `SKILL.md`
/// beside it, or anywhere in such a skill, is refused (`main-file`).
#[test]
fn a_main_file_with_another_name_passes_the_rules_of_a_skill_md() {
    let broken = "---\nname: wrong\ndescription: \"Tabs and more.\"\nmetadata:\n  version: 1.10\n---\nSee `scripts/missing.py`.\n";
    let as_skill_md = tree(
        "main-file-skill-md",
        &[("pantry/SKILL.md", broken.as_bytes())],
    );
    let as_readme = tree(
        "main-file-readme",
        &[("pantry/README.md", broken.as_bytes())],
    );
    let mut readme = Options::default();
    readme.main_file = "README.md".to_owned();
    let expected: Vec<(Rule, Option<u32>)> = problems(&as_skill_md, &Options::default())
        .into_iter()
        .map(|(rule, file, line)| {
            assert_eq!(file, "pantry/SKILL.md");
            (rule, line)
        })
        .collect();
    assert_eq!(expected.len(), 3, "{expected:?}");
    let found: Vec<(Rule, Option<u32>)> = problems(&as_readme, &readme)
        .into_iter()
        .map(|(rule, file, line)| {
            assert_eq!(file, "pantry/README.md");
            (rule, line)
        })
        .collect();
    assert_eq!(found, expected);
    // Fixed, it loads, held as SKILL.md with its name recorded.
    std::fs::write(as_readme.join("pantry/README.md"), skill("pantry")).unwrap();
    let loaded = load(&as_readme, &readme).unwrap();
    let pantry = loaded.skills().get("pantry").unwrap();
    assert_eq!(pantry.main_file(), "README.md");
    assert_eq!(pantry.skill_md().bytes(), skill("pantry").as_bytes());
    assert_eq!(pantry.file("README.md").unwrap().path(), "SKILL.md");
    assert_eq!(
        loaded.source_path(0, pantry.skill_md()),
        as_readme.join("pantry/README.md")
    );
    // A SKILL.md beside it, or in a subfolder, is refused.
    std::fs::write(as_readme.join("pantry/SKILL.md"), "x").unwrap();
    std::fs::create_dir_all(as_readme.join("pantry/notes")).unwrap();
    std::fs::write(as_readme.join("pantry/notes/SKILL.md"), "x").unwrap();
    assert_eq!(
        problems(&as_readme, &readme),
        [
            (Rule::MainFile, "pantry/SKILL.md".to_owned(), None),
            (Rule::MainFile, "pantry/notes/SKILL.md".to_owned(), None)
        ]
    );
    std::fs::remove_dir_all(as_skill_md).unwrap();
    std::fs::remove_dir_all(as_readme).unwrap();
}
