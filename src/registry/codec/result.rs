//! `sharding/{item}/result` (ejctl): the last run of an item — when it started and ended, which
//! fire it covered, who ran it, how it ended and the tail of its stderr, and the registry's
//! command values it did not run because the worker's job file pins others — or the last fire a
//! worker refused for it (clock skew, a configuration it cannot run).
//!
//! Workers write it in the transaction that deletes the run's `running` node, so it costs no
//! request of its own. The value is JSON with a version field `v`; readers ignore fields they do
//! not know and take an unknown `outcome` as [`RunOutcome::Unknown`], so later versions can add
//! to it. Java ElasticJob neither writes nor reads it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::CodecError;

/// The format version written.
pub const RESULT_VERSION: u32 = 1;

/// At most this many bytes of a failure message are stored.
pub const MESSAGE_CAP: usize = 512;

/// At most this many bytes of stderr (its last lines) are stored.
pub const STDERR_TAIL_CAP: usize = 1024;

/// At most this many bytes of each value of a [`RefusedValue`] are stored.
pub const REFUSED_VALUE_CAP: usize = 1024;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunOutcome {
    /// It succeeded.
    Ok,
    /// It failed (a non-zero exit, an HTTP error, an error of an in-process job).
    Failed,
    /// The worker stopped it (timeout, kill, fencing).
    Killed,
    /// The worker refused to start it (the record is of a fire, not a run).
    Refused,
    /// A value this version does not know.
    #[serde(other)]
    Unknown,
}

impl RunOutcome {
    /// `OK`, `FAILED`, `KILLED`, `REFUSED`, `UNKNOWN`: how tables show it.
    pub fn label(self) -> &'static str {
        match self {
            RunOutcome::Ok => "OK",
            RunOutcome::Failed => "FAILED",
            RunOutcome::Killed => "KILLED",
            RunOutcome::Refused => "REFUSED",
            RunOutcome::Unknown => "UNKNOWN",
        }
    }

    /// True for anything but a success.
    pub fn is_bad(self) -> bool {
        self != RunOutcome::Ok
    }
}

/// The value of `sharding/{item}/result`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemResult {
    /// The format version ([`RESULT_VERSION`]).
    #[serde(default)]
    pub v: u32,
    /// The instance that ran (or refused) it.
    #[serde(default)]
    pub instance: String,
    /// What fire it covered: `cron`, `trigger`, `misfire`, `failover`.
    #[serde(default)]
    pub source: String,
    /// The instant of that fire, in milliseconds since the epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fire_ms: Option<i64>,
    /// When the run started (absent for a refused fire).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_ms: Option<i64>,
    /// When it ended (or was refused).
    #[serde(default)]
    pub end_ms: i64,
    /// How it ended.
    pub outcome: RunOutcome,
    /// The process exit code (128 + signal for a signal), when there was a process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// The signal that ended the process, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    /// Why it failed or was refused (capped at [`MESSAGE_CAP`] bytes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The last lines of the script's stderr (capped at [`STDERR_TAIL_CAP`] bytes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr_tail: Option<String>,
    /// The registry's command values the run did not run, because the worker's job file pins
    /// other ones (it ran those): empty when the registry agrees with the job file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<RefusedValue>,
}

/// A command property whose registry value a worker refused to run ([`crate::coord::pin`]).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RefusedValue {
    /// The property (`script.command.line`, ...).
    pub prop: String,
    /// What the registry holds (`None`: unset there). Capped at [`REFUSED_VALUE_CAP`] bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registry: Option<String>,
    /// What the worker's job file gives, and the worker ran (`None`: unset there). Capped at
    /// [`REFUSED_VALUE_CAP`] bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_file: Option<String>,
}

impl ItemResult {
    /// Encodes as JSON, capping the message and the stderr tail.
    pub fn encode(&self) -> Vec<u8> {
        let mut capped = self.clone();
        capped.v = RESULT_VERSION;
        capped.message = capped.message.map(|m| cap_head(&m, MESSAGE_CAP));
        capped.stderr_tail = capped.stderr_tail.map(|t| cap_tail(&t, STDERR_TAIL_CAP)).filter(|t| !t.is_empty());
        for r in &mut capped.refused {
            r.registry = r.registry.take().map(|v| cap_head(&v, REFUSED_VALUE_CAP));
            r.job_file = r.job_file.take().map(|v| cap_head(&v, REFUSED_VALUE_CAP));
        }
        serde_json::to_vec(&capped).unwrap_or_default()
    }

    /// Decodes what a worker wrote.
    ///
    /// # Errors
    /// When the data is not an item result.
    pub fn decode(data: &[u8]) -> Result<ItemResult, CodecError> {
        serde_json::from_slice(data).map_err(|e| CodecError::new("item result", e.to_string()))
    }

