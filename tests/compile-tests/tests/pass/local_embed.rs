// An embed bound with `let` inside a function.
fn main() {
    let skills = skills::embed_skills!("./fixtures/basic", untracked);
    let pdf = skills.by_name("pdf").expect("pdf is embedded");
    assert_eq!(pdf.path(), "pdf");
    assert!(pdf.body().contains("Read [my notes]"));
    assert_eq!(skills.by_uri("skill://csv/SKILL.md").map(|s| s.name()), Some("csv"));
}
