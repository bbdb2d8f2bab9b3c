//! MIME types: everything of [`skills_tables::mime`], and the loader's
//! text check that keeps the bytes it read.

pub use skills_tables::mime::*;

/// `bytes` as a string when they are text (see [`is_text`]), else the bytes
/// back: one check, no copy either way. The loader's helper.
#[cfg(feature = "load")]
pub(crate) fn into_text(bytes: Vec<u8>) -> Result<String, Vec<u8>> {
    if bytes.contains(&0) {
        return Err(bytes);
    }
    String::from_utf8(bytes).map_err(std::string::FromUtf8Error::into_bytes)
}

#[cfg(all(test, feature = "load"))]
mod tests {
    use super::*;

    #[test]
    fn text_means_utf8_without_nul() {
        for bytes in [&b"plain"[..], b"a\0b", b"\xff", b""] {
            // The same decision as `is_text`, and the same bytes back either way.
            match into_text(bytes.to_vec()) {
                Ok(text) => assert!(is_text(bytes) && text.as_bytes() == bytes),
                Err(back) => assert!(!is_text(bytes) && back == bytes),
            }
        }
        assert!(is_text(b"plain"));
        assert!(is_text("\u{feff}bom and \r\n".as_bytes()));
        assert!(!is_text(b"a\0b"));
        assert!(!is_text(b"\xff"));
        assert!(is_text(b""));
    }
}
