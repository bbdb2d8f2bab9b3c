//! Validate step for the frontmatter: the agentskills.io field rules
//! (`agent-skills-format.md` §1.2, §7), stricter where hosts are stricter.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Diagnostics, Rule};
use crate::frontmatter::{Entry, Frontmatter, Node, Shape};

/// Fields the specification defines.
pub const SPEC_FIELDS: [&str; 6] = [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// Longest `name`, in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// Longest `description`, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
/// Longest `compatibility`, in characters.
pub const MAX_COMPATIBILITY_CHARS: usize = 500;
/// `metadata` keys with this prefix are reserved by SEP-2640.
pub const RESERVED_METADATA_PREFIX: &str = "io.modelcontextprotocol/";

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
    allow_fields: &[String],
    file: &str,
    diagnostics: &mut Diagnostics,
) -> Option<Identity> {
    let mut checker = Checker { file, diagnostics };
    for entry in &frontmatter.fields {
        let known = SPEC_FIELDS.contains(&entry.key.as_str())
            || allow_fields.iter().any(|allowed| allowed == &entry.key);
        if !known {
            checker.unknown_field(entry);
        }
    }
    let name = checker.required(frontmatter, "name");
    let name = name.and_then(|entry| checker.name(entry, folder_name));
    let description = checker.required(frontmatter, "description");
    let description = description.and_then(|entry| checker.description(entry));
    if let Some(entry) = frontmatter.get("compatibility")
        && let Some(text) = checker.string(entry)
    {
        checker.length(entry, text, 1, MAX_COMPATIBILITY_CHARS);
    }
    if let Some(entry) = frontmatter.get("license") {
        checker.string(entry);
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
    diagnostics: &'a mut Diagnostics,
}

/// How a value was written, for messages: "an unquoted number (`1.0`)".
fn describe(node: &Node) -> String {
    let plain = matches!(node.shape, Shape::Scalar { plain: true });
    match &node.value {
        Value::Null => "empty".to_owned(),
        Value::Bool(value) if plain => format!("an unquoted boolean (`{value}`)"),
        Value::Bool(_) => "a boolean".to_owned(),
        Value::Number(number) if plain => format!("an unquoted number (`{number}`)"),
        Value::Number(_) => "a number".to_owned(),
        Value::String(_) => "a string".to_owned(),
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "a mapping".to_owned(),
    }
}

fn is_scalar(node: &Node) -> bool {
    matches!(node.shape, Shape::Scalar { .. }) && !node.value.is_null()
}

impl Checker<'_> {
    fn push(&mut self, rule: Rule, node_at: crate::Position, message: String, hint: String) {
        self.diagnostics.push(
            Diagnostic::new(rule, self.file, message)
                .at(node_at.line, node_at.column)
                .hint(hint),
        );
    }

    fn unknown_field(&mut self, entry: &Entry) {
        let key = &entry.key;
        let lower = key.to_lowercase().replace('_', "-");
        let hint = match SPEC_FIELDS.iter().find(|field| **field == lower) {
            Some(field) => format!("did you mean `{field}`? Field names are lowercase"),
            None => format!(
                "move it under `metadata:`, or, if your hosts read it at the top level, allow it: `embed_skills!(\"…\", allow_fields = [\"{key}\"])`"
            ),
        };
        self.push(
            Rule::UnknownField,
            entry.key_at,
            format!(
                "`{key}` is not a frontmatter field of the Agent Skills specification (name, description, license, compatibility, metadata, allowed-tools)"
            ),
            hint,
        );
    }

    fn required<'f>(&mut self, frontmatter: &'f Frontmatter, key: &str) -> Option<&'f Entry> {
        let entry = frontmatter.get(key);
        if entry.is_none() {
            self.diagnostics.push(
                Diagnostic::new(
                    Rule::RequiredField,
                    self.file,
                    format!("the frontmatter has no `{key}`; every skill needs one"),
                )
                .at(2, 1)
                .hint(match key {
                    "name" => "add `name: <folder name>` to the frontmatter",
                    _ => "add `description:` saying what the skill does and when to use it",
                }),
            );
        }
        entry
    }

    /// The value as text, or a problem when it is not a string.
    fn string<'e>(&mut self, entry: &'e Entry) -> Option<&'e str> {
        if let Value::String(text) = &entry.value.value {
            return Some(text);
        }
        let key = &entry.key;
        let found = describe(&entry.value);
        let hint = if is_scalar(&entry.value) {
            format!("quote the value: `{key}: \"{}\"`", entry.value.value)
        } else if entry.value.value.is_null() {
            format!("write the value after `{key}:`, or remove the line")
        } else {
            format!("`{key}` holds one line of text")
        };
        self.push(
            Rule::FieldType,
            entry.value.at,
            format!("`{key}` must be a string, but it is {found}"),
            hint,
        );
        None
    }

    fn length(&mut self, entry: &Entry, text: &str, min: usize, max: usize) -> bool {
        let count = text.chars().count();
        let key = &entry.key;
        if count > max {
            self.push(
                Rule::FieldLength,
                entry.value.at,
                format!(
                    "`{key}` is {count} characters long, {} over the limit of {max}",
                    count - max
                ),
                format!("shorten `{key}` to at most {max} characters"),
            );
            return false;
        }
        if count < min || text.trim().is_empty() {
            self.push(
                Rule::FieldLength,
                entry.value.at,
                format!("`{key}` is empty"),
                format!("write the `{key}`, or remove the line"),
            );
            return false;
        }
        true
    }

    fn name(&mut self, entry: &Entry, folder_name: Option<&str>) -> Option<String> {
        let name = self.string(entry)?;
        let at = entry.value.at;
        let count = name.chars().count();
        let mut ok = true;
        if count == 0 || count > MAX_NAME_CHARS {
            ok = self.length(entry, name, 1, MAX_NAME_CHARS);
        } else if let Some(problem) = name_format_problem(name) {
            ok = false;
            self.push(
                Rule::NameFormat,
                at,
                format!("the name `{name}` {problem}"),
                "use lowercase letters a-z, digits and single hyphens, like `pdf-processing`"
                    .to_owned(),
            );
        }
        if ok
            && let Some(folder_name) = folder_name
            && name != folder_name
        {
            ok = false;
            self.push(
                Rule::NameMismatch,
                at,
                format!("the name `{name}` differs from its folder `{folder_name}`; the specification requires them to be equal"),
                format!("rename the folder to `{name}`, or set `name: {folder_name}`"),
            );
        }
        ok.then(|| name.to_owned())
    }

    fn description(&mut self, entry: &Entry) -> Option<String> {
        let text = self.string(entry)?;
        self.length(entry, text, 1, MAX_DESCRIPTION_CHARS)
            .then(|| text.to_owned())
    }

    fn allowed_tools(&mut self, entry: &Entry) {
        if let Value::Array(items) = &entry.value.value {
            let joined: Vec<String> = items
                .iter()
                .map(|item| match item {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                })
                .collect();
            self.push(
                Rule::FieldType,
                entry.value.at,
                "`allowed-tools` must be a space-separated string, not a list".to_owned(),
                format!("write `allowed-tools: \"{}\"`", joined.join(" ")),
            );
            return;
        }
        self.string(entry);
    }

    fn metadata(&mut self, entry: &Entry) {
        let Shape::Mapping(entries) = &entry.value.shape else {
            let found = describe(&entry.value);
            self.push(
                Rule::FieldType,
                entry.value.at,
                format!("`metadata` must be a mapping of string keys to string values, but it is {found}"),
                "indent `key: \"value\"` lines under `metadata:`".to_owned(),
            );
            return;
        };
        for item in entries {
            if item.key.starts_with(RESERVED_METADATA_PREFIX) {
                self.push(
                    Rule::ReservedMetadataKey,
                    item.key_at,
                    format!(
                        "the metadata key `{}` uses the `{RESERVED_METADATA_PREFIX}` prefix SEP-2640 reserves",
                        item.key
                    ),
                    "choose a key without that prefix".to_owned(),
                );
            }
            if !item.value.value.is_string() {
                let key = &item.key;
                let found = describe(&item.value);
                let hint = if is_scalar(&item.value) {
                    format!("quote it: `{key}: \"{}\"`", item.value.value)
                } else {
                    "metadata values are single strings; flatten nested values into their own keys"
                        .to_owned()
                };
                self.push(
                    Rule::FieldType,
                    item.value.at,
                    format!("metadata values must be strings, but `{key}` is {found}"),
                    hint,
                );
            }
        }
    }
}

