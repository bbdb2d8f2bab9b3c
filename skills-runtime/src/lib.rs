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
//! ([`SkillsServer::wrap`]), or from your own `impl ServerHandler` through
//! [`delegate_skills!`]. The [`server`] module describes what goes on the
//! wire. What you call, all of it:
//!
//! | to | call |
//! | --- | --- |
//! | build a server | [`SkillsServer::builder`], then [`SkillsServerBuilder`]'s switches (instructions, compatibility layers, page sizes, prompts, an [access policy](SkillsServerBuilder::access) deciding which skills each caller owns, may buy, or never hears of) and [`build`](SkillsServerBuilder::build), which returns a [`Report`] for a set it cannot serve; [`SkillsServer::new`] is `builder(skills).build()` with the defaults for a set that can be served as it is (it panics otherwise) |
//! | serve it | [`server::serve`]`(server, transport)` (stdio), or `http::SkillsRouter` (feature `http`) |
//! | add skills to your own handler | [`SkillsServer::wrap`]`(handler)`, or [`delegate_skills!`] inside your `impl ServerHandler` (with [`SkillsServer::tool_route`] and [`SkillsServer::on_initialized`]) |
//! | change the set served | [`SkillsServer::replace`]; [`SkillsServer::skills`] is the set served now |
//! | serve a folder live (feature `watch`) | `SkillsServer::watch(watch::Watch::…)`, which the `watch` module describes |
//! | say what one caller sees | [`SkillsServer::instructions`], [`SkillsServer::config`] and [`SkillsServer::view`], each taking a [`server::Caller`] |
//! | tell clients access changed | [`SkillsServer::refresh_views`], [`SkillsServer::watch_view`] |
//! | name a skill in your own tool's description | [`SkillsServer::tool_hint`] |
//!
//! The `_meta` keys and formats the server and the client share are in
//! [`protocol`].
//!
//! # Skill packs
//!
//! A library crate can ship skills for other servers
//! (`pub static SKILLS: Skills = embed_skills!("skills");`, depending on this
//! crate without default features); a server serves its own and several
//! packs as one set with [`merge_skills`], which fails at start-up, naming
//! both crates, when two packs hold a skill of the same name.
//!
//! # Features
//!
//! Every feature of this crate; docs.rs shows which one an item needs.
//! Features that imply others say so.
//!
//! | feature | implies | what it adds | when to turn it on |
//! | --- | --- | --- | --- |
//! | `server` (default) | – | [`SkillsServer`], [`WithSkills`], [`delegate_skills!`] and the [`server`] module, through rmcp | you serve skills over MCP. Without it the crate is the macro and the tables only, with no dependency on rmcp (a [skill pack](merge_skills)) |
//! | `load` | – | the `load` module (`load::load`, `load::Options`, `load::add_files`, the rules and diagnostics, the renderer, `load::vendor`): a folder read, checked and hashed at run time with the macro's rules and messages | you check or serve a folder at run time, or add files generated at start-up. Without it nothing is parsed or hashed at run time |
//! | `watch` | `load`, `server` | the `watch` module and `SkillsServer::watch(Watch::…)` (a folder, several roots, an agent's folders): a folder served live, the last good set kept while it does not load, clients told what changed | you edit skills while the server runs, or serve agents' own folders |
//! | `http` | `server` | the `http` module: MCP's streamable HTTP transport on an axum `Router` you extend, the `GET /skills` catalog routes, the well-known skills index with its archives (`npx skills add`), and `serve`, which prints the one `listening` line | you serve over HTTP (replicas, bearer tokens, per-user skills) |
//! | `folder` | `load` | the `folder` module: skills written into a folder with a record per skill, an atomic swap and six states | you write skills to disk yourself; `client` and `install` use it |
//! | `install` | `folder` | the `install` module: the embedded skills written into agents' folders, a clap `skill install\|uninstall\|list` group and `Installer::intercept` | your command-line tool installs its skills for local agents |
//! | `client` | `folder` | the `client` module: discover, verify, download and sync skills from any MCP server through rmcp's client; stdio child-process transports sized for a 16 MiB skill; `HostCatalog` for LLM hosts | you host a model, or keep a folder in sync with a server |
//! | `client-http` | `client` | `client::transport::http`: rmcp's streamable HTTP client (reqwest) with the same limits | the server you sync from is reached over HTTP |
//! | `rig` | `client` | `client::rig::RigSkills`: the catalog's context blocks and its `load_skill`/`unload_skill` tools for a [rig](https://docs.rs/rig-core) agent | your host is built on rig |
//! | `logging` | – | `logging::stderr().init()`: log lines on stderr at `RUST_LOG`'s level, rmcp's session lines only from `debug` | your binary serves skills and logs (the `skills` command line and the HTTP examples use it) |
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
#![deny(unreachable_pub)]

pub use skills_core::{
    Digest, EmbedOptions, MergeError, Report, SKILL_MD, Skill, SkillFile, Skills, check_servable,
    merge_skills, mime, uri,
};

#[cfg(feature = "server")]
pub mod server;

#[cfg(feature = "folder")]
pub mod folder;

#[cfg(feature = "install")]
pub mod install;

pub mod protocol;

#[cfg(feature = "client")]
pub mod client;

#[cfg(feature = "watch")]
pub mod watch;

#[cfg(feature = "http")]
pub mod http;

#[cfg(feature = "logging")]
pub mod logging;

#[cfg(feature = "openapi")]
pub mod openapi;

#[cfg(feature = "testing")]
pub mod testing;

#[cfg(feature = "server")]
pub use server::{builder::SkillsServerBuilder, handler::WithSkills, skills_server::SkillsServer};
#[cfg(feature = "load")]
pub mod load;

mod macros;

// The second ways issue 31 removed, as doc tests that must not compile.
#[cfg(all(doctest, feature = "server"))]
mod one_way;

#[doc(hidden)]
pub mod __private {
    #[cfg(feature = "server")]
    pub use crate::server::SkillsRequests;
    pub use ::core::convert::Into;
    pub use ::core::option::Option;
    pub use ::core::result::Result::{self, Err, Ok};
    pub use ::core::{assert, compile_error, env, include_bytes, option_env};
    #[cfg(feature = "server")]
    pub use ::rmcp;
    pub use ::skills_macros::embed_skills_impl;
    pub use ::skills_tables::{EmbedOptions, Skill, SkillFile, Skills};
    pub use ::std::borrow::Cow;
}
