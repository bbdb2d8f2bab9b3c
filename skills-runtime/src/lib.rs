//! Agent Skills compiled into your Rust binary and served to AI agents over
//! the Model Context Protocol.
//!
//! An [Agent Skill](https://agentskills.io) is a folder holding a `SKILL.md`
//! (YAML frontmatter with a name and a description of when to use it, then
//! instructions) and the files it points to. Put your skills in a folder of
//! your crate; [`embed_skills!`] reads, checks and hashes them while the
//! crate compiles (a broken skill fails `cargo build` with `file:line:col`,
//! the rule and a hint) and leaves them in the binary as plain `static`
//! tables, so nothing is parsed or hashed at run time. [`SkillsServer`] serves
//! them to any MCP host (Claude Code, fast-agent, the MCP Inspector, …)
//! through [`rmcp`](https://docs.rs/rmcp), the official Rust SDK: as listed skills with every
//! file's size and SHA-256 digest ([the skills extension, SEP-2640]), and as
//! `skill://` resources and a fallback tool for hosts that predate it.
//!
//! [the skills extension, SEP-2640]: https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/seps/2640-skills-extension.md
//!
//! # Quickstart
//!
//! Put skills in a folder next to `Cargo.toml`, one folder per skill:
//!
//! ```text
//! skills/
//!   stock-audit/
//!     SKILL.md                  ---\nname: stock-audit\ndescription: …\n---\n# Body
//!     references/counting-procedure.md
//!     scripts/variance_report.py
//!   kitchen/recipe-scaling/     nested paths are allowed; the last segment is the skill's name
//!     SKILL.md
//! ```
//!
//! Depend on the runtime, and on rmcp and tokio to serve. The crates are not
//! on crates.io yet: point `path` at the `skills-runtime` folder of a clone
//! of the repository (`skills-runtime = "0.1"` once published).
//!
//! ```toml
//! [dependencies]
//! skills-runtime = { path = "../skills-runtime/skills-runtime" }
//! rmcp = { version = "3.11", features = ["server", "transport-io"] }
//! tokio = { version = "1", features = ["macros", "rt"] }
//! ```
//!
//! Add a one-line build script, `build.rs`, so that adding a file to the
//! folder rebuilds the crate (a proc macro cannot watch a folder on stable
//! Rust, so without it [`embed_skills!`] refuses to compile and prints this
//! line):
//!
//! ```
//! fn main() { println!("cargo::rerun-if-changed=skills"); }
//! ```
//!
//! Embed the folder and serve it over stdio:
//!
//! ```no_run
//! use skills_runtime::{Skills, SkillsServer, embed_skills, server};
//!
//! static SKILLS: Skills = embed_skills!("skills");
//!
//! #[tokio::main(flavor = "current_thread")]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     eprintln!("serving {} skills; waiting for an MCP client on stdin", SKILLS.len());
//!     // `stdio_pipes` reads the client's pipes without a thread switch per
//!     // message; on anything else it falls back to `stdio()`.
//!     server::serve(SkillsServer::new(SKILLS.clone()), rmcp::transport::stdio_pipes()).await?;
//!     Ok(())
//! }
//! ```
//!
//! `cargo run` then waits for a client on stdin. To talk to it, let the [MCP
//! Inspector](https://github.com/modelcontextprotocol/inspector)'s command
//! line start it (Node.js; its current version asks for Node 22 or later):
//!
//! ```sh
//! npx -y @modelcontextprotocol/inspector --cli cargo run -q --method resources/list
//! ```
//!
//! or point your MCP host at the built binary (`target/debug/<your crate>`).
//!
//! # What is embedded
//!
//! `SKILLS` is a plain `static`: no `LazyLock`, nothing runs at start-up. It
//! holds each [`Skill`]'s name, description, path, URI, the other frontmatter
//! fields (as JSON, exactly the author's values) and revision, and each
//! [`SkillFile`]'s path, bytes, size, [`Digest`], MIME type, text-or-binary
//! flag and executable bit:
//!
//! ```
//! # use skills_runtime::{Skills, embed_skills};
//! # static SKILLS: Skills = embed_skills!("skills");
//! let skill = SKILLS.get("stock-audit").expect("embedded");
//! assert_eq!(skill.uri(), "skill://stock-audit/SKILL.md");
//! let script = skill.file("scripts/variance_report.py").expect("embedded");
//! assert!(script.is_executable());
//! assert!(script.digest().to_string().starts_with("sha256:"));
//! let nested = SKILLS.get("kitchen/recipe-scaling").expect("embedded");
//! assert_eq!(nested.name(), "recipe-scaling");
//! ```
//!
//! # Serving
//!
//! [`SkillsServer`] answers every skills-related request from a [`Skills`]
//! set, on its own (it implements `ServerHandler`), around your own handler
//! with [`WithSkills`], or from your own `impl ServerHandler` through
//! [`delegate_skills!`]. [`SkillsServer::builder`] configures it
//! ([`SkillsServerBuilder`]: instructions, which compatibility layers, page
//! sizes, a per-caller [access policy](SkillsServerBuilder::access) that
//! decides which skills each caller owns, may buy, or never hears of); the
//! [`server`] module describes what goes on the wire.
//!
//! # Skill packs
//!
//! A library crate can ship skills for other servers
//! (`pub static SKILLS: Skills = embed_skills!("skills");`, depending on this
//! crate without default features); a server serves its own and several
//! packs as one set with [`Skills::merge`], which fails at start-up, naming
//! both crates, when two packs hold a skill of the same name.
//!
//! # Features
//!
//! Every feature of this crate; docs.rs shows which one an item needs.
//! Features that imply others say so.
//!
//! | feature | implies | what it adds | when to turn it on |
//! | --- | --- | --- | --- |
//! | `server` (default) | – | [`SkillsServer`], [`WithSkills`], [`delegate_skills!`] and the [`server`] module, through rmcp | you serve skills over MCP. Without it the crate is the macro and the tables only, with no dependency on rmcp (a [skill pack](Skills::merge)) |
//! | `load` | – | `load`, `Options`, `Report`, `vendor` (re-exported from skills-core) and [`add_files`]: a folder read, checked and hashed at run time with the macro's rules and messages | you check or serve a folder at run time, or add files generated at start-up. Without it nothing is parsed or hashed at run time |
//! | `watch` | `load`, `server` | `SkillsServer::watch`, `watch_agent`, `watch_roots`, `SkillsServerBuilder::watch_in_debug`: a folder served live, the last good set kept while it does not load, clients told what changed | you edit skills while the server runs, or serve agents' own folders |
//! | `http` | `server` | the `http` module: MCP's streamable HTTP transport on an axum `Router` you extend, the `GET /skills` catalog routes, the well-known skills index with its archives (`npx skills add`), and `serve`, which prints the one `listening` line | you serve over HTTP (replicas, bearer tokens, per-user skills) |
//! | `folder` | `load` | the `folder` module: skills written into a folder with a record per skill, an atomic swap and six states | you write skills to disk yourself; `client` and `install` use it |
//! | `install` | `folder` | the `install` module: the embedded skills written into agents' folders, a clap `skill install\|uninstall\|list` group and `Installer::intercept` | your command-line tool installs its skills for local agents |
//! | `client` | `folder` | the `client` module: discover, verify, download and sync skills from any MCP server through rmcp's client; stdio child-process transports sized for a 16 MiB skill; `HostCatalog` for LLM hosts | you host a model, or keep a folder in sync with a server |
//! | `client-http` | `client` | `client::transport::http`: rmcp's streamable HTTP client (reqwest) with the same limits | the server you sync from is reached over HTTP |
//! | `rig` | `client` | `client::rig::RigSkills`: the catalog's context blocks and its `load_skill`/`unload_skill` tools for a [rig](https://docs.rs/rig-core) agent | your host is built on rig |
//! | `openapi` | – | `openapi::api_reference`: a skill's API reference rendered from an OpenAPI 3 document, the routes in conversation order (`x-skill`) | a skill documents your own HTTP API |
//! | `testing` | – | `testing::assert_generated`: a unified diff when a checked-in generated file differs from what the code generates now (`SKILLS_UPDATE=1` rewrites it) | tests keep a generated skill file true |
//!
//! The guide (`docs/guide/` in the repository) shows each feature at work,
//! one chapter per job.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
// The Quickstart shows a build script's `fn main` as the user writes it.
#![allow(clippy::needless_doctest_main)]
#![warn(missing_docs)]

