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
//! Every method takes the request context: the protocol era decides the
//! shape of the answer (`ttlMs`/`cacheScope` only on 2026-07-28), and a
//! [visibility](SkillsServerBuilder::visibility) rule can look at the HTTP
//! request of the caller. The set served can be swapped atomically at run
//! time with [`SkillsServer::replace`]; a server that [notifies
//! changes](SkillsServerBuilder::notify_changes) (every server that watches a
//! folder, feature `watch`) tells the clients that asked: 2025-11-25
//! `resources/subscribe` and 2026-07-28 `subscriptions/listen` streams, each
//! only about what its own view shows.
//!
//! [`Skills`]: crate::Skills

// How a request is answered, step by step: the server holds one `Snapshot`
// (the set and everything derived from it); each request takes a `View` of
// it (what this caller may see, the fingerprint its cursors bind to, the
// era's cache hints); the module of its family (`skills`, `resources`,
// `directory`, `completion`, `tool`) reads the view, pages through
// `cursor::page`, and converts to rmcp's model in `wire`. `info` answers what
// the server says of itself; `handler` plugs all of it into `ServerHandler`.

mod builder;
mod changes;
mod compat;
mod completion;
mod cursor;
mod directory;
mod handler;
mod info;
mod instructions;
mod malformed;
mod resources;
mod skills;
mod snapshot;
mod subscriptions;
mod tool;
mod view;
#[cfg(feature = "watch")]
mod watch;
mod wire;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use rmcp::RoleServer;
use rmcp::model::Implementation;
use rmcp::service::RequestContext;

pub use builder::SkillsServerBuilder;
pub use compat::{INDEX_SCHEMA, INDEX_URI, MANIFEST_SEGMENT, manifest_json};
pub use handler::WithSkills;
pub use instructions::DEFAULT_BUDGET as INSTRUCTIONS_BUDGET;
pub use view::Visibility;
#[cfg(feature = "watch")]
pub use watch::{DEBOUNCE, Reload, Reloads, WatchError, WatchHandle};
pub use wire::{EXECUTABLE_META_KEY, frontmatter, skill_entry};

use crate::Skills;
use builder::Settings;
use changes::Listeners;
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
    /// The clients to tell, and what each asked to hear about.
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

    /// Serves `skills` from now on; requests in flight finish on the old set.
    /// Returns whether the set changed (the fingerprints differ).
    ///
    /// When the server [notifies changes](SkillsServerBuilder::notify_changes)
    /// (or [watches a folder](Self::watch)), the clients that asked are told:
    /// each listen stream whose view changed gets
    /// `notifications/resources/list_changed`, and each subscriber of a file
    /// whose bytes changed (or that appeared or vanished) gets
    /// `notifications/resources/updated`.
    pub fn replace(&self, skills: Skills) -> bool {
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
            self.shared
                .listeners
                .announce(&previous, &snapshot, self.settings());
        }
        changed
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
        self.shared
            .current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// What the caller of `context` may see of the current snapshot.
    fn view<'r>(&'r self, context: &'r RequestContext<RoleServer>) -> View<'r> {
        View::new(self.snapshot(), self.settings(), context)
    }

    fn settings(&self) -> &Settings {
        &self.shared.settings
    }
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
