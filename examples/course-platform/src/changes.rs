//! Telling open sessions about grants and revokes made by other processes
//! (the `grant` and `revoke` commands, a payment webhook on another
//! replica), and watching whether the database can be reached.
//!
//! The entitlement journal ([`Db::changes_since`]) says which learners'
//! entitlements changed; this process reads it from where it left off: on
//! SQLite every [`ENTITLEMENTS_POLL`], on PostgreSQL when a `NOTIFY` says a
//! change committed (and after reconnecting, so nothing missed meanwhile is
//! lost). Orders and quotes are not in the journal, so a learner who floods
//! the API with orders makes nobody else's sessions be resolved again.
//!
//! Learners read from the journal are queued; one refresher resolves each
//! queued learner once (a few reads, on no lock), then has the skills
//! server compute the views of the open sessions again with what it
//! resolved (`refresh_views`, on a blocking thread: thousands of
//! sessions are a few milliseconds of CPU), and only the sessions of those
//! learners whose view changed are told. Learners queued while a refresh
//! runs wait for the next one, together: refreshes never pile up.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use skills_runtime::SkillsServer;
use sqlx::Row as _;
use tokio::sync::Notify;

use crate::db::{self, Db, Entitlements, Store};

/// How often the server reads the journal on SQLite (and checks the
/// database is there).
pub const ENTITLEMENTS_POLL: Duration = Duration::from_millis(250);

/// How often the PostgreSQL listener checks its connection between
/// notifications, and how long the check may take: a database lost without
/// a word (a network partition) is noticed within the sum.
const LISTEN_PROBE: Duration = Duration::from_secs(5);
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// The longest wait between two attempts to listen again on PostgreSQL
/// after the connection was lost (the first wait is 100 ms, doubled each
/// time).
const LISTEN_BACKOFF_MAX: Duration = Duration::from_secs(5);

/// The learners whose open sessions are to be resolved again.
#[derive(Default)]
struct Queue {
    learners: Mutex<HashSet<String>>,
    wake: Notify,
}

impl Queue {
    fn push(&self, learners: impl IntoIterator<Item = String>) {
        let mut queued = self.learners.lock().unwrap_or_else(PoisonError::into_inner);
        let before = queued.len();
        queued.extend(learners);
        if queued.len() > before {
            self.wake.notify_one();
        }
    }

