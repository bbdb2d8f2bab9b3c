//! The repository's examples as their users run them: built by the Cargo
//! running the test, into the same target folder, once per test binary.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The executable of the example `name` of this package, built on first use.
/// `cargo test` builds examples but does not put them at `examples/<name>`,
/// so Cargo is asked where it wrote the executable.
pub fn executable(name: &str) -> PathBuf {
    static BUILT: Mutex<BTreeMap<String, PathBuf>> = Mutex::new(BTreeMap::new());
    let mut built = BUILT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(path) = built.get(name) {
        return path.clone();
    }
    let output = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--package", "skills-workspace"])
        .args(["--example", name, "--message-format", "json"])
        .arg("--manifest-path")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo build --example {name} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let path = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["target"]["name"] == name)
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .expect("cargo names the example's executable");
    built.insert(name.to_owned(), path.clone());
    path
}
