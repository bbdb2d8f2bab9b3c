// Text files with what a string literal must carry exactly: `"#` runs, CRLF,
// direction code points, control characters, a BOM, backslashes. Each reads
// back byte for byte, whether the macro wrote it raw, escaped, or (past
// 1 KiB: `long-crlf.md`) as `include_bytes!`, and reads as the same text.
static SKILLS: skills::Skills = skills::embed_skills!("./fixtures/literals", untracked);

fn main() {
    let skill = SKILLS.get("quoting").expect("quoting is embedded");
    let cases: [(&str, &[u8]); 6] = [
        ("SKILL.md", include_bytes!("fixtures/literals/quoting/SKILL.md")),
        ("references/hashes.md", include_bytes!("fixtures/literals/quoting/references/hashes.md")),
        ("references/crlf.md", include_bytes!("fixtures/literals/quoting/references/crlf.md")),
        (
            "references/direction.md",
            include_bytes!("fixtures/literals/quoting/references/direction.md"),
        ),
        (
            "references/controls.md",
            include_bytes!("fixtures/literals/quoting/references/controls.md"),
        ),
        (
            "references/long-crlf.md",
            include_bytes!("fixtures/literals/quoting/references/long-crlf.md"),
        ),
    ];
    for (path, bytes) in cases {
        let file = skill.file(path).unwrap_or_else(|| panic!("{path} is embedded"));
        assert!(file.is_text(), "{path} is text");
        assert_eq!(file.bytes(), bytes, "{path}");
        let text = std::str::from_utf8(bytes).expect("the fixtures are UTF-8");
        assert_eq!(file.text(), Some(text), "{path} as text");
        // Borrowed from the binary, whichever way the macro wrote it.
        assert!(
            matches!(file.static_text(), Some(std::borrow::Cow::Borrowed(t)) if t == text),
            "{path} as static text"
        );
    }
    assert_eq!(skill.files().len(), cases.len());
}
