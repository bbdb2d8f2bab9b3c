//! The folders each agent reads skills from and installs them to, once: for
//! a program that serves the skills a user already keeps, and for an
//! installer that puts skills where an agent finds them.
//!
//! For each agent: the folders it reads at user scope (under `HOME`, and
//! machine-wide ones) and at project scope (relative to the repository's
//! root), highest precedence first so that merging them with "the first
//! wins on a name" shows what the agent itself would; the one folder an
//! installer writes to at each scope; the agents' own overrides
//! (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `XDG_CONFIG_HOME` where the agent
//! uses it); and the rule profile its skills are written for. `HOME` and the
//! variables come from an [`Environment`], so tests never touch a real home.
//!
//! ```
//! use std::path::{Path, PathBuf};
//! use skills_core::vendor::{Agent, Environment};
//!
//! let env = Environment::new("/home/ada").var("CODEX_HOME", "/opt/codex");
//! assert_eq!(
//!     Agent::CLAUDE_CODE.user_dir(&env),
//!     Some(PathBuf::from("/home/ada/.claude/skills"))
//! );
//! let codex: Vec<PathBuf> = Agent::CODEX.user_roots(&env);
//! assert_eq!(codex[0], Path::new("/opt/codex/skills"));
//! assert!(codex.contains(&PathBuf::from("/etc/codex/skills")));
//! assert_eq!(Agent::by_id("gemini").unwrap().title(), "Gemini CLI");
//! ```
//!
//! # Sources, and where they disagree
//!
//! Checked against `skill-embed` 0.1.0 (crates.io; its table follows
//! `gh skill install`), FastMCP 4.2's vendor providers and SkillsDotNet's
//! `With…Skills()` (the same folders as FastMCP), and the agents' own
//! documentation. Where they differ:
//!
//! - **Codex**: `skill-embed` writes `~/.codex/skills` and ignores
//!   `CODEX_HOME`; Codex itself reads `$CODEX_HOME/skills` (default
//!   `~/.codex/skills`), so we honour it. FastMCP and SkillsDotNet put
//!   `/etc/codex/skills` *before* the user folder ("system first"); Codex's
//!   documentation lets user skills override admin ones, so the machine-wide
//!   folder comes last here. Codex's current documentation also reads
//!   `~/.agents/skills` (user) and `.agents/skills` from the working
//!   directory up to the repository root.
//! - **Claude Code**: `skill-embed` honours `CLAUDE_CONFIG_DIR` (first entry
//!   of a `:`-separated list, as `gh` does); FastMCP and SkillsDotNet do not.
//!   We honour it, taking its first entry as `skill-embed` does.
//! - **Goose**: FastMCP and SkillsDotNet read `~/.config/agents/skills` only;
//!   Goose's documentation reads `~/.config/goose/skills`,
//!   `~/.config/agents/skills` and `~/.claude/skills`, later ones taking
//!   priority in its list (so here, highest first, the reverse order). Its
//!   configuration folder follows `XDG_CONFIG_HOME`.
//! - **OpenCode**: FastMCP hard-codes `~/.config/opencode/skills`; OpenCode
//!   resolves `~/.config` through `XDG_CONFIG_HOME`, so we do. It also reads
//!   `~/.claude/skills` and `~/.agents/skills`.
//! - **Antigravity**: `gh`/`skill-embed` write `~/.gemini/antigravity/skills`;
//!   newer Antigravity documentation names `~/.gemini/config/skills` for
//!   global skills. Both are read; installs go to `gh`'s.
//! - **Project folders**: `gh`/`skill-embed` install into `.agents/skills`
//!   for every agent but Claude Code (`.claude/skills`). The agents' own
//!   folders (`.cursor/skills`, `.github/skills`, `.gemini/skills`,
//!   `.opencode/skills`, `.goose/skills`) are read too. OpenCode has no `gh`
//!   entry; installs go to its own `.opencode/skills`.
//! - Not honoured, for want of a primary source: a `COPILOT_HOME` or
//!   `GEMINI_CLI_HOME` override, Windows-specific configuration folders.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// `HOME` and the environment variables the agents' folders depend on: the
/// process's own, or given (tests).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    home: Option<PathBuf>,
    vars: BTreeMap<String, OsString>,
}

/// The variables any agent's folders depend on.
const VARIABLES: [&str; 3] = ["CLAUDE_CONFIG_DIR", "CODEX_HOME", "XDG_CONFIG_HOME"];

