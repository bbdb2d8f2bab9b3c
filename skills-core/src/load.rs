//! The whole journey from folders on disk to a validated [`Skills`] set:
//! walk → layout rules → read → parse → validate → digest → tables.
//!
//! This module only orchestrates: each step lives in its own module
//! (`walk`, `layout`, `skill_md`, `fields`, `links`, `secrets`, `digest`).
//! Every step reports into one collector and the walk goes on past every
//! problem, so one run names every problem in every skill.
//!
//! Three entry points share that run:
//! - [`load`]: strict; any error means no skills (what `embed_skills!` runs);
//! - [`load_lenient`]: every valid skill loads, each invalid one is refused
//!   and reported (what a live loader serving a folder wants);
//! - [`load_roots`]: several roots merged leniently, the first winning on a
//!   name (an agent's folders, several agents' folders).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::path::{Path, PathBuf};

use crate::checked::CheckedSkill;
use crate::diagnostic::{Diagnostic, Diagnostics, Report};
use crate::digest::Digest;
use crate::layout::{self, Found};
use crate::listing::{self, Listing};
use crate::options::Options;
use crate::read_cache::{self, ReadCache};
use crate::reading::{Reading, root_name};
use crate::rules::{Rule, Severity};
use crate::skill_md::{self, SkillMdContext};
use crate::walk::{self, Entry, HiddenEntry, Kind};
use crate::{SKILL_MD, Skill, SkillFile, Skills};
use crate::{digest, gate, generated, links, mime, relpath, secrets, servable};

/// A loaded set: the skills, where each file came from on disk, and the
/// warnings (what the specification only recommends) found on the way.
#[derive(Debug, Clone)]
pub struct Loaded {
    skills: Skills,
    roots: Vec<PathBuf>,
    /// Each skill's root (an index into `roots`) and folder relative to it,
    /// in the order of `skills`.
    sources: Vec<(usize, String)>,
    warnings: Vec<Diagnostic>,
    /// The hidden entries the walks passed over (never served; some readers
    /// serve them), with their root, sorted by root and path.
    hidden: Vec<(usize, HiddenEntry)>,
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

    /// The root the set was loaded from (the first one, for [`load_roots`]).
    pub fn root(&self) -> &Path {
        self.roots.first().map_or(Path::new(""), PathBuf::as_path)
    }

    /// Every root the set was loaded from, in order.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// The folder on disk of the skill at `index` (in [`Skills::skills`] order).
    pub fn skill_dir(&self, index: usize) -> PathBuf {
        let (root, folder) = &self.sources[index];
        relpath::on_disk(&self.roots[*root], folder)
    }

    /// The folder of the skill at `index`, relative to its root (`""` when
    /// the root is the skill).
    pub fn skill_folder(&self, index: usize) -> &str {
        &self.sources[index].1
    }

    /// Which of [`roots`](Self::roots) the skill at `index` was loaded from.
    pub fn skill_root_index(&self, index: usize) -> usize {
        self.sources[index].0
    }

    /// For each skill (in [`Skills::skills`] order), the hidden entries
    /// (names starting with `.`) the walk passed over in its folder and
    /// below it (a nested skill's count for the skill holding it too), by
    /// path relative to the root; a hidden folder's contents are not
    /// walked. One pass: each entry looks up the folders above it, so a
    /// tree of many skills costs no scan of every entry per skill.
    pub(crate) fn hidden_by_skill(&self) -> Vec<Vec<&HiddenEntry>> {
        let skill_at: HashMap<(usize, &str), usize> = self
            .sources
            .iter()
            .enumerate()
            .map(|(index, (root, folder))| ((*root, folder.as_str()), index))
            .collect();
        let mut by_skill = vec![Vec::new(); self.sources.len()];
        for (root, hidden) in &self.hidden {
            for folder in relpath::ancestors(&hidden.0.rel).skip(1) {
                if let Some(&index) = skill_at.get(&(*root, folder)) {
                    by_skill[index].push(hidden);
                }
            }
        }
        by_skill
    }

    /// The file on disk that `file` of the skill at `index` was read from
    /// (its main file, whatever its name, for `SKILL.md`).
    pub fn source_path(&self, index: usize, file: &SkillFile) -> PathBuf {
        let skill = &self.skills.skills()[index];
        relpath::on_disk(&self.skill_dir(index), &skill.disk_path(file))
    }

    /// The warnings of the skills that loaded: a `SKILL.md` over 500 lines
    /// or about 5,000 tokens, references nested more than one level deep,
    /// and (for [`load_roots`]) skills shadowed by an earlier root. Their
    /// files are relative to their root.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }
}

