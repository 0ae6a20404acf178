//! The YAML of `/{job}/config` ([`JobConfig`]) and the YAML scalar rules shared with the instance
//! YAML (see the [module docs](super)).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::LazyLock;

use regex::Regex;
use serde_yaml_ng::Value;

use super::CodecError;
use crate::config::JobConfig;
use crate::config::schema::{self, FIELDS, FieldId, Kind, Value as FieldValue};

impl JobConfig {
    /// Decodes the YAML stored at `config`.
    ///
    /// # Errors
    /// When the text exceeds a limit of [`super::bounded`], is not YAML, not a mapping, holds more
    /// than [`MAX_UNMODELLED_KEYS`] keys it does not model, or a modelled key has a value of the
    /// wrong type.
    pub fn from_yaml(text: &str) -> Result<JobConfig, CodecError> {
        let what = "job configuration";
        let value: Value = super::bounded::from_str(text, what)?;
        let map = match value {
            Value::Mapping(map) => map,
            Value::Null => return Err(CodecError::new(what, "empty document")),
            _ => return Err(CodecError::new(what, "not a YAML mapping")),
        };
        let field = Fields { what, map: &map };
        let mut cfg = JobConfig::default();
        let mut pool_seen = false;
        for f in FIELDS {
            if matches!(f.id, FieldId::ExecutorPool(_)) {
                // The first of the two key names present wins (3.0.5's name is listed first).
                if pool_seen || !map.contains_key(f.yaml) {
                    continue;
                }
                pool_seen = true;
            }
            let value = match f.kind {
                Kind::Str => field.string(f.yaml)?.map(|v| FieldValue::Str(Some(v))),
                Kind::TypeName(_) => Some(FieldValue::Str(field.type_name(f.yaml)?)),
                Kind::Int => field.int(f.yaml)?.map(FieldValue::Int),
                Kind::Bool => field.boolean(f.yaml)?.map(FieldValue::Bool),
                Kind::List => Some(FieldValue::List(field.string_list(f.yaml)?)),
                Kind::Map => Some(FieldValue::Map(field.string_map(f.yaml)?)),
            };
            if let Some(value) = value {
                cfg.set(f.id, value);
            }
        }
        let unmodelled: BTreeSet<String> =
            map.keys().filter_map(Value::as_str).filter(|k| !schema::is_modelled(k)).map(str::to_string).collect();
        if unmodelled.len() > MAX_UNMODELLED_KEYS {
            return Err(CodecError::new(
                what,
                format!(
                    "holds {} keys ejctl does not model, more than the limit of {MAX_UNMODELLED_KEYS}",
                    unmodelled.len()
                ),
            ));
        }
        if !unmodelled.is_empty() {
            cfg.preserved =
                preserve_entries(text, &map, &unmodelled).map_err(|reason| CodecError::new(what, reason))?;
        }
        Ok(cfg)
    }

    /// Encodes the configuration as ElasticJob writes it.
    pub fn to_yaml(&self) -> String {
        let mut entries: Vec<(String, String)> = Vec::new();
        for f in FIELDS {
            let key = f.yaml;
            // Strings are quoted as needed; Java primitives (booleans, ints) are always plain.
            let block = match self.get(f.id) {
                FieldValue::Str(None) => continue,
                FieldValue::Str(Some(v)) => format!("{key}: {}\n", yaml_scalar(&v)),
                FieldValue::Int(v) => format!("{key}: {v}\n"),
                FieldValue::Bool(v) => format!("{key}: {v}\n"),
                FieldValue::List(items) if items.is_empty() => continue,
                FieldValue::List(items) => {
                    let mut block = format!("{key}:\n");
                    for t in &items {
                        block.push_str(&format!("- {}\n", yaml_scalar(t)));
                    }
                    block
                }
                FieldValue::Map(map) if map.is_empty() => continue,
                FieldValue::Map(map) => {
                    let mut block = format!("{key}:\n");
                    for (k, v) in &map {
                        block.push_str(&format!("  {}: {}\n", yaml_scalar(k), yaml_scalar(v)));
                    }
                    block
                }
            };
            entries.push((key.to_string(), block));
        }
        for (key, block) in &self.preserved {
            entries.push((key.clone(), block.clone()));
        }
        entries.sort_by(|a, b| crate::registry::path::java_compare(&a.0, &b.0));
        entries.into_iter().map(|(_, block)| block).collect()
    }
}

