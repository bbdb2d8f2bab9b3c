//! The example's own tests (`cargo test -p course-platform`): the
//! API reference generated from the routes, the OpenAPI document against
//! the router, and the resource server's answers to every kind of token,
//! in process. `tests/course_platform.rs` (of this package) drives the built binary.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use jsonwebtoken::EncodingKey;
use serde_json::{Value, json};
use tower::ServiceExt as _;

use crate::auth::{self, Audience, Claims, KeyMap, KeySource, Purpose, TokenRules, Verifier};
use crate::db::{self, Db, Entitlement, Entitlements, Location, Store};
use crate::{Options, SKILLS, api, platform};
use skills_test_support::postgres::Cluster;

/// The checked-in reference the `academy` skill links to.
const API_REFERENCE: &str = "skills/academy/references/api.md";

/// A fresh database in a folder of its own, removed when dropped: a
/// SQLite file there, or a throwaway PostgreSQL cluster.
struct Scratch {
    folder: PathBuf,
    postgres: Option<Cluster>,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let folder =
            std::env::temp_dir().join(format!("course-platform-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        Scratch {
            folder,
            postgres: None,
        }
    }

    /// A folder, and a fresh PostgreSQL cluster the database lives in.
    fn postgres(name: &str) -> Scratch {
        let mut scratch = Scratch::new(&format!("{name}-pg"));
        scratch.postgres = Some(Cluster::start());
        scratch
    }

    /// What `--db` is given for this database.
    fn location(&self) -> Location {
        match &self.postgres {
            Some(cluster) => Location::parse(&cluster.url()).unwrap(),
            None => Location::parse(self.folder.join("platform.db").to_str().unwrap()).unwrap(),
        }
    }

    /// Opens (creating on first use) the scratch database, as a process
    /// of the platform would.
    async fn db(&self) -> TestDb {
        TestDb::new(Db::open(&self.location()).await.unwrap()).await
    }
}

/// A database and what the token helpers need of it, read once.
struct TestDb {
    db: Db,
    issuer: String,
    audience: String,
    keys: Vec<(String, Vec<u8>, jsonwebtoken::jwk::Jwk)>,
}

impl TestDb {
    async fn new(db: Db) -> TestDb {
        TestDb {
            issuer: db.setting("issuer").await.unwrap(),
            audience: db.setting("audience").await.unwrap(),
            keys: db.signing_keys().await.unwrap(),
            db,
        }
    }
}

impl std::ops::Deref for TestDb {
    type Target = Db;

    fn deref(&self) -> &Db {
        &self.db
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

// ---------------------------------------------------------------------------
// The skill's API reference and the routes

#[test]
fn the_api_reference_is_what_the_routes_generate() {
    let reference = skills_runtime::openapi::api_reference(&api::document())
        .unwrap_or_else(|error| panic!("{error}"));
    skills_runtime::testing::assert_generated(API_REFERENCE, reference);
}

#[test]
fn the_embedded_reference_is_the_checked_in_file() {
    // The skill serves what was embedded at build time; a stale build would
    // serve an old reference even though the file on disk is current.
    let embedded = SKILLS
        .get("academy")
        .and_then(|skill| skill.file("references/api.md"))
        .expect("the academy skill embeds its API reference");
    assert!(
        embedded.bytes() == std::fs::read(API_REFERENCE).unwrap(),
        "the binary embeds another {API_REFERENCE} than the one on disk: build again (after SKILLS_UPDATE=1 rewrote it, the next `cargo test` embeds it)"
    );
}

/// The (method, path) pairs the OpenAPI document describes.
fn documented() -> BTreeSet<(String, String)> {
    let document = api::document();
    let mut routes = BTreeSet::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            routes.insert((method.to_ascii_uppercase(), path.clone()));
        }
    }
    routes
}

fn learner_a() -> Entitlements {
    Entitlements {
        learner: "learner-a".into(),
        owned: ["academy".to_owned(), "rust-ownership".to_owned()].into(),
        offers: Default::default(),
    }
}

#[tokio::test]
async fn the_documents_routes_are_the_routers_routes() {
    let scratch = Scratch::new("routes");
    let (router, table) = api::router(scratch.db().await.db, SKILLS.clone());
    let registered: BTreeSet<(String, String)> = table
        .iter()
        .map(|(method, path)| (method.to_string(), (*path).to_owned()))
        .collect();
    assert_eq!(registered.len(), table.len(), "a route registered twice");
    assert_eq!(
        documented(),
        registered,
        "the OpenAPI document (left) and the router (right) disagree: document the route with #[utoipa::path] and list it in ApiDoc, or remove it"
    );
    // And the router does route every documented pair: a routed request
    // reaches a handler (which answers JSON), an unrouted one gets axum's
    // empty 404 or 405.
    for (method, path) in documented() {
        let uri = path.replace("{slug}", "sql-joins").replace("{id}", "1");
        let mut request = Request::builder()
            .method(Method::from_bytes(method.as_bytes()).unwrap())
            .uri(&uri)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(r#"{"course": "async-rust"}"#))
            .unwrap();
        request.extensions_mut().insert(learner_a());
        let response = router.clone().oneshot(request).await.unwrap();
        assert_ne!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {uri}"
        );
        assert_eq!(
            response
                .headers()
                .get(header::CONTENT_TYPE)
                .map(|value| value.to_str().unwrap()),
            Some("application/json"),
            "{method} {uri} reached no handler"
        );
    }
}

// ---------------------------------------------------------------------------
// The resource server

/// The platform's router with the development key set, as `serve` builds
/// it, stateless, for a server whose public URL is `public` (and which
/// answers to `academy.test`).
async fn server_at(db: &TestDb, public: &str) -> axum::Router {
    let verifier = Verifier::new(
        KeySource::Database(db.db.clone()),
        TokenRules::of(db).await.unwrap(),
    )
    .await
    .unwrap();
    let mut options = Options::new(public);
    options.stateless = true;
    options.allowed_hosts = vec!["academy.test".to_owned()];
    platform(db.db.clone(), verifier, options).await.unwrap()
}

/// [`server_at`] `http://academy.test:8080`.
async fn server(db: &TestDb) -> axum::Router {
    server_at(db, "http://academy.test:8080").await
}

struct Answer {
    status: StatusCode,
    challenge: Option<String>,
    body: Value,
}

