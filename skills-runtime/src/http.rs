//! Serving over HTTP (feature `http`): MCP's streamable HTTP transport at
//! `/mcp` on an [`axum::Router`] you extend with your own routes and tower
//! layers, and [`serve`], which binds, prints the one line scripts wait for
//! and serves until Ctrl-C or `SIGTERM`.
//!
//! ```no_run
//! use skills_runtime::http::{SkillsRouter, serve};
//! use skills_runtime::{Skills, SkillsServer, embed_skills};
//!
//! static SKILLS: Skills = embed_skills!("skills");
//!
//! #[tokio::main(flavor = "current_thread")]
//! async fn main() -> std::io::Result<()> {
//!     let skills = SkillsServer::new(SKILLS.clone());
//!     let router = SkillsRouter::new(skills)
//!         .stateless(true)                       // no sessions: any replica answers any request
//!         .allowed_hosts(["skills.example.com"]) // the Host names clients use (default: loopback)
//!         .build();
//!     // Prints `listening http://127.0.0.1:8080` on stdout once it accepts connections.
//!     serve("127.0.0.1:8080", router).await
//! }
//! ```
//!
//! # Your own routes and an auth layer
//!
//! [`SkillsRouter::build`] returns a plain `axum::Router`: add routes, then
//! layers. A layer added with `Router::layer` wraps every route added
//! before it, so put an authentication layer after the routes it guards and
//! merge the public ones (OAuth's `/.well-known/…` documents) after the
//! layer:
//!
//! ```no_run
//! use axum::extract::Request;
//! use axum::http::StatusCode;
//! use axum::middleware::{self, Next};
//! use axum::response::{IntoResponse, Response};
//! use axum::routing::get;
//! use skills_runtime::http::SkillsRouter;
//! use skills_runtime::{Skills, SkillsServer, embed_skills};
//!
//! static SKILLS: Skills = embed_skills!("skills");
//!
//! /// Who the request comes from, as the auth layer resolved it.
//! #[derive(Clone)]
//! struct Learner(String);
//!
//! /// Resolves the bearer token once per request and puts what the access
//! /// rules need in the request's extensions, where MCP handlers find it
//! /// (rmcp hands them the HTTP request head) and so do your routes.
//! async fn authenticate(mut request: Request, next: Next) -> Response {
//!     let token = request
//!         .headers()
//!         .get("authorization")
//!         .and_then(|value| value.to_str().ok())
//!         .and_then(|value| value.strip_prefix("Bearer "));
//!     let Some(learner) = token.and_then(|token| lookup(token)) else {
//!         return StatusCode::UNAUTHORIZED.into_response();
//!     };
//!     request.extensions_mut().insert(learner);
//!     next.run(request).await
//! }
//! # fn lookup(_token: &str) -> Option<Learner> { None }
//!
//! # async fn make() -> axum::Router {
//! let skills = SkillsServer::new(SKILLS.clone());
//! SkillsRouter::new(skills)
//!     .build()
//!     .route("/api/courses", get(|| async { "[]" }))             // guarded, like /mcp
//!     .layer(middleware::from_fn(authenticate))
//!     .route("/.well-known/oauth-protected-resource", get(|| async { "{}" })) // public
//! # }
//! ```
//!
//! With sessions, each request of a session reaches the MCP handler with its
//! own HTTP request head (`http::request::Parts` in the request context's
//! extensions), so what the layer resolved is fresh on every request, not
//! frozen at `initialize`.
//!
//! # Your own MCP handler
//!
//! By default `/mcp` is answered by the [`SkillsServer`] itself. A server with
//! tools of its own passes its handler, built around the same
//! [`SkillsServer`] ([`WithSkills`](crate::WithSkills), or an `impl
//! ServerHandler` using [`delegate_skills!`](crate::delegate_skills)):
//!
//! ```no_run
//! # use skills_runtime::http::SkillsRouter;
//! # use skills_runtime::{Skills, SkillsServer, embed_skills};
//! # static SKILLS: Skills = embed_skills!("skills");
//! # #[derive(Clone)]
//! # struct MyTools;
//! # impl rmcp::ServerHandler for MyTools {}
//! let skills = SkillsServer::new(SKILLS.clone());
//! let router: axum::Router = SkillsRouter::new(skills.clone())
//!     .handler(skills.wrap(MyTools))
//!     .build();
//! ```
//!
//! # What is mounted
//!
//! [`SkillsRouter::build`] mounts rmcp's `StreamableHttpService` at
//! [`MCP_PATH`] and, next to it (so inside the same auth layer), the catalog
//! routes at [`CATALOG_PATH`], for agents that call HTTP routes rather than
//! MCP methods. They answer from the snapshot the [`SkillsServer`] serves
//! right now and the same access policy, seen through the request head your
//! layer filled ([`SkillsServer::view`]), so a
//! [`replace`](SkillsServer::replace) swaps MCP and the routes at once:
//!
//! - `GET /skills`: `{"skills": [{name, description, uri, version, files,
//!   size}], "locked": [{name, description, offer}]}`: the skills the caller
//!   owns (`files` is a count, `size` their total in bytes) and a teaser of
//!   each skill they may buy, with the policy's [`Offer`](crate::server::Offer).
//! - `GET /skills/{name}`: `{name, uri, version, files: [{path, uri, size,
//!   digest}]}` for an owned skill, the files, digests, sizes and version of
//!   its `skills/get` entry; for anything else (locked, absent,
//!   nonexistent) one `404` whose bytes and headers never depend on the name.
//!
//! Under an access policy both send `Cache-Control: private, no-cache` (and
//! `Vary: authorization`), else `public, no-cache`. The ETag of `GET
//! /skills/{name}` is the skill's version, that of `GET /skills` the digest
//! of its body; a matching `If-None-Match` gets `304 Not Modified`.
//! They accept the same `Host` names as `/mcp` ([`SkillsRouter::allowed_hosts`]).
//! [`SkillsRouter::catalog`] turns the routes off.
//!
//! # The well-known skills index
//!
//! Installers that read a site's skills index (Agent Skills Discovery
//! 0.2.0, such as `npx skills add https://your.host`) find it at
//! `GET /.well-known/agent-skills/index.json` ([`WELL_KNOWN_PATH`](crate::protocol::WELL_KNOWN_PATH)), next to
//! `/mcp` and inside the same layers:
//!
//! - the index is `{"$schema": INDEX_SCHEMA, "skills": [{name, type,
//!   description, url, digest}]}`: one entry per skill the caller owns, in
//!   path order, from the same snapshot and policy as MCP;
//! - a skill that is a lone `SKILL.md` is `"type": "skill-md"` at
//!   `{name}/SKILL.md`; any other is `"type": "archive"` at
//!   `{name}.tar.gz`, its whole folder (`url` is relative to the index, and
//!   `digest` is the `sha256:` of the bytes served there);
//! - archives are built once per snapshot, when first asked for, and are
//!   byte-identical on every replica of the same build: entries in path
//!   order, mode `0755` or `0644` from the recorded executable bit, time
//!   [`ARCHIVE_MTIME`](crate::protocol::ARCHIVE_MTIME), owner 0 without names, no time in the gzip header;
//! - a locked, absent or nonexistent skill's URLs all get the catalog's
//!   one `404`; ETags (the digest) and `Cache-Control` are those of `GET
//!   /skills`.
//!
//! [`SkillsRouter::well_known`] turns the routes off;
//! [`SkillsRouter::well_known_routes`] gives them alone, to nest under a
//! path that carries a grant for installers that send no header.

