//! Who owns each MCP session, and how many each caller may hold.
//!
//! A session belongs to the [`Principal`] that opened it (what the author's
//! auth layer put in the `initialize` request's extensions). Every later
//! request that names it (`POST`, `GET`, `DELETE`, a `Last-Event-ID`
//! resume) is let through only when its own principal is the same; any
//! other caller gets the very `404` an unknown session gets, whatever the
//! method, so a stolen or guessed session id is worth nothing to another
//! caller, and nobody can tell a session of someone else's from none.
//!
//! Sessions are capped per principal and in total ([`SessionLimits`]):
//!
//! - past its own cap, a principal's least recently used session that has
//!   no request in flight (no open event stream either) is closed to make
//!   room: agents rarely `DELETE` their sessions, so the oldest idle one is
//!   almost always abandoned, and a learner who restarts their agent a
//!   hundred times is never locked out by their own leftovers. Only the
//!   principal's own sessions are ever closed; when all of them are busy,
//!   the new one is refused with `429`.
//! - past the total cap, a new session is refused with `503` and
//!   `Retry-After`: closing someone else's session to make room would let
//!   one caller end another's, which is what ownership forbids.
//!
//! The ownership table lives beside rmcp's session store (a session manager
//! around `LocalSessionManager`), so a session leaves it however it ends: a
//! `DELETE`, its idle timeout, an eviction, a shutdown.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt as _;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};

/// The header a session's id travels in.
const SESSION_HEADER: &str = "mcp-session-id";

/// Who a request comes from, as your auth layer resolved it: put one in
/// the request's extensions, and each MCP session belongs to the principal
/// that opened it. Another principal naming that session gets `404`, as for
/// a session that does not exist, and each principal holds at most
/// [`SessionLimits::max_sessions_per_principal`] sessions.
///
/// ```
/// use axum::extract::Request;
/// use axum::middleware::Next;
/// use axum::response::Response;
/// use skills_runtime::http::Principal;
///
/// async fn authenticate(mut request: Request, next: Next) -> Response {
///     // Verify the bearer token, then:
///     request.extensions_mut().insert(Principal::new("learner-a"));
///     next.run(request).await
/// }
/// ```
///
/// Requests without one are anonymous: anonymous sessions are usable by any
/// anonymous caller that knows their id (as with no auth at all), never by
/// a principal, and only the total cap applies to them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Principal(Arc<str>);

impl Principal {
    /// The principal `id` (a user id, a token's `sub`).
    pub fn new(id: impl Into<Arc<str>>) -> Self {
        Self(id.into())
    }

    /// Its id.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// How many MCP sessions may be open, and how long an idle one lives: what
/// [`SkillsRouter::session_limits`](super::SkillsRouter::session_limits)
/// sets. The defaults are safe on the public internet.
///
/// ```
/// use skills_runtime::http::SessionLimits;
///
/// let limits = SessionLimits {
///     max_sessions_per_principal: 16,
///     ..SessionLimits::default()
/// };
/// assert_eq!(limits.max_sessions, 10_000);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionLimits {
    /// Sessions open at once, all principals together; past it a new
    /// session is refused with `503`. Default
    /// [`SessionLimits::MAX_SESSIONS`] (10,000).
    pub max_sessions: usize,
    /// Sessions one [`Principal`] may hold; past it their least recently
    /// used idle session is closed, or, when every one has a request in
    /// flight, the new one is refused with `429`. Default
    /// [`SessionLimits::MAX_SESSIONS_PER_PRINCIPAL`] (100).
    pub max_sessions_per_principal: usize,
    /// How long a session lives without a request: rmcp then closes it.
    /// Default [`SessionLimits::IDLE_TIMEOUT`] (5 minutes).
    pub idle_timeout: Duration,
}

impl SessionLimits {
    /// The default [`max_sessions`](Self::max_sessions).
    pub const MAX_SESSIONS: usize = 10_000;
    /// The default [`max_sessions_per_principal`](Self::max_sessions_per_principal).
    pub const MAX_SESSIONS_PER_PRINCIPAL: usize = 100;
    /// The default [`idle_timeout`](Self::idle_timeout).
    pub const IDLE_TIMEOUT: Duration = Duration::from_secs(300);
}

