//! Reload latency: from a file write to the `notifications/resources/list_changed`
//! a listening client receives, debounce included.
//!
//! ```sh
//! cargo bench --bench reload_latency --features watch       # 50 edits, 10 synthetic skills
//! cargo bench --bench reload_latency --features watch -- --edits 50 --skills 100
//! cargo bench --bench reload_latency --features watch -- --tree "$PWD/../shared/corpus/real"   # a copy of a real tree
//! ```
//!
//! (A relative `--tree` is relative to the examples' package, `examples/`,
//! where Cargo runs a bench.)
//!
//! A server watches a folder in a temporary directory; a 2026-07-28 client
//! connected in process listens for `resourcesListChanged`. Each round
//! rewrites one skill's `SKILL.md` (round-robin), takes the time just before
//! the write, and stops the clock when the notification arrives; the next
//! round starts only then. Prints every latency as a JSON line, then the
//! median, min and max. Under `cargo test` (no `--bench`) it runs three
//! edits, to prove it works.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rmcp::model::{ProtocolVersion, ServerNotification, SubscriptionFilter};
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use skills_runtime::load::Options;
use skills_runtime::watch::Watch;
use skills_runtime::{Skills, SkillsServer};

struct Args {
    edits: usize,
    skills: usize,
    tree: Option<PathBuf>,
}

fn args() -> Args {
    let mut args = Args {
        edits: 50,
        skills: 10,
        tree: None,
    };
    let benching = std::env::args().any(|arg| arg == "--bench");
    if !benching {
        args.edits = 3;
    }
    let mut given = std::env::args().skip(1);
    while let Some(arg) = given.next() {
        let mut value = || given.next().expect("a value after the option");
        match arg.as_str() {
            "--edits" => args.edits = value().parse().expect("--edits N"),
            "--skills" => args.skills = value().parse().expect("--skills N"),
            "--tree" => args.tree = Some(PathBuf::from(value())),
            "--bench" => {}
            other if other.starts_with("--") => {}
            other => panic!("unexpected argument {other}"),
        }
    }
    args
}

fn skill_md(name: &str, round: usize) -> String {
    format!("---\nname: {name}\ndescription: Edited in round {round}.\n---\n# {name}\n")
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        } else if kind.is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

#[tokio::main]
async fn main() {
    let args = args();
    let root = std::env::temp_dir().join(format!("skills-reload-latency-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let mut names = Vec::new();
    match &args.tree {
        Some(tree) => {
            copy_tree(tree, &root);
            let loaded = skills_runtime::load::load(&root, &Options::default())
                .unwrap_or_else(|report| panic!("{report}"));
            for skill in loaded.skills().skills() {
                names.push(skill.path().to_owned());
            }
        }
        None => {
            for index in 0..args.skills {
                let name = format!("skill-{index:03}");
                std::fs::create_dir_all(root.join(&name)).unwrap();
                std::fs::write(root.join(&name).join("SKILL.md"), skill_md(&name, 0)).unwrap();
                names.push(name);
            }
        }
    }

    let server = SkillsServer::new(Skills::empty());
    let watch = server
        .watch(Watch::folder(&root).options(Options::default()))
        .expect("watch");
    assert!(watch.last_report().is_none(), "{:?}", watch.last_report());
    let (server_end, client_end) = tokio::io::duplex(1 << 22);
    let serving = server.clone();
    tokio::spawn(skills_runtime::server::serve(serving, server_end));
    let client = ()
        .serve_with_lifecycle(
            client_end,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("server/discover");
    let mut stream = client
        .peer()
        .listen(
            SubscriptionFilter::builder()
                .resources_list_changed()
                .build(),
        )
        .await
        .expect("listen");

    let mut latencies = Vec::with_capacity(args.edits);
    for round in 1..=args.edits {
        let path = &names[round % names.len()];
        let name = path.rsplit('/').next().unwrap();
        let file = root.join(path).join("SKILL.md");
        let text = match &args.tree {
            // Keep the real text; add a comment line after the frontmatter.
            Some(_) => {
                let original = std::fs::read_to_string(&file).unwrap();
                original.replacen("\n---\n", &format!("\n---\n<!-- round {round} -->\n"), 1)
            }
            None => skill_md(name, round),
        };
        let started = Instant::now();
        std::fs::write(&file, text).unwrap();
        loop {
            let notification = tokio::time::timeout(Duration::from_secs(30), stream.next())
                .await
                .expect("a notification within 30 s")
                .expect("a well-formed stream")
                .expect("the stream is open");
            if matches!(
                notification,
                ServerNotification::ResourceListChangedNotification(_)
            ) {
                break;
            }
        }
        let latency = started.elapsed();
        println!(
            "{{\"round\":{round},\"skill\":\"{path}\",\"latency_ms\":{:.3}}}",
            latency.as_secs_f64() * 1e3
        );
        latencies.push(latency);
    }
    latencies.sort();
    let ms = |duration: Duration| duration.as_secs_f64() * 1e3;
    let median = ms(latencies[latencies.len() / 2]);
    let min = ms(latencies[0]);
    let max = ms(latencies[latencies.len() - 1]);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{{\"summary\":true,\"edits\":{},\"skills\":{},\"debounce_ms\":{},\"median_ms\":{median:.1},\"min_ms\":{min:.1},\"max_ms\":{max:.1},\"loadavg\":\"{}\"}}",
        latencies.len(),
        names.len(),
        skills_runtime::watch::DEBOUNCE.as_millis(),
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    eprintln!(
        "reload latency over {} edits of {} skills: median {median:.1} ms, min {min:.1} ms, max {max:.1} ms (debounce {} ms)",
        latencies.len(),
        names.len(),
        skills_runtime::watch::DEBOUNCE.as_millis()
    );
    drop(watch);
    let _ = std::fs::remove_dir_all(&root);
}
