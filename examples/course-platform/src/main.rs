//! Kestrel Academy, a course platform in miniature: each learner connects an
//! agent with a bearer token and sees the skills they own; courses on sale
//! are sold through the Academy's API, which the agent reaches in code mode
//! (`search` and `execute`); the platform's handbook is a skill
//! (`skill://academy/SKILL.md`) whose API reference is generated from the
//! API's own OpenAPI document.
//!
//! ```sh
//! cargo run -p course-platform -- serve --bind 127.0.0.1:8080   # prints `listening http://…`
//! cargo run -p course-platform -- token learner-a                # a bearer token, alone on stdout
//! cargo run -p course-platform -- grant learner-a async-rust     # a purchase: shows at the next request
//! cargo run -p course-platform -- revoke learner-a async-rust    # a refund
//! ```
//!
//! The database (`--db`, default `course-platform.db` in the current
//! folder) is created and seeded on first use: learners `learner-a` (owns
//! `rust-ownership`) and `learner-b` (owns `sql-joins`), the handbook
//! `academy` free for everyone, `async-rust` on sale and owned by nobody,
//! and `kubernetes-basics` embedded but in preparation (nobody sees it).
//!
//! Entitlements are read per request: the auth layer resolves token →
//! learner → what they own with one short SQLite read for every HTTP
//! request, so a `grant` or `revoke` from another process shows in the very
//! next answer, on every replica sharing the database, with nothing to
//! invalidate. The access policy answers from what the layer resolved: owned
//! skills are `Owned`, courses on sale `Locked` with their offer (a teaser
//! on `GET /skills`, absent on every MCP path), anything else `Absent`.
//! The server also polls the database for commits of other processes and
//! then resolves each open session's learner again, so the sessions whose
//! view changed are told (`notifications/resources/list_changed`) at once.

mod api;
mod auth;
mod db;
#[path = "../../support/logging.rs"]
mod logging;
mod tools;

#[cfg(test)]
mod tests;

use std::io::Write as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use axum::middleware;
use clap::{Parser, Subcommand};
use skills_runtime::http::{SkillsRouter, serve};
use skills_runtime::server::{Access, Caller};
use skills_runtime::{Skill, Skills, SkillsServer, WithSkills, embed_skills};

use crate::db::{Change, Db, Entitlements};

/// The platform's skills: the handbook and one skill per course. Courses
/// are sold, so they are declared gated: only a gated skill may be locked
/// (shown as a teaser with an offer), and a gated skill may not carry
/// `allowed-tools`.
static SKILLS: Skills = embed_skills!("skills", gated = ["courses/*"]);

/// How often the server looks for grants and revokes committed by other
/// processes, to tell the open sessions whose view they change.
const ENTITLEMENTS_POLL: Duration = Duration::from_millis(250);