    fn take(&self) -> HashSet<String> {
        std::mem::take(&mut *self.learners.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Starts watching the journal (and the database's health) and telling
/// the sessions of `skills` whose learners' entitlements changed.
pub fn watch(db: Db, skills: SkillsServer) {
    let queue = Arc::new(Queue::default());
    tokio::spawn(refresh_queued(db.clone(), skills, queue.clone()));
    match db.store() {
        Store::Sqlite => tokio::spawn(poll_sqlite(db, queue)),
        Store::Postgres => tokio::spawn(listen_postgres(db, queue)),
    };
}

/// Resolves the queued learners again, as the auth layer would at their
/// next request, and tells only their sessions whose view changed
/// (`notifications/resources/list_changed`).
async fn refresh_queued(db: Db, skills: SkillsServer, queue: Arc<Queue>) {
    loop {
        queue.wake.notified().await;
        let learners = queue.take();
        if learners.is_empty() {
            continue;
        }
        let told = refresh(&db, &skills, learners).await;
        if told > 0 {
            tracing::info!("entitlements changed: told {told} session(s)");
        }
    }
}

/// [`refresh_queued`]'s one round: how many sessions were told.
pub async fn refresh(db: &Db, skills: &SkillsServer, learners: HashSet<String>) -> usize {
    let mut resolved: HashMap<String, Option<Entitlements>> = HashMap::new();
    for learner in learners {
        match db.entitlements(&learner).await {
            Ok(now) => {
                resolved.insert(learner, now);
            }
            // Their sessions keep what they had; the journal is read again
            // from the same place only after a reconnect, so say it.
            Err(error) => {
                tracing::warn!("cannot read {learner}'s entitlements again: {error:#}");
            }
        }
    }
    if resolved.is_empty() {
        return 0;
    }
    let skills = skills.clone();
    let told = tokio::task::spawn_blocking(move || {
        skills.refresh_views(|request| {
            let Some(entitlements) = request.extensions.get_mut::<Entitlements>() else {
                return;
            };
            match resolved.get(&entitlements.learner) {
                Some(Some(now)) => *entitlements = now.clone(),
                // A learner deleted meanwhile owns nothing any more.
                Some(None) => entitlements.owned.clear(),
                None => {}
            }
        })
    })
    .await;
    told.unwrap_or_else(|error| {
        tracing::error!(%error, "refreshing the sessions failed");
        0
    })
}

/// SQLite: reads the journal every [`ENTITLEMENTS_POLL`] on a connection
/// of its own.
async fn poll_sqlite(db: Db, queue: Arc<Queue>) {
    let mut tick = tokio::time::interval(ENTITLEMENTS_POLL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut connection = None;
    let mut last = None;
    loop {
        tick.tick().await;
        if connection.is_none() {
            match db.watcher_connection().await {
                Ok(opened) => connection = Some(opened),
                Err(error) => {
                    db.health().lost();
                    tracing::warn!("cannot read the entitlement journal: {error:#}");
                    continue;
                }
            }
        }
        let Some(open) = connection.as_mut() else {
            continue;
        };
        let read = match last {
            None => db.last_change(open).await.map(|seq| (HashSet::new(), seq)),
            Some(after) => db.changes_since(open, after).await,
        };
        match read {
            Ok((learners, seq)) => {
                db.health().reached();
                last = Some(seq);
                queue.push(learners);
            }
            Err(error) => {
                db.health().lost();
                tracing::warn!("cannot read the entitlement journal: {error:#}");
                connection = None;
            }
        }
    }
}

/// PostgreSQL: listens on [`db::CHANNEL`] and reads the journal on the
/// listener's own connection when told, and after each reconnect; checks
/// the connection every [`LISTEN_PROBE`] meanwhile.
async fn listen_postgres(db: Db, queue: Arc<Queue>) {
    let mut backoff = Duration::from_millis(100);
    let mut last: Option<i64> = None;
    loop {
        match listen(&db).await {
            Ok(mut listener) => {
                backoff = Duration::from_millis(100);
                match read_journal(&mut listener, last).await {
                    Ok((learners, seq)) => {
                        db.health().reached();
                        if last.is_some() {
                            tracing::info!("listening for entitlement changes again");
                        }
                        last = Some(seq);
                        queue.push(learners);
                        let error = follow(&mut listener, &db, &queue, &mut last).await;
                        tracing::warn!(
                            "lost the database connection; answering from the last-known entitlements: {error:#}"
                        );
                    }
                    Err(error) => {
                        tracing::warn!("cannot read the entitlement journal: {error:#}");
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
        db.health().lost();
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(LISTEN_BACKOFF_MAX);
    }
}

/// Follows the notifications until the connection fails; why it did.
async fn follow(
    listener: &mut sqlx::postgres::PgListener,
    db: &Db,
    queue: &Queue,
    last: &mut Option<i64>,
) -> anyhow::Error {
    loop {
        let notified = tokio::time::timeout(LISTEN_PROBE, listener.try_recv()).await;
        match notified {
            Ok(Ok(Some(_))) => {}
            Ok(Ok(None)) => return anyhow::anyhow!("the connection closed"),
            Ok(Err(error)) => return error.into(),
            // Quiet for a while: is the database still there?
            Err(_) => {}
        }
        let read = tokio::time::timeout(PROBE_TIMEOUT, read_journal(listener, *last)).await;
        match read {
            Ok(Ok((learners, seq))) => {
                db.health().reached();
                *last = Some(seq);
                queue.push(learners);
            }
            Ok(Err(error)) => return error,
            Err(_) => {
                return anyhow::anyhow!("the database did not answer within {PROBE_TIMEOUT:?}");
            }
        }
    }
}

/// The learners in the journal after `after` (none, when `after` is `None`:
/// a process starting now has no sessions to tell), and the last entry.
async fn read_journal(
    listener: &mut sqlx::postgres::PgListener,
    after: Option<i64>,
) -> anyhow::Result<(HashSet<String>, i64)> {
    let Some(after) = after else {
        let last: Option<i64> = sqlx::query("SELECT MAX(seq) FROM entitlement_changes")
            .fetch_one(&mut *listener)
            .await?
            .try_get(0)?;
        return Ok((HashSet::new(), last.unwrap_or(0)));
    };
    let rows =
        sqlx::query("SELECT seq, learner FROM entitlement_changes WHERE seq > $1 ORDER BY seq")
            .bind(after)
            .fetch_all(&mut *listener)
            .await?;
    let mut learners = HashSet::new();
    let mut last = after;
    for row in rows {
        last = last.max(row.try_get::<i64, _>(0)?);
        learners.insert(row.try_get::<String, _>(1)?);
    }
    Ok((learners, last))
}

/// A connection listening on [`db::CHANNEL`].
async fn listen(db: &Db) -> anyhow::Result<sqlx::postgres::PgListener> {
    let mut listener = sqlx::postgres::PgListener::connect(db.location().url()).await?;
    // A lost connection is said at once (`None`), not retried inside `try_recv`:
    // the database is marked unreachable from that moment.
    listener.eager_reconnect(false);
    listener.listen(db::CHANNEL).await?;
    Ok(listener)
}
