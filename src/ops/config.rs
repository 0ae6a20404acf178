//! One job's stored configuration (`/{job}/config`,
//! docs/src/design/compatibility.md#configuration-updates), read and changed without ever
//! corrupting it: what `ejctl config get|set|edit` do.
//!
//! * [`Admin::read_config`] reads the job root and the configuration with its version in one
//!   round trip.
//! * A changed configuration is validated like a job file ([`check_change`]: the ElasticJob
//!   fields, and for `SCRIPT`, `HTTP` and `DATAFLOW` jobs the executor properties too); an edited
//!   text is also refused when it renames the job or adds a key ElasticJob's Java reader rejects
//!   ([`prepare_edit`]).
//! * [`Admin::write_config`] writes with the version read, so a concurrent change is refused
//!   (exit 4) instead of overwritten.
//! * [`config_json`] and [`changes`]: a configuration as JSON keyed by YAML key (every modelled
//!   key, then what the YAML holds that ejctl does not model, tags as `{"!tag": value}`), and what
//!   changed key by key.
//!
//! Validation warnings are returned, not logged: the caller decides where they go.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value as Json;

use super::Admin;
use super::OpsError;
use super::assign::{self, Assignment};
use crate::config::JobConfig;
use crate::config::schema::{self, EXTRA_CONFIGURATIONS, FieldId, Kind, field};
use crate::coord::pin::{self, PinKind};
use crate::coord::validate;
use crate::exec::Executor;
use crate::registry::codec::JobType;
use crate::registry::path::JobPaths;
use crate::registry::{NodeData, RegistryError};

// ---------------------------------------------------------------------------------------------
// Configurations as JSON, and what changed

/// A preserved entry (`key: ...` YAML block) as JSON; tags become `{"!tag": value}`.
///
/// The YAML parser drops `!!` (secondary handle) tags, which is how ElasticJob writes Java class
/// tags (`!!org.apache.shardingsphere...`), so those are read as local tags and shown with `!!`.
fn preserved_json(block: &str) -> Json {
    static JAVA_TAG: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"(^|[\s\[,{])!!([A-Za-z_$][\w$]*(?:\.[\w$]+)+)").ok());
    let block: std::borrow::Cow<'_, str> = match JAVA_TAG.as_ref() {
        Some(re) => re.replace_all(block, "$1!$2"),
        None => block.into(),
    };
    let parsed = crate::registry::codec::bounded::value(&block, "preserved entry").ok();
    match parsed {
        Some(serde_yaml_ng::Value::Mapping(map)) => {
            map.into_iter().next().map_or_else(|| Json::String(block.to_string()), |(_, v)| yaml_to_json(&v))
        }
        _ => Json::String(block.to_string()),
    }
}

/// YAML to JSON, keeping tags as `{"!tag": value}` and rendering non-string keys as text.
fn yaml_to_json(v: &serde_yaml_ng::Value) -> Json {
    use serde_yaml_ng::Value as Y;
    match v {
        Y::Null => Json::Null,
        Y::Bool(b) => Json::Bool(*b),
        Y::Number(n) => serde_json::to_value(n).unwrap_or(Json::Null),
        Y::String(s) => Json::String(s.clone()),
        Y::Sequence(seq) => Json::Array(seq.iter().map(yaml_to_json).collect()),
        Y::Mapping(map) => Json::Object(
            map.iter()
                .map(|(k, v)| {
                    let key = match k {
                        Y::String(s) => s.clone(),
                        other => serde_yaml_ng::to_string(other).unwrap_or_default().trim_end().to_string(),
                    };
                    (key, yaml_to_json(v))
                })
                .collect(),
        ),
        Y::Tagged(t) => {
            let mut m = serde_json::Map::new();
            let tag = t.tag.to_string();
            let tag = if tag.contains('.') && !tag.starts_with("!!") { format!("!{tag}") } else { tag };
            m.insert(tag, yaml_to_json(&t.value));
            Json::Object(m)
        }
    }
}

