//! Per-caller access over streamable HTTP, in process: the author's tower
//! layer resolves each request's bearer token to a learner and the skills
//! they own, once per request, into the request extensions; the policy reads
//! them there through `Caller`, for MCP requests and plain routes alike; and
//! after a purchase, `refresh_views` resolves each session again and
//! tells only the buyer.

use skills_test_support as support;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use skills_runtime::SkillsServer;
use skills_runtime::server::{Access, Caller};
use support::{Named, NamedClient};

use support::trees::EXAMPLES as SKILLS;

/// The platform's entitlements table: learner → skills owned.
type Table = Arc<RwLock<HashMap<String, HashSet<String>>>>;

/// What the auth layer resolves per request.
#[derive(Clone, Debug)]
struct Learner {
    id: String,
    owned: HashSet<String>,
}

/// The author's auth layer: token → learner → owned set, once per request.
async fn authenticate(table: Table, mut request: Request, next: Next) -> Response {
    let token = request
        .headers()
        .get(http::header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::to_owned);
    if let Some(id) = token {
        let owned = table.read().unwrap().get(&id).cloned().unwrap_or_default();
        request.extensions_mut().insert(Learner { id, owned });
    }
    next.run(request).await
}

async fn serve(server: SkillsServer, table: Table) -> String {
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router =
        axum::Router::new()
            .nest_service("/mcp", service)
            .layer(axum::middleware::from_fn(move |request, next| {
                authenticate(table.clone(), request, next)
            }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{address}/mcp")
}

async fn connect(url: &str, token: &str) -> NamedClient {
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url).auth_header(token),
    );
    Named::new(token)
        .serve(transport)
        .await
        .expect("initialize")
}

async fn owned_uris(client: &NamedClient) -> Vec<String> {
    let mut uris: Vec<String> = client
        .list_all_skills()
        .await
        .unwrap()
        .into_iter()
        .map(|entry| entry.uri)
        .collect();
    uris.sort();
    uris
}

#[tokio::test]
async fn the_auth_layers_entitlements_decide_and_a_purchase_tells_the_buyer() {
    let table: Table = Arc::default();
    table.write().unwrap().extend([
        (
            "learner-a".to_owned(),
            HashSet::from(["stock-audit".to_owned()]),
        ),
        (
            "learner-b".to_owned(),
            HashSet::from(["purchase-orders".to_owned()]),
        ),
    ]);
    let server = SkillsServer::builder(SKILLS.clone())
        .access(|skill, caller| match caller.extension::<Learner>() {
            Some(learner) if learner.owned.contains(skill.name()) => Access::Owned,
            _ if skill.name() == "recipe-scaling" => Access::Owned,
            _ => Access::Absent,
        })
        .notify_changes(true)
        .build()
        .unwrap();
    let url = serve(server.clone(), table.clone()).await;
    let a = connect(&url, "learner-a").await;
    let b = connect(&url, "learner-b").await;
    assert_eq!(
        owned_uris(&a).await,
        [
            "skill://kitchen/recipe-scaling/SKILL.md",
            "skill://stock-audit/SKILL.md"
        ]
    );
    assert_eq!(
        owned_uris(&b).await,
        [
            "skill://kitchen/recipe-scaling/SKILL.md",
            "skill://purchase-orders/SKILL.md"
        ]
    );
    let instructions = a
        .peer_info()
        .and_then(|info| info.instructions.clone())
        .unwrap();
    assert!(instructions.contains("stock-audit") && !instructions.contains("purchase-orders"));
    assert_eq!(server.listeners(), 2);

    // learner-a buys purchase-orders. Each session's view was computed from
    // the entitlements its request carried: refreshing as they are finds
    // nothing new; resolving them again finds the purchase.
    table
        .write()
        .unwrap()
        .get_mut("learner-a")
        .unwrap()
        .insert("purchase-orders".to_owned());
    assert_eq!(server.refresh_views(|_| {}), 0);
    let told = server.refresh_views(|parts| {
        if let Some(learner) = parts.extensions.get_mut::<Learner>() {
            learner.owned = table
                .read()
                .unwrap()
                .get(&learner.id)
                .cloned()
                .unwrap_or_default();
        }
    });
    assert_eq!(told, 1);
    tokio::time::timeout(Duration::from_secs(30), a.service().notified.notified())
        .await
        .expect("learner-a is told");
    assert_eq!(owned_uris(&a).await.len(), 3);
    assert_eq!(
        b.service()
            .list_changed
            .load(std::sync::atomic::Ordering::SeqCst),
        0
    );

    // A plain route sees the same: the request head alone is the caller.
    let mut request = http::Request::new(());
    let owned = table.read().unwrap()["learner-b"].clone();
    request.extensions_mut().insert(Learner {
        id: "learner-b".into(),
        owned,
    });
    let (parts, ()) = request.into_parts();
    let view = server.view(&Caller::from_http(&parts));
    let names: Vec<&str> = view.owned().map(|skill| skill.name()).collect();
    assert_eq!(names, ["recipe-scaling", "purchase-orders"]);
    a.cancel().await.unwrap();
    b.cancel().await.unwrap();
}

