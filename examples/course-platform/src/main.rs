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
//! folder; a path or `sqlite:PATH` is SQLite, `postgres://…` PostgreSQL) is
//! created and seeded on first use: learners `learner-a` (owns
//! `rust-ownership`) and `learner-b` (owns `sql-joins`), the handbook
//! `academy` free for everyone, `async-rust` on sale and owned by nobody,
//! and `kubernetes-basics` embedded but in preparation (nobody sees it).
//!
//! Entitlements are read per request: the auth layer resolves token →
//! learner → what they own with a few short reads for every HTTP
//! request, so a `grant` or `revoke` from another process shows in the very
//! next answer, on every replica sharing the database, with nothing to
//! invalidate. The access policy answers from what the layer resolved: owned
//! skills are `Owned`, courses on sale `Locked` with their offer (a teaser
//! on `GET /skills`, absent on every MCP path), anything else `Absent`.
//! The server also learns of other processes' commits (SQLite: it polls the
//! file every 250 ms; PostgreSQL: a grant or a revoke is a `NOTIFY` every
//! replica `LISTEN`s to) and then resolves the open sessions' learners again,
//! so the sessions whose view changed are told
//! (`notifications/resources/list_changed`) at once. While PostgreSQL cannot
//! be reached, each learner is answered from what this replica last resolved
//! for them; once it is back, every open session is resolved again.

mod api;
mod auth;
mod db;
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
use skills_runtime::http::{Server, SkillsRouter};
use skills_runtime::server::{Access, Caller};
use skills_runtime::{Skill, Skills, SkillsServer, embed_skills};

use crate::db::{Change, Db, Entitlement, Entitlements, Location, Store};

/// The platform's skills: the handbook and one skill per course. Courses
/// are sold, so they are declared gated: only a gated skill may be locked
/// (shown as a teaser with an offer), and a gated skill may not carry
/// `allowed-tools`.
static SKILLS: Skills = embed_skills!("skills", gated = ["courses/*"]);

/// How often the server looks for grants and revokes committed by other
/// processes, to tell the open sessions whose view they change.
const ENTITLEMENTS_POLL: Duration = Duration::from_millis(250);

/// The longest wait between two attempts to listen again on PostgreSQL
/// after the connection was lost (the first wait is 100 ms, doubled each
/// time).
const LISTEN_BACKOFF_MAX: Duration = Duration::from_secs(5);

/// Kestrel Academy: a course platform in miniature, serving each learner
/// the skills they own over MCP, behind OAuth bearer tokens.
#[derive(Parser)]
#[command(version)]
struct Cli {
    /// The database, created and seeded on first use: a SQLite file (a
    /// path or `sqlite:PATH`) or a PostgreSQL URL (`postgres://USER:PASSWORD@HOST:PORT/NAME`).
    #[arg(
        long,
        global = true,
        value_name = "PATH|URL",
        default_value = "course-platform.db"
    )]
    db: String,

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
    skills_runtime::logging::stderr().init();
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
    let location = Location::parse(&cli.db)?;
    tokio::runtime::Runtime::new()?.block_on(run_with(location, cli.command))
}

