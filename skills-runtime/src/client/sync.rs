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
use super::{ClientError, DownloadOptions, SkillSource, SyncOptions};
use crate::folder::{
    self, Action, Changes, FileWrite, FolderError, Planned, SkillWrite, State, Target,
};

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
    /// The one way an item is made: what the folder writer planned (or did)
    /// for the skill, and where the server listed it.
    fn new(planned: Planned, summary: Option<&SkillSummary>) -> Self {
        let Planned {
            name,
            path,
            version,
            state,
            action,
            reason,
            files,
            error,
        } = planned;
        Self {
            name,
            path,
            uri: summary.map(|summary| summary.uri.clone()),
            version,
            state,
            action,
            source: summary.map(|summary| summary.source),
            part_of: None,
            refused: false,
            reason,
            files,
            findings: None,
            error,
        }
    }

    /// A skill nothing was done for yet: its folder's state as given.
    fn untouched(summary: &SkillSummary, state: State) -> Self {
        Self::new(
            Planned {
                name: summary.name.clone(),
                path: summary.path.clone(),
                version: String::new(),
                state,
                action: Action::None,
                reason: None,
                files: Changes::default(),
                error: None,
            },
            Some(summary),
        )
    }

    fn failed(&mut self, error: &ClientError) {
        self.action = Action::None;
        self.refused = error.is_verification();
        self.error = Some(error.to_string());
    }
}

/// One line: the path, reason and error quote what a server sent (a path
/// that names no safe place is kept as sent), so whatever a terminal would
/// act on is escaped ([`skills_core::printable`]).
impl fmt::Display for SyncedSkill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = format!("{} {} ({})", self.path, self.state, self.action);
        if let Some(parent) = &self.part_of {
            text.push_str(&format!(", inside {parent}"));
        }
        if let Some(reason) = &self.reason {
            text.push_str(&format!(": {reason}"));
        }
        if let Some(error) = &self.error {
            text.push_str(&format!("; {error}"));
        }
        f.write_str(&skills_core::printable(&text))
    }
}

/// The result of a sync: one item per skill, in path order. Serialises as
/// one JSON object with a `skills` array; prints as one line per skill.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct SyncReport {
    /// The source synced from, as the host configured it
    /// ([`SkillSource`]): whose the folders written are.
    pub source: String,
    /// The server's name as it gives it (`serverInfo.name`), for people:
    /// never an identity. Its first 200 characters, escaped
    /// ([`skills_core::printable`]), `…` where it was cut.
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

/// The server's own name, for the report: peer-chosen, so escaped and bounded.
fn server_name(peer: &Peer<RoleClient>) -> String {
    let name = peer
        .peer_info()
        .and_then(|info| info.server_info.as_ref().map(|server| server.name.clone()))
        .unwrap_or_default();
    folder::shown(&name)
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

/// What the folder writer did for a skill, and its rule findings.
type Written = (Planned, Option<String>);

/// Fetches and verifies one skill, then writes it at once (planned again
/// against the folder as it is now, staged, swapped into place), off the
/// async threads: memory holds one skill per fetch in flight, never the sync.
async fn fetch_and_write(
    peer: &Peer<RoleClient>,
    summary: &SkillSummary,
    manifest: SkillManifest,
    target: &Target,
    options: &DownloadOptions,
) -> Result<Written, ClientError> {
    let fetched = fetch::fetch_manifest(peer, summary, manifest, options).await?;
    let findings = fetched.findings.clone();
    let write = fetched_write(fetched);
    let root = target.root().to_path_buf();
    let target = target.clone();
    let force = options.force;
    let written = unblocked(&root, move || {
        let plan = folder::plan_given(
            &target,
            [write],
            &folder::WriteOptions::default().force(force),
        )?;
        Ok::<_, ClientError>(plan.apply().into_iter().next())
    })
    .await??;
    let planned = written.ok_or_else(|| ClientError::Usage("the writer planned nothing".into()))?;
    Ok((planned, findings))
}

pub(crate) async fn download(
    peer: &Peer<RoleClient>,
    name_or_uri: &str,
    folder: &Path,
    source: &SkillSource,
    options: &DownloadOptions,
) -> Result<SyncedSkill, ClientError> {
    let summary = discover::resolve(peer, name_or_uri, options.timeout).await?;
    manifest::check_place(&summary)?;
    let target = source.target(folder);
    let manifest = fetch::current_manifest(peer, &summary, options.timeout).await?;
    let plan = folder::plan_given(
        &target,
        [planned_write(&manifest)],
        &folder::WriteOptions::default().force(options.force),
    )?;
    let planned = plan.items()[0].clone();
    let mut report = SyncedSkill::new(planned.clone(), Some(&summary));
    if options.dry_run || !planned.action.writes() {
        return Ok(report);
    }
    let (written, findings) = fetch_and_write(peer, &summary, manifest, &target, options).await?;
    report = SyncedSkill::new(written, Some(&summary));
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
/// The outermost one, looked up by each folder above `path` (shortest
/// first), so that a listing of thousands of skills costs thousands of
/// lookups, not millions of comparisons.
fn parent_of<'a>(path: &str, paths: &'a BTreeSet<String>) -> Option<&'a String> {
    path.match_indices('/')
        .find_map(|(at, _)| paths.get(&path[..at]))
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

/// One skill of the listing that is a folder of its own (not nested in
/// another): its summary, its manifest (or why none), and its report item.
struct Unit<'a> {
    summary: &'a SkillSummary,
    manifest: Result<SkillManifest, ClientError>,
}

