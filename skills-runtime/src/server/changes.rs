//! Telling clients that what they see changed, when
//! [`replace`](super::SkillsServer::replace) swaps the set.
//!
//! Two kinds of listener ask to be told, one per protocol era:
//! - a **stream**: a 2026-07-28 `subscriptions/listen` request, open for as
//!   long as the client listens, that accepted `resourcesListChanged` and/or
//!   a list of resource URIs;
//! - a **subscriber**: a 2025-11-25 session that sent `resources/subscribe`
//!   for some URIs.
//!
//! Each is told only what changed in its own view (the set as the access
//! policy lets it see, judged with the context of the request that
//! registered it): `notifications/resources/updated` for each subscribed
//! URI whose bytes changed, appeared or vanished. Notices go out on the
//! runtime that serves the listener, in order per listener, without blocking
//! `replace()`; a listener whose session ended is dropped on the next change.
//!
//! `notifications/resources/list_changed` (and `prompts/list_changed`) is the
//! per-view registry's job (`sessions`): a stream that accepted
//! `resourcesListChanged` or `promptsListChanged` is registered
//! there too, beside every initialized session, so that a grant or a revoke
//! reaches it as well as a `replace()`.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::RoleServer;
use rmcp::model::{ResourceUpdatedNotificationParam, SubscriptionFilter};
use rmcp::service::{Peer, RequestContext, SubscriptionSink};
use tokio::runtime::Handle;

use super::access::{Caller, Rule};
use super::sessions::{Lists, Sessions};
use super::settings::Settings;
use super::snapshot::Snapshot;
use super::view::View;
use crate::Digest;

/// Most URIs one session may subscribe to, so that a client cannot grow the
/// server's memory without bound.
pub(super) const MAX_SUBSCRIPTIONS: usize = 4096;

/// Everyone who asked to hear about changes.
#[derive(Default)]
pub(super) struct Listeners {
    registry: Mutex<Registry>,
}

#[derive(Default)]
struct Registry {
    streams: HashMap<u64, Stream>,
    next_stream: u64,
    subscribers: Vec<Subscriber>,
}

/// One open `subscriptions/listen` request (2026-07-28).
#[derive(Clone)]
struct Stream {
    sink: SubscriptionSink,
    context: RequestContext<RoleServer>,
    runtime: Option<Handle>,
    /// The `list_changed` notices it accepted.
    lists: Lists,
    uris: Vec<String>,
}

/// One 2025-11-25 session's `resources/subscribe` URIs.
#[derive(Clone)]
struct Subscriber {
    session: Session,
    peer: Peer<RoleServer>,
    /// The context of its latest `resources/subscribe`, for its visibility rule.
    context: RequestContext<RoleServer>,
    runtime: Option<Handle>,
    uris: BTreeSet<String>,
}

/// Which session a request belongs to. rmcp gives a peer no identity of its
/// own, but every clone of one session's peer shares the client information
/// the `initialize` handshake stored, behind one `Arc`.
#[derive(Clone)]
struct Session(Option<Arc<rmcp::model::InitializeRequestParams>>);

impl Session {
    fn of(peer: &Peer<RoleServer>) -> Self {
        Self(peer.peer_info())
    }

    fn is(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(this), Some(that)) => Arc::ptr_eq(this, that),
            // Without a handshake there is nothing to recognise a session by.
            _ => false,
        }
    }
}

