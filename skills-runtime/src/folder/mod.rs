//! The folder writer: puts skills into a folder on disk, one folder per
//! skill, and knows afterwards which of them it wrote.
//!
//! Two callers share it: the client's sync (skills downloaded from an MCP
//! server) and the installer (skills embedded in a binary, written into
//! agents' folders). Both hand it skills as [`SkillWrite`]s — a path, a
//! version and the files (path, bytes, digest, executable bit) — and get back
//! a [`Plan`]: what is there now ([`State`]), what will be done about it
//! ([`Action`]) and why. [`Plan::apply`] then does it; a dry run prints the
//! plan instead.
//!
//! ```
//! use skills_runtime::folder::{self, Action, FileWrite, WriteOptions, SkillWrite, State, Target};
//!
//! # let root = std::env::temp_dir().join(format!("folder-doc-{}", std::process::id()));
//! # let _ = std::fs::remove_dir_all(&root);
//! let skill_md = b"---\nname: pdf\ndescription: Fill PDF forms.\n---\n";
//! let files = [FileWrite::new("SKILL.md", skill_md.as_slice(), false)];
//! let pdf = SkillWrite::new("pdf", "pdf", "v1", files.clone());
//! let target = Target::new(&root, "my-tool");
//!
//! let plan = folder::plan(&target, [pdf.clone()], &WriteOptions::default())?;
//! assert_eq!(plan.items()[0].state, State::Missing);
//! assert!(plan.apply().iter().all(|item| item.error.is_none()));
//! assert_eq!(std::fs::read(root.join("pdf/SKILL.md"))?, skill_md);
//!
//! // A second run changes nothing.
//! let again = folder::plan(&target, [pdf], &WriteOptions::default())?;
//! assert_eq!(again.items()[0].state, State::UpToDate);
//! assert_eq!(again.items()[0].action, Action::None);
//! # std::fs::remove_dir_all(&root)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! What it guarantees:
//!
//! - **A record per skill, beside its files**: `<skill>/.skills-runtime.json`
//!   holds the writer (and, for a sync, the identity of its source as the
//!   host configured it), the version and each file's digest and executable
//!   bit. Nothing is added to `SKILL.md`, so every file stays byte-identical
//!   to its digest, and the record moves with the folder in the swap below.
//! - **States**: `missing` (no folder), `up-to-date`, `outdated` (ours, older
//!   version, or a file whose executable bit was lost: restored without
//!   force), `modified` (ours, but a file was edited, added or removed since
//!   we wrote it), `foreign` (a folder no record of
//!   this writer knows), `orphaned` (ours, no longer among the skills given).
//! - **Edits are kept**: a `modified` or `foreign` folder is left alone
//!   unless [`WriteOptions::force`]; an `orphaned` one is removed only when
//!   [`WriteOptions::remove_orphans`] asks and nobody edited it. A folder
//!   that is no skill's but groups skills (`team/` holding `team/pdf/`) is
//!   never replaced, even by force.
//! - **An atomic swap per skill**: the new folder is built in a hidden
//!   staging folder beside the target, then renamed into place; a
//!   half-written skill never appears under its name. Files that did not
//!   change are hard-linked into the new folder, so they keep their inode and
//!   modification time. The scratch folders (`.skills-runtime-staging-…`,
//!   `.skills-runtime-old-…`) are the writer's own: no skill may be written
//!   under such a name, and those a crashed run left behind (each a whole
//!   skill, which agents that scan hidden folders would load) are removed
//!   when a plan with its orphan search is applied, once `/proc` says their
//!   process is gone (Linux; elsewhere they are left).
//! - **What the plan saw is what is replaced**: applying a plan reads each
//!   folder it touches again; one that changed since it was planned (a
//!   user's edit, a folder another writer put where nothing was, a folder
//!   swapped for a link) is left as it is, and its item fails, however long
//!   the plan waited. A file linked into the new folder is the very file
//!   hashed (same device and inode).
//! - **Portable names**: skill and file paths pass
//!   [`skills_core::names::check_path`], no two of them (in one skill, across
//!   the skills given, or against what the folder already holds) differ only
//!   in case or Unicode normalization ([`skills_core::names::fold_case`]):
//!   such a skill is kept out, both names in its reason.
//! - **Never inside another skill**: a skill whose folder would lie inside
//!   another skill's (one given with it, or a folder on disk holding a
//!   `SKILL.md` or a record) is kept out: it would change that skill's files.
//! - **Never outside the target**: a symbolic link at or below the
//!   target (other than the target itself and the folders above it) is never
//!   followed: the skill is reported `foreign` and left alone.
//! - **`skill-embed`'s installs recognised**: a folder whose `SKILL.md`
//!   carries `skill-embed`'s `x-embedded-by` stamp naming this writer is
//!   this writer's: `outdated` while it still hashes to its
//!   `x-embedded-digest` (rewritten with a record, the stamp dropped),
//!   `modified` once edited; one no longer given is `orphaned` like ours.
//!
//! Reading the folder back hashes files, so the writer comes with the `load`
//! feature.

