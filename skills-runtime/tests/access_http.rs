//! Per-caller access over streamable HTTP, in process: the author's tower
//! layer resolves each request's bearer token to a learner and the skills
//! they own, once per request, into the request extensions; the policy reads
//! them there through `Caller`, for MCP requests and plain routes alike; and
//! after a purchase, `refresh_views_with` resolves each session again and
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
        .build();
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
    assert_eq!(server.refresh_views(), 0);
    let told = server.refresh_views_with(|parts| {
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
