//! Conversion to rmcp's model types, at the wire boundary and nowhere else:
//! skill entries, resources, templates, read results, completions, the
//! fallback tool, prompts, and the errors a request can end in.

use std::sync::{Arc, OnceLock};

use rmcp::ErrorData;
use rmcp::model::{
    CallToolResult, CompleteResult, CompletionInfo, ContentBlock, GetPromptResult, JsonObject,
    ListResourcesResult, MetaObject, Prompt, PromptMessage, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, Role, SkillFrontmatter, SkillResource, SkillResources,
    Tool,
};
use serde_json::json;

use crate::protocol::{self, EXECUTABLE_META_KEY, VERSION_META_KEY};
use crate::{Skill, SkillFile};

/// The SEP-2640 entry of `skill`: its URI, every frontmatter field, and every
/// file with digest and size.
pub fn skill_entry(skill: &Skill) -> rmcp::model::Skill {
    let frontmatter = frontmatter(skill);
    let resources = skill
        .files()
        .iter()
        .map(|file| {
            SkillResource::new(skill.file_uri(file), file.digest().to_string(), file.size())
        })
        .collect();
    let entry = rmcp::model::Skill::new(skill.uri(), frontmatter, SkillResources::Files(resources));
    let mut meta = executable_meta(skill).unwrap_or_default();
    meta.insert(VERSION_META_KEY.to_owned(), json!(skill.version()));
    entry.with_meta(meta)
}

/// `_meta` listing `skill`'s executable files, when it has any: on its entry
/// and on its FastMCP `_manifest` read, so clients of either era restore them.
pub(super) fn executable_meta(skill: &Skill) -> Option<MetaObject> {
    let executable: Vec<&str> = skill
        .files()
        .iter()
        .filter(|file| file.is_executable())
        .map(SkillFile::path)
        .collect();
    if executable.is_empty() {
        return None;
    }
    let mut meta = MetaObject::new();
    meta.insert(EXECUTABLE_META_KEY.to_owned(), json!(executable));
    Some(meta)
}

/// Every frontmatter field of `skill`, as the author wrote it.
fn frontmatter(skill: &Skill) -> SkillFrontmatter {
    let mut frontmatter = SkillFrontmatter::new(skill.name(), skill.description());
    if let Ok(extra) = serde_json::from_str::<JsonObject>(skill.extra_fields_json()) {
        frontmatter.extra = extra;
    }
    frontmatter
}

/// How a skill's `SKILL.md` appears in `resources/list`, in the shape hosts
/// that predate SEP-2640 follow (Figma's): named by its frontmatter name,
/// titled `Skill: <name>`, described by `description` (when to load it),
/// with its size also under `_meta.size` and its version under
/// [`VERSION_META_KEY`]. A main file with another name (`main_file`) is
/// listed under that name (`skill://<path>/README.md`), as FastMCP's
/// `main_file_name` and SkillsDotNet's `MainFileName` list it; `skills/list`
/// names it `SKILL.md`, as SEP-2640 requires, and both URIs read it.
pub(super) fn skill_md_resource(skill: &Skill, description: &str) -> Resource {
    let file = skill.skill_md();
    let mut meta = MetaObject::new();
    meta.insert("size".to_owned(), json!(file.size()));
    meta.insert(VERSION_META_KEY.to_owned(), json!(skill.version()));
    let uri = if skill.main_file() == crate::SKILL_MD {
        skill.uri().to_owned()
    } else {
        skills_core::uri::for_file(skill.path(), skill.main_file())
    };
    Resource::new(uri, skill.name())
        .with_title(format!("Skill: {}", skill.name()))
        .with_description(description)
        .with_mime_type(file.mime_type())
        .with_size(file.size())
        .with_meta(meta)
}

/// How a supporting file appears in `resources/list`: `<skill>/<path>`,
/// titled `<skill> reference: <path>`, telling the agent to read the skill's
/// `SKILL.md` first.
pub(super) fn file_resource(skill: &Skill, file: &SkillFile) -> Resource {
    Resource::new(
        skill.file_uri(file),
        format!("{}/{}", skill.name(), file.path()),
    )
    .with_title(format!("{} reference: {}", skill.name(), file.path()))
    .with_description(format!(
        "Reference for {}. You must read {} first before using this reference.",
        skill.name(),
        skill.uri()
    ))
    .with_mime_type(file.mime_type())
    .with_size(file.size())
}

/// A page of `resources/list` holding `items`.
pub(super) fn resources_page(items: &[&Resource]) -> ListResourcesResult {
    ListResourcesResult::with_all_items(items.iter().map(|&resource| resource.clone()).collect())
}

/// How FastMCP's generated `_manifest` of `skill` appears in `resources/list`.
pub(super) fn manifest_resource(skill: &Skill) -> Resource {
    Resource::new(
        protocol::manifest_uri(skill),
        format!("{}/{}", skill.name(), protocol::MANIFEST_SEGMENT),
    )
    .with_description(format!("File listing for {}", skill.name()))
    .with_mime_type("application/json")
}

