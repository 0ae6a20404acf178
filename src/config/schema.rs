//! The one table of job configuration keys.
//!
//! Every field of ElasticJob's `JobConfigurationPOJO`
//! (docs/src/design/compatibility.md#job-configuration) is one [`Field`] row of [`FIELDS`]: its
//! YAML key, its job-file key, the kind of value it holds, how it is validated and its default. The
//! rows drive the YAML codec ([`crate::registry::codec`]), the job-file parser
//! ([`crate::jobfile`]), `ejctl config set/get` and `job show`, validation ([`crate::coord::validate`])
//! and the key table of the guide ([`super::keys::key_table`], kept in step by a test).
//! Options ElasticJob has no field for are stored in `props` under the names in [`EXTENSIONS`]
//! ([`prop`] holds the property names the executors read).
//!
//! No other module spells a configuration key: a test scans the sources for them.

use std::collections::BTreeMap;

use super::model::{ExecutorPoolKey, JobConfig};
pub use super::tables::TableKey;

/// Which field of [`JobConfig`] a row is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FieldId {
    /// `jobName`.
    JobName,
    /// `cron`.
    Cron,
    /// `timeZone`.
    TimeZone,
    /// `shardingTotalCount`.
    ShardingTotalCount,
    /// `shardingItemParameters`.
    ShardingItemParameters,
    /// `jobParameter`.
    JobParameter,
    /// `monitorExecution`.
    MonitorExecution,
    /// `failover`.
    Failover,
    /// `misfire`.
    Misfire,
    /// `maxTimeDiffSeconds`.
    MaxTimeDiffSeconds,
    /// `reconcileIntervalMinutes`.
    ReconcileIntervalMinutes,
    /// `jobShardingStrategyType`.
    ShardingStrategy,
    /// The executor pool type, under one of its two key names.
    ExecutorPool(ExecutorPoolKey),
    /// `jobErrorHandlerType`.
    ErrorHandler,
    /// `jobListenerTypes`.
    ListenerTypes,
    /// `description`.
    Description,
    /// `props`.
    Props,
    /// `disabled`.
    Disabled,
    /// `overwrite`.
    Overwrite,
    /// `label`.
    Label,
    /// `staticSharding`.
    StaticSharding,
}

/// The kind of value a field holds, which decides how it is read and written everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An optional string; empty means unset where a value is typed (`config set KEY=`).
    Str,
    /// An optional type name: matched ignoring ASCII case, written in the canonical spelling
    /// listed; `''` (which older consoles wrote) means unset.
    TypeName(&'static [&'static str]),
    /// A Java `int`, always written.
    Int,
    /// A Java `boolean`, always written.
    Bool,
    /// A list of strings, omitted when empty.
    List,
    /// A map of strings, omitted when empty.
    Map,
}

/// How a field's value is checked before it is written or used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Anything goes.
    Any,
    /// A valid job (node) name.
    JobName,
    /// An integer from `min` to `max`; below `min` the message says it must be `below`.
    Range {
        /// The smallest value accepted.
        min: i32,
        /// The largest value accepted.
        max: i32,
        /// What the value must be, for the message when it is too small (`at least 1`).
        below: &'static str,
    },
    /// A Quartz cron expression (unset or blank: a one-off job).
    Cron,
    /// A time zone: a `GMT` offset, or an IANA name (with a warning).
    TimeZone,
    /// One of the canonical names of the field's [`Kind::TypeName`].
    OneOf,
    /// A built-in sharding strategy (ElasticJob's message when it is not).
    Strategy,
    /// ElasticJob's `shardingItemParameters` grammar.
    ItemParameters,
}

/// One configuration key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The field.
    pub id: FieldId,
    /// The key in ElasticJob's YAML.
    pub yaml: &'static str,
    /// The key in a job file (and the snake_case spelling `config set` accepts).
    pub file: &'static str,
    /// What it holds.
    pub kind: Kind,
    /// How it is checked.
    pub check: Check,
    /// The job file's default, for the README.
    pub default: &'static str,
    /// A note after the YAML key in the README (`(3.0.5+)`), or empty.
    pub note: &'static str,
}

