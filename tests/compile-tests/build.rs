// The embeds outside the UI tests are tracked, as a real crate's would be:
// Cargo reruns this script, and so rebuilds the tests, when a file below
// these folders is added, changed or removed.
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=tests/fixtures");
    println!("cargo::rerun-if-changed=../fixtures/corpus");
    // The real corpus beside the clone is embedded only when it is there, so
    // that the package builds on a clone alone (tests/corpus.rs, `shared`).
    println!("cargo::rustc-check-cfg=cfg(shared_corpus)");
    let real = skills_test_paths::shared_path("corpus/real");
    if real.is_dir() {
        println!("cargo::rerun-if-changed={}", real.display());
        println!("cargo::rustc-cfg=shared_corpus");
    }
}
