//! The catalog routes: `GET /skills` (what the caller owns, and teasers of
//! what they may buy) and `GET /skills/{name}` (an owned skill's files with
//! their digests), for agents that call HTTP routes rather than MCP methods.
//!
//! Both answer from [`SkillsServer::view`]: the snapshot MCP serves
//! right now and the same access policy, seen through the request head the
//! author's auth layer filled. Anything the caller does not own (locked,
//! absent or nonexistent) gets one 404 whose bytes and headers never depend
//! on the name asked for. They sit behind the same front door as `/mcp`
//! (`Host` and `Origin`), so a page on another site cannot read a local
//! server's catalog either.

use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

use super::answers::{answer, not_found};
use crate::SkillsServer;
use crate::server::{Caller, SkillsView};

/// Where [`SkillsRouter::build`](super::SkillsRouter::build) mounts the catalog routes: `GET /skills`
/// and `GET /skills/{name}` (see the [module documentation](super#what-is-mounted)).
pub const CATALOG_PATH: &str = "/skills";

/// `GET /skills` and `GET /skills/{name}`, answered from `skills`.
pub(super) fn routes<S>(skills: SkillsServer) -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    axum::Router::new()
        .route(CATALOG_PATH, get(list))
        .route(&format!("{}/{{name}}", CATALOG_PATH), get(one))
        .with_state(skills)
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
