// The embeds outside the UI tests are tracked, as a real crate's would be:
// Cargo reruns this script, and so rebuilds the tests, when a file below
// these folders is added, changed or removed.
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=../../../shared/corpus/real");
    println!("cargo::rerun-if-changed=tests/fixtures");
}
