// The frontmatter `name` must equal the skill's folder name.
static SKILLS: skills::Skills = skills::embed_skills!("./fixtures/mismatch", untracked);

fn main() {
    println!("{}", SKILLS.len());
}
