// Mistakes that used to build and serve without a word: a ` #` that cuts an
// unquoted value short, a link one letter off a file of the skill, and a
// link that climbs out of the skill (broken once it is served alone).
static SKILLS: skills::Skills = skills::embed_skills!("./fixtures/silent-mistakes", untracked);

fn main() {
    println!("{}", SKILLS.len());
}
