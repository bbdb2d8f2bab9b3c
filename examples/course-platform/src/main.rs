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
//! cargo run -p course-platform -- install-token learner-a        # a short one for `npx skills add`
//! cargo run -p course-platform -- grant learner-a async-rust     # a purchase: shows at the next request
//! cargo run -p course-platform -- revoke learner-a async-rust    # a refund
//! cargo run -p course-platform -- rotate-key                     # a new signing key
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
//! The server also learns of other processes' grants and revokes from the
//! entitlement journal (SQLite: it reads it every 250 ms; PostgreSQL: a
//! grant or a revoke is also a `NOTIFY` every replica `LISTEN`s to) and then
//! resolves those learners again, so their sessions whose view changed are
//! told (`notifications/resources/list_changed`) at once (see `changes`).
//! While the database cannot be reached, each learner is answered from what
//! this replica last resolved for them, for a bounded time.

mod api;
mod auth;
mod changes;
mod db;
mod tools;

#[cfg(test)]
mod tests;

use std::io::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use axum::middleware;
use clap::{Parser, Subcommand};
use skills_runtime::http::{Limits, Server, SessionLimits, SkillsRouter};
use skills_runtime::server::{Access, Caller};
use skills_runtime::{Skill, Skills, SkillsServer, embed_skills};

use crate::auth::{KeySource, Purpose, TokenRules};
use crate::db::{Change, Db, Entitlement, Entitlements, Location};

/// The platform's skills: the handbook and one skill per course. Courses
/// are sold, so they are declared gated: only a gated skill may be locked
/// (shown as a teaser with an offer), and a gated skill may not carry
/// `allowed-tools`.
static SKILLS: Skills = embed_skills!("skills", gated = ["courses/*"]);

/// How long the last-known entitlements may serve a learner while the
/// database cannot be reached, by default.
pub const STALE_FOR: Duration = Duration::from_secs(300);

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
    /// /install/TOKEN/.well-known/agent-skills with an install token for
    /// installers that send none) and the public
    /// /.well-known/oauth-protected-resource.
    ///
    /// Prints one line, `listening http://ADDR`, on stdout once it accepts
    /// connections; its log goes to stderr.
    Serve(ServeArgs),

    /// Print an access token for LEARNER (/mcp, /api, /skills), alone on
    /// stdout.
    Token {
        /// The learner, e.g. learner-a.
        learner: String,

        /// How long the token is valid, in seconds (at most 86400, what
        /// `serve` accepts by default).
        #[arg(long, value_name = "SECONDS", default_value_t = 3600)]
        ttl: u64,
    },

    /// Print an install token for LEARNER, alone on stdout: for
    /// `npx skills add http://HOST/install/TOKEN`, which puts it in a URL.
    /// It reads LEARNER's skills index and archives, and nothing else.
    InstallToken {
        /// The learner, e.g. learner-a.
        learner: String,

        /// How long the token is valid, in seconds (at most 900).
        #[arg(long, value_name = "SECONDS", default_value_t = 600)]
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

    /// Add a signing key, which signs every token minted from now on; the
    /// key before it keeps verifying (tokens it signed live on until they
    /// expire), older ones are removed. Serving processes see the change
    /// within their --keys-refresh.
    RotateKey {
        /// Remove every other key too (one was leaked): tokens they signed
        /// are refused within --keys-refresh.
        #[arg(long)]
        retire_others: bool,
    },
}

/// `serve`'s flags: where, and the limits of a server on the internet.
#[derive(clap::Args)]
struct ServeArgs {
    /// Where to listen; port 0 picks a free port (the line on stdout shows it).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    bind: SocketAddr,

    /// Keep no MCP session state: any replica answers any request.
    #[arg(long)]
    stateless: bool,

    /// Verify tokens with an authorization server's key set (a JWKS
    /// file; each token selects its key by `kid`) instead of the
    /// development keys of the database. Read again like those.
    #[arg(long, value_name = "PATH")]
    jwks: Option<PathBuf>,

    /// The URL clients reach this server at (`https://academy.example.com`):
    /// what a 401 names as the protected resource metadata's home
    /// [default: the URL the server prints].
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,

