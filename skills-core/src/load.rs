//! The whole journey from a folder on disk to a validated [`Skills`] set:
//! walk → layout rules → read → parse → validate → digest → tables.
//!
//! `embed_skills!` runs this inside rustc; the runtime's live loader and the
//! CLI run the very same function, so a tree that embeds also loads, with the
//! same messages.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, Diagnostics, Position, Report, Rule};
use crate::model::{Digest, Skill, SkillFile, Skills};
use crate::names::{self, PathProblem};
use crate::skill_md::{self, SkillMdContext};
use crate::walk::{self, Entry, Kind};
use crate::{
    MAX_FILE_BYTES, MAX_PATH_CHARS, MAX_SKILL_BYTES, MAX_SKILL_FILES, SKILL_MD, digest, fields,
    frontmatter, mime, secrets, uri,
};

/// Choices a caller makes about a tree. The defaults are the strict rules.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Options {
    /// How the root is named in messages (`skills`, `$SKILLS_DIR`); the
    /// root's path as given when `None`.
    pub display_root: Option<String>,
    /// Top-level frontmatter keys to accept besides the six the specification
    /// defines (`disable-model-invocation`, `dependencies`, …).
    pub allow_fields: Vec<String>,
    /// Whether relative links and paths in `SKILL.md` bodies must name files
    /// of the skill.
    pub check_links: bool,
    /// Files (relative to the root) that may contain credential-shaped text,
    /// such as a deliberately fake key in a tutorial.
    pub allow_secrets_in: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            display_root: None,
            allow_fields: Vec::new(),
            check_links: true,
            allow_secrets_in: Vec::new(),
        }
    }
}

/// A loaded tree: the skills, and where each file came from on disk.
#[derive(Debug, Clone)]
pub struct Loaded {
    skills: Skills,
    root: PathBuf,
    /// Each skill's folder relative to the root, in the order of `skills`.
    folders: Vec<String>,
}

impl Loaded {
    /// The validated skills.
    pub fn skills(&self) -> &Skills {
        &self.skills
    }

    /// Takes the skills out.
    pub fn into_skills(self) -> Skills {
        self.skills
    }

    /// The root the tree was loaded from.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The file on disk that `file` of the skill at `index` was read from.
    pub fn source_path(&self, index: usize, file: &SkillFile) -> PathBuf {
        let mut path = self.root.clone();
        for segment in self.folders[index].split('/').filter(|s| !s.is_empty()) {
            path.push(segment);
        }
        for segment in file.path().split('/') {
            path.push(segment);
        }
        path
    }
}

/// Loads, validates and digests every skill under `root`.
///
/// Every problem in every skill is reported at once in the [`Report`]; a
/// tree with any problem yields no skills.
pub fn load(root: &Path, options: &Options) -> Result<Loaded, Report> {
    let display = options
        .display_root
        .clone()
        .unwrap_or_else(|| root.display().to_string());
    let mut diagnostics = Diagnostics::new();
    let loaded = Loader {
        root,
        options,
        diagnostics: &mut diagnostics,
    }
    .run();
    let loaded = loaded.unwrap_or_else(|| Loaded {
        skills: Skills::empty(),
        root: root.to_path_buf(),
        folders: Vec::new(),
    });
    diagnostics.finish(&display, loaded)
}

struct Loader<'a> {
    root: &'a Path,
    options: &'a Options,
    diagnostics: &'a mut Diagnostics,
}

/// A skill folder found by the walk.
struct Found {
    /// Folder relative to the root (`""` when the root is the skill).
    folder: String,
    /// The SEP-2640 skill path (the root's own name prefixes it when the root is a skill).
    path: String,
}

