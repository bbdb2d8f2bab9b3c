// Without `untracked`, the macro insists on a build script that watches the
// folder; trybuild's generated crate has none.
static SKILLS: skills::Skills = skills::embed_skills!("./fixtures/tracked");

fn main() {
    println!("{}", SKILLS.len());
}
