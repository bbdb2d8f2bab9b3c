//! `skill://` URIs: one canonical spelling when we build them, and a strict
//! parser that maps any equivalent spelling a client sends back to it.
//!
//! A URI is `skill://<skill-path>/<file-path>` (SEP-2640 §Resource Mapping).
//! Every byte outside `A-Z a-z 0-9 - . _ ~ /` is percent-encoded with uppercase
//! hex, as rmcp's own `SkillCatalog` does, so `references/my notes.md` is
//! served as `references/my%20notes.md`.

use std::borrow::Cow;
use std::fmt;

/// The URI scheme of every skill resource.
pub const SCHEME: &str = "skill://";

/// The URI of `path` (relative to the skills root, `/`-separated), in canonical form.
pub fn for_path(path: &str) -> String {
    let mut uri = String::with_capacity(SCHEME.len() + path.len());
    uri.push_str(SCHEME);
    encode_into(&mut uri, path);
    uri
}

/// The URI of `file` (relative to the skill folder) in the skill at `skill_path`.
pub fn for_file(skill_path: &str, file: &str) -> String {
    let mut uri = String::with_capacity(SCHEME.len() + skill_path.len() + 1 + file.len());
    uri.push_str(SCHEME);
    encode_into(&mut uri, skill_path);
    uri.push('/');
    encode_into(&mut uri, file);
    uri
}

/// `path` percent-encoded the way every URI here is (`my notes.md` → `my%20notes.md`).
pub fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    encode_into(&mut out, path);
    out
}

fn encode_into(out: &mut String, path: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &byte in path.as_bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xF)]));
        }
    }
}

/// Why a URI sent by a client names no skill resource.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UriError {
    /// The URI does not start with `skill://`.
    NotSkillScheme,
    /// The URI has nothing after `skill://`.
    Empty,
    /// The URI carries a `?query` or `#fragment`.
    QueryOrFragment,
    /// The URI contains a backslash.
    Backslash,
    /// Two slashes in a row, or a trailing slash.
    EmptySegment,
    /// A `.` or `..` segment (also when percent-encoded).
    DotSegment,
    /// `%2F` or `%5C`: an encoded slash or backslash inside a segment.
    EncodedSeparator,
    /// A `%` not followed by two hex digits.
    BadEscape,
    /// The decoded bytes are not UTF-8.
    NotUtf8,
    /// A control character, raw or decoded.
    ControlCharacter,
}

impl fmt::Display for UriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NotSkillScheme => "the URI does not start with skill://",
            Self::Empty => "the URI names no skill after skill://",
            Self::QueryOrFragment => "skill URIs carry no ?query or #fragment",
            Self::Backslash => "skill URIs contain no backslash",
            Self::EmptySegment => "the URI has an empty path segment (// or a trailing /)",
            Self::DotSegment => "the URI has a . or .. segment",
            Self::EncodedSeparator => "the URI has a percent-encoded / or \\ (%2F, %5C)",
            Self::BadEscape => "the URI has a % not followed by two hex digits",
            Self::NotUtf8 => "the URI's percent-escapes do not decode to UTF-8",
            Self::ControlCharacter => "the URI contains a control character",
        })
    }
}

impl std::error::Error for UriError {}

/// Maps a URI a client sent to the canonical spelling we serve, or says why it
/// cannot name a skill resource.
///
/// Equivalent spellings are accepted (`%7e` for `~`, a raw space for `%20`,
/// lowercase hex), so a lookup in the tables is exact afterwards. Traversal is
/// refused outright rather than resolved: `..`, `.`, empty segments and
/// encoded separators never reach a lookup.
pub fn parse(uri: &str) -> Result<Cow<'_, str>, UriError> {
    let rest = strip_scheme(uri).ok_or(UriError::NotSkillScheme)?;
    if rest.is_empty() {
        return Err(UriError::Empty);
    }
    if rest.contains(['?', '#']) {
        return Err(UriError::QueryOrFragment);
    }
    if rest.contains('\\') {
        return Err(UriError::Backslash);
    }
    let mut canonical = String::with_capacity(uri.len());
    canonical.push_str(SCHEME);
    for (index, segment) in rest.split('/').enumerate() {
        if segment.is_empty() {
            return Err(UriError::EmptySegment);
        }
        let decoded = decode_segment(segment)?;
        if decoded == "." || decoded == ".." {
            return Err(UriError::DotSegment);
        }
        if index > 0 {
            canonical.push('/');
        }
        encode_into(&mut canonical, &decoded);
    }
    if canonical == uri {
        Ok(Cow::Borrowed(uri))
    } else {
        Ok(Cow::Owned(canonical))
    }
}

