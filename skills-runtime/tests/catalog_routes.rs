//! The catalog routes of `SkillsRouter` (`GET /skills`, `GET /skills/{name}`)
//! and MCP over streamable HTTP, served together on a real socket (port 0)
//! behind a bearer-token layer, for learners of a course platform: the route
//! shapes, agreement with `skills/get`, one 404 for everything not owned,
//! ETags and `If-None-Match`, `Cache-Control`, `replace()` swapping MCP and
//! the routes at once, and (over HTTP, both eras) locked, absent and
//! nonexistent skills answering alike, status and headers included.

use skills_test_support::probes;

use std::collections::{BTreeSet, HashMap, HashSet};

use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rmcp::model::{GetSkillRequestParams, ProtocolVersion, SkillResources};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientLifecycleMode, ClientServiceExt as _, RoleClient, ServiceExt as _};
use serde_json::{Value, json};
use skills_runtime::http::SkillsRouter;
use skills_runtime::server::{Access, Offer};
use skills_runtime::{Skills, SkillsServer};

// The course platform's skills: `academy` free, the courses sold.
use skills_test_support::trees::COURSES;

/// What the auth layer resolves per request: the learner and what they own.
#[derive(Clone, Debug)]
struct Learner {
    owned: HashSet<&'static str>,
}

/// learner-a owns rust-ownership, learner-b sql-joins; async-rust is on
/// sale to both; kubernetes-basics is in preparation (absent for everyone).
fn owned_by(token: &str) -> Option<HashSet<&'static str>> {
    match token {
        "learner-a" => Some(HashSet::from(["academy", "rust-ownership"])),
        "learner-b" => Some(HashSet::from(["academy", "sql-joins"])),
        _ => None,
    }
}

fn on_sale() -> HashMap<&'static str, Offer> {
    ["rust-ownership", "sql-joins", "async-rust"]
        .into_iter()
        .map(|name| {
            let offer = json!({"price": "EUR 49.00", "link": format!("https://academy.example/buy/{name}")});
            (name, Offer::new(offer))
        })
        .collect()
}

/// The author's auth layer: no valid bearer token, no answer (but for the
/// public `/.well-known/…`, merged after the layer).
async fn authenticate(mut request: Request, next: Next) -> Response {
    let token = request
        .headers()
        .get(http::header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "));
    let Some(owned) = token.and_then(owned_by) else {
        return (
            StatusCode::UNAUTHORIZED,
            [(
                "www-authenticate",
                "Bearer resource_metadata=\"/.well-known/oauth-protected-resource\"",
            )],
        )
            .into_response();
    };
    request.extensions_mut().insert(Learner { owned });
    next.run(request).await
}

fn platform_server(skills: Skills) -> SkillsServer {
    let offers = on_sale();
    SkillsServer::builder(skills)
        .access(move |skill, caller| {
            let Some(learner) = caller.extension::<Learner>() else {
                return Access::Absent;
            };
            if learner.owned.contains(skill.name()) {
                Access::Owned
            } else if let Some(offer) = offers.get(skill.name()) {
                Access::Locked(offer.clone())
            } else {
                Access::Absent
            }
        })
        .prompts(true)
        .build()
        .unwrap()
}

/// Serves `server` with the catalog routes and MCP behind the auth layer;
/// returns the base URL.
async fn serve(server: SkillsServer) -> String {
    let router = SkillsRouter::new(server)
        .build()
        .layer(axum::middleware::from_fn(authenticate))
        .route(
            "/.well-known/oauth-protected-resource",
            get(|| async { "{}" }),
        );
    crate::serve_router(router).await
}

fn http() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

/// A response as comparable text: status, headers but `Date` and
/// `Mcp-Session-Id` (sorted), body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    async fn of(response: reqwest::Response) -> Answer {
        let status = response.status().as_u16();
        let mut headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .filter(|(name, _)| !matches!(name.as_str(), "date" | "mcp-session-id"))
            .map(|(name, value)| (name.to_string(), value.to_str().unwrap_or("?").to_owned()))
            .collect();
        headers.sort();
        let body = response.text().await.unwrap();
        Answer {
            status,
            headers,
            body,
        }
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|_| panic!("not JSON: {}", self.body))
    }

    fn text(&self) -> String {
        format!("{} {:?}\n{}", self.status, self.headers, self.body)
    }
}

