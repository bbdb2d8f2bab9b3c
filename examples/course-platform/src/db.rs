//! The platform's database, in SQLite: who the learners are, which skills
//! are free for everyone, which courses are on sale and at what price, who
//! owns what, the orders, and the development signing key with the
//! audience and issuer tokens must carry.
//!
//! Every process opens the same file: `serve` reads it on every request,
//! while `grant`, `revoke` and `token` write and read it from other
//! processes. WAL mode lets them work at once (readers never wait for a
//! writer), and a busy timeout makes two writers queue instead of failing.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context as _;
use base64::Engine as _;
use ed25519_dalek::pkcs8::EncodePrivateKey as _;
use jsonwebtoken::jwk::{
    AlgorithmParameters, CommonParameters, EllipticCurve, Jwk, KeyAlgorithm,
    OctetKeyPairParameters, OctetKeyPairType, PublicKeyUse, ThumbprintHash,
};
use rusqlite::{Connection, OptionalExtension as _, TransactionBehavior, params};
use skills_runtime::server::Offer;

/// The audience a token must name to be accepted here, on first start: the
/// canonical URL of this server's MCP endpoint, as an authorization server
/// would issue tokens for it (RFC 8707). Change it in the `settings` table
/// when you deploy under your own name.
pub const DEFAULT_AUDIENCE: &str = "https://kestrel-academy.example/mcp";

/// The issuer a token must name, on first start: the authorization server.
/// Here `token` plays that part with the development key.
pub const DEFAULT_ISSUER: &str = "https://auth.kestrel-academy.example";

/// Bumped when the schema changes; `PRAGMA user_version` holds it.
const SCHEMA_VERSION: i32 = 1;

const SCHEMA: &str = "
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

/// One SQLite connection shared by the server's requests (each short, run
/// off the async threads) or owned by a command.
#[derive(Clone)]
pub struct Db {
    connection: Arc<Mutex<Connection>>,
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

impl Db {
    /// Opens the database at `path`, creating and seeding it (with a fresh
    /// signing key) if it is new. Safe to run from two processes at once.
    pub fn open(path: &Path) -> anyhow::Result<Db> {
        let mut connection = Connection::open(path)
            .with_context(|| format!("cannot open the database {}", path.display()))?;
        connection.busy_timeout(std::time::Duration::from_secs(5))?;
        connection
            .pragma_update(None, "journal_mode", "WAL")
            .with_context(|| format!("{} is not a SQLite database", path.display()))?;
        connection.pragma_update(None, "foreign_keys", true)?;
        let transaction = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version: i32 =
            transaction.pragma_query_value(None, "user_version", |row| row.get(0))?;
        match version {
            0 => {
                transaction.execute_batch(SCHEMA)?;
                transaction.execute_batch(SEED)?;
                transaction.execute(
                    "INSERT INTO settings (key, value) VALUES ('audience', ?1), ('issuer', ?2)",
                    params![DEFAULT_AUDIENCE, DEFAULT_ISSUER],
                )?;
                let (kid, pkcs8, jwk) = new_signing_key()?;
                transaction.execute(
                    "INSERT INTO signing_keys (kid, pkcs8, jwk) VALUES (?1, ?2, ?3)",
                    params![kid, pkcs8, jwk],
                )?;
                transaction.pragma_update(None, "user_version", SCHEMA_VERSION)?;
                tracing::info!("created and seeded {}", path.display());
            }
            SCHEMA_VERSION => {}
            other => anyhow::bail!(
                "{} has schema version {other}; this build knows version {SCHEMA_VERSION}",
                path.display()
            ),
        }
        transaction.commit()?;
        Ok(Db {
            connection: Arc::new(Mutex::new(connection)),
        })
    }

    /// Runs `work` on the connection.
    fn with<T>(
        &self,
        work: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T> {
        let mut connection = self
            .connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        work(&mut connection)
    }

    /// Runs `work` on a blocking thread, for async code.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Db) -> rusqlite::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        let db = self.clone();
        Ok(tokio::task::spawn_blocking(move || work(&db)).await??)
    }

    /// A value of the `settings` table.
    pub fn setting(&self, key: &str) -> anyhow::Result<String> {
        self.with(|connection| {
            connection.query_row("SELECT value FROM settings WHERE key = ?1", [key], |row| {
                row.get(0)
            })
        })
        .with_context(|| format!("the database has no `{key}` setting"))
    }

