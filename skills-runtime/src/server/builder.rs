//! Configuring a [`SkillsServer`]: every switch, its default, and `build()`.

use std::borrow::Cow;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, RwLock};

use rmcp::RoleServer;
use rmcp::model::Implementation;
use rmcp::service::RequestContext;

use super::changes::Listeners;
use super::snapshot::Snapshot;
use super::view::Visibility;
use super::{Shared, SkillsServer, instructions, tool};
use crate::{Skill, Skills};

/// What a server was configured with; fixed once built.
pub(super) struct Settings {
    pub(super) server_info: Option<Implementation>,
    pub(super) instructions: Option<String>,
    pub(super) instructions_budget: usize,
    pub(super) list_supporting_files: bool,
    pub(super) fastmcp: bool,
    pub(super) legacy_index: bool,
    pub(super) tool: Option<Cow<'static, str>>,
    pub(super) skills_page_size: usize,
    pub(super) resources_page_size: usize,
    pub(super) ttl_ms: u64,
    pub(super) blob_cache_bytes: usize,
    pub(super) visibility: Option<Box<Visibility>>,
    pub(super) notify_changes: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            server_info: None,
            instructions: None,
            instructions_budget: instructions::DEFAULT_BUDGET,
            list_supporting_files: false,
            fastmcp: true,
            legacy_index: false,
            tool: Some(Cow::Borrowed(tool::DEFAULT_NAME)),
            skills_page_size: 100,
            resources_page_size: 1000,
            ttl_ms: 300_000,
            blob_cache_bytes: 64 << 20,
            visibility: None,
            notify_changes: false,
        }
    }
}

/// Configures a [`SkillsServer`]. Every switch has a default that suits a
/// server meant for today's clients.
pub struct SkillsServerBuilder {
    skills: Skills,
    settings: Settings,
    /// The folder to serve instead of `skills` in debug builds.
    #[cfg(feature = "watch")]
    watch_in_debug: Option<std::path::PathBuf>,
}

impl SkillsServer {
    /// Starts configuring a server for `skills`.
    pub fn builder(skills: Skills) -> SkillsServerBuilder {
        SkillsServerBuilder {
            skills,
            settings: Settings::default(),
            #[cfg(feature = "watch")]
            watch_in_debug: None,
        }
    }
}

impl SkillsServerBuilder {
    /// The name and version the server reports. Defaults to the crate that
    /// embedded the skills.
    pub fn server_info(mut self, info: Implementation) -> Self {
        self.settings.server_info = Some(info);
        self
    }

