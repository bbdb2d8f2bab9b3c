//! A streamable-HTTP twin of ../shared/bench/peers/load-client: the same measurements and request
//! mix, over MCP 2026-07-28 stateless POSTs instead of stdio.
//!
//! usage:
//!   http-load startup    [opts] -- <server command, with {port} where the port goes>
//!   http-load throughput [opts] -- <server command, with {port} where the port goes>
//!
//! options:
//!   --runs R      startup: processes to start (default 15); throughput: processes (default 3)
//!   --first M     startup: the request timed after `server/discover` (default skills/list)
//!   --n N         throughput: timed resources/read requests per process (default 20000)
//!   --window W    throughput: requests in flight (default 16), one keep-alive connection each
//!   --seed S      throughput: seed of the file-order permutation (default 1)
//!   --no-verify   throughput: skip the untimed pass that reads every file once and checks
//!                 uri, size and sha256 digest against the skills/list manifest
//!
//! Every request is `POST http://127.0.0.1:<port>/mcp` with `content-type: application/json`,
//! `accept: application/json, text/event-stream`, `mcp-protocol-version: 2026-07-28`,
//! `mcp-method: <method>` (and `mcp-name: <uri>` for resources/read), and a JSON-RPC body whose
//! params carry `_meta` (protocolVersion, clientInfo, clientCapabilities), as load-client's
//! `--proto modern`. Answers may be JSON or SSE (`data:` lines); both are parsed.
//!
//! startup: the client picks a free port, takes t0 just before spawn, then sends
//! `server/discover` until the server accepts the connection (retrying every 0.5 ms);
//! `ready_ms` is its answer, `first_ms` the first page of `--first`. The server is then killed.
//! throughput: after discover + skills/list (all pages), the file URIs (deduplicated, sorted,
//! shuffled with the seed, exactly as load-client does) are requested round-robin, N times,
//! by W tasks on one client thread, each with its own connection. Responses are fully parsed
//! (serde_json, values ignored) and counted. Server peak RSS is VmHWM of the direct child
//! (start the binary/interpreter directly); CPU is utime+stime from /proc.
//! Output: one JSON object per run, with the same keys as load-client, then a "summary".
use std::process::{Child, Command, Stdio};
use std::rc::Rc;
use std::cell::Cell;
use std::time::{Duration, Instant};

use base64::Engine;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const PROTOCOL: &str = "2026-07-28";

struct Opts {
    mode: String,
    runs: Option<usize>,
    first: String,
    n: usize,
    window: usize,
    seed: u64,
    verify: bool,
    cmd: Vec<String>,
}

fn parse_args() -> Opts {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dash = args.iter().position(|a| a == "--").expect("missing -- <server command>");
    let (flags, cmd) = (&args[..dash], args[dash + 1..].to_vec());
    assert!(!cmd.is_empty(), "missing server command");
    let mut o = Opts {
        mode: flags.first().cloned().expect("mode: startup | throughput"),
        runs: None,
        first: "skills/list".into(),
        n: 20000,
        window: 16,
        seed: 1,
        verify: true,
        cmd,
    };
    let mut i = 1;
    while i < flags.len() {
        let v = || flags.get(i + 1).cloned().expect("flag needs a value");
        match flags[i].as_str() {
            "--runs" => o.runs = Some(v().parse().unwrap()),
            "--first" => o.first = v(),
            "--n" => o.n = v().parse().unwrap(),
            "--window" => o.window = v().parse().unwrap(),
            "--seed" => o.seed = v().parse().unwrap(),
            "--no-verify" => {
                o.verify = false;
                i += 1;
                continue;
            }
            f => panic!("unknown flag {f}"),
        }
        i += 2;
    }
    o
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn spawn(cmd: &[String]) -> Server {
        let port = free_port().to_string();
        let cmd: Vec<String> = cmd.iter().map(|a| a.replace("{port}", &port)).collect();
        let child = Command::new(&cmd[0])
            .args(&cmd[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
        Server { child, url: format!("http://127.0.0.1:{port}/mcp") }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientInfo": {"name": "anchor-load-client", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}}
    })
}

/// A ready-to-send request: body and the routing headers.
struct Req {
    method: &'static str,
    name: Option<String>,
    body: Vec<u8>,
}

fn request(id: u64, method: &'static str, mut params: Value) -> Req {
    params["_meta"] = meta();
    let name = if method == "resources/read" { params["uri"].as_str().map(str::to_owned) } else { None };
    let body = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).unwrap();
    Req { method, name, body }
}