async fn get_as(base: &str, path: &str, token: Option<&str>, headers: &[(&str, &str)]) -> Answer {
    let mut request = http().get(format!("{base}{path}"));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    Answer::of(request.send().await.unwrap()).await
}

type Client = RunningService<RoleClient, ()>;

/// rmcp's own streamable HTTP client, with the learner's bearer token.
async fn connect(base: &str, token: &str, modern: bool) -> Client {
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(format!("{base}/mcp")).auth_header(token),
    );
    if modern {
        ().serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("server/discover")
    } else {
        ().serve(transport).await.expect("initialize")
    }
}

#[tokio::test]
async fn the_catalog_lists_owned_skills_and_teases_locked_ones() {
    let base = serve(platform_server(COURSES.clone())).await;
    let answer = get_as(&base, "/skills", Some("learner-a"), &[]).await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(answer.header("content-type"), Some("application/json"));
    let owned: Vec<Value> = ["academy", "courses/rust-ownership"]
        .into_iter()
        .map(|path| {
            let skill = COURSES.get(path).unwrap();
            json!({
                "name": skill.name(),
                "description": skill.description(),
                "uri": skill.uri(),
                "version": skill.version(),
                "files": skill.files().len(),
                "size": skill.files().iter().map(|file| file.size()).sum::<u64>(),
            })
        })
        .collect();
    let offers = on_sale();
    let locked: Vec<Value> = ["courses/async-rust", "courses/sql-joins"]
        .into_iter()
        .map(|path| {
            let skill = COURSES.get(path).unwrap();
            json!({
                "name": skill.name(),
                "description": skill.description(),
                "offer": offers[skill.name()].json(),
            })
        })
        .collect();
    assert_eq!(answer.json(), json!({"skills": owned, "locked": locked}));
    // The skill in preparation is not even teased.
    assert!(!answer.body.contains("kubernetes"), "{}", answer.body);

    // learner-b's catalog is their own.
    let b = get_as(&base, "/skills", Some("learner-b"), &[])
        .await
        .json();
    let names = |list: &Value| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|entry| entry["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names(&b["skills"]), ["academy", "sql-joins"]);
    assert_eq!(names(&b["locked"]), ["async-rust", "rust-ownership"]);
}

#[tokio::test]
async fn an_owned_skills_route_agrees_with_its_skills_get_entry_on_both_eras() {
    let base = serve(platform_server(COURSES.clone())).await;
    for modern in [false, true] {
        let client = connect(&base, "learner-a", modern).await;
        for name in ["academy", "rust-ownership"] {
            let route = get_as(&base, &format!("/skills/{name}"), Some("learner-a"), &[]).await;
            assert_eq!(route.status, 200, "{}", route.text());
            let route = route.json();
            let entry = client
                .get_skill(GetSkillRequestParams::new(route["uri"].as_str().unwrap()))
                .await
                .unwrap()
                .skill;
            assert_eq!(route["name"], entry.name());
            let version = &entry.meta.as_ref().unwrap()[skills_runtime::protocol::VERSION_META_KEY];
            assert_eq!(&route["version"], version, "modern: {modern}");
            let SkillResources::Files(files) = &entry.resources else {
                panic!("a manifest of files")
            };
            let from_entry: BTreeSet<(String, String, u64)> = files
                .iter()
                .map(|file| (file.uri.clone(), file.digest.clone(), file.size))
                .collect();
            let from_route: BTreeSet<(String, String, u64)> = route["files"]
                .as_array()
                .unwrap()
                .iter()
                .map(|file| {
                    let uri = file["uri"].as_str().unwrap().to_owned();
                    // The path names the file within the skill's folder.
                    assert!(uri.ends_with(file["path"].as_str().unwrap()), "{file}");
                    (
                        uri,
                        file["digest"].as_str().unwrap().to_owned(),
                        file["size"].as_u64().unwrap(),
                    )
                })
                .collect();
            assert_eq!(from_route, from_entry, "{name}, modern: {modern}");
            // The version is the revision of exactly those files.
            let revision = skills_core::digest::revision(
                from_route
                    .iter()
                    .map(|(uri, digest, size)| (uri.as_str(), digest.as_str(), *size)),
            );
            assert_eq!(route["version"], revision.as_str());
        }
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn anything_not_owned_gets_one_404_whatever_its_name() {
    let base = serve(platform_server(COURSES.clone())).await;
    let reference = get_as(&base, "/skills/no-such-course", Some("learner-a"), &[]).await;
    assert_eq!(reference.status, 404);
    assert_eq!(reference.header("cache-control"), Some("private, no-cache"));
    for path in [
        "/skills/sql-joins",         // locked: on sale
        "/skills/async-rust",        // locked, owned by nobody
        "/skills/kubernetes-basics", // absent: in preparation
        "/skills/courses",           // a folder, not a skill
        "/skills/..%2fSKILL.md",     // a path, decoded into the name
        "/skills/academy%2fSKILL.md",
        "/skills/ACADEMY",
        "/skills/%00",
        "/skills/rust-ownership%20",
    ] {
        let answer = get_as(&base, path, Some("learner-a"), &[]).await;
        assert_eq!(answer.text(), reference.text(), "{path}");
    }
    // What the owner of the same skill gets: the route is real.
    let owner = get_as(&base, "/skills/sql-joins", Some("learner-b"), &[]).await;
    assert_eq!(owner.status, 200);
}

#[tokio::test]
async fn routes_need_the_bearer_token_like_mcp_and_only_well_known_is_public() {
    let base = serve(platform_server(COURSES.clone())).await;
    for path in ["/skills", "/skills/academy", "/skills/no-such-course"] {
        for token in [None, Some("not-a-learner")] {
            let answer = get_as(&base, path, token, &[]).await;
            assert_eq!(answer.status, 401, "{path} {token:?}: {}", answer.text());
            assert!(answer.header("www-authenticate").is_some());
        }
    }
    let mcp = http()
        .post(format!("{base}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(mcp.status(), 401);
    let public = get_as(&base, "/.well-known/oauth-protected-resource", None, &[]).await;
    assert_eq!(public.status, 200);
}

#[tokio::test]
async fn etags_revalidate_and_a_replace_swaps_routes_and_mcp_at_once() {
    let folder = std::env::temp_dir().join(format!("catalog-routes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    let write = |skill: &str, body: &str| {
        let dir = folder.join(skill);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {skill}\ndescription: The {skill} skill, for tests of the catalog routes.\n---\n{body}\n"),
        )
        .unwrap();
    };
    let load = || {
        skills_core::load(&folder, &skills_core::Options::default())
            .unwrap_or_else(|report| panic!("{report}"))
            .into_skills()
    };
    write("academy", "v1");
    write("kubernetes-basics", "v1");
    let server = platform_server(load());
    let base = serve(server.clone()).await;

    let first = get_as(&base, "/skills/academy", Some("learner-a"), &[]).await;
    let etag = first.header("etag").unwrap().to_owned();
    assert_eq!(
        etag,
        format!("\"{}\"", first.json()["version"].as_str().unwrap())
    );
    let list = get_as(&base, "/skills", Some("learner-a"), &[]).await;
    let list_etag = list.header("etag").unwrap().to_owned();

    // The same ETag back: 304, no body, the same validators.
    for (path, tag) in [("/skills/academy", &etag), ("/skills", &list_etag)] {
        let again = get_as(&base, path, Some("learner-a"), &[("if-none-match", tag)]).await;
        assert_eq!(again.status, 304, "{path}");
        assert!(again.body.is_empty());
        assert_eq!(again.header("etag"), Some(tag.as_str()));
        assert_eq!(again.header("cache-control"), Some("private, no-cache"));
        let stale = get_as(
            &base,
            path,
            Some("learner-a"),
            &[("if-none-match", "\"sha256:00\"")],
        )
        .await;
        assert_eq!(stale.status, 200, "{path}");
    }

    // A change learner-a cannot see changes nothing they get.
    write("kubernetes-basics", "v2");
    assert!(server.replace(load()).unwrap());
    let after_hidden = get_as(
        &base,
        "/skills",
        Some("learner-a"),
        &[("if-none-match", &list_etag)],
    )
    .await;
    assert_eq!(after_hidden.status, 304);

    // A change to what they own: a new version on the route and over MCP at once.
    let client = connect(&base, "learner-a", false).await;
    write("academy", "v2");
    assert!(server.replace(load()).unwrap());
    let changed = get_as(
        &base,
        "/skills/academy",
        Some("learner-a"),
        &[("if-none-match", &etag)],
    )
    .await;
    assert_eq!(changed.status, 200);
    let version = changed.json()["version"].as_str().unwrap().to_owned();
    assert_ne!(format!("\"{version}\""), etag);
    let entry = client
        .get_skill(GetSkillRequestParams::new("skill://academy/SKILL.md"))
        .await
        .unwrap()
        .skill;
    assert_eq!(
        entry.meta.unwrap()[skills_runtime::protocol::VERSION_META_KEY],
        version.as_str()
    );
    client.cancel().await.unwrap();
    let _ = std::fs::remove_dir_all(&folder);
}

#[tokio::test]
async fn without_a_policy_the_catalog_is_public_and_has_no_teasers() {
    let router = SkillsRouter::new(SkillsServer::new(COURSES.clone())).build();
    let base = crate::serve_router(router).await;
    let list = get_as(&base, "/skills", None, &[]).await;
    assert_eq!(list.header("cache-control"), Some("public, no-cache"));
    assert_eq!(
        list.json()["skills"].as_array().unwrap().len(),
        COURSES.len()
    );
    assert_eq!(list.json()["locked"], json!([]));

    // And a router that turns the routes off does not answer them.
    let router = SkillsRouter::new(SkillsServer::new(COURSES.clone()))
        .catalog(false)
        .build();
    let base = crate::serve_router(router).await;
    assert_eq!(get_as(&base, "/skills", None, &[]).await.status, 404);
}

// ---------------------------------------------------------------------------
// MCP over streamable HTTP: not owned is indistinguishable from nonexistent

/// Raw JSON-RPC over HTTP as learner-b: a fresh session per run (2025-11-25),
/// or stateless requests with per-request `_meta` (2026-07-28).
async fn raw_mcp(base: &str, modern: bool, requests: &[Value]) -> Vec<Answer> {
    let client = http();
    let version = if modern { "2026-07-28" } else { "2025-11-25" };
    let post = |body: Value, session: Option<String>| {
        let mut request = client
            .post(format!("{base}/mcp"))
            .bearer_auth("learner-b")
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", version);
        if let Some(session) = session {
            request = request.header("mcp-session-id", session);
        }
        if modern && let Some(method) = body["method"].as_str() {
            request = request.header("mcp-method", method);
            let name = match method {
                "resources/read" | "resources/subscribe" | "resources/unsubscribe" => {
                    body["params"]["uri"].as_str()
                }
                "tools/call" => body["params"]["name"].as_str(),
                _ => None,
            };
            if let Some(name) = name {
                request = request.header("mcp-name", name);
            }
        }
        request.body(body.to_string()).send()
    };
    let mut session = None;
    if !modern {
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}});
        let response = post(initialize, None).await.unwrap();
        session = Some(
            response.headers()["mcp-session-id"]
                .to_str()
                .unwrap()
                .to_owned(),
        );
        let _ = response.text().await;
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(
            post(initialized, session.clone()).await.unwrap().status(),
            202
        );
    }
    let mut answers = Vec::new();
    for (id, request) in requests.iter().enumerate() {
        let mut message = request.clone();
        message["jsonrpc"] = json!("2.0");
        message["id"] = json!(id + 1);
        if modern {
            let params = message
                .as_object_mut()
                .unwrap()
                .entry("params")
                .or_insert_with(|| json!({}));
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {}
            });
        }
        answers.push(Answer::of(post(message, session.clone()).await.unwrap()).await);
    }
    answers
}

