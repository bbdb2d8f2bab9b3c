//! Prints the SEP-2640 entries of the embedded skills as JSON.
static SKILLS: skills_runtime::Skills = skills_runtime::embed_skills!("${SKILLS_DIR:-skills}");

fn main() {
    for skill in SKILLS.skills() {
        println!(
            "{} {} {}",
            skill.uri(),
            skill.files().len(),
            skill.version()
        );
    }
}
