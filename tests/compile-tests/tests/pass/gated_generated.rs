// `gated` marks the skills a server may sell; `generated` lets a SKILL.md
// link to a file the program adds at start-up, recorded as pending until then.
static SKILLS: skills::Skills = skills::embed_skills!(
    "./fixtures/platform",
    gated = ["courses/*"],
    generated = ["platform/references/api.md"],
    untracked
);

fn main() {
    assert!(SKILLS.get("courses/python").unwrap().is_gated());
    assert!(!SKILLS.get("platform").unwrap().is_gated());
    assert_eq!(
        SKILLS.pending_files().collect::<Vec<_>>(),
        ["platform/references/api.md"]
    );
    assert!(SKILLS.get("platform").unwrap().file("references/api.md").is_none());
}
