//! Serving over HTTP (feature `http`): MCP's streamable HTTP transport at
//! `/mcp` on an [`axum::Router`] you extend with your own routes and tower
//! layers ([`SkillsRouter`]), and [`Server`], which binds, prints the one
//! line scripts wait for and serves under [`Limits`] until Ctrl-C or
//! `SIGTERM`.
//!
//! ```no_run
//! use skills_runtime::http::{Server, SkillsRouter};
//! use skills_runtime::{Skills, SkillsServer, embed_skills};
//!
//! static SKILLS: Skills = embed_skills!("skills");
//!
//! #[tokio::main(flavor = "current_thread")]
//! async fn main() -> std::io::Result<()> {
//!     let skills = SkillsServer::new(SKILLS.clone());
//!     let router = SkillsRouter::new(skills)
//!         .stateless(true)                       // no sessions: any replica answers any request
//!         .allowed_hosts(["skills.example.com"]) // Host names besides the loopback ones
//!         .build();
//!     // Prints `listening http://127.0.0.1:8080` on stdout once it accepts connections.
//!     Server::bind("127.0.0.1:8080").await?.serve(router).await
//! }
//! ```
//!
//! # On the public internet
//!
//! Everything a hostile network can do to a server is bounded by default;
//! each bound has one place to change it:
//!
//! | what | default | where |
//! | --- | --- | --- |
//! | `Host` names | loopback names, and the IP literal of the address a connection reached | [`SkillsRouter::allowed_hosts`] adds names |
//! | `Origin` (browsers) | none, the server's own, loopback origins; anything else `403` | [`SkillsRouter::allowed_origins`] adds origins |
//! | time to send a request head, and idle time between requests | 10 s | [`Limits::header_timeout`] |
//! | a request body stalling | 10 s between two pieces | [`Limits::body_timeout`] |
//! | open connections | 1,024 (more wait in the accept queue) | [`Limits::max_connections`] |
//! | a request body | 4 MiB (`413`) | rmcp's `max_request_body_bytes`, through [`SkillsRouter::configure`] |
//! | sessions per [`Principal`] | 100 (then the idlest is closed; `429` when none is idle) | [`SessionLimits::max_sessions_per_principal`] |
//! | sessions in total | 10,000 (then `503`) | [`SessionLimits::max_sessions`] |
//! | an idle session | closed after 5 minutes | [`SessionLimits::idle_timeout`] |
//!
//! A session belongs to the [`Principal`] your auth layer put in the
//! `initialize` request's extensions: a request of another principal naming
//! it gets the very `404` an unknown session gets, whatever its method.
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
//! use skills_runtime::http::{Principal, SkillsRouter};
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
//! /// (rmcp hands them the HTTP request head) and so do your routes; and
//! /// the [`Principal`] each MCP session belongs to.
//! async fn authenticate(mut request: Request, next: Next) -> Response {
//!     let token = request
//!         .headers()
//!         .get("authorization")
//!         .and_then(|value| value.to_str().ok())
//!         .and_then(|value| value.strip_prefix("Bearer "));
//!     let Some(learner) = token.and_then(|token| lookup(token)) else {
//!         return StatusCode::UNAUTHORIZED.into_response();
//!     };
//!     request.extensions_mut().insert(Principal::new(learner.0.clone()));
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
//! They sit behind the same `Host` and `Origin` checks as `/mcp`.
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
//! - archives are built once per snapshot, when first asked for, on Tokio's
//!   blocking threads (concurrent first requests wait for that one build
//!   without holding an async worker), and are
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

use std::sync::Arc;

use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use crate::SkillsServer;

mod answers;
mod archives;
mod front_door;
mod server;
mod session_owners;
mod skill_routes;
mod well_known;

pub use server::{Limits, Server};
pub use session_owners::{Principal, SessionLimits};
pub use skill_routes::CATALOG_PATH;

/// Where [`SkillsRouter::build`] mounts MCP's streamable HTTP endpoint.
pub const MCP_PATH: &str = "/mcp";

/// Builds the `axum::Router` that serves skills over HTTP: MCP's streamable
/// HTTP transport at [`MCP_PATH`], answered by a [`SkillsServer`] or by your
/// own handler around it. See the [module documentation](self).
#[derive(Clone)]
pub struct SkillsRouter<H = SkillsServer> {
    skills: SkillsServer,
    handler: H,
    config: StreamableHttpServerConfig,
    door: front_door::FrontDoor,
    sessions: SessionLimits,
    catalog: bool,
    well_known: bool,
    archives: archives::Archives,
    list_internal: bool,
}

