//! The hostile table (`skills_test_support::hostile`, shared with the in-process
//! tests) against `skills-test-server`, a separate process: over stdio on
//! both eras, and over streamable HTTP stateless (2026-07-28) and with
//! sessions (both eras), plus the HTTP-level cases (`Host` headers, content
//! types, paths) that never reach a handler. Needs nothing outside Cargo.

use skills_test_support::hostile;

use std::process::Stdio;

use hostile::{Lifecycle, Message, Refusal, Reply, Wire};
use serde_json::{Value, json};
use skills_runtime::{Skills, embed_skills};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// What `skills-test-server --tree examples` serves (build.rs watches it).
static EXAMPLES: Skills = embed_skills!("../../examples/skills");

const SERVER: &str = env!("CARGO_BIN_EXE_skills-test-server");

fn start(args: &[&str], stdio: bool) -> Child {
    Command::new(SERVER)
        .args(["--tree", "examples"])
        .args(args)
        .stdin(if stdio { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("start skills-test-server")
}

fn assert_passed(failures: Vec<String>) {
    assert!(failures.is_empty(), "\n{}\n", failures.join("\n"));
}

#[tokio::test]
async fn over_stdio_on_both_eras() {
    let cases = hostile::cases(&EXAMPLES);
    let mut failures = Vec::new();
    for lifecycle in [Lifecycle::Handshake, Lifecycle::Modern] {
        let mut child = start(&[], true);
        let read = child.stdout.take().unwrap();
        let write = child.stdin.take().unwrap();
        let mut wire = hostile::LineWire::open("stdio", lifecycle, read, write).await;
        failures.extend(hostile::run(&mut wire, &EXAMPLES, &cases).await);
        assert!(
            child.try_wait().expect("wait").is_none(),
            "the server exited during the table"
        );
    }
    assert_passed(failures);
}

// ---------------------------------------------------------------------------
// Streamable HTTP

/// `skills-test-server --http 127.0.0.1:0`, and the base URL it printed.
async fn http_server(args: &[&str]) -> (Child, String) {
    let mut child = start(&[&["--http", "127.0.0.1:0"], args].concat(), false);
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = lines
        .next_line()
        .await
        .expect("read")
        .expect("a first line");
    let base = line
        .strip_prefix("listening ")
        .unwrap_or_else(|| panic!("printed {line:?}"));
    (child, base.to_owned())
}

/// Raw JSON-RPC POSTs, stateless (2026-07-28) or in a session (either era).
struct HttpWire {
    label: String,
    client: reqwest::Client,
    base: String,
    lifecycle: Lifecycle,
    session: Option<String>,
}

impl HttpWire {
    async fn open(label: &str, base: &str, lifecycle: Lifecycle, session: bool) -> HttpWire {
        let mut wire = HttpWire {
            label: label.to_owned(),
            client: reqwest::Client::builder().no_proxy().build().unwrap(),
            base: base.to_owned(),
            lifecycle,
            session: None,
        };
        if session {
            let version = match lifecycle {
                Lifecycle::Handshake => "2025-11-25",
                Lifecycle::Modern => "2026-07-28",
            };
            let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": version, "capabilities": {},
                "clientInfo": {"name": "hostile", "version": "1"}}});
            let response = wire
                .post(serde_json::to_vec(&initialize).unwrap(), &[])
                .await
                .expect("initialize");
            let id = response
                .headers()
                .get("mcp-session-id")
                .expect("a session id")
                .to_str()
                .unwrap()
                .to_owned();
            wire.session = Some(id);
            let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
            let response = wire
                .post(serde_json::to_vec(&initialized).unwrap(), &[])
                .await
                .expect("initialized");
            assert_eq!(response.status(), 202);
        }
        wire
    }

    fn protocol(&self) -> &'static str {
        match self.lifecycle {
            Lifecycle::Handshake => "2025-11-25",
            Lifecycle::Modern => "2026-07-28",
        }
    }

    async fn post(
        &self,
        body: Vec<u8>,
        overrides: &[(&'static str, String)],
    ) -> reqwest::Result<reqwest::Response> {
        self.send("POST", "/mcp", Some(body), overrides).await
    }

    async fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<Vec<u8>>,
        overrides: &[(&'static str, String)],
    ) -> reqwest::Result<reqwest::Response> {
        let mut headers = reqwest::header::HeaderMap::new();
        let mut set = |name: &'static str, value: &str| {
            headers.insert(name, value.parse().expect("a header value"));
        };
        set("content-type", "application/json");
        set("accept", "application/json, text/event-stream");
        set("mcp-protocol-version", self.protocol());
        if let Some(session) = &self.session {
            set("mcp-session-id", session);
        }
        for (name, value) in overrides {
            set(name, value);
        }
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base))
            .headers(headers);
        if let Some(body) = body {
            request = request.body(body);
        }
        request.send().await
    }

    /// The JSON-RPC messages of a response (a JSON body or SSE `data:` lines),
    /// or its status and body when it holds none.
    async fn reply(response: reqwest::Result<reqwest::Response>) -> Reply {
        let response = match response {
            Ok(response) => response,
            Err(error) => return Reply::Closed(format!("{error:?}")),
        };
        let status = response.status().as_u16();
        let sse = response
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("text/event-stream"));
        let body = match response.text().await {
            Ok(body) => body,
            Err(error) => return Reply::Closed(format!("{error:?}")),
        };
        let payloads: Vec<&str> = if sse {
            body.lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(str::trim)
                .filter(|data| !data.is_empty())
                .collect()
        } else if body.is_empty() {
            Vec::new()
        } else {
            vec![body.as_str()]
        };
        let messages: Option<Vec<Value>> = payloads
            .iter()
            .map(|payload| serde_json::from_str::<Value>(payload).ok())
            .collect();
        match messages {
            Some(messages)
                if messages.iter().all(|m| m.get("jsonrpc").is_some())
                    && (status < 300 || !messages.is_empty()) =>
            {
                Reply::Json(messages, Some(status))
            }
            _ => Reply::Status(status, body),
        }
    }
}

