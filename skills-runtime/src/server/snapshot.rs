//! One set and everything derived from it, built on first use and shared by
//! every request until [`replace`](super::SkillsServer::replace) swaps in
//! another snapshot. Every answer reads one snapshot, so nothing derived from
//! an old set outlives it and no cache needs invalidating.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock, PoisonError, RwLock};

use rmcp::model::{Resource, ResourceTemplate};

use super::settings::Settings;
use super::visible::{Owned, ViewCache, VisibleSet};
use super::wire;
use crate::{Digest, Skill, SkillFile, Skills};

pub(super) struct Snapshot {
    pub(super) skills: Skills,
    /// Each skill's SEP-2640 entry, built the first time a page or a
    /// `skills/get` needs it: a first page touches only its own skills.
    entries: Vec<OnceLock<rmcp::model::Skill>>,
    /// Each skill's resources in `resources/list` (its `SKILL.md`, its
    /// FastMCP manifest, its files when listed), in set order. A caller's
    /// listing is the runs of the skills it owns.
    listed: OnceLock<Vec<Vec<Resource>>>,
    /// Each skill's FastMCP file template, in set order.
    templates: OnceLock<Vec<ResourceTemplate>>,
    /// The view of a caller who owns every skill: every caller's, when no
    /// policy is set.
    everyone: OnceLock<Arc<VisibleSet>>,
    /// Views of callers who own only some skills, by what they own.
    pub(super) views: ViewCache,
    /// The view of a caller nothing is known about: what `get_info` (which
    /// rmcp asks on every `skills/*` request) and everything said to every
    /// caller alike are built for. Asked of the policy once per snapshot and
    /// again after each `refresh_views`.
    anonymous: RwLock<Option<Arc<VisibleSet>>>,
    /// Skills a policy answered `Locked` for although they are not gated,
    /// already logged (once per skill and snapshot).
    locked_not_gated: Box<[AtomicBool]>,
    /// Binary files already base64-encoded, by digest, when a budget is set
    /// (`blob_cache_bytes`; none by default): encoding a font on every read
    /// costs more CPU than copying the encoded text, but the cache holds
    /// 4/3 of every binary file read, on top of its bytes in the binary.
    /// Holds only what was read, and at most `blob_budget` bytes; past it,
    /// files are encoded on each read.
    blobs: RwLock<Blobs>,
    blob_budget: usize,
}

/// Binary files already base64-encoded, and how many bytes they take.
#[derive(Default)]
struct Blobs {
    by_digest: HashMap<Digest, Arc<str>>,
    held: usize,
}

impl Snapshot {
    pub(super) fn new(skills: Skills, blob_budget: usize) -> Self {
        Self {
            entries: (0..skills.len()).map(|_| OnceLock::new()).collect(),
            listed: OnceLock::new(),
            templates: OnceLock::new(),
            everyone: OnceLock::new(),
            views: ViewCache::default(),
            anonymous: RwLock::default(),
            locked_not_gated: (0..skills.len()).map(|_| AtomicBool::new(false)).collect(),
            skills,
            blobs: RwLock::default(),
            blob_budget,
        }
    }

    /// The SEP-2640 entry of the skill at `index` in `skills.skills()`.
    pub(super) fn entry(&self, index: usize) -> &rmcp::model::Skill {
        self.entries[index].get_or_init(|| wire::skill_entry(&self.skills.skills()[index]))
    }

    /// The resources `resources/list` shows for the skill at `index`.
    pub(super) fn listed(&self, index: usize, settings: &Settings) -> &[Resource] {
        let listed = self.listed.get_or_init(|| {
            self.skills
                .skills()
                .iter()
                .map(|skill| skill_resources(&self.skills, skill, settings))
                .collect()
        });
        &listed[index]
    }

    /// The FastMCP file template of the skill at `index`.
    pub(super) fn template(&self, index: usize) -> &ResourceTemplate {
        let templates = self.templates.get_or_init(|| {
            self.skills
                .skills()
                .iter()
                .map(wire::file_template)
                .collect()
        });
        &templates[index]
    }

    /// The view of a caller who owns every skill.
    pub(super) fn everyone(&self) -> Arc<VisibleSet> {
        self.everyone
            .get_or_init(|| Arc::new(VisibleSet::new(&self.skills, Owned::all(self.skills.len()))))
            .clone()
    }

    /// The view of a caller who owns `owned`, shared with every caller who
    /// owns the same skills.
    pub(super) fn view_of(&self, owned: Owned) -> Arc<VisibleSet> {
        self.views
            .get_or_insert(owned, |owned| VisibleSet::new(&self.skills, owned))
    }

    /// The view of a caller nothing is known about, built by `resolve` when
    /// it is not kept.
    pub(super) fn anonymous(&self, resolve: impl FnOnce() -> Arc<VisibleSet>) -> Arc<VisibleSet> {
        if let Some(view) = self
            .anonymous
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
        {
            return view.clone();
        }
        let view = resolve();
        *self
            .anonymous
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Some(view.clone());
        view
    }

    /// Forgets the anonymous view: the policy may answer otherwise now.
    pub(super) fn forget_anonymous(&self) {
        *self
            .anonymous
            .write()
            .unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// Logs, once per skill, that a policy locked a skill not declared gated
    /// (which is then served as absent).
    pub(super) fn locked_but_not_gated(&self, skill: &Skill) {
        let Some(index) = self.skills.position(skill.path()) else {
            return;
        };
        if !self.locked_not_gated[index].swap(true, Ordering::Relaxed) {
            tracing::warn!(
                skill = skill.path(),
                "the access policy answered Locked for a skill that is not declared gated; \
                 it is served as absent (declare it with `gated = [..]` to sell it)"
            );
        }
    }

    /// `file`'s bytes in base64, from the cache when it was read before
    /// (copied out of it: rmcp's `blob` is a `String`). Without a cache (the
    /// default), encoded into a string of the exact size, which the answer
    /// then owns: no copy, and nothing held between reads.
    pub(super) fn blob(&self, file: &SkillFile) -> String {
        if self.blob_budget == 0 {
            return wire::base64(file.bytes());
        }
        let digest = file.digest();
        if let Some(encoded) = self
            .blobs
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .by_digest
            .get(&digest)
        {
            return encoded.to_string();
        }
        let encoded = wire::base64(file.bytes());
        let mut blobs = self.blobs.write().unwrap_or_else(PoisonError::into_inner);
        if !blobs.by_digest.contains_key(&digest) && blobs.held + encoded.len() <= self.blob_budget
        {
            blobs.held += encoded.len();
            blobs.by_digest.insert(digest, encoded.as_str().into());
        }
        encoded
    }
}

/// What `resources/list` shows of `skill`: its `SKILL.md`, FastMCP's manifest
/// when that layer is on, and its own supporting files when they are listed.
fn skill_resources(skills: &Skills, skill: &Skill, settings: &Settings) -> Vec<Resource> {
    let mut resources = vec![wire::skill_md_resource(
        skill,
        settings.resource_description(skill),
    )];
    if settings.fastmcp && skill.file(crate::protocol::MANIFEST_SEGMENT).is_none() {
        resources.push(wire::manifest_resource(skill));
    }
    if settings.list_supporting_files {
        for file in skills.own_files_of(skill) {
            if file.path() != crate::SKILL_MD {
                resources.push(wire::file_resource(skill, file));
            }
        }
    }
    resources
}
