//! `completion/complete` for the `path` argument of FastMCP's file templates.

use rmcp::model::{CompleteRequestParams, CompleteResult, Reference};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::json;

use super::view::View;
use super::{SkillsServer, wire};
use crate::{Skill, SkillFile};

impl SkillsServer {
    /// `completion/complete` for the `path` argument of a skill's file
    /// template: the skill's file paths that start with what was typed.
    /// `None` when the reference is not in the `skill://` namespace; `-32602`
    /// naming the URI when it is, but is not one of our templates (or is the
    /// template of a skill the caller does not own).
    pub(crate) fn complete(
        &self,
        request: &CompleteRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Option<Result<CompleteResult, ErrorData>> {
        let Reference::Resource(reference) = &request.r#ref else {
            return None;
        };
        if !self.handles(&reference.uri) {
            return None;
        }
        let view = self.request_view(context);
        let Some(skill) = self.template_owner(&view, &reference.uri) else {
            return Some(Err(ErrorData::invalid_params(
                format!(
                    "{} is not a resource template of this server",
                    reference.uri
                ),
                Some(json!({ "uri": reference.uri })),
            )));
        };
        if request.argument.name != "path" {
            return Some(Ok(wire::no_completion()));
        }
        let typed = request.argument.value.as_str();
        let matches = skill
            .files()
            .iter()
            .map(SkillFile::path)
            .filter(|path| path.starts_with(typed))
            .map(str::to_owned)
            .collect();
        Some(Ok(wire::completion(matches)))
    }

    /// The owned skill whose FastMCP file template is `template`.
    fn template_owner<'v>(&self, view: &'v View<'_>, template: &str) -> Option<&'v Skill> {
        if !self.settings().fastmcp {
            return None;
        }
        // Called on every keystroke: find the skill by its path, not by
        // formatting every skill's template.
        let root = template.strip_suffix(wire::TEMPLATE_SUFFIX)?;
        let skill = view
            .skills()
            .get(&skills_core::uri::decoded_path(root)?)
            .filter(|skill| skill.root_uri() == root)?;
        view.owns(skill).then_some(skill)
    }
}
