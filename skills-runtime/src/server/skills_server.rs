//! The server itself: what every clone shares (the settings, the snapshot
//! being served, who is told of changes) and swapping the set. What it
//! answers lives in the modules of each request family, as more `impl
//! SkillsServer` blocks.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use rmcp::RoleServer;
use rmcp::model::Implementation;
use rmcp::service::RequestContext;

use super::access::Caller;
use super::changes::Listeners;
use super::sessions::Sessions;
use super::settings::Settings;
use super::snapshot::Snapshot;
use super::view::View;
use crate::{Report, Skills};

/// Serves a [`Skills`] set over MCP. Cheap to clone: clones share the set.
#[derive(Clone)]
pub struct SkillsServer {
    pub(super) shared: Arc<Shared>,
}

pub(super) struct Shared {
    pub(super) settings: Settings,
    /// Decided once at build: the configured name, else the embedding crate's.
    pub(super) server_info: Implementation,
    /// The one source of every answer; [`SkillsServer::replace`] swaps it.
    pub(super) current: RwLock<Arc<Snapshot>>,
    /// Whether clients are told of changes (configured, or a watch started).
    pub(super) live: AtomicBool,
    /// Who is told when their view changes (sessions, listen streams).
    pub(super) sessions: Sessions,
    /// Who is told when a file they subscribed to changes.
    pub(super) listeners: Listeners,
}

/// A server that does not keep it alive: what a task that outlives no
/// server holds (a folder's watch thread).
#[cfg(feature = "watch")]
pub(crate) struct WeakServer(std::sync::Weak<Shared>);

#[cfg(feature = "watch")]
impl WeakServer {
    /// The server, while any clone of it is alive.
    pub(crate) fn upgrade(&self) -> Option<SkillsServer> {
        self.0.upgrade().map(|shared| SkillsServer { shared })
    }
}

impl SkillsServer {
    /// A server for `skills` with the default settings: the shorthand of
    /// `SkillsServer::builder(skills).build()` for a set that can be served
    /// as it is, which every set from `embed_skills!` without `generated`
    /// is.
    ///
    /// # Panics
    ///
    /// When [`check_servable`](crate::check_servable) refuses the set: a
    /// file declared `generated` was not added, or a gated skill sits inside
    /// one that is not. [`builder`](Self::builder)`(skills).build()` returns
    /// that report instead: use it for sets built at run time.
    pub fn new(skills: Skills) -> Self {
        match Self::builder(skills).build() {
            Ok(server) => server,
            Err(report) => panic!("the skills cannot be served as they are:\n{report}"),
        }
    }

    /// The set being served right now.
    pub fn skills(&self) -> Skills {
        self.snapshot().skills.clone()
    }

    /// Serves `skills` from now on, once
    /// [`check_servable`](crate::check_servable) accepts it; requests in
    /// flight finish on the old set. Returns whether the set's fingerprint
    /// changed. A set the check refuses (a file declared `generated` was not
    /// added, a gated skill sits inside one that is not) is not served: the
    /// old one stays and the report is returned.
    ///
    /// When the server [notifies changes](crate::SkillsServerBuilder::notify_changes)
    /// (or watches a folder, feature `watch`), the clients whose view changed
    /// are told, and no other: each initialized session and each listen
    /// stream (and each [`watch_view`](Self::watch_view)) gets
    /// `notifications/resources/list_changed` (and
    /// `notifications/prompts/list_changed` when the server [serves
    /// prompts](crate::SkillsServerBuilder::prompts)); each subscriber of a file
    /// whose bytes changed (or that appeared or vanished) gets
    /// `notifications/resources/updated`.
    ///
    /// ```
    /// # use skills_runtime::{Skills, SkillsServer};
    /// # static SKILLS: Skills = Skills::empty();
    /// let server = SkillsServer::new(Skills::empty());
    /// let changed = server.replace(SKILLS.clone())?;
    /// # assert!(!changed);
    /// # Ok::<(), skills_runtime::Report>(())
    /// ```
    pub fn replace(&self, skills: Skills) -> Result<bool, Report> {
        crate::check_servable(&skills)?;
        let snapshot = Arc::new(Snapshot::new(skills, self.settings().blob_cache_bytes));
        let previous = {
            let mut current = self
                .shared
                .current
                .write()
                .unwrap_or_else(PoisonError::into_inner);
            std::mem::replace(&mut *current, snapshot.clone())
        };
        let changed = previous.skills.fingerprint() != snapshot.skills.fingerprint();
        if changed {
            self.refresh_views(|_| {});
            self.shared
                .listeners
                .announce(&previous, &snapshot, self.settings());
        }
        Ok(changed)
    }

    /// A handle that does not keep the server alive.
    #[cfg(feature = "watch")]
    pub(crate) fn downgrade(&self) -> WeakServer {
        WeakServer(Arc::downgrade(&self.shared))
    }

    /// Tells clients of changes from now on, whatever the server was
    /// configured with: a watched folder changes under them.
    #[cfg(feature = "watch")]
    pub(crate) fn notify_changes_from_now(&self) {
        self.shared.live.store(true, Ordering::Relaxed);
    }

    /// Whether clients are told of changes: configured with
    /// [`notify_changes`](crate::SkillsServerBuilder::notify_changes), or a
    /// watch was started.
    pub(crate) fn notifies_changes(&self) -> bool {
        self.shared.live.load(Ordering::Relaxed)
    }

    /// Whether `uri` names something in this server's `skill://` namespace.
    pub(crate) fn handles(&self, uri: &str) -> bool {
        uri.get(..skills_core::uri::SCHEME.len())
            .is_some_and(|scheme| scheme.eq_ignore_ascii_case(skills_core::uri::SCHEME))
    }

    /// The snapshot every answer of one request comes from: take it once per
    /// request, so that a `replace` in between cannot mix two sets.
    pub(super) fn snapshot(&self) -> Arc<Snapshot> {
        current(&self.shared)
    }

    /// What the caller of `context` may see of the current snapshot.
    pub(super) fn request_view<'r>(&'r self, context: &'r RequestContext<RoleServer>) -> View<'r> {
        self.caller_view(Caller::from_mcp(context))
    }

    /// What `caller` may see of the current snapshot.
    pub(super) fn caller_view<'r>(&'r self, caller: Caller<'r>) -> View<'r> {
        View::new(self.snapshot(), self.settings(), caller)
    }

    pub(super) fn settings(&self) -> &Settings {
        &self.shared.settings
    }
}

/// The snapshot being served by `shared`.
pub(super) fn current(shared: &Shared) -> Arc<Snapshot> {
    shared
        .current
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

impl std::fmt::Debug for SkillsServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let snapshot = self.snapshot();
        f.debug_struct("SkillsServer")
            .field("skills", &snapshot.skills.len())
            .field("fingerprint", &snapshot.skills.fingerprint())
            .finish_non_exhaustive()
    }
}
