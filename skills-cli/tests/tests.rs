//! The integration tests of the `skills` command: one test binary, one module
//! per command or area (ripgrep's layout), each running the binary built by
//! this package (`CARGO_BIN_EXE_skills`). One test, or one area:
//! `cargo test -p skills-cli --test integration check::`.
//!
//! A file of tests/ not declared here would never run: skills-test-paths'
//! `every_test_file_is_declared_in_its_packages_tests_rs` fails, naming it.

mod support;

mod check;
mod hooks;
mod macro_parity;
mod manifest;
mod readers;
mod reference;
mod scaffold;
mod serve;