fn strip_scheme(uri: &str) -> Option<&str> {
    let head = uri.get(..SCHEME.len())?;
    head.eq_ignore_ascii_case(SCHEME)
        .then(|| &uri[SCHEME.len()..])
}

fn decode_segment(segment: &str) -> Result<Cow<'_, str>, UriError> {
    if segment.chars().any(char::is_control) {
        return Err(UriError::ControlCharacter);
    }
    let decoded = crate::relpath::percent_decode(segment).map_err(|error| match error {
        crate::relpath::DecodeError::NotUtf8 => UriError::NotUtf8,
        _ => UriError::BadEscape,
    })?;
    // A raw segment holds no separator, so one here was percent-encoded.
    if decoded.contains(['/', '\\']) {
        return Err(UriError::EncodedSeparator);
    }
    if decoded.chars().any(char::is_control) {
        return Err(UriError::ControlCharacter);
    }
    Ok(decoded)
}

/// The decoded path of a canonical URI (`skill://a/my%20notes.md` → `a/my notes.md`).
pub fn decoded_path(canonical: &str) -> Option<String> {
    let rest = strip_scheme(canonical)?;
    let mut path = String::with_capacity(rest.len());
    for (index, segment) in rest.split('/').enumerate() {
        if index > 0 {
            path.push('/');
        }
        path.push_str(&decode_segment(segment).ok()?);
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_canonical_uris() {
        assert_eq!(for_file("pdf", "SKILL.md"), "skill://pdf/SKILL.md");
        assert_eq!(
            for_file("pdf", "references/my notes.md"),
            "skill://pdf/references/my%20notes.md"
        );
        assert_eq!(
            for_file("acme/billing/refunds", "examples/é#?.md"),
            "skill://acme/billing/refunds/examples/%C3%A9%23%3F.md"
        );
        assert_eq!(for_path("a/b~c_d.e-f"), "skill://a/b~c_d.e-f");
    }

    #[test]
    fn accepts_equivalent_spellings() {
        let cases = [
            ("skill://pdf/SKILL.md", "skill://pdf/SKILL.md"),
            ("SKILL://pdf/SKILL.md", "skill://pdf/SKILL.md"),
            ("skill://pdf/my notes.md", "skill://pdf/my%20notes.md"),
            ("skill://pdf/my%20notes.md", "skill://pdf/my%20notes.md"),
            ("skill://pdf/%7e%41.md", "skill://pdf/~A.md"),
            ("skill://pdf/%c3%a9.md", "skill://pdf/%C3%A9.md"),
            ("skill://pdf/templates", "skill://pdf/templates"),
        ];
        for (input, expected) in cases {
            assert_eq!(parse(input).as_deref(), Ok(expected), "{input}");
        }
    }

    #[test]
    fn refuses_traversal_and_odd_shapes() {
        let cases = [
            ("file:///etc/passwd", UriError::NotSkillScheme),
            ("skill:/pdf/SKILL.md", UriError::NotSkillScheme),
            ("skill://", UriError::Empty),
            ("skill://pdf/SKILL.md?x=1", UriError::QueryOrFragment),
            ("skill://pdf/SKILL.md#top", UriError::QueryOrFragment),
            ("skill://pdf\\SKILL.md", UriError::Backslash),
            ("skill://pdf//SKILL.md", UriError::EmptySegment),
            ("skill://pdf/", UriError::EmptySegment),
            ("skill://pdf/../other/SKILL.md", UriError::DotSegment),
            ("skill://pdf/./SKILL.md", UriError::DotSegment),
            ("skill://pdf/%2e%2e/x", UriError::DotSegment),
            ("skill://pdf%2fSKILL.md", UriError::EncodedSeparator),
            ("skill://pdf/%5c..", UriError::EncodedSeparator),
            ("skill://pdf/%zz", UriError::BadEscape),
            ("skill://pdf/%4", UriError::BadEscape),
            ("skill://pdf/%ff.md", UriError::NotUtf8),
            ("skill://pdf/a%00b", UriError::ControlCharacter),
            ("skill://pdf/a\nb", UriError::ControlCharacter),
        ];
        for (input, expected) in cases {
            assert_eq!(parse(input), Err(expected), "{input:?}");
        }
    }

    #[test]
    fn round_trips_every_built_uri() {
        for path in [
            "a/b c.md",
            "x/ü/ß.txt",
            "q/100%.md",
            "r/[1].md",
            "s/a+b=c.md",
        ] {
            let uri = for_path(path);
            assert_eq!(parse(&uri).as_deref(), Ok(uri.as_str()));
            assert_eq!(decoded_path(&uri).as_deref(), Some(path));
        }
    }
}
