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
//! `.tar.gz` (`archive`), built once per snapshot the first time it is
//! needed, and byte-identical on every build and replica of the same
//! binary: entries sorted by path, fixed times and owners, mode `0755` or
//! `0644` from the recorded executable bit, a gzip header without a time.
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
use serde_json::{Value, json};

use super::catalog::{self, answer, not_found};
use crate::protocol::{ARCHIVE_SUFFIX, INDEX_FILE, INDEX_SCHEMA, WELL_KNOWN_PATH};
use crate::server::{Artifact, Caller, Kind, SkillsView};
use crate::{Skill, SkillsServer};

const ARCHIVE_CONTENT_TYPE: &str = "application/gzip";
const SKILL_MD_CONTENT_TYPE: &str = "text/markdown; charset=utf-8";
const JSON_CONTENT_TYPE: &str = "application/json";

/// The index, the archives and the lone `SKILL.md` files, answered from
/// `skills`, for requests whose `Host` is one of `allowed_hosts` (any, when empty).
pub(super) fn routes<S>(
    skills: SkillsServer,
    allowed_hosts: Arc<[String]>,
    list_internal: bool,
) -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    let index_route =
        move |state: State<SkillsServer>, request: Request| index(state, request, list_internal);
    axum::Router::new()
        .route(&format!("{WELL_KNOWN_PATH}/{INDEX_FILE}"), get(index_route))
        .route(&format!("{WELL_KNOWN_PATH}/{{file}}"), get(archive))
        .route(
            &format!("{WELL_KNOWN_PATH}/{{skill}}/{}", crate::SKILL_MD),
            get(skill_md),
        )
        .with_state(skills)
        .layer(axum::middleware::from_fn_with_state(
            allowed_hosts,
            catalog::check_host,
        ))
}

/// The one skill of the caller's view that `name` names, with its artifact.
fn owned_artifact<'v>(view: &'v SkillsView, name: &str) -> Option<(&'v Skill, &'v Artifact)> {
    let skill = view.owned_skill(name)?;
    Some((skill, view.artifact(skill)?))
}

/// The index: `{"$schema", "skills": [{name, type, description, url, digest}]}`
/// for each skill the caller owns, in path order, internal ones only when
/// `list_internal`.
fn index_json(view: &SkillsView, list_internal: bool) -> Vec<u8> {
    let skills: Vec<Value> = view
        .owned()
        .filter(|skill| {
            list_internal || !skills_core::readers::is_internal(skill.extra_fields_json())
        })
        // A name is listed once, for the skill its artifact URL answers with.
        .filter(|skill| {
            view.owned_skill(skill.name())
                .is_some_and(|named| named.path() == skill.path())
        })
        .filter_map(|skill| {
            let artifact = view.artifact(skill)?;
            Some(json!({
                "name": skill.name(),
                "type": artifact.type_name(),
                "description": skill.description(),
                "url": artifact.url(skill),
                "digest": artifact.digest(),
            }))
        })
        .collect();
    serde_json::to_vec(&json!({ "$schema": INDEX_SCHEMA, "skills": skills })).unwrap_or_default()
}

/// `GET /.well-known/agent-skills/index.json`.
async fn index(
    State(skills): State<SkillsServer>,
    request: Request,
    list_internal: bool,
) -> Response {
    let (parts, _) = request.into_parts();
    let view = skills.view(&Caller::from_http(&parts));
    let body = index_json(&view, list_internal);
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
    State(skills): State<SkillsServer>,
    Path(params): Path<HashMap<String, String>>,
    request: Request,
) -> Response {
    let name = params
        .get("file")
        .and_then(|file| file.strip_suffix(ARCHIVE_SUFFIX));
    artifact(&skills, request, name, Kind::Archive, ARCHIVE_CONTENT_TYPE)
}

/// `GET /.well-known/agent-skills/{name}/SKILL.md`: an owned lone
/// `SKILL.md`, or the one 404.
async fn skill_md(
    State(skills): State<SkillsServer>,
    Path(params): Path<HashMap<String, String>>,
    request: Request,
) -> Response {
    let name = params.get("skill").map(String::as_str);
    artifact(&skills, request, name, Kind::SkillMd, SKILL_MD_CONTENT_TYPE)
}

/// The artifact of the caller's skill `name` when it is served as `kind`,
/// else the one 404 (so a locked or absent skill answers like none).
fn artifact(
    skills: &SkillsServer,
    request: Request,
    name: Option<&str>,
    kind: Kind,
    content_type: &'static str,
) -> Response {
    let (parts, _) = request.into_parts();
    let view = skills.view(&Caller::from_http(&parts));
    match name.and_then(|name| owned_artifact(&view, name)) {
        Some((_, artifact)) if artifact.kind == kind => answer(
            &parts.headers,
            &view,
            artifact.digest(),
            content_type,
            Body::from(artifact.bytes().clone()),
        ),
        _ => not_found(&view),
    }
}

/// Start-up warnings about the index: each skill the `skills` CLI would
/// drop from it (by its name or its description), and, as a note, each
/// internal one left out.
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
