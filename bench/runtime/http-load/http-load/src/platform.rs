//! `platform`: one learner cannot slow down the others, on the course
//! platform (examples/course-platform), on SQLite or PostgreSQL.
//!
//! 1. Idle: learner-b's `initialize` (a new session each time, ended with
//!    `DELETE` untimed) and `skills/list` (in one session), one at a time.
//! 2. Loaded: learner-a opens `sessions` sessions and `flooders` clients
//!    post orders (`POST /api/orders`) without pause; learner-b is measured
//!    the same way meanwhile. Idle and loaded alternate for `rounds`.
//! 3. With `listeners` sessions of learner-a open, learner-b's session
//!    listens (`GET /mcp`), and `grants` grants and revokes of a course to
//!    learner-b are made by the platform's own `grant`/`revoke` commands:
//!    each timed from the command's return (its commit is done) to the
//!    `notifications/resources/list_changed` on the stream.
//!
//! The platform is started with `--max-sessions-per-learner` at least
//! `sessions` (the default cap, 100, would close learner-a's idlest
//! sessions instead: see the guide).

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::http::{Server, client};
use crate::stats::latency;

#[derive(clap::Args)]
pub struct Platform {
    /// The course platform's binary (for `token`, `grant`, `revoke`).
    #[arg(long)]
    cli: PathBuf,
    /// The database (a SQLite path or a PostgreSQL URL); `--db {db}` in the
    /// server command is replaced by it.
    #[arg(long)]
    db: String,
    /// A label for the rows (sqlite, postgres).
    #[arg(long, default_value = "sqlite")]
    store: String,
    /// learner-a's open sessions during the load.
    #[arg(long, default_value_t = 2000)]
    sessions: usize,
    /// Clients posting orders as learner-a during the load.
    #[arg(long, default_value_t = 4)]
    flooders: usize,
    /// learner-b's requests of each kind per phase.
    #[arg(long, default_value_t = 200)]
    requests: usize,
    /// Idle/loaded alternations.
    #[arg(long, default_value_t = 2)]
    rounds: usize,
    /// learner-a's open sessions while grants are timed.
    #[arg(long, default_value_t = 1000)]
    listeners: usize,
    /// Grants and revokes timed.
    #[arg(long, default_value_t = 50)]
    grants: usize,
    /// The server command, with `{port}` and `{db}`.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

const INITIALIZE: &str = r#"{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}"#;

/// `course-platform ARGS --db DB`'s stdout, trimmed; panics when it fails.
fn platform(options: &Platform, args: &[&str]) -> String {
    let output = Command::new(&options.cli)
        .args(args)
        .args(["--db", &options.db])
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", options.cli.display()));
    assert!(output.status.success(), "{args:?}: {output:?}");
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// A POST to `url` as the holder of `token`.
fn post(
    http: &reqwest::Client,
    url: &str,
    token: &str,
    session: Option<&str>,
) -> reqwest::RequestBuilder {
    let mut request = http
        .post(url)
        .bearer_auth(token)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    request
}

/// Opens a session (initialize, then initialized); its id.
async fn open(http: &reqwest::Client, url: &str, token: &str) -> Result<String, String> {
    let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{INITIALIZE}}}"#);
    let answer = post(http, url, token, None)
        .body(body)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if answer.status() != 200 {
        return Err(format!("initialize: HTTP {}", answer.status()));
    }
    let session = answer
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .ok_or("initialize: no session id")?
        .to_owned();
    answer.bytes().await.map_err(|e| e.to_string())?;
    post(http, url, token, Some(&session))
        .body(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    Ok(session)
}

async fn close(http: &reqwest::Client, url: &str, token: &str, session: &str) {
    let _ = http
        .delete(url)
        .bearer_auth(token)
        .header("mcp-session-id", session)
        .send()
        .await;
}

/// learner-b's `initialize` and `skills/list` times, `requests` each.
async fn measure(
    http: &reqwest::Client,
    url: &str,
    token: &str,
    requests: usize,
) -> (Vec<u32>, Vec<u32>) {
    let (mut initialize, mut list) = (Vec::new(), Vec::new());
    for _ in 0..requests {
        let started = Instant::now();
        let session = open(http, url, token).await;
        initialize.push(elapsed_us(started));
        if let Ok(session) = session {
            close(http, url, token, &session).await;
        } else {
            eprintln!("learner-b's initialize failed: {session:?}");
        }
    }
    let session = open(http, url, token).await.expect("learner-b's session");
    for n in 0..requests {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{},"method":"skills/list"}}"#,
            n + 2
        );
        let started = Instant::now();
        let answer = post(http, url, token, Some(&session))
            .body(body)
            .send()
            .await;
        let listed = match answer {
            Ok(answer) if answer.status() == 200 => answer
                .bytes()
                .await
                .is_ok_and(|body| body.windows(8).any(|w| w == b"\"skills\"")),
            _ => false,
        };
        list.push(elapsed_us(started));
        if !listed {
            eprintln!("learner-b's skills/list failed");
        }
    }
    close(http, url, token, &session).await;
    (initialize, list)
}

