//! What an LLM host gets from `HostCatalog`, without an LLM: the context
//! blocks for the system prompt, then skills loaded through the
//! `load_skill` tool as a model would load them.
//!
//! ```sh
//! cargo run --example catalog --features client-http -- [--load NAME]… -- <server command> [args…]
//! cargo run --example catalog --features client-http -- [--header 'NAME: VALUE']… [--load NAME]… <http URL>
//! cargo run --example catalog --features client-http -- -- target/debug/examples/stdio_server
//! ```
//!
//! Each `--load NAME` calls `load_skill` with that name and prints what the
//! model would get; a refused load (an unknown skill, a `SKILL.md` that does
//! not match its listing entry) is reported on stderr, with exit status 1.
//! Without `--load` a URL form loads nothing (no skill file is read), and the
//! command form walks a scripted turn: it loads the first skill, then unloads
//! it.
//!
//! The host's side of dependencies is shown too: a skill whose frontmatter
//! says `dependencies: [a, b]` asks the host to connect those MCP servers
//! before it loads, and unloading it tells the host which of them no loaded
//! skill needs any more, so it can disconnect them and scrub the load from
//! its conversation history (the `history` below).

#[path = "support/header.rs"]
mod header;

use std::sync::{Arc, Mutex};

use clap::Parser;
use serde_json::json;
use skills_runtime::client::{HostCatalog, LOAD_SKILL, ToolCall, UNLOAD_SKILL, transport};

/// Print a skills catalog, then load skills as a model would.
#[derive(Parser)]
#[command(
    name = "catalog",
    override_usage = "catalog [--load NAME]... -- <SERVER COMMAND> [ARGS]...\n       catalog [--header 'NAME: VALUE']... [--load NAME]... <HTTP URL>"
)]
struct Args {
    /// A streamable HTTP server's URL (instead of a command after `--`).
    url: Option<String>,
    /// The stdio server to start, after `--`.
    #[arg(last = true)]
    command: Vec<String>,
    /// An HTTP header for every request (`Authorization: Bearer …`); repeatable.
    #[arg(long = "header", value_name = "NAME: VALUE")]
    headers: Vec<String>,
    /// Load this skill through `load_skill`, as a model would; repeatable.
    #[arg(long = "load", value_name = "NAME")]
    loads: Vec<String>,
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

fn main() {
    let args = Args::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let code = match runtime.block_on(run(args)) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("catalog: {error:#}");
            2
        }
    };
    // Dropping the runtime waits for a child server to be killed.
    drop(runtime);
    std::process::exit(code);
}

async fn run(args: Args) -> anyhow::Result<i32> {
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
    let follower = catalog.follow("skills");
    let client = match (&args.url, args.command.split_first()) {
        (Some(url), None) => {
            let headers = header::parse_all(&args.headers)?;
            transport::connect_with(follower, transport::http(url, headers)?).await?
        }
        (None, Some((program, arguments))) => {
            if !args.headers.is_empty() {
                anyhow::bail!(
                    "--header is for HTTP servers; a stdio server takes its own arguments"
                );
            }
            let server = transport::ChildProcess::spawn(program, arguments)?;
            transport::connect_with(follower, server).await?
        }
        _ => anyhow::bail!("give either an HTTP URL or a server command after `--` (see --help)"),
    };
    catalog.add_server("skills", client.peer().clone()).await?;

    println!("Context blocks for the system prompt:");
    for block in catalog.context_blocks() {
        println!("  {block}");
    }

    if !args.loads.is_empty() || args.url.is_some() {
        // Each load as the model would make it: a `load_skill` tool call.
        let mut refused = 0;
        for name in &args.loads {
            println!("\nThe model calls {LOAD_SKILL}({{\"skillName\": \"{name}\"}}):");
            let outcome = catalog
                .call(&ToolCall::new(LOAD_SKILL, json!({"skillName": name})))
                .await;
            if outcome.is_error {
                refused += 1;
                eprintln!("catalog: `{name}` was not loaded: {}", outcome.text);
                println!("   -> refused: {}", outcome.text);
            } else {
                for line in outcome.text.lines() {
                    println!("   | {line}");
                }
            }
        }
        client.cancel().await?;
        return Ok(if refused > 0 { 1 } else { 0 });
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
        client.cancel().await?;
        return Ok(0);
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
    Ok(0)
}
