//! Serving skills through [`rmcp`](https://docs.rs/rmcp): SEP-2640 on both protocol eras, plus the
//! conventions clients that predate it read.
//!
//! [`SkillsServer`] answers every skills-related request from a [`Skills`]
//! set. Use it three ways:
//!
//! - as a complete server of its own (it implements `ServerHandler`);
//! - wrapped around your handler in one line, [`WithSkills`]; or
//! - from your own `impl ServerHandler`, calling its methods one per
//!   request, as rmcp documents for its `SkillCatalog`
//!   ([`delegate_skills!`](crate::delegate_skills) writes those calls).
//!
//! [`serve`] runs any of them over stdio (or another transport) until the
//! client leaves, with errors that say what happened (`no client
//! connected`); over HTTP, `skills_runtime::http` (feature `http`) routes them.
//!
//! Every method takes the request context: the protocol era decides the
//! shape of the answer (`ttlMs`/`cacheScope` only on 2026-07-28), and an
//! [access policy](SkillsServerBuilder::access) decides, per [`Caller`],
//! which skills are owned, locked (a teaser with an offer, on catalog
//! routes) or absent. Plain HTTP routes get the same caller's view of the
//! same snapshot through [`SkillsServer::view_for`]. The set served can be
//! swapped atomically at run time with [`SkillsServer::replace`]; a server
//! that [notifies changes](SkillsServerBuilder::notify_changes) (every server
//! that watches a folder, feature `watch`) tells each client only about what
//! its own view shows: initialized 2025-11-25 sessions and 2026-07-28
//! `subscriptions/listen` streams whose view changed (a replace, or a grant
//! or revoke reported with [`SkillsServer::refresh_views`]), and the
//! subscribers of a file whose bytes changed.
//!
//! [`Skills`]: crate::Skills

// How a request is answered, step by step: the server holds one `Snapshot`
// (the set and everything derived from it); each request takes a `View` of
// it for its `Caller` (`access`: what the policy gives this caller; the
// fingerprint its cursors bind to; the era's cache hints), whose owned set
// is shared by every caller owning the same skills (`visible`); the module
// of its family (`skills`, `resources`, `directory`, `completion`, `tool`,
// `prompts`)
// reads the view, pages through `cursor::page`, and converts to rmcp's model
// in `wire`. `info` answers what the server says of itself; `catalog` is the
// same view for plain HTTP routes; `sessions` tells each session and listen
// stream when its view changes, `changes` tells subscribers when a file's
// bytes change (`subscriptions` is how clients ask); `watch` reloads a
// folder; `handler` plugs all of it into `ServerHandler`.

mod access;
mod builder;
mod catalog;
mod changes;
mod compat;
mod completion;
mod cursor;
mod directory;
mod handler;
mod info;
mod instructions;
mod malformed;
mod prompts;
mod resources;
mod serve;
mod sessions;
mod settings;
mod skills;
mod snapshot;
mod subscriptions;
mod tool;
mod view;
mod visible;
#[cfg(feature = "watch")]
mod watch;
mod wire;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use rmcp::RoleServer;
use rmcp::model::Implementation;
use rmcp::service::RequestContext;

pub use access::{Access, AccessPolicy, Caller, Offer};
pub use builder::SkillsServerBuilder;
pub use catalog::SkillsView;
#[doc(hidden)]
pub use cursor::fuzzing as cursor_fuzzing;
pub use handler::WithSkills;
pub use instructions::DEFAULT_BUDGET as INSTRUCTIONS_BUDGET;
pub use serve::{ServeError, serve};
pub use sessions::ViewChanges;
pub use view::Visibility;
#[cfg(feature = "watch")]
pub use watch::{DEBOUNCE, Reload, Reloads, WatchError, WatchHandle};
pub use wire::{frontmatter, skill_entry};

use crate::{Report, Skills};
use settings::Settings;
use changes::Listeners;
use sessions::Sessions;
use snapshot::Snapshot;
use view::View;

/// Serves a [`Skills`] set over MCP. Cheap to clone: clones share the set.
#[derive(Clone)]
pub struct SkillsServer {
    shared: Arc<Shared>,
}

