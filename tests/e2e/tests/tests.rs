//! The end-to-end tests: one test binary, one module per client or area
//! (ripgrep's layout). Most need what `.ci/run` installs and are
//! `#[ignore = "needs …"]`; `-- --include-ignored` runs them. One test, or
//! one area: `cargo test -p skills-e2e --test integration replicas:: --
//! --include-ignored`.
//!
//! A file of tests/ not declared here would never run: skills-test-paths'
//! `every_test_file_is_declared_in_its_packages_tests_rs` fails, naming it.

mod client_peers;
mod client_rig;
mod course_platform_clients;
mod hostile;
mod python_clients;
mod replicas;
mod reproducible;
mod skills_cli;
