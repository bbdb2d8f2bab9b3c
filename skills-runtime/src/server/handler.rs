//! `ServerHandler` implementations: [`SkillsServer`] on its own, and
//! [`WithSkills`], which adds skills to any existing handler.

use std::borrow::Cow;

#[allow(deprecated)] // SetLevelRequestParams: logging is deprecated, yet still forwarded.
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CancelledNotificationParam,
    CompleteRequestParams, CompleteResult, CustomNotification, CustomRequest, CustomResult,
    DiscoverResult, GetPromptRequestParams, GetPromptResponse, GetSkillRequestParams,
    GetSkillResult, GetTaskParams, GetTaskResult, InitializeRequestParams, InitializeResult,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProtocolVersion,
    ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, ReadResourceRequestParams,
    ReadResourceResponse, Resource, ServerConfig, SetLevelRequestParams, SubscribeRequestParams,
    SubscriptionFilter, Tool, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::cursor::{self, Chained, Kind, Listing, Page};
use super::{Caller, SkillsServer, wire};

impl ServerHandler for SkillsServer {
    fn get_info(&self) -> ServerConfig {
        self.config(&Caller::anonymous())
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        result.instructions = self.instructions(&Caller::from_mcp(&context));
        Ok(result)
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        Ok(DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.config(&Caller::from_mcp(&context)),
        ))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        SkillsServer::on_initialized(self, &context);
    }

    // list_skills, get_skill, read_resource, read_resource_directory,
    // list_resources, list_resource_templates, complete, the change
    // notices' methods, list_prompts and get_prompt: through the same macro
    // users write.
    crate::delegate_skills!(, prompts);

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            self.tools_for(&Caller::from_mcp(&context)),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match SkillsServer::call_tool(self, &request, &context) {
            Some(result) => result.map(Into::into),
            None => Err(ErrorData::invalid_params(
                format!("no tool named {}", request.name),
                None,
            )),
        }
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools().into_iter().find(|tool| tool.name == name)
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(super::malformed::refuse(&request, Some(&context)))
    }
}

/// An existing `ServerHandler` that serves skills too, built in one line
/// with [`SkillsServer::wrap`]:
///
/// ```
/// use skills_runtime::{Skills, SkillsServer};
/// # static SKILLS: Skills = Skills::empty(); // embed_skills!("skills") in a real crate
/// # #[derive(Clone, Default)]
/// # struct MyServer;
/// # impl rmcp::ServerHandler for MyServer {}
/// let server = SkillsServer::new(SKILLS.clone()).wrap(MyServer::default());
/// # let _ = server;
/// ```
///
/// The wrapper answers the skills methods, serves `skill://` resources before
/// the inner handler's own, lists both, adds the fallback tool to the inner
/// tools (and, when the skills server [serves
/// prompts](crate::SkillsServerBuilder::prompts), lists its prompts before the
/// inner handler's and answers `prompts/get` of the skills the caller owns), and merges capabilities and instructions into the inner handler's
/// `initialize` answer (which it patches, so the inner handler's own
/// `initialize` still runs). Everything else goes to the inner handler.
/// `server/discover` is answered from the merged `ServerHandler::get_info`,
/// so an inner handler's own `discover` is not called.
///
/// Change notices are merged too: `resources/subscribe` of a `skill://` URI
/// is ours when the skills server [notifies
/// changes](crate::SkillsServerBuilder::notify_changes), and a 2026-07-28
/// `subscriptions/listen` stream accepts what either handler accepts, each
/// sending its own notices through it.
#[derive(Debug, Clone)]
pub struct WithSkills<H> {
    inner: H,
    skills: SkillsServer,
}

impl SkillsServer {
    /// `inner`, your own `ServerHandler`, serving these skills too: the
    /// one line that adds skills to an existing server (see [`WithSkills`]).
    ///
    /// ```
    /// use skills_runtime::{Skills, SkillsServer};
    /// # static SKILLS: Skills = Skills::empty(); // embed_skills!("skills") in a real crate
    /// # #[derive(Clone, Default)]
    /// # struct MyServer;
    /// # impl rmcp::ServerHandler for MyServer {}
    /// let server = SkillsServer::new(SKILLS.clone()).wrap(MyServer::default());
    /// # let _ = server;
    /// ```
    pub fn wrap<H: ServerHandler>(self, inner: H) -> WithSkills<H> {
        WithSkills {
            inner,
            skills: self,
        }
    }
}

impl<H: ServerHandler> WithSkills<H> {
    /// The wrapped handler.
    pub fn inner(&self) -> &H {
        &self.inner
    }

    /// The skills server.
    pub fn skills(&self) -> &SkillsServer {
        &self.skills
    }

