//! What an LLM host gets from `HostCatalog`, without an LLM: the context
//! blocks for the system prompt, then skills loaded through the
//! `load_skill` tool as a model would load them.
//!
//! ```sh
//! cargo run --example catalog --features client-http -- [--approve-all | --approvals FILE] [--budget N | --budget-tokens N] [--load NAME]… -- <server command> [args…]
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
//!
//! And the host's side of trust: with `--approve-all` the approval callback
//! prints each skill's file set (sizes, digests, what changed since the last
//! decision) and approves it; with `--approvals FILE` it asks on the terminal
//! (declining when stdin is not one), remembering decisions in FILE, a JSON
//! `ApprovalRecord` read at start and written back at the end, so the next
//! run asks only about skills whose files changed. Without either, the
//! catalog trusts every skill (the library's default). `--budget N` keeps the
//! system-prompt text within N characters (`--budget-tokens N`: about N
//! tokens), shortening descriptions, then leaving skills out, and the tools'
//! schemas fit it too.
//!
//! What a server lists is checked before a model sees it: a skill whose name
//! the format does not allow, whose URI does not parse or whose entry does
//! not verify is printed under "Refused" and never offered; descriptions and
//! dependencies are one line of visible text, bounded.

#[path = "support/header.rs"]
mod header;

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use clap::Parser;
use serde_json::json;
// What a server sent is printed escaped: a file name or a SKILL.md holding
// escape sequences or bidirectional overrides must not act on the terminal.
use skills_runtime::client::{
    ApprovalRecord, ApprovalRequest, ApprovalState, ContextBudget, HostCatalog, LOAD_SKILL,
    ToolCall, UNLOAD_SKILL, transport,
};
use skills_runtime::load::printable;

/// Print a skills catalog, then load skills as a model would.
#[derive(Parser)]
#[command(
    name = "catalog",
    override_usage = "catalog [OPTIONS] [--load NAME]... -- <SERVER COMMAND> [ARGS]...\n       catalog [OPTIONS] [--header 'NAME: VALUE']... [--load NAME]... <HTTP URL>"
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
    /// Approve every skill's file set, printing what was approved.
    #[arg(long, conflicts_with = "approvals")]
    approve_all: bool,
    /// Remember approvals in FILE (JSON, read at start, written at the end);
    /// ask on the terminal about sets it does not hold (declined when stdin
    /// is not a terminal).
    #[arg(long, value_name = "FILE")]
    approvals: Option<PathBuf>,
    /// Keep the system-prompt text within N characters.
    #[arg(long, value_name = "N", conflicts_with = "budget_tokens")]
    budget: Option<usize>,
    /// Keep the system-prompt text within about N tokens (4 characters each).
    #[arg(long, value_name = "N")]
    budget_tokens: Option<usize>,
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

/// Prints what the approval callback is asked.
fn show_request(request: &ApprovalRequest) {
    println!(
        "   [host] approve `{}` from `{}`? {} files, {} bytes:",
        request.skill,
        request.server,
        request.files.len(),
        request.total_size()
    );
    for file in &request.files {
        println!(
            "            {} ({} bytes, {})",
            printable(&file.path),
            file.size,
            file.digest
        );
    }
    if let Some(previous) = &request.previous {
        let was = if previous.approved {
            "approved"
        } else {
            "declined"
        };
        println!("          changed since it was {was}:");
        for file in &previous.added {
            println!("            added   {}", printable(&file.path));
        }
        for file in &previous.removed {
            println!("            removed {}", printable(&file.path));
        }
        for file in &previous.changed {
            println!(
                "            changed {} ({} -> {})",
                printable(&file.after.path),
                file.before.digest,
                file.after.digest
            );
        }
    }
}

