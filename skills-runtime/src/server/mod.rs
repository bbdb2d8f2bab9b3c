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
//! time with [`SkillsServer::replace`].
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
mod tool;
mod view;
mod wire;

use std::sync::{Arc, PoisonError, RwLock};

use rmcp::RoleServer;
use rmcp::model::Implementation;
use rmcp::service::RequestContext;

pub use builder::SkillsServerBuilder;
pub use compat::{INDEX_SCHEMA, INDEX_URI, MANIFEST_SEGMENT, manifest_json};
#[doc(hidden)]
pub use cursor::fuzzing as cursor_fuzzing;
pub use handler::WithSkills;
pub use instructions::DEFAULT_BUDGET as INSTRUCTIONS_BUDGET;
pub use view::Visibility;
pub use wire::{EXECUTABLE_META_KEY, frontmatter, skill_entry};

use crate::Skills;
use builder::Settings;
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
    /// Returns whether anything a client sees changed (the fingerprints differ),
    /// so the caller can send `notifications/resources/list_changed`.
    pub fn replace(&self, skills: Skills) -> bool {
        let snapshot = Arc::new(Snapshot::new(skills, self.settings().blob_cache_bytes));
        let mut current = self
            .shared
            .current
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let changed = current.skills.fingerprint() != snapshot.skills.fingerprint();
        *current = snapshot;
        changed
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