pub use skills_core::{
    Digest, EmbedOptions, Report, SKILL_MD, Skill, SkillFile, Skills, check_servable, mime, uri,
};

#[cfg(feature = "server")]
pub mod server;

#[cfg(feature = "folder")]
pub mod folder;

#[cfg(feature = "install")]
pub mod install;

/// `_meta` key of a SEP-2640 skill entry (and of a `_manifest` read) that
/// lists the skill's executable files, by path inside the skill. Our own key:
/// SEP-2640 has none. Servers built on this crate send it; the client
/// restores the bits from it.
///
/// Named under `io.crates.skills-runtime/`, the reverse-DNS form of this
/// crate's home (`crates.io/crates/skills-runtime`), as MCP's `_meta` rules
/// ask of a key that is not MCP's own; `io.modelcontextprotocol.skills/` is
/// reserved for keys the Skills extension defines.
pub const EXECUTABLE_META_KEY: &str = "io.crates.skills-runtime/executable";

/// The name [`EXECUTABLE_META_KEY`] had before it moved under the crate's
/// reverse-DNS prefix: the client still reads it from servers that send it.
pub const LEGACY_EXECUTABLE_META_KEY: &str = "skills-runtime/executable";

#[cfg(feature = "client")]
pub mod client;

#[cfg(feature = "watch")]
pub use server::{Reload, Reloads, WatchError, WatchHandle};
#[cfg(feature = "http")]
pub mod http;

