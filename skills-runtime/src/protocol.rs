//! The names and formats the server and the client agree on: the `_meta`
//! keys this crate adds to SEP-2640 answers, FastMCP's `_manifest` listing,
//! and the agent skills discovery index. Both sides import them from here,
//! so a key cannot drift between what a server sends and what a client reads.
//!
//! ```
//! use skills_runtime::protocol;
//!
//! assert_eq!(protocol::EXECUTABLE_META_KEY, "io.crates.skills-runtime/executable");
//! assert_eq!(protocol::MANIFEST_SEGMENT, "_manifest");
//! ```

#[cfg(feature = "server")]
use std::fmt::Write as _;

#[cfg(feature = "server")]
use crate::Skill;

/// `_meta` key of a SEP-2640 skill entry (and of a `_manifest` read) that
/// lists the skill's executable files, by path inside the skill. Our own key:
/// SEP-2640 has none. Servers built on this crate send it; the client
/// restores the bits from it.
///
/// Named under `io.crates.skills-runtime/`, the reverse-DNS form of this
/// crate's home (`crates.io/crates/skills-runtime`), as MCP's `_meta` rules
/// ask of a key that is not MCP's own; `io.modelcontextprotocol.skills/` is
/// reserved for keys the Skills extension defines.
pub const EXECUTABLE_META_KEY: &str = "io.crates.skills-runtime/executable";

/// The name [`EXECUTABLE_META_KEY`] had before it moved under the crate's
/// reverse-DNS prefix: the client still reads it from servers that send it.
pub const LEGACY_EXECUTABLE_META_KEY: &str = "skills-runtime/executable";

/// `_meta` key (on a skill entry, and on each `SKILL.md` in
/// `resources/list`) holding the skill's version, [`Skill::version`]: the
/// revision over its `{uri, digest, size}` list, so a host can tell a
/// changed skill without reading it. Under the crate's reverse-DNS prefix,
/// like [`EXECUTABLE_META_KEY`]; servers before it sent
/// `skills-runtime/version`.
///
/// [`Skill::version`]: crate::Skill::version
pub const VERSION_META_KEY: &str = "io.crates.skills-runtime/version";

/// The last path segment FastMCP serves a skill's file listing under
/// (`skill://<path>/_manifest`).
pub const MANIFEST_SEGMENT: &str = "_manifest";

/// The URI of Figma's skills index (the pre-v1 draft of SEP-2640), served
/// when [`legacy_index`](crate::SkillsServerBuilder::legacy_index) is on.
pub const LEGACY_INDEX_URI: &str = "skill://index.json";

/// The `$schema` of the agent skills discovery index, compared byte for byte by clients.
pub const INDEX_SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/// Where the index and the artifacts are mounted: the folder of Agent
/// Skills Discovery 0.2.0. (Clients fall back to `/.well-known/skills`, the
/// 0.1.0 folder, only when this one has no index.)
pub const WELL_KNOWN_PATH: &str = "/.well-known/agent-skills";

/// The index's file name in [`WELL_KNOWN_PATH`].
pub const INDEX_FILE: &str = "index.json";

/// An entry's `type` for a skill served as its lone `SKILL.md`.
pub const TYPE_SKILL_MD: &str = "skill-md";

/// An entry's `type` for a skill served as its whole folder in one archive.
pub const TYPE_ARCHIVE: &str = "archive";

/// What an archive's URL ends with after the skill's name.
pub const ARCHIVE_SUFFIX: &str = ".tar.gz";

/// The modification time of every entry of an archive (1980-01-01T00:00:00Z,
/// the epoch of zip files): fixed, so that the same files give the same
/// bytes, and not 0, which some `tar` programs warn about.
pub const ARCHIVE_MTIME: u64 = 315_532_800;

/// The URI of `skill`'s FastMCP manifest.
#[cfg(feature = "server")]
pub(crate) fn manifest_uri(skill: &Skill) -> String {
    format!("{}/{MANIFEST_SEGMENT}", skill.root_uri())
}

