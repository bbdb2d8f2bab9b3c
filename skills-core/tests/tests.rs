//! The integration tests of skills-core: one test binary, one module per
//! area (ripgrep's layout). One test, or one area:
//! `cargo test -p skills-core --test integration rules::`.

mod diagnostics;
mod lenient;
mod merge;
mod rules;
mod skill_md;

/// A test file not declared above would never be compiled, and say nothing.
#[test]
fn every_test_file_is_declared_here() {
    let left_out = skills_test_paths::undeclared_test_files(env!("CARGO_MANIFEST_DIR").as_ref());
    assert!(
        left_out.is_empty(),
        "declare them as modules in tests/tests.rs: {left_out:?}"
    );
}
