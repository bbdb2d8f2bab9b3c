//! Change notices, per view: who is listening, what each of them last saw,
//! and telling exactly those whose view changed.
//!
//! Three kinds of listener: an initialized session (2025-11-25, registered
//! by [`SkillsServer::on_initialized`]) and a 2026-07-28
//! `subscriptions/listen` stream that accepted `resourcesListChanged` or
//! `promptsListChanged` (registered by `changes`), both told with
//! `notifications/resources/list_changed` (and
//! `notifications/prompts/list_changed`, when the server serves prompts and
//! the stream asked for it) when the server
//! [notifies changes](SkillsServer::notifies_changes); and a watcher
//! ([`SkillsServer::watch_view`], for code of the author's own), which gets
//! the new fingerprint through a [`ViewChanges`].
//!
//! Each keeps the context its view is computed from: the MCP peer and the
//! request extensions (over streamable HTTP, the HTTP request head with what
//! the author's auth layer resolved). When the set is replaced, or the author
//! says access changed ([`SkillsServer::refresh_views`]), every listener's
//! view is computed again from that context and compared with the
//! fingerprint it last saw; only those that differ are told. A listener
//! whose connection closed, or whose [`ViewChanges`] was dropped, is
//! forgotten at the next registration or refresh.

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::RoleServer;
use rmcp::model::{NumberOrString, RequestMetaObject};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionSink};
use tokio::sync::watch;

use super::access::{Caller, Rule};
use super::snapshot::Snapshot;
use super::{SkillsServer, view};

/// Everyone told about changes to their view.
#[derive(Default)]
pub(super) struct Sessions {
    listeners: Mutex<Vec<Listener>>,
    next_id: std::sync::atomic::AtomicU64,
}

struct Listener {
    /// How `forget` names it.
    id: u64,
    /// What the policy is asked with again: the session's peer and the
    /// extensions of the request it registered with.
    context: RequestContext<RoleServer>,
    /// The fingerprint of the view it last saw or was told about.
    seen: String,
    ear: Ear,
}

/// How a listener is told.
enum Ear {
    /// An initialized session, told on the runtime it was served on (the
    /// change may come from a thread outside it, a file watcher's say).
    Session(tokio::runtime::Handle, Lists),
    /// A listen stream, told through its sink; `changes` forgets it when
    /// the request ends.
    Stream(SubscriptionSink, Option<tokio::runtime::Handle>, Lists),
    /// A [`ViewChanges`] handle.
    Watch(watch::Sender<String>),
}

/// Which `list_changed` notices a session or a stream is sent when its view
/// changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Lists {
    /// `notifications/resources/list_changed`.
    pub(super) resources: bool,
    /// `notifications/prompts/list_changed` (the server serves prompts).
    pub(super) prompts: bool,
}

impl Listener {
    fn is_gone(&self) -> bool {
        match &self.ear {
            Ear::Session(..) => self.context.peer.is_transport_closed(),
            Ear::Stream(..) => false,
            Ear::Watch(sender) => sender.is_closed(),
        }
    }

    /// Tells the listener its view now has `fingerprint`.
    fn tell(&self, fingerprint: &str) {
        match &self.ear {
            Ear::Session(runtime, lists) => {
                let peer = self.context.peer.clone();
                let lists = *lists;
                runtime.spawn(async move {
                    if lists.resources
                        && let Err(error) = peer.notify_resource_list_changed().await
                    {
                        tracing::debug!(%error, "a session's list_changed notice was not delivered");
                    }
                    if lists.prompts
                        && let Err(error) = peer.notify_prompt_list_changed().await
                    {
                        tracing::debug!(%error, "a session's prompts/list_changed notice was not delivered");
                    }
                });
            }
            Ear::Stream(sink, runtime, lists) => {
                let sink = sink.clone();
                let lists = *lists;
                let notice = async move {
                    if lists.resources
                        && let Err(error) = sink.notify_resource_list_changed().await
                    {
                        tracing::debug!(%error, "a listen stream missed resources/list_changed");
                    }
                    if lists.prompts
                        && let Err(error) = sink.notify_prompt_list_changed().await
                    {
                        tracing::debug!(%error, "a listen stream missed prompts/list_changed");
                    }
                };
                match runtime
                    .clone()
                    .or_else(|| tokio::runtime::Handle::try_current().ok())
                {
                    Some(runtime) => drop(runtime.spawn(notice)),
                    None => tracing::debug!("no runtime to send change notices on"),
                }
            }
            Ear::Watch(sender) => {
                sender.send_replace(fingerprint.to_owned());
            }
        }
    }

    /// Whether it is told only when the server notifies changes.
    fn needs_notices_on(&self) -> bool {
        matches!(self.ear, Ear::Session(..) | Ear::Stream(..))
    }
}

/// Changes to one caller's view of the skills, from
/// [`SkillsServer::watch_view`]: what a 2026-07-28 `subscriptions/listen`
/// handler waits on before sending `notifications/resources/list_changed`.
/// Dropping it stops the watch.
#[derive(Debug)]
pub struct ViewChanges {
    receiver: watch::Receiver<String>,
}

impl ViewChanges {
    /// Waits until the caller's view changes (the set was replaced, or
    /// [`SkillsServer::refresh_views`] found its access changed), and
    /// returns the new view's fingerprint; `None` once the server is gone.
    pub async fn changed(&mut self) -> Option<String> {
        self.receiver.changed().await.ok()?;
        Some(self.receiver.borrow_and_update().clone())
    }

    /// The fingerprint of the caller's view as last computed.
    pub fn fingerprint(&self) -> String {
        self.receiver.borrow().clone()
    }
}