/// The largest `shardingTotalCount` accepted, by job files, `config set` / `apply` and workers
/// reading the registry (a larger count there is an invalid configuration: the one in effect
/// stays), and the most items an admin view materialises for a job.
///
/// ElasticJob has no upper bound, but every item costs the registry two to seven nodes
/// (`sharding/{item}/instance`, `result`, `running`, `misfire`, `failover`, ...), the leader's
/// sharding a few hundred bytes of transaction (written in several transactions under the
/// `processing` marker when one would not fit ZooKeeper's `jute.maxbuffer`), and every view a
/// row. 10,000 items shard in about 3 MB of writes and show in a few MB; a count above it is far
/// beyond real use and almost certainly a typo (an extra zero or two).
pub const MAX_SHARDING_TOTAL_COUNT: i32 = 10_000;

/// The sharding strategy types (`jobShardingStrategyType`), in canonical spelling.
pub const STRATEGY_TYPES: [&str; 4] = ["AVG_ALLOCATION", "ODEVITY", "ROUND_ROBIN", "SINGLE_SHARDING_BALANCE"];

/// The executor pool types (`jobExecutorThreadPoolSizeProviderType`), in canonical spelling.
pub const EXECUTOR_POOL_TYPES: [&str; 2] = ["CPU", "SINGLE_THREAD"];

/// The error handler types (`jobErrorHandlerType`), in canonical spelling.
pub const ERROR_HANDLER_TYPES: [&str; 7] = ["LOG", "IGNORE", "THROW", "EMAIL", "WECHAT", "DINGTALK", "WEBHOOK"];

const fn row(id: FieldId, yaml: &'static str, file: &'static str, kind: Kind, check: Check) -> Field {
    Field { id, yaml, file, kind, check, default: "none", note: "" }
}

const fn with_default(mut field: Field, default: &'static str) -> Field {
    field.default = default;
    field
}

const fn with_note(mut field: Field, note: &'static str) -> Field {
    field.note = note;
    field
}

