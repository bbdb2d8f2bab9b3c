//! Serving skills through [`rmcp`](https://docs.rs/rmcp): SEP-2640 on both protocol eras, plus the
//! conventions clients that predate it read.
//!
//! [`SkillsServer`] answers every skills-related request from a [`Skills`]
//! set. Use it three ways:
//!
//! - as a complete server of its own (it implements `ServerHandler`);
//! - wrapped around your handler in one line,
//!   [`SkillsServer::wrap`] (a [`WithSkills`](crate::WithSkills)); or
//! - from your own `impl ServerHandler`, which delegates each skills
//!   request to it, as rmcp documents for its `SkillCatalog`
//!   ([`delegate_skills!`](crate::delegate_skills) writes those calls).
//!
//! [`serve`] runs any of them over stdio (or another transport) until the
//! client leaves, with errors that say what happened (`no client
//! connected`); over HTTP, `skills_runtime::http` (feature `http`) routes them.
//!
//! Every answer depends on the request context: the protocol era decides the
//! shape of the answer (`ttlMs`/`cacheScope` only on 2026-07-28), and an
//! [access policy](crate::SkillsServerBuilder::access) decides, per [`Caller`],
//! which skills are owned, locked (a teaser with an offer, on catalog
//! routes) or absent. Plain HTTP routes get the same caller's view of the
//! same snapshot through [`SkillsServer::view`]. The set served can be
//! swapped atomically at run time with [`SkillsServer::replace`]; a server
//! that [notifies changes](crate::SkillsServerBuilder::notify_changes) (every server
//! that watches a folder, feature `watch`) tells each client only about what
//! its own view shows: initialized 2025-11-25 sessions and 2026-07-28
//! `subscriptions/listen` streams whose view changed (a replace, or a grant
//! or revoke reported with [`SkillsServer::refresh_views`]), and the
//! subscribers of a file whose bytes changed.
//!
//! [`Skills`]: crate::Skills

// How a request is answered, step by step: the server holds one `Snapshot`
// (the set and everything derived from it); each request takes a `View` of
// it for its `Caller` (`access`: what the policy gives this caller; the
// fingerprint its cursors bind to; the era's cache hints), whose owned set
// is shared by every caller owning the same skills (`visible`); the module
// of its family (`skills`, `resources`, `directory`, `completion`, `tool`,
// `prompts`)
// reads the view, pages through `cursor::page`, and converts to rmcp's model
// in `wire`. `info` answers what the server says of itself; `skills_view`
// is the same view for plain HTTP routes; `sessions` tells each session and
// listen stream when its view changes, `changes` tells subscribers when a
// file's bytes change (`subscriptions` is how clients ask); `handler` plugs
// all of it into `ServerHandler`. The crate's `watch` module reloads a folder
// from outside, through `replace`.

mod access;
pub(crate) mod builder;
mod changes;
mod compat;
mod completion;
mod cursor;
mod directory;
pub(crate) mod handler;
mod info;
mod instructions;
mod malformed;
mod notices;
mod prompts;
mod requests;
mod resources;
mod serve;
mod sessions;
mod settings;
mod skills;
pub(crate) mod skills_server;
mod skills_view;
mod snapshot;
mod subscriptions;
mod tool;
mod view;
mod visible;
mod wire;

pub use access::{Access, AccessPolicy, Caller, Offer};
#[doc(hidden)]
pub use cursor::fuzzing as cursor_fuzzing;
pub use instructions::DEFAULT_BUDGET as INSTRUCTIONS_BUDGET;
#[doc(hidden)]
pub use requests::SkillsRequests;
pub use serve::{ServeError, serve};
pub use sessions::ViewChanges;
// `SkillsServer`, its builder and `WithSkills` have one public path, the
// crate's root.
pub(crate) use skills_server::SkillsServer;
#[cfg(feature = "watch")]
pub(crate) use skills_server::WeakServer;
pub use skills_view::SkillsView;
#[cfg(feature = "http")]
pub(crate) use skills_view::SnapshotKey;
pub use wire::skill_entry;
