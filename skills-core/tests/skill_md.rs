//! `parse_skill_md` against the loader: for every SKILL.md, the entry that
//! takes bytes and the loader that walks a folder must give the same
//! problems, and for a valid one the same name, description, frontmatter
//! JSON and body offset.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use skills_core::{Diagnostic, Options, Rule, SkillMdContext, load, parse_skill_md};

/// `shared/corpus/<name>`, the repository's sibling, read in place (the
/// tests in the module `shared`, ignored by default; `.ci/run` runs them).
fn corpus(name: &str) -> PathBuf {
    skills_test_paths::shared(&format!("corpus/{name}"))
}

/// Every file below `folder` as the walker sees it (hidden names skipped),
/// by `/`-separated path, sorted.
fn files_below(folder: &Path) -> Vec<String> {
    fn visit(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            if name.starts_with('.') {
                continue;
            }
            let rel = format!("{prefix}{name}");
            if entry.file_type().unwrap().is_dir() {
                visit(&entry.path(), &format!("{rel}/"), out);
            } else {
                out.push(rel);
            }
        }
    }
    let mut out = Vec::new();
    visit(folder, "", &mut out);
    out.sort();
    out
}

/// The problems `parse_skill_md` reports for the skill in `root/folder`,
/// naming its SKILL.md as the loader does.
fn entry_problems(root: &Path, folder: &str, options: &Options) -> Vec<Diagnostic> {
    let bytes = std::fs::read(root.join(folder).join("SKILL.md")).unwrap();
    let files = files_below(&root.join(folder));
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let file = format!("{folder}/SKILL.md");
    let folder_name = folder.rsplit('/').next().unwrap();
    let context = SkillMdContext::new(&file)
        .folder_name(folder_name)
        .files(&files);
    match parse_skill_md(&bytes, &context, options) {
        Ok(_) => Vec::new(),
        Err(report) => report.diagnostics().to_vec(),
    }
}

fn loader_problems(root: &Path, options: &Options) -> Vec<Diagnostic> {
    match load(root, options) {
        Ok(_) => Vec::new(),
        Err(report) => report.diagnostics().to_vec(),
    }
}

/// Checks that the loader's report for `root` is exactly the entry's reports
/// for `folders`, file by file; returns the loader's problems.
fn assert_same_problems(root: &Path, folders: &[&str], options: &Options) -> Vec<Diagnostic> {
    let loaded = loader_problems(root, options);
    let mut from_entry = Vec::new();
    for folder in folders {
        let file = format!("{folder}/SKILL.md");
        let by_loader: Vec<&Diagnostic> = loaded.iter().filter(|d| d.file == file).collect();
        let by_entry = entry_problems(root, folder, options);
        assert_eq!(
            by_entry.iter().collect::<Vec<_>>(),
            by_loader,
            "{}: the entry and the loader disagree",
            root.join(folder).display()
        );
        from_entry.extend(by_entry);
    }
    assert_eq!(
        from_entry.len(),
        loaded.len(),
        "the loader reported problems outside SKILL.md: {loaded:#?}"
    );
    loaded
}

/// The skill folders right below `root`.
fn skill_folders(root: &Path) -> Vec<String> {
    let mut folders: Vec<String> = std::fs::read_dir(root)
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.path().join("SKILL.md").is_file())
        .map(|entry| entry.file_name().into_string().unwrap())
        .collect();
    folders.sort();
    folders
}

/// Every SKILL.md of the valid corpus at `root` (`count` skills) parses to
/// what the loader's tables hold.
fn valid_skills_parse_to_what_the_tables_hold(root: &Path, count: usize) {
    let loaded = load(root, &Options::default()).expect("the corpus loads");
    assert_eq!(loaded.skills().len(), count);
    for skill in loaded.skills().skills() {
        let files: Vec<&str> = skill.files().iter().map(|file| file.path()).collect();
        let file = format!("{}/SKILL.md", skill.path());
        let context = SkillMdContext::new(&file)
            .folder_name(skill.name())
            .files(&files);
        let parsed = parse_skill_md(skill.skill_md().bytes(), &context, &Options::default())
            .unwrap_or_else(|report| panic!("{report}"));
        assert_eq!(parsed.name, skill.name());
        assert_eq!(parsed.description, skill.description());
        assert_eq!(parsed.body_offset, skill.body_offset());
        assert_eq!(parsed.frontmatter["name"], skill.name());
        assert_eq!(parsed.frontmatter["description"], skill.description());
        // Sorted whatever serde_json's `preserve_order` feature says.
        let extra: BTreeMap<&String, &serde_json::Value> = parsed
            .frontmatter
            .iter()
            .filter(|(key, _)| !matches!(key.as_str(), "name" | "description"))
            .collect();
        assert_eq!(
            serde_json::to_string(&extra).unwrap(),
            skill.extra_fields_json(),
            "{file}"
        );
    }
}

