//! Target `cursor`: the cursor decoder of skills-runtime's server, through
//! its `#[doc(hidden)]` entry `skills_runtime::server::cursor_fuzzing`.
//!
//! The input's first byte picks the listing (kind, scope, fingerprint, and
//! whether a wrapped handler's list follows ours), the second its length,
//! the third the page size; the rest is a cursor. It is tried twice: as the
//! client sent it, and base64-encoded as the server encodes its cursors, so
//! the fuzzer explores what lies inside a cursor too.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::json;
use skills_runtime::server::cursor_fuzzing::{self, Answer, Kind, Position};

/// The fingerprints a listing's view may have.
pub const FINGERPRINTS: [&str; 2] = [
    "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    skills_core::EMPTY_FINGERPRINT,
];

/// The scopes a listing may have: a whole listing, or one directory.
pub const SCOPES: [&str; 2] = ["", "skill://pdf/references"];

/// The kinds of listing, in the order the first byte picks them.
pub const KINDS: [Kind; 4] = [
    Kind::Skills,
    Kind::Resources,
    Kind::Templates,
    Kind::Directory,
];

/// One listing of the server, as the first three bytes of an input pick it.
#[derive(Debug, Clone, Copy)]
pub struct Listing {
    /// What it pages.
    pub kind: Kind,
    /// Its directory's URI, or `""`.
    pub scope: &'static str,
    /// The fingerprint of its view.
    pub fingerprint: &'static str,
    /// How many items it has.
    pub len: usize,
    /// How many items a page holds (at least one, as the server's settings).
    pub size: usize,
    /// Whether a wrapped handler's list follows ours.
    pub chained: bool,
}

impl Listing {
    /// The listing the first three bytes pick.
    pub fn pick(head: [u8; 3]) -> Self {
        let [pick, len, size] = head;
        Self {
            kind: KINDS[usize::from(pick & 3)],
            scope: SCOPES[usize::from((pick >> 2) & 1)],
            fingerprint: FINGERPRINTS[usize::from((pick >> 3) & 1)],
            len: usize::from(len),
            size: usize::from(size).max(1),
            chained: pick & 0x10 != 0,
        }
    }

    /// The first three bytes that pick this listing.
    pub fn head(&self) -> [u8; 3] {
        let kind = KINDS.iter().position(|k| *k == self.kind).expect("a kind");
        let scope = SCOPES
            .iter()
            .position(|s| *s == self.scope)
            .expect("a scope");
        let print = FINGERPRINTS
            .iter()
            .position(|f| *f == self.fingerprint)
            .expect("a fingerprint");
        let pick = kind | scope << 2 | print << 3 | usize::from(self.chained) << 4;
        [
            u8::try_from(pick).expect("five bits"),
            u8::try_from(self.len).expect("at most 255 items"),
            u8::try_from(self.size).expect("pages of at most 255"),
        ]
    }

    /// The cursor the server issues for `position` in this listing.
    pub fn encode(&self, position: &Position) -> String {
        cursor_fuzzing::encode(self.kind, self.scope, self.fingerprint, position)
    }

    fn decode(&self, cursor: &str) -> Result<Position, rmcp::ErrorData> {
        cursor_fuzzing::decode(self.kind, self.scope, self.fingerprint, cursor)
    }

    fn page(&self, cursor: Option<&str>) -> Result<Answer, rmcp::ErrorData> {
        cursor_fuzzing::page(
            self.kind,
            self.scope,
            self.fingerprint,
            (self.len, self.size, self.chained),
            cursor,
        )
    }
}

/// Every invariant of the cursor decoder (panics when one breaks):
///
/// - an accepted cursor re-encodes to exactly the same text, and no other
///   listing (kind, scope or fingerprint) accepts it;
/// - a page answered for it starts at the position it names, which lies in
///   the list; the page holds the next `size` items or the rest, and its
///   next cursor names where the page ends (or, at the end of a chained
///   listing, the start of the list that follows);
/// - a refused cursor gets `-32602` with the cursor echoed in `data`;
/// - paging from the first page visits every item once, in order.
pub fn check(bytes: &[u8]) {
    let Some((head, rest)) = bytes.split_first_chunk::<3>() else {
        return;
    };
    let listing = Listing::pick(*head);
    walks_every_item(&listing);
    one_cursor(&listing, &String::from_utf8_lossy(rest));
    one_cursor(&listing, &URL_SAFE_NO_PAD.encode(rest));
}

