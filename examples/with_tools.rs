//! A server that mixes its own tools with the embedded skills: the tools come
//! from rmcp's `#[tool_router]`, and the skills methods are delegated to a
//! `SkillsServer` from the same `impl ServerHandler` (the pattern rmcp
//! documents for its own `SkillCatalog`), written by `delegate_skills!`. `skills.wrap(handler)`
//! does the same in one line for a handler you cannot edit.
//!
//! ```sh
//! cargo run --example with_tools     # an MCP server over stdio
//! npx -y @modelcontextprotocol/inspector --cli cargo run -q --example with_tools --method tools/list
//! ```
//!
//! stdout carries JSON-RPC only; the line saying it waits for a client goes
//! to stderr.

use clap::Parser;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::ServerConfig;
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
use skills_runtime::server::{Caller, ServeError, serve};
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
    fn new() -> Result<Self, skills_runtime::Report> {
        let skills = SkillsServer::builder(SKILLS.clone())
            .instructions("Larder manages a kitchen's stock, suppliers and recipes.")
            .build()?;
        // The `read_skill` fallback tool, for hosts that cannot read resources.
        let mut tool_router = Self::tool_router();
        if let Some(route) = skills.tool_route(|larder: &Larder| &larder.skills) {
            tool_router.add_route(route);
        }
        Ok(Self {
            tool_router,
            skills,
        })
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
        // The skills server's capabilities, name and instructions, plus our tools.
        let mut config = self.skills.config(&Caller::anonymous());
        config
            .capabilities
            .tools
            .get_or_insert_with(Default::default);
        config
    }

    // list_skills, get_skill, read_resource, read_resource_directory,
    // list_resources, list_resource_templates and complete, one line each.
    skills_runtime::delegate_skills!(skills);
}

/// An MCP server over stdio with its own tools (`search_inventory`) next to
/// the skills embedded when it was built (and the `read_skill` tool).
///
/// It speaks JSON-RPC on stdin/stdout, so run it from an MCP host (Claude
/// Code, the MCP Inspector, fast-agent) rather than on its own. The skills
/// are embedded at compile time: build with `SKILLS_DIR=/abs/path` to serve
/// another folder.
#[derive(Parser)]
#[command(version)]
struct Options {}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    Options::parse();
    eprintln!(
        "with_tools: serving its own tool and {} skills over stdio; waiting for an MCP client on stdin",
        SKILLS.len()
    );
    match serve(Larder::new()?, rmcp::transport::stdio_pipes()).await {
        Ok(_) => Ok(()),
        // stdin ended before any client spoke: nobody to serve, nothing failed.
        Err(error @ ServeError::NoClient) => {
            eprintln!("with_tools: {error}");
            Ok(())
        }
        Err(error) => Err(error.into()),
    }
}