use std::future::Future;
use std::io::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::serve::ListenerExt as _;
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tokio::net::{TcpListener, ToSocketAddrs};

use crate::SkillsServer;

mod catalog;
mod well_known;

pub use catalog::CATALOG_PATH;

/// Where [`SkillsRouter::build`] mounts MCP's streamable HTTP endpoint.
pub const MCP_PATH: &str = "/mcp";

/// How long requests in flight may take to finish once a shutdown signal
/// came. Open event streams (a session's `GET /mcp`) never finish on their
/// own; they are cut when this runs out.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// Builds the `axum::Router` that serves skills over HTTP: MCP's streamable
/// HTTP transport at [`MCP_PATH`], answered by a [`SkillsServer`] or by your
/// own handler around it. See the [module documentation](self).
#[derive(Clone)]
pub struct SkillsRouter<H = SkillsServer> {
    skills: SkillsServer,
    handler: H,
    config: StreamableHttpServerConfig,
    catalog: bool,
    well_known: bool,
    list_internal: bool,
}

impl SkillsRouter {
    /// A router whose `/mcp` is answered by `skills` itself, with rmcp's
    /// defaults: sessions, server-sent events, loopback `Host` names only.
    pub fn new(skills: SkillsServer) -> Self {
        Self {
            handler: skills.clone(),
            skills,
            config: StreamableHttpServerConfig::default(),
            catalog: true,
            well_known: true,
            list_internal: false,
        }
    }
}

