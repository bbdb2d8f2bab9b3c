//! Target `skill_md`: one `SKILL.md`'s bytes through encoding, frontmatter,
//! field and link checks ([`skills_core::parse_skill_md`]), and through the
//! loader on a one-skill folder holding those bytes.
//!
//! The input is the file itself, so seeds are real `SKILL.md` files and a
//! regression is a file one can open.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::{Map, Value};
use skills_core::{
    Diagnostic, Fix, Library, MAX_FRONTMATTER_BYTES, Options, Renderer, Report, Rule, Severity,
    SkillMd, SkillMdContext, digest, load, names, parse_skill_md,
};

/// The files the skill holds when links are checked.
const FILES: [&str; 5] = [
    "SKILL.md",
    "references/api.md",
    "references/guide.md",
    "scripts/run.py",
    "assets/logo.png",
];

/// The folder of a skill whose `SKILL.md` is refused (or names no usable folder).
const FALLBACK_FOLDER: &str = "fuzz-skill";

/// Every invariant of one `SKILL.md` (panics when one breaks):
///
/// - accepted: its name follows the specification's name rule and is a
///   portable folder name; its description is not blank and at most 1,024
///   characters; its frontmatter holds both, re-serialises to the same JSON
///   with keys sorted at every level; the body starts right after a `---`
///   line; the same file is accepted again in a folder of its name, with
///   looser options and with links checked (when none is broken), and refused
///   only for `name-mismatch` in a folder of another name;
/// - refused: there is an error; every diagnostic's line and column lie
///   inside the input, its source line is that line, its message and hint
///   are one line without control characters, its fix replaces a range of
///   the input by something else; more context (a folder, files) never
///   accepts it;
/// - the frontmatter's size limit: an accepted file whose frontmatter is
///   padded (with a comment) past [`MAX_FRONTMATTER_BYTES`] is refused for
///   that alone, at line 2, before it is parsed;
/// - the loader, on a folder holding only this file, reports exactly the
///   problems [`parse_skill_md`] reports (credential findings aside, which
///   need the loader's scan), and what it builds from an accepted file holds
///   the same name, description, fields and body.
pub fn check(bytes: &[u8]) {
    let strict = Options::default();
    let bare = SkillMdContext::new("SKILL.md");
    let verdict = parse_skill_md(bytes, &bare, &strict);
    match &verdict {
        Ok(skill) => {
            let text = std::str::from_utf8(bytes).expect("an accepted SKILL.md is UTF-8");
            accepted(bytes, text, skill);
        }
        Err(report) => refused(bytes, report),
    }
    let folder = match &verdict {
        Ok(skill) => skill.name.as_str(),
        Err(_) => FALLBACK_FOLDER,
    };
    loader_agrees(bytes, folder);
}

fn accepted(bytes: &[u8], text: &str, skill: &SkillMd) {
    assert!(
        follows_name_rule(&skill.name),
        "accepted name {:?} breaks the specification's name rule",
        skill.name
    );
    assert_eq!(
        names::check_name(&skill.name),
        Ok(()),
        "accepted name {:?} cannot be a folder",
        skill.name
    );
    assert!(
        !skill.description.trim().is_empty() && skill.description.chars().count() <= 1024,
        "accepted description {:?} is blank or too long",
        skill.description
    );
    assert_eq!(
        skill.frontmatter.get("name"),
        Some(&Value::from(&*skill.name))
    );
    assert_eq!(
        skill.frontmatter.get("description"),
        Some(&Value::from(&*skill.description))
    );
    let json = serde_json::to_string(&skill.frontmatter).expect("JSON serializes");
    let again: Map<String, Value> = serde_json::from_str(&json).expect("our JSON parses");
    assert_eq!(
        again, skill.frontmatter,
        "the frontmatter does not re-serialise"
    );
    assert_sorted(&Value::Object(skill.frontmatter.clone()));

    // The body starts right after the closing `---` line.
    let offset = skill.body_offset;
    assert!(offset <= text.len() && text.is_char_boundary(offset));
    assert!(text.starts_with("---"));
    let head = &text[..offset];
    let closing = head
        .strip_suffix('\n')
        .map_or(head, |head| head.strip_suffix('\r').unwrap_or(head));
    assert!(
        closing.ends_with("\n---"),
        "the body does not follow a `---` line: {head:?}"
    );
    for warning in &skill.warnings {
        assert_eq!(warning.severity, Severity::Warning, "{warning:?}");
        diagnostic_fits(text, warning);
    }

    // The folder-name rule accepts the folder of that name, and only it.
    let named = SkillMdContext::new("SKILL.md").folder_name(&skill.name);
    assert_eq!(
        parse_skill_md(bytes, &named, &Options::default()).as_ref(),
        Ok(skill),
        "accepted without a folder, refused in a folder of its name"
    );
    let other = format!("{}-x", skill.name);
    let report = parse_skill_md(
        bytes,
        &SkillMdContext::new("SKILL.md").folder_name(&other),
        &Options::default(),
    )
    .expect_err("accepted in a folder of another name");
    let rules: Vec<Rule> = report.errors().map(|d| d.rule).collect();
    assert_eq!(rules, [Rule::NameMismatch], "{report}");

    // Looser options accept what the strict rules accept, with the same fields.
    for options in [Options::claude_code(), Options::any_fields()] {
        let loose = parse_skill_md(bytes, &SkillMdContext::new("SKILL.md"), &options)
            .unwrap_or_else(|report| panic!("strict accepts, {options:?} refuses:\n{report}"));
        same_skill(&loose, skill);
    }

    // Past the frontmatter's limit the same file is refused for that alone.
    too_large(text);

    // Checking links only adds link problems.
    let linked = SkillMdContext::new("SKILL.md").files(&FILES);
    match parse_skill_md(bytes, &linked, &Options::default()) {
        Ok(with_links) => same_skill(&with_links, skill),
        Err(report) => {
            for error in report.errors() {
                assert!(
                    matches!(error.rule, Rule::BrokenLink | Rule::LinkOutsideSkill),
                    "{report}"
                );
            }
        }
    }
}

