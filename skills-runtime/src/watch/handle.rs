//! What a watch gives its owner: the handle that keeps it running, each
//! load's outcome, and why a folder could not be watched.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc;

use notify_debouncer_full::DebounceEventResult;
use notify_debouncer_full::notify;
use skills_core::{Refused, Report};

/// Watching a skills folder; dropping the handle (or [`stop`](Self::stop))
/// ends it, and the server keeps serving the last set loaded.
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
#[derive(Debug)]
pub struct WatchHandle {
    pub(super) dirs: Vec<PathBuf>,
    pub(super) status: tokio::sync::watch::Receiver<Reload>,
    pub(super) stop: mpsc::Sender<Signal>,
}

/// The outcome of one load of the folder: the first when the watch started
/// (number 0), then one per settled change.
#[derive(Debug, Clone)]
pub struct Reload {
    pub(super) number: u64,
    pub(super) report: Option<Arc<Report>>,
    pub(super) refused: Arc<[Refused]>,
    pub(super) changed: bool,
    pub(super) skills: usize,
}

impl Reload {
    /// 0 for the load when the watch started, then 1, 2, … per reload.
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Why the folder did not load (every problem, with `file:line:col`),
    /// or why the server refused the set it loaded
    /// ([`replace`](crate::SkillsServer::replace)); `None` when it loaded
    /// and is what the server serves.
    pub fn report(&self) -> Option<&Report> {
        self.report.as_deref()
    }

    /// The skills a lenient load ([`Watch::roots`](super::Watch::roots), [`Watch::agent`](super::Watch::agent)) left
    /// out, each with the
    /// errors that refused it; the others are served. Always empty for
    /// [`Watch::folder`](super::Watch::folder), which loads a folder whole or not at all.
    pub fn refused(&self) -> &[Refused] {
        &self.refused
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
    pub(super) dir: PathBuf,
    pub(super) source: notify::Error,
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

pub(super) enum Signal {
    Events(DebounceEventResult),
    Stop,
}

impl WatchHandle {
    /// Every folder being watched, made absolute, highest precedence first.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
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
