//! The trace database: connecting and migrating (SQLite or PostgreSQL, through sqlx), writing
//! batches of events, enforcing retention, and the queries of `ejctl history`.
//!
//! Every statement is written once with `$N` placeholders, which both drivers accept, and run
//! on whichever pool the store has (the `on_pool!` macro). ElasticJob's TIMESTAMP columns get the
//! writer's local wall-clock time, as its JDBC writes do; ejctl's own table keeps epoch
//! milliseconds.

use std::borrow::Cow;
use std::str::FromStr;
use std::time::Duration;

use chrono::{DateTime, Local, NaiveDateTime, Utc};
use futures::future::BoxFuture;
use serde::Serialize;
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{QueryBuilder, Row};

use super::TraceTarget;
use super::event::{RunEnd, RunStart, StatusTrace, TraceEvent, cap};

/// How long acquiring a connection may take before a batch counts as failed.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// The migrations of one dialect, embedded in the binary.
#[derive(Debug)]
struct Embedded(&'static [(i64, &'static str, &'static str)]);

impl<'s> MigrationSource<'s> for Embedded {
    fn resolve(self) -> BoxFuture<'s, Result<Vec<Migration>, BoxDynError>> {
        let migrations = self
            .0
            .iter()
            .map(|(version, description, sql)| {
                Migration::new(*version, Cow::Borrowed(description), MigrationType::Simple, Cow::Borrowed(sql), false)
            })
            .collect();
        Box::pin(async move { Ok(migrations) })
    }
}

const SQLITE_MIGRATIONS: &[(i64, &str, &str)] =
    &[(1, "trace tables", include_str!("migrations/sqlite/0001_trace_tables.sql"))];
const POSTGRES_MIGRATIONS: &[(i64, &str, &str)] =
    &[(1, "trace tables", include_str!("migrations/postgres/0001_trace_tables.sql"))];

/// A connected, migrated trace database.
#[derive(Clone, Debug)]
pub struct Store {
    pool: Pool,
    /// `JOB_STATUS_TRACE_LOG` has the `source` column (tables of ElasticJob ≤ 3.0.4, and ejctl's):
    /// rows carry `LITE_EXECUTOR` in it.
    status_source: bool,
}

#[derive(Clone, Debug)]
enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Runs the same code on whichever pool the store has (the body is compiled once per driver).
macro_rules! on_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match &$store.pool {
            Pool::Sqlite($pool) => $body,
            Pool::Postgres($pool) => $body,
        }
    };
}

/// Pushes the `WHERE` conditions of a [`HistoryQuery`] (after `WHERE `) onto a query builder of
/// either database: the rows and their count must filter alike.
macro_rules! history_filters {
    ($qb:ident, $q:expr) => {
        $qb.push("job_name = ").push_bind(&$q.job);
        if let Some(item) = $q.item {
            $qb.push(" AND sharding_item = ").push_bind(i64::from(item));
        }
        if let Some(since) = $q.since_ms {
            $qb.push(" AND start_ms >= ").push_bind(since);
        }
        if let Some(before) = $q.before_ms {
            $qb.push(" AND start_ms < ").push_bind(before);
        }
        if let Some(source) = &$q.source {
            $qb.push(" AND fire_source = ").push_bind(source);
        }
        if $q.failed {
            $qb.push(" AND outcome IS NOT NULL AND outcome <> 'ok'");
        }
    };
}

/// One run as `ejctl history` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunRecord {
    /// The row id (shared with `JOB_EXECUTION_LOG`).
    pub id: String,
    /// The job.
    pub job: String,
    /// The item.
    pub item: u32,
    /// The instance that ran it.
    pub instance: String,
    /// `cron`, `trigger`, `misfire` or `failover`.
    pub source: String,
    /// The fire it covered (ms since the epoch).
    pub fire_ms: i64,
    /// When it started.
    pub start_ms: i64,
    /// When it ended (`None` while running, or when the end was lost).
    pub end_ms: Option<i64>,
    /// Start minus fire.
    pub lateness_ms: i64,
    /// End minus start.
    pub duration_ms: Option<i64>,
    /// `ok`, `failed`, `killed`; `None` while running.
    pub outcome: Option<String>,
    /// The exit code.
    pub exit_code: Option<i32>,
    /// The signal that ended it.
    pub signal: Option<i32>,
    /// Why it failed.
    pub message: Option<String>,
    /// The `job trigger --wait` token.
    pub token: Option<String>,
    /// The captured output tail (only when asked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tail: Option<String>,
}