fn elapsed_us(started: Instant) -> u32 {
    u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX)
}

fn row(options: &Platform, round: usize, phase: &str, op: &str, micros: &mut [u32]) {
    println!(
        "{}",
        json!({"bench": "platform", "store": options.store, "round": round, "phase": phase, "op": op, "latency": latency(micros)})
    );
}

/// Opens `count` sessions of `token`, 32 at a time.
async fn open_many(url: &str, token: &str, count: usize) -> Vec<String> {
    let http = client(32);
    let mut sessions = Vec::with_capacity(count);
    let mut pending = tokio::task::JoinSet::new();
    for _ in 0..count {
        if pending.len() >= 32
            && let Some(Ok(Ok(session))) = pending.join_next().await
        {
            sessions.push(session);
        }
        let (http, url, token) = (http.clone(), url.to_owned(), token.to_owned());
        pending.spawn(async move { open(&http, &url, &token).await });
    }
    while let Some(done) = pending.join_next().await {
        if let Ok(Ok(session)) = done {
            sessions.push(session);
        }
    }
    sessions
}

/// `flooders` clients posting orders until `stop`, counting those placed.
async fn flood_orders(
    base: String,
    token: String,
    flooders: usize,
    stop: Arc<AtomicBool>,
    orders: Arc<AtomicU64>,
) {
    let mut flood = tokio::task::JoinSet::new();
    for _ in 0..flooders {
        let (base, token, stop, orders) =
            (base.clone(), token.clone(), stop.clone(), orders.clone());
        flood.spawn(async move {
            let http = client(1);
            while !stop.load(Ordering::SeqCst) {
                let answer = http
                    .post(format!("{base}/api/orders"))
                    .bearer_auth(&token)
                    .header("content-type", "application/json")
                    .body(r#"{"course":"async-rust"}"#)
                    .send()
                    .await;
                if let Ok(answer) = answer
                    && answer.status() == 201
                {
                    orders.fetch_add(1, Ordering::SeqCst);
                }
            }
        });
    }
    while flood.join_next().await.is_some() {}
}

pub async fn run(options: &Platform) -> bool {
    let token_a = platform(options, &["token", "learner-a"]);
    let token_b = platform(options, &["token", "learner-b"]);
    let command: Vec<String> = options
        .command
        .iter()
        .map(|arg| arg.replace("{db}", &options.db))
        .collect();
    let server = Server::spawn(&command);
    let http = client(4);
    server.wait_ready(&http).await;
    let url = server.url.clone();
    let base = url.trim_end_matches("/mcp").to_owned();
    let (mut idle_init, mut idle_list, mut load_init, mut load_list) =
        (vec![], vec![], vec![], vec![]);
    let mut orders_total = 0;
    let mut ok = true;
    for round in 0..options.rounds {
        let (mut init, mut list) = measure(&http, &url, &token_b, options.requests).await;
        row(options, round, "idle", "initialize", &mut init);
        row(options, round, "idle", "skills/list", &mut list);
        idle_init.extend(init);
        idle_list.extend(list);

        let held = open_many(&url, &token_a, options.sessions).await;
        ok &= held.len() == options.sessions;
        let stop = Arc::new(AtomicBool::new(false));
        let orders = Arc::new(AtomicU64::new(0));
        // The flood runs on a thread and runtime of its own, so learner-b's
        // times are the server's, not this client's scheduling.
        let flood = {
            let (stop, orders, base, token) =
                (stop.clone(), orders.clone(), base.clone(), token_a.clone());
            let flooders = options.flooders;
            std::thread::spawn(move || {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime")
                    .block_on(flood_orders(base, token, flooders, stop, orders));
            })
        };
        tokio::time::sleep(Duration::from_millis(500)).await;
        let started = Instant::now();
        let (mut init, mut list) = measure(&http, &url, &token_b, options.requests).await;
        let flood_s = started.elapsed().as_secs_f64();
        stop.store(true, Ordering::SeqCst);
        flood.join().expect("the flood thread");
        let placed = orders.load(Ordering::SeqCst);
        orders_total += placed;
        println!(
            "{}",
            json!({"bench": "platform", "store": options.store, "round": round, "phase": "loaded",
                   "learner_a_sessions": held.len(), "orders": placed, "orders_per_s": placed as f64 / flood_s})
        );
        row(options, round, "loaded", "initialize", &mut init);
        row(options, round, "loaded", "skills/list", &mut list);
        load_init.extend(init);
        load_list.extend(list);
        let closer = client(32);
        for chunk in held.chunks(64) {
            let mut closing = tokio::task::JoinSet::new();
            for session in chunk {
                let (closer, url, token, session) = (
                    closer.clone(),
                    url.clone(),
                    token_a.clone(),
                    session.clone(),
                );
                closing.spawn(async move { close(&closer, &url, &token, &session).await });
            }
            while closing.join_next().await.is_some() {}
        }
    }

    // Grant → list_changed with `listeners` other sessions open.
    let held = open_many(&url, &token_a, options.listeners).await;
    let session = open(&http, &url, &token_b)
        .await
        .expect("learner-b's session");
    let stream = http
        .get(&url)
        .bearer_auth(&token_b)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &session)
        .send()
        .await
        .expect("learner-b's event stream");
    assert_eq!(stream.status(), 200, "the event stream");
    let (notices, mut noticed) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut stream = stream;
        let mut seen = String::new();
        while let Ok(Some(chunk)) = stream.chunk().await {
            seen.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(at) = seen.find("notifications/resources/list_changed") {
                let _ = notices.send(Instant::now());
                seen.drain(..at + 1);
            }
        }
    });
    let mut latencies = Vec::new();
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for n in 0..options.grants {
        // A pause of 0-300 ms first, so that grants do not fall in step
        // with the server's poll (SQLite) right after each notice.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        tokio::time::sleep(Duration::from_millis(state % 300)).await;
        let verb = if n % 2 == 0 { "grant" } else { "revoke" };
        platform(options, &[verb, "learner-b", "async-rust"]);
        let committed = Instant::now();
        match tokio::time::timeout(Duration::from_secs(10), noticed.recv()).await {
            Ok(Some(at)) => latencies.push(
                u32::try_from(at.saturating_duration_since(committed).as_micros()).unwrap_or(0),
            ),
            _ => {
                eprintln!("{verb} #{n}: no list_changed within 10 s");
                ok = false;
            }
        }
    }
    println!(
        "{}",
        json!({"bench": "platform", "store": options.store, "phase": "grants", "op": "grant->list_changed",
               "open_sessions": held.len() + 1, "latency": latency(&mut latencies)})
    );
    let (idle_i, idle_l) = (latency(&mut idle_init), latency(&mut idle_list));
    let (load_i, load_l) = (latency(&mut load_init), latency(&mut load_list));
    let ratio = |loaded: &serde_json::Value, idle: &serde_json::Value| {
        loaded["p99"].as_f64().unwrap_or(f64::NAN) / idle["p99"].as_f64().unwrap_or(f64::NAN)
    };
    println!(
        "{}",
        json!({"summary": "platform", "store": options.store, "sessions": options.sessions, "flooders": options.flooders,
               "orders": orders_total,
               "initialize": {"idle": idle_i, "loaded": load_i, "p99_ratio": ratio(&load_i, &idle_i)},
               "skills_list": {"idle": idle_l, "loaded": load_l, "p99_ratio": ratio(&load_l, &idle_l)}})
    );
    ok
}