mod disk;
mod plan;
mod record;
mod stamped;

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;
use skills_core::{Digest, Skill};

#[cfg(feature = "client")]
pub(crate) use disk::{shown, shown_within};
#[cfg(feature = "client")]
pub(crate) use plan::plan_given;
pub use plan::{Plan, plan};
pub use record::RECORD_FILE;

/// One skill to write: where it goes, its version, and its files.
#[derive(Debug, Clone)]
pub struct SkillWrite<'a> {
    name: Cow<'a, str>,
    path: Cow<'a, str>,
    version: Cow<'a, str>,
    files: Vec<FileWrite<'a>>,
}

impl<'a> SkillWrite<'a> {
    /// A skill named `name` that goes at `path` (relative to the target,
    /// `/`-separated: `pdf`, `acme/billing/refunds`), at `version` (any
    /// string that changes when any file does; the SEP-2640 revision is a
    /// good one), with `files`.
    pub fn new(
        name: impl Into<Cow<'a, str>>,
        path: impl Into<Cow<'a, str>>,
        version: impl Into<Cow<'a, str>>,
        files: impl IntoIterator<Item = FileWrite<'a>>,
    ) -> Self {
        Self {
            name: name.into(),
            path: path.into(),
            version: version.into(),
            files: files.into_iter().collect(),
        }
    }

    /// An embedded (or loaded) skill at its own path, every file borrowed
    /// from the tables: nothing is copied or hashed.
    pub fn from_skill(skill: &'a Skill) -> Self {
        Self::new(
            skill.name(),
            skill.path(),
            skill.version(),
            skill.files().iter().map(|file| FileWrite {
                path: Cow::Borrowed(file.path()),
                bytes: Some(Cow::Borrowed(file.bytes())),
                digest: file.digest(),
                executable: file.is_executable(),
            }),
        )
    }

    /// The same skill, written at `path` instead (an installer flattens
    /// `kitchen/recipe-scaling` to `recipe-scaling`).
    pub fn at(mut self, path: impl Into<Cow<'a, str>>) -> Self {
        self.path = path.into();
        self
    }

    /// The skill's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where the skill goes, relative to the target.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The skill's version.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The skill's files.
    pub fn files(&self) -> &[FileWrite<'a>] {
        &self.files
    }
}

/// One file of a [`SkillWrite`].
#[derive(Debug, Clone)]
pub struct FileWrite<'a> {
    path: Cow<'a, str>,
    /// `None` for a file known by its digest only: enough to plan, never written.
    bytes: Option<Cow<'a, [u8]>>,
    digest: Digest,
    executable: bool,
}

impl<'a> FileWrite<'a> {
    /// A file at `path` inside its skill (`scripts/run.py`), hashing `bytes`.
    pub fn new(
        path: impl Into<Cow<'a, str>>,
        bytes: impl Into<Cow<'a, [u8]>>,
        executable: bool,
    ) -> Self {
        let bytes = bytes.into();
        let digest = skills_core::digest::of(&bytes);
        Self::with_digest(path, bytes, digest, executable)
    }

    /// A file whose digest the caller already has (from the tables, or
    /// verified against a server's manifest): `digest` must be the SHA-256 of
    /// `bytes`.
    pub fn with_digest(
        path: impl Into<Cow<'a, str>>,
        bytes: impl Into<Cow<'a, [u8]>>,
        digest: Digest,
        executable: bool,
    ) -> Self {
        Self {
            path: path.into(),
            bytes: Some(bytes.into()),
            digest,
            executable,
        }
    }

