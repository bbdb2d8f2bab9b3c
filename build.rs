// Rebuild when anything under the skills folder changes (a proc macro cannot
// watch a folder on stable Rust), or when SKILLS_DIR points somewhere else.
fn main() {
    println!("cargo::rerun-if-env-changed=SKILLS_DIR");
    println!(
        "cargo::rerun-if-changed={}",
        std::env::var("SKILLS_DIR").unwrap_or_else(|_| "skills".into())
    );
}
