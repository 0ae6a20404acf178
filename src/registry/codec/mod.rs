//! Every node value format of ElasticJob 3.x (and ejctl's additions), encoded and decoded in one
//! place (docs/src/design/compatibility.md#job-configuration,
//! docs/src/design/compatibility.md#instance-ids).
//!
//! * `config`: the YAML `JobConfigurationPOJO` ([`crate::config::JobConfig`], in [`yaml`]). Written the way
//!   SnakeYAML's `dumpAsMap` writes it: keys in alphabetical order, nulls and empty collections
//!   omitted, booleans and ints always present, strings quoted only where YAML 1.1 would read
//!   them as something else. Read tolerantly: unknown keys, both executor-pool key names, `''`
//!   type strings and tagged entries (`jobExtraConfigurations`) are accepted, and a
//!   read-modify-write writes back verbatim every entry it did not model.
//! * `/{job}`: the job type ([`JobType`]).
//! * `instances/{id}`: the instance YAML ([`InstanceInfo`], in [`instance`]); nodes that name an
//!   instance (`sharding/{i}/instance`, `running`, `failover`, `failovering`, the leader): its id
//!   as text ([`InstanceId::encode`]).
//! * `servers/{ip}`: `ENABLED` / `DISABLED` ([`ServerStatus`]).
//! * `sharding/{i}` (ejctl): the start instant of the item's latest run ([`encode_millis`]);
//!   `sharding/{i}/misfire` (ejctl): the instant of the fire it owes ([`decode_misfire`]).
//! * `trigger/{id}`: empty, or the token of a `job trigger --wait` ([`encode_trigger`]);
//!   `trigger-results/{token}/{item}` (ejctl): a [`TriggerResult`].
//! * `sharding/{i}/result` (ejctl): the item's last run or refused fire ([`ItemResult`], in
//!   [`result`]).
//! * `leader/sharding/necessary`: empty (ElasticJob), or the leader's record of a sharding that
//!   does not complete (ejctl: [`ShardingFailure`], in [`sharding`]).
//! * marker nodes (`running` without failover, `disabled`, ...): empty data ([`EMPTY`]).
//!
//! Nothing here does I/O; the runtime, the admin commands and `ejctl dump` share these decoders,
//! so the admin view cannot disagree with what workers see.

pub mod bounded;
pub mod instance;
pub mod result;
pub mod sharding;
pub mod yaml;

use std::fmt;

use chrono::{DateTime, Utc};

pub use self::instance::{InstanceId, InstanceInfo, instance_ip};
pub use self::result::{ItemResult, RefusedValue, RunOutcome};
pub use self::sharding::ShardingFailure;

/// The data of marker nodes.
pub const EMPTY: &[u8] = b"";

/// A value that could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what}: {reason}")]
pub struct CodecError {
    /// What was being decoded.
    pub what: String,
    /// Why it failed.
    pub reason: String,
}

impl CodecError {
    fn new(what: impl Into<String>, reason: impl Into<String>) -> CodecError {
        CodecError { what: what.into(), reason: reason.into() }
    }
}

/// The kind of a job, stored as the job root node's data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobType {
    /// A command line run once per item (`SCRIPT`).
    Script,
    /// An HTTP request per item (`HTTP`).
    Http,
    /// Fetch / process commands exchanging JSON lines (`DATAFLOW`).
    Dataflow,
    /// A job implemented in Rust and registered with the runtime (or a Java class name); the root
    /// data is its name.
    InProcess(String),
}

impl JobType {
    /// The job root node's data.
    pub fn root_data(&self) -> &str {
        match self {
            JobType::Script => "SCRIPT",
            JobType::Http => "HTTP",
            JobType::Dataflow => "DATAFLOW",
            JobType::InProcess(name) => name,
        }
    }

    /// Decodes the job root node's data: `SCRIPT`, `HTTP`, `DATAFLOW`, or any other name (an
    /// in-process job, or a Java class).
    pub fn decode(data: &[u8]) -> JobType {
        match data {
            b"SCRIPT" => JobType::Script,
            b"HTTP" => JobType::Http,
            b"DATAFLOW" => JobType::Dataflow,
            other => JobType::InProcess(decode_text(other)),
        }
    }

    /// True for the types whose executor ejctl configures from `props` (script, HTTP, dataflow).
    pub fn is_command_line(&self) -> bool {
        !matches!(self, JobType::InProcess(_))
    }
}

impl fmt::Display for JobType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.root_data())
    }
}

/// An instant as ejctl stores it: milliseconds since the epoch, in decimal.
pub fn encode_millis(t: DateTime<Utc>) -> Vec<u8> {
    t.timestamp_millis().to_string().into_bytes()
}

/// Decodes [`encode_millis`]; `None` when the data is not such an instant (an empty
/// `sharding/{i}` node written by ElasticJob).
pub fn decode_millis(data: &[u8]) -> Option<DateTime<Utc>> {
    decode_text(data).trim().parse::<i64>().ok().and_then(DateTime::from_timestamp_millis)
}