#[cfg(feature = "openapi")]
pub mod openapi;

#[cfg(feature = "testing")]
pub mod testing;

#[cfg(feature = "server")]
pub use server::{SkillsServer, SkillsServerBuilder, WithSkills};
/// The folders each agent reads skills from (feature `load`): serve them
/// with `SkillsServer::watch_agent` (feature `watch`).
#[cfg(feature = "load")]
pub use skills_core::vendor;
/// Loading a folder at run time (feature `load`): the same rules and
/// messages as `embed_skills!`.
#[cfg(feature = "load")]
pub use skills_core::{Diagnostic, Loaded, Options, Refused, Rule, add_files, load};

/// Embeds a skills folder at compile time and evaluates to a [`Skills`] set.
///
/// ```
/// static SKILLS: skills_runtime::Skills = skills_runtime::embed_skills!("skills");
/// # assert_eq!(SKILLS.len(), 2);
/// ```
///
/// The folder is read, validated and hashed while the crate compiles; every
/// problem in every skill is reported in one compile error, each at its
/// `file:line:col` with the line and a caret, and nothing is parsed or hashed
/// when the program starts.
///
/// Warnings (what the specification only recommends: a `SKILL.md` over 500
/// lines or about 5,000 tokens, references nested more than one level deep)
/// never fail the build, and the macro cannot show them: on stable Rust a
/// procedural macro can only emit errors. `skills_core::load` returns them
/// in `Loaded::warnings`, for tools that print them.
///
/// Options, after the folder: `allow_fields = ["…"]` (extra top-level
/// frontmatter keys to accept), `check_links = false` (do not check that the
/// files a SKILL.md names exist), `allow_secrets_in = ["skill/file"]` (files
/// allowed to hold credential-shaped text), `gated = ["courses/*"]` (globs
/// over skill paths: skills a server may sell, which must not grant
/// `allowed-tools`; see [`SkillsServerBuilder::access`]),
/// `generated = ["skill/references/api.md"]` (files the program adds at
/// start-up with `add_files`, which a `SKILL.md` may link to before they
/// exist; see [`Skills::pending_files`]) and `untracked` (no build script:
/// edits to embedded text files still rebuild the crate, new files do not):
///
/// ```
/// # use skills_runtime::{Skills, embed_skills};
/// static SKILLS: Skills = embed_skills!(
///     "skills",
///     allow_fields = ["dependencies"],
///     check_links = false,
///     allow_secrets_in = ["stock-audit/references/counting-procedure.md"],
/// );
/// # assert!(SKILLS.get("stock-audit").is_some());
/// ```
///
/// A relative folder starts at the folder holding `Cargo.toml`; one starting
/// with `./` at the file that calls the macro. `"$SKILLS_DIR"` and
/// `"${SKILLS_DIR:-skills}"` read an environment variable at compile time
/// (the build script then also prints
/// `cargo::rerun-if-env-changed=SKILLS_DIR`).
#[macro_export]
macro_rules! embed_skills {
    ($($arguments:tt)*) => {
        $crate::__private::embed_skills_impl!($crate; $($arguments)*)
    };
}

