//! What the fuzz targets of `fuzz/` assert, written once.
//!
//! Each target is a function from the fuzzer's bytes to nothing that panics
//! when an invariant breaks. libFuzzer calls it from `fuzz/fuzz_targets/`
//! (nightly, instrumented); the replay test of this crate calls the same
//! function on every committed seed (`fuzz/corpus/<target>/`), every
//! minimized crash (`fuzz/regressions/<target>/`) and the seeds derived from
//! the shared corpus ([`seeds`]), on stable, in CI.
//!
//! The targets check invariants, not only the absence of panics: what an
//! accepted input must satisfy, what two entry points to the same rule must
//! agree on, what must round-trip.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cursor;
mod display;
pub mod names;
pub mod seeds;
pub mod skill_md;
pub mod uri_lookup;

/// One fuzz target: its name (its file in `fuzz/fuzz_targets/`, its folders
/// in `fuzz/corpus/` and `fuzz/regressions/`) and the check it runs.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    /// The target's name.
    pub name: &'static str,
    /// Runs every invariant on one input; panics when one breaks.
    pub check: fn(&[u8]),
}

/// Every target.
pub const TARGETS: [Target; 4] = [
    Target {
        name: "skill_md",
        check: skill_md::check,
    },
    Target {
        name: "names",
        check: names::check,
    },
    Target {
        name: "uri_lookup",
        check: uri_lookup::check,
    },
    Target {
        name: "cursor",
        check: cursor::check,
    },
];
