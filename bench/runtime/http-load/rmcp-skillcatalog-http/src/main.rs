//! Anchor server over streamable HTTP: rmcp 3.11 `SkillCatalog` (runtime loader, feature
//! `skills-fs`) behind `StreamableHttpService` in axum — the HTTP twin of
//! ../shared/bench/peers/rmcp-skillcatalog-server (same handler, same delegation pattern).
//!
//! usage: rmcp-skillcatalog-http <skills dir> [--port N] [--stateless] [--nodelay]
//!   --stateless: `legacy_session_mode(false)` + JSON answers, as our http_server's --stateless.
//!   --nodelay: set TCP_NODELAY on accepted connections (axum::serve leaves Nagle on; SSE answers
//!   are written in several small chunks, and Nagle + delayed ACK then stalls each one).
//!   Requests on 2026-07-28 are served statelessly either way. Logs nothing.
use std::sync::Arc;

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    handler::server::skill_catalog::SkillCatalog,
    model::*,
    service::RequestContext,
    transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    },
};

#[derive(Clone)]
struct Server {
    skills: Arc<SkillCatalog>,
    info: Arc<ServerConfig>,
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        (*self.info).clone()
    }

    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        Ok(self.skills.list_skills())
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.skills.get_skill(&request.uri)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(self.skills.resources()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.skills
            .read_resource(&request.uri)
            .map(Into::into)
            .ok_or_else(|| ErrorData::invalid_params(format!("Unknown resource: {}", request.uri), None))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let root = args.next().ok_or("usage: rmcp-skillcatalog-http <skills dir> [--port N] [--stateless] [--nodelay]")?;
    let (mut port, mut stateless, mut nodelay) = (8080u16, false, false);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--port" => port = args.next().ok_or("--port N")?.parse()?,
            "--stateless" => stateless = true,
            "--nodelay" => nodelay = true,
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    let skills = tokio::task::spawn_blocking(move || SkillCatalog::from_dir(root)).await??;
    let info = ServerConfig::new(ServerCapabilities::builder().enable_resources().enable_skills().build())
        .with_server_info(Implementation::new("rmcp-skillcatalog-anchor", "0.0.0"));
    let server = Server { skills: Arc::new(skills), info: Arc::new(info) };
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(!stateless)
        .with_json_response(stateless);
    let service = StreamableHttpService::new(move || Ok(server.clone()), Arc::new(LocalSessionManager::default()), config);
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    if nodelay {
        use axum::serve::ListenerExt;
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, router).await?;
    } else {
        axum::serve(listener, router).await?;
    }
    Ok(())
}
