//! Everything that touches the disk: reading a skill folder back without
//! following links, planning one skill, finding orphans, and the swap.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use skills_core::MAX_FILE_BYTES;
use skills_core::open::{FileId, Refusal};

use super::record::{RECORD_FILE, Record, RecordedFile};
use super::{Action, Changes, Planned, SkillWrite, State, Target, WriteOptions};

/// Prefix of the hidden folders the writer stages in and swaps out through.
const SCRATCH_PREFIX: &str = ".skills-runtime-";

/// Folders deeper than this below the target are not searched for orphans.
const ORPHAN_DEPTH: usize = 16;

/// What applying one item needs beyond its [`Planned`]. Each carries what
/// the plan saw of the folder: applying re-reads it and does nothing when
/// it changed since (a user's edit, another writer's folder, a link swapped
/// in), however long ago the plan was made.
#[derive(Debug)]
pub(super) enum Work<'a> {
    /// Write (or rewrite) the skill; `keep` are the files that may be
    /// hard-linked from the current folder because they did not change;
    /// `seen` is the folder as planned (`None`: there was none).
    Write {
        skill: SkillWrite<'a>,
        keep: BTreeSet<String>,
        seen: Option<OnDisk>,
    },
    /// Remove the folder, as planned.
    Remove { seen: OnDisk },
}

/// The target folder with symbolic links in it and above it resolved (the
/// user's own machine: a dotfiles link is followed). Planning creates
/// nothing: a missing target resolves through its nearest existing folder,
/// and [`apply`] creates it.
pub(super) fn open_root(root: &Path) -> io::Result<PathBuf> {
    let root = std::path::absolute(root)?;
    let mut missing = Vec::new();
    let mut existing = root.as_path();
    loop {
        match fs::symlink_metadata(existing) {
            Ok(_) => break,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                let (Some(parent), Some(name)) = (existing.parent(), existing.file_name()) else {
                    return Err(error);
                };
                missing.push(name.to_owned());
                existing = parent;
            }
            Err(error) => return Err(error),
        }
    }
    let mut resolved = fs::canonicalize(existing)?;
    if !resolved.is_dir() {
        return Err(io::Error::other(format!(
            "{} is not a folder",
            resolved.display()
        )));
    }
    resolved.extend(missing.iter().rev());
    Ok(resolved)
}

/// Whether `name` is one the writer keeps for its scratch folders (a skill
/// may not use it).
pub(super) fn is_scratch(name: &str) -> bool {
    name.starts_with(SCRATCH_PREFIX)
}

/// Whether the entry `name` is a scratch folder that a process which is
/// gone left behind (a crash between staging and the swap): it holds a
/// whole skill, which agents that scan hidden folders would load. One whose
/// process is still running (or cannot be known: no `/proc`) is not; nor is
/// anything not named as the writer names them
/// (`.skills-runtime-{staging|old}-NAME-PID-N`).
fn is_stale_scratch(name: &str) -> bool {
    scratch_pid(name).is_some_and(|pid| pid != std::process::id() && !process_may_run(pid))
}

/// Removes the stale scratch folders [`orphans`] found.
pub(super) fn remove_stale(stale: &[PathBuf]) {
    for folder in stale {
        if fs::symlink_metadata(folder).is_ok_and(|meta| meta.is_dir()) {
            let _ = fs::remove_dir_all(folder);
        }
    }
}

/// The process id in a scratch folder's name, if it is one.
fn scratch_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(SCRATCH_PREFIX)?;
    let rest = rest
        .strip_prefix("staging-")
        .or_else(|| rest.strip_prefix("old-"))?;
    let mut parts = rest.rsplitn(3, '-');
    let (_counter, pid) = (parts.next()?.parse::<u64>().ok()?, parts.next()?);
    parts.next()?;
    pid.parse().ok()
}

/// Whether process `pid` may be running: `false` only when `/proc` says it
/// is not (Linux), so that nothing of a running process is ever removed.
fn process_may_run(pid: u32) -> bool {
    if !Path::new("/proc/self").exists() {
        return true;
    }
    Path::new("/proc").join(pid.to_string()).exists()
}

