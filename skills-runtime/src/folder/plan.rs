//! Planning a write (what is there, what will be done) and doing it: the
//! steps on disk are `disk`'s.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;
use skills_core::{names, relpath};

use super::disk;
use super::record::RECORD_FILE;
use super::{Action, Changes, FolderError, Planned, SkillWrite, State, Target, WriteOptions};

/// What to do for every skill given, and for this writer's skills no longer
/// given. Printing it (`{plan}`) lists one line per skill; serialising it
/// gives `{"skills": [...]}`.
#[derive(Debug)]
pub struct Plan<'a> {
    root: PathBuf,
    owner: Target,
    items: Vec<Planned>,
    work: Vec<Option<disk::Work<'a>>>,
    /// Scratch folders a crashed run of this writer left (found with the
    /// orphans), removed by [`apply`](Self::apply).
    stale: Vec<PathBuf>,
}

impl<'a> Plan<'a> {
    /// One item per skill: those given, in order, then the orphans.
    pub fn items(&self) -> &[Planned] {
        &self.items
    }

    /// Keeps only the items `keep` accepts (a caller that plans more than it
    /// means to apply, or shows part of a plan).
    pub fn retain(&mut self, mut keep: impl FnMut(&Planned) -> bool) {
        let mut work = std::mem::take(&mut self.work).into_iter();
        let mut kept_work = Vec::with_capacity(self.items.len());
        self.items.retain(|item| {
            let job = work.next().flatten();
            let kept = keep(item);
            if kept {
                kept_work.push(job);
            }
            kept
        });
        self.work = kept_work;
    }

    /// Whether applying the plan would change nothing on disk.
    pub fn is_noop(&self) -> bool {
        !self.items.iter().any(|item| item.action.writes())
    }

    /// Does what the plan says, skill by skill. A skill that fails is left
    /// as it was and carries its [`Planned::error`]; the others go on. Each
    /// folder is read again first: one that changed since the plan was made
    /// fails (nothing is done to it; plan again).
    pub fn apply(self) -> Vec<Planned> {
        let Plan {
            root,
            owner,
            mut items,
            work,
            stale,
        } = self;
        disk::remove_stale(&stale);
        for (item, work) in items.iter_mut().zip(work) {
            if let Some(work) = work
                && let Err(error) = disk::apply(&root, &owner, item, work)
            {
                item.error = Some(error);
            }
        }
        items
    }
}

impl Serialize for Plan<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut plan = serializer.serialize_struct("Plan", 1)?;
        plan.serialize_field("skills", &self.items)?;
        plan.end()
    }
}

impl fmt::Display for Plan<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for item in &self.items {
            writeln!(f, "{item}")?;
        }
        Ok(())
    }
}

/// Compares `skills` with what is in `target` and says what to do for each,
/// and for each skill this writer wrote earlier that is no longer given.
/// Reads and hashes the folders it finds; writes nothing, not even a missing
/// target (applying the plan creates it).
///
/// A skill whose path or file paths are unsafe, whose files collide on a
/// case-insensitive disk or with the record file, or whose folder collides
/// with another skill's or with an entry already in the target (the
/// portable-name rule, [`names::fold_case`]: `Team/pdf` and `team/pdf`,
/// `café` in NFC and in NFD), is planned `keep` with the reason, both names
/// in it; it never reaches the disk. So is a skill that would lie inside
/// another skill's folder: one given with it, or a folder on the way that
/// holds a `SKILL.md` or a writer's record, whoever wrote it.
pub fn plan<'a>(
    target: &Target,
    skills: impl IntoIterator<Item = SkillWrite<'a>>,
    options: &WriteOptions,
) -> Result<Plan<'a>, FolderError> {
    plan_with(target, skills, options, true)
}

/// [`plan`] for the skills given only, without the search for orphans (a
/// walk of the whole target): what a sync does for each skill it writes
/// once that skill is verified, after one [`plan`] of them all.
#[cfg_attr(not(feature = "client"), allow(dead_code))]
pub(crate) fn plan_given<'a>(
    target: &Target,
    skills: impl IntoIterator<Item = SkillWrite<'a>>,
    options: &WriteOptions,
) -> Result<Plan<'a>, FolderError> {
    plan_with(target, skills, options, false)
}

