//! Read step's memory across builds: what reading a file cost per byte
//! (its SHA-256 and the secret scan), kept in a folder the caller owns
//! (`embed_skills!` passes the crate's `OUT_DIR`), so that a build after a
//! one-file edit hashes and scans that one file.
//!
//! An entry is keyed by the file's path, size, modification time and, on
//! Unix, its inode and change time. Every file is still read: the tables
//! embed its bytes. The cache only spares the work done on them, and only
//! when it cannot be wrong:
//!
//! - An entry whose file was modified less than [`RACY_WINDOW`] before the
//!   entry was written is never trusted (the racy-git rule): a same-size
//!   edit within the file system's timestamp resolution would otherwise keep
//!   the same key.
//! - The file's metadata is taken from the open handle before and after
//!   reading; if they differ the file changed while it was read, and its
//!   bytes are hashed.
//! - A missing, unreadable, corrupt or foreign cache (another format or
//!   version of this crate) is an empty cache; a cache that cannot be
//!   written is not written. Neither fails a load.
//!
//! The output of a load is the same with or without the cache.

use std::fmt::Write as _;
use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rustc_hash::FxHashMap as HashMap;

use crate::digest::Digest;
use crate::open::{self, FileId, Refusal};
use crate::secrets::{self, Finding};

/// How long after a file's modification an entry about it becomes
/// trustworthy: above the coarsest common timestamp resolution (FAT's 2 s).
pub(crate) const RACY_WINDOW: Duration = Duration::from_secs(3);

/// The first word of the header; the format and this crate's version follow.
const MAGIC: &str = "skills-core-read-cache";
const FORMAT: &str = "1";

/// What identifies one version of a file's bytes without reading them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp {
    size: u64,
    /// Modification time, nanoseconds since the epoch.
    mtime: u128,
    /// Change time (ns) and inode on Unix; 0 elsewhere.
    ctime: i128,
    inode: u64,
}

impl Stamp {
    pub(crate) fn of(meta: &Metadata) -> Option<Self> {
        let mtime = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
        #[cfg(unix)]
        let (ctime, inode) = {
            use std::os::unix::fs::MetadataExt as _;
            (
                i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
                meta.ino(),
            )
        };
        #[cfg(not(unix))]
        let (ctime, inode) = (0, 0);
        Some(Self {
            size: meta.len(),
            mtime: mtime.as_nanos(),
            ctime,
            inode,
        })
    }
}

/// What the cache remembers of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub stamp: Stamp,
    pub digest: Digest,
    /// The secret scan's findings; `None` when the file was not scanned
    /// (binary, or allowed to hold secrets).
    pub findings: Option<Vec<Finding>>,
}

/// The entries read at the start of a load and those written at its end.
pub(crate) struct ReadCache {
    file: PathBuf,
    /// When the load that wrote the old entries started (ns since the epoch).
    written_at: u128,
    old: HashMap<String, Entry>,
    /// When this load started: the `written_at` of the new file.
    started: u128,
    new: Vec<(String, Entry)>,
}

fn now_ns() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos())
}

impl ReadCache {
    /// The cache for the tree at `root` in `dir`; empty if there is none or
    /// it cannot be used.
    pub(crate) fn open(dir: &Path, root: &Path) -> Self {
        // One file per root: a crate may embed several trees.
        let key = crate::digest::sha256(root.to_string_lossy().as_bytes());
        let file = dir.join(format!("{MAGIC}-{}", &key[7..23]));
        let started = now_ns();
        let (written_at, old) = std::fs::read_to_string(&file)
            .ok()
            .and_then(|text| parse(&text))
            .unwrap_or_default();
        Self {
            file,
            written_at,
            old,
            started,
            new: Vec::new(),
        }
    }

    /// The entry for `rel` if it is about these very bytes: the same stamp,
    /// and written safely after the file's last modification.
    pub(crate) fn get(&self, rel: &str, stamp: &Stamp) -> Option<&Entry> {
        let entry = self.old.get(rel)?;
        (entry.stamp == *stamp && trusted(stamp.mtime, self.written_at)).then_some(entry)
    }

