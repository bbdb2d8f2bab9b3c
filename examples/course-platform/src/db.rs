//! The platform's database: who the learners are, which skills are free for
//! everyone, which courses are on sale and at what price, who owns what, the
//! orders, and the development signing key with the audience and issuer
//! tokens must carry.
//!
//! Two stores, one code path: SQLite (a file, the default: nothing to
//! install) or PostgreSQL (`--db postgres://…`, for replicas on several
//! machines). Both go through sqlx's `Any` driver, chosen at run time by the
//! URL: the queries are written once, in the SQL both engines accept
//! (`$1` placeholders, `ON CONFLICT DO NOTHING`, `RETURNING`), and only the
//! schema's DDL and the start of a writing transaction differ by store.
//! (Code generic over `sqlx::Database` would have picked the store at
//! compile time and carried a where-clause per query; `Any` costs a value
//! conversion per column, nothing next to a round trip.)
//!
//! Every process opens the same database: `serve` reads it on every request,
//! while `grant`, `revoke` and `token` write and read it from other
//! processes. On SQLite, WAL mode lets them work at once (readers never wait
//! for a writer), and a busy timeout makes two writers queue instead of
//! failing.
//!
//! Every grant and revoke also appends the learner to a journal
//! (`entitlement_changes`) in its own transaction: the one record of which
//! learners' entitlements changed, which every serving process reads from
//! where it left off ([`Db::changes_since`]). Orders and quotes are not in
//! it, so they never make a server resolve anyone again. Grants and revokes
//! are serialized (SQLite's immediate transaction, an advisory lock on
//! PostgreSQL), so the journal's numbers commit in order and a reader never
//! skips one. On PostgreSQL the write also sends `NOTIFY` ([`CHANNEL`]), so
//! a replica reads the journal at once instead of at its next poll.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::str::FromStr as _;
use std::sync::{Arc, Mutex, Once, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Context as _;
use base64::Engine as _;
use ed25519_dalek::pkcs8::EncodePrivateKey as _;
use jsonwebtoken::jwk::{
    AlgorithmParameters, CommonParameters, EllipticCurve, Jwk, KeyAlgorithm,
    OctetKeyPairParameters, OctetKeyPairType, PublicKeyUse, ThumbprintHash,
};
use skills_runtime::server::Offer;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::pool::PoolConnection;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{Any, AnyConnection, AnyPool, ConnectOptions as _, Connection as _, Row as _};

/// The audience a token must name to be accepted here, on first start: the
/// canonical URL of this server's MCP endpoint, as an authorization server
/// would issue tokens for it (RFC 8707). Change it in the `settings` table
/// when you deploy under your own name.
pub const DEFAULT_AUDIENCE: &str = "https://kestrel-academy.example/mcp";

/// The issuer a token must name, on first start: the authorization server.
/// Here `token` plays that part with the development key.
pub const DEFAULT_ISSUER: &str = "https://auth.kestrel-academy.example";

/// The audience an install token (for `/install/{token}`, minted by
/// `install-token`) must name, on first start: the installer's path is
/// another resource than `/mcp` and `/api`, so a token for one is refused
/// by the other.
pub const DEFAULT_INSTALL_AUDIENCE: &str = "https://kestrel-academy.example/install";

/// The PostgreSQL channel a grant or a revoke is announced on; the payload
/// is the learner's id.
pub const CHANNEL: &str = "course_platform_entitlements";

/// Bumped when the schema changes; SQLite's `PRAGMA user_version` or
/// PostgreSQL's `schema_version` table holds it.
const SCHEMA_VERSION: i64 = 2; // and `PRAGMA user_version = 2` in migrate_sqlite

/// The key of the PostgreSQL advisory lock held while the schema is
/// created, so that two replicas starting at once do not both seed.
const MIGRATION_LOCK: i64 = 0x6b65_7374_7265_6c31; // "kestrel1"

/// The key of the PostgreSQL advisory lock a grant or a revoke holds for
/// its transaction: the journal's numbers then commit in order.
const JOURNAL_LOCK: i64 = 0x6b65_7374_7265_6c32; // "kestrel2"

/// How long start-up waits for the database before giving up.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a request waits for a connection of the pool: while the
/// database is down, the auth layer then answers from the last-known
/// entitlements after this long.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(2);

const SQLITE_SCHEMA: &str = "
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE signing_keys (kid TEXT PRIMARY KEY, pkcs8 BLOB NOT NULL, jwk TEXT NOT NULL);
CREATE TABLE learners (id TEXT PRIMARY KEY, name TEXT NOT NULL);
-- Skills every learner owns (the platform's handbook).
CREATE TABLE public_skills (name TEXT PRIMARY KEY);
-- Courses on sale: each is a skill, locked until bought.
CREATE TABLE courses (
    slug TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    summary TEXT NOT NULL,
    lessons INTEGER NOT NULL,
    price_cents INTEGER NOT NULL,
    currency TEXT NOT NULL
);
CREATE TABLE entitlements (
    learner TEXT NOT NULL REFERENCES learners(id),
    skill TEXT NOT NULL,
    granted_at INTEGER NOT NULL,
    PRIMARY KEY (learner, skill)
);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    learner TEXT NOT NULL REFERENCES learners(id),
    course TEXT NOT NULL REFERENCES courses(slug),
    price_cents INTEGER NOT NULL,
    currency TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('quoted', 'awaiting_payment')),
    created_at INTEGER NOT NULL
);
";