async fn get(router: &axum::Router, path: &str, token: Option<&str>) -> Answer {
    get_with(router, path, token, &[]).await
}

const METADATA: &str = "http://academy.test:8080/.well-known/oauth-protected-resource";

fn claims(db: &TestDb, learner: &str) -> Claims {
    let now = u64::try_from(db::now()).unwrap();
    Claims {
        iss: db.issuer.clone(),
        sub: learner.into(),
        aud: Audience::one(db.audience.clone()),
        iat: Some(now),
        exp: now + 600,
        nbf: None,
    }
}

/// Signs `claims` with the database's development key.
fn dev_token(db: &TestDb, claims: &Claims) -> String {
    let (kid, pkcs8, _) = db.keys[0].clone();
    auth::sign(claims, &kid, &EncodingKey::from_ed_der(&pkcs8)).unwrap()
}

/// A fresh Ed25519 key that is not the database's, and its public JWK.
fn other_key(kid: &str) -> (EncodingKey, Value) {
    let (_, pkcs8, jwk) = db::new_signing_key().unwrap();
    let mut jwk: Value = serde_json::from_str(&jwk).unwrap();
    jwk["kid"] = json!(kid);
    (EncodingKey::from_ed_der(&pkcs8), jwk)
}

fn assert_refused(answer: &Answer, error: auth::TokenError) {
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        answer.challenge.as_deref(),
        Some(
            format!(
                "Bearer error=\"invalid_token\", error_description=\"{}\", resource_metadata=\"{METADATA}\"",
                error.description()
            )
            .as_str()
        )
    );
    assert_eq!(
        answer.body,
        json!({"error": "invalid_token", "error_description": error.description()})
    );
}

#[tokio::test]
async fn no_token_gets_401_naming_the_resource_metadata() {
    let scratch = Scratch::new("no-token");
    let router = server(&scratch.db().await).await;
    for path in ["/api/me", "/mcp", "/api/courses/sql-joins"] {
        let answer = get(&router, path, None).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{path}");
        assert_eq!(
            answer.challenge.as_deref(),
            Some(format!("Bearer resource_metadata=\"{METADATA}\"").as_str()),
            "{path}"
        );
        assert_eq!(answer.body["error"], "unauthorized", "{path}");
    }
    // Another scheme is no bearer token either.
    let mut request = Request::builder()
        .uri("/api/me")
        .header(header::HOST, "academy.test:8080");
    request = request.header(header::AUTHORIZATION, "Basic bGVhcm5lci1hOg==");
    let response = router
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_protected_resource_metadata_is_public() {
    let scratch = Scratch::new("metadata");
    let db = scratch.db().await;
    let router = server(&db).await;
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let answer = get(&router, path, None).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert_eq!(
            answer.body,
            json!({
                "resource": db::DEFAULT_AUDIENCE,
                "authorization_servers": [db::DEFAULT_ISSUER],
                "bearer_methods_supported": ["header"],
                "resource_name": "Kestrel Academy",
            })
        );
    }
}

#[tokio::test]
async fn a_valid_token_reaches_the_learners_own_answers() {
    let scratch = Scratch::new("valid");
    let db = scratch.db().await;
    let router = server(&db).await;
    let token = auth::mint(&db, "learner-a", Duration::from_secs(60), Purpose::Access)
        .await
        .unwrap();
    let answer = get(&router, "/api/me", Some(&token)).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer.body,
        json!({"id": "learner-a", "name": "Ada", "courses": ["rust-ownership"]})
    );
    // The scheme is case-insensitive.
    let mut request = Request::builder()
        .uri("/api/me")
        .header(header::HOST, "academy.test");
    request = request.header(header::AUTHORIZATION, format!("bearer {token}"));
    let response = router
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn bad_signature_expired_wrong_audience_wrong_issuer_and_unknown_learner_are_refused() {
    let scratch = Scratch::new("refused");
    let db = scratch.db().await;
    let router = server(&db).await;
    let (dev_kid, _, _) = db.keys[0].clone();

    // Signed by another key under the development key's kid.
    let (forger, _) = other_key(&dev_kid);
    let forged = auth::sign(&claims(&db, "learner-a"), &dev_kid, &forger).unwrap();
    assert_refused(
        &get(&router, "/api/me", Some(&forged)).await,
        auth::TokenError::Signature,
    );

    // Expired an hour ago (past any leeway).
    let mut expired = claims(&db, "learner-a");
    expired.iat = expired.iat.map(|iat| iat - 7200);
    expired.exp -= 600 + 3600;
    let answer = get(&router, "/api/me", Some(&dev_token(&db, &expired))).await;
    assert_refused(&answer, auth::TokenError::Expired);

    // Issued for another resource.
    let mut elsewhere = claims(&db, "learner-a");
    elsewhere.aud = Audience::one("https://other.example/mcp");
    let answer = get(&router, "/api/me", Some(&dev_token(&db, &elsewhere))).await;
    assert_refused(&answer, auth::TokenError::Audience);

    // Issued by another authorization server.
    let mut foreign = claims(&db, "learner-a");
    foreign.iss = "https://auth.other.example".into();
    let answer = get(&router, "/api/me", Some(&dev_token(&db, &foreign))).await;
    assert_refused(&answer, auth::TokenError::Issuer);

    // A learner the database does not know.
    let answer = get(
        &router,
        "/api/me",
        Some(&dev_token(&db, &claims(&db, "learner-z"))),
    )
    .await;
    assert_refused(&answer, auth::TokenError::UnknownLearner);

    // Not a JWT at all; the same on /mcp.
    assert_refused(
        &get(&router, "/api/me", Some("not-a-jwt")).await,
        auth::TokenError::Malformed,
    );
    assert_refused(
        &get(&router, "/mcp", Some("not-a-jwt")).await,
        auth::TokenError::Malformed,
    );
}

/// `value` as unpadded base64url, a JWT segment.
fn segment(value: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(value)
}

/// `claims` (any JSON) signed with the database's development key.
fn dev_token_of(db: &TestDb, claims: &Value) -> String {
    let (kid, pkcs8, _) = db.keys[0].clone();
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::EdDSA);
    header.kid = Some(kid);
    jsonwebtoken::encode(&header, claims, &EncodingKey::from_ed_der(&pkcs8)).unwrap()
}

