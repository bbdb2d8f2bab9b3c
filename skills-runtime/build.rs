// This crate's own doc tests embed `skills/`, a tiny folder laid out like the
// Quickstart's, exactly as a user's crate does: `embed_skills!("skills")` plus
// this build script, without which the macro refuses a folder that no build
// script watches (a file added to it would not rebuild the crate). Nothing
// else in the crate reads `skills/`.
fn main() {
    println!("cargo::rerun-if-changed=skills");
    // The integration tests (tests/, in the repository only) embed the
    // repository's example skills, the course platform's and the fixture
    // corpus (tests/well_known.rs); none of them exists in the published package.
    for tree in [
        "../skills",
        "../examples/course-platform/skills",
        "../tests/fixtures/corpus",
    ] {
        if std::path::Path::new(tree).is_dir() {
            println!("cargo::rerun-if-changed={tree}");
        }
    }
}