async fn run_with(location: Location, command: Command) -> anyhow::Result<ExitCode> {
    let db = Db::open(&location).await?;
    match command {
        Command::Serve {
            bind,
            stateless,
            jwks,
            allowed_hosts,
        } => {
            serve_platform(db, bind, stateless, jwks.as_deref(), allowed_hosts).await?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Token { learner, ttl } => {
            if !db.has_learner(&learner).await? {
                let _ = writeln!(std::io::stderr(), "error: no learner is called `{learner}`");
                return Ok(ExitCode::from(1));
            }
            let token = auth::mint(&db, &learner, Duration::from_secs(ttl)).await?;
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{token}")?;
            stdout.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Grant { learner, skill } => {
            let skill = course_name(&skill);
            report(
                &db,
                db.entitle(Entitlement::Grant, &learner, &skill).await?,
                format!("granted {skill} to {learner}"),
                format!("{learner} already owns {skill}; nothing changed"),
            )
            .await
        }
        Command::Revoke { learner, skill } => {
            let skill = course_name(&skill);
            report(
                &db,
                db.entitle(Entitlement::Revoke, &learner, &skill).await?,
                format!("revoked {skill} from {learner}"),
                format!("{learner} does not own {skill}; nothing changed"),
            )
            .await
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

async fn report(
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
            let on_sale: Vec<String> = if matches!(refusal, db::Refusal::NotForSale(_)) {
                db.courses()
                    .await?
                    .into_iter()
                    .map(|course| course.slug)
                    .collect()
            } else {
                Vec::new()
            };
            let mut stderr = std::io::stderr().lock();
            let _ = writeln!(stderr, "error: {refusal}");
            if matches!(refusal, db::Refusal::NotForSale(_)) {
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
pub async fn platform(
    db: Db,
    verifier: auth::Verifier,
    stateless: bool,
    allowed_hosts: Vec<String>,
) -> anyhow::Result<axum::Router> {
    platform_for(skills_server(), db, verifier, stateless, allowed_hosts).await
}

/// [`platform`] around `skills`, a server the caller keeps to refresh views.
async fn platform_for(
    skills: SkillsServer,
    db: Db,
    verifier: auth::Verifier,
    stateless: bool,
    allowed_hosts: Vec<String>,
) -> anyhow::Result<axum::Router> {
    let (api, _) = api::router(db.clone(), SKILLS.clone());
    let tools = tools::Tools::new(api.clone(), &api::document(), &skills);
    let metadata = auth::metadata(&db.setting("audience").await?, &db.setting("issuer").await?);
    let auth = auth::Auth {
        verifier: Arc::new(verifier),
        db,
    };
    let router = SkillsRouter::new(skills.clone())
        .handler(skills.wrap(tools))
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
        None => auth::development_keys(&db).await?,
    };
    let verifier = auth::Verifier::new(
        &keys,
        &db.setting("audience").await?,
        &db.setting("issuer").await?,
    )?;
    let skills = skills_server();
    let router = platform_for(
        skills.clone(),
        db.clone(),
        verifier,
        stateless,
        allowed_hosts,
    )
    .await?;
    match db.store() {
        Store::Sqlite => tokio::spawn(watch_entitlements(db, skills)),
        Store::Postgres => tokio::spawn(listen_entitlements(db, skills)),
    };
    tracing::info!(
        "Kestrel Academy: {} skills, tokens from {}",
        SKILLS.len(),
        jwks.map(|path| path.display().to_string())
            .unwrap_or_else(|| "the database's development key (`token LEARNER`)".to_owned())
    );
    Server::bind(bind).await?.serve(router).await?;
    Ok(())
}

/// Resolves the learners of the open sessions again, as the auth layer
/// would at their next request, and tells only the sessions whose view
/// changed (`notifications/resources/list_changed`): all of them, or only
/// those of `learner`. Returns how many were told. The one path both stores
/// take, whether a change was polled (SQLite) or announced (PostgreSQL).
async fn refresh_sessions(db: &Db, skills: &SkillsServer, learner: Option<String>) -> usize {
    let db = db.clone();
    let skills = skills.clone();
    let runtime = tokio::runtime::Handle::current();
    // The sessions are rewritten under their lock, synchronously: off the
    // async threads, each read waited for on this blocking thread.
    let told = tokio::task::spawn_blocking(move || {
        skills.refresh_views_with(|request| {
            let Some(entitlements) = request.extensions.get_mut::<Entitlements>() else {
                return;
            };
            if learner
                .as_deref()
                .is_some_and(|learner| learner != entitlements.learner)
            {
                return;
            }
            match runtime.block_on(db.entitlements(&entitlements.learner)) {
                Ok(Some(now)) => *entitlements = now,
                // A learner deleted meanwhile owns nothing any more.
                Ok(None) => entitlements.owned.clear(),
                Err(error) => {
                    tracing::warn!("cannot read the entitlements again: {error:#}");
                }
            }
        })
    })
    .await;
    let told = told.unwrap_or_else(|error| {
        tracing::error!(%error, "refreshing the sessions failed");
        0
    });
    if told > 0 {
        tracing::info!("entitlements changed: told {told} session(s)");
    }
    told
}

/// Tells open sessions about grants and revokes made by other processes
/// on SQLite (the `grant` and `revoke` commands, a payment webhook on
/// another replica): when the file changed, [`refresh_sessions`].
async fn watch_entitlements(db: Db, skills: SkillsServer) {
    let mut last = None;
    let mut tick = tokio::time::interval(ENTITLEMENTS_POLL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut watch = None;
    loop {
        tick.tick().await;
        if watch.is_none() {
            match db.watch().await {
                Ok(opened) => watch = Some(opened),
                Err(error) => {
                    tracing::warn!("cannot poll the database for entitlement changes: {error:#}");
                    continue;
                }
            }
        }
        let Some(connection) = watch.as_mut() else {
            continue;
        };
        match connection.data_version().await {
            Ok(version) => {
                if last.is_some_and(|last| last != version) {
                    tracing::debug!(
                        version,
                        sessions = skills.listeners(),
                        "the database changed"
                    );
                    refresh_sessions(&db, &skills, None).await;
                }
                last = Some(version);
            }
            Err(error) => {
                tracing::warn!("cannot poll the database for entitlement changes: {error:#}");
                watch = None;
            }
        }
    }
}

/// Tells open sessions about grants and revokes on PostgreSQL: each is a
/// `NOTIFY` naming the learner, committed with the change, so this replica
/// [`refresh_sessions`] of that learner only. When the connection is lost,
/// requests are answered from the last-known entitlements (see the auth
/// layer), this listens again with backoff, and then resolves every open
/// session again: a notification may have been missed meanwhile.
async fn listen_entitlements(db: Db, skills: SkillsServer) {
    let mut backoff = Duration::from_millis(100);
    let mut lost = false;
    loop {
        match listen(&db).await {
            Ok(mut listener) => {
                backoff = Duration::from_millis(100);
                if lost {
                    tracing::info!("listening for entitlement changes again");
                    refresh_sessions(&db, &skills, None).await;
                }
                loop {
                    match listener.try_recv().await {
                        Ok(Some(notification)) => {
                            tracing::debug!(
                                learner = notification.payload(),
                                "entitlements changed"
                            );
                            refresh_sessions(&db, &skills, Some(notification.payload().to_owned()))
                                .await;
                        }
                        Ok(None) => {
                            tracing::warn!(
                                "lost the database connection; answering from the last-known entitlements"
                            );
                            break;
                        }
                        Err(error) => {
                            tracing::warn!(
                                %error,
                                "lost the database connection; answering from the last-known entitlements"
                            );
                            break;
                        }
                    }
                }
            }
            Err(error) => {
                tracing::warn!(
                    "cannot listen for entitlement changes (again in {} ms): {error:#}",
                    backoff.as_millis()
                );
            }
        }
        lost = true;
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(LISTEN_BACKOFF_MAX);
    }
}

/// A connection listening on [`db::CHANNEL`].
async fn listen(db: &Db) -> anyhow::Result<sqlx::postgres::PgListener> {
    let mut listener = sqlx::postgres::PgListener::connect(db.location().url()).await?;
    listener.listen(db::CHANNEL).await?;
    Ok(listener)
}
