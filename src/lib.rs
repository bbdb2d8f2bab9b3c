//! Examples and end-to-end tests of skills-runtime (not published).
//!
//! This package exists to own `examples/` and `tests/` at the repository root,
//! and to compile the README's examples as doc tests against the example
//! skills in `skills/`.
#![doc = include_str!("../README.md")]