/// What `ejctl history` asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistoryQuery {
    /// The job.
    pub job: String,
    /// Only this item.
    pub item: Option<u32>,
    /// Only runs that started at or after this instant (ms).
    pub since_ms: Option<i64>,
    /// Only runs that started before this instant (ms).
    pub before_ms: Option<i64>,
    /// Only runs that did not succeed.
    pub failed: bool,
    /// Only this source (`cron`, `trigger`, `misfire`, `failover`).
    pub source: Option<String>,
    /// At most this many (newest first, or oldest first with `oldest_first`).
    pub limit: u32,
    /// The oldest runs first (the first runs since `since_ms`).
    pub oldest_first: bool,
    /// Include the output tail.
    pub with_output: bool,
}

/// Refuses an existing trace path that is not a regular file holding a SQLite database (its
/// 16-byte header) or nothing.
fn check_sqlite_file(path: &std::path::Path) -> anyhow::Result<()> {
    use std::io::Read;
    const HEADER: &[u8; 16] = b"SQLite format 3\0";
    let refuse = |why: &str| anyhow::anyhow!("the trace store {} is {why}", path.display());
    let meta = std::fs::metadata(path).map_err(|e| refuse(&format!("unreadable: {e}")))?;
    if !meta.is_file() {
        return Err(refuse("not a regular file"));
    }
    let mut head = Vec::with_capacity(16);
    std::fs::File::open(path)
        .and_then(|f| f.take(16).read_to_end(&mut head))
        .map_err(|e| refuse(&format!("unreadable: {e}")))?;
    if head.is_empty() || head == HEADER { Ok(()) } else { Err(refuse("not a SQLite database")) }
}

/// The wall-clock time ElasticJob's TIMESTAMP columns hold: the writer's local time.
pub fn local_timestamp(ms: i64) -> Option<NaiveDateTime> {
    DateTime::<Utc>::from_timestamp_millis(ms).map(|t| t.with_timezone(&Local).naive_local())
}

