//! Per-caller access, in process, on both eras: a course platform's learners
//! each see the skills they own; a skill they do not own (locked for sale,
//! absent, or nonexistent) gets byte-identical answers on every path; what
//! depends on the caller (instructions, the tool, cursors, catalog views)
//! follows the owned set; and each session is told when, and only when, its
//! own view changes.

use skills_test_support as support;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use rmcp::model::{
    ClientRequest, CustomRequest, CustomResult, GetSkillRequestParams, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use skills_runtime::server::{Access, Caller, Offer, ViewChanges};
use skills_runtime::{Skill, Skills, SkillsServer};
use support::{ERAS, Era, NamedClient, connect_as, raw_as};

/// Who owns which gated skills, by learner: shared with the policy, as a
/// platform's entitlement cache would be.
type Entitlements = Arc<RwLock<HashMap<String, HashSet<String>>>>;

/// What an HTTP route's auth layer would put in the request extensions.
#[derive(Clone)]
struct Learner(String);

/// The learner a request comes from: the auth layer's extension over HTTP,
/// else the client's name (what these in-process clients can set).
fn learner(caller: &Caller<'_>) -> Option<String> {
    if let Some(Learner(id)) = caller.extension::<Learner>() {
        return Some(id.clone());
    }
    caller
        .mcp()?
        .client_info()
        .map(|info| info.name.to_string())
}

fn offer() -> Offer {
    Offer::new(json!({"price": "EUR 49", "buy": "https://courses.example/buy"}))
}

/// The platform's policy: public skills for everyone, gated ones to their
/// owners (a teaser with an offer for the others), `secret-plans` to the
/// admin only (absent for everyone else, not even for sale).
fn policy(
    entitlements: Entitlements,
) -> impl Fn(&Skill, &Caller<'_>) -> Access + Send + Sync + 'static {
    let offer = offer();
    move |skill, caller| {
        let who = learner(caller);
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

/// The platform's files; `version` changes the text of the skills a
/// replacement touches.
fn platform_files(version: &str) -> Vec<(String, String)> {
    let md = |name: &str, what: &str| support::skill_md(name, &format!("{what} Use when testing."));
    vec![
        ("ard/SKILL.md".into(), md("ard", "The platform.")),
        ("ard/references/buying.md".into(), "How to buy.".into()),
        ("courses/python/SKILL.md".into(), md("python", "Python.")),
        ("courses/python/references/ch1.md".into(), "py 1".into()),
        ("courses/rust/SKILL.md".into(), md("rust", "Rust.")),
        (
            "courses/rust/references/ch1.md".into(),
            format!("rust 1 {version}"),
        ),
        ("courses/rust/references/deep/x.md".into(), "deep".into()),
        (
            "courses/rust/advanced/SKILL.md".into(),
            md("advanced", "Advanced Rust."),
        ),
        ("secret-plans/SKILL.md".into(), md("secret-plans", "Plans.")),
        (
            "secret-plans/references/ch1.md".into(),
            format!("plans {version}"),
        ),
    ]
}

/// The platform's tree, loaded with every course declared gated.
fn load(name: &str, files: &[(String, String)]) -> Skills {
    let mut options = skills_core::Options::default();
    options.gated = vec!["courses/**".to_owned()];
    support::skills_of(name, files, &options)
}

/// A platform where learner-a owns python and learner-b owns rust.
fn platform(name: &str) -> (SkillsServer, Entitlements) {
    let entitlements: Entitlements = Arc::default();
    {
        let mut table = entitlements.write().unwrap();
        table.insert("learner-a".into(), HashSet::from(["python".into()]));
        table.insert("learner-b".into(), HashSet::from(["rust".into()]));
    }
    let server = SkillsServer::builder(load(name, &platform_files("v1")))
        .legacy_index(true)
        .list_supporting_files(true)
        .access(policy(entitlements.clone()))
        .notify_changes(true)
        .prompts(true)
        .build()
        .unwrap();
    (server, entitlements)
}

/// The requests naming the skill at `path` called `name`.
fn probes(path: &str, name: &str) -> Vec<Value> {
    support::probes::naming_skill(path, name, "references/ch1.md")
}

#[tokio::test]
async fn locked_absent_and_nonexistent_skills_answer_alike_on_every_path() {
    let (server, _) = platform("alike");
    for era in ERAS {
        // The owner reads every one of them: the paths are real.
        let owner = raw_as(
            server.clone(),
            era,
            "learner-b",
            &probes("courses/rust", "rust"),
        )
        .await;
        for answer in &owner {
            assert!(answer["error"].is_null(), "{era:?} {answer}");
            assert_ne!(answer["result"]["isError"], true, "{era:?} {answer}");
        }
        assert_eq!(
            owner[6]["result"]["completion"]["values"][0], "SKILL.md",
            "{era:?}"
        );

        // learner-a: rust is locked (for sale), secret-plans absent, nope nonexistent.
        let mut seen: Vec<(String, Vec<String>)> = Vec::new();
        for (path, name) in [
            ("courses/rust", "rust"),
            ("secret-plans", "secret-plans"),
            ("courses/nope", "nope"),
        ] {
            let answers = raw_as(server.clone(), era, "learner-a", &probes(path, name)).await;
            let normalized = answers
                .iter()
                .map(|answer| {
                    answer
                        .to_string()
                        .replace(&format!("skill://{path}"), "skill://{path}")
                        .replace(name, "{name}")
                })
                .collect();
            seen.push((path.to_owned(), normalized));
        }
        let (first_path, first) = &seen[0];
        for (path, answers) in &seen[1..] {
            for (index, (a, b)) in first.iter().zip(answers).enumerate() {
                assert_eq!(
                    a, b,
                    "{era:?}, request {index}: {first_path} and {path} answer differently"
                );
            }
        }
        // And they are refusals, not empty successes.
        for answer in &first[..6] {
            assert!(answer.contains("\"code\":-32602"), "{era:?} {answer}");
        }
    }
}

/// The URIs a caller's `skills/list` names, and the whole answers of the
/// listings that describe skills.
async fn listings(server: &SkillsServer, era: Era, who: &str) -> (Vec<String>, String) {
    let answers = raw_as(
        server.clone(),
        era,
        who,
        &[
            json!({"method": "skills/list"}),
            json!({"method": "resources/list"}),
            json!({"method": "resources/templates/list"}),
            json!({"method": "resources/read", "params": {"uri": "skill://index.json"}}),
            json!({"method": "tools/list"}),
        ],
    )
    .await;
    let uris = answers[0]["result"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["uri"].as_str().unwrap().to_owned())
        .collect();
    for answer in &answers {
        assert!(answer["error"].is_null(), "{era:?} {answer}");
    }
    (uris, Value::Array(answers).to_string())
}

#[tokio::test]
async fn each_learner_lists_what_they_own_and_is_told_of_nothing_else() {
    let (server, _) = platform("listings");
    for era in ERAS {
        let (a, a_text) = listings(&server, era, "learner-a").await;
        assert_eq!(
            a,
            ["skill://ard/SKILL.md", "skill://courses/python/SKILL.md"]
        );
        for other in ["courses/rust", "secret-plans", "advanced"] {
            assert!(!a_text.contains(other), "{era:?}: {other} in {a_text}");
        }
        let (b, b_text) = listings(&server, era, "learner-b").await;
        // advanced is gated and not owned by learner-b: locked, so not listed.
        assert_eq!(b, ["skill://ard/SKILL.md", "skill://courses/rust/SKILL.md"]);
        assert!(!b_text.contains("python"), "{era:?}: {b_text}");
        // A nested skill learner-b does not own is still readable through
        // the skill it is nested in, which holds its files.
        let read = raw_as(
            server.clone(),
            era,
            "learner-b",
            &[json!({"method": "resources/read", "params": {"uri": "skill://courses/rust/advanced/SKILL.md"}})],
        )
        .await;
        assert!(read[0]["error"].is_null(), "{}", read[0]);

        // Per-session instructions and tool: each names the caller's own skills.
        let a = connect_as(server.clone(), era, "learner-a").await;
        let b = connect_as(server.clone(), era, "learner-b").await;
        let instructions = |client: &NamedClient| {
            client
                .peer_info()
                .and_then(|info| info.instructions.clone())
                .unwrap_or_default()
        };
        let (a_says, b_says) = (instructions(&a), instructions(&b));
        assert!(
            a_says.contains("skill://courses/python/SKILL.md"),
            "{era:?}: {a_says}"
        );
        assert!(
            !a_says.contains("rust") && !a_says.contains("secret"),
            "{a_says}"
        );
        assert!(
            b_says.contains("skill://courses/rust/SKILL.md"),
            "{era:?}: {b_says}"
        );
        assert!(!b_says.contains("python"), "{b_says}");
        let tool = a.list_all_tools().await.unwrap()[0]
            .description
            .clone()
            .unwrap_or_default();
        assert!(tool.contains("python") && !tool.contains("rust"), "{tool}");
        // What every caller alike is told names only what everyone owns.
        let anonymous = server
            .instructions(&skills_runtime::server::Caller::anonymous())
            .unwrap_or_default();
        assert!(anonymous.contains("skill://ard/SKILL.md"), "{anonymous}");
        assert!(!anonymous.contains("courses"), "{anonymous}");
        a.cancel().await.unwrap();
        b.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_change_to_a_skill_the_learner_cannot_see_changes_nothing_they_get() {
    let (server, entitlements) = platform("hidden-change");
    let requests = |cursor: Option<&str>| {
        let mut list = vec![
            json!({"method": "skills/list"}),
            json!({"method": "resources/list"}),
            json!({"method": "resources/templates/list"}),
            json!({"method": "resources/directory/read", "params": {"uri": "skill://courses"}}),
            json!({"method": "resources/read", "params": {"uri": "skill://index.json"}}),
            json!({"method": "tools/list"}),
        ];
        if let Some(cursor) = cursor {
            list.push(json!({"method": "skills/list", "params": {"cursor": cursor}}));
        }
        list
    };
    let paged = SkillsServer::builder(load("hidden-change-paged", &platform_files("v1")))
        .skills_page_size(1)
        .legacy_index(true)
        .list_supporting_files(true)
        .access(policy(entitlements.clone()))
        .build()
        .unwrap();
    for era in ERAS {
        for server in [&server, &paged] {
            server
                .replace(load("hidden-change-v1", &platform_files("v1")))
                .unwrap();
            let before = raw_as(server.clone(), era, "learner-a", &requests(None)).await;
            let cursor = before[0]["result"]["nextCursor"]
                .as_str()
                .map(str::to_owned);
            let before = raw_as(
                server.clone(),
                era,
                "learner-a",
                &requests(cursor.as_deref()),
            )
            .await;
            let b_before = raw_as(server.clone(), era, "learner-b", &requests(None)).await;

            // Only skills learner-a cannot see change: rust (locked) and secret-plans (absent).
            assert!(
                server
                    .replace(load("hidden-change-v2", &platform_files("v2")))
                    .unwrap()
            );
            let after = raw_as(
                server.clone(),
                era,
                "learner-a",
                &requests(cursor.as_deref()),
            )
            .await;
            assert_eq!(before, after, "{era:?}: learner-a's answers changed");
            assert!(before.iter().all(|answer| answer["error"].is_null()));

            // learner-b owns rust: its answers changed.
            let b_after = raw_as(server.clone(), era, "learner-b", &requests(None)).await;
            assert_ne!(b_before[0], b_after[0], "{era:?}");
        }
    }
}

/// Waits for `client`'s next `list_changed`, failing (not hanging) if none comes.
async fn told(client: &NamedClient) {
    tokio::time::timeout(
        Duration::from_secs(30),
        client.service().notified.notified(),
    )
    .await
    .expect("a list_changed notification");
}

#[tokio::test]
async fn only_the_sessions_whose_view_changed_are_told() {
    let (server, entitlements) = platform("told");
    server
        .replace(load("told-v1", &platform_files("v1")))
        .unwrap();
    let a = connect_as(server.clone(), Era::Handshake, "learner-a").await;
    let b = connect_as(server.clone(), Era::Handshake, "learner-b").await;
    let admin = connect_as(server.clone(), Era::Handshake, "admin").await;
    // The server registers a session when it says it is initialized; a
    // round trip on each makes sure that happened.
    for client in [&a, &b, &admin] {
        client.list_all_skills().await.unwrap();
    }
    assert_eq!(server.listeners(), 3);
    let count = |client: &NamedClient| client.service().list_changed.load(Ordering::SeqCst);

    // rust and secret-plans change: learner-b (owns rust) and the admin
    // (sees secret-plans) are told; learner-a sees neither.
    assert!(
        server
            .replace(load("told-v2", &platform_files("v2")))
            .unwrap()
    );
    told(&b).await;
    told(&admin).await;
    a.list_all_skills().await.unwrap();
    assert_eq!((count(&a), count(&b), count(&admin)), (0, 1, 1));

    // A purchase: learner-a buys rust. Only learner-a is told.
    entitlements
        .write()
        .unwrap()
        .get_mut("learner-a")
        .unwrap()
        .insert("rust".into());
    assert_eq!(server.refresh_views(|_| {}), 1);
    told(&a).await;
    let uris: Vec<String> = a
        .list_all_skills()
        .await
        .unwrap()
        .into_iter()
        .map(|entry| entry.uri)
        .collect();
    assert!(
        uris.contains(&"skill://courses/rust/SKILL.md".to_owned()),
        "{uris:?}"
    );
    // Nothing changed since: nobody is told.
    assert_eq!(server.refresh_views(|_| {}), 0);
    // A revoke is a change too.
    entitlements
        .write()
        .unwrap()
        .get_mut("learner-a")
        .unwrap()
        .remove("rust");
    assert_eq!(server.refresh_views(|_| {}), 1);
    told(&a).await;
    assert_eq!((count(&a), count(&b), count(&admin)), (2, 1, 1));

    // Closed sessions are forgotten.
    admin.cancel().await.unwrap();
    b.cancel().await.unwrap();
    let mut left = server.listeners();
    for _ in 0..100 {
        if left == 1 {
            break;
        }
        tokio::task::yield_now().await;
        tokio::time::sleep(Duration::from_millis(10)).await;
        left = server.listeners();
    }
    assert_eq!(left, 1);
    a.cancel().await.unwrap();
}

/// A handler that delegates the skills methods and starts
/// watching the caller's view on a request of its own, as a
/// `subscriptions/listen` handler would.
#[derive(Clone)]
struct Watching {
    skills: SkillsServer,
    watches: Arc<std::sync::Mutex<Vec<ViewChanges>>>,
}

impl ServerHandler for Watching {
    fn get_info(&self) -> ServerConfig {
        self.skills
            .config(&skills_runtime::server::Caller::anonymous())
    }

    async fn on_custom_request(
        &self,
        _request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let changes = self.skills.watch_view(&context);
        self.watches.lock().unwrap().push(changes);
        Ok(CustomResult::new(json!({})))
    }

    skills_runtime::delegate_skills!(skills);
}

#[tokio::test]
async fn a_watcher_wakes_only_for_changes_to_its_callers_view() {
    let (server, entitlements) = platform("watch");
    server
        .replace(load("watch-v1", &platform_files("v1")))
        .unwrap();
    let handler = Watching {
        skills: server.clone(),
        watches: Arc::default(),
    };
    for era in ERAS {
        for who in ["learner-a", "learner-b"] {
            let client = connect_as(handler.clone(), era, who).await;
            client
                .send_request(ClientRequest::CustomRequest(CustomRequest::new(
                    "test/watch",
                    None,
                )))
                .await
                .unwrap();
            client.cancel().await.unwrap();
        }
    }
    let mut watches: Vec<ViewChanges> = std::mem::take(&mut *handler.watches.lock().unwrap());
    assert_eq!(watches.len(), 4);
    let before: Vec<String> = watches.iter().map(ViewChanges::fingerprint).collect();
    // learner-a's watchers (0 and 2) see the same view on both eras; learner-b's another.
    assert_eq!(before[0], before[2]);
    assert_eq!(before[1], before[3]);
    assert_ne!(before[0], before[1]);

    // rust changes: only learner-b's watchers wake, with the new fingerprint.
    server
        .replace(load("watch-v2", &platform_files("v2")))
        .unwrap();
    for index in [1, 3] {
        let now = tokio::time::timeout(Duration::from_secs(30), watches[index].changed())
            .await
            .expect("woken")
            .expect("the server is alive");
        assert_ne!(now, before[index]);
    }
    for index in [0, 2] {
        assert_eq!(watches[index].fingerprint(), before[index]);
    }

    // learner-a buys rust: only learner-a's watchers wake.
    entitlements
        .write()
        .unwrap()
        .get_mut("learner-a")
        .unwrap()
        .insert("rust".into());
    assert_eq!(server.refresh_views(|_| {}), 2);
    for index in [0, 2] {
        let now = tokio::time::timeout(Duration::from_secs(30), watches[index].changed())
            .await
            .expect("woken")
            .expect("the server is alive");
        assert_ne!(now, before[index]);
    }
    // A dropped watch is forgotten.
    watches.truncate(1);
    assert_eq!(server.listeners(), 1);
}

#[tokio::test]
async fn a_routes_view_is_the_callers_owned_skills_and_teasers() {
    let (server, entitlements) = platform("catalog");
    let parts = |who: &str| {
        let mut request = http::Request::new(());
        request.extensions_mut().insert(Learner(who.into()));
        request.into_parts().0
    };
    let a_parts = parts("learner-a");
    let a = server.view(&Caller::from_http(&a_parts));
    let names = |skills: Vec<&Skill>| {
        skills
            .iter()
            .map(|skill| skill.path().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(a.owned().collect()), ["ard", "courses/python"]);
    // Teasers: both rust skills are for sale; secret-plans is absent, not for sale.
    let teasers: Vec<(String, Value)> = a
        .locked()
        .map(|(skill, offer)| (skill.path().to_owned(), offer.json().clone()))
        .collect();
    assert_eq!(
        teasers,
        [
            ("courses/rust".to_owned(), offer().json().clone()),
            ("courses/rust/advanced".to_owned(), offer().json().clone())
        ]
    );
    assert!(a.is_private());
    assert!(a.owned_skill("python").is_some());
    for not_owned in ["rust", "secret-plans", "nope"] {
        assert!(a.owned_skill(not_owned).is_none(), "{not_owned}");
    }
    // No teaser for a skill readable through one the caller owns.
    let b_parts = parts("learner-b");
    let b = server.view(&Caller::from_http(&b_parts));
    assert_eq!(names(b.owned().collect()), ["ard", "courses/rust"]);
    assert_eq!(
        b.locked()
            .map(|(skill, _)| skill.path())
            .collect::<Vec<_>>(),
        ["courses/python"]
    );

    // The fingerprint is the one a set of exactly the owned skills has.
    let files = platform_files("v1");
    let only_owned: Vec<(String, String)> = files
        .iter()
        .filter(|(path, _)| path.starts_with("ard/") || path.starts_with("courses/python/"))
        .cloned()
        .collect();
    assert_eq!(
        a.fingerprint(),
        load("catalog-owned", &only_owned).fingerprint()
    );
    assert_ne!(a.fingerprint(), b.fingerprint());

    // The entry a route builds is the one skills/get answers.
    let python = a.owned_skill("python").unwrap();
    let entry = serde_json::to_value(skills_runtime::server::skill_entry(python)).unwrap();
    let client = connect_as(server.clone(), Era::Handshake, "learner-a").await;
    let got = client
        .get_skill(GetSkillRequestParams::new(
            "skill://courses/python/SKILL.md",
        ))
        .await
        .unwrap();
    assert_eq!(serde_json::to_value(got.skill).unwrap(), entry);
    client.cancel().await.unwrap();

    // The same snapshot as MCP: a replace() shows in the next view.
    entitlements.write().unwrap().clear();
    server
        .replace(load("catalog-v2", &platform_files("v2")))
        .unwrap();
    let after = server.view(&Caller::from_http(&a_parts));
    assert_eq!(names(after.owned().collect()), ["ard"]);
    let nobody = server.view(&Caller::anonymous());
    assert_eq!(nobody.fingerprint(), after.fingerprint());
}

#[tokio::test]
async fn a_policy_cannot_lock_a_skill_that_is_not_gated() {
    // This policy offers everything it does not give away, gated or not.
    let skills = load("not-gated", &platform_files("v1"));
    let server = SkillsServer::builder(skills)
        .access(|skill, _| {
            if skill.name() == "ard" {
                Access::Owned
            } else {
                Access::Locked(offer())
            }
        })
        .build()
        .unwrap();
    // The server says so once per skill, however often the policy is asked.
    let warnings = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let view = tracing::subscriber::with_default(CountWarnings(warnings.clone()), || {
        for _ in 0..3 {
            server.view(&Caller::anonymous());
        }
        server.view(&Caller::anonymous())
    });
    assert_eq!(warnings.load(Ordering::SeqCst), 1, "secret-plans, once");
    let teasers: Vec<&str> = view.locked().map(|(skill, _)| skill.path()).collect();
    // secret-plans is not gated: served as absent, with no teaser.
    assert_eq!(
        teasers,
        ["courses/python", "courses/rust", "courses/rust/advanced"]
    );
    let answers = raw_as(
        server,
        Era::Handshake,
        "anyone",
        &[json!({"method": "resources/read", "params": {"uri": "skill://secret-plans/SKILL.md"}})],
    )
    .await;
    assert_eq!(answers[0]["error"]["code"], -32602);
}

#[tokio::test]
async fn replicas_agree_on_a_learners_fingerprint_and_cursors() {
    let entitlements: Entitlements = Arc::default();
    entitlements.write().unwrap().insert(
        "learner-a".into(),
        HashSet::from(["python".into(), "rust".into()]),
    );
    let replica = |name: &str| {
        SkillsServer::builder(load(name, &platform_files("v1")))
            .skills_page_size(1)
            .access(policy(entitlements.clone()))
            .build()
            .unwrap()
    };
    let (one, two) = (replica("replica-1"), replica("replica-2"));
    for era in ERAS {
        let first = raw_as(
            one.clone(),
            era,
            "learner-a",
            &[json!({"method": "skills/list"})],
        )
        .await;
        let cursor = first[0]["result"]["nextCursor"]
            .as_str()
            .unwrap()
            .to_owned();
        let request = [json!({"method": "skills/list", "params": {"cursor": cursor}})];
        let from_one = raw_as(one.clone(), era, "learner-a", &request).await;
        let from_two = raw_as(two.clone(), era, "learner-a", &request).await;
        assert!(from_two[0]["error"].is_null(), "{}", from_two[0]);
        assert_eq!(from_one, from_two);
    }
    let request = http::Request::new(());
    let (parts, ()) = request.into_parts();
    assert_eq!(
        one.view(&Caller::from_http(&parts)).fingerprint(),
        two.view(&Caller::from_http(&parts)).fingerprint()
    );
}

/// Counts the warnings logged while it is the default subscriber.
struct CountWarnings(Arc<std::sync::atomic::AtomicUsize>);

impl tracing::Subscriber for CountWarnings {
    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        *metadata.level() <= tracing::Level::WARN
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        if *event.metadata().level() == tracing::Level::WARN {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test]
async fn what_every_caller_is_told_is_kept_until_access_changes() {
    use std::sync::atomic::AtomicBool;
    // Whether the platform shows its handbook to anyone, a switch the policy reads.
    let public = Arc::new(AtomicBool::new(true));
    let switch = public.clone();
    let server = SkillsServer::builder(load("anonymous", &platform_files("v1")))
        .access(move |skill, _| {
            if skill.name() == "ard" && switch.load(Ordering::SeqCst) {
                Access::Owned
            } else {
                Access::Absent
            }
        })
        .build()
        .unwrap();
    assert!(
        server
            .instructions(&skills_runtime::server::Caller::anonymous())
            .unwrap_or_default()
            .contains("skill://ard/SKILL.md")
    );
    public.store(false, Ordering::SeqCst);
    // rmcp asks for the server's info on every skills request: it is kept...
    assert!(
        server
            .instructions(&skills_runtime::server::Caller::anonymous())
            .unwrap_or_default()
            .contains("skill://ard/SKILL.md")
    );
    // ...until the author says access changed.
    server.refresh_views(|_| {});
    assert!(
        !server
            .instructions(&skills_runtime::server::Caller::anonymous())
            .unwrap_or_default()
            .contains("skill://ard/SKILL.md")
    );
}
