//! Target `uri_lookup`: a URI a client sends, through [`skills_core::uri::parse`],
//! then looked up in a set of skills.
//!
//! The input is text (bytes that are not UTF-8 are replaced): the first line
//! is the URI; every other line is a file of the set, relative to the skills
//! root, and each `…/SKILL.md` among them makes its folder a skill. Without
//! such lines the set is [`DEFAULT_SET`].

use std::borrow::Cow;

use skills_core::{Digest, SKILL_MD, Skill, SkillFile, Skills, names, relpath, uri};

/// The set used when the input lists no files: names that need escaping,
/// a nested skill, a skill path of several segments.
pub const DEFAULT_SET: [&str; 13] = [
    "pdf/SKILL.md",
    "pdf/references/my notes.md",
    "pdf/references/é#?.md",
    "pdf/100%.txt",
    "pdf/a+b=c.md",
    "pdf/[1].md",
    "pdf/~tilde_x.md",
    "pdf/forms/SKILL.md",
    "pdf/forms/guide.md",
    "acme/billing/refunds/SKILL.md",
    "acme/billing/refunds/scripts/run.py",
    "café/SKILL.md",
    "café/Ünïcödé/ß.txt",
];

/// Every invariant of parsing and lookup (panics when one breaks):
///
/// - every file of the set is found at its canonical URI, by the innermost
///   skill holding it, and at the equivalent spellings a client may send
///   (an upper-case scheme, lower-case escapes, raw characters);
/// - an accepted URI is canonical once parsed (parsing it again borrows it),
///   starts with `skill://`, decodes to a path with no empty, `.` or `..`
///   segment, no control character and no backslash, and is exactly the
///   URI of that path;
/// - a file or skill found for an accepted URI is served at exactly that
///   URI, and is the file of the set at the decoded path;
/// - a refusal's words hold no control character.
pub fn check(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.split('\n');
    let sent = lines.next().unwrap_or_default();
    let listed: Vec<&str> = lines
        .filter(|path| names::check_path(path).is_ok())
        .collect();
    let listed = if listed.iter().any(|path| path.ends_with("/SKILL.md")) {
        listed
    } else {
        DEFAULT_SET.to_vec()
    };
    let set = build(&listed);
    for skill in set.skills() {
        for file in skill.files() {
            served_where_listed(&set, &relpath::join(skill.path(), file.path()));
        }
    }
    parsed(&set, sent);
}

/// A set of skills holding `paths` (files relative to the root), each
/// skill with every file below its folder, sorted as the loader sorts.
fn build(paths: &[&str]) -> Skills {
    let mut paths: Vec<&str> = paths.to_vec();
    paths.sort_unstable();
    paths.dedup();
    let mut folders: Vec<&str> = paths
        .iter()
        .filter_map(|path| path.strip_suffix("/SKILL.md"))
        .collect();
    folders.sort_unstable();
    let skills: Vec<Skill> = folders
        .iter()
        .map(|folder| {
            let files: Vec<SkillFile> = paths
                .iter()
                .filter_map(|path| relpath::strip_folder(path, folder))
                .filter(|within| !within.is_empty())
                .map(|within| {
                    SkillFile::from_text(
                        Cow::Owned(within.to_owned()),
                        Cow::Borrowed(""),
                        Digest::from_bytes([0; 32]),
                        false,
                    )
                })
                .collect();
            Skill::from_parts(
                Cow::Owned(relpath::name(folder).to_owned()),
                Cow::Borrowed("d"),
                Cow::Owned((*folder).to_owned()),
                Cow::Owned(uri::for_file(folder, SKILL_MD)),
                Cow::Borrowed("{}"),
                Cow::Borrowed("sha256:0"),
                0,
                Cow::Owned(files),
            )
        })
        .collect();
    Skills::from_parts(Cow::Owned(skills), Cow::Borrowed("sha256:0"), None)
}

/// The innermost skill folder of `set` holding `path`.
fn innermost<'s>(set: &'s Skills, path: &str) -> Option<&'s Skill> {
    set.skills()
        .iter()
        .filter(|skill| relpath::is_below(path, skill.path()))
        .max_by_key(|skill| skill.path().len())
}

fn served_where_listed(set: &Skills, path: &str) {
    let canonical = uri::for_path(path);
    assert!(
        matches!(uri::parse(&canonical), Ok(Cow::Borrowed(parsed)) if parsed == canonical),
        "{canonical} is not canonical"
    );
    let (skill, file) = set
        .file_by_uri(&canonical)
        .unwrap_or_else(|| panic!("{path:?} is not found at {canonical}"));
    let owner = innermost(set, path).expect("a listed file has a skill");
    assert_eq!(
        skill.path(),
        owner.path(),
        "{path:?} served by the wrong skill"
    );
    assert_eq!(relpath::join(skill.path(), file.path()), path);
    if let Some(folder) = path.strip_suffix("/SKILL.md")
        && let Some(own) = set.get(folder)
    {
        let by_uri = set
            .by_uri(&canonical)
            .expect("a skill at its SKILL.md's URI");
        assert_eq!(by_uri.path(), own.path());
    }
    // What a client may send instead.
    let rest = &canonical[uri::SCHEME.len()..];
    let mut spellings = vec![format!("SKILL://{rest}"), lower_escapes(&canonical)];
    if !path.contains(['%', '?', '#']) {
        spellings.push(format!("{}{path}", uri::SCHEME));
    }
    for spelling in spellings {
        assert_eq!(
            uri::parse(&spelling).as_deref(),
            Ok(canonical.as_str()),
            "{spelling:?} is another spelling of {canonical}"
        );
    }
}

/// `canonical` with every `%XX` escape in lower case.
fn lower_escapes(canonical: &str) -> String {
    let mut out = String::with_capacity(canonical.len());
    let mut escape = 0;
    for c in canonical.chars() {
        if c == '%' {
            escape = 2;
            out.push(c);
        } else if escape > 0 {
            escape -= 1;
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn parsed(set: &Skills, sent: &str) {
    let canonical = match uri::parse(sent) {
        Ok(canonical) => canonical.into_owned(),
        Err(error) => {
            assert!(
                !crate::display::has_control(&error.to_string()),
                "{error:?}"
            );
            return;
        }
    };
    assert!(
        matches!(uri::parse(&canonical), Ok(Cow::Borrowed(again)) if again == canonical),
        "{sent:?} parses to {canonical:?}, which is not canonical"
    );
    assert!(canonical.starts_with(uri::SCHEME));
    let path = uri::decoded_path(&canonical)
        .unwrap_or_else(|| panic!("{canonical:?} (from {sent:?}) does not decode"));
    for segment in path.split('/') {
        assert!(
            !matches!(segment, "" | "." | ".."),
            "{sent:?} decodes to {path:?}"
        );
        assert!(
            !segment.contains('\\') && !segment.chars().any(char::is_control),
            "{sent:?} decodes to {path:?}"
        );
    }
    assert_eq!(
        uri::for_path(&path),
        canonical,
        "{sent:?} decodes to {path:?}"
    );
    if let Some((skill, file)) = set.file_by_uri(&canonical) {
        assert_eq!(skill.file_uri(file), canonical);
        assert_eq!(relpath::join(skill.path(), file.path()), path);
        assert_eq!(innermost(set, &path).map(Skill::path), Some(skill.path()));
    }
    if let Some(skill) = set.by_uri(&canonical) {
        assert_eq!(skill.uri(), canonical);
    }
}
