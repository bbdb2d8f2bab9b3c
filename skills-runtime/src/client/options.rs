//! What a caller chooses about downloads and syncs, and the progress it hears of.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::folder::{Action, State};

/// How long one request may take before it is abandoned.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How many reads may be in flight at once.
const DEFAULT_CONCURRENCY: usize = 8;

/// What happened, as it happens: for a progress bar.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Progress<'a> {
    /// The skills to fetch are known: how many files and bytes they hold.
    Planned {
        /// Skills to fetch.
        skills: usize,
        /// Their files.
        files: usize,
        /// Their bytes.
        bytes: u64,
    },
    /// One file was read and verified.
    Verified {
        /// The skill's path.
        skill: &'a str,
        /// The file's path inside it.
        file: &'a str,
        /// Its size.
        bytes: u64,
    },
    /// One skill is done.
    Done {
        /// The skill's name.
        skill: &'a str,
        /// What was found.
        state: State,
        /// What was done.
        action: Action,
    },
}

type Callback = Arc<dyn Fn(Progress<'_>) + Send + Sync>;

/// Choices about fetching and downloading one skill.
#[derive(Clone)]
#[non_exhaustive]
pub struct DownloadOptions {
    /// Refuse a skill whose `SKILL.md` breaks a rule of the Agent Skills
    /// specification (skills-core's rules). Without it such findings are
    /// reported and the skill is written. Integrity and path failures refuse
    /// either way.
    pub strict: bool,
    /// Overwrite a folder a user edited, or one no record knows.
    pub force: bool,
    /// Plan only: report what would be written, fetch no file, write nothing.
    pub dry_run: bool,
    /// Deadline of each request.
    pub timeout: Duration,
    /// Most reads in flight at once.
    pub concurrency: usize,
    progress: Option<Callback>,
}

impl Default for DownloadOptions {
    fn default() -> Self {
        Self {
            strict: false,
            force: false,
            dry_run: false,
            timeout: DEFAULT_TIMEOUT,
            concurrency: DEFAULT_CONCURRENCY,
            progress: None,
        }
    }
}

impl fmt::Debug for DownloadOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DownloadOptions")
            .field("strict", &self.strict)
            .field("force", &self.force)
            .field("dry_run", &self.dry_run)
            .field("timeout", &self.timeout)
            .field("concurrency", &self.concurrency)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl DownloadOptions {
    /// [`DownloadOptions::strict`].
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// [`DownloadOptions::force`].
    pub fn force(mut self, force: bool) -> Self {
        self.force = force;
        self
    }

    /// [`DownloadOptions::dry_run`].
    pub fn dry_run(mut self, dry_run: bool) -> Self {
        self.dry_run = dry_run;
        self
    }

    /// [`DownloadOptions::timeout`].
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// [`DownloadOptions::concurrency`] (at least 1).
    pub fn concurrency(mut self, concurrency: usize) -> Self {
        self.concurrency = concurrency.max(1);
        self
    }

    /// Calls `progress` as files are verified and skills are done.
    pub fn on_progress(mut self, progress: impl Fn(Progress<'_>) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(progress));
        self
    }

    pub(crate) fn report(&self, progress: Progress<'_>) {
        if let Some(callback) = &self.progress {
            callback(progress);
        }
    }
}

/// Choices about a sync: those of a download, and what to do with skills
/// that vanished from the server.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SyncOptions {
    /// Fetching, verifying and writing each skill.
    pub download: DownloadOptions,
    /// Remove skills this sync wrote earlier that the server no longer
    /// publishes (only when nobody edited them). On by default.
    pub remove_orphans: bool,
    /// Most bytes one sync fetches and writes, summed over the skills it
    /// writes (their declared sizes, each skill at most SEP-2640's 16 MiB):
    /// skills past it, in the listing's order, are refused before any of
    /// their files is read. [`DEFAULT_MAX_SYNC_BYTES`] by default.
    pub max_bytes: u64,
}

/// The default of [`SyncOptions::max_bytes`]: 1 GiB, 64 skills at SEP-2640's
/// largest. A server on the public internet that lists 10,000 skills of
/// 16 MiB would otherwise fill 160 GB of the host's disk.
pub const DEFAULT_MAX_SYNC_BYTES: u64 = 1 << 30;

impl Default for SyncOptions {
    fn default() -> Self {
        Self {
            download: DownloadOptions::default(),
            remove_orphans: true,
            max_bytes: DEFAULT_MAX_SYNC_BYTES,
        }
    }
}

impl SyncOptions {
    /// [`DownloadOptions::strict`].
    pub fn strict(mut self, strict: bool) -> Self {
        self.download.strict = strict;
        self
    }

    /// [`DownloadOptions::force`].
    pub fn force(mut self, force: bool) -> Self {
        self.download.force = force;
        self
    }

    /// [`DownloadOptions::dry_run`].
    pub fn dry_run(mut self, dry_run: bool) -> Self {
        self.download.dry_run = dry_run;
        self
    }

    /// [`DownloadOptions::timeout`].
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.download.timeout = timeout;
        self
    }

    /// [`DownloadOptions::concurrency`].
    pub fn concurrency(mut self, concurrency: usize) -> Self {
        self.download = self.download.concurrency(concurrency);
        self
    }

    /// [`SyncOptions::max_bytes`].
    pub fn max_bytes(mut self, bytes: u64) -> Self {
        self.max_bytes = bytes;
        self
    }

    /// [`SyncOptions::remove_orphans`].
    pub fn remove_orphans(mut self, remove: bool) -> Self {
        self.remove_orphans = remove;
        self
    }

    /// [`DownloadOptions::on_progress`].
    pub fn on_progress(mut self, progress: impl Fn(Progress<'_>) + Send + Sync + 'static) -> Self {
        self.download = self.download.on_progress(progress);
        self
    }
}