impl Unit<'_> {
    /// What the folder writer plans for it: its files by digest; with no
    /// files when its manifest was refused, so that its folder is looked at
    /// and not taken for an orphan (nothing is fetched or written for it).
    fn planned_write(&self) -> SkillWrite<'static> {
        match &self.manifest {
            Ok(manifest) => planned_write(manifest),
            Err(_) => SkillWrite::new(self.summary.name.clone(), self.summary.path.clone(), "", []),
        }
    }
}

pub(crate) async fn sync(
    peer: &Peer<RoleClient>,
    folder: &Path,
    source: &SkillSource,
    options: &SyncOptions,
) -> Result<SyncReport, ClientError> {
    let download = &options.download;
    let summaries = discover::discover(peer, download.timeout).await?;
    let target = source.target(folder);
    // Where each skill lives, checked first: a skill whose own URI names no
    // safe place is refused here, and never planned, nested or fetched.
    let (mut items, placed) = place(&summaries);
    let paths: BTreeSet<String> = placed.iter().map(|s| s.path.clone()).collect();
    let (nested, outer): (Vec<&SkillSummary>, Vec<&SkillSummary>) = placed
        .into_iter()
        .partition(|summary| parent_of(&summary.path, &paths).is_some());
    let units = manifests(peer, outer, download).await;

    // Plan by digests (which skills need fetching at all), with the orphans.
    let plan = folder::plan(
        &target,
        units.iter().map(Unit::planned_write),
        &folder::WriteOptions::default()
            .force(download.force)
            .remove_orphans(options.remove_orphans),
    )?;
    let (mut outcomes, to_fetch) = choose(&units, plan.items(), options);
    let mut orphans = plan;
    orphans.retain(|item| item.state == State::Orphaned);
    if download.dry_run {
        items.extend(
            orphans
                .items()
                .iter()
                .map(|o| SyncedSkill::new(o.clone(), None)),
        );
    } else {
        // Fetched, verified and written a skill at a time per slot: each is
        // staged and swapped into place as soon as it verifies, so memory
        // holds the skills in flight, not the sync.
        let (units, target) = (&units, &target);
        let done: Vec<(usize, Result<Written, ClientError>)> = futures::stream::iter(to_fetch)
            .map(|(index, manifest)| async move {
                let summary = units[index].summary;
                let result = fetch_and_write(peer, summary, manifest, target, download).await;
                (index, result)
            })
            .buffer_unordered(download.concurrency.div_ceil(2).max(1))
            .collect()
            .await;
        for (index, result) in done {
            match result {
                Ok((planned, findings)) => {
                    outcomes[index] = SyncedSkill::new(planned, Some(units[index].summary));
                    outcomes[index].findings = findings;
                }
                Err(error) => outcomes[index].failed(&error),
            }
        }
        // Orphans: removed when unedited (their work was planned up front).
        let removed = unblocked(folder, move || orphans.apply()).await?;
        items.extend(removed.into_iter().map(|done| SyncedSkill::new(done, None)));
    }
    items.extend(nested_items(nested, &paths, &units, &outcomes));
    items.append(&mut outcomes);
    for item in &items {
        download.report(Progress::Done {
            skill: &item.name,
            state: item.state,
            action: item.action,
        });
    }
    items.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(SyncReport {
        source: source.to_string(),
        server: server_name(peer),
        folder: folder.to_path_buf(),
        dry_run: download.dry_run,
        skills: items,
    })
}

