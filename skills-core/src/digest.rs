//! Digest step: `sha256:` digests of files, revisions of skills and
//! fingerprints of sets. Defined once here; the macro, run-time loads and
//! the tests all call these. The [`Digest`] type and [`fingerprint_input`]
//! are skills-tables' (re-exported here), which hashes nothing.

#[cfg(any(not(feature = "fast-digest"), test))]
use sha2::{Digest as _, Sha256};

pub use skills_tables::digest::*;

/// The SHA-256 of `bytes`.
///
/// With the `fast-digest` feature (which `embed_skills!` turns on for the
/// compiler's copy of this crate) it is ring's assembly, whose speed does not
/// depend on the profile the caller was compiled with; otherwise sha2's.
/// Both give the same digest.
pub fn of(bytes: &[u8]) -> Digest {
    #[cfg(feature = "fast-digest")]
    {
        let digest = ring::digest::digest(&ring::digest::SHA256, bytes);
        let mut out = [0; 32];
        out.copy_from_slice(digest.as_ref());
        Digest::from_bytes(out)
    }
    #[cfg(not(feature = "fast-digest"))]
    {
        Digest::from_bytes(Sha256::digest(bytes).into())
    }
}

/// SHA-256 fed in pieces: [`of`] for input that does not sit in memory
/// whole (a file read in blocks). The same digest as [`of`] over the
/// pieces joined.
pub struct Hasher {
    #[cfg(feature = "fast-digest")]
    inner: ring::digest::Context,
    #[cfg(not(feature = "fast-digest"))]
    inner: sha2::Sha256,
}

impl Hasher {
    /// A hasher that has seen nothing.
    pub fn new() -> Self {
        Self {
            #[cfg(feature = "fast-digest")]
            inner: ring::digest::Context::new(&ring::digest::SHA256),
            #[cfg(not(feature = "fast-digest"))]
            inner: <sha2::Sha256 as sha2::Digest>::new(),
        }
    }

    /// Adds `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        #[cfg(feature = "fast-digest")]
        self.inner.update(bytes);
        #[cfg(not(feature = "fast-digest"))]
        sha2::Digest::update(&mut self.inner, bytes);
    }

    /// The digest of everything added.
    pub fn finish(self) -> Digest {
        #[cfg(feature = "fast-digest")]
        {
            let digest = self.inner.finish();
            let mut out = [0; 32];
            out.copy_from_slice(digest.as_ref());
            Digest::from_bytes(out)
        }
        #[cfg(not(feature = "fast-digest"))]
        {
            Digest::from_bytes(sha2::Digest::finalize(self.inner).into())
        }
    }
}

impl Default for Hasher {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Hasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hasher").finish_non_exhaustive()
    }
}

/// `sha256:` followed by 64 lowercase hex digits (SEP-2640 §Skill Entries).
pub fn sha256(bytes: &[u8]) -> String {
    of(bytes).to_string()
}

/// A set's fingerprint: `sha256:` over [`fingerprint_input`] of each
/// skill's `uri` and revision.
pub fn fingerprint<'a>(skills: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    sha256(fingerprint_input(skills).as_bytes())
}

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
///
/// Not the runtime's Python-style writer (`protocol.rs`, FastMCP's
/// `_manifest`), on purpose: the revision's strings are always ASCII, so
/// `ensure_ascii`'s UTF-16 escapes would never apply here, and this runs for
/// every file inside the macro, where the fast path matters; the manifest
/// holds raw paths, which may not be ASCII.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_are_prefixed_lowercase_hex() {
        assert_eq!(
            sha256(b""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(sha256(b"abc").len(), 71);
    }

    /// Whichever implementation `of` uses (ring with `fast-digest`), it
    /// agrees with sha2 on every length around the block and padding
    /// boundaries, and on a multi-block input.
    #[test]
    fn digests_agree_with_sha2() {
        let data: Vec<u8> = (0..70_000u32).map(|i| (i * 31 % 251) as u8).collect();
        let lengths = (0..=200).chain([1000, 4096, 65_535, 65_536, 70_000]);
        for len in lengths {
            let expected: [u8; 32] = Sha256::digest(&data[..len]).into();
            assert_eq!(of(&data[..len]).as_bytes(), &expected, "length {len}");
        }
    }

    #[test]
    fn a_digest_in_pieces_is_the_digest_of_the_whole() {
        let data: Vec<u8> = (0..70_000u32).map(|i| (i * 7 % 253) as u8).collect();
        let mut hasher = Hasher::new();
        for piece in data.chunks(4099) {
            hasher.update(piece);
        }
        assert_eq!(hasher.finish(), of(&data));
        assert_eq!(Hasher::default().finish(), of(b""));
    }

    #[cfg(feature = "load")]
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

    #[cfg(feature = "load")]
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