/// The requests naming the skill at `path` called `name`.
fn probes(path: &str, name: &str) -> Vec<Value> {
    probes::naming_skill(path, name, "references/exercises.md")
}

/// A name nobody uses, as long as `name` (so `Content-Length` matches too).
fn twin(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphabetic() { 'q' } else { c })
        .collect()
}

#[tokio::test]
async fn over_streamable_http_locked_absent_and_nonexistent_answer_alike_on_both_eras() {
    let base = serve(platform_server(COURSES.clone())).await;
    for modern in [false, true] {
        // learner-b asks; learner-a owns rust-ownership (the paths are real).
        for (path, name) in [
            ("courses/rust-ownership", "rust-ownership"), // locked for learner-b (on sale)
            ("courses/kubernetes-basics", "kubernetes-basics"), // absent: in preparation
        ] {
            let real = raw_mcp(&base, modern, &probes(path, name)).await;
            let fake_name = twin(name);
            let fake_path = path.replace(name, &fake_name);
            let fake = raw_mcp(&base, modern, &probes(&fake_path, &fake_name)).await;
            for (index, (real, fake)) in real.iter().zip(&fake).enumerate() {
                let real_text = real.text().replace(name, &fake_name);
                assert_eq!(
                    real_text,
                    fake.text(),
                    "modern: {modern}, probe {index} of {path} differs from a skill that does not exist"
                );
            }
            // Refusals, not empty successes.
            for answer in &real[..6] {
                assert!(
                    answer.body.contains("-32602"),
                    "modern: {modern}: {}",
                    answer.text()
                );
            }
            // And the catalog route alike.
            let route = get_as(&base, &format!("/skills/{name}"), Some("learner-b"), &[]).await;
            let none = get_as(
                &base,
                &format!("/skills/{fake_name}"),
                Some("learner-b"),
                &[],
            )
            .await;
            assert_eq!(route.text(), none.text());
        }
    }
    // The probes are real paths: the owner reads them.
    let owner = raw_mcp(&base, true, &probes("courses/sql-joins", "sql-joins")).await;
    assert!(!owner[0].body.contains("-32602"), "{}", owner[0].text());
}

