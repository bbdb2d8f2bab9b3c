//! Validate step for the body: a skill that tells the agent to open a file
//! it does not ship is broken.
//!
//! Checked: relative Markdown links and images (`[x](references/a.md)`,
//! reference definitions), always; and inline code spans that name a path
//! under one of the folders the specification gives a skill (`scripts/`,
//! `references/`, `assets/`), whether or not the skill has it, or under
//! another folder the skill has (`templates/base.html` when it has
//! `templates/`). A skill without `scripts/` whose `SKILL.md` says to run
//! `scripts/extract.py` is broken the way this check exists to catch: the
//! folder was never copied. Not checked, because they are not promises about
//! the skill's files: URLs and other schemes, anchors, absolute paths, globs
//! (`reference/*.md`), placeholders (`<file>`, `{name}`, `$VAR`, `...`),
//! text inside fenced code blocks, code spans with spaces, code spans that
//! climb out of the skill, and code spans under any other folder the skill
//! does not have (`output/report.md`: skills name files the agent will
//! create). A skill that teaches how to write skills names such paths as
//! illustrations: a placeholder (`references/<topic>.md`) or a fenced block
//! says so to readers and to this check.
//!
//! The Markdown files `SKILL.md` sends the agent to, and those they link
//! to, are checked too, their links only: the agent follows them from there.
//!
//! A link that climbs out of the skill folder (`../kitchen/SKILL.md`) is
//! refused whether or not its target exists beside the skill: a skill is
//! served, synced and installed alone, where that link is broken.
//!
//! A broken reference gets the closest file of the skill as a suggestion: one
//! of the same name in another folder, else one a typing mistake or two away.

use crate::diagnostic::{Diagnostic, Diagnostics, Position};
use crate::relpath;
use crate::rules::{OptionHint, Rule};

/// A path the body refers to, and where.
#[derive(Debug, PartialEq, Eq)]
struct Reference<'a> {
    target: &'a str,
    offset: usize,
    from_link: bool,
}

/// Reports every relative reference in `text`'s body (which starts at
/// `body_offset`) that names no file or folder of the skill, and every
/// link that climbs out of the skill's folder.
pub(crate) fn check(
    text: &str,
    body_offset: usize,
    files: &[&str],
    file: &str,
    diagnostics: &mut Diagnostics,
) {
    let body = &text[body_offset.min(text.len())..];
    let folders = top_folders(files);
    for reference in references(body, Spans::Included) {
        let start = body_offset + reference.offset;
        let path = match candidate_in("", reference.target, reference.from_link, &folders) {
            Ok(path) => path,
            Err(Skip::Outside) => {
                let at = Position::of_offset(text, start);
                diagnostics.push(outside(crate::SKILL_MD, file, reference.target, at));
                continue;
            }
            Err(Skip::NotChecked) => continue,
        };
        if exists(&path, files) || strip_line_suffix(&path).is_some_and(|p| exists(p, files)) {
            continue;
        }
        let reference = Reference {
            offset: start,
            ..reference
        };
        diagnostics.push(missing(
            crate::SKILL_MD,
            file,
            "",
            text,
            &reference,
            &path,
            files,
        ));
    }
}

/// `link-outside-skill`: the file `named` (as the message calls it; `file`
/// as the diagnostic's location) links to `target`, out of the skill.
fn outside(named: &str, file: &str, target: &str, at: Position) -> Diagnostic {
    Diagnostic::new(
        Rule::LinkOutsideSkill,
        file,
        format!("{named} links to `{target}`, outside this skill's folder"),
    )
    .at(at.line, at.column)
    .length(target.chars().count())
    .hint("a skill is served, synced and installed alone, without the folders around it, so this link breaks there: copy what it needs into this skill (under `references/`, say) and link that, or link a URL")
    .option(OptionHint::NoCheckLinks)
}

