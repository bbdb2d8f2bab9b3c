//! Live reload: serve a folder and reload it whenever something in it
//! changes (feature `watch`).
//!
//! The journey of a change: the OS reports it (`notify`), the debouncer
//! waits until the folder has been quiet for [`DEBOUNCE`] (an editor's save
//! or a `git checkout` is many events), the watch thread folds every batch
//! already queued into one reload, `skills_core::load` reads the whole folder
//! again with the author's options, and [`SkillsServer::replace`] swaps the
//! set and tells the clients whose view changed. A folder that does not load
//! leaves the last good set served; the report goes to `tracing` and to
//! [`WatchHandle::last_report`], and the next good save recovers.
//!
//! Reads stay inside the folder: the loader refuses symbolic links (reported,
//! never followed), opens each file without following a link swapped in
//! after its walk nor blocking on a FIFO, and reads only the very file the
//! walk saw (`skills_core::open`); the watcher does not follow links either,
//! and the loaded bytes are held in memory, so what a client reads is what
//! was checked.
//!
//! An agent's folders ([`Watch::agent`], [`Watch::roots`])
//! are loaded leniently instead: each root skill by skill, merged first-wins
//! (`skills_core::load_roots`), so one broken skill is refused and reported
//! while the others are served. Symbolic links right below such a root (a
//! skill linked from a dotfiles repository) are followed, and watched too.
//!
//! Every set goes through [`SkillsServer::replace`], so a set the
//! server's own rules refuse (a gated skill inside one that is not, a file
//! declared generated that was not added) keeps the last good one served,
//! with the report in [`WatchHandle::last_report`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Weak};
use std::time::Duration;

use notify_debouncer_full::notify::event::{MetadataKind, ModifyKind};
use notify_debouncer_full::notify::{self, EventKind, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, DebouncedEvent, Debouncer, RecommendedCache};
use skills_core::{FrontEnd, Options, Refused, Renderer, Report};

use super::reload::{Reload, Signal, Source, Watch, WatchError, WatchHandle};
use super::skills_server::{Shared, SkillsServer};

/// How long the folder must stay quiet before it is reloaded.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

impl SkillsServer {
    /// Serves what `watch` names and reloads it whenever something in it
    /// changes: one folder ([`Watch::folder`]), several roots merged
    /// ([`Watch::roots`]), or an agent's folders ([`Watch::agent`]), with
    /// the rules `watch` gives. Loads before returning; while a load fails,
    /// the server keeps serving what it served before (the set it was built
    /// with, then the last good one) and says why, on `tracing` (every
    /// problem with `file:line:col`) and in [`WatchHandle::last_report`].
    /// The server notifies changes from now on. Dropping the handle ends
    /// the watch.
    ///
    /// `Err` when the OS refuses to watch (too many watches, no such folder
    /// nor parent).
    ///
    /// ```no_run
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use skills_runtime::load::Options;
    /// use skills_runtime::{Skills, SkillsServer, Watch};
    ///
    /// let server = SkillsServer::new(Skills::empty());
    /// let watch = server.watch(Watch::folder("skills").options(Options::default()))?;
    /// if let Some(report) = watch.last_report() {
    ///     eprintln!("not serving skills/ yet:\n{report}");
    /// }
    /// # Ok(()) }
    /// ```
    pub fn watch(&self, mut watch: Watch) -> Result<WatchHandle, WatchError> {
        let (options, front_end) = watch.rules(
            self.skills()
                .embed_options()
                .map(skills_core::Options::from),
        );
        self.watch_as(watch.source, options, front_end)
    }