/// The JSON-RPC message of an answer: its body, or the last `data:` line of an
/// event stream.
fn jsonrpc(answer: &Answer) -> Value {
    let text = answer
        .body
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .rfind(|data| !data.is_empty())
        .unwrap_or(answer.body.as_str());
    serde_json::from_str(text).unwrap_or_else(|_| panic!("not JSON-RPC: {}", answer.text()))
}

/// What the 2026-07-28 revision removed is a method that does not exist
/// there: HTTP 404 with `-32601` (SEP-2575, the conformance suite's
/// `server-stateless`), whatever the params; the same endpoint answers a
/// 2025-11-25 session's same requests as before.
#[tokio::test]
async fn methods_2026_07_28_removed_are_not_found_there_and_unchanged_on_2025_11_25() {
    let base = serve(SkillsServer::new(COURSES.clone())).await;
    let skill_md = "skill://courses/sql-joins/SKILL.md";
    let removed = [
        json!({"method": "initialize"}),
        json!({"method": "ping"}),
        json!({"method": "logging/setLevel"}),
        json!({"method": "logging/setLevel", "params": {"level": "info"}}),
        json!({"method": "resources/subscribe"}),
        json!({"method": "resources/subscribe", "params": {"uri": skill_md}}),
        json!({"method": "resources/unsubscribe"}),
        json!({"method": "resources/unsubscribe", "params": {"uri": skill_md}}),
    ];
    let modern = raw_mcp(&base, true, &removed).await;
    for (request, answer) in removed.iter().zip(&modern) {
        assert_eq!(answer.status, 404, "{request}: {}", answer.text());
        let message = jsonrpc(answer);
        assert_eq!(message["error"]["code"], -32601, "{request}: {message}");
        assert!(
            message["id"].is_number(),
            "{request}: the id is kept: {message}"
        );
    }
    // A method the era kept is still answered there.
    let kept = raw_mcp(&base, true, &[json!({"method": "skills/list"})]).await;
    assert_eq!(kept[0].status, 200, "{}", kept[0].text());
    assert!(jsonrpc(&kept[0])["result"]["skills"].is_array());

    // 2025-11-25, one session on the same endpoint: the methods exist; bad
    // params are -32602 (HTTP 200, in band), ping answers.
    let older = raw_mcp(
        &base,
        false,
        &[
            json!({"method": "ping"}),
            json!({"method": "logging/setLevel", "params": {}}),
            json!({"method": "resources/subscribe", "params": {}}),
            json!({"method": "resources/unsubscribe", "params": {}}),
        ],
    )
    .await;
    assert_eq!(older[0].status, 200, "{}", older[0].text());
    assert_eq!(
        jsonrpc(&older[0])["result"],
        json!({}),
        "{}",
        older[0].text()
    );
    for answer in &older[1..] {
        assert_eq!(answer.status, 200, "{}", answer.text());
        assert_eq!(
            jsonrpc(answer)["error"]["code"],
            -32602,
            "{}",
            answer.text()
        );
    }
}

