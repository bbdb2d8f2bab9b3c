//! Diagnostics a new user can act on: every hint leads to a file the rules
//! accept (applied mechanically here, then checked again), every frontmatter
//! message names its key path, YAML errors are recognised in their common
//! shapes, and one run reports every problem.

use std::path::PathBuf;

use skills_core::{
    Diagnostic, Fix, Library, Options, Renderer, Rule, Severity, SkillMdContext, load,
    parse_skill_md,
};

/// The files a case's skill holds besides SKILL.md.
const FILES: [&str; 3] = ["SKILL.md", "docs/api.md", "scripts/run.py"];

fn problems(text: &str, folder: &str, options: &Options) -> Vec<Diagnostic> {
    let context = SkillMdContext::new("SKILL.md")
        .folder_name(folder)
        .files(&FILES);
    match parse_skill_md(text.as_bytes(), &context, options) {
        Ok(skill) => skill.warnings,
        Err(report) => report.diagnostics().to_vec(),
    }
}

fn errors(text: &str, folder: &str, options: &Options) -> Vec<Diagnostic> {
    problems(text, folder, options)
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect()
}

/// Applies every fix and every option the diagnostics offer, as a `--fix`
/// and an author following the hints would, until the file passes (or no
/// hint is mechanical). Returns the final text and options.
fn follow_hints(text: &str, folder: &str) -> (String, Options, Vec<Rule>) {
    let mut text = text.to_owned();
    let mut options = Options::default();
    let mut seen = Vec::new();
    for _ in 0..4 {
        let found = errors(&text, folder, &options);
        if found.is_empty() {
            break;
        }
        seen.extend(found.iter().map(|d| d.rule));
        let fixes: Vec<&Fix> = found.iter().filter_map(|d| d.fix.as_ref()).collect();
        let (fixed, applied) = Fix::apply_all(&text, fixes);
        text = fixed;
        let mut changed = applied > 0;
        for option in found.iter().filter_map(|d| d.option.as_ref()) {
            option.apply(&mut options);
            changed = true;
        }
        assert!(changed, "no mechanical hint for {found:#?}\nin {text}");
    }
    (text, options, seen)
}

#[test]
fn every_mechanical_hint_leads_to_an_accepted_file() {
    let cases: &[(&str, &str, &str)] = &[
        // (folder, SKILL.md, a text the fixed file must contain)
        (
            "pdf",
            "---\nname: pdf\ndescription: d\nmetadata:\n  version: 1.10\n---\n",
            "version: \"1.10\"",
        ),
        (
            "pdf",
            "---\nname: pdf\ndescription: d\nmetadata:\n  internal: yes\n---\n",
            "internal: \"yes\"",
        ),
        (
            "pdf",
            "---\nname: pdf\ndescription: d\nlicense: 2.0\n---\n",
            "license: \"2.0\"",
        ),
        (
            "pdf",
            "---\nname: pdf-tools\ndescription: d\n---\n",
            "name: pdf\n",
        ),
        (
            "pdf",
            "---\nname: Pdf\ndescription: d\n---\n",
            "name: pdf\n",
        ),
        ("pdf", "---\ndescription: d\n---\n", "name: pdf\n"),
        (
            "pdf",
            "---\nName: pdf\ndescription: d\n---\n",
            "name: pdf\n",
        ),
        (
            "pdf",
            "---\nname: pdf\ndescription: d\nallowed-tools:\n  - Read\n  - Bash(git:*)\n---\nbody\n",
            "allowed-tools: \"Read Bash(git:*)\"\n---",
        ),
        (
            "pdf",
            "---\nname: pdf\ndescription: d\nauthor: me\n---\n",
            "author: me",
        ),
        (
            "pdf",
            "---\nname: pdf\ndescription: d\n1: one\n---\n",
            "\"1\": one",
        ),
        (
            "pdf",
            "---\nname: pdf\ndescription: d\n---\nSee [the API](references/api.md).\n",
            "(docs/api.md)",
        ),
        (
            "pdf",
            "---\nname: pdf\ndescription: d\n---\nSee [the guide](references/guide.md).\n",
            "references/guide.md",
        ),
        (
            "pdf",
            "---\nname: pdf\ndescription: Use this skill when: the user asks\n---\n",
            "description: \"Use this skill when: the user asks\"",
        ),
        (
            "pdf",
            "---\nname: pdf\n  description: Fill forms.\n---\n",
            "name: pdf\ndescription: Fill forms.",
        ),
        (
            "pdf",
            "---\nname: pdf\ndescription: Fill PDF forms when\nthe user asks\n---\n",
            "when\n  the user asks",
        ),
        (
            "pdf",
            // Tab to spaces, then the over-indented key lined up.
            "---\nname: pdf\n\tdescription: Fill forms.\n---\n",
            "name: pdf\ndescription: Fill forms.",
        ),
        (
            "pdf",
            "---\nname: pdf\ndescription: \"Fill PDF forms\n---\n",
            "\"Fill PDF forms\"",
        ),
        (
            "pdf",
            "---\nname: pdf\ndescription: d\nmetadata:\n  since: 2024-01-01\n  count: 0123\n---\n",
            "since: \"2024-01-01\"\n  count: \"0123\"",
        ),
        (
            "pdf",
            "---\nname: pdf\ndescription: Counts stock #inventory and explains variances.\n---\n",
            "description: \"Counts stock #inventory and explains variances.\"",
        ),
        (
            "pdf",
            "---\nname: pdf # the PDF skill\ndescription: d\n---\n",
            "# the PDF skill\nname: pdf\n",
        ),
        (
            "pdf",
            "---\nname: pdf\ndescription: d\n---\nRun [it](scripts/rn.py).\n",
            "[it](scripts/run.py)",
        ),
        (
            "pdf",
            "---\nname: pdf\ndescription: d\n---\nAsk [the kitchen skill](../kitchen/SKILL.md).\n",
            "../kitchen/SKILL.md",
        ),
    ];
    for (folder, text, expected) in cases {
        let (fixed, options, seen) = follow_hints(text, folder);
        assert!(!seen.is_empty(), "{text:?} broke no rule");
        assert_eq!(
            errors(&fixed, folder, &options),
            [],
            "{text:?} became {fixed:?}"
        );
        assert!(
            fixed.contains(expected),
            "{text:?} became {fixed:?}, without {expected:?}"
        );
    }
}

