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
//! shape of the answer (`ttlMs`/`cacheScope` only on 2026-07-28), and an
//! [access policy](SkillsServerBuilder::access) decides, per [`Caller`],
//! which skills are owned, locked (a teaser with an offer, on catalog
//! routes) or absent. Plain HTTP routes get the same caller's view of the
//! same snapshot through [`SkillsServer::view_for`]. The set served can be
//! swapped atomically at run time with [`SkillsServer::replace`]; each
//! session whose view changed is told.
//!
//! [`Skills`]: crate::Skills

// How a request is answered, step by step: the server holds one `Snapshot`
// (the set and everything derived from it); each request takes a `View` of
// it for its `Caller` (`access`: what the policy gives this caller; the
// fingerprint its cursors bind to; the era's cache hints), whose owned set
// is shared by every caller owning the same skills (`visible`); the module
// of its family (`skills`, `resources`, `directory`, `completion`, `tool`)
// reads the view, pages through `cursor::page`, and converts to rmcp's model
// in `wire`. `info` answers what the server says of itself; `catalog` is the
// same view for plain HTTP routes; `sessions` tells each session when its
// view changes; `handler` plugs all of it into `ServerHandler`.

mod access;
mod builder;
mod catalog;
mod compat;
mod completion;
mod cursor;
mod directory;
mod handler;
mod info;
mod instructions;
mod malformed;
mod resources;
mod sessions;
mod skills;
mod snapshot;
mod tool;
mod view;
mod visible;
mod wire;

use std::sync::{Arc, PoisonError, RwLock};

use rmcp::RoleServer;
use rmcp::model::Implementation;
use rmcp::service::RequestContext;

pub use access::{Access, AccessPolicy, Caller, Offer};
pub use builder::SkillsServerBuilder;
pub use catalog::SkillsView;
pub use compat::{INDEX_SCHEMA, INDEX_URI, MANIFEST_SEGMENT, manifest_json};
pub use handler::WithSkills;
pub use instructions::DEFAULT_BUDGET as INSTRUCTIONS_BUDGET;
pub use sessions::ViewChanges;
pub use view::Visibility;
pub use wire::{EXECUTABLE_META_KEY, VERSION_META_KEY, frontmatter, skill_entry};

use crate::{Report, Skills};
use builder::Settings;
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
    /// Who is told when their view changes.
    sessions: Sessions,
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
    /// old set. Every initialized session (and every
    /// [`watch_view`](Self::watch_view)) whose view changed is told
    /// (`notifications/resources/list_changed`); one that cannot see what
    /// changed is not. Returns whether the set's fingerprint changed. A set
    /// the check refuses is not served: the old one stays, the report is
    /// logged, and this returns `false`.
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
        let changed = {
            let mut current = self
                .shared
                .current
                .write()
                .unwrap_or_else(PoisonError::into_inner);
            let changed = current.skills.fingerprint() != snapshot.skills.fingerprint();
            *current = snapshot;
            changed
        };
        if changed {
            self.refresh_views();
        }
        Ok(changed)
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

impl std::fmt::Debug for SkillsServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let snapshot = self.snapshot();
        f.debug_struct("SkillsServer")
            .field("skills", &snapshot.skills.len())
            .field("fingerprint", &snapshot.skills.fingerprint())
            .finish_non_exhaustive()
    }
}