impl Wire for HttpWire {
    fn label(&self) -> String {
        format!("{} ({:?})", self.label, self.lifecycle)
    }

    async fn exchange(
        &mut self,
        case: &Message,
        id: u64,
        follow_up: &Value,
        follow_up_id: u64,
    ) -> (Reply, Value) {
        let (bytes, headers) = match case {
            Message::Request(request) => {
                let message = hostile::envelope(request, id, self.lifecycle);
                (
                    serde_json::to_vec(&message).unwrap(),
                    self.routing_headers(&message),
                )
            }
            Message::Raw(bytes) => (bytes.clone(), Vec::new()),
        };
        let reply = HttpWire::reply(self.post(bytes, &headers).await).await;
        if matches!(reply, Reply::Closed(_) | Reply::Status(413, _)) {
            // The server closes a connection after refusing its body: start afresh.
            self.client = reqwest::Client::builder().no_proxy().build().unwrap();
        }
        (reply, self.follow_up(follow_up, follow_up_id).await)
    }

    fn expect(&self, case: &hostile::Case) -> hostile::Expect {
        if let Message::Request(request) = &case.message
            && self
                .routing_headers(request)
                .iter()
                .map(|(_, value)| value.len())
                .sum::<usize>()
                > HEADER_LIMIT
        {
            return hostile::Expect::Refused(Refusal::HeadersTooLarge);
        }
        case.expect.clone()
    }

