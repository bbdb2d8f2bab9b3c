//! Remember step: the last expansion that succeeded, kept in the crate's
//! `OUT_DIR` under a key of everything it was made from, so that a rebuild
//! in which no skill changed reuses it instead of loading the tree again.
//! That is the common rebuild: the crate's own code was edited (rustc runs
//! every proc macro again on each compilation), or a file was saved without
//! a change. It then costs a walk, a `stat` and a read-cache lookup per file.
//!
//! The key ([`Memo::key`]) covers:
//! - the macro itself: its library's path, size and modification time, so a
//!   rebuilt macro (another version, or a local change to skills-core)
//!   never reuses an expansion an older one made;
//! - the call: the resolved folder, the environment variables it names, the
//!   options (`untracked` included);
//! - the tree, by content: [`skills_core::listing`], every entry (kind,
//!   size, executable bit) and the digest of every file a load reads (a
//!   file the read cache does not vouch for is hashed, in blocks). A file
//!   no load reads (outside every skill, over the size limit) is keyed by
//!   its size alone and never read: its bytes change nothing the expansion
//!   holds, so a 1 GiB file beside the skills costs a `stat`.
//!
//! An expansion is filed under the listing of the very bytes its load read
//! ([`skills_core::load_listed`]), so a file edited during the build never
//! files one tree's expansion under another's key. Whatever goes wrong (no `OUT_DIR`, a platform where the
//! macro's library cannot be named, an unreadable or foreign memo) means no
//! memo: the macro loads the tree, as it always does without one.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use skills_core::Listing;

/// The first word of a memo file; its format and the key follow.
const MAGIC: &str = "skills-macros-expansion 1";

/// One root's memo in one crate's `OUT_DIR`.
pub(crate) struct Memo {
    file: PathBuf,
    /// Everything but the tree the expansion depends on.
    salt: String,
}

impl Memo {
    /// The memo of the tree at `root` for a call whose other inputs `call`
    /// renders; `None` where the macro's own library cannot be named.
    pub(crate) fn new(out_dir: &Path, root: &Path, call: &str) -> Option<Self> {
        let library = library_identity()?;
        let name = skills_core::digest::sha256(root.to_string_lossy().as_bytes());
        Some(Self {
            file: out_dir.join(format!("skills-macros-expansion-{}", &name[7..23])),
            salt: format!(
                "{MAGIC}\nskills-macros {}\n{library}\n{call}\n",
                env!("CARGO_PKG_VERSION")
            ),
        })
    }

    /// Whether an earlier run left an expansion (a first build has none, and
    /// then skips the listing: the load that follows reads every file anyway).
    pub(crate) fn exists(&self) -> bool {
        self.file.is_file()
    }

    /// The key of an expansion of the tree `listing` describes.
    pub(crate) fn key(&self, listing: &Listing) -> String {
        skills_core::digest::sha256(format!("{}{}", self.salt, listing.key()).as_bytes())
    }

    /// The expansion filed under `key`, if that is the one kept.
    pub(crate) fn lookup(&self, key: &str) -> Option<String> {
        let text = std::fs::read_to_string(&self.file).ok()?;
        let (header, source) = text.split_once('\n')?;
        (header.strip_prefix(MAGIC)?.strip_prefix(' ')? == key).then(|| source.to_owned())
    }

    /// Keeps `source` under `key` (atomically: a temporary file, then a
    /// rename); a memo that cannot be written is not written.
    pub(crate) fn store(&self, key: &str, source: &str) {
        let text = format!("{MAGIC} {key}\n{source}");
        let _ = skills_core::open::replace_file(&self.file, text.as_bytes());
    }
}

/// The macro's own library as `path size mtime`: on Linux, the file that
/// `/proc/self/maps` says holds this very function. `None` elsewhere, or if
/// the library was replaced while the compiler held it open.
fn library_identity() -> Option<String> {
    let here = library_identity as fn() -> Option<String> as usize;
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    let path = maps.lines().find_map(|line| {
        // `start-end perms offset dev inode path`
        let (range, rest) = line.split_once(' ')?;
        let (start, end) = range.split_once('-')?;
        let start = usize::from_str_radix(start, 16).ok()?;
        let end = usize::from_str_radix(end, 16).ok()?;
        if !(start..end).contains(&here) {
            return None;
        }
        let mut tail = rest;
        for _ in 0..4 {
            tail = tail.trim_start();
            tail = &tail[tail.find(' ').unwrap_or(tail.len())..];
        }
        Some(tail.trim().to_owned())
    })?;
    if !path.starts_with('/') {
        return None; // Anonymous or `(deleted)`-marked: nothing to name.
    }
    let meta = std::fs::metadata(&path).ok()?;
    let modified = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    Some(format!("{path} {} {}", meta.len(), modified.as_nanos()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn the_library_holding_this_code_is_named() {
        let identity = library_identity().expect("Linux names every mapping");
        let path = identity.rsplitn(3, ' ').nth(2).unwrap();
        // Under `cargo test`, this code is in the test binary itself.
        let exe = std::env::current_exe().unwrap();
        assert_eq!(Path::new(path), exe.canonicalize().unwrap(), "{identity}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_expansion_is_found_under_its_own_key_only() {
        let dir = std::env::temp_dir().join(format!("skills-macros-memo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let memo = Memo::new(&dir, Path::new("/skills"), "call").unwrap();
        assert!(!memo.exists());
        memo.store("sha256:aa", "const X: u8 = 1;\nmore\n");
        assert!(memo.exists());
        assert_eq!(
            memo.lookup("sha256:aa").as_deref(),
            Some("const X: u8 = 1;\nmore\n")
        );
        assert_eq!(memo.lookup("sha256:ab"), None);
        // Another call, another root: another salt or another file.
        let other = Memo::new(&dir, Path::new("/skills"), "another call").unwrap();
        assert_ne!(other.salt, memo.salt);
        let elsewhere = Memo::new(&dir, Path::new("/elsewhere"), "call").unwrap();
        assert_eq!(elsewhere.lookup("sha256:aa"), None);
        std::fs::write(&memo.file, "something else\n").unwrap();
        assert_eq!(memo.lookup("sha256:aa"), None, "a foreign file is no memo");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
