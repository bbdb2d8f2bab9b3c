//! `soak`: many clients at once for a while, every answer checked.
//!
//! `--sessions` clients each open a 2025-11-25 session (`initialize`, then
//! `Mcp-Session-Id` on every request, answers as server-sent events) and
//! `--stateless` clients send 2026-07-28 requests without one. Each loops
//! until `--secs` have passed, over a fixed mix: `resources/read` (4 in 9),
//! `skills/get` (2), `resources/directory/read` (2, every page) and
//! `skills/list` (1, every page), on skills, files and folders picked at
//! random (seeded). Every answer is compared with the manifest read before
//! the clock starts: a listing must equal it entry for entry, a `skills/get`
//! must return the listed entry, a read must carry the listed bytes (size
//! and sha256), a directory must list only known files (with their sizes)
//! and folders. The server's RSS is sampled every second.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::http::{LEGACY, Request, Server, client};
use crate::stats::{FileRef, collect_files, latency, proc_status_kb, read_matches};

#[derive(clap::Args)]
pub struct Soak {
    /// How long the clients run, in seconds.
    #[arg(long, default_value_t = 30)]
    secs: u64,
    /// Clients with a 2025-11-25 session each.
    #[arg(long, default_value_t = 64)]
    sessions: usize,
    /// 2026-07-28 clients without a session.
    #[arg(long, default_value_t = 16)]
    stateless: usize,
    /// Seed of each client's choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Writes the server's RSS here, one `{"t_s", "rss_kb"}` line per second.
    #[arg(long, value_name = "FILE")]
    rss_out: Option<PathBuf>,
    /// The server command, with `{port}` where the port goes. It must serve
    /// sessions (not `--stateless`) for the session clients.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

/// What the server listed before the clock started.
struct Manifest {
    /// Each skill's entry, by URI, as `skills/list` gave it.
    entries: BTreeMap<String, Value>,
    /// Every file, by URI.
    files: BTreeMap<String, FileRef>,
    /// Every folder that holds a file (skill roots included).
    folders: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Op {
    List,
    Get,
    Read,
    Directory,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::List => "skills/list",
            Op::Get => "skills/get",
            Op::Read => "resources/read",
            Op::Directory => "resources/directory/read",
        }
    }
}

/// The mix: 4 reads, 2 gets, 2 directory reads, 1 full listing in 9.
const MIX: [Op; 9] = [
    Op::Read,
    Op::Get,
    Op::Read,
    Op::Directory,
    Op::Read,
    Op::List,
    Op::Get,
    Op::Read,
    Op::Directory,
];

/// Per (client kind, operation): requests, failures, latencies.
#[derive(Default)]
struct Tally {
    requests: usize,
    errors: usize,
    mismatches: usize,
    micros: Vec<u32>,
}

struct Shared {
    url: String,
    manifest: Manifest,
    deadline: Instant,
    tallies: RefCell<BTreeMap<(&'static str, Op), Tally>>,
    failures: RefCell<Vec<String>>,
}

impl Shared {
    /// One request: its time, and why it failed if it did.
    fn record(&self, kind: &'static str, op: Op, micros: u32, error: Option<String>) {
        let mut tallies = self.tallies.borrow_mut();
        let tally = tallies.entry((kind, op)).or_default();
        tally.requests += 1;
        tally.micros.push(micros);
        if let Some(why) = error {
            tally.errors += 1;
            self.fail(format!("{kind} {}: {why}", op.name()));
        }
    }

    /// An answer (or a listing's pages together) that differs from the manifest.
    fn mismatch(&self, kind: &'static str, op: Op, why: String) {
        self.tallies
            .borrow_mut()
            .entry((kind, op))
            .or_default()
            .mismatches += 1;
        self.fail(format!("{kind} {}: mismatch: {why}", op.name()));
    }

    fn fail(&self, why: String) {
        let mut failures = self.failures.borrow_mut();
        if failures.len() < 20 {
            failures.push(why);
        }
    }
}

/// One client: a session, or none.
struct Client {
    http: reqwest::Client,
    session: Option<String>,
    next_id: u64,
    random: u64,
}

impl Client {
    fn kind(&self) -> &'static str {
        if self.session.is_some() {
            "session"
        } else {
            "stateless"
        }
    }

    fn pick(&mut self, len: usize) -> usize {
        self.random ^= self.random >> 12;
        self.random ^= self.random << 25;
        self.random ^= self.random >> 27;
        (self.random.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % len
    }

    /// One timed request; its result or why there is none.
    async fn call(
        &mut self,
        shared: &Shared,
        method: &str,
        params: Value,
    ) -> (u32, Result<Value, String>) {
        self.next_id += 1;
        let request = match self.session {
            Some(_) => Request::legacy(self.next_id, method, params),
            None => Request::modern(self.next_id, method, params),
        };
        let started = Instant::now();
        let result = request
            .call(&self.http, &shared.url, self.session.as_deref())
            .await;
        let micros = u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX);
        (micros, result)
    }

