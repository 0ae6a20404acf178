//! The trace events the runtime emits, and how they map onto ElasticJob's rows (reference
//! docs/src/history-and-why.md).
//!
//! * A run is one `JOB_EXECUTION_LOG` row per item: inserted at start (`is_success` false), then
//!   updated with the outcome; when the start row is missing (dropped, or written by another
//!   batch that failed) the end inserts the whole row, as ElasticJob's upsert does. ejctl's
//!   `EJCTL_RUN_LOG` row follows the same two steps under the same id.
//! * A fire on one instance writes `JOB_STATUS_TRACE_LOG` rows: `TASK_STAGING`
//!   (`Job '<job>' execute begin.`) and `TASK_RUNNING` when its items start, `TASK_FINISHED` or
//!   `TASK_ERROR` (`{0=<cause>, 2=<cause>}`) once they all ended; a fire finding its items still
//!   busy writes `TASK_STAGING` and `TASK_FINISHED` with ElasticJob's misfire message; a fire the
//!   worker refused writes `TASK_STAGING` and `TASK_ERROR` with the reason.
//!
//! Unlike ElasticJob, a failed-over run's `execution_source` is `FAILOVER` (ElasticJob writes
//! `NORMAL_TRIGGER` for it).

use crate::registry::codec::RunOutcome;

/// ElasticJob's limit on `failure_cause` and `message` (`substring(0, 4000)`; counted in
/// characters here, UTF-16 units in Java).
pub const TEXT_CAP: usize = 4000;

/// `TASK_STAGING`.
pub const TASK_STAGING: &str = "TASK_STAGING";
/// `TASK_RUNNING`.
pub const TASK_RUNNING: &str = "TASK_RUNNING";
/// `TASK_FINISHED`.
pub const TASK_FINISHED: &str = "TASK_FINISHED";
/// `TASK_ERROR`.
pub const TASK_ERROR: &str = "TASK_ERROR";

/// A run started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunStart {
    /// The row id (a UUID), shared by both tables.
    pub id: String,
    /// The job.
    pub job: String,
    /// The sharding item.
    pub item: u32,
    /// ElasticJob's task id of the fire (`job@-@0,1@-@READY@-@ip@-@pid`).
    pub task_id: String,
    /// The instance id.
    pub instance: String,
    /// `hostname`.
    pub hostname: String,
    /// `ip`.
    pub ip: String,
    /// ejctl's source: `cron`, `trigger`, `misfire` or `failover`.
    pub source: &'static str,
    /// The fire instant it covers (ms since the epoch).
    pub fire_ms: i64,
    /// When it started (ms since the epoch).
    pub start_ms: i64,
    /// The `job trigger --wait` token, if any.
    pub token: Option<String>,
}

impl RunStart {
    /// ElasticJob's `execution_source`: `NORMAL_TRIGGER` (cron and trigger), `MISFIRE`,
    /// `FAILOVER`.
    pub fn execution_source(&self) -> &'static str {
        execution_source(self.source)
    }

    /// How late the start was after the fire, in ms (0 when early).
    pub fn lateness_ms(&self) -> i64 {
        (self.start_ms - self.fire_ms).max(0)
    }
}

/// ElasticJob's `execution_source` for an ejctl source label.
pub fn execution_source(source: &str) -> &'static str {
    match source {
        "misfire" => "MISFIRE",
        "failover" => "FAILOVER",
        _ => "NORMAL_TRIGGER",
    }
}

/// A run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunEnd {
    /// The run as it started (the end inserts the whole row when the start row is missing).
    pub start: RunStart,
    /// When it ended (ms since the epoch).
    pub end_ms: i64,
    /// How it ended.
    pub outcome: RunOutcome,
    /// The exit code (128 + signal for a signal).
    pub exit_code: Option<i32>,
    /// The signal that ended it.
    pub signal: Option<i32>,
    /// Why it failed (one line).
    pub message: Option<String>,
    /// The last lines of its output.
    pub output_tail: String,
    /// The last lines of its stderr.
    pub stderr_tail: String,
}

impl RunEnd {
    /// `is_success`.
    pub fn success(&self) -> bool {
        self.outcome == RunOutcome::Ok
    }

