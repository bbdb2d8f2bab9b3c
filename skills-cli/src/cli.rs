//! The command line: one subcommand per job, and the argument groups they
//! share. Options that choose the rules ([`RuleArgs`]) are one flattened
//! group, so every command that reads skills (`check`, `manifest`, and a
//! later `serve`) takes the same flags with the same meaning, and a rule
//! profile (`--claude`, …) is one more field there.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use skills_core::Options;
use skills_core::vendor::Agent;

/// Check Agent Skills with the rules `embed_skills!` applies, print what a
/// server would list, scaffold skills and crates, and serve a folder (or an
/// agent's skills) over MCP.
///
/// Exit status: 0 when the job was done and nothing was refused, 1 when a
/// rule was broken (or something was refused), 2 on a usage or I/O error.
#[derive(Debug, Parser)]
#[command(name = "skills", version)]
pub(crate) struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Check skills folders: every problem in every skill, as `embed_skills!` reports it.
    Check(CheckArgs),
    /// Print what a server built from a folder lists: the SEP-2640 entries
    /// (`skills/list`), or with `--index` the `skill://index.json` document.
    Manifest(ManifestArgs),
    /// Create a skill folder whose SKILL.md passes every rule.
    New(NewArgs),
    /// Add the Quickstart to an existing crate: the skills-runtime dependency
    /// (with `--path`; printed otherwise), rmcp and tokio (in a binary), the
    /// build script, and a `src/main.rs` serving the skills over stdio when it
    /// is still `cargo new`'s hello world (otherwise it prints the `static
    /// SKILLS` line to paste). Each only when missing.
    Init(InitArgs),
    /// Serve a skills folder (or an agent's folders) over MCP, reloading it
    /// on every change: over stdio, or streamable HTTP with `--http`.
    Serve(ServeArgs),
}

/// `skills check`.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Skills folders: each holds skill folders, or is one. Written as for
    /// `embed_skills!` (`$VAR` and `${VAR:-default}` expand); relative to the
    /// current directory, and messages name files relative to the folder as
    /// written [default: `skills` in a crate (a folder holding Cargo.toml),
    /// unless `--claude` or `--agent` is given].
    #[arg(value_name = "DIR")]
    pub dirs: Vec<String>,

    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,

    /// Agents' folders, instead of (or besides) folders named.
    #[command(flatten)]
    pub vendor: VendorArgs,

    /// How to print.
    #[command(flatten)]
    pub output: OutputArgs,

    /// Apply the fixes that are mechanical (quoting a value, the exact
    /// `allowed-tools` string, `name:` set to the folder's name, a key
    /// re-indented), then check again.
    #[arg(long)]
    pub fix: bool,

    /// Fail (exit 1) on warnings too: what the specification only
    /// recommends (a SKILL.md over 500 lines or about 5,000 tokens,
    /// references nested more than one level deep).
    #[arg(long)]
    pub deny_warnings: bool,

    /// Show what every pinned reader does with every skill (the `skills`
    /// CLI on npm, skills-ref, FastMCP, rmcp's SkillCatalog, fast-agent),
    /// accepts included. Without it, only the readers that would refuse a
    /// skill, skip it or change what it shows are named. With `--format
    /// json`: one `{"kind": "reader", …}` line per skill and reader.
    #[arg(long)]
    pub readers: bool,
}

/// The options of the rules, as `embed_skills!` takes them (same names, same meaning).
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct RuleArgs {
    /// Accept this top-level frontmatter key besides the specification's six
    /// (macro: `allow_fields = ["KEY"]`). Repeat for several.
    #[arg(long = "allow-field", value_name = "KEY")]
    pub allow_fields: Vec<String>,

    /// Do not check that the files and folders a SKILL.md names exist
    /// (macro: `check_links = false`).
    #[arg(long)]
    pub no_check_links: bool,

    /// A file, relative to the skills folder, that may hold credential-shaped
    /// text such as a deliberate fake key (macro: `allow_secrets_in =
    /// ["PATH"]`). Repeat for several.
    #[arg(long = "allow-secrets-in", value_name = "PATH")]
    pub allow_secrets_in: Vec<String>,

    /// Skills, by path or glob over skill paths (`courses/*`), that are
    /// gated: sold, or held back from some callers. A gated skill must not
    /// grant `allowed-tools` nor sit inside a skill that is not gated
    /// (macro: `gated = ["GLOB"]`). Repeat for several.
    #[arg(long = "gated", value_name = "GLOB")]
    pub gated: Vec<String>,

    /// The name of the file that makes a folder a skill, when it is not
    /// `SKILL.md` (macro: `main_file = "NAME"`): folders written for FastMCP's
    /// `main_file_name` or SkillsDotNet's `MainFileName`. The file passes every
    /// rule a `SKILL.md` passes, and it goes by `SKILL.md` where SEP-2640 and
    /// installers need that name.
    #[arg(long = "main-file", value_name = "NAME")]
    pub main_file: Option<String>,
}

