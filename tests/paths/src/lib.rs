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

/// The `tests/*.rs` files of the package in `package_dir` that its
/// `tests/tests.rs` does not declare as a module (`mod name;`, whatever
/// attributes precede it). Every package here has one test binary
/// (`autotests = false`, `tests/tests.rs`), so Cargo compiles no other file
/// of `tests/`: a file left out of `tests/tests.rs` would never run, and say
/// nothing. Folders below `tests/` (support code, fixtures, trybuild cases)
/// are not test files.
pub fn undeclared_test_files(package_dir: &Path) -> Vec<String> {
    let tests = package_dir.join("tests");
    let root = std::fs::read_to_string(tests.join("tests.rs"))
        .unwrap_or_else(|error| panic!("cannot read {}/tests.rs: {error}", tests.display()));
    let declared: Vec<&str> = root
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let line = line.strip_prefix("pub ").unwrap_or(line);
            line.strip_prefix("mod ")?.strip_suffix(';').map(str::trim)
        })
        .collect();
    let mut left_out: Vec<String> = std::fs::read_dir(&tests)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", tests.display()))
        .map(|entry| entry.expect("a readable entry").path())
        .filter(|path| path.is_file() && path.extension().is_some_and(|ext| ext == "rs"))
        .filter_map(|path| Some(path.file_stem()?.to_str()?.to_owned()))
        .filter(|stem| stem != "tests" && !declared.contains(&stem.as_str()))
        .collect();
    left_out.sort();
    left_out
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
    fn a_test_file_left_out_of_tests_rs_is_found() {
        let package =
            std::env::temp_dir().join(format!("skills-test-paths-{}", std::process::id()));
        let tests = package.join("tests");
        std::fs::create_dir_all(tests.join("support")).unwrap();
        std::fs::write(
            tests.join("tests.rs"),
            "mod support;\n#[cfg(feature = \"x\")]\nmod declared;\n",
        )
        .unwrap();
        for file in ["declared.rs", "forgotten.rs", "support/mod.rs", "notes.md"] {
            std::fs::write(tests.join(file), "").unwrap();
        }
        let left_out = undeclared_test_files(&package);
        std::fs::remove_dir_all(&package).unwrap();
        assert_eq!(left_out, ["forgotten"]);
    }

    #[test]
    #[should_panic(expected = "clone this repository beside the shared folder")]
    fn a_missing_shared_folder_is_named() {
        shared("no such folder, made up for this test");
    }
}