/// Reads typed values out of a YAML mapping, naming the key in every error.
pub(super) struct Fields<'a> {
    pub(super) what: &'a str,
    pub(super) map: &'a serde_yaml_ng::Mapping,
}

impl Fields<'_> {
    fn get(&self, key: &str) -> Option<&Value> {
        match self.map.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::Tagged(t)) => Some(&t.value),
            Some(v) => Some(v),
        }
    }

    fn err(&self, key: &str, expected: &str, got: &Value) -> CodecError {
        CodecError::new(self.what, format!("'{key}' must be {expected}, got {}", describe(got)))
    }

    pub(super) fn string(&self, key: &str) -> Result<Option<String>, CodecError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => scalar_string(v).map(Some).ok_or_else(|| self.err(key, "a string", v)),
        }
    }

    /// A type name (strategy, handler, pool): `''` means "not set" (older consoles wrote it).
    fn type_name(&self, key: &str) -> Result<Option<String>, CodecError> {
        Ok(self.string(key)?.filter(|s| !s.trim().is_empty()))
    }

    fn int(&self, key: &str) -> Result<Option<i32>, CodecError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => {
                let n = match v {
                    Value::Number(n) => n.as_i64(),
                    Value::String(s) => s.trim().parse::<i64>().ok(),
                    _ => None,
                };
                n.and_then(|n| i32::try_from(n).ok()).map(Some).ok_or_else(|| self.err(key, "a 32-bit integer", v))
            }
        }
    }

    fn boolean(&self, key: &str) -> Result<Option<bool>, CodecError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(Value::String(s)) if s.eq_ignore_ascii_case("true") => Ok(Some(true)),
            Some(Value::String(s)) if s.eq_ignore_ascii_case("false") => Ok(Some(false)),
            Some(v) => Err(self.err(key, "true or false", v)),
        }
    }

    fn string_list(&self, key: &str) -> Result<Vec<String>, CodecError> {
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(Value::Sequence(seq)) => {
                seq.iter().map(|v| scalar_string(v).ok_or_else(|| self.err(key, "a list of strings", v))).collect()
            }
            Some(v) => Err(self.err(key, "a list of strings", v)),
        }
    }

    fn string_map(&self, key: &str) -> Result<BTreeMap<String, String>, CodecError> {
        match self.get(key) {
            None => Ok(BTreeMap::new()),
            Some(Value::Mapping(m)) => {
                let mut out = BTreeMap::new();
                for (k, v) in m {
                    let k = scalar_string(k).ok_or_else(|| self.err(key, "a map of strings", k))?;
                    // A null property value is dropped, as java.util.Properties cannot hold it.
                    if matches!(v, Value::Null) {
                        continue;
                    }
                    let v = scalar_string(v).ok_or_else(|| self.err(key, "a map of strings", v))?;
                    out.insert(k, v);
                }
                Ok(out)
            }
            Some(v) => Err(self.err(key, "a map of strings", v)),
        }
    }
}

fn scalar_string(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Tagged(t) => scalar_string(&t.value),
        _ => None,
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("'{s}'"),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a map".into(),
        Value::Tagged(t) => format!("a value tagged {}", t.tag),
    }
}

/// The most top-level keys ejctl does not model that a configuration may hold: 256.
///
/// Each is kept as its own YAML block, decoded again to check that it reads back as the entry
/// (and once more by `config get`), a few microseconds apiece: the ~25,000 keys that fit in
/// 256 KiB took 112 ms to decode and 70 ms to show as JSON (`benches/yaml.rs`). ElasticJob
/// writes none beyond its POJO's keys; a newer version may add a few. A configuration with more
/// is refused rather than decoded with entries missing, which a read-modify-write would lose.
pub const MAX_UNMODELLED_KEYS: usize = 256;

