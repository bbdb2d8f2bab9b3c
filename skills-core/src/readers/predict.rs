//! The readers' rules applied to the facts of each skill: one verdict per
//! skill and reader, each finding in an author's words.

use std::collections::HashSet;

use serde_json::Value;

use super::facts::{self, Facts, Hidden, HiddenKind};
use super::index::{index_entry_problem, is_internal};
use super::{
    FAST_AGENT, FASTMCP, Finding, READERS, RMCP, Reader, ReaderRule, ReaderVerdict, SKILLS_CLI,
    SKILLS_REF, SkillVerdicts, Verdict,
};
use crate::fields::SPEC_FIELDS;
use crate::load::Loaded;
use crate::{MAX_SKILL_BYTES, MAX_SKILL_FILES, SKILL_MD};

/// Folders the `skills` CLI never looks into for skills (dist/cli.mjs:1188).
const CLI_SKIP_DIRS: [&str; 5] = ["node_modules", ".git", "dist", "build", "__pycache__"];
/// How many folders deep the `skills` CLI looks under a repository's
/// `skills/` (dist/cli.mjs:1372), and how deep when it found nothing there
/// (findSkillDirs, 5 below the repository, dist/cli.mjs:1286).
const CLI_DEPTH: usize = 3;
const CLI_FALLBACK_DEPTH: usize = 4;
/// How many paths a message names before "and N more".
const NAMED: usize = 3;

/// Every reader's verdict on every skill of `loaded`, in its order.
pub fn predict(loaded: &Loaded) -> Vec<SkillVerdicts> {
    let facts = facts::gather(loaded);
    let discovery = cli_discovery(&facts);
    // The roots that are themselves a skill (fast-agent is then pointed at
    // the folder holding it).
    let skill_roots: HashSet<usize> = facts
        .iter()
        .filter(|f| f.folder.is_empty())
        .map(|f| f.root)
        .collect();
    facts
        .iter()
        .zip(&discovery)
        .map(|(facts_of, found)| SkillVerdicts {
            skill: facts_of.skill.path().to_owned(),
            file: facts_of.file.clone(),
            readers: READERS
                .iter()
                .map(|reader| {
                    let findings = match reader.id {
                        id if id == SKILLS_CLI.id => skills_cli(facts_of, found.as_ref()),
                        id if id == SKILLS_REF.id => skills_ref(facts_of),
                        id if id == FASTMCP.id => fastmcp(facts_of),
                        id if id == RMCP.id => rmcp(facts_of),
                        id if id == FAST_AGENT.id => {
                            fast_agent(facts_of, skill_roots.contains(&facts_of.root))
                        }
                        _ => Vec::new(),
                    };
                    verdict(reader, findings)
                })
                .collect(),
        })
        .collect()
}

fn verdict(reader: &'static Reader, mut findings: Vec<Finding>) -> ReaderVerdict {
    findings.sort_by_key(|finding| std::cmp::Reverse(finding.verdict));
    ReaderVerdict {
        reader,
        verdict: findings
            .iter()
            .map(|finding| finding.verdict)
            .max()
            .unwrap_or(Verdict::Accept),
        findings,
    }
}

/// A finding of rule `id`. `why` names paths, keys and values from the
/// folder, which its owner chose: it is escaped here, once, as every name
/// printed is ([`crate::printable`]), so no output of it (the CLI's every
/// format, the macro's warning) can act on a terminal or a CI log.
fn finding(id: &str, why: String) -> Finding {
    let rule = rule(id);
    Finding {
        rule,
        verdict: rule.verdict,
        why: crate::printable(&why).into_owned(),
    }
}

fn rule(id: &str) -> &'static ReaderRule {
    ReaderRule::by_id(id).unwrap_or_else(|| panic!("no reader rule `{id}`"))
}

// ---------------------------------------------------------------- skills CLI

/// Why the `skills` CLI does not find a skill in a repository.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Missed {
    TooDeep { depth: usize },
    InsideSkill { outer: String },
    SkippedFolder { name: String },
}

