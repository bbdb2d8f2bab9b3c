//! Live reload, seen from both sides: a server serving a folder with
//! `SkillsServer::watch`, and in the same process a 2026-07-28 client that
//! listens for changes and prints what it is told. Edit, break, fix, add or
//! delete a skill in the folder while it runs; Ctrl-C stops it.
//!
//! ```sh
//! cargo run --example live                      # watches examples/skills/
//! cargo run --example live -- /path/to/skills
//! ```
//!
//! The client's view goes to stdout; the library's own log (what loaded,
//! what did not and why) goes to stderr through `tracing`.

use std::path::PathBuf;

use clap::Parser;
use rmcp::model::{ProtocolVersion, ServerNotification, SubscriptionFilter};
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use skills_runtime::load::Options;
use skills_runtime::watch::Watch;
use skills_runtime::{Skills, SkillsServer, server};

/// Serve a skills folder with live reload and print what a listening client is told.
#[derive(Parser)]
#[command(version)]
struct Arguments {
    /// The skills folder to serve and watch (the default: the examples' own,
    /// from the repository's root).
    #[arg(default_value = "examples/skills")]
    dir: PathBuf,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // The library's log at `info` (`RUST_LOG` changes it), rmcp's only when
    // something goes wrong; no other crate here logs through `tracing`.
    skills_runtime::logging::stderr().bare().init();
    let arguments = Arguments::parse();

    let server = SkillsServer::new(Skills::empty());
    let watch = server.watch(Watch::folder(&arguments.dir).options(Options::default()))?;
    let mut reloads = watch.reloads();

    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    let serving = server.clone();
    tokio::spawn(server::serve(serving, server_end));
    let client = ()
        .serve_with_lifecycle(
            client_end,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await?;
    let mut stream = client
        .peer()
        .listen(
            SubscriptionFilter::builder()
                .resources_list_changed()
                .build(),
        )
        .await?;
    println!(
        "client: listening for changes to {} ({} skills)",
        watch.dirs()[0].display(), // the one folder of Watch::folder
        client.peer().list_all_skills().await?.len()
    );

    loop {
        tokio::select! {
            notification = stream.next() => match notification? {
                Some(ServerNotification::ResourceListChangedNotification(_)) => {
                    let skills = client.peer().list_all_skills().await?;
                    let names: Vec<&str> = skills.iter().map(|skill| skill.name()).collect();
                    println!("client: resources/list_changed -> skills/list: {}", names.join(", "));
                }
                Some(other) => println!("client: {other:?}"),
                None => break,
            },
            reload = reloads.next() => match reload {
                Some(reload) if reload.report().is_some() => {
                    println!("client: (nothing: the server kept the last good set)");
                }
                Some(_) => {}
                None => break,
            },
            _ = tokio::signal::ctrl_c() => break,
        }
    }
    Ok(())
}