/// Loads, validates and digests every skill under `root`, strictly.
///
/// Every problem in every skill is reported at once in the [`Report`]; a
/// tree with any error yields no skills. Warnings never fail the load: they
/// are in [`Loaded::warnings`] (and in the report, when it fails).
pub fn load(root: &Path, options: &Options) -> Result<Loaded, Report> {
    load_with(root, options, false).map(|(loaded, _)| loaded)
}

/// [`load`], and the [`Listing`] of the very bytes it loaded (`None` when a
/// file outside every skill could not be read): what a front end keys a
/// memo of its result by, as `embed_skills!` does.
pub fn load_listed(root: &Path, options: &Options) -> Result<(Loaded, Option<Listing>), Report> {
    load_with(root, options, true)
}

fn load_with(
    root: &Path,
    options: &Options,
    list: bool,
) -> Result<(Loaded, Option<Listing>), Report> {
    let mut scan = Scan::run(root, options, list);
    let listing = scan.listing.take();
    let report = Report::new(display_root(root, options), scan.diagnostics);
    if report.has_errors() {
        return Err(report);
    }
    let built = scan
        .skills
        .into_iter()
        .map(|(index, skill)| (0, scan.found[index].folder.clone(), skill))
        .collect();
    let pending = scan.pending.into_iter().map(|(_, path)| path).collect();
    let hidden = scan.hidden.into_iter().map(|entry| (0, entry)).collect();
    let loaded = tables(
        vec![root.to_path_buf()],
        built,
        report.diagnostics().to_vec(),
        pending,
        hidden,
    );
    Ok((loaded, listing))
}

/// The result of a lenient load: every valid skill, and every problem.
#[derive(Debug, Clone)]
pub struct Lenient {
    loaded: Loaded,
    reports: Vec<Report>,
    refused: Vec<Refused>,
}

/// A skill a lenient load left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Refused {
    /// Which root it was found under (an index into [`Lenient::reports`]).
    pub root: usize,
    /// Its folder relative to that root.
    pub folder: String,
    /// The errors that refused it (each also in its root's report).
    pub errors: Vec<Diagnostic>,
}

impl Lenient {
    /// The skills that passed, with their warnings.
    pub fn loaded(&self) -> &Loaded {
        &self.loaded
    }

    /// Takes the loaded set out.
    pub fn into_loaded(self) -> Loaded {
        self.loaded
    }

    /// The skills that passed.
    pub fn skills(&self) -> &Skills {
        self.loaded.skills()
    }

    /// One report per root, in order: every error and warning found under it.
    pub fn reports(&self) -> &[Report] {
        &self.reports
    }

    /// The skills left out, each with the errors that refused it.
    pub fn refused(&self) -> &[Refused] {
        &self.refused
    }

    /// Whether any root holds an error (a refused skill, a missing root, a
    /// stray folder): what a strict load would have failed on.
    pub fn has_errors(&self) -> bool {
        self.reports.iter().any(Report::has_errors)
    }
}

/// Loads every valid skill under `root` and reports each invalid one.
///
/// The same rules as [`load`], applied skill by skill: an error in a skill's
/// `SKILL.md` refuses that skill; an error about a file (a secret, a link,
/// an unportable name) refuses every skill that would serve it; problems
/// outside every skill (a stray folder) refuse nothing. When two skills
/// share a name, the first in path order loads. A missing root is reported
/// and loads nothing.
///
/// ```
/// # let root = std::env::temp_dir().join(format!("skills-core-doc-lenient-{}", std::process::id()));
/// # for (file, text) in [("good/SKILL.md", "---\nname: good\ndescription: Works.\n---\n"),
/// #                      ("bad/SKILL.md", "---\nname: other\ndescription: Misnamed.\n---\n")] {
/// #     let path = root.join(file);
/// #     std::fs::create_dir_all(path.parent().unwrap()).unwrap();
/// #     std::fs::write(path, text).unwrap();
/// # }
/// use skills_core::{Options, Rule, load_lenient};
///
/// let lenient = load_lenient(&root, &Options::default());
/// assert!(lenient.skills().get("good").is_some());
/// assert_eq!(lenient.refused()[0].folder, "bad");
/// assert_eq!(lenient.refused()[0].errors[0].rule, Rule::NameMismatch);
/// # std::fs::remove_dir_all(&root).unwrap();
/// ```
pub fn load_lenient(root: &Path, options: &Options) -> Lenient {
    merge(&[(root, display_root(root, options))], options, false)
}

/// Loads several roots leniently and merges them, the first winning: a skill
/// whose name (or path) a skill of an earlier root already has is left out,
/// with a `duplicate-name` warning naming both. Roots that do not exist are
/// skipped silently (an agent's folders rarely all exist); every other
/// problem is reported as [`load_lenient`] reports it. A root given twice
/// (two agents reading one folder) is read once. Each root is named in
/// messages by its path as given ([`Options::display_root`] is not used).
///
/// For an agent's folders, pass [`Agent::user_roots`](crate::vendor::Agent::user_roots)
/// (highest precedence first) and [`Agent::options`](crate::vendor::Agent::options).
pub fn load_roots<P: AsRef<Path>>(roots: &[P], options: &Options) -> Lenient {
    let named: Vec<(&Path, String)> = roots
        .iter()
        .map(|root| (root.as_ref(), root.as_ref().display().to_string()))
        .collect();
    merge(&named, options, true)
}