impl<H> SkillsRouter<H> {
    /// Answers `/mcp` with `handler` instead: your tools and the skills, in
    /// a handler built around the same [`SkillsServer`] this router was made
    /// with ([`WithSkills`](crate::WithSkills), or your own `impl
    /// ServerHandler` with [`delegate_skills!`](crate::delegate_skills)).
    /// A clone of it serves each session.
    pub fn handler<T: ServerHandler + Clone>(self, handler: T) -> SkillsRouter<T> {
        SkillsRouter {
            skills: self.skills,
            handler,
            config: self.config,
            catalog: self.catalog,
            well_known: self.well_known,
            list_internal: self.list_internal,
        }
    }

    /// Keep no session state (default: off). Every request is answered on
    /// its own, with a JSON body rather than an event stream, so any replica
    /// of the same build answers any request, cursors included: run replicas
    /// behind a plain load balancer. Clients of protocol 2026-07-28 are
    /// served this way in either mode (the protocol has no sessions).
    pub fn stateless(mut self, on: bool) -> Self {
        self.config = self
            .config
            .with_legacy_session_mode(!on)
            .with_json_response(on);
        self
    }

    /// The `Host` names (or `host:port` authorities) to accept, in place of
    /// the default loopback names (`localhost`, `127.0.0.1`, `::1`), which
    /// guard a local server against DNS rebinding. A deployed server lists
    /// the names its clients, or its proxy, use. An empty list keeps the
    /// default: accepting any host is [`allow_any_host`](Self::allow_any_host).
    pub fn allowed_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let hosts: Vec<String> = hosts.into_iter().map(Into::into).collect();
        if !hosts.is_empty() {
            self.config = self.config.with_allowed_hosts(hosts);
        }
        self
    }

    /// Accept any `Host` header: for a server only reachable through a proxy
    /// that checks names itself. Not for a server on a developer's machine.
    pub fn allow_any_host(mut self) -> Self {
        self.config = self.config.disable_allowed_hosts();
        self
    }

    /// Any other setting of rmcp's transport (keep-alive of event streams,
    /// the largest request body, allowed `Origin`s, a session store, …),
    /// starting from what this builder set so far.
    ///
    /// ```
    /// # use skills_runtime::http::SkillsRouter;
    /// # use skills_runtime::{Skills, SkillsServer};
    /// # static SKILLS: Skills = Skills::empty();
    /// let router: axum::Router = SkillsRouter::new(SkillsServer::new(SKILLS.clone()))
    ///     .configure(|config| config.with_max_request_body_bytes(1 << 20))
    ///     .build();
    /// # let _ = router;
    /// ```
    pub fn configure(
        mut self,
        configure: impl FnOnce(StreamableHttpServerConfig) -> StreamableHttpServerConfig,
    ) -> Self {
        self.config = configure(self.config);
        self
    }

    /// Mount the catalog routes `GET /skills` and `GET /skills/{name}` next
    /// to `/mcp` (default: on). Turn them off for a server that serves MCP
    /// only, or that answers those paths itself.
    pub fn catalog(mut self, on: bool) -> Self {
        self.catalog = on;
        self
    }

    /// Mount the well-known skills index (Agent Skills Discovery 0.2.0) at
    /// [`WELL_KNOWN_PATH`](crate::protocol::WELL_KNOWN_PATH)`/`[`INDEX_FILE`](crate::protocol::INDEX_FILE) and each skill's artifact next
    /// to it (default: on), for installers such as `npx skills add
    /// https://your.host`. Turn it off for a server whose skills are for MCP
    /// clients only, or that answers those paths itself (see the [module
    /// documentation](self#the-well-known-skills-index)).
    pub fn well_known(mut self, on: bool) -> Self {
        self.well_known = on;
        self
    }

    /// List skills whose `metadata.internal` is `true` in the well-known
    /// index too (default: off). The `skills` CLI hides such skills unless
    /// told to install internal ones (`INSTALL_INTERNAL_SKILLS=1`, or
    /// `--skill` naming them); the index leaves them out the same way, so
    /// that `npx skills add https://your.host` offers what the author meant
    /// to publish. Their artifacts answer either way, and MCP clients list
    /// them: hiding is about discovery, [`gated`](crate::embed_skills) skills about access.
    pub fn list_internal_skills(mut self, on: bool) -> Self {
        self.list_internal = on;
        self
    }

    /// The well-known index and its artifacts alone, with this router's
    /// `Host` check, to nest under a prefix outside your auth layer: a path
    /// that carries a grant (`/install/{grant}`) for installers that cannot
    /// send a header. Artifact URLs are relative to the index, so they
    /// resolve under the prefix. A layer of yours on the nested router
    /// resolves the grant into the request's extensions, where the access
    /// policy finds it.
    ///
    /// ```
    /// # use skills_runtime::http::SkillsRouter;
    /// # use skills_runtime::{Skills, SkillsServer};
    /// # static SKILLS: Skills = Skills::empty();
    /// let skills = SkillsRouter::new(SkillsServer::new(SKILLS.clone())).well_known(false);
    /// let router: axum::Router = skills
    ///     .clone()
    ///     .build()
    ///     // .layer(your_auth_layer)
    ///     .nest("/install/{grant}", skills.well_known_routes());
    /// # let _ = router;
    /// ```
    pub fn well_known_routes<S>(&self) -> axum::Router<S>
    where
        S: Clone + Send + Sync + 'static,
    {
        well_known::routes(
            self.skills.clone(),
            self.config.allowed_hosts.clone().into(),
            self.list_internal,
        )
    }

    /// The skills server the routes of this router answer from.
    pub fn skills(&self) -> &SkillsServer {
        &self.skills
    }
}

