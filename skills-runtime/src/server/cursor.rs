//! Opaque pagination cursors that any replica of the same build understands.
//!
//! A cursor encodes what it pages (its kind), the fingerprint of the skill
//! set it was issued for, and a position: no server memory is involved, so a
//! load balancer may send the next page to another process. A cursor from a
//! different skill set, another listing or another build is refused with
//! `-32602`, never silently restarted (SEP-2640; FastMCP restarts instead).

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rmcp::ErrorData;
use serde_json::json;

/// What a cursor pages through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Skills,
    Resources,
    Directory,
}

impl Kind {
    fn tag(self) -> &'static str {
        match self {
            Self::Skills => "s",
            Self::Resources => "r",
            Self::Directory => "d",
        }
    }
}

/// Where a listing continues: an offset in our own list, or a cursor of the
/// handler we wrap once our list is exhausted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Position {
    Ours(usize),
    Inner(Option<String>),
}

/// Only the start of the fingerprint goes in the cursor: enough to tell sets apart.
fn fingerprint_tag(fingerprint: &str) -> &str {
    let hex = fingerprint.strip_prefix("sha256:").unwrap_or(fingerprint);
    hex.get(..16).unwrap_or(hex)
}

/// A cursor for `position` in the listing `kind` (scoped to `scope`, such as
/// a directory URI) of the set with `fingerprint`.
pub(crate) fn encode(kind: Kind, fingerprint: &str, scope: &str, position: &Position) -> String {
    let place = match position {
        Position::Ours(offset) => format!("o{offset}"),
        Position::Inner(cursor) => format!("i{}", cursor.as_deref().unwrap_or("")),
    };
    let scope = scope_tag(scope);
    let plain = format!(
        "{}.{}.{scope}.{place}",
        kind.tag(),
        fingerprint_tag(fingerprint)
    );
    URL_SAFE_NO_PAD.encode(plain)
}

fn scope_tag(scope: &str) -> String {
    if scope.is_empty() {
        return "-".to_owned();
    }
    let digest = rmcp::model::sha256_digest(scope.as_bytes());
    digest["sha256:".len()..][..8].to_owned()
}

/// The position a cursor names, or `-32602` if this server did not issue it
/// for this listing of this set.
pub(crate) fn decode(
    cursor: &str,
    kind: Kind,
    fingerprint: &str,
    scope: &str,
) -> Result<Position, ErrorData> {
    let refuse = |why: &str| {
        ErrorData::invalid_params(
            format!("unknown cursor: {why}; list again without a cursor"),
            Some(json!({ "cursor": cursor })),
        )
    };
    let bytes = URL_SAFE_NO_PAD
        .decode(cursor)
        .map_err(|_| refuse("it is not a cursor this server issued"))?;
    let plain =
        String::from_utf8(bytes).map_err(|_| refuse("it is not a cursor this server issued"))?;
    let mut parts = plain.splitn(4, '.');
    let (Some(tag), Some(print), Some(scoped), Some(place)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(refuse("it is not a cursor this server issued"));
    };
    if tag != kind.tag() || scoped != scope_tag(scope) {
        return Err(refuse("it was issued for another listing"));
    }
    if print != fingerprint_tag(fingerprint) {
        return Err(refuse("the skills changed since it was issued"));
    }
    if let Some(offset) = place.strip_prefix('o') {
        return offset
            .parse()
            .map(Position::Ours)
            .map_err(|_| refuse("it is not a cursor this server issued"));
    }
    match place.strip_prefix('i') {
        Some("") => Ok(Position::Inner(None)),
        Some(inner) => Ok(Position::Inner(Some(inner.to_owned()))),
        None => Err(refuse("it is not a cursor this server issued")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRINT: &str = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn round_trips_positions() {
        for position in [
            Position::Ours(0),
            Position::Ours(4096),
            Position::Inner(None),
            Position::Inner(Some("their.cursor".to_owned())),
        ] {
            let cursor = encode(Kind::Resources, PRINT, "", &position);
            assert_eq!(decode(&cursor, Kind::Resources, PRINT, ""), Ok(position));
        }
    }

    #[test]
    fn refuses_foreign_and_stale_cursors() {
        let cursor = encode(Kind::Skills, PRINT, "", &Position::Ours(2));
        let message = |result: Result<Position, ErrorData>| result.unwrap_err().message.to_string();
        assert!(message(decode(&cursor, Kind::Resources, PRINT, "")).contains("another listing"));
        let other = "sha256:ffff456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
        assert!(message(decode(&cursor, Kind::Skills, other, "")).contains("changed"));
        let dir = encode(Kind::Directory, PRINT, "skill://a/x", &Position::Ours(1));
        assert!(
            message(decode(&dir, Kind::Directory, PRINT, "skill://a/y"))
                .contains("another listing")
        );
        for junk in ["", "!!!", "bm90IGEgY3Vyc29y", "cy4wMTIzLi0ubzE"] {
            let error = decode(junk, Kind::Skills, PRINT, "").unwrap_err();
            assert_eq!(error.code, rmcp::model::ErrorCode::INVALID_PARAMS, "{junk}");
            assert_eq!(error.data, Some(json!({ "cursor": junk })));
        }
    }
}
