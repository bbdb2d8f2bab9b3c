//! What a watch of a skills folder gives its owner (feature `watch`): the
//! handle that keeps it running, each load's outcome, and why a folder could
//! not be watched. The machinery that fills them in is `watch`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc;

use notify_debouncer_full::DebounceEventResult;
use notify_debouncer_full::notify;
use skills_core::vendor::{Agent, Environment};
use skills_core::{FrontEnd, Options, Refused, Report};

/// What to watch, and how: the one argument of
/// [`SkillsServer::watch`](crate::SkillsServer::watch) (a watch you hold) and
/// of [`SkillsServerBuilder::watch_in_debug`](crate::SkillsServerBuilder::watch_in_debug)
/// (a watch the server holds, in debug builds only).
///
/// - [`Watch::folder`]: one folder, loaded whole or not at all, as
///   `embed_skills!` loads it; while it does not load, the last good set is
///   served.
/// - [`Watch::roots`]: several roots merged, highest precedence first, each
///   loaded skill by skill (`skills_core::load_roots`): an invalid skill is
///   left out and reported ([`Reload::refused`]) while the others are
///   served, and a skill whose name an earlier root already has is left out
///   with a `duplicate-name` warning naming both. Roots that do not exist
///   serve nothing and are watched for, so a folder created later is served
///   as it appears; symbolic links right below a root (a skill linked from
///   a dotfiles repository) are followed, and watched too.
/// - [`Watch::agent`]: the folders an agent reads at user scope, as roots,
///   with the agent's rule profile.
///
/// The rules are [`options`](Self::options) when given; else the rules the
/// served set was embedded with (`embed_skills!`'s options, and problems'
/// hints say so), or [`Options::default`] for a set that was not embedded.
///
/// ```no_run
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use skills_runtime::load::Options;
/// use skills_runtime::load::vendor::{Agent, Environment};
/// use skills_runtime::{Skills, SkillsServer, Watch};
///
/// let server = SkillsServer::new(Skills::empty());
/// let one = server.watch(Watch::folder("skills"))?;
/// let merged = server.watch(Watch::roots(["team-skills", "my-skills"]).options(Options::claude_code()))?;
/// for refused in merged.last_reload().refused() {
///     eprintln!("left out {}: {}", refused.folder, refused.errors[0].message);
/// }
/// let agent = server.watch(Watch::agent(&Agent::CLAUDE_CODE, &Environment::from_process()))?;
/// # drop((one, agent)); Ok(()) }
/// ```
pub struct Watch {
    pub(super) source: Source,
    pub(super) options: Option<Options>,
    pub(super) front_end: Option<&'static (dyn FrontEnd + Sync)>,
}

impl Watch {
    /// One folder, loaded whole or not at all. Symbolic links in it are
    /// reported and never followed; a folder that is deleted is watched for
    /// again until it comes back.
    pub fn folder(dir: impl Into<PathBuf>) -> Self {
        Self {
            source: Source::Folder(dir.into()),
            options: None,
            front_end: None,
        }
    }

    /// Several roots merged, highest precedence first, each loaded skill by
    /// skill (see the [type documentation](Self)).
    pub fn roots(roots: impl IntoIterator<Item = impl Into<PathBuf>>) -> Self {
        Self {
            source: Source::Roots(roots.into_iter().map(Into::into).collect()),
            options: None,
            front_end: None,
        }
    }

    /// The skills `agent` reads at user scope (`~/.claude/skills` for
    /// [`Agent::CLAUDE_CODE`], `$CODEX_HOME/skills`, `~/.agents/skills` and
    /// `/etc/codex/skills` for [`Agent::CODEX`], …, with the agent's
    /// overrides read from `env`), as [`roots`](Self::roots), with the
    /// agent's rule profile ([`Agent::options`]): its users' skills are not
    /// refused for what the agent itself accepts.
    pub fn agent(agent: &Agent, env: &Environment) -> Self {
        Self::roots(agent.user_roots(env)).options(agent.options())
    }

    /// The rules to load with (what `embed_skills!` applies with the same
    /// options).
    #[must_use]
    pub fn options(mut self, options: Options) -> Self {
        self.options = Some(options);
        self
    }

    /// Problems' hints spell options the way `front_end` writes them (a
    /// command line's flags, say) instead of as [`Options`] fields.
    #[must_use]
    pub fn front_end(mut self, front_end: &'static (dyn FrontEnd + Sync)) -> Self {
        self.front_end = Some(front_end);
        self
    }

    /// The rules and the way hints spell them: as given, else those of a set
    /// embedded with `embedded` options.
    pub(super) fn rules(
        &mut self,
        embedded: Option<Options>,
    ) -> (Options, &'static (dyn FrontEnd + Sync)) {
        match (self.options.take(), embedded) {
            (Some(options), _) => (options, self.front_end.unwrap_or(&skills_core::Library)),
            (None, Some(options)) => (options, self.front_end.unwrap_or(&skills_core::EmbedMacro)),
            (None, None) => (
                Options::default(),
                self.front_end.unwrap_or(&skills_core::Library),
            ),
        }
    }
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("roots", &self.source.roots())
            .field("lenient", &matches!(self.source, Source::Roots(_)))
            .finish_non_exhaustive()
    }
}

/// What a watch loads.
pub(super) enum Source {
    /// One folder, whole or not at all (the macro's load).
    Folder(PathBuf),
    /// Several roots, skill by skill, merged first-wins.
    Roots(Vec<PathBuf>),
}

impl Source {
    pub(super) fn roots(&self) -> &[PathBuf] {
        match self {
            Self::Folder(dir) => std::slice::from_ref(dir),
            Self::Roots(roots) => roots,
        }
    }
}

/// Watching a skills folder; dropping the handle (or [`stop`](Self::stop))
/// ends it, and the server keeps serving the last set loaded.
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

    /// The skills a lenient load ([`Watch::roots`], [`Watch::agent`]) left
    /// out, each with the
    /// errors that refused it; the others are served. Always empty for
    /// [`Watch::folder`], which loads a folder whole or not at all.
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
    /// The folder being watched, made absolute (the first one, for
    /// [`Watch::roots`]).
    pub fn dir(&self) -> &Path {
        self.dirs.first().map_or(Path::new(""), PathBuf::as_path)
    }

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
