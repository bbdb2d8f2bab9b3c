//! The `skill` subcommand group: clap's arguments ([`SkillCommand`]) and
//! what runs them ([`Installer`]), with the report lines and exit codes of
//! the project's conventions.

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, FromArgMatches as _, Subcommand};
use skills_core::vendor::{Agent, Environment, Scope};

use super::{Destination, Place};
use crate::Skills;
use crate::folder::{Action, Planned, State, Target, WriteOptions};

/// `install | uninstall | list`: mount it in your own clap command line
/// (`#[command(subcommand)] Skill(SkillCommand)`) and hand it to
/// [`Installer::run`].
#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum SkillCommand {
    /// Install the skills this program carries where agents read them;
    /// a skill you edited is kept unless --force.
    Install(InstallArgs),
    /// Remove the skills this program installed, except those edited since.
    Uninstall(UninstallArgs),
    /// One line per skill: `<name> <state>` (missing, up-to-date, outdated,
    /// modified, foreign, orphaned).
    List(TargetArgs),
}

/// Where: `--project` (the default), `--user`, `--agent NAME…` or `--dir PATH`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct TargetArgs {
    /// The repository holding the working directory (the default scope).
    #[arg(long, conflicts_with = "user")]
    pub project: bool,
    /// Your user's folders, under HOME: every project sees them.
    #[arg(long)]
    pub user: bool,
    /// The agent whose folder to use; repeatable or comma-separated
    /// [default: the agents found on this machine, else the shared
    /// .agents/skills]
    #[arg(
        long = "agent",
        value_name = "NAME",
        value_delimiter = ',',
        value_parser = clap::builder::PossibleValuesParser::new(Agent::ALL.map(|agent| agent.id()))
    )]
    pub agents: Vec<String>,
    /// This folder instead of an agent's (one folder per skill in it).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["project", "user", "agents"])]
    pub dir: Option<PathBuf>,
}

/// `install`'s arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct InstallArgs {
    #[allow(missing_docs)]
    #[command(flatten)]
    pub target: TargetArgs,
    /// Say what would change; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Overwrite skills you edited and folders another tool wrote (never
    /// through a symbolic link).
    #[arg(long)]
    pub force: bool,
}

/// `uninstall`'s arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct UninstallArgs {
    #[allow(missing_docs)]
    #[command(flatten)]
    pub target: TargetArgs,
    /// Say what would be removed; remove nothing.
    #[arg(long)]
    pub dry_run: bool,
}

impl TargetArgs {
    fn place(&self) -> Place {
        if let Some(dir) = &self.dir {
            return Place::Dir(dir.clone());
        }
        Place::Agents {
            scope: if self.user {
                Scope::User
            } else {
                Scope::Project
            },
            agents: self
                .agents
                .iter()
                .filter_map(|id| Agent::by_id(id))
                .collect(),
        }
    }

    /// The same choice as flags, for the hints (`--dir '/a b'`).
    fn as_flags(&self) -> String {
        let mut flags = String::new();
        if let Some(dir) = &self.dir {
            flags.push_str(" --dir ");
            flags.push_str(&shell_word(&dir.display().to_string()));
        }
        if self.user {
            flags.push_str(" --user");
        }
        for agent in &self.agents {
            flags.push_str(" --agent ");
            flags.push_str(agent);
        }
        flags
    }
}

fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:=@%,".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Runs a [`SkillCommand`] for the skills a program embeds.
///
/// ```no_run
/// use clap::{Parser, Subcommand};
/// use skills_runtime::install::{Installer, SkillCommand};
/// use skills_runtime::{Skills, embed_skills};
///
/// static SKILLS: Skills = embed_skills!("skills");
///
/// #[derive(Parser)]
/// struct Cli {
///     #[command(subcommand)]
///     command: Command,
/// }
///
/// #[derive(Subcommand)]
/// enum Command {
///     /// Serve the skills over stdio.
///     Serve,
///     /// Install the skills into your agents' folders.
///     #[command(subcommand)]
///     Skill(SkillCommand),
/// }
///
/// fn main() -> std::process::ExitCode {
///     match Cli::parse().command {
///         Command::Skill(skill) => Installer::new(&SKILLS, "myserver").run(&skill),
///         Command::Serve => todo!(),
///     }
/// }
/// ```
///
/// A tool without clap calls [`Installer::intercept`] first thing in `main`.
#[derive(Debug, Clone)]
pub struct Installer<'a> {
    skills: &'a Skills,
    writer: String,
    command: String,
    env: Environment,
    working_dir: Option<PathBuf>,
}

