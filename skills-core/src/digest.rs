//! Digest step: `sha256:` digests of files, revisions of skills and
//! fingerprints of sets. Defined once here; the macro, run-time loads and
//! the tests all call these.

#[cfg(any(not(feature = "fast-digest"), test))]
use sha2::{Digest as _, Sha256};

use std::fmt;

/// The SHA-256 of a file's bytes. Displays as SEP-2640 writes it:
/// `sha256:` followed by 64 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Digest([u8; 32]);

impl Digest {
    /// A digest from its 32 bytes.
    pub const fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// The 32 bytes.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // By table, then one write: `{:02x}` per byte goes through the
        // formatting machinery 32 times, which inside the macro (unoptimised
        // under Cargo's default dev profile) cost more than hashing the file.
        const HEX: &[u8; 16] = b"0123456789abcdef";
        const PREFIX: &[u8] = b"sha256:";
        let mut text = [0u8; PREFIX.len() + 64];
        text[..PREFIX.len()].copy_from_slice(PREFIX);
        for (index, byte) in self.0.iter().enumerate() {
            text[PREFIX.len() + 2 * index] = HEX[usize::from(byte >> 4)];
            text[PREFIX.len() + 2 * index + 1] = HEX[usize::from(byte & 0x0f)];
        }
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a string is not a digest as SEP-2640 writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DigestSyntaxError;

impl fmt::Display for DigestSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a digest is `sha256:` followed by 64 lowercase hex digits")
    }
}

impl std::error::Error for DigestSyntaxError {}

/// Reads a digest exactly as [`Display`](fmt::Display) writes it (what a
/// server sends): `sha256:` and 64 lowercase hex digits, nothing else.
///
/// ```
/// use skills_core::Digest;
///
/// let text = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
/// let digest: Digest = text.parse()?;
/// assert_eq!(digest.to_string(), text);
/// assert!("sha256:E3B0".parse::<Digest>().is_err());
/// # Ok::<(), skills_core::DigestSyntaxError>(())
/// ```
impl std::str::FromStr for Digest {
    type Err = DigestSyntaxError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let hex = text.strip_prefix("sha256:").ok_or(DigestSyntaxError)?;
        if hex.len() != 64 {
            return Err(DigestSyntaxError);
        }
        fn nibble(byte: u8) -> Result<u8, DigestSyntaxError> {
            match byte {
                b'0'..=b'9' => Ok(byte - b'0'),
                b'a'..=b'f' => Ok(byte - b'a' + 10),
                _ => Err(DigestSyntaxError),
            }
        }
        // A plain loop: the read cache parses a digest per file inside the
        // unoptimised macro, where iterator adapters cost many times more.
        let hex = hex.as_bytes();
        let mut bytes = [0u8; 32];
        let mut index = 0;
        while index < 32 {
            bytes[index] = (nibble(hex[2 * index])? << 4) | nibble(hex[2 * index + 1])?;
            index += 1;
        }
        Ok(Self(bytes))
    }
}

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

/// `sha256:` followed by 64 lowercase hex digits (SEP-2640 §Skill Entries).
pub fn sha256(bytes: &[u8]) -> String {
    of(bytes).to_string()
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

/// `text` as `serde_json` writes a string: quoted, with `"`, `\\` and
/// control characters escaped as it escapes them.
///
/// Not the runtime's Python-style writer (`protocol.rs`, FastMCP's
/// `_manifest`), on purpose: the revision's strings are always ASCII, so
/// `ensure_ascii`'s UTF-16 escapes would never apply here, and this runs for
/// every file inside the macro, where the fast path matters; the manifest
/// holds raw paths, which may not be ASCII.
#[cfg(feature = "load")]
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

/// A set's fingerprint: `sha256:` over [`fingerprint_input`] of each
/// skill's `uri` and revision.
pub fn fingerprint<'a>(skills: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    sha256(fingerprint_input(skills).as_bytes())
}

/// The bytes a set's [fingerprint](crate::Skills::fingerprint) is the SHA-256 of:
/// one `<uri> <revision>\n` line per skill, in the order given (a set's
/// order: by path). Public without the `load` feature so that a server can
/// fingerprint a subset (what one caller may see) with the SHA-256 it already
/// links, and get the same value a set of exactly those skills would have.
///
/// ```
/// let input = skills_core::fingerprint_input([("skill://a/SKILL.md", "sha256:1")]);
/// assert_eq!(input, "skill://a/SKILL.md sha256:1\n");
/// ```
pub fn fingerprint_input<'a>(skills: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut lines = String::new();
    for (uri, revision) in skills {
        lines.push_str(uri);
        lines.push(' ');
        lines.push_str(revision);
        lines.push('\n');
    }
    lines
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

    /// The JSON written by hand is `serde_json`'s, byte for byte, whatever
    /// a URI holds (it is percent-encoded ASCII in practice).
    #[cfg(feature = "load")]
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

    #[test]
    fn digests_display_as_sep_2640_writes_them() {
        let mut bytes = [0u8; 32];
        bytes[0] = 0xab;
        bytes[31] = 0x01;
        let digest = Digest::from_bytes(bytes);
        let text = digest.to_string();
        assert_eq!(text.len(), 71);
        assert!(text.starts_with("sha256:ab00"));
        assert!(text.ends_with("0001"));
        assert_eq!(text[7..].to_lowercase(), text[7..]);
    }

    #[test]
    fn digests_parse_only_as_displayed() {
        let mut bytes = [0u8; 32];
        for (index, byte) in bytes.iter_mut().enumerate() {
            *byte = (index * 37) as u8;
        }
        let digest = Digest::from_bytes(bytes);
        assert_eq!(digest.to_string().parse(), Ok(digest));
        let good = digest.to_string();
        for bad in [
            String::new(),
            good[7..].to_owned(),
            good.to_uppercase(),
            format!("sha512:{}", &good[7..]),
            format!("{good}0"),
            good[..70].to_owned(),
            format!(" {good}"),
            good.replace('a', "g"),
        ] {
            assert_eq!(bad.parse::<Digest>(), Err(DigestSyntaxError), "{bad:?}");
        }
    }
}