/// FastMCP's `_manifest` bytes, exactly as its Python server writes them
/// (`json.dumps(…, indent=2)`: ASCII-escaped, no trailing newline), so a
/// client comparing them with FastMCP's output sees no difference. A main
/// file with another name (`main_file`) is listed under it, as FastMCP's
/// `main_file_name` and SkillsDotNet's `MainFileName` list it, in the order
/// of the paths listed (FastMCP sorts them).
#[cfg(feature = "server")]
pub fn manifest_json(skill: &Skill) -> String {
    let mut out = String::new();
    out.push_str("{\n  \"skill\": ");
    push_python_json_string(&mut out, skill.name());
    out.push_str(",\n  \"files\": [");
    let mut files: Vec<(std::borrow::Cow<'_, str>, &crate::SkillFile)> = skill
        .files()
        .iter()
        .map(|file| (skill.disk_path(file), file))
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    for (index, (path, file)) in files.iter().enumerate() {
        out.push_str(if index == 0 { "\n" } else { ",\n" });
        out.push_str("    {\n      \"path\": ");
        push_python_json_string(&mut out, path);
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

/// FastMCP's `_manifest` as a client reads it ([`manifest_json`] writes
/// it): indented by FastMCP and this crate, compact by SkillsDotNet. Only
/// the fields a client verifies; the skill's name comes from its URI.
#[cfg(feature = "client")]
#[derive(serde::Deserialize)]
pub(crate) struct ManifestListing {
    /// Every file of the skill, `SKILL.md` included.
    pub(crate) files: Vec<ManifestListingFile>,
}

/// One file of a [`ManifestListing`].
#[cfg(feature = "client")]
#[derive(serde::Deserialize)]
pub(crate) struct ManifestListingFile {
    /// Relative to the skill's folder, `/`-separated.
    pub(crate) path: String,
    /// In bytes.
    pub(crate) size: u64,
    /// `sha256:` and 64 hex digits.
    pub(crate) hash: String,
}

/// A JSON string the way Python's `json.dumps` writes it with `ensure_ascii=True`.
///
/// Not skills-core's `json_string` (digest.rs), on purpose: the revision
/// it writes only ever holds ASCII (digests, percent-encoded URIs) and runs
/// for every file inside the macro, so it keeps `serde_json`'s escapes and a
/// fast path; the manifest holds raw file paths and names, which may be
/// non-ASCII, and must match FastMCP's Python output byte for byte, so it
/// needs `ensure_ascii`'s UTF-16 escapes, which the revision never does.
#[cfg(feature = "server")]
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

/// Figma's `skill://index.json` ([`LEGACY_INDEX_URI`]): the agent skills
/// discovery index (schema 0.2.0, [`INDEX_SCHEMA`]) of `skills`, with
/// `skill://` URLs and SKILL.md digests.
#[cfg(feature = "server")]
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

#[cfg(all(test, feature = "server"))]
mod tests {
    use super::*;

    /// What the server writes is what the client reads: one shape, with a
    /// path that is not ASCII (escaped by the writer, decoded by serde).
    #[cfg(feature = "client")]
    #[test]
    fn the_client_reads_the_manifest_the_server_writes() {
        let root = std::env::temp_dir().join(format!(
            "skills-runtime-protocol-manifest-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("pdf/references")).unwrap();
        std::fs::write(
            root.join("pdf/SKILL.md"),
            "---\nname: pdf\ndescription: Fill PDF forms.\n---\n# PDF\n",
        )
        .unwrap();
        std::fs::write(root.join("pdf/references/café.md"), "crème").unwrap();
        let loaded = skills_core::load(&root, &skills_core::Options::default());
        let _ = std::fs::remove_dir_all(&root);
        let skills = loaded
            .unwrap_or_else(|report| panic!("{report}"))
            .into_skills();
        let skill = skills.get("pdf").unwrap();
        let written = manifest_json(skill);
        assert!(written.is_ascii(), "{written}");
        let read: ManifestListing = serde_json::from_str(&written).unwrap();
        let files: Vec<(&str, u64, String)> = read
            .files
            .iter()
            .map(|file| (file.path.as_str(), file.size, file.hash.clone()))
            .collect();
        let served: Vec<(&str, u64, String)> = skill
            .files()
            .iter()
            .map(|file| (file.path(), file.size(), file.digest().to_string()))
            .collect();
        assert_eq!(files, served);
    }

    #[test]
    fn escapes_like_python() {
        let mut out = String::new();
        push_python_json_string(&mut out, "a\"b\\c\nd\u{1}é😀\u{7f}");
        assert_eq!(out, "\"a\\\"b\\\\c\\nd\\u0001\\u00e9\\ud83d\\ude00\u{7f}\"");
    }
}