    /// The inner handler's answer with our capabilities and the
    /// instructions of `caller` merged in, and our server name if the inner
    /// one kept rmcp's default.
    fn merge(&self, mut config: ServerConfig, caller: &Caller<'_>) -> ServerConfig {
        self.skills.add_capabilities(&mut config.capabilities);
        let instructions = self
            .skills
            .instructions_after(config.instructions.as_deref(), caller);
        config.instructions = (!instructions.is_empty()).then_some(instructions);
        if config.server_info == rmcp::model::Implementation::from_build_env() {
            config.server_info = self.skills.server_info();
        }
        config
    }

    fn inner_has_resources(&self) -> bool {
        self.inner.get_info().capabilities.resources.is_some()
    }

    fn inner_has_prompts(&self) -> bool {
        self.inner.get_info().capabilities.prompts.is_some()
    }

    fn inner_has_tools(&self) -> bool {
        self.inner.get_info().capabilities.tools.is_some()
    }
}

/// Every notification either filter accepts.
fn union(mut ours: SubscriptionFilter, theirs: SubscriptionFilter) -> SubscriptionFilter {
    let either =
        |a: Option<bool>, b: Option<bool>| (a == Some(true) || b == Some(true)).then_some(true);
    ours.tools_list_changed = either(ours.tools_list_changed, theirs.tools_list_changed);
    ours.prompts_list_changed = either(ours.prompts_list_changed, theirs.prompts_list_changed);
    ours.resources_list_changed =
        either(ours.resources_list_changed, theirs.resources_list_changed);
    if let Some(their_uris) = theirs.resource_subscriptions {
        let uris = ours.resource_subscriptions.get_or_insert_with(Vec::new);
        for uri in their_uris {
            if !uris.contains(&uri) {
                uris.push(uri);
            }
        }
    }
    ours
}

/// A page of our resources, without cache hints: the listing it belongs to
/// may go on with the inner handler's resources.
fn resources_page(page: Page<'_, &Resource>) -> ListResourcesResult {
    let mut result = wire::resources_page(page.items);
    result.next_cursor = page.next;
    result
}

#[allow(deprecated)] // subscribe/unsubscribe are legacy-only but still forwarded.
#[warn(clippy::missing_trait_methods)] // New rmcp methods must be forwarded too.
impl<H: ServerHandler> ServerHandler for WithSkills<H> {
    fn get_info(&self) -> ServerConfig {
        self.merge(self.inner.get_info(), &Caller::anonymous())
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        let result = self.inner.initialize(request, context.clone()).await?;
        Ok(self.merge(result, &Caller::from_mcp(&context)))
    }

