//! Download and sync: fetch and verify in memory, then hand the skills to
//! the folder writer. Up-to-date skills are found by their digests before
//! anything is read, so a second sync reads no file and writes nothing.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use futures::StreamExt as _;
use rmcp::RoleClient;
use rmcp::service::Peer;
use serde::Serialize;

use super::discover::{self, SkillSummary, Source};
use super::fetch::{self, FetchedSkill};
use super::manifest::{self, SkillManifest};
use super::options::Progress;
use super::{ClientError, DownloadOptions, SyncOptions};
use crate::folder::{self, Action, Changes, FileWrite, Planned, SkillWrite, State, Target};

/// What happened to one skill in a download or a sync.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct SyncedSkill {
    /// The skill's name.
    pub name: String,
    /// Its folder, relative to the sync's folder (its skill path).
    pub path: String,
    /// Its `SKILL.md` URI (none for an orphan: the server no longer has it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
    /// The server's version (the recorded one for an orphan).
    pub version: String,
    /// What was in the folder: `missing`, `up-to-date`, `outdated`,
    /// `modified`, `foreign` or `orphaned`.
    pub state: State,
    /// What was done (or, in a dry run, would be).
    pub action: Action,
    /// How the server published it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// The skill whose folder holds this one, for a skill nested inside
    /// another: it is written (and recorded) as part of that folder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part_of: Option<String>,
    /// Why a folder was kept or an action chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Which files differ.
    #[serde(skip_serializing_if = "Changes::is_empty")]
    pub files: Changes,
    /// Rules of the Agent Skills specification the skill breaks (reported,
    /// not refused, unless strict).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub findings: Option<String>,
    /// Why the skill was refused or failed; the folder is then as it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Whether the error is a verification failure (bytes, frontmatter,
    /// paths, versions) rather than a transport or disk failure.
    #[serde(skip)]
    pub refused: bool,
}

impl SyncedSkill {
    fn from_planned(item: Planned) -> Self {
        Self {
            name: item.name,
            path: item.path,
            uri: None,
            version: item.version,
            state: item.state,
            action: item.action,
            source: None,
            part_of: None,
            reason: item.reason,
            files: item.files,
            findings: None,
            error: item.error,
            refused: false,
        }
    }

    /// A skill refused before its folder was looked at: its own URI names no
    /// safe place. Its state is `missing` (nothing was read there).
    fn misplaced(summary: &SkillSummary, error: &ClientError) -> Self {
        let mut item = Self {
            name: summary.name.clone(),
            path: summary.path.clone(),
            uri: Some(summary.uri.clone()),
            version: String::new(),
            state: State::Missing,
            action: Action::None,
            source: Some(summary.source),
            part_of: None,
            reason: None,
            files: Changes::default(),
            findings: None,
            error: None,
            refused: false,
        };
        item.failed(error);
        item
    }

    fn failed(&mut self, error: &ClientError) {
        self.action = Action::None;
        self.refused = error.is_verification();
        self.error = Some(error.to_string());
    }
}

impl fmt::Display for SyncedSkill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ({})", self.path, self.state, self.action)?;
        if let Some(parent) = &self.part_of {
            write!(f, ", inside {parent}")?;
        }
        if let Some(reason) = &self.reason {
            write!(f, ": {reason}")?;
        }
        if let Some(error) = &self.error {
            write!(f, "; {error}")?;
        }
        Ok(())
    }
}

/// The result of [`download_skill`](super::SkillsPeerExt::download_skill).
pub type DownloadReport = SyncedSkill;

/// The result of a sync: one item per skill, in path order. Serialises as
/// one JSON object with a `skills` array; prints as one line per skill.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct SyncReport {
    /// The server's name.
    pub server: String,
    /// The folder synced into.
    pub folder: PathBuf,
    /// Whether nothing was fetched or written (a dry run).
    pub dry_run: bool,
    /// One item per skill the server publishes, then the orphans.
    pub skills: Vec<SyncedSkill>,
}

