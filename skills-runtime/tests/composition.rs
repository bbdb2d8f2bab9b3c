//! Skills next to an author's own tools and resources, in the two documented
//! shapes: the one-line `WithSkills` wrapper, and delegation from the
//! author's own `impl ServerHandler`.

use skills_test_support as support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, DiscoverResult, Implementation, InitializeRequestParams,
    InitializeResult, ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, schemars, tool, tool_handler, tool_router};
use serde_json::json;
use skills_runtime::server::{Access, Caller};
use skills_runtime::{Skills, SkillsServer, WithSkills};
use support::{ERAS, connect};

use support::trees::EXAMPLES as SKILLS;

/// An author's server: one tool, one resource of its own, its own name and instructions.
#[derive(Clone)]
struct Kitchen {
    tool_router: ToolRouter<Self>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Order {
    /// What to order.
    item: String,
}

#[tool_router]
impl Kitchen {
    fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Order an item.")]
    async fn order(&self, Parameters(order): Parameters<Order>) -> String {
        format!("ordered {}", order.item)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Kitchen {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("kitchen", "9.9.9"))
        .with_instructions("Kitchen tools for restaurants.")
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![Resource::new(
            "memo://today",
            "today",
        )]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri == "memo://today" {
            Ok(ReadResourceResult::new(vec![ResourceContents::text(
                "Fish delivery at 9.",
                request.uri,
            )])
            .into())
        } else {
            Err(ErrorData::resource_not_found(
                "no such memo",
                Some(json!({"uri": request.uri})),
            ))
        }
    }
}

fn wrapped() -> WithSkills<Kitchen> {
    SkillsServer::new(SKILLS.clone()).wrap(Kitchen::new())
}

#[tokio::test]
async fn the_wrapper_merges_capabilities_instructions_and_keeps_the_authors_name() {
    for era in ERAS {
        let client = connect(wrapped(), era).await;
        let info = client.peer_info().unwrap();
        assert!(info.capabilities.supports_skills(), "{era:?}");
        assert!(info.capabilities.tools.is_some());
        let server_info = info.server_info.clone().unwrap();
        assert_eq!(
            (server_info.name.as_str(), server_info.version.as_str()),
            ("kitchen", "9.9.9")
        );
        let instructions = info.instructions.clone().unwrap();
        assert!(
            instructions.starts_with("Kitchen tools for restaurants."),
            "{instructions}"
        );
        assert!(
            instructions.contains("skill://stock-audit/SKILL.md"),
            "{instructions}"
        );
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn the_wrapper_serves_both_tool_sets_and_both_resource_sets() {
    for era in ERAS {
        let client = connect(wrapped(), era).await;
        let names = support::tool_names(&client).await;
        assert_eq!(names, ["order", "read_skill"]);
        let ordered = client
            .call_tool(
                CallToolRequestParams::new("order")
                    .with_arguments(json!({"item": "butter"}).as_object().unwrap().clone()),
            )
            .await
            .unwrap();
        assert_eq!(
            serde_json::to_value(&ordered.content[0]).unwrap()["text"],
            "ordered butter"
        );
        let read = client
            .call_tool(
                CallToolRequestParams::new("read_skill")
                    .with_arguments(json!({"uri": "stock-audit"}).as_object().unwrap().clone()),
            )
            .await
            .unwrap();
        assert_eq!(read.is_error, Some(false));

        // Our resources first, then the author's, across a cursor we issue.
        let resources = client.list_all_resources().await.unwrap();
        let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
        assert!(uris.contains(&"skill://stock-audit/SKILL.md"), "{uris:?}");
        assert_eq!(uris.last(), Some(&"memo://today"), "{uris:?}");
        let memo = client
            .read_resource(ReadResourceRequestParams::new("memo://today"))
            .await
            .unwrap();
        assert_eq!(support::bytes_of(&memo.contents[0]), b"Fish delivery at 9.");
        let skill = client
            .read_resource(ReadResourceRequestParams::new(
                "skill://stock-audit/SKILL.md",
            ))
            .await
            .unwrap();
        assert_eq!(
            support::bytes_of(&skill.contents[0]),
            SKILLS.get("stock-audit").unwrap().skill_md().bytes()
        );
        assert_eq!(client.list_all_skills().await.unwrap().len(), 3);
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn an_inner_handler_without_resources_is_not_asked_for_them() {
    /// Declares tools only, and records whether it was asked for resources.
    #[derive(Clone, Default)]
    struct ToolsOnly {
        asked_for_resources: Arc<AtomicBool>,
    }
    impl ServerHandler for ToolsOnly {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }
        async fn list_resources(
            &self,
            _request: Option<PaginatedRequestParams>,
            _context: RequestContext<RoleServer>,
        ) -> Result<ListResourcesResult, ErrorData> {
            self.asked_for_resources.store(true, Ordering::SeqCst);
            Ok(Default::default())
        }
    }
    let inner = ToolsOnly::default();
    let asked = inner.asked_for_resources.clone();
    let client = connect(
        SkillsServer::new(SKILLS.clone()).wrap(inner),
        support::Era::Handshake,
    )
    .await;
    let info = client.peer_info().unwrap();
    // rmcp's default name is replaced by the crate that embedded the skills
    // (skills-test-support's `trees`).
    assert_eq!(
        info.server_info.clone().unwrap().name,
        "skills-test-support"
    );
    let resources = client.list_all_resources().await.unwrap();
    // Each SKILL.md and its FastMCP `_manifest`, and nothing after them.
    assert_eq!(resources.len(), 2 * SKILLS.len(), "{resources:?}");
    assert!(!asked.load(Ordering::SeqCst), "the inner handler was asked");
    // A URI outside skill:// still goes to the inner handler, whose default refuses it.
    let error = client
        .read_resource(ReadResourceRequestParams::new("memo://today"))
        .await
        .unwrap_err();
    let rmcp::service::ServiceError::McpError(error) = error else {
        panic!("{error:?}");
    };
    assert_eq!(
        error.code,
        rmcp::model::ErrorCode::METHOD_NOT_FOUND,
        "{error:?}"
    );
    client.cancel().await.unwrap();
}

/// The delegation shape: the author's own `#[tool_handler]` impl, with the
/// skills methods written by `delegate_skills!` and the fallback tool added
/// to the author's router.
#[derive(Clone)]
struct Delegating {
    tool_router: ToolRouter<Self>,
    skills: SkillsServer,
}

#[tool_router]
impl Delegating {
    fn new() -> Self {
        let skills = SkillsServer::new(SKILLS.clone());
        let mut tool_router = Self::tool_router();
        tool_router.add_route(skills.tool_route(|server: &Self| &server.skills).unwrap());
        Self {
            tool_router,
            skills,
        }
    }

    #[tool(description = "Count the pans.")]
    async fn count_pans(&self) -> String {
        "12 pans".to_owned()
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Delegating {
    fn get_info(&self) -> ServerConfig {
        let mut config = self.skills.config(&Caller::anonymous());
        config
            .capabilities
            .tools
            .get_or_insert_with(Default::default);
        config
    }

    skills_runtime::delegate_skills!(skills);
}

#[tokio::test]
async fn delegation_from_the_authors_handler_serves_sep_2640() {
    for era in ERAS {
        let client = connect(Delegating::new(), era).await;
        let entries = client.list_all_skills().await.unwrap();
        assert_eq!(entries.len(), SKILLS.len());
        support::verify_every_file(&client, &entries).await;
        let names = support::tool_names(&client).await;
        assert_eq!(names, ["count_pans", "read_skill"]);
        let completion = client
            .complete_resource_argument("skill://stock-audit/{path*}", "path", "scripts/", None)
            .await
            .unwrap();
        assert_eq!(completion.values, ["scripts/variance_report.py"]);
        let directory = client
            .read_resource_directory(rmcp::model::ReadResourceDirectoryRequestParams::new(
                "skill://stock-audit/assets",
            ))
            .await
            .unwrap();
        assert_eq!(directory.resources.len(), 1);
        client.cancel().await.unwrap();
    }
}

/// The wrapper's listing goes on into the inner handler's resources behind a
/// cursor of ours; only a wrapper whose inner handler lists resources
/// continues from it. Anywhere else it is a cursor that listing never issued:
/// `-32602` with the cursor echoed, on both eras.
#[tokio::test]
async fn a_cursor_into_the_inner_handlers_resources_is_refused_where_there_are_none() {
    /// Declares tools only.
    #[derive(Clone)]
    struct ToolsOnly;
    impl ServerHandler for ToolsOnly {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }
    }
    for era in ERAS {
        let client = connect(wrapped(), era).await;
        let ours = client.list_resources(None).await.unwrap();
        let into_inner = ours.next_cursor.expect("the author's resources follow");
        let theirs = client
            .list_resources(Some(
                PaginatedRequestParams::default().with_cursor(Some(into_inner.clone())),
            ))
            .await
            .unwrap();
        let uris: Vec<&str> = theirs.resources.iter().map(|r| r.uri.as_str()).collect();
        assert_eq!(uris, ["memo://today"]);
        client.cancel().await.unwrap();

        let plain = connect(SkillsServer::new(SKILLS.clone()), era).await;
        let tools_only = connect(SkillsServer::new(SKILLS.clone()).wrap(ToolsOnly), era).await;
        for client in [&plain, &tools_only] {
            let error = client
                .list_resources(Some(
                    PaginatedRequestParams::default().with_cursor(Some(into_inner.clone())),
                ))
                .await
                .unwrap_err();
            let rmcp::service::ServiceError::McpError(error) = error else {
                panic!("{error:?}");
            };
            assert_eq!(
                error.code,
                rmcp::model::ErrorCode::INVALID_PARAMS,
                "{era:?}"
            );
            assert_eq!(error.data, Some(json!({"cursor": into_inner})), "{era:?}");
        }
        plain.cancel().await.unwrap();
        tools_only.cancel().await.unwrap();
    }
}

/// Under a rule, skills held back from callers whose client is not named "chef".
fn guarded() -> SkillsServer {
    SkillsServer::builder(SKILLS.clone())
        .instructions("Ask before ordering.")
        .access(|skill, caller| {
            let chef = caller
                .mcp()
                .and_then(|context| context.client_info())
                .is_some_and(|client| client.name == "chef");
            if skill.name() != "purchase-orders" || chef {
                Access::Owned
            } else {
                Access::Absent
            }
        })
        .notify_changes(true)
        .build()
        .unwrap()
}

/// The delegation shape under an access policy: what the author writes so
/// that each session hears about its own skills (the crate docs of
/// `delegate_skills!` show the same three methods).
#[derive(Clone)]
struct DelegatingPerCaller {
    skills: SkillsServer,
}

impl ServerHandler for DelegatingPerCaller {
    fn get_info(&self) -> ServerConfig {
        self.skills.config(&Caller::anonymous())
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        result.instructions = self.skills.instructions(&Caller::from_mcp(&context));
        Ok(result)
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let mut config = self.get_info();
        config.instructions = self.skills.instructions(&Caller::from_mcp(&context));
        Ok(DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            config,
        ))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.skills.on_initialized(&context);
    }

    skills_runtime::delegate_skills!(skills);
}

#[tokio::test]
async fn both_shapes_tell_each_session_its_own_skills() {
    for era in ERAS {
        for (who, sees_orders) in [("waiter", false), ("chef", true)] {
            let server = guarded();
            let wrapped = server.clone().wrap(Kitchen::new());
            let delegating = DelegatingPerCaller {
                skills: server.clone(),
            };
            let clients = [
                support::connect_as(wrapped, era, who).await,
                support::connect_as(delegating, era, who).await,
            ];
            for (shape, client) in clients.iter().enumerate() {
                let instructions = client
                    .peer_info()
                    .and_then(|info| info.instructions.clone())
                    .unwrap_or_default();
                let first = if shape == 0 {
                    "Kitchen tools"
                } else {
                    "Ask before ordering."
                };
                assert!(instructions.starts_with(first), "{instructions}");
                assert!(
                    instructions.contains("skill://stock-audit/SKILL.md"),
                    "{instructions}"
                );
                assert_eq!(
                    instructions.contains("purchase-orders"),
                    sees_orders,
                    "{era:?} {who} shape {shape}: {instructions}"
                );
            }
            let tools = clients[0].list_all_tools().await.unwrap();
            let read_skill = tools.iter().find(|tool| tool.name == "read_skill").unwrap();
            let description = read_skill.description.as_deref().unwrap_or_default();
            assert_eq!(
                description.contains("purchase-orders"),
                sees_orders,
                "{description}"
            );

            if era == support::Era::Handshake {
                // Both shapes registered their session: a replace that
                // changes what it sees tells it.
                for client in &clients {
                    client.list_all_skills().await.unwrap();
                }
                assert_eq!(server.listeners(), 2);
                let only_audit: Skills = {
                    let kept: Vec<_> = SKILLS
                        .skills()
                        .iter()
                        .filter(|skill| skill.name() == "stock-audit")
                        .cloned()
                        .collect();
                    Skills::from_parts(kept.into(), "sha256:only-audit".into(), None)
                };
                assert!(server.replace(only_audit).unwrap());
                for client in &clients {
                    tokio::time::timeout(
                        std::time::Duration::from_secs(30),
                        client.service().notified.notified(),
                    )
                    .await
                    .expect("told");
                }
            }
            for client in clients {
                client.cancel().await.unwrap();
            }
        }
    }
}
