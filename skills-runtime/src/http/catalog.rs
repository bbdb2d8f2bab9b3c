//! The catalog routes: `GET /skills` (what the caller owns, and teasers of
//! what they may buy) and `GET /skills/{name}` (an owned skill's files with
//! their digests), for agents that call HTTP routes rather than MCP methods.
//!
//! Both answer from [`SkillsServer::view`]: the snapshot MCP serves
//! right now and the same access policy, seen through the request head the
//! author's auth layer filled. Anything the caller does not own (locked,
//! absent or nonexistent) gets one 404 whose bytes and headers never depend
//! on the name asked for. They accept the same `Host` names as `/mcp`
//! (rmcp's guard against DNS rebinding covers only its own service), so a
//! page on another site cannot read a local server's catalog either.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use crate::SkillsServer;
use crate::server::{Caller, SkillsView};

/// Where [`SkillsRouter::build`](super::SkillsRouter::build) mounts the catalog routes: `GET /skills`
/// and `GET /skills/{name}` (see the [module documentation](super#what-is-mounted)).
pub const CATALOG_PATH: &str = "/skills";

/// The body of every 404 of `GET /skills/{name}`: it names nothing, so a
/// skill that is locked, absent or nonexistent cannot be told apart.
pub(super) const NOT_FOUND_BODY: &str =
    r#"{"error":"not_found","message":"no skill of that name is available to you"}"#;

/// `GET /skills` and `GET /skills/{name}`, answered from `skills`, for
/// requests whose `Host` is one of `allowed_hosts` (any, when empty).
pub(super) fn routes<S>(skills: SkillsServer, allowed: Arc<[String]>) -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    axum::Router::new()
        .route(CATALOG_PATH, get(list))
        .route(&format!("{}/{{name}}", CATALOG_PATH), get(one))
        .with_state(skills)
        .layer(axum::middleware::from_fn_with_state(allowed, check_host))
}

/// Refuses a request whose `Host` the server does not answer to, as rmcp
/// refuses it on `/mcp`: `400` without a readable one, `403` for another name.
pub(super) async fn check_host(
    State(allowed): State<Arc<[String]>>,
    request: Request,
    next: Next,
) -> Response {
    if allowed.is_empty() {
        return next.run(request).await;
    }
    let authority = request
        .headers()
        .get(axum::http::header::HOST)
        .and_then(|value| value.to_str().ok())
        .and_then(|host| axum::http::uri::Authority::try_from(host).ok())
        .or_else(|| request.uri().authority().cloned());
    let Some(authority) = authority else {
        return (StatusCode::BAD_REQUEST, "Bad Request: Invalid Host header").into_response();
    };
    if host_is_allowed(&authority, &allowed) {
        next.run(request).await
    } else {
        (
            StatusCode::FORBIDDEN,
            "Forbidden: Host header is not allowed",
        )
            .into_response()
    }
}

/// Whether `authority` is one of `allowed` (`name` matches any port,
/// `name:port` that port only; names compare without case or brackets).
fn host_is_allowed(authority: &axum::http::uri::Authority, allowed: &[String]) -> bool {
    let host = authority.host().trim_matches(['[', ']']);
    allowed.iter().any(|entry| {
        let entry = entry.trim();
        let (name, port) = match axum::http::uri::Authority::try_from(entry) {
            Ok(parsed) => (parsed.host().to_owned(), parsed.port_u16()),
            Err(_) => (entry.to_owned(), None),
        };
        name.trim_matches(['[', ']']).eq_ignore_ascii_case(host)
            && port.is_none_or(|port| authority.port_u16() == Some(port))
    })
}

/// `GET /skills`: `{"skills": [owned…], "locked": [teasers…]}`.
async fn list(State(skills): State<SkillsServer>, request: Request) -> Response {
    let (parts, _) = request.into_parts();
    let view = skills.view(&Caller::from_http(&parts));
    let body = catalog_json(&view);
    let body = serde_json::to_vec(&body).unwrap_or_default();
    // Teasers are not part of the view's fingerprint (an offer may change
    // alone), so the ETag is the digest of the very bytes sent.
    let etag = rmcp::model::sha256_digest(&body);
    answer(&parts.headers, &view, &etag, JSON, Body::from(body))
}