/// A refresh that takes its time (an author's update reading a database for
/// each of many sessions, say) holds no lock a new session waits for: on a
/// runtime with one worker, a learner connects and lists while a refresh
/// runs on a blocking thread, and is done first.
#[tokio::test(flavor = "current_thread")]
async fn a_slow_refresh_does_not_hold_up_a_new_session() {
    let table: Table = Arc::default();
    let server = SkillsServer::builder(SKILLS.clone())
        .access(|skill, caller| match caller.extension::<Learner>() {
            Some(learner) if learner.owned.contains(skill.name()) => Access::Owned,
            _ => Access::Absent,
        })
        .notify_changes(true)
        .build()
        .unwrap();
    let url = serve(server.clone(), table.clone()).await;
    let first = connect(&url, "learner-a").await;
    let (done, mut order) = tokio::sync::mpsc::unbounded_channel();
    let refreshing = server.clone();
    let refresh_done = done.clone();
    let (started, began) = tokio::sync::oneshot::channel();
    let mut started = Some(started);
    let refresh = tokio::task::spawn_blocking(move || {
        refreshing.refresh_views(|_| {
            if let Some(started) = started.take() {
                let _ = started.send(());
            }
            std::thread::sleep(Duration::from_secs(2));
        });
        refresh_done.send("refresh").unwrap();
    });
    began.await.unwrap();
    let second = connect(&url, "learner-b").await;
    owned_uris(&second).await;
    done.send("new session").unwrap();
    refresh.await.unwrap();
    assert_eq!(order.recv().await, Some("new session"));
    first.cancel().await.unwrap();
    second.cancel().await.unwrap();
}

// ---------------------------------------------------------------------------
// The front door of `SkillsRouter` and `http::Server`: Origin, session
// ownership and caps, slow clients.

mod front_door {
    use std::time::Duration;

    use axum::extract::Request;
    use axum::middleware::Next;
    use axum::response::Response;
    use serde_json::{Value, json};
    use skills_runtime::SkillsServer;
    use skills_runtime::http::{Limits, Principal, Server, SessionLimits, SkillsRouter};
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

    use super::SKILLS;

    /// Bearer token → principal (the token is the principal's name here).
    async fn authenticate(mut request: Request, next: Next) -> Response {
        let token = request
            .headers()
            .get(http::header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix("Bearer "))
            .map(str::to_owned);
        if let Some(token) = token {
            request.extensions_mut().insert(Principal::new(token));
        }
        next.run(request).await
    }

    /// Serves `router` (behind the auth layer) on a port of its own.
    async fn serve(router: SkillsRouter, limits: Limits) -> String {
        let router = router
            .build()
            .layer(axum::middleware::from_fn(authenticate));
        let server = Server::bind("127.0.0.1:0")
            .await
            .unwrap()
            .limits(limits)
            .until(std::future::pending());
        let url = server.url();
        tokio::spawn(server.serve(router));
        url
    }

    fn router() -> SkillsRouter {
        SkillsRouter::new(
            SkillsServer::builder(SKILLS.clone())
                .notify_changes(true)
                .build()
                .unwrap(),
        )
    }

    fn http() -> reqwest::Client {
        reqwest::Client::builder().no_proxy().build().unwrap()
    }

    /// One MCP request as `who` (a principal, or anonymous), in `session`.
    fn mcp(
        method: reqwest::Method,
        base: &str,
        who: Option<&str>,
        session: Option<&str>,
    ) -> reqwest::RequestBuilder {
        let mut request = http()
            .request(method, format!("{base}/mcp"))
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json");
        if let Some(who) = who {
            request = request.bearer_auth(who);
        }
        if let Some(session) = session {
            request = request.header("mcp-session-id", session);
        }
        request
    }

