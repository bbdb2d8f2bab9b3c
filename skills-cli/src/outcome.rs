//! How a command ended, and the exit status it maps to: what every command
//! returns and `main` turns into the process's status.

use std::process::ExitCode;

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
