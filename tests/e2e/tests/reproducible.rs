//! Reproducible tables: replicas built in different places must advertise
//! the same skills, or hosts that pinned a skill's version revoke consent.
//!
//! The committed HEAD is cloned twice, at two different absolute paths, and
//! `examples/manifest` is built in each with `SKILLS_DIR` set to the absolute
//! path of that clone's fixture corpus (`tests/fixtures/corpus`: binary
//! files, executable scripts, nested skills), so even the embedded folder's
//! path differs (one target folder, this test's own, so registry
//! dependencies build once: Cargo sees two different packages).
//! Both binaries must print byte-identical `skills/list` entries and
//! byte-identical dumps of every table (`--dump`: each file's bytes, size and
//! digest, each skill's version, the set's fingerprint). The dump must hold
//! neither clone's path, every digest must be the SHA-256 of its bytes, and
//! every file's bytes must be the bytes on disk. A build time in the tables
//! would differ between the two builds, which run seconds apart.
//!
//! Needs `git`, so it is `#[ignore = "needs git"]` (`.ci/run` runs it).

use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine as _;
use serde_json::Value;
use sha2::{Digest as _, Sha256};
use skills_test_support::examples::workspace_dir;
use skills_test_support::needs;

fn run(command: &mut Command) -> Vec<u8> {
    let output = command.output().expect("the command runs");
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// Clones HEAD into `dir`, builds `examples/manifest` there against the
/// clone's fixture corpus into `target`, and returns its `skills/list` JSON
/// and its `--dump`.
fn clone_and_build(git: &Path, dir: &Path, target: &Path) -> (Vec<u8>, Vec<u8>) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
    run(Command::new(git)
        .args(["clone", "--quiet", "--no-local"])
        .arg(workspace_dir())
        .arg(dir));
    let messages = run(Command::new(env!("CARGO"))
        .args([
            "build",
            "--quiet",
            "--offline",
            "--locked",
            "--package",
            "skills-examples",
        ])
        .args(["--example", "manifest", "--message-format", "json"])
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target)
        .env("SKILLS_DIR", dir.join("tests/fixtures/corpus"))
        // `cargo test` runs this test with the e2e package's build variables.
        .env_remove("OUT_DIR"));
    let built = String::from_utf8_lossy(&messages)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| message["target"]["name"] == "manifest")
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .expect("cargo names the example's executable");
    // Both clones' examples are linked to the same name in the shared target:
    // keep this one's copy.
    let binary = dir.join("manifest-binary");
    std::fs::copy(&built, &binary).expect("copy the binary");
    let listing = run(&mut Command::new(&binary));
    let dump = run(Command::new(&binary).arg("--dump"));
    (listing, dump)
}

#[test]
#[ignore = "needs git"]
fn two_clones_at_different_paths_embed_identical_tables() {
    let git = needs::program("git");
    let corpus = needs::fixture_corpus();
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("reproducible");
    // The test's own target folder (CARGO_TARGET_TMPDIR is `<target>/tmp`).
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the scratch space lies in the target folder")
        .to_owned();
    let first_dir = scratch.join("a").join("skills-runtime");
    let second_dir = scratch
        .join("elsewhere")
        .join("deeper")
        .join("skills-runtime");
    let (first_listing, first_dump) = clone_and_build(&git, &first_dir, &target);
    let (second_listing, second_dump) = clone_and_build(&git, &second_dir, &target);

    assert!(
        first_listing == second_listing,
        "the two clones list different skills/list entries"
    );
    assert!(
        first_dump == second_dump,
        "the two clones embedded different tables"
    );
    let text = String::from_utf8(first_dump).expect("the dump is UTF-8");
    for dir in [&first_dir, &second_dir, &scratch] {
        let path = dir.to_str().unwrap();
        assert!(!text.contains(path), "the tables hold the path {path}");
    }

    let dump: Value = serde_json::from_str(&text).expect("the dump is JSON");
    let skills = dump["skills"].as_array().expect("skills");
    assert_eq!(skills.len(), 7, "the fixture corpus holds 7 skills");
    let mut files = 0;
    for skill in skills {
        let skill_path = skill["path"].as_str().unwrap();
        assert!(skill["version"].as_str().unwrap().starts_with("sha256:"));
        for file in skill["files"].as_array().unwrap() {
            let bytes = match (file["text"].as_str(), file["base64"].as_str()) {
                (Some(text), None) => text.as_bytes().to_vec(),
                (None, Some(encoded)) => base64::engine::general_purpose::STANDARD
                    .decode(encoded)
                    .expect("base64"),
                other => panic!("a file holds text or base64: {other:?}"),
            };
            let file_path = file["path"].as_str().unwrap();
            let hex: String = Sha256::digest(&bytes)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert_eq!(
                file["digest"],
                format!("sha256:{hex}"),
                "{skill_path}/{file_path}"
            );
            assert_eq!(file["size"], bytes.len(), "{skill_path}/{file_path}");
            let on_disk = std::fs::read(corpus.join(skill_path).join(file_path))
                .unwrap_or_else(|error| panic!("{skill_path}/{file_path}: {error}"));
            assert!(
                on_disk == bytes,
                "{skill_path}/{file_path} differs from the disk"
            );
            files += 1;
        }
    }
    // 21 files, two of them listed by the nested skill and its outer skill.
    assert_eq!(files, 23, "the fixture corpus lists 23 files");
    assert!(dump["fingerprint"].as_str().unwrap().starts_with("sha256:"));
    let _ = std::fs::remove_dir_all(&scratch);
}