    /// A proxy in front sets X-Forwarded-Proto and X-Forwarded-Host: a 401
    /// names the metadata at the host the client used (one of --allow-host).
    /// Without it those headers are ignored.
    #[arg(long)]
    behind_proxy: bool,

    /// A Host header to accept besides the loopback names (repeatable).
    #[arg(long = "allow-host", value_name = "NAME")]
    allowed_hosts: Vec<String>,

    /// A browser origin to accept besides loopback ones and the server's
    /// own pages (repeatable).
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allowed_origins: Vec<String>,

    /// The longest lifetime (exp - iat) of an access token accepted, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = auth::MAX_LIFETIME.as_secs())]
    max_token_lifetime: u64,

    /// The longest lifetime of an install token accepted, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = auth::MAX_INSTALL_LIFETIME.as_secs())]
    max_install_token_lifetime: u64,

    /// How often the key set is read again, in seconds (at least 1): a key
    /// removed from it is refused within this.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = auth::KEYS_REFRESH.as_secs(),
        value_parser = seconds
    )]
    keys_refresh: u64,

    /// While the database cannot be reached, answer a learner from what
    /// this process last resolved for them, if it is at most this old (in
    /// seconds); then 503. 0 turns it off.
    #[arg(long, value_name = "SECONDS", default_value_t = STALE_FOR.as_secs())]
    serve_stale_for: u64,

    /// Open MCP sessions per learner; past it their idlest is closed.
    #[arg(long, value_name = "N", default_value_t = SessionLimits::MAX_SESSIONS_PER_PRINCIPAL)]
    max_sessions_per_learner: usize,

    /// Open MCP sessions in all; past it a new one gets 503.
    #[arg(long, value_name = "N", default_value_t = SessionLimits::MAX_SESSIONS)]
    max_sessions: usize,

    /// Open connections at most; more wait until one closes. Keep it below
    /// `ulimit -n`.
    #[arg(long, value_name = "N", default_value_t = Limits::MAX_CONNECTIONS)]
    max_connections: usize,

    /// Seconds a client may take to send a request head, and may stay idle
    /// between requests (at least 1).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = Limits::HEADER_TIMEOUT.as_secs(),
        value_parser = seconds
    )]
    header_timeout: u64,
}

