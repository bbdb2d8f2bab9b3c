//! Installs the skills a binary embeds into the folders local agents read
//! skills from (feature `install`): `myserver skill install --user` puts them
//! where Claude Code, Codex, Cursor, … find them.
//!
//! Two layers:
//!
//! - [`plan`], then [`Plan::apply`]: the embedded [`Skills`] compared with
//!   one folder and written into it through the [folder
//!   writer](crate::folder) (the same states, record and atomic swap as the
//!   client's sync). A [`Plan`] prints (`{plan}`) and serialises
//!   (`{"skills": [...]}`).
//! - [`SkillCommand`] and [`Installer`]: a ready clap subcommand group
//!   (`skill install|uninstall|list [--project|--user] [--agent NAME…]
//!   [--dir PATH] [--dry-run] [--force]`) mounted in one line, and
//!   [`Installer::intercept`] for tools that do not use clap.
//!
//! ```
//! use skills_runtime::folder::{WriteOptions, State, Target};
//! use skills_runtime::{Skills, embed_skills, install};
//!
//! static SKILLS: Skills = embed_skills!("skills");
//! # let dir = std::env::temp_dir().join(format!("install-doc-{}", std::process::id()));
//! # let _ = std::fs::remove_dir_all(&dir);
//!
//! let target = Target::new(&dir, "my-tool");
//! let plan = install::plan(&SKILLS, &target, &WriteOptions::default())?;
//! print!("{plan}"); // `pdf missing (write)`, one line per skill
//! assert!(plan.apply().iter().all(|item| item.error.is_none()));
//!
//! // A second run changes nothing.
//! let again = install::plan(&SKILLS, &target, &WriteOptions::default())?;
//! assert!(again.items().iter().all(|item| item.state == State::UpToDate));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Agents' folders are flat: a nested skill (`kitchen/recipe-scaling`)
//! installs under its name (`recipe-scaling`), and two skills with one name
//! are refused, naming both paths ([`InstallError::SameName`]). The agents,
//! their folders at user and project scope and their overrides
//! (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `XDG_CONFIG_HOME`) come from the one
//! [vendor table](crate::load::vendor).

mod command;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use skills_core::vendor::{self, Agent, Environment, Scope};

use crate::Skills;
use crate::folder::{self, FolderError, Plan, SkillWrite, Target, WriteOptions};

pub use command::{InstallArgs, Installer, SkillCommand, TargetArgs, UninstallArgs};

/// The skills as an agent's flat folder holds them: each at its name.
///
/// Fails when two skills share a name (`kitchen/pdf` and `office/pdf`):
/// one would silently replace the other.
pub fn flat(skills: &Skills) -> Result<Vec<SkillWrite<'_>>, InstallError> {
    let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
    let mut writes = Vec::with_capacity(skills.len());
    for skill in skills.skills() {
        if let Some(first) = seen.insert(skill.name(), skill.path()) {
            return Err(InstallError::SameName {
                name: skill.name().to_owned(),
                first: first.to_owned(),
                second: skill.path().to_owned(),
            });
        }
        writes.push(SkillWrite::from_skill(skill).at(skill.name()));
    }
    Ok(writes)
}

/// Compares `skills` with what is in `target` and says what installing them
/// would do, skill by skill (nothing is written; the folder is created when
/// missing). Skills this writer installed earlier that `skills` no longer
/// holds come last, `orphaned`; [`WriteOptions::remove_orphans`] removes the
/// unedited ones.
pub fn plan<'a>(
    skills: &'a Skills,
    target: &Target,
    options: &WriteOptions,
) -> Result<Plan<'a>, InstallError> {
    Ok(folder::plan(target, flat(skills)?, options)?)
}

/// What uninstalling from `target` would do: remove every skill this writer
/// installed there that nobody edited since. Edited ones and other writers'
/// folders are kept.
pub fn plan_uninstall(target: &Target) -> Result<Plan<'static>, InstallError> {
    let options = WriteOptions::default().remove_orphans(true);
    Ok(folder::plan(target, std::iter::empty(), &options)?)
}

/// Where to install: one folder, or agents' folders at a scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// This folder, whatever reads it.
    Dir(PathBuf),
    /// The folders of these agents (none: the agents [detected](detect) on
    /// this machine) at this scope.
    Agents {
        /// User scope (under `HOME`) or project scope (the repository
        /// holding the working directory).
        scope: Scope,
        /// The agents; empty means those detected.
        agents: Vec<&'static Agent>,
    },
}

