//! The `[trace]` table of a job file: where the worker writes its runs (see [`crate::trace`]).
//!
//! ```toml
//! [trace]                           # optional; absent: no trace
//! url = "postgres://ejctl:secret@db:5432/jobs"   # or a SQLite file (relative to the job
//!                                                # file); default: ~/.local/state/ejctl/trace.db
//! retention_days = 30               # 0 keeps rows forever
//! retention_rows = 1000000          # 0: no limit
//! ```

use std::path::Path;
use std::time::Duration;

use toml::Table;

use super::JobFileError;
use super::fields::Fields;
use crate::config::schema::TRACE_KEYS;
use crate::trace::{TraceConfig, TraceTarget, default_sqlite_path};

/// Parses and checks a `[trace]` table.
pub(super) fn parse_trace(file: &Path, table: &Table) -> Result<TraceConfig, JobFileError> {
    let f = Fields { table, file, job: None, prefix: "trace." };
    let known: Vec<&str> = TRACE_KEYS.iter().map(|k| k.key).collect();
    f.check_keys(&known, &[])?;
    let target = match f.string("url")? {
        Some(url) => TraceTarget::parse(&url).map_err(|m| f.err("url", m))?.relative_to_file(file),
        None => TraceTarget::Sqlite(default_sqlite_path()),
    };
    let mut config = TraceConfig::new(target);
    if let Some(days) = f.int_at_least("retention_days", 0)? {
        config.max_age = (days > 0).then(|| Duration::from_secs(days as u64 * 86_400));
    }
    if let Some(rows) = f.int_at_least("retention_rows", 0)? {
        config.max_rows = (rows > 0).then_some(rows as u64);
    }
    if let Some(seconds) = f.int_at_least("retention_interval_seconds", 1)? {
        config.retention_interval = Duration::from_secs(seconds as u64);
    }
    if let Some(events) = f.int_at_least("buffer_events", 1)? {
        config.buffer = usize::try_from(events).unwrap_or(usize::MAX);
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<TraceConfig, String> {
        let table: Table = text.parse().unwrap();
        parse_trace(Path::new("w.toml"), &table).map_err(|e| e.to_string())
    }

    #[test]
    fn trace_table() {
        let c = parse("").unwrap();
        assert_eq!(c.target, TraceTarget::Sqlite(default_sqlite_path()));
        assert_eq!(c.max_age, Some(Duration::from_secs(30 * 86_400)));
        let c =
            parse("url = \"postgres://u:p@h/db\"\nretention_days = 0\nretention_rows = 5\nbuffer_events = 3").unwrap();
        assert_eq!(c.target, TraceTarget::Postgres("postgres://u:p@h/db".into()));
        assert_eq!((c.max_age, c.max_rows, c.buffer), (None, Some(5), 3));
        assert_eq!(
            parse("url = \"mysql://h/db\"").unwrap_err(),
            "w.toml: trace.url: unsupported trace store 'mysql://': use a SQLite file path or a postgres:// URL"
        );
        assert!(parse("retention_days = -1").unwrap_err().contains("trace.retention_days: must be at least 0"));
        assert!(parse("urll = \"x\"").unwrap_err().contains("unknown key 'trace.urll'"));
    }
}
