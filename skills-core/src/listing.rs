//! Fingerprint step: what a load's result depends on, found without parsing
//! anything. Every entry of the tree (its kind, size and executable bit) and
//! the digest of every file a load reads: from the read cache when it
//! vouches for the file's stamp, else read in blocks and hashed now (and
//! remembered for the load that may follow). Two trees with the same
//! [`Listing::key`] load to the same result under the same options, so a
//! front end that remembers what it made of a load (`embed_skills!` keeps
//! its expansion in `OUT_DIR`) can reuse it after a rebuild in which no
//! skill changed: the common case, when only the crate's code was edited.
//! [`crate::load_listed`] gives the listing of the very bytes it loaded,
//! with no second pass over the tree.
//!
//! A file a load does not read (outside every skill, over the size limit,
//! in a skill over its limits) is listed by kind and size only: its bytes
//! change nothing a load gives, so nothing reads them to key a cache (a
//! 1 GiB file beside the skills costs a `stat`, not a read). The key still
//! covers more than a load depends on (such a file's size, folders that
//! hold no skill): a change there only costs a load, never a stale result.

use std::fmt::Write as _;
use std::path::Path;

use rustc_hash::FxHashSet as HashSet;

use crate::diagnostic::Diagnostics;
use crate::digest::{self, Digest};
use crate::options::Options;
use crate::read_cache::{self, ReadCache};
use crate::walk::{self, Entry, Kind};
use crate::{MAX_FILE_BYTES, layout, open, reading, relpath};

/// What a load of one tree depends on, by content: every entry of the tree
/// (its kind, size and executable bit) and the digest of every file a load
/// reads, under this crate's version and the load's options. Two trees with
/// the same [`key`](Self::key) load to the same result; a change of size
/// outside every skill changes the key too (it costs a load, never a stale
/// result).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    key: String,
}

impl Listing {
    /// `sha256:` over this crate's version, the options, and every entry of
    /// the tree with the digest of each file a load reads.
    pub fn key(&self) -> &str {
        &self.key
    }
}

