//! An MCP server over streamable HTTP (rmcp's transport, mounted in axum at
//! `/mcp` by `skills_runtime::http::SkillsRouter`, with the catalog routes
//! `GET /skills` and `GET /skills/{name}` next to it).
//!
//! ```sh
//! cargo run --example http_server --features http                          # http://127.0.0.1:8080/mcp
//! cargo run --example http_server --features http -- --bind 0.0.0.0:8080 --allow-host skills.example.com --stateless
//! cargo run --example http_server --features http -- --help
//! ```
//!
//! Once it accepts connections it prints exactly one line on stdout,
//! `listening http://HOST:PORT` (the real port when `--bind` asks for port 0;
//! `127.0.0.1` for `--bind 0.0.0.0:…`, a URL its own `Host` check accepts);
//! everything else goes to stderr (`RUST_LOG=debug` for more).

use std::net::SocketAddr;

use clap::Parser;
use skills_runtime::http::{Limits, Server, SessionLimits, SkillsRouter};
use skills_runtime::{Skills, SkillsServer, embed_skills};

static SKILLS: Skills = embed_skills!("${SKILLS_DIR:-skills}");

/// Serves the embedded skills over MCP streamable HTTP at /mcp.
#[derive(Parser)]
#[command(version)]
struct Options {
    /// Where to listen; port 0 picks a free port (the line on stdout shows it).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    bind: SocketAddr,

    /// Keep no session state: every request is answered on its own, with a
    /// JSON response. Any replica of the same build can answer any request,
    /// cursors included, so replicas run behind a plain load balancer.
    /// Clients on protocol 2026-07-28 are always served this way.
    #[arg(long)]
    stateless: bool,

    /// A Host header to accept besides the loopback names (repeatable).
    /// Only those (and the IP literal of the address a client reached) are
    /// accepted by default, which guards a local server against DNS
    /// rebinding; a deployed server lists the names clients (or the proxy) use.
    #[arg(long = "allow-host", value_name = "NAME")]
    allowed_hosts: Vec<String>,

    /// A browser origin to accept besides loopback origins and the server's
    /// own pages (repeatable), e.g. `https://app.example.com`. A request from
    /// any other page gets 403; clients that are not browsers send no Origin.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allowed_origins: Vec<String>,

    /// Open connections at most; more wait until one closes [default: 1024].
    /// Keep it below `ulimit -n`.
    #[arg(long, value_name = "N")]
    max_connections: Option<usize>,

    /// Seconds a client may take to send a request head, and may stay idle
    /// between requests (at least 1) [default: 10].
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    header_timeout: Option<u64>,

    /// Open MCP sessions at most, all clients together [default: 10000].
    #[arg(long, value_name = "N")]
    max_sessions: Option<usize>,

    /// Skills per skills/list page [default: 100].
    #[arg(long, value_name = "N", value_parser = page_size)]
    skills_page_size: Option<usize>,

    /// Entries per resources/list and resources/directory/read page [default: 1000].
    #[arg(long, value_name = "N", value_parser = page_size)]
    resources_page_size: Option<usize>,

    /// Bytes of base64-encoded binary files to keep after their first read
    /// (0, the default, encodes on every read; see
    /// `SkillsServerBuilder::blob_cache_bytes`).
    #[arg(long, value_name = "BYTES")]
    blob_cache_bytes: Option<usize>,

    /// Also serve each skill as an MCP prompt (its SKILL.md, then where its
    /// other files are), for hosts that list prompts but never read
    /// resources on their own.
    #[arg(long)]
    prompts: bool,
}

/// A timeout on the command line: whole seconds, at least 1 (zero would
/// close every connection before its request).
fn seconds(value: &str) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(seconds) if seconds > 0 => Ok(seconds),
        _ => Err(format!(
            "`{value}` is not a timeout (whole seconds, at least 1)"
        )),
    }
}

fn page_size(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(size) if size > 0 => Ok(size),
        _ => Err(format!(
            "`{value}` is not a page size (a whole number, at least 1)"
        )),
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let options = Options::parse();
    skills_runtime::logging::stderr().init();

    let mut skills = SkillsServer::builder(SKILLS.clone()).prompts(options.prompts);
    if let Some(size) = options.skills_page_size {
        skills = skills.skills_page_size(size);
    }
    if let Some(size) = options.resources_page_size {
        skills = skills.resources_page_size(size);
    }
    if let Some(bytes) = options.blob_cache_bytes {
        skills = skills.blob_cache_bytes(bytes);
    }
    let skills = skills.build()?;
    let mut sessions = SessionLimits::default();
    if let Some(max) = options.max_sessions {
        sessions.max_sessions = max;
    }
    let router = SkillsRouter::new(skills)
        .stateless(options.stateless)
        .allowed_hosts(options.allowed_hosts)
        .allowed_origins(options.allowed_origins)
        .session_limits(sessions)
        .build();
    let mut limits = Limits::default();
    if let Some(max) = options.max_connections {
        limits.max_connections = max;
    }
    if let Some(seconds) = options.header_timeout {
        limits.header_timeout = std::time::Duration::from_secs(seconds);
    }
    let server = Server::bind(options.bind).await?.limits(limits);
    let url = server.url();
    tracing::info!(
        "serving {} skills at {url}/mcp ({}), bound to {}",
        SKILLS.len(),
        if options.stateless {
            "stateless"
        } else {
            "with sessions"
        },
        server.local_addr(),
    );
    tracing::info!(
        "point an MCP client at it, e.g. `claude mcp add --transport http skills {url}/mcp`"
    );
    server.serve(router).await?;
    Ok(())
}
