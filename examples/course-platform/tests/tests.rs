//! The course platform's integration tests: one test binary, one module per
//! area (ripgrep's layout, as in every package of the workspace). One test,
//! or one area: `cargo test -p course-platform --test integration
//! course_platform::`.
//!
//! A file of tests/ not declared here would never run: skills-test-paths'
//! `every_test_file_is_declared_in_its_packages_tests_rs` fails, naming it.

mod course_platform;