/// The platform served on a real socket, as `serve` does (its public URL
/// the one it is reached at); its base URL.
async fn serve_on_socket(db: &TestDb) -> String {
    let server = skills_runtime::http::Server::bind("127.0.0.1:0")
        .await
        .unwrap()
        .until(std::future::pending());
    let base = server.url();
    let router = server_at(db, &base).await;
    tokio::spawn(server.serve(router));
    base
}

/// What an HTTP answer said: its status, its headers as text, its body.
struct Wire {
    status: u16,
    challenge: String,
    headers: String,
    body: String,
}

/// `POST /mcp` (a ping) and `GET /skills`, each with `Authorization: Bearer {token}`.
async fn both_routes(http: &reqwest::Client, base: &str, token: &str) -> [(&'static str, Wire); 2] {
    let mcp = http
        .post(format!("{base}/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
    let skills = http
        .get(format!("{base}/skills"))
        .header("authorization", format!("Bearer {token}"));
    let mut answers = Vec::new();
    for (route, request) in [("POST /mcp", mcp), ("GET /skills", skills)] {
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let challenge = response
            .headers()
            .get("www-authenticate")
            .map(|value| value.to_str().unwrap().to_owned())
            .unwrap_or_default();
        let headers = format!("{:?}", response.headers());
        let body = response.text().await.unwrap();
        answers.push((
            route,
            Wire {
                status,
                challenge,
                headers,
                body,
            },
        ));
    }
    answers.try_into().ok().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_forged_token_gets_401_with_the_metadata_over_http_and_is_never_echoed() {
    use auth::TokenError as E;
    let scratch = Scratch::new("forged");
    let db = scratch.db().await;
    let base = serve_on_socket(&db).await;
    let metadata = format!("resource_metadata=\"{base}/.well-known/oauth-protected-resource\"");
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    let (dev_kid, _, dev_jwk) = db.keys[0].clone();
    let now = u64::try_from(db::now()).unwrap();
    let good = claims(&db, "learner-a");

    // The control: a good token passes on both routes, so a 401 below is
    // the token's doing.
    for (route, answer) in both_routes(&http, &base, &dev_token(&db, &good)).await {
        assert!(
            answer.status == 200 || (route == "POST /mcp" && answer.status != 401),
            "{route}: {} {}",
            answer.status,
            answer.body
        );
    }
    // `nbf` in the past, or within the leeway, is accepted.
    for nbf in [now - 3600, now + auth::LEEWAY_SECONDS / 2] {
        let early = Claims {
            nbf: Some(nbf),
            ..claims(&db, "learner-a")
        };
        for (route, answer) in both_routes(&http, &base, &dev_token(&db, &early)).await {
            assert_ne!(
                answer.status, 401,
                "nbf {nbf} (now {now}) {route}: {}",
                answer.body
            );
        }
    }

    let mut forged: Vec<(&str, String, Option<E>)> = Vec::new();
    let with = |change: &dyn Fn(&mut Claims)| {
        let mut claims = claims(&db, "learner-a");
        change(&mut claims);
        dev_token(&db, &claims)
    };
    forged.push((
        "wrong audience",
        with(&|c| c.aud = Audience::one("https://other.example/mcp")),
        Some(E::Audience),
    ));
    forged.push((
        "wrong issuer",
        with(&|c| c.iss = "https://auth.other.example".into()),
        Some(E::Issuer),
    ));
    forged.push((
        "expired past the leeway",
        with(&|c| {
            c.iat = c.iat.map(|iat| iat - 7200);
            c.exp = now - auth::LEEWAY_SECONDS - 60;
        }),
        Some(E::Expired),
    ));
    forged.push((
        "not valid for an hour",
        with(&|c| c.nbf = Some(now + 3600)),
        Some(E::NotYetValid),
    ));
    forged.push((
        "not valid until just past the leeway",
        with(&|c| c.nbf = Some(now + auth::LEEWAY_SECONDS + 60)),
        Some(E::NotYetValid),
    ));
    let none_header = json!({"alg": "none", "typ": "JWT", "kid": dev_kid});
    let payload = segment(serde_json::to_string(&good).unwrap().as_bytes());
    forged.push((
        "unsigned (alg none)",
        format!("{}.{payload}.", segment(none_header.to_string().as_bytes())),
        Some(E::Malformed),
    ));
    let (forger, _) = other_key(&dev_kid);
    forged.push((
        "another key under the real kid",
        auth::sign(&good, &dev_kid, &forger).unwrap(),
        Some(E::Signature),
    ));
    // HS256 with the public key as the shared secret: both its raw bytes
    // and its JWK text, the two ways a confused verifier would key HMAC.
    let jwk = serde_json::to_value(&dev_jwk).unwrap();
    let public = {
        use base64::Engine as _;
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(jwk["x"].as_str().unwrap())
            .unwrap()
    };
    let mut hs_header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    hs_header.kid = Some(dev_kid.clone());
    for secret in [public.clone(), jwk.to_string().into_bytes()] {
        forged.push((
            "HS256 keyed with the public key",
            jsonwebtoken::encode(
                &hs_header,
                &good,
                &EncodingKey::from_secret(&secret).unwrap(),
            )
            .unwrap(),
            Some(E::Algorithm),
        ));
    }
    forged.push((
        "unknown kid",
        {
            let (_, pkcs8, _) = db.keys[0].clone();
            auth::sign(
                &good,
                "not-a-key-of-this-server",
                &EncodingKey::from_ed_der(&pkcs8),
            )
            .unwrap()
        },
        Some(E::UnknownKey),
    ));
    let full = serde_json::to_value(&good).unwrap();
    for claim in ["sub", "exp", "aud", "iss"] {
        let mut partial = full.clone();
        partial.as_object_mut().unwrap().remove(claim);
        forged.push((
            "a missing required claim",
            dev_token_of(&db, &partial),
            Some(E::MissingClaim),
        ));
    }
    let mut text_nbf = full.clone();
    text_nbf["nbf"] = json!("tomorrow");
    forged.push((
        "nbf that is not a number",
        dev_token_of(&db, &text_nbf),
        Some(E::Malformed),
    ));
    let real = dev_token(&db, &good);
    let (signed, signature) = real.rsplit_once('.').unwrap();
    let mut flipped = signature.as_bytes().to_vec();
    let middle = flipped.len() / 2;
    flipped[middle] = if flipped[middle] == b'A' { b'B' } else { b'A' };
    forged.push((
        "a tampered signature",
        format!("{signed}.{}", String::from_utf8(flipped).unwrap()),
        Some(E::Signature),
    ));
    let (header_part, _) = signed.split_once('.').unwrap();
    let mut other_learner = full.clone();
    other_learner["sub"] = json!("learner-b");
    forged.push((
        "a tampered payload",
        format!(
            "{header_part}.{}.{signature}",
            segment(other_learner.to_string().as_bytes())
        ),
        Some(E::Signature),
    ));
    forged.push(("garbage", "garbage-token-!@".into(), Some(E::Malformed)));
    forged.push(("three dots of garbage", "a.b.c".into(), Some(E::Malformed)));
    forged.push(("an empty token", String::new(), None));
    let big = "A".repeat(64 * 1024 / 3);
    forged.push((
        "a 64 KiB token",
        format!("{big}.{big}.{big}x"),
        Some(E::Malformed),
    ));
    // Well signed, for a learner the platform does not know.
    forged.push((
        "an unknown learner",
        dev_token(&db, &claims(&db, "learner-nobody")),
        Some(E::UnknownLearner),
    ));

    for (case, token, error) in &forged {
        for (route, answer) in both_routes(&http, &base, token).await {
            assert_eq!(answer.status, 401, "{case} on {route}: {}", answer.body);
            assert!(
                answer.challenge.starts_with("Bearer ") && answer.challenge.contains(&metadata),
                "{case} on {route}: {}",
                answer.challenge
            );
            match error {
                Some(error) => {
                    assert!(
                        answer.challenge.contains("error=\"invalid_token\"")
                            && answer.challenge.contains(error.description()),
                        "{case} on {route}: {}",
                        answer.challenge
                    );
                    let body: Value = serde_json::from_str(&answer.body).unwrap();
                    assert_eq!(
                        body["error_description"],
                        error.description(),
                        "{case} on {route}"
                    );
                }
                None => assert!(!answer.challenge.contains("error="), "{case} on {route}"),
            }
            // Nothing of the token comes back: not whole, not a segment.
            for piece in std::iter::once(token.as_str())
                .chain(token.split('.'))
                .filter(|piece| piece.len() >= 8)
            {
                assert!(
                    !answer.body.contains(piece) && !answer.headers.contains(piece),
                    "{case} on {route}: the answer echoes the token"
                );
            }
        }
    }
    assert!(forged.len() >= 13);
}

#[tokio::test]
async fn with_an_authorization_servers_key_set_tokens_select_their_key_by_kid() {
    let scratch = Scratch::new("jwks");
    let db = scratch.db().await;
    let (as_key, as_jwk) = other_key("as-2026-01");
    let jwks_path = scratch.folder.join("jwks.json");
    std::fs::write(&jwks_path, json!({"keys": [as_jwk]}).to_string()).unwrap();
    let verifier = Verifier::new(
        KeySource::File(jwks_path.clone()),
        TokenRules::of(&db).await.unwrap(),
    )
    .await
    .unwrap();
    let mut options = Options::new("http://academy.test:8080");
    options.stateless = true;
    let router = platform(db.db.clone(), verifier, options).await.unwrap();

    let issued = auth::sign(&claims(&db, "learner-b"), "as-2026-01", &as_key).unwrap();
    let answer = get(&router, "/api/me", Some(&issued)).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body["id"], "learner-b");

    // A kid the set does not hold, even with a good signature by a known key.
    let unknown = auth::sign(&claims(&db, "learner-b"), "as-2025-12", &as_key).unwrap();
    assert_refused(
        &get(&router, "/api/me", Some(&unknown)).await,
        auth::TokenError::UnknownKey,
    );
    // The development key is not in the authorization server's set.
    let dev = auth::mint(&db, "learner-b", Duration::from_secs(60), Purpose::Access)
        .await
        .unwrap();
    assert_refused(
        &get(&router, "/api/me", Some(&dev)).await,
        auth::TokenError::UnknownKey,
    );
    // A token without a kid cannot select a key.
    let header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::EdDSA);
    let no_kid = jsonwebtoken::encode(&header, &claims(&db, "learner-b"), &as_key).unwrap();
    assert_refused(
        &get(&router, "/api/me", Some(&no_kid)).await,
        auth::TokenError::NoKeyId,
    );
}

#[test]
fn a_key_set_with_a_shared_secret_or_without_kids_is_refused() {
    let secret = json!({"keys": [{"kty": "oct", "kid": "hs", "k": "c2VjcmV0"}]});
    let set = serde_json::from_value(secret).unwrap();
    let error = KeyMap::new(&set).err().unwrap();
    assert!(error.to_string().contains("shared secret"), "{error}");
    let (_, mut jwk) = other_key("x");
    jwk.as_object_mut().unwrap().remove("kid");
    let set = serde_json::from_value(json!({"keys": [jwk]})).unwrap();
    let error = KeyMap::new(&set).err().unwrap();
    assert!(error.to_string().contains("no key with a kid"), "{error}");
}

// ---------------------------------------------------------------------------
// Entitlements

#[tokio::test]
async fn a_fresh_database_is_seeded_once() {
    seeded_once(Scratch::new("seed")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL (initdb)"]
async fn a_fresh_postgres_database_is_seeded_once() {
    seeded_once(Scratch::postgres("seed")).await;
}

async fn seeded_once(scratch: Scratch) {
    // Two processes starting at once: one creates and seeds, the other
    // waits and finds it done (one key, one set of rows).
    let (db, twin) = tokio::join!(scratch.db(), scratch.db());
    assert_eq!(db.keys[0].0, twin.keys[0].0);
    assert_eq!(db.keys.len(), 1);
    let a = db.entitlements("learner-a").await.unwrap().unwrap();
    let b = db.entitlements("learner-b").await.unwrap().unwrap();
    let sorted = |entitlements: &Entitlements| {
        let mut owned: Vec<String> = entitlements.owned.iter().cloned().collect();
        owned.sort();
        owned
    };
    assert_eq!(sorted(&a), ["academy", "rust-ownership"]);
    assert_eq!(sorted(&b), ["academy", "sql-joins"]);
    let mut on_sale: Vec<&String> = a.offers.keys().collect();
    on_sale.sort();
    assert_eq!(on_sale, ["async-rust", "rust-ownership", "sql-joins"]);
    assert_eq!(
        *a.offers["async-rust"].json(),
        json!({
            "title": "Async Rust from the Ground Up",
            "price": "EUR 59.00",
            "link": "https://kestrel-academy.example/courses/async-rust",
        })
    );
    assert_eq!(db.entitlements("learner-z").await.unwrap(), None);
    // Every embedded course but the one in preparation is in the catalog.
    for skill in SKILLS.skills() {
        let known = a.owned.contains(skill.name()) || a.offers.contains_key(skill.name());
        assert_eq!(
            known,
            skill.name() != "kubernetes-basics",
            "{}",
            skill.name()
        );
    }
    // Opening it again (another process) keeps its key and its rows.
    let key = db.keys.clone();
    let again = scratch.db().await;
    assert_eq!(again.keys[0].0, key[0].0);
    assert_eq!(again.entitlements("learner-a").await.unwrap().unwrap(), a);
}

#[tokio::test]
async fn a_database_of_schema_version_1_is_moved_to_version_2_once() {
    moved_from_version_1(Scratch::new("v1")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL (initdb)"]
async fn on_postgres_a_database_of_schema_version_1_is_moved_to_version_2_once() {
    moved_from_version_1(Scratch::postgres("v1")).await;
}

/// A database as version 1 left it (no journal, no key times, no install
/// audience) gets what version 2 adds when a process opens it, keeps its
/// rows, and is not moved twice.
async fn moved_from_version_1(scratch: Scratch) {
    let db = scratch.db().await;
    let key = db.keys[0].0.clone();
    let mut connection = db.watcher_connection().await.unwrap();
    let version_1 = match scratch.location().store() {
        Store::Sqlite => "PRAGMA user_version = 1",
        Store::Postgres => "DELETE FROM schema_version; INSERT INTO schema_version VALUES (1)",
    };
    for statements in [
        "DROP TABLE entitlement_changes; \
         ALTER TABLE signing_keys DROP COLUMN created_at; \
         DELETE FROM settings WHERE key = 'install_audience'",
        version_1,
    ] {
        sqlx::raw_sql(statements)
            .execute(&mut *connection)
            .await
            .unwrap();
    }
    drop(connection);
    drop(db);
    for _ in 0..2 {
        let db = scratch.db().await;
        assert_eq!(db.keys[0].0, key);
        assert_eq!(
            db.setting("install_audience").await.unwrap(),
            "https://kestrel-academy.example/install"
        );
        assert_eq!(
            db.entitlements("learner-a").await.unwrap().unwrap().owned,
            learner_a().owned
        );
        let mut connection = db.watcher_connection().await.unwrap();
        let start = db.last_change(&mut connection).await.unwrap();
        db.entitle(Entitlement::Grant, "learner-b", "async-rust")
            .await
            .unwrap()
            .unwrap();
        db.entitle(Entitlement::Revoke, "learner-b", "async-rust")
            .await
            .unwrap()
            .unwrap();
        let (learners, _) = db.changes_since(&mut connection, start).await.unwrap();
        assert_eq!(learners, ["learner-b".to_owned()].into());
    }
}

#[tokio::test]
async fn grant_and_revoke_refuse_what_cannot_be_sold_and_are_idempotent() {
    grant_and_revoke(Scratch::new("grant")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL (initdb)"]
async fn on_postgres_grant_and_revoke_refuse_what_cannot_be_sold_and_are_idempotent() {
    grant_and_revoke(Scratch::postgres("grant")).await;
}

async fn grant_and_revoke(scratch: Scratch) {
    let db = scratch.db().await;
    assert_eq!(
        db.entitle(Entitlement::Grant, "learner-a", "async-rust")
            .await
            .unwrap(),
        Ok(db::Change::Done)
    );
    assert_eq!(
        db.entitle(Entitlement::Grant, "learner-a", "async-rust")
            .await
            .unwrap(),
        Ok(db::Change::Unchanged)
    );
    assert_eq!(
        db.entitle(Entitlement::Revoke, "learner-a", "async-rust")
            .await
            .unwrap(),
        Ok(db::Change::Done)
    );
    assert_eq!(
        db.entitle(Entitlement::Revoke, "learner-a", "async-rust")
            .await
            .unwrap(),
        Ok(db::Change::Unchanged)
    );
    assert_eq!(
        db.entitle(Entitlement::Grant, "learner-z", "async-rust")
            .await
            .unwrap(),
        Err(db::Refusal::UnknownLearner("learner-z".into()))
    );
    for skill in ["academy", "kubernetes-basics", "nope"] {
        assert_eq!(
            db.entitle(Entitlement::Grant, "learner-a", skill)
                .await
                .unwrap(),
            Err(db::Refusal::NotForSale(skill.into()))
        );
    }
}

#[tokio::test]
async fn a_grant_by_another_process_shows_in_the_next_answer() {
    next_answer(Scratch::new("next-answer")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL (initdb)"]
async fn on_postgres_a_grant_by_another_process_shows_in_the_next_answer() {
    next_answer(Scratch::postgres("next-answer")).await;
}

async fn next_answer(scratch: Scratch) {
    let db = scratch.db().await;
    let router = server(&db).await;
    let token = auth::mint(&db, "learner-a", Duration::from_secs(60), Purpose::Access)
        .await
        .unwrap();
    let courses = |answer: &Answer| answer.body["courses"].clone();
    assert_eq!(
        courses(&get(&router, "/api/me", Some(&token)).await),
        json!(["rust-ownership"])
    );
    // Another connection to the file, as the `grant` command opens it.
    let other = scratch.db().await;
    other
        .entitle(Entitlement::Grant, "learner-a", "async-rust")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        courses(&get(&router, "/api/me", Some(&token)).await),
        json!(["async-rust", "rust-ownership"])
    );
    other
        .entitle(Entitlement::Revoke, "learner-a", "rust-ownership")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        courses(&get(&router, "/api/me", Some(&token)).await),
        json!(["async-rust"])
    );
}

#[tokio::test]
#[ignore = "needs PostgreSQL (initdb)"]
async fn orders_keep_their_ids_and_states_on_postgres() {
    orders(Scratch::postgres("orders")).await;
}

#[tokio::test]
async fn orders_keep_their_ids_and_states() {
    orders(Scratch::new("orders")).await;
}

/// A quote, its confirmation and the grant that pays it, through the
/// store's own calls (ids from `RETURNING`, the paid state from a join).
async fn orders(scratch: Scratch) {
    let db = scratch.db().await;
    let course = db.course("async-rust").await.unwrap().unwrap();
    let first = db.quote("learner-a", &course).await.unwrap();
    let second = db.quote("learner-a", &course).await.unwrap();
    assert_ne!(first, second);
    assert_eq!(
        db.order("learner-a", first).await.unwrap().unwrap().status,
        "quoted"
    );
    assert!(db.order("learner-b", first).await.unwrap().is_none());
    assert!(db.confirm("learner-a", first).await.unwrap());
    assert!(!db.confirm("learner-a", first).await.unwrap());
    let order = db.order("learner-a", first).await.unwrap().unwrap();
    assert_eq!(order.status, "awaiting_payment");
    assert_eq!(order.course.price(), "EUR 59.00");
    assert_eq!(order.course.lessons, 8);
    db.entitle(Entitlement::Grant, "learner-a", "async-rust")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        db.order("learner-a", first).await.unwrap().unwrap().status,
        "paid"
    );
    assert_eq!(
        db.learner_name("learner-b").await.unwrap().as_deref(),
        Some("Brian")
    );
}

#[tokio::test]
async fn the_journal_holds_grants_and_revokes_and_no_orders() {
    journal(Scratch::new("journal")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL (initdb)"]
async fn on_postgres_the_journal_holds_grants_and_revokes_and_no_orders() {
    journal(Scratch::postgres("journal")).await;
}

/// What a serving process reads to know whose sessions to resolve again:
/// a grant and a revoke name their learner; quotes, confirmations and a
/// grant that changed nothing name nobody.
async fn journal(scratch: Scratch) {
    let db = scratch.db().await;
    let mut connection = db.watcher_connection().await.unwrap();
    let start = db.last_change(&mut connection).await.unwrap();
    let course = db.course("async-rust").await.unwrap().unwrap();
    for _ in 0..20 {
        let order = db.quote("learner-a", &course).await.unwrap();
        assert!(db.confirm("learner-a", order).await.unwrap());
    }
    let (learners, last) = db.changes_since(&mut connection, start).await.unwrap();
    assert!(learners.is_empty(), "{learners:?}");
    assert_eq!(last, start);
    let other = scratch.db().await;
    other
        .entitle(Entitlement::Grant, "learner-a", "async-rust")
        .await
        .unwrap()
        .unwrap();
    other
        .entitle(Entitlement::Revoke, "learner-b", "sql-joins")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        other
            .entitle(Entitlement::Grant, "learner-a", "async-rust")
            .await
            .unwrap(),
        Ok(db::Change::Unchanged)
    );
    let (learners, last) = db.changes_since(&mut connection, start).await.unwrap();
    assert_eq!(
        learners,
        ["learner-a".to_owned(), "learner-b".to_owned()].into()
    );
    assert_eq!(
        db.changes_since(&mut connection, last)
            .await
            .unwrap()
            .0
            .len(),
        0
    );
    assert_eq!(db.last_change(&mut connection).await.unwrap(), last);
}

/// The last-known entitlements answer only while the watcher finds the
/// database unreachable, and only while they are at most `stale_for` old:
/// a database that answers with an error is not gone, and a failing query
/// is refused (`503`) then, even with last-known entitlements at hand.
#[tokio::test]
async fn last_known_entitlements_serve_only_an_unreachable_database_and_not_for_long() {
    let scratch = Scratch::new("stale");
    let db = scratch.db().await;
    let fresh = db
        .entitlements_for_request("learner-a", Duration::from_secs(60))
        .await
        .unwrap();
    assert!(fresh.owned.contains("rust-ownership"));
    // The database fails every read from now on.
    sqlx::raw_sql("DROP TABLE public_skills")
        .execute(&mut *db.watcher_connection().await.unwrap())
        .await
        .unwrap();
    // Reachable (only failing): no stale answer.
    assert!(matches!(
        db.entitlements_for_request("learner-a", Duration::from_secs(60))
            .await,
        Err(db::Unresolved::Unavailable(_))
    ));
    // Unreachable: what was known, while young enough.
    db.health().lost();
    let stale = db
        .entitlements_for_request("learner-a", Duration::from_secs(60))
        .await
        .unwrap();
    assert_eq!(stale, fresh);
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(matches!(
        db.entitlements_for_request("learner-a", Duration::from_millis(10))
            .await,
        Err(db::Unresolved::Unavailable(_))
    ));
    // A learner this process never resolved has nothing to fall back on.
    assert!(matches!(
        db.entitlements_for_request("learner-b", Duration::from_secs(60))
            .await,
        Err(db::Unresolved::Unavailable(_))
    ));
    db.health().reached();
    assert!(
        db.entitlements_for_request("learner-a", Duration::from_secs(60))
            .await
            .is_err()
    );
}

// ---------------------------------------------------------------------------
// Tokens: kinds, audiences, lifetimes, keys

/// `GET path` as `get` does, with extra headers.
async fn get_with(
    router: &axum::Router,
    path: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
) -> Answer {
    let mut request = Request::builder()
        .uri(path)
        .header(header::HOST, "academy.test:8080");
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = router
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let challenge = response
        .headers()
        .get(header::WWW_AUTHENTICATE)
        .map(|value| value.to_str().unwrap().to_owned());
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    Answer {
        status,
        challenge,
        body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    }
}

const INSTALL_INDEX: &str = ".well-known/agent-skills/index.json";

#[tokio::test]
async fn an_install_token_opens_the_install_path_only_and_an_access_token_all_else() {
    let scratch = Scratch::new("install-token");
    let db = scratch.db().await;
    let router = server(&db).await;
    let install = auth::mint(&db, "learner-a", Duration::from_secs(600), Purpose::Install)
        .await
        .unwrap();
    let access = auth::mint(&db, "learner-a", Duration::from_secs(600), Purpose::Access)
        .await
        .unwrap();
    // Each on its own path.
    let index = get(
        &router,
        &format!("/install/{install}/{INSTALL_INDEX}"),
        None,
    )
    .await;
    assert_eq!(index.status, StatusCode::OK);
    assert_eq!(index.body["skills"].as_array().unwrap().len(), 2);
    assert_eq!(
        get(&router, "/api/me", Some(&access)).await.status,
        StatusCode::OK
    );
    // And refused on the other's: /api, /mcp, /skills and the well-known
    // index behind the header take no install token.
    for path in ["/api/me", "/mcp", "/skills", &format!("/{INSTALL_INDEX}")] {
        assert_refused(
            &get(&router, path, Some(&install)).await,
            auth::TokenError::Audience,
        );
    }
    let wrong = get(&router, &format!("/install/{access}/{INSTALL_INDEX}"), None).await;
    assert_refused(&wrong, auth::TokenError::Audience);
    // A token for both audiences is for neither.
    let mut both = claims(&db, "learner-a");
    both.aud = Audience(vec![
        db.audience.clone(),
        db.setting("install_audience").await.unwrap(),
    ]);
    let both = dev_token(&db, &both);
    assert_refused(
        &get(&router, "/api/me", Some(&both)).await,
        auth::TokenError::Audience,
    );
    assert_refused(
        &get(&router, &format!("/install/{both}/{INSTALL_INDEX}"), None).await,
        auth::TokenError::Audience,
    );
}

#[tokio::test]
async fn an_audience_array_holding_ours_is_accepted() {
    let scratch = Scratch::new("aud-array");
    let db = scratch.db().await;
    let router = server(&db).await;
    let mut many = claims(&db, "learner-a");
    many.aud = Audience(vec![
        "https://other.example/api".into(),
        db.audience.clone(),
    ]);
    let answer = get(&router, "/api/me", Some(&dev_token(&db, &many))).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    // As the raw JSON an authorization server sends.
    let now = u64::try_from(db::now()).unwrap();
    let raw = dev_token_of(
        &db,
        &json!({"iss": db.issuer, "sub": "learner-a", "aud": [db.audience], "iat": now, "exp": now + 60}),
    );
    assert_eq!(
        get(&router, "/api/me", Some(&raw)).await.status,
        StatusCode::OK
    );
    let mut none_ours = claims(&db, "learner-a");
    none_ours.aud = Audience(vec!["https://other.example/api".into()]);
    assert_refused(
        &get(&router, "/api/me", Some(&dev_token(&db, &none_ours))).await,
        auth::TokenError::Audience,
    );
}

#[tokio::test]
async fn a_token_living_longer_than_its_kind_allows_is_refused() {
    let scratch = Scratch::new("lifetime");
    let db = scratch.db().await;
    let router = server(&db).await;
    let now = u64::try_from(db::now()).unwrap();
    // A day is the most for an access token.
    let mut day = claims(&db, "learner-a");
    day.exp = now + auth::MAX_LIFETIME.as_secs();
    assert_eq!(
        get(&router, "/api/me", Some(&dev_token(&db, &day)))
            .await
            .status,
        StatusCode::OK
    );
    let mut year = claims(&db, "learner-a");
    year.exp = now + 365 * 24 * 3600;
    assert_refused(
        &get(&router, "/api/me", Some(&dev_token(&db, &year))).await,
        auth::TokenError::TooLong,
    );
    // Without `iat`, the lifetime left counts.
    year.iat = None;
    assert_refused(
        &get(&router, "/api/me", Some(&dev_token(&db, &year))).await,
        auth::TokenError::TooLong,
    );
    // An `iat` in the future cannot shorten the lifetime counted.
    year.iat = Some(year.exp - 60);
    assert_refused(
        &get(&router, "/api/me", Some(&dev_token(&db, &year))).await,
        auth::TokenError::NotYetValid,
    );
    // Within the leeway, a clock running a little ahead is no reason.
    let mut ahead = claims(&db, "learner-a");
    ahead.iat = Some(now + 10);
    ahead.exp = now + 10 + auth::MAX_LIFETIME.as_secs();
    assert_eq!(
        get(&router, "/api/me", Some(&dev_token(&db, &ahead)))
            .await
            .status,
        StatusCode::OK
    );
    // An install token lives 15 minutes at most.
    let mut install = claims(&db, "learner-a");
    install.aud = Audience::one(db.setting("install_audience").await.unwrap());
    install.exp = now + 3600;
    assert_refused(
        &get(
            &router,
            &format!("/install/{}/{INSTALL_INDEX}", dev_token(&db, &install)),
            None,
        )
        .await,
        auth::TokenError::TooLong,
    );
}

#[tokio::test]
async fn a_new_key_verifies_at_once_a_retired_one_is_refused_within_the_refresh() {
    let scratch = Scratch::new("rotation");
    let db = scratch.db().await;
    let verifier = Arc::new(
        Verifier::new(
            KeySource::Database(db.db.clone()),
            TokenRules::of(&db).await.unwrap(),
        )
        .await
        .unwrap(),
    );
    verifier.refresh_every(Duration::from_millis(200));
    let before = auth::mint(&db, "learner-a", Duration::from_secs(600), Purpose::Access)
        .await
        .unwrap();
    assert!(verifier.verify(&before, Purpose::Access).await.is_ok());
    // A key rotated in: minting signs with it, and its first token
    // verifies at once (its kid makes the verifier read the set).
    let (new_kid, retired) = db.rotate_key(false).await.unwrap();
    assert!(retired.is_empty());
    let after = auth::mint(&db, "learner-a", Duration::from_secs(600), Purpose::Access)
        .await
        .unwrap();
    assert_eq!(
        jsonwebtoken::decode_header(&after).unwrap().kid.as_deref(),
        Some(new_kid.as_str())
    );
    assert!(verifier.verify(&after, Purpose::Access).await.is_ok());
    // The key before it keeps verifying.
    assert!(verifier.verify(&before, Purpose::Access).await.is_ok());
    // Retired (it leaked): refused once the set is read again.
    let (_, retired) = db.rotate_key(true).await.unwrap();
    assert_eq!(retired.len(), 2);
    let started = std::time::Instant::now();
    while verifier.verify(&before, Purpose::Access).await.is_ok() {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the retired key still verifies"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        verifier.verify(&after, Purpose::Access).await,
        Err(auth::TokenError::UnknownKey)
    );
}

#[tokio::test]
async fn unknown_kids_read_the_key_set_again_at_most_once_per_interval() {
    let scratch = Scratch::new("unknown-kid");
    let db = scratch.db().await;
    let (first_key, first_jwk) = other_key("as-1");
    let path = scratch.folder.join("jwks.json");
    std::fs::write(&path, json!({"keys": [first_jwk.clone()]}).to_string()).unwrap();
    let verifier = Verifier::new(
        KeySource::File(path.clone()),
        TokenRules::of(&db).await.unwrap(),
    )
    .await
    .unwrap();
    let token =
        |kid: &str, key: &EncodingKey| auth::sign(&claims(&db, "learner-a"), kid, key).unwrap();
    assert!(
        verifier
            .verify(&token("as-1", &first_key), Purpose::Access)
            .await
            .is_ok()
    );
    // The authorization server publishes a key: its first token verifies.
    let (second_key, second_jwk) = other_key("as-2");
    std::fs::write(
        &path,
        json!({"keys": [first_jwk.clone(), second_jwk.clone()]}).to_string(),
    )
    .unwrap();
    assert!(
        verifier
            .verify(&token("as-2", &second_key), Purpose::Access)
            .await
            .is_ok()
    );
    // Forged kids do not make it read the set on every request: a key
    // published right after waits for the interval (or the next refresh).
    let (third_key, third_jwk) = other_key("as-3");
    assert_eq!(
        verifier
            .verify(&token("as-x", &third_key), Purpose::Access)
            .await,
        Err(auth::TokenError::UnknownKey)
    );
    std::fs::write(
        &path,
        json!({"keys": [first_jwk, second_jwk, third_jwk]}).to_string(),
    )
    .unwrap();
    assert_eq!(
        verifier
            .verify(&token("as-3", &third_key), Purpose::Access)
            .await,
        Err(auth::TokenError::UnknownKey)
    );
    verifier.reload().await.unwrap();
    assert!(
        verifier
            .verify(&token("as-3", &third_key), Purpose::Access)
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn the_401_names_the_configured_public_url_never_the_requests_host() {
    let scratch = Scratch::new("public-url");
    let db = scratch.db().await;
    let verifier = || async {
        Verifier::new(
            KeySource::Database(db.db.clone()),
            TokenRules::of(&db).await.unwrap(),
        )
        .await
        .unwrap()
    };
    let mut options = Options::new("https://academy.example.com/");
    options.allowed_hosts = vec!["academy.example.com".into(), "mirror.example.com".into()];
    let direct = platform(db.db.clone(), verifier().await, options.clone())
        .await
        .unwrap();
    let metadata = |base: &str| {
        format!("Bearer resource_metadata=\"{base}/.well-known/oauth-protected-resource\"")
    };
    let forwarded = [
        ("x-forwarded-proto", "https"),
        ("x-forwarded-host", "mirror.example.com"),
    ];
    for headers in [&[][..], &[("host", "evil.example")][..], &forwarded[..]] {
        let answer = get_with(&direct, "/api/me", None, headers).await;
        assert_eq!(
            answer.challenge.as_deref(),
            Some(metadata("https://academy.example.com").as_str())
        );
    }
    // Behind a proxy the operator named, its headers say where the client
    // came in, when that is a name the server answers to.
    options.public.behind_proxy = true;
    let proxied = platform(db.db.clone(), verifier().await, options)
        .await
        .unwrap();
    let answer = get_with(&proxied, "/api/me", None, &forwarded).await;
    assert_eq!(
        answer.challenge.as_deref(),
        Some(metadata("https://mirror.example.com").as_str())
    );
    for headers in [
        &[
            ("x-forwarded-proto", "https"),
            ("x-forwarded-host", "evil.example"),
        ][..],
        &[
            ("x-forwarded-proto", "gopher"),
            ("x-forwarded-host", "mirror.example.com"),
        ][..],
        &[("x-forwarded-host", "mirror.example.com")][..],
    ] {
        let answer = get_with(&proxied, "/api/me", None, headers).await;
        assert_eq!(
            answer.challenge.as_deref(),
            Some(metadata("https://academy.example.com").as_str())
        );
    }
}

#[test]
fn a_database_url_is_never_shown_with_its_password() {
    for (url, shown) in [
        (
            "postgres://kestrel@db.internal:5432/academy?password=hunter2-secret&sslmode=require",
            "postgres://kestrel@db.internal:5432/academy?password=***&sslmode=require",
        ),
        (
            "postgresql://kestrel:hunter2-secret@db.internal/academy?sslpassword=hunter2-secret&application_name=academy",
            "postgresql://kestrel:***@db.internal/academy?sslpassword=***&application_name=academy",
        ),
    ] {
        let location = Location::parse(url).unwrap();
        assert_eq!(location.to_string(), shown);
        assert!(!format!("{location:?}").contains("hunter2"));
    }
    let url = "postgres://kestrel:hunter2-secret@db.internal:5432/academy";
    let location = Location::parse(url).unwrap();
    assert_eq!(location.store(), Store::Postgres);
    assert_eq!(
        location.to_string(),
        "postgres://kestrel:***@db.internal:5432/academy"
    );
    assert!(!format!("{location:?}").contains("hunter2"));
    assert_eq!(
        Location::parse("course-platform.db").unwrap().store(),
        Store::Sqlite
    );
    assert_eq!(
        Location::parse("sqlite:platform.db").unwrap().to_string(),
        "platform.db"
    );
    let unknown = Location::parse("mysql://root:hunter2@host/db").unwrap_err();
    assert!(!format!("{unknown:#}").contains("hunter2"), "{unknown:#}");
    assert!(
        format!("{unknown:#}").contains("sqlite:PATH or postgres://"),
        "{unknown:#}"
    );
}

/// A zero timeout would be no "unlimited" but a server that closes every
/// connection before its request (or rereads the keys in a loop): `serve`
/// refuses it as a usage error (exit 2) rather than raising it silently.
#[test]
fn serve_refuses_a_zero_header_timeout_or_keys_refresh() {
    use clap::Parser as _;
    for flag in ["--header-timeout", "--keys-refresh"] {
        let parsed = crate::Cli::try_parse_from(["course-platform", "serve", flag, "0"]);
        let error = parsed
            .err()
            .unwrap_or_else(|| panic!("{flag} 0 was accepted"));
        assert_eq!(error.exit_code(), 2, "{flag}: {error}");
        assert!(error.to_string().contains(flag), "{flag}: {error}");
        assert!(error.to_string().contains("at least 1"), "{flag}: {error}");
        assert!(crate::Cli::try_parse_from(["course-platform", "serve", flag, "1"]).is_ok());
    }
}