/// The same tables in PostgreSQL's types.
const POSTGRES_SCHEMA: &str = "
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE signing_keys (kid TEXT PRIMARY KEY, pkcs8 BYTEA NOT NULL, jwk TEXT NOT NULL);
CREATE TABLE learners (id TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE public_skills (name TEXT PRIMARY KEY);
CREATE TABLE courses (
    slug TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    summary TEXT NOT NULL,
    lessons BIGINT NOT NULL,
    price_cents BIGINT NOT NULL,
    currency TEXT NOT NULL
);
CREATE TABLE entitlements (
    learner TEXT NOT NULL REFERENCES learners(id),
    skill TEXT NOT NULL,
    granted_at BIGINT NOT NULL,
    PRIMARY KEY (learner, skill)
);
CREATE TABLE orders (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    learner TEXT NOT NULL REFERENCES learners(id),
    course TEXT NOT NULL REFERENCES courses(slug),
    price_cents BIGINT NOT NULL,
    currency TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('quoted', 'awaiting_payment')),
    created_at BIGINT NOT NULL
);
";

/// Schema version 2 on SQLite: the entitlement journal, and the time each
/// signing key was added (minting signs with the newest).
const SQLITE_V2: &str = "
CREATE TABLE entitlement_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    learner TEXT NOT NULL,
    changed_at INTEGER NOT NULL
);
ALTER TABLE signing_keys ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;
";

/// Schema version 2 on PostgreSQL.
const POSTGRES_V2: &str = "
CREATE TABLE entitlement_changes (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    learner TEXT NOT NULL,
    changed_at BIGINT NOT NULL
);
ALTER TABLE signing_keys ADD COLUMN created_at BIGINT NOT NULL DEFAULT 0;
";

/// The learners, skills and courses of a fresh database. Each learner owns a
/// course the other does not; `academy` is free for everyone; `async-rust`
/// is on sale and owned by nobody; `kubernetes-basics` is embedded in the
/// binary but in no table (in preparation), so nobody hears of it.
const SEED: &str = "
INSERT INTO learners (id, name) VALUES ('learner-a', 'Ada'), ('learner-b', 'Brian');
INSERT INTO public_skills (name) VALUES ('academy');
INSERT INTO courses (slug, title, summary, lessons, price_cents, currency) VALUES
    ('rust-ownership', 'Rust Ownership in Practice', 'Moves, borrows and lifetimes in six short lessons with exercises.', 6, 4900, 'EUR'),
    ('sql-joins', 'SQL Joins Without Tears', 'Inner, outer and self joins, and reading a query plan, over one small shop database.', 6, 3900, 'EUR'),
    ('async-rust', 'Async Rust from the Ground Up', 'Futures, executors, tasks, cancellation and backpressure, by building a chat server.', 8, 5900, 'EUR');
INSERT INTO entitlements (learner, skill, granted_at) VALUES
    ('learner-a', 'rust-ownership', 0),
    ('learner-b', 'sql-joins', 0);
";

/// Which engine a [`Db`] talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Store {
    Sqlite,
    Postgres,
}

/// Where the database is, from `--db`: a path or a `sqlite:` URL (SQLite),
/// or a `postgres://` (`postgresql://`) URL.
#[derive(Clone)]
pub struct Location {
    store: Store,
    /// The URL sqlx connects to (with its password, if any).
    url: String,
    /// What messages show: the path, or the URL without its password.
    shown: String,
}

impl std::fmt::Debug for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