impl Environment {
    /// This process's home folder and variables.
    pub fn from_process() -> Self {
        let mut env = Self {
            home: std::env::home_dir(),
            vars: BTreeMap::new(),
        };
        for name in VARIABLES {
            if let Some(value) = std::env::var_os(name) {
                env.vars.insert(name.to_owned(), value);
            }
        }
        env
    }

    /// A home folder and no variables.
    pub fn new(home: impl Into<PathBuf>) -> Self {
        Self {
            home: Some(home.into()),
            vars: BTreeMap::new(),
        }
    }

    /// The same environment with `name` set to `value`.
    pub fn var(mut self, name: &str, value: impl Into<OsString>) -> Self {
        self.vars.insert(name.to_owned(), value.into());
        self
    }

    /// The home folder, when known.
    pub fn home(&self) -> Option<&Path> {
        self.home.as_deref()
    }

    /// A variable's value; an empty one counts as unset.
    pub fn get(&self, name: &str) -> Option<&OsStr> {
        self.vars
            .get(name)
            .map(OsString::as_os_str)
            .filter(|value| !value.is_empty())
    }

    /// `$XDG_CONFIG_HOME` when set to an absolute path (the specification
    /// ignores relative ones), else `~/.config`.
    fn config_home(&self) -> Option<PathBuf> {
        match self.get("XDG_CONFIG_HOME").map(Path::new) {
            Some(path) if path.is_absolute() => Some(path.to_path_buf()),
            _ => Some(self.home()?.join(".config")),
        }
    }
}

/// Whether a folder is read for the user everywhere, or for one project.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// The user's (or the machine's) folders, used in every project.
    User,
    /// A repository's folders, relative to its root.
    Project,
}

/// What a folder is to the agent reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FolderKind {
    /// The agent's own folder (`~/.claude/skills` for Claude Code).
    Own,
    /// The cross-agent `.agents/skills` convention.
    Shared,
    /// Another agent's folder it also reads (`.claude/skills` for Copilot).
    Compatible,
    /// A machine-wide folder (`/etc/codex/skills`).
    System,
}

/// One folder an agent reads, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Folder {
    /// Where it is.
    pub path: PathBuf,
    /// User or project scope.
    pub scope: Scope,
    /// What it is to the agent.
    pub kind: FolderKind,
}