impl RuleArgs {
    /// The library's options: its defaults (the macro's), changed only where
    /// a flag says so.
    pub(crate) fn options(&self) -> Options {
        self.apply(Options::default())
    }

    /// `base` (an agent's rule profile) with the flags' additions.
    pub(crate) fn apply(&self, mut options: Options) -> Options {
        options
            .allow_fields
            .extend(self.allow_fields.iter().cloned());
        options.check_links &= !self.no_check_links;
        options
            .allow_secrets_in
            .extend(self.allow_secrets_in.iter().cloned());
        options.gated.extend(self.gated.iter().cloned());
        if let Some(main_file) = &self.main_file {
            options.main_file.clone_from(main_file);
        }
        options
    }
}

/// The folders agents read skills from (skills-core's vendor table), each
/// with the rules its skills are written for.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct VendorArgs {
    /// The skills Claude Code reads: `$CLAUDE_CONFIG_DIR/skills`, else
    /// `~/.claude/skills` (the same as `--agent claude-code`).
    #[arg(long)]
    pub claude: bool,

    /// The skills an agent reads at user scope, with the rules its skills
    /// are written for, skill by skill (a broken skill is reported and does
    /// not stop the others): claude-code, cursor, github-copilot, codex, gemini,
    /// antigravity, opencode, goose, agents. Repeat for several; the first
    /// folder wins on a name.
    #[arg(long = "agent", value_name = "NAME", value_parser = agent)]
    pub agents: Vec<&'static Agent>,
}

impl VendorArgs {
    /// The agents asked for, in order, each once.
    pub(crate) fn selected(&self) -> Vec<&'static Agent> {
        let mut agents: Vec<&'static Agent> = Vec::new();
        let claude: Option<&'static Agent> = self.claude.then_some(&Agent::CLAUDE_CODE);
        for agent in claude.into_iter().chain(self.agents.iter().copied()) {
            if !agents.iter().any(|seen| seen.id() == agent.id()) {
                agents.push(agent);
            }
        }
        agents
    }
}

/// The skills folder a command reads when none is named: `skills` in a
/// crate (the current folder holds Cargo.toml), where `skills new` puts
/// skills. Outside a crate there is no default, and the error says so.
pub(crate) fn default_skills_dir(command: &str) -> Result<String, String> {
    if std::path::Path::new("Cargo.toml").is_file() {
        Ok("skills".to_owned())
    } else {
        Err(format!(
            "no skills folder named, and the current folder is not a crate (it holds no Cargo.toml), \
             so there is no `skills` folder to default to\n  help: name the folder: `skills {command} path/to/skills`"
        ))
    }
}

/// A page size: a whole number, at least 1.
fn page_size(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(size) if size > 0 => Ok(size),
        _ => Err(format!(
            "`{value}` is not a page size (a whole number, at least 1)"
        )),
    }
}

/// An agent by its id, for `--agent`.
fn agent(id: &str) -> Result<&'static Agent, String> {
    Agent::by_id(id).ok_or_else(|| {
        let ids: Vec<&str> = Agent::all().iter().map(Agent::id).collect();
        format!("no agent `{id}`; the agents are: {}", ids.join(", "))
    })
}