/// A period on the command line: whole seconds, at least 1 (a zero timeout
/// closes every connection before its request; a zero refresh rereads the
/// keys without pause).
fn seconds(value: &str) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(seconds) if seconds > 0 => Ok(seconds),
        _ => Err(format!(
            "`{value}` is not a period (whole seconds, at least 1)"
        )),
    }
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
        Command::Serve(args) => {
            serve_platform(db, args).await?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Token { learner, ttl } => {
            print_token(&db, &learner, ttl, Purpose::Access, auth::MAX_LIFETIME).await
        }
        Command::InstallToken { learner, ttl } => {
            print_token(
                &db,
                &learner,
                ttl,
                Purpose::Install,
                auth::MAX_INSTALL_LIFETIME,
            )
            .await
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
        Command::RotateKey { retire_others } => {
            let (kid, retired) = db.rotate_key(retire_others).await?;
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "new signing key {kid}")?;
            for old in retired {
                writeln!(stdout, "retired key {old}")?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Prints a token of `purpose` for `learner`, valid for `ttl` seconds (at
/// most `max`), alone on stdout.
async fn print_token(
    db: &Db,
    learner: &str,
    ttl: u64,
    purpose: Purpose,
    max: Duration,
) -> anyhow::Result<ExitCode> {
    if ttl == 0 || ttl > max.as_secs() {
        anyhow::bail!(
            "--ttl {ttl}: a token of this kind lives 1 to {} seconds",
            max.as_secs()
        );
    }
    if !db.has_learner(learner).await? {
        let _ = writeln!(std::io::stderr(), "error: no learner is called `{learner}`");
        return Ok(ExitCode::from(1));
    }
    let token = auth::mint(db, learner, Duration::from_secs(ttl), purpose).await?;
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{token}")?;
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
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
fn skills_server() -> Result<SkillsServer, skills_runtime::Report> {
    SkillsServer::builder(SKILLS.clone())
        .access(access)
        .notify_changes(true)
        .build()
}

/// How the platform answers, besides its database and tokens: what
/// `serve`'s flags set.
#[derive(Debug, Clone)]
pub struct Options {
    /// Keep no MCP session state.
    pub stateless: bool,
    /// `Host` names besides the loopback ones.
    pub allowed_hosts: Vec<String>,
    /// Browser origins besides loopback ones and the server's own.
    pub allowed_origins: Vec<String>,
    /// Where a 401 says the protected resource metadata is.
    pub public: auth::PublicUrl,
    /// How long the last-known entitlements serve during an outage.
    pub stale_for: Duration,
    /// How many sessions, per learner and in total.
    pub sessions: SessionLimits,
}

impl Options {
    /// The defaults, for a server whose public URL is `public_url`.
    pub fn new(public_url: &str) -> Options {
        Options {
            stateless: false,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            public: auth::PublicUrl {
                base: public_url.trim_end_matches('/').to_owned(),
                behind_proxy: false,
                hosts: Vec::new(),
            },
            stale_for: STALE_FOR,
            sessions: SessionLimits::default(),
        }
    }
}

/// The skills server, the API, the tools and the auth layer on one router.
pub async fn platform(
    db: Db,
    verifier: auth::Verifier,
    options: Options,
) -> anyhow::Result<axum::Router> {
    platform_for(skills_server()?, db, Arc::new(verifier), options).await
}

/// [`platform`] around `skills`, a server the caller keeps to refresh views.
async fn platform_for(
    skills: SkillsServer,
    db: Db,
    verifier: Arc<auth::Verifier>,
    options: Options,
) -> anyhow::Result<axum::Router> {
    let (api, _) = api::router(db.clone(), SKILLS.clone());
    let tools = tools::Tools::new(api.clone(), &api::document(), &skills);
    let metadata = auth::metadata(&verifier.rules().audience, &verifier.rules().issuer);
    let mut public = options.public.clone();
    public.hosts.extend(options.allowed_hosts.iter().cloned());
    let auth = auth::Auth {
        verifier,
        db,
        public: Arc::new(public),
        stale_for: options.stale_for,
        purpose: Purpose::Access,
    };
    let router = SkillsRouter::new(skills.clone())
        .handler(skills.wrap(tools))
        .stateless(options.stateless)
        .allowed_hosts(options.allowed_hosts)
        .allowed_origins(options.allowed_origins)
        .session_limits(options.sessions);
    // Installers send no header: the learner's well-known index again, under
    // a path that carries an install token, outside the header-only layer.
    let install = router
        .well_known_routes()
        .layer(middleware::from_fn_with_state(
            auth.for_install(),
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

async fn serve_platform(db: Db, args: ServeArgs) -> anyhow::Result<()> {
    let source = match &args.jwks {
        Some(path) => KeySource::File(path.clone()),
        None => KeySource::Database(db.clone()),
    };
    let mut rules = TokenRules::of(&db).await?;
    rules.max_lifetime = Duration::from_secs(args.max_token_lifetime);
    rules.max_install_lifetime = Duration::from_secs(args.max_install_token_lifetime);
    let described = source.describe();
    let verifier = Arc::new(auth::Verifier::new(source, rules).await?);
    verifier.refresh_every(Duration::from_secs(args.keys_refresh));
    let limits = Limits {
        max_connections: args.max_connections,
        header_timeout: Duration::from_secs(args.header_timeout),
        ..Limits::default()
    };
    let server = Server::bind(args.bind).await?.limits(limits);
    let url = server.url();
    let mut options = Options::new(args.public_url.as_deref().unwrap_or(&url));
    options.stateless = args.stateless;
    options.allowed_hosts = args.allowed_hosts;
    options.allowed_origins = args.allowed_origins;
    options.public.behind_proxy = args.behind_proxy;
    options.stale_for = Duration::from_secs(args.serve_stale_for);
    options.sessions = SessionLimits {
        max_sessions: args.max_sessions,
        max_sessions_per_principal: args.max_sessions_per_learner,
        ..SessionLimits::default()
    };
    let skills = skills_server()?;
    let router = platform_for(skills.clone(), db.clone(), verifier, options).await?;
    changes::watch(db, skills);
    tracing::info!(
        "Kestrel Academy: {} skills at {url}/mcp, tokens from {described}",
        SKILLS.len(),
    );
    server.serve(router).await?;
    Ok(())
}
