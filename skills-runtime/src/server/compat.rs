//! What clients that predate SEP-2640 read, built from the same tables:
//! FastMCP's `skill://<path>/_manifest` (also read by SkillsDotNet and by
//! FastMCP 4.2's `read_skill` fallback) and Figma's `skill://index.json`.

use std::fmt::Write as _;

use crate::{Skill, Skills};

/// The last path segment FastMCP serves a skill's file listing under.
pub const MANIFEST_SEGMENT: &str = "_manifest";

/// The URI of Figma's skills index (the pre-v1 draft of SEP-2640).
pub const INDEX_URI: &str = "skill://index.json";

/// The `$schema` of the agent skills discovery index, compared byte for byte by clients.
pub const INDEX_SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/// The URI of `skill`'s FastMCP manifest.
pub fn manifest_uri(skill: &Skill) -> String {
    format!("{}/{MANIFEST_SEGMENT}", skill.root_uri())
}

/// FastMCP's `_manifest` bytes, exactly as its Python server writes them
/// (`json.dumps(…, indent=2)`: ASCII-escaped, no trailing newline), so a
/// client comparing them with FastMCP's output sees no difference.
pub fn manifest_json(skill: &Skill) -> String {
    let mut out = String::new();
    out.push_str("{\n  \"skill\": ");
    push_python_json_string(&mut out, skill.name());
    out.push_str(",\n  \"files\": [");
    for (index, file) in skill.files().iter().enumerate() {
        out.push_str(if index == 0 { "\n" } else { ",\n" });
        out.push_str("    {\n      \"path\": ");
        push_python_json_string(&mut out, file.path());
        let _ = write!(out, ",\n      \"size\": {},\n      \"hash\": ", file.size());
        push_python_json_string(&mut out, &file.digest().to_string());
        out.push_str("\n    }");
    }
    out.push_str(if skill.files().is_empty() {
        "]\n}"
    } else {
        "\n  ]\n}"
    });
    out
}

/// A JSON string the way Python's `json.dumps` writes it with `ensure_ascii=True`.
fn push_python_json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c.is_ascii() && !c.is_ascii_control() || c == '\u{7f}' => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// Figma's `skill://index.json`: the agent skills discovery index (schema
/// 0.2.0) of `skills`, with `skill://` URLs and SKILL.md digests.
pub fn index_json<'a>(skills: impl IntoIterator<Item = &'a Skill>) -> String {
    let entries: Vec<serde_json::Value> = skills
        .into_iter()
        .map(|skill| {
            serde_json::json!({
                "name": skill.name(),
                "type": "skill-md",
                "description": skill.description(),
                "url": skill.uri(),
                "digest": skill.skill_md().digest().to_string(),
            })
        })
        .collect();
    let index = serde_json::json!({ "$schema": INDEX_SCHEMA, "skills": entries });
    serde_json::to_string_pretty(&index).expect("a JSON value always serializes")
}

/// The skill whose manifest `canonical_uri` is, if it is one.
pub fn manifest_owner<'s>(skills: &'s Skills, canonical_uri: &str) -> Option<&'s Skill> {
    let root = canonical_uri
        .strip_suffix(MANIFEST_SEGMENT)?
        .strip_suffix('/')?;
    let skill = skills.get(&skills_core::uri::decoded_path(root)?)?;
    // A real file named `_manifest` wins over the generated listing.
    skill.file(MANIFEST_SEGMENT).is_none().then_some(skill)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_python() {
        let mut out = String::new();
        push_python_json_string(&mut out, "a\"b\\c\nd\u{1}é😀\u{7f}");
        assert_eq!(out, "\"a\\\"b\\\\c\\nd\\u0001\\u00e9\\ud83d\\ude00\u{7f}\"");
    }
}