/// Why `name` breaks `^[a-z0-9]+(-[a-z0-9]+)*$`, in words.
fn name_format_problem(name: &str) -> Option<String> {
    if let Some(upper) = name.chars().find(|c| c.is_uppercase()) {
        return Some(format!(
            "contains the uppercase letter `{upper}`; names are lowercase"
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
    {
        return Some(format!(
            "contains `{}`; only a-z, 0-9 and `-` are allowed",
            bad.escape_debug()
        ));
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Some("starts or ends with a hyphen".to_owned());
    }
    if name.contains("--") {
        return Some("contains two hyphens in a row".to_owned());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontmatter;

    fn check_text(yaml: &str, folder: &str, allow: &[&str]) -> Vec<String> {
        let text = format!("---\n{yaml}---\nbody\n");
        let mut diagnostics = Diagnostics::new();
        let parsed = frontmatter::parse(&text, "s/SKILL.md", &mut diagnostics).expect("parses");
        let allow: Vec<String> = allow.iter().map(|s| s.to_string()).collect();
        let identity = check(
            &parsed,
            Some(folder),
            &allow,
            "s/SKILL.md",
            &mut diagnostics,
        );
        match diagnostics.finish("skills", identity) {
            Ok(Some(_)) => Vec::new(),
            Ok(None) => panic!("no identity and no problem"),
            Err(report) => report.rendered().collect(),
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
                ":5:12: field-type: metadata values must be strings, but `version` is an unquoted number (`1.0`)",
            ),
            (
                "name: s\ndescription: d\nmetadata:\n  tags: [a, b]\n".into(),
                "s",
                "`tags` is a list",
            ),
            (
                "name: s\ndescription: d\nmetadata:\n  io.modelcontextprotocol/x: \"y\"\n".into(),
                "s",
                "reserved-metadata-key",
            ),
            (
                "name: s\ndescription: d\nName: s\n".into(),
                "s",
                "help: did you mean `name`?",
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
