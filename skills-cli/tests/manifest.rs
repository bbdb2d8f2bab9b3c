//! `skills manifest` prints, byte for byte, what
//! `SKILLS_DIR=<dir> cargo run --example manifest` prints: the same folder,
//! loaded at run time instead of embedded at compile time, through the same
//! wire functions.

mod support;

use std::process::Command;

use support::{TempDir, skill_md, skills, workspace};

#[test]
fn the_manifest_is_the_examples_byte_for_byte() {
    let workspace = workspace();
    let corpus = workspace.join("../shared/corpus/real");
    assert!(
        corpus.is_dir(),
        "{} is missing: clone this repository beside the shared folder",
        corpus.display()
    );
    let corpus = corpus.canonicalize().unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let example = Command::new(cargo)
        .args(["run", "--quiet", "--locked", "--example", "manifest"])
        .arg("--manifest-path")
        .arg(workspace.join("Cargo.toml"))
        .env("SKILLS_DIR", &corpus)
        .env_remove("OUT_DIR")
        .output()
        .expect("cargo runs");
    assert!(
        example.status.success(),
        "the example failed:\n{}",
        String::from_utf8_lossy(&example.stderr)
    );
    let expected = String::from_utf8(example.stdout).expect("the example prints UTF-8");
    let run = skills(&workspace, &["manifest", "../shared/corpus/real"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(expected.len() > 10_000, "the corpus listing is long");
    if run.stdout != expected {
        let line = run
            .stdout
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b);
        panic!(
            "`skills manifest` and the example differ (first at line {line:?}; lengths {} and {})",
            run.stdout.len(),
            expected.len()
        );
    }
}

#[test]
fn the_index_lists_every_skill_with_its_digest() {
    let run = skills(&workspace(), &["manifest", "--index", "skills"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let index: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        index["$schema"],
        "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
    );
    let names: Vec<&str> = index["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skill| skill["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["recipe-scaling", "purchase-orders", "stock-audit"]);
    assert!(
        index["skills"][1]["digest"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );
}

#[test]
fn a_refused_folder_prints_its_problems_on_stderr_only() {
    let dir = TempDir::new("manifest-refused");
    dir.write("s/pdf/SKILL.md", &skill_md("pdf-tools", ""));
    let run = skills(dir.path(), &["manifest", "s"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("error[name-mismatch]")
            && run.stderr.contains(" --> s/pdf/SKILL.md:2:7"),
        "{}",
        run.stderr
    );
    // The rules' options apply here too.
    let dir = TempDir::new("manifest-options");
    dir.write("s/a/SKILL.md", &skill_md("a", "author: me\n"));
    assert_eq!(skills(dir.path(), &["manifest", "s"]).code, 1);
    let allowed = skills(dir.path(), &["manifest", "--allow-field", "author", "s"]);
    assert_eq!(allowed.code, 0, "{allowed:?}");
    assert!(
        allowed.stdout.contains("\"author\": \"me\""),
        "{}",
        allowed.stdout
    );
}
