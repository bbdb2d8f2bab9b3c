//! A rig agent with skills from an MCP server: the catalog's context blocks
//! in its preamble, `load_skill`/`unload_skill` as its tools. The model is
//! rig's scripted mock (no network, no key): it loads the first skill,
//! unloads it, and answers. Swap in any rig model to use it for real.
//!
//! ```sh
//! cargo run --example rig_agent -- -- target/debug/examples/stdio_server
//! ```

use clap::Parser;
use rig_agent::AgentBuilder;
use rig_core::test_utils::{MockCompletionModel, MockTurn};
use serde_json::json;
use skills_runtime::client::rig::RigSkills;
use skills_runtime::client::{HostCatalog, transport};

/// Run a scripted rig agent over a server's skills.
#[derive(Parser)]
#[command(
    name = "rig_agent",
    override_usage = "rig_agent -- <SERVER COMMAND> [ARGS]..."
)]
struct Args {
    /// The stdio server to start, after `--`.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let (program, arguments) = args.command.split_first().expect("required");
    let client = transport::connect(transport::ChildProcess::spawn(program, arguments)?).await?;
    let catalog = HostCatalog::new();
    catalog.add_server("skills", client.peer().clone()).await?;
    let skills = RigSkills::new(catalog);
    let Some(first) = skills.catalog().skills().into_iter().next() else {
        anyhow::bail!("the server publishes no skills");
    };

    // The scripted model: what a real one would decide, turn by turn.
    let model = MockCompletionModel::from_turns([
        MockTurn::tool_call("call-1", "load_skill", json!({"skillName": first.name})),
        MockTurn::tool_call("call-2", "unload_skill", json!({"skillName": first.name})),
        MockTurn::text("Done: I read the skill, used it, and unloaded it."),
    ]);
    let probe = model.clone();
    let agent = AgentBuilder::new(model)
        .preamble(format!("You help run a kitchen.\n\n{}", skills.preamble()))
        .tool_server_handle(skills.tool_server_handle())
        .build();
    let answer = agent
        .prompt("Help me with the first thing you can.")
        .max_turns(5)
        .run()
        .await?;

    for (turn, request) in probe.requests().iter().enumerate() {
        let tools: Vec<String> = request
            .tools
            .iter()
            .map(|tool| tool.name.to_string())
            .collect();
        let history = serde_json::to_string(&request.chat_history)?;
        println!(
            "request {}: tools {tools:?}; {} messages; SKILL.md of `{}` in context: {}",
            turn + 1,
            request.chat_history.len(),
            first.name,
            history.contains(&format!("name: {}\\n", first.name))
        );
    }
    println!("answer: {}", answer.output());
    client.cancel().await?;
    Ok(())
}
