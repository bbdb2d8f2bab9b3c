//! What CI users copy: the pre-commit hook at the repository's root runs
//! `skills check` on a folder (its `entry` and `args` run here as pre-commit
//! would run them), and fails the commit exactly when the folder breaks a
//! rule.

use crate::support;

use std::collections::BTreeMap;

use support::{SKILLS, TempDir, skill_md, workspace};

#[derive(Debug, serde::Deserialize)]
struct Hook {
    id: String,
    entry: String,
    language: String,
    #[serde(default)]
    args: Vec<String>,
    files: String,
    pass_filenames: bool,
    #[serde(flatten)]
    _rest: BTreeMap<String, serde_json::Value>,
}

#[test]
fn the_pre_commit_hook_runs_skills_check_on_the_folder() {
    let text = std::fs::read_to_string(workspace().join(".pre-commit-hooks.yaml")).unwrap();
    let hooks: Vec<Hook> = serde_saphyr::from_str(&text).expect("the hooks file is YAML");
    let [hook] = hooks.as_slice() else {
        panic!("one hook: {hooks:?}");
    };
    assert_eq!(hook.id, "skills-check");
    assert_eq!(hook.language, "unsupported", "runs the installed binary");
    // pre-commit would otherwise append every staged file as a folder to check.
    assert!(!hook.pass_filenames);
    assert!(hook.files.starts_with("^skills/"));
    let mut words = hook.entry.split_whitespace();
    assert_eq!(words.next(), Some("skills"));
    let run = |dir: &TempDir| {
        std::process::Command::new(SKILLS)
            .args(words.clone())
            .args(&hook.args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let good = TempDir::new("hook-good");
    good.write("skills/pdf/SKILL.md", &skill_md("pdf", ""));
    let output = run(&good);
    assert!(output.status.success(), "{output:?}");
    let bad = TempDir::new("hook-bad");
    bad.write("skills/pdf/SKILL.md", &skill_md("pdf-tools", ""));
    let output = run(&bad);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).contains(" --> skills/pdf/SKILL.md:2:7"));
}