impl Location {
    /// Reads `--db`. Only a malformed URL is an error here; whether the
    /// database answers is found out by [`Db::open`].
    pub fn parse(given: &str) -> anyhow::Result<Location> {
        if given.starts_with("postgres://") || given.starts_with("postgresql://") {
            let shown = redact(given);
            // Checked now so that a typo is named before any connection.
            sqlx::postgres::PgConnectOptions::from_str(given)
                .map_err(|error| anyhow::anyhow!("{error}"))
                .with_context(|| format!("`{shown}` is not a PostgreSQL URL"))?;
            return Ok(Location {
                store: Store::Postgres,
                url: given.to_owned(),
                shown,
            });
        }
        let options = if given.starts_with("sqlite:") {
            SqliteConnectOptions::from_str(given)
                .map_err(|error| anyhow::anyhow!("{error}"))
                .with_context(|| format!("`{given}` is not a SQLite URL"))?
        } else if given.contains("://") {
            anyhow::bail!(
                "`{}` is neither a path nor a database URL this platform knows (sqlite:PATH or postgres://…)",
                redact(given)
            );
        } else {
            SqliteConnectOptions::new().filename(Path::new(given))
        };
        let options = options.create_if_missing(true);
        Ok(Location {
            store: Store::Sqlite,
            shown: options.get_filename().display().to_string(),
            url: options.to_url_lossy().to_string(),
        })
    }

    /// The store this location names.
    pub fn store(&self) -> Store {
        self.store
    }

    /// The URL, with its password (for the PostgreSQL listener).
    pub fn url(&self) -> &str {
        &self.url
    }
}

/// `given` with every credential a database URL can carry replaced by
/// `***`, for messages and logs: the password of its user part, and the
/// value of any query parameter that names a secret (`password`,
/// `sslpassword`, and any other whose name holds `pass`, `secret`, `token`
/// or `key`: sqlx reads `?password=` as the password).
pub fn redact(given: &str) -> String {
    match url::Url::parse(given) {
        Ok(mut url) => {
            if url.password().is_some() {
                let _ = url.set_password(Some("***"));
            }
            if url.query().is_some() {
                let pairs: Vec<(String, String)> = url
                    .query_pairs()
                    .map(|(name, value)| {
                        let secret = ["pass", "secret", "token", "key"]
                            .iter()
                            .any(|word| name.to_ascii_lowercase().contains(word));
                        let value = if secret {
                            "***".to_owned()
                        } else {
                            value.into_owned()
                        };
                        (name.into_owned(), value)
                    })
                    .collect();
                url.query_pairs_mut().clear().extend_pairs(pairs);
            }
            url.to_string()
        }
        // Not a URL: show up to the scheme, never what may be a secret.
        Err(_) => match given.split_once("://") {
            Some((scheme, _)) => format!("{scheme}://…"),
            None => "the given database URL".to_owned(),
        },
    }
}

/// A pool of connections to the database, shared by the server's requests
/// or used by a command.
#[derive(Clone)]
pub struct Db {
    pool: AnyPool,
    location: Location,
    /// What each learner was last resolved to, and when: answered from
    /// while the database cannot be reached, for a bounded time.
    last_known: Arc<Mutex<HashMap<String, (Entitlements, Instant)>>>,
    /// Whether the database can be reached, as the process's watcher of
    /// entitlement changes last found (its own connection, polled or
    /// listening): a request that fails while it is reachable found the
    /// database busy, not gone.
    health: Arc<Health>,
}

/// Since when the database has been unreachable, if it is.
#[derive(Default)]
pub struct Health {
    unreachable_since: Mutex<Option<Instant>>,
}

impl Health {
    /// The watcher lost the database.
    pub fn lost(&self) {
        let mut since = self
            .unreachable_since
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        since.get_or_insert_with(Instant::now);
    }

    /// The watcher reached the database.
    pub fn reached(&self) {
        *self
            .unreachable_since
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// Whether the database is unreachable now.
    pub fn is_unreachable(&self) -> bool {
        self.unreachable_since
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some()
    }
}

/// Why a request's entitlements could not be resolved.
#[derive(Debug)]
pub enum Unresolved {
    /// The database answered but the learner does not exist.
    UnknownLearner,
    /// The database failed or is busy, or has been unreachable for longer
    /// than the last-known entitlements may be served.
    Unavailable(anyhow::Error),
}
/// What one learner may see, resolved once per request by the auth layer
/// and put in the request's extensions, where the access policy, the API
/// routes and the `execute` tool read it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entitlements {
    /// The learner's id (the token's `sub`).
    pub learner: String,
    /// The skills the learner may read: public ones and those they bought.
    pub owned: HashSet<String>,
    /// The courses on sale, by skill name, with the offer a catalog shows.
    pub offers: HashMap<String, Offer>,
}

/// A course of the catalog.
#[derive(Clone, Debug)]
pub struct Course {
    pub slug: String,
    pub title: String,
    pub summary: String,
    pub lessons: u32,
    pub price_cents: i64,
    pub currency: String,
}

impl Course {
    /// `EUR 49.00`.
    pub fn price(&self) -> String {
        format!(
            "{} {}.{:02}",
            self.currency,
            self.price_cents / 100,
            self.price_cents % 100
        )
    }

    /// What a catalog shows next to a locked course.
    pub fn offer(&self) -> serde_json::Value {
        serde_json::json!({
            "title": self.title,
            "price": self.price(),
            "link": format!("https://kestrel-academy.example/courses/{}", self.slug),
        })
    }
}

