//! What a live loader and an installer need from the rule book: a lenient
//! load per skill, rule profiles, several roots merged, agents' folders from
//! the vendor table (with a temporary HOME), and links at a vendor root.

use std::path::{Path, PathBuf};

use skills_core::vendor::{Agent, Environment};
use skills_core::{Options, Rule, Severity, load, load_lenient, load_roots};

/// A fresh folder holding `files`.
fn tree(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root =
        std::env::temp_dir().join(format!("skills-core-lenient-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    write(&root, files);
    root
}

fn write(root: &Path, files: &[(&str, &str)]) {
    for (path, content) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
}

fn skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does a thing.\n---\n# {name}\n")
}

fn paths(skills: &skills_core::Skills) -> Vec<&str> {
    skills.skills().iter().map(|skill| skill.path()).collect()
}

#[test]
fn one_bad_skill_no_longer_means_no_skills() {
    let token = format!("ghp_{}", "Zq8wNc3VrT6yLp2KdX9mHs4JbF7gA1eQ5tY0");
    let root = tree(
        "per-skill",
        &[
            ("good/SKILL.md", &skill("good")),
            ("misnamed/SKILL.md", &skill("other")),
            ("leaky/SKILL.md", &skill("leaky")),
            ("leaky/notes.md", &token),
            // A parent serves its nested skill's files: a secret there refuses both.
            ("outer/SKILL.md", &skill("outer")),
            ("outer/inner/SKILL.md", &skill("inner")),
            ("outer/inner/key.md", &token),
            // A frontmatter error in a nested skill refuses it alone.
            ("box/SKILL.md", &skill("box")),
            ("box/toy/SKILL.md", "---\nname: toy\n---\n"),
            ("twin-a/dup/SKILL.md", &skill("dup")),
            ("twin-b/dup/SKILL.md", &skill("dup")),
            ("drafts/notes.md", "a stray folder refuses nothing"),
        ],
    );
    // The strict load refuses the whole tree...
    assert!(load(&root, &Options::default()).is_err());
    // ...the lenient one only what is broken.
    let lenient = load_lenient(&root, &Options::default());
    assert_eq!(paths(lenient.skills()), ["box", "good", "twin-a/dup"]);
    let refused: Vec<(&str, Vec<Rule>)> = lenient
        .refused()
        .iter()
        .map(|refused| {
            (
                refused.folder.as_str(),
                refused.errors.iter().map(|d| d.rule).collect(),
            )
        })
        .collect();
    assert_eq!(
        refused,
        [
            ("box/toy", vec![Rule::RequiredField]),
            ("leaky", vec![Rule::Secret]),
            ("misnamed", vec![Rule::NameMismatch]),
            ("outer", vec![Rule::Secret]),
            ("outer/inner", vec![Rule::Secret]),
            ("twin-b/dup", vec![Rule::DuplicateName]),
        ]
    );
    assert!(lenient.has_errors());
    let report = &lenient.reports()[0];
    assert!(report.errors().any(|d| d.rule == Rule::NotASkill));
    // What loaded serves from disk as usual.
    let loaded = lenient.loaded();
    let index = loaded.skills().position("good").unwrap();
    assert_eq!(loaded.skill_dir(index), root.join("good"));
    // The lenient set is what a strict load of only the good skills gives.
    let clean = tree("per-skill-clean", &[("good/SKILL.md", &skill("good"))]);
    let good = load(&clean, &Options::default()).unwrap();
    assert_eq!(
        good.skills().get("good").unwrap().version(),
        lenient.skills().get("good").unwrap().version()
    );
    std::fs::remove_dir_all(root).unwrap();
    std::fs::remove_dir_all(clean).unwrap();
}

#[test]
fn a_missing_root_is_reported_and_loads_nothing() {
    let lenient = load_lenient(Path::new("/nonexistent/skills"), &Options::default());
    assert!(lenient.skills().is_empty());
    assert_eq!(
        lenient.reports()[0].diagnostics()[0].rule,
        Rule::RootMissing
    );
}

#[test]
fn profiles_accept_what_the_agent_accepts() {
    let text = "---\nname: deploy\ndescription: Deploys.\ndisable-model-invocation: true\nargument-hint: \"[env]\"\nallowed-tools:\n  - Read\n  - Bash(git:*)\n---\n";
    let root = tree("profiles", &[("deploy/SKILL.md", text)]);
    let strict = load(&root, &Options::default()).unwrap_err();
    let rules: Vec<Rule> = strict.diagnostics().iter().map(|d| d.rule).collect();
    assert_eq!(
        rules,
        [Rule::UnknownField, Rule::UnknownField, Rule::FieldType]
    );
    let claude = load(&root, &Options::claude_code()).unwrap();
    let skill = claude.skills().get("deploy").unwrap();
    assert!(
        skill
            .extra_fields_json()
            .contains("\"allowed-tools\":[\"Read\",\"Bash(git:*)\"]")
    );
    // Claude Code's profile still catches a typo.
    write(
        &root,
        &[(
            "deploy/SKILL.md",
            &text.replace("argument-hint", "argumnt-hint"),
        )],
    );
    assert_eq!(
        load(&root, &Options::claude_code())
            .unwrap_err()
            .diagnostics()[0]
            .rule,
        Rule::UnknownField
    );
    assert!(load(&root, &Options::any_fields()).is_ok());
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn roots_merge_first_wins_with_a_warning_naming_both() {
    let first = tree(
        "merge-first",
        &[
            ("pdf/SKILL.md", &skill("pdf")),
            ("csv/SKILL.md", &skill("csv")),
        ],
    );
    let second = tree(
        "merge-second",
        &[
            ("pdf/SKILL.md", &skill("pdf")),
            ("pdf/extra.md", "a different copy"),
            ("xlsx/SKILL.md", &skill("xlsx")),
            ("broken/SKILL.md", "no frontmatter"),
        ],
    );
    let missing = first.join("does-not-exist");
    let merged = load_roots(&[&first, &missing, &second, &first], &Options::default());
    assert_eq!(paths(merged.skills()), ["csv", "pdf", "xlsx"]);
    let loaded = merged.loaded();
    let pdf = loaded.skills().position("pdf").unwrap();
    assert_eq!(
        loaded.skill_dir(pdf),
        first.join("pdf"),
        "the first root wins"
    );
    let xlsx = loaded.skills().position("xlsx").unwrap();
    assert_eq!(loaded.skill_dir(xlsx), second.join("xlsx"));
    assert_eq!(loaded.roots().len(), 4);
    assert!(
        merged.reports()[3].is_empty(),
        "a root given twice is read once"
    );
    // The missing root is skipped silently; the second reports the shadowed
    // copy (a warning naming both) and the broken skill (an error).
    assert!(merged.reports()[1].is_empty());
    let second_report = &merged.reports()[2];
    let shadowed = second_report
        .diagnostics()
        .iter()
        .find(|d| d.rule == Rule::DuplicateName)
        .unwrap();
    assert_eq!(shadowed.severity, Severity::Warning);
    assert_eq!(shadowed.file, "pdf/SKILL.md");
    assert!(
        shadowed
            .message
            .contains(&format!("`{}/pdf`", first.display())),
        "{}",
        shadowed.message
    );
    assert!(
        shadowed
            .render(second_report.root())
            .contains(&second.display().to_string())
    );
    assert_eq!(merged.refused()[0].folder, "broken");
    assert_eq!(merged.refused()[0].root, 2);
    assert!(
        loaded
            .warnings()
            .iter()
            .any(|d| d.rule == Rule::DuplicateName)
    );
    std::fs::remove_dir_all(first).unwrap();
    std::fs::remove_dir_all(second).unwrap();
}

#[cfg(unix)]
#[test]
fn links_at_a_vendor_root_are_followed_and_links_inside_refused() {
    let dotfiles = tree(
        "dotfiles",
        &[
            ("pdf/SKILL.md", &skill("pdf")),
            ("pdf/references/a.md", "a"),
        ],
    );
    let root = tree("vendor-root", &[("csv/SKILL.md", &skill("csv"))]);
    std::os::unix::fs::symlink(dotfiles.join("pdf"), root.join("pdf")).unwrap();
    std::os::unix::fs::symlink(
        dotfiles.join("pdf/references/a.md"),
        root.join("csv/link.md"),
    )
    .unwrap();
    // Strict rules: the top-level link is refused like any other.
    let strict = load(&root, &Options::default()).unwrap_err();
    let rules: Vec<(Rule, &str)> = strict
        .diagnostics()
        .iter()
        .map(|d| (d.rule, d.file.as_str()))
        .collect();
    assert_eq!(
        rules,
        [(Rule::Symlink, "csv/link.md"), (Rule::Symlink, "pdf")]
    );
    // Following top-level links: `pdf` loads through its link; the link
    // inside `csv` is still refused, so `csv` alone is left out.
    let lenient = load_lenient(&root, &Options::default().following_top_level_links());
    assert_eq!(paths(lenient.skills()), ["pdf"]);
    let pdf = lenient.skills().get("pdf").unwrap();
    assert_eq!(pdf.files().len(), 2);
    assert_eq!(lenient.refused()[0].folder, "csv");
    assert_eq!(lenient.refused()[0].errors[0].rule, Rule::Symlink);
    std::fs::remove_dir_all(root).unwrap();
    std::fs::remove_dir_all(dotfiles).unwrap();
}

#[test]
fn an_agents_folders_load_from_a_temporary_home() {
    let home = tree(
        "home",
        &[
            (".claude/skills/pdf/SKILL.md", &skill("pdf")),
            (
                ".claude/skills/deploy/SKILL.md",
                "---\nname: deploy\ndescription: Deploys.\ndisable-model-invocation: true\n---\n",
            ),
            (".agents/skills/pdf/SKILL.md", &skill("pdf")),
            (".agents/skills/csv/SKILL.md", &skill("csv")),
            (".copilot/skills/xlsx/SKILL.md", &skill("xlsx")),
        ],
    );
    let env = Environment::new(&home);
    let copilot = Agent::GITHUB_COPILOT;
    let merged = load_roots(&copilot.user_roots(&env), &copilot.options());
    assert_eq!(paths(merged.skills()), ["csv", "deploy", "pdf", "xlsx"]);
    let loaded = merged.loaded();
    let pdf = loaded.skills().position("pdf").unwrap();
    assert_eq!(
        loaded.skill_dir(pdf),
        home.join(".agents/skills/pdf"),
        "Copilot reads ~/.agents/skills before ~/.claude/skills"
    );
    assert!(!merged.has_errors(), "{:#?}", merged.reports());
    // Claude Code reads its own folder only, moved by CLAUDE_CONFIG_DIR.
    let claude = Agent::CLAUDE_CODE;
    let moved = Environment::new(&home).var("CLAUDE_CONFIG_DIR", home.join(".agents"));
    let merged = load_roots(&claude.user_roots(&moved), &claude.options());
    assert_eq!(paths(merged.skills()), ["csv", "pdf"]);
    assert!(Agent::CLAUDE_CODE.is_present(&env));
    assert!(!Agent::CODEX.is_present(&env));
    std::fs::remove_dir_all(home).unwrap();
}
