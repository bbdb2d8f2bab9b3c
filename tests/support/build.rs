//! The trees `trees` embeds (the example skills, the course platform's and
//! the fixture corpus) rebuild this crate, and so every test using them, when
//! a file below them is added, changed or removed: `embed_skills!` refuses a
//! tree no build script watches. Paths are relative to this package, as Cargo
//! reads them.

fn main() {
    println!("cargo::rerun-if-changed=../../examples/skills");
    println!("cargo::rerun-if-changed=../../examples/course-platform/skills");
    println!("cargo::rerun-if-changed=../fixtures/corpus");
}