impl<H: ServerHandler + Clone> SkillsRouter<H> {
    /// The router: MCP at [`MCP_PATH`], the catalog routes at
    /// [`CATALOG_PATH`] (unless [turned off](Self::catalog)), the
    /// well-known index at [`WELL_KNOWN_PATH`](crate::protocol::WELL_KNOWN_PATH) (unless [turned off](Self::well_known)). Add your routes and layers to it,
    /// then [`serve`] it. Generic over the router's state, so it merges into
    /// a router of yours that has one.
    pub fn build<S>(self) -> axum::Router<S>
    where
        S: Clone + Send + Sync + 'static,
    {
        let handler = self.handler;
        let allowed_hosts: Arc<[String]> = self.config.allowed_hosts.clone().into();
        let mcp = StreamableHttpService::new(
            move || Ok(handler.clone()),
            Arc::new(LocalSessionManager::default()),
            self.config,
        );
        let mut router = axum::Router::new().nest_service(MCP_PATH, mcp);
        if self.catalog {
            router = router.merge(catalog::routes(self.skills.clone(), allowed_hosts.clone()));
        }
        if self.well_known {
            well_known::warn_at_start(&self.skills, self.list_internal);
            router = router.merge(well_known::routes(
                self.skills,
                allowed_hosts,
                self.list_internal,
            ));
        }
        router
    }
}

