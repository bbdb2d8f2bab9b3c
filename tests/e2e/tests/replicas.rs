//! Past one machine: two `examples/http_server --stateless` replicas behind
//! nginx, round-robin, with the configuration the guide documents (read
//! from docs/guide/serve.md itself, so the tested and the documented configuration are
//! one text).
//!
//! nginx runs unprivileged in the foreground (`-p <tmp> -g 'daemon off;'`,
//! every temporary path, the pid file and the logs under `<tmp>`), on a
//! loopback port (`skills_test_support::nginx`, shared with the course
//! platform's replicas test). Each response carries `X-Upstream` (the replica nginx
//! chose): the test pages through `skills/list` and `resources/list` one page
//! per request and checks that consecutive pages came from different
//! replicas, so every cursor is decoded by a process that did not issue it.
//! Then it reads every file through nginx and verifies it against its digest
//! with rmcp's `SkillResource::verify`.
//!
//! The replicas test needs `nginx` (on `PATH` or in `/usr/sbin`), so it is
//! `#[ignore = "needs nginx"]`: `.ci/run` installs nginx and runs it.

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rmcp::model::{ListResourcesResult, ListSkillsResult, ReadResourceResult, ResourceContents};
use serde_json::{Value, json};
use skills_runtime::{Skills, embed_skills};
use skills_test_support::examples;
use skills_test_support::nginx;
use skills_test_support::process::Running;

/// What `examples/http_server` embeds when `SKILLS_DIR` is unset.
static EXAMPLES: Skills = embed_skills!("../../examples/skills");

/// `examples/http_server` (embedding the repository's `examples/skills/`), built with
/// the Cargo running this test, into the same target folder.
fn http_server_binary() -> PathBuf {
    examples::executable("http_server")
}

/// A replica and the `HOST:PORT` it printed (`listening http://HOST:PORT`).
fn replica(binary: &Path) -> (Running, String) {
    stateless_server(
        binary,
        &["--skills-page-size", "1", "--resources-page-size", "2"],
        Stdio::null(),
    )
}

/// `http_server --stateless --bind 127.0.0.1:0 <args>`, its log to `stderr`.
fn stateless_server(binary: &Path, args: &[&str], stderr: Stdio) -> (Running, String) {
    let mut child = Command::new(binary)
        .args(["--stateless", "--bind", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("start http_server");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("read its first line");
    let address = line
        .trim()
        .strip_prefix("listening http://")
        .unwrap_or_else(|| panic!("http_server printed {line:?}"))
        .to_owned();
    (Running(child), address)
}

/// A 2026-07-28 client without a session, through nginx; remembers which
/// replica answered each request.
struct Client {
    http: reqwest::Client,
    url: String,
    next_id: u64,
    upstreams: Vec<String>,
}

impl Client {
    async fn call(&mut self, method: &str, mut params: Value) -> Value {
        self.next_id += 1;
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "replicas", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}
        });
        let mut request = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", method);
        if let Some(uri) = params["uri"].as_str() {
            request = request.header("mcp-name", uri);
        }
        let body =
            json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        let response = request
            .body(serde_json::to_vec(&body).unwrap())
            .send()
            .await
            .expect("nginx answers");
        let upstream = response
            .headers()
            .get("x-upstream")
            .unwrap_or_else(|| panic!("{method}: no X-Upstream header"))
            .to_str()
            .unwrap()
            .to_owned();
        assert_eq!(response.status(), 200, "{method} via {upstream}");
        let answer: Value =
            serde_json::from_slice(&response.bytes().await.expect("a body")).expect("JSON");
        assert!(
            answer["error"].is_null(),
            "{method} via {upstream}: {answer}"
        );
        self.upstreams.push(upstream);
        answer["result"].clone()
    }
}

