//! Validate step for the frontmatter: the agentskills.io field rules
//! (`agent-skills-format.md` §1.2, §7), stricter where hosts are stricter.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::frontmatter::{Entry, Frontmatter, Node, Shape};
use crate::names::{self, MAX_NAME_CHARS};
use crate::options::Options;
use crate::rules::{OptionHint, Rule};
use crate::scalar::quoted;

/// Fields the specification defines.
pub const SPEC_FIELDS: [&str; 6] = [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// Longest `description`, in characters.
pub(crate) const MAX_DESCRIPTION_CHARS: usize = 1024;
/// Longest `compatibility`, in characters.
pub(crate) const MAX_COMPATIBILITY_CHARS: usize = 500;
/// `metadata` keys with this prefix are reserved by SEP-2640.
pub(crate) const RESERVED_METADATA_PREFIX: &str = "io.modelcontextprotocol/";

/// The `name` and `description` of a skill whose frontmatter passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Identity {
    pub name: String,
    pub description: String,
}

/// Checks every field of `frontmatter` for the skill in folder `folder_name`
/// (`None`: the folder is unknown, so `name` is not compared with it).
/// Returns the name and description when both are usable.
pub(crate) fn check(
    frontmatter: &Frontmatter,
    folder_name: Option<&str>,
    options: &Options,
    file: &str,
    diagnostics: &mut Diagnostics,
) -> Option<Identity> {
    let mut checker = Checker {
        file,
        frontmatter,
        options,
        diagnostics,
    };
    for entry in &frontmatter.fields {
        let known = SPEC_FIELDS.contains(&entry.key.as_str()) || options.accepts_field(&entry.key);
        if !known {
            checker.unknown_field(entry);
        }
    }
    let name = checker.required("name", folder_name);
    let name = name.and_then(|entry| checker.name(entry, folder_name));
    let description = checker.required("description", folder_name);
    let description = description.and_then(|entry| checker.description(entry));
    if let Some(entry) = frontmatter.get("compatibility")
        && let Some(text) = checker.string(entry, false)
    {
        checker.length(entry, text, MAX_COMPATIBILITY_CHARS, false);
    }
    if let Some(entry) = frontmatter.get("license") {
        checker.string(entry, false);
    }
    if let Some(entry) = frontmatter.get("allowed-tools") {
        checker.allowed_tools(entry);
    }
    if let Some(entry) = frontmatter.get("metadata") {
        checker.metadata(entry);
    }
    Some(Identity {
        name: name?,
        description: description?,
    })
}

struct Checker<'a> {
    file: &'a str,
    frontmatter: &'a Frontmatter,
    options: &'a Options,
    diagnostics: &'a mut Diagnostics,
}

/// How a value was written, for messages: "an unquoted number (`1.10`)".
fn describe(node: &Node) -> String {
    let plain = matches!(node.shape, Shape::Scalar { plain: true });
    let written = node.as_written();
    match &node.value {
        Value::Null => "empty".to_owned(),
        Value::Bool(_) if plain => format!("an unquoted boolean (`{written}`)"),
        Value::Bool(_) => "a boolean".to_owned(),
        Value::Number(_) if plain => format!("an unquoted number (`{written}`)"),
        Value::Number(_) => "a number".to_owned(),
        Value::String(_) => "a string".to_owned(),
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "a mapping".to_owned(),
    }
}

/// `metadata.internal: true` or `false`: the `skills` CLI's flag that hides
/// a skill (skills 1.7.4, dist/cli.mjs:1277), written as the boolean it reads.
pub(crate) fn is_internal_flag(item: &Entry) -> bool {
    item.key == "internal" && item.value.value.is_boolean()
}

fn is_scalar(node: &Node) -> bool {
    matches!(node.shape, Shape::Scalar { .. }) && !node.value.is_null()
}

impl<'a> Checker<'a> {
    fn problem(&self, rule: Rule, at: crate::Position, message: String) -> Diagnostic {
        Diagnostic::new(rule, self.file, message).at(at.line, at.column)
    }