    /// Every page of a paginated method, each request tallied; the items.
    async fn all_pages(
        &mut self,
        shared: &Shared,
        op: Op,
        mut params: Value,
        items: &str,
    ) -> Option<Vec<Value>> {
        let mut all = Vec::new();
        loop {
            let (micros, result) = self.call(shared, op.name(), params.clone()).await;
            let page = match result {
                Ok(page) => page,
                Err(why) => {
                    shared.record(self.kind(), op, micros, Some(why));
                    return None;
                }
            };
            shared.record(self.kind(), op, micros, None);
            all.extend(page[items].as_array().cloned().unwrap_or_default());
            match page["nextCursor"].as_str() {
                Some(next) => params["cursor"] = json!(next),
                None => return Some(all),
            }
        }
    }

    async fn one(&mut self, shared: &Shared, op: Op) {
        let manifest = &shared.manifest;
        let kind = self.kind();
        match op {
            Op::List => {
                let Some(entries) = self.all_pages(shared, op, json!({}), "skills").await else {
                    return;
                };
                let listed: BTreeMap<String, Value> = entries
                    .into_iter()
                    .map(|entry| (entry["uri"].as_str().unwrap_or("").to_owned(), entry))
                    .collect();
                if listed != manifest.entries {
                    shared.mismatch(kind, op, "the listing differs from the manifest".into());
                }
            }
            Op::Get => {
                let index = self.pick(manifest.entries.len());
                let (uri, entry) = manifest.entries.iter().nth(index).unwrap();
                let (micros, result) = self.call(shared, op.name(), json!({ "uri": uri })).await;
                let matched = result.is_err()
                    || result
                        .as_ref()
                        .is_ok_and(|result| result["skill"] == *entry);
                shared.record(kind, op, micros, result.err());
                if !matched {
                    shared.mismatch(kind, op, format!("{uri} is not the listed entry"));
                }
            }
            Op::Read => {
                let index = self.pick(manifest.files.len());
                let file = manifest.files.values().nth(index).unwrap().clone();
                let (micros, result) = self
                    .call(shared, op.name(), json!({ "uri": file.uri }))
                    .await;
                let matched = result.is_err()
                    || result
                        .as_ref()
                        .is_ok_and(|result| read_matches(result, &file));
                shared.record(kind, op, micros, result.err());
                if !matched {
                    shared.mismatch(
                        kind,
                        op,
                        format!("{}: bytes differ from the digest", file.uri),
                    );
                }
            }
            Op::Directory => {
                let folder = manifest.folders[self.pick(manifest.folders.len())].clone();
                let Some(children) = self
                    .all_pages(shared, op, json!({ "uri": folder }), "resources")
                    .await
                else {
                    return;
                };
                if let Err(why) = check_directory(manifest, &folder, &children) {
                    shared.mismatch(kind, op, why);
                }
            }
        }
    }
}

/// A directory lists known files (with their sizes) and folders below it.
fn check_directory(manifest: &Manifest, folder: &str, children: &[Value]) -> Result<(), String> {
    if children.is_empty() {
        return Err(format!("{folder} listed nothing"));
    }
    for child in children {
        let uri = child["uri"].as_str().unwrap_or_default();
        if !uri.starts_with(&format!("{folder}/")) {
            return Err(format!("{folder} listed {uri}"));
        }
        if child["mimeType"] == "inode/directory" {
            continue;
        }
        match manifest.files.get(uri) {
            Some(file) if child["size"].as_u64() == Some(file.size) => {}
            _ => return Err(format!("{folder} listed {uri}, which is no listed file")),
        }
    }
    Ok(())
}