impl<H> std::fmt::Debug for SkillsRouter<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SkillsRouter")
            .field("skills", &self.skills)
            .field("stateless", &!self.config.legacy_session_mode)
            .field("allowed_hosts", &self.config.allowed_hosts)
            .field("catalog", &self.catalog)
            .field("well_known", &self.well_known)
            .field("list_internal", &self.list_internal)
            .finish_non_exhaustive()
    }
}

/// Binds `address`, prints `listening http://HOST:PORT` on stdout (the real
/// port when `address` asks for port 0) once connections are accepted, and
/// serves `router` until Ctrl-C or `SIGTERM`. That one line is all it
/// prints: scripts and tests wait for it and read the address from it.
///
/// Accepted sockets send each write at once (`TCP_NODELAY`): without it a
/// client waiting for the last segment of an answer stalls for ~40 ms
/// (Nagle's algorithm meeting delayed acknowledgements). On a shutdown
/// signal it stops accepting and lets requests in flight finish for up to
/// [`SHUTDOWN_GRACE`].
///
/// # Errors
///
/// When the address cannot be bound, stdout cannot be written, or accepting
/// fails.
pub async fn serve(address: impl ToSocketAddrs, router: axum::Router) -> std::io::Result<()> {
    let listener = Listener::bind(address).await?;
    listener.announce()?;
    listener.serve(router).await
}

/// A bound TCP listener, for when you need the address before serving (a
/// test binding port 0) or print something else: [`serve`] in two steps.
#[derive(Debug)]
pub struct Listener {
    listener: TcpListener,
    address: SocketAddr,
}

impl Listener {
    /// Binds `address` (port 0 picks a free port).
    ///
    /// # Errors
    ///
    /// When the address cannot be resolved or bound.
    pub async fn bind(address: impl ToSocketAddrs) -> std::io::Result<Self> {
        let listener = TcpListener::bind(address).await?;
        let address = listener.local_addr()?;
        Ok(Self { listener, address })
    }

    /// The address bound, with the real port.
    pub fn local_addr(&self) -> SocketAddr {
        self.address
    }

    /// Prints `listening http://HOST:PORT` on stdout and flushes it: the one
    /// line an HTTP server of this project prints.
    ///
    /// # Errors
    ///
    /// When stdout cannot be written.
    pub fn announce(&self) -> std::io::Result<()> {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "listening http://{}", self.address)?;
        stdout.flush()
    }

    /// Serves `router` until Ctrl-C or `SIGTERM`, as [`serve`] does, without
    /// printing anything.
    ///
    /// # Errors
    ///
    /// When accepting connections fails.
    pub async fn serve(self, router: axum::Router) -> std::io::Result<()> {
        self.serve_until(router, shutdown_signal()).await
    }

    /// Serves `router` until `shutdown` completes, then lets requests in
    /// flight finish for up to [`SHUTDOWN_GRACE`].
    ///
    /// # Errors
    ///
    /// When accepting connections fails.
    pub async fn serve_until(
        self,
        router: axum::Router,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let listener = self.listener.tap_io(|stream| {
            if let Err(error) = stream.set_nodelay(true) {
                tracing::debug!(%error, "TCP_NODELAY could not be set on a connection");
            }
        });
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let server = axum::serve(listener, router).with_graceful_shutdown(async move {
            let mut stopped = stopped;
            let _ = stopped.wait_for(|stop| *stop).await;
        });
        let server = server.into_future();
        tokio::pin!(server);
        tokio::select! {
            result = &mut server => return result,
            () = shutdown => {}
        }
        stop.send_replace(true);
        match tokio::time::timeout(SHUTDOWN_GRACE, server).await {
            Ok(result) => result,
            Err(_) => {
                tracing::debug!(
                    "connections still open {SHUTDOWN_GRACE:?} after the shutdown signal were cut"
                );
                Ok(())
            }
        }
    }
}

/// Ctrl-C, or `SIGTERM` (what `kill`, systemd and container runtimes send).
async fn shutdown_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}
