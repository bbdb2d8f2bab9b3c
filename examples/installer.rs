//! Installs the example skills (embedded at build time) into agents'
//! folders: the `skill` subcommand group of `skills_runtime::install`,
//! mounted at the top level.
//!
//! ```sh
//! cargo run --example installer -- install --dir /tmp/skills [--dry-run] [--force]
//! cargo run --example installer -- list --dir /tmp/skills     # `<name> <state>` per skill
//! cargo run --example installer -- uninstall --dir /tmp/skills
//! cargo run --example installer -- install --user --agent claude-code
//! SKILLS_DIR=/abs/path/to/skills cargo run --example installer -- list --dir /tmp/skills
//! ```
//!
//! Exit status: 0 done, 1 a skill you edited (or another tool's folder) was
//! kept without `--force`, 2 a usage or disk error.

use clap::Parser;
use skills_runtime::install::{Installer, SkillCommand};
use skills_runtime::{Skills, embed_skills};

static SKILLS: Skills = embed_skills!("${SKILLS_DIR:-skills}");

/// Installs the skills embedded in this binary where agents read them.
#[derive(Parser)]
#[command(name = "installer", version)]
struct Cli {
    #[command(subcommand)]
    command: SkillCommand,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    Installer::new(&SKILLS, "installer")
        .command("installer")
        .run(&cli.command)
}