/// Asks the user on the terminal; `false` when stdin is not one.
async fn ask_user(request: ApprovalRequest) -> bool {
    show_request(&request);
    if !std::io::stdin().is_terminal() {
        println!("   [host] stdin is not a terminal: declined (approve it in the approvals file)");
        return false;
    }
    tokio::task::spawn_blocking(|| {
        print!("   [host] load it for the model? [y/N] ");
        use std::io::Write as _;
        let _ = std::io::stdout().flush();
        let mut answer = String::new();
        let _ = std::io::stdin().read_line(&mut answer);
        matches!(answer.trim(), "y" | "Y" | "yes")
    })
    .await
    .unwrap_or(false)
}

async fn run(args: Args) -> anyhow::Result<i32> {
    // The conversation history the host keeps, shared with the unload hook.
    let history: Arc<Mutex<Vec<Message>>> = Arc::default();
    let scrubbed = history.clone();
    let mut catalog = HostCatalog::new();
    if args.approve_all {
        catalog = catalog.on_approval(|request| {
            show_request(&request);
            println!("   [host] approved (--approve-all)");
            async { true }
        });
    }
    if let Some(file) = &args.approvals {
        let record: ApprovalRecord = match std::fs::read(file) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|error| {
                anyhow::anyhow!("{} is not an approvals record: {error}", file.display())
            })?,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => ApprovalRecord::default(),
            Err(error) => anyhow::bail!("cannot read {}: {error}", file.display()),
        };
        catalog = catalog.on_approval(ask_user).with_approvals(record);
    }
    if let Some(chars) = args.budget {
        catalog = catalog.context_budget(ContextBudget::chars(chars));
    }
    if let Some(tokens) = args.budget_tokens {
        catalog = catalog.context_budget(ContextBudget::tokens(tokens));
    }
    let code = session(&args, catalog.clone(), history, scrubbed).await?;
    if let Some(file) = &args.approvals {
        std::fs::write(file, serde_json::to_vec_pretty(&catalog.approvals())?)
            .map_err(|error| anyhow::anyhow!("cannot write {}: {error}", file.display()))?;
        println!("\nApprovals saved in {}", file.display());
    }
    Ok(code)
}

async fn session(
    args: &Args,
    catalog: HostCatalog,
    history: Arc<Mutex<Vec<Message>>>,
    scrubbed: Arc<Mutex<Vec<Message>>>,
) -> anyhow::Result<i32> {
    let catalog = catalog
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

    // What the server listed that the model will never see, and why: a name
    // the format does not allow, a URI that does not parse, an entry that
    // does not verify.
    let refused = catalog.refused();
    if !refused.is_empty() {
        println!("Refused (not offered to the model):");
        for skill in &refused {
            println!("  {} ({}): {}", skill.name, skill.uri, skill.reason);
        }
        println!();
    }

    println!("Context blocks for the system prompt:");
    let context = catalog.context();
    for block in &context.blocks {
        println!("  {block}");
    }
    if args.budget.is_some() || args.budget_tokens.is_some() {
        println!(
            "  ({} characters in all, descriptions cut to {}; {} skills left out: {:?})",
            context.text.chars().count(),
            context.description_chars,
            context.left_out.len(),
            context.left_out
        );
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
                    println!("   | {}", printable(line));
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

    // The first skill offered to the model (a declined one is not).
    let Some(first) = catalog
        .skills()
        .into_iter()
        .find(|skill| skill.approval != ApprovalState::Declined)
    else {
        println!("\nThe server publishes no skills the host has not declined.");
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
    if outcome.is_error {
        println!("   -> refused: {}", outcome.text);
        show_tools("after the refusal");
        client.cancel().await?;
        return Ok(1);
    }
    if first.dependencies.is_empty() {
        println!(
            "   [host] `{}` declares no dependencies: nothing to connect",
            first.name
        );
    }
    let lines: Vec<&str> = outcome.text.lines().collect();
    for line in lines.iter().take(6) {
        println!("   | {}", printable(line));
    }
    println!(
        "   | … ({} lines; the last says how to unload it)",
        lines.len()
    );
    println!("   | {}", printable(lines.last().unwrap_or(&"")));
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