/// Every field of `JobConfigurationPOJO`, in the README's order.
pub const FIELDS: &[Field] = &[
    with_default(row(FieldId::JobName, "jobName", "name", Kind::Str, Check::JobName), "required"),
    with_default(row(FieldId::Cron, "cron", "cron", Kind::Str, Check::Cron), "none (one-off job: runs when triggered)"),
    with_default(row(FieldId::TimeZone, "timeZone", "time_zone", Kind::Str, Check::TimeZone), "none (local zone)"),
    with_default(
        row(
            FieldId::ShardingTotalCount,
            "shardingTotalCount",
            "sharding_total_count",
            Kind::Int,
            Check::Range { min: 1, max: MAX_SHARDING_TOTAL_COUNT, below: "at least 1" },
        ),
        "`1`",
    ),
    row(
        FieldId::ShardingItemParameters,
        "shardingItemParameters",
        "sharding_item_parameters",
        Kind::Str,
        Check::ItemParameters,
    ),
    row(FieldId::JobParameter, "jobParameter", "job_parameter", Kind::Str, Check::Any),
    with_default(
        row(FieldId::MonitorExecution, "monitorExecution", "monitor_execution", Kind::Bool, Check::Any),
        "`true`",
    ),
    with_default(row(FieldId::Failover, "failover", "failover", Kind::Bool, Check::Any), "`false`"),
    with_default(row(FieldId::Misfire, "misfire", "misfire", Kind::Bool, Check::Any), "`true`"),
    with_default(
        row(
            FieldId::MaxTimeDiffSeconds,
            "maxTimeDiffSeconds",
            "max_time_diff_seconds",
            Kind::Int,
            Check::Range { min: -1, max: i32::MAX, below: "-1 (no check) or at least 0" },
        ),
        "`-1` (no check)",
    ),
    with_default(
        row(
            FieldId::ReconcileIntervalMinutes,
            "reconcileIntervalMinutes",
            "reconcile_interval_minutes",
            Kind::Int,
            Check::Range { min: 0, max: i32::MAX, below: "0 (disabled) or more" },
        ),
        "`10`",
    ),
    with_default(
        row(
            FieldId::ShardingStrategy,
            "jobShardingStrategyType",
            "job_sharding_strategy_type",
            Kind::TypeName(&STRATEGY_TYPES),
            Check::Strategy,
        ),
        "none (`AVG_ALLOCATION`)",
    ),
    with_note(
        with_default(
            row(
                FieldId::ExecutorPool(ExecutorPoolKey::ThreadPoolSizeProvider),
                "jobExecutorThreadPoolSizeProviderType",
                "job_executor_thread_pool_size_provider_type",
                Kind::TypeName(&EXECUTOR_POOL_TYPES),
                Check::OneOf,
            ),
            "none (`CPU`)",
        ),
        "(3.0.5+)",
    ),
    with_note(
        with_default(
            row(
                FieldId::ExecutorPool(ExecutorPoolKey::ServiceHandler),
                "jobExecutorServiceHandlerType",
                "job_executor_service_handler_type",
                Kind::TypeName(&EXECUTOR_POOL_TYPES),
                Check::OneOf,
            ),
            "none (`CPU`)",
        ),
        "(3.0.0–3.0.4)",
    ),
    with_default(
        row(
            FieldId::ErrorHandler,
            "jobErrorHandlerType",
            "job_error_handler_type",
            Kind::TypeName(&ERROR_HANDLER_TYPES),
            Check::OneOf,
        ),
        "none (`LOG`)",
    ),
    with_default(row(FieldId::ListenerTypes, "jobListenerTypes", "job_listener_types", Kind::List, Check::Any), "`[]`"),
    row(FieldId::Description, "description", "description", Kind::Str, Check::Any),
    with_default(row(FieldId::Props, "props", "props", Kind::Map, Check::Any), "`{}`"),
    with_default(row(FieldId::Disabled, "disabled", "disabled", Kind::Bool, Check::Any), "`false`"),
    with_default(row(FieldId::Overwrite, "overwrite", "overwrite", Kind::Bool, Check::Any), "`false`"),
    row(FieldId::Label, "label", "label", Kind::Str, Check::Any),
    with_default(row(FieldId::StaticSharding, "staticSharding", "static_sharding", Kind::Bool, Check::Any), "`false`"),
];

/// The key that holds tagged Java objects: kept as written, never set by ejctl.
pub const EXTRA_CONFIGURATIONS: &str = "jobExtraConfigurations";

/// The job-file spelling of [`EXTRA_CONFIGURATIONS`], refused with an explanation.
pub const EXTRA_CONFIGURATIONS_FILE_KEY: &str = "job_extra_configurations";

/// The job-file key of the job type (the job root node's data, not part of the YAML).
pub const TYPE_FILE_KEY: &str = "type";

/// The row of a field.
pub fn field(id: FieldId) -> &'static Field {
    // Every FieldId has a row; the fallback is the first row and never taken (a test checks).
    FIELDS.iter().find(|f| f.id == id).unwrap_or(&FIELDS[0])
}

/// The YAML key of a field (for messages: `shardingTotalCount: must be at least 1`).
pub fn yaml_key(id: FieldId) -> &'static str {
    field(id).yaml
}

/// The row a key names: its YAML key, its job-file key, or the snake_case of its YAML key.
pub fn lookup(key: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.yaml == key || f.file == key || camel_to_snake(f.yaml) == key)
}

impl ExecutorPoolKey {
    /// The YAML key.
    pub fn key(self) -> &'static str {
        field(FieldId::ExecutorPool(self)).yaml
    }
}

/// The YAML keys [`JobConfig`] models; any other key is preserved verbatim.
pub fn is_modelled(yaml: &str) -> bool {
    FIELDS.iter().any(|f| f.yaml == yaml)
}

