//! What an MCP host sees of the embedded skills, without needing a host: the
//! demo starts the server and a client in one process, connects them over an
//! in-memory pipe, and prints each step of a SEP-2640 session.
//!
//! ```sh
//! cargo run --example demo
//! cargo run --example demo -- --help
//! SKILLS_DIR=/abs/path/to/skills cargo run --example demo
//! ```

use clap::Parser;
use rmcp::model::{
    GetSkillRequestParams, ProtocolVersion, ReadResourceRequestParams, ResourceContents,
    SkillResources,
};
use rmcp::{ClientLifecycleMode, ClientServiceExt, ServiceExt};
use skills_runtime::{Skills, SkillsServer, embed_skills, server};

static SKILLS: Skills = embed_skills!("${SKILLS_DIR:-skills}");

/// Shows what an MCP host sees of the skills embedded when this was built.
///
/// Starts `SkillsServer` and rmcp's client in one process, connects them
/// over an in-memory pipe, and prints each step of a session: the
/// `initialize` answer and instructions, `skills/list`, a read of every file
/// checked against its digest, `skills/get`, a refused URI, then the same on
/// protocol 2026-07-28. The skills are embedded at compile time: build with
/// `SKILLS_DIR=/abs/path` to show another folder.
#[derive(Parser)]
#[command(version)]
struct Options {}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    Options::parse();
    let files: usize = SKILLS
        .skills()
        .iter()
        .map(|skill| skill.files().len())
        .sum();
    let bytes: u64 = SKILLS.skills().iter().map(|skill| skill.total_size()).sum();
    println!(
        "Embedded at compile time: {} skills, {files} files, {bytes} bytes (fingerprint {}).\n",
        SKILLS.len(),
        SKILLS.fingerprint()
    );

    // The server side: one line. The client side: rmcp's own client.
    let server = SkillsServer::new(SKILLS.clone());
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    let serving = server.clone();
    tokio::spawn(server::serve(serving, server_end));
    let client = ().serve(client_end).await?;

    let info = client.peer_info().expect("initialized");
    let server_info = info.server_info.clone().unwrap_or_default();
    println!(
        "1. initialize (protocol {}): server `{}` {}, skills extension {}",
        info.protocol_version,
        server_info.name,
        server_info.version,
        serde_json::to_string(&info.capabilities.extensions)?
    );
    let instructions = info.instructions.clone().unwrap_or_default();
    println!(
        "   instructions for the model ({} of 2048 characters):",
        instructions.chars().count()
    );
    for line in instructions.lines() {
        println!("   | {line}");
    }

    let skills = client.list_all_skills().await?;
    println!("\n2. skills/list: {} skills", skills.len());
    for skill in &skills {
        let SkillResources::Files(resources) = &skill.resources else {
            continue;
        };
        let size: u64 = resources.iter().map(|file| file.size).sum();
        println!(
            "   {}  ({} files, {size} bytes)",
            skill.uri,
            resources.len()
        );
    }

    let mut verified = 0;
    for skill in &skills {
        let SkillResources::Files(resources) = &skill.resources else {
            continue;
        };
        for resource in resources {
            let read = client
                .read_resource(ReadResourceRequestParams::new(resource.uri.clone()))
                .await?;
            let bytes = match &read.contents[0] {
                ResourceContents::TextResourceContents { text, .. } => text.clone().into_bytes(),
                ResourceContents::BlobResourceContents { blob, .. } => {
                    use base64::Engine as _;
                    base64::engine::general_purpose::STANDARD.decode(blob)?
                }
                other => anyhow::bail!("unexpected content {other:?}"),
            };
            resource.verify(&bytes)?;
            verified += 1;
        }
    }
    println!(
        "\n3. resources/read of every listed file: {verified} read, every size and sha256 digest matches."
    );

    if let Some(first) = skills.first() {
        let entry = client
            .get_skill(GetSkillRequestParams::new(first.uri.clone()))
            .await?;
        let read = client
            .read_resource(ReadResourceRequestParams::new(first.uri.clone()))
            .await?;
        if let ResourceContents::TextResourceContents {
            text, mime_type, ..
        } = &read.contents[0]
        {
            println!(
                "\n4. skills/get + resources/read {} ({}): frontmatter {}",
                entry.skill.uri,
                mime_type.as_deref().unwrap_or("?"),
                serde_json::to_string(&entry.skill.frontmatter)?
            );
            for line in text.lines().take(8) {
                println!("   | {line}");
            }
            println!("   | …");
        }
        let missing = client
            .read_resource(ReadResourceRequestParams::new(
                "skill://no-such-skill/SKILL.md",
            ))
            .await
            .expect_err("unknown skills are refused");
        println!("\n5. An unknown URI is refused: {missing}");
    }
    client.cancel().await?;

    // The same server, reached the 2026-07-28 way (server/discover, stateless).
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(server::serve(server, server_end));
    let client = ()
        .serve_with_lifecycle(
            client_end,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await?;
    let page = client.list_skills(None).await?;
    println!(
        "\n6. On protocol 2026-07-28 (server/discover): skills/list answers {} skills with ttlMs={:?}, cacheScope={:?}.",
        page.skills.len(),
        page.ttl_ms,
        page.cache_scope
    );
    client.cancel().await?;

    println!(
        "\nNext: `cargo run --example http_server --features http` serves the same skills over streamable HTTP."
    );
    Ok(())
}