#[test]
fn hints_that_cannot_be_applied_still_lead_to_an_accepted_file() {
    // A required field cannot be removed; metadata values must stay text.
    let empty = errors(
        "---\nname: pdf\ndescription: \"\"\n---\n",
        "pdf",
        &Options::default(),
    );
    let hint = empty[0].hint.as_deref().unwrap();
    assert!(!hint.contains("remove"), "{hint}");
    let flag = errors(
        "---\nname: pdf\ndescription: d\nmetadata:\n  beta: yes\n---\n",
        "pdf",
        &Options::default(),
    );
    let hint = flag[0].hint.as_deref().unwrap();
    assert!(!hint.contains("true"), "{hint}");
    // Except `internal`, the `skills` CLI's flag, which is a boolean.
    let internal = errors(
        "---\nname: pdf\ndescription: d\nmetadata:\n  internal: yes\n---\n",
        "pdf",
        &Options::default(),
    );
    let hint = internal[0].hint.as_deref().unwrap();
    assert!(hint.contains("`true`/`false`"), "{hint}");
    // An unknown key holding a list cannot go under metadata.
    let list = errors(
        "---\nname: pdf\ndescription: d\ntags: [a, b]\n---\n",
        "pdf",
        &Options::default(),
    );
    let hint = list[0].hint.as_deref().unwrap();
    assert!(!hint.contains("move it under"), "{hint}");
    // The number is quoted as written, not as parsed.
    let version = errors(
        "---\nname: pdf\ndescription: d\nmetadata:\n  version: 1.10\n---\n",
        "pdf",
        &Options::default(),
    );
    assert!(version[0].message.contains("`1.10`"), "{:?}", version[0]);
    assert!(version[0].hint.as_deref().unwrap().contains("\"1.10\""));
}

#[test]
fn frontmatter_messages_name_the_key_path() {
    let text = "---\nname: pdf\ndescription: d\nmetadata:\n  beta: yes\n  version: 1.0\n  io.modelcontextprotocol/x: \"y\"\nx-list:\n  - on\n---\n";
    let mut options = Options::default();
    options.allow_fields = vec!["x-list".into()];
    let found = errors(text, "pdf", &options);
    let messages: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
    for path in [
        "`metadata.beta`",
        "`metadata.version`",
        "`metadata.io.modelcontextprotocol/x`",
        "`x-list[0]`",
    ] {
        assert!(
            messages.iter().any(|message| message.contains(path)),
            "{path} in {messages:#?}"
        );
    }
    let duplicate = errors(
        "---\nname: pdf\ndescription: d\nmetadata:\n  a: \"1\"\n  a: \"2\"\n---\n",
        "pdf",
        &Options::default(),
    );
    assert!(
        duplicate[0].message.contains("`metadata.a` is set twice"),
        "{duplicate:?}"
    );
}