/// `shardingTotalCount` → `sharding_total_count`.
pub fn camel_to_snake(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for c in s.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The canonical spelling of a type name among `valid` (matched ignoring ASCII case), or `None`.
pub fn canonical_type_name(name: &str, valid: &[&'static str]) -> Option<&'static str> {
    valid.iter().copied().find(|v| v.eq_ignore_ascii_case(name))
}

/// A field's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// [`Kind::Str`] and [`Kind::TypeName`].
    Str(Option<String>),
    /// [`Kind::Int`].
    Int(i32),
    /// [`Kind::Bool`].
    Bool(bool),
    /// [`Kind::List`].
    List(Vec<String>),
    /// [`Kind::Map`].
    Map(BTreeMap<String, String>),
}

impl Value {
    /// The value as JSON: `null` for an unset string.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Str(s) => s.clone().map_or(serde_json::Value::Null, serde_json::Value::String),
            Value::Int(i) => (*i).into(),
            Value::Bool(b) => (*b).into(),
            Value::List(l) => l.clone().into(),
            Value::Map(m) => serde_json::Value::Object(m.iter().map(|(k, v)| (k.clone(), v.clone().into())).collect()),
        }
    }
}

impl JobConfig {
    /// A field's value. The executor pool type is only set under the key name it is stored with.
    pub fn get(&self, id: FieldId) -> Value {
        let s = |v: &Option<String>| Value::Str(v.clone());
        match id {
            FieldId::JobName => Value::Str(Some(self.job_name.clone())),
            FieldId::Cron => s(&self.cron),
            FieldId::TimeZone => s(&self.time_zone),
            FieldId::ShardingTotalCount => Value::Int(self.sharding_total_count),
            FieldId::ShardingItemParameters => s(&self.sharding_item_parameters),
            FieldId::JobParameter => s(&self.job_parameter),
            FieldId::MonitorExecution => Value::Bool(self.monitor_execution),
            FieldId::Failover => Value::Bool(self.failover),
            FieldId::Misfire => Value::Bool(self.misfire),
            FieldId::MaxTimeDiffSeconds => Value::Int(self.max_time_diff_seconds),
            FieldId::ReconcileIntervalMinutes => Value::Int(self.reconcile_interval_minutes),
            FieldId::ShardingStrategy => s(&self.job_sharding_strategy_type),
            FieldId::ExecutorPool(key) => {
                Value::Str(self.job_executor_pool_type.clone().filter(|_| self.executor_pool_key == key))
            }
            FieldId::ErrorHandler => s(&self.job_error_handler_type),
            FieldId::ListenerTypes => Value::List(self.job_listener_types.clone()),
            FieldId::Description => s(&self.description),
            FieldId::Props => Value::Map(self.props.to_map()),
            FieldId::Disabled => Value::Bool(self.disabled),
            FieldId::Overwrite => Value::Bool(self.overwrite),
            FieldId::Label => s(&self.label),
            FieldId::StaticSharding => Value::Bool(self.static_sharding),
        }
    }

