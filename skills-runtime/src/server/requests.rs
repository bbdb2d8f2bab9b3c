//! The per-request answers of a [`SkillsServer`], one per skills method of
//! rmcp's `ServerHandler`, behind one trait: what
//! [`delegate_skills!`](crate::delegate_skills) writes its calls to from a
//! handler in another crate. Not part of the public API: it is reached
//! through the hidden `skills_runtime::__private` path (as serde's derive
//! reaches `serde::__private`), sealed, and may change in any release.
//! [`WithSkills`](crate::WithSkills) and `SkillsServer`'s own
//! `ServerHandler` call the inherent methods directly.

use std::future::Future;

use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResult,
    GetSkillRequestParams, GetSkillResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListSkillsResult, PaginatedRequestParams,
    ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, ReadResourceRequestParams,
    ReadResourceResult, SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer};

use super::skills_server::SkillsServer;

mod sealed {
    /// Only [`SkillsServer`](super::SkillsServer) answers skills requests.
    pub trait Sealed {}
}

impl sealed::Sealed for SkillsServer {}

/// The skills methods of a `ServerHandler`, answered by a [`SkillsServer`]
/// for the caller of each request's context. Hidden: use
/// [`delegate_skills!`](crate::delegate_skills), which writes the calls.
#[doc(hidden)]
pub trait SkillsRequests: sealed::Sealed {
    /// SEP-2640 `skills/list`.
    fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData>;

    /// SEP-2640 `skills/get`.
    fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData>;

    /// `resources/read` of a `skill://` URI.
    fn read_resource(
        &self,
        request: &ReadResourceRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData>;

    /// SEP-2640 `resources/directory/read`.
    fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData>;

    /// `resources/list`.
    fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData>;

    /// `resources/templates/list`.
    fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData>;

    /// `completion/complete`; `None` for a reference that names no template
    /// of this server.
    fn complete(
        &self,
        request: &CompleteRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Option<Result<CompleteResult, ErrorData>>;

    /// The part of a 2026-07-28 `subscriptions/listen` filter this server answers.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter>;

    /// Serves one 2026-07-28 `subscriptions/listen` stream until it ends.
    fn listen(
        &self,
        context: SubscriptionContext,
    ) -> impl Future<Output = Result<(), ErrorData>> + Send;

    /// 2025-11-25 `resources/subscribe`.
    fn subscribe(
        &self,
        request: &SubscribeRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData>;

    /// 2025-11-25 `resources/unsubscribe`.
    fn unsubscribe(
        &self,
        request: &UnsubscribeRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData>;

    /// `prompts/list`: one prompt per skill the caller owns.
    fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData>;

    /// `prompts/get` of a skill the caller owns.
    fn get_prompt(
        &self,
        request: &GetPromptRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, ErrorData>;
}

impl SkillsRequests for SkillsServer {
    fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        SkillsServer::list_skills(self, request, context)
    }

    fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        SkillsServer::get_skill(self, request, context)
    }

    fn read_resource(
        &self,
        request: &ReadResourceRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        SkillsServer::read_resource(self, request, context)
    }

    fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        SkillsServer::read_resource_directory(self, request, context)
    }

    fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        SkillsServer::list_resources(self, request, context)
    }

    fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        SkillsServer::list_resource_templates(self, request, context)
    }

    fn complete(
        &self,
        request: &CompleteRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Option<Result<CompleteResult, ErrorData>> {
        SkillsServer::complete(self, request, context)
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        SkillsServer::accepted_subscription_filter(self, requested)
    }

    fn listen(
        &self,
        context: SubscriptionContext,
    ) -> impl Future<Output = Result<(), ErrorData>> + Send {
        SkillsServer::listen(self, context)
    }

    fn subscribe(
        &self,
        request: &SubscribeRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        SkillsServer::subscribe(self, request, context)
    }

    fn unsubscribe(
        &self,
        request: &UnsubscribeRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        SkillsServer::unsubscribe(self, request, context)
    }

    fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        SkillsServer::list_prompts(self, request, context)
    }

    fn get_prompt(
        &self,
        request: &GetPromptRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, ErrorData> {
        SkillsServer::get_prompt(self, request, context)
    }
}
