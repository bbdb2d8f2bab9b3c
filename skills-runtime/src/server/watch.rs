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
//! never followed), the watcher does not follow them either, and the loaded
//! bytes are held in memory, so what a client reads is what was checked.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Weak};
use std::time::Duration;

use notify_debouncer_full::notify::event::{MetadataKind, ModifyKind};
use notify_debouncer_full::notify::{self, EventKind, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, DebouncedEvent, Debouncer, RecommendedCache};
use skills_core::{FrontEnd, Options, Renderer, Report};

use super::{Shared, SkillsServer};

/// How long the folder must stay quiet before it is reloaded.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

/// Watching a skills folder; dropping the handle (or [`stop`](Self::stop))
/// ends it, and the server keeps serving the last set loaded.
///
/// ```no_run
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use skills_runtime::{Options, Skills, SkillsServer};
///
/// let server = SkillsServer::new(Skills::empty());
/// let watch = server.watch("skills", Options::default())?;
/// if let Some(report) = watch.last_report() {
///     eprintln!("not serving skills/ yet:\n{report}");
/// }
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct WatchHandle {
    dir: PathBuf,
    status: tokio::sync::watch::Receiver<Reload>,
    stop: mpsc::Sender<Signal>,
}

/// The outcome of one load of the folder: the first when the watch started
/// (number 0), then one per settled change.
#[derive(Debug, Clone)]
pub struct Reload {
    number: u64,
    report: Option<Arc<Report>>,
    changed: bool,
    skills: usize,
}

impl Reload {
    /// 0 for the load when the watch started, then 1, 2, … per reload.
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Why the folder did not load (every problem, with `file:line:col`);
    /// `None` when it loaded and is what the server serves.
    pub fn report(&self) -> Option<&Report> {
        self.report.as_deref()
    }

    /// Whether this load changed the set served.
    pub fn changed(&self) -> bool {
        self.changed
    }

    /// How many skills the server serves after this load.
    pub fn skills(&self) -> usize {
        self.skills
    }
}

/// The loads of a watched folder as they finish ([`WatchHandle::reloads`]).
#[derive(Debug)]
pub struct Reloads {
    status: tokio::sync::watch::Receiver<Reload>,
}

impl Reloads {
    /// Waits for the next load to finish; `None` once the watch has ended.
    /// Loads that finished before the previous call returned are not
    /// reported again, but one that finished between two calls is.
    pub async fn next(&mut self) -> Option<Reload> {
        self.status.changed().await.ok()?;
        Some(self.status.borrow_and_update().clone())
    }

    /// The last load that finished.
    pub fn latest(&self) -> Reload {
        self.status.borrow().clone()
    }
}

/// Why a folder could not be watched.
#[derive(Debug)]
pub struct WatchError {
    dir: PathBuf,
    source: notify::Error,
}

impl std::fmt::Display for WatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot watch {}: {}", self.dir.display(), self.source)
    }
}

impl std::error::Error for WatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

enum Signal {
    Events(DebounceEventResult),
    Stop,
}

impl WatchHandle {
    /// The folder being watched, made absolute.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Why the folder is not being served right now: every problem of the
    /// last load, with `file:line:col`, rule and hint. `None` while the
    /// folder loads cleanly.
    pub fn last_report(&self) -> Option<Report> {
        self.status.borrow().report().cloned()
    }

    /// The last load that finished.
    pub fn last_reload(&self) -> Reload {
        self.status.borrow().clone()
    }

    /// The loads from now on, as they finish.
    pub fn reloads(&self) -> Reloads {
        let mut status = self.status.clone();
        status.mark_unchanged();
        Reloads { status }
    }

    /// Stops watching; the server keeps the last set loaded.
    pub fn stop(self) {}
}

impl Drop for WatchHandle {
    fn drop(&mut self) {
        let _ = self.stop.send(Signal::Stop);
    }
}

impl SkillsServer {
    /// Serves the skills in `dir` and reloads them whenever something in
    /// it changes, with `options` (the rules `embed_skills!` applies with
    /// the same options). Loads the folder before returning; while it does
    /// not load, the server keeps serving what it served before (the set it
    /// was built with, then the last good one) and says why, on `tracing`
    /// (every problem with `file:line:col`) and in
    /// [`WatchHandle::last_report`]. The server [notifies
    /// changes](Self::notifies_changes) from now on.
    ///
    /// Symbolic links in the folder are reported and never followed; a
    /// folder that is deleted is watched for again until it comes back.
    /// `Err` when the OS refuses to watch (too many watches, no such folder
    /// nor parent).
    pub fn watch(
        &self,
        dir: impl Into<PathBuf>,
        options: Options,
    ) -> Result<WatchHandle, WatchError> {
        self.watch_as(dir.into(), options, &skills_core::Library)
    }