    /// Records what this load computed (or reused) for `rel`.
    pub(crate) fn put(&mut self, rel: &str, entry: Entry) {
        // Byte searches: a char-set pattern is slow in the unoptimised macro,
        // and this runs once per file.
        let bytes = rel.as_bytes();
        if !bytes.contains(&b'\n') && !bytes.contains(&b'\r') {
            self.new.push((rel.to_owned(), entry));
        }
    }

    /// Writes the new entries (atomically: a temporary file, then a rename);
    /// any error leaves the old file or none.
    pub(crate) fn save(self) {
        let text = render(self.started, &self.new);
        let _ = open::replace_file(&self.file, text.as_bytes());
    }
}

/// Whether an entry about a file modified at `mtime` and written by a load
/// that started at `written_at` can be trusted (both ns since the epoch).
pub(crate) fn trusted(mtime: u128, written_at: u128) -> bool {
    mtime.saturating_add(RACY_WINDOW.as_nanos()) < written_at
}

fn header() -> String {
    format!("{MAGIC} {FORMAT} {}", env!("CARGO_PKG_VERSION"))
}

fn render(started: u128, entries: &[(String, Entry)]) -> String {
    let mut out = format!("{} {started}\n", header());
    for (rel, entry) in entries {
        let Stamp {
            size,
            mtime,
            ctime,
            inode,
        } = entry.stamp;
        let hex = &entry.digest.to_string()[7..];
        let _ = write!(out, "{size} {mtime} {ctime} {inode} {hex} ");
        match &entry.findings {
            None => out.push('-'),
            Some(findings) if findings.is_empty() => out.push('.'),
            Some(findings) => {
                for (index, finding) in findings.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    let kind = secrets::kind_index(finding.kind);
                    let _ = write!(out, "{kind}:{}:{}", finding.offset, finding.length);
                }
            }
        }
        let _ = writeln!(out, " {rel}");
    }
    out
}

/// The entries of a cache file and when they were written; `None` if the
/// text is not a cache of this format and version, or is damaged anywhere.
fn parse(text: &str) -> Option<(u128, HashMap<String, Entry>)> {
    let (first, rest) = text.split_once('\n')?;
    let written_at = first
        .strip_prefix(&header())?
        .strip_prefix(' ')?
        .parse()
        .ok()?;
    let mut entries = HashMap::default();
    for line in rest.lines() {
        let mut fields = line.splitn(7, ' ');
        let stamp = Stamp {
            size: fields.next()?.parse().ok()?,
            mtime: fields.next()?.parse().ok()?,
            ctime: fields.next()?.parse().ok()?,
            inode: fields.next()?.parse().ok()?,
        };
        let digest = format!("sha256:{}", fields.next()?).parse().ok()?;
        let findings = match fields.next()? {
            "-" => None,
            "." => Some(Vec::new()),
            list => Some(
                list.split(',')
                    .map(|item| {
                        let mut parts = item.split(':');
                        let finding = Finding {
                            kind: secrets::kind_at(parts.next()?.parse().ok()?)?,
                            offset: parts.next()?.parse().ok()?,
                            length: parts.next()?.parse().ok()?,
                        };
                        parts.next().is_none().then_some(finding)
                    })
                    .collect::<Option<Vec<_>>>()?,
            ),
        };
        let rel = fields.next()?;
        entries.insert(
            rel.to_owned(),
            Entry {
                stamp,
                digest,
                findings,
            },
        );
    }
    Some((written_at, entries))
}

