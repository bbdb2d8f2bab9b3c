//! Walk step: every entry under the skills root, sorted, without following
//! links and without hidden entries.
//!
//! One exception, for agents' folders (`~/.claude/skills`), where a skill is
//! often a link into a dotfiles repository: with `follow_top_level_links`, a
//! link to a folder right below the root is walked as that folder. Links
//! inside it, and anywhere deeper, are still never followed.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::open::FileId;
use crate::relpath;

/// What a walked entry is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    File {
        len: u64,
        executable: bool,
        /// Which file it is: a read opens this file or refuses
        /// ([`crate::open`]). `None` where the platform gives no identity.
        id: Option<FileId>,
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
    pub(crate) fn name(&self) -> &str {
        relpath::name(&self.rel)
    }

    /// The folder holding the entry (`""` at the root).
    pub(crate) fn parent(&self) -> &str {
        relpath::parent(&self.rel)
    }
}

/// Every entry under `root` whose name does not start with `.`, sorted by
/// path; links to folders right below the root are walked when
/// `follow_top_level_links` is set.
pub(crate) fn walk(root: &Path, follow_top_level_links: bool) -> io::Result<Vec<Entry>> {
    let mut entries = Vec::new();
    visit(root, "", follow_top_level_links, None, &mut entries, None)?;
    entries.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(entries)
}

/// A hidden entry the walk passed over, with its identity when the
/// platform gives one: a hidden folder is listed later only if it is still
/// the folder this listing saw ([`crate::open::list`]).
pub(crate) type HiddenEntry = (Entry, Option<FileId>);

/// [`walk`], and the hidden entries it passes over in the folders it walks
/// (their names start with `.`; a hidden folder is not walked), sorted:
/// what skills-runtime never serves and some readers do
/// (`crate::readers`), found by the same listing of each folder.
pub(crate) fn walk_with_hidden(
    root: &Path,
    follow_top_level_links: bool,
) -> io::Result<(Vec<Entry>, Vec<HiddenEntry>)> {
    let (mut entries, mut hidden) = (Vec::new(), Vec::new());
    visit(
        root,
        "",
        follow_top_level_links,
        None,
        &mut entries,
        Some(&mut hidden),
    )?;
    entries.sort_by(|a, b| a.rel.cmp(&b.rel));
    hidden.sort_by(|a, b| a.0.rel.cmp(&b.0.rel));
    Ok((entries, hidden))
}

/// Lists `dir`, which is the folder `seen` when its parent's listing gave
/// one (the root and links followed at the top are taken as they are).
fn visit(
    dir: &Path,
    rel: &str,
    follow_links: bool,
    seen: Option<FileId>,
    out: &mut Vec<Entry>,
    mut hidden: Option<&mut Vec<HiddenEntry>>,
) -> io::Result<()> {
    #[cfg(test)]
    before_listing(rel);
    let mut listing = crate::open::list(dir, seen)?;
    let items: Vec<fs::DirEntry> = listing.by_ref().collect::<io::Result<_>>()?;
    for item in items {
        let os_name = item.file_name();
        let (name, utf8) = match os_name.to_str() {
            Some(name) => (name.to_owned(), true),
            None => (os_name.to_string_lossy().into_owned(), false),
        };
        // Hidden entries (.git, .DS_Store, editor files) are never embedded.
        if name.starts_with('.') {
            if let Some(hidden) = hidden.as_deref_mut() {
                let metadata = item.metadata();
                let id = metadata.as_ref().ok().and_then(FileId::of);
                let kind = if utf8 {
                    classify(&listing.path(&item), metadata)
                } else {
                    Kind::NonUtf8
                };
                let rel = relpath::join(rel, &name);
                hidden.push((Entry { rel, kind }, id));
            }
            continue;
        }
        let child_rel = relpath::join(rel, &name);
        let path = listing.path(&item);
        let metadata = item.metadata();
        // The folder its listing must be (a followed link's target is taken
        // as it is: it is followed on purpose).
        let mut id = metadata.as_ref().ok().and_then(FileId::of);
        let mut kind = if utf8 {
            classify(&path, metadata)
        } else {
            Kind::NonUtf8
        };
        if follow_links && matches!(kind, Kind::Symlink { to_dir: true, .. }) {
            kind = Kind::Dir;
            id = None;
        }
        let is_dir = kind == Kind::Dir;
        let index = out.len();
        out.push(Entry {
            rel: child_rel.clone(),
            kind,
        });
        if is_dir
            && let Err(error) = visit(&path, &child_rel, false, id, out, hidden.as_deref_mut())
        {
            out[index].kind = Kind::Unreadable(error.to_string());
        }
    }
    Ok(())
}

/// What the entry at `path` is, from its metadata as listed (`lstat` of the
/// name inside the folder handle that was listed: never a link followed).
fn classify(path: &PathBuf, metadata: io::Result<fs::Metadata>) -> Kind {
    let metadata = match metadata {
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
            id: FileId::of(&metadata),
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

/// What a test does to the tree between the listing of a folder and the
/// listing of a folder inside it.
#[cfg(test)]
pub(crate) type Hook = Box<dyn FnMut(&str)>;

#[cfg(test)]
thread_local! {
    pub(crate) static BEFORE_LISTING: std::cell::RefCell<Option<Hook>> =
        const { std::cell::RefCell::new(None) };
}

/// Called just before the folder `rel` is listed: the window in which a
/// hostile folder swaps a folder its parent's listing saw for a link.
#[cfg(test)]
fn before_listing(rel: &str) {
    BEFORE_LISTING.with(|hook| {
        if let Some(hook) = hook.borrow_mut().as_mut() {
            hook(rel);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn follows_links_at_the_top_only() {
        let base = std::env::temp_dir().join(format!("skills-core-walk-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        let (root, elsewhere) = (base.join("root"), base.join("dotfiles/pdf"));
        fs::create_dir_all(&root).unwrap();
        fs::create_dir_all(elsewhere.join("inner")).unwrap();
        fs::write(elsewhere.join("SKILL.md"), "x").unwrap();
        std::os::unix::fs::symlink(&elsewhere, root.join("pdf")).unwrap();
        std::os::unix::fs::symlink(elsewhere.join("inner"), elsewhere.join("deeper")).unwrap();
        let kinds = |follow| -> Vec<(String, bool)> {
            walk(&root, follow)
                .unwrap()
                .into_iter()
                .map(|entry| (entry.rel, matches!(entry.kind, Kind::Symlink { .. })))
                .collect()
        };
        assert_eq!(kinds(false), [("pdf".to_owned(), true)]);
        assert_eq!(
            kinds(true),
            [
                ("pdf".to_owned(), false),
                ("pdf/SKILL.md".to_owned(), false),
                ("pdf/deeper".to_owned(), true),
                ("pdf/inner".to_owned(), false),
            ]
        );
        fs::remove_dir_all(&base).unwrap();
    }
}