/// Kestrel Academy: a course platform in miniature, serving each learner
/// the skills they own over MCP, behind OAuth bearer tokens.
#[derive(Parser)]
#[command(version)]
struct Cli {
    /// The SQLite database, created and seeded on first use.
    #[arg(
        long,
        global = true,
        value_name = "PATH",
        default_value = "course-platform.db"
    )]
    db: PathBuf,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve /mcp, /skills, /api, the well-known skills index (at
    /// /.well-known/agent-skills with a bearer header, at
    /// /install/TOKEN/.well-known/agent-skills for installers that send
    /// none) and the public /.well-known/oauth-protected-resource.
    ///
    /// Prints one line, `listening http://ADDR`, on stdout once it accepts
    /// connections; its log goes to stderr.
    Serve {
        /// Where to listen; port 0 picks a free port (the line on stdout shows it).
        #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
        bind: SocketAddr,

        /// Keep no MCP session state: any replica answers any request.
        #[arg(long)]
        stateless: bool,

        /// Verify tokens with an authorization server's key set (a JWKS
        /// file; each token selects its key by `kid`) instead of the
        /// development key of the database.
        #[arg(long, value_name = "PATH")]
        jwks: Option<PathBuf>,

        /// A Host header to accept on /mcp (repeatable; default: loopback names).
        #[arg(long = "allow-host", value_name = "NAME")]
        allowed_hosts: Vec<String>,
    },

    /// Print a development bearer token for LEARNER, alone on stdout.
    Token {
        /// The learner, e.g. learner-a.
        learner: String,

        /// How long the token is valid, in seconds.
        #[arg(long, value_name = "SECONDS", default_value_t = 3600)]
        ttl: u64,
    },

    /// Give LEARNER the course SKILL (a purchase); the running server's
    /// next answer to them shows it.
    Grant {
        /// The learner, e.g. learner-a.
        learner: String,
        /// The course: its skill name (async-rust) or path (courses/async-rust).
        skill: String,
    },

    /// Take the course SKILL away from LEARNER (a refund).
    Revoke {
        /// The learner, e.g. learner-a.
        learner: String,
        /// The course: its skill name (async-rust) or path (courses/async-rust).
        skill: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    logging::init();
    match run(cli) {
        Ok(outcome) => outcome,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "error: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// Exit status 0 when done, 1 when refused; errors (I/O, a bad database or
/// key set) are 2.
fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let db = Db::open(&cli.db)?;
    match cli.command {
        Command::Serve {
            bind,
            stateless,
            jwks,
            allowed_hosts,
        } => {
            let runtime = tokio::runtime::Runtime::new()?;
            runtime.block_on(serve_platform(
                db,
                bind,
                stateless,
                jwks.as_deref(),
                allowed_hosts,
            ))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Token { learner, ttl } => {
            if !db.has_learner(&learner)? {
                let _ = writeln!(std::io::stderr(), "error: no learner is called `{learner}`");
                return Ok(ExitCode::from(1));
            }
            let token = auth::mint(&db, &learner, Duration::from_secs(ttl))?;
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{token}")?;
            stdout.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Grant { learner, skill } => {
            let skill = course_name(&skill);
            report(
                &db,
                db.grant(&learner, &skill)?,
                format!("granted {skill} to {learner}"),
                format!("{learner} already owns {skill}; nothing changed"),
            )
        }
        Command::Revoke { learner, skill } => {
            let skill = course_name(&skill);
            report(
                &db,
                db.revoke(&learner, &skill)?,
                format!("revoked {skill} from {learner}"),
                format!("{learner} does not own {skill}; nothing changed"),
            )
        }
    }
}

/// The course's skill name for what `grant` and `revoke` were given: the
/// name (`async-rust`), or the skill's path or URI as listed
/// (`courses/async-rust`, `skill://courses/async-rust/SKILL.md`).
fn course_name(given: &str) -> String {
    let trimmed = given.trim_end_matches('/');
    SKILLS
        .get(trimmed)
        .or_else(|| SKILLS.by_uri(given))
        .map_or_else(|| given.to_owned(), |skill| skill.name().to_owned())
}

fn report(
    db: &Db,
    outcome: Result<Change, db::Refusal>,
    done: String,
    unchanged: String,
) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    match outcome {
        Ok(Change::Done) => writeln!(stdout, "{done}")?,
        Ok(Change::Unchanged) => writeln!(stdout, "{unchanged}")?,
        Err(refusal) => {
            let mut stderr = std::io::stderr().lock();
            let _ = writeln!(stderr, "error: {refusal}");
            if matches!(refusal, db::Refusal::NotForSale(_)) {
                let on_sale: Vec<String> = db
                    .courses()?
                    .into_iter()
                    .map(|course| course.slug)
                    .collect();
                let _ = writeln!(
                    stderr,
                    "  help: the courses on sale, by skill name: {}",
                    on_sale.join(", ")
                );
            }
            return Ok(ExitCode::from(1));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What the caller gets of `skill`, from what the auth layer resolved for
/// this request: cheap lookups, no database query.
fn access(skill: &Skill, caller: &Caller<'_>) -> Access {
    let Some(entitlements) = caller.extension::<Entitlements>() else {
        return Access::Absent;
    };
    if entitlements.owned.contains(skill.name()) {
        Access::Owned
    } else if let Some(offer) = entitlements.offers.get(skill.name()) {
        Access::Locked(offer.clone())
    } else {
        Access::Absent
    }
}

/// The skills server: each caller sees what [`access`] gives them, and
/// sessions are told when their view changes.
fn skills_server() -> SkillsServer {
    SkillsServer::builder(SKILLS.clone())
        .access(access)
        .notify_changes(true)
        .build()
}

/// The skills server, the API, the tools and the auth layer on one router.
pub fn platform(
    db: Db,
    verifier: auth::Verifier,
    stateless: bool,
    allowed_hosts: Vec<String>,
) -> anyhow::Result<axum::Router> {
    platform_for(skills_server(), db, verifier, stateless, allowed_hosts)
}

/// [`platform`] around `skills`, a server the caller keeps to refresh views.
fn platform_for(
    skills: SkillsServer,
    db: Db,
    verifier: auth::Verifier,
    stateless: bool,
    allowed_hosts: Vec<String>,
) -> anyhow::Result<axum::Router> {
    let (api, _) = api::router(db.clone(), SKILLS.clone());
    let tools = tools::Tools::new(api.clone(), &api::document(), &skills);
    let metadata = auth::metadata(&db.setting("audience")?, &db.setting("issuer")?);
    let auth = auth::Auth {
        verifier: Arc::new(verifier),
        db,
    };
    let router = SkillsRouter::new(skills.clone())
        .handler(WithSkills::new(tools, skills))
        .stateless(stateless)
        .allowed_hosts(allowed_hosts);
    // Installers send no header: the learner's well-known index again, under
    // a path that carries the token, outside the header-only layer.
    let install = router
        .well_known_routes()
        .layer(middleware::from_fn_with_state(
            auth.clone(),
            auth::authenticate,
        ))
        .layer(middleware::from_fn(auth::token_from_path));
    Ok(router
        .build()
        .nest("/api", api)
        .layer(middleware::from_fn_with_state(auth, auth::authenticate))
        .nest(auth::INSTALL_PATH, install)
        .merge(auth::well_known(metadata)))
}

async fn serve_platform(
    db: Db,
    bind: SocketAddr,
    stateless: bool,
    jwks: Option<&Path>,
    allowed_hosts: Vec<String>,
) -> anyhow::Result<()> {
    let keys = match jwks {
        Some(path) => auth::key_set_file(path)?,
        None => auth::development_keys(&db)?,
    };
    let verifier = auth::Verifier::new(&keys, &db.setting("audience")?, &db.setting("issuer")?)?;
    let skills = skills_server();
    let router = platform_for(
        skills.clone(),
        db.clone(),
        verifier,
        stateless,
        allowed_hosts,
    )?;
    tokio::spawn(watch_entitlements(db, skills));
    tracing::info!(
        "Kestrel Academy: {} skills, tokens from {}",
        SKILLS.len(),
        jwks.map(|path| path.display().to_string())
            .unwrap_or_else(|| "the database's development key (`token LEARNER`)".to_owned())
    );
    serve(bind, router).await?;
    Ok(())
}

/// Tells open sessions about grants and revokes made by other processes
/// (the `grant` and `revoke` commands, a payment webhook on another
/// replica): when the database changed, each session's learner is resolved
/// again, as the auth layer would at their next request, and only the
/// sessions whose view changed get `notifications/resources/list_changed`.
async fn watch_entitlements(db: Db, skills: SkillsServer) {
    let mut last = None;
    let mut tick = tokio::time::interval(ENTITLEMENTS_POLL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let server = skills.clone();
        let polled = db
            .run(move |db| {
                let version = db.data_version()?;
                if last.is_some_and(|last| last == version) {
                    return Ok((version, 0));
                }
                let told = if last.is_some() {
                    server.refresh_views_with(|request| {
                        let Some(entitlements) = request.extensions.get_mut::<Entitlements>()
                        else {
                            return;
                        };
                        match db.entitlements(&entitlements.learner) {
                            Ok(Some(now)) => *entitlements = now,
                            // A learner deleted meanwhile owns nothing any more.
                            Ok(None) => entitlements.owned.clear(),
                            Err(error) => {
                                tracing::warn!(%error, "cannot read the entitlements again");
                            }
                        }
                    })
                } else {
                    0
                };
                Ok((version, told))
            })
            .await;
        match polled {
            Ok((version, told)) => {
                if last.is_some_and(|last| last != version) {
                    tracing::debug!(
                        version,
                        told,
                        sessions = skills.listeners(),
                        "the database changed"
                    );
                }
                if told > 0 {
                    tracing::info!("entitlements changed: told {told} session(s)");
                }
                last = Some(version);
            }
            Err(error) => {
                tracing::warn!(%error, "cannot poll the database for entitlement changes")
            }
        }
    }
}
