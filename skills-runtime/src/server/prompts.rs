//! Skills as MCP prompts (`prompts/list`, `prompts/get`), for hosts that
//! show prompts to the user but never read resources on their own. Off
//! unless [`SkillsServerBuilder::prompts`](crate::SkillsServerBuilder::prompts)
//! turns it on; per view like every other answer.

use rmcp::model::{
    GetPromptRequestMethod, GetPromptRequestParams, GetPromptResult, ListPromptsRequestMethod,
    ListPromptsResult, PaginatedRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::cursor::{self, Kind, Listing};
use super::view::View;
use super::{SkillsServer, wire};
use crate::Skill;

impl SkillsServer {
    /// Whether skills are served as prompts
    /// ([`SkillsServerBuilder::prompts`](crate::SkillsServerBuilder::prompts)).
    pub(crate) fn serves_prompts(&self) -> bool {
        self.settings().prompts
    }

    /// `prompts/list`: one prompt per skill the caller owns, in set order,
    /// named and described by its frontmatter. Paginated by
    /// [`skills_page_size`](crate::SkillsServerBuilder::skills_page_size);
    /// a cursor this listing did not issue for the caller's current view is
    /// `-32602` with the cursor in `data`. `-32601` when the server does not
    /// [serve prompts](Self::serves_prompts).
    pub(crate) fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        if !self.serves_prompts() {
            return Err(ErrorData::method_not_found::<ListPromptsRequestMethod>());
        }
        let view = self.request_view(context);
        let cursor = request
            .as_ref()
            .and_then(|request| request.cursor.as_deref());
        let page = cursor::page(
            view.visible().indices(),
            view.settings().skills_page_size,
            cursor,
            view.prompts_listing(),
        )?;
        let mut result = ListPromptsResult::with_all_items(view.prompts(page.items));
        result.next_cursor = page.next;
        view.cache_hints(&mut result.ttl_ms, &mut result.cache_scope);
        Ok(result)
    }

    /// `prompts/get`: the skill named `request.name` as a prompt, its
    /// `SKILL.md` text, then where its other files are. A name the caller
    /// owns no skill by (locked, absent or nonexistent alike) is `-32602`
    /// with the name in `data`; `-32601` when the server does not
    /// [serve prompts](Self::serves_prompts). Arguments are ignored: the
    /// prompts take none.
    pub(crate) fn get_prompt(
        &self,
        request: &GetPromptRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, ErrorData> {
        if !self.serves_prompts() {
            return Err(ErrorData::method_not_found::<GetPromptRequestMethod>());
        }
        let view = self.request_view(context);
        let skill = view
            .prompt_skill(&request.name)
            .ok_or_else(|| wire::unknown_prompt(&request.name))?;
        Ok(wire::prompt_result(skill, view.settings().tool.as_deref()))
    }
}

impl View<'_> {
    /// The listing `prompts/list` cursors of this view belong to.
    pub(super) fn prompts_listing(&self) -> Listing<'_> {
        Listing::new(Kind::Prompts, self.fingerprint())
    }

    /// The prompts of the skills at `indices`.
    pub(super) fn prompts(&self, indices: &[usize]) -> Vec<rmcp::model::Prompt> {
        let skills = self.skills().skills();
        indices
            .iter()
            .map(|&index| wire::prompt(&skills[index]))
            .collect()
    }

    /// The skill named `name`, if the caller owns it: what `prompts/get`
    /// serves. Not owning it and its not existing are one answer.
    pub(super) fn prompt_skill(&self, name: &str) -> Option<&Skill> {
        self.skills().by_name(name).filter(|skill| self.owns(skill))
    }
}
