//! What one request may see: the snapshot it is answered from, filtered by
//! the caller's access, the fingerprint its cursors bind to, and the cache
//! hints its protocol era allows. Every request family reads the set through
//! a view and nothing else, so who-sees-what is decided here once.
//!
//! A view asks the policy lazily: a read asks about the skill that holds the
//! file (and the skills it is nested in); a listing, a cursor or a
//! fingerprint asks about every skill once, then shares the result with every
//! caller who owns the same skills ([`VisibleSet`]).

use std::cell::OnceCell;
use std::sync::Arc;

use rmcp::model::{CacheScope, ProtocolVersion};

use super::Offer;
use super::access::{Access, Caller, Rule};
use super::settings::Settings;
use super::snapshot::Snapshot;
use super::visible::{Owned, VisibleSet};
use crate::{Skill, Skills};

pub(super) struct View<'r> {
    snapshot: Arc<Snapshot>,
    settings: &'r Settings,
    caller: Caller<'r>,
    visible: OnceCell<Arc<VisibleSet>>,
}

impl<'r> View<'r> {
    pub(super) fn new(snapshot: Arc<Snapshot>, settings: &'r Settings, caller: Caller<'r>) -> Self {
        Self {
            snapshot,
            settings,
            caller,
            visible: OnceCell::new(),
        }
    }

    pub(super) fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }

    /// The whole set, skills the caller may not see included: look a skill
    /// up here, then ask [`owns`](Self::owns) or [`may_read`](Self::may_read).
    pub(super) fn skills(&self) -> &Skills {
        &self.snapshot.skills
    }

    pub(super) fn settings(&self) -> &'r Settings {
        self.settings
    }

    /// Whether every caller gets this view: no policy is set, so answers
    /// may be cached for everyone (`cacheScope: public`).
    pub(super) fn is_shared(&self) -> bool {
        self.settings.rule.is_everyone()
    }

    /// What the caller gets of `skill`, a skill of this view's set.
    pub(super) fn access(&self, skill: &Skill) -> Access {
        access(&self.snapshot, &self.settings.rule, &self.caller, skill)
    }

    /// Whether the caller owns `skill`: it is listed, and its files read.
    pub(super) fn owns(&self, skill: &Skill) -> bool {
        match self.visible.get() {
            Some(visible) => self
                .skills()
                .position(skill.path())
                .is_some_and(|index| visible.owns(index)),
            None => matches!(self.access(skill), Access::Owned),
        }
    }

    /// The skills the caller owns, and what depends on them alone; the first
    /// call asks the policy about every skill.
    pub(super) fn visible(&self) -> &Arc<VisibleSet> {
        self.visible.get_or_init(|| {
            let resolve = || resolve(&self.snapshot, &self.settings.rule, &self.caller, |_, _| {});
            if self.caller.is_anonymous() {
                self.snapshot.anonymous(resolve)
            } else {
                resolve()
            }
        })
    }

    /// The fingerprint this view's cursors are bound to: that of the skills
    /// the caller owns, so a change it cannot see leaves its cursors valid.
    pub(super) fn fingerprint(&self) -> &str {
        self.visible().fingerprint()
    }

    /// The skills the caller owns, with their index in the set, in order.
    pub(super) fn owned_skills(&self) -> impl Iterator<Item = (usize, &Skill)> {
        let skills = self.skills().skills();
        self.visible()
            .indices()
            .iter()
            .map(move |&index| (index, &skills[index]))
    }

    /// Whether the caller may read the files `owner` holds: it owns `owner`,
    /// or a skill `owner` is nested in (which holds the same files).
    pub(super) fn may_read(&self, owner: &Skill) -> bool {
        self.is_shared() || readable_through(self.skills(), owner, |skill| self.owns(skill))
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
        self.caller
            .mcp()
            .and_then(|context| context.protocol_version())
            .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
    }
}

/// What `caller` gets of `skill` under `rule`: the policy's answer, but a
/// skill not declared gated is never locked (it is absent, and logged once).
pub(super) fn access(
    snapshot: &Snapshot,
    rule: &Rule,
    caller: &Caller<'_>,
    skill: &Skill,
) -> Access {
    match rule {
        Rule::Everyone => Access::Owned,
        Rule::Policy(policy) => match policy(skill, caller) {
            Access::Locked(_) if !skill.is_gated() => {
                snapshot.locked_but_not_gated(skill);
                Access::Absent
            }
            access => access,
        },
    }
}

/// The view of `caller`: asks the policy about every skill once, hands each
/// locked skill's offer to `locked`, and shares the result with every caller
/// who owns the same skills.
pub(super) fn resolve(
    snapshot: &Snapshot,
    rule: &Rule,
    caller: &Caller<'_>,
    mut locked: impl FnMut(usize, Offer),
) -> Arc<VisibleSet> {
    if rule.is_everyone() {
        return snapshot.everyone();
    }
    let skills = snapshot.skills.skills();
    let mut owned = Owned::none(skills.len());
    for (index, skill) in skills.iter().enumerate() {
        match access(snapshot, rule, caller, skill) {
            Access::Owned => owned.insert(index),
            Access::Locked(offer) => locked(index, offer),
            Access::Absent => {}
        }
    }
    snapshot.view_of(owned)
}

/// Whether `owner`'s files are readable: `owns` it, or a skill it is nested
/// in (found by walking up its folders, never by scanning the set).
pub(super) fn readable_through(
    skills: &Skills,
    owner: &Skill,
    owns: impl Fn(&Skill) -> bool,
) -> bool {
    let mut folder = owner.path();
    loop {
        if skills.get(folder).is_some_and(&owns) {
            return true;
        }
        match folder.rsplit_once('/') {
            Some((parent, _)) => folder = parent,
            None => return false,
        }
    }
}