fn one_cursor(listing: &Listing, cursor: &str) {
    let decoded = listing.decode(cursor);
    match &decoded {
        Ok(position) => {
            assert_eq!(
                listing.encode(position),
                cursor,
                "{position:?} was read from a cursor it does not encode to"
            );
            for other in others(listing) {
                let refusal = other
                    .decode(cursor)
                    .expect_err("a cursor accepted by two listings");
                refused(&refusal, cursor);
            }
        }
        Err(refusal) => refused(refusal, cursor),
    }
    match listing.page(Some(cursor)) {
        Ok(Answer::Page(range, next)) => {
            let Ok(Position::Ours(start)) = decoded else {
                panic!("a page for {decoded:?}");
            };
            assert_eq!(range.start, start);
            assert!(start < listing.len, "a page at {start} of {}", listing.len);
            assert_eq!(range.end, (start + listing.size).min(listing.len));
            next_is(listing, range.end, next);
        }
        Ok(Answer::Tail(tail)) => {
            assert!(listing.chained, "a tail without a list that follows ours");
            assert_eq!(decoded, Ok(Position::Tail(tail)));
        }
        Err(refusal) => {
            refused(&refusal, cursor);
            match decoded {
                Ok(Position::Ours(start)) => assert!(start >= listing.len, "{start} refused"),
                Ok(Position::Tail(_)) => assert!(!listing.chained),
                Err(_) => {}
            }
        }
    }
}

/// The next cursor of a page ending at `end`.
fn next_is(listing: &Listing, end: usize, next: Option<String>) {
    let expected = if end < listing.len {
        Some(Position::Ours(end))
    } else if listing.chained {
        Some(Position::Tail(None))
    } else {
        None
    };
    let next = next.map(|next| {
        listing
            .decode(&next)
            .unwrap_or_else(|_| panic!("the server refuses its own cursor {next}"))
    });
    assert_eq!(next, expected);
}

fn refused(refusal: &rmcp::ErrorData, cursor: &str) {
    assert_eq!(refusal.code, rmcp::model::ErrorCode::INVALID_PARAMS);
    assert_eq!(refusal.data, Some(json!({ "cursor": cursor })));
    assert!(
        refusal.message.starts_with("unknown cursor: "),
        "{refusal:?}"
    );
}

/// The same listing with one of kind, scope or fingerprint changed.
fn others(listing: &Listing) -> impl Iterator<Item = Listing> + '_ {
    let kinds = KINDS
        .into_iter()
        .filter(|kind| *kind != listing.kind)
        .map(|kind| Listing { kind, ..*listing });
    let scopes = SCOPES
        .into_iter()
        .filter(|scope| *scope != listing.scope)
        .map(|scope| Listing { scope, ..*listing });
    let prints = FINGERPRINTS
        .into_iter()
        .filter(|print| *print != listing.fingerprint)
        .map(|fingerprint| Listing {
            fingerprint,
            ..*listing
        });
    kinds.chain(scopes).chain(prints)
}

fn walks_every_item(listing: &Listing) {
    let mut seen = 0;
    let mut cursor: Option<String> = None;
    for _ in 0..=listing.len + 1 {
        match listing.page(cursor.as_deref()) {
            Ok(Answer::Page(range, next)) => {
                assert_eq!(range.start, seen, "a page skips or repeats items");
                seen = range.end;
                match next {
                    Some(next) => cursor = Some(next),
                    None => break,
                }
            }
            Ok(Answer::Tail(None)) => {
                assert!(listing.chained);
                break;
            }
            other => panic!("paging from the start: {other:?}"),
        }
    }
    assert_eq!(seen, listing.len, "paging did not reach the end");
}