impl Default for SessionLimits {
    fn default() -> Self {
        Self {
            max_sessions: Self::MAX_SESSIONS,
            max_sessions_per_principal: Self::MAX_SESSIONS_PER_PRINCIPAL,
            idle_timeout: Self::IDLE_TIMEOUT,
        }
    }
}

/// The open sessions: who owns each, and what each principal holds.
#[derive(Default)]
struct Table {
    sessions: HashMap<SessionId, Entry>,
    by_owner: HashMap<Option<Principal>, HashSet<SessionId>>,
    /// Sessions being created, per owner and in total (counted against the
    /// caps before they exist, so that concurrent `initialize`s cannot
    /// overshoot).
    opening: HashMap<Option<Principal>, usize>,
    opening_total: usize,
}

struct Entry {
    owner: Option<Principal>,
    last_used: Instant,
    /// Requests of this session not yet answered to the end (an open
    /// event stream counts until it closes).
    in_flight: usize,
}

impl Table {
    fn held(&self, owner: &Option<Principal>) -> usize {
        self.by_owner.get(owner).map_or(0, HashSet::len)
            + self.opening.get(owner).copied().unwrap_or(0)
    }

    fn remove(&mut self, id: &SessionId) -> bool {
        let Some(entry) = self.sessions.remove(id) else {
            return false;
        };
        if let Some(held) = self.by_owner.get_mut(&entry.owner) {
            held.remove(id);
            if held.is_empty() {
                self.by_owner.remove(&entry.owner);
            }
        }
        true
    }

    fn release_opening(&mut self, owner: &Option<Principal>) {
        self.opening_total = self.opening_total.saturating_sub(1);
        if let Some(count) = self.opening.get_mut(owner) {
            *count -= 1;
            if *count == 0 {
                self.opening.remove(owner);
            }
        }
    }

    /// The owner's least recently used session with nothing in flight.
    fn idlest_of(&self, owner: &Option<Principal>) -> Option<SessionId> {
        self.by_owner
            .get(owner)?
            .iter()
            .filter_map(|id| Some((id, self.sessions.get(id)?)))
            .filter(|(_, entry)| entry.in_flight == 0)
            .min_by_key(|(_, entry)| entry.last_used)
            .map(|(id, _)| id.clone())
    }

    /// Whether a session of `owner` may open now, and which of the owner's
    /// sessions must close first to make room (its idlest, when it holds
    /// its cap): the one decision both the layer's early refusal and
    /// `create_session` make.
    fn admit(
        &self,
        owner: &Option<Principal>,
        limits: &SessionLimits,
    ) -> Result<Option<SessionId>, Refusal> {
        let mut open = self.sessions.len() + self.opening_total;
        let mut evict = None;
        if owner.is_some() && self.held(owner) >= limits.max_sessions_per_principal {
            evict = Some(self.idlest_of(owner).ok_or(Refusal::PrincipalFull)?);
            open -= 1;
        }
        if open >= limits.max_sessions {
            return Err(Refusal::ServerFull);
        }
        Ok(evict)
    }
}

/// Why a session was not opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    /// The principal holds its cap and every session is busy.
    PrincipalFull,
    /// The server holds its total cap.
    ServerFull,
}

/// The owner of the session an `initialize` opens, and where a refusal is
/// left for the layer to answer: set by the layer around the request, read
/// by `create_session`, which rmcp calls while handling it (inside the same
/// future).
#[derive(Clone)]
struct Opening {
    owner: Option<Principal>,
    refusal: Arc<Mutex<Option<Refusal>>>,
}

tokio::task_local! {
    static OPENING: Opening;
}

/// rmcp's in-memory session store, with the ownership table beside it.
pub(super) struct OwnedSessions {
    inner: LocalSessionManager,
    table: Arc<Mutex<Table>>,
    limits: SessionLimits,
}

