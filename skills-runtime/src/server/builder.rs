//! Configuring a [`SkillsServer`]: every switch, its default, and `build()`.

use std::borrow::Cow;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, RwLock};

use rmcp::model::Implementation;

use super::access::{Access, Caller, Rule};
use super::changes::Listeners;
use super::sessions::Sessions;
use super::settings::Settings;
use super::skills_server::{Shared, SkillsServer};
use super::snapshot::Snapshot;
use crate::{Report, Skill, Skills};

/// Configures a [`SkillsServer`]. Every switch has a default that suits a
/// server meant for today's clients.
pub struct SkillsServerBuilder {
    skills: Skills,
    settings: Settings,
}

impl SkillsServer {
    /// Starts configuring a server for `skills`.
    pub fn builder(skills: Skills) -> SkillsServerBuilder {
        SkillsServerBuilder {
            skills,
            settings: Settings::default(),
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

    /// Serve one MCP prompt per skill (default: off), for hosts that show
    /// prompts to the user but never read resources on their own (Claude
    /// Code and Claude Desktop list them as slash commands; VS Code and
    /// Cursor show them too). The server then declares the `prompts`
    /// capability (with `listChanged` when it [notifies
    /// changes](Self::notify_changes)) and answers:
    ///
    /// - `prompts/list`: one prompt per skill the caller owns, named by
    ///   the skill's frontmatter `name`, described by its `description`,
    ///   with no arguments; paginated like `skills/list`
    ///   ([`skills_page_size`](Self::skills_page_size)).
    /// - `prompts/get`: two user messages, the skill's `SKILL.md` text as
    ///   it is, then where the skill's other files are (their `skill://`
    ///   URIs, and the fallback [tool](Self::tool) to read them with when
    ///   one is offered); a skill with no other file gets the first alone.
    ///   A name the caller does not own (locked, absent) is refused
    ///   exactly like a name no skill has: `-32602`, the name in `data`.
    ///
    /// Per caller like every other answer: under an [access
    /// policy](Self::access) a caller lists and gets only the skills it
    /// owns, and a server that notifies changes sends
    /// `notifications/prompts/list_changed` (beside the resources one) to
    /// each session whose view a [`replace`](SkillsServer::replace), a
    /// reload or a [`refresh_views`](SkillsServer::refresh_views) changed,
    /// and to each 2026-07-28 listen stream that asked for
    /// `promptsListChanged`.
    ///
    /// [`SkillsServer`] and [`WithSkills`](crate::WithSkills) answer both
    /// methods (the wrapper lists our prompts before the inner handler's);
    /// a handler written with [`delegate_skills!`](crate::delegate_skills)
    /// gets them with `delegate_skills!(skills, prompts)`.
    ///
    /// ```
    /// # use skills_runtime::server::Caller;
    /// # use skills_runtime::{Skills, SkillsServer};
    /// # static SKILLS: Skills = Skills::empty();
    /// let server = SkillsServer::builder(SKILLS.clone()).prompts(true).build()?;
    /// assert!(server.config(&Caller::anonymous()).capabilities.prompts.is_some());
    /// # Ok::<(), skills_runtime::Report>(())
    /// ```
    pub fn prompts(mut self, on: bool) -> Self {
        self.settings.prompts = on;
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
    /// first read (default 0: encode on every read, as rmcp's
    /// `SkillCatalog` does). Every cached file is held a second time, 4/3
    /// its size, on top of its bytes in the binary. Reads encode with a
    /// SIMD encoder (AVX2/SSSE3 on x86-64, NEON on aarch64), which costs
    /// about what copying a cached copy does, so the cache saves CPU only
    /// where that encoder falls back to scalar code.
    pub fn blob_cache_bytes(mut self, bytes: usize) -> Self {
        self.settings.blob_cache_bytes = bytes;
        self
    }

    /// Decides, per skill and per caller, what the caller gets:
    /// [`Access::Owned`] (listed and read), [`Access::Locked`] (only a
    /// teaser with the offer, on catalog routes) or [`Access::Absent`].
    ///
    /// On every MCP path a locked or absent skill is answered exactly as a
    /// skill that does not exist: never listed, never a resource, the same
    /// `-32602` after replacing the name or URI. Answers become
    /// `cacheScope: private`, and cursors, caches and instructions follow
    /// what the caller owns (a change to a skill the caller cannot see
    /// changes nothing it gets).
    ///
    /// The policy runs for every skill of a listing, so keep it a lookup:
    /// resolve the caller once per HTTP request in your own tower layer
    /// (token → learner → owned set) and put the result in the request's
    /// extensions, where [`Caller::extension`] finds it:
    ///
    /// ```
    /// use std::collections::HashSet;
    /// use std::sync::Arc;
    /// use skills_runtime::server::{Access, Offer};
    /// use skills_runtime::{Skills, SkillsServer};
    /// # static SKILLS: Skills = Skills::empty();
    ///
    /// /// What the auth layer put in the request extensions.
    /// #[derive(Clone)]
    /// struct Entitlements(Arc<HashSet<String>>);
    ///
    /// let offer = Offer::new(serde_json::json!({"price": "EUR 49", "buy": "https://example.com/buy"}));
    /// let server = SkillsServer::builder(SKILLS.clone())
    ///     .access(move |skill, caller| {
    ///         let owned = caller.extension::<Entitlements>();
    ///         if !skill.is_gated() || owned.is_some_and(|owned| owned.0.contains(skill.name())) {
    ///             Access::Owned
    ///         } else {
    ///             Access::Locked(offer.clone())
    ///         }
    ///     })
    ///     .build()?;
    /// # let _ = server;
    /// # Ok::<(), skills_runtime::Report>(())
    /// ```
    ///
    /// A skill nested in one the caller owns is readable through its parent
    /// (a skill's folder holds its nested skills' files), so it gets no
    /// teaser. Only skills declared gated may be locked: a policy answering
    /// `Locked` for another skill has it served as absent, and the server
    /// logs that once.
    pub fn access(
        mut self,
        policy: impl Fn(&Skill, &Caller<'_>) -> Access + Send + Sync + 'static,
    ) -> Self {
        self.settings.rule = Rule::Policy(Box::new(policy));
        self
    }

    /// What the `SKILL.md` resource of the skill named `name` says in
    /// `resources/list`, and its line in the instructions: when to load it
    /// ("Load BEFORE the first search/execute call about orders"). Defaults
    /// to the frontmatter description. Hosts that predate SEP-2640 (Claude
    /// Code reading resources shaped like Figma's) decide from this text
    /// alone whether to read the skill.
    pub fn load_hint(mut self, name: impl Into<String>, description: impl Into<String>) -> Self {
        self.settings
            .load_hints
            .insert(name.into(), description.into());
        self
    }

    /// Tell clients when what they see changes (default: off;
    /// `SkillsServer::watch`, feature `watch`, turns it on): the server advertises
    /// `resources.listChanged` and `resources.subscribe`, accepts
    /// `resources/subscribe` (2025-11-25) and `subscriptions/listen`
    /// (2026-07-28), and sends `notifications/resources/list_changed` and
    /// `notifications/resources/updated`, each only about what the
    /// receiver's own view shows. A [`replace`](SkillsServer::replace) or a
    /// [`refresh_views`](SkillsServer::refresh_views) (after a grant or a
    /// revoke under an [access policy](Self::access)) tells each initialized
    /// session and each listen stream whose view changed. Turn it on for a
    /// server whose set or access you change yourself.
    ///
    /// Stateless HTTP cannot push: such clients learn of a change when they
    /// list again, which 2026-07-28 clients do once an answer's `ttlMs`
    /// ([`ttl`](Self::ttl)) has passed.
    pub fn notify_changes(mut self, on: bool) -> Self {
        self.settings.notify_changes = on;
        self
    }

    /// The configured server, once [`check_servable`](crate::check_servable)
    /// accepts the set: every file declared `generated` was added, and no
    /// gated skill sits inside one that is not. A set from `embed_skills!`
    /// without `generated` always is; sets built at run time (a folder
    /// loaded, files added at start-up, packs merged) may not be, and the
    /// report says why.
    ///
    /// ```
    /// # use skills_runtime::{Skills, SkillsServer};
    /// # static SKILLS: Skills = Skills::empty();
    /// let server = SkillsServer::builder(SKILLS.clone()).prompts(true).build()?;
    /// # let _ = server;
    /// # Ok::<(), skills_runtime::Report>(())
    /// ```
    pub fn build(self) -> Result<SkillsServer, Report> {
        crate::check_servable(&self.skills)?;
        let server_info = match (&self.settings.server_info, self.skills.package()) {
            (Some(info), _) => info.clone(),
            (None, Some((name, version))) => Implementation::new(name, version),
            (None, None) => Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        };
        let snapshot = Snapshot::new(self.skills, self.settings.blob_cache_bytes);
        Ok(SkillsServer {
            shared: Arc::new(Shared {
                server_info,
                live: AtomicBool::new(self.settings.notify_changes),
                settings: self.settings,
                current: RwLock::new(Arc::new(snapshot)),
                listeners: Listeners::default(),
                sessions: Sessions::default(),
            }),
        })
    }
}
