//! Telling sessions and watchers when their view changes: registering an
//! initialized session, a watcher of one caller's view, and computing every
//! view again after a grant or a revoke. The registry itself is `sessions`.

use rmcp::RoleServer;
use rmcp::model::{NumberOrString, RequestMetaObject};
use rmcp::service::{NotificationContext, RequestContext};

use super::sessions::{Lists, ViewChanges};
use super::skills_server::SkillsServer;

impl SkillsServer {
    /// Registers an initialized session to be told, with
    /// `notifications/resources/list_changed` (and
    /// `notifications/prompts/list_changed` when the server [serves
    /// prompts](crate::SkillsServerBuilder::prompts)), whenever its view of the
    /// skills changes, when the server
    /// [notifies changes](crate::SkillsServerBuilder::notify_changes): a
    /// [`replace`](Self::replace) that changes what it owns, or a grant or
    /// revoke the author reports with [`refresh_views`](Self::refresh_views).
    /// A session whose view did not change is not told.
    ///
    /// `SkillsServer` and [`WithSkills`](crate::WithSkills) call this from
    /// `ServerHandler::on_initialized`; a handler written with
    /// [`delegate_skills!`](crate::delegate_skills) calls it from its own.
    /// The view is computed from this notification's context: over
    /// streamable HTTP, its HTTP request head, with what the auth layer put
    /// in its extensions. Stateless HTTP has no sessions and nothing to tell.
    pub fn on_initialized(&self, context: &NotificationContext<RoleServer>) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let mut request = RequestContext::new(NumberOrString::Number(0), context.peer.clone());
        request.extensions = context.extensions.clone();
        request.meta = RequestMetaObject::default();
        let lists = Lists {
            resources: true,
            prompts: self.serves_prompts(),
        };
        self.shared.sessions.register_session(
            request,
            || self.snapshot(),
            &self.settings().rule,
            runtime,
            lists,
        );
    }

    /// Watches the view of the caller of `context` (a 2026-07-28
    /// `subscriptions/listen` request, say): the returned [`ViewChanges`]
    /// wakes when what this caller owns changes, by a
    /// [`replace`](Self::replace) or a [`refresh_views`](Self::refresh_views),
    /// and never for a change the caller cannot see.
    ///
    /// ```no_run
    /// # use skills_runtime::SkillsServer;
    /// # async fn listen(server: SkillsServer, context: rmcp::service::SubscriptionContext) {
    /// let mut changes = server.watch_view(context.request_context());
    /// loop {
    ///     tokio::select! {
    ///         Some(_) = changes.changed() => {
    ///             let _ = context.sink().notify_resource_list_changed().await;
    ///         }
    ///         _ = context.cancelled() => break,
    ///     }
    /// }
    /// # }
    /// ```
    pub fn watch_view(&self, context: &RequestContext<RoleServer>) -> ViewChanges {
        self.shared.sessions.register_watch(
            context.clone(),
            || self.snapshot(),
            &self.settings().rule,
        )
    }

    /// Computes every registered session's, listen stream's and watcher's
    /// view again and tells exactly those whose view changed (sessions and
    /// streams only when the server [notifies changes](crate::SkillsServerBuilder::notify_changes)):
    /// call it after a grant or a revoke. Returns how many were told.
    /// [`replace`](Self::replace) does this by itself.
    ///
    /// Each view is computed from the HTTP request head its session began
    /// with; `update` rewrites that head first. Where your auth layer put a
    /// snapshot of the entitlements in the request extensions, redo there
    /// what it does per request (learner → owned set), so that a grant
    /// shows; where the policy reads state that changed in place (an `Arc`
    /// the layer shares, a table), pass `|_| {}`. Sessions without an HTTP
    /// request (stdio) are computed again as they are.
    ///
    /// ```
    /// # use std::collections::HashSet;
    /// # use skills_runtime::{Skills, SkillsServer};
    /// # static SKILLS: Skills = Skills::empty();
    /// # let server = SkillsServer::new(SKILLS.clone());
    /// /// What the auth layer put in each request's extensions.
    /// #[derive(Clone)]
    /// struct Learner { id: String, owned: HashSet<String> }
    ///
    /// // "learner-a" bought "workshops":
    /// let told = server.refresh_views(|request| {
    ///     if let Some(learner) = request.extensions.get_mut::<Learner>()
    ///         && learner.id == "learner-a"
    ///     {
    ///         learner.owned.insert("workshops".to_owned());
    ///     }
    /// });
    /// # assert_eq!(told, 0);
    /// ```
    pub fn refresh_views(&self, update: impl FnMut(&mut http::request::Parts)) -> usize {
        self.snapshot().forget_anonymous();
        self.shared.sessions.refresh(
            || self.snapshot(),
            &self.settings().rule,
            self.notifies_changes(),
            update,
        )
    }

    /// How many sessions and watchers are registered to be told about
    /// changes to their view (closed ones are forgotten first).
    pub fn listeners(&self) -> usize {
        self.shared.sessions.len()
    }
}