/// `broken-link`: `reference` (its offset in `source`, a file of the folder
/// `base` inside the skill) names `path`, which is no file of the skill; the
/// closest file, if one is close, as a hint and a fix written as the link
/// must be (relative to `base`).
fn missing(
    named: &str,
    file: &str,
    base: &str,
    source: &str,
    reference: &Reference<'_>,
    path: &str,
    files: &[&str],
) -> Diagnostic {
    let start = reference.offset;
    let at = Position::of_offset(source, start);
    let diagnostic = Diagnostic::new(
        Rule::BrokenLink,
        file,
        format!(
            "{named} refers to `{}`, which is not a file or folder of this skill",
            reference.target
        ),
    )
    .at(at.line, at.column)
    .length(reference.target.chars().count());
    match closest(path, files) {
        Some(similar) => {
            let relative = relative_from(base, similar);
            let angled = start > 0 && source.as_bytes().get(start - 1) == Some(&b'<');
            let written = as_written(&relative, reference.target, reference.from_link && !angled);
            diagnostic
                .hint(format!("did you mean `{relative}`?"))
                .fix(start..start + reference.target.len(), written)
        }
        None => diagnostic
            .hint("add the file to the skill or fix the path; if the link is not meant to name a file of the skill, the check can be turned off")
            .option(OptionHint::NoCheckLinks),
    }
}

/// `path` (relative to the skill) as a link in a file of the folder `base`
/// (relative to the skill; `""` for the skill's root) must write it.
fn relative_from(base: &str, path: &str) -> String {
    let base: Vec<&str> = base.split('/').filter(|s| !s.is_empty()).collect();
    let target: Vec<&str> = path.split('/').collect();
    let shared = base
        .iter()
        .zip(&target[..target.len().saturating_sub(1)])
        .take_while(|(a, b)| a == b)
        .count();
    let mut out: Vec<&str> = vec![".."; base.len() - shared];
    out.extend(&target[shared..]);
    out.join("/")
}

/// The file of the skill a broken reference to `wanted` most likely meant:
/// one of the same name in another folder, else the file whose path is
/// closest in edit distance, when it is close (one or two typing
/// mistakes, three in a long path).
fn closest<'f>(wanted: &str, files: &[&'f str]) -> Option<&'f str> {
    let wanted_name = relpath::name(wanted);
    if let Some(same_name) = files.iter().find(|file| relpath::name(file) == wanted_name) {
        return Some(same_name);
    }
    let wanted: Vec<char> = wanted.trim_end_matches('/').chars().collect();
    let limit = (wanted.len() / 8).clamp(1, 3);
    let mut best: Option<(usize, &str)> = None;
    for file in files {
        let chars: Vec<char> = file.chars().collect();
        if chars.len().abs_diff(wanted.len()) > limit {
            continue;
        }
        let distance = edit_distance(&wanted, &chars);
        if distance <= limit && best.is_none_or(|(shortest, _)| distance < shortest) {
            best = Some((distance, file));
        }
    }
    best.map(|(_, file)| file)
}

/// Levenshtein distance (insertions, deletions, substitutions) between two
/// strings of characters.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// `path` (a file of the skill) written where `target` was: with the same
/// `#fragment` and, in a link outside `<…>`, spaces and `%` escaped.
fn as_written(path: &str, target: &str, escape: bool) -> String {
    let mut out = if escape {
        path.replace('%', "%25").replace(' ', "%20")
    } else {
        path.to_owned()
    };
    if let Some((_, fragment)) = target.split_once('#') {
        out.push('#');
        out.push_str(fragment);
    }
    out
}

