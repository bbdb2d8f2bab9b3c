//! Digests: everything of [`skills_tables::digest`] (file digests, set
//! fingerprints), and a skill's revision, which only the loader computes.

pub use skills_tables::digest::*;

#[cfg(feature = "load")]
/// A skill's revision, as fast-agent computes it (`McpRegistrySkill.revision`
/// in fast-agent 0.10.48): `sha256:` over the compact JSON of its
/// `{"digest", "size", "uri"}` items sorted by URI. Any changed byte in any
/// file changes it.
///
/// `files` are `(uri, digest, size)`; URIs are ASCII (percent-encoded), so the
/// JSON needs no escaping beyond what `serde_json` does.
pub fn revision<'a>(files: impl IntoIterator<Item = (&'a str, &'a str, u64)>) -> String {
    let mut items: Vec<(&str, &str, u64)> = files.into_iter().collect();
    items.sort_unstable();
    // The compact JSON `serde_json` writes for `[{"digest", "size", "uri"}]`
    // (keys sorted), written directly: building `serde_json::Value`s per file
    // was most of this function's time inside the unoptimised macro. A test
    // compares the two byte for byte.
    let mut list = String::with_capacity(items.len() * 160 + 2);
    list.push('[');
    for (index, (uri, digest, size)) in items.into_iter().enumerate() {
        if index > 0 {
            list.push(',');
        }
        list.push_str("{\"digest\":");
        json_string(&mut list, digest);
        list.push_str(",\"size\":");
        list.push_str(&size.to_string());
        list.push_str(",\"uri\":");
        json_string(&mut list, uri);
        list.push('}');
    }
    list.push(']');
    sha256(list.as_bytes())
}

#[cfg(feature = "load")]
/// `text` as `serde_json` writes a string: quoted, with `"`, `\\` and
/// control characters escaped as it escapes them.
fn json_string(out: &mut String, text: &str) {
    out.push('"');
    let bytes = text.as_bytes();
    let mut plain = 0;
    while plain < bytes.len() && !matches!(bytes[plain], b'"' | b'\\' | 0x00..=0x1f) {
        plain += 1;
    }
    if plain == bytes.len() {
        // Nothing to escape (digests and percent-encoded URIs, always).
        out.push_str(text);
        out.push('"');
        return;
    }
    let mut rest = text;
    while let Some(at) = rest.find(|c: char| c == '"' || c == '\\' || c < ' ') {
        out.push_str(&rest[..at]);
        let c = rest[at..].chars().next().unwrap_or_default();
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            other => out.push_str(&format!("\\u{:04x}", u32::from(other))),
        }
        rest = &rest[at + c.len_utf8()..];
    }
    out.push_str(rest);
    out.push('"');
}

#[cfg(all(test, feature = "load"))]
mod tests {
    use super::*;

    /// The JSON written by hand is `serde_json`'s, byte for byte, whatever
    /// a URI holds (it is percent-encoded ASCII in practice).
    #[test]
    fn revision_json_is_serde_jsons() {
        let uris = [
            "skill://a/SKILL.md",
            "skill://a/quote\"back\\slash",
            "skill://a/\u{0}\u{1f}\n\r\t\u{8}\u{c}\u{7f}",
            "skill://a/é/中/🦀",
            "",
        ];
        for (index, uri) in uris.iter().enumerate() {
            let size = index as u64 * 1_000_003;
            let files = [(*uri, "sha256:ab\"", size), ("skill://z", "sha256:cd", 0)];
            let mut items = files.to_vec();
            items.sort_unstable();
            let values: Vec<serde_json::Value> = items
                .iter()
                .map(|(uri, digest, size)| serde_json::json!({ "digest": digest, "size": size, "uri": uri }))
                .collect();
            let expected = sha256(serde_json::to_string(&values).unwrap().as_bytes());
            assert_eq!(revision(files), expected, "{uri:?}");
        }
    }

    #[test]
    fn revision_matches_fast_agents_formula() {
        // json.dumps(sorted([{"uri","digest","size"}], key=uri), sort_keys=True, separators=(",",":"))
        let canonical = r#"[{"digest":"sha256:aa","size":3,"uri":"skill://a/SKILL.md"},{"digest":"sha256:bb","size":10,"uri":"skill://a/b.md"}]"#;
        assert_eq!(
            revision([
                ("skill://a/b.md", "sha256:bb", 10),
                ("skill://a/SKILL.md", "sha256:aa", 3)
            ]),
            sha256(canonical.as_bytes())
        );
        // The test vector fast-agent 0.10.48 printed for the captured git-workflow skill.
        assert_eq!(
            revision([(
                "skill://git-workflow/SKILL.md",
                "sha256:7f4852a385629549083631ce9fe8a0d5970bc0eaacbae2ef0d1061c9d49d7d2b",
                188,
            )]),
            "sha256:c642f37250b6e26f606b0bc7a0e1fd55c8255fc0627468f5c4dcbe03800c3661"
        );
    }
}
