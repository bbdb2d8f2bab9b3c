//! What the server says about itself in `initialize` and `server/discover`:
//! capabilities, name and version, and the instructions naming the skills.

use rmcp::model::{Implementation, JsonObject, ServerCapabilities, ServerConfig};

use super::instructions::{self, Named};
use super::{Caller, SkillsServer};

impl SkillsServer {
    /// The capabilities this server needs: `resources` (with `listChanged`
    /// and `subscribe` when it notifies changes), the skills extension with
    /// `directoryRead`, `completions` for the FastMCP file templates, `tools`
    /// for the fallback tool, and `prompts` when it [serves
    /// prompts](crate::SkillsServerBuilder::prompts).
    pub(crate) fn capabilities(&self) -> ServerCapabilities {
        let mut capabilities = ServerCapabilities::default();
        self.add_capabilities(&mut capabilities);
        capabilities
    }

    /// Adds what this server needs to `capabilities`, keeping what is there.
    /// A server that notifies changes also advertises
    /// `resources.listChanged` and `resources.subscribe` (and
    /// `prompts.listChanged`, when it serves prompts).
    pub(crate) fn add_capabilities(&self, capabilities: &mut ServerCapabilities) {
        let resources = capabilities.resources.get_or_insert_with(Default::default);
        if self.notifies_changes() {
            resources.list_changed = Some(true);
            resources.subscribe = Some(true);
        }
        if self.serves_prompts() {
            let prompts = capabilities.prompts.get_or_insert_with(Default::default);
            if self.notifies_changes() {
                prompts.list_changed = Some(true);
            }
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
    /// embedded the skills, never the SDK's. Fixed when the server is built.
    pub(crate) fn server_info(&self) -> Implementation {
        self.shared.server_info.clone()
    }

    /// The instructions `caller` is given: your own (set with
    /// [`SkillsServerBuilder::instructions`](crate::SkillsServerBuilder::instructions)),
    /// then each skill `caller` owns and when to load it, within the
    /// configured budget; `None` when there is nothing to say (no
    /// instructions of yours, no skill this caller owns).
    ///
    /// Overflow rule: full descriptions if they fit; else every description
    /// shortened to an equal share (at least 40 characters); else URIs
    /// only, as many as fit, then a line saying how many more there are.
    /// Built once per owned set, not per caller, and kept until the set is
    /// replaced or [`refresh_views`](Self::refresh_views) is called.
    ///
    /// Without an access policy every caller gets the same; under one,
    /// [`Caller::anonymous`] gets what a caller nothing is known about owns
    /// (usually no skill), and an MCP request's caller is
    /// [`Caller::from_mcp`]`(&context)`:
    ///
    /// ```
    /// # use skills_runtime::server::Caller;
    /// # use skills_runtime::{Skills, SkillsServer};
    /// # static SKILLS: Skills = Skills::empty();
    /// let server = SkillsServer::builder(SKILLS.clone()).instructions("Ask before ordering.").build()?;
    /// let instructions = server.instructions(&Caller::anonymous());
    /// assert_eq!(instructions.as_deref(), Some("Ask before ordering."));
    /// # Ok::<(), skills_runtime::Report>(())
    /// ```
    pub fn instructions(&self, caller: &Caller<'_>) -> Option<String> {
        let instructions = self.instructions_after(self.settings().instructions.as_deref(), caller);
        (!instructions.is_empty()).then_some(instructions)
    }

    /// The instructions for `caller`, with `own` in front of the skills
    /// block (what [`WithSkills`](crate::WithSkills) merges into the inner
    /// handler's); empty when there is nothing to say.
    pub(crate) fn instructions_after(&self, own: Option<&str>, caller: &Caller<'_>) -> String {
        let view = self.caller_view(*caller);
        let visible = view.visible();
        let settings = self.settings();
        visible.instructions(own, || {
            let named: Vec<Named<'_>> = visible
                .skills(view.skills())
                .map(|skill| Named {
                    uri: skill.uri(),
                    description: settings.resource_description(skill),
                })
                .collect();
            instructions::build(
                own,
                &named,
                settings.tool.as_deref(),
                settings.instructions_budget,
            )
        })
    }

    /// The `initialize`/`server/discover` answer of this server for
    /// `caller`: the capabilities it needs (`resources`, the skills
    /// extension, `completions`, `tools` for the fallback tool, `prompts`
    /// when it [serves prompts](crate::SkillsServerBuilder::prompts), and
    /// `listChanged`/`subscribe` when it notifies changes), its name and
    /// version (as configured, else the crate that embedded the skills,
    /// never the SDK's; fixed when the server is built, so a
    /// [`replace`](Self::replace) keeps it), and the
    /// [`instructions`](Self::instructions) of `caller`.
    ///
    /// A handler that delegates to a `SkillsServer`
    /// ([`delegate_skills!`](crate::delegate_skills)) starts its `get_info`
    /// from it and adds its own capabilities:
    ///
    /// ```
    /// # use skills_runtime::server::Caller;
    /// # use skills_runtime::{Skills, SkillsServer};
    /// # static SKILLS: Skills = Skills::empty();
    /// let server = SkillsServer::new(SKILLS.clone());
    /// let mut config = server.config(&Caller::anonymous());
    /// config.capabilities.tools.get_or_insert_with(Default::default); // your own tools
    /// assert!(config.capabilities.resources.is_some());
    /// ```
    pub fn config(&self, caller: &Caller<'_>) -> ServerConfig {
        let config = ServerConfig::new(self.capabilities()).with_server_info(self.server_info());
        match self.instructions(caller) {
            Some(instructions) => config.with_instructions(instructions),
            None => config,
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
