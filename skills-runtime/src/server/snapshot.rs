//! One set and everything derived from it, built on first use and shared by
//! every request until [`replace`](super::SkillsServer::replace) swaps in
//! another snapshot. Every answer reads one snapshot, so nothing derived from
//! an old set outlives it and no cache needs invalidating.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};

use rmcp::model::{Resource, Tool};

use super::wire;
use crate::{Digest, SkillFile, Skills};

pub(super) struct Snapshot {
    pub(super) skills: Skills,
    /// Each skill's SEP-2640 entry, built the first time a page or a
    /// `skills/get` needs it: a first page touches only its own skills.
    entries: Vec<OnceLock<rmcp::model::Skill>>,
    /// The last instructions built, with the author's text they follow:
    /// `get_info` asks for them on every request.
    pub(super) instructions: Mutex<Option<(Option<String>, String)>>,
    /// `resources/list` of the view every caller shares when no visibility
    /// rule applies.
    pub(super) resources: OnceLock<Vec<Resource>>,
    /// The fallback tool's definition, which names the skills.
    pub(super) tool: OnceLock<Option<Tool>>,
    /// Binary files already base64-encoded, by digest: encoding a font on
    /// every read costs more than copying the encoded text. Holds only what
    /// was read, so start-up memory is unchanged, and at most `blob_budget`
    /// bytes; past it, files are encoded on each read.
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
            skills,
            instructions: Mutex::new(None),
            resources: OnceLock::new(),
            tool: OnceLock::new(),
            blobs: RwLock::default(),
            blob_budget,
        }
    }

    /// The SEP-2640 entry of the skill at `index` in `skills.skills()`.
    pub(super) fn entry(&self, index: usize) -> &rmcp::model::Skill {
        self.entries[index].get_or_init(|| wire::skill_entry(&self.skills.skills()[index]))
    }

    /// `file`'s bytes in base64, from the cache when it was read before.
    pub(super) fn blob(&self, file: &SkillFile) -> Arc<str> {
        let digest = file.digest();
        if let Some(encoded) = self
            .blobs
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .by_digest
            .get(&digest)
        {
            return encoded.clone();
        }
        let encoded: Arc<str> = wire::base64(file.bytes()).into();
        let mut blobs = self.blobs.write().unwrap_or_else(PoisonError::into_inner);
        if let Some(raced) = blobs.by_digest.get(&digest) {
            return raced.clone();
        }
        if blobs.held + encoded.len() > self.blob_budget {
            return encoded;
        }
        blobs.held += encoded.len();
        blobs.by_digest.insert(digest, encoded.clone());
        encoded
    }
}
