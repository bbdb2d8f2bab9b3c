// For this crate's doc tests only, in the repository only: they embed
// `skills/`, a tiny folder laid out like the Quickstart's, exactly as a
// user's crate does (`embed_skills!("skills")` plus this line, without which
// the macro refuses a folder that no build script watches). Cargo.toml
// excludes this script and `skills/` from the published package, whose
// manifest then says `build = false`: a user's build runs no script of ours.
// The integration tests embed the repository's trees through
// skills-test-support, whose own build script watches them.
fn main() {
    println!("cargo::rerun-if-changed=skills");
}
