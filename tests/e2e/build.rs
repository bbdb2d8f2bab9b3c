//! Rebuild `skills-test-server` when either tree it embeds changes (the
//! repository's example skills and its fixture corpus), and the tests when
//! the course platform's skills (which they embed) change. `embed_skills!`
//! refuses to compile a tree no build script watches
//! (skills-macros/src/resolve.rs). Paths are relative to this package, as
//! Cargo reads them. The trees of `../shared` are loaded at run time.

fn main() {
    println!("cargo::rerun-if-changed=../../examples/skills");
    println!("cargo::rerun-if-changed=../fixtures/corpus");
    // The course platform's skills (tests/course_platform_clients.rs).
    println!("cargo::rerun-if-changed=../../examples/course-platform/skills");
}