/// The bytes of the file the walk saw (`seen`), at most [`MAX_FILE_BYTES`]
/// of them ([`crate::open`]), and, when the file did not change while it
/// was read, its stamp for the read cache (metadata of the open handle,
/// before and after).
///
/// [`MAX_FILE_BYTES`]: crate::MAX_FILE_BYTES
pub(crate) fn read_stamped(
    path: &Path,
    seen: Option<FileId>,
) -> Result<(Vec<u8>, Option<Stamp>), Refusal> {
    let mut opened = open::open(path, seen)?;
    let before = Stamp::of(opened.metadata());
    let bytes = opened.read(crate::MAX_FILE_BYTES)?;
    let after = opened.metadata_now().ok().as_ref().and_then(Stamp::of);
    let unchanged = before.is_some() && before == after;
    Ok((bytes, if unchanged { before } else { None }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(findings: Option<Vec<Finding>>) -> Entry {
        Entry {
            stamp: Stamp {
                size: 12,
                mtime: 1_700_000_000_123_456_789,
                ctime: 1_700_000_000_223_456_789,
                inode: 42,
            },
            digest: crate::digest::of(b"hello world\n"),
            findings,
        }
    }

    #[test]
    fn entries_round_trip() {
        let finding = Finding {
            kind: "private key",
            offset: 7,
            length: 31,
        };
        let entries = vec![
            ("a/SKILL.md".to_owned(), entry(Some(Vec::new()))),
            ("a/logo.png".to_owned(), entry(None)),
            ("a/with space.md".to_owned(), entry(Some(vec![finding]))),
        ];
        let (written_at, parsed) = parse(&render(99, &entries)).expect("parses");
        assert_eq!(written_at, 99);
        assert_eq!(parsed.len(), 3);
        for (rel, entry) in entries {
            assert_eq!(parsed[&rel], entry, "{rel}");
        }
    }

    #[test]
    fn damaged_or_foreign_files_are_empty_caches() {
        let good = render(99, &[("a/SKILL.md".to_owned(), entry(None))]);
        assert!(parse(&good).is_some());
        let foreign_version = good.replacen(env!("CARGO_PKG_VERSION"), "0.0.0-other", 1);
        let cut = &good[..good.len() - 12];
        let bad_digest = good.replacen(" -", "x -", 1);
        for text in [
            "",
            "garbage",
            &foreign_version,
            &good.replacen(&format!(" {FORMAT} "), " 0 ", 1),
            cut,
            &bad_digest,
            &good.replacen(" -", " 99:1:2", 1),
        ] {
            assert!(parse(text).is_none(), "{text:?}");
        }
    }

    #[test]
    fn entries_about_recent_modifications_are_not_trusted() {
        let written_at = 1_700_000_010_000_000_000;
        let window = RACY_WINDOW.as_nanos();
        assert!(trusted(written_at - window - 1, written_at));
        assert!(!trusted(written_at - window, written_at));
        assert!(!trusted(written_at - 1, written_at));
        assert!(
            !trusted(written_at + 5, written_at),
            "a clock going backwards"
        );
    }

    /// Loads through `crate::load`, with the cache in `cache`.
    mod through_load {
        use std::fs::{File, FileTimes};
        use std::time::{Duration, SystemTime};

        use crate::Options;

        const SKILL: &str = "---\nname: notes\ndescription: Notes. Use when asked.\n---\nSee [the guide](guide.md).\n";

        struct Tree {
            root: std::path::PathBuf,
            cache: std::path::PathBuf,
        }

        impl Tree {
            fn new(name: &str) -> Self {
                let base = std::env::temp_dir().join(format!(
                    "skills-core-read-cache-{name}-{}",
                    std::process::id()
                ));
                let _ = std::fs::remove_dir_all(&base);
                let root = base.join("skills");
                std::fs::create_dir_all(root.join("notes")).unwrap();
                std::fs::write(root.join("notes/SKILL.md"), SKILL).unwrap();
                std::fs::write(root.join("notes/guide.md"), "first version\n").unwrap();
                let cache = base.join("out");
                std::fs::create_dir_all(&cache).unwrap();
                Self { root, cache }
            }

            fn options(&self) -> Options {
                Options {
                    cache_dir: Some(self.cache.clone()),
                    ..Options::default()
                }
            }

            fn guide(&self) -> std::path::PathBuf {
                self.root.join("notes/guide.md")
            }

            fn set_mtime(&self, when: SystemTime) {
                let file = File::options().write(true).open(self.guide()).unwrap();
                file.set_times(FileTimes::new().set_modified(when)).unwrap();
            }

            fn mtime(&self) -> SystemTime {
                std::fs::metadata(self.guide()).unwrap().modified().unwrap()
            }

            /// The guide's digest as loaded with `options`.
            fn digest(&self, options: &Options) -> String {
                let loaded = crate::load(&self.root, options).expect("the tree loads");
                let skill = &loaded.skills().skills()[0];
                skill.file("guide.md").unwrap().digest().to_string()
            }

            fn cache_file(&self) -> std::path::PathBuf {
                let mut files: Vec<_> = std::fs::read_dir(&self.cache)
                    .unwrap()
                    .map(|entry| entry.unwrap().path())
                    .collect();
                assert_eq!(files.len(), 1, "one cache file: {files:?}");
                files.pop().unwrap()
            }
        }

        fn digest_of(text: &str) -> String {
            crate::digest::sha256(text.as_bytes())
        }

        #[test]
        fn trusted_entries_are_used() {
            let tree = Tree::new("hit");
            tree.set_mtime(SystemTime::now() - Duration::from_secs(3600));
            assert_eq!(tree.digest(&tree.options()), digest_of("first version\n"));
            // Plant another digest in the entry: a load that reads the cache
            // reports it, which proves the hashing was spared.
            let file = tree.cache_file();
            let text = std::fs::read_to_string(&file).unwrap();
            let real = &digest_of("first version\n")[7..];
            let planted = &digest_of("planted")[7..];
            assert!(text.contains(real));
            std::fs::write(&file, text.replace(real, planted)).unwrap();
            assert_eq!(tree.digest(&tree.options()), digest_of("planted"));
            // Without the cache the truth again.
            assert_eq!(
                tree.digest(&Options::default()),
                digest_of("first version\n")
            );
        }

        #[test]
        fn a_same_size_edit_within_the_same_tick_is_seen() {
            let tree = Tree::new("racy");
            assert_eq!(tree.digest(&tree.options()), digest_of("first version\n"));
            // The same size, and the very same modification time, as if the
            // edit fell within the file system's timestamp resolution.
            let mtime = tree.mtime();
            std::fs::write(tree.guide(), "other version\n").unwrap();
            tree.set_mtime(mtime);
            assert_eq!(tree.mtime(), mtime);
            assert_eq!(tree.digest(&tree.options()), digest_of("other version\n"));
            // And once more, now that the entry was written after the edit.
            assert_eq!(tree.digest(&tree.options()), digest_of("other version\n"));
        }

        #[test]
        fn a_same_size_edit_behind_an_old_modification_time_is_seen() {
            // A tool that restores an old mtime after a same-size edit: the
            // entry is old enough to trust, but the inode's change time moved.
            let tree = Tree::new("old-mtime");
            let old = SystemTime::now() - Duration::from_secs(3600);
            tree.set_mtime(old);
            assert_eq!(tree.digest(&tree.options()), digest_of("first version\n"));
            std::thread::sleep(Duration::from_millis(20));
            std::fs::write(tree.guide(), "other version\n").unwrap();
            tree.set_mtime(old);
            if cfg!(unix) {
                assert_eq!(tree.digest(&tree.options()), digest_of("other version\n"));
            }
        }

        #[test]
        fn damaged_and_unwritable_caches_fall_back_to_hashing() {
            let tree = Tree::new("damaged");
            tree.set_mtime(SystemTime::now() - Duration::from_secs(3600));
            let truth = digest_of("first version\n");
            assert_eq!(tree.digest(&tree.options()), truth);
            let file = tree.cache_file();
            for damage in [
                "",
                "garbage\n",
                "skills-core-read-cache 1 0.0.0 5\n1 2 3 4 zz . notes/guide.md\n",
            ] {
                std::fs::write(&file, damage).unwrap();
                assert_eq!(tree.digest(&tree.options()), truth, "{damage:?}");
            }
            // A cache folder that does not exist: nothing written, nothing failed.
            let missing = Options {
                cache_dir: Some(tree.cache.join("missing")),
                ..Options::default()
            };
            assert_eq!(tree.digest(&missing), truth);
            assert!(!tree.cache.join("missing").exists());
        }

        #[test]
        fn secret_findings_are_remembered_and_reported_the_same() {
            let tree = Tree::new("secrets");
            let key = "ghp_R7kQ2mZx9LpW4vN8sT1yH6bJ3cF5dG0aE2uK";
            std::fs::write(tree.guide(), format!("token: {key}\n")).unwrap();
            tree.set_mtime(SystemTime::now() - Duration::from_secs(3600));
            let without = crate::load(&tree.root, &Options::default())
                .unwrap_err()
                .to_string();
            let first = crate::load(&tree.root, &tree.options())
                .unwrap_err()
                .to_string();
            let second = crate::load(&tree.root, &tree.options())
                .unwrap_err()
                .to_string();
            assert!(without.contains("secret"), "{without}");
            assert_eq!(first, without);
            assert_eq!(second, without);
        }
    }
}
