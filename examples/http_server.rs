//! An MCP server over streamable HTTP (rmcp's transport, mounted in axum).
//!
//! ```sh
//! cargo run --example http_server                          # http://127.0.0.1:8080/mcp
//! cargo run --example http_server -- --bind 0.0.0.0:8080 --allow-host skills.example.com --stateless
//! ```
//!
//! - `--stateless`: no session state on the server, every request answered on
//!   its own (JSON responses). Any replica of the same build can answer any
//!   request, cursors included, so it runs behind a plain load balancer.
//!   Clients on protocol 2026-07-28 are always served this way.
//! - `--allow-host NAME` (repeatable): the `Host` headers to accept. By
//!   default only loopback names are, which guards a local server against DNS
//!   rebinding; a deployed server must list its public names.
//! - `--bind ADDR`: where to listen; port 0 picks a free port.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::serve::ListenerExt as _;

use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use skills_runtime::{Skills, SkillsServer, embed_skills};

static SKILLS: Skills = embed_skills!("${SKILLS_DIR:-skills}");

struct Options {
    bind: SocketAddr,
    stateless: bool,
    allowed_hosts: Vec<String>,
}

fn options() -> anyhow::Result<Options> {
    let mut options = Options {
        bind: "127.0.0.1:8080".parse()?,
        stateless: false,
        allowed_hosts: Vec::new(),
    };
    let mut arguments = std::env::args().skip(1);
    while let Some(argument) = arguments.next() {
        match argument.as_str() {
            "--stateless" => options.stateless = true,
            "--bind" => options.bind = arguments.next().unwrap_or_default().parse()?,
            "--allow-host" => options.allowed_hosts.extend(arguments.next()),
            other => anyhow::bail!(
                "unknown argument {other}; use --bind ADDR, --allow-host NAME, --stateless"
            ),
        }
    }
    Ok(options)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let options = options()?;
    let skills = SkillsServer::new(SKILLS.clone());
    let mut config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(!options.stateless)
        .with_json_response(options.stateless);
    if !options.allowed_hosts.is_empty() {
        config = config.with_allowed_hosts(options.allowed_hosts.clone());
    }
    let service = StreamableHttpService::new(
        move || Ok(skills.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(options.bind).await?;
    let address = listener.local_addr()?;
    // Answers go out as soon as they are written; with Nagle's algorithm a
    // client waiting for the last segment of a response stalls for ~40 ms.
    let listener = listener.tap_io(|stream| {
        let _ = stream.set_nodelay(true);
    });
    println!(
        "Serving {} skills at http://{address}/mcp ({})",
        SKILLS.len(),
        if options.stateless {
            "stateless"
        } else {
            "with sessions"
        }
    );
    println!("Point an MCP client at that URL, for example:");
    println!(
        "  npx @modelcontextprotocol/inspector --cli http://{address}/mcp --method resources/list"
    );
    println!("  claude mcp add --transport http skills http://{address}/mcp");
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
