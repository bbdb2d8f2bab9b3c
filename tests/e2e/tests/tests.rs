//! The end-to-end tests: one test binary, one module per client or area
//! (ripgrep's layout). Most need what `.ci/run` installs and are
//! `#[ignore = "needs …"]`; `-- --include-ignored` runs them. One test, or
//! one area: `cargo test -p skills-e2e --test integration replicas:: --
//! --include-ignored`.

mod client_peers;
mod client_rig;
mod course_platform_clients;
mod hostile;
mod python_clients;
mod replicas;
mod reproducible;
mod skills_cli;

/// A test file not declared above would never be compiled, and say nothing.
#[test]
fn every_test_file_is_declared_here() {
    let left_out = skills_test_paths::undeclared_test_files(env!("CARGO_MANIFEST_DIR").as_ref());
    assert!(
        left_out.is_empty(),
        "declare them as modules in tests/tests.rs: {left_out:?}"
    );
}