impl<'a> Installer<'a> {
    /// Installs `skills` in the name of `tool` (recorded beside each skill:
    /// a folder another tool wrote is `foreign` to this one). Hints name the
    /// command `<tool> skill`.
    pub fn new(skills: &'a Skills, tool: impl Into<String>) -> Self {
        let writer = tool.into();
        Self {
            skills,
            command: format!("{writer} skill"),
            writer,
            env: Environment::from_process(),
            working_dir: None,
        }
    }

    /// How a user runs the group, for the hints (`myserver skill`, or
    /// `installer` when it is mounted at the top level).
    pub fn command(mut self, command: impl Into<String>) -> Self {
        self.command = command.into();
        self
    }

    /// `HOME` and the agents' variables (the process's by default; tests
    /// give a temporary home).
    pub fn environment(mut self, env: Environment) -> Self {
        self.env = env;
        self
    }

    /// Where project scope starts looking for the repository (the working
    /// directory by default).
    pub fn working_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.working_dir = Some(dir.into());
        self
    }

    /// Runs `command`, reporting on stdout (problems on stderr). The exit
    /// code: 0 done, 1 something was refused (an edit kept without
    /// `--force`), 2 a usage or disk error.
    pub fn run(&self, command: &SkillCommand) -> ExitCode {
        let code = self.run_to(command, &mut io::stdout().lock(), &mut io::stderr().lock());
        ExitCode::from(code)
    }

    /// [`run`](Self::run), writing to `out` and `err`; returns the exit code.
    pub fn run_to(&self, command: &SkillCommand, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
        match self.try_run(command, out, err) {
            Ok(code) => code,
            Err(error) => {
                let _ = writeln!(err, "error: {error}");
                2
            }
        }
    }

    /// For a tool without clap: when the first argument is `skill`, parses
    /// the rest, runs it and returns the exit code for `main` to return;
    /// otherwise `None` and the tool goes on.
    ///
    /// ```no_run
    /// # static SKILLS: skills_runtime::Skills = skills_runtime::embed_skills!("skills");
    /// fn main() -> std::process::ExitCode {
    ///     let installer = skills_runtime::install::Installer::new(&SKILLS, "mytool");
    ///     if let Some(code) = installer.intercept() {
    ///         return code;
    ///     }
    ///     // the rest of the tool
    ///     std::process::ExitCode::SUCCESS
    /// }
    /// ```
    pub fn intercept(&self) -> Option<ExitCode> {
        self.intercept_from(std::env::args_os())
    }

    /// [`intercept`](Self::intercept) on given arguments (program name first).
    pub fn intercept_from<I, T>(&self, args: I) -> Option<ExitCode>
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString>,
    {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        if args.get(1).is_none_or(|first| first != "skill") {
            return None;
        }
        let group = SkillCommand::augment_subcommands(
            clap::Command::new("skill")
                .bin_name(self.command.clone())
                .subcommand_required(true)
                .arg_required_else_help(true),
        );
        let parsed = group
            .try_get_matches_from(&args[1..])
            .and_then(|matches| SkillCommand::from_arg_matches(&matches));
        Some(match parsed {
            Ok(command) => self.run(&command),
            Err(error) => {
                let _ = error.print();
                ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
            }
        })
    }

    fn destinations(&self, target: &TargetArgs) -> Result<Vec<Destination>, super::InstallError> {
        let working_dir = match &self.working_dir {
            Some(dir) => dir.clone(),
            None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        };
        super::destinations(&target.place(), &self.env, &working_dir)
    }

    fn try_run(
        &self,
        command: &SkillCommand,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Result<u8, Box<dyn std::error::Error>> {
        let target = match command {
            SkillCommand::Install(args) => &args.target,
            SkillCommand::Uninstall(args) => &args.target,
            SkillCommand::List(args) => args,
        };
        let destinations = self.destinations(target)?;
        let headed = destinations.len() > 1;
        let mut code = 0;
        for destination in &destinations {
            if headed {
                let titles = destination.agent_titles();
                line(out, format!("{} ({titles}):", destination.dir.display()))?;
            }
            let folder = Target::new(&destination.dir, &self.writer);
            code = code.max(match command {
                SkillCommand::Install(args) => {
                    self.install(&folder, destination, args, out, err)?
                }
                SkillCommand::Uninstall(args) => self.uninstall(&folder, args, out)?,
                SkillCommand::List(args) => self.list(&folder, args, out, err)?,
            });
        }
        Ok(code)
    }

    fn install(
        &self,
        folder: &Target,
        destination: &Destination,
        args: &InstallArgs,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Result<u8, Box<dyn std::error::Error>> {
        let options = WriteOptions::default()
            .force(args.force)
            .remove_orphans(true);
        let plan = super::plan(self.skills, folder, &options)?;
        let items = if args.dry_run {
            plan.items().to_vec()
        } else {
            plan.apply()
        };
        let code = report(&items, args.dry_run, out)?;
        if items.iter().any(|item| item.kept_an_edit()) {
            writeln!(
                err,
                "kept what was edited or written by another tool; `{} install{} --force` overwrites it",
                self.command,
                args.target.as_flags()
            )?;
        }
        let wrote = items
            .iter()
            .any(|item| item.error.is_none() && item.action.writes());
        if wrote && !args.dry_run {
            writeln!(
                out,
                "Restart {} (or start a new session) to load the new skills.",
                destination.agent_titles()
            )?;
        }
        Ok(code)
    }

    fn uninstall(
        &self,
        folder: &Target,
        args: &UninstallArgs,
        out: &mut dyn Write,
    ) -> Result<u8, Box<dyn std::error::Error>> {
        let plan = super::plan_uninstall(folder)?;
        let items = if args.dry_run {
            plan.items().to_vec()
        } else {
            plan.apply()
        };
        let mut code = 0;
        for item in &items {
            match (&item.error, item.action) {
                (Some(error), _) => {
                    line(out, format!("{}: failed: {error}", item.name))?;
                    code = 2;
                }
                (None, Action::Remove) if args.dry_run => {
                    line(out, format!("{}: would remove", item.name))?
                }
                (None, Action::Remove) => line(out, format!("{}: removed", item.name))?,
                (None, _) => {
                    let mut text = format!("{}: kept, edited since it was installed", item.name);
                    if !item.files.edited.is_empty() {
                        text.push_str(&format!(" [edited: {}]", item.files.edited.join(", ")));
                    }
                    line(out, text)?;
                    code = code.max(1);
                }
            }
        }
        Ok(code)
    }

    fn list(
        &self,
        folder: &Target,
        args: &TargetArgs,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Result<u8, Box<dyn std::error::Error>> {
        let plan = super::plan(self.skills, folder, &WriteOptions::default())?;
        for item in plan.items() {
            line(out, format!("{} {}", item.name, item.state))?;
        }
        let count = |state| plan.items().iter().filter(|i| i.state == state).count();
        let (outdated, missing) = (count(State::Outdated), count(State::Missing));
        if outdated + missing > 0 {
            let what = match (outdated, missing) {
                (0, n) => format!("{n} not installed"),
                (n, 0) => format!("{n} outdated"),
                (o, m) => format!("{o} outdated, {m} not installed"),
            };
            writeln!(
                err,
                "{what}: `{} install{}` brings them up to date",
                self.command,
                args.as_flags()
            )?;
        }
        Ok(0)
    }
}

/// One line per skill: `<name> <state>: <what was done>`; returns the exit
/// code the items call for.
fn report(items: &[Planned], dry_run: bool, out: &mut dyn Write) -> io::Result<u8> {
    let mut code = 0;
    for item in items {
        let done = match (item.action, dry_run) {
            (Action::None, _) => "nothing to do",
            (Action::Write, false) => "installed",
            (Action::Write, true) => "would install",
            (Action::Update, false) => "updated",
            (Action::Update, true) => "would update",
            (Action::Remove, false) => "removed",
            (Action::Remove, true) => "would remove",
            (Action::Keep, _) => "kept",
        };
        // The writer's reasons for keeping a folder say so themselves.
        let says_kept = item.action == Action::Keep
            && item.reason.as_deref().is_some_and(|r| r.contains("kept"));
        let mut text = if says_kept {
            format!("{} {}:", item.name, item.state)
        } else {
            format!("{} {}: {done}", item.name, item.state)
        };
        let changed: Vec<&str> = item
            .files
            .added
            .iter()
            .chain(&item.files.changed)
            .chain(&item.files.removed)
            .map(String::as_str)
            .collect();
        if item.action == Action::Update && !changed.is_empty() && item.state == State::Outdated {
            text.push_str(&format!(" ({})", changed.join(", ")));
        }
        if let Some(reason) = &item.reason
            && item.action != Action::Write
        {
            let separator = if says_kept { " " } else { "; " };
            text.push_str(&format!("{separator}{reason}"));
        }
        if !item.files.edited.is_empty() && item.action == Action::Keep {
            text.push_str(&format!(" [edited: {}]", item.files.edited.join(", ")));
        }
        if let Some(error) = &item.error {
            text.push_str(&format!("; failed: {error}"));
            code = 2;
        } else if item.kept_an_edit() {
            code = code.max(1);
        }
        line(out, text)?;
    }
    Ok(code)
}

/// Writes `text` as one line: the names and paths in it come from folders
/// on disk (a record, a folder name in a cloned repository), so whatever a
/// terminal would act on is escaped ([`skills_core::printable`]).
fn line(out: &mut dyn Write, text: String) -> io::Result<()> {
    writeln!(out, "{}", skills_core::printable(&text))
}
