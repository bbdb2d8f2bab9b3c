// Warnings (a SKILL.md over 500 lines, a reference nested two levels deep)
// never fail the build: the macro cannot show them on stable Rust, and the
// skill embeds.
static SKILLS: skills::Skills = skills::embed_skills!("./fixtures/warned", untracked);

fn main() {
    let skill = SKILLS.get("long").expect("a skill with warnings embeds");
    assert_eq!(skill.files().len(), 3);
    assert!(skill.body().lines().count() > 500);
}
