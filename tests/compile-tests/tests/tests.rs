//! The compile-time tests of `embed_skills!`: one test binary, one module
//! per area (ripgrep's layout). One test, or one area:
//! `cargo test -p skills-compile-tests --test integration rebuild::`.

mod support;

mod corpus;
mod hygiene;
mod rebuild;
mod ui;

/// A test file not declared above would never be compiled, and say nothing.
#[test]
fn every_test_file_is_declared_here() {
    let left_out = skills_test_paths::undeclared_test_files(env!("CARGO_MANIFEST_DIR").as_ref());
    assert!(
        left_out.is_empty(),
        "declare them as modules in tests/tests.rs: {left_out:?}"
    );
}
