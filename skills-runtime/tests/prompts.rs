//! Skills as MCP prompts (`SkillsServerBuilder::prompts`), in process, on
//! both eras: off by default; one prompt per skill the caller owns, named
//! and described by the frontmatter; `prompts/get` returns the `SKILL.md`
//! bytes and where the other files are; a skill the caller does not own is
//! refused exactly like one that does not exist; and a reload or a grant
//! sends `notifications/prompts/list_changed` to the sessions and listen
//! streams whose view changed, and to no other.

use skills_test_support as support;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, RwLock};

use rmcp::model::{
    ContentBlock, ErrorCode, GetPromptRequestParams, GetPromptResult, PaginatedRequestParams,
    Prompt, ProtocolVersion, Role, ServerNotification, SubscriptionFilter,
};
use rmcp::service::{NotificationContext, RunningService, ServiceError};
use rmcp::{
    ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient, ServerHandler, ServiceExt,
};
use serde_json::{Value, json};
use skills_runtime::server::{Access, Caller, Offer};
use skills_runtime::{Skill, Skills, SkillsServer};
use support::live::DEADLINE;
use support::{ERAS, Era, connect, raw_as};
use tokio::sync::mpsc;

use support::trees::EXAMPLES as SKILLS;

fn prompts_server() -> SkillsServer {
    SkillsServer::builder(SKILLS.clone())
        .prompts(true)
        .build()
        .unwrap()
}

fn mcp_error(error: ServiceError) -> rmcp::ErrorData {
    match error {
        ServiceError::McpError(error) => error,
        other => panic!("expected an MCP error, got {other:?}"),
    }
}

/// The text of a prompt message, which these prompts only ever hold.
fn text(content: &ContentBlock) -> &str {
    match content {
        ContentBlock::Text(text) => &text.text,
        other => panic!("expected text, got {other:?}"),
    }
}

async fn get(client: &support::Client, name: &str) -> GetPromptResult {
    client
        .get_prompt(GetPromptRequestParams::new(name))
        .await
        .unwrap_or_else(|error| panic!("prompts/get {name}: {error:?}"))
}

#[tokio::test]
async fn prompts_are_off_unless_switched_on() {
    assert!(
        SkillsServer::new(SKILLS.clone())
            .config(&skills_runtime::server::Caller::anonymous())
            .capabilities
            .prompts
            .is_none()
    );
    for era in ERAS {
        let client = connect(SkillsServer::new(SKILLS.clone()), era).await;
        let info = client.peer_info().expect("connected");
        assert!(info.capabilities.prompts.is_none(), "{era:?}");
        let error = mcp_error(client.list_prompts(None).await.unwrap_err());
        assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND, "{era:?}");
        let error = mcp_error(
            client
                .get_prompt(GetPromptRequestParams::new(SKILLS.skills()[0].name()))
                .await
                .unwrap_err(),
        );
        assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND, "{era:?}");
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn the_capability_says_list_changed_only_when_the_server_notifies() {
    let quiet = prompts_server()
        .config(&skills_runtime::server::Caller::anonymous())
        .capabilities;
    let prompts = quiet.prompts.expect("declared when switched on");
    assert_eq!(prompts.list_changed, None, "this server never notifies");
    let live = SkillsServer::builder(SKILLS.clone())
        .prompts(true)
        .notify_changes(true)
        .build()
        .unwrap()
        .config(&skills_runtime::server::Caller::anonymous())
        .capabilities;
    assert_eq!(live.prompts.expect("declared").list_changed, Some(true));
}