fn display_root(root: &Path, options: &Options) -> String {
    options
        .display_root
        .clone()
        .unwrap_or_else(|| root.display().to_string())
}

/// One built skill: where it was found, and the skill.
struct Built {
    root: usize,
    folder: String,
    skill: Skill,
}

fn merge(roots: &[(&Path, String)], options: &Options, skip_missing: bool) -> Lenient {
    let mut reports = Vec::new();
    let mut refused = Vec::new();
    let mut kept: Vec<Built> = Vec::new();
    let mut warnings = Vec::new();
    let mut pending = Vec::new();
    let mut hidden = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    for (index, (root, display)) in roots.iter().enumerate() {
        if skip_missing {
            let canonical = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
            if !root.exists() || seen.contains(&canonical) {
                reports.push(Report::new(display.clone(), Vec::new()));
                continue;
            }
            seen.push(canonical);
        }
        let mut scan = Scan::run(root, options, false);
        hidden.extend(
            std::mem::take(&mut scan.hidden)
                .into_iter()
                .map(|entry| (index, entry)),
        );
        let mut diagnostics: Vec<Diagnostic> = scan
            .diagnostics
            .into_iter()
            // Names are judged below, among the skills that pass.
            .filter(|d| d.rule != Rule::DuplicateName)
            .collect();
        let mut bad = refusals(&scan.found, &diagnostics);
        let mut names: HashMap<&str, String> = HashMap::default();
        let mut shadowed = Vec::new();
        for (found_index, skill) in &scan.skills {
            if bad.contains_key(found_index) {
                continue;
            }
            let found = &scan.found[*found_index];
            if let Some(first) = names.get(skill.name()) {
                let diagnostic = duplicate(found, skill, first, Severity::Error);
                bad.entry(*found_index)
                    .or_default()
                    .push(diagnostic.clone());
                diagnostics.push(diagnostic);
                continue;
            }
            names.insert(skill.name(), found.path.clone());
            // Against the skills of earlier roots: first wins, with a warning.
            let earlier = kept.iter().find(|other| {
                other.skill.name() == skill.name()
                    || relpath::is_within(other.skill.path(), skill.path())
                    || relpath::is_within(skill.path(), other.skill.path())
            });
            if let Some(other) = earlier {
                let first = relpath::join(&roots[other.root].1, &other.folder);
                let diagnostic = duplicate(found, skill, &first, Severity::Warning);
                diagnostics.push(diagnostic);
                shadowed.push(*found_index);
            }
        }
        pending.extend(
            scan.pending
                .iter()
                .filter(|(found_index, _)| {
                    !bad.contains_key(found_index) && !shadowed.contains(found_index)
                })
                .map(|(_, path)| path.clone()),
        );
        for (found_index, skill) in scan.skills {
            if bad.contains_key(&found_index) || shadowed.contains(&found_index) {
                continue;
            }
            kept.push(Built {
                root: index,
                folder: scan.found[found_index].folder.clone(),
                skill,
            });
        }
        for (found_index, errors) in bad {
            refused.push(Refused {
                root: index,
                folder: scan.found[found_index].folder.clone(),
                errors,
            });
        }
        let report = Report::new(display.clone(), diagnostics);
        // The warnings of what loaded travel with the set.
        warnings.extend(
            report
                .warnings()
                .filter(|warning| {
                    kept.iter().any(|built| {
                        built.root == index
                            && (warning.rule == Rule::DuplicateName
                                || relpath::is_within(&warning.file, &built.folder))
                    })
                })
                .cloned(),
        );
        reports.push(report);
    }
    refused.sort_by(|a, b| (a.root, &a.folder).cmp(&(b.root, &b.folder)));
    let roots_on_disk = roots.iter().map(|(root, _)| root.to_path_buf()).collect();
    let built = kept
        .into_iter()
        .map(|built| (built.root, built.folder, built.skill))
        .collect();
    Lenient {
        loaded: tables(roots_on_disk, built, warnings, pending, hidden),
        reports,
        refused,
    }
}

fn duplicate(found: &Found, skill: &Skill, first: &str, severity: Severity) -> Diagnostic {
    let (message, hint) = match severity {
        Severity::Error => (
            format!(
                "the skill name `{}` is also used by `{first}`; hosts key skills by name",
                skill.name()
            ),
            "give one of them another name (and folder)",
        ),
        Severity::Warning => (
            format!(
                "the skill `{}` is also provided by `{first}`, which comes first; this one is not served",
                skill.name()
            ),
            "rename one of them, or remove the copy you do not want",
        ),
    };
    let mut diagnostic = Diagnostic::new(Rule::DuplicateName, found.skill_md(), message).hint(hint);
    diagnostic.severity = severity;
    diagnostic
}

