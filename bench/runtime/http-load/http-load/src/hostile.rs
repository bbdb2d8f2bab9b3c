//! `hostile`: an honest client's `skills/list` latency while a thousand
//! connections trickle their request heads (slowloris) and other clients
//! flood `initialize`, against the same client's latency on an idle server,
//! in alternating rounds; and how long each trickling connection stayed
//! open before the server closed it.
//!
//! The attack runs on a thread and runtime of its own, so the honest
//! client's timings are not its scheduling. Each trickling connection sends
//! the start of a request head, then one byte a second; when the server
//! closes it, its lifetime is recorded and it connects again, so that
//! `tricklers` are open throughout the attack.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::AsyncWriteExt as _;

use crate::http::{Request, Server, client};
use crate::stats::latency;

#[derive(clap::Args)]
pub struct Hostile {
    /// Connections trickling their request heads during the attack.
    #[arg(long, default_value_t = 1000)]
    tricklers: usize,
    /// Clients flooding `initialize` (each in a loop, one at a time).
    #[arg(long, default_value_t = 1)]
    flooders: usize,
    /// Honest `skills/list` requests per phase.
    #[arg(long, default_value_t = 1000)]
    requests: usize,
    /// Idle/attack alternations.
    #[arg(long, default_value_t = 2)]
    rounds: usize,
    /// The server's header timeout, in seconds (what every trickling
    /// connection must be closed within).
    #[arg(long, default_value_t = 10.0)]
    header_timeout_s: f64,
    /// The server command, with `{port}` where the port goes.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

/// What the attack saw.
#[derive(Default)]
struct Seen {
    /// Trickling connections closed by the server, and how long each was open.
    lifetimes_ms: std::sync::Mutex<Vec<u32>>,
    /// Trickling connections that could not connect.
    refused: AtomicU64,
    initialize_ok: AtomicU64,
    initialize_refused: AtomicU64,
    initialize_failed: AtomicU64,
}

pub async fn run(options: &Hostile) -> bool {
    let server = Server::spawn(&options.command);
    let honest = client(1);
    server.wait_ready(&honest).await;
    let address = server
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    let seen = Arc::new(Seen::default());
    let mut ok = true;
    let (mut idle_all, mut attack_all) = (Vec::new(), Vec::new());
    for round in 0..options.rounds {
        // As long as an attack phase, so that both p99s rest on as many samples.
        let at_least = Duration::from_secs_f64(options.header_timeout_s * 1.5 + 3.0);
        let idle = measure_for(&honest, &server.url, options.requests, at_least).await;
        print_phase(round, "idle", &mut idle.clone());
        idle_all.extend(idle);

        let stop = Arc::new(AtomicBool::new(false));
        let attack = {
            let (stop, seen, address, url) = (
                stop.clone(),
                seen.clone(),
                address.clone(),
                server.url.clone(),
            );
            let (tricklers, flooders) = (options.tricklers, options.flooders);
            std::thread::spawn(move || {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime")
                    .block_on(attack(&address, &url, tricklers, flooders, stop, seen))
            })
        };
        // Let every trickling connection open before timing; time at least
        // until the first ones have been cut, and for a while after.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let at_least = Duration::from_secs_f64(options.header_timeout_s * 1.5);
        let attacked = measure_for(&honest, &server.url, options.requests, at_least).await;
        print_phase(round, "attack", &mut attacked.clone());
        attack_all.extend(attacked);
        stop.store(true, Ordering::SeqCst);
        attack.join().expect("the attack thread");
    }
    let (mut idle_all, mut attack_all) = (idle_all, attack_all);
    let idle = latency(&mut idle_all);
    let attacked = latency(&mut attack_all);
    let mut lifetimes = seen
        .lifetimes_ms
        .lock()
        .map(|lifetimes| lifetimes.clone())
        .unwrap_or_default();
    let closed = lifetimes.len();
    let lifetime = latency(&mut lifetimes.iter().map(|&ms| ms * 1000).collect::<Vec<_>>());
    let bound_ms = options.header_timeout_s * 1e3;
    let within = lifetimes
        .iter()
        .all(|&ms| f64::from(ms) <= bound_ms + 1000.0);
    lifetimes.sort_unstable();
    let ratio =
        attacked["p99"].as_f64().unwrap_or(f64::NAN) / idle["p99"].as_f64().unwrap_or(f64::NAN);
    ok &= within && closed > 0;
    println!(
        "{}",
        json!({
            "summary": "hostile",
            "cmd": options.command.join(" "),
            "tricklers": options.tricklers,
            "flooders": options.flooders,
            "idle": idle,
            "attack": attacked,
            "p99_ratio": ratio,
            "trickling_closed": closed,
            "trickling_open_s": {
                "p50": lifetime["p50"].as_f64().map(|ms| ms / 1e3),
                "max": lifetime["max"].as_f64().map(|ms| ms / 1e3),
            },
            "header_timeout_s": options.header_timeout_s,
            "all_closed_within_timeout": within,
            "trickling_refused": seen.refused.load(Ordering::SeqCst),
            "initialize": {
                "ok": seen.initialize_ok.load(Ordering::SeqCst),
                "refused": seen.initialize_refused.load(Ordering::SeqCst),
                "failed": seen.initialize_failed.load(Ordering::SeqCst),
            },
        })
    );
    ok
}

fn print_phase(round: usize, phase: &str, micros: &mut [u32]) {
    println!(
        "{}",
        json!({"bench": "hostile", "round": round, "phase": phase, "skills_list": latency(micros)})
    );
}

/// `requests` stateless `skills/list` requests, one at a time; each one's
/// time in microseconds.
async fn measure(client: &reqwest::Client, url: &str, requests: usize) -> Vec<u32> {
    let mut micros = Vec::with_capacity(requests);
    for n in 0..requests {
        let request = Request::modern(n as u64 + 1, "skills/list", json!({}));
        let started = Instant::now();
        let result = request.call(client, url, None).await;
        let elapsed = started.elapsed();
        if let Err(error) = result {
            eprintln!("the honest client was refused: {error}");
        }
        micros.push(u32::try_from(elapsed.as_micros()).unwrap_or(u32::MAX));
    }
    micros
}

/// [`measure`], going on until `at_least` has passed too.
async fn measure_for(
    client: &reqwest::Client,
    url: &str,
    requests: usize,
    at_least: Duration,
) -> Vec<u32> {
    let started = Instant::now();
    let mut micros = measure(client, url, requests).await;
    while started.elapsed() < at_least {
        micros.extend(measure(client, url, requests.min(100)).await);
    }
    micros
}

/// Tricklers and flooders until `stop`.
async fn attack(
    address: &str,
    url: &str,
    tricklers: usize,
    flooders: usize,
    stop: Arc<AtomicBool>,
    seen: Arc<Seen>,
) {
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..tricklers {
        let (address, stop, seen) = (address.to_owned(), stop.clone(), seen.clone());
        tasks.spawn(async move {
            while !stop.load(Ordering::SeqCst) {
                trickle(&address, &stop, &seen).await;
            }
        });
    }
    for _ in 0..flooders {
        let (url, stop, seen) = (url.to_owned(), stop.clone(), seen.clone());
        tasks.spawn(async move {
            let client = client(1);
            let mut id = 0;
            while !stop.load(Ordering::SeqCst) {
                id += 1;
                let initialize = Request::legacy(
                    id,
                    "initialize",
                    json!({"protocolVersion": "2025-11-25", "capabilities": {},
                           "clientInfo": {"name": "flood", "version": "0"}}),
                );
                match initialize.send(&client, &url, None).await {
                    Ok(answer) if answer.status == 200 => &seen.initialize_ok,
                    Ok(_) => &seen.initialize_refused,
                    Err(_) => &seen.initialize_failed,
                }
                .fetch_add(1, Ordering::SeqCst);
            }
        });
    }
    while tasks.join_next().await.is_some() {}
}

/// One trickling connection, until the server closes it (its lifetime is
/// recorded) or the attack stops.
async fn trickle(address: &str, stop: &AtomicBool, seen: &Seen) {
    let Ok(mut stream) = tokio::net::TcpStream::connect(address).await else {
        seen.refused.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(100)).await;
        return;
    };
    let opened = Instant::now();
    let head = format!("POST /mcp HTTP/1.1\r\nHost: {address}\r\nX-Trickle: ");
    if stream.write_all(head.as_bytes()).await.is_err() {
        return;
    }
    let mut probe = [0u8; 64];
    loop {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        tokio::select! {
            read = tokio::io::AsyncReadExt::read(&mut stream, &mut probe) => {
                // Closed (or answered and closed): the server let go.
                if matches!(read, Ok(0) | Err(_)) {
                    break;
                }
            }
            () = tokio::time::sleep(Duration::from_secs(1)) => {
                if stream.write_all(b"a").await.is_err() {
                    break;
                }
            }
        }
    }
    let lifetime = u32::try_from(opened.elapsed().as_millis()).unwrap_or(u32::MAX);
    if let Ok(mut lifetimes) = seen.lifetimes_ms.lock() {
        lifetimes.push(lifetime);
    }
}