impl Loader<'_> {
    fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    fn run(mut self) -> Option<Loaded> {
        let metadata = std::fs::metadata(self.root);
        if !metadata.as_ref().is_ok_and(|m| m.is_dir()) {
            let message = match metadata {
                Ok(_) => "the skills root is a file, not a folder".to_owned(),
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                    "the skills root does not exist".to_owned()
                }
                Err(error) => format!("the skills root cannot be read: {}", error.kind()),
            };
            self.report(
                Diagnostic::new(Rule::RootMissing, "", message)
                    .hint("point at the folder that holds your skill folders"),
            );
            return None;
        }
        let entries = match walk::walk(self.root) {
            Ok(entries) => entries,
            Err(error) => {
                self.report(Diagnostic::new(
                    Rule::Io,
                    "",
                    format!("the skills root cannot be listed: {error}"),
                ));
                return None;
            }
        };
        let found = self.find_skills(&entries)?;
        self.check_layout(&entries, &found);
        let folders: HashSet<&str> = found.iter().map(|skill| skill.folder.as_str()).collect();
        let embedded: Vec<&Entry> = entries
            .iter()
            .filter(|entry| {
                matches!(entry.kind, Kind::File { .. })
                    && ancestors(&entry.rel).any(|dir| folders.contains(dir))
            })
            .collect();
        self.check_sizes(&embedded, &found);
        let allowed_secrets = self.allowed_secrets(&embedded);
        if self.diagnostics.has_errors() {
            // Layout problems make reading and parsing meaningless; report them alone.
            return None;
        }
        let contents = self.read(&embedded, &allowed_secrets);
        let skills = self.build(&found, contents);
        (!self.diagnostics.has_errors()).then(|| self.tables(&found, skills))
    }

    /// Every folder holding a `SKILL.md`, and whether the root is one.
    fn find_skills(&mut self, entries: &[Entry]) -> Option<Vec<Found>> {
        let root_name = self.root_name();
        let folders: BTreeSet<&str> = entries
            .iter()
            .filter(|entry| entry.name() == SKILL_MD && matches!(entry.kind, Kind::File { .. }))
            .map(Entry::parent)
            .collect();
        let single = folders.contains("");
        if folders.is_empty() {
            let hint = match entries
                .iter()
                .find(|e| e.name().eq_ignore_ascii_case(SKILL_MD))
            {
                Some(misnamed) => format!(
                    "found `{}`: the file must be named exactly `SKILL.md`",
                    misnamed.rel
                ),
                None => {
                    "each skill is a folder holding a SKILL.md; put skill folders here".to_owned()
                }
            };
            self.report(
                Diagnostic::new(
                    Rule::NoSkills,
                    "",
                    "no SKILL.md was found under the skills root",
                )
                .hint(hint),
            );
            return None;
        }
        let found = folders
            .into_iter()
            .map(|folder| {
                let path = match (single, folder.is_empty()) {
                    (true, true) => root_name.clone(),
                    (true, false) => format!("{root_name}/{folder}"),
                    (false, _) => folder.to_owned(),
                };
                Found {
                    folder: folder.to_owned(),
                    path,
                }
            })
            .collect();
        Some(found)
    }

    fn root_name(&self) -> String {
        let canonical = self
            .root
            .canonicalize()
            .unwrap_or_else(|_| self.root.to_path_buf());
        canonical
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// Names, links, special files, folders without skills, case collisions.
    fn check_layout(&mut self, entries: &[Entry], found: &[Found]) {
        let folders: HashSet<&str> = found.iter().map(|skill| skill.folder.as_str()).collect();
        // Every folder that is a skill or holds one, the root included.
        let holders: HashSet<&str> = found
            .iter()
            .flat_map(|skill| ancestors(&skill.folder))
            .collect();
        let inside = |rel: &str| ancestors(rel).any(|dir| folders.contains(dir));
        let holds_skill = |rel: &str| holders.contains(rel);
        // Paths inside a skill or holding one: their case collisions are checked.
        let mut checked: Vec<&str> = Vec::new();
        for entry in entries {
            if !inside(&entry.rel) && !holds_skill(&entry.rel) {
                // Outside every skill, loose files are ignored; a folder (or a
                // link to one) that holds no skill is reported once, at its top.
                if holds_skill(entry.parent()) {
                    match entry.kind {
                        Kind::Dir => self.not_a_skill(entry, entries),
                        Kind::Unreadable(_) | Kind::Symlink { to_dir: true, .. } => {
                            self.check_entry(entry);
                        }
                        _ => {}
                    }
                }
                continue;
            }
            self.check_entry(entry);
            if entry.kind == Kind::NonUtf8 {
                continue;
            }
            checked.push(&entry.rel);
        }
        // Every folder above a checked path is checked too, so each collision
        // is reported once, at the entry where it starts.
        for collision in names::case_collisions(checked) {
            self.report(
                Diagnostic::new(Rule::CaseCollision, collision.path, collision.to_string())
                    .hint("rename one of them"),
            );
        }
    }

    fn not_a_skill(&mut self, entry: &Entry, entries: &[Entry]) {
        let misnamed = entries.iter().find(|other| {
            walk::is_within(&other.rel, &entry.rel) && other.name().eq_ignore_ascii_case(SKILL_MD)
        });
        let hint = match misnamed {
            Some(other) => format!(
                "`{}` must be named exactly `SKILL.md` (upper case, `.md` lower case)",
                other.rel
            ),
            None => {
                "add a SKILL.md to make it a skill, or move it out of the skills root".to_owned()
            }
        };
        self.report(
            Diagnostic::new(
                Rule::NotASkill,
                entry.rel.clone(),
                format!(
                    "the folder `{}` holds no SKILL.md, so it is not a skill",
                    entry.rel
                ),
            )
            .hint(hint),
        );
    }

    fn check_entry(&mut self, entry: &Entry) {
        let rel = entry.rel.clone();
        match &entry.kind {
            Kind::NonUtf8 => self.report(
                Diagnostic::new(Rule::NonUtf8Name, rel, "this name is not valid UTF-8, so no URI can carry it")
                    .hint("rename it using UTF-8 characters"),
            ),
            Kind::Symlink { target, .. } => self.report(
                Diagnostic::new(
                    Rule::Symlink,
                    rel,
                    format!("this is a symbolic link (to `{target}`); links are never followed, so its content would be missing"),
                )
                .hint("replace the link with a copy of what it points to"),
            ),
            Kind::Special => self.report(
                Diagnostic::new(Rule::SpecialFile, rel, "this is a FIFO, socket or device, not a regular file")
                    .hint("remove it from the skills tree"),
            ),
            Kind::Unreadable(error) => self.report(Diagnostic::new(
                Rule::Io,
                rel,
                format!("this entry cannot be read: {error}"),
            )),
            Kind::File { .. } | Kind::Dir => {
                if let Err(problem) = names::check_name(entry.name()) {
                    self.report(
                        Diagnostic::new(Rule::UnportableName, rel, format!("the name `{}` {problem}", entry.name()))
                            .hint("rename it using letters, digits, `-`, `_`, `.` and spaces"),
                    );
                }
            }
        }
    }

    /// Per-file and per-skill limits, judged from sizes on disk before reading.
    fn check_sizes(&mut self, embedded: &[&Entry], found: &[Found]) {
        for entry in embedded {
            let Kind::File { len, .. } = entry.kind else {
                continue;
            };
            if len > MAX_FILE_BYTES {
                self.report(
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
        for skill in found {
            let mut count = 0usize;
            let mut bytes = 0u64;
            for entry in crate::model::sorted_below(embedded, |entry| &entry.rel, &skill.folder) {
                let Kind::File { len, .. } = entry.kind else {
                    continue;
                };
                count += 1;
                bytes += len;
                let within = entry.rel[skill.folder.len()..].trim_start_matches('/');
                if let Err(PathProblem::TooLong { chars }) = names::check_path(within) {
                    self.report(Diagnostic::new(
                        Rule::PathTooLong,
                        entry.rel.clone(),
                        format!("this path is {chars} characters inside its skill; hosts refuse paths over {MAX_PATH_CHARS}"),
                    ));
                }
            }
            let file = skill_md_rel(&skill.folder);
            if count > MAX_SKILL_FILES {
                self.report(
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
                self.report(
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
    }

    fn allowed_secrets(&mut self, embedded: &[&Entry]) -> BTreeSet<String> {
        let mut allowed = BTreeSet::new();
        for path in &self.options.allow_secrets_in {
            let path = path.trim_start_matches("./").to_owned();
            if embedded.iter().any(|entry| entry.rel == path) {
                allowed.insert(path);
            } else {
                self.report(
                    Diagnostic::new(
                        Rule::Secret,
                        "",
                        format!("`allow_secrets_in` names `{path}`, which is not a file of any skill"),
                    )
                    .hint("give the path relative to the skills root, like `my-skill/references/example.pem`"),
                );
            }
        }
        allowed
    }

    /// Reads, hashes and scans each embedded file once.
    fn read(
        &mut self,
        embedded: &[&Entry],
        allowed_secrets: &BTreeSet<String>,
    ) -> BTreeMap<String, Content> {
        let mut contents = BTreeMap::new();
        for entry in embedded {
            let Kind::File { executable, .. } = entry.kind else {
                continue;
            };
            let path = self.source(&entry.rel);
            let bytes = match std::fs::read(&path) {
                Ok(bytes) => bytes,
                Err(error) => {
                    self.report(Diagnostic::new(
                        Rule::Io,
                        entry.rel.clone(),
                        format!("cannot read this file: {error}"),
                    ));
                    continue;
                }
            };
            if bytes.len() as u64 > MAX_FILE_BYTES {
                continue; // Grew while we walked; reported on the next build.
            }
            let digest = digest::of(&bytes);
            let body = mime::into_text(bytes);
            if let Ok(text) = &body
                && !allowed_secrets.contains(&entry.rel)
            {
                for finding in secrets::scan(text) {
                    let at = Position::of_offset(text, finding.offset);
                    self.report(
                        Diagnostic::new(
                            Rule::Secret,
                            entry.rel.clone(),
                            format!("this looks like a real {}; everything in a skill can end up in a model's context and be copied out", finding.kind),
                        )
                        .at(at.line, at.column)
                        .hint(format!("remove it and load credentials at run time; if it is a deliberate fake, allow it: `allow_secrets_in = [\"{}\"]`", entry.rel)),
                    );
                }
            }
            contents.insert(
                entry.rel.clone(),
                Content {
                    body,
                    digest,
                    executable,
                },
            );
        }
        contents
    }

    fn source(&self, rel: &str) -> PathBuf {
        let mut path = self.root.to_path_buf();
        for segment in rel.split('/') {
            path.push(segment);
        }
        path
    }

    /// Parses and validates each skill's SKILL.md and assembles its files.
    fn build(
        &mut self,
        found: &[Found],
        mut contents: BTreeMap<String, Content>,
    ) -> Vec<(usize, Skill)> {
        let mut skills = Vec::new();
        let mut names: HashMap<String, String> = HashMap::new();
        for (index, skill) in found.iter().enumerate() {
            let rel = skill_md_rel(&skill.folder);
            let Some((identity, parsed)) = self.check_skill(skill, &rel, &contents) else {
                continue;
            };
            // `found` is sorted, so a skill's nested skills come after it.
            let nested: Vec<&str> = found[index + 1..]
                .iter()
                .map(|other| other.folder.as_str())
                .filter(|folder| walk::is_within(folder, &skill.folder))
                .collect();
            let files = take_files(skill, &nested, &mut contents);
            if let Some(first) = names.insert(identity.name.clone(), skill.path.clone()) {
                let at = parsed.get("name").map(|entry| entry.value.at);
                self.report(
                    Diagnostic::new(
                        Rule::DuplicateName,
                        rel.clone(),
                        format!("the skill name `{}` is also used by `{first}`; hosts key skills by name", identity.name),
                    )
                    .at_position(at)
                    .hint("give one of them another name (and folder)"),
                );
            }
            let uri = uri::for_file(&skill.path, SKILL_MD);
            let items: Vec<(String, String, u64)> = files
                .iter()
                .map(|file| {
                    let file_uri = uri::for_file(&skill.path, file.path());
                    (file_uri, file.digest().to_string(), file.size())
                })
                .collect();
            let version = digest::revision(
                items
                    .iter()
                    .map(|(file_uri, digest, size)| (file_uri.as_str(), digest.as_str(), *size)),
            );
            skills.push((
                index,
                Skill::from_parts(
                    identity.name.into(),
                    identity.description.into(),
                    skill.path.clone().into(),
                    uri.into(),
                    parsed.extra_json.into(),
                    version.into(),
                    parsed.body_offset,
                    files.into(),
                ),
            ));
        }
        skills
    }

    /// Every check of one skill's SKILL.md: encoding, frontmatter, fields,
    /// links. `None` when any of them leaves the skill unusable.
    fn check_skill(
        &mut self,
        skill: &Found,
        rel: &str,
        contents: &BTreeMap<String, Content>,
    ) -> Option<(fields::Identity, frontmatter::Frontmatter)> {
        let content = contents.get(rel)?;
        let folder_name = skill.path.rsplit('/').next().unwrap_or(&skill.path);
        let paths: Option<Vec<&str>> = self.options.check_links.then(|| {
            under(contents, &skill.folder)
                .map(|(path, _)| path[skill.folder.len()..].trim_start_matches('/'))
                .collect()
        });
        let mut context = SkillMdContext::new(rel).folder_name(folder_name);
        if let Some(paths) = &paths {
            context = context.files(paths);
        }
        skill_md::check(content.bytes(), &context, self.options, self.diagnostics)
    }

    /// The sorted tables.
    fn tables(&self, found: &[Found], mut skills: Vec<(usize, Skill)>) -> Loaded {
        skills.sort_by(|a, b| a.1.path().cmp(b.1.path()));
        let fingerprint = digest::fingerprint(
            skills
                .iter()
                .map(|(_, skill)| (skill.uri(), skill.version())),
        );
        let folders = skills
            .iter()
            .map(|(index, _)| found[*index].folder.clone())
            .collect();
        let skills: Vec<Skill> = skills.into_iter().map(|(_, skill)| skill).collect();
        Loaded {
            skills: Skills::from_parts(skills.into(), fingerprint.into(), None),
            root: self.root.to_path_buf(),
            folders,
        }
    }
}

/// A file's bytes (as a string when they are text) and what was derived from them.
#[derive(Clone)]
struct Content {
    body: Result<String, Vec<u8>>,
    digest: Digest,
    executable: bool,
}

impl Content {
    fn bytes(&self) -> &[u8] {
        match &self.body {
            Ok(text) => text.as_bytes(),
            Err(bytes) => bytes,
        }
    }
}

fn skill_md_rel(folder: &str) -> String {
    if folder.is_empty() {
        SKILL_MD.to_owned()
    } else {
        format!("{folder}/{SKILL_MD}")
    }
}

/// The contents below `folder` (`""`: all), in path order.
fn under<'c>(
    contents: &'c BTreeMap<String, Content>,
    folder: &str,
) -> std::collections::btree_map::Range<'c, String, Content> {
    if folder.is_empty() {
        contents.range::<str, _>(..)
    } else {
        // Paths below `folder/` sort between `folder/` and `folder0` ('0' follows '/').
        contents.range::<str, _>((
            std::ops::Bound::Included(format!("{folder}/").as_str()),
            std::ops::Bound::Excluded(format!("{folder}0").as_str()),
        ))
    }
}

/// Every file below the skill's folder, ordered by its path inside the skill.
/// A file inside one of its `nested` skills is copied, since that skill takes
/// it later; every other file's bytes are moved, not copied.
fn take_files(
    skill: &Found,
    nested: &[&str],
    contents: &mut BTreeMap<String, Content>,
) -> Vec<SkillFile> {
    let rels: Vec<String> = under(contents, &skill.folder)
        .map(|(rel, _)| rel.clone())
        .collect();
    let mut files = Vec::with_capacity(rels.len());
    for rel in rels {
        let content = if nested.iter().any(|folder| walk::is_within(&rel, folder)) {
            contents[&rel].clone()
        } else {
            contents.remove(&rel).expect("listed above")
        };
        let within = Cow::Owned(rel[skill.folder.len()..].trim_start_matches('/').to_owned());
        let (digest, executable) = (content.digest, content.executable);
        files.push(match content.body {
            Ok(text) => SkillFile::from_text(within, Cow::Owned(text), digest, executable),
            Err(bytes) => SkillFile::from_binary(within, Cow::Owned(bytes), digest, executable),
        });
    }
    files
}

/// `rel`, then each folder above it, up to the root (`""`).
fn ancestors(rel: &str) -> impl Iterator<Item = &str> {
    std::iter::successors(Some(rel), |dir| {
        (!dir.is_empty()).then(|| walk::parent(dir))
    })
}
