//! Each job has one way (issue 31): the second ways, removed, stay removed.
//! Every block below is how the second way was written, and must not
//! compile; rustdoc runs them with `cargo test -p skills-runtime --doc
//! --all-features`. A block that compiles again fails that test. Stable
//! rustdoc does not compare the error codes; each block fails with its code
//! alone (checked by compiling them together in one file), and each
//! compiled on main before the second way was removed (`todo!()` stands for
//! an argument whose type moved).
//!
//! Build a server: [`SkillsServerBuilder::build`](crate::SkillsServerBuilder::build)
//! returns a `Result`; there is no `try_build`, and no `build` that panics.
//!
//! ```compile_fail,E0599
//! # use skills_runtime::{Skills, SkillsServer};
//! let server = SkillsServer::builder(Skills::empty()).try_build();
//! ```
//!
//! ```compile_fail,E0308
//! # use skills_runtime::{Skills, SkillsServer};
//! let server: SkillsServer = SkillsServer::builder(Skills::empty()).build();
//! ```
//!
//! Per-caller views: [`access`](crate::SkillsServerBuilder::access) only.
//!
//! ```compile_fail,E0599
//! # use skills_runtime::{Skills, SkillsServer};
//! let builder = SkillsServer::builder(Skills::empty()).visibility(|_, _| true);
//! ```
//!
//! Tell clients access changed: [`refresh_views`](crate::SkillsServer::refresh_views),
//! which takes the update of the request heads (`|_| {}` for none).
//!
//! ```compile_fail,E0061
//! # use skills_runtime::{Skills, SkillsServer};
//! let told = SkillsServer::new(Skills::empty()).refresh_views();
//! ```
//!
//! ```compile_fail,E0599
//! # use skills_runtime::{Skills, SkillsServer};
//! let told = SkillsServer::new(Skills::empty()).refresh_views_with(|_| {});
//! ```
//!
//! The server, its builder and `WithSkills` live at the crate's root only.
//!
//! ```compile_fail,E0603
//! use skills_runtime::server::SkillsServer;
//! ```
//!
//! ```compile_fail,E0432
//! use skills_runtime::server::SkillsServerBuilder;
//! ```
//!
//! ```compile_fail,E0432
//! use skills_runtime::server::WithSkills;
//! ```
//!
//! A skill's SEP-2640 entry: [`server::skill_entry`](crate::server::skill_entry),
//! not a method of the view; the frontmatter is the entry's.
//!
//! ```compile_fail,E0599
//! # use skills_runtime::{Skills, SkillsServer, server::Caller};
//! let server = SkillsServer::new(Skills::empty());
//! let view = server.view(&Caller::anonymous());
//! let entry = view.owned().next().and_then(|skill| view.entry(skill));
//! ```
//!
//! ```compile_fail,E0432
//! use skills_runtime::server::frontmatter;
//! ```
//!
//! ```compile_fail,E0432
//! use skills_runtime::server::Visibility;
//! ```
#![cfg_attr(
    all(feature = "watch", feature = "install"),
    doc = r#"
Watch a folder: [`SkillsServer::watch`](crate::SkillsServer::watch) with the
[`watch`](crate::watch) module's types, there only; there is no
`watch_in_debug` (watch under `#[cfg(debug_assertions)]`).

```compile_fail,E0432
use skills_runtime::Watch;
```

```compile_fail,E0432
use skills_runtime::server::{Watch, WatchHandle};
```

```compile_fail,E0432
use skills_runtime::server::DEBOUNCE;
```

```compile_fail,E0599
# use skills_runtime::{Skills, SkillsServer};
let builder = SkillsServer::builder(Skills::empty()).watch_in_debug(todo!());
```

```compile_fail,E0599
# use skills_runtime::{Skills, SkillsServer};
let handle = SkillsServer::new(Skills::empty()).watching();
```

The folders watched: [`WatchHandle::dirs`](crate::watch::WatchHandle::dirs)
(`dir()` named the first, or an empty path when there was none).

```compile_fail,E0599
# use skills_runtime::{Skills, SkillsServer};
# fn main() -> Result<(), Box<dyn std::error::Error>> {
let watch = SkillsServer::new(Skills::empty()).watch(todo!())?;
let dir = watch.dir();
# Ok(()) }
```

Install: [`install::plan`](crate::install::plan), then
[`Plan::apply`](crate::folder::Plan::apply); the scope is
[`load::vendor::Scope`](crate::load::vendor::Scope).

```compile_fail,E0425
# use skills_runtime::install;
let _ = install::apply;
```

```compile_fail,E0603
use skills_runtime::install::Scope;
```

The uninstall arguments can be named:

```
use skills_runtime::install::UninstallArgs;
```
"#
)]
