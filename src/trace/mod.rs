//! The event trace: every run written to ElasticJob's trace tables (`JOB_EXECUTION_LOG`,
//! `JOB_STATUS_TRACE_LOG`, with their exact names and columns, so ElasticJob's console and users'
//! SQL read ejctl clusters) plus ejctl's own `EJCTL_RUN_LOG` (fire instant, lateness, exit code,
//! signal, duration, the tail of the output, the trigger token).
//!
//! * [`TraceConfig`]: a job file's `[trace]` table — where the store is (a SQLite file by
//!   default, PostgreSQL by URL) and how long rows are kept.
//! * [`Tracer`]: what the runtime holds. [`Tracer::emit`] never waits: events go into a bounded
//!   channel, and when it is full they are dropped, counted and logged — a slow or dead database
//!   never delays or stops a fire.
//! * [`writer`]: the one background task that drains the channel in batches (one transaction
//!   each), reconnects with backoff, and enforces retention (ElasticJob's tables grow forever).
//! * [`store`]: the SQL, per dialect: migrations embedded from `src/trace/migrations/`, the
//!   inserts and upserts of ElasticJob's `RDBJobEventRepository`, retention, and the history
//!   query `ejctl history` runs.
//! * [`event`]: the events and how a run maps onto ElasticJob's rows.

pub mod event;
pub mod store;
pub mod writer;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::mpsc;

pub use self::event::{RunEnd, RunStart, StatusTrace, TraceEvent};

/// Where the trace store is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceTarget {
    /// A SQLite file (created when missing).
    Sqlite(PathBuf),
    /// A PostgreSQL URL (`postgres://user:password@host:port/database`).
    Postgres(String),
}

impl TraceTarget {
    /// Parses a store location: `postgres://…` / `postgresql://…`, `sqlite://PATH`, `sqlite:PATH`,
    /// or a plain file path (SQLite).
    ///
    /// # Errors
    /// An empty location, or another URL scheme.
    pub fn parse(s: &str) -> Result<TraceTarget, String> {
        let s = s.trim();
        if s.is_empty() {
            return Err("the trace store location is empty".into());
        }
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            return Ok(TraceTarget::Postgres(s.to_string()));
        }
        if let Some(path) = s.strip_prefix("sqlite://").or_else(|| s.strip_prefix("sqlite:")) {
            let path = path.split('?').next().unwrap_or(path);
            if path.is_empty() {
                return Err(format!("'{s}' names no SQLite file"));
            }
            return Ok(TraceTarget::Sqlite(PathBuf::from(path)));
        }
        if let Some((scheme, _)) = s.split_once("://") {
            return Err(format!("unsupported trace store '{scheme}://': use a SQLite file path or a postgres:// URL"));
        }
        Ok(TraceTarget::Sqlite(PathBuf::from(s)))
    }

    /// The location as a file names it (a job file, the contexts file): a relative SQLite path
    /// is relative to that file's directory, like the other paths such files give, so that a
    /// worker and `ejctl history --job-file` meet on one file whatever their working directories.
    pub fn relative_to_file(self, file: &Path) -> TraceTarget {
        match (self, file.parent().filter(|d| !d.as_os_str().is_empty())) {
            (TraceTarget::Sqlite(path), Some(dir)) if path.is_relative() => TraceTarget::Sqlite(dir.join(path)),
            (target, _) => target,
        }
    }

    /// The location for messages, without a password.
    pub fn describe(&self) -> String {
        match self {
            TraceTarget::Sqlite(path) => format!("sqlite:{}", path.display()),
            TraceTarget::Postgres(url) => mask_password(url),
        }
    }
}

/// `postgres://user:***@host/db`.
fn mask_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    match rest.split_once('@') {
        Some((auth, host)) if auth.contains(':') => {
            let user = auth.split(':').next().unwrap_or("");
            format!("{scheme}://{user}:***@{host}")
        }
        _ => url.to_string(),
    }
}

/// The default SQLite file: `$XDG_STATE_HOME/ejctl/trace.db`, else
/// `~/.local/state/ejctl/trace.db` (`./ejctl-trace.db` without a home). `ejctl run` with an empty
/// `[trace]` table and `ejctl history` without a location use it, so both meet on one machine
/// with no configuration.
pub fn default_sqlite_path() -> PathBuf {
    let state = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| Path::new(&h).join(".local/state")));
    match state {
        Some(dir) => dir.join("ejctl").join("trace.db"),
        None => PathBuf::from("ejctl-trace.db"),
    }
}

/// A job file's `[trace]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceConfig {
    /// `url`: the store (default: [`default_sqlite_path`]).
    pub target: TraceTarget,
    /// `retention_days`: rows older than this are deleted (default 30; 0 keeps them forever).
    pub max_age: Option<Duration>,
    /// `retention_rows`: at most this many runs are kept (default 1,000,000; 0: no limit).
    pub max_rows: Option<u64>,
    /// `retention_interval_seconds`: how often retention runs (default 600).
    pub retention_interval: Duration,
    /// `buffer_events`: how many events wait for the database before new ones are dropped
    /// (default 10,000).
    pub buffer: usize,
}