    /// The development signing keys, as `(kid, PKCS#8 DER, public JWK)`.
    pub fn signing_keys(&self) -> anyhow::Result<Vec<(String, Vec<u8>, Jwk)>> {
        let rows = self.with(|connection| {
            let mut statement =
                connection.prepare("SELECT kid, pkcs8, jwk FROM signing_keys ORDER BY kid")?;
            let rows = statement.query_map([], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, Vec<u8>>(1)?,
                    row.get::<_, String>(2)?,
                ))
            })?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?;
        rows.into_iter()
            .map(|(kid, pkcs8, jwk)| {
                let jwk: Jwk = serde_json::from_str(&jwk)
                    .with_context(|| format!("the stored public key {kid} is not a JWK"))?;
                Ok((kid, pkcs8, jwk))
            })
            .collect()
    }

    /// Whether `learner` exists.
    pub fn has_learner(&self, learner: &str) -> rusqlite::Result<bool> {
        self.with(|connection| {
            connection
                .query_row(
                    "SELECT 1 FROM learners WHERE id = ?1",
                    [learner],
                    |_| Ok(()),
                )
                .optional()
                .map(|found| found.is_some())
        })
    }

    /// What `learner` may see right now; `None` for a learner who does not
    /// exist (any more). One short read per request: a grant or a revoke by
    /// another process shows in the very next answer.
    pub fn entitlements(&self, learner: &str) -> rusqlite::Result<Option<Entitlements>> {
        self.with(|connection| {
            let transaction = connection.transaction()?;
            let known = transaction
                .query_row("SELECT 1 FROM learners WHERE id = ?1", [learner], |_| Ok(()))
                .optional()?;
            if known.is_none() {
                return Ok(None);
            }
            let mut owned = HashSet::new();
            let mut statement = transaction.prepare(
                "SELECT name FROM public_skills UNION SELECT skill FROM entitlements WHERE learner = ?1",
            )?;
            for name in statement.query_map([learner], |row| row.get::<_, String>(0))? {
                owned.insert(name?);
            }
            drop(statement);
            let offers = courses_in(&transaction)?
                .into_iter()
                .map(|course| (course.slug.clone(), Offer::new(course.offer())))
                .collect();
            Ok(Some(Entitlements {
                learner: learner.to_owned(),
                owned,
                offers,
            }))
        })
    }

    /// A number that changes whenever another connection (a `grant` or
    /// `revoke` command) commits to the database: the server polls it to
    /// tell learners' open sessions that what they own changed.
    pub fn data_version(&self) -> rusqlite::Result<i64> {
        self.with(|connection| connection.query_row("PRAGMA data_version", [], |row| row.get(0)))
    }

    /// The learner's display name.
    pub fn learner_name(&self, learner: &str) -> rusqlite::Result<Option<String>> {
        self.with(|connection| {
            connection
                .query_row(
                    "SELECT name FROM learners WHERE id = ?1",
                    [learner],
                    |row| row.get(0),
                )
                .optional()
        })
    }

    /// Every course on sale, by slug.
    pub fn courses(&self) -> rusqlite::Result<Vec<Course>> {
        self.with(|connection| courses_in(connection))
    }

    /// One course on sale.
    pub fn course(&self, slug: &str) -> rusqlite::Result<Option<Course>> {
        Ok(self
            .courses()?
            .into_iter()
            .find(|course| course.slug == slug))
    }

    /// Gives `learner` the course `skill` (a purchase, or the payment
    /// provider's webhook).
    pub fn grant(&self, learner: &str, skill: &str) -> anyhow::Result<Result<Change, Refusal>> {
        self.change(learner, skill, |connection| {
            connection.execute(
                "INSERT OR IGNORE INTO entitlements (learner, skill, granted_at) VALUES (?1, ?2, ?3)",
                params![learner, skill, now()],
            )
        })
    }

    /// Takes the course `skill` away from `learner` (a refund).
    pub fn revoke(&self, learner: &str, skill: &str) -> anyhow::Result<Result<Change, Refusal>> {
        self.change(learner, skill, |connection| {
            connection.execute(
                "DELETE FROM entitlements WHERE learner = ?1 AND skill = ?2",
                params![learner, skill],
            )
        })
    }