/// `root` joined with a checked relative `/`-separated path.
fn join(root: &Path, relative: &str) -> PathBuf {
    let mut path = root.to_path_buf();
    path.extend(relative.split('/'));
    path
}

/// What a path below the root is, without following links.
enum Found {
    Nothing,
    Folder,
    /// A symbolic link or a file at this path or at a folder above it (below the root).
    Blocked(String),
}

/// Looks at `relative` under `root` one component at a time, so that a link
/// anywhere below the root is seen rather than followed.
fn look(root: &Path, relative: &str) -> io::Result<Found> {
    let mut path = root.to_path_buf();
    let segments: Vec<&str> = relative.split('/').collect();
    for (index, segment) in segments.iter().enumerate() {
        path.push(segment);
        let shown = segments[..=index].join("/");
        match fs::symlink_metadata(&path) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Found::Nothing),
            Err(error) => return Err(error),
            Ok(meta) if meta.file_type().is_symlink() => {
                return Ok(Found::Blocked(format!(
                    "`{shown}` is a symbolic link, which the writer never follows"
                )));
            }
            Ok(meta) if !meta.is_dir() => {
                return Ok(Found::Blocked(format!("`{shown}` is a file, not a folder")));
            }
            Ok(_) => {}
        }
    }
    Ok(Found::Folder)
}

/// The names in the folder `relative` under `root` (`""`: the root itself),
/// without the writer's scratch folders; none when it is missing, or when a
/// link or a file stands on the way (planning reports those).
pub(super) fn entries(root: &Path, relative: &str) -> Vec<String> {
    if !relative.is_empty() && !matches!(look(root, relative), Ok(Found::Folder)) {
        return Vec::new();
    }
    let Ok(read) = fs::read_dir(join(root, relative)) else {
        return Vec::new();
    };
    read.flatten()
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| !name.starts_with(SCRATCH_PREFIX))
        .collect()
}

/// A skill folder read back: its record (if ours to read) and the digest and
/// executable bit of every file, with anything that is not a plain file.
#[derive(Debug)]
pub(super) struct OnDisk {
    record: Option<Record>,
    /// Path inside the skill → (digest, executable). The record file excluded.
    files: BTreeMap<String, RecordedFile>,
    /// Links, special files and unreadable names found inside.
    odd: Vec<String>,
    /// Path inside the skill → the file read (device and inode), so that a
    /// file hard-linked into the new folder is the very one hashed.
    ids: BTreeMap<String, FileId>,
}

impl OnDisk {
    /// Whether `now` holds what this reading held: the same record, files
    /// (bytes and executable bits) and odd entries.
    fn same_as(&self, now: &OnDisk) -> bool {
        self.record == now.record && self.files == now.files && self.odd == now.odd
    }
}

fn read_folder(folder: &Path) -> io::Result<OnDisk> {
    let mut on_disk = OnDisk {
        record: None,
        files: BTreeMap::new(),
        odd: Vec::new(),
        ids: BTreeMap::new(),
    };
    let mut pending = vec![(folder.to_path_buf(), String::new())];
    while let Some((dir, prefix)) = pending.pop() {
        for entry in fs::read_dir(&dir)? {
            let entry = entry?;
            let Ok(name) = entry.file_name().into_string() else {
                on_disk
                    .odd
                    .push(format!("{prefix}{}", entry.file_name().to_string_lossy()));
                continue;
            };
            let relative = format!("{prefix}{name}");
            let kind = entry.file_type()?;
            if kind.is_dir() {
                pending.push((entry.path(), format!("{relative}/")));
            } else if kind.is_file() {
                // Opened as the loader opens a skill's files: the very file
                // listed, never a link or FIFO swapped in since, and hashed
                // in blocks up to the size limit. Anything else is a file
                // the writer never replaces.
                let metadata = entry.metadata()?;
                let mut opened = match skills_core::open::open(&entry.path(), FileId::of(&metadata))
                {
                    Ok(opened) => opened,
                    Err(Refusal::Io(error)) => return Err(error),
                    Err(_) => {
                        on_disk.odd.push(relative);
                        continue;
                    }
                };
                if prefix.is_empty() && name == RECORD_FILE {
                    on_disk.record = opened
                        .read(MAX_FILE_BYTES)
                        .ok()
                        .and_then(|bytes| Record::parse(&bytes));
                    continue;
                }
                let digest = match opened.digest(MAX_FILE_BYTES) {
                    Ok(digest) => digest,
                    Err(Refusal::Io(error)) => return Err(error),
                    Err(_) => {
                        on_disk.odd.push(relative);
                        continue;
                    }
                };
                let executable = is_executable(&metadata);
                if let Some(id) = FileId::of(opened.metadata()) {
                    on_disk.ids.insert(relative.clone(), id);
                }
                on_disk
                    .files
                    .insert(relative, RecordedFile::new(digest, executable));
            } else {
                on_disk.odd.push(relative);
            }
        }
    }
    on_disk.odd.sort();
    Ok(on_disk)
}

