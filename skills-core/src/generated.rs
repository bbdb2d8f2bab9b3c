//! Files whose content is known only at run time (an API reference rendered
//! from the server's own OpenAPI document at start-up): the `generated`
//! option's declarations, which the loader checks, and [`add_files`], which
//! adds such files to a built set with the loader's rules and digests.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::checked::CheckedSkill;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::layout::Found;
use crate::options::Options;
use crate::rules::Rule;
use crate::{
    MAX_FILE_BYTES, MAX_SKILL_BYTES, MAX_SKILL_FILES, SKILL_MD, Skill, SkillFile, Skills, digest,
    frontmatter, gate, links, mime, names, relpath, secrets, servable,
};

/// For each found skill (by index), the paths inside it that `generated`
/// declares; each declaration that names no file a skill could hold is
/// reported.
pub(crate) fn declared(
    generated: &[String],
    found: &[Found],
    diagnostics: &mut Diagnostics,
) -> Vec<Vec<String>> {
    let mut declared = vec![Vec::new(); found.len()];
    for written in generated {
        let path = written.trim_start_matches("./");
        let refuse = |why: String| {
            Diagnostic::new(
                Rule::Generated,
                "",
                format!("the `generated` option names `{written}`, {why}"),
            )
            .hint("give the file's path relative to the skills root, like `platform/references/api.md`")
        };
        if let Err(problem) = names::check_path(path) {
            diagnostics.push(refuse(format!("which cannot be a file's path: {problem}")));
            continue;
        }
        // The innermost skill whose folder holds it (`found` is sorted, so
        // inner skills come after outer ones).
        let owner =
            found.iter().enumerate().rev().find(|(_, skill)| {
                skill.folder.is_empty() || relpath::is_below(path, &skill.folder)
            });
        let Some((index, skill)) = owner else {
            diagnostics.push(refuse("which is in no skill's folder".to_owned()));
            continue;
        };
        let within = relpath::strip_folder(path, &skill.folder).unwrap_or(path);
        if within == SKILL_MD {
            diagnostics.push(refuse(
                "a SKILL.md: its frontmatter is checked when the skills are built, so it cannot be generated".to_owned(),
            ));
            continue;
        }
        declared[index].push(within.to_owned());
    }
    declared
}