fn plan_with<'a>(
    target: &Target,
    skills: impl IntoIterator<Item = SkillWrite<'a>>,
    options: &WriteOptions,
    with_orphans: bool,
) -> Result<Plan<'a>, FolderError> {
    let root = disk::open_root(&target.root).map_err(|error| FolderError::Target {
        root: target.root.clone(),
        error,
    })?;
    let skills: Vec<SkillWrite<'a>> = skills.into_iter().collect();
    let mut collisions = collisions(&root, &skills);
    let mut items = Vec::new();
    let mut work = Vec::new();
    let mut given = std::collections::BTreeSet::new();
    for (index, skill) in skills.into_iter().enumerate() {
        given.insert(skill.path.to_string());
        let refused = refusal(&skill).or_else(|| collisions.remove(&index));
        let (item, job) = match refused {
            Some(reason) => (
                Planned {
                    name: skill.name.to_string(),
                    path: skill.path.to_string(),
                    version: skill.version.to_string(),
                    state: State::Foreign,
                    action: Action::Keep,
                    reason: Some(reason),
                    files: Changes::default(),
                    error: None,
                },
                None,
            ),
            None => disk::plan_skill(&root, target, skill, options),
        };
        items.push(item);
        work.push(job);
    }
    let (orphans, stale) = if with_orphans {
        disk::orphans(&root, target, &given, options)
    } else {
        (Vec::new(), Vec::new())
    };
    for (item, job) in orphans {
        items.push(item);
        work.push(job);
    }
    Ok(Plan {
        root,
        owner: target.clone(),
        items,
        work,
        stale,
    })
}