    /// ElasticJob's `failure_cause`: the reason and the stderr tail, capped (`None` on success).
    pub fn failure_cause(&self) -> Option<String> {
        if self.success() {
            return None;
        }
        let mut text = self.message.clone().unwrap_or_else(|| "failed".to_string());
        if !self.stderr_tail.is_empty() {
            text.push('\n');
            text.push_str(&self.stderr_tail);
        }
        Some(cap(&text))
    }
}

/// A `JOB_STATUS_TRACE_LOG` row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusTrace {
    /// The row id (a UUID).
    pub id: String,
    /// The job.
    pub job: String,
    /// The fire's task id.
    pub task_id: String,
    /// `slave_id`: the instance's IP.
    pub slave_id: String,
    /// The items of the fire on this instance.
    pub items: Vec<u32>,
    /// `TASK_STAGING`, `TASK_RUNNING`, `TASK_FINISHED` or `TASK_ERROR`.
    pub state: &'static str,
    /// The message.
    pub message: String,
    /// When (ms since the epoch).
    pub at_ms: i64,
}

impl StatusTrace {
    /// ElasticJob's `sharding_item` column: Java's `List.toString()`, `[0, 1, 2]`.
    pub fn sharding_items(&self) -> String {
        let items: Vec<String> = self.items.iter().map(u32::to_string).collect();
        format!("[{}]", items.join(", "))
    }

    /// A row for tests.
    #[cfg(test)]
    pub(crate) fn example() -> StatusTrace {
        StatusTrace {
            id: "s1".into(),
            job: "j".into(),
            task_id: "j@-@0@-@READY@-@10.0.0.1@-@1".into(),
            slave_id: "10.0.0.1".into(),
            items: vec![0],
            state: TASK_STAGING,
            message: staging_message("j"),
            at_ms: 1_700_000_000_000,
        }
    }
}

/// `Job '<job>' execute begin.`
pub fn staging_message(job: &str) -> String {
    format!("Job '{job}' execute begin.")
}

/// ElasticJob's message for a fire that finds items still running.
pub fn misfire_message(job: &str, items: &[u32]) -> String {
    let items: Vec<String> = items.iter().map(u32::to_string).collect();
    format!(
        "Previous job '{job}' - shardingItems '[{}]' is still running, misfired job will start after previous job completed.",
        items.join(", ")
    )
}

/// `TASK_ERROR`'s message: Java's `Map.toString()` of item → cause, `{0=cause, 2=cause}`.
pub fn error_message(errors: &[(u32, String)]) -> String {
    let parts: Vec<String> = errors.iter().map(|(item, cause)| format!("{item}={cause}")).collect();
    cap(&format!("{{{}}}", parts.join(", ")))
}

/// Caps a text column at [`TEXT_CAP`] characters.
pub fn cap(s: &str) -> String {
    match s.char_indices().nth(TEXT_CAP) {
        Some((i, _)) => s[..i].to_string(),
        None => s.to_string(),
    }
}

/// What the writer writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceEvent {
    /// A run started.
    RunStarted(RunStart),
    /// A run ended.
    RunEnded(Box<RunEnd>),
    /// A status row.
    Status(StatusTrace),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elasticjob_texts() {
        assert_eq!(staging_message("j"), "Job 'j' execute begin.");
        assert_eq!(
            misfire_message("j", &[0, 1]),
            "Previous job 'j' - shardingItems '[0, 1]' is still running, misfired job will start after previous job completed."
        );
        assert_eq!(error_message(&[(0, "a".into()), (2, "b".into())]), "{0=a, 2=b}");
        assert_eq!(StatusTrace::example().sharding_items(), "[0]");
        assert_eq!(StatusTrace { items: vec![0, 1, 2], ..StatusTrace::example() }.sharding_items(), "[0, 1, 2]");
        assert_eq!(cap(&"é".repeat(5000)).chars().count(), TEXT_CAP);
        assert_eq!(execution_source("cron"), "NORMAL_TRIGGER");
        assert_eq!(execution_source("trigger"), "NORMAL_TRIGGER");
        assert_eq!(execution_source("misfire"), "MISFIRE");
        assert_eq!(execution_source("failover"), "FAILOVER");
    }
}
