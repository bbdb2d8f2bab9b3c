//! What the server says about itself in `initialize` and `server/discover`:
//! capabilities, name and version, and the instructions naming the skills.

use rmcp::RoleServer;
use rmcp::model::{Implementation, JsonObject, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;

use super::instructions::{self, Named};
use super::{Caller, SkillsServer};

impl SkillsServer {
    /// The capabilities this server needs: `resources` (with `listChanged`
    /// and `subscribe` when it [notifies changes](Self::notifies_changes)),
    /// the skills extension with `directoryRead`, `completions` for the
    /// FastMCP file templates, `tools` for the fallback tool, and `prompts`
    /// when it [serves prompts](super::SkillsServerBuilder::prompts).
    pub fn capabilities(&self) -> ServerCapabilities {
        let mut capabilities = ServerCapabilities::default();
        self.add_capabilities(&mut capabilities);
        capabilities
    }

    /// Adds what this server needs to `capabilities`, keeping what is there.
    /// A server that [notifies changes](Self::notifies_changes) also
    /// advertises `resources.listChanged` and `resources.subscribe` (and
    /// `prompts.listChanged`, when it serves prompts).
    pub fn add_capabilities(&self, capabilities: &mut ServerCapabilities) {
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
    /// line saying how many more there are. Under an access policy these are
    /// the instructions of a caller nothing is known about
    /// ([`Caller::anonymous`]): usually no skill is named. Sessions get their
    /// own, [`instructions_for`](Self::instructions_for) their caller. The
    /// policy's answers for that caller are kept until the set is replaced or
    /// [`refresh_views`](Self::refresh_views) is called, since rmcp asks for
    /// the server's info on every `skills/*` request.
    pub fn instructions(&self) -> String {
        self.instructions_for(&Caller::anonymous())
    }

    /// The instructions for `caller`: the author's own, then the skills
    /// `caller` owns and no other. Built once per owned set, not per caller.
    pub fn instructions_for(&self, caller: &Caller<'_>) -> String {
        self.instructions_after_for(self.settings().instructions.as_deref(), caller)
    }

    /// The instructions with `own` in front of the skills block.
    pub fn instructions_after(&self, own: Option<&str>) -> String {
        self.instructions_after_for(own, &Caller::anonymous())
    }

    /// The instructions for `caller`, with `own` in front of the skills block.
    pub fn instructions_after_for(&self, own: Option<&str>, caller: &Caller<'_>) -> String {
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

    /// The complete `initialize`/`server/discover` answer of a server that
    /// serves only skills, for a caller nothing is known about.
    pub fn server_config(&self) -> ServerConfig {
        self.server_config_for(&Caller::anonymous())
    }

    /// The complete `initialize`/`server/discover` answer for `caller`,
    /// whose instructions name the skills it owns.
    pub fn server_config_for(&self, caller: &Caller<'_>) -> ServerConfig {
        let instructions = self.instructions_for(caller);
        let config = ServerConfig::new(self.capabilities()).with_server_info(self.server_info());
        if instructions.is_empty() {
            config
        } else {
            config.with_instructions(instructions)
        }
    }

    /// `config` (a handler's `get_info` answer, or its `initialize` result)
    /// with the instructions of the caller of `context`: the author's own
    /// (set with [`SkillsServerBuilder::instructions`]), then the skills that
    /// caller owns. What a handler written with
    /// [`delegate_skills!`](crate::delegate_skills) answers `initialize` and
    /// `server/discover` with, so that each session is told its own skills.
    ///
    /// [`SkillsServerBuilder::instructions`]: super::SkillsServerBuilder::instructions
    pub fn config_for(
        &self,
        mut config: ServerConfig,
        context: &RequestContext<RoleServer>,
    ) -> ServerConfig {
        let instructions = self.instructions_for(&Caller::from_mcp(context));
        config.instructions = (!instructions.is_empty()).then_some(instructions);
        config
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