/// `text` (accepted) with a comment line in its frontmatter that takes the
/// frontmatter one byte past the limit: refused with `frontmatter-too-large`
/// only.
fn too_large(text: &str) {
    let Some(first_line) = text.find('\n') else {
        return;
    };
    let body = text.len() - text[first_line + 1..].len();
    let yaml_len = text[body..]
        .split_inclusive('\n')
        .take_while(|line| line.trim_end_matches(['\n', '\r']) != "---")
        .map(str::len)
        .sum::<usize>();
    let padding = (MAX_FRONTMATTER_BYTES + 1).saturating_sub(yaml_len).max(3);
    let comment = format!("#{}\n", "x".repeat(padding - 2));
    let padded = format!("{}{comment}{}", &text[..body], &text[body..]);
    let report = parse_skill_md(
        padded.as_bytes(),
        &SkillMdContext::new("SKILL.md"),
        &Options::default(),
    )
    .expect_err("a frontmatter past its limit is accepted");
    let found: Vec<(Rule, Option<u32>)> = report.errors().map(|d| (d.rule, d.line)).collect();
    assert_eq!(found, [(Rule::FrontmatterTooLarge, Some(2))], "{report}");
}

fn refused(bytes: &[u8], report: &Report) {
    assert!(report.has_errors(), "refused without an error: {report:?}");
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        // Places in a file that is not UTF-8 lie in its valid start.
        Err(error) => std::str::from_utf8(&bytes[..error.valid_up_to()]).expect("valid prefix"),
    };
    for diagnostic in report.diagnostics() {
        assert_eq!(diagnostic.file, "SKILL.md", "{diagnostic:?}");
        diagnostic_fits(text, diagnostic);
    }
    // Rendering never fails, whatever the input held.
    let _ = report.to_string();
    let _ = Renderer::new(&Library).report(report);

    // More context only adds checks.
    let context = SkillMdContext::new("SKILL.md")
        .folder_name(FALLBACK_FOLDER)
        .files(&FILES);
    assert!(
        parse_skill_md(bytes, &context, &Options::default()).is_err(),
        "refused without context, accepted with it"
    );
}

/// A diagnostic's place lies inside `text`, with the line it quotes; its
/// words are one line; its fix edits `text`.
fn diagnostic_fits(text: &str, diagnostic: &Diagnostic) {
    let lines: Vec<&str> = text.split('\n').collect();
    if let Some(line) = diagnostic.line {
        let index = usize::try_from(line).expect("u32 fits usize");
        assert!(
            (1..=lines.len()).contains(&index),
            "line {line} outside a text of {} lines: {diagnostic:?}",
            lines.len()
        );
        let raw = lines[index - 1];
        if let Some(column) = diagnostic.column {
            // A column may point just past a bare `\r` (the invalid byte
            // after one, say), so count the line as written.
            let chars = raw.chars().count() + 1;
            assert!(
                (1..=chars).contains(&usize::try_from(column).expect("u32 fits usize")),
                "column {column} outside line {line} ({chars} places): {diagnostic:?}"
            );
        }
        if let Some(source) = &diagnostic.source_line {
            let written = raw.strip_suffix('\r').unwrap_or(raw);
            assert_eq!(source, written, "the source line is not line {line}");
        }
    } else {
        assert_eq!(diagnostic.column, None, "a column without a line");
    }
    assert!(
        !crate::display::has_control(&diagnostic.message) && !diagnostic.message.contains('\t'),
        "a message with a control character: {:?}",
        diagnostic.message
    );
    if let Some(hint) = &diagnostic.hint {
        assert!(
            !crate::display::has_control(hint),
            "a hint with a control character: {hint:?}"
        );
    }
    if let Some(fix) = &diagnostic.fix {
        fix_edits(text, fix, diagnostic);
    }
}

