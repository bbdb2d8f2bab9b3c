//! An MCP server over stdio that serves the embedded skills and nothing else.
//!
//! ```sh
//! cargo run --example stdio_server                        # serves examples/skills/
//! cargo run --example stdio_server -- --help
//! SKILLS_DIR=/abs/path/to/skills cargo run --example stdio_server
//! npx -y @modelcontextprotocol/inspector --cli cargo run -q --example stdio_server --method resources/list
//! ```
//!
//! Point any MCP host at the built binary (`target/debug/examples/stdio_server`).
//! stdout carries JSON-RPC only; the one line saying it waits for a client,
//! and any error, go to stderr.

use clap::Parser;
use skills_runtime::server::{ServeError, serve};
use skills_runtime::{Skills, SkillsServer, embed_skills};

static SKILLS: Skills = embed_skills!("${SKILLS_DIR:-skills}");

/// An MCP server over stdio serving the skills embedded when it was built.
///
/// It speaks JSON-RPC on stdin/stdout, so run it from an MCP host (Claude
/// Code, the MCP Inspector, fast-agent) rather than on its own. The skills
/// are embedded at compile time: build with `SKILLS_DIR=/abs/path` to serve
/// another folder.
#[derive(Parser)]
#[command(version)]
struct Options {
    /// Your own instructions, sent before the list of skills in `initialize`.
    #[arg(long, value_name = "TEXT")]
    instructions: Option<String>,
    /// List every supporting file in `resources/list`, not only each SKILL.md.
    #[arg(long)]
    list_supporting_files: bool,
    /// Also serve Figma's legacy `skill://index.json`.
    #[arg(long)]
    legacy_index: bool,
    /// Also serve each skill as an MCP prompt (its SKILL.md, then where its
    /// other files are), for hosts that list prompts but never read
    /// resources on their own.
    #[arg(long)]
    prompts: bool,
    /// Bytes of base64-encoded binary files to keep after their first read
    /// (0, the default, encodes on every read; see
    /// `SkillsServerBuilder::blob_cache_bytes`).
    #[arg(long, value_name = "BYTES")]
    blob_cache_bytes: Option<usize>,
}

// rmcp's `stdio_pipes` reads and writes the pipes an MCP client gives on the
// IO reactor; `stdio()` hands every read and write to Tokio's blocking pool,
// a thread switch per message that costs the client too when 16 reads are
// in flight. Two workers let an answer be written while the next request is
// parsed; on anything but a pair of pipes (a terminal, a socketpair some
// hosts use) `stdio_pipes` falls back to `stdio()`.
#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> anyhow::Result<()> {
    let options = Options::parse();
    let mut builder = SkillsServer::builder(SKILLS.clone())
        .list_supporting_files(options.list_supporting_files)
        .legacy_index(options.legacy_index)
        .prompts(options.prompts);
    if let Some(bytes) = options.blob_cache_bytes {
        builder = builder.blob_cache_bytes(bytes);
    }
    if let Some(instructions) = options.instructions {
        builder = builder.instructions(instructions);
    }
    eprintln!(
        "stdio_server: serving {} skills over stdio; waiting for an MCP client on stdin",
        SKILLS.len()
    );
    match serve(builder.build()?, rmcp::transport::stdio_pipes()).await {
        Ok(_) => Ok(()),
        // stdin ended before any client spoke: nobody to serve, nothing failed.
        Err(error @ ServeError::NoClient) => {
            eprintln!("stdio_server: {error}");
            Ok(())
        }
        Err(error) => Err(error.into()),
    }
}