    fn unknown_field(&mut self, entry: &Entry) {
        let key = &entry.key;
        let lower = key.to_lowercase().replace('_', "-");
        let mut diagnostic = self
            .problem(
                Rule::UnknownField,
                entry.key_at,
                format!(
                    "`{key}` is not a frontmatter field of the Agent Skills specification (name, description, license, compatibility, metadata, allowed-tools)"
                ),
            )
            .length(key.chars().count());
        diagnostic = match SPEC_FIELDS.iter().find(|field| **field == lower) {
            Some(field) if self.frontmatter.get(field).is_some() => diagnostic.hint(format!(
                "remove it: `{field}` is already set (field names are lowercase)"
            )),
            Some(field) => diagnostic
                .hint(format!("did you mean `{field}`? Field names are lowercase"))
                .fix(entry.key_range.clone(), *field),
            None => {
                let option = OptionHint::AllowField(key.clone());
                let top_level = "if your hosts read it at the top level, allow the field";
                let hint = match &entry.value.value {
                    Value::String(_) => {
                        format!("move it under `metadata:` (indented), or, {top_level}")
                    }
                    _ if is_scalar(&entry.value) => format!(
                        "move it under `metadata:` as text (`{key}: {}`, indented), or, {top_level}",
                        quoted(&entry.value.as_written())
                    ),
                    _ => format!("{top_level} (metadata holds only text values)"),
                };
                diagnostic.hint(hint).option(option)
            }
        };
        self.diagnostics.push(diagnostic);
    }