    /// A file known by its digest only: enough for [`plan`] to tell whether
    /// the folder is up to date before anything is downloaded. Applying a
    /// plan that would write it fails for that skill.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) fn digest_only(
        path: impl Into<Cow<'a, str>>,
        digest: Digest,
        executable: bool,
    ) -> Self {
        Self {
            path: path.into(),
            bytes: None,
            digest,
            executable,
        }
    }

    /// The path inside the skill.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The bytes (empty for a file known by its digest only).
    pub fn bytes(&self) -> &[u8] {
        self.bytes.as_deref().unwrap_or_default()
    }

    /// The SHA-256 of the bytes.
    pub fn digest(&self) -> Digest {
        self.digest
    }

    /// Whether the file is written executable.
    pub fn is_executable(&self) -> bool {
        self.executable
    }
}

/// The folder skills are written into, and who writes them.
#[derive(Debug, Clone)]
pub struct Target {
    root: PathBuf,
    writer: String,
    /// The writer's identity when it is not its name (a sync's source).
    source: Option<String>,
    /// Whether a record without a source naming `writer` is this writer's:
    /// true for a name the caller chose (an installer, a host's label), false
    /// for a source known by its URL or command line.
    adopts_unsourced: bool,
}

impl Target {
    /// Skills go into folders under `root` (created by the first write; symbolic
    /// links in `root` itself and above it are followed, as a dotfiles
    /// `~/.claude` link is). `writer` names who writes them (a tool's name,
    /// which the caller chooses, never one a peer sent): a folder whose record
    /// names another writer is `foreign`, and only this writer's skills can
    /// become `orphaned`.
    pub fn new(root: impl AsRef<Path>, writer: impl Into<String>) -> Self {
        Self {
            root: root.as_ref().to_path_buf(),
            writer: writer.into(),
            source: None,
            adopts_unsourced: true,
        }
    }

    /// A target written by a sync's source: `writer` for people, `source`
    /// (its identity) to tell it from other sources. A record without a
    /// source (format 1) is its own only when `adopts_unsourced` and the
    /// record names `writer`.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) fn sourced(
        root: impl AsRef<Path>,
        writer: impl Into<String>,
        source: impl Into<String>,
        adopts_unsourced: bool,
    ) -> Self {
        Self {
            root: root.as_ref().to_path_buf(),
            writer: writer.into(),
            source: Some(source.into()),
            adopts_unsourced,
        }
    }

    /// The folder skills go into.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Who writes them.
    pub fn writer(&self) -> &str {
        &self.writer
    }

    /// Whether `record` says this writer wrote its folder: the same source,
    /// or, for a record that names no source, the same name when this
    /// writer's name is its identity.
    pub(crate) fn owns(&self, record: &record::Record) -> bool {
        match (&record.source, &self.source) {
            (Some(theirs), Some(ours)) => theirs == ours,
            (Some(_), None) => false,
            (None, _) => self.adopts_unsourced && record.writer == self.writer,
        }
    }

    /// Whether a `skill-embed` install stamped with `by` is this writer's
    /// (an installer's, under the same name).
    pub(crate) fn owns_stamp(&self, by: &str) -> bool {
        self.source.is_none() && by == self.writer
    }
}

/// Choices about what [`plan`] may do. The default changes nothing a user
/// made or edited, and removes nothing.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct WriteOptions {
    /// Overwrite `modified` and `foreign` skills (never through a symbolic link).
    pub force: bool,
    /// Remove this writer's skills that are not among those given, unless a
    /// user edited them (`--force` does not change that: an orphan that was
    /// edited is always kept).
    pub remove_orphans: bool,
}

impl WriteOptions {
    /// [`WriteOptions::force`].
    pub fn force(mut self, force: bool) -> Self {
        self.force = force;
        self
    }

    /// [`WriteOptions::remove_orphans`].
    pub fn remove_orphans(mut self, remove: bool) -> Self {
        self.remove_orphans = remove;
        self
    }
}

