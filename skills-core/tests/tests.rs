//! The integration tests of skills-core: one test binary, one module per
//! area (ripgrep's layout). One test, or one area:
//! `cargo test -p skills-core --test integration rules::`.
//!
//! A file of tests/ not declared here would never run: skills-test-paths'
//! `every_test_file_is_declared_in_its_packages_tests_rs` fails, naming it.

mod diagnostics;
mod lenient;
mod merge;
mod rules;
mod skill_md;
