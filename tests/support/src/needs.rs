//! What a test needs from outside the repository, found by name or refused
//! with what to do about it.
//!
//! A test that needs one of these says so in its attribute,
//! `#[ignore = "needs …"]`, so that `cargo test` on a clone alone passes and
//! skips nothing silently: `cargo test -- --include-ignored` (which `.ci/run`
//! runs after installing what these tests need) runs it, and when the thing
//! is missing the test fails here, naming it.
//!
//! The tests that read `../shared` (the real skills corpus and the reference
//! captures beside the clone) live in modules named `shared`, so that
//! `.ci/run` on a machine with only the clone leaves them out by name
//! (`--skip shared::`) and lists them as not run.

use std::path::{Path, PathBuf};

pub use skills_test_paths::{example_skills, fixture_corpus, shared};

use skills_test_paths::workspace_dir;

/// The Python interpreter of one of the pinned client venvs (`py311`: the
/// mcp SDK and FastMCP; `py313`: fast-agent).
pub fn python(venv: &str) -> PathBuf {
    venv_program(venv, "python")
}

/// `program` of one of the venvs `tests/e2e/clients/setup.sh` makes, under
/// `$SKILLS_E2E_VENVS` (default `target/e2e-venvs`): `skills-ref`'s
/// `agentskills`, the reference validator, say.
pub fn venv_program(venv: &str, program: &str) -> PathBuf {
    let root = std::env::var_os("SKILLS_E2E_VENVS")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_dir().join("target/e2e-venvs"));
    let found = root.join(venv).join("bin").join(program);
    assert!(
        found.exists(),
        "needs {}: run `bash tests/e2e/clients/setup.sh` (or point SKILLS_E2E_VENVS at where it put the venvs)",
        found.display()
    );
    found
}

/// A program installed on the machine (`nginx`, `git`, `python3`), found on
/// `PATH` or in the system folders where Debian puts daemons.
pub fn program(name: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin"].map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
        .unwrap_or_else(|| {
            panic!("needs `{name}` on PATH: install it (`.ci/run` does, from Debian's packages)")
        })
}

/// A program of Debian's PostgreSQL server package (`initdb`, `pg_ctl`),
/// which keeps them out of `PATH` in `/usr/lib/postgresql/VERSION/bin`: the
/// newest version installed.
pub fn postgres(name: &str) -> PathBuf {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let candidate = entry.path().join("bin").join(name);
            is_executable(&candidate).then_some((version, candidate))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, path)| path).unwrap_or_else(|| {
        panic!(
            "needs PostgreSQL's `{name}` in /usr/lib/postgresql/VERSION/bin: install Debian's `postgresql` (`.ci/run` does)"
        )
    })
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    path.metadata()
        .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}
