//! `throughput` over streamable HTTP: `window` tasks on one thread, each with
//! its own keep-alive connection, share `n` timed `resources/read` requests.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Instant;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Value, json};

use crate::args::Throughput;
use crate::http::{Request, Server, client};
use crate::stats::{
    FileRef, collect_files, latency, manifest_fingerprint, proc_cpu_s, proc_status_kb,
    proc_user_system_s, read_matches, shuffled, stats,
};

/// Only what counting needs: the values are parsed, not kept.
#[derive(Deserialize)]
struct Counted {
    #[allow(dead_code)]
    id: Option<IgnoredAny>,
    result: Option<IgnoredAny>,
    error: Option<IgnoredAny>,
}

/// Every file `skills/list` names (all pages), sorted by URI.
pub async fn manifest(client: &reqwest::Client, url: &str, id: &mut u64) -> Vec<FileRef> {
    let mut files = std::collections::BTreeMap::new();
    let mut cursor: Option<String> = None;
    loop {
        *id += 1;
        let params = cursor.map_or(json!({}), |cursor| json!({ "cursor": cursor }));
        let page = Request::modern(*id, "skills/list", params)
            .call(client, url, None)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        collect_files(&page, &mut files);
        match page.get("nextCursor").and_then(Value::as_str) {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    files.into_values().collect()
}

pub async fn http(options: &Throughput) {
    let (mut rps, mut mbs, mut rss, mut cpu_per_kreq) = (vec![], vec![], vec![], vec![]);
    let mut all_latencies: Vec<u32> = Vec::new();
    for run in 0..options.runs {
        let client = client(options.window);
        let server = Server::spawn(&options.command);
        server.wait_ready(&client).await;
        let mut id = 1;
        let files = manifest(&client, &server.url, &mut id).await;
        let corpus_bytes: u64 = files.iter().map(|f| f.size).sum();
        let mut mismatches = 0;
        if !options.no_verify {
            for file in &files {
                id += 1;
                let result = Request::modern(id, "resources/read", json!({ "uri": file.uri }))
                    .call(&client, &server.url, None)
                    .await
                    .unwrap_or_else(|e| panic!("{e}"));
                if !read_matches(&result, file) {
                    eprintln!("verify: mismatch for {}", file.uri);
                    mismatches += 1;
                }
            }
        }
        let order = shuffled(files.len(), options.seed);
        let pick = |k: usize| &files[order[k % order.len()]];
        let requests: Rc<Vec<Request>> = Rc::new(
            (0..options.n)
                .map(|k| {
                    Request::modern(
                        1_000_000 + k as u64,
                        "resources/read",
                        json!({ "uri": pick(k).uri }),
                    )
                })
                .collect(),
        );
        let payload: u64 = (0..options.n).map(|k| pick(k).size).sum();
        let pid = server.pid().to_string();
        let ((user0, system0), self_cpu0) = (proc_user_system_s(&pid), proc_cpu_s("self"));
        let next = Rc::new(Cell::new(0usize));
        let (ok, errors, wire) = (
            Rc::new(Cell::new(0usize)),
            Rc::new(Cell::new(0usize)),
            Rc::new(Cell::new(0usize)),
        );
        let latencies = Rc::new(RefCell::new(Vec::with_capacity(options.n)));
        let t0 = Instant::now();
        let local = tokio::task::LocalSet::new();
        for _ in 0..options.window {
            let (client, url, requests, next) = (
                client.clone(),
                server.url.clone(),
                requests.clone(),
                next.clone(),
            );
            let (ok, errors, wire, latencies) =
                (ok.clone(), errors.clone(), wire.clone(), latencies.clone());
            local.spawn_local(async move {
                loop {
                    let k = next.get();
                    if k >= requests.len() {
                        break;
                    }
                    next.set(k + 1);
                    let started = Instant::now();
                    let answer = requests[k]
                        .send(&client, &url, None)
                        .await
                        .expect("request failed");
                    let mut counted = false;
                    for message in answer.messages() {
                        if let Ok(parsed) = serde_json::from_slice::<Counted>(message) {
                            if parsed.result.is_some() {
                                ok.set(ok.get() + 1);
                                counted = true;
                            } else if parsed.error.is_some() {
                                errors.set(errors.get() + 1);
                                counted = true;
                            }
                        }
                    }
                    let micros = u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX);
                    latencies.borrow_mut().push(micros);
                    wire.set(wire.get() + answer.body.len());
                    if !counted {
                        errors.set(errors.get() + 1);
                    }
                }
            });
        }
        local.await;
        let secs = t0.elapsed().as_secs_f64();
        let (user1, system1) = proc_user_system_s(&pid);
        let (user, system) = (user1 - user0, system1 - system0);
        let cpu = user + system;
        let self_cpu = proc_cpu_s("self") - self_cpu0;
        let hwm = proc_status_kb(server.pid(), "VmHWM:");
        // What the resident memory is after the reads: the heap (anon) and
        // pages of files, the binary's embedded bytes among them (file).
        let (anon, file) = (
            proc_status_kb(server.pid(), "RssAnon:"),
            proc_status_kb(server.pid(), "RssFile:"),
        );
        drop(server);
        let n = options.n;
        let mut run_latencies = latencies.take();
        all_latencies.extend_from_slice(&run_latencies);
        println!(
            "{}",
            json!({"run": run, "files": files.len(), "manifest_fp": manifest_fingerprint(&files),
                "corpus_bytes": corpus_bytes, "verify_mismatches": mismatches,
                "n": n, "window": options.window, "ok": ok.get(), "errors": errors.get(), "secs": secs,
                "req_per_s": n as f64 / secs, "payload_mb_per_s": payload as f64 / secs / 1e6,
                "wire_mb_per_s": wire.get() as f64 / secs / 1e6, "payload_bytes": payload, "wire_bytes": wire.get(),
                "server_cpu_s": cpu, "client_cpu_s": self_cpu,
                "server_user_s": user, "server_system_s": system,
                "server_cpu_ms_per_1k_req": cpu / n as f64 * 1e6, "server_peak_rss_kb": hwm,
                "server_rss_anon_kb": anon, "server_rss_file_kb": file,
                "lat_ms": latency(&mut run_latencies)})
        );
        rps.push(n as f64 / secs);
        mbs.push(payload as f64 / secs / 1e6);
        rss.push(hwm as f64);
        cpu_per_kreq.push(cpu / n as f64 * 1e6);
    }
    println!(
        "{}",
        json!({"summary": "throughput", "proto": "modern-http", "n": options.n, "window": options.window,
            "cmd": options.command.join(" "),
            "stats": [stats("req_per_s", &rps), stats("payload_mb_per_s", &mbs),
                      stats("server_cpu_ms_per_1k_req", &cpu_per_kreq), stats("server_peak_rss_kb", &rss)],
            "lat_ms": latency(&mut all_latencies)})
    );
}
