//! The well-known skills index (Agent Skills Discovery 0.2.0): what the
//! `skills` CLI on npm (`npx skills add https://host`) and other installers
//! read at `/.well-known/agent-skills/index.json`, and each skill's artifact
//! next to it.
//!
//! The index lists the skills the caller owns, from the snapshot MCP serves
//! right now and the same access policy ([`SkillsServer::view_for`]): a
//! locked or absent skill is not in it, and its artifact URLs answer with
//! the very 404 a name no skill has gets. A skill that is a lone `SKILL.md`
//! is served as that file (`skill-md`); any other as its whole folder in a
//! `.tar.gz` (`archive`, see `archives`).
//! Artifact URLs are relative to the index, so the routes work as well
//! under a prefix ([`SkillsRouter::well_known_routes`](super::SkillsRouter::well_known_routes)
//! nested under a path that carries a grant).
//!
//! A skill whose `metadata.internal` is `true` is left out of the index, as
//! the `skills` CLI hides it (skills 1.7.4, dist/cli.mjs:1277), unless the
//! router lists internal skills ([`SkillsRouter::list_internal_skills`](super::SkillsRouter::list_internal_skills));
//! its artifact still answers (hiding is about discovery: `gated` is about access).

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::response::Response;
use axum::routing::get;
use serde_json::json;

use super::answers::{answer, not_found};
use super::archives::{Archives, Artifact, Kind};
use crate::SkillsServer;
use crate::protocol::{ARCHIVE_SUFFIX, INDEX_FILE, INDEX_SCHEMA, WELL_KNOWN_PATH};
use crate::server::{Caller, SkillsView};

const ARCHIVE_CONTENT_TYPE: &str = "application/gzip";
const SKILL_MD_CONTENT_TYPE: &str = "text/markdown; charset=utf-8";
const JSON_CONTENT_TYPE: &str = "application/json";

/// What the routes answer from: the skills, and their artifacts per snapshot.
#[derive(Clone)]
struct Served {
    skills: SkillsServer,
    archives: Archives,
    /// Whether skills marked `metadata.internal: true` are in the index.
    list_internal: bool,
}

/// The index, the archives and the lone `SKILL.md` files, answered from
/// `skills` (each artifact built once per snapshot, and kept in `archives`);
/// internal skills in the index only when `list_internal`.
pub(super) fn routes<S>(
    skills: SkillsServer,
    archives: Archives,
    list_internal: bool,
) -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    axum::Router::new()
        .route(&format!("{WELL_KNOWN_PATH}/{INDEX_FILE}"), get(index))
        .route(&format!("{WELL_KNOWN_PATH}/{{file}}"), get(archive))
        .route(
            &format!("{WELL_KNOWN_PATH}/{{skill}}/{}", crate::SKILL_MD),
            get(skill_md),
        )
        .with_state(Served {
            skills,
            archives,
            list_internal,
        })
}

/// The index: `{"$schema", "skills": [{name, type, description, url, digest}]}`
/// for each skill the caller owns, in path order, internal ones only when
/// `list_internal`.
async fn index_json(view: &SkillsView, archives: &Archives, list_internal: bool) -> Vec<u8> {
    let mut skills = Vec::new();
    for skill in view.owned() {
        if !list_internal && skills_core::readers::is_internal(skill.extra_fields_json()) {
            continue;
        }
        // A name is listed once, for the skill its artifact URL answers with.
        if view
            .owned_skill(skill.name())
            .is_none_or(|named| named.path() != skill.path())
        {
            continue;
        }
        let Some(artifact) = archives.of(view, skill).await else {
            continue;
        };
        skills.push(json!({
            "name": skill.name(),
            "type": artifact.type_name(),
            "description": skill.description(),
            "url": artifact.url(skill),
            "digest": artifact.digest(),
        }));
    }
    serde_json::to_vec(&json!({ "$schema": INDEX_SCHEMA, "skills": skills })).unwrap_or_default()
}

/// `GET /.well-known/agent-skills/index.json`.
async fn index(State(served): State<Served>, request: Request) -> Response {
    let (parts, _) = request.into_parts();
    let view = served.skills.view(&Caller::from_http(&parts));
    let body = index_json(&view, &served.archives, served.list_internal).await;
    let etag = rmcp::model::sha256_digest(&body);
    answer(
        &parts.headers,
        &view,
        &etag,
        JSON_CONTENT_TYPE,
        Body::from(body),
    )
}

/// `GET /.well-known/agent-skills/{name}.tar.gz`: an owned skill's archive,
/// or the one 404.
async fn archive(
    State(served): State<Served>,
    Path(params): Path<HashMap<String, String>>,
    request: Request,
) -> Response {
    let name = params
        .get("file")
        .and_then(|file| file.strip_suffix(ARCHIVE_SUFFIX));
    artifact(&served, request, name, Kind::Archive, ARCHIVE_CONTENT_TYPE).await
}

/// `GET /.well-known/agent-skills/{name}/SKILL.md`: an owned lone
/// `SKILL.md`, or the one 404.
async fn skill_md(
    State(served): State<Served>,
    Path(params): Path<HashMap<String, String>>,
    request: Request,
) -> Response {
    let name = params.get("skill").map(String::as_str);
    artifact(&served, request, name, Kind::SkillMd, SKILL_MD_CONTENT_TYPE).await
}

/// The artifact of the caller's skill `name` when it is served as `kind`,
/// else the one 404 (so a locked or absent skill answers like none).
async fn artifact(
    served: &Served,
    request: Request,
    name: Option<&str>,
    kind: Kind,
    content_type: &'static str,
) -> Response {
    let (parts, _) = request.into_parts();
    let view = served.skills.view(&Caller::from_http(&parts));
    let found: Option<Arc<Artifact>> = match name.and_then(|name| view.owned_skill(name)) {
        Some(skill) => served.archives.of(&view, skill).await,
        None => None,
    };
    match found {
        Some(artifact) if artifact.kind == kind => answer(
            &parts.headers,
            &view,
            artifact.digest(),
            content_type,
            Body::from(artifact.bytes().clone()),
        ),
        _ => not_found(&view),
    }
}

/// What the `skills` CLI will do differently with this index, said once at
/// start-up: each skill it would skip (its name rule, a description over
/// 1,024 UTF-16 units: `skills_core::readers::index_entry_problem`) as a
/// warning, and each internal skill left out as information.
pub(super) fn warn_at_start(skills: &SkillsServer, list_internal: bool) {
    for skill in skills.skills().skills() {
        if let Some(problem) =
            skills_core::readers::index_entry_problem(skill.name(), skill.description())
        {
            tracing::warn!(
                skill = skill.path(),
                "`npx skills add` (skills 1.7.4) will skip `{}` in the well-known index: {problem}",
                skill.name()
            );
        }
        if !list_internal && skills_core::readers::is_internal(skill.extra_fields_json()) {
            tracing::info!(
                skill = skill.path(),
                "`{}` is left out of the well-known index: its `metadata.internal` is `true` (list it with `SkillsRouter::list_internal_skills`)",
                skill.name()
            );
        }
    }
}