    /// Starts what `watch` names.
    fn watch_as(
        &self,
        source: Source,
        mut options: Options,
        front_end: &'static (dyn FrontEnd + Sync),
    ) -> Result<WatchHandle, WatchError> {
        let given = source.roots().to_vec();
        if let Source::Folder(dir) = &source {
            // Reports name files under the folder as it was given.
            options
                .display_root
                .get_or_insert_with(|| dir.display().to_string());
        }
        // The OS reports absolute paths; a relative folder would match none.
        let mut dirs = Vec::with_capacity(given.len());
        for dir in given {
            dirs.push(std::path::absolute(&dir).map_err(|error| WatchError {
                dir,
                source: notify::Error::io(error),
            })?);
        }
        let lenient = matches!(source, Source::Roots(_));
        let source = match source {
            Source::Folder(_) => Source::Folder(dirs[0].clone()),
            Source::Roots(_) => Source::Roots(dirs.clone()),
        };
        let first_dir = dirs.first().cloned().unwrap_or_default();
        let (signals, received) = mpsc::channel();
        let events = signals.clone();
        let config = notify::Config::default().with_follow_symlinks(false);
        let debouncer =
            notify_debouncer_full::new_debouncer_opt::<_, notify::RecommendedWatcher, _>(
                DEBOUNCE,
                None,
                move |result: DebounceEventResult| {
                    let _ = events.send(Signal::Events(result));
                },
                RecommendedCache::new(),
                config,
            )
            .map_err(|source| WatchError {
                dir: first_dir.clone(),
                source,
            })?;
        let mut watcher = Watcher {
            roots: dirs.clone(),
            lenient,
            debouncer,
            watched: BTreeMap::new(),
        };
        watcher.start()?;
        self.shared
            .live
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let log = Log { source, front_end };
        let first = log.load_into(self, &options, 0, None);
        let (status, receiver) = tokio::sync::watch::channel(first);
        let server = Arc::downgrade(&self.shared);
        std::thread::Builder::new()
            .name("skills-watch".to_owned())
            .spawn(move || run(server, watcher, log, options, received, status))
            .map_err(|error| WatchError {
                dir: first_dir,
                source: notify::Error::io(error),
            })?;
        Ok(WatchHandle {
            dirs,
            status: receiver,
            stop: signals,
        })
    }
}

impl SkillsServer {
    /// The watch [`SkillsServerBuilder::watch_in_debug`](super::SkillsServerBuilder::watch_in_debug)
    /// started, if it did: its last report, its reloads.
    pub fn watching(&self) -> Option<&WatchHandle> {
        self.shared.watch.get()
    }

    /// Starts the watch the server owns, with the rules of the set it was
    /// built with (`embedded`) unless `watch` gives its own; a watch the OS
    /// refuses is logged and the set the server was built with is served.
    pub(super) fn keep_watching(&self, mut watch: Watch, embedded: Option<Options>) {
        let (options, front_end) = watch.rules(embedded);
        match self.watch_as(watch.source, options, front_end) {
            Ok(handle) => {
                let _ = self.shared.watch.set(handle);
            }
            Err(error) => tracing::error!(%error, "serving the embedded skills"),
        }
    }
}

/// The OS watches: each root, recursively, and the folder above it, so that
/// a root deleted and created again is noticed and watched again. For
/// lenient roots (an agent's folders), a root that does not exist is
/// watched for from its nearest existing folder, and the targets of the
/// links right below a root, which the loader follows, are watched too.
struct Watcher {
    roots: Vec<PathBuf>,
    lenient: bool,
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    /// What is watched now: each path, and whether recursively.
    watched: BTreeMap<PathBuf, bool>,
}

impl Watcher {
    fn start(&mut self) -> Result<(), WatchError> {
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
        self.rewatch(false).map(|_| ())
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
    fn rewatch(&mut self, replaced: bool) -> Result<bool, WatchError> {
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
    fn matters(&self, event: &DebouncedEvent) -> bool {
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
    fn replaces_dir(&self, event: &DebouncedEvent) -> bool {
        event.need_rescan()
            || (matches!(
                event.kind,
                EventKind::Create(_)
                    | EventKind::Remove(_)
                    | EventKind::Modify(ModifyKind::Name(_))
            ) && event.paths.iter().any(|path| self.roots.contains(path)))
    }

    fn first(&self) -> &Path {
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

/// The watch thread: one reload per settled batch of changes, until the
/// handle or the server is dropped.
fn run(
    server: Weak<Shared>,
    mut watcher: Watcher,
    log: Log,
    options: Options,
    signals: mpsc::Receiver<Signal>,
    status: tokio::sync::watch::Sender<Reload>,
) {
    let mut number = 0;
    while let Ok(signal) = signals.recv() {
        let mut batches = vec![signal];
        // Everything already queued settles in the same reload.
        batches.extend(signals.try_iter());
        let (mut matters, mut replaced) = (false, false);
        for batch in batches {
            match batch {
                Signal::Stop => return,
                Signal::Events(Ok(events)) => {
                    matters |= events.iter().any(|event| watcher.matters(event));
                    replaced |= events.iter().any(|event| watcher.replaces_dir(event));
                }
                Signal::Events(Err(errors)) => {
                    for error in errors {
                        tracing::warn!(dir = %watcher.first().display(), %error, "watching skills");
                    }
                    (matters, replaced) = (true, true);
                }
            }
        }
        match watcher.rewatch(replaced) {
            // A root (or a linked skill folder) that appeared is loaded even
            // when its own creation was missed, before its watch began.
            Ok(grew) => matters |= grew,
            Err(error) => tracing::warn!(%error, "cannot watch the skills folder again"),
        }
        if !matters {
            continue;
        }
        let Some(shared) = server.upgrade() else {
            return;
        };
        number += 1;
        let previous = status.borrow().clone();
        // A reload that panics (a bug: every input is refused with words)
        // must not end the watch: it is logged, the last good set stays
        // served, and the next change reloads again.
        let reload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            log.load_into(&SkillsServer { shared }, &options, number, Some(&previous))
        }));
        match reload {
            Ok(reload) => {
                status.send_replace(reload);
            }
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|text| (*text).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                tracing::error!(
                    dir = %log.dir(),
                    panic = %what,
                    "reloading the skills folder failed; still serving the last good set, and the next change reloads again"
                );
            }
        }
    }
}

/// Where loads are read from and how their problems are told.
struct Log {
    source: Source,
    front_end: &'static (dyn FrontEnd + Sync),
}

/// What one load gave: the set to serve (or why there is none), the
/// warnings and refusals to tell.
struct Outcome {
    skills: Result<crate::Skills, Report>,
    /// Warnings and lenient refusals, rendered, each with whether it is an error.
    notes: Vec<(bool, String)>,
    refused: Vec<Refused>,
}

impl Log {
    fn dir(&self) -> String {
        let roots: Vec<String> = self
            .source
            .roots()
            .iter()
            .map(|root| root.display().to_string())
            .collect();
        roots.join(", ")
    }