#[test]
fn fixture_skills_parse_to_what_the_tables_hold() {
    valid_skills_parse_to_what_the_tables_hold(&skills_test_paths::fixture_corpus(), 7);
}

/// The tests that read `../shared`: `.ci/run` leaves them out by name
/// (`--skip shared::`) where the clone has nothing beside it.
mod shared {
    use super::*;

    #[test]
    #[ignore = "needs ../shared/corpus/real-invalid beside the clone"]
    fn real_invalid_skills_get_the_loaders_diagnostics() {
        let root = corpus("real-invalid");
        let folders = skill_folders(&root);
        assert_eq!(folders.len(), 5, "{folders:?}");
        let folders: Vec<&str> = folders.iter().map(String::as_str).collect();
        let options = Options::default();
        let loaded = assert_same_problems(&root, &folders, &options);
        // Each of the five fails, for the reason NOTES.md gives.
        for folder in &folders {
            let file = format!("{folder}/SKILL.md");
            let rules: Vec<Rule> = loaded
                .iter()
                // Warnings (a long SKILL.md) are not why it fails.
                .filter(|d| d.file == file && d.is_error())
                .map(|d| d.rule)
                .collect();
            let expected = if *folder == "claude-api" {
                Rule::FieldLength
            } else {
                Rule::NameMismatch
            };
            assert_eq!(rules, [expected], "{file}");
        }
        // Each skill loaded on its own (the root is the skill) names its file `SKILL.md`.
        for folder in &folders {
            let skill_root = root.join(folder);
            let loaded = loader_problems(&skill_root, &options);
            let bytes = std::fs::read(skill_root.join("SKILL.md")).unwrap();
            let files = files_below(&skill_root);
            let files: Vec<&str> = files.iter().map(String::as_str).collect();
            let context = SkillMdContext::new("SKILL.md")
                .folder_name(folder)
                .files(&files);
            let report = parse_skill_md(&bytes, &context, &options).unwrap_err();
            assert_eq!(report.diagnostics(), loaded, "{folder}");
            assert!(report.diagnostics().iter().all(|d| d.file == "SKILL.md"));
        }
    }

    #[test]
    #[ignore = "needs ../shared/corpus/real beside the clone"]
    fn real_valid_skills_parse_to_what_the_tables_hold() {
        valid_skills_parse_to_what_the_tables_hold(&corpus("real"), 23);
    }
}

