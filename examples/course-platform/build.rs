// The embedded skills (skills/) rebuild the binary when anything in them
// changes: embed_skills! refuses a folder no build script watches.
fn main() {
    println!("cargo::rerun-if-changed=skills");
}