/// How Figma's `skill://index.json` appears in `resources/list`: named
/// `skill-index`, as Figma's server lists it.
pub(super) fn index_resource() -> &'static Resource {
    static INDEX: OnceLock<Resource> = OnceLock::new();
    INDEX.get_or_init(|| {
        Resource::new(protocol::LEGACY_INDEX_URI, "skill-index")
            .with_description(
                "Index of the skills this server provides (agent skills discovery schema 0.2.0)",
            )
            .with_mime_type("application/json")
    })
}

/// A file among a directory's children, named by its last segment `name`.
pub(super) fn directory_file(skill: &Skill, file: &SkillFile, name: &str) -> Resource {
    Resource::new(skill.file_uri(file), name)
        .with_mime_type(file.mime_type())
        .with_size(file.size())
}

/// A folder among a directory's children: `uri`, named `name`.
pub(super) fn directory_folder(uri: String, name: String) -> Resource {
    Resource::new(uri, name).with_mime_type(rmcp::model::DIRECTORY_MIME_TYPE)
}

/// What follows a skill's root URI in its FastMCP file template.
pub(super) const TEMPLATE_SUFFIX: &str = "/{path*}";

/// FastMCP's `skill://<path>/{path*}` template for `skill`'s files.
pub(super) fn file_template(skill: &Skill) -> ResourceTemplate {
    ResourceTemplate::new(
        format!("{}{TEMPLATE_SUFFIX}", skill.root_uri()),
        format!("{}_files", skill.name()),
    )
    .with_description(format!("Access files within {}", skill.name()))
    .with_mime_type("application/octet-stream")
}

/// The answer to a read of `file` at `requested_uri` (echoed exactly): its
/// text, or its bytes in base64 as `blob` gives them (encoded now, or
/// copied from a cache).
pub(super) fn file_read(
    file: &SkillFile,
    requested_uri: &str,
    blob: impl FnOnce(&SkillFile) -> String,
) -> ReadResourceResult {
    // The text goes in as `Cow<'static, str>`: rmcp 3.11's `String` field
    // copies it here; with `TextResourceContents::text` as a `Cow` (the patch
    // in bench/runtime/rmcp-patch/) the text compiled into the binary is
    // borrowed, never copied.
    let contents = match file.static_text() {
        Some(text) => ResourceContents::text(text, requested_uri),
        None => ResourceContents::blob(blob(file), requested_uri),
    };
    ReadResourceResult::new(vec![contents.with_mime_type(file.mime_type())])
}

/// The answer to a read of a generated JSON document (a manifest, the index).
pub(super) fn json_read(
    json: String,
    meta: Option<MetaObject>,
    requested_uri: &str,
) -> ReadResourceResult {
    let mut content =
        ResourceContents::text(json, requested_uri).with_mime_type("application/json");
    if let ResourceContents::TextResourceContents { meta: slot, .. } = &mut content {
        *slot = meta;
    }
    ReadResourceResult::new(vec![content])
}

/// A completion offering `matches`, as many as one answer may carry, with
/// the total and whether more exist.
pub(super) fn completion(matches: Vec<String>) -> CompleteResult {
    let total = matches.len();
    let values: Vec<String> = matches
        .into_iter()
        .take(CompletionInfo::MAX_VALUES)
        .collect();
    let has_more = total > values.len();
    let info = CompletionInfo::with_pagination(
        values,
        Some(u32::try_from(total).unwrap_or(u32::MAX)),
        has_more,
    )
    .unwrap_or_default();
    CompleteResult::new(info)
}

/// A completion with nothing to offer (an argument we do not complete).
pub(super) fn no_completion() -> CompleteResult {
    CompleteResult::new(CompletionInfo::default())
}

/// The fallback tool `name`, describing how to use it and, when every
/// caller may see every skill (`named` is empty otherwise), which skills
/// there are.
pub(super) fn read_tool(name: &str, named: &[&Skill]) -> Tool {
    let mut schema = JsonObject::new();
    schema.insert("type".to_owned(), json!("object"));
    schema.insert(
        "properties".to_owned(),
        json!({
            "uri": {
                "type": "string",
                "description": "The skill:// URI of the file to read, such as skill://<skill>/SKILL.md, or just a skill's name to read its SKILL.md."
            }
        }),
    );
    schema.insert("required".to_owned(), json!(["uri"]));
    let mut description = String::from(
        "Read a file of an Agent Skill by its skill:// URI. Start with a skill's SKILL.md, then read the files it points to. Use this when you cannot read MCP resources directly.",
    );
    let names: Vec<&str> = named.iter().map(|skill| skill.name()).collect();
    if !names.is_empty() {
        description.push_str(" Skills: ");
        description.push_str(&names.join(", "));
        description.push('.');
    }
    Tool::new(name.to_owned(), description, Arc::new(schema))
}

/// A read, answered as the fallback tool's result: text as text, bytes as
/// an embedded resource.
pub(super) fn tool_read(read: ReadResourceResult) -> CallToolResult {
    let content = read
        .contents
        .into_iter()
        .map(|contents| match contents {
            ResourceContents::TextResourceContents { text, .. } => ContentBlock::text(text),
            blob => ContentBlock::resource(blob),
        })
        .collect();
    CallToolResult::success(content)
}