/// Checks the Markdown files an agent is sent to from `SKILL.md` (`text`,
/// body at `body_offset`): the ones its body refers to, and those they link
/// to in turn, at any depth. `text_of` gives a file's text by its path inside
/// the skill; `folder` is the skill's folder as diagnostics name it.
///
/// - A link in such a file that names no file of the skill (`broken-link`)
///   or climbs out of the skill (`link-outside-skill`) is the same error as
///   in `SKILL.md`: the agent follows it from there. Only links count past
///   `SKILL.md`; code spans in a reference are often commands or examples.
/// - A file reached only through another referenced file gets the
///   `nested-reference` warning: "Keep file references one level deep from
///   SKILL.md" (the specification); agents may read such a file only partly.
pub(crate) fn check_referenced<'t>(
    text: &str,
    body_offset: usize,
    files: &[&str],
    folder: &str,
    text_of: &dyn Fn(&str) -> Option<&'t str>,
    diagnostics: &mut Diagnostics,
) {
    let body = &text[body_offset.min(text.len())..];
    let folders = top_folders(files);
    let is_markdown = |file: &str| relpath::name(file).to_ascii_lowercase().ends_with(".md");
    // The files SKILL.md itself names (links and code spans).
    let mut first: Vec<String> = Vec::new();
    for reference in references(body, Spans::Included) {
        let Ok(path) = candidate_in("", reference.target, reference.from_link, &folders) else {
            continue;
        };
        let path = strip_line_suffix(&path).map_or(path.clone(), str::to_owned);
        if files.contains(&path.as_str()) && !first.contains(&path) {
            first.push(path);
        }
    }
    let mut queue: Vec<String> = first
        .iter()
        .filter(|file| is_markdown(file) && file.as_str() != crate::SKILL_MD)
        .cloned()
        .collect();
    let mut visited: Vec<String> = queue.clone();
    let mut nested_seen: Vec<(String, String)> = Vec::new();
    let mut next = 0;
    while next < queue.len() {
        let file = queue[next].clone();
        next += 1;
        let Some(source) = text_of(&file) else {
            continue;
        };
        let shown = relpath::join(folder, &file);
        let base = relpath::parent(&file);
        let one_level = first.contains(&file);
        for reference in references(source, Spans::Skipped) {
            let path = match candidate_in(base, reference.target, reference.from_link, &folders) {
                Ok(path) => path,
                Err(Skip::Outside) => {
                    let at = Position::of_offset(source, reference.offset);
                    diagnostics
                        .push(outside(&file, &shown, reference.target, at).with_source(source));
                    continue;
                }
                Err(Skip::NotChecked) => continue,
            };
            let path = match strip_line_suffix(&path) {
                Some(stripped) if !exists(&path, files) => stripped.to_owned(),
                _ => path,
            };
            if !exists(&path, files) {
                diagnostics.push(
                    missing(&file, &shown, base, source, &reference, &path, files)
                        .with_source(source),
                );
                continue;
            }
            if !files.contains(&path.as_str()) || path == file || path == crate::SKILL_MD {
                continue;
            }
            if one_level && !first.contains(&path) {
                let key = (file.clone(), path.clone());
                if !nested_seen.contains(&key) {
                    let at = Position::of_offset(source, reference.offset);
                    diagnostics.push(
                        Diagnostic::warning(
                            Rule::NestedReference,
                            shown.clone(),
                            format!(
                                "`{path}` is reached only through `{file}`, two levels from SKILL.md; agents may read such nested references only partly"
                            ),
                        )
                        .at(at.line, at.column)
                        .length(reference.target.chars().count())
                        .hint(format!(
                            "link `{path}` from SKILL.md directly (keep references one level deep), or fold it into `{file}`"
                        ))
                        .with_source(source),
                    );
                    nested_seen.push(key);
                }
            }
            if is_markdown(&path) && !visited.contains(&path) {
                visited.push(path.clone());
                queue.push(path);
            }
        }
    }
}

/// Whether a scan reports code spans too, or only links and definitions.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spans {
    Included,
    Skipped,
}