    /// [`watch`](Self::watch), with problems' hints spelling options the way
    /// `front_end` writes them.
    fn watch_as(
        &self,
        given: PathBuf,
        mut options: Options,
        front_end: &'static (dyn FrontEnd + Sync),
    ) -> Result<WatchHandle, WatchError> {
        // Reports name files under the folder as it was given.
        options
            .display_root
            .get_or_insert_with(|| given.display().to_string());
        // The OS reports absolute paths; a relative folder would match none.
        let dir = std::path::absolute(&given).map_err(|error| WatchError {
            dir: given,
            source: notify::Error::io(error),
        })?;
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
                dir: dir.clone(),
                source,
            })?;
        let mut watcher = Watcher {
            dir: dir.clone(),
            debouncer,
            watching_dir: false,
        };
        watcher.start().map_err(|source| WatchError {
            dir: dir.clone(),
            source,
        })?;
        self.shared
            .live
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let log = Log {
            dir: dir.clone(),
            front_end,
        };
        let first = log.load_into(self, &options, 0, None);
        let (status, receiver) = tokio::sync::watch::channel(first);
        let server = Arc::downgrade(&self.shared);
        std::thread::Builder::new()
            .name("skills-watch".to_owned())
            .spawn(move || run(server, watcher, log, options, received, status))
            .map_err(|error| WatchError {
                dir: dir.clone(),
                source: notify::Error::io(error),
            })?;
        Ok(WatchHandle {
            dir,
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

    /// Starts the watch the server owns; a folder that cannot be watched is
    /// logged and the set the server was built with is served.
    pub(super) fn keep_watching(&self, dir: PathBuf, options: Options) {
        // The author wrote the options in the macro call: hints say so.
        match self.watch_as(dir, options, &skills_core::EmbedMacro) {
            Ok(handle) => {
                let _ = self.shared.watch.set(handle);
            }
            Err(error) => tracing::error!(%error, "serving the embedded skills"),
        }
    }
}

/// The rules a set was embedded with, for reloading its folder alike (the
/// strict defaults for a set that was not embedded).
pub(super) fn embedded_options(skills: &crate::Skills) -> Options {
    skills
        .embed_options()
        .map_or_else(Options::default, skills_core::EmbedOptions::to_options)
}

/// The OS watches: the folder, recursively, and its parent, so that a
/// folder deleted and created again is noticed and watched again.
struct Watcher {
    dir: PathBuf,
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    watching_dir: bool,
}

impl Watcher {
    fn start(&mut self) -> notify::Result<()> {
        let parent = self
            .dir
            .parent()
            .filter(|parent| parent.is_dir())
            .map(Path::to_path_buf);
        if let Some(parent) = &parent {
            self.debouncer.watch(parent, RecursiveMode::NonRecursive)?;
        }
        self.rewatch(false)?;
        if parent.is_none() && !self.watching_dir {
            // Nothing could tell us when the folder appears.
            return Err(notify::Error::path_not_found().add_path(self.dir.clone()));
        }
        Ok(())
    }

    /// Watches the folder again if it was replaced (`replaced`: an event
    /// named the folder itself) or is not watched yet.
    fn rewatch(&mut self, replaced: bool) -> notify::Result<()> {
        if replaced && self.watching_dir {
            let _ = self.debouncer.unwatch(&self.dir);
            self.watching_dir = false;
        }
        if !self.watching_dir && self.dir.is_dir() {
            self.debouncer.watch(&self.dir, RecursiveMode::Recursive)?;
            self.watching_dir = true;
        }
        Ok(())
    }

    /// Whether `event` may change what the folder loads as: it changes (not
    /// merely opens or reads) the folder or something in it that is not
    /// hidden (the loader skips hidden entries, so an editor's swap file
    /// changes nothing). The loader's own reads are events too: counting
    /// them would reload forever.
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
        event.paths.iter().any(|path| {
            path.strip_prefix(&self.dir).is_ok_and(|inside| {
                !inside.components().any(|part| {
                    part.as_os_str()
                        .to_str()
                        .is_some_and(|name| name.starts_with('.'))
                })
            })
        })
    }

    /// Whether `event` created, removed or renamed the folder itself, which
    /// then needs watching again.
    fn replaces_dir(&self, event: &DebouncedEvent) -> bool {
        event.need_rescan()
            || (matches!(
                event.kind,
                EventKind::Create(_)
                    | EventKind::Remove(_)
                    | EventKind::Modify(ModifyKind::Name(_))
            ) && event.paths.iter().any(|path| path == &self.dir))
    }
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
                        tracing::warn!(dir = %watcher.dir.display(), %error, "watching skills");
                    }
                    (matters, replaced) = (true, true);
                }
            }
        }
        if let Err(error) = watcher.rewatch(replaced) {
            tracing::warn!(dir = %watcher.dir.display(), %error, "cannot watch the skills folder again");
        }
        if !matters {
            continue;
        }
        let Some(shared) = server.upgrade() else {
            return;
        };
        number += 1;
        let previous = status.borrow().clone();
        let reload = log.load_into(&SkillsServer { shared }, &options, number, Some(&previous));
        status.send_replace(reload);
    }
}

/// Where loads are read from and how their problems are told.
struct Log {
    dir: PathBuf,
    front_end: &'static (dyn FrontEnd + Sync),
}

impl Log {
    /// Loads the folder and serves it if it loads; says what happened.
    fn load_into(
        &self,
        server: &SkillsServer,
        options: &Options,
        number: u64,
        previous: Option<&Reload>,
    ) -> Reload {
        let dir = &self.dir;
        let renderer = Renderer::new(self.front_end);
        match skills_core::load(dir, options) {
            Ok(loaded) => {
                let skills = loaded.skills().len();
                let root = options.display_root.as_deref().unwrap_or_default();
                let warnings: Vec<String> = loaded
                    .warnings()
                    .iter()
                    .map(|warning| renderer.diagnostic(warning, root))
                    .collect();
                let changed = server.replace(loaded.into_skills());
                if previous.is_some_and(|previous| previous.report.is_some()) {
                    tracing::info!(dir = %dir.display(), skills, "skills folder fixed: serving it again");
                } else if number == 0 {
                    tracing::info!(dir = %dir.display(), skills, "serving the skills folder");
                } else if changed {
                    tracing::info!(dir = %dir.display(), skills, "skills folder reloaded");
                }
                // What the specification only recommends: said once per new set.
                if changed || number == 0 {
                    for warning in warnings {
                        tracing::warn!("{warning}");
                    }
                }
                Reload {
                    number,
                    report: None,
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
                    changed: false,
                    skills,
                }
            }
        }
    }
}
