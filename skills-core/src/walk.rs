//! Walk step: every entry under the skills root, sorted, without following
//! links and without hidden entries.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// What a walked entry is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    File {
        len: u64,
        executable: bool,
    },
    Dir,
    /// A symbolic link, with where it points (never followed).
    Symlink {
        target: String,
        to_dir: bool,
    },
    /// A FIFO, socket or device.
    Special,
    /// A name that is not UTF-8 (`rel` holds a lossy rendering); not descended into.
    NonUtf8,
    /// A folder that could not be listed, or an entry that could not be inspected.
    Unreadable(String),
}

/// One entry, by its `/`-separated path relative to the root.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub rel: String,
    pub kind: Kind,
}

impl Entry {
    /// The last segment of the path.
    pub fn name(&self) -> &str {
        self.rel.rsplit('/').next().unwrap_or(&self.rel)
    }

    /// The folder holding the entry (`""` at the root).
    pub fn parent(&self) -> &str {
        parent(&self.rel)
    }
}

/// The folder part of a relative path (`""` at the root).
pub(crate) fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(parent, _)| parent)
}

/// Whether `rel` is `dir` or lies below it (`dir` may be `""`, the root).
pub(crate) fn is_within(rel: &str, dir: &str) -> bool {
    dir.is_empty() || rel == dir || (rel.starts_with(dir) && rel[dir.len()..].starts_with('/'))
}

/// Every entry under `root` whose name does not start with `.`, sorted by path.
pub(crate) fn walk(root: &Path) -> io::Result<Vec<Entry>> {
    let mut entries = Vec::new();
    visit(root, "", &mut entries)?;
    entries.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(entries)
}

fn visit(dir: &Path, rel: &str, out: &mut Vec<Entry>) -> io::Result<()> {
    for item in fs::read_dir(dir)? {
        let item = item?;
        let os_name = item.file_name();
        let (name, utf8) = match os_name.to_str() {
            Some(name) => (name.to_owned(), true),
            None => (os_name.to_string_lossy().into_owned(), false),
        };
        // Hidden entries (.git, .DS_Store, editor files) are never embedded.
        if name.starts_with('.') {
            continue;
        }
        let child_rel = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let path = item.path();
        let kind = if utf8 { classify(&path) } else { Kind::NonUtf8 };
        let is_dir = kind == Kind::Dir;
        out.push(Entry {
            rel: child_rel.clone(),
            kind,
        });
        if is_dir && let Err(error) = visit(&path, &child_rel, out) {
            let entry = out
                .iter_mut()
                .find(|entry| entry.rel == child_rel)
                .expect("pushed above");
            entry.kind = Kind::Unreadable(error.to_string());
        }
    }
    Ok(())
}

fn classify(path: &PathBuf) -> Kind {
    let metadata = match fs::symlink_metadata(path) {
        Ok(metadata) => metadata,
        Err(error) => return Kind::Unreadable(error.to_string()),
    };
    let file_type = metadata.file_type();
    if file_type.is_symlink() {
        let target = fs::read_link(path)
            .map(|target| target.display().to_string())
            .unwrap_or_else(|_| "?".to_owned());
        let to_dir = fs::metadata(path).is_ok_and(|m| m.is_dir());
        Kind::Symlink { target, to_dir }
    } else if file_type.is_dir() {
        Kind::Dir
    } else if file_type.is_file() {
        Kind::File {
            len: metadata.len(),
            executable: is_executable(&metadata),
        }
    } else {
        Kind::Special
    }
}

#[cfg(unix)]
fn is_executable(metadata: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    metadata.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_metadata: &fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_within_folders() {
        assert!(is_within("a/b", "a"));
        assert!(is_within("a", "a"));
        assert!(is_within("anything", ""));
        assert!(!is_within("ab/c", "a"));
        assert_eq!(parent("a/b/c"), "a/b");
        assert_eq!(parent("a"), "");
    }
}
