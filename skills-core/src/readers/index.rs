//! What the `skills` CLI checks of each entry of a well-known index
//! (`npx skills add <URL>`), and the flag that hides a skill from it: a
//! server publishing an index warns about the entries the CLI would drop,
//! and leaves the hidden ones out, as the CLI would.

/// Longest description the CLI keeps in an index entry, in UTF-16 code
/// units (JavaScript's `length`; skills 1.7.4, dist/cli.mjs:3286).
pub(crate) const INDEX_DESCRIPTION_UNITS: usize = 1024;

/// Why `npx skills add <URL>` (skills 1.7.4) would leave out an index entry
/// with this `name` and `description`, in an author's words; `None` when it
/// keeps it. Its checks (dist/cli.mjs:3259-3266, 3283-3286): a name of 1 to
/// 64 characters of `a-z`, `0-9` and `-`, without a hyphen at either end or
/// two in a row, and a description of at most 1,024 UTF-16 code units.
///
/// ```
/// use skills_core::readers::index_entry_problem;
///
/// assert_eq!(index_entry_problem("pdf", "Fills forms."), None);
/// let emoji = format!("{}{}", "x".repeat(1000), "📄".repeat(13));
/// assert!(index_entry_problem("pdf", &emoji).unwrap().contains("1026 UTF-16 code units"));
/// ```
pub fn index_entry_problem(name: &str, description: &str) -> Option<String> {
    let valid_name = (1..=64).contains(&name.chars().count())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--");
    if !valid_name {
        return Some(format!(
            "its name `{name}` is not 1 to 64 of `a-z`, `0-9` and single inner hyphens, which the index requires"
        ));
    }
    let units = description.encode_utf16().count();
    if description.is_empty() || units > INDEX_DESCRIPTION_UNITS {
        return Some(format!(
            "its description is {units} UTF-16 code units long, over the {INDEX_DESCRIPTION_UNITS} the index allows (characters outside the Basic Multilingual Plane, such as emoji, count twice)"
        ));
    }
    None
}

/// Whether a skill's frontmatter (its fields other than `name` and
/// `description`, as [`Skill::extra_fields_json`](crate::Skill::extra_fields_json)
/// holds them) sets `metadata.internal` to the boolean `true`: the flag
/// with which the `skills` CLI hides a skill unless told to install
/// internal skills (skills 1.7.4, dist/cli.mjs:1277, 3453).
///
/// ```
/// use skills_core::readers::is_internal;
///
/// assert!(is_internal(r#"{"metadata":{"internal":true}}"#));
/// assert!(!is_internal(r#"{"metadata":{"internal":"true"}}"#));
/// assert!(!is_internal(r#"{"hooks":{"internal":true}}"#));
/// ```
pub fn is_internal(extra_fields_json: &str) -> bool {
    // The JSON is canonical (sorted keys, no blanks); find `metadata`'s
    // object at the top level and `"internal":true` directly in it.
    let Some(start) = top_level_key(extra_fields_json, "metadata") else {
        return false;
    };
    let rest = &extra_fields_json[start..];
    let Some(object) = rest.strip_prefix('{') else {
        return false;
    };
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let bytes = object.as_bytes();
    for (index, &byte) in bytes.iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => {
                if depth == 0 && object[index..].starts_with("\"internal\":true") {
                    let after = object.as_bytes().get(index + "\"internal\":true".len());
                    if matches!(after, Some(b',' | b'}')) {
                        return true;
                    }
                }
                in_string = true;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth == 0 => return false,
            b'}' | b']' => depth -= 1,
            _ => {}
        }
    }
    false
}

/// The offset just after `"key":` for a key of the top-level object of
/// `json`, if it has it.
fn top_level_key(json: &str, key: &str) -> Option<usize> {
    let needle = format!("\"{key}\":");
    let bytes = json.as_bytes();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (index, &byte) in bytes.iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => {
                if depth == 1 && json[index..].starts_with(&needle) {
                    return Some(index + needle.len());
                }
                in_string = true;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}
