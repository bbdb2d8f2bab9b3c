//! The repository's programs as their users run them: examples and binaries
//! built by the Cargo running the test, into the same target folder, once
//! per test process.
//!
//! They are built for the whole workspace with every feature, as `.ci/run`
//! builds and tests it (`--workspace --all-features`), so under CI the build
//! is already done and nothing compiles twice. (An example that needs a
//! feature names it in `required-features`; every feature is on here.)

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

pub use skills_test_paths::workspace_dir;

/// The executable of the example `name` (of any package of the workspace),
/// built on first use. `cargo test` builds examples but does not put them at
/// `examples/<name>`, so Cargo is asked where it wrote the executable.
pub fn executable(name: &str) -> PathBuf {
    built("--example", name)
}

/// The executable of the binary target `name` (`course-platform`,
/// `skills-test-server`), built on first use.
pub fn binary(name: &str) -> PathBuf {
    built("--bin", name)
}

/// The example `name` built to embed `skills_dir` instead of the
/// repository's `examples/skills/` (the examples embed
/// `${SKILLS_DIR:-skills}`, relative to their package),
/// copied out of the target folder, so that the next build of the example
/// cannot replace it under the caller.
pub fn executable_embedding(name: &str, skills_dir: &Path) -> PathBuf {
    let _building = BUILDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let built = build("--example", name, Some(skills_dir));
    let copies = std::env::temp_dir().join(format!("skills-examples-{}", std::process::id()));
    std::fs::create_dir_all(&copies).expect("a folder for the copies");
    let copy = copies.join(format!(
        "{name}-{}",
        std::fs::read_dir(&copies).map_or(0, Iterator::count)
    ));
    std::fs::copy(&built, &copy).expect("copy the executable");
    copy
}

/// Held while Cargo builds: one build at a time, and none between another
/// one's build and its copy.
static BUILDING: Mutex<()> = Mutex::new(());

fn built(kind: &str, name: &str) -> PathBuf {
    static BUILT: Mutex<BTreeMap<String, PathBuf>> = Mutex::new(BTreeMap::new());
    let mut built = BUILT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let key = format!("{kind} {name}");
    if let Some(path) = built.get(&key) {
        return path.clone();
    }
    let _building = BUILDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let path = build(kind, name, None);
    built.insert(key, path.clone());
    path
}

/// `cargo build KIND NAME` for the whole workspace with every feature, with
/// `SKILLS_DIR` set to `skills_dir` or unset; the executable Cargo wrote.
fn build(kind: &str, name: &str, skills_dir: Option<&Path>) -> PathBuf {
    let mut command = Command::new(env!("CARGO"));
    command
        .args(["build", "--quiet", "--workspace", "--all-features"])
        .args([kind, name, "--message-format", "json"])
        .arg("--manifest-path")
        .arg(workspace_dir().join("Cargo.toml"))
        // `cargo test` runs tests with the test package's build variables.
        .env_remove("OUT_DIR");
    match skills_dir {
        Some(dir) => command.env("SKILLS_DIR", dir),
        None => command.env_remove("SKILLS_DIR"),
    };
    let output = command.output().expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo build {kind} {name} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["target"]["name"] == name)
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("cargo names the executable of {kind} {name}"))
}