/// `GET /skills/{name}`: an owned skill's files, or the one 404.
async fn one(
    State(skills): State<SkillsServer>,
    Path(name): Path<String>,
    request: Request,
) -> Response {
    let (parts, _) = request.into_parts();
    let view = skills.view(&Caller::from_http(&parts));
    let Some(skill) = view.owned_skill(&name) else {
        return not_found(&view);
    };
    let body = serde_json::to_vec(&skill_json(skill)).unwrap_or_default();
    answer(
        &parts.headers,
        &view,
        skill.version(),
        JSON,
        Body::from(body),
    )
}

/// The catalog: each owned skill with its file count and total size, each
/// locked one as a teaser with the author's offer.
fn catalog_json(view: &SkillsView) -> Value {
    let owned: Vec<Value> = view
        .owned()
        .map(|skill| {
            json!({
                "name": skill.name(),
                "description": skill.description(),
                "uri": skill.uri(),
                "version": skill.version(),
                "files": skill.files().len(),
                "size": skill.total_size(),
            })
        })
        .collect();
    let locked: Vec<Value> = view
        .locked()
        .map(|(skill, offer)| {
            json!({
                "name": skill.name(),
                "description": skill.description(),
                "offer": offer.json(),
            })
        })
        .collect();
    json!({ "skills": owned, "locked": locked })
}

/// One owned skill: the files of its `skills/get` entry, each with its path
/// in the skill's folder.
fn skill_json(skill: &crate::Skill) -> Value {
    let files: Vec<Value> = skill
        .files()
        .iter()
        .map(|file| {
            json!({
                "path": file.path(),
                "uri": skill.file_uri(file),
                "size": file.size(),
                "digest": file.digest().to_string(),
            })
        })
        .collect();
    json!({
        "name": skill.name(),
        "uri": skill.uri(),
        "version": skill.version(),
        "files": files,
    })
}

/// The content type of the catalog's answers.
const JSON: &str = "application/json";

/// `200` with `body` of `content_type`, or `304` when the client's
/// `If-None-Match` already names `tag`; either way with the ETag and the
/// cache policy of `view`.
pub(super) fn answer(
    request: &HeaderMap,
    view: &SkillsView,
    tag: &str,
    content_type: &'static str,
    body: Body,
) -> Response {
    let etag = format!("\"{tag}\"");
    let mut response = if matches_etag(request, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = Response::new(body);
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
        response
    };
    let headers = response.headers_mut();
    cache_headers(headers, view);
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(ETAG, value);
    }
    response
}

/// The one answer for a skill the caller does not own: same status, headers
/// and bytes whatever the name.
pub(super) fn not_found(view: &SkillsView) -> Response {
    let mut response = (StatusCode::NOT_FOUND, NOT_FOUND_BODY).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    cache_headers(headers, view);
    response
}

/// Under an access policy the answer is the caller's own: no shared cache
/// may keep it. Either way a client revalidates (the set can be replaced).
fn cache_headers(headers: &mut HeaderMap, view: &SkillsView) {
    if view.is_private() {
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
        headers.insert(VARY, HeaderValue::from_static("authorization"));
    } else {
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("public, no-cache"));
    }
}

/// Whether `If-None-Match` names `etag` (or is `*`), by the weak comparison
/// RFC 9110 asks of it.
fn matches_etag(request: &HeaderMap, etag: &str) -> bool {
    request
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(|tag| tag.trim())
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(IF_NONE_MATCH, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn host_names_match_as_rmcp_matches_them() {
        let allowed = [
            "localhost".to_owned(),
            "::1".to_owned(),
            "example.com:8080".to_owned(),
        ];
        let allows = |host: &str| host_is_allowed(&host.parse().unwrap(), &allowed);
        assert!(allows("localhost"));
        assert!(allows("LOCALHOST:3000"));
        assert!(allows("[::1]:80"));
        assert!(allows("example.com:8080"));
        assert!(!allows("example.com:8081"));
        assert!(!allows("example.com"));
        assert!(!allows("localhost.evil.example"));
        assert!(!allows("evil.example"));
    }

    #[test]
    fn if_none_match_compares_weakly_and_accepts_lists_and_a_star() {
        let etag = "\"sha256:ab\"";
        assert!(matches_etag(&with("\"sha256:ab\""), etag));
        assert!(matches_etag(&with("W/\"sha256:ab\""), etag));
        assert!(matches_etag(&with("\"x\", \"sha256:ab\""), etag));
        assert!(matches_etag(&with("*"), etag));
        assert!(!matches_etag(&with("\"sha256:ac\""), etag));
        assert!(!matches_etag(&with("sha256:ab"), etag));
        assert!(!matches_etag(&HeaderMap::new(), etag));
    }
}
