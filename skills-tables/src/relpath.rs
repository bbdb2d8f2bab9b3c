//! Relative, `/`-separated paths: the one place that answers "is this path
//! inside that folder", "which entries lie below a folder", "which folders
//! hold this path", "where is this on disk" and "what does this
//! percent-encoded text say".
//!
//! Paths here are relative to a skills root (or to a skill folder) and use
//! `/` whatever the operating system; `""` is the root itself. The loader, the
//! model's lookups, the link checker and the URI parser all call these, so
//! the answers agree everywhere.
//!
//! ```
//! use skills_tables::relpath;
//!
//! assert!(relpath::is_within("pdf/references/api.md", "pdf"));
//! assert!(!relpath::is_within("pdf-forms/SKILL.md", "pdf"));
//! let folders: Vec<&str> = relpath::ancestors("a/b/c.md").collect();
//! assert_eq!(folders, ["a/b/c.md", "a/b", "a", ""]);
//! assert_eq!(relpath::percent_decode("my%20notes.md").unwrap(), "my notes.md");
//! ```

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

/// Whether `path` is `folder` or lies below it. `folder` may be `""`, the
/// root, which holds everything. Compares whole segments: `ab/c` is not
/// within `a`.
pub fn is_within(path: &str, folder: &str) -> bool {
    folder.is_empty()
        || path == folder
        || (path.len() > folder.len()
            && path.starts_with(folder)
            && path.as_bytes()[folder.len()] == b'/')
}

/// Whether `path` lies strictly below `folder` (not `folder` itself).
pub fn is_below(path: &str, folder: &str) -> bool {
    path != folder && is_within(path, folder)
}

/// `path` relative to `folder`, when it lies below it (`""` when it is `folder`).
///
/// ```
/// use skills_tables::relpath::strip_folder;
///
/// assert_eq!(strip_folder("pdf/references/api.md", "pdf"), Some("references/api.md"));
/// assert_eq!(strip_folder("pdf/SKILL.md", ""), Some("pdf/SKILL.md"));
/// assert_eq!(strip_folder("pdf-forms/SKILL.md", "pdf"), None);
/// ```
pub fn strip_folder<'p>(path: &'p str, folder: &str) -> Option<&'p str> {
    if folder.is_empty() {
        return Some(path);
    }
    is_within(path, folder).then(|| path[folder.len()..].trim_start_matches('/'))
}

/// The folder part of `path` (`""` for a name at the root).
pub fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(parent, _)| parent)
}

/// The last segment of `path`.
pub fn name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// `path`, then each folder above it, up to and including the root (`""`).
pub fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    std::iter::successors(Some(path), |folder| {
        (!folder.is_empty()).then(|| parent(folder))
    })
}

/// `child` inside `folder` (either may be `""`).
pub fn join(folder: &str, child: &str) -> String {
    match (folder.is_empty(), child.is_empty()) {
        (true, _) => child.to_owned(),
        (false, true) => folder.to_owned(),
        (false, false) => format!("{folder}/{child}"),
    }
}

/// The file on disk that `path` (relative, `/`-separated) names under
/// `root`, one segment at a time so that the platform's separator is used.
/// `path` is trusted: check foreign paths with skills-core's
/// `names::check_path` first.
pub fn on_disk(root: &Path, path: &str) -> PathBuf {
    let mut out = root.to_path_buf();
    for segment in path.split('/').filter(|segment| !segment.is_empty()) {
        out.push(segment);
    }
    out
}

/// The items of `sorted` (ordered by `path`) that lie strictly below
/// `folder` (`""`: all of them). They are one contiguous run, since paths
/// below `folder/` sort between `folder/` and `folder0` (`'0'` follows `'/'`).
pub fn sorted_below<'s, T>(sorted: &'s [T], path: impl Fn(&T) -> &str, folder: &str) -> &'s [T] {
    if folder.is_empty() {
        return sorted;
    }
    let (start, end) = below_bounds(folder);
    let first = sorted.partition_point(|item| path(item) < start.as_str());
    let last = sorted.partition_point(|item| path(item) < end.as_str());
    &sorted[first..last.max(first)]
}

