//! The [`Digest`] of a file as the tables hold it and SEP-2640 writes it,
//! and what a set's fingerprint is the SHA-256 of. The hashing itself is
//! skills-core's (`skills_core::digest`): the tables hash nothing, so a
//! binary that only embeds skills links no SHA-256.

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
/// use skills_tables::Digest;
///
/// let text = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
/// let digest: Digest = text.parse()?;
/// assert_eq!(digest.to_string(), text);
/// assert!("sha256:E3B0".parse::<Digest>().is_err());
/// # Ok::<(), skills_tables::DigestSyntaxError>(())
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

/// The bytes a set's [fingerprint](crate::Skills::fingerprint) is the SHA-256 of:
/// one `<uri> <revision>\n` line per skill, in the order given (a set's
/// order: by path). Public without the `load` feature so that a server can
/// fingerprint a subset (what one caller may see) with the SHA-256 it already
/// links, and get the same value a set of exactly those skills would have.
///
/// ```
/// let input = skills_tables::fingerprint_input([("skill://a/SKILL.md", "sha256:1")]);
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