/// Which skills the errors refuse, each with its errors: an error about a
/// `SKILL.md` as a document refuses that skill; an error about a file or
/// folder refuses every skill that holds it.
fn refusals(found: &[Found], diagnostics: &[Diagnostic]) -> BTreeMap<usize, Vec<Diagnostic>> {
    let mut bad: BTreeMap<usize, Vec<Diagnostic>> = BTreeMap::new();
    for diagnostic in diagnostics.iter().filter(|d| d.is_error()) {
        if diagnostic.file.is_empty() {
            continue;
        }
        for (index, skill) in found.iter().enumerate() {
            let refuses = if diagnostic.rule.is_about_skill_md() {
                skill.skill_md() == diagnostic.file
            } else {
                relpath::is_within(&diagnostic.file, &skill.folder)
            };
            if refuses {
                bad.entry(index).or_default().push(diagnostic.clone());
            }
        }
    }
    bad
}

/// Everything one walk of one root found: the skill folders, the skills that
/// could be built (by index into `found`), and every problem.
struct Scan {
    found: Vec<Found>,
    /// The hidden entries the walk passed over.
    hidden: Vec<HiddenEntry>,
    skills: Vec<(usize, Skill)>,
    /// Files declared generated that are not on disk, with their skill (by
    /// index into `found`) and their path relative to the skills root.
    pending: Vec<(usize, String)>,
    diagnostics: Vec<Diagnostic>,
    /// With `list`, the tree's listing from what was read.
    listing: Option<Listing>,
}

impl Scan {
    fn run(root: &Path, options: &Options, list: bool) -> Self {
        let mut diagnostics = Diagnostics::new();
        let mut listing = None;
        let loader = Loader {
            root,
            options,
            diagnostics: &mut diagnostics,
            listing: list.then_some(&mut listing),
        };
        let (found, skills, pending, hidden) = loader.run().unwrap_or_default();
        Self {
            found,
            hidden,
            skills,
            pending,
            diagnostics: diagnostics.into_vec(),
            listing,
        }
    }
}

struct Loader<'a> {
    root: &'a Path,
    options: &'a Options,
    diagnostics: &'a mut Diagnostics,
    /// Where to put the tree's listing, when asked for one.
    listing: Option<&'a mut Option<Listing>>,
}

