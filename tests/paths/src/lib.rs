//! Where the repository's tests find things: the workspace folder, its own
//! fixture corpus, and `../shared` beside the clone (the corpus of real
//! skills and the captures of other servers' answers, which are not part of
//! the repository). One place for every package's tests, the fuzz targets'
//! seeds and the end-to-end test server, so that they agree on where
//! `../shared` is and on what to say when it is missing.
//!
//! Its own test checks the workspace: every package with one test binary
//! (`tests/tests.rs`) declares each file of its `tests/` there.
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

/// The workspace's members, as the root `Cargo.toml` lists them (one quoted
/// folder per line of `members = [ … ]`, which is how that file is written).
#[cfg(test)]
fn workspace_members(workspace: &Path) -> Vec<PathBuf> {
    let manifest = workspace.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", manifest.display()));
    let members = text
        .split_once("\nmembers = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .unwrap_or_else(|| panic!("{} lists no `members = [`", manifest.display()));
    members
        .lines()
        .map(|line| line.split('#').next().unwrap_or_default().trim())
        .filter_map(|line| {
            line.strip_suffix(',')
                .unwrap_or(line)
                .strip_prefix('"')?
                .strip_suffix('"')
        })
        .map(|member| workspace.join(member))
        .collect()
}

/// The `tests/*.rs` files, across the workspace's packages that have one test
/// binary (`autotests = false`, `tests/tests.rs`), that their
/// `tests/tests.rs` does not declare as a module (`mod name;`, whatever
/// attributes precede it), as paths relative to the workspace. Cargo
/// compiles no other file of such a package's `tests/`: a file left out of
/// `tests/tests.rs` would never run, and say nothing. Folders below `tests/`
/// (support code, fixtures, trybuild cases) are not test files.
#[cfg(test)]
fn undeclared_test_files(workspace: &Path) -> Vec<String> {
    let mut left_out = Vec::new();
    for package in workspace_members(workspace) {
        let manifest =
            std::fs::read_to_string(package.join("Cargo.toml")).unwrap_or_else(|error| {
                panic!("cannot read {}/Cargo.toml: {error}", package.display())
            });
        let tests = package.join("tests");
        if !manifest
            .lines()
            .any(|line| line.trim() == "autotests = false")
            || !tests.is_dir()
        {
            continue;
        }
        let root = std::fs::read_to_string(tests.join("tests.rs")).unwrap_or_default();
        let declared: Vec<&str> = root
            .lines()
            .filter_map(|line| {
                let line = line.trim();
                let line = line.strip_prefix("pub ").unwrap_or(line);
                line.strip_prefix("mod ")?.strip_suffix(';').map(str::trim)
            })
            .collect();
        let files = std::fs::read_dir(&tests)
            .unwrap_or_else(|error| panic!("cannot read {}: {error}", tests.display()))
            .map(|entry| entry.expect("a readable entry").path())
            .filter(|path| path.is_file() && path.extension().is_some_and(|ext| ext == "rs"));
        for path in files {
            let stem = path
                .file_stem()
                .and_then(|stem| stem.to_str())
                .unwrap_or_default();
            if stem != "tests" && !declared.contains(&stem) {
                let relative = path.strip_prefix(workspace).unwrap_or(&path);
                left_out.push(relative.display().to_string());
            }
        }
    }
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

    /// One check for every package of the workspace (each has one test
    /// binary, `tests/tests.rs`), run by `cargo test` at the root.
    #[test]
    fn every_test_file_is_declared_in_its_packages_tests_rs() {
        // The members are read from the root manifest's text: a change of its
        // layout must not leave nothing checked.
        let members = workspace_members(&workspace_dir());
        assert!(
            members.contains(&workspace_dir().join("skills-runtime")),
            "{members:?}"
        );
        let left_out = undeclared_test_files(&workspace_dir());
        assert!(
            left_out.is_empty(),
            "declare each as a module in its package's tests/tests.rs: {left_out:?}"
        );
    }

    #[test]
    fn a_test_file_left_out_of_tests_rs_is_found() {
        let workspace =
            std::env::temp_dir().join(format!("skills-test-paths-{}", std::process::id()));
        let write = |path: &str, text: &str| {
            let path = workspace.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(
            "Cargo.toml",
            "[workspace]\nmembers = [\n    \"one\", # a comment\n    \"two\",\n    \"auto\",\n]\n",
        );
        let one_binary = "[package]\nautotests = false\n";
        write("one/Cargo.toml", one_binary);
        write(
            "one/tests/tests.rs",
            "mod support;\n#[cfg(feature = \"x\")]\nmod declared;\n",
        );
        for file in ["declared.rs", "forgotten.rs", "support/mod.rs", "notes.md"] {
            write(&format!("one/tests/{file}"), "");
        }
        // A package whose tests.rs is gone: every file of its tests/ is left out.
        write("two/Cargo.toml", one_binary);
        write("two/tests/area.rs", "");
        // Cargo finds this package's test files itself.
        write("auto/Cargo.toml", "[package]\n");
        write("auto/tests/replay.rs", "");
        let left_out = undeclared_test_files(&workspace);
        std::fs::remove_dir_all(&workspace).unwrap();
        assert_eq!(left_out, ["one/tests/forgotten.rs", "two/tests/area.rs"]);
    }

    #[test]
    #[should_panic(expected = "clone this repository beside the shared folder")]
    fn a_missing_shared_folder_is_named() {
        shared("no such folder, made up for this test");
    }
}