    fn initialize() -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}}})
    }

    /// Opens a session as `who` (initialize, then initialized); its id.
    async fn open(base: &str, who: Option<&str>) -> String {
        let answer = mcp(reqwest::Method::POST, base, who, None)
            .json(&initialize())
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200, "{:?}", answer.text().await);
        let id = answer.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        answer.text().await.unwrap();
        let done = mcp(reqwest::Method::POST, base, who, Some(&id))
            .json(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .send()
            .await
            .unwrap();
        assert_eq!(done.status(), 202);
        id
    }

    /// Every way to use a session, as `who`: status and body of each.
    async fn uses(base: &str, who: Option<&str>, session: &str) -> Vec<(u16, String)> {
        let list = json!({"jsonrpc": "2.0", "id": 2, "method": "skills/list"});
        let mut answers = Vec::new();
        for request in [
            mcp(reqwest::Method::POST, base, who, Some(session)).json(&list),
            mcp(reqwest::Method::GET, base, who, Some(session)),
            mcp(reqwest::Method::GET, base, who, Some(session)).header("last-event-id", "0/0"),
            mcp(reqwest::Method::DELETE, base, who, Some(session)),
        ] {
            let answer = request.send().await.unwrap();
            let status = answer.status().as_u16();
            // An answer that is a stream stays open: read only what is there.
            let body = if status == 200 {
                String::new()
            } else {
                answer.text().await.unwrap()
            };
            answers.push((status, body));
        }
        answers
    }

    #[tokio::test]
    async fn a_session_answers_only_the_principal_that_opened_it() {
        let base = serve(router(), Limits::default()).await;
        let mine = open(&base, Some("learner-a")).await;
        let unknown = uses(&base, Some("learner-b"), "no-such-session").await;
        assert!(
            unknown.iter().all(|(status, _)| *status == 404),
            "{unknown:?}"
        );
        // Another learner, and a caller without a token, get exactly what an
        // unknown session gets, whatever the method (DELETE included).
        assert_eq!(uses(&base, Some("learner-b"), &mine).await, unknown);
        assert_eq!(uses(&base, None, &mine).await, unknown);
        // The session is untouched: its owner still uses it.
        let list = mcp(reqwest::Method::POST, &base, Some("learner-a"), Some(&mine))
            .json(&json!({"jsonrpc": "2.0", "id": 3, "method": "skills/list"}))
            .send()
            .await
            .unwrap();
        assert_eq!(list.status(), 200);
        assert!(list.text().await.unwrap().contains("\"skills\""));
        let end = mcp(
            reqwest::Method::DELETE,
            &base,
            Some("learner-a"),
            Some(&mine),
        )
        .send()
        .await
        .unwrap();
        assert_eq!(end.status(), 202);
        assert_eq!(uses(&base, Some("learner-a"), &mine).await, unknown);
    }

    #[tokio::test]
    async fn sessions_are_capped_per_principal_and_in_total() {
        let limits = SessionLimits {
            max_sessions: 3,
            max_sessions_per_principal: 2,
            ..SessionLimits::default()
        };
        let base = serve(router().session_limits(limits), Limits::default()).await;
        let first = open(&base, Some("learner-a")).await;
        let second = open(&base, Some("learner-a")).await;
        // A third session of learner-a's closes their idlest one.
        let third = open(&base, Some("learner-a")).await;
        let list = |session: String| {
            let base = base.clone();
            async move {
                mcp(
                    reqwest::Method::POST,
                    &base,
                    Some("learner-a"),
                    Some(&session),
                )
                .json(&json!({"jsonrpc": "2.0", "id": 2, "method": "skills/list"}))
                .send()
                .await
                .unwrap()
                .status()
            }
        };
        assert_eq!(list(first.clone()).await, 404);
        assert_eq!(list(second.clone()).await, 200);
        assert_eq!(list(third.clone()).await, 200);
        // With an event stream open on each, none is idle: refused.
        let mut streams = Vec::new();
        for session in [&second, &third] {
            let stream = mcp(
                reqwest::Method::GET,
                &base,
                Some("learner-a"),
                Some(session),
            )
            .send()
            .await
            .unwrap();
            assert_eq!(stream.status(), 200);
            streams.push(stream);
        }
        let refused = mcp(reqwest::Method::POST, &base, Some("learner-a"), None)
            .json(&initialize())
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status(), 429);
        assert!(refused.headers().get("mcp-session-id").is_none());
        let message = refused.text().await.unwrap();
        assert!(message.contains("2 open sessions"), "{message}");
        // Requests that open no session still go through.
        let ping = mcp(
            reqwest::Method::POST,
            &base,
            Some("learner-a"),
            Some(&second),
        )
        .json(&json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}))
        .send()
        .await
        .unwrap();
        assert_eq!(ping.status(), 200);
        // learner-b takes the last place; the next caller finds the server full.
        let theirs = open(&base, Some("learner-b")).await;
        let full = mcp(reqwest::Method::POST, &base, Some("learner-c"), None)
            .json(&initialize())
            .send()
            .await
            .unwrap();
        assert_eq!(full.status(), 503);
        assert_eq!(full.headers()["retry-after"], "60");
        // Another principal's sessions are never closed to make room.
        assert_eq!(list(second.clone()).await, 200);
        let end = mcp(
            reqwest::Method::DELETE,
            &base,
            Some("learner-b"),
            Some(&theirs),
        )
        .send()
        .await
        .unwrap();
        assert_eq!(end.status(), 202);
        open(&base, Some("learner-c")).await;
        drop(streams);
    }

    #[tokio::test]
    async fn a_foreign_origin_is_refused_before_a_session_exists() {
        let limits = SessionLimits {
            max_sessions: 1,
            ..SessionLimits::default()
        };
        let base = serve(
            router()
                .session_limits(limits)
                .allowed_origins(["https://app.example.com"]),
            Limits::default(),
        )
        .await;
        for origin in [
            "http://evil.example",
            "null",
            "https://app.example.com:8443",
        ] {
            let refused = mcp(reqwest::Method::POST, &base, None, None)
                .header("origin", origin)
                .json(&initialize())
                .send()
                .await
                .unwrap();
            assert_eq!(refused.status(), 403, "{origin}");
            assert!(refused.headers().get("mcp-session-id").is_none());
            assert_eq!(
                refused.text().await.unwrap(),
                "Forbidden: Origin header is not allowed"
            );
            let route = http()
                .get(format!("{base}/skills"))
                .header("origin", origin)
                .send()
                .await
                .unwrap();
            assert_eq!(route.status(), 403, "{origin} on /skills");
        }
        // None of them made a session: the one place is still free. A page
        // of a listed origin (or none, or a loopback one) gets in.
        let allowed = mcp(reqwest::Method::POST, &base, None, None)
            .header("origin", "https://app.example.com")
            .json(&initialize())
            .send()
            .await
            .unwrap();
        assert_eq!(allowed.status(), 200);
        let route = http()
            .get(format!("{base}/skills"))
            .header("origin", "http://localhost:5173")
            .send()
            .await
            .unwrap();
        assert_eq!(route.status(), 200);
    }

    #[tokio::test]
    async fn the_announced_url_passes_the_host_check_and_listed_names_add_to_loopback() {
        let router = router().allowed_hosts(["skills.example.com"]).build();
        let server = Server::bind("0.0.0.0:0")
            .await
            .unwrap()
            .until(std::future::pending());
        let port = server.local_addr().port();
        let url = server.url();
        assert_eq!(url, format!("http://127.0.0.1:{port}"));
        tokio::spawn(server.serve(router));
        let get = |host: Option<&str>| {
            let mut request = http().get(format!("{url}/skills"));
            if let Some(host) = host {
                request = request.header("host", host);
            }
            async move { request.send().await.unwrap().status().as_u16() }
        };
        assert_eq!(get(None).await, 200);
        assert_eq!(get(Some("localhost")).await, 200);
        assert_eq!(get(Some("skills.example.com")).await, 200);
        assert_eq!(get(Some("evil.example")).await, 403);
        assert_eq!(get(Some(&format!("0.0.0.0:{port}"))).await, 403);
    }

    /// Reads from `stream` until it closes; what was read. Fails the test
    /// when the server keeps it open for `within`.
    async fn closed_within(stream: &mut tokio::net::TcpStream, within: Duration) -> Vec<u8> {
        let mut read = Vec::new();
        let outcome = tokio::time::timeout(within, async {
            let mut buffer = [0u8; 4096];
            loop {
                match stream.read(&mut buffer).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => read.extend_from_slice(&buffer[..n]),
                }
            }
        })
        .await;
        assert!(
            outcome.is_ok(),
            "the server kept the connection open for {within:?}"
        );
        read
    }

    fn tight() -> Limits {
        Limits {
            header_timeout: Duration::from_millis(500),
            body_timeout: Duration::from_millis(500),
            max_connections: 8,
            ..Limits::default()
        }
    }

    fn address(base: &str) -> String {
        base.trim_start_matches("http://").to_owned()
    }

    #[tokio::test]
    async fn a_client_trickling_its_headers_is_cut_at_the_header_timeout() {
        let base = serve(router(), tight()).await;
        let mut stream = tokio::net::TcpStream::connect(address(&base))
            .await
            .unwrap();
        stream
            .write_all(b"POST /mcp HTTP/1.1\r\nHost: localhost\r\n")
            .await
            .unwrap();
        let trickle = async {
            for byte in b"X-Slow: 1234567890".iter().cycle().take(100) {
                if stream.write_all(&[*byte]).await.is_err() {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        };
        // Still trickling after ten header timeouts would fail below.
        let _ = tokio::time::timeout(Duration::from_secs(5), trickle).await;
        closed_within(&mut stream, Duration::from_secs(5)).await;
    }

    #[tokio::test]
    async fn an_idle_connection_is_closed_and_an_event_stream_is_not() {
        let router = router()
            .configure(|config| config.with_sse_keep_alive(Some(Duration::from_millis(200))));
        let base = serve(router, tight()).await;
        let session = open(&base, Some("learner-a")).await;
        // An event stream outlives many header timeouts: its pings keep coming.
        let mut events = mcp(
            reqwest::Method::GET,
            &base,
            Some("learner-a"),
            Some(&session),
        )
        .send()
        .await
        .unwrap();
        assert_eq!(events.status(), 200);
        let started = tokio::time::Instant::now();
        let mut received = 0;
        while started.elapsed() < Duration::from_secs(3) {
            let chunk = tokio::time::timeout(Duration::from_secs(2), events.chunk())
                .await
                .expect("the stream keeps sending")
                .expect("the stream is open");
            assert!(chunk.is_some(), "the stream ended");
            received += 1;
        }
        assert!(received >= 3);
        // A kept-alive connection with nothing in flight is closed.
        let mut stream = tokio::net::TcpStream::connect(address(&base))
            .await
            .unwrap();
        stream
            .write_all(b"GET /skills HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .await
            .unwrap();
        let answer = closed_within(&mut stream, Duration::from_secs(5)).await;
        assert!(
            answer.starts_with(b"HTTP/1.1 200"),
            "{}",
            String::from_utf8_lossy(&answer)
        );
    }

    #[tokio::test]
    async fn a_stalled_body_is_cut_at_the_body_timeout() {
        let base = serve(router(), tight()).await;
        let mut stream = tokio::net::TcpStream::connect(address(&base))
            .await
            .unwrap();
        stream
            .write_all(
                b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
                  Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"",
            )
            .await
            .unwrap();
        let answer = closed_within(&mut stream, Duration::from_secs(5)).await;
        assert!(
            !answer.starts_with(b"HTTP/1.1 200"),
            "{}",
            String::from_utf8_lossy(&answer)
        );
    }

    #[tokio::test]
    async fn connections_past_the_cap_wait_until_one_closes() {
        let limits = Limits {
            max_connections: 2,
            ..tight()
        };
        let base = serve(router(), limits).await;
        let mut idle = Vec::new();
        for _ in 0..2 {
            let mut stream = tokio::net::TcpStream::connect(address(&base))
                .await
                .unwrap();
            stream.write_all(b"GET /skills HTTP/1.1\r\n").await.unwrap();
            idle.push(stream);
        }
        // Let the server accept both before the third comes.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let answered = http().get(format!("{base}/skills")).send().await.unwrap();
        assert_eq!(answered.status(), 200);
        // The third was served only once the two holding the cap were cut.
        for mut stream in idle {
            closed_within(&mut stream, Duration::from_millis(200)).await;
        }
    }
}
