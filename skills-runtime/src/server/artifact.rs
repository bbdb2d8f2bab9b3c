//! Each skill's artifact in the well-known skills index (its lone `SKILL.md`,
//! or its folder as a deterministic `.tar.gz`), built once per snapshot and
//! held by it, so that every replica of one build serves the same bytes.

use axum::body::Bytes;

use crate::Skill;
use crate::protocol::{ARCHIVE_MTIME, ARCHIVE_SUFFIX, TYPE_ARCHIVE, TYPE_SKILL_MD};

/// What a skill is served as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    SkillMd,
    Archive,
}

/// One skill's artifact: its bytes, built once per snapshot, and their digest.
#[derive(Debug)]
pub(crate) struct Artifact {
    pub(crate) kind: Kind,
    bytes: Bytes,
    digest: String,
}

impl Artifact {
    /// The artifact of `skill`: its `SKILL.md` when that is its only file
    /// (and not executable), else the archive of its folder; `None` (logged)
    /// when the archive cannot be written, which only a path `tar` cannot
    /// store would cause.
    pub(crate) fn of(skill: &Skill) -> Option<Artifact> {
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
    pub(crate) fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// `sha256:<hex>` of [`bytes`](Self::bytes).
    pub(crate) fn digest(&self) -> &str {
        &self.digest
    }

    pub(crate) fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::SkillMd => TYPE_SKILL_MD,
            Kind::Archive => TYPE_ARCHIVE,
        }
    }

    /// The artifact's URL relative to the index.
    pub(crate) fn url(&self, skill: &Skill) -> String {
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
