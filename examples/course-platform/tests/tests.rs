//! The course platform's integration tests: one test binary, one module per
//! area (ripgrep's layout, as in every package of the workspace). One test,
//! or one area: `cargo test -p course-platform --test integration
//! course_platform::`.

mod course_platform;