/// A tool-level error the model can read and correct.
pub(super) fn tool_error(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

/// `-32602` for a URI that is not a `skill://` resource URI at all.
pub(super) fn malformed_uri(uri: &str, why: impl std::fmt::Display) -> ErrorData {
    ErrorData::invalid_params(
        format!("{uri} names no skill resource: {why}"),
        Some(json!({ "uri": uri })),
    )
}

/// `-32602` for a well-formed URI the caller can read nothing at.
pub(super) fn unknown_resource(uri: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("No skill resource is served at {uri}"),
        Some(json!({ "uri": uri })),
    )
}

/// `-32602` for a `skills/get` of a URI where the caller sees no skill.
pub(super) fn unknown_skill(uri: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("No skill is served at {uri}"),
        Some(json!({ "uri": uri })),
    )
}

/// `-32602` for a `prompts/get` of a name the caller owns no skill by.
pub(super) fn unknown_prompt(name: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("No skill prompt is served named {name}"),
        Some(json!({ "name": name })),
    )
}

/// `skill`'s prompt in `prompts/list`: its frontmatter name and
/// description, no arguments.
pub(super) fn prompt(skill: &Skill) -> Prompt {
    Prompt::new(skill.name(), Some(skill.description()), None)
}

/// Most files a prompt names one by one; past them it says how many more
/// there are and where to list them.
pub(super) const PROMPT_FILES: usize = 100;

/// `prompts/get` of `skill`: its `SKILL.md` text as it is, then, when it has
/// other files, where they are and how to read them (with the fallback tool
/// `tool`, when one is offered, or as resources).
pub(super) fn prompt_result(skill: &Skill, tool: Option<&str>) -> GetPromptResult {
    let skill_md = skill.skill_md();
    let text = skill_md.text().map_or_else(
        || String::from_utf8_lossy(skill_md.bytes()).into_owned(),
        str::to_owned,
    );
    let mut messages = vec![PromptMessage::new_text(Role::User, text)];
    let others: Vec<&SkillFile> = skill
        .files()
        .iter()
        .filter(|file| file.path() != crate::SKILL_MD)
        .collect();
    if !others.is_empty() {
        messages.push(PromptMessage::new_text(
            Role::User,
            files_text(skill, &others, tool),
        ));
    }
    GetPromptResult::new(messages).with_description(skill.description())
}

/// Where `skill`'s files other than `SKILL.md` are, for the model.
fn files_text(skill: &Skill, others: &[&SkillFile], tool: Option<&str>) -> String {
    use std::fmt::Write as _;
    let root = skill.root_uri();
    let count = others.len();
    let plural = if count == 1 { "file" } else { "files" };
    let mut text = format!(
        "The skill `{}` has {count} more {plural}, under {root}/ (paths in SKILL.md are relative to that folder). ",
        skill.name()
    );
    match tool {
        Some(tool) => {
            let _ = write!(
                text,
                "Read one when SKILL.md points to it: call the `{tool}` tool with its URI as `uri`, or read it as an MCP resource."
            );
        }
        None => text
            .push_str("Read one when SKILL.md points to it, as an MCP resource (resources/read)."),
    }
    text.push('\n');
    for file in others.iter().take(PROMPT_FILES) {
        let _ = write!(text, "\n- {} ({} bytes)", skill.file_uri(file), file.size());
    }
    if count > PROMPT_FILES {
        let _ = write!(
            text,
            "\n- and {} more: list them with resources/directory/read of {root}",
            count - PROMPT_FILES
        );
    }
    text
}

/// `-32602` for a directory read of something that is no directory the
/// caller can see.
pub(super) fn not_a_directory(uri: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("{uri} is not a directory resource"),
        Some(json!({ "uri": uri })),
    )
}

/// Standard base64 with padding, as MCP blobs carry bytes.
///
/// Every read of a binary file encodes it (nothing is cached by default), so
/// this is SIMD, written straight into a string of the exact size: no zeroed
/// buffer and no UTF-8 check afterwards. The `base64` crate's scalar engine
/// was a quarter of a read's instructions under callgrind.
pub(super) fn base64(bytes: &[u8]) -> String {
    base64_simd::STANDARD.encode_to_string(bytes)
}

#[cfg(test)]
mod tests {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;

    /// The SIMD encoder against the `base64` crate (which clients decode
    /// with) on every length around its vector widths and on a large buffer,
    /// so a wrong tail or lane shows up as a differing blob.
    #[test]
    fn blobs_are_the_base64_crates_encoding_at_every_length() {
        let bytes: Vec<u8> = (0..70_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for len in (0..=200).chain([1_023, 1_024, 1_025, 4_096, 65_537, bytes.len()]) {
            let slice = &bytes[..len];
            assert_eq!(super::base64(slice), STANDARD.encode(slice), "length {len}");
        }
    }
}
