//! What the plain routes answer with (the skill routes and the well-known
//! index): a body with its ETag and cache policy, `304` when the client
//! already has it, and the one `404` for anything the caller does not own.

use axum::body::Body;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::server::SkillsView;

/// The body of every 404 of `GET /skills/{name}` and the well-known
/// artifacts: it names nothing, so a skill that is locked, absent or
/// nonexistent cannot be told apart.
pub(super) const NOT_FOUND_BODY: &str =
    r#"{"error":"not_found","message":"no skill of that name is available to you"}"#;

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
