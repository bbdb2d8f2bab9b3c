//! The `skill://` resources: `resources/list`, `resources/templates/list`
//! and `resources/read` (files, FastMCP manifests, Figma's index).

use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResult, Resource, ResourceTemplate,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::cursor::{self, Kind, Listing};
use super::view::View;
use super::{SkillsServer, compat, wire};
use crate::SkillFile;

impl SkillsServer {
    /// `resources/list`: each owned skill's `SKILL.md` (named by its
    /// frontmatter name, titled `Skill: <name>`, with its load hint or
    /// description, size, version and `text/markdown`), every supporting file
    /// too when so configured (`<skill>/<path>`, titled `<skill> reference:
    /// <path>`), the FastMCP manifests and the legacy index when enabled. Paginated; a cursor this listing
    /// did not issue for the current set, or one past its end, is `-32602`
    /// with the cursor in `data`.
    pub(crate) fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let view = self.request_view(context);
        let resources = view.resources();
        let page = cursor::page(
            &resources,
            view.settings().resources_page_size,
            request
                .as_ref()
                .and_then(|request| request.cursor.as_deref()),
            view.resources_listing(),
        )?;
        let mut result = wire::resources_page(page.items);
        result.next_cursor = page.next;
        view.cache_hints(&mut result.ttl_ms, &mut result.cache_scope);
        Ok(result)
    }

    /// `resources/templates/list`: FastMCP's `skill://<path>/{path*}` template
    /// for each owned skill, when FastMCP compatibility is on. One page:
    /// any cursor is one this server never issued (`-32602`).
    pub(crate) fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let view = self.request_view(context);
        let templates = view.templates();
        let page = cursor::page(
            &templates,
            usize::MAX,
            request
                .as_ref()
                .and_then(|request| request.cursor.as_deref()),
            Listing::new(Kind::Templates, view.fingerprint()),
        )?;
        let mut result = ListResourceTemplatesResult::with_all_items(
            page.items
                .iter()
                .map(|&template| template.clone())
                .collect(),
        );
        view.cache_hints(&mut result.ttl_ms, &mut result.cache_scope);
        Ok(result)
    }

    /// `resources/read` of any `skill://` resource: a file, a FastMCP
    /// `_manifest`, or `skill://index.json`. The content's `uri` echoes the
    /// request. Unknown, unlisted, malformed, encoded-slash, dot-segment and
    /// traversal URIs are all `-32602` with the URI in `data`.
    pub(crate) fn read_resource(
        &self,
        request: &ReadResourceRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        self.request_view(context).read(&request.uri)
    }
}

impl View<'_> {
    /// The listing `resources/list` cursors of this view belong to.
    pub(super) fn resources_listing(&self) -> Listing<'_> {
        Listing::new(Kind::Resources, self.fingerprint())
    }

    /// Every resource of ours the caller may list, in order: the legacy
    /// index, then each owned skill's run (built once per snapshot).
    pub(super) fn resources(&self) -> Vec<&Resource> {
        let settings = self.settings();
        let index = settings.legacy_index.then(wire::index_resource);
        index
            .into_iter()
            .chain(
                self.visible()
                    .indices()
                    .iter()
                    .flat_map(|&skill| self.snapshot().listed(skill, settings)),
            )
            .collect()
    }

    /// FastMCP's file template of each owned skill, when that layer is on.
    pub(super) fn templates(&self) -> Vec<&ResourceTemplate> {
        if !self.settings().fastmcp {
            return Vec::new();
        }
        self.visible()
            .indices()
            .iter()
            .map(|&index| self.snapshot().template(index))
            .collect()
    }

    /// The answer to `resources/read` of `uri`, echoed in the contents.
    pub(super) fn read(&self, uri: &str) -> Result<ReadResourceResult, ErrorData> {
        let canonical =
            skills_core::uri::parse(uri).map_err(|why| wire::malformed_uri(uri, why))?;
        let mut result = if let Some(file) = self.readable_file(&canonical) {
            wire::file_read(file, uri, |file| self.snapshot().blob(file))
        } else if let Some((json, meta)) = self.generated(&canonical) {
            wire::json_read(json, meta, uri)
        } else {
            return Err(wire::unknown_resource(uri));
        };
        self.cache_hints(&mut result.ttl_ms, &mut result.cache_scope);
        Ok(result)
    }

    /// The file at `canonical`, if some skill the caller owns holds it.
    pub(super) fn readable_file(&self, canonical: &str) -> Option<&SkillFile> {
        let (owner, file) = self.skills().file_by_uri(canonical)?;
        self.may_read(owner).then_some(file)
    }

    /// A generated resource: a FastMCP manifest (with the skill's executable
    /// files in `_meta`, as its entry has them) or the legacy index.
    pub(super) fn generated(
        &self,
        canonical: &str,
    ) -> Option<(String, Option<rmcp::model::MetaObject>)> {
        if self.settings().legacy_index && canonical == crate::protocol::LEGACY_INDEX_URI {
            let owned = self.owned_skills().map(|(_, skill)| skill);
            return Some((crate::protocol::index_json(owned), None));
        }
        if self.settings().fastmcp {
            let skill = compat::manifest_owner(self.skills(), canonical)?;
            return self.owns(skill).then(|| {
                (
                    crate::protocol::manifest_json(skill),
                    wire::executable_meta(skill),
                )
            });
        }
        None
    }
}