    /// When it ended.
    pub fn ended(&self) -> Option<DateTime<Utc>> {
        DateTime::from_timestamp_millis(self.end_ms)
    }

    /// When it started.
    pub fn started(&self) -> Option<DateTime<Utc>> {
        self.start_ms.and_then(DateTime::from_timestamp_millis)
    }

    /// The fire it covered.
    pub fn fire(&self) -> Option<DateTime<Utc>> {
        self.fire_ms.and_then(DateTime::from_timestamp_millis)
    }

    /// Why it failed, for one table cell: the message and the last stderr line
    /// (`exit code 1: cannot connect`).
    pub fn reason(&self) -> Option<String> {
        let last = self.stderr_tail.as_deref().and_then(|t| t.lines().rev().find(|l| !l.trim().is_empty()));
        match (self.message.as_deref(), last) {
            (Some(m), Some(l)) if !m.contains(l.trim()) => Some(format!("{m}: {}", l.trim())),
            (Some(m), _) => Some(m.to_string()),
            (None, Some(l)) if self.outcome.is_bad() => Some(l.trim().to_string()),
            _ => None,
        }
    }
}

/// The first `cap` bytes of `s` (on a character boundary).
pub fn cap_head(s: &str, cap: usize) -> String {
    if s.len() <= cap {
        return s.to_string();
    }
    let mut end = cap;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

/// The last `cap` bytes of `s` (on a character boundary).
pub fn cap_tail(s: &str, cap: usize) -> String {
    if s.len() <= cap {
        return s.to_string();
    }
    let mut start = s.len() - cap;
    while !s.is_char_boundary(start) {
        start += 1;
    }
    s[start..].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ItemResult {
        ItemResult {
            v: RESULT_VERSION,
            instance: "10.0.0.1@-@7".into(),
            source: "cron".into(),
            fire_ms: Some(1_700_000_000_000),
            start_ms: Some(1_700_000_000_004),
            end_ms: 1_700_000_001_000,
            outcome: RunOutcome::Failed,
            exit_code: Some(1),
            signal: None,
            message: Some("exit code 1".into()),
            stderr_tail: Some("connecting\ncannot connect to db\n".into()),
            refused: Vec::new(),
        }
    }

    #[test]
    fn round_trip_and_reason() {
        let r = sample();
        let back = ItemResult::decode(&r.encode()).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.reason().as_deref(), Some("exit code 1: cannot connect to db"));
        let text = String::from_utf8(r.encode()).unwrap();
        assert!(
            text.starts_with(r#"{"v":1,"instance":"10.0.0.1@-@7","source":"cron","fireMs":1700000000000"#),
            "{text}"
        );
    }

    #[test]
    fn tolerant_reader() {
        let r = ItemResult::decode(br#"{"v":9,"outcome":"paused","endMs":5,"future":{"x":1}}"#).unwrap();
        assert_eq!(r.outcome, RunOutcome::Unknown);
        assert_eq!(r.end_ms, 5);
        assert!(ItemResult::decode(b"").is_err());
        assert!(ItemResult::decode(b"{}").is_err(), "the outcome is required");
        // What a run that refused the registry's command records.
        let r = ItemResult::decode(
            br#"{"v":1,"outcome":"ok","endMs":5,"refused":[{"prop":"script.command.line","registry":"/evil.sh","jobFile":"/job.sh"}]}"#,
        )
        .unwrap();
        assert_eq!(
            r.refused,
            vec![RefusedValue {
                prop: "script.command.line".into(),
                registry: Some("/evil.sh".into()),
                job_file: Some("/job.sh".into())
            }]
        );
    }

    #[test]
    fn caps() {
        let mut r = sample();
        r.message = Some("é".repeat(400));
        r.stderr_tail = Some(format!("{}\nlast line", "x".repeat(5000)));
        let back = ItemResult::decode(&r.encode()).unwrap();
        assert!(back.message.unwrap().len() <= MESSAGE_CAP);
        let tail = back.stderr_tail.unwrap();
        assert!(tail.len() <= STDERR_TAIL_CAP && tail.ends_with("last line"));
        r.refused = vec![RefusedValue { prop: "http.data".into(), registry: Some("d".repeat(2000)), job_file: None }];
        let back = ItemResult::decode(&r.encode()).unwrap();
        assert_eq!(back.refused[0].registry.as_deref().map(str::len), Some(REFUSED_VALUE_CAP));
        assert_eq!(back.refused[0].job_file, None);
        assert_eq!(cap_tail("aé", 1), "");
        assert_eq!(cap_head("éa", 1), "");
    }
}
