//! Validate step for the tree: which folders are skills, and the rules about
//! files and folders rather than their content: names a URI or another
//! operating system cannot carry, links, special files, folders that hold no
//! skill, case collisions, and the size limits (judged from sizes on disk,
//! before anything is read).

use std::collections::BTreeSet;

use rustc_hash::FxHashSet as HashSet;

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::names::{self, PathProblem};
use crate::rules::Rule;
use crate::walk::{Entry, Kind};
use crate::{MAX_FILE_BYTES, MAX_PATH_CHARS, MAX_SKILL_BYTES, MAX_SKILL_FILES, SKILL_MD, relpath};

/// A skill folder found in the tree.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    /// Folder relative to the root (`""` when the root is the skill).
    pub folder: String,
    /// The SEP-2640 skill path (the root's own name prefixes it when the root is a skill).
    pub path: String,
    /// The name of its main file (`SKILL.md` unless the `main_file` option says otherwise).
    pub main_file: &'static str,
}

impl Found {
    /// The skill's main file (its `SKILL.md`), relative to the root.
    pub(crate) fn skill_md(&self) -> String {
        relpath::join(&self.folder, self.main_file)
    }

    /// The name of the skill's folder, which `name` must equal.
    pub(crate) fn folder_name(&self) -> &str {
        relpath::name(&self.path)
    }
}

/// Every folder holding a main file (`main_file`, `SKILL.md` by default),
/// sorted; `root_name` prefixes the paths when the root is itself a skill.
/// `None` (reported) when there is none, or when `main_file` is no plain
/// file name.
pub(crate) fn find_skills(
    entries: &[Entry],
    root_name: &str,
    main_file: &'static str,
    diagnostics: &mut Diagnostics,
) -> Option<Vec<Found>> {
    if let Err(problem) = names::check_name(main_file) {
        diagnostics.push(
            Diagnostic::new(
                Rule::MainFile,
                "",
                format!("the `main_file` option `{main_file}` is not a file name: it {problem}"),
            )
            .hint("name a file in each skill folder, like `SKILL.md` or `README.md`"),
        );
        return None;
    }
    let folders: BTreeSet<&str> = entries
        .iter()
        .filter(|entry| entry.name() == main_file && matches!(entry.kind, Kind::File { .. }))
        .map(Entry::parent)
        .collect();
    if folders.is_empty() {
        let hint = match entries
            .iter()
            .find(|e| e.name().eq_ignore_ascii_case(main_file) || e.name() == SKILL_MD)
        {
            Some(found) if main_file != SKILL_MD && found.name() == SKILL_MD => format!(
                "found `{}`: the main file is `{main_file}` here (the `main_file` option)",
                found.rel
            ),
            Some(misnamed) => format!(
                "found `{}`: the file must be named exactly `{main_file}`",
                misnamed.rel
            ),
            None => format!("each skill is a folder holding a {main_file}; put skill folders here"),
        };
        diagnostics.push(
            Diagnostic::new(
                Rule::NoSkills,
                "",
                format!("no {main_file} was found under the skills root"),
            )
            .hint(hint),
        );
        return None;
    }
    if main_file != SKILL_MD {
        // The main file is served as `SKILL.md`: another file of that name
        // would collide with it (in its folder) or be read as a skill by
        // every other reader (anywhere else in a skill).
        for entry in entries.iter().filter(|entry| {
            entry.name() == SKILL_MD
                && matches!(entry.kind, Kind::File { .. })
                && relpath::ancestors(&entry.rel).any(|dir| folders.contains(dir))
        }) {
            let message = if folders.contains(entry.parent()) {
                format!(
                    "this folder's main file is `{main_file}`, which is served as `SKILL.md`: this `SKILL.md` would be the same file"
                )
            } else {
                format!(
                    "the main file is `{main_file}` (the `main_file` option), so this `SKILL.md` is a plain file here, but every other reader takes it for a skill"
                )
            };
            diagnostics.push(
                Diagnostic::new(Rule::MainFile, entry.rel.clone(), message).hint(
                    "rename it, or drop the `main_file` option to make `SKILL.md` the main file",
                ),
            );
        }
    }
    let single = folders.contains("");
    let found = folders
        .into_iter()
        .map(|folder| Found {
            main_file,
            folder: folder.to_owned(),
            path: if single {
                relpath::join(root_name, folder)
            } else {
                folder.to_owned()
            },
        })
        .collect();
    Some(found)
}

