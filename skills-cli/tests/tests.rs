//! The integration tests of the `skills` command: one test binary, one module
//! per command or area (ripgrep's layout), each running the binary built by
//! this package (`CARGO_BIN_EXE_skills`). One test, or one area:
//! `cargo test -p skills-cli --test integration check::`.

mod support;

mod check;
mod hooks;
mod macro_parity;
mod manifest;
mod readers;
mod reference;
mod scaffold;
mod serve;

/// A test file not declared above would never be compiled, and say nothing.
#[test]
fn every_test_file_is_declared_here() {
    let left_out = skills_test_paths::undeclared_test_files(env!("CARGO_MANIFEST_DIR").as_ref());
    assert!(
        left_out.is_empty(),
        "declare them as modules in tests/tests.rs: {left_out:?}"
    );
}
