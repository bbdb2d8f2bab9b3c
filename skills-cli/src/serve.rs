//! `skills serve`: a folder (or an agent's folders) through the live
//! loader, served over stdio or streamable HTTP until the client leaves or
//! a signal comes. What happens (loads, reloads, every problem with
//! `file:line:col`) is told on stderr; stdout carries only the protocol
//! (stdio) or the one `listening` line (HTTP).

use std::path::Path;

use rmcp::model::Implementation;
use skills_core::Options;
use skills_core::vendor::{Agent, Environment};
use skills_runtime::http::{Server, SkillsRouter};
use skills_runtime::server::ServeError;
use skills_runtime::watch::{Watch, WatchHandle};
use skills_runtime::{Skills, SkillsServer};

use crate::check::resolve;
use crate::cli::ServeArgs;
use crate::outcome::Outcome;
use crate::report::{CommandLine, Printer};

/// Serves until the client leaves (stdio) or Ctrl-C / `SIGTERM` (HTTP).
pub(crate) fn run(args: &ServeArgs) -> Outcome {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the runtime: {error}");
            return Outcome::Failed;
        }
    };
    runtime.block_on(serve(args))
}

/// What is served: a folder, or agents' folders.
enum Served {
    Folder {
        dir: std::path::PathBuf,
        shown: String,
    },
    Agents(Vec<&'static Agent>),
}

impl Served {
    /// How the first line names it.
    fn describe(&self, env: &Environment) -> String {
        match self {
            Self::Folder { shown, .. } => format!("the skills in {shown}"),
            Self::Agents(agents) => {
                let described: Vec<String> = agents
                    .iter()
                    .map(|agent| {
                        let roots: Vec<String> = agent
                            .user_roots(env)
                            .iter()
                            .map(|root| root.display().to_string())
                            .collect();
                        format!("{}'s skills ({})", agent.title(), roots.join(", "))
                    })
                    .collect();
                described.join(" and ")
            }
        }
    }

    /// The name the server reports when `--name` is not given.
    fn default_name(&self) -> String {
        match self {
            Self::Folder { dir, .. } => std::path::absolute(dir)
                .ok()
                .as_deref()
                .and_then(Path::file_name)
                .map_or_else(
                    || "skills".to_owned(),
                    |name| name.to_string_lossy().into_owned(),
                ),
            Self::Agents(agents) => {
                let ids: Vec<&str> = agents.iter().map(|agent| agent.id()).collect();
                ids.join("+")
            }
        }
    }
}

async fn serve(args: &ServeArgs) -> Outcome {
    init_logging();
    let env = Environment::from_process();
    let dir = match &args.dir {
        Some(written) => Some(written.clone()),
        None if args.vendor.selected().is_empty() => {
            match crate::cli::default_skills_dir("serve") {
                Ok(dir) => Some(dir),
                Err(error) => {
                    eprintln!("error: {error}");
                    return Outcome::Failed;
                }
            }
        }
        None => None,
    };
    let served = match &dir {
        Some(written) => match resolve(written) {
            Ok(root) if root.path.is_dir() => Served::Folder {
                dir: root.path,
                shown: root.display,
            },
            Ok(root) => {
                eprintln!("error: {}: no such folder", root.display);
                return Outcome::Failed;
            }
            Err(diagnostic) => {
                Printer::for_stderr().lone(&diagnostic, written);
                return Outcome::Failed;
            }
        },
        None => Served::Agents(args.vendor.selected()),
    };
    let name = args.name.clone().unwrap_or_else(|| served.default_name());
    let mut builder = SkillsServer::builder(Skills::empty())
        .server_info(Implementation::new(name.clone(), env!("CARGO_PKG_VERSION")))
        .prompts(args.prompts);
    if let Some(size) = args.skills_page_size {
        builder = builder.skills_page_size(size);
    }
    if let Some(size) = args.resources_page_size {
        builder = builder.resources_page_size(size);
    }
    // An empty set is always servable: the watch below loads the folder.
    let server = match builder.build() {
        Ok(server) => server,
        Err(report) => {
            eprintln!("error: {report}");
            return Outcome::Failed;
        }
    };
    let what = served.describe(&env);
    match args.http {
        None => {
            eprintln!(
                "skills serve: serving {what} as `{name}` over stdio, live; waiting for an MCP client on stdin"
            );
            let Some(_watch) = start(&server, &served, args, &env) else {
                return Outcome::Failed;
            };
            // The pipes an MCP client gives are read on the IO reactor, not a
            // blocking thread per message (falls back to `stdio()` otherwise).
            match skills_runtime::server::serve(server, rmcp::transport::stdio_pipes()).await {
                Ok(_) => Outcome::Done,
                // stdin ended before any client spoke: nobody to serve, nothing failed.
                Err(error @ ServeError::NoClient) => {
                    eprintln!("skills serve: {error}");
                    Outcome::Done
                }
                Err(error) => {
                    eprintln!("error: {error}");
                    Outcome::Failed
                }
            }
        }
        Some(address) => {
            let http = match Server::bind(address).await {
                Ok(http) => http,
                Err(error) => {
                    eprintln!("error: cannot listen on {address}: {error}");
                    return Outcome::Failed;
                }
            };
            let url = http.url();
            let mode = if args.stateless {
                "stateless: clients are not told of changes, they re-list after each entry's ttlMs"
            } else {
                "with sessions: clients are told of changes"
            };
            eprintln!("skills serve: serving {what} as `{name}` at {url}/mcp, live ({mode})");
            let Some(_watch) = start(&server, &served, args, &env) else {
                return Outcome::Failed;
            };
            let router = SkillsRouter::new(server)
                .stateless(args.stateless)
                .allowed_hosts(args.allowed_hosts.clone())
                .allowed_origins(args.allowed_origins.clone())
                .build();
            match http.serve(router).await {
                Ok(()) => Outcome::Done,
                Err(error) => {
                    eprintln!("error: cannot write to stdout: {error}");
                    Outcome::Failed
                }
            }
        }
    }
}

/// Starts watching what is served; the first load is told on stderr.
fn start(
    server: &SkillsServer,
    served: &Served,
    args: &ServeArgs,
    env: &Environment,
) -> Option<WatchHandle> {
    let watched = match served {
        Served::Folder { dir, shown } => {
            let mut options = args.rules.options();
            options.display_root = Some(shown.clone());
            server.watch(Watch::folder(dir).options(options).front_end(&CommandLine))
        }
        Served::Agents(agents) => {
            let roots: Vec<_> = agents
                .iter()
                .flat_map(|agent| agent.user_roots(env))
                .collect();
            server.watch(
                Watch::roots(roots)
                    .options(args.rules.apply(profile(agents)))
                    .front_end(&CommandLine),
            )
        }
    };
    match watched {
        Ok(watch) => Some(watch),
        Err(error) => {
            eprintln!("error: {error}");
            None
        }
    }
}

/// The rules for several agents' folders: the agents' own when they agree,
/// else the most lenient of them (any key), so that no agent's skills are
/// refused for what that agent accepts.
fn profile(agents: &[&'static Agent]) -> Options {
    let mut profiles = agents.iter().map(|agent| agent.options());
    let first = profiles.next().unwrap_or_default();
    if profiles.all(|other| other == first) {
        first
    } else {
        Options::any_fields().following_top_level_links()
    }
}

/// Problems and reloads go to stderr, without timestamps (a terminal or a
/// client's log already has them); `RUST_LOG` sets the level (rmcp's own
/// session chatter only from `debug`).
fn init_logging() {
    skills_runtime::logging::stderr().bare().init();
}