#[cfg(unix)]
fn is_executable(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &fs::Metadata) -> bool {
    false
}

/// The skill folders inside a folder that is itself no skill's (no
/// `SKILL.md` and no record at its top): each folder below holding a
/// `SKILL.md` or a writer's record, outermost ones only.
fn grouped_skills(on_disk: &OnDisk) -> Vec<String> {
    if on_disk.record.is_some() || on_disk.files.contains_key(skills_core::SKILL_MD) {
        return Vec::new();
    }
    let mut inner: Vec<String> = on_disk
        .files
        .keys()
        .filter_map(|path| {
            let (folder, name) = path.rsplit_once('/')?;
            (name == skills_core::SKILL_MD || name == RECORD_FILE).then(|| folder.to_owned())
        })
        .collect();
    inner.sort();
    inner.dedup();
    let all = inner.clone();
    inner.retain(|folder| {
        !all.iter()
            .any(|outer| outer != folder && folder.starts_with(&format!("{outer}/")))
    });
    inner
}

/// What a user changed in a folder the record describes. An executable bit
/// alone is not an edit (an archive or a copy drops it, nobody means to):
/// see [`mode_drift`].
fn edits(record: &Record, on_disk: &OnDisk) -> Vec<String> {
    let mut edited: Vec<String> = on_disk.odd.clone();
    for (path, written) in &record.files {
        match on_disk.files.get(path) {
            None => edited.push(path.clone()),
            Some(found) if found.digest != written.digest => edited.push(path.clone()),
            Some(_) => {}
        }
    }
    for path in on_disk.files.keys() {
        if !record.files.contains_key(path) {
            edited.push(path.clone());
        }
    }
    edited.sort();
    edited.dedup();
    edited
}

/// Files whose bytes are as written but whose executable bit is not: the
/// writer restores them without `force`.
fn mode_drift(record: &Record, on_disk: &OnDisk) -> Vec<String> {
    if !cfg!(unix) {
        return Vec::new();
    }
    record
        .files
        .iter()
        .filter(|(path, written)| {
            on_disk.files.get(*path).is_some_and(|found| {
                found.digest == written.digest && found.executable != written.executable
            })
        })
        .map(|(path, _)| path.clone())
        .collect()
}

fn incoming_files(skill: &SkillWrite<'_>) -> BTreeMap<String, RecordedFile> {
    skill
        .files
        .iter()
        .map(|file| {
            (
                file.path.to_string(),
                RecordedFile::new(file.digest, file.executable),
            )
        })
        .collect()
}

/// What differs between two file lists.
fn differences(
    before: &BTreeMap<String, RecordedFile>,
    after: &BTreeMap<String, RecordedFile>,
) -> Changes {
    let mut changes = Changes::default();
    for (path, new) in after {
        match before.get(path) {
            None => changes.added.push(path.clone()),
            Some(old) if old != new => changes.changed.push(path.clone()),
            Some(_) => {}
        }
    }
    changes.removed = before
        .keys()
        .filter(|path| !after.contains_key(*path))
        .cloned()
        .collect();
    changes
}

