// A credential in any text file of a skill fails the build.
static SKILLS: skills::Skills = skills::embed_skills!("./fixtures/secret", untracked);

fn main() {
    println!("{}", SKILLS.len());
}
