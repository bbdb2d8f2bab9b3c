//! What to watch (one folder, several roots, an agent's folders) and with
//! which rules.

use std::path::PathBuf;

use skills_core::vendor::{Agent, Environment};
use skills_core::{FrontEnd, Options};

/// What to watch, and how: the one argument of
/// [`SkillsServer::watch`](crate::SkillsServer::watch).
///
/// - [`Watch::folder`]: one folder, loaded whole or not at all, as
///   `embed_skills!` loads it; while it does not load, the last good set is
///   served.
/// - [`Watch::roots`]: several roots merged, highest precedence first, each
///   loaded skill by skill (as [`load_roots`](crate::load::load_roots) loads them): an invalid skill is
///   left out and reported ([`Reload::refused`](super::Reload::refused)) while the others are
///   served, and a skill whose name an earlier root already has is left out
///   with a `duplicate-name` warning naming both. Roots that do not exist
///   serve nothing and are watched for, so a folder created later is served
///   as it appears; symbolic links right below a root (a skill linked from
///   a dotfiles repository) are followed, and watched too.
/// - [`Watch::agent`]: the folders an agent reads at user scope, as roots,
///   with the agent's rule profile.
///
/// The rules are [`options`](Self::options) when given; else the rules the
/// served set was embedded with (`embed_skills!`'s options, and problems'
/// hints say so), or [`Options::default`] for a set that was not embedded.
///
/// ```no_run
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use skills_runtime::load::Options;
/// use skills_runtime::load::vendor::{Agent, Environment};
/// use skills_runtime::watch::Watch;
/// use skills_runtime::{Skills, SkillsServer};
///
/// let server = SkillsServer::new(Skills::empty());
/// let one = server.watch(Watch::folder("skills"))?;
/// let merged = server.watch(Watch::roots(["team-skills", "my-skills"]).options(Options::claude_code()))?;
/// for refused in merged.last_reload().refused() {
///     eprintln!("left out {}: {}", refused.folder, refused.errors[0].message);
/// }
/// let agent = server.watch(Watch::agent(&Agent::CLAUDE_CODE, &Environment::from_process()))?;
/// # drop((one, agent)); Ok(()) }
/// ```
pub struct Watch {
    pub(super) source: Source,
    pub(super) options: Option<Options>,
    pub(super) front_end: Option<&'static (dyn FrontEnd + Sync)>,
}

impl Watch {
    /// One folder, loaded whole or not at all. Symbolic links in it are
    /// reported and never followed; a folder that is deleted is watched for
    /// again until it comes back.
    pub fn folder(dir: impl Into<PathBuf>) -> Self {
        Self {
            source: Source::Folder(dir.into()),
            options: None,
            front_end: None,
        }
    }

    /// Several roots merged, highest precedence first, each loaded skill by
    /// skill (see the [type documentation](Self)).
    pub fn roots(roots: impl IntoIterator<Item = impl Into<PathBuf>>) -> Self {
        Self {
            source: Source::Roots(roots.into_iter().map(Into::into).collect()),
            options: None,
            front_end: None,
        }
    }

    /// The skills `agent` reads at user scope (`~/.claude/skills` for
    /// [`Agent::CLAUDE_CODE`], `$CODEX_HOME/skills`, `~/.agents/skills` and
    /// `/etc/codex/skills` for [`Agent::CODEX`], …, with the agent's
    /// overrides read from `env`), as [`roots`](Self::roots), with the
    /// agent's rule profile ([`Agent::options`]): its users' skills are not
    /// refused for what the agent itself accepts.
    pub fn agent(agent: &Agent, env: &Environment) -> Self {
        Self::roots(agent.user_roots(env)).options(agent.options())
    }

    /// The rules to load with (what `embed_skills!` applies with the same
    /// options).
    #[must_use]
    pub fn options(mut self, options: Options) -> Self {
        self.options = Some(options);
        self
    }

    /// Problems' hints spell options the way `front_end` writes them (a
    /// command line's flags, say) instead of as [`Options`] fields.
    #[must_use]
    pub fn front_end(mut self, front_end: &'static (dyn FrontEnd + Sync)) -> Self {
        self.front_end = Some(front_end);
        self
    }

    /// The rules and the way hints spell them: as given, else those of a set
    /// embedded with `embedded` options.
    pub(super) fn rules(
        &mut self,
        embedded: Option<Options>,
    ) -> (Options, &'static (dyn FrontEnd + Sync)) {
        match (self.options.take(), embedded) {
            (Some(options), _) => (options, self.front_end.unwrap_or(&skills_core::Library)),
            (None, Some(options)) => (options, self.front_end.unwrap_or(&skills_core::EmbedMacro)),
            (None, None) => (
                Options::default(),
                self.front_end.unwrap_or(&skills_core::Library),
            ),
        }
    }
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("roots", &self.source.roots())
            .field("lenient", &matches!(self.source, Source::Roots(_)))
            .finish_non_exhaustive()
    }
}

/// What a watch loads.
pub(super) enum Source {
    /// One folder, whole or not at all (the macro's load).
    Folder(PathBuf),
    /// Several roots, skill by skill, merged first-wins.
    Roots(Vec<PathBuf>),
}

impl Source {
    pub(super) fn roots(&self) -> &[PathBuf] {
        match self {
            Self::Folder(dir) => std::slice::from_ref(dir),
            Self::Roots(roots) => roots,
        }
    }
}
