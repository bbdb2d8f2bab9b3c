//! The compile-time tests of `embed_skills!`: one test binary, one module
//! per area (ripgrep's layout). One test, or one area:
//! `cargo test -p skills-compile-tests --test integration rebuild::`.

mod support;

mod corpus;
mod hygiene;
mod rebuild;
mod ui;