impl Loader<'_> {
    fn run(mut self) -> Option<Scanned> {
        if let Some(diagnostic) = check_root(self.root) {
            self.diagnostics.push(diagnostic);
            return None;
        }
        let (entries, hidden) =
            match walk::walk_with_hidden(self.root, self.options.follow_top_level_links) {
                Ok(walked) => walked,
                Err(error) => {
                    self.diagnostics.push(Diagnostic::new(
                        Rule::Io,
                        "",
                        format!("the skills root cannot be listed: {error}"),
                    ));
                    return None;
                }
            };
        let main_file = self.options.main_file_static();
        let found =
            layout::find_skills(&entries, &root_name(self.root), main_file, self.diagnostics)?;
        layout::check_entries(&entries, &found, self.diagnostics);
        let gated = self.gated(&found);
        let declared = generated::declared(&self.options.generated, &found, self.diagnostics);
        let reading = Reading::of(&entries, &found, self.diagnostics);
        let allowed_secrets = layout::allowed_secrets(
            &self.options.allow_secrets_in,
            &reading.files,
            self.diagnostics,
        );
        let (oversized, worth_reading) = (reading.oversized, reading.read);
        let contents = self.read(&worth_reading, &allowed_secrets);
        if let Some(slot) = self.listing.take() {
            *slot = list(self.options, &entries, &contents);
        }
        // Declared generated files not on disk: added at run time.
        let pending = declared
            .iter()
            .enumerate()
            .flat_map(|(index, within)| {
                let skill = &found[index];
                within
                    .iter()
                    .filter(|path| !contents.contains_key(&relpath::join(&skill.folder, path)))
                    .map(move |path| (index, relpath::join(&skill.path, path)))
            })
            .collect();
        let skills = self.build(&found, &oversized, contents, &gated, &declared);
        Some((found, skills, pending, hidden))
    }

    /// Which found skills the `gated` option names; a gated skill nested in
    /// one that is not is reported.
    fn gated(&mut self, found: &[Found]) -> Vec<bool> {
        let mut gates = gate::Gates::new(&self.options.gated, self.diagnostics);
        let gated: Vec<bool> = found
            .iter()
            .map(|skill| gates.covers(&skill.path))
            .collect();
        gates.report_unused(self.diagnostics);
        let skill_md = |path: &str| {
            found
                .iter()
                .find(|skill| skill.path == path)
                .map(Found::skill_md)
                .unwrap_or_default()
        };
        let nesting = servable::gated_nesting(
            found
                .iter()
                .zip(&gated)
                .map(|(skill, gated)| (skill.path.as_str(), *gated)),
            skill_md,
        );
        for problem in nesting {
            self.diagnostics.push(problem);
        }
        gated
    }

    /// Reads, hashes and scans each file once (the hashing and scanning
    /// spared for files the read cache vouches for).
    fn read(&mut self, files: &[&Entry], allowed_secrets: &BTreeSet<String>) -> Contents {
        let mut cache = self
            .options
            .cache_dir
            .as_deref()
            .map(|dir| ReadCache::open(dir, self.root));
        let mut contents = BTreeMap::new();
        let mut read = Vec::with_capacity(files.len());
        let mut unscanned_bytes = 0;
        for entry in files {
            let Kind::File { executable, id, .. } = entry.kind else {
                continue;
            };
            #[cfg(test)]
            before_read(self.root, &entry.rel);
            let path = relpath::on_disk(self.root, &entry.rel);
            let (bytes, stamp) = match read_cache::read_stamped(&path, id) {
                Ok(read) => read,
                Err(refusal) => {
                    self.diagnostics.push(refusal.diagnostic(&entry.rel));
                    continue;
                }
            };
            let cached = match (&cache, &stamp) {
                (Some(cache), Some(stamp)) => cache.get(&entry.rel, stamp).cloned(),
                _ => None,
            };
            let digest = match &cached {
                Some(cached) => cached.digest,
                None => digest::of(&bytes),
            };
            let body = mime::into_text(bytes);
            let scanned = body.is_ok() && !allowed_secrets.contains(&entry.rel);
            let findings = cached
                .and_then(|cached| cached.findings)
                .filter(|_| scanned);
            if scanned && findings.is_none() {
                unscanned_bytes += body.as_ref().map_or(0, String::len);
            }
            read.push(Read {
                rel: &entry.rel,
                content: Content {
                    body,
                    digest,
                    executable,
                },
                stamp,
                scanned,
                findings,
            });
        }
        // The secret scan, once it is known how much text the cache did not
        // vouch for: after a one-file edit, a few kilobytes, for which an
        // automaton that is cheap to build beats the fastest one.
        let scanner = secrets::Scanner::for_bytes(unscanned_bytes);
        for file in read {
            let mut findings = None;
            if file.scanned
                && let Ok(text) = &file.content.body
            {
                let found = file.findings.unwrap_or_else(|| scanner.scan(text));
                secrets::report(file.rel, text, &found, self.diagnostics);
                findings = Some(found);
            }
            if let (Some(cache), Some(stamp)) = (&mut cache, file.stamp) {
                cache.put(
                    file.rel,
                    read_cache::Entry {
                        stamp,
                        digest: file.content.digest,
                        findings,
                    },
                );
            }
            contents.insert(file.rel.to_owned(), file.content);
        }
        if let Some(cache) = cache {
            cache.save();
        }
        contents
    }

    /// Parses and validates each skill's `SKILL.md` and assembles its files.
    fn build(
        &mut self,
        found: &[Found],
        oversized: &HashSet<String>,
        mut contents: Contents,
        gated: &[bool],
        declared: &[Vec<String>],
    ) -> Vec<(usize, Skill)> {
        let mut skills = Vec::new();
        let mut names: HashMap<String, String> = HashMap::default();
        for (index, skill) in found.iter().enumerate() {
            let Some(checked) = self.check_skill(skill, &contents, gated[index], &declared[index])
            else {
                continue;
            };
            if let Some(first) = names.insert(checked.name.clone(), skill.path.clone()) {
                self.diagnostics.push(
                    Diagnostic::new(
                        Rule::DuplicateName,
                        skill.skill_md(),
                        format!(
                            "the skill name `{}` is also used by `{first}`; hosts key skills by name",
                            checked.name
                        ),
                    )
                    .at_position(checked.name_at)
                    .length(checked.name.chars().count())
                    .hint("give one of them another name (and folder)"),
                );
            }
            if oversized.contains(&skill.folder) {
                continue; // Reported; its files were not all read.
            }
            // `found` is sorted by folder, so a skill's nested skills are one
            // run after it (found by bisection: no scan of every later skill).
            let nested: Vec<&str> =
                relpath::sorted_below(&found[index + 1..], |other| &other.folder, &skill.folder)
                    .iter()
                    .map(|other| other.folder.as_str())
                    .collect();
            let files = take_files(skill, &nested, &mut contents);
            skills.push((
                index,
                assemble(skill, checked, files).with_gated(gated[index]),
            ));
        }
        skills
    }

    /// Every check of one skill's `SKILL.md`, then the warnings that need
    /// the skill's other files. `None` when the skill is unusable.
    fn check_skill(
        &mut self,
        skill: &Found,
        contents: &Contents,
        gated: bool,
        generated: &[String],
    ) -> Option<skill_md::Checked> {
        let rel = skill.skill_md();
        let content = contents.get(&rel)?;
        let mut paths: Vec<&str> = under(contents, &skill.folder)
            .map(|(path, _)| relpath::strip_folder(path, &skill.folder).unwrap_or(path))
            .collect();
        // Files added at start-up may be linked before they exist.
        for path in generated {
            if !paths.contains(&path.as_str()) {
                paths.push(path);
            }
        }
        let context = SkillMdContext::new(&rel)
            .folder_name(skill.folder_name())
            .files(&paths)
            .gated(gated);
        let checked = skill_md::check(content.bytes(), &context, self.options, self.diagnostics)?;
        if self.options.check_links
            && let Ok(text) = &content.body
        {
            let text_of = |path: &str| {
                contents
                    .get(&relpath::join(&skill.folder, path))
                    .and_then(|content| content.body.as_deref().ok())
            };
            links::check_referenced(
                text,
                checked.body_offset,
                &paths,
                &skill.folder,
                &text_of,
                self.diagnostics,
            );
        }
        Some(checked)
    }
}

