//! Streamable HTTP: the server process, requests as 2026-07-28 stateless
//! POSTs or inside a 2025-11-25 session, and the `startup` mode.
//!
//! A stateless request carries `_meta` (protocolVersion, clientInfo,
//! clientCapabilities) and the SEP-2243 routing headers (`Mcp-Method`, and
//! `Mcp-Name` for reads); a session request carries `Mcp-Session-Id`.
//! Answers may be JSON or server-sent events; both are parsed.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::stats::{proc_status_kb, stats};

pub const MODERN: &str = "2026-07-28";
pub const LEGACY: &str = "2025-11-25";

/// A server started with `{port}` replaced by a free port; stopped when dropped.
pub struct Server {
    child: Child,
    pub url: String,
}

impl Server {
    pub fn spawn(command: &[String]) -> Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port()
            .to_string();
        let command: Vec<String> = command.iter().map(|a| a.replace("{port}", &port)).collect();
        let child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
        Server {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends `server/discover` until the server answers (every 0.5 ms, up to a
    /// minute); returns how many attempts failed.
    pub async fn wait_ready(&self, client: &reqwest::Client) -> u32 {
        let started = Instant::now();
        let discover = Request::modern(1, "server/discover", json!({}));
        let mut attempts = 0;
        while let Err(error) = discover.send(client, &self.url, None).await {
            attempts += 1;
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the server never answered: {error}"
            );
            tokio::time::sleep(Duration::from_micros(500)).await;
        }
        attempts
    }
}

impl Drop for Server {
    /// `SIGTERM` first, so that a server under callgrind (or one that shuts
    /// down gracefully) can write what it must; `SIGKILL` after 30 s.
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A request ready to send: its body and routing headers.
pub struct Request {
    pub id: u64,
    method: String,
    name: Option<String>,
    body: Vec<u8>,
    protocol: &'static str,
}

pub fn client_info_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "anchor-load-client", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/skills": {}}}
    })
}

impl Request {
    /// A 2026-07-28 request without a session.
    pub fn modern(id: u64, method: &str, mut params: Value) -> Request {
        params["_meta"] = client_info_meta();
        let name = match method {
            "resources/read" => params["uri"].as_str().map(str::to_owned),
            _ => None,
        };
        Request::new(id, method, params, name, MODERN)
    }

    /// A 2025-11-25 request inside a session.
    pub fn legacy(id: u64, method: &str, params: Value) -> Request {
        Request::new(id, method, params, None, LEGACY)
    }

    fn new(
        id: u64,
        method: &str,
        params: Value,
        name: Option<String>,
        protocol: &'static str,
    ) -> Request {
        let body = serde_json::to_vec(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        )
        .expect("JSON");
        Request {
            id,
            method: method.to_owned(),
            name,
            body,
            protocol,
        }
    }

    /// POSTs the request; returns whether the answer is an event stream, the
    /// body, and the response headers' session id.
    pub async fn send(
        &self,
        client: &reqwest::Client,
        url: &str,
        session: Option<&str>,
    ) -> Result<Answer, reqwest::Error> {
        let mut builder = client
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", self.protocol);
        if let Some(session) = session {
            builder = builder.header("mcp-session-id", session);
        } else {
            builder = builder.header("mcp-method", &self.method);
            if let Some(name) = &self.name {
                builder = builder.header("mcp-name", name);
            }
        }
        let response = builder.body(self.body.clone()).send().await?;
        let status = response.status().as_u16();
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let sse = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        let body = response.bytes().await?.to_vec();
        Ok(Answer {
            status,
            sse,
            body,
            session,
        })
    }

    /// Sends the request and returns its JSON-RPC result (or why there is none).
    pub async fn call(
        &self,
        client: &reqwest::Client,
        url: &str,
        session: Option<&str>,
    ) -> Result<Value, String> {
        let answer = self
            .send(client, url, session)
            .await
            .map_err(|e| format!("{}: {e}", self.method))?;
        answer
            .result(self.id)
            .map_err(|e| format!("{}: {e}", self.method))
    }
}

/// One HTTP response.
pub struct Answer {
    pub status: u16,
    pub sse: bool,
    pub body: Vec<u8>,
    pub session: Option<String>,
}

impl Answer {
    /// The JSON-RPC messages of the body: the body itself, or each SSE `data:`.
    pub fn messages(&self) -> Vec<&[u8]> {
        if !self.sse {
            return vec![&self.body];
        }
        self.body
            .split(|&b| b == b'\n')
            .filter_map(|line| line.strip_prefix(b"data:"))
            .map(|d| d.strip_prefix(b" ").unwrap_or(d))
            .map(|d| d.strip_suffix(b"\r").unwrap_or(d))
            .filter(|d| !d.is_empty())
            .collect()
    }

    /// The result of the message answering `id`, or the error it carries.
    pub fn result(&self, id: u64) -> Result<Value, String> {
        for message in self.messages() {
            let Ok(value) = serde_json::from_slice::<Value>(message) else {
                continue;
            };
            if value.get("id").and_then(Value::as_u64) != Some(id) {
                continue;
            }
            if let Some(error) = value.get("error") {
                return Err(format!("HTTP {}: error {error}", self.status));
            }
            return Ok(value["result"].clone());
        }
        Err(format!(
            "HTTP {}: no answer with id {id} in {:.300}",
            self.status,
            String::from_utf8_lossy(&self.body)
        ))
    }
}

pub fn client(connections: usize) -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(connections.max(1))
        .tcp_nodelay(true)
        .build()
        .expect("an HTTP client")
}

/// `startup`: process start → `server/discover` answered (`ready_ms`) → the
/// first page of `first` answered (`first_ms`), `runs` times.
pub async fn startup(command: &[String], runs: usize, first: &str) {
    let (mut ready, mut first_ms, mut rss) = (vec![], vec![], vec![]);
    for run in 0..runs {
        let client = client(1);
        let t0 = Instant::now();
        let server = Server::spawn(command);
        let attempts = server.wait_ready(&client).await;
        let t_ready = t0.elapsed().as_secs_f64() * 1e3;
        let request = Request::modern(2, first, json!({}));
        let answer = request
            .send(&client, &server.url, None)
            .await
            .unwrap_or_else(|e| panic!("{first}: {e}"));
        let result = answer.result(2).unwrap_or_else(|e| panic!("{first}: {e}"));
        let t_first = t0.elapsed().as_secs_f64() * 1e3;
        let items = result
            .get("skills")
            .or_else(|| result.get("resources"))
            .and_then(Value::as_array)
            .map(Vec::len)
            .unwrap_or(0);
        let hwm = proc_status_kb(server.pid(), "VmHWM:");
        drop(server);
        println!(
            "{}",
            json!({"run": run, "ready_ms": t_ready, "first_ms": t_first, "first_method": first, "items": items,
                   "response_bytes": answer.body.len(), "server_peak_rss_kb": hwm, "connect_retries": attempts, "close_ms": 0.0})
        );
        ready.push(t_ready);
        first_ms.push(t_first);
        rss.push(hwm as f64);
    }
    println!(
        "{}",
        json!({"summary": "startup", "proto": "modern-http", "cmd": command.join(" "), "stats": [
            stats("ready_ms", &ready), stats("first_ms", &first_ms), stats("server_peak_rss_kb", &rss)]})
    );
}
