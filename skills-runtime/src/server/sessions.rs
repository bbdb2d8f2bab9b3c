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
//! forgotten at the next refresh (or a registration, now and then).
//!
//! The registry's lock is held only to add, remove or copy out the list of
//! listeners, never while a view is computed or an author's update runs:
//! registering a session (on a runtime worker, from `on_initialized`) never
//! waits for a refresh of thousands of sessions. Each listener has a lock
//! of its own for what a refresh rewrites (its request head, what it saw).

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
    registry: Mutex<Registry>,
    next_id: std::sync::atomic::AtomicU64,
}

#[derive(Default)]
struct Registry {
    listeners: Vec<Arc<Listener>>,
    /// How many listeners there may be before a registration forgets
    /// those that are gone (doubling, so that it costs O(1) per registration).
    prune_at: usize,
}

struct Listener {
    /// How `forget` names it.
    id: u64,
    /// What a refresh reads and rewrites.
    state: Mutex<State>,
    ear: Ear,
}

struct State {
    /// What the policy is asked with again: the session's peer and the
    /// extensions of the request it registered with.
    context: RequestContext<RoleServer>,
    /// The fingerprint of the view it last saw or was told about; `None`
    /// until its registration computed it (a refresh meanwhile only
    /// rewrites its request head).
    seen: Option<String>,
}

/// How a listener is told.
enum Ear {
    /// An initialized session, told on the runtime it was served on (the
    /// change may come from a thread outside it, a file watcher's say).
    Session(tokio::runtime::Handle, Lists, rmcp::Peer<RoleServer>),
    /// A listen stream, told through its sink; `changes` forgets it when
    /// the request ends.
    Stream(SubscriptionSink, Option<tokio::runtime::Handle>, Lists),
    /// A [`ViewChanges`] handle, once subscribed.
    Watch(watch::Sender<String>, std::sync::atomic::AtomicBool),
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
            Ear::Session(_, _, peer) => peer.is_transport_closed(),
            Ear::Stream(..) => false,
            // A watcher is gone once its one receiver is dropped; before
            // the registration subscribed it, it has none and is not gone.
            Ear::Watch(sender, subscribed) => {
                subscribed.load(std::sync::atomic::Ordering::Acquire) && sender.is_closed()
            }
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Tells the listener its view now has `fingerprint`.
    fn tell(&self, fingerprint: &str) {
        match &self.ear {
            Ear::Session(runtime, lists, peer) => {
                let peer = peer.clone();
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
            Ear::Watch(sender, _) => {
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
    /// Adds a listener whose view is computed from `context` and told
    /// through `ear`; then computes the view it sees now and hands it to
    /// `seen`, still under the listener's lock (no refresh can tell it
    /// anything before `seen` ran). Returns its id and what `seen` returned.
    fn register<R>(
        &self,
        context: RequestContext<RoleServer>,
        current: impl FnOnce() -> Arc<Snapshot>,
        rule: &Rule,
        ear: Ear,
        seen: impl FnOnce(&Ear, &str) -> R,
    ) -> (u64, R) {
        let id = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let listener = Arc::new(Listener {
            id,
            state: Mutex::new(State {
                context,
                seen: None,
            }),
            ear,
        });
        {
            let mut registry = self.lock();
            if registry.listeners.len() >= registry.prune_at {
                registry.listeners.retain(|listener| !listener.is_gone());
                registry.prune_at = (registry.listeners.len() * 2).max(64);
            }
            registry.listeners.push(listener.clone());
        }
        // In the registry before its view is computed, and computed under
        // its own lock: a refresh that swapped the snapshot or rewrote the
        // request head before this either ran first (and this reads what it
        // left) or waits for this and then compares with what this saw.
        let mut state = listener.state();
        let now = fingerprint(&current(), rule, &state.context);
        let returned = seen(&listener.ear, &now);
        state.seen = Some(now);
        (id, returned)
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
        let peer = context.peer.clone();
        let ear = Ear::Session(runtime, lists, peer);
        self.register(context, current, rule, ear, |_, _| ());
    }

    /// Registers a watcher of the view of `context`'s caller.
    pub(super) fn register_watch(
        &self,
        context: RequestContext<RoleServer>,
        current: impl FnOnce() -> Arc<Snapshot>,
        rule: &Rule,
    ) -> ViewChanges {
        let (sender, _) = watch::channel(String::new());
        let starter = sender.clone();
        let ear = Ear::Watch(sender, std::sync::atomic::AtomicBool::new(false));
        let (_, receiver) = self.register(context, current, rule, ear, |ear, now| {
            // What it sees now is its starting point, not a change.
            starter.send_replace(now.to_owned());
            let receiver = starter.subscribe();
            if let Ear::Watch(_, subscribed) = ear {
                subscribed.store(true, std::sync::atomic::Ordering::Release);
            }
            receiver
        });
        ViewChanges { receiver }
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
        let ear = Ear::Stream(sink, runtime, lists);
        self.register(context, current, rule, ear, |_, _| ()).0
    }

    /// Stops telling the listener `id`.
    pub(super) fn forget(&self, id: u64) {
        self.lock().listeners.retain(|listener| listener.id != id);
    }

    /// Computes every listener's view again (after `update` rewrote the
    /// HTTP request head it is computed from) and tells those whose view
    /// changed; sessions and streams only when `notify` (the server notifies
    /// changes). Returns how many were told. The registry is locked only to
    /// copy the list out.
    pub(super) fn refresh(
        &self,
        current: impl FnOnce() -> Arc<Snapshot>,
        rule: &Rule,
        notify: bool,
        mut update: impl FnMut(&mut http::request::Parts),
    ) -> usize {
        let listeners = {
            let mut registry = self.lock();
            registry.listeners.retain(|listener| !listener.is_gone());
            registry.listeners.clone()
        };
        let snapshot = current();
        let mut told = 0;
        for listener in listeners {
            let mut state = listener.state();
            if let Some(parts) = state.context.extensions.get_mut::<http::request::Parts>() {
                update(parts);
            }
            let Some(seen) = &state.seen else {
                // Its registration computes its view after this.
                continue;
            };
            let now = fingerprint(&snapshot, rule, &state.context);
            if &now != seen {
                if notify || !listener.needs_notices_on() {
                    listener.tell(&now);
                    told += 1;
                }
                state.seen = Some(now);
            }
        }
        told
    }

    /// How many listeners are registered and not known to be gone.
    pub(super) fn len(&self) -> usize {
        let mut registry = self.lock();
        registry.listeners.retain(|listener| !listener.is_gone());
        registry.listeners.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The fingerprint of what the caller of `context` owns in `snapshot`.
fn fingerprint(snapshot: &Snapshot, rule: &Rule, context: &RequestContext<RoleServer>) -> String {
    view::resolve(snapshot, rule, &Caller::from_mcp(context), |_, _| {})
        .fingerprint()
        .to_owned()
}
