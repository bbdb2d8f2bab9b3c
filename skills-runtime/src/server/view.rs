//! What one request may see: the snapshot it is answered from, filtered by
//! the caller's visibility, the fingerprint its cursors bind to, and the
//! cache hints its protocol era allows. Every request family reads the set
//! through a view and nothing else, so who-sees-what is decided here once.
//!
//! This is the seam for per-caller views: an access policy deciding, per
//! skill, what the caller gets replaces [`View::visible`]; a fingerprint of
//! what the caller sees replaces the set's in [`View::fingerprint`] (cursors
//! bind to it through `cursor::page`); caches keyed by that fingerprint
//! replace the one slot [`View::is_shared`] allows today; and a view built
//! from an HTTP request instead of an MCP context serves catalog routes from
//! the same snapshot.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{CacheScope, ProtocolVersion};
use rmcp::service::RequestContext;

use super::builder::Settings;
use super::snapshot::Snapshot;
use crate::{Skill, Skills};

/// Decides, per request, whether the caller may see a skill. It receives the
/// request context, whose `extensions` hold the HTTP request parts when the
/// server runs over streamable HTTP.
pub type Visibility = dyn Fn(&Skill, &RequestContext<RoleServer>) -> bool + Send + Sync;

pub(super) struct View<'r> {
    snapshot: Arc<Snapshot>,
    settings: &'r Settings,
    context: &'r RequestContext<RoleServer>,
}

impl<'r> View<'r> {
    pub(super) fn new(
        snapshot: Arc<Snapshot>,
        settings: &'r Settings,
        context: &'r RequestContext<RoleServer>,
    ) -> Self {
        Self {
            snapshot,
            settings,
            context,
        }
    }

    pub(super) fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }

    /// The whole set, hidden skills included: look a skill up here, then ask
    /// [`visible`](Self::visible) or [`may_read`](Self::may_read).
    pub(super) fn skills(&self) -> &Skills {
        &self.snapshot.skills
    }

    pub(super) fn settings(&self) -> &'r Settings {
        self.settings
    }

    /// Whether every caller gets this view: no rule is set, so answers built
    /// for one caller may be kept in the snapshot for all.
    pub(super) fn is_shared(&self) -> bool {
        self.settings.visibility.is_none()
    }

    /// The fingerprint this view's cursors are bound to. Every caller's view
    /// binds to the set's today; a view that depends on the caller would bind
    /// to the fingerprint of what it sees, so that a change it cannot see
    /// leaves its cursors valid.
    pub(super) fn fingerprint(&self) -> &str {
        self.snapshot.skills.fingerprint()
    }

    /// Whether the caller may see `skill`.
    pub(super) fn visible(&self, skill: &Skill) -> bool {
        self.settings
            .visibility
            .as_ref()
            .is_none_or(|visible| visible(skill, self.context))
    }

    /// The skills the caller may see, with their index in the set, in order.
    pub(super) fn visible_skills(&self) -> impl Iterator<Item = (usize, &Skill)> {
        self.skills()
            .skills()
            .iter()
            .enumerate()
            .filter(|(_, skill)| self.visible(skill))
    }

    /// Whether the caller may read the files `owner` holds: it sees `owner`,
    /// or a skill `owner` is nested in (which holds the same files).
    pub(super) fn may_read(&self, owner: &Skill) -> bool {
        if self.is_shared() {
            return true;
        }
        let mut folder = owner.path();
        loop {
            if self
                .skills()
                .get(folder)
                .is_some_and(|skill| self.visible(skill))
            {
                return true;
            }
            match folder.rsplit_once('/') {
                Some((parent, _)) => folder = parent,
                None => return false,
            }
        }
    }

    /// `ttlMs` and `cacheScope` for peers on 2026-07-28 or later only.
    pub(super) fn cache_hints(
        &self,
        ttl_ms: &mut Option<u64>,
        cache_scope: &mut Option<CacheScope>,
    ) {
        if self.is_modern() {
            *ttl_ms = Some(self.settings.ttl_ms);
            *cache_scope = Some(if self.is_shared() {
                CacheScope::Public
            } else {
                CacheScope::Private
            });
        }
    }

    /// Whether the caller negotiated 2026-07-28 or later (ISO dates compare as text).
    fn is_modern(&self) -> bool {
        self.context
            .protocol_version()
            .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
    }
}
