//! trybuild snapshots of what a skill author sees when `embed_skills!`
//! rejects a tree (`tests/ui/*.rs` + `.stderr`), and expansions that must
//! compile and run (`tests/pass/*.rs`).
//!
//! Fixtures sit next to the cases (`tests/*/fixtures/`) and are named with
//! `./` paths, which the macro resolves relative to the calling file. The
//! generated trybuild crate has no build script, so every case opts out of
//! tracking with `untracked`: what a crate without one is told names a path
//! relative to the crate, which for trybuild's crate depends on where the
//! target folder is, so it is checked on a crate of its own in
//! `rebuild.rs` instead.
//!
//! Refresh the snapshots with
//! `TRYBUILD=overwrite cargo test -p skills-compile-tests --test integration ui::`,
//! then read every `.stderr` as a skill author would.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
    cases.pass("tests/pass/*.rs");
}

/// `tests/pass/warnings.rs` embeds a tree with warnings: check it has them,
/// so that pass case proves warnings do not fail the macro.
#[test]
fn the_warned_fixture_warns() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pass/fixtures/warned");
    let loaded = skills_core::load(&root, &skills_core::Options::default()).unwrap();
    let rules: Vec<skills_core::Rule> = loaded.warnings().iter().map(|d| d.rule).collect();
    assert_eq!(
        rules,
        [
            skills_core::Rule::TooManyLines,
            skills_core::Rule::NestedReference
        ]
    );
}
