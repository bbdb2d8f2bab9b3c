//! What an LLM host gets from `HostCatalog`, without an LLM: the context
//! blocks for the system prompt, then a scripted turn through the
//! `load_skill`/`unload_skill` tools.
//!
//! ```sh
//! cargo run --example catalog -- -- <server command> [args…]
//! cargo run --example catalog -- -- target/debug/examples/stdio_server
//! ```
//!
//! The host's side of dependencies is shown too: a skill whose frontmatter
//! says `dependencies: [a, b]` asks the host to connect those MCP servers
//! before it loads, and unloading it tells the host which of them no loaded
//! skill needs any more, so it can disconnect them and scrub the load from
//! its conversation history (the `history` below).

use std::sync::{Arc, Mutex};

use clap::Parser;
use serde_json::json;
use skills_runtime::client::{HostCatalog, LOAD_SKILL, ToolCall, UNLOAD_SKILL, transport};

/// Print a skills catalog and a scripted load/unload turn.
#[derive(Parser)]
#[command(
    name = "catalog",
    override_usage = "catalog -- <SERVER COMMAND> [ARGS]..."
)]
struct Args {
    /// The stdio server to start, after `--`.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

/// One message of the host's conversation, as far as this example needs.
#[derive(Debug)]
enum Message {
    ToolCall {
        id: String,
        name: String,
        skill: String,
    },
    ToolResult {
        id: String,
        text: String,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let (program, arguments) = args.command.split_first().expect("required");
    let server = transport::ChildProcess::spawn(program, arguments)?;

    // The conversation history the host keeps, shared with the unload hook.
    let history: Arc<Mutex<Vec<Message>>> = Arc::default();
    let scrubbed = history.clone();
    let catalog = HostCatalog::new()
        .on_dependencies(|request| async move {
            println!(
                "   [host] `{}` needs the MCP servers {:?}: connecting them (answering true)",
                request.skill, request.dependencies
            );
            true
        })
        .on_unload(move |unloaded| {
            // Scrub the load from the history: the call and its result are
            // dropped, so the skill's text stops costing context.
            let mut history = scrubbed.lock().unwrap();
            let ids: Vec<String> = history
                .iter()
                .filter_map(|message| match message {
                    Message::ToolCall { id, name, skill }
                        if name == LOAD_SKILL && *skill == unloaded.skill =>
                    {
                        Some(id.clone())
                    }
                    _ => None,
                })
                .collect();
            history.retain(|message| match message {
                Message::ToolCall { id, .. } | Message::ToolResult { id, .. } => {
                    !ids.contains(id)
                }
            });
            println!(
                "   [host] unloaded `{}` from `{}`; servers to disconnect: {:?}; {} messages scrubbed from the history",
                unloaded.skill,
                unloaded.server,
                unloaded.released,
                ids.len() * 2
            );
            async {}
        });
    let client = transport::connect_with(catalog.follow("skills"), server).await?;
    catalog.add_server("skills", client.peer().clone()).await?;

    println!("Context blocks for the system prompt:");
    for block in catalog.context_blocks() {
        println!("  {block}");
    }

    let show_tools = |when: &str| {
        let tools = catalog.tools();
        let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
        println!("\nTools {when}: {names:?}");
        for tool in &tools {
            println!(
                "  {}: {}",
                tool.name,
                serde_json::to_string(&tool.parameters).unwrap()
            );
        }
    };
    show_tools("offered to the model");

    let Some(first) = catalog.skills().into_iter().next() else {
        println!("\nThe server publishes no skills.");
        return Ok(());
    };
    println!(
        "\nThe model calls {LOAD_SKILL}({{\"skillName\": \"{}\"}}):",
        first.name
    );
    let call = ToolCall::new(LOAD_SKILL, json!({"skillName": first.name}));
    history.lock().unwrap().push(Message::ToolCall {
        id: "call-1".into(),
        name: LOAD_SKILL.into(),
        skill: first.name.clone(),
    });
    let outcome = catalog.call(&call).await;
    if first.dependencies.is_empty() && !outcome.is_error {
        println!(
            "   [host] `{}` declares no dependencies: nothing to connect",
            first.name
        );
    }
    let lines: Vec<&str> = outcome.text.lines().collect();
    for line in lines.iter().take(6) {
        println!("   | {line}");
    }
    println!(
        "   | … ({} lines; the last says how to unload it)",
        lines.len()
    );
    println!("   | {}", lines.last().unwrap_or(&""));
    history.lock().unwrap().push(Message::ToolResult {
        id: "call-1".into(),
        text: outcome.text,
    });

    show_tools("after the load");

    println!(
        "\nThe model calls {UNLOAD_SKILL}({{\"skillName\": \"{}\"}}):",
        first.name
    );
    let outcome = catalog
        .call(&ToolCall::new(
            UNLOAD_SKILL,
            json!({"skillName": first.name}),
        ))
        .await;
    println!("   -> {}", outcome.text);
    {
        let history = history.lock().unwrap();
        let kept: usize = history
            .iter()
            .map(|message| match message {
                Message::ToolResult { text, .. } => text.len(),
                Message::ToolCall { .. } => 0,
            })
            .sum();
        println!(
            "   history now holds {} messages ({kept} bytes of tool results)",
            history.len()
        );
    }

    show_tools("after the unload");
    client.cancel().await?;
    Ok(())
}