/// An order, as its learner sees it.
#[derive(Clone, Debug)]
pub struct Order {
    pub id: i64,
    pub course: Course,
    /// `quoted`, `awaiting_payment` or `paid` (awaiting payment, and the
    /// learner now owns the course: the payment provider's webhook, here
    /// the `grant` command, granted it).
    pub status: &'static str,
}

/// What `grant` or `revoke` did.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    Done,
    /// Nothing to do: the learner already owned (or did not own) it.
    Unchanged,
}

/// What [`Db::entitle`] does to a learner's courses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entitlement {
    /// Gives the course (a purchase, or the payment provider's webhook).
    Grant,
    /// Takes the course away (a refund).
    Revoke,
}

/// Why `grant` or `revoke` refused (exit status 1).
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    UnknownLearner(String),
    NotForSale(String),
}

impl std::error::Error for Refusal {}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::UnknownLearner(learner) => write!(f, "no learner is called `{learner}`"),
            Self::NotForSale(skill) => write!(
                f,
                "`{skill}` is not a course on sale (public skills need no grant, and other skills cannot be sold)"
            ),
        }
    }
}

pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// Lets sqlx's `Any` connect to SQLite and PostgreSQL (once per process).
fn install_drivers() {
    static DRIVERS: Once = Once::new();
    DRIVERS.call_once(sqlx::any::install_default_drivers);
}

fn sql_error(error: sqlx::Error) -> anyhow::Error {
    anyhow::Error::new(error)
}

impl Db {
    /// Opens the database at `location`, creating the schema and seeding it
    /// (with a fresh signing key) if it is new. Safe to run from two
    /// processes at once: SQLite's immediate transaction, PostgreSQL's
    /// advisory lock, make the second wait and then find it done.
    pub async fn open(location: &Location) -> anyhow::Result<Db> {
        install_drivers();
        let options = AnyConnectOptions::from_str(location.url())
            .map_err(sql_error)
            .with_context(|| format!("`{location}` is not a database URL"))?;
        let mut first =
            tokio::time::timeout(CONNECT_TIMEOUT, AnyConnection::connect_with(&options))
                .await
                .map_err(|_| anyhow::anyhow!("no answer within {}s", CONNECT_TIMEOUT.as_secs()))
                .and_then(|connected| connected.map_err(sql_error))
                .with_context(|| format!("cannot connect to the database {location}"))?;
        let migrated = match location.store() {
            Store::Sqlite => migrate_sqlite(&mut first).await,
            Store::Postgres => migrate_postgres(&mut first).await,
        };
        let closed = first.close().await;
        migrated.with_context(|| match location.store() {
            Store::Sqlite => format!("{location} is not a usable SQLite database"),
            Store::Postgres => format!("cannot set up the database {location}"),
        })?;
        closed.map_err(sql_error)?;
        let pool = AnyPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_lazy_with(options);
        Ok(Db {
            pool,
            location: location.clone(),
            last_known: Arc::default(),
            health: Arc::default(),
        })
    }

    /// Where the database is (without a password).
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// The engine behind this database.
    pub fn store(&self) -> Store {
        self.location.store()
    }

    /// A value of the `settings` table.
    pub async fn setting(&self, key: &str) -> anyhow::Result<String> {
        sqlx::query("SELECT value FROM settings WHERE key = $1")
            .bind(key)
            .fetch_one(&self.pool)
            .await
            .map_err(sql_error)?
            .try_get(0)
            .map_err(sql_error)
            .with_context(|| format!("the database has no `{key}` setting"))
    }

    /// The development signing keys, as `(kid, PKCS#8 DER, public JWK)`,
    /// newest first: minting signs with the first.
    pub async fn signing_keys(&self) -> anyhow::Result<Vec<(String, Vec<u8>, Jwk)>> {
        let rows =
            sqlx::query("SELECT kid, pkcs8, jwk FROM signing_keys ORDER BY created_at DESC, kid")
                .fetch_all(&self.pool)
                .await
                .map_err(sql_error)?;
        rows.into_iter()
            .map(|row| {
                let kid: String = row.try_get(0)?;
                let pkcs8: Vec<u8> = row.try_get(1)?;
                let jwk: String = row.try_get(2)?;
                let jwk: Jwk = serde_json::from_str(&jwk)
                    .with_context(|| format!("the stored public key {kid} is not a JWK"))?;
                Ok((kid, pkcs8, jwk))
            })
            .collect()
    }

    /// Whether `learner` exists.
    pub async fn has_learner(&self, learner: &str) -> anyhow::Result<bool> {
        Ok(sqlx::query("SELECT 1 FROM learners WHERE id = $1")
            .bind(learner)
            .fetch_optional(&self.pool)
            .await?
            .is_some())
    }

