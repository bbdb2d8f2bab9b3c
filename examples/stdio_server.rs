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

// One thread starts fastest; over stdio, with the client on the other core,
// a second worker measured no faster (docs/BENCHMARKS.md).
#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let server = SkillsServer::new(SKILLS.clone());
    server
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}