impl Store {
    /// Connects and applies the migrations (creating ElasticJob's tables when missing, keeping
    /// them when an ElasticJob cluster created them).
    ///
    /// # Errors
    /// An unreachable database, a SQLite file that cannot be created, a failed migration.
    pub async fn open(target: &TraceTarget) -> anyhow::Result<Store> {
        let pool = match target {
            TraceTarget::Sqlite(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir)
                        .map_err(|e| anyhow::anyhow!("cannot create the directory of {}: {e}", path.display()))?;
                }
                // Created owner-only before SQLite opens it: its `-wal` and `-shm` files take the
                // database file's mode, and the runs' output tails may hold what scripts print.
                // An existing path must be a SQLite database (or an empty file): a job file's
                // `url` naming `/etc/passwd`, a device or a directory is refused by name.
                if path.exists() {
                    check_sqlite_file(path)?;
                } else {
                    use std::os::unix::fs::OpenOptionsExt;
                    std::fs::OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .mode(0o600)
                        .open(path)
                        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", path.display()))?;
                }
                let options = SqliteConnectOptions::new()
                    .filename(path)
                    .create_if_missing(true)
                    .journal_mode(SqliteJournalMode::Wal)
                    // WAL with NORMAL: no fsync per commit (a crash of the machine may lose the
                    // last batches, never corrupt the file) — the trace must not compete with
                    // the scripts for the disk.
                    .synchronous(SqliteSynchronous::Normal)
                    .busy_timeout(ACQUIRE_TIMEOUT);
                let pool = SqlitePoolOptions::new()
                    .max_connections(2)
                    .acquire_timeout(ACQUIRE_TIMEOUT)
                    .connect_with(options)
                    .await?;
                Migrator::new(Embedded(SQLITE_MIGRATIONS)).await?.run(&pool).await?;
                Pool::Sqlite(pool)
            }
            TraceTarget::Postgres(url) => {
                let options = PgConnectOptions::from_str(url)?;
                let pool = PgPoolOptions::new()
                    .max_connections(2)
                    .acquire_timeout(ACQUIRE_TIMEOUT)
                    .connect_with(options)
                    .await?;
                Migrator::new(Embedded(POSTGRES_MIGRATIONS)).await?.run(&pool).await?;
                Pool::Postgres(pool)
            }
        };
        let mut store = Store { pool, status_source: true };
        store.status_source = store.has_column("job_status_trace_log", "source").await?;
        Ok(store)
    }

    async fn has_column(&self, table: &str, column: &str) -> anyhow::Result<bool> {
        let count: i64 = match &self.pool {
            Pool::Sqlite(pool) => {
                sqlx::query("SELECT COUNT(*) FROM pragma_table_info($1) WHERE lower(name) = $2")
                    .bind(table.to_uppercase())
                    .bind(column)
                    .fetch_one(pool)
                    .await?
                    .try_get(0)?
            }
            Pool::Postgres(pool) => {
                sqlx::query(
                    "SELECT COUNT(*) FROM information_schema.columns WHERE lower(table_name) = $1 AND lower(column_name) = $2 AND table_schema = current_schema()",
                )
                .bind(table)
                .bind(column)
                .fetch_one(pool)
                .await?
                .try_get(0)?
            }
        };
        Ok(count > 0)
    }

    /// Writes a batch of events in one transaction.
    ///
    /// # Errors
    /// Database errors; nothing of the batch is written then (it can be retried as a whole: every
    /// statement is idempotent).
    pub async fn write(&self, events: &[TraceEvent]) -> anyhow::Result<()> {
        let status_sql = if self.status_source {
            "INSERT INTO JOB_STATUS_TRACE_LOG (id, job_name, original_task_id, task_id, slave_id, source, execution_type, sharding_item, state, message, creation_time) VALUES ($1, $2, '', $3, $4, 'LITE_EXECUTOR', 'READY', $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING"
        } else {
            "INSERT INTO JOB_STATUS_TRACE_LOG (id, job_name, original_task_id, task_id, slave_id, execution_type, sharding_item, state, message, creation_time) VALUES ($1, $2, '', $3, $4, 'READY', $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING"
        };
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            for event in events {
                match event {
                    TraceEvent::RunStarted(s) => {
                        insert_execution(s, None).execute(&mut *tx).await?;
                        insert_run(s, None).execute(&mut *tx).await?;
                    }
                    TraceEvent::RunEnded(e) => {
                        let complete = local_timestamp(e.end_ms);
                        let updated = sqlx::query(
                            "UPDATE JOB_EXECUTION_LOG SET is_success = $1, complete_time = $2, failure_cause = $3 WHERE id = $4",
                        )
                        .bind(e.success())
                        .bind(complete)
                        .bind(e.failure_cause())
                        .bind(&e.start.id)
                        .execute(&mut *tx)
                        .await?;
                        if updated.rows_affected() == 0 {
                            insert_execution(&e.start, Some(e)).execute(&mut *tx).await?;
                        }
                        let updated = sqlx::query(
                            "UPDATE EJCTL_RUN_LOG SET end_ms = $1, duration_ms = $2, outcome = $3, exit_code = $4, signal = $5, message = $6, output_tail = $7 WHERE id = $8",
                        )
                        .bind(e.end_ms)
                        .bind(e.end_ms - e.start.start_ms)
                        .bind(outcome_text(e))
                        .bind(e.exit_code)
                        .bind(e.signal)
                        .bind(e.message.as_deref().map(cap))
                        .bind(&e.output_tail)
                        .bind(&e.start.id)
                        .execute(&mut *tx)
                        .await?;
                        if updated.rows_affected() == 0 {
                            insert_run(&e.start, Some(e)).execute(&mut *tx).await?;
                        }
                    }
                    TraceEvent::Status(s) => {
                        status_row(status_sql, s).execute(&mut *tx).await?;
                    }
                }
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Deletes rows older than `max_age` and runs beyond the newest `max_rows`. Returns how many
    /// runs went.
    ///
    /// # Errors
    /// Database errors.
    pub async fn enforce_retention(
        &self,
        now: DateTime<Utc>,
        max_age: Option<Duration>,
        max_rows: Option<u64>,
    ) -> anyhow::Result<u64> {
        let mut deleted = 0;
        if let Some(age) = max_age.filter(|a| !a.is_zero()) {
            let cutoff = now - chrono::Duration::from_std(age).unwrap_or(chrono::Duration::MAX);
            let cutoff_ms = cutoff.timestamp_millis();
            let local = local_timestamp(cutoff_ms);
            on_pool!(self, pool => {
                deleted += sqlx::query("DELETE FROM EJCTL_RUN_LOG WHERE start_ms < $1").bind(cutoff_ms).execute(pool).await?.rows_affected();
                sqlx::query("DELETE FROM JOB_EXECUTION_LOG WHERE start_time < $1").bind(local).execute(pool).await?;
                sqlx::query("DELETE FROM JOB_STATUS_TRACE_LOG WHERE creation_time < $1").bind(local).execute(pool).await?;
            });
        }
        if let Some(rows) = max_rows.filter(|r| *r > 0) {
            let offset = i64::try_from(rows).unwrap_or(i64::MAX);
            on_pool!(self, pool => {
                let oldest_kept: Option<i64> =
                    sqlx::query("SELECT start_ms FROM EJCTL_RUN_LOG ORDER BY start_ms DESC LIMIT 1 OFFSET $1")
                        .bind(offset - 1)
                        .fetch_optional(pool)
                        .await?
                        .map(|r| r.try_get(0))
                        .transpose()?;
                if let Some(kept) = oldest_kept {
                    deleted += sqlx::query("DELETE FROM EJCTL_RUN_LOG WHERE start_ms < $1").bind(kept).execute(pool).await?.rows_affected();
                    let local = local_timestamp(kept);
                    sqlx::query("DELETE FROM JOB_EXECUTION_LOG WHERE start_time < $1").bind(local).execute(pool).await?;
                    sqlx::query("DELETE FROM JOB_STATUS_TRACE_LOG WHERE creation_time < $1").bind(local).execute(pool).await?;
                }
            });
        }
        Ok(deleted)
    }

    /// The runs `q` asks for, newest first (oldest first with `q.oldest_first`).
    ///
    /// # Errors
    /// Database errors.
    pub async fn history(&self, q: &HistoryQuery) -> anyhow::Result<Vec<RunRecord>> {
        let columns = "id, job_name, sharding_item, instance_id, fire_source, fire_ms, start_ms, end_ms, lateness_ms, duration_ms, outcome, exit_code, signal, message, trigger_token, output_tail";
        let records = on_pool!(self, pool => {
            let mut qb = QueryBuilder::new(format!("SELECT {columns} FROM EJCTL_RUN_LOG WHERE "));
            history_filters!(qb, q);
            let order = if q.oldest_first { "ASC" } else { "DESC" };
            qb.push(format!(" ORDER BY start_ms {order}, id LIMIT ")).push_bind(i64::from(q.limit));
            let rows = qb.build().fetch_all(pool).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows {
                out.push(RunRecord {
                    id: r.try_get("id")?,
                    job: r.try_get("job_name")?,
                    item: u32::try_from(r.try_get::<i32, _>("sharding_item")?).unwrap_or_default(),
                    instance: r.try_get("instance_id")?,
                    source: r.try_get("fire_source")?,
                    fire_ms: r.try_get("fire_ms")?,
                    start_ms: r.try_get("start_ms")?,
                    end_ms: r.try_get("end_ms")?,
                    lateness_ms: r.try_get("lateness_ms")?,
                    duration_ms: r.try_get("duration_ms")?,
                    outcome: r.try_get("outcome")?,
                    exit_code: r.try_get("exit_code")?,
                    signal: r.try_get("signal")?,
                    message: r.try_get("message")?,
                    token: r.try_get("trigger_token")?,
                    output_tail: if q.with_output { r.try_get("output_tail")? } else { None },
                });
            }
            out
        });
        Ok(records)
    }

    /// How many runs match `q`'s filters, whatever its limit: what a limited answer leaves out.
    ///
    /// # Errors
    /// Database errors.
    pub async fn count_history(&self, q: &HistoryQuery) -> anyhow::Result<u64> {
        let count: i64 = on_pool!(self, pool => {
            let mut qb = QueryBuilder::new("SELECT COUNT(*) FROM EJCTL_RUN_LOG WHERE ");
            history_filters!(qb, q);
            qb.build().fetch_one(pool).await?.try_get(0)?
        });
        Ok(u64::try_from(count).unwrap_or(0))
    }

    /// The names of the jobs with runs in the store, sorted.
    ///
    /// # Errors
    /// Database errors.
    pub async fn job_names(&self) -> anyhow::Result<Vec<String>> {
        let names = on_pool!(self, pool => {
            sqlx::query_scalar("SELECT DISTINCT job_name FROM EJCTL_RUN_LOG ORDER BY job_name").fetch_all(pool).await?
        });
        Ok(names)
    }

    /// Closes the pool.
    pub async fn close(&self) {
        on_pool!(self, pool => pool.close().await);
    }
}

fn outcome_text(e: &RunEnd) -> &'static str {
    match e.outcome {
        crate::registry::codec::RunOutcome::Ok => "ok",
        crate::registry::codec::RunOutcome::Killed => "killed",
        crate::registry::codec::RunOutcome::Refused => "refused",
        _ => "failed",
    }
}