    /// What `learner` may see right now; `None` for a learner who does not
    /// exist (any more). A few short reads per request: a grant or a revoke
    /// by another process shows in the very next answer.
    pub async fn entitlements(&self, learner: &str) -> anyhow::Result<Option<Entitlements>> {
        let resolved = self.resolve(learner).await?;
        let mut last_known = self
            .last_known
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match &resolved {
            Some(entitlements) => {
                last_known.insert(learner.to_owned(), (entitlements.clone(), Instant::now()));
            }
            None => {
                last_known.remove(learner);
            }
        }
        Ok(resolved)
    }

    /// What a request of `learner` is answered with: their entitlements
    /// now, or, only while the database is unreachable (not when it is
    /// merely busy), what this process last resolved for them, if that is
    /// at most `stale_for` old.
    pub async fn entitlements_for_request(
        &self,
        learner: &str,
        stale_for: Duration,
    ) -> Result<Entitlements, Unresolved> {
        let error = match self.entitlements(learner).await {
            Ok(Some(entitlements)) => return Ok(entitlements),
            Ok(None) => return Err(Unresolved::UnknownLearner),
            Err(error) => error,
        };
        if !self.health.is_unreachable() {
            return Err(Unresolved::Unavailable(
                error.context("the database is reachable but did not answer in time"),
            ));
        }
        let known = self
            .last_known
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(learner)
            .cloned();
        match known {
            Some((entitlements, resolved)) if resolved.elapsed() <= stale_for => {
                tracing::warn!("answering from the last-known entitlements: {error:#}");
                Ok(entitlements)
            }
            Some(_) => Err(Unresolved::Unavailable(error.context(format!(
                "the last-known entitlements are older than {} s",
                stale_for.as_secs()
            )))),
            None => Err(Unresolved::Unavailable(error)),
        }
    }

    /// Whether the database can be reached, as the watcher found.
    pub fn health(&self) -> &Health {
        &self.health
    }

    async fn resolve(&self, learner: &str) -> anyhow::Result<Option<Entitlements>> {
        let mut connection = self.pool.acquire().await?;
        let owned_rows = sqlx::query(
            "SELECT name FROM public_skills WHERE EXISTS (SELECT 1 FROM learners WHERE id = $1) \
             UNION SELECT skill FROM entitlements WHERE learner = $1",
        )
        .bind(learner)
        .fetch_all(&mut *connection)
        .await?;
        if owned_rows.is_empty() && !self.has_learner(learner).await? {
            return Ok(None);
        }
        let owned = owned_rows
            .into_iter()
            .map(|row| row.try_get::<String, _>(0))
            .collect::<Result<HashSet<_>, _>>()?;
        let offers = courses_in(&mut connection)
            .await?
            .into_iter()
            .map(|course| (course.slug.clone(), Offer::new(course.offer())))
            .collect();
        Ok(Some(Entitlements {
            learner: learner.to_owned(),
            owned,
            offers,
        }))
    }

    /// A connection of the pool, held by the watcher of entitlement
    /// changes (SQLite), with which it reads the journal.
    pub async fn watcher_connection(&self) -> anyhow::Result<PoolConnection<Any>> {
        Ok(self.pool.acquire().await?)
    }

    /// The learner's display name.
    pub async fn learner_name(&self, learner: &str) -> anyhow::Result<Option<String>> {
        Ok(sqlx::query("SELECT name FROM learners WHERE id = $1")
            .bind(learner)
            .fetch_optional(&self.pool)
            .await?
            .map(|row| row.try_get(0))
            .transpose()?)
    }

    /// Every course on sale, by slug.
    pub async fn courses(&self) -> anyhow::Result<Vec<Course>> {
        let mut connection = self.pool.acquire().await?;
        courses_in(&mut connection).await
    }

    /// One course on sale.
    pub async fn course(&self, slug: &str) -> anyhow::Result<Option<Course>> {
        Ok(self
            .courses()
            .await?
            .into_iter()
            .find(|course| course.slug == slug))
    }

