// A link in a reference SKILL.md sends the agent to is checked like one in
// SKILL.md: the agent follows it from there.
static SKILLS: skills::Skills = skills::embed_skills!("./fixtures/broken-reference", untracked);

fn main() {
    println!("{}", SKILLS.len());
}
