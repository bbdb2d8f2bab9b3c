//! Logging for the HTTP examples, shared with `#[path]` (not an example of
//! its own: Cargo only finds `examples/*.rs` and `examples/*/main.rs`).

use std::io::IsTerminal as _;

use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

/// Our lines on stderr at `RUST_LOG`'s level (default `info`); rmcp's only
/// from `debug`. rmcp logs three `info` lines for every stateless request (a
/// session starts, its input ends, it finishes); at that level this server
/// used 1.18 × the CPU per read under load: formatting and writing the lines.
pub fn init() {
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
    tracing_subscriber::registry()
        .with(layer)
        .with(filter)
        .init();
}