/// `INSERT` (start: `is_success` false) or `INSERT_COMPLETE` / `INSERT_FAILURE` (an end whose
/// start row is missing) into `JOB_EXECUTION_LOG`; a row that exists is left alone.
fn insert_execution<'q, DB: sqlx::Database>(
    s: &'q RunStart,
    end: Option<&'q RunEnd>,
) -> sqlx::query::Query<'q, DB, <DB as sqlx::Database>::Arguments<'q>>
where
    String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    i32: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    bool: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    Option<String>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    Option<NaiveDateTime>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    sqlx::query(
        "INSERT INTO JOB_EXECUTION_LOG (id, job_name, task_id, hostname, ip, sharding_item, execution_source, failure_cause, is_success, start_time, complete_time) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING",
    )
    .bind(s.id.clone())
    .bind(s.job.clone())
    .bind(s.task_id.clone())
    .bind(s.hostname.clone())
    .bind(s.ip.clone())
    .bind(i32::try_from(s.item).unwrap_or(i32::MAX))
    .bind(s.execution_source().to_string())
    .bind(end.and_then(RunEnd::failure_cause))
    .bind(end.is_some_and(RunEnd::success))
    .bind(local_timestamp(s.start_ms))
    .bind(end.and_then(|e| local_timestamp(e.end_ms)))
}

