//! The examples of skills-runtime (not published).
//!
//! This package owns `examples/` and the example skills in `skills/`, and
//! compiles the README's code as doc tests against them. The README's code
//! uses every feature, so it is compiled with the `readme` feature
//! (`cargo test --doc --all-features`, as `.ci/run` does); without it, this
//! crate is empty and `cargo run --example demo` builds only what the demo uses.
#![cfg_attr(feature = "readme", doc = include_str!("../README.md"))]
