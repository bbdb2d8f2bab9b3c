// An embed in a `const`: the whole table is built in a const context. Each use
// of a `const` is a fresh value, so it is bound (or copied into a `static`)
// before borrowing from it.
const SKILLS: skills::Skills = skills::embed_skills!("./fixtures/basic", untracked);
static FROM_CONST: skills::Skills = SKILLS;

fn main() {
    let skills = SKILLS;
    assert_eq!(skills.len(), 2);
    let csv = skills.get("csv").expect("csv is embedded");
    assert_eq!(
        csv.description(),
        "Cleans CSV files. Use when the user shares a spreadsheet export."
    );
    assert_eq!(csv.skill_md().bytes(), include_bytes!("fixtures/basic/csv/SKILL.md"));
    assert_eq!(FROM_CONST.fingerprint(), skills.fingerprint());
}