/// Whose a folder is, when its record names another writer than `owner`:
/// the words of a `foreign` skill's reason.
fn whose(record: &Record, owner: &Target) -> String {
    let writer = shown(&record.writer);
    match &record.source {
        Some(_) => format!("written by `{writer}`, not by `{}`", shown(&owner.writer)),
        // A format-1 record of a sync names the server as it named itself,
        // which proves nothing about who that was.
        None if owner.source.is_some() => format!(
            "written by `{writer}` (a record without a source: before version 2 a sync named \
             the server as the server named itself), not by `{}`; if `{writer}` is this \
             source, sync with the label `{writer}` to adopt it, or force",
            shown(&owner.writer)
        ),
        None => format!("written by `{writer}`, not by `{}`", shown(&owner.writer)),
    }
}

/// A name from a file or a peer, for a report: escaped as everything printed
/// is ([`skills_core::printable`]),
/// cut after 200 characters (a record is a file anyone could have written; a
/// server names itself).
pub(crate) fn shown(name: &str) -> String {
    shown_within(name, 200)
}

/// `text` escaped ([`skills_core::printable`]) and cut after `max`
/// characters, with `…` where it was cut: the one bound on what a peer or a
/// file says before it is printed.
pub(crate) fn shown_within(text: &str, max: usize) -> String {
    let bounded: String = text.chars().take(max).collect();
    let mut out = skills_core::printable(&bounded).into_owned();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

pub(super) fn plan_skill<'a>(
    root: &Path,
    owner: &Target,
    skill: SkillWrite<'a>,
    options: &WriteOptions,
) -> (Planned, Option<Work<'a>>) {
    let mut item = Planned {
        name: skill.name.to_string(),
        path: skill.path.to_string(),
        version: skill.version.to_string(),
        state: State::Missing,
        action: Action::Write,
        reason: None,
        files: Changes::default(),
        error: None,
    };
    let incoming = incoming_files(&skill);
    let found = match look(root, &skill.path) {
        Ok(found) => found,
        Err(error) => {
            item.action = Action::Keep;
            item.error = Some(format!("`{}` cannot be read: {error}", skill.path));
            return (item, None);
        }
    };
    match found {
        Found::Nothing => {
            item.files.added = incoming.keys().cloned().collect();
            let work = Work::Write {
                skill,
                keep: BTreeSet::new(),
                seen: None,
            };
            (item, Some(work))
        }
        Found::Blocked(reason) => {
            item.state = State::Foreign;
            item.action = Action::Keep;
            item.reason = Some(reason);
            (item, None)
        }
        Found::Folder => {
            let folder = join(root, &skill.path);
            let on_disk = match read_folder(&folder) {
                Ok(on_disk) => on_disk,
                Err(error) => {
                    item.state = State::Foreign;
                    item.action = Action::Keep;
                    item.error = Some(format!("`{}` cannot be read: {error}", skill.path));
                    return (item, None);
                }
            };
            let ours = on_disk.record.as_ref().filter(|record| owner.owns(record));
            let Some(record) = ours else {
                if on_disk.record.is_none()
                    && on_disk.odd.is_empty()
                    && let Some(stamp) = super::stamped::read(&folder)
                    && owner.owns_stamp(&stamp.by)
                {
                    return plan_stamped(item, skill, on_disk, &incoming, &stamp, options);
                }
                item.state = State::Foreign;
                item.reason = Some(match &on_disk.record {
                    Some(record) => whose(record, owner),
                    None => "a folder no record of this writer knows".to_owned(),
                });
                item.files = differences(&on_disk.files, &incoming);
                // A folder that is no skill's but holds skills (a group)
                // is theirs: `force` replaces a skill's folder, never the
                // skills below one.
                let grouped = grouped_skills(&on_disk);
                if !grouped.is_empty() {
                    item.action = Action::Keep;
                    item.reason = Some(format!(
                        "it is no skill's folder but holds other skills ({}); they are never replaced, even by force",
                        grouped
                            .iter()
                            .map(|inner| skills_core::relpath::join(&skill.path, inner))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                    return (item, None);
                }
                return if options.force && on_disk.odd.is_empty() {
                    item.action = Action::Update;
                    (
                        item,
                        Some(Work::Write {
                            skill,
                            keep: BTreeSet::new(),
                            seen: Some(on_disk),
                        }),
                    )
                } else {
                    item.action = Action::Keep;
                    if !on_disk.odd.is_empty() {
                        item.reason = Some(format!(
                            "it holds links or special files the writer never replaces: {}",
                            on_disk.odd.join(", ")
                        ));
                    }
                    (item, None)
                };
            };
            let edited = edits(record, &on_disk);
            let drifted = mode_drift(record, &on_disk);
            item.files = differences(&record.files, &incoming);
            // Unchanged, unedited files are linked into the new folder; one
            // whose executable bit drifted is written again, with its bit.
            let keep: BTreeSet<String> = incoming
                .iter()
                .filter(|(path, new)| {
                    record.files.get(*path) == Some(new)
                        && !edited.contains(path)
                        && !drifted.contains(path)
                })
                .map(|(path, _)| path.clone())
                .collect();
            if !edited.is_empty() {
                item.state = State::Modified;
                item.files.edited = edited;
                if options.force && on_disk.odd.is_empty() {
                    item.action = Action::Update;
                    item.reason = Some("forced: the edits are overwritten".to_owned());
                    let seen = Some(on_disk);
                    return (item, Some(Work::Write { skill, keep, seen }));
                }
                item.action = Action::Keep;
                item.reason = Some(if on_disk.odd.is_empty() {
                    "edited since it was written; kept (force overwrites it)".to_owned()
                } else {
                    "holds links or special files the writer never replaces".to_owned()
                });
                return (item, None);
            }
            let restored: Vec<String> = drifted
                .into_iter()
                .filter(|path| incoming.contains_key(path) && !item.files.changed.contains(path))
                .collect();
            if record.version == skill.version.as_ref()
                && item.files.is_empty()
                && restored.is_empty()
            {
                item.state = State::UpToDate;
                item.action = Action::None;
                return (item, None);
            }
            if !restored.is_empty() {
                item.reason = Some(format!("executable bit restored: {}", restored.join(", ")));
                item.files.changed.extend(restored);
                item.files.changed.sort();
            }
            item.state = State::Outdated;
            item.action = Action::Update;
            let seen = Some(on_disk);
            (item, Some(Work::Write { skill, keep, seen }))
        }
    }
}

/// A folder `skill-embed` installed under this writer's name: `outdated`
/// when unedited (rewritten with a record, the stamp dropped), `modified`
/// when edited since.
fn plan_stamped<'a>(
    mut item: Planned,
    skill: SkillWrite<'a>,
    on_disk: OnDisk,
    incoming: &BTreeMap<String, RecordedFile>,
    stamp: &super::stamped::Stamp,
    options: &WriteOptions,
) -> (Planned, Option<Work<'a>>) {
    item.files = differences(&on_disk.files, incoming);
    let installed = match stamp.version.as_str() {
        "" => "installed by skill-embed".to_owned(),
        version => format!("installed by skill-embed (version {version})"),
    };
    let write = Work::Write {
        skill,
        keep: BTreeSet::new(),
        seen: Some(on_disk),
    };
    if stamp.unedited {
        item.state = State::Outdated;
        item.action = Action::Update;
        item.reason = Some(format!("{installed}; rewritten with a record beside it"));
        return (item, Some(write));
    }
    item.state = State::Modified;
    if options.force {
        item.action = Action::Update;
        item.reason = Some(format!(
            "{installed}, edited since; forced: the edits are overwritten"
        ));
        (item, Some(write))
    } else {
        item.action = Action::Keep;
        item.reason = Some(format!(
            "{installed}, edited since (its x-embedded-digest no longer matches); kept (force overwrites it)"
        ));
        (item, None)
    }
}

/// This writer's skills under `root` that are not in `given`, and the
/// stale scratch folders beside the folders searched.
pub(super) fn orphans<'a>(
    root: &Path,
    owner: &Target,
    given: &BTreeSet<String>,
    options: &WriteOptions,
) -> (Vec<(Planned, Option<Work<'a>>)>, Vec<PathBuf>) {
    let mut found = Vec::new();
    let mut stale = Vec::new();
    let mut pending = vec![(root.to_path_buf(), String::new(), 0usize)];
    while let Some((dir, prefix, depth)) = pending.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            // Links are never followed; only real folders are searched.
            if !entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                continue;
            }
            if is_scratch(&name) {
                if is_stale_scratch(&name) {
                    stale.push(entry.path());
                }
                continue;
            }
            let relative = format!("{prefix}{name}");
            let folder = entry.path();
            // A record, a FIFO or a link to `/dev/zero` planted in a cloned
            // repository's skills folder is opened without blocking or
            // following, and read up to the limit.
            let record = skills_core::open::read(&folder.join(RECORD_FILE), MAX_FILE_BYTES)
                .ok()
                .and_then(|bytes| Record::parse(&bytes));
            match record {
                Some(record) if owner.owns(&record) && !given.contains(&relative) => {
                    found.push(plan_orphan(&folder, relative, record, options));
                }
                Some(_) => {}
                // skill-embed's install under this writer's name, no longer given.
                None if !given.contains(&relative)
                    && let Some(stamp) = super::stamped::read(&folder)
                    && owner.owns_stamp(&stamp.by) =>
                {
                    found.push(plan_stamped_orphan(&folder, relative, &stamp, options));
                }
                // A foreign skill's folder is not searched: what is inside is its own.
                None if fs::symlink_metadata(folder.join(skills_core::SKILL_MD)).is_ok() => {}
                None if depth + 1 < ORPHAN_DEPTH => {
                    pending.push((folder, format!("{relative}/"), depth + 1))
                }
                None => {}
            }
        }
    }
    found.sort_by(|a, b| a.0.path.cmp(&b.0.path));
    (found, stale)
}

