//! `skills`: the command line of skills-runtime. It applies the rules
//! `embed_skills!` applies (skills-core's, the same code) outside a build:
//! in CI, in editors, in pre-commit hooks, on folders no crate embeds.
//!
//! ```sh
//! skills check skills                    # every problem in every skill, like rustc
//! skills check --format json skills      # JSON Lines, for tools
//! skills manifest skills                 # what skills/list answers for the folder
//! skills new pdf-tools                   # a skill that passes every rule
//! skills init --path ../skills-runtime   # add embedding to an existing crate
//! skills serve skills                    # serve a folder over stdio, live
//! skills serve --claude --http 127.0.0.1:8080  # Claude Code's skills over HTTP
//! ```
//!
//! Exit status: 0 when the job was done and nothing was refused, 1 when a
//! rule was broken or something was refused, 2 on a usage or I/O error.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod cargo_toml;
mod check;
mod cli;
mod fix;
mod init;
mod manifest;
mod new;
mod recipe;
mod report;
mod serve;
mod steps;

use std::process::ExitCode;

use clap::Parser;

/// How a command ended, ordered from best to worst (several folders: the worst wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// The job was done and nothing was refused.
    Done,
    /// The job ran and found problems, or refused something.
    Problems,
    /// A usage or I/O error.
    Failed,
}

impl From<Outcome> for ExitCode {
    fn from(outcome: Outcome) -> Self {
        match outcome {
            Outcome::Done => ExitCode::SUCCESS,
            Outcome::Problems => ExitCode::from(1),
            Outcome::Failed => ExitCode::from(2),
        }
    }
}

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let outcome = match &cli.command {
        cli::Command::Check(args) => check::run(args),
        cli::Command::Manifest(args) => manifest::run(args),
        cli::Command::New(args) => new::run(args),
        cli::Command::Init(args) => init::run(args),
        cli::Command::Serve(args) => serve::run(args),
    };
    outcome.into()
}
