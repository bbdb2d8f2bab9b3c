//! Code mode: two tools, `search` (find a route of the Academy's API) and
//! `execute` (call it as the signed-in learner), instead of one tool per
//! route. Both descriptions end with the skills server's `tool_hint`, the
//! sentence that sends an agent to `skill://academy/SKILL.md` first: hosts
//! read tool descriptions even when they ignore server instructions.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, Request, header};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, schemars, tool, tool_handler, tool_router};
use serde_json::{Value, json};
use skills_runtime::SkillsServer;
use tower::ServiceExt as _;

use crate::db::Entitlements;

/// The skill both tools need loaded first.
pub const PLATFORM_SKILL: &str = "academy";

/// What `initialize` says before the skills block (which names the skills
/// the learner may load).
pub const INSTRUCTIONS: &str = "Kestrel Academy: courses for working programmers, each served as a skill, and the Academy's API through the `search` and `execute` tools. Load skill://academy/SKILL.md before calling search or execute.";

const SEARCH: &str = "Find routes of the Kestrel Academy API by words (`orders`, `price`, `my courses`); an empty query lists them all, in the order a conversation needs them. Returns each route's method, path, what it is for and when to call it. Call the route with `execute`.";

const EXECUTE: &str = "Call one route of the Kestrel Academy API as the signed-in learner: `method` and `path` as `search` or the academy skill's references/api.md give them (`GET /courses`, `POST /orders`), and a JSON `body` for POST routes. Returns the HTTP status and the JSON answer.";

/// The code-mode tools.
#[derive(Clone)]
pub struct Tools {
    tool_router: ToolRouter<Self>,
    api: axum::Router,
    routes: Arc<Vec<Value>>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Search {
    /// Words to look for in the routes' paths and descriptions; empty for all routes.
    #[serde(default)]
    query: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Execute {
    /// The HTTP method: GET or POST.
    method: String,
    /// The route's path with its parameters filled in, e.g. /courses/sql-joins.
    path: String,
    /// The JSON body, for POST routes.
    #[serde(default)]
    body: Option<Value>,
}

#[tool_router]
impl Tools {
    /// The tools over `api`, searching the routes of `document` (the API's
    /// OpenAPI document), with descriptions that send the agent to the
    /// platform skill first.
    pub fn new(api: axum::Router, document: &Value, skills: &SkillsServer) -> Self {
        let hint = skills
            .tool_hint(PLATFORM_SKILL)
            .expect("the platform skill is embedded");
        let mut tool_router = Self::tool_router();
        for (name, description) in [("search", SEARCH), ("execute", EXECUTE)] {
            if let Some(route) = tool_router.map.get_mut(name) {
                route.attr.description = Some(format!("{description} {hint}").into());
            }
        }
        Self {
            tool_router,
            api,
            routes: Arc::new(routes(document)),
        }
    }

    #[tool(description = "Find routes of the Kestrel Academy API.")]
    async fn search(&self, Parameters(search): Parameters<Search>) -> String {
        let words: Vec<String> = search
            .query
            .split_whitespace()
            .map(str::to_lowercase)
            .collect();
        let mut found: Vec<(usize, &Value)> = self
            .routes
            .iter()
            .filter_map(|route| {
                let text = route["text"].as_str().unwrap_or_default();
                let score = words
                    .iter()
                    .filter(|word| text.contains(word.as_str()))
                    .count();
                (words.is_empty() || score > 0).then_some((score, route))
            })
            .collect();
        // Best matches first; conversation order among equals (the list is in it).
        found.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
        let routes: Vec<&Value> = found.iter().map(|(_, route)| &route["route"]).collect();
        json!({"routes": routes}).to_string()
    }

    #[tool(description = "Call one route of the Kestrel Academy API.")]
    async fn execute(
        &self,
        Parameters(call): Parameters<Execute>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        // The learner the auth layer resolved for this very request.
        let entitlements = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Entitlements>())
            .cloned()
            .ok_or_else(|| {
                ErrorData::invalid_request(
                    "execute needs a signed-in learner (over HTTP, with a bearer token)",
                    None,
                )
            })?;
        let method = Method::from_bytes(call.method.trim().to_ascii_uppercase().as_bytes())
            .map_err(|_| {
                ErrorData::invalid_params(format!("`{}` is not an HTTP method", call.method), None)
            })?;
        // Paths as references/api.md writes them; a copied `/api` prefix is fine too.
        let path = call.path.trim();
        let path = path
            .strip_prefix("/api/")
            .map(|rest| format!("/{rest}"))
            .unwrap_or_else(|| path.to_owned());
        if !path.starts_with('/') {
            return Err(ErrorData::invalid_params(
                format!("`{path}` is not a path: it starts with /, e.g. /courses"),
                None,
            ));
        }
        let body = match &call.body {
            Some(body) => Body::from(body.to_string()),
            None => Body::empty(),
        };
        let mut request = Request::builder()
            .method(method)
            .uri(&path)
            .header(header::CONTENT_TYPE, "application/json")
            .body(body)
            .map_err(|_| {
                ErrorData::invalid_params(format!("`{path}` is not a valid path"), None)
            })?;
        request.extensions_mut().insert(entitlements);
        let response = match self.api.clone().oneshot(request).await {
            Ok(response) => response,
            Err(never) => match never {},
        };
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .map_err(|error| {
                ErrorData::internal_error(
                    format!("the API's answer could not be read: {error}"),
                    None,
                )
            })?;
        let body = serde_json::from_slice::<Value>(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
        let answer = json!({"status": status.as_u16(), "body": body}).to_string();
        let content = vec![ContentBlock::text(answer)];
        Ok(if status.is_client_error() || status.is_server_error() {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Tools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "kestrel-academy",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(INSTRUCTIONS)
    }
}

/// The routes of an OpenAPI document in conversation order (`x-skill`),
/// each with the text `search` matches.
fn routes(document: &Value) -> Vec<Value> {
    let mut routes = Vec::new();
    for (path, item) in document["paths"].as_object().into_iter().flatten() {
        for (method, operation) in item.as_object().into_iter().flatten() {
            let Some(skill) = operation.get("x-skill").filter(|skill| skill.is_object()) else {
                continue;
            };
            let method = method.to_ascii_uppercase();
            let summary = operation["summary"].as_str().unwrap_or_default();
            let description = operation["description"].as_str().unwrap_or_default();
            let when = skill["when"].as_str().unwrap_or_default();
            routes.push(json!({
                "order": skill["order"].as_i64().unwrap_or(i64::MAX),
                "text": format!("{method} {path} {summary} {description} {when}").to_lowercase(),
                "route": {
                    "method": method,
                    "path": path,
                    "summary": summary,
                    "what": description,
                    "when": when,
                },
            }));
        }
    }
    routes.sort_by_key(|route| route["order"].as_i64());
    routes
}
