//! A watch at work: the OS watches started, then one reload per settled
//! batch of changes on a thread of its own, each set served through
//! [`SkillsServer::replace`].

use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use notify_debouncer_full::notify;
use notify_debouncer_full::{DebounceEventResult, RecommendedCache};
use skills_core::{FrontEnd, Options, Refused, Renderer, Report};

use super::handle::{Reload, Signal, WatchError, WatchHandle};
use super::os::Watcher;
use super::source::{Source, Watch};
use crate::SkillsServer;
use crate::server::WeakServer;

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
    /// use skills_runtime::watch::Watch;
    /// use skills_runtime::{Skills, SkillsServer};
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
        let watcher = Watcher::start(dirs.clone(), lenient, debouncer)?;
        self.notify_changes_from_now();
        let log = Log { source, front_end };
        let first = log.load_into(self, &options, 0, None);
        let (status, receiver) = tokio::sync::watch::channel(first);
        let server = self.downgrade();
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

/// The watch thread: one reload per settled batch of changes, until the
/// handle or the server is dropped.
fn run(
    server: WeakServer,
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
        let Some(server) = server.upgrade() else {
            return;
        };
        number += 1;
        let previous = status.borrow().clone();
        // A reload that panics (a bug: every input is refused with words)
        // must not end the watch: it is logged, the last good set stays
        // served, and the next change reloads again.
        let reload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            log.load_into(&server, &options, number, Some(&previous))
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
