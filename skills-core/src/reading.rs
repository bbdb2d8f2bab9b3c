//! Which files of a walk a load reads, decided once: the load reads them and
//! the listing (the macro's cache key) hashes exactly them, so the two cannot
//! disagree about a file whose bytes matter.

use std::path::Path;

use rustc_hash::FxHashSet as HashSet;

use crate::diagnostic::Diagnostics;
use crate::layout::{self, Found};
use crate::walk::{Entry, Kind};
use crate::{MAX_FILE_BYTES, SKILL_MD, relpath};

/// Which files of a walk a load reads: every file inside a skill, less
/// those it cannot use (a file over [`MAX_FILE_BYTES`], every file but
/// `SKILL.md` of a skill over its limits). What [`listing`](crate::listing)
/// keys a tree by, too: the bytes of every other file change nothing a load
/// gives, so they are never read to key a cache.
pub(crate) struct Reading<'e> {
    /// Every regular file inside a skill.
    pub files: Vec<&'e Entry>,
    /// The folders of the skills over a per-skill limit.
    pub oversized: HashSet<String>,
    /// The files read, in walk order.
    pub read: Vec<&'e Entry>,
}

impl<'e> Reading<'e> {
    /// The reading of `entries` (a walk) whose skills are `found`; the size
    /// limits' problems go to `diagnostics`.
    pub(crate) fn of(entries: &'e [Entry], found: &[Found], diagnostics: &mut Diagnostics) -> Self {
        let folders: HashSet<&str> = found.iter().map(|skill| skill.folder.as_str()).collect();
        let files: Vec<&Entry> = entries
            .iter()
            .filter(|entry| {
                matches!(entry.kind, Kind::File { .. })
                    && relpath::ancestors(&entry.rel).any(|dir| folders.contains(dir))
            })
            .collect();
        let oversized = layout::check_sizes(&files, found, diagnostics);
        // `SKILL.md`, or the main file the `main_file` option names.
        let main_file = found.first().map_or(SKILL_MD, |skill| skill.main_file);
        // Layout problems do not stop the run: every skill is still read and
        // parsed, so one run reports every problem. Only what cannot be read
        // usefully is skipped: files over the limit, and all but `SKILL.md`
        // in a skill over its limits (unless a skill within limits holds them).
        let read = files
            .iter()
            .copied()
            .filter(|entry| {
                let Kind::File { len, .. } = entry.kind else {
                    return false;
                };
                len <= MAX_FILE_BYTES
                    && (entry.name() == main_file
                        || relpath::ancestors(&entry.rel)
                            .any(|dir| folders.contains(dir) && !oversized.contains(dir)))
            })
            .collect();
        Self {
            files,
            oversized,
            read,
        }
    }
}

/// The root's own folder name (the skill path when the root is a skill).
pub(crate) fn root_name(root: &Path) -> String {
    let canonical = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    canonical
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}