/// The most YAML text kept for the entries ejctl does not model: 32 KiB in all.
///
/// That text is decoded a second time (and again by `config get`), so it is bounded well below
/// [`super::bounded::MAX_NODE_BYTES`]: a configuration made of nothing else would cost twice
/// the parse of the largest node. ElasticJob's only such entries (`jobExtraConfigurations`) take
/// a few hundred bytes. A configuration with more is refused, as for the key count.
pub const MAX_UNMODELLED_BYTES: usize = 32 * 1024;

/// Keeps the YAML text of unmodelled top-level entries, so tags and formatting survive.
///
/// ElasticJob writes block-style YAML with top-level keys at column 0, so each entry is the key
/// line plus the indented (or `- `) lines below it. For a document in another style (flow style,
/// hand-written), the entry is re-serialised from the parsed value instead, which keeps its data
/// but not its YAML tags.
///
/// # Errors
/// When the entries take more than [`MAX_UNMODELLED_BYTES`].
fn preserve_entries(
    text: &str,
    map: &serde_yaml_ng::Mapping,
    keys: &BTreeSet<String>,
) -> Result<Vec<(String, String)>, String> {
    let too_large = || format!("holds more than {MAX_UNMODELLED_BYTES} bytes of keys ejctl does not model");
    // Split once and looked up by key (a list searched per key was quadratic in the keys). The
    // first block of a key wins, as in the document's order.
    let mut blocks: HashMap<String, String> = HashMap::new();
    for (key, block) in top_level_blocks(text).unwrap_or_default() {
        blocks.entry(key).or_insert(block);
    }
    let mut room = MAX_UNMODELLED_BYTES;
    let mut out = Vec::new();
    let mut dropped = Vec::new();
    for key in keys {
        let Some(value) = map.get(key.as_str()) else { continue };
        // The block reads back as exactly this entry (through the bounded decoder: what is kept
        // is written back, and must decode again).
        let faithful = |block: &str| {
            super::bounded::from_str::<serde_yaml_ng::Mapping>(block, "preserved entry")
                .is_ok_and(|m| m.len() == 1 && m.get(key.as_str()) == Some(value))
        };
        // The block as written, when it reads back as exactly this entry (the line splitter
        // is a heuristic: odd keys, tags or indentation can fool it); else as serde writes it,
        // under the same condition; else the entry cannot be kept faithfully and is dropped
        // rather than written back as YAML that no longer decodes.
        let raw = match blocks.get(key) {
            Some(block) if block.len() > room => return Err(too_large()),
            Some(block) => Some(block).filter(|block| faithful(block)).cloned(),
            None => None,
        };
        let kept = match raw {
            Some(block) => Some(block),
            None => written(key, value, room).ok_or_else(too_large)?.filter(|block| faithful(block)),
        };
        match kept {
            Some(block) => {
                room -= block.len();
                out.push((key.clone(), block));
            }
            None => dropped.push(key.as_str()),
        }
    }
    if !dropped.is_empty() {
        let keys = dropped.join(", ");
        tracing::warn!(keys = %keys, "configuration keys ejctl does not model cannot be kept as written; dropped");
    }
    Ok(out)
}