/// Names, links, special files, folders without skills, case collisions.
pub(crate) fn check_entries(entries: &[Entry], found: &[Found], diagnostics: &mut Diagnostics) {
    let folders: HashSet<&str> = found.iter().map(|skill| skill.folder.as_str()).collect();
    // Every folder that is a skill or holds one, the root included.
    let holders: HashSet<&str> = found
        .iter()
        .flat_map(|skill| relpath::ancestors(&skill.folder))
        .collect();
    let inside = |rel: &str| relpath::ancestors(rel).any(|dir| folders.contains(dir));
    let holds_skill = |rel: &str| holders.contains(rel);
    // Paths inside a skill or holding one: their case collisions are checked.
    let mut checked: Vec<&str> = Vec::new();
    for entry in entries {
        if !inside(&entry.rel) && !holds_skill(&entry.rel) {
            // Outside every skill, loose files are ignored; a folder (or a
            // link to one) that holds no skill is reported once, at its top.
            if holds_skill(entry.parent()) {
                match entry.kind {
                    Kind::Dir => not_a_skill(entry, entries, found, diagnostics),
                    Kind::Unreadable(_) | Kind::Symlink { to_dir: true, .. } => {
                        check_entry(entry, diagnostics);
                    }
                    _ => {}
                }
            }
            continue;
        }
        check_entry(entry, diagnostics);
        if entry.kind == Kind::NonUtf8 {
            continue;
        }
        checked.push(&entry.rel);
    }
    // Every folder above a checked path is checked too, so each collision
    // is reported once, at the entry where it starts.
    for collision in names::case_collisions(checked) {
        diagnostics.push(
            Diagnostic::new(Rule::CaseCollision, collision.path, collision.to_string())
                .hint("rename one of them"),
        );
    }
}

fn not_a_skill(entry: &Entry, entries: &[Entry], found: &[Found], diagnostics: &mut Diagnostics) {
    let main_file = found.first().map_or(SKILL_MD, |skill| skill.main_file);
    let misnamed = entries.iter().find(|other| {
        relpath::is_within(&other.rel, &entry.rel)
            && (other.name().eq_ignore_ascii_case(main_file) || other.name() == SKILL_MD)
    });
    let hint = match misnamed {
        Some(other) if other.name() == SKILL_MD && main_file != SKILL_MD => format!(
            "`{}`: the main file is `{main_file}` here (the `main_file` option)",
            other.rel
        ),
        Some(other) if main_file == SKILL_MD => format!(
            "`{}` must be named exactly `SKILL.md` (upper case, `.md` lower case)",
            other.rel
        ),
        Some(other) => format!(
            "`{}` must be named exactly `{main_file}` (the same letter case)",
            other.rel
        ),
        None => format!("add a {main_file} to make it a skill, or move it out of the skills root"),
    };
    diagnostics.push(
        Diagnostic::new(
            Rule::NotASkill,
            entry.rel.clone(),
            format!(
                "the folder `{}` holds no {main_file}, so it is not a skill",
                entry.rel
            ),
        )
        .hint(hint),
    );
}

fn check_entry(entry: &Entry, diagnostics: &mut Diagnostics) {
    if matches!(entry.kind, Kind::File { .. } | Kind::Dir)
        && names::check_name(entry.name()).is_ok()
    {
        return; // The common case, without copying the path.
    }
    let rel = entry.rel.clone();
    let diagnostic = match &entry.kind {
        Kind::NonUtf8 => Diagnostic::new(
            Rule::NonUtf8Name,
            rel,
            "this name is not valid UTF-8, so no URI can carry it",
        )
        .hint("rename it using UTF-8 characters"),
        Kind::Symlink { target, .. } => crate::open::link_diagnostic(&rel, target),
        Kind::Special => crate::open::special_diagnostic(&rel),
        Kind::Unreadable(error) => {
            Diagnostic::new(Rule::Io, rel, format!("this entry cannot be read: {error}"))
        }
        Kind::File { .. } | Kind::Dir => match names::check_name(entry.name()) {
            Ok(()) => return,
            Err(problem) => Diagnostic::new(
                Rule::UnportableName,
                rel,
                format!("the name `{}` {problem}", entry.name()),
            )
            .hint("rename it using letters, digits, `-`, `_`, `.` and spaces"),
        },
    };
    diagnostics.push(diagnostic);
}