async fn send(client: &reqwest::Client, url: &str, r: &Req) -> Result<(bool, Vec<u8>), reqwest::Error> {
    let mut b = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", PROTOCOL)
        .header("mcp-method", r.method);
    if let Some(name) = &r.name {
        b = b.header("mcp-name", name);
    }
    let resp = b.body(r.body.clone()).send().await?;
    let sse = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    let bytes = resp.bytes().await?;
    Ok((sse, bytes.to_vec()))
}

/// The JSON-RPC messages of an answer: the body itself, or each SSE `data:` payload.
fn messages(sse: bool, body: &[u8]) -> Vec<&[u8]> {
    if !sse {
        return vec![body];
    }
    body.split(|&b| b == b'\n')
        .filter_map(|line| line.strip_prefix(b"data:"))
        .map(|d| d.strip_prefix(b" ").unwrap_or(d))
        .map(|d| d.strip_suffix(b"\r").unwrap_or(d))
        .filter(|d| !d.is_empty())
        .collect()
}

async fn call(client: &reqwest::Client, url: &str, id: u64, method: &'static str, params: Value) -> (Value, usize) {
    let (sse, body) = send(client, url, &request(id, method, params)).await.unwrap_or_else(|e| panic!("{method}: {e}"));
    for m in messages(sse, &body) {
        if let Ok(v) = serde_json::from_slice::<Value>(m)
            && v.get("id").and_then(Value::as_u64) == Some(id)
        {
            if let Some(e) = v.get("error") {
                panic!("{method} failed: {e}");
            }
            return (v["result"].clone(), body.len());
        }
    }
    panic!("{method}: no response with id {id} in {}", String::from_utf8_lossy(&body));
}

fn proc_status_kb(pid: u32, key: &str) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn proc_cpu_s(pid: &str) -> f64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = s.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let t = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (t(11) + t(12)) / 100.0
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n == 0 { f64::NAN } else if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

fn stats(name: &str, v: &[f64]) -> Value {
    let mut w = v.to_vec();
    let med = median(&mut w);
    json!({ "metric": name, "median": med, "min": w.first(), "max": w.last(), "n": w.len() })
}

fn client(window: usize) -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(window.max(1))
        .tcp_nodelay(true)
        .build()
        .unwrap()
}

async fn startup(o: &Opts) {
    let runs = o.runs.unwrap_or(15);
    let (mut ready, mut first, mut rss) = (vec![], vec![], vec![]);
    let first_method: &'static str = Box::leak(o.first.clone().into_boxed_str());
    for run in 0..runs {
        let c = client(1);
        let t0 = Instant::now();
        let s = Server::spawn(&o.cmd);
        let discover = request(1, "server/discover", json!({}));
        let mut attempts = 0u32;
        loop {
            match send(&c, &s.url, &discover).await {
                Ok(_) => break,
                Err(e) => {
                    attempts += 1;
                    assert!(t0.elapsed() < Duration::from_secs(60), "server never answered: {e}");
                    tokio::time::sleep(Duration::from_micros(500)).await;
                }
            }
        }
        let t_ready = t0.elapsed().as_secs_f64() * 1e3;
        let (r, bytes) = call(&c, &s.url, 2, first_method, json!({})).await;
        let t_first = t0.elapsed().as_secs_f64() * 1e3;
        let items = r
            .get("skills")
            .or_else(|| r.get("resources"))
            .and_then(Value::as_array)
            .map(Vec::len)
            .unwrap_or(0);
        let hwm = proc_status_kb(s.pid(), "VmHWM:");
        s.kill();
        println!(
            "{}",
            json!({"run": run, "ready_ms": t_ready, "first_ms": t_first, "first_method": o.first, "items": items,
                   "response_bytes": bytes, "server_peak_rss_kb": hwm, "connect_retries": attempts, "close_ms": 0.0})
        );
        ready.push(t_ready);
        first.push(t_first);
        rss.push(hwm as f64);
    }
    println!(
        "{}",
        json!({"summary": "startup", "proto": "modern-http", "cmd": o.cmd.join(" "), "stats": [
            stats("ready_ms", &ready), stats("first_ms", &first), stats("server_peak_rss_kb", &rss)]})
    );
}