/// The half-open key range `[start, end)` of every path below `folder` in
/// sorted order, for ordered maps (`BTreeMap::range`).
pub fn below_bounds(folder: &str) -> (String, String) {
    (format!("{folder}/"), format!("{folder}0"))
}

/// Why a percent-encoded text does not decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// A `%` not followed by two hex digits.
    BadEscape,
    /// The decoded bytes are not UTF-8.
    NotUtf8,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::BadEscape => "a % is not followed by two hex digits",
            Self::NotUtf8 => "the percent-escapes do not decode to UTF-8",
        })
    }
}

impl std::error::Error for DecodeError {}

/// Decodes `%XX` escapes (either case of hex). Borrows when there is none.
pub fn percent_decode(text: &str) -> Result<Cow<'_, str>, DecodeError> {
    if !text.contains('%') {
        return Ok(Cow::Borrowed(text));
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = bytes
                .get(index + 1..index + 3)
                .ok_or(DecodeError::BadEscape)?;
            let high = hex_value(hex[0]).ok_or(DecodeError::BadEscape)?;
            let low = hex_value(hex[1]).ok_or(DecodeError::BadEscape)?;
            out.push((high << 4) | low);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out)
        .map(Cow::Owned)
        .map_err(|_| DecodeError::NotUtf8)
}

fn hex_value(byte: u8) -> Option<u8> {
    char::from(byte).to_digit(16).map(|digit| digit as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_compare_whole_segments() {
        assert!(is_within("a/b", "a"));
        assert!(is_within("a", "a"));
        assert!(is_within("anything", ""));
        assert!(!is_within("ab/c", "a"));
        assert!(!is_within("a", "a/b"));
        assert!(is_below("a/b", "a"));
        assert!(!is_below("a", "a"));
        assert_eq!(parent("a/b/c"), "a/b");
        assert_eq!(parent("a"), "");
        assert_eq!(name("a/b/c.md"), "c.md");
        assert_eq!(join("", "x"), "x");
        assert_eq!(join("a", ""), "a");
        assert_eq!(join("a", "x"), "a/x");
        assert_eq!(ancestors("").collect::<Vec<_>>(), [""]);
    }

    #[test]
    fn sorted_runs_below_a_folder() {
        let sorted = ["a", "a-b/c", "a/x", "a/y/z", "a0", "b"];
        assert_eq!(sorted_below(&sorted, |p| p, "a"), ["a/x", "a/y/z"]);
        assert_eq!(sorted_below(&sorted, |p| p, "a/y"), ["a/y/z"]);
        assert_eq!(sorted_below(&sorted, |p| p, ""), sorted);
        assert!(sorted_below(&sorted, |p| p, "c").is_empty());
    }

    #[test]
    fn joins_onto_a_root_segment_by_segment() {
        let path = on_disk(Path::new("/srv/skills"), "pdf/references/a.md");
        assert_eq!(
            path,
            Path::new("/srv/skills")
                .join("pdf")
                .join("references")
                .join("a.md")
        );
        assert_eq!(on_disk(Path::new("/srv"), ""), Path::new("/srv"));
    }

    #[test]
    fn decodes_percent_escapes() {
        assert!(matches!(
            percent_decode("plain"),
            Ok(Cow::Borrowed("plain"))
        ));
        assert_eq!(percent_decode("%C3%a9").unwrap(), "é");
        assert_eq!(percent_decode("%4"), Err(DecodeError::BadEscape));
        assert_eq!(percent_decode("%zz"), Err(DecodeError::BadEscape));
        assert_eq!(percent_decode("%ff"), Err(DecodeError::NotUtf8));
    }
}
