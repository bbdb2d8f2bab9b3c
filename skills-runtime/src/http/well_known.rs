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

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Request, State};
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

use super::catalog::{self, answer, not_found};
use crate::protocol::{
    ARCHIVE_MTIME, ARCHIVE_SUFFIX, INDEX_FILE, INDEX_SCHEMA, TYPE_ARCHIVE, TYPE_SKILL_MD,
    WELL_KNOWN_PATH,
};
use crate::server::{Caller, SkillsView};
use crate::{Skill, SkillsServer};

const ARCHIVE_CONTENT_TYPE: &str = "application/gzip";
const SKILL_MD_CONTENT_TYPE: &str = "text/markdown; charset=utf-8";
const JSON_CONTENT_TYPE: &str = "application/json";

/// The index, the archives and the lone `SKILL.md` files, answered from
/// `skills`, for requests whose `Host` is one of `allowed_hosts` (any, when empty).
pub(super) fn routes<S>(skills: SkillsServer, allowed_hosts: Arc<[String]>) -> axum::Router<S>
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
        .with_state(skills)
        .layer(axum::middleware::from_fn_with_state(
            allowed_hosts,
            catalog::check_host,
        ))
}

/// What a skill is served as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    SkillMd,
    Archive,
}

/// One skill's artifact: its bytes, built once per snapshot, and their digest.
#[derive(Debug)]
pub(crate) struct Artifact {
    kind: Kind,
    bytes: Bytes,
    digest: String,
}

impl Artifact {
    /// The artifact of `skill`: its `SKILL.md` when that is its only file
    /// (and not executable), else the archive of its folder; `None` (logged)
    /// when the archive cannot be written, which only a path `tar` cannot
    /// store would cause.
    pub(crate) fn of(skill: &Skill) -> Option<Artifact> {
        let files = skill.files();
        if let [only] = files
            && only.path() == crate::SKILL_MD
            && !only.is_executable()
        {
            // Embedded text is served from the binary itself, with no copy.
            let bytes = match only.static_text() {
                Some(std::borrow::Cow::Borrowed(text)) => Bytes::from_static(text.as_bytes()),
                Some(std::borrow::Cow::Owned(text)) => Bytes::from(text.into_bytes()),
                None => Bytes::copy_from_slice(only.bytes()),
            };
            return Some(Artifact {
                kind: Kind::SkillMd,
                bytes,
                digest: only.digest().to_string(),
            });
        }
        match tar_gz(skill) {
            Ok(bytes) => Some(Artifact {
                kind: Kind::Archive,
                digest: rmcp::model::sha256_digest(&bytes),
                bytes: Bytes::from(bytes),
            }),
            Err(error) => {
                tracing::warn!(
                    skill = skill.path(),
                    %error,
                    "the skill's folder cannot be archived; it is left out of the well-known index"
                );
                None
            }
        }
    }

    /// The bytes served at the artifact's URL.
    pub(crate) fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// `sha256:<hex>` of [`bytes`](Self::bytes).
    pub(crate) fn digest(&self) -> &str {
        &self.digest
    }

    fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::SkillMd => TYPE_SKILL_MD,
            Kind::Archive => TYPE_ARCHIVE,
        }
    }

    /// The artifact's URL relative to the index.
    fn url(&self, skill: &Skill) -> String {
        match self.kind {
            Kind::SkillMd => format!("{}/{}", skill.name(), crate::SKILL_MD),
            Kind::Archive => format!("{}{ARCHIVE_SUFFIX}", skill.name()),
        }
    }
}

/// The skill's folder as a `.tar.gz`: every file (nested skills' included)
/// in path order, as ustar entries with fixed times and owners and the
/// recorded executable bit; no directory entries; a gzip header without a
/// time or a name.
fn tar_gz(skill: &Skill) -> std::io::Result<Vec<u8>> {
    let gzip = flate2::GzBuilder::new().mtime(0).write(
        Vec::with_capacity(usize::try_from(skill.total_size() / 2).unwrap_or(0)),
        flate2::Compression::default(),
    );
    let mut tar = tar::Builder::new(gzip);
    let mut files: Vec<_> = skill.files().iter().collect();
    files.sort_by(|a, b| a.path().cmp(b.path()));
    for file in files {
        let mut header = tar::Header::new_ustar();
        header.set_entry_type(tar::EntryType::Regular);
        header.set_size(file.size());
        header.set_mode(if file.is_executable() { 0o755 } else { 0o644 });
        header.set_mtime(ARCHIVE_MTIME);
        header.set_uid(0);
        header.set_gid(0);
        header.set_username("")?;
        header.set_groupname("")?;
        tar.append_data(&mut header, file.path(), file.bytes())?;
    }
    tar.into_inner()?.finish()
}

/// The one skill of the caller's view that `name` names, with its artifact.
fn owned_artifact<'v>(view: &'v SkillsView, name: &str) -> Option<(&'v Skill, &'v Artifact)> {
    let skill = view.owned_skill(name)?;
    Some((skill, view.artifact(skill)?))
}

/// The index: `{"$schema", "skills": [{name, type, description, url, digest}]}`
/// for each skill the caller owns, in path order.
fn index_json(view: &SkillsView) -> Vec<u8> {
    let skills: Vec<Value> = view
        .owned()
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
async fn index(State(skills): State<SkillsServer>, request: Request) -> Response {
    let (parts, _) = request.into_parts();
    let view = skills.view_for(&Caller::from_http(&parts));
    let body = index_json(&view);
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
    let (parts, _) = request.into_parts();
    let view = skills.view_for(&Caller::from_http(&parts));
    let name = params
        .get("file")
        .and_then(|file| file.strip_suffix(ARCHIVE_SUFFIX));
    match name.and_then(|name| owned_artifact(&view, name)) {
        Some((_, artifact)) if artifact.kind == Kind::Archive => answer(
            &parts.headers,
            &view,
            artifact.digest(),
            ARCHIVE_CONTENT_TYPE,
            Body::from(artifact.bytes().clone()),
        ),
        _ => not_found(&view),
    }
}

/// `GET /.well-known/agent-skills/{name}/SKILL.md`: an owned lone
/// `SKILL.md`, or the one 404.
async fn skill_md(
    State(skills): State<SkillsServer>,
    Path(params): Path<HashMap<String, String>>,
    request: Request,
) -> Response {
    let (parts, _) = request.into_parts();
    let view = skills.view_for(&Caller::from_http(&parts));
    let found = params
        .get("skill")
        .and_then(|name| owned_artifact(&view, name));
    match found {
        Some((_, artifact)) if artifact.kind == Kind::SkillMd => answer(
            &parts.headers,
            &view,
            artifact.digest(),
            SKILL_MD_CONTENT_TYPE,
            Body::from(artifact.bytes().clone()),
        ),
        _ => not_found(&view),
    }
}