/// Where a user-scope folder is.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// Under the home folder.
    Home(&'static str),
    /// Under `$XDG_CONFIG_HOME`, else `~/.config`.
    Config(&'static str),
    /// Under the (first entry of the) variable's value, else under home.
    EnvOrHome {
        var: &'static str,
        under_var: &'static str,
        under_home: &'static str,
    },
    /// An absolute path.
    Absolute(&'static str),
}

impl Place {
    fn resolve(self, env: &Environment) -> Option<PathBuf> {
        let join = |base: PathBuf, rel: &str| crate::relpath::on_disk(&base, rel);
        match self {
            Self::Home(rel) => Some(join(env.home()?.to_path_buf(), rel)),
            Self::Config(rel) => Some(join(env.config_home()?, rel)),
            Self::EnvOrHome {
                var,
                under_var,
                under_home,
            } => match env.get(var).and_then(first_entry) {
                Some(base) => Some(join(base, under_var)),
                None => Some(join(env.home()?.to_path_buf(), under_home)),
            },
            Self::Absolute(path) => Some(PathBuf::from(path)),
        }
    }
}

/// The first entry of a list variable (`:`-separated; `;` on Windows).
fn first_entry(value: &OsStr) -> Option<PathBuf> {
    let separator = if cfg!(windows) { ';' } else { ':' };
    match value.to_str() {
        Some(text) => {
            let first = text.trim().split(separator).next().unwrap_or_default();
            (!first.is_empty()).then(|| PathBuf::from(first))
        }
        None => Some(PathBuf::from(value)),
    }
}

/// A user-scope folder an agent reads.
#[derive(Debug, Clone, Copy)]
struct UserRoot {
    place: Place,
    kind: FolderKind,
}

/// A project-scope folder an agent reads, relative to the repository root.
#[derive(Debug, Clone, Copy)]
struct ProjectRoot {
    rel: &'static str,
    kind: FolderKind,
}

/// The rule profile an agent's skills are written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Profile {
    /// Claude Code's extra keys and list-valued `allowed-tools`.
    ClaudeCode,
    /// Any key (the agent ignores the ones it does not know).
    AnyFields,
}

/// An agent that reads skills from known folders.
#[derive(Debug, Clone, Copy)]
pub struct Agent {
    id: &'static str,
    title: &'static str,
    /// Its configuration folder, whose presence means it is installed.
    config: Place,
    user: &'static [UserRoot],
    project: &'static [ProjectRoot],
    /// Index into `user` of the folder an installer writes to.
    user_install: usize,
    /// Index into `project` of the folder an installer writes to.
    project_install: usize,
    #[cfg_attr(not(feature = "load"), allow(dead_code))]
    profile: Profile,
}

/// Agents are the same when their [`id`](Agent::id)s are.
impl PartialEq for Agent {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Agent {}

const fn own(place: Place) -> UserRoot {
    UserRoot {
        place,
        kind: FolderKind::Own,
    }
}

const fn user(place: Place, kind: FolderKind) -> UserRoot {
    UserRoot { place, kind }
}

const fn project(rel: &'static str, kind: FolderKind) -> ProjectRoot {
    ProjectRoot { rel, kind }
}

const CLAUDE_USER: Place = Place::EnvOrHome {
    var: "CLAUDE_CONFIG_DIR",
    under_var: "skills",
    under_home: ".claude/skills",
};
const HOME_AGENTS: Place = Place::Home(".agents/skills");
const SHARED: FolderKind = FolderKind::Shared;
const COMPAT: FolderKind = FolderKind::Compatible;
const OWN: FolderKind = FolderKind::Own;

impl Agent {
    /// Claude Code: `$CLAUDE_CONFIG_DIR/skills`, else `~/.claude/skills`;
    /// `.claude/skills` in a project.
    pub const CLAUDE_CODE: Agent = Agent {
        id: "claude-code",
        title: "Claude Code",
        config: Place::EnvOrHome {
            var: "CLAUDE_CONFIG_DIR",
            under_var: "",
            under_home: ".claude",
        },
        user: &[own(CLAUDE_USER)],
        project: &[project(".claude/skills", OWN)],
        user_install: 0,
        project_install: 0,
        profile: Profile::ClaudeCode,
    };

    /// Cursor: `~/.cursor/skills`; it also reads the shared, Claude and Codex
    /// folders.
    pub const CURSOR: Agent = Agent {
        id: "cursor",
        title: "Cursor",
        config: Place::Home(".cursor"),
        user: &[
            own(Place::Home(".cursor/skills")),
            user(HOME_AGENTS, SHARED),
            user(CLAUDE_USER, COMPAT),
            user(Place::Home(".codex/skills"), COMPAT),
        ],
        project: &[
            project(".agents/skills", SHARED),
            project(".cursor/skills", OWN),
            project(".claude/skills", COMPAT),
            project(".codex/skills", COMPAT),
        ],
        user_install: 0,
        project_install: 0,
        profile: Profile::ClaudeCode,
    };

    /// GitHub Copilot (CLI, cloud agent, VS Code): `~/.copilot/skills`;
    /// `.github/skills` in a project; the shared and Claude folders too.
    pub const GITHUB_COPILOT: Agent = Agent {
        id: "github-copilot",
        title: "GitHub Copilot",
        config: Place::Home(".copilot"),
        user: &[
            own(Place::Home(".copilot/skills")),
            user(HOME_AGENTS, SHARED),
            user(CLAUDE_USER, COMPAT),
        ],
        project: &[
            project(".agents/skills", SHARED),
            project(".github/skills", OWN),
            project(".claude/skills", COMPAT),
        ],
        user_install: 0,
        project_install: 0,
        profile: Profile::ClaudeCode,
    };

    /// Codex: `$CODEX_HOME/skills` (else `~/.codex/skills`), `~/.agents/skills`,
    /// then the machine-wide `/etc/codex/skills`.
    pub const CODEX: Agent = Agent {
        id: "codex",
        title: "Codex",
        config: Place::EnvOrHome {
            var: "CODEX_HOME",
            under_var: "",
            under_home: ".codex",
        },
        user: &[
            own(Place::EnvOrHome {
                var: "CODEX_HOME",
                under_var: "skills",
                under_home: ".codex/skills",
            }),
            user(HOME_AGENTS, SHARED),
            user(Place::Absolute("/etc/codex/skills"), FolderKind::System),
        ],
        project: &[
            project(".agents/skills", SHARED),
            project(".codex/skills", OWN),
        ],
        user_install: 0,
        project_install: 0,
        profile: Profile::AnyFields,
    };

    /// Gemini CLI: `~/.gemini/skills` and its `~/.agents/skills` alias (which
    /// takes precedence).
    pub const GEMINI: Agent = Agent {
        id: "gemini",
        title: "Gemini CLI",
        config: Place::Home(".gemini"),
        user: &[
            user(HOME_AGENTS, SHARED),
            own(Place::Home(".gemini/skills")),
        ],
        project: &[
            project(".agents/skills", SHARED),
            project(".gemini/skills", OWN),
        ],
        user_install: 1,
        project_install: 0,
        profile: Profile::AnyFields,
    };

    /// Antigravity: `~/.gemini/antigravity/skills` (and
    /// `~/.gemini/config/skills`).
    pub const ANTIGRAVITY: Agent = Agent {
        id: "antigravity",
        title: "Antigravity",
        config: Place::Home(".gemini/antigravity"),
        user: &[
            own(Place::Home(".gemini/antigravity/skills")),
            own(Place::Home(".gemini/config/skills")),
        ],
        project: &[
            project(".agents/skills", SHARED),
            project(".agent/skills", OWN),
        ],
        user_install: 0,
        project_install: 0,
        profile: Profile::AnyFields,
    };

    /// OpenCode: `$XDG_CONFIG_HOME/opencode/skills` (else
    /// `~/.config/opencode/skills`); the Claude and shared folders too.
    pub const OPENCODE: Agent = Agent {
        id: "opencode",
        title: "OpenCode",
        config: Place::Config("opencode"),
        user: &[
            own(Place::Config("opencode/skills")),
            user(CLAUDE_USER, COMPAT),
            user(HOME_AGENTS, SHARED),
        ],
        project: &[
            project(".opencode/skills", OWN),
            project(".claude/skills", COMPAT),
            project(".agents/skills", SHARED),
        ],
        user_install: 0,
        project_install: 0,
        profile: Profile::AnyFields,
    };

    /// Goose: `~/.config/goose/skills`, `~/.config/agents/skills` and
    /// `~/.claude/skills` (under `$XDG_CONFIG_HOME` when set).
    pub const GOOSE: Agent = Agent {
        id: "goose",
        title: "Goose",
        config: Place::Config("goose"),
        user: &[
            own(Place::Config("goose/skills")),
            user(Place::Config("agents/skills"), SHARED),
            user(CLAUDE_USER, COMPAT),
        ],
        project: &[
            project(".goose/skills", OWN),
            project(".agents/skills", SHARED),
            project(".claude/skills", COMPAT),
        ],
        user_install: 1,
        project_install: 1,
        profile: Profile::ClaudeCode,
    };

    /// The cross-agent convention: `~/.agents/skills` (and
    /// `~/.config/agents/skills`); `.agents/skills` in a project.
    pub const AGENTS: Agent = Agent {
        id: "agents",
        title: "Shared .agents/skills",
        config: Place::Home(".agents"),
        user: &[
            user(HOME_AGENTS, SHARED),
            user(Place::Config("agents/skills"), SHARED),
        ],
        project: &[project(".agents/skills", SHARED)],
        user_install: 0,
        project_install: 0,
        profile: Profile::ClaudeCode,
    };

    /// Every agent, in a stable order (`--agent` listings).
    pub const ALL: [Agent; 9] = [
        Self::CLAUDE_CODE,
        Self::CURSOR,
        Self::GITHUB_COPILOT,
        Self::CODEX,
        Self::GEMINI,
        Self::ANTIGRAVITY,
        Self::OPENCODE,
        Self::GOOSE,
        Self::AGENTS,
    ];

    /// Every agent.
    pub fn all() -> &'static [Agent] {
        &Self::ALL
    }

    /// The agent whose [`id`](Self::id) is `id`.
    pub fn by_id(id: &str) -> Option<&'static Agent> {
        Self::ALL.iter().find(|agent| agent.id == id)
    }

    /// The stable identifier (`claude-code`), as `--agent` takes it.
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// The agent's name for people (`Claude Code`).
    pub fn title(&self) -> &'static str {
        self.title
    }

    /// Every folder the agent reads: user scope (resolved in `env`) and, when
    /// `project_root` is given, project scope; highest precedence first
    /// within each scope. Folders that cannot be resolved (no home) are left
    /// out; folders are not checked to exist.
    pub fn folders(&self, env: &Environment, project_root: Option<&Path>) -> Vec<Folder> {
        let mut folders = Vec::new();
        if let Some(project_root) = project_root {
            folders.extend(self.project.iter().map(|root| Folder {
                path: crate::relpath::on_disk(project_root, root.rel),
                scope: Scope::Project,
                kind: root.kind,
            }));
        }
        folders.extend(self.user.iter().filter_map(|root| {
            Some(Folder {
                path: root.place.resolve(env)?,
                scope: Scope::User,
                kind: root.kind,
            })
        }));
        folders
    }

    /// The user-scope folders the agent reads, highest precedence first:
    /// what `load_roots` (feature `load`) merges to serve them.
    pub fn user_roots(&self, env: &Environment) -> Vec<PathBuf> {
        self.folders(env, None)
            .into_iter()
            .map(|folder| folder.path)
            .collect()
    }

    /// The project-scope folders the agent reads under `project_root`,
    /// highest precedence first.
    pub fn project_roots(&self, project_root: &Path) -> Vec<PathBuf> {
        self.project
            .iter()
            .map(|root| crate::relpath::on_disk(project_root, root.rel))
            .collect()
    }

    /// Where an installer writes at user scope (`~/.claude/skills`); `None`
    /// without a home folder.
    pub fn user_dir(&self, env: &Environment) -> Option<PathBuf> {
        self.user[self.user_install].place.resolve(env)
    }

    /// Where an installer writes under `project_root` (`.agents/skills` for
    /// most agents, as `gh skill install` does).
    pub fn project_dir(&self, project_root: &Path) -> PathBuf {
        crate::relpath::on_disk(project_root, self.project[self.project_install].rel)
    }

    /// Whether the agent looks installed: its configuration folder
    /// (`~/.claude`, `$CODEX_HOME`, `~/.config/opencode`, …) exists.
    pub fn is_present(&self, env: &Environment) -> bool {
        self.config.resolve(env).is_some_and(|path| path.is_dir())
    }

    /// The rules the agent's skills are written for, following symbolic
    /// links right below each root (dotfiles): Claude Code's profile
    /// ([`Options::claude_code`](crate::Options::claude_code)) for the
    /// agents that read Claude Code's folders, any key
    /// ([`Options::any_fields`](crate::Options::any_fields)) for those that
    /// ignore the keys they do not know (Codex, Gemini CLI, Antigravity,
    /// OpenCode).
    #[cfg(feature = "load")]
    pub fn options(&self) -> crate::Options {
        let options = match self.profile {
            Profile::ClaudeCode => crate::Options::claude_code(),
            Profile::AnyFields => crate::Options::any_fields(),
        };
        options.following_top_level_links()
    }
}