/// The listing of the tree from the walk's `entries` and the digests of the
/// files the load read; the others' bytes change nothing a load gives, and
/// are not read (see [`Reading`]).
fn list(options: &Options, entries: &[Entry], contents: &Contents) -> Option<Listing> {
    listing::of_entries(options, entries, |entry| {
        Some(contents.get(&entry.rel).map(|content| content.digest))
    })
}

/// The skill folders a walk found, the skills built from them (by index),
/// and the declared generated files not on disk.
type Scanned = (
    Vec<Found>,
    Vec<(usize, Skill)>,
    Vec<(usize, String)>,
    Vec<HiddenEntry>,
);

/// Why the root is not a folder, if it is not.
fn check_root(root: &Path) -> Option<Diagnostic> {
    let metadata = std::fs::metadata(root);
    if metadata.as_ref().is_ok_and(|m| m.is_dir()) {
        return None;
    }
    let message = match metadata {
        Ok(_) => "the skills root is a file, not a folder".to_owned(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            "the skills root does not exist".to_owned()
        }
        Err(error) => format!("the skills root cannot be read: {}", error.kind()),
    };
    Some(
        Diagnostic::new(Rule::RootMissing, "", message)
            .hint("point at the folder that holds your skill folders"),
    )
}

/// One skill's entry: its identity, URI, revision and files.
fn assemble(skill: &Found, checked: skill_md::Checked, files: Vec<SkillFile>) -> Skill {
    CheckedSkill {
        name: checked.name,
        description: checked.description,
        path: skill.path.clone(),
        extra_json: checked.extra_json,
        body_offset: checked.body_offset,
        files,
    }
    .build()
    .with_main_file(skill.main_file)
}

/// The sorted tables of skills from several roots.
fn tables(
    roots: Vec<PathBuf>,
    mut built: Vec<(usize, String, Skill)>,
    warnings: Vec<Diagnostic>,
    mut pending: Vec<String>,
    hidden: Vec<(usize, HiddenEntry)>,
) -> Loaded {
    pending.sort_unstable();
    pending.dedup();
    let pending: Vec<Cow<'static, str>> = pending.into_iter().map(Cow::Owned).collect();
    built.sort_by(|a, b| a.2.path().cmp(b.2.path()));
    let fingerprint = digest::fingerprint(
        built
            .iter()
            .map(|(_, _, skill)| (skill.uri(), skill.version())),
    );
    let sources = built
        .iter()
        .map(|(root, folder, _)| (*root, folder.clone()))
        .collect();
    let skills: Vec<Skill> = built.into_iter().map(|(_, _, skill)| skill).collect();
    Loaded {
        skills: Skills::from_parts(skills.into(), fingerprint.into(), None)
            .with_pending(pending.into()),
        roots,
        sources,
        warnings,
        hidden,
    }
}

/// Every file read, by path relative to the root.
type Contents = BTreeMap<String, Content>;

/// A file read, before its secret scan.
struct Read<'e> {
    rel: &'e str,
    content: Content,
    stamp: Option<read_cache::Stamp>,
    /// Whether it is text to scan (not binary, not allowed to hold secrets).
    scanned: bool,
    /// The findings the read cache vouches for.
    findings: Option<Vec<secrets::Finding>>,
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