    /// Gives `learner` the course `skill` or takes it away, as `change`
    /// says: both check the learner and the course the same way and tell
    /// the other replicas the same way (PostgreSQL), differing only in the
    /// row written.
    pub async fn entitle(
        &self,
        change: Entitlement,
        learner: &str,
        skill: &str,
    ) -> anyhow::Result<Result<Change, Refusal>> {
        let mut transaction = match self.store() {
            // Take the write lock at once, so two writers queue.
            Store::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await?,
            Store::Postgres => self.pool.begin().await?,
        };
        if self.store() == Store::Postgres {
            // One grant or revoke at a time: the journal's numbers commit in
            // the order they were taken, so no reader skips one.
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(JOURNAL_LOCK)
                .execute(&mut *transaction)
                .await?;
        }
        let learner_known = sqlx::query("SELECT 1 FROM learners WHERE id = $1")
            .bind(learner)
            .fetch_optional(&mut *transaction)
            .await?
            .is_some();
        if !learner_known {
            return Ok(Err(Refusal::UnknownLearner(learner.to_owned())));
        }
        let on_sale = sqlx::query("SELECT 1 FROM courses WHERE slug = $1")
            .bind(skill)
            .fetch_optional(&mut *transaction)
            .await?
            .is_some();
        if !on_sale {
            return Ok(Err(Refusal::NotForSale(skill.to_owned())));
        }
        let statement = match change {
            Entitlement::Grant => sqlx::query(
                "INSERT INTO entitlements (learner, skill, granted_at) VALUES ($1, $2, $3) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(learner)
            .bind(skill)
            .bind(now()),
            Entitlement::Revoke => {
                sqlx::query("DELETE FROM entitlements WHERE learner = $1 AND skill = $2")
                    .bind(learner)
                    .bind(skill)
            }
        };
        let changed = statement.execute(&mut *transaction).await?.rows_affected();
        if changed > 0 {
            sqlx::query("INSERT INTO entitlement_changes (learner, changed_at) VALUES ($1, $2)")
                .bind(learner)
                .bind(now())
                .execute(&mut *transaction)
                .await?;
        }
        if changed > 0 && self.store() == Store::Postgres {
            // Delivered to every listening replica when (and only if) the
            // transaction commits.
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(learner)
                .execute(&mut *transaction)
                .await?;
        }
        transaction.commit().await?;
        Ok(Ok(if changed > 0 {
            Change::Done
        } else {
            Change::Unchanged
        }))
    }

    /// The learners whose entitlements changed after journal entry `after`,
    /// each once, and the last entry read (`after` when there is none).
    pub async fn changes_since(
        &self,
        connection: &mut AnyConnection,
        after: i64,
    ) -> anyhow::Result<(HashSet<String>, i64)> {
        let rows =
            sqlx::query("SELECT seq, learner FROM entitlement_changes WHERE seq > $1 ORDER BY seq")
                .bind(after)
                .fetch_all(&mut *connection)
                .await?;
        let mut learners = HashSet::new();
        let mut last = after;
        for row in rows {
            last = last.max(row.try_get::<i64, _>(0)?);
            learners.insert(row.try_get::<String, _>(1)?);
        }
        Ok((learners, last))
    }

    /// The journal's last entry (0 when it is empty): where a process that
    /// starts now begins reading.
    pub async fn last_change(&self, connection: &mut AnyConnection) -> anyhow::Result<i64> {
        let last: Option<i64> = sqlx::query("SELECT MAX(seq) FROM entitlement_changes")
            .fetch_one(&mut *connection)
            .await?
            .try_get(0)?;
        Ok(last.unwrap_or(0))
    }

    /// Adds a fresh signing key, which signs every token minted from now on.
    /// Keeps the key that was newest before it, so that tokens it signed
    /// verify until they expire, and removes any older one; `retire_others`
    /// removes every other key at once (one was leaked). Serving processes
    /// re-read the key set on their interval. The new key's id, and the
    /// ids removed.
    pub async fn rotate_key(&self, retire_others: bool) -> anyhow::Result<(String, Vec<String>)> {
        let (kid, pkcs8, jwk) = new_signing_key()?;
        let mut transaction = match self.store() {
            Store::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await?,
            Store::Postgres => self.pool.begin().await?,
        };
        let existing: Vec<String> =
            sqlx::query("SELECT kid FROM signing_keys ORDER BY created_at DESC, kid")
                .fetch_all(&mut *transaction)
                .await?
                .into_iter()
                .map(|row| row.try_get::<String, _>(0))
                .collect::<Result<_, _>>()?;
        let keep = if retire_others { 0 } else { 1 };
        let retired: Vec<String> = existing.into_iter().skip(keep).collect();
        for old in &retired {
            sqlx::query("DELETE FROM signing_keys WHERE kid = $1")
                .bind(old)
                .execute(&mut *transaction)
                .await?;
        }
        // Strictly newer than every key kept, even within one second.
        let newest: Option<i64> = sqlx::query("SELECT MAX(created_at) FROM signing_keys")
            .fetch_one(&mut *transaction)
            .await?
            .try_get(0)?;
        let created_at = now().max(newest.map_or(0, |newest| newest + 1));
        sqlx::query(
            "INSERT INTO signing_keys (kid, pkcs8, jwk, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(&kid)
        .bind(pkcs8)
        .bind(jwk)
        .bind(created_at)
        .execute(&mut *transaction)
        .await?;
        transaction.commit().await?;
        Ok((kid, retired))
    }

    /// Creates a quote for `course`.
    pub async fn quote(&self, learner: &str, course: &Course) -> anyhow::Result<i64> {
        Ok(sqlx::query(
            "INSERT INTO orders (learner, course, price_cents, currency, status, created_at) \
             VALUES ($1, $2, $3, $4, 'quoted', $5) RETURNING id",
        )
        .bind(learner)
        .bind(&course.slug)
        .bind(course.price_cents)
        .bind(&course.currency)
        .bind(now())
        .fetch_one(&self.pool)
        .await?
        .try_get(0)?)
    }

    /// Moves a quote to awaiting payment; `false` if it was not a quote.
    pub async fn confirm(&self, learner: &str, id: i64) -> anyhow::Result<bool> {
        let changed = sqlx::query(
            "UPDATE orders SET status = 'awaiting_payment' \
             WHERE id = $1 AND learner = $2 AND status = 'quoted'",
        )
        .bind(id)
        .bind(learner)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(changed == 1)
    }

    /// One of `learner`'s orders (another learner's is `None`, like a
    /// missing one).
    pub async fn order(&self, learner: &str, id: i64) -> anyhow::Result<Option<Order>> {
        let Some(row) = sqlx::query(
            "SELECT o.course, o.status, o.price_cents, o.currency, c.title, c.summary, c.lessons, \
                    CASE WHEN EXISTS (SELECT 1 FROM entitlements e \
                                      WHERE e.learner = o.learner AND e.skill = o.course) \
                         THEN 1 ELSE 0 END \
             FROM orders o JOIN courses c ON c.slug = o.course \
             WHERE o.id = $1 AND o.learner = $2",
        )
        .bind(id)
        .bind(learner)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let status: String = row.try_get(1)?;
        let owned: i64 = row.try_get(7)?;
        Ok(Some(Order {
            id,
            status: match (status.as_str(), owned != 0) {
                ("awaiting_payment", true) => "paid",
                ("awaiting_payment", false) => "awaiting_payment",
                _ => "quoted",
            },
            course: Course {
                slug: row.try_get(0)?,
                price_cents: row.try_get(2)?,
                currency: row.try_get(3)?,
                title: row.try_get(4)?,
                summary: row.try_get(5)?,
                lessons: u32::try_from(row.try_get::<i64, _>(6)?)?,
            },
        }))
    }
}

/// Creates and seeds a new SQLite database, in an immediate transaction (a
/// second process waits for it, then finds the version set).
async fn migrate_sqlite(connection: &mut AnyConnection) -> anyhow::Result<()> {
    // Persistent in the file: readers never wait for a writer. Switching
    // needs a lock the busy timeout does not wait for, so a process
    // starting at the same moment as another retries for a while.
    let mut attempts = 0;
    while let Err(error) = sqlx::query("PRAGMA journal_mode = WAL")
        .execute(&mut *connection)
        .await
    {
        attempts += 1;
        if attempts > 250 || !is_busy(&error) {
            return Err(error.into());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut transaction = connection.begin_with("BEGIN IMMEDIATE").await?;
    let version: i64 = sqlx::query("PRAGMA user_version")
        .fetch_one(&mut *transaction)
        .await?
        .try_get(0)?;
    if upgrade(&mut transaction, version, SQLITE_SCHEMA, SQLITE_V2).await? {
        // PRAGMA takes no parameters; the version is this build's constant.
        sqlx::raw_sql("PRAGMA user_version = 2")
            .execute(&mut *transaction)
            .await?;
    }
    transaction.commit().await?;
    Ok(())
}

/// Brings a database of schema `version` (0: empty) to [`SCHEMA_VERSION`]
/// with the store's `schema` and its version-2 statements `v2`; whether it
/// changed anything (the caller then records the version, each store in
/// its own way).
async fn upgrade(
    connection: &mut AnyConnection,
    version: i64,
    schema: &'static str,
    v2: &'static str,
) -> anyhow::Result<bool> {
    match version {
        0 => seed(&mut *connection, schema).await?,
        1 => {}
        SCHEMA_VERSION => return Ok(false),
        other => anyhow::bail!(
            "it has schema version {other}; this build knows version {SCHEMA_VERSION}"
        ),
    }
    sqlx::raw_sql(v2).execute(&mut *connection).await?;
    settle(&mut *connection).await?;
    if version == 0 {
        tracing::info!("created and seeded the database");
    } else {
        tracing::info!("moved the database to schema version {SCHEMA_VERSION}");
    }
    Ok(true)
}

/// What schema version 2 adds besides its tables: the install audience.
async fn settle(connection: &mut AnyConnection) -> anyhow::Result<()> {
    sqlx::query(
        "INSERT INTO settings (key, value) VALUES ('install_audience', $1) ON CONFLICT DO NOTHING",
    )
    .bind(DEFAULT_INSTALL_AUDIENCE)
    .execute(&mut *connection)
    .await?;
    Ok(())
}

/// Whether SQLite said the database is busy or locked by another
/// connection (its primary result codes 5 and 6, under any extended code).
fn is_busy(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .and_then(|error| error.code())
        .and_then(|code| code.parse::<u32>().ok())
        .is_some_and(|code| matches!(code & 0xff, 5 | 6))
}

/// Creates and seeds a new PostgreSQL database under an advisory lock held
/// by this connection: a replica starting at the same time waits, then
/// finds the version set. The lock goes with the connection (closed after).
async fn migrate_postgres(connection: &mut AnyConnection) -> anyhow::Result<()> {
    sqlx::query("SELECT pg_advisory_lock($1)")
        .bind(MIGRATION_LOCK)
        .execute(&mut *connection)
        .await?;
    let mut transaction = connection.begin().await?;
    sqlx::raw_sql("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .execute(&mut *transaction)
        .await?;
    let version: Option<i64> = sqlx::query("SELECT MAX(version) FROM schema_version")
        .fetch_one(&mut *transaction)
        .await?
        .try_get(0)?;
    let upgraded = upgrade(
        &mut transaction,
        version.unwrap_or(0),
        POSTGRES_SCHEMA,
        POSTGRES_V2,
    )
    .await?;
    if upgraded {
        sqlx::query("INSERT INTO schema_version (version) VALUES ($1)")
            .bind(SCHEMA_VERSION)
            .execute(&mut *transaction)
            .await?;
    }
    transaction.commit().await?;
    sqlx::query("SELECT pg_advisory_unlock($1)")
        .bind(MIGRATION_LOCK)
        .execute(&mut *connection)
        .await?;
    Ok(())
}

/// The schema, the seed rows, the settings and a fresh signing key.
async fn seed(connection: &mut AnyConnection, schema: &'static str) -> anyhow::Result<()> {
    sqlx::raw_sql(schema).execute(&mut *connection).await?;
    sqlx::raw_sql(SEED).execute(&mut *connection).await?;
    sqlx::query("INSERT INTO settings (key, value) VALUES ('audience', $1), ('issuer', $2)")
        .bind(DEFAULT_AUDIENCE)
        .bind(DEFAULT_ISSUER)
        .execute(&mut *connection)
        .await?;
    let (kid, pkcs8, jwk) = new_signing_key()?;
    sqlx::query("INSERT INTO signing_keys (kid, pkcs8, jwk) VALUES ($1, $2, $3)")
        .bind(kid)
        .bind(pkcs8)
        .bind(jwk)
        .execute(&mut *connection)
        .await?;
    Ok(())
}

async fn courses_in(connection: &mut AnyConnection) -> anyhow::Result<Vec<Course>> {
    let rows = sqlx::query(
        "SELECT slug, title, summary, lessons, price_cents, currency FROM courses ORDER BY slug",
    )
    .fetch_all(&mut *connection)
    .await?;
    rows.into_iter()
        .map(|row| {
            Ok(Course {
                slug: row.try_get(0)?,
                title: row.try_get(1)?,
                summary: row.try_get(2)?,
                lessons: u32::try_from(row.try_get::<i64, _>(3)?)?,
                price_cents: row.try_get(4)?,
                currency: row.try_get(5)?,
            })
        })
        .collect()
}

/// A fresh Ed25519 key pair: its key id (the RFC 7638 thumbprint of the
/// public JWK), the private key as PKCS#8 DER, and the public JWK as JSON.
pub fn new_signing_key() -> anyhow::Result<(String, Vec<u8>, String)> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|error| anyhow::anyhow!("no randomness: {error}"))?;
    let signing_key = ed25519_dalek::SigningKey::from_bytes(&seed);
    let pkcs8 = signing_key
        .to_pkcs8_der()
        .map_err(|error| anyhow::anyhow!("cannot encode the key: {error}"))?
        .as_bytes()
        .to_vec();
    let mut jwk = Jwk {
        common: CommonParameters {
            public_key_use: Some(PublicKeyUse::Signature),
            key_algorithm: Some(KeyAlgorithm::EdDSA),
            ..CommonParameters::default()
        },
        algorithm: AlgorithmParameters::OctetKeyPair(OctetKeyPairParameters {
            key_type: OctetKeyPairType::OctetKeyPair,
            curve: EllipticCurve::Ed25519,
            x: base64::engine::general_purpose::URL_SAFE_NO_PAD
                .encode(signing_key.verifying_key().to_bytes()),
        }),
    };
    let kid = jwk.thumbprint(ThumbprintHash::SHA256)?;
    jwk.common.key_id = Some(kid.clone());
    Ok((kid, pkcs8, serde_json::to_string(&jwk)?))
}