impl Sessions {
    /// Adds a listener whose view is computed from `context`, after
    /// forgetting those that are gone; `ear` builds how it is told from the
    /// fingerprint it sees now.
    fn register(
        &self,
        context: RequestContext<RoleServer>,
        current: impl FnOnce() -> Arc<Snapshot>,
        rule: &Rule,
        ear: impl FnOnce(&str) -> Ear,
    ) -> u64 {
        let id = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut listeners = self.lock();
        listeners.retain(|listener| !listener.is_gone());
        // The snapshot is read under the lock, so a `replace` that swaps it
        // meanwhile refreshes this listener too.
        let seen = fingerprint(&current(), rule, &context);
        let ear = ear(&seen);
        listeners.push(Listener {
            id,
            context,
            seen,
            ear,
        });
        id
    }

    /// Registers a listen stream that accepted `resourcesListChanged` or
    /// `promptsListChanged` (`lists` says which); it is told until
    /// [`forget`](Self::forget) is called with the id returned.
    pub(super) fn register_stream(
        &self,
        sink: SubscriptionSink,
        context: RequestContext<RoleServer>,
        current: impl FnOnce() -> Arc<Snapshot>,
        rule: &Rule,
        lists: Lists,
    ) -> u64 {
        let runtime = tokio::runtime::Handle::try_current().ok();
        self.register(context, current, rule, |_| {
            Ear::Stream(sink, runtime, lists)
        })
    }

    /// Stops telling the listener `id`.
    pub(super) fn forget(&self, id: u64) {
        self.lock().retain(|listener| listener.id != id);
    }

    /// Computes every listener's view again (after `update` rewrote the
    /// HTTP request head it is computed from) and tells those whose view
    /// changed; sessions and streams only when `notify` (the server notifies
    /// changes). Returns how many were told.
    pub(super) fn refresh(
        &self,
        current: impl FnOnce() -> Arc<Snapshot>,
        rule: &Rule,
        notify: bool,
        mut update: impl FnMut(&mut http::request::Parts),
    ) -> usize {
        let mut listeners = self.lock();
        listeners.retain(|listener| !listener.is_gone());
        let snapshot = current();
        let mut told = 0;
        for listener in listeners.iter_mut() {
            if let Some(parts) = listener
                .context
                .extensions
                .get_mut::<http::request::Parts>()
            {
                update(parts);
            }
            let now = fingerprint(&snapshot, rule, &listener.context);
            if now != listener.seen {
                if notify || !listener.needs_notices_on() {
                    listener.tell(&now);
                    told += 1;
                }
                listener.seen = now;
            }
        }
        told
    }

    /// How many listeners are registered and not known to be gone.
    pub(super) fn len(&self) -> usize {
        let mut listeners = self.lock();
        listeners.retain(|listener| !listener.is_gone());
        listeners.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Listener>> {
        self.listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// The fingerprint of what the caller of `context` owns in `snapshot`.
fn fingerprint(snapshot: &Snapshot, rule: &Rule, context: &RequestContext<RoleServer>) -> String {
    view::resolve(snapshot, rule, &Caller::from_mcp(context), |_, _| {})
        .fingerprint()
        .to_owned()
}

impl SkillsServer {
    /// Registers an initialized session to be told, with
    /// `notifications/resources/list_changed` (and
    /// `notifications/prompts/list_changed` when the server [serves
    /// prompts](super::SkillsServerBuilder::prompts)), whenever its view of the
    /// skills changes, when the server
    /// [notifies changes](Self::notifies_changes): a
    /// [`replace`](Self::replace) that changes what it owns, or a grant or
    /// revoke the author reports with [`refresh_views`](Self::refresh_views).
    /// A session whose view did not change is not told.
    ///
    /// `SkillsServer` and [`WithSkills`](super::WithSkills) call this from
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
        self.shared.sessions.register(
            request,
            || self.snapshot(),
            &self.settings().rule,
            |_| Ear::Session(runtime, lists),
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
        let mut receiver = None;
        self.shared.sessions.register(
            context.clone(),
            || self.snapshot(),
            &self.settings().rule,
            |seen| {
                let (sender, watching) = watch::channel(seen.to_owned());
                receiver = Some(watching);
                Ear::Watch(sender)
            },
        );
        ViewChanges {
            receiver: receiver.expect("register builds the ear once"),
        }
    }

    /// Computes every registered session's, listen stream's and watcher's
    /// view again and tells exactly those whose view changed (sessions and
    /// streams only when the server [notifies changes](Self::notifies_changes)):
    /// call it after a grant or a revoke, when the policy reads state that
    /// changed in place (an `Arc` the auth layer put in the request
    /// extensions, a shared table). Returns how many were told.
    /// [`replace`](Self::replace) does this by itself.
    ///
    /// When the auth layer resolved entitlements into the request extensions
    /// as a snapshot, use [`refresh_views_with`](Self::refresh_views_with)
    /// to resolve them again.
    pub fn refresh_views(&self) -> usize {
        self.refresh_views_with(|_| {})
    }

    /// [`refresh_views`](Self::refresh_views), after `update` rewrote each
    /// session's HTTP request head, the one its view is computed from: do
    /// there what your auth layer does per request (learner → owned set),
    /// so that a grant shows. Sessions without an HTTP request (stdio) are
    /// computed again as they are.
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
    /// let told = server.refresh_views_with(|request| {
    ///     if let Some(learner) = request.extensions.get_mut::<Learner>()
    ///         && learner.id == "learner-a"
    ///     {
    ///         learner.owned.insert("workshops".to_owned());
    ///     }
    /// });
    /// # assert_eq!(told, 0);
    /// ```
    pub fn refresh_views_with(&self, update: impl FnMut(&mut http::request::Parts)) -> usize {
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
