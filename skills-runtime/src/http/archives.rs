//! Each skill's artifact in the well-known skills index (its lone `SKILL.md`,
//! or its folder as a deterministic `.tar.gz`), so that every replica of one
//! build serves the same bytes.
//!
//! Archives are built once per snapshot, the first time the index or the
//! archive is asked for, on Tokio's blocking threads (compressing a large
//! skill takes a while, and an async worker that did it would stall every
//! request it holds). Concurrent first requests wait for the one build
//! without holding a worker; a `replace()` starts a new set of builds for
//! the new snapshot.

use std::sync::{Arc, Mutex, PoisonError};

use axum::body::Bytes;
use tokio::sync::OnceCell;

use crate::Skill;
use crate::protocol::{ARCHIVE_MTIME, ARCHIVE_SUFFIX, TYPE_ARCHIVE, TYPE_SKILL_MD};
use crate::server::{SkillsView, SnapshotKey};

/// The artifacts of one snapshot, each built on first use.
struct Built {
    snapshot: SnapshotKey,
    artifacts: Box<[OnceCell<Option<Arc<Artifact>>>]>,
}

/// The artifacts of the snapshot served last; a router holds one.
#[derive(Clone, Default)]
pub(super) struct Archives {
    current: Arc<Mutex<Option<Arc<Built>>>>,
}

impl Archives {
    /// The artifact of `skill` (one the caller of `view` owns), built once
    /// per snapshot off the async workers.
    pub(super) async fn of(&self, view: &SkillsView, skill: &Skill) -> Option<Arc<Artifact>> {
        let index = view.owned_position(skill)?;
        let built = self.built(view);
        let cell = built.artifacts.get(index)?;
        cell.get_or_init(|| async {
            let view = view.clone();
            let built = tokio::task::spawn_blocking(move || {
                view.skill_at(index).and_then(Artifact::of).map(Arc::new)
            })
            .await;
            built.unwrap_or_else(|error| {
                tracing::error!(%error, "building a skill's archive failed");
                None
            })
        })
        .await
        .clone()
    }

    /// The artifacts of `view`'s snapshot, a new set when it is not the
    /// one served last.
    fn built(&self, view: &SkillsView) -> Arc<Built> {
        let mut current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
        match &*current {
            Some(built) if built.snapshot.is_of(view) => built.clone(),
            _ => {
                let built = Arc::new(Built {
                    snapshot: view.snapshot_key(),
                    artifacts: (0..view.set_len()).map(|_| OnceCell::new()).collect(),
                });
                *current = Some(built.clone());
                built
            }
        }
    }
}

/// What a skill is served as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    SkillMd,
    Archive,
}

/// One skill's artifact: its bytes, built once per snapshot, and their digest.
#[derive(Debug)]
pub(super) struct Artifact {
    pub(super) kind: Kind,
    bytes: Bytes,
    digest: String,
}

impl Artifact {
    /// The artifact of `skill`: its `SKILL.md` when that is its only file
    /// (and not executable), else the archive of its folder; `None` (logged)
    /// when the archive cannot be written, which only a path `tar` cannot
    /// store would cause.
    pub(super) fn of(skill: &Skill) -> Option<Artifact> {
        let files = skill.files();
        if let [only] = files
            && only.path() == crate::SKILL_MD
            && !only.is_executable()
        {
            // Embedded text is served from the binary itself, with no copy.
            let bytes = match only.static_text() {
                Some(std::borrow::Cow::Borrowed(text)) => Bytes::from_static(text.as_bytes()),
                Some(std::borrow::Cow::Owned(text)) => Bytes::from(text.into_bytes()),
                None => Bytes::copy_from_slice(only.bytes()),
            };
            return Some(Artifact {
                kind: Kind::SkillMd,
                bytes,
                digest: only.digest().to_string(),
            });
        }
        match tar_gz(skill) {
            Ok(bytes) => Some(Artifact {
                kind: Kind::Archive,
                digest: rmcp::model::sha256_digest(&bytes),
                bytes: Bytes::from(bytes),
            }),
            Err(error) => {
                tracing::warn!(
                    skill = skill.path(),
                    %error,
                    "the skill's folder cannot be archived; it is left out of the well-known index"
                );
                None
            }
        }
    }

    /// The bytes served at the artifact's URL.
    pub(super) fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// `sha256:<hex>` of [`bytes`](Self::bytes).
    pub(super) fn digest(&self) -> &str {
        &self.digest
    }

    pub(super) fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::SkillMd => TYPE_SKILL_MD,
            Kind::Archive => TYPE_ARCHIVE,
        }
    }

    /// The artifact's URL relative to the index.
    pub(super) fn url(&self, skill: &Skill) -> String {
        match self.kind {
            Kind::SkillMd => format!("{}/{}", skill.name(), crate::SKILL_MD),
            Kind::Archive => format!("{}{ARCHIVE_SUFFIX}", skill.name()),
        }
    }
}

/// The skill's folder as a `.tar.gz`: every file (nested skills' included)
/// in path order, as ustar entries with fixed times and owners and the
/// recorded executable bit; no directory entries; a gzip header without a
/// time or a name.
fn tar_gz(skill: &Skill) -> std::io::Result<Vec<u8>> {
    let gzip = flate2::GzBuilder::new().mtime(0).write(
        Vec::with_capacity(usize::try_from(skill.total_size() / 2).unwrap_or(0)),
        flate2::Compression::default(),
    );
    let mut tar = tar::Builder::new(gzip);
    let mut files: Vec<_> = skill.files().iter().collect();
    files.sort_by(|a, b| a.path().cmp(b.path()));
    for file in files {
        let mut header = tar::Header::new_ustar();
        header.set_entry_type(tar::EntryType::Regular);
        header.set_size(file.size());
        header.set_mode(if file.is_executable() { 0o755 } else { 0o644 });
        header.set_mtime(ARCHIVE_MTIME);
        header.set_uid(0);
        header.set_gid(0);
        header.set_username("")?;
        header.set_groupname("")?;
        tar.append_data(&mut header, file.path(), file.bytes())?;
    }
    tar.into_inner()?.finish()
}