/// What is in the target for one skill, before anything is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// No folder at the skill's path.
    Missing,
    /// Written by this writer, at this version, unedited.
    UpToDate,
    /// Written by this writer at another version, unedited; or at this
    /// version with a file whose executable bit changed since (an archive or
    /// a copy drops it): updating restores it.
    Outdated,
    /// Written by this writer, then edited: a file changed, was added or
    /// removed.
    Modified,
    /// A folder that no record of this writer knows (the user's own skill,
    /// another tool's, or a symbolic link).
    Foreign,
    /// Written by this writer, and no longer among the skills given.
    Orphaned,
}

impl State {
    /// The word reports use: `missing`, `up-to-date`, `outdated`,
    /// `modified`, `foreign`, `orphaned`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Missing => "missing",
            Self::UpToDate => "up-to-date",
            Self::Outdated => "outdated",
            Self::Modified => "modified",
            Self::Foreign => "foreign",
            Self::Orphaned => "orphaned",
        }
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What [`Plan::apply`] does about one skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Nothing: the skill is up to date.
    None,
    /// Write the skill where nothing was.
    Write,
    /// Replace the folder with the new version (only changed files move).
    Update,
    /// Remove the folder (an unedited orphan).
    Remove,
    /// Leave the folder as it is although it differs: an edit, a foreign
    /// folder or an edited orphan is kept. [`Planned::reason`] says why.
    Keep,
}

impl Action {
    /// The word reports use: `none`, `write`, `update`, `remove`, `keep`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Write => "write",
            Self::Update => "update",
            Self::Remove => "remove",
            Self::Keep => "keep",
        }
    }

    /// Whether the action changes the disk.
    pub fn writes(self) -> bool {
        matches!(self, Self::Write | Self::Update | Self::Remove)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which files differ, by path inside the skill.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Changes {
    /// Files the new version adds.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<String>,
    /// Files whose bytes or executable bit the new version changes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<String>,
    /// Files the new version no longer has.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    /// Files a user edited, added or removed since they were written (what
    /// makes a skill `modified`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub edited: Vec<String>,
}

impl Changes {
    /// Whether no file differs.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.changed.is_empty()
            && self.removed.is_empty()
            && self.edited.is_empty()
    }
}

/// One skill in a [`Plan`]: what is there, what will be done, and, after
/// [`Plan::apply`], whether it failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Planned {
    /// The skill's name.
    pub name: String,
    /// Its folder, relative to the target.
    pub path: String,
    /// The version given (the recorded one for an orphan).
    pub version: String,
    /// What is there now.
    pub state: State,
    /// What is (or would be) done.
    pub action: Action,
    /// Why a folder is kept, or why an action was chosen when the state alone
    /// does not say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Which files differ.
    #[serde(skip_serializing_if = "Changes::is_empty")]
    pub files: Changes,
    /// Set by [`Plan::apply`] when the action failed (the folder is then as
    /// it was).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Planned {
    /// Whether a user's edit or folder was kept instead of being replaced:
    /// what makes a run exit 1.
    pub fn kept_an_edit(&self) -> bool {
        self.action == Action::Keep
    }
}

/// One line: the name and reasons come from folders on disk, so whatever
/// a terminal would act on is escaped ([`skills_core::printable`]).
impl fmt::Display for Planned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = format!("{} {} ({})", self.name, self.state, self.action);
        if let Some(reason) = &self.reason {
            text.push_str(&format!(": {reason}"));
        }
        if let Some(error) = &self.error {
            text.push_str(&format!("; failed: {error}"));
        }
        f.write_str(&skills_core::printable(&text))
    }
}

/// Why no plan could be made at all (a single skill's problems are reported
/// in its [`Planned`] instead).
#[derive(Debug)]
#[non_exhaustive]
pub enum FolderError {
    /// The target cannot be created or read.
    Target {
        /// The target folder.
        root: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
    /// The task that writes into the target was cancelled before it ran (its
    /// runtime shut down): nothing was written.
    Interrupted {
        /// The target folder.
        root: PathBuf,
    },
}

impl fmt::Display for FolderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Interrupted { root } => write!(
                f,
                "{}: the write was cancelled before it started (the runtime is shutting down); nothing was written",
                root.display()
            ),
            Self::Target { root, error } => {
                write!(
                    f,
                    "{}: the target folder cannot be used: {error}",
                    root.display()
                )
            }
        }
    }
}

impl std::error::Error for FolderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Target { error, .. } => Some(error),
            Self::Interrupted { .. } => None,
        }
    }
}