/// `skills serve`.
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The skills folder, as for `skills check`; loaded whole with the
    /// rules `embed_skills!` applies, and reloaded on every change (while it
    /// is broken, the last good set is served) [default: `skills` in a crate
    /// (a folder holding Cargo.toml), unless `--claude` or `--agent` is given].
    #[arg(value_name = "DIR", conflicts_with_all = ["claude", "agents"])]
    pub dir: Option<String>,

    /// Serve MCP's streamable HTTP at http://ADDR/mcp instead of stdio; port
    /// 0 picks a free port. Prints `listening http://HOST:PORT` on stdout
    /// once it accepts connections.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<SocketAddr>,

    /// With `--http`: keep no session state (every request is answered on
    /// its own). Such a server cannot push change notices: clients re-list
    /// when an entry's `ttlMs` runs out.
    #[arg(long, requires = "http")]
    pub stateless: bool,

    /// With `--http`: a Host header to accept besides the loopback names
    /// (repeatable). Only those, and the IP literal of the address a client
    /// reached, are accepted by default, which guards a local server
    /// against DNS rebinding.
    #[arg(long = "allow-host", value_name = "NAME", requires = "http")]
    pub allowed_hosts: Vec<String>,

    /// With `--http`: a browser origin to accept besides loopback origins
    /// and the server's own pages (repeatable), e.g. `https://app.example.com`;
    /// a request from any other page gets 403.
    #[arg(long = "allow-origin", value_name = "ORIGIN", requires = "http")]
    pub allowed_origins: Vec<String>,

    /// The name the server reports to clients [default: the folder's name,
    /// or the agent's id].
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,

    /// Skills per skills/list page [default: 100].
    #[arg(long, value_name = "N", value_parser = page_size)]
    pub skills_page_size: Option<usize>,

    /// Entries per resources/list and resources/directory/read page [default: 1000].
    #[arg(long, value_name = "N", value_parser = page_size)]
    pub resources_page_size: Option<usize>,

    /// Also serve each skill as an MCP prompt (its SKILL.md, then where its
    /// other files are), for hosts that list prompts but never read
    /// resources on their own (slash commands in Claude Code).
    #[arg(long)]
    pub prompts: bool,

    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,

    /// Agents' folders, instead of a folder.
    #[command(flatten)]
    pub vendor: VendorArgs,
}

/// How problems are printed.
#[derive(Debug, Clone, Args)]
pub(crate) struct OutputArgs {
    /// `human`: as rustc prints its errors; `json`: one JSON object per
    /// problem and line (JSON Lines); `github`: GitHub Actions annotations.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// Color the human output: `auto` when printing to a terminal (and
    /// `NO_COLOR` is unset).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// The output formats of `skills check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// rustc's layout: the place, the line with a caret, the rule, the hints.
    Human,
    /// JSON Lines: `file`, `line`, `column`, `rule`, `severity`, `message`, `hint`, `option`.
    Json,
    /// GitHub Actions workflow commands (`::error file=…`), shown on pull requests.
    Github,
}

/// When to color.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    /// When printing to a terminal and `NO_COLOR` is unset.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// `skills manifest`.
#[derive(Debug, Args)]
pub(crate) struct ManifestArgs {
    /// The skills folder, as for `skills check`.
    #[arg(value_name = "DIR")]
    pub dir: String,

    /// Print the `skill://index.json` document (the agent skills discovery
    /// index, schema 0.2.0) instead of the SEP-2640 entries.
    #[arg(long)]
    pub index: bool,

    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// `skills new`.
#[derive(Debug, Args)]
pub(crate) struct NewArgs {
    /// The skill's name, which is also its folder's: lowercase letters a-z,
    /// digits and single hyphens.
    #[arg(value_name = "NAME")]
    pub name: String,

    /// The skills folder to create it in [default: `skills` in a crate (a
    /// folder holding Cargo.toml), else the current folder].
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,

    /// Also scaffold trybuild tests for the crate in the current folder
    /// (as `skills init --tests` does).
    #[arg(long)]
    pub tests: bool,
}

/// `skills init`.
#[derive(Debug, Args)]
pub(crate) struct InitArgs {
    /// The crate's manifest.
    #[arg(long, value_name = "PATH", default_value = "Cargo.toml")]
    pub manifest_path: PathBuf,

    /// The crate's skills folder, relative to its Cargo.toml.
    #[arg(long, value_name = "DIR", default_value = "skills")]
    pub skills: String,

    /// Add `skills-runtime` as a path dependency (the crates are not on
    /// crates.io yet): PATH is a clone of the repository or its
    /// `skills-runtime` folder; without PATH, the clone this `skills` was
    /// built from.
    #[arg(long, value_name = "PATH", num_args = 0..=1)]
    #[allow(clippy::option_option)]
    pub path: Option<Option<PathBuf>>,

    /// Also scaffold trybuild tests: a `pass` case that the skills folder
    /// embeds, and a `compile_fail` case for a deliberately broken fixture.
    #[arg(long)]
    pub tests: bool,

    /// Also set `[profile.dev.build-override] opt-level = 3` in the
    /// workspace root: rebuilds that re-run the macro get faster (about
    /// 1.4× to 1.2× `include_dir!`'s time on a 6.3 MB tree), the first build
    /// of the crate about three times slower, since every proc macro then
    /// compiles optimised.
    #[arg(long)]
    pub build_override: bool,
}