#[tokio::test]
#[ignore = "needs nginx (apt-get install nginx-light; .ci/run installs it)"]
async fn stateless_replicas_behind_nginx_page_and_read_everything() {
    let binary = http_server_binary();
    let (_first, a) = replica(&binary);
    let (_second, b) = replica(&binary);
    let port = nginx::free_port();
    let _nginx = nginx::start("replicas", &nginx::documented_config([&a, &b], port), port);
    let mut client = Client {
        http: reqwest::Client::builder().no_proxy().build().unwrap(),
        url: format!("http://127.0.0.1:{port}/mcp"),
        next_id: 0,
        upstreams: Vec::new(),
    };

    // skills/list, one skill per page.
    let mut skills = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let params = cursor.map_or(json!({}), |cursor| json!({ "cursor": cursor }));
        let page: ListSkillsResult =
            serde_json::from_value(client.call("skills/list", params).await).unwrap();
        assert_eq!(page.skills.len(), 1, "one skill per page");
        skills.extend(page.skills);
        cursor = page.next_cursor;
        if cursor.is_none() {
            break;
        }
    }
    rmcp::model::validate_skills(&skills).expect("entries pass rmcp's validation");
    let expected: Vec<&str> = EXAMPLES.skills().iter().map(|skill| skill.uri()).collect();
    let got: Vec<&str> = skills.iter().map(|skill| skill.uri.as_str()).collect();
    assert_eq!(got, expected);

    // resources/list, two entries per page.
    let mut resources = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let params = cursor.map_or(json!({}), |cursor| json!({ "cursor": cursor }));
        let page: ListResourcesResult =
            serde_json::from_value(client.call("resources/list", params).await).unwrap();
        assert!(page.resources.len() <= 2);
        pages += 1;
        resources.extend(page.resources.into_iter().map(|resource| resource.uri));
        cursor = page.next_cursor;
        if cursor.is_none() {
            break;
        }
    }
    assert!(pages >= 3, "{pages} pages of resources/list");
    for skill in EXAMPLES.skills() {
        assert!(
            resources.iter().any(|uri| uri == skill.uri()),
            "{}",
            skill.uri()
        );
    }

    // Every file, through nginx, against its digest.
    let mut verified = 0;
    for skill in &skills {
        let rmcp::model::SkillResources::Files(files) = &skill.resources else {
            panic!("{} is dynamic", skill.uri);
        };
        for file in files {
            let read: ReadResourceResult = serde_json::from_value(
                client
                    .call("resources/read", json!({ "uri": file.uri }))
                    .await,
            )
            .unwrap();
            let bytes = match &read.contents[..] {
                [ResourceContents::TextResourceContents { text, .. }] => text.as_bytes().to_vec(),
                [ResourceContents::BlobResourceContents { blob, .. }] => {
                    use base64::Engine as _;
                    base64::engine::general_purpose::STANDARD
                        .decode(blob)
                        .unwrap()
                }
                other => panic!("{}: {other:?}", file.uri),
            };
            file.verify(&bytes)
                .unwrap_or_else(|error| panic!("{}: {error}", file.uri));
            verified += 1;
        }
    }
    let embedded: usize = EXAMPLES.skills().iter().map(|s| s.files().len()).sum();
    assert_eq!(verified, embedded);

    // Round-robin: both replicas answered, never the same one twice in a
    // row, so each page's cursor was read by the replica that did not issue it.
    let mut answered: Vec<&str> = client.upstreams.iter().map(String::as_str).collect();
    for pair in client.upstreams.windows(2) {
        assert_ne!(
            pair[0], pair[1],
            "two requests in a row went to one replica"
        );
    }
    answered.sort_unstable();
    answered.dedup();
    let mut replicas = vec![a.as_str(), b.as_str()];
    replicas.sort_unstable();
    assert_eq!(answered, replicas);
}

/// The example says on stderr what it serves, then stays quiet per request:
/// rmcp logs three `info` lines for every stateless request, which the
/// example filters below `debug` (at `info` they made it use 1.18 × the CPU
/// per read under load).
#[tokio::test]
async fn the_example_server_logs_nothing_per_request() {
    let binary = http_server_binary();
    let log = std::env::temp_dir().join(format!("skills-http-log-{}", std::process::id()));
    let file = std::fs::File::create(&log).expect("a log file");
    let (running, address) = stateless_server(&binary, &[], Stdio::from(file));
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    let requests = 20;
    for id in 0..requests {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "skills/list", "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "log", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}
        }}});
        let response = http
            .post(format!("http://{address}/mcp"))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "skills/list")
            .body(serde_json::to_vec(&body).unwrap())
            .send()
            .await
            .expect("the server answers");
        assert_eq!(response.status(), 200);
        let answer: Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
        assert!(answer["result"]["skills"].is_array(), "{answer}");
    }
    drop(running);
    let text = std::fs::read_to_string(&log).expect("the log");
    let _ = std::fs::remove_file(&log);
    assert!(
        text.contains(&format!("serving {} skills", EXAMPLES.len())),
        "the log does not say what is served:\n{text}"
    );
    assert!(
        text.lines().count() < requests,
        "the log grows with the requests ({} lines for {requests} requests):\n{text}",
        text.lines().count()
    );
}