/// A failover queue entry's data as ejctl writes it: the version of the item's `sharding/{i}`
/// node (its start stamp) when the orphaned run was queued, in decimal. ElasticJob writes the
/// entry empty and reads only its name.
pub fn encode_queued_stamp(version: i32) -> Vec<u8> {
    version.to_string().into_bytes()
}

/// Decodes [`encode_queued_stamp`]; `None` for an entry ElasticJob wrote (empty) or any other
/// data.
pub fn decode_queued_stamp(data: &[u8]) -> Option<i32> {
    decode_text(data).trim().parse().ok()
}

/// The fire a `misfire` node owes a run: its instant, or the epoch for the empty node ElasticJob
/// writes ("owed since an unknown instant", so any run covers it).
pub fn decode_misfire(data: &[u8]) -> DateTime<Utc> {
    decode_millis(data).unwrap_or(DateTime::UNIX_EPOCH)
}

/// The data of a `trigger/{id}` node: empty, or the token of a `job trigger --wait` whose
/// results the triggered items record.
pub fn encode_trigger(token: Option<&str>) -> Vec<u8> {
    token.unwrap_or("").as_bytes().to_vec()
}

/// Decodes [`encode_trigger`]: the token, if any.
pub fn decode_trigger(data: &[u8]) -> Option<String> {
    Some(decode_text(data)).filter(|t| !t.is_empty())
}

/// The value of `servers/{ip}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerStatus {
    /// `ENABLED`.
    Enabled,
    /// `DISABLED`.
    Disabled,
    /// Anything else. ElasticJob 3.x treats it as disabled (after retrying for a second); a 2.x
    /// cluster wrote `""` for enabled.
    Other(String),
}

impl ServerStatus {
    /// Decodes the node data.
    pub fn decode(data: &[u8]) -> ServerStatus {
        match data {
            b"ENABLED" => ServerStatus::Enabled,
            b"DISABLED" => ServerStatus::Disabled,
            other => ServerStatus::Other(String::from_utf8_lossy(other).into_owned()),
        }
    }

    /// Encodes the node data.
    pub fn encode(&self) -> &[u8] {
        match self {
            ServerStatus::Enabled => b"ENABLED",
            ServerStatus::Disabled => b"DISABLED",
            ServerStatus::Other(s) => s.as_bytes(),
        }
    }

    /// The status for a flag.
    pub fn from_enabled(enabled: bool) -> ServerStatus {
        if enabled { ServerStatus::Enabled } else { ServerStatus::Disabled }
    }

    /// True only for `ENABLED`, as in ElasticJob 3.x.
    pub fn is_enabled(&self) -> bool {
        *self == ServerStatus::Enabled
    }
}

impl fmt::Display for ServerStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(self.encode()))
    }
}

/// One triggered item's outcome, stored by ejctl workers at `trigger-results/{token}/{item}` for
/// `ejctl job trigger --wait` (an ejctl extension; JSON).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TriggerResult {
    /// The instance that ran the item.
    pub instance: String,
    /// True when the item succeeded.
    pub success: bool,
    /// The process exit code (or 128 + signal), when there was a process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Why it failed, or a short note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// How long the run took, in milliseconds.
    pub elapsed_ms: u64,
}

impl TriggerResult {
    /// Encodes as JSON.
    pub fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Decodes the JSON a worker wrote.
    ///
    /// # Errors
    /// When the data is not a trigger result.
    pub fn decode(data: &[u8]) -> Result<TriggerResult, CodecError> {
        serde_json::from_slice(data).map_err(|e| CodecError::new("trigger result", e.to_string()))
    }
}

/// Decodes node data that holds a UTF-8 string (an instance id in `sharding/{i}/instance`,
/// `running`, `failover`, the leader node).
pub fn decode_text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_status() {
        assert_eq!(ServerStatus::decode(b"ENABLED"), ServerStatus::Enabled);
        assert_eq!(ServerStatus::decode(b"DISABLED"), ServerStatus::Disabled);
        assert!(!ServerStatus::decode(b"").is_enabled());
        assert_eq!(ServerStatus::Disabled.encode(), b"DISABLED");
    }

    #[test]
    fn job_types() {
        for t in [JobType::Script, JobType::Http, JobType::Dataflow, JobType::InProcess("com.example.MyJob".into())] {
            assert_eq!(JobType::decode(t.root_data().as_bytes()), t);
        }
        assert!(!JobType::decode(b"Report").is_command_line());
    }

    #[test]
    fn stamps_and_tokens() {
        let t = DateTime::from_timestamp_millis(1_700_000_000_123).unwrap();
        assert_eq!(encode_millis(t), b"1700000000123");
        assert_eq!(decode_millis(b"1700000000123"), Some(t));
        assert_eq!(decode_millis(b""), None);
        assert_eq!(decode_misfire(b""), DateTime::UNIX_EPOCH);
        assert_eq!(decode_misfire(b" 1700000000123 "), t);
        assert_eq!(decode_trigger(&encode_trigger(Some("abc"))), Some("abc".into()));
        assert_eq!(decode_trigger(&encode_trigger(None)), None);
    }
}