/// Every link target, reference definition and (with [`Spans::Included`])
/// code span outside fenced code.
fn references(body: &str, spans: Spans) -> Vec<Reference<'_>> {
    let mut found = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut offset = 0;
    for line in body.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        // Byte loops rather than `trim_start_matches`: inside the macro this
        // runs unoptimised, once per line of every Markdown file.
        let indent = leading(line.as_bytes(), b' ');
        let trimmed = &line[indent..];
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        if let Some(marker) = marker.filter(|_| indent < 4) {
            let run = trimmed.chars().take_while(|c| *c == marker).count();
            if run >= 3 {
                match fence {
                    None => fence = Some((marker, run)),
                    Some((open, length)) if open == marker && run >= length => fence = None,
                    Some(_) => {}
                }
                continue;
            }
        }
        if fence.is_some() {
            continue;
        }
        scan_line(line, start, spans, &mut found);
    }
    found
}

/// How many times `byte` repeats at the start of `bytes`.
fn leading(bytes: &[u8], byte: u8) -> usize {
    let mut run = 0;
    while run < bytes.len() && bytes[run] == byte {
        run += 1;
    }
    run
}

fn scan_line<'a>(line: &'a str, start: usize, spans: Spans, found: &mut Vec<Reference<'a>>) {
    // A reference definition: `[label]: target`.
    let trimmed = if line
        .as_bytes()
        .first()
        .is_some_and(|b| !b.is_ascii_whitespace() && b.is_ascii())
    {
        line
    } else {
        line.trim_start()
    };
    if trimmed.starts_with('[')
        && let Some(close) = trimmed.find("]:")
    {
        let after = &trimmed[close + 2..];
        let target = after.trim_start();
        let target = target.split_whitespace().next().unwrap_or_default();
        let target = target.trim_start_matches('<').trim_end_matches('>');
        if !target.is_empty() {
            let offset = start
                + (line.len() - trimmed.len())
                + close
                + 2
                + (after.len() - after.trim_start().len());
            found.push(Reference {
                target,
                offset,
                from_link: true,
            });
            return;
        }
    }
    let bytes = line.as_bytes();
    // Most lines hold no link and no code span: two `memchr`s clear them,
    // where the byte-by-byte loop below is slow in the unoptimised macro.
    if !bytes.contains(&b']') && (spans == Spans::Skipped || !bytes.contains(&b'`')) {
        return;
    }
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'`' => {
                let run = leading(&bytes[index..], b'`');
                let content_start = index + run;
                let closing = match run {
                    1 => line[content_start..].find('`'),
                    _ => line[content_start..].find(&"`".repeat(run)),
                };
                match closing {
                    Some(length) => {
                        let content = &line[content_start..content_start + length];
                        let target = content.trim();
                        if !target.is_empty() && spans == Spans::Included {
                            let lead = content.len() - content.trim_start().len();
                            found.push(Reference {
                                target,
                                offset: start + content_start + lead,
                                from_link: false,
                            });
                        }
                        index = content_start + length + run;
                    }
                    None => index = content_start,
                }
            }
            b']' if bytes.get(index + 1) == Some(&b'(') => {
                let target_start = index + 2;
                let mut depth = 0usize;
                let mut end = None;
                for (at, byte) in bytes[target_start..].iter().enumerate() {
                    match byte {
                        b'(' => depth += 1,
                        b')' if depth == 0 => {
                            end = Some(target_start + at);
                            break;
                        }
                        b')' => depth -= 1,
                        _ => {}
                    }
                }
                let Some(end) = end else {
                    index += 1;
                    continue;
                };
                let raw = &line[target_start..end];
                let target = raw.trim();
                let target = if let Some(angled) = target.strip_prefix('<') {
                    angled.split('>').next().unwrap_or_default()
                } else {
                    // Drop an optional title: `(path "title")`.
                    target.split_whitespace().next().unwrap_or_default()
                };
                if !target.is_empty() {
                    let lead = raw.find(target).unwrap_or(0);
                    found.push(Reference {
                        target,
                        offset: start + target_start + lead,
                        from_link: true,
                    });
                }
                index = end + 1;
            }
            _ => index += 1,
        }
    }
}

/// The folders the specification gives a skill: a code span under one of
/// them names a file of the skill even when the skill lacks the folder.
const SPEC_FOLDERS: [&str; 3] = ["assets", "references", "scripts"];