#[test]
fn yaml_errors_are_recognised_in_their_common_shapes() {
    let cases = [
        (
            "---\nname: pdf\n  description: Fill forms.\n---\n",
            3,
            "`description:` is indented more than `name:`",
        ),
        (
            "---\nname: pdf\ndescription: Fill PDF forms when\nthe user asks\n---\n",
            4,
            "continues the value of `description` but is not indented",
        ),
        (
            "---\nname: pdf\n\tdescription: b\n---\n",
            3,
            "indented with a tab",
        ),
        (
            "---\nname: pdf\ndescription: 'Fill forms\nlicense: MIT\n---\n",
            3,
            "the quote that opens the value of `description` is never closed",
        ),
        (
            "---\nname: pdf\ndescription: Use when: asked\n---\n",
            3,
            "an unquoted `: ` in the value of `description`",
        ),
    ];
    for (text, line, words) in cases {
        let found = errors(text, "pdf", &Options::default());
        assert_eq!(found.len(), 1, "{text:?}: {found:#?}");
        assert_eq!(found[0].rule, Rule::YamlSyntax);
        assert_eq!(found[0].line, Some(line), "{text:?}: {:?}", found[0]);
        assert!(
            found[0].message.contains(words),
            "{text:?}: {}",
            found[0].message
        );
        assert!(found[0].source_line.is_some());
    }
}