/// Writes the skills methods of a `ServerHandler` impl as one-line
/// delegations to a [`SkillsServer`] field, for handlers that keep their own
/// `get_info` and tools (`#[tool_router]`/`#[tool_handler]`):
///
/// ```no_run
/// use rmcp::handler::server::router::tool::ToolRouter;
/// use rmcp::model::{ServerCapabilities, ServerConfig};
/// use rmcp::{ServerHandler, tool, tool_handler, tool_router};
/// use skills_runtime::{Skills, SkillsServer};
/// # static SKILLS: Skills = Skills::empty(); // embed_skills!("skills") in a real crate
///
/// #[derive(Clone)]
/// struct Larder {
///     tool_router: ToolRouter<Self>,
///     skills: SkillsServer,
/// }
///
/// #[tool_router]
/// impl Larder {
///     fn new() -> Self {
///         let skills = SkillsServer::new(SKILLS.clone());
///         let mut tool_router = Self::tool_router();
///         if let Some(route) = skills.tool_route(|larder: &Larder| &larder.skills) {
///             tool_router.add_route(route); // the `read_skill` fallback tool
///         }
///         Self { tool_router, skills }
///     }
///
///     #[tool(description = "Count the items in stock.")]
///     async fn count_stock(&self) -> String {
///         "42".into()
///     }
/// }
///
/// #[tool_handler(router = self.tool_router)]
/// impl ServerHandler for Larder {
///     fn get_info(&self) -> ServerConfig {
///         let mut capabilities = ServerCapabilities::builder().enable_tools().build();
///         self.skills.add_capabilities(&mut capabilities);
///         ServerConfig::new(capabilities)
///             .with_server_info(self.skills.server_info())
///             .with_instructions(self.skills.instructions())
///     }
///
///     skills_runtime::delegate_skills!(skills);
/// }
/// # let _ = Larder::new();
/// ```
///
/// It writes `list_skills`, `get_skill`, `read_resource`,
/// `read_resource_directory`, `list_resources`, `list_resource_templates`,
/// `complete`, and the change notices' `subscribe`, `unsubscribe`,
/// `accepted_subscription_filter` and `listen` (which answer `-32601` unless
/// the server [notifies changes](SkillsServer::notifies_changes)). A
/// handler with resources or subscriptions of its own writes those by hand
/// instead (or uses [`WithSkills`], which merges both). With no field,
/// `self` is the [`SkillsServer`]: that is how it implements `ServerHandler`
/// itself.
///
/// # Under an access policy
///
/// With [`access`](SkillsServerBuilder::access) or
/// [`visibility`](SkillsServerBuilder::visibility), every skills method
/// above already answers per caller. Three more methods make the session
/// itself per caller; `SkillsServer` and [`WithSkills`] write them, a
/// delegating handler writes them as below:
///
/// - `initialize` and `discover` answer with the instructions of the caller
///   ([`SkillsServer::config_for`]: your builder's own instructions, then
///   the skills this caller owns). Without them, every session gets
///   `get_info`'s, which name only what every caller owns.
/// - `on_initialized` registers the session
///   ([`SkillsServer::on_initialized`]), so that a
///   [`replace`](SkillsServer::replace) or a
///   [`refresh_views`](SkillsServer::refresh_views) that changes what it
///   owns sends it `notifications/resources/list_changed`.
///
/// ```no_run
/// use rmcp::model::{
///     DiscoverResult, InitializeRequestParams, InitializeResult, ServerCapabilities, ServerConfig,
/// };
/// use rmcp::service::{NotificationContext, RequestContext};
/// use rmcp::{ErrorData, RoleServer, ServerHandler};
/// use skills_runtime::SkillsServer;
///
/// #[derive(Clone)]
/// struct Platform {
///     skills: SkillsServer, // built with .access(…) and .instructions(…)
/// }
///
/// impl ServerHandler for Platform {
///     fn get_info(&self) -> ServerConfig {
///         let mut capabilities = ServerCapabilities::builder().enable_tools().build();
///         self.skills.add_capabilities(&mut capabilities);
///         ServerConfig::new(capabilities)
///             .with_server_info(self.skills.server_info())
///             .with_instructions(self.skills.instructions())
///     }
///
///     async fn initialize(
///         &self,
///         request: InitializeRequestParams,
///         context: RequestContext<RoleServer>,
///     ) -> Result<InitializeResult, ErrorData> {
///         context.peer.set_peer_info(request.clone());
///         let result = self.negotiate_initialize(&request)?;
///         Ok(self.skills.config_for(result, &context))
///     }
///
///     async fn discover(
///         &self,
///         context: RequestContext<RoleServer>,
///     ) -> Result<DiscoverResult, ErrorData> {
///         let config = self.skills.config_for(self.get_info(), &context);
///         let versions = self.supported_protocol_versions().into_owned();
///         Ok(DiscoverResult::from_server_info(versions, config))
///     }
///
///     async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
///         self.skills.on_initialized(&context);
///     }
///
///     skills_runtime::delegate_skills!(skills);
/// }
/// ```
///
/// The fallback tool's route from [`SkillsServer::tool_route`] is built once,
/// so its description names only what every caller owns; `WithSkills` and
/// `SkillsServer` list it per caller ([`SkillsServer::tools_for`]).
#[cfg(feature = "server")]
#[macro_export]
macro_rules! delegate_skills {
    ($($field:ident).*) => {
        async fn list_skills(
            &self,
            request: $crate::__private::Option<$crate::__private::rmcp::model::PaginatedRequestParams>,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ListSkillsResult, $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.list_skills(request, &context)
        }

        async fn get_skill(
            &self,
            request: $crate::__private::rmcp::model::GetSkillRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::GetSkillResult, $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.get_skill(request, &context)
        }

        async fn read_resource(
            &self,
            request: $crate::__private::rmcp::model::ReadResourceRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ReadResourceResponse, $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.read_resource(&request, &context).map($crate::__private::Into::into)
        }

        async fn read_resource_directory(
            &self,
            request: $crate::__private::rmcp::model::ReadResourceDirectoryRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ReadResourceDirectoryResult, $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.read_resource_directory(request, &context)
        }

        async fn list_resources(
            &self,
            request: $crate::__private::Option<$crate::__private::rmcp::model::PaginatedRequestParams>,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ListResourcesResult, $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.list_resources(request, &context)
        }

        async fn list_resource_templates(
            &self,
            request: $crate::__private::Option<$crate::__private::rmcp::model::PaginatedRequestParams>,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ListResourceTemplatesResult, $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.list_resource_templates(request, &context)
        }

        fn accepted_subscription_filter(
            &self,
            requested: &$crate::__private::rmcp::model::SubscriptionFilter,
        ) -> $crate::__private::Option<$crate::__private::rmcp::model::SubscriptionFilter> {
            self $(.$field)*.accepted_subscription_filter(requested)
        }

        async fn listen(
            &self,
            context: $crate::__private::rmcp::service::SubscriptionContext,
        ) -> $crate::__private::Result<(), $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.listen(context).await
        }

        // rmcp marks resources/subscribe deprecated (2026-07-28 replaced it
        // with subscriptions/listen), yet 2025-11-25 clients still send it.
        #[allow(deprecated)]
        async fn subscribe(
            &self,
            request: $crate::__private::rmcp::model::SubscribeRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<(), $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.subscribe(&request, &context)
        }

        #[allow(deprecated)]
        async fn unsubscribe(
            &self,
            request: $crate::__private::rmcp::model::UnsubscribeRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<(), $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.unsubscribe(&request, &context)
        }

        async fn complete(
            &self,
            request: $crate::__private::rmcp::model::CompleteRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::CompleteResult, $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.complete(&request, &context).unwrap_or_else(|| {
                $crate::__private::Err($crate::__private::rmcp::ErrorData::invalid_params(
                    "no completions for this reference: it names no resource template of this server",
                    $crate::__private::Option::None,
                ))
            })
        }
    };
}

#[doc(hidden)]
pub mod __private {
    pub use ::core::convert::Into;
    pub use ::core::option::Option;
    pub use ::core::result::Result::{self, Err, Ok};
    pub use ::core::{assert, compile_error, env, include_bytes, option_env};
    #[cfg(feature = "server")]
    pub use ::rmcp;
    pub use ::skills_core::{EmbedOptions, Skill, SkillFile, Skills};
    pub use ::skills_macros::embed_skills_impl;
    pub use ::std::borrow::Cow;
}