    fn refused(&self, refusal: Refusal, reply: &Reply) -> Result<(), String> {
        // rmcp answers a body it cannot read as a JSON-RPC message with 415,
        // and a body over its limit with 413 (possibly closing the connection
        // before the client has sent it all). hyper answers a head over its
        // limit with 431 and closes at once: on a fast server that happens
        // while the client still writes the body, which then sees the closed
        // connection (a broken pipe) instead of the status.
        match (refusal, reply) {
            (Refusal::NotJson | Refusal::NotAMessage, Reply::Status(415, _)) => Ok(()),
            (Refusal::Oversized, Reply::Status(413, _) | Reply::Closed(_)) => Ok(()),
            (Refusal::HeadersTooLarge, Reply::Status(431, _) | Reply::Closed(_)) => Ok(()),
            (Refusal::HeadersTooLarge, _) => Err("expected HTTP 431".to_owned()),
            (Refusal::NotJson | Refusal::NotAMessage, _) => Err("expected HTTP 415".to_owned()),
            (Refusal::Oversized, _) => Err("expected HTTP 413".to_owned()),
        }
    }
}

/// hyper's default limit on a request's head: 400 KiB.
const HEADER_LIMIT: usize = 400 << 10;

impl HttpWire {
    /// SEP-2243's `Mcp-Method` and `Mcp-Name` headers, which a 2026-07-28
    /// request without a session must carry, built as rmcp's client builds
    /// them: the name from `params.name` (tools, prompts) or `params.uri`
    /// (resources), Base64-wrapped when it cannot travel as a bare value.
    fn routing_headers(&self, message: &Value) -> Vec<(&'static str, String)> {
        if self.session.is_some() {
            return Vec::new();
        }
        let Some(method) = message["method"].as_str() else {
            return Vec::new();
        };
        let mut headers = vec![("mcp-method", method.to_owned())];
        let key = match method {
            "tools/call" | "prompts/get" => "name",
            "resources/read" | "resources/subscribe" | "resources/unsubscribe" => "uri",
            _ => return headers,
        };
        if let Some(name) = message["params"][key].as_str() {
            let padded = name.starts_with([' ', '\t']) || name.ends_with([' ', '\t']);
            let unprintable = !name.chars().all(|c| (' '..='~').contains(&c));
            let sentinel = name.starts_with("=?base64?") && name.ends_with("?=");
            let bare = !(padded || unprintable || sentinel);
            let value = if bare || name.is_empty() {
                name.to_owned()
            } else {
                use base64::Engine as _;
                let encoded = base64::engine::general_purpose::STANDARD.encode(name);
                format!("=?base64?{encoded}?=")
            };
            headers.push(("mcp-name", value));
        }
        headers
    }

    /// The valid request after a case. A server may close the connection
    /// after refusing a request (a body over its limit): then the request is
    /// sent once more, on a new connection, as HTTP clients retry.
    async fn follow_up(&mut self, request: &Value, id: u64) -> Value {
        let message = hostile::envelope(request, id, self.lifecycle);
        let headers = self.routing_headers(&message);
        let body = serde_json::to_vec(&message).unwrap();
        let mut reply = HttpWire::reply(self.post(body.clone(), &headers).await).await;
        if matches!(reply, Reply::Closed(_)) {
            self.client = reqwest::Client::builder().no_proxy().build().unwrap();
            reply = HttpWire::reply(self.post(body, &headers).await).await;
        }
        match reply {
            Reply::Json(messages, _) => messages
                .into_iter()
                .find(|m| m["id"] == json!(id))
                .unwrap_or(Value::Null),
            other => json!({ "transport": format!("{other:?}") }),
        }
    }