struct Shared {
    settings: Settings,
    /// Decided once at build: the configured name, else the embedding crate's.
    server_info: Implementation,
    /// The one source of every answer; [`SkillsServer::replace`] swaps it.
    current: RwLock<Arc<Snapshot>>,
    /// Whether clients are told of changes (configured, or a watch started).
    live: AtomicBool,
    /// Who is told when their view changes (sessions, listen streams).
    sessions: Sessions,
    /// Who is told when a file they subscribed to changes.
    listeners: Listeners,
    /// The watch started by [`SkillsServerBuilder::watch_in_debug`], which
    /// lives as long as the server.
    #[cfg(feature = "watch")]
    watch: std::sync::OnceLock<WatchHandle>,
}

impl SkillsServer {
    /// A server for `skills` with the default settings.
    pub fn new(skills: Skills) -> Self {
        Self::builder(skills).build()
    }

    /// The set being served right now.
    pub fn skills(&self) -> Skills {
        self.snapshot().skills.clone()
    }

    /// Serves `skills` from now on, once
    /// [`check_servable`](crate::check_servable) accepts it (see
    /// [`try_replace`](Self::try_replace)); requests in flight finish on the
    /// old set. Returns whether the set's fingerprint changed. A set the
    /// check refuses is not served: the old one stays, the report is logged,
    /// and this returns `false`.
    ///
    /// When the server [notifies changes](SkillsServerBuilder::notify_changes)
    /// (or [watches a folder](Self::watch)), the clients whose view changed
    /// are told, and no other: each initialized session and each listen
    /// stream (and each [`watch_view`](Self::watch_view)) gets
    /// `notifications/resources/list_changed` (and
    /// `notifications/prompts/list_changed` when the server [serves
    /// prompts](SkillsServerBuilder::prompts)); each subscriber of a file
    /// whose bytes changed (or that appeared or vanished) gets
    /// `notifications/resources/updated`.
    pub fn replace(&self, skills: Skills) -> bool {
        match self.try_replace(skills) {
            Ok(changed) => changed,
            Err(report) => {
                tracing::error!("the new skills cannot be served; the old ones stay:\n{report}");
                false
            }
        }
    }

    /// [`replace`](Self::replace), returning the report instead of logging
    /// it when the set cannot be served as it is (a file declared
    /// `generated` was not added, a gated skill sits inside one that is
    /// not): for sets built at run time.
    pub fn try_replace(&self, skills: Skills) -> Result<bool, Report> {
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
            self.refresh_views();
            self.shared
                .listeners
                .announce(&previous, &snapshot, self.settings());
        }
        Ok(changed)
    }

    /// Whether clients are told of changes: configured with
    /// [`notify_changes`](SkillsServerBuilder::notify_changes), or a
    /// [watch](Self::watch) was started.
    pub fn notifies_changes(&self) -> bool {
        self.shared.live.load(Ordering::Relaxed)
    }

    /// Whether `uri` names something in this server's `skill://` namespace:
    /// use it to route `resources/read` between skills and your own resources.
    pub fn handles(&self, uri: &str) -> bool {
        uri.get(..skills_core::uri::SCHEME.len())
            .is_some_and(|scheme| scheme.eq_ignore_ascii_case(skills_core::uri::SCHEME))
    }

    /// The snapshot every answer of one request comes from: take it once per
    /// request, so that a `replace` in between cannot mix two sets.
    fn snapshot(&self) -> Arc<Snapshot> {
        current(&self.shared)
    }

    /// What the caller of `context` may see of the current snapshot.
    fn request_view<'r>(&'r self, context: &'r RequestContext<RoleServer>) -> View<'r> {
        self.caller_view(Caller::from_mcp(context))
    }

    /// What `caller` may see of the current snapshot.
    fn caller_view<'r>(&'r self, caller: Caller<'r>) -> View<'r> {
        View::new(self.snapshot(), self.settings(), caller)
    }

    fn settings(&self) -> &Settings {
        &self.shared.settings
    }
}

/// The snapshot being served by `shared`.
fn current(shared: &Shared) -> Arc<Snapshot> {
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