/// For each skill, why `npx skills add <repository>` does not find it
/// (`None`: it does), the root being the repository's `skills/` folder.
fn cli_discovery(facts: &[Facts<'_>]) -> Vec<Option<Missed>> {
    // The folders the CLI takes for skills: those holding a `SKILL.md`.
    let skill_folders: HashSet<(usize, &str)> = facts
        .iter()
        .filter(|f| f.main_file == SKILL_MD)
        .map(|f| (f.root, f.folder.as_str()))
        .collect();
    // The walk of `skills/` (dist/cli.mjs:1361-1372): each folder up to
    // three deep; a skill folder is taken and not entered; a folder named
    // in SKIP_DIRS is not entered.
    let walked: Vec<Option<Missed>> = facts
        .iter()
        .map(|f| {
            let segments: Vec<&str> = f.folder.split('/').filter(|s| !s.is_empty()).collect();
            for depth in 1..segments.len() {
                let ancestor = segments[..depth].join("/");
                if skill_folders.contains(&(f.root, ancestor.as_str())) {
                    return Some(Missed::InsideSkill { outer: ancestor });
                }
                if depth >= CLI_DEPTH {
                    return Some(Missed::TooDeep {
                        depth: segments.len(),
                    });
                }
                if CLI_SKIP_DIRS.contains(&segments[depth - 1]) {
                    return Some(Missed::SkippedFolder {
                        name: segments[depth - 1].to_owned(),
                    });
                }
            }
            None
        })
        .collect();
    // When the walk kept no skill (internal ones are dropped), it looks
    // everywhere 5 folders below the repository, nested skills included,
    // still never inside SKIP_DIRS (dist/cli.mjs:1286-1296, 1373).
    let found_any: HashSet<usize> = facts
        .iter()
        .zip(&walked)
        .filter(|(f, missed)| missed.is_none() && f.main_file == SKILL_MD && !internal(f))
        .map(|(f, _)| f.root)
        .collect();
    facts
        .iter()
        .zip(walked)
        .map(|(f, missed)| {
            if missed.is_none() || found_any.contains(&f.root) {
                return missed;
            }
            let segments: Vec<&str> = f.folder.split('/').filter(|s| !s.is_empty()).collect();
            if segments.len() > CLI_FALLBACK_DEPTH {
                return Some(Missed::TooDeep {
                    depth: segments.len(),
                });
            }
            if let Some(name) = segments.iter().find(|s| CLI_SKIP_DIRS.contains(s)) {
                return Some(Missed::SkippedFolder {
                    name: (*name).to_owned(),
                });
            }
            None
        })
        .collect()
}

fn internal(f: &Facts<'_>) -> bool {
    is_internal(f.skill.extra_fields_json())
}

fn skills_cli(f: &Facts<'_>, missed: Option<&Missed>) -> Vec<Finding> {
    let mut findings = Vec::new();
    let served_anyway = "from a skills-runtime server's well-known index it installs it";
    let in_repository = if f.main_file != SKILL_MD {
        findings.push(finding(
            "skills-cli/main-file",
            format!(
                "skips this skill in a repository: it finds no `SKILL.md` in its folder (the main file is `{}`); {served_anyway}, since the server names the main file `SKILL.md`",
                f.main_file
            ),
        ));
        false
    } else if internal(f) {
        findings.push(finding(
            "skills-cli/internal",
            "hides this skill: `metadata.internal` is `true`, so it installs it only with `INSTALL_INTERNAL_SKILLS=1` or when `--skill` names it (a skills-runtime server leaves it out of its well-known index too, unless the server is told to list internal skills)".to_owned(),
        ));
        false
    } else if let Some(missed) = missed {
        let reason = match missed {
            Missed::TooDeep { depth } => format!(
                "it looks at most {CLI_DEPTH} folders deep under `skills/` (deeper only when it finds no skill at all), and this one is {depth} deep"
            ),
            Missed::InsideSkill { outer } => {
                format!("it does not look inside `{outer}`, which is a skill itself")
            }
            Missed::SkippedFolder { name } => {
                format!("it never looks inside a folder named `{name}`")
            }
        };
        findings.push(finding(
            "skills-cli/discovery",
            format!("does not find this skill in a repository: {reason}; {served_anyway}"),
        ));
        false
    } else {
        true
    };
    if in_repository {
        let left_out: Vec<&str> = f
            .skill
            .files()
            .iter()
            .map(|file| file.path())
            .filter(|path| {
                let mut segments = path.split('/');
                let name = path.rsplit('/').next().unwrap_or(path);
                name == "metadata.json"
                    || segments.any(|segment| {
                        segment != name && matches!(segment, "__pycache__" | "__pypackages__")
                    })
            })
            .collect();
        if !left_out.is_empty() {
            findings.push(finding(
                "skills-cli/excluded-files",
                format!(
                    "leaves out {} when it installs from a repository: it never copies files named `metadata.json`, nor `__pycache__` and `__pypackages__` folders",
                    named(&left_out)
                ),
            ));
        }
        let added: Vec<&str> = f
            .hidden
            .iter()
            .filter(|hidden| !hidden.in_git() && hidden.kind != HiddenKind::Dir)
            .filter(|hidden| !excluded_by_cli(hidden))
            .map(|hidden| hidden.path.as_str())
            .collect();
        if !added.is_empty() {
            findings.push(finding(
                "skills-cli/hidden-files",
                format!(
                    "also installs {} from a repository: it copies hidden files, which skills-runtime does not serve",
                    named(&added)
                ),
            ));
        }
    }
    let description = f.skill.description();
    if normalized(&cli_sanitized(description)) != normalized(description) {
        findings.push(finding(
            "skills-cli/sanitized",
            "shows the description without its control characters and terminal escapes".to_owned(),
        ));
    }
    if let Some(problem) = index_entry_problem(f.skill.name(), description)
        && !internal(f)
    {
        findings.push(finding(
            "skills-cli/index-description",
            format!("skips this skill in a skills-runtime server's well-known index: {problem}"),
        ));
    }
    findings
}

/// Whether the CLI's copy leaves this hidden entry out (`metadata.json`,
/// or inside a `__pycache__`/`__pypackages__` folder).
fn excluded_by_cli(hidden: &Hidden) -> bool {
    let name = hidden.path.rsplit('/').next().unwrap_or(&hidden.path);
    name == "metadata.json"
        || hidden
            .path
            .split('/')
            .any(|segment| segment != name && matches!(segment, "__pycache__" | "__pypackages__"))
}

/// The `skills` CLI's `sanitizeMetadata` (dist/cli.mjs:341-352): terminal
/// escapes (OSC, DCS/PM/APC, CSI, two-byte), C1 and most C0 control
/// characters removed, line breaks turned into spaces, trimmed.
pub(super) fn cli_sanitized(text: &str) -> String {
    const ESC: char = '\u{1b}';
    let chars: Vec<char> = text.chars().collect();
    // OSC: ESC ] … BEL or ESC \ (lazy); DCS/PM/APC: ESC P|^|_ … ESC \.
    let strip_strings = |chars: Vec<char>, openers: &[char], bel: bool| -> Vec<char> {
        let mut out = Vec::with_capacity(chars.len());
        let mut index = 0;
        while index < chars.len() {
            if chars[index] == ESC && chars.get(index + 1).is_some_and(|c| openers.contains(c)) {
                let mut end = None;
                let mut at = index + 2;
                while at < chars.len() {
                    if bel && chars[at] == '\u{7}' {
                        end = Some(at + 1);
                        break;
                    }
                    if chars[at] == ESC && chars.get(at + 1) == Some(&'\\') {
                        end = Some(at + 2);
                        break;
                    }
                    at += 1;
                }
                if let Some(end) = end {
                    index = end;
                    continue;
                }
            }
            out.push(chars[index]);
            index += 1;
        }
        out
    };
    let chars = strip_strings(chars, &[']'], true);
    let chars = strip_strings(chars, &['P', '^', '_'], false);
    // CSI: ESC [ params* intermediates* final.
    let mut csi = Vec::with_capacity(chars.len());
    let mut index = 0;
    while index < chars.len() {
        if chars[index] == ESC && chars.get(index + 1) == Some(&'[') {
            let mut at = index + 2;
            while chars
                .get(at)
                .is_some_and(|c| ('\u{30}'..='\u{3f}').contains(c))
            {
                at += 1;
            }
            while chars
                .get(at)
                .is_some_and(|c| ('\u{20}'..='\u{2f}').contains(c))
            {
                at += 1;
            }
            if chars
                .get(at)
                .is_some_and(|c| ('\u{40}'..='\u{7e}').contains(c))
            {
                index = at + 1;
                continue;
            }
        }
        csi.push(chars[index]);
        index += 1;
    }
    // Two-character escapes: ESC and one printable ASCII character.
    let mut simple = String::with_capacity(csi.len());
    let mut index = 0;
    while index < csi.len() {
        if csi[index] == ESC
            && csi
                .get(index + 1)
                .is_some_and(|c| ('\u{20}'..='\u{7e}').contains(c))
        {
            index += 2;
            continue;
        }
        simple.push(csi[index]);
        index += 1;
    }
    let kept: String = simple
        .chars()
        .filter(|c| {
            let code = *c as u32;
            !((0x80..=0x9f).contains(&code)
                || code <= 0x08
                || code == 0x0b
                || code == 0x0c
                || (0x0d..=0x1a).contains(&code)
                || (0x1c..=0x1f).contains(&code)
                || code == 0x7f)
        })
        .collect();
    kept.split(['\r', '\n'])
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .trim()
        .to_owned()
}

/// `text` with every run of white space one space, trimmed: how readers
/// that fold or trim a value show it, which we do not count as a change.
pub(super) fn normalized(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first few of `paths`, in backticks, and how many more.
fn named(paths: &[&str]) -> String {
    let mut shown: Vec<String> = paths.iter().take(NAMED).map(|p| format!("`{p}`")).collect();
    if paths.len() > NAMED {
        shown.push(format!("{} more", paths.len() - NAMED));
    }
    match shown.len() {
        1 => shown.remove(0),
        _ => {
            let last = shown.pop().unwrap_or_default();
            format!("{} and {last}", shown.join(", "))
        }
    }
}

// ---------------------------------------------------------------- skills-ref

/// The fields skills-ref allows (skills_ref/validator.py:15).
const SKILLS_REF_FIELDS: [&str; 6] = SPEC_FIELDS;

fn skills_ref(f: &Facts<'_>) -> Vec<Finding> {
    let mut findings = Vec::new();
    if !matches!(f.main_file, SKILL_MD | "skill.md") {
        findings.push(finding(
            "skills-ref/main-file",
            format!(
                "refuses this skill (`Missing required file: SKILL.md`): it looks for `SKILL.md` or `skill.md`, and the main file is `{}`",
                f.main_file
            ),
        ));
        return findings;
    }
    // What its YAML reader gets: the frontmatter up to the first `---`.
    let (fields, flow) = match &f.cut {
        None => (Some(&f.frontmatter), f.flow_line),
        Some(cut) => (cut.fields.as_ref(), cut.flow.then_some(cut.line)),
    };
    if let Some(cut) = &f.cut {
        let cut_why = format!(
            "ends the frontmatter at the `---` on line {} (it looks for the text, not a line)",
            cut.line
        );
        let refusal = match fields {
            None => Some("and what comes before it is not a YAML mapping".to_owned()),
            Some(fields) => ["name", "description"]
                .iter()
                .find(|key| {
                    fields
                        .get(**key)
                        .and_then(Value::as_str)
                        .is_none_or(|text| text.trim().is_empty())
                })
                .map(|key| format!("so it finds no `{key}`")),
        };
        match refusal {
            Some(refusal) => {
                findings.push(Finding {
                    rule: rule("skills-ref/dashes"),
                    verdict: Verdict::Refuse,
                    why: format!("refuses this skill: it {cut_why}, {refusal}"),
                });
                return findings;
            }
            None => {
                let fields = fields.expect("a refusal otherwise");
                let changed: Vec<String> = f
                    .frontmatter
                    .iter()
                    .filter(|(key, value)| {
                        fields.get(*key).is_none_or(|theirs| {
                            match (theirs.as_str(), value.as_str()) {
                                (Some(theirs), Some(ours)) => {
                                    normalized(theirs) != normalized(ours)
                                }
                                _ => theirs != *value,
                            }
                        })
                    })
                    .map(|(key, _)| format!("`{key}`"))
                    .collect();
                if !changed.is_empty() {
                    findings.push(finding(
                        "skills-ref/dashes",
                        format!(
                            "{cut_why}, so it reads {} otherwise than written",
                            changed.join(", ")
                        ),
                    ));
                }
            }
        }
    }
    let tab = f
        .tab_line
        .filter(|line| f.cut.as_ref().is_none_or(|cut| *line < cut.line));
    if let Some(line) = tab {
        findings.push(finding(
            "skills-ref/tab",
            format!(
                "refuses this skill: its YAML reader (strictyaml) refuses the tab on line {line}, outside quotes; write spaces, or quote the value"
            ),
        ));
    }
    if let Some(line) = flow {
        findings.push(finding(
            "skills-ref/flow-collection",
            format!(
                "refuses this skill: its YAML reader (strictyaml) refuses the flow collection (`{{…}}` or `[…]`) on line {line}; write it as indented lines"
            ),
        ));
    }
    let unknown: Vec<String> = fields
        .into_iter()
        .flat_map(|fields| fields.keys())
        .filter(|key| !SKILLS_REF_FIELDS.contains(&key.as_str()))
        .map(|key| format!("`{key}`"))
        .collect();
    if let Some(fields) = fields {
        let texts: Vec<String> = text_values(fields)
            .into_iter()
            .map(|(path, value)| format!("`{path}` as the text `\"{value}\"`"))
            .collect();
        if !texts.is_empty() {
            findings.push(finding(
                "skills-ref/text-values",
                format!(
                    "reads {} (strictyaml reads every value as text)",
                    texts.join(", ")
                ),
            ));
        }
    }
    if !unknown.is_empty() {
        findings.push(finding(
            "skills-ref/fields",
            format!(
                "refuses this skill: it allows no top-level field besides name, description, license, compatibility, metadata and allowed-tools, and this one has {}",
                unknown.join(", ")
            ),
        ));
    }
    findings
}

/// The scalars other than strings among the fields skills-ref shows
/// (`read-properties`): their path and their text.
fn text_values(fields: &serde_json::Map<String, Value>) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for key in ["license", "compatibility", "allowed-tools"] {
        if let Some(value) = fields.get(key).filter(|value| is_other_scalar(value)) {
            found.push((key.to_owned(), value.to_string()));
        }
    }
    if let Some(Value::Object(metadata)) = fields.get("metadata") {
        for (key, value) in metadata {
            if is_other_scalar(value) {
                found.push((format!("metadata.{key}"), value.to_string()));
            }
        }
    }
    found
}

fn is_other_scalar(value: &Value) -> bool {
    matches!(value, Value::Bool(_) | Value::Number(_))
}

// ------------------------------------------------------------------- FastMCP

fn fastmcp(f: &Facts<'_>) -> Vec<Finding> {
    let mut findings = Vec::new();
    if f.main_file != SKILL_MD {
        findings.push(finding(
            "fastmcp/main-file",
            format!(
                "skips this skill: it finds no `SKILL.md` in its folder (the main file is `{}`)",
                f.main_file
            ),
        ));
        return findings;
    }
    if let Some(outer) = &f.enclosing {
        findings.push(finding(
            "fastmcp/nested",
            format!(
                "does not serve this skill on its own: its walk stops at `{outer}`, a skill folder, which serves these files as its own"
            ),
        ));
        return findings;
    }
    let stops = "and one refused folder stops the whole provider (it serves no skill)";
    let special: Vec<&str> = f
        .hidden
        .iter()
        .filter(|hidden| matches!(hidden.kind, HiddenKind::Link | HiddenKind::Special))
        .map(|hidden| hidden.path.as_str())
        .collect();
    if !special.is_empty() {
        findings.push(finding(
            "fastmcp/hidden-entries",
            format!(
                "refuses this skill: it reads hidden entries too, and {} is a symbolic link or special file; {stops}",
                named(&special)
            ),
        ));
        return findings;
    }
    let hidden_files: Vec<(&str, u64)> = f
        .hidden
        .iter()
        .filter_map(|hidden| match hidden.kind {
            HiddenKind::File { len } => Some((hidden.path.as_str(), len)),
            _ => None,
        })
        .collect();
    let files = f.skill.files().len() + hidden_files.len();
    let bytes = f.skill.total_size() + hidden_files.iter().map(|(_, len)| len).sum::<u64>();
    let hidden_paths: Vec<&str> = hidden_files.iter().map(|(path, _)| *path).collect();
    if !hidden_files.is_empty() && (files > MAX_SKILL_FILES || bytes > MAX_SKILL_BYTES) {
        let over = if files > MAX_SKILL_FILES {
            format!("{files} files, over the {MAX_SKILL_FILES}")
        } else {
            format!("{bytes} bytes, over the {MAX_SKILL_BYTES} (16 MiB)")
        };
        findings.push(finding(
            "fastmcp/limits",
            format!(
                "refuses this skill: counting its hidden files ({}), it holds {over} it allows per skill; {stops}",
                named(&hidden_paths)
            ),
        ));
        return findings;
    }
    if let Some(line) = f.tab_line {
        findings.push(finding(
            "fastmcp/tab",
            format!(
                "refuses this skill: its YAML reader, PyYAML's pure-Python `SafeLoader`, refuses the tab on line {line}, outside quotes (write spaces, or quote the value); {stops}"
            ),
        ));
        return findings;
    }
    if !hidden_files.is_empty() {
        findings.push(finding(
            "fastmcp/hidden-files",
            format!(
                "also serves {}: it does not leave hidden files out, as skills-runtime does",
                named(&hidden_paths)
            ),
        ));
    }
    findings
}

// ---------------------------------------------------------------------- rmcp

fn rmcp(f: &Facts<'_>) -> Vec<Finding> {
    if f.main_file == SKILL_MD {
        // It ignores hidden entries and skips skills over 512 files or
        // 16 MiB, as skills-runtime does (skill_catalog.rs:436, 640).
        return Vec::new();
    }
    vec![finding(
        "rmcp/main-file",
        format!(
            "skips this skill: it finds no `SKILL.md` in its folder (the main file is `{}`)",
            f.main_file
        ),
    )]
}

// ---------------------------------------------------------------- fast-agent

fn fast_agent(f: &Facts<'_>, root_is_skill: bool) -> Vec<Finding> {
    if f.main_file != SKILL_MD {
        return vec![finding(
            "fast-agent/main-file",
            format!(
                "skips this skill: it finds no `SKILL.md` in its folder (the main file is `{}`)",
                f.main_file
            ),
        )];
    }
    // Pointed at the skills folder (at the folder holding it, when the
    // folder is the skill), it reads the folders right below.
    let found = if root_is_skill {
        f.folder.is_empty()
    } else {
        f.depth() == 1
    };
    if !found {
        return vec![finding(
            "fast-agent/depth",
            format!(
                "does not find this skill: it reads only the folders right below its skills folder, and this one is `{}`",
                f.skill.path()
            ),
        )];
    }
    let mut findings = Vec::new();
    if matches!(f.field("allowed-tools"), Some(Value::Array(_))) {
        findings.push(finding(
            "fast-agent/allowed-tools-list",
            "drops `allowed-tools`: it reads only a space-separated string, and this one is a list"
                .to_owned(),
        ));
    }
    if let Some(Value::Object(metadata)) = f.field("metadata") {
        let changed: Vec<String> = metadata
            .iter()
            .filter(|(_, value)| !value.is_string())
            .map(|(key, value)| format!("`metadata.{key}` as `{}`", python_str(value)))
            .collect();
        if !changed.is_empty() {
            findings.push(finding(
                "fast-agent/metadata-text",
                format!("reads {}", changed.join(", ")),
            ));
        }
    }
    let other: Vec<String> = f
        .frontmatter
        .keys()
        .filter(|key| !SPEC_FIELDS.contains(&key.as_str()))
        .map(|key| format!("`{key}`"))
        .collect();
    if !other.is_empty() {
        findings.push(finding(
            "fast-agent/other-fields",
            format!(
                "ignores {}: it keeps only the specification's fields",
                other.join(", ")
            ),
        ));
    }
    findings
}

/// Python's `str()` of a JSON scalar, as PyYAML reads it.
fn python_str(value: &Value) -> String {
    match value {
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Null => "None".to_owned(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizes_as_the_cli_does() {
        assert_eq!(cli_sanitized("Red \u{1b}[31mtext\u{1b}[0m."), "Red text.");
        assert_eq!(cli_sanitized("Bell\u{7} and \u{85}NEL"), "Bell and NEL");
        assert_eq!(cli_sanitized("Title\u{1b}]0;x\u{7} here"), "Title here");
        assert_eq!(cli_sanitized("a\r\nb\n\nc"), "a b c");
        assert_eq!(cli_sanitized(" tab\tkept "), "tab\tkept");
        // A lone ESC not followed by a printable character stays.
        assert_eq!(cli_sanitized("x\u{1b}"), "x\u{1b}");
    }

    #[test]
    fn names_a_few_paths() {
        assert_eq!(named(&[".env"]), "`.env`");
        assert_eq!(named(&["a", "b"]), "`a` and `b`");
        assert_eq!(
            named(&["a", "b", "c", "d", "e"]),
            "`a`, `b`, `c` and 2 more"
        );
    }
}