/// The skills (by index) whose folder collides with another skill's folder,
/// or with an entry the target already holds, under the portable-name rule,
/// each with its reason. Every skill of a colliding pair is refused: which
/// one was meant cannot be known, and a server decides the order.
fn collisions(root: &Path, skills: &[SkillWrite<'_>]) -> BTreeMap<usize, String> {
    let mut found = BTreeMap::new();
    let paths: Vec<(usize, &str)> = skills
        .iter()
        .enumerate()
        .filter(|(_, skill)| names::check_path(&skill.path).is_ok())
        .map(|(index, skill)| (index, skill.path.as_ref()))
        .collect();
    // A skill is refused by the first collision of a folder on its way (or
    // of its own folder), found by a lookup per segment of its path: a
    // listing of thousands of colliding pairs costs thousands of lookups,
    // not a pass over every skill for each pair.
    let collisions = names::case_collisions(paths.iter().map(|(_, path)| *path));
    let mut first_collision: HashMap<&str, usize> = HashMap::new();
    for (at, collision) in collisions.iter().enumerate() {
        for name in [collision.path, collision.earlier] {
            first_collision.entry(name).or_insert(at);
        }
    }
    for (index, path) in &paths {
        let folders = path.match_indices('/').map(|(at, _)| &path[..at]);
        if let Some(&at) = folders
            .chain([*path])
            .filter_map(|folder| first_collision.get(folder))
            .min()
        {
            let collision = &collisions[at];
            found.insert(
                *index,
                format!("its folder cannot be written: {collision}; neither is written"),
            );
        }
    }
    // One skill given inside another's folder: writing the outer one would
    // replace it, and it would change the outer one's files.
    let given: std::collections::HashSet<&str> = paths.iter().map(|(_, path)| *path).collect();
    for (index, path) in &paths {
        let mut outers = path.match_indices('/').map(|(at, _)| &path[..at]);
        if let Some(outer) = outers.find(|outer| given.contains(outer)) {
            found.entry(*index).or_insert_with(|| {
                format!("it lies inside `{outer}`, the folder of another skill given; a skill's folder holds its own files only")
            });
        }
    }
    // Against the target: each folder on the way to a skill, beside the
    // entries already there (each folder read and its names folded once,
    // links not followed). A folder on the way that holds a skill (its
    // `SKILL.md` or a writer's record) is that skill's: nothing is written
    // into it, whoever wrote it.
    let skill_keys = [
        names::fold_case(skills_core::SKILL_MD),
        names::fold_case(RECORD_FILE),
    ];
    let mut listed: BTreeMap<String, HashMap<String, Vec<String>>> = BTreeMap::new();
    for (index, path) in &paths {
        let mut parent = String::new();
        for name in path.split('/') {
            let entries = listed.entry(parent.clone()).or_insert_with(|| {
                let mut by_key: HashMap<String, Vec<String>> = HashMap::new();
                for entry in disk::entries(root, &parent) {
                    by_key
                        .entry(names::fold_case(&entry))
                        .or_default()
                        .push(entry);
                }
                by_key
            });
            if !parent.is_empty()
                && let Some(held) = skill_keys
                    .iter()
                    .find_map(|key| entries.get(key).and_then(|held| held.first()))
            {
                found.entry(*index).or_insert_with(|| {
                    format!(
                        "it would be written inside `{parent}`, the folder of another skill (it holds `{parent}/{held}`); a skill is never written into another skill's folder"
                    )
                });
                break;
            }
            let alike = entries.get(&names::fold_case(name));
            if let Some(there) = alike.and_then(|alike| alike.iter().find(|entry| *entry != name)) {
                let here = relpath::join(&parent, name);
                let there = relpath::join(&parent, there);
                found.entry(*index).or_insert_with(|| {
                    let collision = names::CaseCollision {
                        path: &here,
                        earlier: &there,
                    };
                    format!(
                        "its folder cannot be written: {collision} (`{there}` is already in the folder)"
                    )
                });
                break;
            }
            if !alike.is_some_and(|alike| alike.iter().any(|entry| entry == name)) {
                break; // Nothing deeper exists.
            }
            parent = relpath::join(&parent, name);
        }
    }
    found
}

/// Why a skill must not reach the disk at all, if it must not.
fn refusal(skill: &SkillWrite<'_>) -> Option<String> {
    if let Err(problem) = names::check_path(&skill.path) {
        return Some(format!(
            "its folder `{}` cannot be written: {problem}",
            skill.path
        ));
    }
    // The writer's scratch folders are skipped when it looks for orphans and
    // for names that collide, and removed once stale: a skill there would
    // be out of its sight.
    if let Some(segment) = skill
        .path
        .split('/')
        .find(|segment| disk::is_scratch(segment))
    {
        return Some(format!(
            "its folder `{}` cannot be written: `{segment}` is a name the writer keeps for its own scratch folders",
            skill.path
        ));
    }
    let mut paths = Vec::with_capacity(skill.files.len());
    for file in &skill.files {
        if let Err(problem) = names::check_path(&file.path) {
            return Some(format!(
                "the file `{}` cannot be written: {problem}",
                file.path
            ));
        }
        if names::fold_case(&file.path) == names::fold_case(RECORD_FILE) {
            return Some(format!(
                "the file `{}` would take the place of the writer's record",
                file.path
            ));
        }
        paths.push(file.path.as_ref());
    }
    paths.sort_unstable();
    if let Some(pair) = paths.windows(2).find(|pair| pair[0] == pair[1]) {
        return Some(format!("the file `{}` is listed twice", pair[0]));
    }
    if let Some(collision) = names::case_collisions(paths.iter().copied()).first() {
        return Some(collision.to_string());
    }
    // A file whose path is a folder of another (`a` and `a/b`) cannot be written.
    let files: std::collections::HashSet<&str> = paths.iter().copied().collect();
    for path in &paths {
        for (at, _) in path.match_indices('/') {
            if files.contains(&path[..at]) {
                return Some(format!(
                    "`{}` is both a file and the folder of `{path}`",
                    &path[..at]
                ));
            }
        }
    }
    None
}