// ---------------------------------------------------------------------------
// Hostile requests to the routes

#[tokio::test]
async fn hostile_route_requests_get_clean_refusals_and_leak_nothing() {
    let base = serve(platform_server(COURSES.clone())).await;
    let not_found = get_as(&base, "/skills/no-such-course", Some("learner-a"), &[])
        .await
        .text();
    // Paths: decoded into a name, never into a file path. (`%2e%2e` and
    // `..` segments are resolved by the client's URL parser before sending.)
    for path in [
        "/skills/..%2fSKILL.md",
        "/skills/..%2f..%2fetc%2fpasswd",
        "/skills/courses%2fsql-joins",
        "/skills/sql-joins%00",
        "/skills/%E2%80%AEsql-joins",
        &format!("/skills/{}", "a".repeat(8 << 10)),
    ] {
        let answer = get_as(&base, path, Some("learner-a"), &[]).await;
        assert_eq!(answer.text(), not_found, "{path}");
    }
    for path in [
        "/skills/sql-joins/SKILL.md",
        "/skills/sql-joins/",
        "/skillsx",
    ] {
        let answer = get_as(&base, path, Some("learner-a"), &[]).await;
        assert_eq!(answer.status, 404, "{path}: {}", answer.text());
        assert!(!answer.body.contains("sql"), "{path}: {}", answer.text());
    }
    // Host headers: the routes answer the names /mcp answers, no other.
    for host in [
        "evil.example",
        "127.0.0.1@evil.example",
        "127.0.0.1.evil.example",
        "localhost.evil.example:80",
        &"h".repeat(8 << 10),
    ] {
        for path in ["/skills", "/skills/academy"] {
            let answer = get_as(&base, path, Some("learner-a"), &[("host", host)]).await;
            assert_eq!(
                answer.status,
                403,
                "{path} Host {host:.40}: {}",
                answer.text()
            );
            assert!(!answer.body.contains("academy"), "{}", answer.text());
        }
    }
    let port = base.rsplit(':').next().unwrap();
    for host in [
        format!("localhost:{port}"),
        format!("LOCALHOST:{port}"),
        format!("[::1]:{port}"),
    ] {
        let answer = get_as(&base, "/skills", Some("learner-a"), &[("host", &host)]).await;
        assert_eq!(answer.status, 200, "Host {host}: {}", answer.text());
    }
    // Malformed bearer tokens: the auth layer's 401, routes and /mcp alike.
    let client = http();
    for authorization in [
        "Bearer".to_owned(),
        "Bearer ".to_owned(),
        "Basic bGVhcm5lci1hOg==".to_owned(),
        "Bearer learner-a learner-b".to_owned(),
        format!("Bearer {}", "x".repeat(16 << 10)),
    ] {
        for path in ["/skills", "/skills/academy"] {
            let response = client
                .get(format!("{base}{path}"))
                .header("authorization", authorization.as_str())
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 401, "{path} {authorization:.40}");
        }
    }
    // Bytes that are not text (obs-text) in the header.
    let response = client
        .get(format!("{base}/skills"))
        .header(
            "authorization",
            reqwest::header::HeaderValue::from_bytes(b"Bearer \xe9learner-a").unwrap(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
    // And the server still answers a good request afterwards.
    let after = get_as(&base, "/skills/academy", Some("learner-a"), &[]).await;
    assert_eq!(after.status, 200);
}
