//! Log lines on stderr for a program that serves skills (feature
//! `logging`): `RUST_LOG` sets the level (default `info`), and rmcp's own
//! session lines show only from `debug`. rmcp logs three `info` lines for
//! every stateless request (a session starts, its input ends, it
//! finishes); at that level an HTTP server used 1.18 × the CPU per read
//! under load, formatting and writing them. Colours only on a terminal.
//!
//! ```
//! // A server process: timestamps and targets, as `tracing_subscriber` writes them.
//! skills_runtime::logging::stderr().init();
//! ```
//!
//! What the `skills` command line and the HTTP examples set up, in one
//! place.

use std::io::IsTerminal as _;

use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

/// Log lines on stderr, configured by [`stderr`] and set up by
/// [`init`](Self::init).
#[derive(Debug, Clone, Copy)]
#[must_use = "nothing is logged until `init` is called"]
pub struct Logging {
    bare: bool,
}

/// Log lines on stderr, with timestamps and targets unless [`bare`](Logging::bare).
pub fn stderr() -> Logging {
    Logging { bare: false }
}

impl Logging {
    /// Lines without timestamps or targets: for a terminal or a client's
    /// log, which already have the time.
    pub fn bare(self) -> Self {
        Self { bare: true }
    }

    /// Makes these the process's log lines; a subscriber already set stays.
    pub fn init(self) {
        let level = std::env::var("RUST_LOG")
            .ok()
            .and_then(|level| level.parse().ok())
            .unwrap_or(LevelFilter::INFO);
        let rmcp = if level >= LevelFilter::DEBUG {
            level
        } else {
            LevelFilter::WARN
        };
        let filter = Targets::new().with_target("rmcp", rmcp).with_default(level);
        let layer = tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_ansi(std::io::stderr().is_terminal());
        let registry = tracing_subscriber::registry().with(filter);
        let _ = if self.bare {
            registry
                .with(layer.with_target(false).without_time())
                .try_init()
        } else {
            registry.with(layer).try_init()
        };
    }
}
