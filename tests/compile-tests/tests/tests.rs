//! The compile-time tests of `embed_skills!`: one test binary, one module
//! per area (ripgrep's layout). One test, or one area:
//! `cargo test -p skills-compile-tests --test integration rebuild::`.
//!
//! A file of tests/ not declared here would never run: skills-test-paths'
//! `every_test_file_is_declared_in_its_packages_tests_rs` fails, naming it.

mod support;

mod corpus;
mod hygiene;
mod rebuild;
mod ui;