    /// Sets a field. A value of another kind than the field's is ignored (callers build values
    /// from [`Field::kind`]). Setting the executor pool type also records which key name it is
    /// stored under.
    pub fn set(&mut self, id: FieldId, value: Value) {
        match (id, value) {
            (FieldId::JobName, Value::Str(v)) => self.job_name = v.unwrap_or_default(),
            (FieldId::Cron, Value::Str(v)) => self.cron = v,
            (FieldId::TimeZone, Value::Str(v)) => self.time_zone = v,
            (FieldId::ShardingTotalCount, Value::Int(v)) => self.sharding_total_count = v,
            (FieldId::ShardingItemParameters, Value::Str(v)) => self.sharding_item_parameters = v,
            (FieldId::JobParameter, Value::Str(v)) => self.job_parameter = v,
            (FieldId::MonitorExecution, Value::Bool(v)) => self.monitor_execution = v,
            (FieldId::Failover, Value::Bool(v)) => self.failover = v,
            (FieldId::Misfire, Value::Bool(v)) => self.misfire = v,
            (FieldId::MaxTimeDiffSeconds, Value::Int(v)) => self.max_time_diff_seconds = v,
            (FieldId::ReconcileIntervalMinutes, Value::Int(v)) => self.reconcile_interval_minutes = v,
            (FieldId::ShardingStrategy, Value::Str(v)) => self.job_sharding_strategy_type = v,
            (FieldId::ExecutorPool(key), Value::Str(v)) => {
                self.executor_pool_key = key;
                self.job_executor_pool_type = v;
            }
            (FieldId::ErrorHandler, Value::Str(v)) => self.job_error_handler_type = v,
            (FieldId::ListenerTypes, Value::List(v)) => self.job_listener_types = v,
            (FieldId::Description, Value::Str(v)) => self.description = v,
            (FieldId::Props, Value::Map(v)) => self.props = v.into(),
            (FieldId::Disabled, Value::Bool(v)) => self.disabled = v,
            (FieldId::Overwrite, Value::Bool(v)) => self.overwrite = v,
            (FieldId::Label, Value::Str(v)) => self.label = v,
            (FieldId::StaticSharding, Value::Bool(v)) => self.static_sharding = v,
            _ => {}
        }
    }

    /// Writes type names in ElasticJob's spelling (`round_robin` → `ROUND_ROBIN`), and an empty
    /// type name as unset. Unknown names are left for validation to report.
    pub fn canonicalise_type_names(&mut self) {
        for f in FIELDS {
            if matches!(f.kind, Kind::TypeName(_)) && matches!(self.get(f.id), Value::Str(Some(_))) {
                let value = f.canonical(self.get(f.id));
                self.set(f.id, value);
            }
        }
    }
}

impl Field {
    /// A value in ElasticJob's spelling: for a type name, the canonical name when it is a known
    /// one and unset when empty; anything else as is.
    pub fn canonical(&self, value: Value) -> Value {
        match (self.kind, value) {
            (Kind::TypeName(valid), Value::Str(Some(name))) => Value::Str(if name.is_empty() {
                None
            } else {
                Some(canonical_type_name(&name, valid).map_or(name, str::to_string))
            }),
            (_, value) => value,
        }
    }
}

pub use super::extensions::{EXTENSIONS, ExtKind, Extension, listener_key, prop, switch_key};