    /// Reads the roots as the source says.
    fn read(&self, options: &Options) -> Outcome {
        let renderer = Renderer::new(self.front_end);
        match &self.source {
            Source::Folder(dir) => match skills_core::load(dir, options) {
                Ok(loaded) => {
                    let root = options.display_root.as_deref().unwrap_or_default();
                    let notes = loaded
                        .warnings()
                        .iter()
                        .map(|warning| (false, renderer.diagnostic(warning, root)))
                        .collect();
                    Outcome {
                        skills: Ok(loaded.into_skills()),
                        notes,
                        refused: Vec::new(),
                    }
                }
                Err(report) => Outcome {
                    skills: Err(report),
                    notes: Vec::new(),
                    refused: Vec::new(),
                },
            },
            Source::Roots(roots) => {
                let lenient = skills_core::load_roots(roots, options);
                let notes = lenient
                    .reports()
                    .iter()
                    .filter(|report| !report.is_empty())
                    .map(|report| (report.has_errors(), renderer.report(report)))
                    .collect();
                let refused = lenient.refused().to_vec();
                Outcome {
                    skills: Ok(lenient.into_loaded().into_skills()),
                    notes,
                    refused,
                }
            }
        }
    }

    /// Loads the roots and serves the set if it loads and the server
    /// accepts it; says what happened.
    fn load_into(
        &self,
        server: &SkillsServer,
        options: &Options,
        number: u64,
        previous: Option<&Reload>,
    ) -> Reload {
        let dir = self.dir();
        let renderer = Renderer::new(self.front_end);
        let outcome = self.read(options);
        let refused: Arc<[Refused]> = outcome.refused.into();
        // The server's own rules (gated skills, generated files) judge the
        // set too: a set it refuses is reported like one that does not load.
        match outcome.skills.and_then(|skills| server.replace(skills)) {
            Ok(changed) => {
                let skills = server.skills().len();
                if previous.is_some_and(|previous| previous.report.is_some()) {
                    tracing::info!(dir, skills, "skills folder fixed: serving it again");
                } else if number == 0 {
                    tracing::info!(dir, skills, "serving the skills folder");
                } else if changed {
                    tracing::info!(dir, skills, "skills folder reloaded");
                }
                // What the specification only recommends, and what a
                // lenient load left out: said once per new set.
                let refusals_changed = previous.is_none_or(|previous| previous.refused != refused);
                if changed || number == 0 || refusals_changed {
                    for (error, note) in outcome.notes {
                        if error {
                            tracing::error!(
                                "some skills are left out; the others are served:\n{note}"
                            );
                        } else {
                            tracing::warn!("{note}");
                        }
                    }
                }
                Reload {
                    number,
                    report: None,
                    refused,
                    changed,
                    skills,
                }
            }
            Err(report) => {
                let skills = server.skills().len();
                tracing::error!(
                    "the skills folder does not load; still serving the last good set ({skills} skills):\n{}",
                    renderer.report(&report)
                );
                Reload {
                    number,
                    report: Some(Arc::new(report)),
                    refused,
                    changed: false,
                    skills,
                }
            }
        }
    }
}