/// Adds `files` to `skills` (or replaces them): each is `(path, bytes)`,
/// the path relative to the skills root (`platform/references/api.md`), so
/// it goes to the innermost skill whose folder holds it, and to the skills
/// that skill is nested in. Returns the new set, with every digest, version
/// and the fingerprint computed by the loader's own code: two processes
/// adding the same bytes get the same fingerprint, so cursors and caches
/// keyed on it work across replicas.
///
/// The loader's rules apply to what changes: file names (`unportable-name`,
/// `path-too-long`, …), sizes (`file-too-large`, `too-many-files`,
/// `skill-too-large`), case collisions, secrets (unless
/// [`Options::allow_secrets_in`] names the file), links (each changed
/// skill's `SKILL.md` must still name only its files, when
/// [`Options::check_links`] is on), and the gated rules (`gated-allowed-tools`,
/// `gated`). A `SKILL.md` cannot be added (its frontmatter is checked when
/// the set is built), nor a file outside every skill (`generated`). Every
/// problem is in the report; the set is unchanged then.
///
/// The files declared with the `generated` option are the set's
/// [pending files](Skills::pending_files) until they are added here.
///
/// ```
/// # let root = std::env::temp_dir().join(format!("skills-core-doc-add-{}", std::process::id()));
/// # let path = root.join("platform/SKILL.md");
/// # std::fs::create_dir_all(path.parent().unwrap()).unwrap();
/// # std::fs::write(&path, "---\nname: platform\ndescription: The platform. Use when asked.\n---\nRoutes: [the API](references/api.md).\n").unwrap();
/// use skills_core::{Options, add_files, check_servable, load};
///
/// let mut options = Options::default();
/// options.generated = vec!["platform/references/api.md".to_owned()];
/// let skills = load(&root, &options)?.into_skills();
/// assert_eq!(skills.pending_files().collect::<Vec<_>>(), ["platform/references/api.md"]);
/// assert!(check_servable(&skills).is_err());
///
/// let api = "# API\n\n`GET /courses`: list the courses.\n";
/// let served = add_files(&skills, [("platform/references/api.md", api)], &options)?;
/// assert_eq!(served.pending_files().len(), 0);
/// check_servable(&served)?;
/// let file = served.get("platform").unwrap().file("references/api.md").unwrap();
/// assert_eq!(file.bytes(), api.as_bytes());
/// assert_ne!(served.fingerprint(), skills.fingerprint());
/// # std::fs::remove_dir_all(&root).unwrap();
/// # Ok::<(), skills_core::Report>(())
/// ```
pub fn add_files<P, B>(
    skills: &Skills,
    files: impl IntoIterator<Item = (P, B)>,
    options: &Options,
) -> Result<Skills, crate::Report>
where
    P: Into<String>,
    B: Into<Vec<u8>>,
{
    let mut diagnostics = Diagnostics::new();
    // Each added file, by its path relative to the root.
    let mut added: BTreeMap<String, SkillFileParts> = BTreeMap::new();
    for (path, bytes) in files {
        let written: String = path.into();
        let path = written.trim_start_matches("./").to_owned();
        let bytes: Vec<u8> = bytes.into();
        if let Some(parts) = check_one(skills, &path, bytes, options, &mut diagnostics)
            && added.insert(path.clone(), parts).is_some()
        {
            diagnostics.push(Diagnostic::new(
                Rule::Generated,
                path,
                "this file is given twice; only one content can be served",
            ));
        }
    }
    let mut built = Vec::with_capacity(skills.len());
    for skill in skills.skills() {
        let mine: Vec<(&str, &SkillFileParts)> = added
            .iter()
            .filter_map(|(path, parts)| {
                relpath::strip_folder(path, skill.path())
                    .filter(|_| relpath::is_below(path, skill.path()))
                    .map(|within| (within, parts))
            })
            .collect();
        if mine.is_empty() {
            built.push(skill.clone());
            continue;
        }
        built.push(rebuild(skill, &mine, skills, options, &mut diagnostics));
    }
    for problem in servable::gated_nesting(
        built.iter().map(|skill| (skill.path(), skill.is_gated())),
        |path| relpath::join(path, SKILL_MD),
    ) {
        diagnostics.push(problem);
    }
    let fingerprint = digest::fingerprint(built.iter().map(|skill| (skill.uri(), skill.version())));
    let pending: Vec<Cow<'static, str>> = skills
        .pending_files()
        .filter(|path| !added.contains_key(*path))
        .map(|path| Cow::Owned(path.to_owned()))
        .collect();
    let package = skills
        .package()
        .map(|(name, version)| (Cow::Owned(name.to_owned()), Cow::Owned(version.to_owned())));
    let result = Skills::from_parts(built.into(), fingerprint.into(), package)
        .with_pending(pending.into())
        .with_embed_options(skills.embed_options().cloned());
    let root = options.display_root.as_deref().unwrap_or_default();
    diagnostics
        .finish(root, result)
        .map(|(skills, _warnings)| skills)
}

/// An added file's content and digest.
struct SkillFileParts {
    body: Result<String, Vec<u8>>,
    digest: crate::Digest,
}

/// The rules about one added file on its own; `None` (reported) when it
/// cannot be added.
fn check_one(
    skills: &Skills,
    path: &str,
    bytes: Vec<u8>,
    options: &Options,
    diagnostics: &mut Diagnostics,
) -> Option<SkillFileParts> {
    if let Err(problem) = names::check_path(path) {
        diagnostics.push(
            Diagnostic::new(
                Rule::Generated,
                path,
                format!("this file cannot be added: {problem}"),
            )
            .hint("give the file's path relative to the skills root, like `platform/references/api.md`"),
        );
        return None;
    }
    let Some((_, within)) = skills.owner_of(path) else {
        diagnostics.push(
            Diagnostic::new(
                Rule::Generated,
                path,
                "this file is in no skill's folder, so no skill would serve it",
            )
            .hint(
                "give the file's path relative to the skills root, starting with its skill's path",
            ),
        );
        return None;
    };
    if within == SKILL_MD {
        diagnostics.push(
            Diagnostic::new(
                Rule::Generated,
                path,
                "a SKILL.md cannot be added: its frontmatter is checked when the skills are built",
            )
            .hint("generate supporting files only, and link them from the skill's SKILL.md"),
        );
        return None;
    }
    if bytes.len() as u64 > MAX_FILE_BYTES {
        diagnostics.push(
            Diagnostic::new(
                Rule::FileTooLarge,
                path,
                format!(
                    "this file is {} bytes, {} over the {MAX_FILE_BYTES} bytes (12 MiB) one resources/read answer can carry once base64-encoded",
                    bytes.len(),
                    bytes.len() as u64 - MAX_FILE_BYTES
                ),
            )
            .hint("split it, or serve it from somewhere else"),
        );
        return None;
    }
    let digest = digest::of(&bytes);
    let body = mime::into_text(bytes);
    if let Ok(text) = &body
        && !options
            .allow_secrets_in
            .iter()
            .any(|allowed| allowed.trim_start_matches("./") == path)
    {
        secrets::report_secrets(path, text, diagnostics);
    }
    Some(SkillFileParts { body, digest })
}