/// The skills whose own URI names a safe place, and a refused item for
/// each of the others.
fn place(summaries: &[SkillSummary]) -> (Vec<SyncedSkill>, Vec<&SkillSummary>) {
    let mut refused = Vec::new();
    let mut placed = Vec::new();
    for summary in summaries {
        match manifest::check_place(summary) {
            Ok(()) => placed.push(summary),
            Err(error) => {
                let mut item = SyncedSkill::untouched(summary, State::Missing);
                item.failed(&error);
                refused.push(item);
            }
        }
    }
    (refused, placed)
}

/// Each outer skill with its manifest: from the listing on SEP servers (no
/// request), from `_manifest` otherwise, several asked at once.
async fn manifests<'a>(
    peer: &Peer<RoleClient>,
    outer: Vec<&'a SkillSummary>,
    download: &DownloadOptions,
) -> Vec<Unit<'a>> {
    // Owned: a stream of borrowed summaries trips the Send check of the
    // async trait methods (higher-ranked lifetimes).
    let owned: Vec<SkillSummary> = outer.iter().map(|summary| (*summary).clone()).collect();
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
    outer
        .into_iter()
        .zip(manifests)
        .map(|(summary, manifest)| Unit { summary, manifest })
        .collect()
}

/// One report item per unit, from its plan, and the skills to fetch (by
/// unit index), within the sync's size limit: in the listing's order, a
/// skill that would pass it is refused before anything of it is read.
fn choose(
    units: &[Unit<'_>],
    planned: &[Planned],
    options: &SyncOptions,
) -> (Vec<SyncedSkill>, Vec<(usize, SkillManifest)>) {
    let mut outcomes = Vec::with_capacity(units.len());
    let mut to_fetch = Vec::new();
    let mut total: u64 = 0;
    for (index, (unit, planned)) in units.iter().zip(planned).enumerate() {
        let mut item = SyncedSkill::new(planned.clone(), Some(unit.summary));
        match &unit.manifest {
            Err(error) => item.failed(error),
            Ok(manifest) if planned.action.writes() => {
                match total
                    .checked_add(manifest.total_size())
                    .filter(|sum| *sum <= options.max_bytes)
                {
                    Some(sum) => {
                        total = sum;
                        to_fetch.push((index, manifest.clone()));
                    }
                    None => item.failed(&ClientError::TooLarge {
                        uri: unit.summary.uri.clone(),
                        reason: format!(
                            "its {} bytes would take the sync past its limit of {} bytes ({total} bytes planned before it; SyncOptions::max_bytes raises it)",
                            manifest.total_size(),
                            options.max_bytes
                        ),
                    }),
                }
            }
            Ok(_) => {}
        }
        outcomes.push(item);
    }
    options.download.report(Progress::Planned {
        skills: to_fetch.len(),
        files: to_fetch.iter().map(|(_, m)| m.files.len()).sum(),
        bytes: total,
    });
    (outcomes, to_fetch)
}

/// Nested skills share their outer skill's folder and outcome, once their
/// own entry is checked and their files are found among its files.
fn nested_items(
    nested: Vec<&SkillSummary>,
    paths: &BTreeSet<String>,
    units: &[Unit<'_>],
    outcomes: &[SyncedSkill],
) -> Vec<SyncedSkill> {
    nested
        .into_iter()
        .map(|summary| {
            let parent = parent_of(&summary.path, paths).expect("nested");
            let at = units
                .iter()
                .position(|unit| &unit.summary.path == parent)
                .expect("an outer skill is a unit");
            let outer = &outcomes[at];
            let mut item = SyncedSkill::untouched(summary, outer.state);
            item.part_of = Some(parent.clone());
            match &units[at].manifest {
                Err(_) => item.reason = Some(format!("its outer skill `{parent}` was refused")),
                Ok(manifest) => match nested_in(summary, manifest) {
                    Err(error) => item.failed(&error),
                    Ok(version) => {
                        item.version = version;
                        if outer.error.is_none() {
                            item.action = outer.action;
                        } else {
                            item.reason =
                                Some(format!("its outer skill `{parent}` was not written"));
                        }
                    }
                },
            }
            item
        })
        .collect()
}

/// Runs `work` on a blocking thread: the folder writer's disk work off the
/// async threads. A panic in it is a bug of ours and goes on as a panic, not
/// as an error of the caller's; a task cancelled before it ran (the runtime
/// shutting down) wrote nothing.
async fn unblocked<T: Send + 'static>(
    folder: &Path,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ClientError> {
    match tokio::task::spawn_blocking(work).await {
        Ok(done) => Ok(done),
        Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
        Err(_) => Err(ClientError::Folder(FolderError::Interrupted {
            root: folder.to_path_buf(),
        })),
    }
}
