//! `sync-bench <folder> -- <server command> [args…]`: starts the server,
//! syncs every skill it publishes into `<folder>` with skills-runtime's
//! client (each file verified), and prints one JSON line:
//! `{"wall_ms", "client_cpu_ms", "files", "bytes", "skills"}`.
//!
//! `wall_ms` runs from spawning the server to the last skill written (the
//! server's start-up included); `client_cpu_ms` is this process's own user
//! and system time over the same span (from /proc/self/stat: the server, a
//! child process, is not counted).

use std::time::Instant;

use skills_runtime::client::{SkillSource, SkillsPeerExt as _, SyncOptions, transport};

/// This process's user + system CPU time in milliseconds.
fn cpu_ms() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    // Fields after the command name (which may hold spaces) start at `) `.
    let after = &stat[stat.rfind(')').expect("comm") + 2..];
    let fields: Vec<&str> = after.split(' ').collect();
    // utime and stime are fields 14 and 15 of the whole line (11 and 12 here).
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks * 1000.0 / 100.0 // USER_HZ is 100 on Linux
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (folder, command) = match args.iter().position(|a| a == "--") {
        Some(at) if at == 1 && args.len() > 2 => (&args[0], &args[2..]),
        _ => {
            eprintln!("usage: sync-bench <folder> -- <server command> [args…]");
            std::process::exit(2);
        }
    };
    let cpu_before = cpu_ms();
    let started = Instant::now();
    let source = SkillSource::command(&command[0], &command[1..]);
    let server =
        transport::ChildProcess::spawn(&command[0], &command[1..]).expect("spawn the server");
    let client = transport::connect(server).await.expect("connect");
    let report = client
        .sync_skills(folder.as_ref(), &source, &SyncOptions::default())
        .await
        .expect("sync");
    let wall = started.elapsed();
    let cpu = cpu_ms() - cpu_before;
    assert_eq!(report.exit_code(), 0, "{report}");
    let _ = client.cancel().await;
    let mut files = 0u64;
    let mut bytes = 0u64;
    for entry in walk(std::path::Path::new(folder)) {
        if entry
            .file_name()
            .is_some_and(|name| name != ".skills-runtime.json")
        {
            files += 1;
            bytes += std::fs::metadata(&entry).unwrap().len();
        }
    }
    println!(
        "{}",
        serde_json::json!({
            "wall_ms": wall.as_secs_f64() * 1000.0,
            "client_cpu_ms": cpu,
            "files": files,
            "bytes": bytes,
            "skills": report.skills.len(),
        })
    );
}

fn walk(root: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            if entry.file_type().unwrap().is_dir() {
                pending.push(entry.path());
            } else {
                found.push(entry.path());
            }
        }
    }
    found
}