/// The entry `key: value` as serde writes it (`Some(None)` when it cannot be written), or `None`
/// when that takes more than `room` bytes: an alias-expanded value can serialise to megabytes,
/// and the writer stops at the limit instead.
fn written(key: &str, value: &Value, room: usize) -> Option<Option<String>> {
    struct Capped {
        out: Vec<u8>,
        room: usize,
        full: bool,
    }
    impl std::io::Write for Capped {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.out.len() + buf.len() > self.room {
                self.full = true;
                return Err(std::io::Error::other("larger than the room left"));
            }
            self.out.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut w = Capped { out: Vec::new(), room, full: false };
    let result = serde_yaml_ng::to_writer(&mut w, &BTreeMap::from([(key, value)]));
    if w.full {
        return None;
    }
    Some(result.ok().and_then(|()| String::from_utf8(w.out).ok()))
}

fn top_level_blocks(text: &str) -> Option<Vec<(String, String)>> {
    let mut blocks: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let first = line.chars().next();
        match first {
            None => continue,
            Some(' ' | '-' | '\t') if !line.starts_with("---") => {
                let (_, block) = blocks.last_mut()?;
                block.push_str(line);
                block.push('\n');
            }
            Some('#') => {}
            Some(_) if line.starts_with("---") || line.starts_with("...") => {}
            Some(_) => {
                let (key, _) = line.split_once(':')?;
                let key = key.trim().trim_matches(|c| c == '\'' || c == '"');
                if key.starts_with(['{', '[', '?']) {
                    return None;
                }
                blocks.push((key.to_string(), format!("{line}\n")));
            }
        }
    }
    Some(blocks)
}

/// Quotes a string the way SnakeYAML would: plain where YAML 1.1 reads it back as the same
/// string, single-quoted otherwise, double-quoted when it holds line breaks or control characters.
pub(super) fn yaml_scalar(s: &str) -> String {
    if s.chars().any(|c| c.is_control() || c == '\u{feff}' || c == '\u{2028}' || c == '\u{2029}') {
        return double_quoted(s);
    }
    if plain_allowed(s) && !IMPLICIT.iter().any(|re| re.is_match(s)) {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', "''"))
}

fn double_quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if (c as u32) < 0x100 && c.is_control() => out.push_str(&format!("\\x{:02X}", c as u32)),
            c if c.is_control() || c == '\u{feff}' || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// SnakeYAML's `Emitter.analyzeScalar` rules for a plain scalar in block context.
fn plain_allowed(s: &str) -> bool {
    if s.is_empty() || s.starts_with("---") || s.starts_with("...") {
        return false;
    }
    if s.starts_with(' ') || s.ends_with(' ') {
        return false;
    }
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let followed_by_space = chars.get(i + 1).is_none_or(|n| *n == ' ');
        let preceded_by_space = i > 0 && chars[i - 1] == ' ';
        if i == 0 {
            if "#,[]{}&*!|>'\"%@`".contains(c) {
                return false;
            }
            if (c == '?' || c == ':' || c == '-') && followed_by_space {
                return false;
            }
        } else {
            if c == ':' && followed_by_space {
                return false;
            }
            if c == '#' && preceded_by_space {
                return false;
            }
        }
    }
    true
}

/// SnakeYAML's implicit resolvers (YAML 1.1): a plain scalar matching one of these would be read
/// back as a bool, int, float, null, timestamp, merge key or value key.
static IMPLICIT: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        r"^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$",
        r"^(?:[-+]?0b_*[0-1]+[0-1_]*|[-+]?0_*[0-7]+[0-7_]*|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x_*[0-9a-fA-F]+[0-9a-fA-F_]*|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9_]+(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        r"^(?:~|null|Null|NULL| )$",
        r"^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*Z|[-+][0-9][0-9]?(?::[0-9][0-9])?)?)$",
        r"^(?:<<)$",
        r"^(?:=)$",
    ]
    .iter()
    .filter_map(|re| Regex::new(re).ok())
    .collect()
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ExecutorPoolKey;

    /// A fully set POJO, as ElasticJob's `JobConfigurationPOJOTest` has it.
    const FULL_YAML: &str = "cron: 0/1 * * * * ?
description: Job description
disabled: false
failover: false
jobErrorHandlerType: IGNORE
jobExecutorThreadPoolSizeProviderType: CPU
jobName: test_job
jobParameter: param
jobShardingStrategyType: AVG_ALLOCATION
maxTimeDiffSeconds: -1
misfire: false
monitorExecution: false
overwrite: false
props:
  key: value
reconcileIntervalMinutes: 0
shardingItemParameters: 0=A,1=B,2=C
shardingTotalCount: 3
staticSharding: false
";

    const MINIMAL_YAML: &str = "cron: 0/1 * * * * ?