/// The listing of `entries` (a walk of the tree, in its order), each file's
/// digest given by `digest_of`: `Some(Some(digest))` for a file a load
/// reads, `Some(None)` for one it does not (its bytes change nothing a load
/// gives: only its kind and size are listed), `None` when a file a load
/// reads cannot be read (then there is no listing). [`listing`] takes
/// digests from the read cache or hashes the file; a load asked for one
/// ([`crate::load_listed`]) has them already. Both write the same text for
/// the same tree.
pub(crate) fn of_entries(
    options: &Options,
    entries: &[Entry],
    mut digest_of: impl FnMut(&Entry) -> Option<Option<Digest>>,
) -> Option<Listing> {
    let mut text = String::with_capacity(entries.len() * 100 + 512);
    let _ = writeln!(text, "skills-core {}", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(text, "{options:?}");
    for entry in entries {
        let Kind::File {
            len, executable, ..
        } = entry.kind
        else {
            // A folder, a link, something unreadable.
            let _ = writeln!(text, "{:?} {}", entry.kind, entry.rel);
            continue;
        };
        text.push_str(if executable { "x " } else { "f " });
        text.push_str(&len.to_string());
        text.push(' ');
        match digest_of(entry)? {
            Some(digest) => text.push_str(&digest.to_string()),
            None => text.push('-'),
        }
        text.push(' ');
        text.push_str(&entry.rel);
        text.push('\n');
    }
    Some(Listing {
        key: digest::sha256(text.as_bytes()),
    })
}

/// The [`Listing`] of the tree at `root`, or `None` when the tree cannot be
/// walked or a file a load reads cannot be (a load will say why).
///
/// Only the files a load reads are hashed (what [`crate::load`] reads: the
/// files of the skills, within the size limits), each from the read cache
/// when it vouches for the file's stamp, else read in blocks through
/// [`crate::open`]: a file outside every skill or over the size limit is
/// never read, whatever its size.
pub fn listing(root: &Path, options: &Options) -> Option<Listing> {
    let entries = walk::walk(root, options.follow_top_level_links).ok()?;
    // Which files a load would read: the same steps, their problems dropped
    // (the load reports them).
    let mut ignored = Diagnostics::new();
    let main_file = options.main_file_static();
    let found = layout::find_skills(&entries, &reading::root_name(root), main_file, &mut ignored);
    let read: HashSet<&str> = found
        .map(|found| {
            reading::Reading::of(&entries, &found, &mut ignored)
                .read
                .into_iter()
                .map(|entry| entry.rel.as_str())
                .collect()
        })
        .unwrap_or_default();
    let mut cache = options
        .cache_dir
        .as_deref()
        .map(|dir| ReadCache::open(dir, root));
    let listing = of_entries(options, &entries, |entry| {
        if !read.contains(entry.rel.as_str()) {
            return Some(None);
        }
        let Kind::File { id, .. } = entry.kind else {
            return Some(None);
        };
        let path = relpath::on_disk(root, &entry.rel);
        let mut opened = open::open(&path, id).ok()?;
        let stamp = read_cache::Stamp::of(opened.metadata());
        let known = match (&cache, &stamp) {
            (Some(cache), Some(stamp)) => cache.get(&entry.rel, stamp).cloned(),
            _ => None,
        };
        if let Some(known) = known {
            let digest = known.digest;
            if let Some(cache) = &mut cache {
                cache.put(&entry.rel, known);
            }
            return Some(Some(digest));
        }
        let digest = opened.digest(MAX_FILE_BYTES).ok()?;
        let after = opened
            .metadata_now()
            .ok()
            .as_ref()
            .and_then(read_cache::Stamp::of);
        if let (Some(cache), Some(stamp)) = (&mut cache, stamp.filter(|_| stamp == after)) {
            // The secret scan is the load's to do: `None` asks for it.
            let findings = None;
            cache.put(
                &entry.rel,
                read_cache::Entry {
                    stamp,
                    digest,
                    findings,
                },
            );
        }
        Some(Some(digest))
    });
    if let Some(cache) = cache {
        cache.save();
    }
    listing
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::PathBuf;
    use std::time::{Duration, SystemTime};

    use super::*;

    struct Tree(PathBuf);

    impl Tree {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir()
                .join(format!("skills-core-listing-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            let tree = Self(dir);
            tree.write("pdf/SKILL.md", "---\nname: pdf\ndescription: Fills PDF forms. Use when a form arrives.\n---\n\nSee [notes](references/notes.md).\n");
            tree.write("pdf/references/notes.md", "first\n");
            tree
        }

        fn write(&self, rel: &str, text: &str) {
            let path = self.0.join("skills").join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }

        fn root(&self) -> PathBuf {
            self.0.join("skills")
        }

        /// Every file stamped an hour ago: what the read cache trusts.
        fn settle(&self, rel: &str) {
            let file = fs::File::options()
                .append(true)
                .open(self.root().join(rel))
                .unwrap();
            file.set_modified(SystemTime::now() - Duration::from_secs(3600))
                .unwrap();
        }

        fn options(&self) -> Options {
            fs::create_dir_all(self.0.join("out")).unwrap();
            Options {
                cache_dir: Some(self.0.join("out")),
                ..Options::default()
            }
        }
    }

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn key(tree: &Tree) -> String {
        listing(&tree.root(), &tree.options())
            .unwrap()
            .key()
            .to_owned()
    }

    #[test]
    fn a_touch_keeps_the_key_and_an_edit_changes_it() {
        let tree = Tree::new("touch");
        let first = key(&tree);
        assert_eq!(key(&tree), first, "nothing changed");
        tree.settle("pdf/references/notes.md");
        assert_eq!(key(&tree), first, "only the modification time changed");
        tree.write("pdf/references/notes.md", "other\n");
        tree.settle("pdf/references/notes.md");
        let edited = key(&tree);
        assert_ne!(
            edited, first,
            "a same-size edit behind an old mtime is an edit"
        );
        tree.write("pdf/references/notes.md", "first\n");
        assert_eq!(key(&tree), first, "the same bytes again");
    }

    #[test]
    fn entries_and_options_are_part_of_the_key() {
        let tree = Tree::new("entries");
        let first = key(&tree);
        tree.write("pdf/assets/new.txt", "");
        let added = key(&tree);
        assert_ne!(added, first, "a new empty file");
        fs::create_dir_all(tree.root().join("pdf/empty")).unwrap();
        assert_ne!(key(&tree), added, "a new folder");
        let mut options = tree.options();
        options.check_links = false;
        let other = listing(&tree.root(), &options).unwrap();
        assert_ne!(other.key(), key(&tree), "another option");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let before = key(&tree);
            let path = tree.root().join("pdf/assets/new.txt");
            fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
            assert_ne!(key(&tree), before, "an executable bit");
        }
    }

    #[test]
    fn files_a_load_does_not_read_are_keyed_by_size_not_read() {
        let tree = Tree::new("unread");
        tree.write("loose.bin", "outside every skill");
        let big = tree.root().join("pdf/assets/big.bin");
        fs::create_dir_all(big.parent().unwrap()).unwrap();
        let file = fs::File::create(&big).unwrap();
        file.set_len(crate::MAX_FILE_BYTES + 1).unwrap();
        drop(file);
        let first = key(&tree);
        // The same sizes, other bytes: nothing a load reads changed.
        tree.write("loose.bin", "OUTSIDE EVERY SKILL");
        let mut file = fs::OpenOptions::new().write(true).open(&big).unwrap();
        std::io::Write::write_all(&mut file, b"other bytes").unwrap();
        drop(file);
        assert_eq!(key(&tree), first, "bytes no load reads are not in the key");
        tree.write("loose.bin", "outside every skill, longer");
        assert_ne!(key(&tree), first, "their sizes are");
        // A load lists it the same way, with no second read.
        fs::remove_file(&big).unwrap();
        let (_, by_load) = crate::load_listed(&tree.root(), &tree.options()).unwrap();
        assert_eq!(by_load, listing(&tree.root(), &tree.options()));
    }

    #[test]
    fn a_load_lists_the_tree_as_the_listing_does() {
        let tree = Tree::new("loaded");
        tree.write("loose.txt", "outside every skill\n");
        let options = tree.options();
        let (_, by_load) = crate::load_listed(&tree.root(), &options).unwrap();
        let listed = listing(&tree.root(), &options).unwrap();
        assert_eq!(by_load, Some(listed.clone()));
        tree.write("pdf/references/notes.md", "changed\n");
        let (_, after) = crate::load_listed(&tree.root(), &options).unwrap();
        assert_ne!(after, Some(listed));
    }
}
