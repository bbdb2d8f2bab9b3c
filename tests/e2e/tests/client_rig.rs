//! The rig adapter with rig's scripted completion model (no network): the
//! catalog's blocks reach the model as preamble, a loaded SKILL.md reaches
//! its next request, and `unload_skill` is offered only while a skill is
//! loaded.

use skills_test_support as support;

use rig_agent::AgentBuilder;
use rig_core::test_utils::{MockCompletionModel, MockTurn};
use serde_json::json;
use skills_runtime::client::HostCatalog;
use skills_runtime::client::rig::RigSkills;
use skills_runtime::{Skills, SkillsServer, embed_skills};
use support::Era;
use support::client::tapped;

static SKILLS: Skills = embed_skills!("../../examples/skills");

fn tool_names(request: &rig_core::completion::CompletionRequest) -> Vec<String> {
    request
        .tools
        .iter()
        .map(|tool| tool.name.to_string())
        .collect()
}

#[tokio::test]
async fn a_rig_agent_loads_and_unloads_a_skill() {
    let (client, _) = tapped(SkillsServer::new(SKILLS.clone()), Era::Modern).await;
    let catalog = HostCatalog::new();
    catalog
        .add_server("larder", client.peer().clone())
        .await
        .unwrap();
    let skills = RigSkills::new(catalog);

    let model = MockCompletionModel::from_turns([
        MockTurn::tool_call("call-1", "load_skill", json!({"skillName": "stock-audit"})),
        MockTurn::tool_call(
            "call-2",
            "unload_skill",
            json!({"skillName": "stock-audit"}),
        ),
        MockTurn::text("The count is done."),
    ]);
    let probe = model.clone();
    let agent = AgentBuilder::new(model)
        .preamble(format!("You help a kitchen.\n\n{}", skills.preamble()))
        .tool_server_handle(skills.tool_server_handle())
        .build();
    let answer = agent
        .prompt("Run the month-end stock count.")
        .max_turns(5)
        .run()
        .await
        .unwrap();
    assert_eq!(answer.output(), "The count is done.");

    let requests = probe.requests();
    assert_eq!(requests.len(), 3);
    let first = serde_json::to_string(&requests[0].chat_history).unwrap();
    assert!(
        first.contains("stock-audit: Runs a physical stock count"),
        "the blocks are the preamble: {first}"
    );
    assert!(
        !first.contains("# Stock audit"),
        "no SKILL.md before the load"
    );
    assert_eq!(tool_names(&requests[0]), ["load_skill"]);

    // The loaded SKILL.md reaches the model's next request, and unload_skill is offered.
    let body = SKILLS
        .get("stock-audit")
        .unwrap()
        .body()
        .lines()
        .find(|l| !l.is_empty())
        .unwrap()
        .to_owned();
    let second = serde_json::to_string(&requests[1].chat_history).unwrap();
    assert!(second.contains(&body), "{body:?} not in {second}");
    assert!(second.contains("call `unload_skill` with"));
    assert_eq!(tool_names(&requests[1]), ["load_skill", "unload_skill"]);

    // After the unload, unload_skill is gone from the next tool list.
    assert_eq!(tool_names(&requests[2]), ["load_skill"]);
}