fn plan_stamped_orphan<'a>(
    folder: &Path,
    path: String,
    stamp: &super::stamped::Stamp,
    options: &WriteOptions,
) -> (Planned, Option<Work<'a>>) {
    let mut item = Planned {
        name: path.rsplit('/').next().unwrap_or(&path).to_owned(),
        path,
        version: stamp.version.clone(),
        state: State::Orphaned,
        action: Action::Keep,
        reason: None,
        files: Changes::default(),
        error: None,
    };
    if !stamp.unedited {
        item.reason = Some(
            "installed by skill-embed, no longer given, but edited since (its x-embedded-digest \
             no longer matches); kept"
                .into(),
        );
        (item, None)
    } else if options.remove_orphans {
        match read_folder(folder) {
            Ok(seen) => {
                item.action = Action::Remove;
                item.reason = Some("installed by skill-embed".into());
                (item, Some(Work::Remove { seen }))
            }
            Err(error) => {
                item.error = Some(format!("`{}` cannot be read: {error}", item.path));
                (item, None)
            }
        }
    } else {
        item.action = Action::None;
        item.reason = Some("installed by skill-embed, no longer given; left in place".into());
        (item, None)
    }
}

fn plan_orphan<'a>(
    folder: &Path,
    path: String,
    record: Record,
    options: &WriteOptions,
) -> (Planned, Option<Work<'a>>) {
    let mut item = Planned {
        name: record.name.clone(),
        path,
        version: record.version.clone(),
        state: State::Orphaned,
        action: Action::Keep,
        reason: None,
        files: Changes::default(),
        error: None,
    };
    match read_folder(folder) {
        Ok(on_disk) => {
            let edited = edits(&record, &on_disk);
            if !edited.is_empty() {
                item.reason = Some("no longer given, but edited since it was written; kept".into());
                item.files.edited = edited;
                (item, None)
            } else if options.remove_orphans {
                item.action = Action::Remove;
                item.files.removed = record.files.keys().cloned().collect();
                (item, Some(Work::Remove { seen: on_disk }))
            } else {
                item.action = Action::None;
                item.reason = Some("no longer given; left in place".into());
                (item, None)
            }
        }
        Err(error) => {
            item.error = Some(format!("`{}` cannot be read: {error}", item.path));
            (item, None)
        }
    }
}

