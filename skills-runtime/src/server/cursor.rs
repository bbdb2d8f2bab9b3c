//! Pagination, one rule for every listing: opaque cursors that any replica
//! of the same build understands.
//!
//! A cursor encodes what it pages (its kind and scope), the fingerprint of
//! the view it was issued for, and a position: no server memory is involved,
//! so a load balancer may send the next page to another process. Every
//! listing pages through [`page`] (or [`page_then_tail`] when a wrapped
//! handler's list follows ours), so every listing refuses the same cursors
//! the same way: one that this server did not issue, one issued for another
//! listing or another view, and one past the end of the list are all
//! `-32602` with the cursor echoed in `data`, on every protocol era — never
//! silently restarted (SEP-2640; FastMCP restarts instead) nor answered with
//! an empty page.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rmcp::ErrorData;
use serde_json::json;

/// What a cursor pages through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `skills/list`.
    Skills,
    /// `resources/list`.
    Resources,
    /// `resources/templates/list`.
    Templates,
    /// `resources/directory/read`.
    Directory,
    /// `prompts/list`.
    Prompts,
}

impl Kind {
    fn tag(self) -> &'static str {
        match self {
            Self::Skills => "s",
            Self::Resources => "r",
            Self::Templates => "t",
            Self::Directory => "d",
            Self::Prompts => "p",
        }
    }
}

/// The listing a cursor belongs to: what it pages, within which scope (a
/// directory's URI; empty for a whole listing), and the fingerprint of the
/// view it is issued for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Listing<'a> {
    kind: Kind,
    scope: &'a str,
    fingerprint: &'a str,
}

impl<'a> Listing<'a> {
    /// The whole listing `kind` of the view with `fingerprint`.
    pub(crate) fn new(kind: Kind, fingerprint: &'a str) -> Self {
        Self {
            kind,
            scope: "",
            fingerprint,
        }
    }

    /// The same listing, limited to `scope`.
    pub(crate) fn within(self, scope: &'a str) -> Self {
        Self { scope, ..self }
    }

    /// A cursor for `position` in this listing.
    fn encode(&self, position: &Position) -> String {
        let place = match position {
            Position::Ours(offset) => format!("o{offset}"),
            Position::Tail(cursor) => format!("i{}", cursor.as_deref().unwrap_or("")),
        };
        let plain = format!(
            "{}.{}.{}.{place}",
            self.kind.tag(),
            fingerprint_tag(self.fingerprint),
            scope_tag(self.scope)
        );
        URL_SAFE_NO_PAD.encode(plain)
    }

    /// The position `cursor` names, or `-32602` if this server did not issue
    /// it for this listing of this view.
    fn decode(&self, cursor: &str) -> Result<Position, ErrorData> {
        let foreign = || refuse(cursor, "it is not a cursor this server issued");
        let bytes = URL_SAFE_NO_PAD.decode(cursor).map_err(|_| foreign())?;
        let plain = String::from_utf8(bytes).map_err(|_| foreign())?;
        let mut parts = plain.splitn(4, '.');
        let (Some(tag), Some(print), Some(scoped), Some(place)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(foreign());
        };
        if tag != self.kind.tag() || scoped != scope_tag(self.scope) {
            return Err(refuse(cursor, "it was issued for another listing"));
        }
        if print != fingerprint_tag(self.fingerprint) {
            return Err(refuse(cursor, "the skills changed since it was issued"));
        }
        if let Some(digits) = place.strip_prefix('o') {
            // Only the digits `encode` writes: `o03` or `o+3` would be a
            // second cursor for one position, one this server never issued.
            return match digits.parse::<usize>() {
                Ok(offset) if offset.to_string() == digits => Ok(Position::Ours(offset)),
                _ => Err(foreign()),
            };
        }
        match place.strip_prefix('i') {
            Some("") => Ok(Position::Tail(None)),
            Some(tail) => Ok(Position::Tail(Some(tail.to_owned()))),
            None => Err(foreign()),
        }
    }
}

/// Where a listing continues: at an offset in our own list, or in the list
/// that follows ours (a wrapped handler's) at that list's own cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Position {
    /// At this offset of our own list.
    Ours(usize),
    /// In the list that follows ours, at its own cursor (`None`: its start).
    Tail(Option<String>),
}

/// One page of a listing: its items, and the cursor of the next page.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Page<'i, T> {
    pub(crate) items: &'i [T],
    pub(crate) next: Option<String>,
}

/// The page of `items` that `cursor` asks for (the first page without one),
/// at most `size` long, with a cursor for the next page while items remain.
/// A cursor naming no position of `items` in `listing` is `-32602`.
pub(crate) fn page<'i, T>(
    items: &'i [T],
    size: usize,
    cursor: Option<&str>,
    listing: Listing<'_>,
) -> Result<Page<'i, T>, ErrorData> {
    let start = match cursor {
        None => 0,
        Some(cursor) => match listing.decode(cursor)? {
            Position::Ours(offset) => offset_in(items, offset, cursor)?,
            Position::Tail(_) => return Err(refuse(cursor, "it was issued for another listing")),
        },
    };
    Ok(slice(items, start, size, listing))
}

