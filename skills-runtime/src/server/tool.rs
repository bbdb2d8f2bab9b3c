//! The fallback tool: reads a skill file by URI, for hosts that can call
//! tools but cannot read resources (the pattern of Figma's `get_figma_skill`).

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::json;

use super::SkillsServer;
use crate::Skill;

/// The tool's default name.
pub const DEFAULT_NAME: &str = "read_skill";

/// The tool, describing how to use it and, when every caller may see every
/// skill (`named` is empty otherwise), which skills there are.
pub(super) fn definition(name: &str, named: &[&Skill]) -> Tool {
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

/// Reads the file the model asked for. A bad URI is a tool-level error the
/// model can read and correct, not a protocol error.
pub(super) fn call(
    server: &SkillsServer,
    arguments: Option<&JsonObject>,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResult, ErrorData> {
    let Some(uri) = arguments
        .and_then(|arguments| arguments.get("uri"))
        .and_then(|uri| uri.as_str())
    else {
        return Ok(CallToolResult::error(vec![ContentBlock::text(
            "Pass the skill file to read as `uri`, for example skill://<skill>/SKILL.md.",
        )]));
    };
    let uri = if server.handles(uri) {
        uri.to_owned()
    } else {
        // A bare skill name reads its SKILL.md.
        match server.snapshot().skills.by_name(uri) {
            Some(skill) if server.visible(skill, context) => skill.uri().to_owned(),
            _ => uri.to_owned(),
        }
    };
    let read = rmcp::model::ReadResourceRequestParams::new(uri.clone());
    match server.read_resource(&read, context) {
        Ok(result) => {
            let content = result
                .contents
                .into_iter()
                .map(|contents| match contents {
                    rmcp::model::ResourceContents::TextResourceContents { text, .. } => {
                        ContentBlock::text(text)
                    }
                    blob => ContentBlock::resource(blob),
                })
                .collect();
            Ok(CallToolResult::success(content))
        }
        Err(error) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
            "{} Check the URI against the skills listed in this tool's description.",
            error.message
        ))])),
    }
}

impl SkillsServer {
    /// The fallback tool as a route for your own `#[tool_router]`, when you
    /// delegate to this server from your own handler rather than wrapping it
    /// in [`WithSkills`](super::WithSkills) (which adds the tool itself):
    ///
    /// ```
    /// # use rmcp::handler::server::router::tool::ToolRouter;
    /// # use skills_runtime::{Skills, SkillsServer};
    /// # static SKILLS: Skills = Skills::empty();
    /// # struct MyServer { skills: SkillsServer }
    /// # let skills = SkillsServer::new(SKILLS.clone());
    /// # let mut tool_router = ToolRouter::<MyServer>::new();
    /// if let Some(route) = skills.tool_route(|server: &MyServer| &server.skills) {
    ///     tool_router.add_route(route);
    /// }
    /// # assert!(tool_router.has_route("read_skill"));
    /// ```
    ///
    /// (`examples/with_tools.rs` shows it inside a `#[tool_router]` impl.)
    ///
    /// The route's description names the skills served when it is built;
    /// after [`replace`](SkillsServer::replace) it still reads from the new set.
    ///
    /// `None` when the tool is turned off.
    pub fn tool_route<S: Send + Sync + 'static>(
        &self,
        skills_of: fn(&S) -> &SkillsServer,
    ) -> Option<ToolRoute<S>> {
        let tool = self.tools().into_iter().next()?;
        Some(ToolRoute::new_dyn(tool, move |context| {
            let server = skills_of(context.service).clone();
            let arguments = context.arguments.clone();
            let request_context = context.request_context.clone();
            Box::pin(
                async move { call(&server, arguments.as_ref(), &request_context).map(Into::into) },
            )
        }))
    }
}
