//! Where the repository's tests find things: the workspace folder, its own
//! fixture corpus, and `../shared` beside the clone (the corpus of real
//! skills and the captures of other servers' answers, which are not part of
//! the repository). One place for every package's tests, the fuzz targets'
//! seeds and the end-to-end test server, so that they agree on where
//! `../shared` is and on what to say when it is missing.
//!
//! The tests that read `../shared` live in modules named `shared` and are
//! `#[ignore = "needs ../shared/…"]`, so that `cargo test` on a clone alone
//! passes and `.ci/run` on a clone alone leaves them out by name
//! (`--skip shared::`); with `--include-ignored` and nothing beside the
//! clone, [`shared`] fails the test, naming the folder it needs.

use std::path::{Path, PathBuf};

/// The repository's root folder (the workspace's).
pub fn workspace_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace folder exists")
}

/// `../shared/<path>` beside the clone, whether it is there or not (for a
/// caller that reports a missing folder its own way).
pub fn shared_path(path: &str) -> PathBuf {
    workspace_dir().join("../shared").join(path)
}

/// `../shared/<path>` beside the clone; panics, naming it, when it is not
/// there.
pub fn shared(path: &str) -> PathBuf {
    let found = shared_path(path);
    assert!(
        found.exists(),
        "needs {}: clone this repository beside the shared folder (../shared)",
        found.display()
    );
    found
}

/// The repository's own small corpus (`tests/fixtures/corpus`): invented
/// skills with binary files, executable scripts, nested and grouped skills,
/// for tests that need a realistic tree but not the real one.
pub fn fixture_corpus() -> PathBuf {
    workspace_dir().join("tests/fixtures/corpus")
}

/// The example skills (`examples/skills`: a fictional kitchen inventory
/// product), which the examples embed.
pub fn example_skills() -> PathBuf {
    workspace_dir().join("examples/skills")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repository_folders_are_found() {
        assert!(workspace_dir().join("Cargo.toml").is_file());
        assert!(fixture_corpus().is_dir());
        assert!(example_skills().is_dir());
        assert!(shared_path("corpus").ends_with("shared/corpus"));
    }

    #[test]
    #[should_panic(expected = "clone this repository beside the shared folder")]
    fn a_missing_shared_folder_is_named() {
        shared("no such folder, made up for this test");
    }
}
