//! What the OS watches for a set of roots, and which of its events may
//! change what the roots load as.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use notify_debouncer_full::notify::event::{MetadataKind, ModifyKind};
use notify_debouncer_full::notify::{self, EventKind, RecursiveMode};
use notify_debouncer_full::{DebouncedEvent, Debouncer, RecommendedCache};

use super::handle::WatchError;

/// The OS watches: each root, recursively, and the folder above it, so that
/// a root deleted and created again is noticed and watched again. For
/// lenient roots (an agent's folders), a root that does not exist is
/// watched for from its nearest existing folder, and the targets of the
/// links right below a root, which the loader follows, are watched too.
pub(super) struct Watcher {
    roots: Vec<PathBuf>,
    lenient: bool,
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    /// What is watched now: each path, and whether recursively.
    watched: BTreeMap<PathBuf, bool>,
}

impl Watcher {
    /// Watches `roots` through `debouncer`: loaded whole (`lenient` false,
    /// one root) or skill by skill.
    pub(super) fn start(
        roots: Vec<PathBuf>,
        lenient: bool,
        debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    ) -> Result<Self, WatchError> {
        let mut watcher = Self {
            roots,
            lenient,
            debouncer,
            watched: BTreeMap::new(),
        };
        watcher.check_roots()?;
        watcher.rewatch(false)?;
        Ok(watcher)
    }

    /// A single folder needs a folder above it that exists: nothing else
    /// could tell when it appears.
    fn check_roots(&self) -> Result<(), WatchError> {
        if !self.lenient {
            let dir = &self.roots[0];
            let parent = dir.parent().filter(|parent| parent.is_dir());
            if parent.is_none() && !dir.is_dir() {
                // Nothing could tell us when the folder appears.
                return Err(WatchError {
                    dir: dir.clone(),
                    source: notify::Error::path_not_found().add_path(dir.clone()),
                });
            }
        }
        Ok(())
    }

    /// What should be watched now: each root that exists (recursively) and
    /// the targets of its top-level links (lenient roots), then the folder
    /// that tells when each root appears or goes.
    fn wanted(&self) -> BTreeMap<PathBuf, bool> {
        let mut wanted = BTreeMap::new();
        for root in &self.roots {
            if !root.is_dir() {
                continue;
            }
            wanted.insert(root.clone(), true);
            if self.lenient {
                for target in linked_folders(root) {
                    wanted.insert(target, true);
                }
            }
        }
        for root in &self.roots {
            let above = if self.lenient {
                root.ancestors().skip(1).find(|folder| folder.is_dir())
            } else {
                root.parent().filter(|parent| parent.is_dir())
            };
            if let Some(above) = above {
                wanted.entry(above.to_path_buf()).or_insert(false);
            }
        }
        wanted
    }

    /// Brings the OS watches in line with [`wanted`](Self::wanted); a root
    /// that was `replaced` (an event named it) is watched afresh, since the
    /// old watch followed the folder that went away. Returns whether a
    /// folder is now watched whole that was not: what it holds may have
    /// been written before the watch began, so it needs a load.
    pub(super) fn rewatch(&mut self, replaced: bool) -> Result<bool, WatchError> {
        if replaced {
            for root in &self.roots {
                if self.watched.remove(root).is_some() {
                    let _ = self.debouncer.unwatch(root);
                }
            }
        }
        let wanted = self.wanted();
        let stale: Vec<PathBuf> = self
            .watched
            .iter()
            .filter(|(path, recursive)| wanted.get(*path) != Some(recursive))
            .map(|(path, _)| path.clone())
            .collect();
        for path in stale {
            self.watched.remove(&path);
            let _ = self.debouncer.unwatch(&path);
        }
        let mut grew = false;
        for (path, recursive) in wanted {
            if self.watched.contains_key(&path) {
                continue;
            }
            grew |= recursive;
            let mode = if recursive {
                RecursiveMode::Recursive
            } else {
                RecursiveMode::NonRecursive
            };
            self.debouncer
                .watch(&path, mode)
                .map_err(|source| WatchError {
                    dir: path.clone(),
                    source,
                })?;
            self.watched.insert(path, recursive);
        }
        Ok(grew)
    }

    /// Whether `event` may change what the roots load as: it changes (not
    /// merely opens or reads) a root or something in one (or in a linked
    /// skill folder) that is not hidden (the loader skips hidden entries,
    /// so an editor's swap file changes nothing). The loader's own reads
    /// are events too: counting them would reload forever.
    pub(super) fn matters(&self, event: &DebouncedEvent) -> bool {
        if event.need_rescan() {
            return true;
        }
        if matches!(
            event.kind,
            EventKind::Access(_)
                | EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime))
        ) {
            return false;
        }
        let linked = self
            .watched
            .iter()
            .filter(|(_, recursive)| **recursive)
            .map(|(path, _)| path);
        let inside: Vec<&PathBuf> = self.roots.iter().chain(linked).collect();
        event.paths.iter().any(|path| {
            inside.iter().any(|dir| {
                path.strip_prefix(dir).is_ok_and(|inside| {
                    !inside.components().any(|part| {
                        part.as_os_str()
                            .to_str()
                            .is_some_and(|name| name.starts_with('.'))
                    })
                })
            })
        })
    }

    /// Whether `event` created, removed or renamed a root itself, which
    /// then needs watching again.
    pub(super) fn replaces_dir(&self, event: &DebouncedEvent) -> bool {
        event.need_rescan()
            || (matches!(
                event.kind,
                EventKind::Create(_)
                    | EventKind::Remove(_)
                    | EventKind::Modify(ModifyKind::Name(_))
            ) && event.paths.iter().any(|path| self.roots.contains(path)))
    }

    pub(super) fn first(&self) -> &Path {
        self.roots.first().map_or(Path::new(""), PathBuf::as_path)
    }
}

/// The folders that symbolic links right below `root` point to (skill
/// folders linked from a dotfiles repository), resolved.
fn linked_folders(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_symlink()))
        .filter_map(|entry| std::fs::canonicalize(entry.path()).ok())
        .filter(|target| target.is_dir())
        .collect()
}