/// A fresh hidden name beside `folder`, for staging or swapping out.
fn scratch_beside(folder: &Path, purpose: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = folder
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let unique = COUNTER.fetch_add(1, Ordering::Relaxed);
    // Parsed back by `scratch_pid`: keep the process id second to last.
    folder.with_file_name(format!(
        "{SCRATCH_PREFIX}{purpose}-{name}-{}-{unique}",
        std::process::id()
    ))
}

pub(super) fn apply(
    root: &Path,
    owner: &Target,
    item: &Planned,
    work: Work<'_>,
) -> Result<(), String> {
    // The target itself, when planning found it missing.
    fs::create_dir_all(root).map_err(|error| format!("{}: {error}", root.display()))?;
    let folder = join(root, &item.path);
    // The folder may have changed since the plan: refuse rather than follow a new link.
    if let Found::Blocked(reason) = look(root, &item.path).map_err(|error| error.to_string())? {
        return Err(reason);
    }
    let changed = || {
        format!(
            "`{}` changed since it was planned (a file was written, edited, removed or \
             swapped for a link there, or another writer's folder took its place); nothing \
             was done: plan again",
            shown(&item.path)
        )
    };
    match work {
        Work::Remove { seen } => {
            match read_folder(&folder) {
                Ok(now) if seen.same_as(&now) => {}
                _ => return Err(changed()),
            }
            remove(root, &folder).map_err(|error| error.to_string())
        }
        Work::Write { skill, keep, seen } => {
            let linkable = match seen {
                // Nothing was there: nothing may be there now.
                None if fs::symlink_metadata(&folder).is_ok() => return Err(changed()),
                None => None,
                Some(seen) => match read_folder(&folder) {
                    Ok(now) if seen.same_as(&now) => Some(now.ids),
                    _ => return Err(changed()),
                },
            };
            write(root, owner, &folder, &skill, &keep, linkable.as_ref())
                .map_err(|error| error.to_string())
        }
    }
}

