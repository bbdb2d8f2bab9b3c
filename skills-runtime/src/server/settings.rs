//! What a server was configured with: a leaf every part of the server
//! reads, filled in by the builder.

use std::borrow::Cow;
use std::collections::HashMap;

use rmcp::model::Implementation;

use super::access::Rule;
use super::instructions;

/// The fallback tool's default name.
pub(super) const DEFAULT_TOOL_NAME: &str = "read_skill";
use crate::Skill;

/// What a server was configured with; fixed once built.
pub(super) struct Settings {
    pub(super) server_info: Option<Implementation>,
    pub(super) instructions: Option<String>,
    pub(super) instructions_budget: usize,
    pub(super) list_supporting_files: bool,
    pub(super) fastmcp: bool,
    pub(super) legacy_index: bool,
    pub(super) tool: Option<Cow<'static, str>>,
    pub(super) skills_page_size: usize,
    pub(super) resources_page_size: usize,
    pub(super) ttl_ms: u64,
    pub(super) blob_cache_bytes: usize,
    pub(super) rule: Rule,
    /// Per skill name, what its `SKILL.md` resource says about when to load it.
    pub(super) load_hints: HashMap<String, String>,
    pub(super) notify_changes: bool,
    pub(super) prompts: bool,
}

impl Settings {
    /// What `skill`'s `SKILL.md` resource and its instructions line say:
    /// the author's hint for it, else its frontmatter description.
    pub(super) fn resource_description<'s>(&'s self, skill: &'s Skill) -> &'s str {
        self.load_hints
            .get(skill.name())
            .map_or(skill.description(), String::as_str)
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            server_info: None,
            instructions: None,
            instructions_budget: instructions::DEFAULT_BUDGET,
            list_supporting_files: false,
            fastmcp: true,
            legacy_index: false,
            tool: Some(Cow::Borrowed(DEFAULT_TOOL_NAME)),
            skills_page_size: 100,
            resources_page_size: 1000,
            ttl_ms: 300_000,
            blob_cache_bytes: 0,
            rule: Rule::Everyone,
            load_hints: HashMap::new(),
            notify_changes: false,
            prompts: false,
        }
    }
}