impl SyncReport {
    /// The exit status `../shared/conventions.md` asks for: 0 when every
    /// skill is in place and nothing was refused; 1 when a skill did not
    /// verify or a user's edit (or folder) was kept; 2 when a request or a
    /// write failed.
    pub fn exit_code(&self) -> i32 {
        if self
            .skills
            .iter()
            .any(|skill| skill.error.is_some() && !skill.refused)
        {
            2
        } else if self
            .skills
            .iter()
            .any(|skill| skill.refused || skill.action == Action::Keep)
        {
            1
        } else {
            0
        }
    }

    /// Whether the sync wrote or removed anything.
    pub fn changed_anything(&self) -> bool {
        !self.dry_run
            && self
                .skills
                .iter()
                .any(|skill| skill.action.writes() && skill.error.is_none())
    }
}

impl fmt::Display for SyncReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for skill in &self.skills {
            writeln!(f, "{skill}")?;
        }
        Ok(())
    }
}

fn writer_name(peer: &Peer<RoleClient>, options: &DownloadOptions) -> String {
    options.writer.clone().unwrap_or_else(|| server_name(peer))
}

pub(crate) fn server_name(peer: &Peer<RoleClient>) -> String {
    peer.peer_info()
        .and_then(|info| info.server_info.as_ref().map(|server| server.name.clone()))
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "mcp-server".to_owned())
}

/// The folder-writer view of a manifest: digests only, for planning.
fn planned_write(manifest: &SkillManifest) -> SkillWrite<'static> {
    SkillWrite::new(
        manifest.name.clone(),
        manifest.path.clone(),
        manifest.version.clone(),
        manifest.files.iter().map(|file| {
            FileWrite::digest_only(
                file.path.clone(),
                file.digest,
                manifest.is_executable(&file.path),
            )
        }),
    )
}

/// The folder-writer view of a fetched skill: the verified bytes.
fn fetched_write(fetched: FetchedSkill) -> SkillWrite<'static> {
    let manifest = fetched.manifest;
    SkillWrite::new(
        manifest.name,
        manifest.path,
        manifest.version,
        fetched.files.into_iter().map(|file| {
            FileWrite::with_digest(file.path, file.bytes, file.digest, file.executable)
        }),
    )
}

/// Writes verified skills; only their own items are kept (no orphans).
fn write_fetched(
    target: &Target,
    skills: Vec<SkillWrite<'static>>,
    force: bool,
) -> Result<Vec<Planned>, ClientError> {
    let mut plan = folder::plan(
        target,
        skills,
        &folder::WriteOptions::default().force(force),
    )?;
    plan.retain(|item| item.state != State::Orphaned);
    Ok(plan.apply())
}

pub(crate) async fn download(
    peer: &Peer<RoleClient>,
    name_or_uri: &str,
    folder: &Path,
    options: &DownloadOptions,
) -> Result<DownloadReport, ClientError> {
    let summary = discover::resolve(peer, name_or_uri, options.timeout).await?;
    let target = Target::new(folder, writer_name(peer, options));
    let manifest = fetch::current_manifest(peer, &summary, options.timeout).await?;
    let mut plan = folder::plan(
        &target,
        [planned_write(&manifest)],
        &folder::WriteOptions::default().force(options.force),
    )?;
    plan.retain(|item| item.state != State::Orphaned);
    let planned = plan.items()[0].clone();
    let mut report = SyncedSkill::from_planned(planned.clone());
    report.uri = Some(summary.uri.clone());
    report.source = Some(summary.source);
    if options.dry_run || !planned.action.writes() {
        return Ok(report);
    }
    let fetched = fetch::fetch_manifest(peer, &summary, manifest, options).await?;
    let findings = fetched.findings.clone();
    let written = write_fetched(&target, vec![fetched_write(fetched)], options.force)?;
    let mut report = SyncedSkill::from_planned(written.into_iter().next().expect("one skill"));
    report.uri = Some(summary.uri.clone());
    report.source = Some(summary.source);
    report.findings = findings;
    options.report(Progress::Done {
        skill: &report.name,
        state: report.state,
        action: report.action,
    });
    Ok(report)
}

