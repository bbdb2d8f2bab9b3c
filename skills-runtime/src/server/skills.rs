//! SEP-2640 `skills/list` and `skills/get`: the entries of the skills the
//! caller may see.

use rmcp::model::{
    GetSkillRequestParams, GetSkillResult, ListSkillsResult, PaginatedRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::cursor::{self, Kind, Listing};
use super::{SkillsServer, wire};

impl SkillsServer {
    /// SEP-2640 `skills/list`: one page of the skills the caller owns, entries never
    /// split. A cursor this listing did not issue for the current set, or one
    /// past its end, is `-32602` with the cursor in `data`.
    pub(crate) fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        let view = self.request_view(context);
        let cursor = request
            .as_ref()
            .and_then(|request| request.cursor.as_deref());
        let page = cursor::page(
            view.visible().indices(),
            view.settings().skills_page_size,
            cursor,
            Listing::new(Kind::Skills, view.fingerprint()),
        )?;
        let entries = page
            .items
            .iter()
            .map(|&index| view.snapshot().entry(index).clone())
            .collect();
        let mut result = ListSkillsResult::with_all_items(entries);
        result.next_cursor = page.next;
        view.cache_hints(&mut result.ttl_ms, &mut result.cache_scope);
        Ok(result)
    }

    /// SEP-2640 `skills/get`: the entry of one skill, listed or not; `-32602`
    /// naming the URI when the caller owns no skill there (locked, absent and
    /// nonexistent skills get the same answer).
    pub(crate) fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        let view = self.request_view(context);
        let index = view
            .skills()
            .by_uri(&request.uri)
            .filter(|skill| view.owns(skill))
            .and_then(|skill| view.skills().position(skill.path()))
            .ok_or_else(|| wire::unknown_skill(&request.uri))?;
        let mut result = GetSkillResult::new(view.snapshot().entry(index).clone());
        view.cache_hints(&mut result.ttl_ms, &mut result.cache_scope);
        Ok(result)
    }
}
