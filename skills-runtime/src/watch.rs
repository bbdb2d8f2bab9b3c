//! Serving a folder live (feature `watch`): [`SkillsServer::watch`] loads
//! what a [`Watch`] names and reloads it whenever something in it changes,
//! with the rules and messages of `embed_skills!`, telling each client what
//! changed in its own view.
//!
//! Use it while you edit skills (the server serves the folder you edit, no
//! rebuild), to serve a folder written at run time (`skills serve`), or to
//! serve the skills users keep in their agents' folders ([`Watch::agent`]).
//! A binary that ships embedded skills and serves their folder only in
//! debug builds watches under `#[cfg(debug_assertions)]`:
//!
//! ```no_run
//! use skills_runtime::watch::Watch;
//! use skills_runtime::{Skills, SkillsServer, embed_skills};
//!
//! static SKILLS: Skills = embed_skills!("skills");
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let server = SkillsServer::new(SKILLS.clone());
//! // Debug builds serve the folder itself and reload it on every change;
//! // release builds serve the embedded tables and name no path of yours.
//! #[cfg(debug_assertions)]
//! let _watch = server.watch(Watch::folder(concat!(env!("CARGO_MANIFEST_DIR"), "/skills")))?;
//! # Ok(()) }
//! ```
//!
//! The journey of a change: the OS reports it (`notify`), the debouncer
//! waits until the folder has been quiet for [`DEBOUNCE`] (an editor's save
//! or a `git checkout` is many events), the watch thread folds every batch
//! already queued into one reload, the folder is read again with the
//! author's options, and [`SkillsServer::replace`] swaps the set and tells
//! the clients whose view changed. A folder that does not load leaves the
//! last good set served; the report goes to `tracing` and to
//! [`WatchHandle::last_report`], and the next good save recovers.
//!
//! Reads stay inside the folder: the loader refuses symbolic links (reported,
//! never followed), opens each file without following a link swapped in
//! after its walk nor blocking on a FIFO, and reads only the very file the
//! walk saw ([`load::open`](crate::load::open)); the watcher does not follow
//! links either, and the loaded bytes are held in memory, so what a client
//! reads is what was checked.
//!
//! An agent's folders ([`Watch::agent`], [`Watch::roots`]) are loaded
//! leniently instead: each root skill by skill, merged first-wins
//! ([`load::load_roots`](crate::load::load_roots)), so one broken skill is
//! refused and reported while the others are served. Symbolic links right
//! below such a root (a skill linked from a dotfiles repository) are
//! followed, and watched too.
//!
//! Every set goes through [`SkillsServer::replace`], so a set the server's
//! own rules refuse (a gated skill inside one that is not, a file declared
//! generated that was not added) keeps the last good one served, with the
//! report in [`WatchHandle::last_report`].
//!
//! [`SkillsServer::watch`]: crate::SkillsServer::watch
//! [`SkillsServer::replace`]: crate::SkillsServer::replace

// What to watch (`source`) goes to `reload`, which starts the OS watches
// (`os`) and the thread that reloads, and hands back what the owner gets
// (`handle`).
mod handle;
mod os;
mod reload;
mod source;

pub use handle::{Reload, Reloads, WatchError, WatchHandle};
pub use reload::DEBOUNCE;
pub use source::Watch;