/// A skill nested inside another served skill: written as part of its
/// folder. Decided on path segments, among paths [`manifest::check_place`]
/// accepted (no `.`, `..` or empty segment), so a prefix of segments is a
/// folder that holds another.
fn parent_of<'a>(path: &str, paths: &'a BTreeSet<String>) -> Option<&'a String> {
    let segments: Vec<&str> = path.split('/').collect();
    paths
        .iter()
        .filter(|parent| {
            let outer: Vec<&str> = parent.split('/').collect();
            outer.len() < segments.len() && segments.starts_with(&outer)
        })
        .min_by_key(|parent| parent.split('/').count())
}

/// Checks a nested skill against its outer skill's manifest: its own entry
/// passes every rule, and each of its files is a file of the outer skill
/// with the same digest (so writing the outer skill writes it). Without an
/// entry (legacy servers), its `SKILL.md` must be among the outer files.
/// Gives its own version.
fn nested_in(summary: &SkillSummary, outer: &SkillManifest) -> Result<String, ClientError> {
    let inside = &summary.path[outer.path.len() + 1..];
    let refuse = |file: &str| ClientError::Entry {
        uri: summary.uri.clone(),
        reason: format!(
            "it lies inside `{}`, whose files do not include its `{file}` as listed",
            outer.path
        ),
    };
    let holds = |file: &str, digest: Option<&skills_core::Digest>| {
        let wanted = format!("{inside}/{file}");
        outer
            .files
            .iter()
            .any(|held| held.path == wanted && digest.is_none_or(|digest| &held.digest == digest))
    };
    match &summary.entry {
        Some(entry) => {
            let own = manifest::from_entry(entry)?;
            match own
                .files
                .iter()
                .find(|file| !holds(&file.path, Some(&file.digest)))
            {
                Some(missing) => Err(refuse(&missing.path)),
                None => Ok(own.version),
            }
        }
        None if holds(skills_core::SKILL_MD, None) => Ok(String::new()),
        None => Err(refuse(skills_core::SKILL_MD)),
    }
}

