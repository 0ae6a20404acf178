//! Instance ids (`ip@-@pid`) and the instance YAML at `instances/{id}` (see the
//! [module docs](super)).

use std::fmt;
use std::sync::Arc;

use serde_yaml_ng::Value;

use super::CodecError;
use super::yaml::{Fields, yaml_scalar};
use crate::registry::path::INSTANCE_ID_SEPARATOR;

/// An instance id, `{ip}@-@{pid}` (docs/src/design/compatibility.md#instance-ids). Shared when
/// cloned: every job of a worker holds its worker's id.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstanceId(Arc<str>);

impl InstanceId {
    /// The id of `ip` and `pid`.
    pub fn new(ip: &str, pid: u32) -> InstanceId {
        InstanceId(format!("{ip}{INSTANCE_ID_SEPARATOR}{pid}").into())
    }

    /// Wraps an id read from the registry.
    pub fn from_raw(id: impl Into<Arc<str>>) -> InstanceId {
        InstanceId(id.into())
    }

    /// The id as stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The node data of nodes that name an instance (`running`, `failover`, the leader, ...).
    pub fn encode(&self) -> Vec<u8> {
        self.0.as_bytes().to_vec()
    }

    /// The server IP part (everything before `@-@`; the whole id if there is no separator).
    pub fn ip(&self) -> &str {
        instance_ip(&self.0)
    }
}

impl fmt::Display for InstanceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The IP part of an instance id: exact, never a prefix test (ElasticJob's `startsWith(ip)` bug).
pub fn instance_ip(id: &str) -> &str {
    id.split_once(INSTANCE_ID_SEPARATOR).map_or(id, |(ip, _)| ip)
}

/// The instance YAML stored at `instances/{id}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstanceInfo {
    /// `jobInstanceId`.
    pub job_instance_id: String,
    /// `labels` (omitted when absent).
    pub labels: Option<String>,
    /// `serverIp`.
    pub server_ip: String,
}

impl InstanceInfo {
    /// The instance YAML for an id.
    pub fn new(id: &InstanceId) -> InstanceInfo {
        InstanceInfo { job_instance_id: id.as_str().to_string(), labels: None, server_ip: id.ip().to_string() }
    }

    /// Encodes as ElasticJob does: `jobInstanceId`, `labels` if set, `serverIp`.
    pub fn to_yaml(&self) -> String {
        let mut out = format!("jobInstanceId: {}\n", yaml_scalar(&self.job_instance_id));
        if let Some(labels) = &self.labels {
            out.push_str(&format!("labels: {}\n", yaml_scalar(labels)));
        }
        out.push_str(&format!("serverIp: {}\n", yaml_scalar(&self.server_ip)));
        out
    }

    /// Decodes instance YAML; unknown keys are ignored. A missing `serverIp` falls back to the IP
    /// part of the id, a missing id to `fallback_id` (the node name).
    ///
    /// # Errors
    /// When the text exceeds a limit of [`super::bounded`] or is not a YAML mapping.
    pub fn from_yaml(text: &str, fallback_id: &str) -> Result<InstanceInfo, CodecError> {
        if let Some(plain) = plain_node(text, fallback_id) {
            return Ok(plain);
        }
        let what = format!("instance {fallback_id}");
        let value: Value = super::bounded::from_str(text, &what)?;
        let map = match value {
            Value::Mapping(map) => map,
            Value::Null => serde_yaml_ng::Mapping::new(),
            _ => return Err(CodecError::new(&what, "not a YAML mapping")),
        };
        let fields = Fields { what: &what, map: &map };
        let id = fields.string("jobInstanceId")?.unwrap_or_else(|| fallback_id.to_string());
        let server_ip = fields.string("serverIp")?.unwrap_or_else(|| instance_ip(&id).to_string());
        Ok(InstanceInfo { labels: fields.string("labels")?, job_instance_id: id, server_ip })
    }
}

/// The common case, read on every look at a job: the node as a worker writes it for its own id
/// (`ip@-@pid`, which YAML reads as a plain string), without labels. Recognised by its exact
/// text, without a YAML parser.
fn plain_node(text: &str, id: &str) -> Option<InstanceInfo> {
    let plain = id.contains(INSTANCE_ID_SEPARATOR)
        && id.as_bytes().first().is_some_and(u8::is_ascii_alphanumeric)
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b"._@-".contains(&b));
    let ip = instance_ip(id);
    let rest = text.strip_prefix("jobInstanceId: ")?.strip_prefix(id)?.strip_prefix("\nserverIp: ")?;
    (plain && rest.strip_prefix(ip) == Some("\n")).then(|| InstanceInfo::new(&InstanceId::from_raw(id)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_yaml_vectors() {
        // InstanceServiceTest.
        let id = InstanceId::new("127.0.0.1", 0);
        assert_eq!(id.as_str(), "127.0.0.1@-@0");
        let info = InstanceInfo::new(&id);
        assert_eq!(info.to_yaml(), "jobInstanceId: 127.0.0.1@-@0\nserverIp: 127.0.0.1\n");
        let labelled = InstanceInfo { labels: Some("labels".into()), ..info.clone() };
        assert_eq!(labelled.to_yaml(), "jobInstanceId: 127.0.0.1@-@0\nlabels: labels\nserverIp: 127.0.0.1\n");
        assert_eq!(InstanceInfo::from_yaml(&labelled.to_yaml(), "x").unwrap(), labelled);
        // The plain node of its own id (read without a parser) and of another name (parsed).
        assert_eq!(InstanceInfo::from_yaml(&info.to_yaml(), id.as_str()).unwrap(), info);
        assert_eq!(InstanceInfo::from_yaml(&info.to_yaml(), "10.9.9.9@-@9").unwrap(), info);
        for (text, id) in [
            ("jobInstanceId: 127.0.0.1@-@0\nserverIp: 127.0.0.1\n", "127.0.0.1@-@0"),
            ("jobInstanceId: 127.0.0.1@-@0\nserverIp: 127.0.0.2\n", "127.0.0.1@-@0"),
            ("jobInstanceId: 127.0.0.1@-@0\nserverIp: 127.0.0.1\nx: 1\n", "127.0.0.1@-@0"),
            ("jobInstanceId: a b@-@1\nserverIp: a b\n", "a b@-@1"),
        ] {
            let parsed = InstanceInfo::from_yaml(text, id).unwrap();
            assert_eq!(plain_node(text, id).is_some_and(|p| p == parsed), plain_node(text, id).is_some(), "{text}");
        }
        assert!(plain_node("jobInstanceId: 127.0.0.1@-@0\nserverIp: 127.0.0.1\n", "127.0.0.1@-@0").is_some());
        let tolerant = InstanceInfo::from_yaml("jobInstanceId: 10.0.0.1@-@5\nfuture: x\n", "n").unwrap();
        assert_eq!(tolerant.server_ip, "10.0.0.1");
    }

    #[test]
    fn instance_ip_is_exact() {
        assert_eq!(instance_ip("10.0.0.12@-@5"), "10.0.0.12");
        assert_ne!(instance_ip("10.0.0.12@-@5"), "10.0.0.1");
        assert_eq!(instance_ip("weird"), "weird");
    }
}
