//! What the server says about itself in `initialize` and `server/discover`:
//! capabilities, name and version, and the instructions naming the skills.

use std::sync::PoisonError;

use rmcp::model::{Implementation, JsonObject, ServerCapabilities, ServerConfig};

use super::{SkillsServer, instructions};
use crate::Skill;

impl SkillsServer {
    /// The capabilities this server needs: `resources` (with `listChanged`
    /// and `subscribe` when it [notifies changes](Self::notifies_changes)),
    /// the skills extension with `directoryRead`, `completions` for the
    /// FastMCP file templates, and `tools` for the fallback tool.
    pub fn capabilities(&self) -> ServerCapabilities {
        let mut capabilities = ServerCapabilities::default();
        self.add_capabilities(&mut capabilities);
        capabilities
    }

    /// Adds what this server needs to `capabilities`, keeping what is there.
    /// A server that [notifies changes](Self::notifies_changes) also
    /// advertises `resources.listChanged` and `resources.subscribe`.
    pub fn add_capabilities(&self, capabilities: &mut ServerCapabilities) {
        let resources = capabilities.resources.get_or_insert_with(Default::default);
        if self.notifies_changes() {
            resources.list_changed = Some(true);
            resources.subscribe = Some(true);
        }
        let skills = ServerCapabilities::builder()
            .enable_skills_with_directory_read()
            .build();
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .extend(skills.extensions.into_iter().flatten());
        if self.settings().fastmcp {
            capabilities.completions.get_or_insert_with(JsonObject::new);
        }
        if self.settings().tool.is_some() {
            capabilities.tools.get_or_insert_with(Default::default);
        }
    }

    /// The server's name and version: as configured, else the crate that
    /// embedded the skills (`CARGO_PKG_NAME`/`CARGO_PKG_VERSION`), never the
    /// SDK's. Fixed when the server is built, so [`replace`](Self::replace)
    /// with a set loaded at run time keeps it.
    pub fn server_info(&self) -> Implementation {
        self.shared.server_info.clone()
    }

    /// Instructions naming each skill and when to load it, after the
    /// author's own, within the configured budget. Overflow rule: full
    /// descriptions if they fit; else every description shortened to an equal
    /// share (at least 40 characters); else URIs only, as many as fit, then a
    /// line saying how many more there are. When a visibility rule is set, no
    /// skill is named: instructions go to every caller alike.
    pub fn instructions(&self) -> String {
        self.instructions_after(self.settings().instructions.as_deref())
    }

    /// The instructions with `own` in front of the skills block.
    pub fn instructions_after(&self, own: Option<&str>) -> String {
        let snapshot = self.snapshot();
        let mut cached = snapshot
            .instructions
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some((cached_own, text)) = cached.as_ref()
            && cached_own.as_deref() == own
        {
            return text.clone();
        }
        let skills: Vec<&Skill> = if self.settings().visibility.is_some() {
            Vec::new()
        } else {
            snapshot.skills.skills().iter().collect()
        };
        let text = instructions::build(
            own,
            &skills,
            self.settings().tool.as_deref(),
            self.settings().instructions_budget,
        );
        *cached = Some((own.map(str::to_owned), text.clone()));
        text
    }

    /// The complete `initialize`/`server/discover` answer of a server that
    /// serves only skills.
    pub fn server_config(&self) -> ServerConfig {
        let instructions = self.instructions();
        let config = ServerConfig::new(self.capabilities()).with_server_info(self.server_info());
        if instructions.is_empty() {
            config
        } else {
            config.with_instructions(instructions)
        }
    }

    /// The sentence to put in the description of one of your tools that
    /// needs the skill `name` loaded first; `None` if no such skill is served.
    pub fn tool_hint(&self, name: &str) -> Option<String> {
        let snapshot = self.snapshot();
        let skill = snapshot.skills.by_name(name)?;
        Some(instructions::tool_hint(
            skill,
            self.settings().tool.as_deref(),
        ))
    }
}