/// Per-file and per-skill limits, judged from sizes on disk before reading.
/// Returns the folders of the skills over a per-skill limit: only their
/// `SKILL.md` is worth reading.
pub(crate) fn check_sizes(
    files: &[&Entry],
    found: &[Found],
    diagnostics: &mut Diagnostics,
) -> HashSet<String> {
    for entry in files {
        let Kind::File { len, .. } = entry.kind else {
            continue;
        };
        if len > MAX_FILE_BYTES {
            diagnostics.push(
                Diagnostic::new(
                    Rule::FileTooLarge,
                    entry.rel.clone(),
                    format!(
                        "this file is {} bytes, {} over the {} bytes (12 MiB) one resources/read answer can carry once base64-encoded",
                        len,
                        len - MAX_FILE_BYTES,
                        MAX_FILE_BYTES
                    ),
                )
                .hint("split it, compress it, or serve it from somewhere else"),
            );
        }
    }
    let mut oversized = HashSet::default();
    for skill in found {
        let mut count = 0usize;
        let mut bytes = 0u64;
        for entry in relpath::sorted_below(files, |entry| &entry.rel, &skill.folder) {
            let Kind::File { len, .. } = entry.kind else {
                continue;
            };
            count += 1;
            bytes += len;
            let within = relpath::strip_folder(&entry.rel, &skill.folder).unwrap_or(&entry.rel);
            if let Err(PathProblem::TooLong { chars }) = names::check_path(within) {
                diagnostics.push(Diagnostic::new(
                    Rule::PathTooLong,
                    entry.rel.clone(),
                    format!(
                        "this path is {chars} characters inside its skill; hosts refuse paths over {MAX_PATH_CHARS}"
                    ),
                ));
            }
        }
        let file = skill.skill_md();
        if count > MAX_SKILL_FILES {
            oversized.insert(skill.folder.clone());
            diagnostics.push(
                Diagnostic::new(
                    Rule::TooManyFiles,
                    file.clone(),
                    format!(
                        "the skill `{}` has {count} files, {} more than the {MAX_SKILL_FILES} SEP-2640 allows per skill",
                        skill.path,
                        count - MAX_SKILL_FILES
                    ),
                )
                .hint("split it into several skills, or bundle small files into an archive"),
            );
        }
        if bytes > MAX_SKILL_BYTES {
            oversized.insert(skill.folder.clone());
            diagnostics.push(
                Diagnostic::new(
                    Rule::SkillTooLarge,
                    file,
                    format!(
                        "the skill `{}` holds {bytes} bytes, {} over the {MAX_SKILL_BYTES} bytes (16 MiB) SEP-2640 allows per skill",
                        skill.path,
                        bytes - MAX_SKILL_BYTES
                    ),
                )
                .hint("split it into several skills, or move large assets out of it"),
            );
        }
    }
    oversized
}

/// The files of `allow_secrets_in` that are files of a skill; the others are
/// reported.
pub(crate) fn allowed_secrets(
    allow_secrets_in: &[String],
    files: &[&Entry],
    diagnostics: &mut Diagnostics,
) -> BTreeSet<String> {
    let mut allowed = BTreeSet::new();
    for path in allow_secrets_in {
        let path = path.trim_start_matches("./").to_owned();
        if files.iter().any(|entry| entry.rel == path) {
            allowed.insert(path);
        } else {
            diagnostics.push(
                Diagnostic::new(
                    Rule::Secret,
                    "",
                    format!(
                        "the `allow_secrets_in` option names `{path}`, which is not a file of any skill"
                    ),
                )
                .hint("give the path relative to the skills root, like `my-skill/references/example.pem`"),
            );
        }
    }
    allowed
}