/// Writes the skill at `folder` through a staging folder. `current` holds
/// the files of the folder there now, as just read (`None`: there was
/// none, and the staging folder is renamed into place only if that is still
/// so: a rename never replaces a folder with anything in it).
fn write(
    root: &Path,
    owner: &Target,
    folder: &Path,
    skill: &SkillWrite<'_>,
    keep: &BTreeSet<String>,
    current: Option<&BTreeMap<String, FileId>>,
) -> io::Result<()> {
    let parent = folder.parent().unwrap_or(root);
    create_folders_below(root, parent)?;
    let staging = scratch_beside(folder, "staging");
    let built = build(&staging, owner, folder, skill, keep, current);
    if let Err(error) = built {
        let _ = fs::remove_dir_all(&staging);
        return Err(error);
    }
    if current.is_some() {
        let old = scratch_beside(folder, "old");
        if let Err(error) = fs::rename(folder, &old) {
            let _ = fs::remove_dir_all(&staging);
            return Err(error);
        }
        if let Err(error) = fs::rename(&staging, folder) {
            // Put the old folder back; the skill is as it was.
            let _ = fs::rename(&old, folder);
            let _ = fs::remove_dir_all(&staging);
            return Err(error);
        }
        fs::remove_dir_all(&old)
    } else {
        fs::rename(&staging, folder).inspect_err(|_| {
            let _ = fs::remove_dir_all(&staging);
        })
    }
}

