//! The client side: discover, verify, download and sync the skills an MCP
//! server publishes, through rmcp's client (feature `client`).
//!
//! [`SkillsPeerExt`] adds four methods to `rmcp::Peer<RoleClient>` (and so to
//! a `RunningService` from [`transport::connect`]):
//!
//! - [`discover_skills`](SkillsPeerExt::discover_skills): one
//!   [`SkillSummary`] per skill, from SEP-2640 `skills/list` (every page)
//!   when the server declares the extension, otherwise from the pre-SEP
//!   layout (`skill://…/SKILL.md` in `resources/list`, as FastMCP's legacy
//!   provider and SkillsDotNet serve it). Only listing requests are sent.
//! - [`skill_manifest`](SkillsPeerExt::skill_manifest): the files (path,
//!   URI, size, digest), version and executable paths of one skill, from
//!   `skills/get` or from FastMCP's `_manifest`.
//! - [`download_skill`](SkillsPeerExt::download_skill) and
//!   [`sync_skills`](SkillsPeerExt::sync_skills): every file read, checked
//!   against the manifest (size, digest, one content item echoing the URI,
//!   nothing unlisted, portable paths inside the skill), the manifest asked
//!   again, the `SKILL.md` frontmatter compared field by field with what was
//!   advertised — all before anything is written. Then the
//!   [folder writer](crate::folder) writes each skill with an atomic swap and
//!   a record, so a second sync changes nothing and a user's edit is kept.
//!
//! ```no_run
//! use skills_runtime::client::{SkillSource, SkillsPeerExt as _, SyncOptions, transport};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! // Who the folders are written for: what the host configured, never the
//! // name the server gives itself.
//! let source = SkillSource::command("my-skills-server", ["--stdio"]);
//! let server = transport::ChildProcess::spawn("my-skills-server", ["--stdio"])?;
//! let client = transport::connect(server).await?;
//! for skill in client.discover_skills().await? {
//!     println!("{}: {}", skill.name, skill.description);
//! }
//! let options = SyncOptions::default();
//! let report = client.sync_skills("skills".as_ref(), &source, &options).await?;
//! println!("{}", serde_json::to_string_pretty(&report)?);
//! # Ok(()) }
//! ```
//!
//! [`HostCatalog`] is the other half: a framework-agnostic catalog that
//! turns skills from several servers into context blocks (within a
//! [`ContextBudget`]) and `load_skill`/`unload_skill` tools for an LLM host,
//! loading nothing until the host approved a skill's exact file set
//! ([`HostCatalog::on_approval`], [`ApprovalRecord`]).

mod approval;
mod ask;
mod blob;
mod catalog;
mod discover;
mod error;
mod fetch;
mod manifest;
mod options;
#[cfg(feature = "rig")]
pub mod rig;
mod source;
mod sync;
pub mod transport;

use std::future::Future;
use std::path::Path;

use rmcp::RoleClient;
use rmcp::service::Peer;

pub use approval::{
    ApprovalFile, ApprovalRecord, ApprovalRequest, ApprovalState, ChangedFile, PreviousDecision,
    RecordedDecision,
};
pub use catalog::{
    CallOutcome, CatalogContext, CatalogFollower, ContextBudget, DEFAULT_DESCRIPTION_CHARS,
    DependencyRequest, HostCatalog, LOAD_SKILL, MIN_DESCRIPTION_CHARS, RefusedSkill, SkillEntry,
    ToolCall, ToolDefinition, UNLOAD_SKILL, UnloadedSkill,
};
pub use discover::{SkillSummary, Source};
pub use error::ClientError;
pub use fetch::{FetchedFile, FetchedSkill};
pub use manifest::{ManifestFile, SkillManifest};
pub use options::{DEFAULT_MAX_SYNC_BYTES, DownloadOptions, Progress, SyncOptions};
pub use source::SkillSource;
pub use sync::{SyncReport, SyncedSkill};

/// Skills methods on an rmcp client peer. None of them shadows rmcp's own
/// `list_skills`, `list_all_skills`, `get_skill` or `read_resource_directory`,
/// which they call.
pub trait SkillsPeerExt {
    /// One summary per skill the server publishes; sends only listing requests.
    fn discover_skills(
        &self,
    ) -> impl Future<Output = Result<Vec<SkillSummary>, ClientError>> + Send;

    /// The manifest of the skill named `name_or_uri` (a frontmatter name,
    /// a skill path such as `kitchen/recipe-scaling`, or a `SKILL.md` URI).
    fn skill_manifest(
        &self,
        name_or_uri: &str,
    ) -> impl Future<Output = Result<SkillManifest, ClientError>> + Send;

    /// Reads every file of one skill into memory and verifies it (see the
    /// module docs); nothing is written.
    fn fetch_skill(
        &self,
        name_or_uri: &str,
        options: &DownloadOptions,
    ) -> impl Future<Output = Result<FetchedSkill, ClientError>> + Send;

    /// Fetches and verifies one skill, then writes it at
    /// `<folder>/<skill path>/` with the folder writer, recorded as
    /// `source`'s (what the host configured: see [`SkillSource`]).
    fn download_skill(
        &self,
        name_or_uri: &str,
        folder: &Path,
        source: &SkillSource,
        options: &DownloadOptions,
    ) -> impl Future<Output = Result<SyncedSkill, ClientError>> + Send;

    /// Makes `folder` hold every skill the server publishes, as `source`'s
    /// (what the host configured: see [`SkillSource`]): missing and outdated
    /// skills are fetched, verified and written, each as soon as it is
    /// verified; up-to-date ones are not even read; edited ones, and folders
    /// another source wrote, are kept (unless forced); skills this source
    /// wrote that the server no longer publishes are removed when unedited.
    fn sync_skills(
        &self,
        folder: &Path,
        source: &SkillSource,
        options: &SyncOptions,
    ) -> impl Future<Output = Result<SyncReport, ClientError>> + Send;
}

impl SkillsPeerExt for Peer<RoleClient> {
    async fn discover_skills(&self) -> Result<Vec<SkillSummary>, ClientError> {
        discover::discover(self, options::DEFAULT_TIMEOUT).await
    }

    async fn skill_manifest(&self, name_or_uri: &str) -> Result<SkillManifest, ClientError> {
        let summary = discover::resolve(self, name_or_uri, options::DEFAULT_TIMEOUT).await?;
        manifest::ask_manifest(self, &summary, options::DEFAULT_TIMEOUT).await
    }

    async fn fetch_skill(
        &self,
        name_or_uri: &str,
        options: &DownloadOptions,
    ) -> Result<FetchedSkill, ClientError> {
        let summary = discover::resolve(self, name_or_uri, options.timeout).await?;
        fetch::fetch(self, &summary, options).await
    }

    async fn download_skill(
        &self,
        name_or_uri: &str,
        folder: &Path,
        source: &SkillSource,
        options: &DownloadOptions,
    ) -> Result<SyncedSkill, ClientError> {
        sync::download(self, name_or_uri, folder, source, options).await
    }

    async fn sync_skills(
        &self,
        folder: &Path,
        source: &SkillSource,
        options: &SyncOptions,
    ) -> Result<SyncReport, ClientError> {
        sync::sync(self, folder, source, options).await
    }
}
