//! `completion/complete` for the `path` argument of FastMCP's file templates.

use rmcp::model::{CompleteRequestParams, CompleteResult, Reference};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::{SkillsServer, wire};
use crate::SkillFile;

impl SkillsServer {
    /// `completion/complete` for the `path` argument of a skill's file
    /// template: the skill's file paths that start with what was typed.
    /// `None` when the reference is not one of our templates.
    pub fn complete(
        &self,
        request: &CompleteRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Option<Result<CompleteResult, ErrorData>> {
        let Reference::Resource(reference) = &request.r#ref else {
            return None;
        };
        if !self.settings().fastmcp {
            return None;
        }
        let view = self.request_view(context);
        // Called on every keystroke: find the skill by its path, not by
        // formatting every skill's template.
        let root = reference.uri.strip_suffix(wire::TEMPLATE_SUFFIX)?;
        let skill = view
            .skills()
            .get(&skills_core::uri::decoded_path(root)?)
            .filter(|skill| skill.root_uri() == root)?;
        if !view.owns(skill) {
            return None;
        }
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
}
