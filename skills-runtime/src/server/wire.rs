//! Conversion to rmcp's model types, at the wire boundary and nowhere else.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rmcp::model::{
    JsonObject, MetaObject, Resource, SkillFrontmatter, SkillResource, SkillResources,
};
use serde_json::json;

use crate::{Skill, SkillFile};

/// `_meta` key (on a skill entry) listing the files that were executable on
/// disk, relative to the skill folder. Our own key: SEP-2640 has none.
pub const EXECUTABLE_META_KEY: &str = "skills-runtime/executable";

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
    let executable: Vec<&str> = skill
        .files()
        .iter()
        .filter(|file| file.is_executable())
        .map(SkillFile::path)
        .collect();
    if executable.is_empty() {
        entry
    } else {
        let mut meta = MetaObject::new();
        meta.insert(EXECUTABLE_META_KEY.to_owned(), json!(executable));
        entry.with_meta(meta)
    }
}

/// Every frontmatter field of `skill`, as the author wrote it.
pub fn frontmatter(skill: &Skill) -> SkillFrontmatter {
    let mut frontmatter = SkillFrontmatter::new(skill.name(), skill.description());
    if let Ok(extra) = serde_json::from_str::<JsonObject>(skill.extra_fields_json()) {
        frontmatter.extra = extra;
    }
    frontmatter
}

/// How a skill's `SKILL.md` appears in `resources/list`: named by its
/// frontmatter name, described by its description (SEP-2640 §Resource Mapping).
pub fn skill_md_resource(skill: &Skill) -> Resource {
    let file = skill.skill_md();
    Resource::new(skill.uri(), skill.name())
        .with_description(skill.description())
        .with_mime_type(file.mime_type())
        .with_size(file.size())
}

/// How a supporting file appears in `resources/list`: `<skill name>/<path>`.
pub fn file_resource(skill: &Skill, file: &SkillFile) -> Resource {
    Resource::new(
        skill.file_uri(file),
        format!("{}/{}", skill.name(), file.path()),
    )
    .with_mime_type(file.mime_type())
    .with_size(file.size())
}

/// Standard base64 with padding, as MCP blobs carry bytes.
pub(crate) fn base64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}
