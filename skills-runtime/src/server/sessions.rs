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
//! ([`SkillsServer::watch_view`](crate::SkillsServer::watch_view), for code of the author's own), which gets
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
use rmcp::service::{RequestContext, SubscriptionSink};
use tokio::sync::watch;

use super::access::{Caller, Rule};
use super::snapshot::Snapshot;
use super::view;

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
/// [`SkillsServer::watch_view`](crate::SkillsServer::watch_view): what a 2026-07-28 `subscriptions/listen`
/// handler waits on before sending `notifications/resources/list_changed`.
/// Dropping it stops the watch.
#[derive(Debug)]
pub struct ViewChanges {
    receiver: watch::Receiver<String>,
}

impl ViewChanges {
    /// Waits until the caller's view changes (the set was replaced, or
    /// [`SkillsServer::refresh_views`](crate::SkillsServer::refresh_views) found its access changed), and
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

    /// Registers an initialized session, told on `runtime` with the
    /// notices `lists` names whenever its view changes.
    pub(super) fn register_session(
        &self,
        context: RequestContext<RoleServer>,
        current: impl FnOnce() -> Arc<Snapshot>,
        rule: &Rule,
        runtime: tokio::runtime::Handle,
        lists: Lists,
    ) {
        self.register(context, current, rule, |_| Ear::Session(runtime, lists));
    }

    /// Registers a watcher of the view of `context`'s caller.
    pub(super) fn register_watch(
        &self,
        context: RequestContext<RoleServer>,
        current: impl FnOnce() -> Arc<Snapshot>,
        rule: &Rule,
    ) -> ViewChanges {
        let mut receiver = None;
        self.register(context, current, rule, |seen| {
            let (sender, watching) = watch::channel(seen.to_owned());
            receiver = Some(watching);
            Ear::Watch(sender)
        });
        ViewChanges {
            receiver: receiver.expect("register builds the ear once"),
        }
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
