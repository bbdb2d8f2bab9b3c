//! The load client of bench/runtime: one client for every server, so figures
//! compare as ratios from one run.
//!
//! ```text
//! http-load startup    [--runs R] [--first M]                       -- <server command>
//! http-load throughput [--transport http|stdio] [--proto P] [--n N] [--window W] ... -- <server command>
//! http-load soak       [--secs S] [--sessions N] [--stateless M] [--rss-out F] -- <server command>
//! http-load hostile    [--tricklers T] [--flooders F] [--requests N] [--rounds R] -- <server command>
//! http-load platform   --cli PATH --db DB [--store S] [--sessions N] [--flooders F] [--requests N]
//!                      [--listeners L] [--grants G] -- <course-platform serve command with {port} and {db}>
//! ```
//!
//! Over HTTP the command holds `{port}` where the server's port goes; the
//! client picks a free port and talks to `http://127.0.0.1:<port>/mcp`.
//! Over stdio (`--transport stdio`) the client speaks on the server's
//! stdin/stdout, as ../shared/bench/peers/load-client does, with the same
//! request mix and row format.
//!
//! - `startup`: process start to the answer of `server/discover`, then of a
//!   first request (HTTP, 2026-07-28 stateless POSTs).
//! - `throughput`: after `skills/list` (every page) and an untimed pass that
//!   reads every file once and checks its uri, size and sha256, `N`
//!   `resources/read` requests round-robin over the shuffled files with `W`
//!   in flight. Each request is timed: rows carry `lat_ms` (p50, p90, p99,
//!   max, mean) next to reads/s, server CPU and peak RSS.
//! - `soak`: stateful sessions (2025-11-25 `initialize`) and stateless
//!   2026-07-28 clients at once, for `S` seconds, each looping over
//!   `skills/list` (every page), `skills/get`, `resources/read` and
//!   `resources/directory/read`, checking every answer against the manifest
//!   read at the start (digests included); server RSS sampled every second.
//!   Exits 1 when any request failed or any answer did not match.
//! - `hostile`: an honest client's `skills/list` latency, idle and while
//!   `T` connections trickle their request heads and `F` clients flood
//!   `initialize`, and how long each trickling connection stayed open.
//! - `platform`: the course platform's learner-b (`initialize`,
//!   `skills/list`), idle and while learner-a holds `N` sessions and floods
//!   orders; then grant-to-`list_changed` latency with `L` sessions open.
//!
//! Output: one JSON object per run on stdout, then a `summary` object.

mod args;
mod hostile;
mod http;
mod platform;
mod soak;
mod stats;
mod stdio;
mod throughput;

use clap::{Parser, Subcommand};

use args::{Throughput, Transport};

#[derive(Parser)]
#[command(about = "Load client of bench/runtime: startup, throughput (with latency), soak")]
struct Cli {
    #[command(subcommand)]
    mode: Mode,
}

#[derive(Subcommand)]
enum Mode {
    /// Process start to the first answers (HTTP).
    Startup(Startup),
    /// Reads/s and per-request latency of `resources/read`.
    Throughput(Throughput),
    /// Sessions and stateless clients at once, every answer checked.
    Soak(soak::Soak),
    /// An honest client while slow clients and an initialize flood attack.
    Hostile(hostile::Hostile),
    /// One learner floods the course platform; another is timed.
    Platform(platform::Platform),
}

#[derive(clap::Args)]
struct Startup {
    /// Processes to start.
    #[arg(long, default_value_t = 15)]
    runs: usize,
    /// The request timed after `server/discover`.
    #[arg(long, default_value = "skills/list")]
    first: String,
    /// The server command, with `{port}` where the port goes.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

fn main() {
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let ok = match cli.mode {
        Mode::Startup(options) => {
            runtime.block_on(http::startup(
                &options.command,
                options.runs,
                &options.first,
            ));
            true
        }
        Mode::Throughput(options) if options.transport == Transport::Stdio => {
            stdio::throughput(&options);
            true
        }
        Mode::Throughput(options) => {
            runtime.block_on(throughput::http(&options));
            true
        }
        Mode::Soak(options) => runtime.block_on(soak::run(&options)),
        Mode::Hostile(options) => runtime.block_on(hostile::run(&options)),
        Mode::Platform(options) => runtime.block_on(platform::run(&options)),
    };
    std::process::exit(if ok { 0 } else { 1 });
}
