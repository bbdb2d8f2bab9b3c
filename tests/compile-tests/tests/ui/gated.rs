// A gated skill may not grant `allowed-tools`, nor sit inside a skill that is
// not gated (whose folder would serve its files free).
static SKILLS: skills::Skills = skills::embed_skills!(
    "./fixtures/gated",
    gated = ["courses/*", "free/paid"],
    untracked
);

fn main() {
    println!("{}", SKILLS.len());
}