/// The root of the project holding `start`: the nearest folder, `start`
/// included, that holds a `.git` folder or file (a worktree's `.git` is a
/// file). `None` outside a repository.
pub fn project_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|folder| folder.join(".git").exists())
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(agent: &Agent, env: &Environment) -> Vec<String> {
        agent
            .user_roots(env)
            .iter()
            .map(|path| path.display().to_string())
            .collect()
    }

    #[test]
    fn user_folders_with_and_without_overrides() {
        let env = Environment::new("/h");
        assert_eq!(paths(&Agent::CLAUDE_CODE, &env), ["/h/.claude/skills"]);
        assert_eq!(
            paths(&Agent::CODEX, &env),
            ["/h/.codex/skills", "/h/.agents/skills", "/etc/codex/skills"]
        );
        assert_eq!(
            paths(&Agent::OPENCODE, &env),
            [
                "/h/.config/opencode/skills",
                "/h/.claude/skills",
                "/h/.agents/skills"
            ]
        );
        let overridden = Environment::new("/h")
            .var("CLAUDE_CONFIG_DIR", "/c/claude:/other")
            .var("CODEX_HOME", "/c/codex")
            .var("XDG_CONFIG_HOME", "/c/xdg");
        assert_eq!(
            paths(&Agent::CLAUDE_CODE, &overridden),
            ["/c/claude/skills"]
        );
        assert_eq!(paths(&Agent::CODEX, &overridden)[0], "/c/codex/skills");
        assert_eq!(
            paths(&Agent::OPENCODE, &overridden)[..2],
            ["/c/xdg/opencode/skills", "/c/claude/skills"]
        );
        assert_eq!(
            paths(&Agent::GOOSE, &overridden),
            [
                "/c/xdg/goose/skills",
                "/c/xdg/agents/skills",
                "/c/claude/skills"
            ]
        );
        // Empty and relative values count as unset.
        let odd = Environment::new("/h")
            .var("CLAUDE_CONFIG_DIR", "")
            .var("XDG_CONFIG_HOME", "relative");
        assert_eq!(paths(&Agent::CLAUDE_CODE, &odd), ["/h/.claude/skills"]);
        assert_eq!(
            paths(&Agent::OPENCODE, &odd)[0],
            "/h/.config/opencode/skills"
        );
        // Without a home, only absolute folders remain.
        let homeless = Environment::default();
        assert_eq!(paths(&Agent::CODEX, &homeless), ["/etc/codex/skills"]);
        assert_eq!(Agent::CLAUDE_CODE.user_dir(&homeless), None);
    }

    #[test]
    fn install_folders_follow_gh_skill_install() {
        let env = Environment::new("/h");
        let project = Path::new("/repo");
        let table: Vec<(&str, String, String)> = Agent::all()
            .iter()
            .map(|agent| {
                (
                    agent.id(),
                    agent.user_dir(&env).unwrap().display().to_string(),
                    agent.project_dir(project).display().to_string(),
                )
            })
            .collect();
        let expected = [
            ("claude-code", "/h/.claude/skills", "/repo/.claude/skills"),
            ("cursor", "/h/.cursor/skills", "/repo/.agents/skills"),
            (
                "github-copilot",
                "/h/.copilot/skills",
                "/repo/.agents/skills",
            ),
            ("codex", "/h/.codex/skills", "/repo/.agents/skills"),
            ("gemini", "/h/.gemini/skills", "/repo/.agents/skills"),
            (
                "antigravity",
                "/h/.gemini/antigravity/skills",
                "/repo/.agents/skills",
            ),
            (
                "opencode",
                "/h/.config/opencode/skills",
                "/repo/.opencode/skills",
            ),
            ("goose", "/h/.config/agents/skills", "/repo/.agents/skills"),
            ("agents", "/h/.agents/skills", "/repo/.agents/skills"),
        ];
        let expected: Vec<(&str, String, String)> = expected
            .iter()
            .map(|(id, user, project)| (*id, user.to_string(), project.to_string()))
            .collect();
        assert_eq!(table, expected);
        let ids: Vec<&str> = Agent::all().iter().map(Agent::id).collect();
        for id in ids {
            assert_eq!(Agent::by_id(id).unwrap().id(), id);
        }
        assert!(Agent::by_id("emacs").is_none());
        assert_eq!(Agent::by_id("codex"), Some(&Agent::CODEX));
        assert_ne!(Agent::CODEX, Agent::CURSOR);
    }

    #[test]
    fn folders_say_what_they_are() {
        let env = Environment::new("/h");
        let folders = Agent::GITHUB_COPILOT.folders(&env, Some(Path::new("/repo")));
        let described: Vec<(String, Scope, FolderKind)> = folders
            .into_iter()
            .map(|folder| (folder.path.display().to_string(), folder.scope, folder.kind))
            .collect();
        assert_eq!(
            described,
            [
                (
                    "/repo/.agents/skills".into(),
                    Scope::Project,
                    FolderKind::Shared
                ),
                (
                    "/repo/.github/skills".into(),
                    Scope::Project,
                    FolderKind::Own
                ),
                (
                    "/repo/.claude/skills".into(),
                    Scope::Project,
                    FolderKind::Compatible
                ),
                ("/h/.copilot/skills".into(), Scope::User, FolderKind::Own),
                ("/h/.agents/skills".into(), Scope::User, FolderKind::Shared),
                (
                    "/h/.claude/skills".into(),
                    Scope::User,
                    FolderKind::Compatible
                ),
            ]
        );
    }

    #[test]
    fn presence_and_project_roots_on_disk() {
        let base = std::env::temp_dir().join(format!("skills-core-vendor-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let home = base.join("home");
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        let env = Environment::new(&home);
        assert!(Agent::CLAUDE_CODE.is_present(&env));
        assert!(!Agent::CURSOR.is_present(&env));
        let nested = base.join("repo/crates/a/src");
        std::fs::create_dir_all(&nested).unwrap();
        assert_eq!(project_root(&nested), None);
        std::fs::create_dir_all(base.join("repo/.git")).unwrap();
        assert_eq!(project_root(&nested), Some(base.join("repo")));
        // A worktree's `.git` is a file.
        std::fs::write(base.join("repo/crates/a/.git"), "gitdir: elsewhere").unwrap();
        assert_eq!(project_root(&nested), Some(base.join("repo/crates/a")));
        std::fs::remove_dir_all(&base).unwrap();
    }
}