impl OwnedSessions {
    pub(super) fn new(limits: SessionLimits) -> Self {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = Some(limits.idle_timeout);
        Self {
            inner,
            table: Arc::default(),
            limits,
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        lock(&self.table)
    }

    /// Counts a session of `owner` as being opened, after closing the
    /// owner's idlest session when it holds its cap; the session to close
    /// (outside the lock) comes back with it.
    fn reserve(&self, owner: &Option<Principal>) -> Result<Option<SessionId>, Refusal> {
        let mut table = self.table();
        let evicted = table.admit(owner, &self.limits)?;
        if let Some(idlest) = &evicted {
            table.remove(idlest);
        }
        *table.opening.entry(owner.clone()).or_default() += 1;
        table.opening_total += 1;
        Ok(evicted)
    }
}

fn lock(table: &Mutex<Table>) -> std::sync::MutexGuard<'_, Table> {
    table.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What `create_session` fails with: the caps, or rmcp's own errors.
#[derive(Debug)]
pub(super) enum OwnedSessionsError {
    Refused,
    Local(LocalSessionManagerError),
}

impl std::fmt::Display for OwnedSessionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Refused => f.write_str("the session cap is reached"),
            Self::Local(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for OwnedSessionsError {}

impl From<LocalSessionManagerError> for OwnedSessionsError {
    fn from(error: LocalSessionManagerError) -> Self {
        Self::Local(error)
    }
}

impl SessionManager for OwnedSessions {
    type Error = OwnedSessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let opening = OPENING.try_with(Clone::clone).ok();
        let owner = opening.as_ref().and_then(|opening| opening.owner.clone());
        let evicted = match self.reserve(&owner) {
            Ok(evicted) => evicted,
            Err(refusal) => {
                if let Some(opening) = &opening {
                    *opening
                        .refusal
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner) = Some(refusal);
                }
                return Err(OwnedSessionsError::Refused);
            }
        };
        if let Some(evicted) = evicted {
            tracing::debug!(session = %evicted, "closing a principal's idlest session to open another");
            if let Err(error) = self.inner.close_session(&evicted).await {
                tracing::debug!(%error, "the evicted session was already closing");
            }
        }
        let created = self.inner.create_session().await;
        let mut table = self.table();
        table.release_opening(&owner);
        let (id, transport) = created?;
        table
            .by_owner
            .entry(owner.clone())
            .or_default()
            .insert(id.clone());
        table.sessions.insert(
            id.clone(),
            Entry {
                owner,
                last_used: Instant::now(),
                // The `initialize` answer is in flight; the layer ends it.
                in_flight: 1,
            },
        );
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.table().remove(id);
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<
        impl futures_core::Stream<Item = ServerSseMessage> + Send + Sync + 'static,
        Self::Error,
    > {
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<
        impl futures_core::Stream<Item = ServerSseMessage> + Send + Sync + 'static,
        Self::Error,
    > {
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<
        impl futures_core::Stream<Item = ServerSseMessage> + Send + Sync + 'static,
        Self::Error,
    > {
        Ok(self.inner.resume(id, last_event_id).await?)
    }

    async fn restore_session(
        &self,
        _id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        // A restored session would have no owner: never restore.
        Ok(RestoreOutcome::NotSupported)
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}

/// The layer around rmcp's service: checks that a request naming a
/// session comes from its owner, and tells `create_session` who opens one.
#[derive(Clone)]
pub(super) struct Owners<S> {
    inner: S,
    table: Arc<Mutex<Table>>,
    limits: SessionLimits,
    /// rmcp's largest request body, for the one body this layer reads.
    max_body: usize,
}

impl<S> Owners<S> {
    pub(super) fn new(inner: S, sessions: &OwnedSessions, max_body: usize) -> Self {
        Self {
            inner,
            table: sessions.table.clone(),
            limits: sessions.limits.clone(),
            max_body,
        }
    }
}

/// Ends one request of a session when dropped (with the answer's body).
struct InFlight {
    table: Arc<Mutex<Table>>,
    id: SessionId,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut table = lock(&self.table);
        if let Some(entry) = table.sessions.get_mut(&self.id) {
            entry.in_flight = entry.in_flight.saturating_sub(1);
            entry.last_used = Instant::now();
        }
    }
}

/// rmcp's answer to a session it does not know, byte for byte: what a
/// request naming another principal's session gets too.
fn unknown_session() -> Response {
    (StatusCode::NOT_FOUND, "Not Found: Session not found").into_response()
}

/// What the layer's future is.
type Answering = std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<Response, std::convert::Infallible>> + Send>,
>;

impl<S, B> tower::Service<Request> for Owners<S>
where
    S: tower::Service<
            Request,
            Response = axum::http::Response<B>,
            Error = std::convert::Infallible,
        > + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    B: http_body::Body<Data = axum::body::Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    type Response = Response;
    type Error = std::convert::Infallible;
    type Future = Answering;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let owner = request.extensions().get::<Principal>().cloned();
        let named: Option<SessionId> = request
            .headers()
            .get(SESSION_HEADER)
            .and_then(|value| value.to_str().ok())
            .map(Into::into);
        let table = self.table.clone();
        let limits = self.limits.clone();
        let max_body = self.max_body;
        // Swap in a clone that is ready, as tower asks.
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        Box::pin(async move {
            if let Some(id) = named {
                // A session is used by its owner only; anyone else is told
                // it does not exist.
                {
                    let mut table = lock(&table);
                    match table.sessions.get_mut(&id) {
                        Some(entry) if entry.owner == owner => {
                            entry.in_flight += 1;
                            entry.last_used = Instant::now();
                        }
                        _ => return Ok(unknown_session()),
                    }
                }
                // Made before the call, so that a request dropped midway
                // (the client went away) ends too.
                let guard = InFlight {
                    table: table.clone(),
                    id,
                };
                let response = inner.call(request).await?.map(Body::new);
                return Ok(with_guard(response, guard));
            }
            let is_post = request.method() == Method::POST;
            let mut request = request;
            // Closing an idle session of the owner's is not a refusal.
            let refusal = if is_post {
                lock(&table).admit(&owner, &limits).err()
            } else {
                None
            };
            if let Some(refusal) = refusal {
                // Only an `initialize` opens a session: look, and refuse it
                // here, before rmcp logs the failed creation as an error
                // (once per request of a flood). Other requests go on.
                let (parts, body) = request.into_parts();
                let Ok(bytes) = axum::body::to_bytes(body, max_body).await else {
                    return Ok((StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large").into_response());
                };
                if is_initialize(&bytes) {
                    return Ok(refused(refusal, &limits));
                }
                request = Request::from_parts(parts, Body::from(bytes));
            }
            let opening = Opening {
                owner,
                refusal: Arc::default(),
            };
            let response = OPENING
                .scope(opening.clone(), inner.call(request))
                .await?
                .map(Body::new);
            let refusal = *opening
                .refusal
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if let Some(refusal) = refusal {
                return Ok(refused(refusal, &limits));
            }
            // A session opened: its `initialize` answer is in flight until
            // its body ends.
            let opened = is_post
                .then(|| response.headers().get(SESSION_HEADER))
                .flatten()
                .and_then(|value| value.to_str().ok())
                .map(SessionId::from);
            match opened {
                Some(id) => Ok(with_guard(response, InFlight { table, id })),
                None => Ok(response),
            }
        })
    }
}

/// Whether `body` is a JSON-RPC `initialize` request.
fn is_initialize(body: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .is_some_and(|message| {
            message.get("method").and_then(serde_json::Value::as_str) == Some("initialize")
        })
}

/// `response`, whose body drops `guard` when it ends or is dropped.
fn with_guard(response: Response, guard: InFlight) -> Response {
    response.map(|body| {
        Body::new(body.map_frame(move |frame| {
            let _ = &guard;
            frame
        }))
    })
}

/// The answer to an `initialize` past a cap.
fn refused(refusal: Refusal, limits: &SessionLimits) -> Response {
    let mut response = match refusal {
        Refusal::PrincipalFull => (
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "Too Many Requests: you hold {} open sessions, the most this server allows, \
                 and each has a request in flight; end one (DELETE /mcp with its Mcp-Session-Id) \
                 before opening another",
                limits.max_sessions_per_principal
            ),
        )
            .into_response(),
        Refusal::ServerFull => (
            StatusCode::SERVICE_UNAVAILABLE,
            "Service Unavailable: this server holds as many sessions as it allows; try again later",
        )
            .into_response(),
    };
    if refusal == Refusal::ServerFull {
        response.headers_mut().insert(
            axum::http::header::RETRY_AFTER,
            HeaderValue::from_static("60"),
        );
    }
    response
}