/// The `EJCTL_RUN_LOG` row of a start (or of an end whose start row is missing).
fn insert_run<'q, DB: sqlx::Database>(
    s: &'q RunStart,
    end: Option<&'q RunEnd>,
) -> sqlx::query::Query<'q, DB, <DB as sqlx::Database>::Arguments<'q>>
where
    String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    i32: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    Option<String>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    Option<i64>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    Option<i32>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    sqlx::query(
        "INSERT INTO EJCTL_RUN_LOG (id, job_name, sharding_item, instance_id, fire_source, fire_ms, start_ms, lateness_ms, end_ms, duration_ms, outcome, exit_code, signal, message, output_tail, trigger_token) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) ON CONFLICT (id) DO NOTHING",
    )
    .bind(s.id.clone())
    .bind(s.job.clone())
    .bind(i32::try_from(s.item).unwrap_or(i32::MAX))
    .bind(s.instance.clone())
    .bind(s.source.to_string())
    .bind(s.fire_ms)
    .bind(s.start_ms)
    .bind(s.lateness_ms())
    .bind(end.map(|e| e.end_ms))
    .bind(end.map(|e| e.end_ms - s.start_ms))
    .bind(end.map(|e| outcome_text(e).to_string()))
    .bind(end.and_then(|e| e.exit_code))
    .bind(end.and_then(|e| e.signal))
    .bind(end.and_then(|e| e.message.as_deref().map(cap)))
    .bind(end.map(|e| e.output_tail.clone()))
    .bind(s.token.clone())
}

fn status_row<'q, DB: sqlx::Database>(
    sql: &'q str,
    s: &'q StatusTrace,
) -> sqlx::query::Query<'q, DB, <DB as sqlx::Database>::Arguments<'q>>
where
    String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    Option<NaiveDateTime>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    sqlx::query(sql)
        .bind(s.id.clone())
        .bind(s.job.clone())
        .bind(s.task_id.clone())
        .bind(s.slave_id.clone())
        .bind(s.sharding_items())
        .bind(s.state.to_string())
        .bind(cap(&s.message))
        .bind(local_timestamp(s.at_ms))
}
