//! Per-user skills in one process: two learners connect to one server, each
//! sees the skills they own; a skill for sale is a teaser with an offer on
//! the catalog, and refused over MCP exactly like a skill that does not
//! exist; a purchase tells only the buyer's session.
//!
//! ```sh
//! cargo run --example learners
//! ```
//!
//! A real platform resolves the learner from a bearer token in its own tower
//! layer and puts it in the HTTP request extensions (see the README's
//! "Per-user skills"); here, in memory, the client's name stands for it.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, RwLock};

use clap::Parser;
use rmcp::model::{ClientConfig, Implementation, ReadResourceRequestParams};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use skills_runtime::server::{Access, Caller, Offer};
use skills_runtime::{Skills, SkillsServer, embed_skills, server};

// The recipe course is sold: declared gated, it may be locked and may not
// grant `allowed-tools`.
static SKILLS: Skills = embed_skills!("skills", gated = ["kitchen/*"]);

/// Runs two learners against one server and prints what each is shown.
#[derive(Parser)]
#[command(version)]
struct Options {}

/// Who owns which gated skills.
type Entitlements = Arc<RwLock<HashMap<String, HashSet<String>>>>;

/// What a tower layer would put in the HTTP request extensions.
#[derive(Clone)]
struct Learner(String);

/// The learner behind a request: the auth layer's extension over HTTP, the
/// client's name in this in-memory demo.
fn learner(caller: &Caller<'_>) -> Option<String> {
    if let Some(Learner(id)) = caller.extension::<Learner>() {
        return Some(id.clone());
    }
    Some(caller.mcp()?.client_info()?.name)
}

/// A learner's agent: prints the change notices it gets.
#[derive(Clone)]
struct Agent {
    info: ClientConfig,
    told: Arc<tokio::sync::Notify>,
}

impl ClientHandler for Agent {
    fn get_info(&self) -> ClientConfig {
        self.info.clone()
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        println!(
            "   {} was told: notifications/resources/list_changed",
            self.info.client_info.name
        );
        self.told.notify_one();
    }
}

async fn connect(
    server: &SkillsServer,
    name: &str,
) -> anyhow::Result<RunningService<RoleClient, Agent>> {
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    let serving = server.clone();
    tokio::spawn(server::serve(serving, server_end));
    let agent = Agent {
        info: ClientConfig::new(Default::default(), Implementation::new(name, "1")),
        told: Arc::default(),
    };
    Ok(agent.serve(client_end).await?)
}

async fn owned(client: &RunningService<RoleClient, Agent>) -> anyhow::Result<Vec<String>> {
    let entries = client.list_all_skills().await?;
    Ok(entries.into_iter().map(|entry| entry.uri).collect())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    Options::parse();
    let entitlements: Entitlements = Arc::default();
    entitlements
        .write()
        .unwrap()
        .insert("learner-b".into(), HashSet::from(["recipe-scaling".into()]));
    let offer = Offer::new(serde_json::json!({
        "price": "EUR 19",
        "buy": "https://larder.example/buy/recipe-scaling"
    }));
    let table = entitlements.clone();
    let server = SkillsServer::builder(SKILLS.clone())
        .instructions("Larder manages a kitchen's stock.")
        .access(move |skill, caller| {
            if !skill.is_gated() {
                return Access::Owned;
            }
            let owns = learner(caller).is_some_and(|who| {
                table
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
        })
        .notify_changes(true)
        .build()?;

    let a = connect(&server, "learner-a").await?;
    let b = connect(&server, "learner-b").await?;
    println!("1. skills/list, per learner");
    println!("   learner-a: {:?}", owned(&a).await?);
    println!("   learner-b: {:?}", owned(&b).await?);

    let instructions = a.peer_info().and_then(|info| info.instructions.clone());
    println!("2. learner-a's instructions name its own skills only:");
    for line in instructions.unwrap_or_default().lines() {
        if line.starts_with("- ") {
            println!("   {}", line.chars().take(90).collect::<String>());
        }
    }

    println!("3. not owned and nonexistent get the same refusal (after replacing the URI):");
    for uri in [
        "skill://kitchen/recipe-scaling/SKILL.md",
        "skill://kitchen/no-such-skill/SKILL.md",
    ] {
        let error = a
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .unwrap_err();
        println!("   {error}");
    }

    println!("4. the catalog a route builds for learner-a (same policy, same snapshot):");
    let mut request = http::Request::new(());
    request.extensions_mut().insert(Learner("learner-a".into()));
    let (parts, ()) = request.into_parts();
    let view = server.view(&Caller::from_http(&parts));
    let names: Vec<&str> = view.owned().map(|skill| skill.name()).collect();
    println!("   owned: {names:?}");
    for (skill, offer) in view.locked() {
        println!("   locked: {} {}", skill.name(), offer.json());
    }
    println!("   ETag: \"{}\"", view.fingerprint());

    println!("5. learner-a buys recipe-scaling");
    entitlements
        .write()
        .unwrap()
        .entry("learner-a".into())
        .or_default()
        .insert("recipe-scaling".into());
    let told = server.refresh_views(|_| {});
    a.service().told.notified().await;
    println!("   sessions told: {told}");
    println!("   learner-a now: {:?}", owned(&a).await?);
    a.cancel().await?;
    b.cancel().await?;
    Ok(())
}