/// A fresh folder holding `files`.
fn tree(name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let root = std::env::temp_dir().join(format!(
        "skills-core-skill-md-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&root);
    for (path, content) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    root
}

#[test]
fn broken_skill_md_files_get_the_loaders_diagnostics() {
    let cases: &[(&str, &[u8])] = &[
        ("bom", b"\xEF\xBB\xBF---\nname: s\ndescription: d\n---\n"),
        ("utf16", b"\xFF\xFE-\0-\0-\0"),
        ("latin1", b"---\nname: s\ndescription: caf\xE9\n---\n"),
        ("nul", b"---\nname: s\ndescription: d\0\n---\n"),
        ("no frontmatter", b"# Just a title\n"),
        ("trailing space", b"--- \nname: s\ndescription: d\n---\n"),
        ("not closed", b"---\nname: s\ndescription: d\n"),
        (
            "colon",
            b"---\nname: s\ndescription: Use it: always\n---\n",
        ),
        ("tab", b"---\nname: s\n\tdescription: d\n---\n"),
        ("empty", b"---\n---\nbody\n"),
        ("a list", b"---\n- a\n- b\n---\n"),
        (
            "lints and fields",
            b"---\nname: &a Bad--Name\ndescription: *a\nversion: 1.0\n<<: {x: y}\nlicense: !!str MIT\nname: again\nmetadata:\n  io.modelcontextprotocol/x: 1\n  on: yes\n---\n",
        ),
        (
            "lengths and types",
            b"---\nname: s\ndescription: \"\"\ncompatibility: 12\nallowed-tools: [Read, Bash]\nmetadata: text\n---\n",
        ),
        (
            "broken links",
            b"---\nname: broken-links\ndescription: d\n---\nSee [api](references/missing.md), run `scripts/gone.py`, and [ok](references/api.md).\n",
        ),
        (
            "mismatch and unknown",
            b"---\nname: other\ndescription: d\ndependencies: [a]\nName: x\n---\n",
        ),
    ];
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut folders = Vec::new();
    for (index, (_, text)) in cases.iter().enumerate() {
        let folder = format!("case-{index:02}");
        files.push((format!("{folder}/SKILL.md"), text.to_vec()));
        files.push((format!("{folder}/references/api.md"), b"# API\n".to_vec()));
        files.push((format!("{folder}/scripts/run.py"), b"print()\n".to_vec()));
        folders.push(folder);
    }
    let files: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(path, bytes)| (path.as_str(), bytes.as_slice()))
        .collect();
    let root = tree("broken", &files);
    let folders: Vec<&str> = folders.iter().map(String::as_str).collect();

    let strict = assert_same_problems(&root, &folders, &Options::default());
    for (index, (name, _)) in cases.iter().enumerate() {
        let file = format!("case-{index:02}/SKILL.md");
        assert!(
            strict.iter().any(|d| d.file == file),
            "case `{name}` found no problem"
        );
    }
    assert!(strict.iter().any(|d| d.rule == Rule::BrokenLink));
    assert!(strict.iter().any(|d| d.rule == Rule::UnknownField));

    let mut loose = Options::default();
    loose.check_links = false;
    loose.allow_fields = ["dependencies", "Name", "version"]
        .map(String::from)
        .to_vec();
    let loose = assert_same_problems(&root, &folders, &loose);
    assert!(loose.iter().all(|d| d.rule != Rule::BrokenLink));
    assert!(loose.iter().all(|d| d.rule != Rule::UnknownField));
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn context_turns_rules_on() {
    let text = b"---\nname: pdf\ndescription: d\n---\nRead [x](references/x.md).\n";
    let options = Options::default();
    // Without a folder name or a file list, neither rule can run.
    let parsed = parse_skill_md(text, &SkillMdContext::new("SKILL.md"), &options).unwrap();
    assert_eq!(parsed.name, "pdf");
    assert_eq!(&text[parsed.body_offset..], b"Read [x](references/x.md).\n");
    let with_folder = SkillMdContext::new("SKILL.md").folder_name("docs");
    let report = parse_skill_md(text, &with_folder, &options).unwrap_err();
    assert_eq!(
        report.rendered().collect::<Vec<_>>(),
        [
            "SKILL.md:2:7: name-mismatch: the name `pdf` differs from its folder `docs`; the specification requires them to be equal\n  help: rename the folder to `pdf`, or set `name: docs`"
        ]
    );
    let files = ["SKILL.md"];
    let with_files = SkillMdContext::new("pdf/SKILL.md").files(&files);
    let report = parse_skill_md(text, &with_files, &options).unwrap_err();
    assert_eq!(report.diagnostics()[0].rule, Rule::BrokenLink);
    assert_eq!(report.diagnostics()[0].file, "pdf/SKILL.md");
    // The display root prefixes the file, as in the loader's messages.
    let mut rooted = Options::default();
    rooted.display_root = Some("downloads".to_owned());
    let report = parse_skill_md(text, &with_files, &rooted).unwrap_err();
    assert!(
        report
            .to_string()
            .contains("downloads/pdf/SKILL.md:5:10: broken-link"),
        "{report}"
    );
    let mut unchecked = Options::default();
    unchecked.check_links = false;
    assert!(parse_skill_md(text, &with_files, &unchecked).is_ok());
}

/// `inspect_skill_md` reports exactly what `parse_skill_md` reports, and
/// still gives the frontmatter when rules are broken.
#[test]
fn inspect_agrees_with_parse() {
    use skills_core::{Options, SkillMdContext, inspect_skill_md, parse_skill_md};
    let files = ["SKILL.md", "references/a.md"];
    let cases = [
        "---\nname: pdf\ndescription: Fill forms.\n---\nSee [a](references/a.md).\n",
        "---\nname: PDF\ndescription: Fill forms.\nbeta: yes\ndependencies: [a]\n---\nSee [b](references/b.md).\n",
        "---\nname: pdf\n---\n",
        "no frontmatter\n",
        "---\nname: [unclosed\n---\n",
    ];
    for text in cases {
        let context = SkillMdContext::new("pdf/SKILL.md")
            .folder_name("pdf")
            .files(&files);
        let parsed = parse_skill_md(text.as_bytes(), &context, &Options::default());
        let inspected = inspect_skill_md(text.as_bytes(), &context, &Options::default());
        match parsed {
            Ok(skill) => {
                assert!(inspected.problems.is_none(), "{text}");
                assert_eq!(inspected.frontmatter, Some(skill.frontmatter), "{text}");
            }
            Err(report) => {
                let problems = inspected.problems.expect("the same problems");
                assert_eq!(problems.to_string(), report.to_string(), "{text}");
            }
        }
    }
    let broken = inspect_skill_md(
        cases[1].as_bytes(),
        &SkillMdContext::new("SKILL.md"),
        &Options::default(),
    );
    let frontmatter = broken
        .frontmatter
        .expect("readable YAML despite the broken rules");
    assert_eq!(frontmatter["name"], "PDF");
    assert_eq!(frontmatter["dependencies"][0], "a");
    assert!(
        inspect_skill_md(
            cases[3].as_bytes(),
            &SkillMdContext::new("SKILL.md"),
            &Options::default()
        )
        .frontmatter
        .is_none()
    );
}
