//! Syncs every skill an MCP server publishes into a folder, verified.
//!
//! ```sh
//! cargo run --example sync -- <folder> -- <server command> [args…]        # stdio
//! cargo run --example sync -- [--header 'Authorization: Bearer …'] <folder> <http URL>
//! ```
//!
//! The folders are recorded as the source's: the URL, or the server command
//! line (`--source LABEL` names it instead); a folder another source wrote is
//! kept unless `--force`, its reason naming whose it is. Skills whose names
//! collide on macOS or Windows (with each other or with what the folder
//! holds), and skills past `--max-bytes` (1 GiB by default), are refused.
//!
//! Prints the report as one JSON object on stdout (`{"source", "server",
//! "folder", "dry_run", "skills": [{"name", "path", "version", "state",
//! "action", …}]}`);
//! a progress bar goes to stderr when stderr is a terminal. Exit status: 0
//! when every skill is in place, 1 when a skill did not verify or a user's
//! edit was kept, 2 on a usage, connection or disk error. A second run
//! reports every skill `up-to-date` and writes nothing.

#[path = "support/header.rs"]
mod header;

use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::sync::Mutex;

use clap::Parser;
use skills_runtime::client::{Progress, SkillSource, SkillsPeerExt as _, SyncOptions, transport};

/// Sync the skills an MCP server publishes into a folder.
#[derive(Parser)]
#[command(
    name = "sync",
    override_usage = "sync [OPTIONS] <FOLDER> -- <SERVER COMMAND> [ARGS]...\n       sync [OPTIONS] [--header 'NAME: VALUE']... <FOLDER> <HTTP URL>"
)]
struct Args {
    /// Where skills land: <FOLDER>/<skill path>/.
    folder: PathBuf,
    /// A streamable HTTP server's URL (instead of a command after `--`).
    url: Option<String>,
    /// The stdio server to start, after `--`.
    #[arg(last = true)]
    command: Vec<String>,
    /// An HTTP header for every request (`Authorization: Bearer …`); repeatable.
    #[arg(long = "header", value_name = "NAME: VALUE")]
    headers: Vec<String>,
    /// Report what would change; fetch no file, write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Overwrite skills a user edited and folders no record knows.
    #[arg(long)]
    force: bool,
    /// Refuse skills that break the Agent Skills rules (otherwise reported).
    #[arg(long)]
    strict: bool,
    /// Keep skills this sync wrote that the server no longer publishes.
    #[arg(long)]
    keep_orphans: bool,
    /// Name the source yourself (what the folder records say wrote each
    /// skill); by default the URL, or the server command line.
    #[arg(long, value_name = "LABEL")]
    source: Option<String>,
    /// Most bytes the sync fetches and writes (default 1 GiB).
    #[arg(long, value_name = "BYTES")]
    max_bytes: Option<u64>,
}

fn main() {
    let args = Args::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let code = match runtime.block_on(run(args)) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("sync: {error}");
            2
        }
    };
    // Dropping the runtime waits for the child server to be killed.
    drop(runtime);
    std::process::exit(code);
}

async fn run(args: Args) -> anyhow::Result<i32> {
    let mut options = SyncOptions::default()
        .dry_run(args.dry_run)
        .force(args.force)
        .strict(args.strict)
        .remove_orphans(!args.keep_orphans);
    if let Some(bytes) = args.max_bytes {
        options = options.max_bytes(bytes);
    }
    if std::io::stderr().is_terminal() {
        let bar = Mutex::new(Bar::default());
        options = options.on_progress(move |progress| {
            bar.lock().unwrap_or_else(|e| e.into_inner()).show(progress)
        });
    }
    // Who the folders are written for: what this command was told, never
    // the name the server gives itself.
    let (client, source) = match (&args.url, args.command.split_first()) {
        (Some(url), None) => {
            let headers = header::parse_all(&args.headers)?;
            let source = SkillSource::url(url)?;
            (
                transport::connect(transport::http(url, headers)?).await?,
                source,
            )
        }
        (None, Some((program, arguments))) => {
            if !args.headers.is_empty() {
                anyhow::bail!(
                    "--header is for HTTP servers; a stdio server takes its own arguments"
                );
            }
            let source = SkillSource::command(program, arguments);
            let server = transport::ChildProcess::spawn(program, arguments)?;
            (transport::connect(server).await?, source)
        }
        _ => anyhow::bail!("give either an HTTP URL or a server command after `--` (see --help)"),
    };
    let source = args.source.map(SkillSource::label).unwrap_or(source);
    let report = client.sync_skills(&args.folder, &source, &options).await;
    let _ = client.cancel().await;
    let report = report?;
    if std::io::stderr().is_terminal() {
        eprintln!();
    }
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut stdout, &report)?;
    writeln!(stdout)?;
    Ok(report.exit_code())
}

/// A one-line progress bar on stderr.
#[derive(Default)]
struct Bar {
    files: usize,
    bytes: u64,
    done_files: usize,
    done_bytes: u64,
}

impl Bar {
    fn show(&mut self, progress: Progress<'_>) {
        match progress {
            Progress::Planned { files, bytes, .. } => {
                self.files = files;
                self.bytes = bytes;
            }
            Progress::Verified { bytes, .. } => {
                self.done_files += 1;
                self.done_bytes += bytes;
            }
            _ => return,
        }
        let width = 30;
        let filled = (self.done_files * width)
            .checked_div(self.files)
            .unwrap_or(width)
            .min(width);
        eprint!(
            "\r[{}{}] {}/{} files verified, {:.1}/{:.1} MB",
            "#".repeat(filled),
            " ".repeat(width - filled),
            self.done_files,
            self.files,
            self.done_bytes as f64 / 1e6,
            self.bytes as f64 / 1e6
        );
    }
}
