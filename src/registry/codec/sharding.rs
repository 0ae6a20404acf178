//! `leader/sharding/necessary` (ElasticJob's resharding flag) may hold a [`ShardingFailure`]: the
//! leader writes it there when a sharding attempt does not complete, so that every view of the
//! job (and not only the leader's log) says the job cannot shard.
//!
//! The flag's data is free: ElasticJob's Java code only checks that the node exists, and creates
//! it empty. The record lives as long as the flag: the sharding transaction that completes deletes
//! the node, and the record with it. The value is JSON under one key, `ejctl_sharding_failed`, so
//! that no other value is mistaken for it; anything else — empty data (the flag as ElasticJob and
//! ejctl create it), text that is not such a record, a value larger than [`MAX_RECORD_BYTES`] —
//! decodes as no record, since anyone who can write the namespace controls this data.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::result::cap_head;

/// At most this many bytes of the error are stored (one line).
pub const ERROR_CAP: usize = 300;

/// At most this many bytes of the leader's instance id are stored.
pub const INSTANCE_CAP: usize = 256;

/// Data larger than this is no record (a record is under 1 KiB).
pub const MAX_RECORD_BYTES: usize = 4096;

/// Why the leader's sharding of a job does not complete.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardingFailure {
    /// When the first of the consecutive failed attempts failed, in milliseconds since the epoch.
    pub at: i64,
    /// How many sharding attempts in a row failed.
    pub attempts: u32,
    /// The last attempt's error (one line, capped at [`ERROR_CAP`] bytes).
    pub error: String,
    /// The leader that failed (capped at [`INSTANCE_CAP`] bytes).
    pub instance: String,
}

/// The node's JSON: the record under its key.
#[derive(Serialize, Deserialize)]
struct Envelope {
    ejctl_sharding_failed: ShardingFailure,
}

impl ShardingFailure {
    /// A record of `attempts` failures since `since` by `instance`, the last with `error` (made one
    /// line and capped).
    pub fn new(since: DateTime<Utc>, attempts: u32, error: &str, instance: &str) -> ShardingFailure {
        ShardingFailure {
            at: since.timestamp_millis(),
            attempts,
            error: one_line(error, ERROR_CAP),
            instance: one_line(instance, INSTANCE_CAP),
        }
    }

    /// Encodes as the flag's data, capping what a decoded value may hold too.
    pub fn encode(&self) -> Vec<u8> {
        let capped = ShardingFailure {
            error: one_line(&self.error, ERROR_CAP),
            instance: one_line(&self.instance, INSTANCE_CAP),
            ..self.clone()
        };
        serde_json::to_vec(&Envelope { ejctl_sharding_failed: capped }).unwrap_or_default()
    }

    /// Decodes the flag's data: `None` for anything but a record (see the module docs). What it
    /// returns is one line and capped, whoever wrote it.
    pub fn decode(data: &[u8]) -> Option<ShardingFailure> {
        if data.is_empty() || data.len() > MAX_RECORD_BYTES {
            return None;
        }
        let record = serde_json::from_slice::<Envelope>(data).ok()?.ejctl_sharding_failed;
        Some(ShardingFailure {
            error: one_line(&record.error, ERROR_CAP),
            instance: one_line(&record.instance, INSTANCE_CAP),
            ..record
        })
    }

    /// When the first failure happened.
    pub fn since(&self) -> Option<DateTime<Utc>> {
        DateTime::from_timestamp_millis(self.at)
    }
}

/// `s` with every control character (line breaks included) made a space, capped at `cap` bytes.
fn one_line(s: &str, cap: usize) -> String {
    let line: String = s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    cap_head(&line, cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_capped_to_one_line() {
        let at = DateTime::from_timestamp_millis(1_700_000_000_123).unwrap_or_default();
        let long = format!("first\nsecond\r\x1b[31m{}", "é".repeat(400));
        let record = ShardingFailure::new(at, 3, &long, "10.0.0.1@-@42");
        assert!(record.error.starts_with("first second  [31m"), "{}", record.error);
        assert!(record.error.len() <= ERROR_CAP);
        let data = record.encode();
        assert!(data.starts_with(br#"{"ejctl_sharding_failed":{"at":1700000000123,"attempts":3,"#));
        assert_eq!(ShardingFailure::decode(&data), Some(record.clone()));
        assert_eq!(record.since(), Some(at));
    }

    #[test]
    fn junk_is_no_record() {
        let big = format!(
            r#"{{"ejctl_sharding_failed":{{"at":1,"attempts":1,"error":"{}","instance":"i"}}}}"#,
            "x".repeat(5000)
        );
        for junk in [
            &b""[..],
            b"   ",
            b"\xff\xfe",
            b"null",
            b"[]",
            b"{}",
            b"{\"ejctl_sharding_failed\":null}",
            b"{\"ejctl_sharding_failed\":{\"at\":\"yesterday\"}}",
            b"{\"ejctl_sharding_failed\":{\"at\":1,\"attempts\":-1,\"error\":\"e\",\"instance\":\"i\"}}",
            b"{\"other\":1}",
            big.as_bytes(),
            &[b'['; 4000][..],
        ] {
            assert_eq!(ShardingFailure::decode(junk), None, "{}", String::from_utf8_lossy(junk));
        }
    }

    #[test]
    fn a_hostile_record_decodes_to_one_capped_line() {
        let data = format!(
            r#"{{"ejctl_sharding_failed":{{"at":1,"attempts":2,"error":"a\nforged line {}","instance":"x\u0007","extra":true}}}}"#,
            "y".repeat(1000)
        );
        let record = ShardingFailure::decode(data.as_bytes()).unwrap_or_else(|| panic!("not decoded"));
        assert!(record.error.starts_with("a forged line"));
        assert_eq!(record.error.len(), ERROR_CAP);
        assert_eq!(record.instance, "x ");
    }
}