/// The contents below `folder` (`""`: all), in path order.
fn under<'c>(
    contents: &'c Contents,
    folder: &str,
) -> std::collections::btree_map::Range<'c, String, Content> {
    if folder.is_empty() {
        contents.range::<str, _>(..)
    } else {
        let (start, end) = relpath::below_bounds(folder);
        contents.range::<str, _>((
            std::ops::Bound::Included(start.as_str()),
            std::ops::Bound::Excluded(end.as_str()),
        ))
    }
}

/// Every file below the skill's folder, ordered by its path inside the skill.
/// A file inside one of its `nested` skills is copied, since that skill takes
/// it later; every other file's bytes are moved, not copied. A main file
/// with another name (the `main_file` option), the skill's own or a nested
/// skill's, is held as `SKILL.md`, the name it is served under.
fn take_files(skill: &Found, nested: &[&str], contents: &mut Contents) -> Vec<SkillFile> {
    let rels: Vec<String> = under(contents, &skill.folder)
        .map(|(rel, _)| rel.clone())
        .collect();
    let mut files = Vec::with_capacity(rels.len());
    for rel in rels {
        let content = if nested.iter().any(|folder| relpath::is_within(&rel, folder)) {
            contents[&rel].clone()
        } else {
            contents.remove(&rel).expect("listed above")
        };
        let within = relpath::strip_folder(&rel, &skill.folder).unwrap_or(&rel);
        let is_main = skill.main_file != SKILL_MD
            && relpath::name(within) == skill.main_file
            && (relpath::parent(within).is_empty() || nested.contains(&relpath::parent(&rel)));
        let within = if is_main {
            Cow::Owned(relpath::join(relpath::parent(within), SKILL_MD))
        } else {
            Cow::Owned(within.to_owned())
        };
        let (digest, executable) = (content.digest, content.executable);
        files.push(match content.body {
            Ok(text) => SkillFile::from_text(within, Cow::Owned(text), digest, executable),
            Err(bytes) => SkillFile::from_binary(within, Cow::Owned(bytes), digest, executable),
        });
    }
    if skill.main_file != SKILL_MD {
        files.sort_by(|a, b| a.path().cmp(b.path()));
    }
    files
}

/// What a test does to the tree between the walk and the read of a file.
#[cfg(test)]
type Hook = Box<dyn FnMut(&Path, &str)>;

#[cfg(test)]
thread_local! {
    static BEFORE_READ: std::cell::RefCell<Option<Hook>> = const { std::cell::RefCell::new(None) };
}