/// A fresh folder holding `files`.
fn tree(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = std::env::temp_dir().join(format!(
        "skills-core-diagnostics-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    for (path, content) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    root
}

fn skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does a thing.\n---\n# {name}\n")
}

#[test]
fn folder_problems_do_not_hide_frontmatter_errors() {
    let root = tree(
        "all-at-once",
        &[
            (
                "a/SKILL.md",
                "---\nname: a\ndescription: d\nmetadata:\n  beta: yes\n---\n",
            ),
            ("b/SKILL.md", "---\nname: wrong\ndescription: d\n---\n"),
            ("drafts/ideas.md", "not a skill"),
            ("c/SKILL.md", &skill("c")),
            ("c/what?.md", "x"),
        ],
    );
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("drafts/ideas.md"), root.join("c/link.md")).unwrap();
    let report = load(&root, &Options::default()).unwrap_err();
    let rules: Vec<(Rule, &str)> = report
        .diagnostics()
        .iter()
        .map(|d| (d.rule, d.file.as_str()))
        .collect();
    let mut expected = vec![
        (Rule::AmbiguousScalar, "a/SKILL.md"),
        (Rule::NameMismatch, "b/SKILL.md"),
        (Rule::UnportableName, "c/what?.md"),
        (Rule::NotASkill, "drafts"),
    ];
    #[cfg(unix)]
    expected.insert(2, (Rule::Symlink, "c/link.md"));
    assert_eq!(rules, expected);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn warnings_are_reported_and_never_fail() {
    let long: String = (0..520).map(|n| format!("line {n}\n")).collect();
    let wordy = "word ".repeat(4200);
    let root = tree(
        "warnings",
        &[
            (
                "long/SKILL.md",
                &format!("---\nname: long\ndescription: d\n---\n{long}"),
            ),
            (
                "wordy/SKILL.md",
                &format!("---\nname: wordy\ndescription: d\n---\n{wordy}\n"),
            ),
            (
                "deep/SKILL.md",
                "---\nname: deep\ndescription: d\n---\nRead [the guide](references/guide.md) and [the API](references/api.md).\n",
            ),
            (
                "deep/references/guide.md",
                "# Guide\nSee [details](details.md), [the API](api.md) and [the index](../SKILL.md).\n",
            ),
            ("deep/references/details.md", "details"),
            ("deep/references/api.md", "api"),
        ],
    );
    let loaded = load(&root, &Options::default()).expect("warnings do not fail a load");
    let warnings: Vec<(Rule, &str, Option<u32>)> = loaded
        .warnings()
        .iter()
        .map(|d| (d.rule, d.file.as_str(), d.line))
        .collect();
    assert_eq!(
        warnings,
        [
            (Rule::NestedReference, "deep/references/guide.md", Some(2)),
            (Rule::TooManyLines, "long/SKILL.md", Some(501)),
            (Rule::TooManyTokens, "wordy/SKILL.md", None),
        ]
    );
    assert!(
        loaded
            .warnings()
            .iter()
            .all(|d| d.severity == Severity::Warning)
    );
    let nested = &loaded.warnings()[0];
    assert!(
        nested
            .message
            .contains("`references/details.md` is reached only through `references/guide.md`"),
        "{nested:?}"
    );
    let rendered = Renderer::new(&Library).diagnostic(nested, "skills");
    assert!(
        rendered.starts_with("warning[nested-reference]:"),
        "{rendered}"
    );
    // With link checks off, nested references are not looked at either.
    let mut off = Options::default();
    off.check_links = false;
    assert_eq!(load(&root, &off).unwrap().warnings().len(), 2);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn links_in_the_files_skill_md_sends_the_agent_to_are_checked_too() {
    let guide = "# Guide\nSee [the API](api.md), [the tables](tabels.md#top) and [the script](../scripts/run.py).\n\
                 Then [the deep one](deep/more.md), [missing](deep/nowhere.md), [out](../../kitchen/SKILL.md).\n\
                 `not/a/link.md` is code; [site](https://example.com) is a URL.\n\
                 ```\n[fenced](fenced.md)\n```\n";
    let root = tree(
        "referenced",
        &[
            (
                "s/SKILL.md",
                "---\nname: s\ndescription: d\n---\nRead [the guide](references/guide.md) and [the API](references/api.md).\n",
            ),
            ("s/references/guide.md", guide),
            ("s/references/api.md", "api"),
            ("s/references/tables.md", "tables"),
            (
                "s/references/deep/more.md",
                "[back up](../../SKILL.md) [lost](lost.md)",
            ),
            ("s/scripts/run.py", "print()"),
            // Not reached from SKILL.md: a template's links are not promises.
            ("s/assets/template.md", "[x](filled-in-later.md)"),
        ],
    );
    let report = load(&root, &Options::default()).expect_err("broken links in references fail");
    type Found<'d> = (Rule, &'d str, Option<u32>, Option<u32>, Option<&'d str>);
    let found: Vec<Found> = report
        .diagnostics()
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.rule, d.file.as_str(), d.line, d.column, d.hint.as_deref()))
        .collect();
    let hint = "add the file to the skill or fix the path; if the link is not meant to name a file of the skill, the check can be turned off";
    let outside = report
        .diagnostics()
        .iter()
        .find(|d| d.rule == Rule::LinkOutsideSkill)
        .and_then(|d| d.hint.as_deref());
    assert!(
        outside
            .is_some_and(|hint| hint.starts_with("a skill is served, synced and installed alone")),
        "{outside:?}"
    );
    assert_eq!(
        found,
        [
            (
                Rule::BrokenLink,
                "s/references/deep/more.md",
                Some(1),
                Some(34),
                Some(hint)
            ),
            (
                Rule::BrokenLink,
                "s/references/guide.md",
                Some(2),
                Some(37),
                Some("did you mean `tables.md`?")
            ),
            (
                Rule::BrokenLink,
                "s/references/guide.md",
                Some(3),
                Some(46),
                Some(hint)
            ),
            (
                Rule::LinkOutsideSkill,
                "s/references/guide.md",
                Some(3),
                Some(70),
                outside
            ),
        ],
        "{report}"
    );
    let tables = report
        .diagnostics()
        .iter()
        .find(|d| d.hint.as_deref() == Some("did you mean `tables.md`?"))
        .expect("the typing mistake is found");
    assert!(
        tables
            .message
            .contains("references/guide.md refers to `tabels.md#top`"),
        "{tables:?}"
    );
    // The fix writes the link relative to the file it is in, and the fixed
    // file passes that check.
    let fixes: Vec<&Fix> = report
        .diagnostics()
        .iter()
        .filter_map(|d| d.fix.as_ref())
        .collect();
    let (fixed, applied) = Fix::apply_all(guide, fixes);
    assert_eq!(applied, 1);
    assert!(fixed.contains("[the tables](tables.md#top)"), "{fixed}");
    // The check is the link check: turned off with it.
    let mut off = Options::default();
    off.check_links = false;
    assert!(load(&root, &off).is_ok());
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn the_token_estimate_is_documented_and_stable() {
    assert_eq!(skills_core::estimate_tokens(""), 0);
    assert_eq!(skills_core::estimate_tokens("abcd"), 1);
    assert_eq!(skills_core::estimate_tokens("abcde"), 2);
    assert_eq!(
        skills_core::estimate_tokens("éééé"),
        1,
        "characters, not bytes"
    );
}

#[test]
fn a_report_renders_every_problem_with_its_line() {
    let root = tree(
        "render",
        &[(
            "pdf/SKILL.md",
            "---\nname: pdf-tools\ndescription: d\n---\n",
        )],
    );
    let mut options = Options::default();
    options.display_root = Some("skills".into());
    let report = load(&root, &options).unwrap_err();
    let rendered = Renderer::new(&Library).report(&report);
    assert_eq!(
        rendered,
        "error[name-mismatch]: the name `pdf-tools` differs from its folder `pdf`; the specification requires them to be equal\n --> skills/pdf/SKILL.md:2:7\n  |\n2 | name: pdf-tools\n  |       ^^^^^^^^^\n  |\n  = help: rename the folder to `pdf-tools`, or set `name: pdf`\n\n1 problem in skills"
    );
    std::fs::remove_dir_all(root).unwrap();
}