#[tokio::test]
async fn each_skill_is_a_prompt_named_and_described_by_its_frontmatter() {
    assert!(SKILLS.len() >= 2, "the example tree has several skills");
    for era in ERAS {
        let client = connect(prompts_server(), era).await;
        assert!(
            client.peer_info().unwrap().capabilities.prompts.is_some(),
            "{era:?}"
        );
        let prompts = client.list_all_prompts().await.unwrap();
        let expected: Vec<(String, Option<String>)> = SKILLS
            .skills()
            .iter()
            .map(|skill| {
                (
                    skill.name().to_owned(),
                    Some(skill.description().to_owned()),
                )
            })
            .collect();
        let got: Vec<(String, Option<String>)> = prompts
            .iter()
            .map(|prompt| (prompt.name.clone(), prompt.description.clone()))
            .collect();
        assert_eq!(got, expected, "{era:?}");
        assert!(prompts.iter().all(|prompt| prompt.arguments.is_none()));
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_prompt_is_the_skill_md_bytes_then_where_the_other_files_are() {
    for era in ERAS {
        let client = connect(prompts_server(), era).await;
        for skill in SKILLS.skills() {
            let result = get(&client, skill.name()).await;
            assert_eq!(result.description.as_deref(), Some(skill.description()));
            let first = &result.messages[0];
            assert_eq!(first.role, Role::User);
            assert_eq!(
                text(&first.content).as_bytes(),
                skill.skill_md().bytes(),
                "{era:?} {}: the first message is SKILL.md byte for byte",
                skill.name()
            );
            let others: Vec<_> = skill
                .files()
                .iter()
                .filter(|file| file.path() != "SKILL.md")
                .collect();
            if others.is_empty() {
                assert_eq!(result.messages.len(), 1, "{era:?} {}", skill.name());
                continue;
            }
            assert_eq!(result.messages.len(), 2, "{era:?} {}", skill.name());
            let where_ = text(&result.messages[1].content);
            for file in others {
                let uri = skill.file_uri(file);
                assert!(
                    where_.contains(&format!("- {uri} ({} bytes)", file.size())),
                    "{era:?}: {uri} is not named in {where_:?}"
                );
            }
            assert!(where_.contains("`read_skill` tool"), "{where_}");
            assert!(where_.contains(skill.root_uri()), "{where_}");
        }
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn without_the_tool_the_prompt_points_at_resources_only() {
    let server = SkillsServer::builder(SKILLS.clone())
        .prompts(true)
        .tool(None)
        .build()
        .unwrap();
    let skill = SKILLS
        .skills()
        .iter()
        .find(|skill| skill.files().len() > 1)
        .expect("a skill with supporting files");
    let client = connect(server, Era::Handshake).await;
    let result = get(&client, skill.name()).await;
    let where_ = text(&result.messages[1].content);
    assert!(!where_.contains("read_skill"), "{where_}");
    assert!(where_.contains("resources/read"), "{where_}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn prompts_page_like_skills_and_refuse_foreign_cursors() {
    let server = SkillsServer::builder(SKILLS.clone())
        .prompts(true)
        .skills_page_size(1)
        .build()
        .unwrap();
    for era in ERAS {
        let client = connect(server.clone(), era).await;
        let mut names = Vec::new();
        let mut pages = 0;
        let mut cursor = None;
        loop {
            let page = client
                .list_prompts(Some(PaginatedRequestParams::default().with_cursor(cursor)))
                .await
                .unwrap();
            pages += 1;
            assert_eq!(page.prompts.len(), 1, "{era:?}");
            names.extend(page.prompts.into_iter().map(|prompt| prompt.name));
            if era == Era::Modern {
                assert!(page.ttl_ms.is_some() && page.cache_scope.is_some());
            }
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        assert_eq!(pages, SKILLS.len(), "{era:?}");
        let expected: Vec<&str> = SKILLS.skills().iter().map(Skill::name).collect();
        assert_eq!(names, expected, "{era:?}");

        // A skills/list cursor is not a prompts/list cursor.
        let skills_page = client
            .list_skills(Some(PaginatedRequestParams::default()))
            .await
            .unwrap();
        let foreign = skills_page.next_cursor.expect("several pages");
        let error = mcp_error(
            client
                .list_prompts(Some(
                    PaginatedRequestParams::default().with_cursor(Some(foreign.clone())),
                ))
                .await
                .unwrap_err(),
        );
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{era:?}");
        assert_eq!(error.data, Some(json!({ "cursor": foreign })), "{era:?}");
        client.cancel().await.unwrap();
    }
}

// ---------------------------------------------------------------------------
// Per caller

/// Who owns which gated skills, by learner (the client's name here).
type Entitlements = Arc<RwLock<HashMap<String, HashSet<String>>>>;

/// The course platform of `access.rs`, smaller: `ard` is public, the
/// courses are gated (sold), `secret-plans` is the admin's alone.
fn platform(name: &str, version: &str) -> Skills {
    let md = |name: &str, what: &str| support::skill_md(name, &format!("{what} Use when testing."));
    let files = [
        ("ard/SKILL.md", md("ard", "The platform.")),
        ("ard/references/buying.md", "How to buy.".to_owned()),
        ("courses/python/SKILL.md", md("python", "Python.")),
        ("courses/python/references/ch1.md", format!("py {version}")),
        ("courses/rust/SKILL.md", md("rust", "Rust.")),
        ("courses/rust/references/ch1.md", "rust 1".to_owned()),
        ("secret-plans/SKILL.md", md("secret-plans", "Plans.")),
        ("secret-plans/references/ch1.md", "plans".to_owned()),
    ];
    let mut options = skills_core::Options::default();
    options.gated = vec!["courses/**".to_owned()];
    support::skills_of(name, &files, &options)
}

fn policy(
    entitlements: Entitlements,
) -> impl Fn(&Skill, &Caller<'_>) -> Access + Send + Sync + 'static {
    let offer = Offer::new(json!({"price": "EUR 49"}));
    move |skill, caller| {
        let who = caller
            .mcp()
            .and_then(|context| context.client_info())
            .map(|info| info.name.to_string());
        if skill.name() == "secret-plans" {
            return if who.as_deref() == Some("admin") {
                Access::Owned
            } else {
                Access::Absent
            };
        }
        if !skill.is_gated() {
            return Access::Owned;
        }
        let owns = who.is_some_and(|who| {
            entitlements
                .read()
                .unwrap()
                .get(&who)
                .is_some_and(|owned| owned.contains(skill.name()))
        });
        if owns {
            Access::Owned
        } else {
            Access::Locked(offer.clone())
        }
    }
}

/// learner-a owns python, learner-b rust.
fn platform_server(name: &str) -> (SkillsServer, Entitlements) {
    let entitlements: Entitlements = Arc::default();
    {
        let mut table = entitlements.write().unwrap();
        table.insert("learner-a".into(), HashSet::from(["python".into()]));
        table.insert("learner-b".into(), HashSet::from(["rust".into()]));
    }
    let server = SkillsServer::builder(platform(name, "v1"))
        .prompts(true)
        .notify_changes(true)
        .access(policy(entitlements.clone()))
        .build()
        .unwrap();
    (server, entitlements)
}

#[tokio::test]
async fn a_caller_lists_and_gets_only_the_skills_it_owns() {
    let (server, _) = platform_server("prompts-owned");
    for era in ERAS {
        for (learner, expected) in [
            ("learner-a", vec!["ard", "python"]),
            ("learner-b", vec!["ard", "rust"]),
            ("admin", vec!["ard", "secret-plans"]),
            ("stranger", vec!["ard"]),
        ] {
            let answers = raw_as(
                server.clone(),
                era,
                learner,
                &[
                    json!({"method": "prompts/list"}),
                    json!({"method": "prompts/get", "params": {"name": expected[1 % expected.len()]}}),
                ],
            )
            .await;
            let names: Vec<&str> = answers[0]["result"]["prompts"]
                .as_array()
                .unwrap_or_else(|| panic!("{era:?} {learner}: {}", answers[0]))
                .iter()
                .map(|prompt| prompt["name"].as_str().unwrap())
                .collect();
            assert_eq!(names, expected, "{era:?} {learner}");
            let cache_scope = &answers[0]["result"]["cacheScope"];
            if era == Era::Modern {
                assert_eq!(
                    cache_scope, "private",
                    "{era:?}: answers depend on the caller"
                );
            }
            assert!(
                answers[1]["error"].is_null(),
                "{era:?} {learner}: {}",
                answers[1]
            );
        }
    }
}

#[tokio::test]
async fn locked_absent_and_nonexistent_prompts_are_refused_alike() {
    let (server, _) = platform_server("prompts-alike");
    for era in ERAS {
        let mut refusals = Vec::new();
        // learner-a: rust is locked (on sale), secret-plans absent, nope nonexistent.
        for name in ["rust", "secret-plans", "nope"] {
            let answers = raw_as(
                server.clone(),
                era,
                "learner-a",
                &[json!({"method": "prompts/get", "params": {"name": name}})],
            )
            .await;
            let answer = &answers[0];
            assert_eq!(answer["error"]["code"], -32602, "{era:?} {name}: {answer}");
            assert_eq!(answer["error"]["data"], json!({"name": name}), "{era:?}");
            refusals.push(answer.to_string().replace(name, "{name}"));
        }
        assert_eq!(refusals[0], refusals[1], "{era:?}: locked vs absent");
        assert_eq!(refusals[0], refusals[2], "{era:?}: locked vs nonexistent");
        // The owner gets it.
        let owner = raw_as(
            server.clone(),
            era,
            "learner-b",
            &[json!({"method": "prompts/get", "params": {"name": "rust"}})],
        )
        .await;
        assert!(owner[0]["error"].is_null(), "{era:?} {}", owner[0]);
        assert_eq!(owner[0]["result"]["messages"][0]["role"], "user");
    }
}

// ---------------------------------------------------------------------------
// list_changed

/// A client named `name` that forwards every list_changed notice it gets.
#[derive(Clone)]
struct Ears {
    name: &'static str,
    heard: mpsc::UnboundedSender<&'static str>,
}

impl ClientHandler for Ears {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        rmcp::model::ClientConfig::new(
            Default::default(),
            rmcp::model::Implementation::new(self.name, "1"),
        )
    }

    async fn on_prompt_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.heard.send("prompts");
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.heard.send("resources");
    }
}

type EarClient = RunningService<RoleClient, Ears>;

/// A 2025-11-25 session of `handler` from a client named `name`, and the
/// notices it hears.
async fn session(
    handler: impl ServerHandler,
    name: &'static str,
) -> (EarClient, mpsc::UnboundedReceiver<&'static str>) {
    let (server_end, client_end) = tokio::io::duplex(1 << 22);
    tokio::spawn(skills_runtime::server::serve(handler, server_end));
    let (heard, hearing) = mpsc::unbounded_channel();
    let client = Ears { name, heard }
        .serve(client_end)
        .await
        .expect("initialize");
    // The server registers a session when `notifications/initialized`
    // arrives: a request answered after it proves it was handled.
    client.list_prompts(None).await.expect("prompts/list");
    (client, hearing)
}

/// The notices a session heard until it heard `prompts`, within the deadline.
async fn until_prompts(hearing: &mut mpsc::UnboundedReceiver<&'static str>) -> Vec<&'static str> {
    let mut heard = Vec::new();
    while !heard.contains(&"prompts") {
        let notice = tokio::time::timeout(DEADLINE, hearing.recv())
            .await
            .expect("prompts/list_changed within the deadline")
            .expect("the session is open");
        heard.push(notice);
    }
    heard
}

/// Nothing more was heard: a round trip after the change has been answered,
/// and notices are sent before it.
async fn heard_nothing(client: &EarClient, hearing: &mut mpsc::UnboundedReceiver<&'static str>) {
    client.list_prompts(None).await.expect("prompts/list");
    tokio::task::yield_now().await;
    assert_eq!(hearing.try_recv().ok(), None);
}

#[tokio::test]
async fn a_reload_tells_each_session_whose_prompts_changed() {
    let (server, _) = platform_server("prompts-reload");
    let (a, mut heard_a) = session(server.clone(), "learner-a").await;
    let (b, mut heard_b) = session(server.clone(), "learner-b").await;
    assert_eq!(server.listeners(), 2);

    // python's text changes: only learner-a owns it.
    assert!(server.replace(platform("prompts-reload-2", "v2")).unwrap());
    let heard = until_prompts(&mut heard_a).await;
    assert!(
        heard.contains(&"resources"),
        "both lists are announced: {heard:?}"
    );
    heard_nothing(&b, &mut heard_b).await;

    // The courses go and a new skill comes: both views change.
    let mut files = vec![(
        "zeta/SKILL.md".to_owned(),
        support::skill_md("zeta", "New. Use when testing."),
    )];
    files.push((
        "ard/SKILL.md".to_owned(),
        support::skill_md("ard", "The platform. Use when testing."),
    ));
    let smaller = support::skills_of("prompts-reload-3", &files, &skills_core::Options::default());
    assert!(server.replace(smaller).unwrap());
    until_prompts(&mut heard_a).await;
    until_prompts(&mut heard_b).await;
    let names: Vec<String> = b
        .list_all_prompts()
        .await
        .unwrap()
        .into_iter()
        .map(|prompt| prompt.name)
        .collect();
    assert_eq!(names, ["ard", "zeta"]);
    a.cancel().await.unwrap();
    b.cancel().await.unwrap();
}

#[tokio::test]
async fn a_grant_tells_the_learner_who_bought_and_no_one_else() {
    let (server, entitlements) = platform_server("prompts-grant");
    let (a, mut heard_a) = session(server.clone(), "learner-a").await;
    let (b, mut heard_b) = session(server.clone(), "learner-b").await;
    entitlements
        .write()
        .unwrap()
        .get_mut("learner-a")
        .unwrap()
        .insert("rust".into());
    assert_eq!(server.refresh_views(|_| {}), 1);
    until_prompts(&mut heard_a).await;
    heard_nothing(&b, &mut heard_b).await;
    let names: Vec<String> = a
        .list_all_prompts()
        .await
        .unwrap()
        .into_iter()
        .map(|prompt| prompt.name)
        .collect();
    assert_eq!(names, ["ard", "python", "rust"]);
    a.cancel().await.unwrap();
    b.cancel().await.unwrap();
}

#[tokio::test]
async fn a_server_without_prompts_sends_no_prompt_notice() {
    let server = SkillsServer::builder(platform("prompts-none", "v1"))
        .notify_changes(true)
        .build()
        .unwrap();
    let (client, mut heard) = {
        let (server_end, client_end) = tokio::io::duplex(1 << 22);
        let handler = server.clone();
        tokio::spawn(skills_runtime::server::serve(handler, server_end));
        let (tell, hearing) = mpsc::unbounded_channel();
        let client = Ears {
            name: "learner-a",
            heard: tell,
        }
        .serve(client_end)
        .await
        .unwrap();
        client.list_all_resources().await.unwrap();
        (client, hearing)
    };
    assert!(server.replace(platform("prompts-none-2", "v2")).unwrap());
    let first = tokio::time::timeout(DEADLINE, heard.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(first, "resources");
    client.list_all_resources().await.unwrap();
    tokio::task::yield_now().await;
    assert_eq!(heard.try_recv().ok(), None, "no prompts/list_changed");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_listen_stream_that_asked_for_prompts_is_told_of_a_reload() {
    let (server, _) = platform_server("prompts-listen");
    let (heard, _hearing) = mpsc::unbounded_channel();
    let (server_end, client_end) = tokio::io::duplex(1 << 22);
    let handler = server.clone();
    tokio::spawn(skills_runtime::server::serve(handler, server_end));
    let client = Ears {
        name: "learner-a",
        heard,
    }
    .serve_with_lifecycle(
        client_end,
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    )
    .await
    .unwrap();
    let filter = SubscriptionFilter::builder().prompts_list_changed().build();
    let mut stream = client.peer().listen(filter.clone()).await.unwrap();
    assert_eq!(
        stream.acknowledged(),
        &filter,
        "prompts/list_changed is accepted"
    );
    assert!(server.replace(platform("prompts-listen-2", "v2")).unwrap());
    let notice = tokio::time::timeout(DEADLINE, stream.next())
        .await
        .expect("a notice within the deadline")
        .expect("a well-formed stream")
        .expect("the stream is open");
    assert!(
        matches!(notice, ServerNotification::PromptListChangedNotification(_)),
        "{notice:?}"
    );
    client.cancel().await.unwrap();
}

// ---------------------------------------------------------------------------
// WithSkills

/// A handler with one prompt of its own.
#[derive(Clone)]
struct Inner;

impl ServerHandler for Inner {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        rmcp::model::ServerConfig::new(
            rmcp::model::ServerCapabilities::builder()
                .enable_prompts()
                .build(),
        )
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListPromptsResult, rmcp::ErrorData> {
        Ok(rmcp::model::ListPromptsResult::with_all_items(vec![
            Prompt::new("greet", Some("Says hello."), None),
        ]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::GetPromptResponse, rmcp::ErrorData> {
        if request.name == "greet" {
            Ok(
                GetPromptResult::new(vec![rmcp::model::PromptMessage::new_text(
                    Role::User,
                    "hello",
                )])
                .into(),
            )
        } else {
            Err(rmcp::ErrorData::invalid_params(
                format!("inner: no prompt {}", request.name),
                None,
            ))
        }
    }
}

#[tokio::test]
async fn with_skills_lists_ours_then_the_inner_handlers_and_routes_gets() {
    let (skills, _) = platform_server("prompts-with");
    for era in ERAS {
        let answers = raw_as(
            skills.clone().wrap(Inner),
            era,
            "learner-a",
            &[
                json!({"method": "prompts/list"}),
                json!({"method": "prompts/get", "params": {"name": "python"}}),
                json!({"method": "prompts/get", "params": {"name": "greet"}}),
                json!({"method": "prompts/get", "params": {"name": "rust"}}),
                json!({"method": "prompts/get", "params": {"name": "nope"}}),
            ],
        )
        .await;
        // The first page is ours, then a cursor into the inner handler's.
        let mut names: Vec<Value> = answers[0]["result"]["prompts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|prompt| prompt["name"].clone())
            .collect();
        let cursor = answers[0]["result"]["nextCursor"].clone();
        assert!(cursor.is_string(), "{era:?} {}", answers[0]);
        let tail = raw_as(
            skills.clone().wrap(Inner),
            era,
            "learner-a",
            &[json!({"method": "prompts/list", "params": {"cursor": cursor}})],
        )
        .await;
        names.extend(
            tail[0]["result"]["prompts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|prompt| prompt["name"].clone()),
        );
        assert_eq!(
            names,
            [json!("ard"), json!("python"), json!("greet")],
            "{era:?}"
        );
        assert!(answers[1]["error"].is_null(), "{era:?} {}", answers[1]);
        assert_eq!(
            answers[2]["result"]["messages"][0]["content"]["text"], "hello",
            "{era:?}"
        );
        // A locked skill goes to the inner handler, as a name nobody has does.
        assert_eq!(
            answers[3]["error"].to_string().replace("rust", "{name}"),
            answers[4]["error"].to_string().replace("nope", "{name}"),
            "{era:?}"
        );
        assert!(
            answers[3]["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("inner:")
        );
    }
}
