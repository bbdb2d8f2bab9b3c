// An unquoted `: ` inside a value is the most common YAML mistake; it gets its own hint.
static SKILLS: skills::Skills = skills::embed_skills!("./fixtures/unquoted-colon", untracked);

fn main() {
    println!("{}", SKILLS.len());
}