/// The top-level folders a code span is checked under: the specification's
/// three and the skill's own (`templates`, …). Found once per file checked,
/// not once per code span (a body has hundreds of them, a skill hundreds of
/// files).
fn top_folders<'f>(files: &[&'f str]) -> Vec<&'f str> {
    let mut folders: Vec<&str> = files
        .iter()
        .filter_map(|file| file.split_once('/').map(|(folder, _)| folder))
        .chain(SPEC_FOLDERS)
        .collect();
    folders.sort_unstable();
    folders.dedup();
    folders
}

/// The skill-relative path a reference in a file of the folder `base`
/// (relative to the skill; `""` for `SKILL.md`) names, if it is one we
/// check; `folders` are the skill's [top-level folders](top_folders).
fn candidate_in(
    base: &str,
    target: &str,
    from_link: bool,
    folders: &[&str],
) -> Result<String, Skip> {
    // Glob and placeholder characters; links may also be percent-encoded.
    if target.starts_with(['#', '/', '~', '-', '\\'])
        || has_scheme(target)
        || !plain_path(target, from_link)
    {
        return Err(Skip::NotChecked);
    }
    let target = target.split('#').next().unwrap_or_default();
    let decoded = if from_link {
        relpath::percent_decode(target)
            .map_err(|_| Skip::NotChecked)?
            .into_owned()
    } else {
        target.to_owned()
    };
    let mut segments: Vec<&str> = base.split('/').filter(|s| !s.is_empty()).collect();
    let base_depth = segments.len();
    for segment in decoded.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                // A link that leaves the skill folder breaks once the skill
                // is served alone; a code span doing so is not checked.
                if segments.pop().is_none() {
                    return Err(if from_link {
                        Skip::Outside
                    } else {
                        Skip::NotChecked
                    });
                }
            }
            other => segments.push(other),
        }
    }
    let first = *segments.first().ok_or(Skip::NotChecked)?;
    if from_link {
        // `[x](url)`, `[x](name)`: placeholders unless they look like a path.
        if segments.len() == 1 && base_depth == 0 && !first.contains('.') {
            return Err(Skip::NotChecked);
        }
    } else {
        let names_a_folder = folders.binary_search(&first).is_ok();
        if !names_a_folder || (segments.len() == 1 && !decoded.ends_with('/')) {
            return Err(Skip::NotChecked);
        }
    }
    Ok(segments.join("/"))
}

/// Why [`candidate_in`] names no file of the skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skip {
    /// Not a path we check: a URL, an anchor, a placeholder, a glob.
    NotChecked,
    /// A link that climbs out of the skill's folder.
    Outside,
}

/// Whether `target` holds no glob or placeholder character (`*?[]{}<>$|`),
/// no whitespace, no `...`, and, in a code span, no `%`. One pass over the
/// bytes: this runs for every code span of every Markdown file.
fn plain_path(target: &str, from_link: bool) -> bool {
    let bytes = target.as_bytes();
    let mut dots = 0;
    for &byte in bytes {
        match byte {
            b'*' | b'?' | b'[' | b']' | b'{' | b'}' | b'<' | b'>' | b'$' | b'|' => return false,
            b'%' if !from_link => return false,
            b'.' => {
                dots += 1;
                if dots == 3 {
                    return false;
                }
                continue;
            }
            _ if byte.is_ascii_whitespace() || byte == 0x0b => return false,
            _ => {}
        }
        dots = 0;
    }
    target.is_ascii() || !target.contains(char::is_whitespace)
}