pub use super::tables::{INSTANCE_KEYS, REGISTRY_KEYS, TRACE_KEYS};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_has_one_row_and_unique_keys() {
        let ids = [
            FieldId::JobName,
            FieldId::Cron,
            FieldId::TimeZone,
            FieldId::ShardingTotalCount,
            FieldId::ShardingItemParameters,
            FieldId::JobParameter,
            FieldId::MonitorExecution,
            FieldId::Failover,
            FieldId::Misfire,
            FieldId::MaxTimeDiffSeconds,
            FieldId::ReconcileIntervalMinutes,
            FieldId::ShardingStrategy,
            FieldId::ExecutorPool(ExecutorPoolKey::ThreadPoolSizeProvider),
            FieldId::ExecutorPool(ExecutorPoolKey::ServiceHandler),
            FieldId::ErrorHandler,
            FieldId::ListenerTypes,
            FieldId::Description,
            FieldId::Props,
            FieldId::Disabled,
            FieldId::Overwrite,
            FieldId::Label,
            FieldId::StaticSharding,
        ];
        assert_eq!(FIELDS.len(), ids.len());
        for id in ids {
            assert_eq!(FIELDS.iter().filter(|f| f.id == id).count(), 1, "{id:?}");
        }
        let mut yaml: Vec<&str> = FIELDS.iter().map(|f| f.yaml).collect();
        yaml.sort_unstable();
        yaml.dedup();
        assert_eq!(yaml.len(), FIELDS.len());
        let mut file: Vec<&str> = FIELDS.iter().map(|f| f.file).chain(EXTENSIONS.iter().map(|e| e.key)).collect();
        file.sort_unstable();
        file.dedup();
        assert_eq!(file.len(), FIELDS.len() + EXTENSIONS.len());
    }

    #[test]
    fn every_field_round_trips_through_get_and_set() {
        let mut cfg = JobConfig::default();
        for f in FIELDS {
            let value = match f.kind {
                Kind::Str | Kind::TypeName(_) => Value::Str(Some(format!("v-{}", f.file))),
                Kind::Int => Value::Int(42),
                Kind::Bool => Value::Bool(true),
                Kind::List => Value::List(vec!["a".into()]),
                Kind::Map => Value::Map([("k".to_string(), "v".to_string())].into()),
            };
            cfg.set(f.id, value.clone());
            assert_eq!(cfg.get(f.id), value, "{}", f.yaml);
        }
    }

    #[test]
    fn lookup_by_every_spelling() {
        assert_eq!(lookup("shardingTotalCount").map(|f| f.id), Some(FieldId::ShardingTotalCount));
        assert_eq!(lookup("sharding_total_count").map(|f| f.id), Some(FieldId::ShardingTotalCount));
        assert_eq!(lookup("name").map(|f| f.id), Some(FieldId::JobName));
        assert_eq!(lookup("job_name").map(|f| f.id), Some(FieldId::JobName));
        assert_eq!(lookup("nope"), None);
        assert_eq!(camel_to_snake("jobExecutorServiceHandlerType"), "job_executor_service_handler_type");
    }

    #[test]
    fn type_names_are_canonicalised() {
        let mut cfg = JobConfig::new("j", 1);
        cfg.job_sharding_strategy_type = Some("round_robin".into());
        cfg.job_error_handler_type = Some(String::new());
        cfg.job_executor_pool_type = Some("custom".into());
        cfg.canonicalise_type_names();
        assert_eq!(cfg.job_sharding_strategy_type.as_deref(), Some("ROUND_ROBIN"));
        assert_eq!(cfg.job_error_handler_type, None);
        assert_eq!(cfg.job_executor_pool_type.as_deref(), Some("custom"));
    }

    /// The keys distinctive enough to find in source text: camelCase YAML keys, snake_case job
    /// file keys and property names. One-word lowercase keys (`cron`, `failover`, `misfire`,
    /// `disabled`, `props`, ...) are left out on purpose: the same words name run sources, item
    /// nodes and statuses elsewhere, so a text search cannot tell a key from them; code reaches
    /// those keys through [`yaml_key`] like the others.
    fn distinctive_keys() -> Vec<&'static str> {
        let mut keys: Vec<&str> = FIELDS
            .iter()
            .flat_map(|f| [f.yaml, f.file])
            .chain(EXTENSIONS.iter().flat_map(|e| [e.key, e.prop]))
            .chain([EXTRA_CONFIGURATIONS, EXTRA_CONFIGURATIONS_FILE_KEY])
            .filter(|k| k.chars().any(|c| c.is_ascii_uppercase() || c == '_' || c == '.'))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    #[test]
    fn no_module_outside_the_schema_spells_a_config_key() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let keys = distinctive_keys();
        let mut found = Vec::new();
        for file in files {
            let rel = file.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
            // Unit-test modules in files of their own are named `tests.rs` or `*_tests.rs`.
            if rel == "config/schema.rs"
                || rel == "config/extensions.rs"
                || rel.ends_with("_tests.rs")
                || rel.ends_with("/tests.rs")
            {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            // Unit tests spell keys on purpose: they check what the code writes.
            let code: String = text
                .split("#[cfg(test)]")
                .next()
                .unwrap_or("")
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            for key in &keys {
                let quoted = format!("\"{key}\"");
                let spelled = code.match_indices(&quoted).any(|(i, _)| i == 0 || !code[..i].ends_with('\\'));
                if spelled {
                    found.push(format!("{rel}: {key}"));
                }
            }
        }
        assert!(
            found.is_empty(),
            "configuration keys spelled outside config/schema.rs and config/extensions.rs: {found:#?}"
        );
    }
}