/// The configuration as a JSON object keyed by YAML key: every modelled key (null when unset),
/// the executor pool under the key name it is stored with, then the preserved entries.
pub fn config_json(cfg: &JobConfig) -> serde_json::Map<String, Json> {
    let mut m = serde_json::Map::new();
    for f in schema::FIELDS {
        if let FieldId::ExecutorPool(key) = f.id
            && key != cfg.executor_pool_key
        {
            continue;
        }
        m.insert(f.yaml.into(), cfg.get(f.id).to_json());
    }
    for (key, block) in &cfg.preserved {
        m.insert(key.clone(), preserved_json(block));
    }
    m
}

/// The configuration flattened for comparison: properties as `props.NAME`.
fn flat(cfg: &JobConfig) -> BTreeMap<String, Json> {
    let mut out = BTreeMap::new();
    for (key, value) in config_json(cfg) {
        match (key.as_str(), value) {
            (key, Json::Object(props)) if key == field(FieldId::Props).yaml => {
                for (k, v) in props {
                    out.insert(format!("props.{k}"), v);
                }
            }
            (_, value) => {
                out.insert(key, value);
            }
        }
    }
    out
}

/// One changed key: `{"old", "new"}`, `null` for unset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValueChange {
    /// The value before.
    pub old: Json,
    /// The value after.
    pub new: Json,
}