fn has_scheme(target: &str) -> bool {
    let Some((scheme, _)) = target.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// `scripts/run.py:12` or `scripts/run.py:12:3` → `scripts/run.py`.
fn strip_line_suffix(path: &str) -> Option<&str> {
    let (head, tail) = path.rsplit_once(':')?;
    if tail.is_empty() || !tail.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    strip_line_suffix(head).or(Some(head))
}

fn exists(path: &str, files: &[&str]) -> bool {
    let path = path.trim_end_matches('/');
    files.iter().any(|file| relpath::is_within(file, path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Fix;

    fn broken(body: &str) -> Vec<String> {
        let files = [
            "SKILL.md",
            "references/api.md",
            "references/counting-procedure.md",
            "references/my notes.md",
            "scripts/run.py",
            "templates/base.html",
            "LICENSE.txt",
        ];
        let text = format!("---\nname: s\n---\n{body}");
        let mut diagnostics = Diagnostics::new();
        check(&text, 16, &files, "s/SKILL.md", &mut diagnostics);
        match diagnostics.finish("skills", ()) {
            Ok(_) => Vec::new(),
            Err(report) => report.rendered().collect(),
        }
    }

    #[test]
    fn existing_references_pass() {
        let body = "See [API](references/api.md), [notes](references/my%20notes.md#top), \
                    [licence](./LICENSE.txt \"terms\"), ![x](<references/my notes.md>).\n\
                    Run `scripts/run.py`, `scripts/run.py:12`, browse `references/` and `templates/base.html`.\n\
                    [def]: references/api.md\n";
        assert_eq!(broken(body), Vec::<String>::new());
    }

    #[test]
    fn placeholders_urls_globs_and_code_blocks_are_not_links() {
        let body = "[site](https://example.com) [mail](mailto:a@b.c) [top](#usage) [x](url)\n\
                    `reference/*-database.md` `scripts/<name>.py` `references/{topic}.md` `$HOME/x`\n\
                    `output/report.md` `python scripts/missing.py` `scripts/...` `../other/SKILL.md`\n\
                    Examples: `brand/logo.png` for brand assets; the skill has no brand folder.\n\
                    `ghp_xxx` `sk-...` [abs](/etc/passwd)\n\
                    ```bash\npython scripts/missing.py\n[x](references/missing.md)\n```\n";
        assert_eq!(broken(body), Vec::<String>::new());
    }

    #[test]
    fn missing_files_are_reported_where_they_are_named() {
        let found = broken(
            "Read [the guide](references/guide.md).\nThen run `scripts/missing.py` and `templates/x.html`.\n![logo](assets/api.md)\n",
        );
        assert_eq!(found.len(), 4, "{found:#?}");
        assert!(
            found[0].starts_with(
                "skills/s/SKILL.md:4:18: broken-link: SKILL.md refers to `references/guide.md`"
            ),
            "{}",
            found[0]
        );
        assert!(
            found[1].starts_with("skills/s/SKILL.md:5:11:"),
            "{}",
            found[1]
        );
        assert!(found[2].contains("`templates/x.html`"), "{}", found[2]);
        assert!(
            found[3].contains("help: did you mean `references/api.md`?"),
            "{}",
            found[3]
        );
    }

    /// The specification's folders are the skill's own: a code span under one
    /// names a file of the skill even when the skill lacks the folder (the
    /// embed chapter's rule table says so; issue 31 found the check silent).
    #[test]
    fn paths_under_the_specifications_folders_are_checked_without_the_folder() {
        let files = ["SKILL.md", "templates/base.html"];
        let text = "---\nname: s\n---\nRun `scripts/missing.py`, read `references/absent.md`, \
                    use `assets/logo.png` and `templates/base.html`; write `output/report.md`.\n";
        let mut diagnostics = Diagnostics::new();
        check(text, 16, &files, "s/SKILL.md", &mut diagnostics);
        let found: Vec<String> = match diagnostics.finish("skills", ()) {
            Ok(_) => Vec::new(),
            Err(report) => report.rendered().collect(),
        };
        assert_eq!(found.len(), 3, "{found:#?}");
        for (found, path) in found.iter().zip([
            "scripts/missing.py",
            "references/absent.md",
            "assets/logo.png",
        ]) {
            assert!(found.contains(&format!("refers to `{path}`")), "{found}");
        }
    }

    #[test]
    fn links_that_climb_out_of_the_skill_are_refused() {
        let found = broken(
            "Ask [the kitchen skill](../kitchen/SKILL.md) first.\n\
             [up](references/../../shared/a.md) [back in](./../s/references/api.md)\n\
             [def]: ../kitchen/SKILL.md\n",
        );
        assert_eq!(found.len(), 4, "{found:#?}");
        assert!(
            found[0].starts_with(
                "skills/s/SKILL.md:4:25: link-outside-skill: SKILL.md links to `../kitchen/SKILL.md`, outside this skill's folder\n  help: a skill is served, synced and installed alone"
            ),
            "{}",
            found[0]
        );
        assert!(
            found[1].starts_with("skills/s/SKILL.md:5:6:"),
            "{}",
            found[1]
        );
        assert!(
            found[2].contains("`./../s/references/api.md`"),
            "{}",
            found[2]
        );
        assert!(
            found[3].starts_with("skills/s/SKILL.md:6:8:"),
            "{}",
            found[3]
        );
        // Inside the skill, in code, in fenced code, and URLs pass.
        let body = "[guide](references/../references/api.md) `../kitchen/SKILL.md`\n\
                    [site](https://example.com/a/../b) [up](/etc/x)\n\
                    ```\n[x](../kitchen/SKILL.md)\n```\n";
        assert_eq!(broken(body), Vec::<String>::new());
    }

    #[test]
    fn a_link_a_typing_mistake_away_gets_the_closest_file() {
        let text = "---\nname: s\n---\nFollow [the procedure](references/couting-procedure.md#steps), \
                    `references/counting-procedur.md`, [api](references/apy.md).\n\
                    [far](references/something-else.md) [notes](references/my%20note.md)\n";
        let files = [
            "SKILL.md",
            "references/api.md",
            "references/counting-procedure.md",
            "references/my notes.md",
        ];
        let mut diagnostics = Diagnostics::new();
        check(text, 16, &files, "s/SKILL.md", &mut diagnostics);
        let found = diagnostics.into_vec();
        let hints: Vec<Option<&str>> = found.iter().map(|d| d.hint.as_deref()).collect();
        assert_eq!(
            hints[..3],
            [
                Some("did you mean `references/counting-procedure.md`?"),
                Some("did you mean `references/counting-procedure.md`?"),
                Some("did you mean `references/api.md`?"),
            ]
        );
        assert!(
            hints[3].is_some_and(|hint| hint.starts_with("add the file")),
            "{hints:?}"
        );
        assert_eq!(hints[4], Some("did you mean `references/my notes.md`?"));
        // Each fix writes the file as the link must (its fragment kept,
        // a space escaped), and the fixed body passes.
        let (fixed, applied) = Fix::apply_all(text, found.iter().filter_map(|d| d.fix.as_ref()));
        assert_eq!(applied, 4);
        assert!(
            fixed.contains("(references/counting-procedure.md#steps)"),
            "{fixed}"
        );
        assert!(fixed.contains("(references/my%20notes.md)"), "{fixed}");
        let mut diagnostics = Diagnostics::new();
        check(&fixed, 16, &files, "s/SKILL.md", &mut diagnostics);
        let rules: Vec<Rule> = diagnostics.into_vec().iter().map(|d| d.rule).collect();
        assert_eq!(rules, [Rule::BrokenLink], "only the far one is left");
    }

    #[test]
    fn edit_distance_counts_typing_mistakes() {
        let distance = |a: &str, b: &str| {
            edit_distance(
                &a.chars().collect::<Vec<_>>(),
                &b.chars().collect::<Vec<_>>(),
            )
        };
        assert_eq!(distance("", ""), 0);
        assert_eq!(distance("abc", "abc"), 0);
        assert_eq!(distance("abc", ""), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("couting", "counting"), 1);
        assert_eq!(distance("api", "apy"), 1);
        assert_eq!(distance("é", "e"), 1);
    }
}