/// Called by the loader just before it opens `rel`: the window in which
/// a hostile folder swaps what the walk saw.
#[cfg(test)]
fn before_read(root: &Path, rel: &str) {
    BEFORE_READ.with(|hook| {
        if let Some(hook) = hook.borrow_mut().as_mut() {
            hook(root, rel);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::BEFORE_READ;
    use std::path::{Path, PathBuf};
    use std::time::Duration;

    use crate::{Options, Rule};

    const NOTES: &str = "pdf/references/notes.md";

    struct Tree(PathBuf);

    impl Tree {
        fn new(name: &str) -> Self {
            let base = std::env::temp_dir().join(format!(
                "skills-core-load-race-{name}-{}",
                std::process::id()
            ));
            let _ = std::fs::remove_dir_all(&base);
            for (rel, text) in [
                (
                    "skills/pdf/SKILL.md",
                    "---\nname: pdf\ndescription: Fills PDF forms. Use when a form arrives.\n---\nSee [notes](references/notes.md).\n",
                ),
                ("skills/pdf/references/notes.md", "the notes\n"),
                (
                    "skills/other/SKILL.md",
                    "---\nname: other\ndescription: Another skill. Use when asked.\n---\n",
                ),
                (
                    "outside/references/notes.md",
                    "SECRET from outside the folder\n",
                ),
                ("outside/secret", "SECRET from outside the folder\n"),
            ] {
                let path = base.join(rel);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
            Self(base)
        }

        fn root(&self) -> PathBuf {
            self.0.join("skills")
        }

        /// Loads leniently with `swap` run between the walk and the read of
        /// the notes.
        fn load_with(&self, mut swap: impl FnMut(&Path) + Send + 'static) -> crate::Lenient {
            load_on_thread(self.root(), move || {
                BEFORE_READ.with(|hook| {
                    *hook.borrow_mut() = Some(Box::new(move |root: &Path, rel: &str| {
                        if rel == NOTES {
                            swap(root);
                        }
                    }));
                });
            })
        }
    }

    /// Loads `root` leniently on a thread of its own, after `hooks` ran
    /// there (the test hooks are per thread); the load must end (a FIFO
    /// swapped in must not block it).
    fn load_on_thread(root: PathBuf, hooks: impl FnOnce() + Send + 'static) -> crate::Lenient {
        let (done, result) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            hooks();
            let _ = done.send(crate::load_lenient(&root, &Options::default()));
        });
        result
            .recv_timeout(Duration::from_secs(20))
            .expect("the load ended (a FIFO swapped in must not block it)")
    }

    /// That nothing from outside the folder was loaded, the other skill
    /// still loads and the pdf skill is refused.
    fn only_pdf_refused(lenient: &crate::Lenient) {
        for skill in lenient.skills().skills() {
            for file in skill.files() {
                assert!(
                    !file.bytes().windows(6).any(|w| w == b"SECRET"),
                    "bytes from outside the folder were loaded: {}",
                    file.path()
                );
            }
        }
        assert!(
            lenient.skills().get("other").is_some(),
            "the other skill still loads: {:?}",
            lenient.refused()
        );
        assert!(
            lenient.skills().get("pdf").is_none(),
            "the pdf skill is refused"
        );
    }

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// The refusal of the pdf skill, and that nothing from outside was loaded.
    fn refused(lenient: &crate::Lenient) -> Rule {
        only_pdf_refused(lenient);
        let errors = &lenient.refused()[0].errors;
        let error = errors
            .iter()
            .find(|e| e.file == NOTES)
            .expect("the notes are named");
        error.rule
    }

    #[cfg(unix)]
    #[test]
    fn a_link_renamed_over_a_file_after_the_walk_is_not_followed() {
        let tree = Tree::new("link");
        let secret = tree.0.join("outside/secret");
        let lenient = tree.load_with(move |root| {
            let link = root.join("pdf/references/.swap");
            std::os::unix::fs::symlink(&secret, &link).unwrap();
            std::fs::rename(&link, root.join(NOTES)).unwrap();
        });
        assert_eq!(refused(&lenient), Rule::Symlink);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_dev_zero_renamed_over_a_file_is_not_read() {
        let tree = Tree::new("zero");
        let lenient = tree.load_with(|root| {
            let link = root.join("pdf/references/.swap");
            std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
            std::fs::rename(&link, root.join(NOTES)).unwrap();
        });
        assert_eq!(refused(&lenient), Rule::Symlink);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_renamed_over_a_file_does_not_block_the_load() {
        let tree = Tree::new("fifo");
        let lenient = tree.load_with(|root| {
            let fifo = root.join("pdf/references/.swap");
            let made = std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap();
            assert!(made.success());
            std::fs::rename(&fifo, root.join(NOTES)).unwrap();
        });
        assert_eq!(refused(&lenient), Rule::SpecialFile);
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_swapped_for_a_link_after_the_walk_is_not_followed() {
        let tree = Tree::new("folder");
        let outside = tree.0.join("outside/references");
        let lenient = tree.load_with(move |root| {
            let folder = root.join("pdf/references");
            std::fs::rename(&folder, root.join("pdf/.old")).unwrap();
            std::os::unix::fs::symlink(&outside, &folder).unwrap();
        });
        assert_eq!(refused(&lenient), Rule::Io);
    }

    /// A folder swapped for a link to a folder outside after its parent
    /// was listed and before it is (`checked`: after the walk checked it is
    /// the folder its parent listed): the link's target must not be listed
    /// as the folder, nor anything of it read.
    #[cfg(unix)]
    #[test]
    fn a_folder_swapped_for_a_link_while_the_walk_lists_it_is_not_followed() {
        for checked in [false, true] {
            folder_swapped_while_listed(checked);
        }
    }

    #[cfg(unix)]
    fn folder_swapped_while_listed(checked: bool) {
        let tree = Tree::new(&format!("listing-{checked}"));
        let outside = tree.0.join("outside/references");
        let folder = tree.root().join("pdf/references");
        let lenient = load_on_thread(tree.root(), move || {
            let swap = move |folder: &Path| {
                std::fs::rename(folder, folder.with_file_name(".old")).unwrap();
                std::os::unix::fs::symlink(&outside, folder).unwrap();
            };
            if checked {
                crate::open::AFTER_CHECK.with(|hook| {
                    *hook.borrow_mut() = Some(Box::new(move |path: &Path| {
                        if path == folder {
                            swap(path);
                        }
                    }));
                });
            } else {
                crate::walk::BEFORE_LISTING.with(|hook| {
                    *hook.borrow_mut() = Some(Box::new(move |rel: &str| {
                        if rel == "pdf/references" {
                            swap(&folder);
                        }
                    }));
                });
            }
        });
        only_pdf_refused(&lenient);
        let said = format!("{:?}", lenient.refused());
        assert!(!said.contains("notes.md\", \"SECRET"), "{said}");
    }

    #[test]
    fn a_file_that_grew_past_the_limit_after_the_walk_is_not_read_whole() {
        let tree = Tree::new("grown");
        let lenient = tree.load_with(|root| {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(root.join(NOTES))
                .unwrap();
            file.set_len(1 << 30).unwrap(); // 1 GiB of holes
        });
        assert_eq!(refused(&lenient), Rule::FileTooLarge);
    }
}