    fn required(&mut self, key: &str, folder_name: Option<&str>) -> Option<&'a Entry> {
        let entry = self.frontmatter.get(key);
        if entry.is_none() {
            let mut diagnostic = self.problem(
                Rule::RequiredField,
                crate::Position { line: 2, column: 1 },
                format!("the frontmatter has no `{key}`; every skill needs one"),
            );
            let misspelled = self
                .frontmatter
                .fields
                .iter()
                .find(|entry| entry.key.to_lowercase().replace('_', "-") == key);
            diagnostic = match (key, folder_name) {
                // The unknown-field diagnostic of `Name:` carries the fix.
                _ if misspelled.is_some() => diagnostic.hint(format!(
                    "rename `{}:` to `{key}:`",
                    misspelled.map_or(key, |entry| entry.key.as_str())
                )),
                ("name", Some(folder)) if names::skill_name_problem(folder).is_none() => {
                    let at = self.frontmatter.yaml_offset;
                    diagnostic
                        .hint(format!("add `name: {folder}` (the folder's name) to the frontmatter"))
                        .fix(at..at, format!("name: {folder}\n"))
                }
                ("name", _) => diagnostic.hint(
                    "add `name:` with the skill folder's name, in lowercase letters, digits and hyphens",
                ),
                _ => diagnostic
                    .hint("add `description:` saying what the skill does and when to use it"),
            };
            self.diagnostics.push(diagnostic);
        }
        entry
    }

    /// The value as text, or a problem when it is not a string.
    fn string<'e>(&mut self, entry: &'e Entry, required: bool) -> Option<&'e str> {
        if let Value::String(text) = &entry.value.value {
            return Some(text);
        }
        let key = &entry.key;
        let found = describe(&entry.value);
        let mut diagnostic = self
            .problem(
                Rule::FieldType,
                entry.value.at,
                format!("`{}` must be a string, but it is {found}", entry.path),
            )
            .length(entry.value.as_written().chars().count());
        diagnostic = if is_scalar(&entry.value) {
            let quoted = quoted(&entry.value.as_written());
            diagnostic
                .hint(format!("quote the value: `{key}: {quoted}`"))
                .fix(entry.value.range.clone(), quoted)
        } else if entry.value.value.is_null() && required {
            diagnostic.hint(format!("write the value after `{key}:`"))
        } else if entry.value.value.is_null() {
            diagnostic.hint(format!(
                "write the value after `{key}:`, or remove the line"
            ))
        } else {
            diagnostic.hint(format!("`{key}` holds one line of text"))
        };
        self.diagnostics.push(diagnostic);
        None
    }

    /// Whether `text` fits the length rules of `entry` (at least one
    /// non-blank character, at most `max`).
    fn length(&mut self, entry: &Entry, text: &str, max: usize, required: bool) -> bool {
        let count = text.chars().count();
        let key = &entry.key;
        if count > max {
            let at = entry.value.at;
            let diagnostic = names::too_long(self.file, key, count, max).at(at.line, at.column);
            self.diagnostics.push(diagnostic);
            return false;
        }
        if text.trim().is_empty() {
            let hint = match key.as_str() {
                "description" => {
                    "write the description: what the skill does and when to use it".to_owned()
                }
                _ if required => format!("write the `{key}`"),
                _ => format!("write the `{key}`, or remove the line"),
            };
            let diagnostic = self
                .problem(
                    Rule::FieldLength,
                    entry.value.at,
                    format!("`{key}` is empty"),
                )
                .hint(hint);
            self.diagnostics.push(diagnostic);
            return false;
        }
        true
    }

    fn name(&mut self, entry: &Entry, folder_name: Option<&str>) -> Option<String> {
        let name = self.string(entry, true)?;
        let at = entry.value.at;
        let count = name.chars().count();
        let fits_folder = folder_name.filter(|folder| names::skill_name_problem(folder).is_none());
        let set_folder = |diagnostic: Diagnostic, folder: &str| {
            diagnostic.fix(entry.value.range.clone(), folder.to_owned())
        };
        if count == 0 {
            let mut diagnostic = self
                .problem(Rule::FieldLength, at, "`name` is empty".to_owned())
                .hint("write the skill folder's name");
            if let Some(folder) = fits_folder {
                diagnostic = set_folder(
                    diagnostic.hint(format!("write the folder's name: `name: {folder}`")),
                    folder,
                );
            }
            self.diagnostics.push(diagnostic);
            return None;
        }
        if count > MAX_NAME_CHARS {
            self.length(entry, name, MAX_NAME_CHARS, true);
            return None;
        }
        if let Err(found) = names::check_skill_name(name) {
            // The rule's own message and hint; with a folder that has a
            // usable name, the hint offers it instead.
            let mut diagnostic = *found;
            diagnostic.file = self.file.to_owned();
            diagnostic = diagnostic.at(at.line, at.column).length(count);
            if let Some(folder) = fits_folder {
                diagnostic = set_folder(
                    diagnostic.hint(format!(
                        "use the folder's name, `name: {folder}`; names are lowercase letters a-z, digits and single hyphens"
                    )),
                    folder,
                );
            }
            self.diagnostics.push(diagnostic);
            return None;
        }
        if let Some(folder_name) = folder_name
            && name != folder_name
        {
            let mut diagnostic = self
                .problem(
                    Rule::NameMismatch,
                    at,
                    format!(
                        "the name `{name}` differs from its folder `{folder_name}`; the specification requires them to be equal"
                    ),
                )
                .length(count);
            diagnostic = match fits_folder {
                Some(folder) => set_folder(
                    diagnostic.hint(format!(
                        "rename the folder to `{name}`, or set `name: {folder}`"
                    )),
                    folder,
                ),
                None => diagnostic.hint(format!("rename the folder to `{name}`")),
            };
            self.diagnostics.push(diagnostic);
            return None;
        }
        Some(name.to_owned())
    }

    fn description(&mut self, entry: &Entry) -> Option<String> {
        let text = self.string(entry, true)?;
        if text
            .trim_start()
            .starts_with(crate::PLACEHOLDER_DESCRIPTION)
        {
            self.diagnostics.push(
                Diagnostic::warning(
                    Rule::PlaceholderDescription,
                    self.file,
                    "`description` is still the placeholder `skills new` wrote; models choose a skill by its description, and this one says nothing about the skill",
                )
                .at(entry.value.at.line, entry.value.at.column)
                .length(entry.value.as_written().chars().count())
                .hint("write what the skill does and when to use it, in one or two sentences"),
            );
        }
        self.length(entry, text, MAX_DESCRIPTION_CHARS, true)
            .then(|| text.to_owned())
    }

    fn allowed_tools(&mut self, entry: &Entry) {
        let Value::Array(items) = &entry.value.value else {
            self.string(entry, false);
            return;
        };
        let all_strings = items.iter().all(Value::is_string);
        if self.options.allowed_tools_list && all_strings {
            return;
        }
        let joined: Vec<String> = items
            .iter()
            .map(|item| match item {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            })
            .collect();
        let joined = quoted(&joined.join(" "));
        let diagnostic = self
            .problem(
                Rule::FieldType,
                entry.value.at,
                "`allowed-tools` must be a space-separated string, not a list".to_owned(),
            )
            .hint(format!("write `allowed-tools: {joined}`"))
            // From the end of the key, so the list's own lines go too.
            .fix(
                entry.key_range.end..entry.value.range.end,
                format!(": {joined}"),
            );
        self.diagnostics.push(diagnostic);
    }

    fn metadata(&mut self, entry: &Entry) {
        let Shape::Mapping(entries) = &entry.value.shape else {
            let found = describe(&entry.value);
            let diagnostic = self
                .problem(
                    Rule::FieldType,
                    entry.value.at,
                    format!(
                        "`metadata` must be a mapping of string keys to string values, but it is {found}"
                    ),
                )
                .hint("indent `key: \"value\"` lines under `metadata:`");
            self.diagnostics.push(diagnostic);
            return;
        };
        for item in entries {
            if item.key.starts_with(RESERVED_METADATA_PREFIX) {
                let diagnostic = self
                    .problem(
                        Rule::ReservedMetadataKey,
                        item.key_at,
                        format!(
                            "the metadata key `{}` uses the `{RESERVED_METADATA_PREFIX}` prefix SEP-2640 reserves",
                            item.path
                        ),
                    )
                    .length(item.key.chars().count())
                    .hint("choose a key without that prefix");
                self.diagnostics.push(diagnostic);
            }
            // The one exception: the `skills` CLI hides a skill whose
            // `metadata.internal` is the boolean `true` (its documented
            // flag), and every pinned reader reads a boolean there.
            if item.value.value.is_string() || is_internal_flag(item) {
                continue;
            }
            let key = &item.key;
            let found = describe(&item.value);
            let mut diagnostic = self
                .problem(
                    Rule::FieldType,
                    item.value.at,
                    format!(
                        "`{}` must be a string (metadata values are strings), but it is {found}",
                        item.path
                    ),
                )
                .length(item.value.as_written().chars().count());
            diagnostic = if is_scalar(&item.value) {
                let quoted = quoted(&item.value.as_written());
                diagnostic
                    .hint(format!("quote it: `{key}: {quoted}`"))
                    .fix(item.value.range.clone(), quoted)
            } else if item.value.value.is_null() {
                diagnostic.hint(format!(
                    "write the value in quotes (`{key}: \"…\"`), or remove the line"
                ))
            } else {
                diagnostic.hint(
                    "metadata values are single strings; flatten nested values into their own keys",
                )
            };
            self.diagnostics.push(diagnostic);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontmatter;

    fn check_text(yaml: &str, folder: &str, allow: &[&str]) -> Vec<String> {
        let text = format!("---\n{yaml}---\nbody\n");
        let mut diagnostics = Diagnostics::new();
        let options = Options {
            allow_fields: allow.iter().map(|s| s.to_string()).collect(),
            ..Options::default()
        };
        let parsed =
            frontmatter::parse(&text, "s/SKILL.md", &options, &mut diagnostics).expect("parses");
        let identity = check(
            &parsed,
            Some(folder),
            &options,
            "s/SKILL.md",
            &mut diagnostics,
        );
        match diagnostics.finish("skills", identity) {
            Ok((Some(_), _)) => Vec::new(),
            Ok((None, _)) => panic!("no identity and no problem"),
            Err(report) => report.rendered().collect(),
        }
    }

    /// The warnings of a frontmatter that passes.
    fn warnings_of(yaml: &str) -> Vec<String> {
        let text = format!("---\n{yaml}---\nbody\n");
        let mut diagnostics = Diagnostics::new();
        let options = Options::default();
        let parsed =
            frontmatter::parse(&text, "s/SKILL.md", &options, &mut diagnostics).expect("parses");
        let identity = check(&parsed, Some("s"), &options, "s/SKILL.md", &mut diagnostics);
        let (identity, warnings) = diagnostics.finish("skills", identity).expect("passes");
        assert!(identity.is_some());
        warnings.iter().map(|d| d.render("skills")).collect()
    }

    #[test]
    fn the_placeholder_description_is_a_warning() {
        let placeholder = format!(
            "name: s\ndescription: {}, in one or two sentences. Use when the user asks about S.\n",
            crate::PLACEHOLDER_DESCRIPTION
        );
        assert_eq!(
            warnings_of(&placeholder),
            [
                "skills/s/SKILL.md:3:14: warning: placeholder-description: `description` is still the placeholder `skills new` wrote; models choose a skill by its description, and this one says nothing about the skill\n  help: write what the skill does and when to use it, in one or two sentences"
            ]
        );
        // Written in quotes or folded, still the placeholder.
        let folded = format!(
            "name: s\ndescription: >\n  {}.\n",
            crate::PLACEHOLDER_DESCRIPTION
        );
        assert_eq!(warnings_of(&folded).len(), 1);
        // A real description, even one that mentions replacing things, passes.
        for description in [
            "Counts stock and explains variances. Use when the user asks about stock.",
            "Replace this with that: rewrites text. Use when asked to replace words.",
        ] {
            let yaml = format!("name: s\ndescription: \"{description}\"\n");
            assert_eq!(warnings_of(&yaml), Vec::<String>::new(), "{description}");
        }
    }

    #[test]
    fn a_complete_skill_passes() {
        let yaml = "name: pdf-2\ndescription: Fill PDF forms. Use when the user mentions PDFs.\nlicense: MIT\ncompatibility: Requires python3\nallowed-tools: Bash(git:*) Read\nmetadata:\n  version: \"1.0\"\n  author: me\n";
        assert_eq!(check_text(yaml, "pdf-2", &[]), Vec::<String>::new());
    }

    /// Each case: frontmatter, folder, expected `rule` and line:col.
    #[test]
    fn every_field_rule() {
        let long = "x".repeat(1025);
        let cases: Vec<(String, &str, &str)> = vec![
            (
                "description: d\n".into(),
                "s",
                ":2:1: required-field: the frontmatter has no `name`",
            ),
            (
                "name: s\n".into(),
                "s",
                ":2:1: required-field: the frontmatter has no `description`",
            ),
            (
                "name: 12\ndescription: d\n".into(),
                "s",
                ":2:7: field-type: `name` must be a string, but it is an unquoted number (`12`)",
            ),
            (
                "name: Pdf\ndescription: d\n".into(),
                "Pdf",
                "name-format: the name `Pdf` contains the uppercase letter `P`",
            ),
            (
                "name: pdf_x\ndescription: d\n".into(),
                "pdf_x",
                "contains `_`; only a-z, 0-9 and `-` are allowed",
            ),
            (
                "name: -pdf\ndescription: d\n".into(),
                "-pdf",
                "starts or ends with a hyphen",
            ),
            (
                "name: a--b\ndescription: d\n".into(),
                "a--b",
                "contains two hyphens in a row",
            ),
            (
                "name: café\ndescription: d\n".into(),
                "café",
                "contains `é`",
            ),
            (
                format!("name: {}\ndescription: d\n", "a".repeat(65)),
                "a",
                "`name` is 65 characters long, 1 over the limit of 64",
            ),
            (
                "name: vercel-x\ndescription: d\n".into(),
                "x",
                ":2:7: name-mismatch: the name `vercel-x` differs from its folder `x`",
            ),
            (
                "name: s\ndescription: \"   \"\n".into(),
                "s",
                ":3:14: field-length: `description` is empty",
            ),
            (
                format!("name: s\ndescription: {long}\n"),
                "s",
                "`description` is 1025 characters long, 1 over the limit of 1024",
            ),
            (
                "name: s\ndescription: d\ncompatibility: \"\"\n".into(),
                "s",
                "`compatibility` is empty",
            ),
            (
                format!(
                    "name: s\ndescription: d\ncompatibility: {}\n",
                    "é".repeat(501)
                ),
                "s",
                "`compatibility` is 501 characters long",
            ),
            (
                "name: s\ndescription: d\nlicense: 2.0\n".into(),
                "s",
                "`license` must be a string, but it is an unquoted number (`2.0`)",
            ),
            (
                "name: s\ndescription: d\nlicense:\n".into(),
                "s",
                "`license` must be a string, but it is empty",
            ),
            (
                "name: s\ndescription: d\nallowed-tools:\n  - Read\n  - Bash\n".into(),
                "s",
                "help: write `allowed-tools: \"Read Bash\"`",
            ),
            (
                "name: s\ndescription: d\nmetadata: hello\n".into(),
                "s",
                "`metadata` must be a mapping",
            ),
            (
                "name: s\ndescription: d\nmetadata:\n  version: 1.0\n".into(),
                "s",
                ":5:12: field-type: `metadata.version` must be a string (metadata values are strings), but it is an unquoted number (`1.0`)",
            ),
            (
                "name: s\ndescription: d\nmetadata:\n  tags: [a, b]\n".into(),
                "s",
                "`metadata.tags` must be a string (metadata values are strings), but it is a list",
            ),
            (
                "name: s\ndescription: d\nmetadata:\n  io.modelcontextprotocol/x: \"y\"\n".into(),
                "s",
                "reserved-metadata-key",
            ),
            (
                "description: d\nName: s\n".into(),
                "s",
                "help: did you mean `name`?",
            ),
            (
                // Renaming it would set `name` twice.
                "name: s\ndescription: d\nName: s\n".into(),
                "s",
                "help: remove it: `name` is already set",
            ),
            (
                "name: s\ndescription: d\nallowed_tools: Read\n".into(),
                "s",
                "help: did you mean `allowed-tools`?",
            ),
            (
                "name: s\ndescription: d\ndisable-model-invocation: true\n".into(),
                "s",
                ":4:1: unknown-field: `disable-model-invocation` is not a frontmatter field",
            ),
            (
                // A tab inside a key shows in the message, which stays one
                // line (found by the skill_md fuzz target).
                "name: s\ndescription: d\ndescri\tption: x\n".into(),
                "s",
                ":4:1: unknown-field: `descri\\tption` is not a frontmatter field",
            ),
        ];
        for (yaml, folder, expected) in cases {
            let found = check_text(&yaml, folder, &[]);
            assert!(
                found.iter().any(|message| message.contains(expected)),
                "{yaml:?}: expected {expected:?} in {found:#?}"
            );
        }
    }

    #[test]
    fn allowed_fields_pass_with_any_type() {
        let yaml =
            "name: s\ndescription: d\ndisable-model-invocation: true\ndependencies:\n  - a\n";
        assert_eq!(
            check_text(yaml, "s", &["disable-model-invocation", "dependencies"]),
            Vec::<String>::new()
        );
    }

    #[test]
    fn reports_every_field_problem_at_once() {
        let found = check_text(
            "name: Bad--Name-\ndescription: \"\"\nversion: x\n",
            "demo",
            &[],
        );
        assert_eq!(found.len(), 3, "{found:#?}");
    }
}