struct FileRef {
    uri: String,
    size: u64,
    digest: String,
}

#[derive(Deserialize)]
struct Resp {
    #[allow(dead_code)]
    id: Option<IgnoredAny>,
    result: Option<IgnoredAny>,
    error: Option<IgnoredAny>,
}

async fn throughput(o: &Opts) {
    let runs = o.runs.unwrap_or(3);
    let (mut rps, mut mbs, mut rss, mut cpu_per_kreq) = (vec![], vec![], vec![], vec![]);
    for run in 0..runs {
        let c = client(o.window);
        let s = Server::spawn(&o.cmd);
        let t0 = Instant::now();
        let discover = request(1, "server/discover", json!({}));
        while send(&c, &s.url, &discover).await.is_err() {
            assert!(t0.elapsed() < Duration::from_secs(60), "server never answered");
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let mut id = 1u64;
        let mut files = std::collections::BTreeMap::new();
        let mut cursor: Option<String> = None;
        loop {
            id += 1;
            let params = match &cursor { Some(cur) => json!({"cursor": cur}), None => json!({}) };
            let (r, _) = call(&c, &s.url, id, "skills/list", params).await;
            for sk in r["skills"].as_array().expect("skills array") {
                for f in sk["resources"].as_array().expect("resources array") {
                    let uri = f["uri"].as_str().unwrap().to_string();
                    files.insert(uri.clone(), FileRef { uri, size: f["size"].as_u64().unwrap(), digest: f["digest"].as_str().unwrap().into() });
                }
            }
            match r.get("nextCursor").and_then(Value::as_str) {
                Some(next) => cursor = Some(next.to_string()),
                None => break,
            }
        }
        let files: Vec<FileRef> = files.into_values().collect();
        let corpus_bytes: u64 = files.iter().map(|f| f.size).sum();
        let mut h = Sha256::new();
        for f in &files {
            h.update(format!("{}\t{}\t{}\n", f.uri, f.size, f.digest).as_bytes());
        }
        let fp: String = h.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect();
        let mut bad = 0;
        if o.verify {
            for f in &files {
                id += 1;
                let (r, _) = call(&c, &s.url, id, "resources/read", json!({"uri": f.uri})).await;
                let item = &r["contents"][0];
                let bytes = if let Some(t) = item.get("text").and_then(Value::as_str) {
                    t.as_bytes().to_vec()
                } else {
                    base64::engine::general_purpose::STANDARD.decode(item["blob"].as_str().unwrap_or("")).unwrap_or_default()
                };
                let digest = format!("sha256:{}", Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect::<String>());
                if item["uri"].as_str() != Some(&f.uri) || bytes.len() as u64 != f.size || digest != f.digest {
                    eprintln!("verify: mismatch for {}", f.uri);
                    bad += 1;
                }
            }
        }
        let mut order: Vec<usize> = (0..files.len()).collect();
        let mut sd = o.seed.max(1);
        for i in (1..order.len()).rev() {
            sd ^= sd >> 12;
            sd ^= sd << 25;
            sd ^= sd >> 27;
            let r = sd.wrapping_mul(0x2545F4914F6CDD1D);
            order.swap(i, (r % (i as u64 + 1)) as usize);
        }
        let reqs: Rc<Vec<Req>> = Rc::new(
            (0..o.n)
                .map(|k| request(1_000_000 + k as u64, "resources/read", json!({"uri": files[order[k % order.len()]].uri})))
                .collect(),
        );
        let payload: u64 = (0..o.n).map(|k| files[order[k % order.len()]].size).sum();
        let pid = s.pid().to_string();
        let cpu0 = proc_cpu_s(&pid);
        let self_cpu0 = proc_cpu_s("self");
        let next = Rc::new(Cell::new(0usize));
        let (ok, err, wire) = (Rc::new(Cell::new(0usize)), Rc::new(Cell::new(0usize)), Rc::new(Cell::new(0usize)));
        let t0 = Instant::now();
        let local = tokio::task::LocalSet::new();
        for _ in 0..o.window {
            let (c, url, reqs, next, ok, err, wire) =
                (c.clone(), s.url.clone(), reqs.clone(), next.clone(), ok.clone(), err.clone(), wire.clone());
            local.spawn_local(async move {
                loop {
                    let k = next.get();
                    if k >= reqs.len() {
                        break;
                    }
                    next.set(k + 1);
                    let (sse, body) = send(&c, &url, &reqs[k]).await.expect("request failed");
                    wire.set(wire.get() + body.len());
                    let mut counted = false;
                    for m in messages(sse, &body) {
                        if let Ok(r) = serde_json::from_slice::<Resp>(m) {
                            if r.result.is_some() {
                                ok.set(ok.get() + 1);
                                counted = true;
                            } else if r.error.is_some() {
                                err.set(err.get() + 1);
                                counted = true;
                            }
                        }
                    }
                    if !counted {
                        err.set(err.get() + 1);
                    }
                }
            });
        }
        local.await;
        let secs = t0.elapsed().as_secs_f64();
        let cpu = proc_cpu_s(&pid) - cpu0;
        let self_cpu = proc_cpu_s("self") - self_cpu0;
        let hwm = proc_status_kb(s.pid(), "VmHWM:");
        s.kill();
        let n = o.n;
        println!(
            "{}",
            json!({"run": run, "files": files.len(), "manifest_fp": fp, "corpus_bytes": corpus_bytes, "verify_mismatches": bad,
                "n": n, "window": o.window, "ok": ok.get(), "errors": err.get(), "secs": secs,
                "req_per_s": n as f64 / secs, "payload_mb_per_s": payload as f64 / secs / 1e6,
                "wire_mb_per_s": wire.get() as f64 / secs / 1e6, "payload_bytes": payload, "wire_bytes": wire.get(),
                "server_cpu_s": cpu, "client_cpu_s": self_cpu,
                "server_cpu_ms_per_1k_req": cpu / n as f64 * 1e6, "server_peak_rss_kb": hwm})
        );
        rps.push(n as f64 / secs);
        mbs.push(payload as f64 / secs / 1e6);
        rss.push(hwm as f64);
        cpu_per_kreq.push(cpu / n as f64 * 1e6);
    }
    println!(
        "{}",
        json!({"summary": "throughput", "proto": "modern-http", "n": o.n, "window": o.window, "cmd": o.cmd.join(" "),
            "stats": [stats("req_per_s", &rps), stats("payload_mb_per_s", &mbs),
                      stats("server_cpu_ms_per_1k_req", &cpu_per_kreq), stats("server_peak_rss_kb", &rss)]})
    );
}

fn main() {
    let o = parse_args();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    match o.mode.as_str() {
        "startup" => rt.block_on(startup(&o)),
        "throughput" => rt.block_on(throughput(&o)),
        m => panic!("unknown mode {m}"),
    }
}