    fn change(
        &self,
        learner: &str,
        skill: &str,
        write: impl FnOnce(&Connection) -> rusqlite::Result<usize>,
    ) -> anyhow::Result<Result<Change, Refusal>> {
        Ok(self.with(|connection| {
            let transaction =
                connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let learner_known = transaction
                .query_row(
                    "SELECT 1 FROM learners WHERE id = ?1",
                    [learner],
                    |_| Ok(()),
                )
                .optional()?
                .is_some();
            if !learner_known {
                return Ok(Err(Refusal::UnknownLearner(learner.to_owned())));
            }
            let on_sale = transaction
                .query_row("SELECT 1 FROM courses WHERE slug = ?1", [skill], |_| Ok(()))
                .optional()?
                .is_some();
            if !on_sale {
                return Ok(Err(Refusal::NotForSale(skill.to_owned())));
            }
            let changed = write(&transaction)?;
            transaction.commit()?;
            Ok(Ok(if changed > 0 {
                Change::Done
            } else {
                Change::Unchanged
            }))
        })?)
    }

    /// Creates a quote for `course`.
    pub fn quote(&self, learner: &str, course: &Course) -> rusqlite::Result<i64> {
        self.with(|connection| {
            connection.execute(
                "INSERT INTO orders (learner, course, price_cents, currency, status, created_at) \
                 VALUES (?1, ?2, ?3, ?4, 'quoted', ?5)",
                params![
                    learner,
                    course.slug,
                    course.price_cents,
                    course.currency,
                    now()
                ],
            )?;
            Ok(connection.last_insert_rowid())
        })
    }

    /// Moves a quote to awaiting payment; `false` if it was not a quote.
    pub fn confirm(&self, learner: &str, id: i64) -> rusqlite::Result<bool> {
        self.with(|connection| {
            let changed = connection.execute(
                "UPDATE orders SET status = 'awaiting_payment' \
                 WHERE id = ?1 AND learner = ?2 AND status = 'quoted'",
                params![id, learner],
            )?;
            Ok(changed == 1)
        })
    }

    /// One of `learner`'s orders (another learner's is `None`, like a
    /// missing one).
    pub fn order(&self, learner: &str, id: i64) -> rusqlite::Result<Option<Order>> {
        self.with(|connection| {
            let row = connection
                .query_row(
                    "SELECT o.course, o.status, o.price_cents, o.currency, c.title, c.summary, c.lessons, \
                            EXISTS (SELECT 1 FROM entitlements e WHERE e.learner = o.learner AND e.skill = o.course) \
                     FROM orders o JOIN courses c ON c.slug = o.course \
                     WHERE o.id = ?1 AND o.learner = ?2",
                    params![id, learner],
                    |row| {
                        Ok((
                            row.get::<_, String>(0)?,
                            row.get::<_, String>(1)?,
                            row.get::<_, i64>(2)?,
                            row.get::<_, String>(3)?,
                            row.get::<_, String>(4)?,
                            row.get::<_, String>(5)?,
                            row.get::<_, u32>(6)?,
                            row.get::<_, bool>(7)?,
                        ))
                    },
                )
                .optional()?;
            Ok(row.map(
                |(slug, status, price_cents, currency, title, summary, lessons, owned)| Order {
                    id,
                    status: match (status.as_str(), owned) {
                        ("awaiting_payment", true) => "paid",
                        ("awaiting_payment", false) => "awaiting_payment",
                        _ => "quoted",
                    },
                    course: Course {
                        slug,
                        title,
                        summary,
                        lessons,
                        price_cents,
                        currency,
                    },
                },
            ))
        })
    }
}

fn courses_in(connection: &Connection) -> rusqlite::Result<Vec<Course>> {
    let mut statement = connection.prepare(
        "SELECT slug, title, summary, lessons, price_cents, currency FROM courses ORDER BY slug",
    )?;
    let courses = statement.query_map([], |row| {
        Ok(Course {
            slug: row.get(0)?,
            title: row.get(1)?,
            summary: row.get(2)?,
            lessons: row.get(3)?,
            price_cents: row.get(4)?,
            currency: row.get(5)?,
        })
    })?;
    courses.collect()
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