disabled: false
failover: false
jobName: test_job
maxTimeDiffSeconds: -1
misfire: false
monitorExecution: false
overwrite: false
reconcileIntervalMinutes: 0
shardingTotalCount: 3
staticSharding: false
";

    fn full_config() -> JobConfig {
        JobConfig {
            job_name: "test_job".into(),
            cron: Some("0/1 * * * * ?".into()),
            sharding_total_count: 3,
            sharding_item_parameters: Some("0=A,1=B,2=C".into()),
            job_parameter: Some("param".into()),
            max_time_diff_seconds: -1,
            job_sharding_strategy_type: Some("AVG_ALLOCATION".into()),
            job_executor_pool_type: Some("CPU".into()),
            job_error_handler_type: Some("IGNORE".into()),
            description: Some("Job description".into()),
            props: crate::config::Props::from([("key".to_string(), "value".to_string())]),
            ..JobConfig::default()
        }
    }

    #[test]
    fn full_pojo_marshals_exactly() {
        assert_eq!(full_config().to_yaml(), FULL_YAML);
    }

    #[test]
    fn minimal_pojo_marshals_exactly() {
        let cfg = JobConfig {
            job_name: "test_job".into(),
            cron: Some("0/1 * * * * ?".into()),
            sharding_total_count: 3,
            ..JobConfig::default()
        };
        assert_eq!(cfg.to_yaml(), MINIMAL_YAML);
    }

    #[test]
    fn full_pojo_unmarshals() {
        assert_eq!(JobConfig::from_yaml(FULL_YAML).unwrap(), full_config());
        assert_eq!(JobConfig::from_yaml(FULL_YAML).unwrap().to_yaml(), FULL_YAML);
    }

    #[test]
    fn missing_keys_take_pojo_defaults() {
        let cfg = JobConfig::from_yaml("jobName: j\nshardingTotalCount: 2\n").unwrap();
        assert!(!cfg.monitor_execution);
        assert!(!cfg.misfire);
        assert_eq!(cfg.reconcile_interval_minutes, 0);
        assert_eq!(cfg.max_time_diff_seconds, -1);
        // ...and the three keys whose defaults differ are always written back.
        let out = cfg.to_yaml();
        assert!(out.contains("monitorExecution: false\n"), "{out}");
        assert!(out.contains("misfire: false\n"), "{out}");
        assert!(out.contains("reconcileIntervalMinutes: 0\n"), "{out}");
    }

    #[test]
    fn dataflow_fixture_round_trips() {
        // LifecycleYamlConstants: `description: ''` and a quoted 'true' property.
        let yaml = "cron: 0/1 * * * * ?\ndescription: ''\ndisabled: false\nfailover: false\njobName: test_job\n\
maxTimeDiffSeconds: -1\nmisfire: false\nmonitorExecution: true\noverwrite: false\nprops:\n  streaming.process: 'true'\n\
reconcileIntervalMinutes: 10\nshardingTotalCount: 3\nstaticSharding: false\n";
        let cfg = JobConfig::from_yaml(yaml).unwrap();
        assert_eq!(cfg.description.as_deref(), Some(""));
        assert_eq!(cfg.props["streaming.process"], "true");
        assert_eq!(cfg.to_yaml(), yaml);
    }

    #[test]
    fn unknown_keys_and_tagged_entries_survive_a_rewrite() {
        let yaml = "cron: 0/5 * * * * ?\njobExtraConfigurations:\n\
- !!org.apache.shardingsphere.elasticjob.tracing.yaml.YamlTracingConfiguration\n  tracingStorageConfiguration: !!org.apache.shardingsphere.elasticjob.tracing.rdb.yaml.YamlDataSourceConfiguration\n    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n  type: RDB\n\
jobName: j\nshardingTotalCount: 2\nzFutureKey:\n  nested: 1\n";
        let mut cfg = JobConfig::from_yaml(yaml).unwrap();
        cfg.sharding_total_count = 4;
        let out = cfg.to_yaml();
        assert!(out.contains("shardingTotalCount: 4\n"));
        assert!(
            out.contains("jobExtraConfigurations:\n- !!org.apache.shardingsphere.elasticjob.tracing.yaml.YamlTracingConfiguration\n"),
            "{out}"
        );
        assert!(out.contains("    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n  type: RDB\n"), "{out}");
        assert!(out.ends_with("zFutureKey:\n  nested: 1\n"), "{out}");
        // Alphabetical placement: jobExtraConfigurations sorts before jobName.
        assert!(out.find("jobExtraConfigurations").unwrap() < out.find("jobName").unwrap());
    }

    #[test]
    fn both_executor_key_names_are_read_and_kept() {
        let old =
            JobConfig::from_yaml("jobName: j\nshardingTotalCount: 1\njobExecutorServiceHandlerType: SINGLE_THREAD\n")
                .unwrap();
        assert_eq!(old.job_executor_pool_type.as_deref(), Some("SINGLE_THREAD"));
        assert_eq!(old.executor_pool_key, ExecutorPoolKey::ServiceHandler);
        assert!(old.to_yaml().contains("jobExecutorServiceHandlerType: SINGLE_THREAD\n"));
        let new =
            JobConfig::from_yaml("jobName: j\nshardingTotalCount: 1\njobExecutorThreadPoolSizeProviderType: CPU\n")
                .unwrap();
        assert_eq!(new.executor_pool_key, ExecutorPoolKey::ThreadPoolSizeProvider);
    }

    #[test]
    fn empty_type_strings_mean_default() {
        let cfg = JobConfig::from_yaml("jobName: j\nshardingTotalCount: 1\njobShardingStrategyType: ''\n").unwrap();
        assert_eq!(cfg.job_sharding_strategy_type, None);
    }

    #[test]
    fn wrong_types_name_the_key() {
        let err = JobConfig::from_yaml("jobName: j\nshardingTotalCount: lots\n").unwrap_err();
        assert_eq!(err.to_string(), "job configuration: 'shardingTotalCount' must be a 32-bit integer, got 'lots'");
        let err = JobConfig::from_yaml("jobName: j\nfailover: maybe\n").unwrap_err();
        assert!(err.to_string().contains("'failover' must be true or false"), "{err}");
        assert!(JobConfig::from_yaml("- a\n").is_err());
        assert!(JobConfig::from_yaml("a: [").is_err());
    }

    #[test]
    fn strings_are_quoted_like_snakeyaml() {
        for (s, want) in [
            ("0/5 * * * * ?", "0/5 * * * * ?"),
            ("*/5 * * * * ?", "'*/5 * * * * ?'"),
            ("true", "'true'"),
            ("yes", "'yes'"),
            ("Off", "'Off'"),
            ("123", "'123'"),
            ("-1", "'-1'"),
            ("1.5", "'1.5'"),
            ("0x1F", "'0x1F'"),
            ("1:30", "'1:30'"),
            ("2026-01-02", "'2026-01-02'"),
            ("null", "'null'"),
            ("~", "'~'"),
            ("", "''"),
            ("=", "'='"),
            ("<<", "'<<'"),
            ("a: b", "'a: b'"),
            ("a #b", "'a #b'"),
            ("- x", "'- x'"),
            ("it's", "it's"),
            ("'q'", "'''q'''"),
            ("#x", "'#x'"),
            ("127.0.0.1", "127.0.0.1"),
            ("127.0.0.1@-@42", "127.0.0.1@-@42"),
            ("GMT+8", "GMT+8"),
            ("0=A,1=B,2=C", "0=A,1=B,2=C"),
            ("北京", "北京"),
            ("a\nb", "\"a\\nb\""),
            (" lead", "' lead'"),
        ] {
            assert_eq!(yaml_scalar(s), want, "{s:?}");
            // Whatever we write reads back as the same string.
            let back: Value = serde_yaml_ng::from_str(&format!("k: {want}")).unwrap();
            assert_eq!(back.get("k").and_then(scalar_string).as_deref(), Some(s), "{s:?}");
        }
    }
}