    /// The HTTP-level cases: each must get its status, without a JSON-RPC
    /// result, and a valid read must work after it.
    async fn run_http_cases(&mut self, skills: &Skills) -> Vec<String> {
        let mut failures = Vec::new();
        let file = skills.skills()[0].uri().to_owned();
        for (n, case) in hostile::http_cases(skills, self.lifecycle)
            .iter()
            .enumerate()
        {
            let label = format!("{} | HTTP {}", self.label(), case.name);
            let message = case
                .body
                .as_ref()
                .map(|request| hostile::envelope(request, 7, self.lifecycle));
            let mut headers = message
                .as_ref()
                .map(|message| self.routing_headers(message))
                .unwrap_or_default();
            headers.retain(|(name, _)| case.headers.iter().all(|(own, _)| own != name));
            headers.extend(case.headers.iter().cloned());
            let body = message.map(|message| serde_json::to_vec(&message).unwrap());
            let reply =
                HttpWire::reply(self.send(case.method, case.path, body, &headers).await).await;
            match &reply {
                Reply::Status(status, _) if *status == case.status => {}
                Reply::Json(messages, Some(status))
                    if *status == case.status && messages.iter().all(|m| m["result"].is_null()) => {
                }
                other => failures.push(format!(
                    "{label}: expected HTTP {}, got {other:?}",
                    case.status
                )),
            }
            let read = json!({"method": "resources/read", "params": {"uri": file}});
            let answer = self.follow_up(&read, 900 + n as u64).await;
            if answer["result"]["contents"][0]["uri"] != json!(file) {
                failures.push(format!(
                    "{label}: the valid read that followed failed: {answer}"
                ));
            }
        }
        failures
    }
}

#[tokio::test]
async fn over_streamable_http_stateless() {
    let cases = hostile::cases(&EXAMPLES);
    let (mut child, base) = http_server(&["--stateless"]).await;
    let mut wire = HttpWire::open("HTTP stateless", &base, Lifecycle::Modern, false).await;
    let mut failures = hostile::run(&mut wire, &EXAMPLES, &cases).await;
    failures.extend(wire.run_http_cases(&EXAMPLES).await);
    assert!(child.try_wait().unwrap().is_none(), "the server exited");
    assert_passed(failures);
}

#[tokio::test]
async fn over_streamable_http_with_sessions() {
    let cases = hostile::cases(&EXAMPLES);
    let (mut child, base) = http_server(&[]).await;
    let mut failures = Vec::new();
    let mut session = HttpWire::open("HTTP session", &base, Lifecycle::Handshake, true).await;
    failures.extend(hostile::run(&mut session, &EXAMPLES, &cases).await);
    failures.extend(session.run_http_cases(&EXAMPLES).await);
    // 2026-07-28 requests to a server with sessions are served statelessly.
    let mut modern = HttpWire::open("HTTP, no session", &base, Lifecycle::Modern, false).await;
    failures.extend(hostile::run(&mut modern, &EXAMPLES, &cases).await);
    assert!(child.try_wait().unwrap().is_none(), "the server exited");
    assert_passed(failures);
}

/// Slow clients against the server as built: a connection trickling its
/// request head is closed at the default header timeout (10 s), and one
/// that sends nothing at all too, while an honest client is served
/// meanwhile.
#[tokio::test]
async fn over_streamable_http_clients_trickling_headers_are_cut_at_the_header_timeout() {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let (mut child, base) = http_server(&[]).await;
    let address = base.trim_start_matches("http://").to_owned();
    let started = std::time::Instant::now();
    let mut slow = Vec::new();
    for trickled in [
        &b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-A: "[..],
        &b""[..],
    ] {
        let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
        stream.write_all(trickled).await.unwrap();
        slow.push(stream);
    }
    let trickle = async {
        loop {
            // One byte a second, forever: never a whole head.
            if slow[0].write_all(b"a").await.is_err() {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
    };
    let honest = async {
        let http = reqwest::Client::builder().no_proxy().build().unwrap();
        let answer = http.get(format!("{base}/skills")).send().await.unwrap();
        assert_eq!(answer.status(), 200);
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(12), async {
        tokio::join!(trickle, honest)
    })
    .await;
    for mut stream in slow {
        let mut rest = Vec::new();
        let closed = tokio::time::timeout(
            std::time::Duration::from_secs(20),
            stream.read_to_end(&mut rest),
        )
        .await;
        assert!(
            closed.is_ok(),
            "a slow connection is still open after {:?}",
            started.elapsed()
        );
    }
    assert!(started.elapsed() >= std::time::Duration::from_secs(9));
    assert!(child.try_wait().unwrap().is_none(), "the server exited");
}
