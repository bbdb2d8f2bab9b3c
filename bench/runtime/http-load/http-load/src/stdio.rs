//! `throughput --transport stdio`: ../shared/bench/peers/load-client's
//! throughput (same hello, manifest, verification pass, file order and row
//! keys), with every request timed from the write of its line to the read of
//! its answer. A writer thread keeps `window` requests in flight.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Value, json};

use crate::args::{Proto, Throughput};
use crate::http::client_info_meta;
use crate::stats::{
    FileRef, collect_files, latency, manifest_fingerprint, proc_cpu_s, proc_status_kb,
    proc_user_system_s, read_matches, shuffled, stats,
};

/// The first id of the timed requests; request `k` has id `FIRST + k`.
const FIRST: u64 = 1_000_000;

struct Connection {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    modern: bool,
}

impl Connection {
    fn spawn(command: &[String], proto: Proto) -> Connection {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
        Connection {
            stdin: BufWriter::with_capacity(1 << 16, child.stdin.take().unwrap()),
            stdout: BufReader::with_capacity(1 << 20, child.stdout.take().unwrap()),
            child,
            modern: proto == Proto::Modern,
        }
    }

    fn line(&self, id: u64, method: &str, mut params: Value) -> String {
        if self.modern {
            params["_meta"] = client_info_meta();
        }
        let mut line = serde_json::to_string(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        )
        .expect("JSON");
        line.push('\n');
        line
    }

    fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn call(&mut self, id: u64, method: &str, params: Value) -> Value {
        let line = self.line(id, method, params);
        self.send(&line);
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            let n = self.stdout.read_until(b'\n', &mut buffer).expect("read");
            assert!(n > 0, "the server closed stdout while {method} was pending");
            let Ok(value) = serde_json::from_slice::<Value>(&buffer) else {
                continue; // a stray print
            };
            if value.get("id").and_then(Value::as_u64) == Some(id) {
                if let Some(error) = value.get("error") {
                    panic!("{method} failed: {error}");
                }
                return value["result"].clone();
            }
        }
    }

    fn hello(&mut self) {
        if self.modern {
            self.call(1, "server/discover", json!({}));
        } else {
            self.call(
                1,
                "initialize",
                json!({
                    "protocolVersion": "2025-11-25",
                    "capabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}},
                    "clientInfo": {"name": "anchor-load-client", "version": "0"}
                }),
            );
            self.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
        }
    }

    /// Closes stdin and waits (up to 10 s) for the server to exit.
    fn close(mut self) {
        drop(self.stdin);
        let t = Instant::now();
        while self.child.try_wait().ok().flatten().is_none() {
            if t.elapsed() > Duration::from_secs(10) {
                let _ = self.child.kill();
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.wait();
    }
}

#[derive(Deserialize)]
struct Counted {
    id: Option<u64>,
    result: Option<IgnoredAny>,
    error: Option<IgnoredAny>,
}

pub fn throughput(options: &Throughput) {
    let (mut rps, mut mbs, mut wmbs, mut rss, mut cpu_per_kreq) =
        (vec![], vec![], vec![], vec![], vec![]);
    let mut all_latencies = Vec::new();
    for run in 0..options.runs {
        let mut connection = Connection::spawn(&options.command, options.proto);
        connection.hello();
        let mut id = 1;
        let mut files = std::collections::BTreeMap::new();
        let mut cursor: Option<String> = None;
        loop {
            id += 1;
            let params = cursor.map_or(json!({}), |cursor| json!({ "cursor": cursor }));
            let page = connection.call(id, "skills/list", params);
            collect_files(&page, &mut files);
            match page.get("nextCursor").and_then(Value::as_str) {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
        }
        let files: Vec<FileRef> = files.into_values().collect();
        let corpus_bytes: u64 = files.iter().map(|f| f.size).sum();
        let mut mismatches = 0;
        if !options.no_verify {
            for file in &files {
                id += 1;
                let result = connection.call(id, "resources/read", json!({ "uri": file.uri }));
                if !read_matches(&result, file) {
                    eprintln!("verify: mismatch for {}", file.uri);
                    mismatches += 1;
                }
            }
        }
        let order = shuffled(files.len(), options.seed);
        let pick = |k: usize| &files[order[k % order.len()]];
        let lines: Vec<String> = (0..options.n)
            .map(|k| {
                connection.line(
                    FIRST + k as u64,
                    "resources/read",
                    json!({ "uri": pick(k).uri }),
                )
            })
            .collect();
        let payload: u64 = (0..options.n).map(|k| pick(k).size).sum();
        let pid = connection.child.id();
        let ((user0, system0), self_cpu0) =
            (proc_user_system_s(&pid.to_string()), proc_cpu_s("self"));

        // Send times, in nanoseconds after t0, by request.
        let sent: Arc<Vec<AtomicU64>> =
            Arc::new((0..options.n).map(|_| AtomicU64::new(0)).collect());
        let (credit_tx, credit_rx) = mpsc::sync_channel::<()>(options.window);
        for _ in 0..options.window {
            credit_tx.send(()).expect("credit");
        }
        let t0 = Instant::now();
        let mut stdin = connection.stdin;
        let writer = {
            let sent = sent.clone();
            std::thread::spawn(move || {
                for (k, line) in lines.iter().enumerate() {
                    credit_rx.recv().expect("credit");
                    sent[k].store(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
                    stdin.write_all(line.as_bytes()).expect("write");
                    stdin.flush().expect("flush");
                }
                stdin
            })
        };
        let n = options.n;
        let (mut ok, mut errors, mut wire) = (0usize, 0usize, 0usize);
        let mut latencies: Vec<u32> = Vec::with_capacity(n);
        let mut buffer = Vec::with_capacity(1 << 20);
        while ok + errors < n {
            buffer.clear();
            let read = connection
                .stdout
                .read_until(b'\n', &mut buffer)
                .expect("read");
            assert!(read > 0, "the server closed stdout");
            wire += read;
            let Ok(counted) = serde_json::from_slice::<Counted>(&buffer) else {
                continue;
            };
            if counted.result.is_some() {
                ok += 1;
            } else if counted.error.is_some() {
                errors += 1;
            } else {
                continue; // a notification
            }
            if let Some(k) = counted.id.and_then(|id| id.checked_sub(FIRST))
                && let Some(at) = sent.get(k as usize)
            {
                let nanos =
                    (t0.elapsed().as_nanos() as u64).saturating_sub(at.load(Ordering::Relaxed));
                latencies.push(u32::try_from(nanos / 1000).unwrap_or(u32::MAX));
            }
            let _ = credit_tx.try_send(());
        }
        let secs = t0.elapsed().as_secs_f64();
        connection.stdin = writer.join().expect("the writer");
        let (user1, system1) = proc_user_system_s(&pid.to_string());
        let (user, system) = (user1 - user0, system1 - system0);
        let cpu = user + system;
        let self_cpu = proc_cpu_s("self") - self_cpu0;
        let hwm = proc_status_kb(pid, "VmHWM:");
        // What the resident memory is after the reads: the heap (anon) and
        // pages of files, the binary's embedded bytes among them (file).
        let (anon, file) = (
            proc_status_kb(pid, "RssAnon:"),
            proc_status_kb(pid, "RssFile:"),
        );
        connection.close();
        all_latencies.extend_from_slice(&latencies);
        let proto = if options.proto == Proto::Modern {
            "modern"
        } else {
            "handshake"
        };
        println!(
            "{}",
            json!({"run": run, "files": files.len(), "manifest_fp": manifest_fingerprint(&files),
                "corpus_bytes": corpus_bytes, "verify_mismatches": mismatches,
                "n": n, "window": options.window, "ok": ok, "errors": errors, "secs": secs,
                "req_per_s": n as f64 / secs, "payload_mb_per_s": payload as f64 / secs / 1e6,
                "wire_mb_per_s": wire as f64 / secs / 1e6, "payload_bytes": payload, "wire_bytes": wire,
                "server_cpu_s": cpu, "client_cpu_s": self_cpu,
                "server_user_s": user, "server_system_s": system,
                "server_cpu_ms_per_1k_req": cpu / n as f64 * 1e6, "server_peak_rss_kb": hwm,
                "server_rss_anon_kb": anon, "server_rss_file_kb": file,
                "proto": proto, "lat_ms": latency(&mut latencies)})
        );
        rps.push(n as f64 / secs);
        mbs.push(payload as f64 / secs / 1e6);
        wmbs.push(wire as f64 / secs / 1e6);
        rss.push(hwm as f64);
        cpu_per_kreq.push(cpu / n as f64 * 1e6);
    }
    println!(
        "{}",
        json!({"summary": "throughput", "proto": "stdio", "n": options.n, "window": options.window,
            "cmd": options.command.join(" "),
            "stats": [stats("req_per_s", &rps), stats("payload_mb_per_s", &mbs), stats("wire_mb_per_s", &wmbs),
                      stats("server_cpu_ms_per_1k_req", &cpu_per_kreq), stats("server_peak_rss_kb", &rss)],
            "lat_ms": latency(&mut all_latencies)})
    );
}
