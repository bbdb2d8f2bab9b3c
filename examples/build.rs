// Cargo cannot know which files a proc macro reads from a folder, so the build
// script tells it: rebuild when anything under the skills folder changes.
// SKILLS_DIR (read by the examples) may point the build at another folder.
fn main() {
    println!("cargo::rerun-if-changed=skills");
    println!("cargo::rerun-if-env-changed=SKILLS_DIR");
    if let Ok(dir) = std::env::var("SKILLS_DIR") {
        println!("cargo::rerun-if-changed={dir}");
    }
}