impl TraceConfig {
    /// The defaults, for `target`.
    pub fn new(target: TraceTarget) -> TraceConfig {
        TraceConfig {
            target,
            max_age: Some(Duration::from_secs(30 * 86_400)),
            max_rows: Some(1_000_000),
            retention_interval: Duration::from_secs(600),
            buffer: 10_000,
        }
    }
}

/// Counters of a tracer, shared with its writer.
#[derive(Debug, Default)]
pub struct TraceStats {
    /// Events accepted into the buffer.
    pub emitted: AtomicU64,
    /// Events dropped because the buffer was full.
    pub dropped: AtomicU64,
    /// Events written to the database.
    pub written: AtomicU64,
    /// Batches that failed (and were retried).
    pub failed_batches: AtomicU64,
}

/// The runtime's handle on the trace: cheap to clone, never blocks.
#[derive(Clone)]
pub struct Tracer {
    tx: mpsc::Sender<TraceEvent>,
    stats: Arc<TraceStats>,
    /// This machine's host name and IP, for ElasticJob's `hostname` / `ip` columns.
    pub(crate) host: Arc<HostInfo>,
}

/// The host columns of ElasticJob's rows.
#[derive(Debug, Clone)]
pub struct HostInfo {
    /// `hostname`.
    pub hostname: String,
    /// `ip`.
    pub ip: String,
}

impl Tracer {
    /// A tracer with a buffer of `capacity` events, and the receiver its writer drains.
    pub fn channel(capacity: usize, host: HostInfo) -> (Tracer, mpsc::Receiver<TraceEvent>, Arc<TraceStats>) {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        let stats = Arc::new(TraceStats::default());
        (Tracer { tx, stats: Arc::clone(&stats), host: Arc::new(host) }, rx, stats)
    }

    /// Queues an event for the writer; when the buffer is full the event is dropped, counted,
    /// and logged (the first drop, then every 1,000th).
    pub fn emit(&self, event: TraceEvent) {
        match self.tx.try_send(event) {
            Ok(()) => {
                self.stats.emitted.fetch_add(1, Ordering::Relaxed);
            }
            Err(_) => {
                let dropped = self.stats.dropped.fetch_add(1, Ordering::Relaxed) + 1;
                if dropped == 1 || dropped.is_multiple_of(1000) {
                    tracing::warn!(dropped, "trace buffer full (the trace database is slow or down): events dropped");
                }
            }
        }
    }

    /// The counters.
    pub fn stats(&self) -> &TraceStats {
        &self.stats
    }
}

/// This machine's host name, as ElasticJob's `hostname` column (`unknown` when it cannot be
/// read).
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty()))
        .unwrap_or_else(|| "unknown".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        assert_eq!(TraceTarget::parse("/var/lib/t.db"), Ok(TraceTarget::Sqlite("/var/lib/t.db".into())));
        assert_eq!(TraceTarget::parse("sqlite:///tmp/x.db?mode=rwc"), Ok(TraceTarget::Sqlite("/tmp/x.db".into())));
        assert_eq!(TraceTarget::parse("sqlite:rel.db"), Ok(TraceTarget::Sqlite("rel.db".into())));
        let pg = "postgresql://u:secret@db:5432/trace";
        assert_eq!(TraceTarget::parse(pg), Ok(TraceTarget::Postgres(pg.into())));
        assert_eq!(TraceTarget::parse(pg).unwrap().describe(), "postgresql://u:***@db:5432/trace");
        assert!(TraceTarget::parse("mysql://x/y").unwrap_err().contains("unsupported trace store 'mysql://'"));
        assert!(TraceTarget::parse(" ").is_err());
        assert!(TraceTarget::parse("sqlite://").is_err());
        let from = |s: &str, file: &str| TraceTarget::parse(s).unwrap().relative_to_file(Path::new(file));
        assert_eq!(from("t.db", "/etc/ejctl/w.toml"), TraceTarget::Sqlite("/etc/ejctl/t.db".into()));
        assert_eq!(from("sqlite:../t.db", "conf/w.toml"), TraceTarget::Sqlite("conf/../t.db".into()));
        assert_eq!(from("t.db", "w.toml"), TraceTarget::Sqlite("t.db".into()));
        assert_eq!(from("/var/t.db", "/etc/w.toml"), TraceTarget::Sqlite("/var/t.db".into()));
        assert_eq!(from(pg, "/etc/w.toml"), TraceTarget::Postgres(pg.into()));
    }

    #[tokio::test]
    async fn a_full_buffer_drops_and_counts() {
        let host = HostInfo { hostname: "h".into(), ip: "10.0.0.1".into() };
        let (tracer, mut rx, stats) = Tracer::channel(2, host);
        for _ in 0..5 {
            tracer.emit(TraceEvent::Status(StatusTrace::example()));
        }
        assert_eq!(stats.emitted.load(Ordering::Relaxed), 2);
        assert_eq!(stats.dropped.load(Ordering::Relaxed), 3);
        assert!(rx.recv().await.is_some());
    }
}
