//! The fallback tool: reads a skill file by URI, for hosts that can call
//! tools but cannot read resources (the pattern of Figma's `get_figma_skill`).

use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::{Caller, SkillsServer, wire};
use crate::Skill;

/// Reads the file the model asked for, from one view of the set. A bad URI
/// is a tool-level error the model can read and correct, not a protocol
/// error.
fn call(
    server: &SkillsServer,
    arguments: Option<&JsonObject>,
    context: &RequestContext<RoleServer>,
) -> CallToolResult {
    let Some(uri) = arguments
        .and_then(|arguments| arguments.get("uri"))
        .and_then(|uri| uri.as_str())
    else {
        return wire::tool_error(
            "Pass the skill file to read as `uri`, for example skill://<skill>/SKILL.md.".into(),
        );
    };
    let view = server.request_view(context);
    let uri = if server.handles(uri) {
        uri
    } else {
        // A bare skill name reads its SKILL.md.
        match view.skills().by_name(uri) {
            Some(skill) if view.owns(skill) => skill.uri(),
            _ => uri,
        }
    };
    match view.read(uri) {
        Ok(read) => wire::tool_read(read),
        Err(error) => wire::tool_error(format!(
            "{} Check the URI against the skills listed in this tool's description.",
            error.message
        )),
    }
}

impl SkillsServer {
    /// The fallback tool as a route for your own `#[tool_router]`, when you
    /// delegate to this server from your own handler rather than wrapping it
    /// in [`WithSkills`](crate::WithSkills) (which adds the tool itself):
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
            Box::pin(async move { Ok(call(&server, arguments.as_ref(), &request_context).into()) })
        }))
    }

    /// The fallback tool, for hosts that cannot read resources; empty when
    /// disabled. Its description names the skills every caller owns (all of
    /// them without a policy); `tools_for` names a
    /// caller's own.
    pub(crate) fn tools(&self) -> Vec<Tool> {
        self.tools_for(&Caller::anonymous())
    }

    /// The fallback tool as `caller` sees it: its description names the
    /// skills `caller` owns and no other. Built once per owned set.
    pub(crate) fn tools_for(&self, caller: &Caller<'_>) -> Vec<Tool> {
        let Some(name) = self.settings().tool.as_deref() else {
            return Vec::new();
        };
        let view = self.caller_view(*caller);
        let visible = view.visible();
        let tool = visible.tool.get_or_init(|| {
            let named: Vec<&Skill> = visible.skills(view.skills()).collect();
            wire::read_tool(name, &named)
        });
        vec![tool.clone()]
    }

    /// Runs the fallback tool; `None` when `request` calls another tool.
    pub(crate) fn call_tool(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Option<Result<CallToolResult, ErrorData>> {
        let name = self.settings().tool.as_deref()?;
        if request.name != name {
            return None;
        }
        Some(Ok(call(self, request.arguments.as_ref(), context)))
    }
}