    /// Your own instructions; the skills block follows them.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.settings.instructions = Some(instructions.into());
        self
    }

    /// Characters the instructions may take (default 2,048, where Claude Code cuts).
    pub fn instructions_budget(mut self, characters: usize) -> Self {
        self.settings.instructions_budget = characters;
        self
    }

    /// List every supporting file in `resources/list`, not only each
    /// `SKILL.md` (default: off; SEP-2640 hosts find files through the entry).
    pub fn list_supporting_files(mut self, on: bool) -> Self {
        self.settings.list_supporting_files = on;
        self
    }

    /// Serve FastMCP's `skill://<path>/_manifest` and `{path*}` templates with
    /// path completion (default: on), for FastMCP, SkillsDotNet and older clients.
    pub fn fastmcp_compatible(mut self, on: bool) -> Self {
        self.settings.fastmcp = on;
        self
    }

    /// Serve Figma's `skill://index.json` (default: off; the final SEP-2640
    /// dropped it, but clients written for Figma's server read it).
    pub fn legacy_index(mut self, on: bool) -> Self {
        self.settings.legacy_index = on;
        self
    }

    /// Name of the fallback tool that reads a skill file by URI (default
    /// `read_skill`); `None` to offer no tool.
    pub fn tool(mut self, name: Option<&'static str>) -> Self {
        self.settings.tool = name.map(Cow::Borrowed);
        self
    }

    /// Skills per `skills/list` page (default 100; at least 1).
    pub fn skills_page_size(mut self, size: usize) -> Self {
        self.settings.skills_page_size = size.max(1);
        self
    }

    /// Resources per `resources/list` and directory page (default 1,000; at least 1).
    pub fn resources_page_size(mut self, size: usize) -> Self {
        self.settings.resources_page_size = size.max(1);
        self
    }

    /// How long 2026-07-28 clients may cache answers (`ttlMs`, default 5 minutes).
    pub fn ttl(mut self, ttl: std::time::Duration) -> Self {
        self.settings.ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        self
    }

    /// How many bytes of base64-encoded binary files to keep after their
    /// first read (default 64 MiB; 0 encodes on every read). Encoding a
    /// 100 KB font costs more than copying it already encoded.
    pub fn blob_cache_bytes(mut self, bytes: usize) -> Self {
        self.settings.blob_cache_bytes = bytes;
        self
    }

    /// Decides per request which skills the caller may see. Hidden skills
    /// are not listed and read as unknown (`-32602`); answers become
    /// `cacheScope: private`; instructions then name no skill.
    pub fn visibility(
        mut self,
        rule: impl Fn(&Skill, &RequestContext<RoleServer>) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.settings.visibility = Some(Box::new(rule));
        self
    }

    /// Tell clients when [`replace`](SkillsServer::replace) changes what
    /// they see (default: off; [`SkillsServer::watch`] turns it on): the
    /// server advertises `resources.listChanged` and `resources.subscribe`,
    /// accepts `resources/subscribe` (2025-11-25) and `subscriptions/listen`
    /// (2026-07-28), and sends `notifications/resources/list_changed` and
    /// `notifications/resources/updated` through them. Turn it on for a
    /// server whose set you swap yourself.
    ///
    /// Stateless HTTP cannot push: such clients learn of a change when they
    /// list again, which 2026-07-28 clients do once an answer's `ttlMs`
    /// ([`ttl`](Self::ttl)) has passed.
    pub fn notify_changes(mut self, on: bool) -> Self {
        self.settings.notify_changes = on;
        self
    }

    /// In debug builds, serve the folder `dir` instead of the embedded set
    /// and reload it on every change ([`SkillsServer::watch`], with the
    /// rules the set was embedded with); in release builds, serve the
    /// embedded set and watch nothing. The one line that lets an author edit
    /// skills without rebuilding, while the binary they ship stays
    /// self-contained:
    ///
    /// ```no_run
    /// use skills_runtime::{Skills, SkillsServer, embed_skills};
    ///
    /// static SKILLS: Skills = embed_skills!("skills");
    ///
    /// let server = SkillsServer::builder(SKILLS.clone())
    ///     .watch_in_debug(concat!(env!("CARGO_MANIFEST_DIR"), "/skills"))
    ///     .build();
    /// ```
    ///
    /// Pass the same folder the macro reads; `concat!(env!(…))` keeps the
    /// path out of release binaries' tables. "Debug" means what
    /// `cfg!(debug_assertions)` says for skills-runtime, which follows your
    /// profile unless you override `debug-assertions` per package. The
    /// watch lives as long as the server; [`SkillsServer::watching`] gives
    /// its handle. While the folder does not load, the embedded set (then
    /// the last good one) is served and the problems are logged.
    #[cfg(feature = "watch")]
    pub fn watch_in_debug(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        if cfg!(debug_assertions) {
            self.watch_in_debug = Some(dir.into());
        }
        self
    }

    /// The configured server.
    pub fn build(self) -> SkillsServer {
        let server_info = match (&self.settings.server_info, self.skills.package()) {
            (Some(info), _) => info.clone(),
            (None, Some((name, version))) => Implementation::new(name, version),
            (None, None) => Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        };
        #[cfg(feature = "watch")]
        let options = super::watch::embedded_options(&self.skills);
        let snapshot = Snapshot::new(self.skills, self.settings.blob_cache_bytes);
        let server = SkillsServer {
            shared: Arc::new(Shared {
                server_info,
                live: AtomicBool::new(self.settings.notify_changes),
                settings: self.settings,
                current: RwLock::new(Arc::new(snapshot)),
                listeners: Listeners::default(),
                #[cfg(feature = "watch")]
                watch: std::sync::OnceLock::new(),
            }),
        };
        #[cfg(feature = "watch")]
        if let Some(dir) = self.watch_in_debug {
            server.keep_watching(dir, options);
        }
        server
    }
}