fn fix_edits(text: &str, fix: &Fix, diagnostic: &Diagnostic) {
    let range = fix.range.clone();
    assert!(
        range.start <= range.end
            && range.end <= text.len()
            && text.is_char_boundary(range.start)
            && text.is_char_boundary(range.end),
        "the fix's range {range:?} is not in the text: {diagnostic:?}"
    );
    assert_ne!(
        &text[range.clone()],
        fix.replacement,
        "the fix changes nothing: {diagnostic:?}"
    );
    let (_, applied) = Fix::apply_all(text, [fix]);
    assert_eq!(applied, 1);
}

/// The same skill, warnings aside (they depend on what was checked).
fn same_skill(found: &SkillMd, expected: &SkillMd) {
    assert_eq!(found.name, expected.name);
    assert_eq!(found.description, expected.description);
    assert_eq!(found.frontmatter, expected.frontmatter);
    assert_eq!(found.body_offset, expected.body_offset);
}

/// Every object's keys in sorted order, at every level (what the tables
/// and `extra_fields_json` promise, whatever serde_json's features).
fn assert_sorted(value: &Value) {
    match value {
        Value::Object(map) => {
            let keys: Vec<&String> = map.keys().collect();
            assert!(keys.is_sorted(), "keys out of order: {keys:?}");
            map.values().for_each(assert_sorted);
        }
        Value::Array(items) => items.iter().for_each(assert_sorted),
        _ => {}
    }
}

/// The specification's name rule, written from its text as an oracle (not
/// the implementation's code): 1 to 64 characters, lowercase ASCII letters,
/// digits and hyphens, no hyphen first, last or twice in a row.
fn follows_name_rule(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// The loader on a folder holding only `folder/SKILL.md` with `bytes`
/// agrees with [`parse_skill_md`] given the same folder.
fn loader_agrees(bytes: &[u8], folder: &str) {
    let root = scratch_root();
    // Only `folder` stays from the last execution (cheaper than a new tree).
    if let Ok(entries) = std::fs::read_dir(&root) {
        for entry in entries.flatten() {
            if entry.file_name() != folder {
                std::fs::remove_dir_all(entry.path()).expect("an old scratch folder");
            }
        }
    }
    std::fs::create_dir_all(root.join(folder)).expect("scratch folder");
    std::fs::write(root.join(folder).join("SKILL.md"), bytes).expect("scratch file");
    let file = format!("{folder}/SKILL.md");
    let context = SkillMdContext::new(&file)
        .folder_name(folder)
        .files(&["SKILL.md"]);
    let entry = parse_skill_md(bytes, &context, &Options::default());
    let loaded = load(&root, &Options::default());

    // Credentials are the loader's scan of every file, not a SKILL.md rule.
    let own = |found: &[Diagnostic]| -> Vec<Diagnostic> {
        found
            .iter()
            .filter(|d| d.rule != Rule::Secret)
            .cloned()
            .collect()
    };
    let by_entry = match &entry {
        Ok(skill) => own(&skill.warnings),
        Err(report) => own(report.diagnostics()),
    };
    let by_loader = match &loaded {
        Ok(loaded) => own(loaded.warnings()),
        Err(report) => own(report.diagnostics()),
    };
    assert_eq!(
        by_entry, by_loader,
        "parse_skill_md and the loader disagree"
    );
    match (&entry, &loaded) {
        (Ok(skill), Ok(loaded)) => {
            let [built] = loaded.skills().skills() else {
                panic!("one folder, {} skills", loaded.skills().len());
            };
            assert_eq!(built.name(), skill.name);
            assert_eq!(built.description(), skill.description);
            assert_eq!(built.body_offset(), skill.body_offset);
            assert_eq!(built.skill_md().bytes(), bytes);
            assert_eq!(built.skill_md().digest(), digest::of(bytes));
            let extra: BTreeMap<&String, &Value> = skill
                .frontmatter
                .iter()
                .filter(|(key, _)| !matches!(key.as_str(), "name" | "description"))
                .collect();
            assert_eq!(
                built.extra_fields_json(),
                serde_json::to_string(&extra).expect("JSON serializes")
            );
            let body = std::str::from_utf8(&bytes[skill.body_offset..]).expect("UTF-8 body");
            assert_eq!(built.body(), body);
        }
        (Ok(_), Err(report)) => {
            for error in report.errors() {
                assert_eq!(
                    error.rule,
                    Rule::Secret,
                    "accepted alone, refused by the loader:\n{report}"
                );
            }
        }
        (Err(_), Ok(_)) => panic!("refused alone, accepted by the loader"),
        (Err(_), Err(_)) => {}
    }
}

/// A folder of this thread's own under the temporary folder (the replay
/// tests run in parallel threads of one process).
fn scratch_root() -> PathBuf {
    let thread = format!("{:?}", std::thread::current().id());
    let thread: String = thread.chars().filter(char::is_ascii_digit).collect();
    std::env::temp_dir().join(format!("skills-fuzz-{}-{thread}", std::process::id()))
}

/// Removes this thread's scratch folder (the replay tests call it at the end).
pub fn clean_up() {
    let _ = std::fs::remove_dir_all(scratch_root());
}