impl Listeners {
    fn lock(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers a listen stream that accepted `ours` (the part of its
    /// filter this server answers), and its view with `sessions` when it
    /// asked for list changes: the stream's id, and its view's id. The
    /// caller removes both when the stream ends ([`close_stream`](Self::close_stream),
    /// [`Sessions::forget`]).
    pub(super) fn open_stream(
        &self,
        sessions: &Sessions,
        current: impl Fn() -> Arc<Snapshot>,
        rule: &Rule,
        sink: SubscriptionSink,
        context: RequestContext<RoleServer>,
        ours: &SubscriptionFilter,
    ) -> (u64, Option<u64>) {
        let stream = Stream {
            sink,
            context,
            runtime: Handle::try_current().ok(),
            lists: Lists {
                resources: ours.resources_list_changed == Some(true),
                prompts: ours.prompts_list_changed == Some(true),
            },
            uris: ours.resource_subscriptions.clone().unwrap_or_default(),
        };
        let view = (stream.lists.resources || stream.lists.prompts).then(|| {
            sessions.register_stream(
                stream.sink.clone(),
                stream.context.clone(),
                current,
                rule,
                stream.lists,
            )
        });
        let mut registry = self.lock();
        let id = registry.next_stream;
        registry.next_stream += 1;
        registry.streams.insert(id, stream);
        (id, view)
    }

    /// Forgets the listen stream `id` ([`open_stream`](Self::open_stream)).
    pub(super) fn close_stream(&self, id: u64) {
        self.lock().streams.remove(&id);
    }

    /// Adds `uri` to the subscriptions of the session `context` belongs to.
    /// `Err` when the session already holds [`MAX_SUBSCRIPTIONS`].
    pub(super) fn subscribe(
        &self,
        uri: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), usize> {
        let session = Session::of(&context.peer);
        let mut registry = self.lock();
        registry
            .subscribers
            .retain(|subscriber| !subscriber.peer.is_transport_closed());
        let index = match registry
            .subscribers
            .iter()
            .position(|subscriber| subscriber.session.is(&session))
        {
            Some(index) => index,
            None => {
                registry.subscribers.push(Subscriber {
                    session,
                    peer: context.peer.clone(),
                    context: context.clone(),
                    runtime: None,
                    uris: BTreeSet::new(),
                });
                registry.subscribers.len() - 1
            }
        };
        let subscriber = &mut registry.subscribers[index];
        if subscriber.uris.len() >= MAX_SUBSCRIPTIONS && !subscriber.uris.contains(uri) {
            return Err(MAX_SUBSCRIPTIONS);
        }
        subscriber.uris.insert(uri.to_owned());
        subscriber.context = context.clone();
        subscriber.runtime = Handle::try_current().ok();
        Ok(())
    }

    /// Removes `uri` from the subscriptions of `context`'s session; whether
    /// it was subscribed.
    pub(super) fn unsubscribe(&self, uri: &str, context: &RequestContext<RoleServer>) -> bool {
        let session = Session::of(&context.peer);
        let mut registry = self.lock();
        let mut removed = false;
        registry.subscribers.retain_mut(|subscriber| {
            if subscriber.session.is(&session) {
                removed |= subscriber.uris.remove(uri);
            }
            !subscriber.uris.is_empty()
        });
        removed
    }

    /// Tells every listener what changed in its view between `old` and `new`.
    pub(super) fn announce(&self, old: &Arc<Snapshot>, new: &Arc<Snapshot>, settings: &Settings) {
        // Judging each view runs the author's visibility rule: not under the lock.
        let (streams, subscribers): (Vec<Stream>, Vec<Subscriber>) = {
            let mut registry = self.lock();
            registry
                .subscribers
                .retain(|subscriber| !subscriber.peer.is_transport_closed());
            (
                registry.streams.values().cloned().collect(),
                registry.subscribers.clone(),
            )
        };
        for stream in streams {
            // Its list changes are told by the per-view registry.
            let notices = Notices::between(old, new, settings, &stream.context, &stream.uris);
            if notices.is_empty() {
                continue;
            }
            let sink = stream.sink.clone();
            spawn(stream.runtime.as_ref(), async move {
                for uri in notices.updated {
                    if let Err(error) = sink.notify_resource_updated(uri).await {
                        tracing::debug!(%error, "a listen stream missed resources/updated");
                    }
                }
            });
        }
        for subscriber in subscribers {
            let notices =
                Notices::between(old, new, settings, &subscriber.context, &subscriber.uris);
            if notices.is_empty() {
                continue;
            }
            let peer = subscriber.peer.clone();
            spawn(subscriber.runtime.as_ref(), async move {
                for uri in notices.updated {
                    let notice = ResourceUpdatedNotificationParam::new(uri);
                    if let Err(error) = peer.notify_resource_updated(notice).await {
                        tracing::debug!(%error, "a subscriber missed resources/updated");
                    }
                }
            });
        }
    }
}

/// Runs a listener's notices on the runtime that serves it (or the caller's).
fn spawn(runtime: Option<&Handle>, notices: impl Future<Output = ()> + Send + 'static) {
    match runtime.cloned().or_else(|| Handle::try_current().ok()) {
        Some(runtime) => {
            runtime.spawn(notices);
        }
        None => tracing::debug!("no runtime to send change notices on"),
    }
}

/// What one listener is told about one change.
struct Notices {
    updated: Vec<String>,
}

impl Notices {
    fn between<'u>(
        old: &Arc<Snapshot>,
        new: &Arc<Snapshot>,
        settings: &Settings,
        context: &RequestContext<RoleServer>,
        uris: impl IntoIterator<Item = &'u String>,
    ) -> Self {
        let before = View::new(old.clone(), settings, Caller::from_mcp(context));
        let after = View::new(new.clone(), settings, Caller::from_mcp(context));
        Self {
            updated: uris
                .into_iter()
                .filter(|uri| before.content_at(uri) != after.content_at(uri))
                .cloned()
                .collect(),
        }
    }

    fn is_empty(&self) -> bool {
        self.updated.is_empty()
    }
}

/// What a read of a URI returns, as far as telling a change goes.
#[derive(PartialEq, Eq)]
enum Content {
    File(Digest),
    /// A generated document (a FastMCP manifest, the legacy index).
    Generated(String),
}

impl View<'_> {
    /// What the caller would read at `uri`, if anything.
    fn content_at(&self, uri: &str) -> Option<Content> {
        let canonical = skills_core::uri::parse(uri).ok()?;
        if let Some(file) = self.readable_file(&canonical) {
            return Some(Content::File(file.digest()));
        }
        self.generated(&canonical)
            .map(|(json, _meta)| Content::Generated(json))
    }
}