/// `skill` with `mine` (paths inside it) added or replaced, its limits,
/// links and gated rule checked again, and its version computed again.
fn rebuild(
    skill: &Skill,
    mine: &[(&str, &SkillFileParts)],
    skills: &Skills,
    options: &Options,
    diagnostics: &mut Diagnostics,
) -> Skill {
    let mut files: BTreeMap<String, SkillFile> = skill
        .files()
        .iter()
        .map(|file| (file.path().to_owned(), file.clone()))
        .collect();
    for (within, parts) in mine {
        let path = Cow::Owned((*within).to_owned());
        let file = match &parts.body {
            Ok(text) => SkillFile::from_text(path, Cow::Owned(text.clone()), parts.digest, false),
            Err(bytes) => {
                SkillFile::from_binary(path, Cow::Owned(bytes.clone()), parts.digest, false)
            }
        };
        files.insert((*within).to_owned(), file);
    }
    let skill_md = relpath::join(skill.path(), SKILL_MD);
    let total: u64 = files.values().map(SkillFile::size).sum();
    if files.len() > MAX_SKILL_FILES {
        diagnostics.push(Diagnostic::new(
            Rule::TooManyFiles,
            skill_md.clone(),
            format!(
                "the skill `{}` would have {} files, {} more than the {MAX_SKILL_FILES} SEP-2640 allows per skill",
                skill.path(),
                files.len(),
                files.len() - MAX_SKILL_FILES
            ),
        ));
    }
    if total > MAX_SKILL_BYTES {
        diagnostics.push(Diagnostic::new(
            Rule::SkillTooLarge,
            skill_md.clone(),
            format!(
                "the skill `{}` would hold {total} bytes, {} over the {MAX_SKILL_BYTES} bytes (16 MiB) SEP-2640 allows per skill",
                skill.path(),
                total - MAX_SKILL_BYTES
            ),
        ));
    }
    let paths: Vec<&str> = files.keys().map(String::as_str).collect();
    for collision in names::case_collisions(paths.iter().copied()) {
        diagnostics.push(Diagnostic::new(
            Rule::CaseCollision,
            relpath::join(skill.path(), collision.path),
            collision.to_string(),
        ));
    }
    if let Some(text) = skill.skill_md().text() {
        if options.check_links {
            // Files still to be added count as there, as when the set was built.
            let pending: Vec<&str> = skills
                .pending_files()
                .filter_map(|path| relpath::strip_folder(path, skill.path()))
                .collect();
            let mut linkable = paths.clone();
            linkable.extend(pending.iter().filter(|path| !paths.contains(path)));
            links::check(text, skill.body_offset(), &linkable, &skill_md, diagnostics);
        }
        if skill.is_gated() {
            // The frontmatter passed its checks when the set was built; the
            // parse is only for where `allowed-tools` is written.
            let mut scratch = Diagnostics::new();
            if let Some(parsed) = frontmatter::parse(text, &skill_md, options, &mut scratch) {
                gate::check_allowed_tools(&parsed, &skill_md, diagnostics);
            }
            let _ = scratch.into_vec();
        }
    }
    CheckedSkill {
        name: skill.name().to_owned(),
        description: skill.description().to_owned(),
        path: skill.path().to_owned(),
        extra_json: skill.extra_fields_json().to_owned(),
        body_offset: skill.body_offset(),
        files: files.into_values().collect(),
    }
    .build()
    .with_gated(skill.is_gated())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
        let root = std::env::temp_dir().join(format!(
            "skills-core-generated-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        root
    }

    const PLATFORM: &str = "---\nname: platform\ndescription: The platform. Use when asked.\n---\nSee [the API](references/api.md).\n";

    fn declared_options() -> Options {
        Options {
            generated: vec!["platform/references/api.md".to_owned()],
            ..Options::default()
        }
    }

    #[test]
    fn a_declared_file_may_be_linked_before_it_exists_and_is_pending() {
        let root = tree("declared", &[("platform/SKILL.md", PLATFORM)]);
        let report = crate::load(&root, &Options::default()).unwrap_err();
        assert_eq!(report.errors().next().unwrap().rule, Rule::BrokenLink);
        let skills = crate::load(&root, &declared_options())
            .unwrap()
            .into_skills();
        assert_eq!(
            skills.pending_files().collect::<Vec<_>>(),
            ["platform/references/api.md"]
        );
        let report = crate::check_servable(&skills).unwrap_err();
        assert_eq!(report.errors().next().unwrap().rule, Rule::Generated);
    }

    #[test]
    fn two_replicas_adding_the_same_bytes_agree_and_match_a_set_loaded_with_the_file() {
        let root = tree("replicas", &[("platform/SKILL.md", PLATFORM)]);
        let skills = crate::load(&root, &declared_options())
            .unwrap()
            .into_skills();
        let api = "# API\n";
        let one = add_files(
            &skills,
            [("platform/references/api.md", api)],
            &declared_options(),
        )
        .unwrap();
        let two = add_files(
            &skills,
            [("platform/references/api.md", api.as_bytes().to_vec())],
            &declared_options(),
        )
        .unwrap();
        assert_eq!(one.fingerprint(), two.fingerprint());
        assert_eq!(one.pending_files().len(), 0);
        // The same as a tree that held the file all along.
        let whole = tree(
            "replicas-whole",
            &[
                ("platform/SKILL.md", PLATFORM),
                ("platform/references/api.md", api),
            ],
        );
        let loaded = crate::load(&whole, &Options::default())
            .unwrap()
            .into_skills();
        assert_eq!(one.fingerprint(), loaded.fingerprint());
        assert_eq!(
            one.get("platform").unwrap().version(),
            loaded.get("platform").unwrap().version()
        );
    }

    #[test]
    fn what_cannot_be_added_is_reported_and_nothing_changes() {
        let root = tree(
            "refused",
            &[
                ("platform/SKILL.md", PLATFORM),
                ("platform/references/api.md", "old"),
            ],
        );
        let skills = crate::load(&root, &Options::default())
            .unwrap()
            .into_skills();
        let report = add_files(
            &skills,
            [
                ("platform/SKILL.md", "---\nname: x\n---\n".to_owned()),
                ("nowhere/file.md", "x".to_owned()),
                ("platform/../escape.md", "x".to_owned()),
                (
                    "platform/references/key.md",
                    format!("ghp_{}", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
                ),
                ("platform/references/API.md", "case".to_owned()),
            ],
            &Options::default(),
        )
        .unwrap_err();
        let rules: Vec<&str> = report.errors().map(|d| d.rule.id()).collect();
        for rule in ["generated", "secret", "case-collision"] {
            assert!(rules.contains(&rule), "{rule} in {rules:?}\n{report}");
        }
        assert_eq!(
            report
                .errors()
                .filter(|d| d.rule == Rule::Generated)
                .count(),
            3,
            "{report}"
        );
    }

    #[test]
    fn a_nested_skill_s_file_is_its_parent_s_too() {
        let root = tree(
            "nested",
            &[
                (
                    "outer/SKILL.md",
                    "---\nname: outer\ndescription: Outer. Use when asked.\n---\n",
                ),
                (
                    "outer/inner/SKILL.md",
                    "---\nname: inner\ndescription: Inner. Use when asked.\n---\n",
                ),
            ],
        );
        let skills = crate::load(&root, &Options::default())
            .unwrap()
            .into_skills();
        let added = add_files(&skills, [("outer/inner/x.md", "x")], &Options::default()).unwrap();
        assert!(added.get("outer/inner").unwrap().file("x.md").is_some());
        assert!(added.get("outer").unwrap().file("inner/x.md").is_some());
        let whole = tree(
            "nested-whole",
            &[
                (
                    "outer/SKILL.md",
                    "---\nname: outer\ndescription: Outer. Use when asked.\n---\n",
                ),
                (
                    "outer/inner/SKILL.md",
                    "---\nname: inner\ndescription: Inner. Use when asked.\n---\n",
                ),
                ("outer/inner/x.md", "x"),
            ],
        );
        let loaded = crate::load(&whole, &Options::default())
            .unwrap()
            .into_skills();
        assert_eq!(added.fingerprint(), loaded.fingerprint());
    }
}
