//! The cost of a realistic access policy, in process: a server holding
//! `--skills` skills answers `skills/list` (first page) and `resources/read`
//! (a `SKILL.md`) without a policy, and with one that looks the skill up in
//! the caller's entitlements (a `HashSet` the auth layer put in the request
//! extensions). The caller owns every skill, so both answer the same bytes
//! and the difference is the policy's alone.
//!
//! Both servers sit behind the same stand-in for an auth layer, which puts
//! the HTTP request head, with the entitlements in its extensions, into each
//! request's context (what rmcp's streamable HTTP service does), and both
//! are reached through rmcp's client over an in-memory pipe (2025-11-25, so
//! no client-side cache). Rounds interleave the two servers; each round
//! times `--requests` sequential requests per method and server.
//!
//! Prints one JSON line per round and method, then a summary line per
//! method: the median of the per-round ratios (policy ÷ none).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rmcp::model::{
    ListSkillsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ServerConfig,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::{ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt};
use serde_json::json;
use skills_runtime::__private::SkillsRequests;
use skills_runtime::server::{Access, Caller};
use skills_runtime::{Skills, SkillsServer};

/// What the auth layer resolved: the skills the caller owns.
#[derive(Clone)]
struct Entitlements(Arc<HashSet<String>>);

/// Stands in for the auth layer and rmcp's HTTP service: every request's
/// context carries the HTTP request head with the entitlements.
#[derive(Clone)]
struct Authenticated {
    skills: SkillsServer,
    head: http::request::Parts,
}

impl Authenticated {
    fn context(&self, mut context: RequestContext<RoleServer>) -> RequestContext<RoleServer> {
        context.extensions.insert(self.head.clone());
        context
    }
}

impl ServerHandler for Authenticated {
    fn get_info(&self) -> ServerConfig {
        self.skills.config(&Caller::anonymous())
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        SkillsRequests::list_skills(&self.skills, request, &self.context(context))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        SkillsRequests::read_resource(&self.skills, &request, &self.context(context)).map(Into::into)
    }
}

struct Options {
    skills: usize,
    rounds: usize,
    requests: usize,
    tree: PathBuf,
}

fn options() -> Options {
    let mut options = Options {
        skills: 1000,
        rounds: 7,
        requests: 2000,
        tree: std::env::temp_dir().join("policy-cost-tree"),
    };
    let mut arguments = std::env::args().skip(1);
    while let Some(flag) = arguments.next() {
        let value = arguments.next().unwrap_or_default();
        match flag.as_str() {
            "--skills" => options.skills = value.parse().expect("--skills N"),
            "--rounds" => options.rounds = value.parse().expect("--rounds N"),
            "--requests" => options.requests = value.parse().expect("--requests N"),
            "--tree" => options.tree = value.into(),
            _ => {
                eprintln!("usage: policy-cost [--skills 1000] [--rounds 7] [--requests 2000] [--tree DIR]");
                std::process::exit(2);
            }
        }
    }
    options
}

/// `count` skills of one `SKILL.md` and one reference each, like a real platform's.
fn write_tree(root: &Path, count: usize) -> Skills {
    let _ = std::fs::remove_dir_all(root);
    for n in 0..count {
        let name = format!("skill-{n:04}");
        let folder = root.join(&name);
        std::fs::create_dir_all(folder.join("references")).unwrap();
        std::fs::write(
            folder.join("SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: Course {n}. Use when the learner asks about topic {n}.\n---\n# {name}\n\nRead [the guide](references/guide.md).\n{}",
                "Step by step instructions for the course.\n".repeat(20)
            ),
        )
        .unwrap();
        std::fs::write(folder.join("references/guide.md"), "A guide.\n".repeat(40)).unwrap();
    }
    skills_core::load(root, &skills_core::Options::default())
        .unwrap_or_else(|report| panic!("{report}"))
        .into_skills()
}

async fn connect(handler: Authenticated) -> RunningService<RoleClient, ()> {
    let (server_end, client_end) = tokio::io::duplex(1 << 22);
    tokio::spawn(skills_runtime::server::serve(handler, server_end));
    ().serve(client_end).await.expect("initialize")
}

/// Mean microseconds per request over `requests` sequential ones.
async fn time(client: &RunningService<RoleClient, ()>, method: &str, requests: usize, skills: usize) -> f64 {
    let start = Instant::now();
    for n in 0..requests {
        match method {
            "skills/list" => {
                let page = client.list_skills(None).await.expect("skills/list");
                assert!(!page.skills.is_empty());
            }
            _ => {
                let uri = format!("skill://skill-{:04}/SKILL.md", (n * 7919) % skills);
                client
                    .read_resource(ReadResourceRequestParams::new(uri))
                    .await
                    .expect("resources/read");
            }
        }
    }
    start.elapsed().as_secs_f64() * 1e6 / requests as f64
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let options = options();
    let skills = write_tree(&options.tree, options.skills);
    let owned: HashSet<String> = skills.skills().iter().map(|skill| skill.name().to_owned()).collect();
    let mut request = http::Request::new(());
    request.extensions_mut().insert(Entitlements(Arc::new(owned)));
    let head = request.into_parts().0;

    let none = SkillsServer::new(skills.clone());
    let policy = SkillsServer::builder(skills.clone())
        .access(|skill, caller| match caller.extension::<Entitlements>() {
            Some(owned) if owned.0.contains(skill.name()) => Access::Owned,
            _ => Access::Absent,
        })
        .build()
        .expect("a tree of valid skills is servable");
    let none = connect(Authenticated { skills: none, head: head.clone() }).await;
    let policy = connect(Authenticated { skills: policy, head }).await;

    // Warm both (entries, listings, view caches) before measuring.
    for client in [&none, &policy] {
        for method in ["skills/list", "resources/read"] {
            time(client, method, options.requests / 4 + 1, options.skills).await;
        }
    }
    for method in ["skills/list", "resources/read"] {
        let mut ratios = Vec::new();
        for round in 0..options.rounds {
            // Alternate which server goes first.
            let (first, second) = if round % 2 == 0 { (&none, &policy) } else { (&policy, &none) };
            let a = time(first, method, options.requests, options.skills).await;
            let b = time(second, method, options.requests, options.skills).await;
            let (none_us, policy_us) = if round % 2 == 0 { (a, b) } else { (b, a) };
            ratios.push(policy_us / none_us);
            println!(
                "{}",
                json!({"method": method, "round": round, "skills": options.skills,
                       "none_us": none_us, "policy_us": policy_us, "ratio": policy_us / none_us})
            );
        }
        let mut sorted = ratios.clone();
        let (low, high) = (
            sorted.iter().copied().fold(f64::INFINITY, f64::min),
            sorted.iter().copied().fold(0.0, f64::max),
        );
        println!(
            "{}",
            json!({"summary": method, "skills": options.skills, "rounds": options.rounds,
                   "median_ratio": median(&mut sorted), "min_ratio": low, "max_ratio": high})
        );
    }
}
