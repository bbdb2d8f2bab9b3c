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
#![deny(unreachable_pub)]

mod cargo_toml;
mod check;
mod cli;
mod fix;
mod init;
mod manifest;
mod new;
mod outcome;
mod recipe;
mod report;
mod serve;
mod steps;
mod write;

use std::process::ExitCode;

use clap::Parser;

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
