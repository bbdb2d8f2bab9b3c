//! An MCP server over stdio that serves the embedded skills and nothing else.
//!
//! ```sh
//! cargo run --example stdio_server                        # serves skills/
//! SKILLS_DIR=/abs/path/to/skills cargo run --example stdio_server
//! ```
//!
//! Point any MCP host at the built binary (`target/debug/examples/stdio_server`).
//! Logs go to stderr; stdout carries only JSON-RPC.

use rmcp::ServiceExt;
use skills_runtime::{Skills, SkillsServer, embed_skills};

static SKILLS: Skills = embed_skills!("${SKILLS_DIR:-skills}");

// The multi-threaded runtime serializes answers on every core: large reads
// (base64 fonts, PDFs) keep up with 16 requests in flight.
#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let server = SkillsServer::new(SKILLS.clone());
    server
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}
