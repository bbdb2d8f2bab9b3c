//! The arguments of the throughput mode, which its HTTP and stdio clients read.

use clap::ValueEnum;

/// How a client talks to the server.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Transport {
    Http,
    Stdio,
}

/// How a stdio client starts (HTTP throughput is always 2026-07-28 stateless).
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Proto {
    /// 2026-07-28: `server/discover`, then `_meta` on every request.
    Modern,
    /// 2025-11-25: `initialize` and `notifications/initialized`.
    Handshake,
}

#[derive(clap::Args)]
pub struct Throughput {
    #[arg(long, value_enum, default_value = "http")]
    pub(crate) transport: Transport,
    /// stdio only: how the session starts.
    #[arg(long, value_enum, default_value = "modern")]
    pub(crate) proto: Proto,
    /// Server processes, one after the other.
    #[arg(long, default_value_t = 3)]
    pub(crate) runs: usize,
    /// Timed `resources/read` requests per process.
    #[arg(long, default_value_t = 20_000)]
    pub(crate) n: usize,
    /// Requests in flight (over HTTP, one keep-alive connection each).
    #[arg(long, default_value_t = 16)]
    pub(crate) window: usize,
    /// Seed of the file-order permutation.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Skip the untimed pass that reads and verifies every file once.
    #[arg(long)]
    pub(crate) no_verify: bool,
    /// The server command (`{port}` where the port goes, over HTTP).
    #[arg(last = true, required = true)]
    pub(crate) command: Vec<String>,
}