/// One folder to install into, and the agents that read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Destination {
    /// The folder.
    pub dir: PathBuf,
    /// The agents that read skills from it (empty for a `--dir`).
    pub agents: Vec<&'static Agent>,
}

impl Destination {
    /// The agents' names, for the hint to restart them (`Claude Code,
    /// Codex`), or `your agent` for a plain folder.
    pub fn agent_titles(&self) -> String {
        if self.agents.is_empty() {
            return "your agent".to_owned();
        }
        let titles: Vec<&str> = self.agents.iter().map(|agent| agent.title()).collect();
        titles.join(", ")
    }
}

/// The agents that look installed on this machine (their configuration
/// folder exists: `~/.claude`, `$CODEX_HOME`, `~/.config/opencode`, …), in
/// the vendor table's order.
pub fn detect(env: &Environment) -> Vec<&'static Agent> {
    Agent::all()
        .iter()
        .filter(|agent| agent.is_present(env))
        .collect()
}

/// The folders `place` names, one per distinct folder (at project scope
/// most agents share `.agents/skills`: it is written once). With no agent
/// named and none detected, the shared `.agents/skills` folder, which most
/// agents read.
///
/// Project scope is the repository holding `working_dir` (the nearest
/// folder with a `.git`), refused when that is the home folder itself.
pub fn destinations(
    place: &Place,
    env: &Environment,
    working_dir: &Path,
) -> Result<Vec<Destination>, InstallError> {
    let (scope, named) = match place {
        Place::Dir(dir) => {
            return Ok(vec![Destination {
                dir: std::path::absolute(dir).unwrap_or_else(|_| dir.clone()),
                agents: Vec::new(),
            }]);
        }
        Place::Agents { scope, agents } => (*scope, agents),
    };
    let mut agents = if named.is_empty() {
        detect(env)
    } else {
        named.clone()
    };
    if agents.is_empty() {
        agents.push(&Agent::AGENTS);
    }
    let project = match scope {
        Scope::User => None,
        Scope::Project => {
            let root =
                vendor::project_root(working_dir).ok_or_else(|| InstallError::NoProject {
                    working_dir: working_dir.to_path_buf(),
                })?;
            if env.home().is_some_and(|home| same_folder(home, &root)) {
                return Err(InstallError::ProjectIsHome { root });
            }
            Some(root)
        }
    };
    let mut destinations: Vec<Destination> = Vec::new();
    for agent in agents {
        let dir = match &project {
            Some(root) => agent.project_dir(root),
            None => agent.user_dir(env).ok_or(InstallError::NoHome)?,
        };
        match destinations.iter_mut().find(|known| known.dir == dir) {
            Some(known) if !known.agents.contains(&agent) => known.agents.push(agent),
            Some(_) => {}
            None => destinations.push(Destination {
                dir,
                agents: vec![agent],
            }),
        }
    }
    Ok(destinations)
}

fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Why nothing could be installed.
#[derive(Debug)]
#[non_exhaustive]
pub enum InstallError {
    /// Two skills would land in one flat folder.
    SameName {
        /// The name they share.
        name: String,
        /// The first skill's path in the set.
        first: String,
        /// The second's.
        second: String,
    },
    /// Project scope outside any repository.
    NoProject {
        /// Where the search for a `.git` started.
        working_dir: PathBuf,
    },
    /// The repository found is the home folder (a dotfiles repository):
    /// project scope would write where user scope does.
    ProjectIsHome {
        /// The folder found.
        root: PathBuf,
    },
    /// User scope without a home folder.
    NoHome,
    /// The folder cannot be used.
    Folder(FolderError),
}

impl fmt::Display for InstallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SameName {
                name,
                first,
                second,
            } => write!(
                f,
                "two skills are named `{name}` (`{first}` and `{second}`); an agent's skills \
                 folder is flat, so one would replace the other: rename one of them"
            ),
            Self::NoProject { working_dir } => write!(
                f,
                "{} is in no repository (no `.git` above it), so project scope has no folder: \
                 run it inside the project, or use --user or --dir",
                working_dir.display()
            ),
            Self::ProjectIsHome { root } => write!(
                f,
                "the repository found is the home folder ({}): use --user, or run it inside \
                 a project",
                root.display()
            ),
            Self::NoHome => f.write_str("no home folder is known (HOME is unset): use --dir"),
            Self::Folder(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for InstallError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Folder(error) => Some(error),
            _ => None,
        }
    }
}

impl From<FolderError> for InstallError {
    fn from(error: FolderError) -> Self {
        Self::Folder(error)
    }
}