async fn read_manifest(http: &reqwest::Client, url: &str) -> Manifest {
    let mut entries = BTreeMap::new();
    let mut files = BTreeMap::new();
    let mut cursor: Option<String> = None;
    for id in 2.. {
        let params = cursor.map_or(json!({}), |cursor| json!({ "cursor": cursor }));
        let page = Request::modern(id, "skills/list", params)
            .call(http, url, None)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        collect_files(&page, &mut files);
        for entry in page["skills"].as_array().expect("skills") {
            entries.insert(
                entry["uri"].as_str().expect("uri").to_owned(),
                entry.clone(),
            );
        }
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    let folders: BTreeSet<String> = files
        .keys()
        .filter_map(|uri| uri.rsplit_once('/').map(|(folder, _)| folder.to_owned()))
        .collect();
    Manifest {
        entries,
        files,
        folders: folders.into_iter().collect(),
    }
}

/// Opens a 2025-11-25 session: `initialize`, then `notifications/initialized`.
async fn open_session(http: &reqwest::Client, url: &str) -> Result<String, String> {
    let initialize = Request::legacy(
        1,
        "initialize",
        json!({"protocolVersion": LEGACY, "capabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}},
               "clientInfo": {"name": "anchor-load-client", "version": "0"}}),
    );
    let answer = initialize
        .send(http, url, None)
        .await
        .map_err(|e| format!("initialize: {e}"))?;
    answer.result(1)?;
    let session = answer.session.ok_or("initialize: no Mcp-Session-Id")?;
    let initialized = http
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", LEGACY)
        .header("mcp-session-id", &session)
        .body(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .send()
        .await
        .map_err(|e| format!("initialized: {e}"))?;
    if initialized.status() != 202 {
        return Err(format!("initialized: HTTP {}", initialized.status()));
    }
    Ok(session)
}

async fn client_loop(shared: Rc<Shared>, session: bool, index: usize, seed: u64) {
    let http = client(1);
    let session = if session {
        match open_session(&http, &shared.url).await {
            Ok(session) => Some(session),
            Err(why) => {
                shared.fail(format!("session: {why}"));
                shared
                    .tallies
                    .borrow_mut()
                    .entry(("session", Op::List))
                    .or_default()
                    .errors += 1;
                return;
            }
        }
    } else {
        None
    };
    let mut client = Client {
        http,
        session,
        next_id: 1,
        random: seed.wrapping_mul(1_000_003).wrapping_add(index as u64 + 1) | 1,
    };
    let mut turn = client.pick(MIX.len());
    while Instant::now() < shared.deadline {
        client.one(&shared, MIX[turn % MIX.len()]).await;
        turn += 1;
    }
    if let Some(session) = &client.session {
        let _ = client
            .http
            .delete(&shared.url)
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", LEGACY)
            .send()
            .await;
    }
}

/// Runs the soak; prints the summary; whether every request succeeded and matched.
pub async fn run(options: &Soak) -> bool {
    let server = Server::spawn(&options.command);
    let http = client(1);
    server.wait_ready(&http).await;
    let manifest = read_manifest(&http, &server.url).await;
    let pid = server.pid();
    let started = Instant::now();
    let shared = Rc::new(Shared {
        url: server.url.clone(),
        manifest,
        deadline: started + Duration::from_secs(options.secs),
        tallies: RefCell::default(),
        failures: RefCell::default(),
    });
    let local = tokio::task::LocalSet::new();
    let rss: Rc<RefCell<Vec<(f64, u64)>>> = Rc::default();
    {
        let (rss, shared) = (rss.clone(), shared.clone());
        local.spawn_local(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(1));
            loop {
                tick.tick().await;
                rss.borrow_mut().push((
                    started.elapsed().as_secs_f64(),
                    proc_status_kb(pid, "VmRSS:"),
                ));
                if Instant::now() > shared.deadline {
                    break;
                }
            }
        });
    }
    for index in 0..options.sessions + options.stateless {
        let session = index < options.sessions;
        local.spawn_local(client_loop(shared.clone(), session, index, options.seed));
    }
    local.await;
    let secs = started.elapsed().as_secs_f64();
    let peak = proc_status_kb(pid, "VmHWM:");
    drop(server);

    let rss = rss.take();
    if let Some(path) = &options.rss_out {
        let lines: String = rss
            .iter()
            .map(|(t, kb)| {
                format!(
                    "{}\n",
                    json!({"t_s": (t * 10.0).round() / 10.0, "rss_kb": kb})
                )
            })
            .collect();
        std::fs::write(path, lines).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    let tallies = shared.tallies.take();
    let (mut requests, mut errors, mut mismatches) = (0, 0, 0);
    let mut by_op = serde_json::Map::new();
    let mut everything = Vec::new();
    for ((kind, op), mut tally) in tallies {
        requests += tally.requests;
        errors += tally.errors;
        mismatches += tally.mismatches;
        everything.extend_from_slice(&tally.micros);
        by_op
            .entry(op.name())
            .or_insert_with(|| json!({}))
            .as_object_mut()
            .unwrap()
            .insert(
                kind.to_owned(),
                json!({"requests": tally.requests, "errors": tally.errors, "mismatches": tally.mismatches,
                       "lat_ms": latency(&mut tally.micros)}),
            );
    }
    let rss_kb: Vec<u64> = rss.iter().map(|(_, kb)| *kb).collect();
    println!(
        "{}",
        json!({"summary": "soak", "secs": secs, "sessions": options.sessions, "stateless": options.stateless,
            "skills": shared.manifest.entries.len(), "files": shared.manifest.files.len(),
            "requests": requests, "req_per_s": requests as f64 / secs,
            "errors": errors, "mismatches": mismatches,
            "lat_ms": latency(&mut everything), "by_op": by_op,
            "rss_kb": {"first": rss_kb.first(), "max": rss_kb.iter().max(), "last": rss_kb.last(),
                       "samples": rss_kb.len(), "peak_hwm": peak},
            "cmd": options.command.join(" "), "failures": *shared.failures.borrow()})
    );
    requests > 0 && errors == 0 && mismatches == 0
}
