// A top-level folder that holds no SKILL.md is not silently skipped.
static SKILLS: skills::Skills = skills::embed_skills!("./fixtures/not-a-skill", untracked);

fn main() {
    println!("{}", SKILLS.len());
}