pub(crate) async fn sync(
    peer: &Peer<RoleClient>,
    folder: &Path,
    options: &SyncOptions,
) -> Result<SyncReport, ClientError> {
    let download = &options.download;
    let summaries = discover::discover(peer, download.timeout).await?;
    let target = Target::new(folder, writer_name(peer, download));
    // Where each skill lives, checked first: a skill whose own URI names no
    // safe place is refused here, and never planned, nested or fetched.
    let mut misplaced: Vec<SyncedSkill> = Vec::new();
    let mut placed: Vec<&SkillSummary> = Vec::new();
    for summary in &summaries {
        match manifest::check_place(summary) {
            Ok(()) => placed.push(summary),
            Err(error) => misplaced.push(SyncedSkill::misplaced(summary, &error)),
        }
    }
    let paths: BTreeSet<String> = placed.iter().map(|s| s.path.clone()).collect();
    let (nested, units): (Vec<&SkillSummary>, Vec<&SkillSummary>) = placed
        .into_iter()
        .partition(|summary| parent_of(&summary.path, &paths).is_some());

    // Manifests: from the listing on SEP servers (no request), `_manifest` otherwise.
    let owned: Vec<SkillSummary> = units.iter().map(|summary| (*summary).clone()).collect();
    let manifests: Vec<Result<SkillManifest, ClientError>> = futures::stream::iter(owned)
        .map(|summary| async move {
            match &summary.entry {
                Some(entry) => manifest::from_entry(entry),
                None => manifest::ask_manifest(peer, &summary, download.timeout).await,
            }
        })
        .buffered(download.concurrency)
        .collect()
        .await;

    // Plan by digests: which skills need fetching at all.
    let writes: Vec<SkillWrite<'static>> = units
        .iter()
        .zip(&manifests)
        .map(|(summary, manifest)| match manifest {
            Ok(manifest) => planned_write(manifest),
            // Planned with no files, so its folder is looked at and is not
            // taken for an orphan; nothing is fetched or written for it.
            Err(_) => SkillWrite::new(summary.name.clone(), summary.path.clone(), "", []),
        })
        .collect();
    let plan = folder::plan(
        &target,
        writes,
        &folder::WriteOptions::default()
            .force(download.force)
            .remove_orphans(options.remove_orphans),
    )?;
    let mut items: Vec<SyncedSkill> = Vec::new();
    let mut to_fetch = Vec::new();
    for (index, planned) in plan.items().iter().enumerate() {
        let mut item = SyncedSkill::from_planned(planned.clone());
        if let Some(summary) = units.get(index) {
            item.uri = Some(summary.uri.clone());
            item.source = Some(summary.source);
            match &manifests[index] {
                Err(error) => item.failed(error),
                Ok(manifest) if planned.action.writes() => to_fetch.push((index, manifest.clone())),
                Ok(_) => {}
            }
        }
        items.push(item);
    }
    download.report(Progress::Planned {
        skills: to_fetch.len(),
        files: to_fetch.iter().map(|(_, m)| m.files.len()).sum(),
        bytes: to_fetch.iter().map(|(_, m)| m.total_size()).sum(),
    });

    if !download.dry_run {
        // Fetch and verify in memory, several skills at once.
        let units = &units;
        let fetched: Vec<(usize, Result<FetchedSkill, ClientError>)> =
            futures::stream::iter(to_fetch)
                .map(|(index, manifest)| async move {
                    let summary = units[index];
                    (
                        index,
                        fetch::fetch_manifest(peer, summary, manifest, download).await,
                    )
                })
                .buffered(download.concurrency.div_ceil(2).max(1))
                .collect()
                .await;
        let mut verified = Vec::new();
        let mut verified_at = Vec::new();
        for (index, result) in fetched {
            match result {
                Ok(skill) => {
                    items[index].findings = skill.findings.clone();
                    verified_at.push(index);
                    verified.push(fetched_write(skill));
                }
                Err(error) => items[index].failed(&error),
            }
        }
        let target_for_write = target.clone();
        let force = download.force;
        let written =
            tokio::task::spawn_blocking(move || write_fetched(&target_for_write, verified, force))
                .await
                .map_err(|error| ClientError::Usage(format!("the writer stopped: {error}")))??;
        for (index, planned) in verified_at.into_iter().zip(written) {
            let findings = items[index].findings.take();
            let uri = items[index].uri.take();
            let source = items[index].source;
            items[index] = SyncedSkill::from_planned(planned);
            items[index].findings = findings;
            items[index].uri = uri;
            items[index].source = source;
        }
        // Orphans: removed when unedited (their work was planned up front).
        let mut orphans = plan;
        orphans.retain(|item| item.state == State::Orphaned);
        let removed = orphans.apply();
        for (item, done) in items[units.len()..].iter_mut().zip(removed) {
            item.error = done.error;
        }
    }

    // Nested skills share their parent's folder and outcome, once their own
    // entry is checked and their files are found among their parent's.
    for summary in nested {
        let parent = parent_of(&summary.path, &paths).expect("nested");
        let at = units
            .iter()
            .position(|unit| &unit.path == parent)
            .expect("a parent is a unit");
        let mut item = SyncedSkill {
            name: summary.name.clone(),
            path: summary.path.clone(),
            uri: Some(summary.uri.clone()),
            version: String::new(),
            state: items[at].state,
            action: Action::None,
            source: Some(summary.source),
            part_of: Some(parent.clone()),
            reason: None,
            files: Changes::default(),
            findings: None,
            error: None,
            refused: false,
        };
        match &manifests[at] {
            Err(_) => item.reason = Some(format!("its outer skill `{parent}` was refused")),
            Ok(outer) => match nested_in(summary, outer) {
                Err(error) => item.failed(&error),
                Ok(version) => {
                    item.version = version;
                    if items[at].error.is_none() {
                        item.action = items[at].action;
                    } else {
                        item.reason = Some(format!("its outer skill `{parent}` was not written"));
                    }
                }
            },
        }
        items.push(item);
    }
    items.append(&mut misplaced);
    for item in &items {
        download.report(Progress::Done {
            skill: &item.name,
            state: item.state,
            action: item.action,
        });
    }
    items.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(SyncReport {
        server: super::sync::server_name(peer),
        folder: folder.to_path_buf(),
        dry_run: download.dry_run,
        skills: items,
    })
}
