// Arguments the macro does not understand are rejected where they are written.
static UNKNOWN_OPTION: skills::Skills =
    skills::embed_skills!("./fixtures/bad-arguments", untracked, colour = "red");

const SKILLS_DIR: &str = "./fixtures/bad-arguments";
static NOT_A_LITERAL: skills::Skills = skills::embed_skills!(SKILLS_DIR, untracked);

fn main() {
    println!("{} {} {}", UNKNOWN_OPTION.len(), NOT_A_LITERAL.len(), SKILLS_DIR);
}
