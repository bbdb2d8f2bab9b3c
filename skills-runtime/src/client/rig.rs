//! A [`HostCatalog`] for rig agents (feature `rig`): the context blocks as
//! preamble, `load_skill` and `unload_skill` as rig tools on a shared
//! [`ToolServerHandle`], kept in step with the catalog — `unload_skill`
//! is registered while a skill is loaded and removed after the last unload,
//! and `load_skill`'s enum of names follows the servers' listings and the
//! host's approvals (a skill the host declines leaves it after the refused
//! call).
//!
//! The catalog's approval callback and context budget apply as they are:
//! the preamble is the budgeted text, and a `load_skill` of a skill whose
//! file set the host has not approved fails as a rig tool error, with
//! nothing read.
//!
//! ```no_run
//! use rig_agent::AgentBuilder;
//! use skills_runtime::client::{ContextBudget, HostCatalog, rig::RigSkills};
//!
//! # async fn run(model: rig_core::DynModel<rig_core::operation::Completion>, catalog: HostCatalog) -> Result<(), Box<dyn std::error::Error>> {
//! let catalog = catalog
//!     .on_approval(|request| async move {
//!         // Show request.files (sizes, digests) and request.previous to the user.
//!         request.server == "larder"
//!     })
//!     .context_budget(ContextBudget::tokens(500));
//! let skills = RigSkills::new(catalog);
//! let agent = AgentBuilder::new(model)
//!     .preamble(format!("You run a kitchen.\n\n{}", skills.preamble()))
//!     .tool_server_handle(skills.tool_server_handle())
//!     .build();
//! let answer = agent.prompt("Audit the dry store.").max_turns(5).run().await?;
//! # let _ = answer; Ok(()) }
//! ```

use std::fmt;

use rig_agent::tool::server::{ToolServer, ToolServerHandle};
use rig_core::tool::{Tool, ToolContext};
use serde::Deserialize;
use serde_json::{Value, json};

use super::catalog::{HostCatalog, LOAD_SKILL, ToolCall, UNLOAD_SKILL};

/// A catalog's tools and preamble for rig agents. Cloning shares both.
#[derive(Clone)]
pub struct RigSkills {
    catalog: HostCatalog,
    tools: ToolServerHandle,
}

impl fmt::Debug for RigSkills {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RigSkills")
            .field("catalog", &self.catalog)
            .finish()
    }
}

impl RigSkills {
    /// Tools for `catalog` on a fresh rig tool server.
    pub fn new(catalog: HostCatalog) -> Self {
        Self::with_tool_server(catalog, ToolServer::new().run())
    }

    /// Tools for `catalog` on a tool server the agent already uses (its own
    /// tools stay).
    pub fn with_tool_server(catalog: HostCatalog, tools: ToolServerHandle) -> Self {
        let skills = Self { catalog, tools };
        skills.sync_tools();
        skills
    }

    /// The catalog.
    pub fn catalog(&self) -> &HostCatalog {
        &self.catalog
    }

    /// The catalog's context blocks as a preamble section, within the
    /// catalog's [`context_budget`](HostCatalog::context_budget) if it has one.
    pub fn preamble(&self) -> String {
        self.catalog.preamble()
    }

    /// The tool server to give the agent (`AgentBuilder::tool_server_handle`).
    pub fn tool_server_handle(&self) -> ToolServerHandle {
        self.tools.clone()
    }

    /// Registers the tools the catalog offers now and removes the others.
    /// Called after every load and unload; call it after adding or removing
    /// a server so `load_skill`'s names follow.
    pub fn sync_tools(&self) {
        let offered = self.catalog.tools();
        for name in [LOAD_SKILL, UNLOAD_SKILL] {
            match offered.iter().find(|tool| tool.name == name) {
                Some(definition) => {
                    let tool = SkillTool {
                        skills: self.clone(),
                        description: definition.description.clone(),
                        parameters: definition.parameters.clone(),
                    };
                    if name == LOAD_SKILL {
                        self.tools.add_tool(LoadSkill(tool));
                    } else {
                        self.tools.add_tool(UnloadSkill(tool));
                    }
                }
                None => self.tools.remove_tool(name),
            }
        }
    }

    async fn call(&self, name: &str, args: SkillArgs) -> Result<String, SkillToolError> {
        let outcome = self
            .catalog
            .call(&ToolCall::new(name, json!({"skillName": args.skill_name})))
            .await;
        self.sync_tools();
        if outcome.is_error {
            Err(SkillToolError(outcome.text))
        } else {
            Ok(outcome.text)
        }
    }
}

/// The arguments of both tools.
#[derive(Debug, Deserialize)]
pub struct SkillArgs {
    /// The skill's name, as the catalog lists it.
    #[serde(rename = "skillName")]
    pub skill_name: String,
}

/// What the model is told when a call fails (an unknown skill, a skill the
/// host has not approved, a refused dependency, a file that did not verify).
#[derive(Debug)]
pub struct SkillToolError(String);

impl fmt::Display for SkillToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SkillToolError {}

/// What both tools share: the catalog and the definition it offers now.
#[derive(Clone)]
struct SkillTool {
    skills: RigSkills,
    description: String,
    parameters: Value,
}

/// A rig tool answered by the catalog's tool of the same name: rig wants the
/// name as a constant, so each of the two is its own type.
macro_rules! skill_tool {
    ($(#[$doc:meta])* $tool:ident, $name:expr) => {
        $(#[$doc])*
        #[derive(Clone)]
        struct $tool(SkillTool);

        impl Tool for $tool {
            const NAME: &'static str = $name;
            type Args = SkillArgs;
            type Output = String;
            type Error = SkillToolError;

            fn description(&self) -> String {
                self.0.description.clone()
            }

            fn parameters(&self) -> Value {
                self.0.parameters.clone()
            }

            async fn call(
                &self,
                _context: &mut ToolContext,
                args: SkillArgs,
            ) -> Result<String, SkillToolError> {
                self.0.skills.call($name, args).await
            }
        }
    };
}

skill_tool!(
    /// The `load_skill` rig tool.
    LoadSkill,
    LOAD_SKILL
);
skill_tool!(
    /// The `unload_skill` rig tool.
    UnloadSkill,
    UNLOAD_SKILL
);
