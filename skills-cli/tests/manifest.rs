//! `skills manifest` prints, byte for byte, what
//! `SKILLS_DIR=<dir> cargo run --example manifest` prints: the same folder,
//! loaded at run time instead of embedded at compile time, through the same
//! wire functions.

use crate::support;

use std::path::Path;
use std::process::Command;

use skills_test_support::{examples, needs};
use support::{TempDir, skill_md, skills, workspace};

/// `skills manifest <corpus>` prints what the manifest example built to embed
/// `corpus` prints, byte for byte.
fn the_manifest_is_the_examples(corpus: &Path, expect_uri: &str) {
    let corpus = corpus.canonicalize().unwrap();
    let example = Command::new(examples::executable_embedding("manifest", &corpus))
        .output()
        .expect("the example runs");
    assert!(
        example.status.success(),
        "the example failed:\n{}",
        String::from_utf8_lossy(&example.stderr)
    );
    let expected = String::from_utf8(example.stdout).expect("the example prints UTF-8");
    let run = skills(&workspace(), &["manifest", corpus.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(expected.contains(expect_uri), "{expect_uri} in {expected}");
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
fn the_manifest_is_the_examples_byte_for_byte() {
    the_manifest_is_the_examples(
        &needs::fixture_corpus(),
        "skill://greenhouse/seedlings/SKILL.md",
    );
}

/// The tests that read `../shared`: `.ci/run` leaves them out by name
/// (`--skip shared::`) where the clone has nothing beside it.
mod shared {
    use super::*;

    #[test]
    #[ignore = "needs ../shared/corpus/real beside the clone"]
    fn the_manifest_of_the_real_corpus_is_the_examples_byte_for_byte() {
        the_manifest_is_the_examples(
            &needs::shared("corpus/real"),
            "skill://canvas-design/SKILL.md",
        );
    }
}

#[test]
fn the_index_lists_every_skill_with_its_digest() {
    let run = skills(&workspace(), &["manifest", "--index", "examples/skills"]);
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
