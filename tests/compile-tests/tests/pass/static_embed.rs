// An embed in a `static`: names, bytes and URIs read back as they are on disk.
static SKILLS: skills::Skills = skills::embed_skills!("./fixtures/basic", untracked);

fn main() {
    let paths: Vec<&str> = SKILLS.skills().iter().map(|skill| skill.path()).collect();
    assert_eq!(paths, ["csv", "pdf"]);

    let pdf = SKILLS.get("pdf").expect("pdf is embedded");
    assert_eq!(pdf.name(), "pdf");
    assert_eq!(pdf.uri(), "skill://pdf/SKILL.md");
    let files: Vec<&str> = pdf.files().iter().map(|file| file.path()).collect();
    // `.draft.md` is hidden, so it is left out.
    assert_eq!(
        files,
        ["SKILL.md", "assets/icon.bin", "assets/logo.bin", "references/my notes.md"]
    );
    assert_eq!(pdf.skill_md().bytes(), include_bytes!("fixtures/basic/pdf/SKILL.md"));

    let notes = pdf.file("references/my notes.md").expect("notes are embedded");
    assert_eq!(
        notes.bytes(),
        include_bytes!("fixtures/basic/pdf/references/my notes.md")
    );
    let notes_uri = pdf.file_uri(notes);
    assert_eq!(notes_uri, "skill://pdf/references/my%20notes.md");
    let (owner, found) = SKILLS.file_by_uri(&notes_uri).expect("found by its URI");
    assert_eq!((owner.path(), found.path()), ("pdf", "references/my notes.md"));

    // A small binary file is inlined, a larger one included; both keep their bytes.
    let icon = pdf.file("assets/icon.bin").expect("icon is embedded");
    assert!(!icon.is_text());
    assert_eq!(icon.bytes(), include_bytes!("fixtures/basic/pdf/assets/icon.bin"));
    let logo = pdf.file("assets/logo.bin").expect("logo is embedded");
    assert_eq!(logo.size(), 2000);
    assert_eq!(logo.bytes(), include_bytes!("fixtures/basic/pdf/assets/logo.bin"));
}