/// Key-by-key changes from `old` (none: a job without configuration) to `new`, keyed by YAML key
/// (`props.NAME` for properties); unset is `null`.
pub fn changes(old: Option<&JobConfig>, new: &JobConfig) -> BTreeMap<String, ValueChange> {
    let old = old.map(flat).unwrap_or_default();
    let new = flat(new);
    let keys: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    keys.into_iter()
        .filter_map(|k| {
            let o = old.get(k).cloned().unwrap_or(Json::Null);
            let n = new.get(k).cloned().unwrap_or(Json::Null);
            (o != n).then(|| (k.clone(), ValueChange { old: o, new: n }))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Changes that deserve a confirmation

/// What a configuration change does that its author may not expect: each asks for confirmation
/// and says what will happen and what to use instead.
///
/// * `shardingTotalCount` changes: the items are resharded.
/// * `cron` is removed (`cron=`, an empty `$CRON`): the job becomes a one-off job.
/// * a new cron (or time zone) that never fires again: the job stops running on schedule.
/// * `disabled` becomes true: workers read it only when they register, so the running ones go
///   on (as in ElasticJob); `ejctl job disable` stops the job now.
pub fn risks(job: &str, old: Option<&JobConfig>, new: &JobConfig, now: chrono::DateTime<chrono::Utc>) -> Vec<String> {
    let mut out = Vec::new();
    let Some(old) = old else { return out };
    if old.sharding_total_count != new.sharding_total_count {
        out.push(format!(
            "change {} of job '{job}' from {} to {} (its items are resharded)",
            field(FieldId::ShardingTotalCount).yaml,
            old.sharding_total_count,
            new.sharding_total_count
        ));
    }
    let disable = format!("to stop it for a while, use `ejctl job disable {job}` instead");
    match (&old.cron, &new.cron) {
        (Some(_), None) => out.push(format!(
            "remove the cron of job '{job}': it becomes a one-off job that runs only when triggered ({disable})"
        )),
        (_, Some(cron)) if old.cron != new.cron || old.time_zone != new.time_zone => {
            let zone = crate::schedule::cron::parse_time_zone(new.time_zone.as_deref().unwrap_or(""));
            let next = crate::schedule::cron::parse(cron).ok().zip(zone.ok()).map(|(c, z)| c.next_after(now, &z));
            if let Some(None) = next {
                out.push(format!(
                    "set the cron of job '{job}' to '{cron}', which never fires again: the job stops running on schedule ({disable})"
                ));
            }
        }
        _ => {}
    }
    if new.disabled && !old.disabled {
        out.push(format!(
            "set disabled=true for job '{job}': workers read it only when they register, so the running instances go on firing until they restart; to stop the job now, use `ejctl job disable {job}` instead"
        ));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Reading, checking and writing

/// A job's root and configuration nodes as read.
#[derive(Debug, Clone)]
pub struct StoredConfig {
    /// The job root node, if it exists.
    pub root: Option<NodeData>,
    /// The configuration node.
    pub config: NodeData,
    /// The configuration text.
    pub text: String,
}

impl StoredConfig {
    /// The job type the root names, when it is one whose executor ejctl configures from `props`
    /// (script, HTTP, dataflow): only then are the executor properties validated.
    pub fn job_type(&self) -> Option<JobType> {
        self.root.as_ref().map(|r| JobType::decode(&r.data)).filter(JobType::is_command_line)
    }

    /// The version of the configuration node as read.
    pub fn version(&self) -> i32 {
        self.config.stat.version
    }
}

/// A configuration changed by assignments, checked, not written yet.
#[derive(Debug, Clone)]
pub struct ConfigUpdate {
    /// The configuration as stored.
    pub old: JobConfig,
    /// The configuration to write.
    pub new: JobConfig,
    /// What changes, key by key (empty: nothing to write).
    pub changed: BTreeMap<String, ValueChange>,
    /// Validation warnings, each naming the job.
    pub warnings: Vec<String>,
}

impl Admin {
    /// Reads `/{job}` and `/{job}/config` in one round trip.
    ///
    /// # Errors
    /// Exit 3 when the job or its configuration does not exist; registry errors.
    pub async fn read_config(&self, job: &str) -> Result<StoredConfig, OpsError> {
        let paths = JobPaths::new(job);
        let nodes = self
            .registry()
            .get_many(&[paths.root().to_string(), paths.config()])
            .await
            .map_err(|e| OpsError::registry(format!("job '{job}': cannot read {}", paths.config()), e))?;
        let mut nodes = nodes.into_iter();
        let (root, config) = (nodes.next().flatten(), nodes.next().flatten());
        match (root, config) {
            (root, Some(config)) => Ok(StoredConfig { root, text: config.text(), config }),
            (None, None) => Err(self.missing_job(job).await),
            (Some(_), None) => Err(OpsError::not_found(format!(
                "job '{job}' has no configuration ({} does not exist) in namespace '{}'",
                paths.config(),
                self.namespace()
            ))),
        }
    }

    /// The values the workers' job files give the command properties they pin, as the items'
    /// last results recorded them when the workers refused the registry's (property → value;
    /// `None`: unset in the job file). Empty when no worker refused anything. Two round trips
    /// (the items, then their results), for `config set` and `config edit` only.
    ///
    /// # Errors
    /// Registry errors.
    pub async fn job_file_values(&self, job: &str) -> Result<BTreeMap<String, Option<String>>, OpsError> {
        let paths = JobPaths::new(job);
        let read = |e| OpsError::registry(format!("job '{job}': cannot read its items' results"), e);
        let items = self.registry().children(&paths.sharding()).await.map_err(read)?.unwrap_or_default();
        let results: Vec<String> = items
            .iter()
            .filter_map(|i| i.parse::<u32>().ok())
            .map(|i| paths.item_leaf(i, crate::registry::path::ItemLeaf::Result))
            .collect();
        let nodes = self.registry().get_many(&results).await.map_err(read)?;
        Ok(nodes
            .iter()
            .flatten()
            .filter_map(|n| crate::registry::codec::ItemResult::decode(&n.data).ok())
            .flat_map(|r| r.refused)
            .map(|r| (r.prop, r.job_file))
            .collect())
    }

    /// Writes `config` if the node's version is still `version`; returns the new version.
    ///
    /// # Errors
    /// Exit 4 on a concurrent change, exit 3 when the node was removed meanwhile, registry
    /// errors.
    pub async fn write_config(&self, job: &str, version: i32, config: &JobConfig) -> Result<i32, OpsError> {
        let path = JobPaths::new(job).config();
        match self.registry().set(&path, config.to_yaml().as_bytes(), Some(version)).await {
            Ok(stat) => Ok(stat.version),
            Err(RegistryError::BadVersion(_)) => Err(OpsError::refused(format!(
                "job '{job}': the configuration changed concurrently; re-run the command"
            ))),
            Err(RegistryError::NoNode(_)) => {
                Err(OpsError::not_found(format!("job '{job}': the configuration was removed concurrently")))
            }
            Err(e) => Err(OpsError::registry(format!("job '{job}': cannot write {path}"), e)),
        }
    }
}

/// Applies `assignments` to the stored configuration of `job` and checks the result.
///
/// # Errors
/// Exit 1 when the stored configuration cannot be read; exit 2 for a renamed job or an invalid
/// result.
pub fn plan_set(
    job: &str,
    stored: &StoredConfig,
    assignments: &[Assignment],
    job_file: &BTreeMap<String, Option<String>>,
) -> Result<ConfigUpdate, OpsError> {
    let old = JobConfig::from_yaml(&stored.text).map_err(|e| {
        OpsError::failure(format!(
            "job '{job}': the stored configuration cannot be read ({e}); fix it with `ejctl config edit {job}`"
        ))
    })?;
    let mut new = old.clone();
    for a in assignments {
        assign::apply_assignment(&mut new, a);
    }
    if new.job_name != old.job_name {
        return Err(OpsError::usage(format!(
            "job '{job}': jobName cannot be changed (it names the job's node); create a new job instead"
        )));
    }
    let warnings = check_change(job, stored.job_type().as_ref(), Some(&old), &new, job_file)?;
    let changed = changes(Some(&old), &new);
    Ok(ConfigUpdate { old, new, changed, warnings })
}

/// Validates a changed configuration like a job file: the ElasticJob fields, and the executor
/// properties of `SCRIPT` / `HTTP` / `DATAFLOW` jobs. A problem the stored configuration already
/// had is only a warning, so it does not block unrelated changes. Returns the warnings.
///
/// # Errors
/// A usage error (exit 2) naming the job and the field.
pub fn check_change(
    job: &str,
    job_type: Option<&JobType>,
    old: Option<&JobConfig>,
    new: &JobConfig,
    job_file: &BTreeMap<String, Option<String>>,
) -> Result<Vec<String>, OpsError> {
    let mut warnings: Vec<String> = validate::check_config(new)
        .map_err(|e| OpsError::usage(format!("job '{job}': {e}")))?
        .into_iter()
        .map(|w| format!("job '{job}': {w}"))
        .collect();
    // Workers refuse, before parsing it, a node the bounded decoder refuses: the job would stop.
    if let Err(reason) = crate::registry::codec::bounded::check(&new.to_yaml()) {
        return Err(OpsError::usage(format!(
            "job '{job}': the configuration's YAML {reason}; workers would refuse it"
        )));
    }
    if let Some(t) = job_type
        && let Err(message) = Executor::from_config(t, new, None)
    {
        if old.is_none_or(|o| Executor::from_config(t, o, None).is_ok()) {
            return Err(OpsError::usage(format!("job '{job}': {message}")));
        }
        warnings.push(format!("job '{job}': {message} (already so before this change)"));
    }
    if let Some(t) = job_type {
        let empty = JobConfig::new(job, 0);
        // A value set back to what the workers' job files use is no refusal to warn of.
        let restored = |key: &&str| job_file.get(*key).is_some_and(|v| *v == pin::current(new, key));
        let changed: Vec<&str> =
            pin::changed_pinned(t, old.unwrap_or(&empty), new).into_iter().filter(|k| !restored(k)).collect();
        for kind in [PinKind::Command, PinKind::ErrorHandler] {
            let of_kind: Vec<&str> = changed.iter().copied().filter(|k| PinKind::of(k) == kind).collect();
            if !of_kind.is_empty() {
                warnings.push(format!(
                    "job '{job}': ejctl workers refuse a changed {} and keep using the {} in their job file, unless their job file sets {} = true",
                    of_kind.join(", "),
                    kind.noun(),
                    kind.switch()
                ));
            }
        }
    }
    Ok(warnings)
}

/// Reads an edited configuration text and checks it: it parses, keeps the job's name, adds no
/// key ElasticJob does not know, and validates ([`check_change`]). Type names that were changed
/// are written in ElasticJob's spelling. Returns the configuration and the warnings.
///
/// # Errors
/// A usage error (exit 2) naming the job and the problem.
pub fn prepare_edit(
    job: &str,
    job_type: Option<&JobType>,
    old: Option<&JobConfig>,
    edited: &str,
    job_file: &BTreeMap<String, Option<String>>,
) -> Result<(JobConfig, Vec<String>), OpsError> {
    let mut new = JobConfig::from_yaml(edited).map_err(|e| OpsError::usage(format!("job '{job}': {e}")))?;
    let name = old.map_or(job, |o| o.job_name.as_str());
    if new.job_name != name {
        return Err(OpsError::usage(format!(
            "job '{job}': jobName cannot be changed (it names the job's node); create a new job instead"
        )));
    }
    let known: BTreeSet<&str> = old.map(|o| o.preserved.iter().map(|(k, _)| k.as_str()).collect()).unwrap_or_default();
    if let Some((key, _)) = new.preserved.iter().find(|(k, _)| !known.contains(k.as_str()) && k != EXTRA_CONFIGURATIONS)
    {
        return Err(OpsError::usage(format!(
            "job '{job}': {}; ElasticJob's Java reader rejects unknown keys",
            assign::unknown_key(key)
        )));
    }
    if let Some(old) = old {
        for f in schema::FIELDS.iter().filter(|f| matches!(f.kind, Kind::TypeName(_))) {
            if new.get(f.id) != old.get(f.id) {
                let value = f.canonical(new.get(f.id));
                new.set(f.id, value);
            }
        }
    }
    let warnings = check_change(job, job_type, old, &new, job_file)?;
    Ok((new, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::ErrorKind;

    fn cfg() -> JobConfig {
        let mut c = JobConfig::new("j", 2);
        c.cron = Some("0/5 * * * * ?".into());
        c
    }

    fn set_all(c: &mut JobConfig, raw: &[&str]) -> Result<(), String> {
        let raw: Vec<String> = raw.iter().map(|s| s.to_string()).collect();
        for a in assign::parse_assignments(&raw)? {
            assign::apply_assignment(c, &a);
        }
        Ok(())
    }

    #[test]
    fn risky_changes_are_named_with_what_to_use_instead() {
        let now = chrono::Utc::now();
        let old = cfg();
        let with = |raw: &[&str]| {
            let mut new = old.clone();
            set_all(&mut new, raw).unwrap();
            risks("j", Some(&old), &new, now)
        };
        assert!(with(&["failover=true", "cron=0/10 * * * * ?"]).is_empty());
        let r = with(&["cron="]);
        assert_eq!(r.len(), 1);
        assert!(r[0].contains("becomes a one-off job") && r[0].contains("ejctl job disable j"), "{r:?}");
        let r = with(&["cron=0 0 0 31 2 ?"]);
        assert!(r[0].contains("never fires again") && r[0].contains("ejctl job disable j"), "{r:?}");
        let r = with(&["disabled=true"]);
        assert!(r[0].contains("only when they register") && r[0].contains("ejctl job disable j"), "{r:?}");
        let r = with(&["shardingTotalCount=4", "disabled=true"]);
        assert_eq!(r.len(), 2);
        assert!(r[0].starts_with("change shardingTotalCount of job 'j' from 2 to 4"), "{r:?}");
        // A job that was disabled already, or a new job: nothing to confirm.
        let mut off = old.clone();
        off.disabled = true;
        assert!(risks("j", Some(&off), &off, now).is_empty());
        assert!(risks("j", None, &off, now).is_empty());
    }

    #[test]
    fn changes_are_key_by_key() {
        let old = cfg();
        let mut new = old.clone();
        set_all(&mut new, &["shardingTotalCount=4", "props.a=1", "timeZone=GMT"]).unwrap();
        let c = changes(Some(&old), &new);
        assert_eq!(c.keys().collect::<Vec<_>>(), ["props.a", "shardingTotalCount", "timeZone"]);
        assert_eq!(c["shardingTotalCount"], ValueChange { old: 2.into(), new: 4.into() });
        assert_eq!(c["props.a"], ValueChange { old: Json::Null, new: "1".into() });
        assert!(changes(Some(&old), &old).is_empty());
    }

    #[test]
    fn config_json_has_every_key_and_tagged_values() {
        let yaml = "cron: 0/5 * * * * ?\njobExtraConfigurations:\n- !!org.apache.shardingsphere.elasticjob.tracing.yaml.YamlTracingConfiguration\n  type: RDB\njobName: j\nshardingTotalCount: 2\nzFuture: 1\n";
        let c = JobConfig::from_yaml(yaml).unwrap();
        let j = Json::Object(config_json(&c));
        assert_eq!(j["jobName"], "j");
        assert_eq!(j["timeZone"], Json::Null);
        assert_eq!(j["jobExecutorThreadPoolSizeProviderType"], Json::Null);
        assert_eq!(j["props"], serde_json::json!({}));
        assert_eq!(j["zFuture"], 1);
        assert_eq!(
            j["jobExtraConfigurations"],
            serde_json::json!([{"!!org.apache.shardingsphere.elasticjob.tracing.yaml.YamlTracingConfiguration": {"type": "RDB"}}])
        );
    }

    #[test]
    fn edits_are_checked() {
        let old = JobConfig::from_yaml("jobName: j\nshardingTotalCount: 2\nzKeep: 1\n").unwrap();
        let ok = prepare_edit(
            "j",
            None,
            Some(&old),
            "jobName: j\nshardingTotalCount: 3\nzKeep: 1\njobShardingStrategyType: odevity\n",
            &BTreeMap::new(),
        )
        .unwrap()
        .0;
        assert_eq!(ok.sharding_total_count, 3);
        assert_eq!(ok.job_sharding_strategy_type.as_deref(), Some("ODEVITY"));
        let err = |text: &str| prepare_edit("j", None, Some(&old), text, &BTreeMap::new()).unwrap_err();
        let e = err("jobName: j\nshardingTotalCont: 3\n");
        assert_eq!(e.kind, ErrorKind::Usage);
        assert_eq!(
            e.to_string(),
            "job 'j': unknown key 'shardingTotalCont' (did you mean 'shardingTotalCount'?); ElasticJob's Java reader rejects unknown keys"
        );
        assert_eq!(
            err("jobName: k\nshardingTotalCount: 3\n").to_string(),
            "job 'j': jobName cannot be changed (it names the job's node); create a new job instead"
        );
        assert!(
            err("jobName: j\nshardingTotalCount: 0\n")
                .to_string()
                .starts_with("job 'j': shardingTotalCount: must be at least 1")
        );
        assert!(err("jobName: [").to_string().starts_with("job 'j': job configuration: not valid YAML"));
        // Script jobs need their command.
        let script =
            JobConfig::from_yaml("jobName: j\nshardingTotalCount: 2\nprops:\n  script.command.line: echo\n").unwrap();
        let e = prepare_edit(
            "j",
            Some(&JobType::Script),
            Some(&script),
            "jobName: j\nshardingTotalCount: 2\n",
            &BTreeMap::new(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("script.command.line"), "{e}");
        // What workers would refuse to decode is refused before it is written.
        let big = format!("jobName: j\nshardingTotalCount: 2\njobParameter: '{}'\n", "p".repeat(120_000));
        let mut new = prepare_edit("j", None, Some(&old), &big, &BTreeMap::new()).unwrap().0;
        new.job_parameter = Some("p".repeat(140_000));
        let e = check_change("j", None, Some(&old), &new, &BTreeMap::new()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Usage);
        assert!(e.to_string().contains("larger than the limit of 131072 bytes; workers would refuse it"), "{e}");
    }

    #[test]
    fn setting_a_pinned_command_back_to_the_job_files_value_does_not_warn() {
        let script =
            JobConfig::from_yaml("jobName: j\nshardingTotalCount: 2\nprops:\n  script.command.line: rm\n").unwrap();
        let job_file = BTreeMap::from([("script.command.line".to_string(), Some("echo ok".to_string()))]);
        let edit = |command: &str| {
            let text = format!("jobName: j\nshardingTotalCount: 2\nprops:\n  script.command.line: {command}\n");
            prepare_edit("j", Some(&JobType::Script), Some(&script), &text, &job_file).unwrap().1
        };
        assert_eq!(edit("echo ok"), Vec::<String>::new());
        let warnings = edit("echo other");
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("refuse a changed script.command.line"), "{warnings:?}");
    }
}
