//! A server that mixes its own tools with the embedded skills: the tools come
//! from rmcp's `#[tool_router]`, and the skills methods are delegated to a
//! `SkillsServer` from the same `impl ServerHandler` (the pattern rmcp
//! documents for its own `SkillCatalog`). `WithSkills::new(handler, skills)`
//! does the same in one line for a handler you cannot edit.
//!
//! ```sh
//! cargo run --example with_tools     # an MCP server over stdio
//! ```

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetSkillRequestParams, GetSkillResult,
    ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult, PaginatedRequestParams,
    ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{
    ErrorData, RoleServer, ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router,
};
use skills_runtime::{Skills, SkillsServer, embed_skills};

static SKILLS: Skills = embed_skills!("${SKILLS_DIR:-skills}");

/// A toy stock ledger standing in for the product's real API.
#[derive(Clone)]
struct Larder {
    tool_router: ToolRouter<Self>,
    skills: SkillsServer,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Search {
    /// Words to look for in item names.
    query: String,
}

#[tool_router]
impl Larder {
    fn new() -> Self {
        let skills = SkillsServer::builder(SKILLS.clone())
            .instructions("Larder manages a kitchen's stock, suppliers and recipes.")
            .build();
        // The `read_skill` fallback tool, for hosts that cannot read resources.
        let mut tool_router = Self::tool_router();
        if let Some(route) = skills.tool_route(|larder: &Larder| &larder.skills) {
            tool_router.add_route(route);
        }
        Self {
            tool_router,
            skills,
        }
    }

    /// Finds stock items by name. Load the `stock-audit` skill before counting stock.
    #[tool(description = "Find stock items by name; returns SKU, unit and quantity on hand.")]
    async fn search_inventory(&self, Parameters(search): Parameters<Search>) -> String {
        let stock = [
            ("PRO-0112", "Beef short rib", "kg", 16.2),
            ("DAI-0031", "Unsalted butter 250g", "each", 38.0),
        ];
        let query = search.query.to_lowercase();
        stock
            .iter()
            .filter(|(_, name, _, _)| name.to_lowercase().contains(&query))
            .map(|(sku, name, unit, quantity)| format!("{sku} {name}: {quantity} {unit}\n"))
            .collect()
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Larder {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder().enable_tools().build();
        self.skills.add_capabilities(&mut capabilities);
        ServerConfig::new(capabilities)
            .with_server_info(self.skills.server_info())
            .with_instructions(self.skills.instructions())
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        self.skills.list_skills(request, &context)
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.skills.get_skill(request, &context)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.skills
            .read_resource(&request, &context)
            .map(Into::into)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.skills.list_resources(request, &context)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.skills.list_resource_templates(request, &context)
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        self.skills.read_resource_directory(request, &context)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.skills
            .complete(&request, &context)
            .unwrap_or_else(|| Ok(CompleteResult::default()))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    Larder::new()
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}
