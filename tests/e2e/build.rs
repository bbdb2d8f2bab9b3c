//! Rebuild `skills-test-server` when any of the three skill trees it embeds (or the course
//! platform's, which its tests embed)
//! changes, or when `SKILLS_CORPUS` points elsewhere. `embed_skills!` refuses
//! to compile a tree no build script watches (skills-macros/src/resolve.rs).
//! Paths here are relative to this package, as Cargo reads them.

fn main() {
    println!("cargo::rerun-if-changed=../../skills");
    // The course platform's skills (tests/course_platform_clients.rs).
    println!("cargo::rerun-if-changed=../../examples/course-platform/skills");
    println!("cargo::rerun-if-changed=../../../shared/reference/captures/sample-skills");
    println!("cargo::rerun-if-env-changed=SKILLS_CORPUS");
    let corpus = match std::env::var("SKILLS_CORPUS") {
        // Relative values are relative to this package, for the macro and Cargo alike.
        Ok(value) if !value.is_empty() => value,
        _ => "../../../shared/corpus/real".to_owned(),
    };
    println!("cargo::rerun-if-changed={corpus}");
}
