// Every problem in every skill is reported in one build, each at its place.
static SKILLS: skills::Skills = skills::embed_skills!("./fixtures/many-problems", untracked);

fn main() {
    println!("{}", SKILLS.len());
}