/// Creates the folders from `root` down to `folder`, refusing links.
fn create_folders_below(root: &Path, folder: &Path) -> io::Result<()> {
    let Ok(relative) = folder.strip_prefix(root) else {
        return Err(io::Error::other("the folder is outside the target"));
    };
    let mut path = root.to_path_buf();
    for component in relative.components() {
        path.push(component);
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => {
                return Err(io::Error::other(format!(
                    "{} is not a folder (or is a link, which is never followed)",
                    path.display()
                )));
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => fs::create_dir(&path)?,
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// Builds the new folder at `staging`: unchanged files linked from the
/// folder at `current` (each only if it is the very file read there,
/// `ids`), the others written, then the record.
fn build(
    staging: &Path,
    owner: &Target,
    current: &Path,
    skill: &SkillWrite<'_>,
    keep: &BTreeSet<String>,
    ids: Option<&BTreeMap<String, FileId>>,
) -> io::Result<()> {
    fs::create_dir(staging)?;
    let mut record = Record::new(
        &owner.writer,
        owner.source.as_deref(),
        &skill.name,
        &skill.version,
    );
    for file in &skill.files {
        let destination = join(staging, &file.path);
        if let Some(parent) = destination.parent() {
            fs::create_dir_all(parent)?;
        }
        // An unchanged file is linked from the current folder, if it is
        // still the regular file read there (never a link put there since,
        // nor a file reached through a folder swapped for a link).
        let read = ids.and_then(|ids| ids.get(file.path.as_ref()));
        let linked = keep.contains(file.path.as_ref())
            && ids.is_some()
            && fs::hard_link(join(current, &file.path), &destination).is_ok()
            && linked_the_file(&destination, read)?;
        if !linked {
            let Some(bytes) = &file.bytes else {
                return Err(io::Error::other(format!(
                    "`{}` was planned by its digest only; its bytes were never given",
                    file.path
                )));
            };
            write_new(&destination, bytes)?;
            set_executable(&destination, file.executable)?;
        }
        record.files.insert(
            file.path.to_string(),
            RecordedFile::new(file.digest, file.executable),
        );
    }
    write_new(&staging.join(RECORD_FILE), &record.to_bytes())
}

/// Writes a file that must not exist yet (the staging folder is fresh):
/// created new, so nothing already at the name is ever written through.
fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write as _;
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?
        .write_all(bytes)
}

/// Whether the hard link just made at `destination` is a regular file and,
/// where the platform gives file identities, the file `read` (the one
/// hashed); anything else (a link `hard_link` copied as a link, another
/// file swapped in) is removed again.
fn linked_the_file(destination: &Path, read: Option<&FileId>) -> io::Result<bool> {
    let meta = fs::symlink_metadata(destination)?;
    let same = match FileId::of(&meta) {
        Some(linked) => read == Some(&linked),
        None => true,
    };
    if meta.file_type().is_file() && same {
        return Ok(true);
    }
    fs::remove_file(destination)?;
    Ok(false)
}

#[cfg(unix)]
fn set_executable(path: &Path, executable: bool) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let mut permissions = fs::metadata(path)?.permissions();
    let mode = permissions.mode();
    // Executable for whoever may read it, as `chmod +x` with the usual umask.
    let mode = if executable {
        mode | ((mode & 0o444) >> 2)
    } else {
        mode & !0o111
    };
    permissions.set_mode(mode);
    fs::set_permissions(path, permissions)
}

#[cfg(not(unix))]
fn set_executable(_path: &Path, _executable: bool) -> io::Result<()> {
    Ok(())
}

/// Removes `folder` (swapped out first, so no half-removed skill is seen),
/// then the folders above it that it leaves empty, up to the root.
fn remove(root: &Path, folder: &Path) -> io::Result<()> {
    let old = scratch_beside(folder, "old");
    fs::rename(folder, &old)?;
    fs::remove_dir_all(&old)?;
    let mut parent = folder.parent();
    while let Some(dir) = parent {
        if dir == root || !dir.starts_with(root) || fs::remove_dir(dir).is_err() {
            break;
        }
        parent = dir.parent();
    }
    Ok(())
}