    fn negotiate_initialize(
        &self,
        request: &InitializeRequestParams,
    ) -> Result<InitializeResult, ErrorData> {
        self.inner
            .negotiate_initialize(request)
            .map(|result| self.merge(result, &Caller::anonymous()))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.inner.supported_protocol_versions()
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        Ok(DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.merge(self.inner.get_info(), &Caller::from_mcp(&context)),
        ))
    }

    async fn ping(&self, context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        self.inner.ping(context).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        match self.skills.complete(&request, &context) {
            Some(result) => result,
            None => self.inner.complete(request, context).await,
        }
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // rmcp passes the method on in either era; 2026-07-28 removed it.
        let modern = context
            .protocol_version()
            .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
        if modern {
            return Err(super::malformed::removed_in_2026_07_28("logging/setLevel"));
        }
        self.inner.set_level(request, context).await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if !self.skills.serves_prompts() {
            return self.inner.get_prompt(request, context).await;
        }
        let ours = {
            let view = self.skills.request_view(&context);
            view.prompt_skill(&request.name)
                .map(|skill| wire::prompt_result(skill, view.settings().tool.as_deref()))
        };
        match ours {
            Some(result) => Ok(result.into()),
            // A name we do not serve to this caller is the inner handler's
            // to answer, owned by someone else or not: one answer for both.
            None if self.inner_has_prompts() => self.inner.get_prompt(request, context).await,
            None => Err(wire::unknown_prompt(&request.name)),
        }
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        if !self.skills.serves_prompts() {
            return self.inner.list_prompts(request, context).await;
        }
        let cursor = request
            .as_ref()
            .and_then(|request| request.cursor.as_deref());
        // Ours first, then the inner handler's, behind cursors of ours.
        let (tail, fingerprint) = {
            let view = self.skills.request_view(&context);
            let indices = view.visible().indices();
            let size = view.settings().skills_page_size;
            let listing = view.prompts_listing();
            if !self.inner_has_prompts() {
                let page = cursor::page(indices, size, cursor, listing)?;
                let mut result = ListPromptsResult::with_all_items(view.prompts(page.items));
                result.next_cursor = page.next;
                return Ok(result);
            }
            match cursor::page_then_tail(indices, size, cursor, listing)? {
                Chained::Ours(page) => {
                    let mut result = ListPromptsResult::with_all_items(view.prompts(page.items));
                    result.next_cursor = page.next;
                    return Ok(result);
                }
                Chained::Tail(tail) => (tail, view.fingerprint().to_owned()),
            }
        };
        let mut inner_request = request.unwrap_or_default();
        inner_request.cursor = tail;
        let mut result = self
            .inner
            .list_prompts(Some(inner_request), context)
            .await?;
        let listing = Listing::new(Kind::Prompts, &fingerprint);
        result.next_cursor = cursor::tail_cursor(listing, result.next_cursor);
        Ok(result)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let cursor = request
            .as_ref()
            .and_then(|request| request.cursor.as_deref());
        // Ours first, then the inner handler's, behind cursors of ours.
        let (tail, fingerprint) = {
            let view = self.skills.request_view(&context);
            let resources = view.resources();
            let size = view.settings().resources_page_size;
            let listing = view.resources_listing();
            if !self.inner_has_resources() {
                let page = cursor::page(&resources, size, cursor, listing)?;
                return Ok(resources_page(page));
            }
            match cursor::page_then_tail(&resources, size, cursor, listing)? {
                Chained::Ours(page) => return Ok(resources_page(page)),
                Chained::Tail(tail) => (tail, view.fingerprint().to_owned()),
            }
        };
        let mut inner_request = request.unwrap_or_default();
        inner_request.cursor = tail;
        let mut result = self
            .inner
            .list_resources(Some(inner_request), context)
            .await?;
        let listing = Listing::new(Kind::Resources, &fingerprint);
        result.next_cursor = cursor::tail_cursor(listing, result.next_cursor);
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let first_page = request
            .as_ref()
            .is_none_or(|request| request.cursor.is_none());
        let mut result = if self.inner_has_resources() {
            self.inner
                .list_resource_templates(request.clone(), context.clone())
                .await?
        } else {
            ListResourceTemplatesResult::default()
        };
        if first_page {
            let mut ours = self.skills.list_resource_templates(request, &context)?;
            ours.resource_templates
                .append(&mut result.resource_templates);
            result.resource_templates = ours.resource_templates;
        }
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if !self.skills.handles(&request.uri) {
            return self.inner.read_resource(request, context).await;
        }
        match self.skills.read_resource(&request, &context) {
            Ok(result) => Ok(result.into()),
            // The inner handler may serve skill:// resources of its own.
            Err(error) if self.inner_has_resources() => self
                .inner
                .read_resource(request, context)
                .await
                .map_err(|_| error),
            Err(error) => Err(error),
        }
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let ours = self.skills.accepted_subscription_filter(requested);
        let theirs = self.inner.accepted_subscription_filter(requested);
        match (ours, theirs) {
            (Some(ours), Some(theirs)) => Some(union(ours, theirs)),
            (ours, theirs) => ours.or(theirs),
        }
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        // One stream serves both: ours is registered beside it, and the
        // inner handler runs it if it accepted anything, so each sends
        // what it answers through the same sink.
        let _ours = self
            .skills
            .open_stream(context.sink(), context.request_context());
        let inner_accepted = self
            .inner
            .accepted_subscription_filter(context.requested())
            .is_some_and(|theirs| {
                theirs.intersection(context.accepted()) != SubscriptionFilter::default()
            });
        if inner_accepted {
            self.inner.listen(context).await
        } else {
            context.cancelled().await;
            Ok(())
        }
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if self.skills.handles(&request.uri) && self.skills.notifies_changes() {
            self.skills.subscribe(&request, &context)
        } else {
            self.inner.subscribe(request, context).await
        }
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if self.skills.handles(&request.uri) && self.skills.notifies_changes() {
            self.skills.unsubscribe(&request, &context)
        } else {
            self.inner.unsubscribe(request, context).await
        }
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match self.skills.call_tool(&request, &context) {
            Some(result) => result.map(Into::into),
            None => self.inner.call_tool(request, context).await,
        }
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let first_page = request
            .as_ref()
            .is_none_or(|request| request.cursor.is_none());
        let mut result = if self.inner_has_tools() {
            self.inner.list_tools(request, context.clone()).await?
        } else {
            ListToolsResult::default()
        };
        if first_page {
            let caller = Caller::from_mcp(&context);
            result.tools.extend(self.skills.tools_for(&caller));
        }
        Ok(result)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.skills
            .tools()
            .into_iter()
            .find(|tool| tool.name == name)
            .or_else(|| self.inner.get_tool(name))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        // A standard method here had params rmcp could not read: ours to refuse.
        if super::malformed::typed_by_rmcp(&request.method) {
            return Err(super::malformed::refuse(&request, Some(&context)));
        }
        self.inner.on_custom_request(request, context).await
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner.on_cancelled(notification, context).await;
    }

    async fn on_progress(
        &self,
        notification: ProgressNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner.on_progress(notification, context).await;
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.skills.on_initialized(&context);
        self.inner.on_initialized(context).await;
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        self.inner.on_roots_list_changed(context).await;
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner
            .on_custom_notification(notification, context)
            .await;
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.inner.get_task(request, context).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.update_task(request, context).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.cancel_task(request, context).await
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        self.skills.list_skills(request, &context)
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.skills.get_skill(request, &context)
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        self.skills.read_resource_directory(request, &context)
    }
}