/// A page of a listing made of ours, then another list (a wrapped
/// handler's, which pages itself).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Chained<'i, T> {
    /// Items of ours; the next cursor leads into the tail once ours are done.
    Ours(Page<'i, T>),
    /// The page lies in the tail: ask it with this cursor of its own, and
    /// wrap its next cursor with [`tail_cursor`].
    Tail(Option<String>),
}

/// [`page`], for a listing whose items are followed by another list.
pub(crate) fn page_then_tail<'i, T>(
    items: &'i [T],
    size: usize,
    cursor: Option<&str>,
    listing: Listing<'_>,
) -> Result<Chained<'i, T>, ErrorData> {
    let start = match cursor {
        None => 0,
        Some(cursor) => match listing.decode(cursor)? {
            Position::Ours(offset) => offset_in(items, offset, cursor)?,
            Position::Tail(tail) => return Ok(Chained::Tail(tail)),
        },
    };
    let mut page = slice(items, start, size, listing);
    if page.next.is_none() {
        page.next = Some(listing.encode(&Position::Tail(None)));
    }
    Ok(Chained::Ours(page))
}

/// Our cursor for the tail's own next cursor, `None` when the tail is done.
pub(crate) fn tail_cursor(listing: Listing<'_>, next: Option<String>) -> Option<String> {
    next.map(|next| listing.encode(&Position::Tail(Some(next))))
}

/// `offset`, if it names an item of `items`: we never issue a cursor at or
/// past the end, so one there is not ours (or the list shrank under it).
fn offset_in<T>(items: &[T], offset: usize, cursor: &str) -> Result<usize, ErrorData> {
    if offset < items.len() {
        Ok(offset)
    } else {
        Err(refuse(cursor, "it points past the end of the list"))
    }
}

fn slice<'i, T>(items: &'i [T], start: usize, size: usize, listing: Listing<'_>) -> Page<'i, T> {
    let end = start.saturating_add(size).min(items.len());
    Page {
        items: &items[start..end],
        next: (end < items.len()).then(|| listing.encode(&Position::Ours(end))),
    }
}

/// The one answer to a cursor we cannot continue from.
fn refuse(cursor: &str, why: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("unknown cursor: {why}; list again without a cursor"),
        Some(json!({ "cursor": cursor })),
    )
}

/// The cursor codec for the fuzz targets (`fuzz/`) and their replay test:
/// not part of the API, and free to change with the cursor format.
#[doc(hidden)]
pub mod fuzzing {
    use rmcp::ErrorData;

    pub use super::{Kind, Position};

    /// What the server answers to a cursor.
    #[derive(Debug, PartialEq, Eq)]
    pub enum Answer {
        /// The items in this range of our list, and the next page's cursor.
        Page(std::ops::Range<usize>, Option<String>),
        /// The page lies in the list that follows ours, at its own cursor.
        Tail(Option<String>),
    }

    /// What the server answers to a cursor of listing `kind` (within
    /// `scope`, for the view with `fingerprint`) over `len` items paged by
    /// `size`; `chained` when a wrapped handler's list follows ours. `None`
    /// for the cursor asks for the first page.
    pub fn page(
        kind: Kind,
        scope: &str,
        fingerprint: &str,
        (len, size, chained): (usize, usize, bool),
        cursor: Option<&str>,
    ) -> Result<Answer, ErrorData> {
        let items: Vec<usize> = (0..len).collect();
        let listing = super::Listing::new(kind, fingerprint).within(scope);
        let page = if chained {
            match super::page_then_tail(&items, size, cursor, listing)? {
                super::Chained::Ours(page) => page,
                super::Chained::Tail(tail) => return Ok(Answer::Tail(tail)),
            }
        } else {
            super::page(&items, size, cursor, listing)?
        };
        // Where the page starts, also when it is empty.
        let start = (page.items.as_ptr().addr() - items.as_ptr().addr()) / size_of::<usize>();
        Ok(Answer::Page(start..start + page.items.len(), page.next))
    }

    /// The position `cursor` names in that listing, or the server's refusal.
    pub fn decode(
        kind: Kind,
        scope: &str,
        fingerprint: &str,
        cursor: &str,
    ) -> Result<Position, ErrorData> {
        super::Listing::new(kind, fingerprint)
            .within(scope)
            .decode(cursor)
    }

    /// The cursor the server issues for `position` in that listing.
    pub fn encode(kind: Kind, scope: &str, fingerprint: &str, position: &Position) -> String {
        super::Listing::new(kind, fingerprint)
            .within(scope)
            .encode(position)
    }
}

/// Only the start of the fingerprint goes in the cursor: enough to tell sets apart.
fn fingerprint_tag(fingerprint: &str) -> &str {
    let hex = fingerprint.strip_prefix("sha256:").unwrap_or(fingerprint);
    hex.get(..16).unwrap_or(hex)
}

