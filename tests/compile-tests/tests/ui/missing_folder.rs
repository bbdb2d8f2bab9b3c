// A path that names no folder.
static SKILLS: skills::Skills = skills::embed_skills!("./fixtures/does-not-exist", untracked);

fn main() {
    println!("{}", SKILLS.len());
}
