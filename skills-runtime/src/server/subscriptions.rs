//! How a client asks to hear about changes: `resources/subscribe` and
//! `resources/unsubscribe` on 2025-11-25, one `subscriptions/listen`
//! stream on 2026-07-28. What it is then told is decided in `changes`.

use std::sync::Arc;

use rmcp::model::{
    SubscribeRequestMethod, SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestMethod,
    UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext, SubscriptionSink};
use rmcp::{ErrorData, RoleServer};
use serde_json::json;

use super::changes::MAX_SUBSCRIPTIONS;
use super::skills_server::{Shared, SkillsServer};
use super::wire;

impl SkillsServer {
    /// The part of a 2026-07-28 `subscriptions/listen` filter this server
    /// answers: `resourcesListChanged` (and `promptsListChanged` when it
    /// [serves prompts](Self::serves_prompts)), and the `skill://` URIs among
    /// `resourceSubscriptions` (known or not yet: a file may appear later).
    /// `None`, which leaves `subscriptions/listen` unanswered (`-32601`),
    /// unless the server [notifies changes](Self::notifies_changes).
    pub(crate) fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        if !self.notifies_changes() {
            return None;
        }
        let mut accepted = SubscriptionFilter::default();
        accepted.resources_list_changed = requested.resources_list_changed;
        if self.serves_prompts() {
            accepted.prompts_list_changed = requested.prompts_list_changed;
        }
        accepted.resource_subscriptions = requested
            .resource_subscriptions
            .as_ref()
            .map(|uris| {
                uris.iter()
                    .filter(|uri| self.handles(uri) && skills_core::uri::parse(uri).is_ok())
                    .take(MAX_SUBSCRIPTIONS)
                    .cloned()
                    .collect::<Vec<_>>()
            })
            .filter(|uris| !uris.is_empty());
        Some(accepted)
    }

    /// Serves one 2026-07-28 `subscriptions/listen` stream until the client
    /// cancels it or the session ends: `notifications/resources/list_changed`
    /// when the skills it sees change (if it asked), and
    /// `notifications/resources/updated` for each accepted URI whose bytes
    /// change. rmcp has sent the acknowledgment by the time this runs.
    pub(crate) async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let _stream = self.open_stream(context.sink(), context.request_context());
        context.cancelled().await;
        Ok(())
    }

    /// Registers the part of `sink`'s accepted filter this server answers;
    /// it is told of changes until the guard drops. `None` if that part is
    /// empty.
    pub(super) fn open_stream(
        &self,
        sink: &SubscriptionSink,
        context: &RequestContext<RoleServer>,
    ) -> Option<StreamGuard> {
        let ours = self
            .accepted_subscription_filter(sink.accepted())?
            .intersection(sink.accepted());
        if ours == SubscriptionFilter::default() {
            return None;
        }
        let shared = &self.shared;
        let (id, view) = shared.listeners.open_stream(
            &shared.sessions,
            || self.snapshot(),
            &shared.settings.rule,
            sink.clone(),
            context.clone(),
            &ours,
        );
        Some(StreamGuard {
            shared: shared.clone(),
            id,
            view,
        })
    }

    /// 2025-11-25 `resources/subscribe`: from now on, the session is sent
    /// `notifications/resources/updated` when the bytes at `uri` change
    /// (or a file appears or vanishes there). Any well-formed `skill://` URI
    /// may be subscribed to, served or not. A malformed one is `-32602`
    /// with the URI in `data`; `-32601` unless the server
    /// [notifies changes](Self::notifies_changes).
    pub(crate) fn subscribe(
        &self,
        request: &SubscribeRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if !self.notifies_changes() {
            return Err(ErrorData::method_not_found::<SubscribeRequestMethod>());
        }
        let uri = request.uri.as_str();
        if !self.handles(uri) {
            return Err(wire::malformed_uri(uri, "it is not a skill:// URI"));
        }
        skills_core::uri::parse(uri).map_err(|why| wire::malformed_uri(uri, why))?;
        self.shared
            .listeners
            .subscribe(uri, context)
            .map_err(|most| {
                ErrorData::invalid_params(
                    format!(
                        "cannot subscribe to {uri}: a session may subscribe to at most {most} resources"
                    ),
                    Some(json!({ "uri": uri })),
                )
            })
    }

    /// 2025-11-25 `resources/unsubscribe`: no more updates for `uri` to this
    /// session. Unsubscribing from a URI not subscribed to is not an error.
    pub(crate) fn unsubscribe(
        &self,
        request: &UnsubscribeRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if !self.notifies_changes() {
            return Err(ErrorData::method_not_found::<UnsubscribeRequestMethod>());
        }
        self.shared.listeners.unsubscribe(&request.uri, context);
        Ok(())
    }
}

/// Removes its stream from the registries when the listen request ends.
pub(super) struct StreamGuard {
    shared: Arc<Shared>,
    id: u64,
    /// Its place among the views told of list changes, if it asked.
    view: Option<u64>,
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.shared.listeners.close_stream(self.id);
        if let Some(view) = self.view {
            self.shared.sessions.forget(view);
        }
    }
}
