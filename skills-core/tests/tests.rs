//! The integration tests of skills-core: one test binary, one module per
//! area (ripgrep's layout). One test, or one area:
//! `cargo test -p skills-core --test integration rules::`.

mod diagnostics;
mod lenient;
mod merge;
mod rules;
mod skill_md;
