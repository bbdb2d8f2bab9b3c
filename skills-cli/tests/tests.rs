//! The integration tests of the `skills` command: one test binary, one module
//! per command or area (ripgrep's layout), each running the binary built by
//! this package (`CARGO_BIN_EXE_skills`). One test, or one area:
//! `cargo test -p skills-cli --test integration check::`.

mod support;

mod check;
mod hooks;
mod macro_parity;
mod manifest;
mod reference;
mod scaffold;
mod serve;