impl SkillsRouter {
    /// A router whose `/mcp` is answered by `skills` itself, with sessions
    /// and server-sent events, loopback `Host` names and origins only, and
    /// the default [`SessionLimits`].
    pub fn new(skills: SkillsServer) -> Self {
        Self {
            handler: skills.clone(),
            skills,
            // The front door checks Host and Origin for every route, rmcp's
            // included.
            config: StreamableHttpServerConfig::default()
                .disable_allowed_hosts()
                .disable_allowed_origins(),
            door: front_door::FrontDoor::default(),
            sessions: SessionLimits::default(),
            catalog: true,
            well_known: true,
            archives: archives::Archives::default(),
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
            door: self.door,
            sessions: self.sessions,
            catalog: self.catalog,
            well_known: self.well_known,
            archives: self.archives,
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

    /// Accept these `Host` names (or `host:port` authorities) too, besides
    /// the loopback names (`localhost`, `127.0.0.1`, `::1`), which every
    /// router accepts, and the IP literal of the address a connection
    /// reached (served by [`Server`]). A name not listed gets `403`: that
    /// guards a local server against DNS rebinding. A deployed server lists
    /// the names its clients, or its proxy, use.
    pub fn allowed_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.door.allow_hosts(hosts.into_iter().map(Into::into));
        self
    }

    /// Accept any `Host` header: for a server only reachable through a proxy
    /// that checks names itself. Not for a server on a developer's machine.
    pub fn allow_any_host(mut self) -> Self {
        self.door.allow_any_host();
        self
    }

    /// Accept requests from pages of these origins too
    /// (`https://app.example.com`, `http://localhost:3000`; a port left out
    /// is the scheme's default; `null` for the `Origin: null` of sandboxed
    /// pages). A request without `Origin` (every client that is not a
    /// browser) always passes; so do loopback origins, and pages of the
    /// server itself (the same host and port as its `Host`). Any other
    /// origin gets `403` before anything else runs, as MCP's streamable HTTP
    /// transport requires.
    pub fn allowed_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.door.allow_origins(origins.into_iter().map(Into::into));
        self
    }

    /// How many sessions may be open, per [`Principal`] and in total, and
    /// how long an idle one lives (default [`SessionLimits::default`]).
    pub fn session_limits(mut self, limits: SessionLimits) -> Self {
        self.sessions = limits;
        self
    }

    /// Any other setting of rmcp's transport (keep-alive of event streams,
    /// the largest request body, …), starting from what this builder set so
    /// far. `Host` and `Origin` are this router's
    /// ([`allowed_hosts`](Self::allowed_hosts),
    /// [`allowed_origins`](Self::allowed_origins)), checked for every route
    /// before rmcp's service runs.
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

    /// The well-known index and its artifacts alone, behind this router's
    /// `Host` and `Origin` checks, to nest under a prefix outside your auth
    /// layer: a path that carries a grant (`/install/{grant}`) for
    /// installers that cannot send a header. Artifact URLs are relative to
    /// the index, so they resolve under the prefix. A layer of yours on the
    /// nested router resolves the grant into the request's extensions,
    /// where the access policy finds it. It shares its archives with
    /// [`build`](Self::build)'s routes: each is built once per snapshot.
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
        self.behind_door(well_known::routes(
            self.skills.clone(),
            self.archives.clone(),
            self.list_internal,
        ))
    }

    /// The skills server the routes of this router answer from.
    pub fn skills(&self) -> &SkillsServer {
        &self.skills
    }

    /// `routes` behind the `Host` and `Origin` checks.
    fn behind_door<S>(&self, routes: axum::Router<S>) -> axum::Router<S>
    where
        S: Clone + Send + Sync + 'static,
    {
        routes.layer(axum::middleware::from_fn_with_state(
            Arc::new(self.door.clone()),
            front_door::check,
        ))
    }
}

impl<H: ServerHandler + Clone> SkillsRouter<H> {
    /// The router: MCP at [`MCP_PATH`], the catalog routes at
    /// [`CATALOG_PATH`] (unless [turned off](Self::catalog)), the
    /// well-known index at [`WELL_KNOWN_PATH`](crate::protocol::WELL_KNOWN_PATH) (unless [turned off](Self::well_known)), all behind the
    /// `Host` and `Origin` checks. Add your routes and layers to it, then
    /// serve it with [`Server`]. Generic over the router's state, so it
    /// merges into a router of yours that has one.
    pub fn build<S>(self) -> axum::Router<S>
    where
        S: Clone + Send + Sync + 'static,
    {
        let handler = self.handler.clone();
        let sessions = Arc::new(session_owners::OwnedSessions::new(self.sessions.clone()));
        let max_body = self.config.max_request_body_bytes;
        let with_sessions = self.config.legacy_session_mode;
        let mcp = StreamableHttpService::new(
            move || Ok(handler.clone()),
            sessions.clone(),
            self.config.clone(),
        );
        let mut router = if with_sessions {
            axum::Router::new().nest_service(
                MCP_PATH,
                session_owners::Owners::new(mcp, &sessions, max_body),
            )
        } else {
            axum::Router::new().nest_service(MCP_PATH, mcp)
        };
        if self.catalog {
            router = router.merge(skill_routes::routes(self.skills.clone()));
        }
        if self.well_known {
            well_known::warn_at_start(&self.skills, self.list_internal);
            router = router.merge(well_known::routes(
                self.skills.clone(),
                self.archives.clone(),
                self.list_internal,
            ));
        }
        self.behind_door(router)
    }
}

impl<H> std::fmt::Debug for SkillsRouter<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SkillsRouter")
            .field("skills", &self.skills)
            .field("stateless", &!self.config.legacy_session_mode)
            .field("allowed_hosts", &self.door.hosts())
            .field("allowed_origins", &self.door.origins())
            .field("session_limits", &self.sessions)
            .field("catalog", &self.catalog)
            .field("well_known", &self.well_known)
            .field("list_internal", &self.list_internal)
            .finish_non_exhaustive()
    }
}