fn scope_tag(scope: &str) -> String {
    if scope.is_empty() {
        return "-".to_owned();
    }
    let digest = rmcp::model::sha256_digest(scope.as_bytes());
    digest["sha256:".len()..][..8].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRINT: &str = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    const OTHER: &str = "sha256:ffff456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    fn listing(kind: Kind) -> Listing<'static> {
        Listing::new(kind, PRINT)
    }

    fn refused<T: std::fmt::Debug>(result: Result<T, ErrorData>, cursor: &str) -> String {
        let error = result.unwrap_err();
        assert_eq!(
            error.code,
            rmcp::model::ErrorCode::INVALID_PARAMS,
            "{cursor}"
        );
        assert_eq!(error.data, Some(json!({ "cursor": cursor })));
        error.message.to_string()
    }

    #[test]
    fn round_trips_positions() {
        for position in [
            Position::Ours(0),
            Position::Ours(4096),
            Position::Tail(None),
            Position::Tail(Some("their.cursor".to_owned())),
        ] {
            let cursor = listing(Kind::Resources).encode(&position);
            assert_eq!(listing(Kind::Resources).decode(&cursor), Ok(position));
        }
    }

    #[test]
    fn refuses_foreign_and_stale_cursors() {
        let cursor = listing(Kind::Skills).encode(&Position::Ours(2));
        let message = |result: Result<Position, ErrorData>| refused(result, &cursor);
        assert!(message(listing(Kind::Resources).decode(&cursor)).contains("another listing"));
        assert!(message(Listing::new(Kind::Skills, OTHER).decode(&cursor)).contains("changed"));
        let dir = listing(Kind::Directory)
            .within("skill://a/x")
            .encode(&Position::Ours(1));
        let other_dir = listing(Kind::Directory).within("skill://a/y");
        assert!(refused(other_dir.decode(&dir), &dir).contains("another listing"));
        for junk in ["", "!!!", "bm90IGEgY3Vyc29y", "cy4wMTIzLi0ubzE"] {
            refused(listing(Kind::Skills).decode(junk), junk);
        }
        // Another spelling of an offset we issue (found by fuzz/ target `cursor`).
        for offset in ["03", "+3", "0", "00", " 3", "3 "] {
            let plain = format!("s.0123456789abcdef.-.o{offset}");
            let cursor = URL_SAFE_NO_PAD.encode(plain);
            let result = listing(Kind::Skills).decode(&cursor);
            if offset == "0" {
                assert_eq!(result, Ok(Position::Ours(0)));
            } else {
                refused(result, &cursor);
            }
        }
    }

    #[test]
    fn pages_cover_every_item_once_and_stop() {
        let items: Vec<u32> = (0..7).collect();
        let mut cursor: Option<String> = None;
        let mut seen = Vec::new();
        loop {
            let page = page(&items, 3, cursor.as_deref(), listing(Kind::Skills)).unwrap();
            seen.extend_from_slice(page.items);
            match page.next {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        assert_eq!(seen, items);
        let empty: [u32; 0] = [];
        let first = page(&empty, 3, None, listing(Kind::Skills)).unwrap();
        assert_eq!((first.items, first.next), (&empty[..], None));
    }

    #[test]
    fn a_cursor_at_or_past_the_end_is_refused() {
        let items = [1, 2, 3];
        for offset in [3, 4, usize::MAX] {
            let cursor = listing(Kind::Skills).encode(&Position::Ours(offset));
            let message = refused(
                page(&items, 2, Some(&cursor), listing(Kind::Skills)),
                &cursor,
            );
            assert!(message.contains("past the end"), "{message}");
        }
        // The last offset we could issue still reads.
        let last = listing(Kind::Skills).encode(&Position::Ours(2));
        let page = page(&items, 2, Some(&last), listing(Kind::Skills)).unwrap();
        assert_eq!((page.items, page.next), (&items[2..], None));
    }

    #[test]
    fn only_a_chained_listing_continues_into_its_tail() {
        let items = [1, 2, 3];
        let resources = listing(Kind::Resources);
        let Chained::Ours(first) = page_then_tail(&items, 3, None, resources).unwrap() else {
            panic!("the first page is ours");
        };
        assert_eq!(first.items, &items);
        let into_tail = first.next.expect("the tail follows");
        assert_eq!(
            page_then_tail(&items, 3, Some(&into_tail), resources).unwrap(),
            Chained::Tail(None)
        );
        let further = tail_cursor(resources, Some("p2".to_owned())).unwrap();
        assert_eq!(
            page_then_tail(&items, 3, Some(&further), resources).unwrap(),
            Chained::Tail(Some("p2".to_owned()))
        );
        assert_eq!(tail_cursor(resources, None), None);
        // A listing with no tail never issued these.
        for cursor in [into_tail, further] {
            let message = refused(page(&items, 3, Some(&cursor), resources), &cursor);
            assert!(message.contains("another listing"), "{message}");
        }
    }
}
