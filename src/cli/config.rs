//! `ejctl config ...`: read and change job configurations (`/{job}/config`, reference §1.2, §4.3)
//! without ever corrupting them.
//!
//! * `get JOB`: the YAML exactly as stored (a final newline is added when the node has none).
//! * `set JOB KEY=VALUE...`: keys are the YAML keys (`shardingTotalCount=4`) or the job file's
//!   snake_case names (`sharding_total_count=4`; `name` for `jobName`); `props.NAME=VALUE` sets a
//!   property and `props.NAME=` removes it; an empty value removes an optional key (`timeZone=`,
//!   and `cron=` makes a one-off job); `jobListenerTypes=a,b` is comma-separated. Either
//!   executor-pool key name sets the pool type, and the key name already stored is kept (it tells
//!   which ElasticJob version the cluster runs). Type names are written in ElasticJob's spelling
//!   (`round_robin` becomes `ROUND_ROBIN`).
//! * `edit JOB`: `$VISUAL`, else `$EDITOR`, else `vi`, on a private copy of the stored YAML. A
//!   result that does not parse or validate is refused (exit 2; on a terminal the editor can be
//!   reopened), and the copy is kept so the edit is not lost. A key the stored YAML did not have
//!   and ElasticJob does not know is refused too: the Java reader rejects unknown keys.
//! * `apply FILE...`: makes the registry hold the job files' configurations: missing jobs get
//!   their root node (the job type) and configuration, as a worker would write them; changed
//!   ones are rewritten, keeping what the files cannot express (unknown keys,
//!   `jobExtraConfigurations`) from the stored YAML; identical ones are left alone. All the
//!   writes of one `apply` are one transaction: all or nothing.
//! * `diff FILE...`: what `apply` would change; exit 1 when there is drift, 0 when none.
//!
//! `set`, `edit` and `apply` validate the result with the job-file validation
//! ([`crate::config::validate`]; for `SCRIPT`, `HTTP` and `DATAFLOW` jobs the executor properties
//! too), ask before changing `shardingTotalCount` (`--yes` without a terminal), and write with
//! the version read, so a concurrent change is refused (exit 4) instead of overwritten. Nothing
//! unchanged is written.
//!
//! `apply` and `diff` take the registry from the command line, then a context named with
//! `--context`, then the files' `[registry]`, then the current context
//! ([`super::context::for_job_files`]); `apply` creates the namespace when it is missing.
//!
//! # Documents (`-o json` / `-o yaml`)
//!
//! * `get`: `{"job", "version", "config": {YAML key: value, ..., unknown keys as parsed}, "yaml"}`
//!   (`config` is `null` and `error` says why when the stored YAML cannot be read). Every key
//!   ElasticJob models is present, `null` when unset; tagged values appear as `{"!tag": value}`.
//! * `set` / `edit`: `{"job", "version", "changed": {KEY: {"old", "new"}}}`, with `props.NAME`
//!   keys for properties and `null` for an unset value; `version` is the node version after the
//!   write (the one read when nothing changed).
//! * `apply`: `{"namespace", "jobs": [{"job", "file", "result": "created"|"updated"|"unchanged",
//!   "version", "changed"}]}`.
//! * `diff`: `{"namespace", "drift", "jobs": [{"job", "file", "action": "create"|"update"|"none",
//!   "version", "changed", "old", "new"}]}` (`old` / `new`: the YAML texts, `old` `null` when the
//!   job has no configuration).

use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use clap::{Args, Subcommand};
use serde::Serialize;
use serde_json::Value as Json;

use super::GlobalArgs;
use super::context::{self, Layer};
use super::output::{Format, Output};
use super::prompt;
use crate::config::schema::{
    self, EXTRA_CONFIGURATIONS, EXTRA_CONFIGURATIONS_FILE_KEY, FieldId, Kind, Value as FieldValue, field,
};
use crate::config::validate;
use crate::config::{ExecutorPoolKey, JobConfig};
use crate::exec::Executor;
use crate::exit::{CliError, Exit};
use crate::jobfile::{self, JobDefinition, edit_distance};
use crate::registry::codec::JobType;
use crate::registry::path::{JobPaths, validate_job_name};
use crate::registry::{Mode, NodeData, Op, Registry, RegistryError};

/// `ejctl config ...`.
#[derive(Debug, Subcommand)]
pub enum ConfigCmd {
    /// Print a job's configuration YAML exactly as stored.
    #[command(after_help = "Examples:\n  ejctl config get myJob\n  ejctl config get myJob -o json | jq .config.cron")]
    Get(JobArg),
    /// Change configuration keys, validated and written with a version check.
    #[command(
        after_help = "Examples:\n  ejctl config set myJob cron='0/10 * * * * ?' failover=true\n  ejctl config set myJob shardingTotalCount=4 --yes\n  ejctl config set myJob sharding_item_parameters=0=A,1=B props.script.command.line='/opt/run.sh'\n  ejctl config set myJob props.obsolete=      # an empty value removes a property or an optional key\n\nKeys: the YAML keys (jobName cannot change) or the job file's snake_case names.\nChanging shardingTotalCount asks for confirmation (--yes without a terminal)."
    )]
    Set(SetArgs),
    /// Edit a job's configuration in $VISUAL / $EDITOR, validated and written with a version check.
    #[command(
        after_help = "Examples:\n  ejctl config edit myJob\n  EDITOR='code --wait' ejctl config edit myJob\n\nAn invalid result is refused (exit 2) and the edited copy is kept; on a terminal the editor can be reopened."
    )]
    Edit(JobArg),
    /// Write the configurations of job files to the registry (created, updated or unchanged).
    #[command(
        after_help = "Examples:\n  ejctl config apply jobs/*.toml\n  ejctl --context prod config apply billing.toml -o json\n\nRegistry: --zk/--namespace (or --context) win over the files' [registry], which wins over the current context."
    )]
    Apply(FilesArg),
    /// Show what `config apply` would change; exit 1 when there is drift.
    #[command(
        after_help = "Examples:\n  ejctl config diff jobs/*.toml\n  ejctl config diff billing.toml -o json | jq '.jobs[] | select(.action != \"none\")'\n\nExit status 0: no drift, 1: drift."
    )]
    Diff(FilesArg),
}

/// A job name.
#[derive(Debug, Args)]
pub struct JobArg {
    /// The job.
    pub job: String,
}

/// Arguments of `ejctl config set`.
#[derive(Debug, Args)]
pub struct SetArgs {
    /// The job.
    pub job: String,
    /// `KEY=VALUE` assignments; `props.NAME=VALUE` for a property, an empty value to remove.
    #[arg(required = true, value_name = "KEY=VALUE")]
    pub assignments: Vec<String>,
}

/// Job files.
#[derive(Debug, Args)]
pub struct FilesArg {
    /// Job files (TOML, as for `ejctl run`).
    #[arg(required = true, value_name = "JOB_FILE")]
    pub files: Vec<PathBuf>,
}

/// Runs `ejctl config ...`.
///
/// # Errors
/// Usage errors (exit 2: bad assignments, invalid values, bad job files), a missing job (exit 3),
/// a declined confirmation or a concurrent change (exit 4), registry errors (exit 5).
pub async fn exec(global: &GlobalArgs, cmd: ConfigCmd, out: &mut Output) -> Result<Exit> {
    match cmd {
        ConfigCmd::Get(args) => get(global, &args.job, out).await,
        ConfigCmd::Set(args) => set(global, &args.job, &args.assignments, out).await,
        ConfigCmd::Edit(args) => edit(global, &args.job, out).await,
        ConfigCmd::Apply(args) => apply_or_diff(global, &args.files, out, true).await,
        ConfigCmd::Diff(args) => apply_or_diff(global, &args.files, out, false).await,
    }
}

// ---------------------------------------------------------------------------------------------
// Keys

/// The closest known key (YAML or snake_case spelling, whichever style `key` uses), if close.
fn suggest(key: &str) -> Option<String> {
    let snake = key.contains('_');
    schema::FIELDS
        .iter()
        .map(|f| if snake { f.file.to_string() } else { f.yaml.to_string() })
        .chain(std::iter::once(EXTRA_CONFIGURATIONS.to_string()))
        .map(|candidate| (edit_distance(&key.to_lowercase(), &candidate.to_lowercase()), candidate))
        .filter(|(d, candidate)| *d <= 3 && *d * 3 <= candidate.len().max(key.len()))
        .min_by_key(|(d, _)| *d)
        .map(|(_, candidate)| candidate)
}

fn unknown_key(key: &str) -> String {
    match suggest(key) {
        Some(s) => format!("unknown key '{key}' (did you mean '{s}'?)"),
        None => format!("unknown key '{key}'"),
    }
}

/// What an assignment changes.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    Field(FieldId),
    Prop(String),
}

/// A parsed `KEY=VALUE`.
#[derive(Debug, Clone, PartialEq)]
struct Assignment {
    /// The key as typed.
    key: String,
    target: Target,
    value: FieldValue,
}

/// Parses one `KEY=VALUE`; the message names the assignment.
fn parse_assignment(raw: &str) -> Result<Assignment, String> {
    let Some((key, value)) = raw.split_once('=') else {
        return Err(format!("'{raw}' is not KEY=VALUE"));
    };
    let key = key.trim();
    if key.is_empty() {
        return Err(format!("'{raw}' has no key (KEY=VALUE)"));
    }
    if let Some(name) = key.strip_prefix("props.") {
        if name.is_empty() {
            return Err(format!("'{raw}': name the property: props.NAME=VALUE"));
        }
        let value = Some(value.to_string()).filter(|v| !v.is_empty());
        return Ok(Assignment {
            key: key.to_string(),
            target: Target::Prop(name.to_string()),
            value: FieldValue::Str(value),
        });
    }
    if key == field(FieldId::Props).yaml {
        return Err(format!("'{raw}': set properties one at a time: props.NAME=VALUE"));
    }
    if key == EXTRA_CONFIGURATIONS || key == EXTRA_CONFIGURATIONS_FILE_KEY {
        return Err(format!(
            "'{key}' holds tagged Java objects and cannot be set with KEY=VALUE; use `ejctl config edit`"
        ));
    }
    let Some(f) = schema::lookup(key) else {
        return Err(unknown_key(key));
    };
    let value = match f.kind {
        Kind::Str | Kind::TypeName(_) => FieldValue::Str(Some(value.to_string()).filter(|v| !v.is_empty())),
        Kind::Int => {
            let v = value.trim();
            if v.is_empty() {
                return Err(format!("{key}: needs a value (an integer)"));
            }
            FieldValue::Int(v.parse::<i32>().map_err(|_| format!("{key}: '{value}' is not an integer"))?)
        }
        Kind::Bool => match value.trim().to_ascii_lowercase().as_str() {
            "true" => FieldValue::Bool(true),
            "false" => FieldValue::Bool(false),
            _ => return Err(format!("{key}: '{value}' is not true or false")),
        },
        Kind::List => {
            FieldValue::List(value.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect())
        }
        Kind::Map => return Err(format!("'{raw}': set properties one at a time: props.NAME=VALUE")),
    };
    Ok(Assignment { key: key.to_string(), target: Target::Field(f.id), value })
}

/// Parses every assignment, refusing the same key twice.
fn parse_assignments(raw: &[String]) -> Result<Vec<Assignment>, String> {
    let mut seen: BTreeMap<Target, String> = BTreeMap::new();
    let mut out = Vec::new();
    for r in raw {
        let a = parse_assignment(r)?;
        // Both executor-pool key names set the same field.
        let target = match a.target {
            Target::Field(FieldId::ExecutorPool(_)) => Target::Field(FieldId::ExecutorPool(ExecutorPoolKey::default())),
            ref other => other.clone(),
        };
        if let Some(first) = seen.insert(target, a.key.clone()) {
            return Err(if first == a.key {
                format!("'{}' is given twice", a.key)
            } else {
                format!("'{first}' and '{}' set the same key", a.key)
            });
        }
        out.push(a);
    }
    Ok(out)
}

/// Applies an assignment. The executor-pool key name stored is kept; without one, the name
/// typed is used. Type names are written in ElasticJob's spelling.
fn apply_assignment(cfg: &mut JobConfig, a: &Assignment) {
    match (&a.target, &a.value) {
        (Target::Prop(name), FieldValue::Str(Some(v))) => {
            cfg.props.insert(name.clone(), v.clone());
        }
        (Target::Prop(name), _) => {
            cfg.props.remove(name);
        }
        (Target::Field(FieldId::ExecutorPool(typed)), value) => {
            let stored =
                cfg.job_executor_pool_type.is_some() || cfg.executor_pool_key == ExecutorPoolKey::ServiceHandler;
            let key = if stored { cfg.executor_pool_key } else { *typed };
            cfg.set(FieldId::ExecutorPool(key), field(FieldId::ExecutorPool(*typed)).canonical(value.clone()));
        }
        (Target::Field(id), value) => cfg.set(*id, field(*id).canonical(value.clone())),
    }
}

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
    let parsed: Option<serde_yaml_ng::Value> = serde_yaml_ng::from_str(&block).ok();
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
fn config_json(cfg: &JobConfig) -> serde_json::Map<String, Json> {
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

/// One changed key.
#[derive(Debug, Clone, PartialEq, Serialize)]
struct Change {
    old: Json,
    new: Json,
}

/// Key-by-key changes from `old` (none: a job without configuration) to `new`; unset is `null`.
fn changes(old: Option<&JobConfig>, new: &JobConfig) -> BTreeMap<String, Change> {
    let old = old.map(flat).unwrap_or_default();
    let new = flat(new);
    let keys: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    keys.into_iter()
        .filter_map(|k| {
            let o = old.get(k).cloned().unwrap_or(Json::Null);
            let n = new.get(k).cloned().unwrap_or(Json::Null);
            (o != n).then(|| (k.clone(), Change { old: o, new: n }))
        })
        .collect()
}

/// A value for people: strings bare (quoted when empty or padded), `(unset)` for null.
fn show(v: &Json) -> String {
    match v {
        Json::Null => "(unset)".to_string(),
        Json::String(s) if s.is_empty() || s.trim() != s => Json::String(s.clone()).to_string(),
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A value for `-o plain`: strings bare, empty for null.
fn plain(v: &Json) -> String {
    match v {
        Json::Null => String::new(),
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// Reading and writing one job's configuration

/// A job's root and configuration nodes as read.
struct Stored {
    root: Option<NodeData>,
    config: NodeData,
    text: String,
}

impl Stored {
    fn job_type(&self) -> Option<JobType> {
        match self.root.as_ref().map(|r| r.data.as_slice()) {
            Some(b"SCRIPT") => Some(JobType::Script),
            Some(b"HTTP") => Some(JobType::Http),
            Some(b"DATAFLOW") => Some(JobType::Dataflow),
            _ => None,
        }
    }
}

fn namespace(global: &GlobalArgs) -> String {
    global.namespace.clone().unwrap_or_default().trim_matches('/').to_string()
}

/// Reads `/{job}` and `/{job}/config` in one round trip.
///
/// # Errors
/// Exit 3 when the job or its configuration does not exist; registry errors.
async fn read_stored(global: &GlobalArgs, registry: &Registry, job: &str) -> Result<Stored> {
    let paths = JobPaths::new(job);
    let nodes = registry
        .get_many(&[paths.root().to_string(), paths.config()])
        .await
        .with_context(|| format!("job '{job}': cannot read {}", paths.config()))?;
    let mut nodes = nodes.into_iter();
    let (root, config) = (nodes.next().flatten(), nodes.next().flatten());
    match (root, config) {
        (root, Some(config)) => Ok(Stored { root, text: config.text(), config }),
        (None, None) => {
            Err(CliError::not_found(format!("job '{job}' not found in namespace '{}'", namespace(global))).into())
        }
        (Some(_), None) => Err(CliError::not_found(format!(
            "job '{job}' has no configuration ({} does not exist) in namespace '{}'",
            paths.config(),
            namespace(global)
        ))
        .into()),
    }
}

/// Writes the configuration if its version is still `version`.
///
/// # Errors
/// Exit 4 on a concurrent change (with `note` appended to the message), exit 3 when the node
/// was removed meanwhile, registry errors.
async fn write_config(registry: &Registry, job: &str, version: i32, yaml: &str, note: &str) -> Result<i32> {
    let path = JobPaths::new(job).config();
    match registry.set(&path, yaml.as_bytes(), Some(version)).await {
        Ok(stat) => Ok(stat.version),
        Err(RegistryError::BadVersion(_)) => Err(CliError::refused(format!(
            "job '{job}': the configuration changed concurrently; re-run the command{note}"
        ))
        .into()),
        Err(RegistryError::NoNode(_)) => {
            Err(CliError::not_found(format!("job '{job}': the configuration was removed concurrently{note}")).into())
        }
        Err(e) => Err(anyhow::Error::new(e).context(format!("job '{job}': cannot write {path}"))),
    }
}

/// Validates a changed configuration like a job file: the ElasticJob fields, and the executor
/// properties of `SCRIPT` / `HTTP` / `DATAFLOW` jobs (a problem the stored configuration already
/// had is only a warning, so it does not block unrelated changes).
fn check_new(job: &str, job_type: Option<&JobType>, old: Option<&JobConfig>, new: &JobConfig) -> Result<(), CliError> {
    let warnings = validate::check_config(new).map_err(|e| CliError::usage(format!("job '{job}': {e}")))?;
    for w in warnings {
        tracing::warn!("job '{job}': {w}");
    }
    if let Some(t) = job_type
        && let Err(message) = Executor::from_config(t, new, None)
    {
        if old.is_none_or(|o| Executor::from_config(t, o, None).is_ok()) {
            return Err(CliError::usage(format!("job '{job}': {message}")));
        }
        tracing::warn!("job '{job}': {message} (already so before this change)");
    }
    Ok(())
}

/// Asks before changing `shardingTotalCount` (the items are resharded).
fn confirm_count(global: &GlobalArgs, job: &str, changed: &BTreeMap<String, Change>) -> Result<()> {
    if let Some(c) = changed.get(schema::yaml_key(FieldId::ShardingTotalCount)) {
        prompt::confirm(
            global,
            &format!(
                "change shardingTotalCount of job '{job}' from {} to {} (its items are resharded)",
                show(&c.old),
                show(&c.new)
            ),
        )?;
    }
    Ok(())
}

#[derive(Serialize)]
struct UpdateDoc<'a> {
    job: &'a str,
    version: i32,
    changed: &'a BTreeMap<String, Change>,
}

/// Prints the result of `set` / `edit`.
fn report_update(out: &mut Output, job: &str, version: i32, changed: &BTreeMap<String, Change>) -> Result<()> {
    match out.format {
        Format::Json | Format::Yaml => out.document(&UpdateDoc { job, version, changed }),
        Format::Plain => {
            let rows: Vec<Vec<String>> =
                changed.iter().map(|(k, c)| vec![k.clone(), plain(&c.old), plain(&c.new)]).collect();
            out.rows(&rows)
        }
        Format::Table => {
            if changed.is_empty() {
                return out.text(&format!("job '{job}': no change\n"));
            }
            let mut text = format!("job '{job}': configuration updated (version {version})\n");
            for (k, c) in changed {
                text.push_str(&format!("  {k}: {} → {}\n", show(&c.old), show(&c.new)));
            }
            out.text(&text)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// get

#[derive(Serialize)]
struct GetDoc<'a> {
    job: &'a str,
    version: i32,
    config: Option<serde_json::Map<String, Json>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    yaml: &'a str,
}

async fn get(global: &GlobalArgs, job: &str, out: &mut Output) -> Result<Exit> {
    validate_job_name(job).map_err(CliError::usage)?;
    let registry = super::connect(global).await?;
    let stored = read_stored(global, &registry, job).await?;
    match out.format {
        Format::Json | Format::Yaml => {
            let (config, error) = match JobConfig::from_yaml(&stored.text) {
                Ok(cfg) => (Some(config_json(&cfg)), None),
                Err(e) => {
                    tracing::warn!("job '{job}': {e}");
                    (None, Some(e.to_string()))
                }
            };
            out.document(&GetDoc { job, version: stored.config.stat.version, config, error, yaml: &stored.text })?;
        }
        Format::Table | Format::Plain => {
            let mut text = stored.text;
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            out.text(&text)?;
        }
    }
    Ok(Exit::Ok)
}

// ---------------------------------------------------------------------------------------------
// set

async fn set(global: &GlobalArgs, job: &str, raw: &[String], out: &mut Output) -> Result<Exit> {
    validate_job_name(job).map_err(CliError::usage)?;
    let assignments = parse_assignments(raw).map_err(|e| CliError::usage(format!("job '{job}': {e}")))?;
    let registry = super::connect(global).await?;
    let stored = read_stored(global, &registry, job).await?;
    let old = JobConfig::from_yaml(&stored.text).map_err(|e| {
        CliError::new(
            Exit::Failure,
            format!(
                "job '{job}': the stored configuration cannot be read ({e}); fix it with `ejctl config edit {job}`"
            ),
        )
    })?;
    let mut new = old.clone();
    for a in &assignments {
        apply_assignment(&mut new, a);
    }
    if new.job_name != old.job_name {
        return Err(CliError::usage(format!(
            "job '{job}': jobName cannot be changed (it names the job's node); create a new job instead"
        ))
        .into());
    }
    check_new(job, stored.job_type().as_ref(), Some(&old), &new)?;
    let changed = changes(Some(&old), &new);
    let mut version = stored.config.stat.version;
    if !changed.is_empty() {
        confirm_count(global, job, &changed)?;
        version = write_config(&registry, job, version, &new.to_yaml(), "").await?;
        warn_overwrite(job, &new);
    }
    report_update(out, job, version, &changed)?;
    Ok(Exit::Ok)
}

// ---------------------------------------------------------------------------------------------
// edit

/// The private copy `config edit` hands to the editor; removed on drop unless kept.
struct EditFile {
    path: PathBuf,
    keep: bool,
}

impl EditFile {
    fn create(job: &str, text: &str) -> Result<EditFile> {
        use std::io::Write;
        let id = uuid::Uuid::new_v4().simple().to_string();
        let safe: String =
            job.chars().map(|c| if c.is_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect();
        let path = std::env::temp_dir().join(format!("ejctl-{safe}-{}.yaml", &id[..8]));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut f = options.open(&path).with_context(|| format!("cannot create {}", path.display()))?;
        f.write_all(text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
        Ok(EditFile { path, keep: false })
    }

    /// Keeps the file and returns a note for the error message.
    fn keep(&mut self) -> String {
        self.keep = true;
        format!(" (your edit is kept in {})", self.path.display())
    }
}

impl Drop for EditFile {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Splits an editor command into words: whitespace separates, single and double quotes group,
/// a backslash escapes the next character (outside single quotes).
fn split_command(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("unterminated ' quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => word.push(c),
                            None => return Err("unterminated \" quote".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("unterminated \" quote".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("it is empty".into());
    }
    Ok(words)
}

/// The editor command: `$VISUAL`, else `$EDITOR`, else `vi`.
fn editor_command() -> String {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "vi".to_string())
}

/// Runs the editor on `path` (the runtime keeps serving the registry session meanwhile).
async fn run_editor(job: &str, path: &Path) -> Result<()> {
    let command = editor_command();
    let words =
        split_command(&command).map_err(|e| CliError::usage(format!("cannot use the editor '{command}': {e}")))?;
    let status = tokio::process::Command::new(&words[0])
        .args(&words[1..])
        .arg(path)
        .status()
        .await
        .with_context(|| format!("job '{job}': cannot start the editor '{command}'"))?;
    if !status.success() {
        return Err(CliError::new(
            Exit::Failure,
            format!("job '{job}': the editor '{command}' failed ({status}); nothing was written"),
        )
        .into());
    }
    Ok(())
}

/// Reads an edited configuration and checks it.
fn prepare_edit(
    job: &str,
    job_type: Option<&JobType>,
    old: Option<&JobConfig>,
    edited: &str,
) -> Result<JobConfig, CliError> {
    let mut new = JobConfig::from_yaml(edited).map_err(|e| CliError::usage(format!("job '{job}': {e}")))?;
    let name = old.map_or(job, |o| o.job_name.as_str());
    if new.job_name != name {
        return Err(CliError::usage(format!(
            "job '{job}': jobName cannot be changed (it names the job's node); create a new job instead"
        )));
    }
    let known: BTreeSet<&str> = old.map(|o| o.preserved.iter().map(|(k, _)| k.as_str()).collect()).unwrap_or_default();
    if let Some((key, _)) = new.preserved.iter().find(|(k, _)| !known.contains(k.as_str()) && k != EXTRA_CONFIGURATIONS)
    {
        return Err(CliError::usage(format!(
            "job '{job}': {}; ElasticJob's Java reader rejects unknown keys",
            unknown_key(key)
        )));
    }
    if let Some(old) = old {
        // Type names that were changed are written in ElasticJob's spelling.
        for f in schema::FIELDS.iter().filter(|f| matches!(f.kind, Kind::TypeName(_))) {
            if new.get(f.id) != old.get(f.id) {
                let value = f.canonical(new.get(f.id));
                new.set(f.id, value);
            }
        }
    }
    check_new(job, job_type, old, &new)?;
    Ok(new)
}

/// True when a failed edit may be retried: a terminal to ask on, and not a document format.
fn may_ask(global: &GlobalArgs) -> bool {
    !global.output.is_document() && std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

async fn edit(global: &GlobalArgs, job: &str, out: &mut Output) -> Result<Exit> {
    validate_job_name(job).map_err(CliError::usage)?;
    let registry = super::connect(global).await?;
    let stored = read_stored(global, &registry, job).await?;
    let old = match JobConfig::from_yaml(&stored.text) {
        Ok(cfg) => Some(cfg),
        Err(e) => {
            tracing::warn!("job '{job}': the stored configuration cannot be read ({e}); fix it in the editor");
            None
        }
    };
    let job_type = stored.job_type();
    let version = stored.config.stat.version;
    let mut file = EditFile::create(job, &stored.text)?;
    let new = loop {
        run_editor(job, &file.path).await?;
        let edited = std::fs::read_to_string(&file.path)
            .with_context(|| format!("job '{job}': cannot read the edited file {}", file.path.display()))?;
        if edited == stored.text {
            report_update(out, job, version, &BTreeMap::new())?;
            return Ok(Exit::Ok);
        }
        match prepare_edit(job, job_type.as_ref(), old.as_ref(), &edited) {
            Ok(new) => break new,
            Err(e) => {
                if may_ask(global)
                    && dialoguer::Confirm::new()
                        .with_prompt(format!("{e}\nEdit again?"))
                        .default(true)
                        .interact()
                        .unwrap_or(false)
                {
                    continue;
                }
                let note = file.keep();
                return Err(CliError::usage(format!("{e}{note}")).into());
            }
        }
    };
    let changed = changes(old.as_ref(), &new);
    let unchanged = match &old {
        Some(old) => old.to_yaml() == new.to_yaml(),
        None => false,
    };
    if unchanged {
        report_update(out, job, version, &BTreeMap::new())?;
        return Ok(Exit::Ok);
    }
    confirm_count(global, job, &changed)?;
    let result = write_config(&registry, job, version, &new.to_yaml(), "").await;
    let version = match result {
        Ok(v) => v,
        Err(e) => {
            let note = file.keep();
            return Err(match e.downcast::<CliError>() {
                Ok(mut cli) => {
                    cli.message.push_str(&note);
                    cli.into()
                }
                Err(e) => {
                    e.context(format!("job '{job}': nothing was written; your edit is kept in {}", file.path.display()))
                }
            });
        }
    };
    warn_overwrite(job, &new);
    report_update(out, job, version, &changed)?;
    Ok(Exit::Ok)
}

/// A worker started with `overwrite = true` replaces the registry's configuration with its own.
fn warn_overwrite(job: &str, cfg: &JobConfig) {
    if cfg.overwrite {
        tracing::warn!(
            "job '{job}': overwrite is true, so the next worker to start replaces this configuration with its local one"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// apply / diff

/// What `apply` does to one job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Create,
    Update,
    Unchanged,
}

/// One job of `apply` / `diff`.
struct Plan {
    job: String,
    file: PathBuf,
    action: Action,
    /// The version read (none for a job without configuration).
    version: Option<i32>,
    /// The stored YAML, normalised (raw when it cannot be read).
    old_yaml: Option<String>,
    new_yaml: String,
    changed: BTreeMap<String, Change>,
    ops: Vec<Op>,
}

/// Connects for `apply` (creating the namespace) or `diff` (a missing namespace: `None`).
async fn connect_for_files(global: &GlobalArgs, create_namespace: bool) -> Result<Option<Registry>> {
    let mut options = global.zk_options()?;
    options.create_namespace = create_namespace;
    let spinner = global.spinner(format!("connecting to {}", options.servers));
    let result = Registry::connect(options).await;
    spinner.finish_and_clear();
    match result {
        Ok(registry) => Ok(Some(registry)),
        Err(RegistryError::NoNode(_)) if !create_namespace => Ok(None),
        Err(RegistryError::NoNode(_)) => {
            Err(CliError::not_found(format!("namespace '{}' does not exist in the registry", namespace(global))).into())
        }
        Err(e) => Err(e).context("cannot connect to the registry"),
    }
}

/// Compares every job of the files with the registry.
async fn plan(registry: Option<&Registry>, jobs: &[JobDefinition]) -> Result<Vec<Plan>> {
    let mut paths = Vec::new();
    for def in jobs {
        let p = JobPaths::new(&def.config.job_name);
        paths.push(p.root().to_string());
        paths.push(p.config());
    }
    let nodes = match registry {
        Some(r) => r.get_many(&paths).await.context("cannot read the job configurations")?,
        None => vec![None; paths.len()],
    };
    let mut plans = Vec::new();
    for (def, pair) in jobs.iter().zip(nodes.chunks(2)) {
        let job = def.config.job_name.clone();
        let p = JobPaths::new(&job);
        let (root, config) = (pair.first().cloned().flatten(), pair.get(1).cloned().flatten());
        let root_data = def.job_type.root_data();
        let mut plan = Plan {
            job: job.clone(),
            file: def.file.clone(),
            action: Action::Unchanged,
            version: None,
            old_yaml: None,
            new_yaml: String::new(),
            changed: BTreeMap::new(),
            ops: Vec::new(),
        };
        match config {
            None => {
                let desired = def.config.clone();
                plan.action = Action::Create;
                plan.new_yaml = desired.to_yaml();
                plan.changed = changes(None, &desired);
                match &root {
                    None => plan.ops.push(Op::Create {
                        path: p.root().to_string(),
                        data: root_data.as_bytes().to_vec(),
                        mode: Mode::Persistent,
                    }),
                    Some(node) if node.data != root_data.as_bytes() => plan.ops.push(Op::Set {
                        path: p.root().to_string(),
                        data: root_data.as_bytes().to_vec(),
                        version: Some(node.stat.version),
                    }),
                    Some(_) => {}
                }
                plan.ops.push(Op::Create {
                    path: p.config(),
                    data: plan.new_yaml.clone().into_bytes(),
                    mode: Mode::Persistent,
                });
            }
            Some(node) => {
                plan.version = Some(node.stat.version);
                if let Some(root) = &root
                    && root.data != root_data.as_bytes()
                {
                    tracing::warn!(
                        "job '{job}': the registry's job root says '{}', the file's type is '{root_data}'; the root node is left as it is",
                        root.text()
                    );
                }
                let text = node.text();
                let mut desired = def.config.clone();
                let old = match JobConfig::from_yaml(&text) {
                    Ok(stored) => {
                        desired.preserved.clone_from(&stored.preserved);
                        if desired.job_executor_pool_type.is_none() {
                            desired.executor_pool_key = stored.executor_pool_key;
                        }
                        plan.old_yaml = Some(stored.to_yaml());
                        Some(stored)
                    }
                    Err(e) => {
                        tracing::warn!("job '{job}': the stored configuration cannot be read ({e}); apply replaces it");
                        plan.old_yaml = Some(text);
                        None
                    }
                };
                plan.new_yaml = desired.to_yaml();
                if plan.old_yaml.as_deref() != Some(plan.new_yaml.as_str()) {
                    plan.action = Action::Update;
                    plan.changed = changes(old.as_ref(), &desired);
                    plan.ops.push(Op::Set {
                        path: p.config(),
                        data: plan.new_yaml.clone().into_bytes(),
                        version: Some(node.stat.version),
                    });
                }
            }
        }
        plans.push(plan);
    }
    Ok(plans)
}

#[derive(Serialize)]
struct ApplyDoc<'a> {
    namespace: &'a str,
    jobs: Vec<ApplyJob<'a>>,
}

#[derive(Serialize)]
struct ApplyJob<'a> {
    job: &'a str,
    file: String,
    result: &'static str,
    version: i32,
    changed: &'a BTreeMap<String, Change>,
}

#[derive(Serialize)]
struct DiffDoc<'a> {
    namespace: &'a str,
    drift: bool,
    jobs: Vec<DiffJob<'a>>,
}

#[derive(Serialize)]
struct DiffJob<'a> {
    job: &'a str,
    file: String,
    action: &'static str,
    version: Option<i32>,
    changed: &'a BTreeMap<String, Change>,
    old: Option<&'a str>,
    new: &'a str,
}

async fn apply_or_diff(global: &GlobalArgs, files: &[PathBuf], out: &mut Output, write: bool) -> Result<Exit> {
    let loaded = jobfile::load(files).map_err(|e| CliError::usage(e.to_string()))?;
    for w in &loaded.warnings {
        tracing::warn!("{w}");
    }
    let file_layer = loaded.registry.as_ref().map(|r| Layer {
        zk: Some(r.servers.clone()),
        namespace: Some(r.namespace.clone()),
        digest: r.digest.clone(),
        connect_timeout: None,
    });
    let global = context::for_job_files(global, file_layer.as_ref());
    let registry = connect_for_files(&global, write).await?;
    let ns = namespace(&global);
    let plans = plan(registry.as_ref(), &loaded.jobs).await?;
    if write {
        let mut ops = Vec::new();
        let mut owner = Vec::new();
        for (i, p) in plans.iter().enumerate() {
            ops.extend(p.ops.iter().cloned());
            owner.extend(std::iter::repeat_n(i, p.ops.len()));
        }
        if let Some(registry) = &registry
            && !ops.is_empty()
        {
            match registry.transaction(&ops).await {
                Ok(()) => {}
                Err(RegistryError::Transaction { index, source }) => {
                    let job = owner.get(index).and_then(|i| plans.get(*i)).map_or("?", |p| p.job.as_str());
                    return Err(match *source {
                        RegistryError::BadVersion(_) | RegistryError::NodeExists(_) | RegistryError::NoNode(_) => {
                            CliError::refused(format!(
                                "job '{job}': the configuration changed concurrently; re-run the command (nothing was written)"
                            ))
                            .into()
                        }
                        other => anyhow::Error::new(other).context(format!("job '{job}': cannot write (nothing was written)")),
                    });
                }
                Err(e) => return Err(anyhow::Error::new(e).context("cannot write the job configurations")),
            }
        }
        report_apply(out, &ns, &plans)?;
        Ok(Exit::Ok)
    } else {
        let drift = plans.iter().any(|p| p.action != Action::Unchanged);
        report_diff(out, &ns, &plans, drift)?;
        Ok(if drift { Exit::Failure } else { Exit::Ok })
    }
}

fn report_apply(out: &mut Output, ns: &str, plans: &[Plan]) -> Result<()> {
    let rows: Vec<(&Plan, &'static str, i32)> = plans
        .iter()
        .map(|p| match p.action {
            Action::Create => (p, "created", 0),
            Action::Update => (p, "updated", p.version.unwrap_or(0) + 1),
            Action::Unchanged => (p, "unchanged", p.version.unwrap_or(0)),
        })
        .collect();
    match out.format {
        Format::Json | Format::Yaml => out.document(&ApplyDoc {
            namespace: ns,
            jobs: rows
                .iter()
                .map(|(p, result, version)| ApplyJob {
                    job: &p.job,
                    file: p.file.display().to_string(),
                    result,
                    version: *version,
                    changed: &p.changed,
                })
                .collect(),
        }),
        Format::Plain => out.rows(
            &rows
                .iter()
                .map(|(p, result, version)| vec![p.job.clone(), result.to_string(), version.to_string()])
                .collect::<Vec<_>>(),
        ),
        Format::Table => {
            let mut text = String::new();
            for (p, result, _) in &rows {
                text.push_str(&format!("job '{}': {result}", p.job));
                if p.action == Action::Update {
                    let keys: Vec<&str> = p.changed.keys().map(String::as_str).collect();
                    text.push_str(&format!(" ({})", keys.join(", ")));
                }
                text.push('\n');
            }
            out.text(&text)
        }
    }
}

fn report_diff(out: &mut Output, ns: &str, plans: &[Plan], drift: bool) -> Result<()> {
    let action = |a: Action| match a {
        Action::Create => "create",
        Action::Update => "update",
        Action::Unchanged => "none",
    };
    match out.format {
        Format::Json | Format::Yaml => out.document(&DiffDoc {
            namespace: ns,
            drift,
            jobs: plans
                .iter()
                .map(|p| DiffJob {
                    job: &p.job,
                    file: p.file.display().to_string(),
                    action: action(p.action),
                    version: p.version,
                    changed: &p.changed,
                    old: p.old_yaml.as_deref(),
                    new: &p.new_yaml,
                })
                .collect(),
        }),
        Format::Plain => {
            let mut rows = Vec::new();
            for p in plans {
                for (k, c) in &p.changed {
                    rows.push(vec![
                        p.job.clone(),
                        action(p.action).to_string(),
                        k.clone(),
                        plain(&c.old),
                        plain(&c.new),
                    ]);
                }
            }
            out.rows(&rows)
        }
        Format::Table => {
            let mut text = String::new();
            for p in plans.iter().filter(|p| p.action != Action::Unchanged) {
                let path = JobPaths::new(&p.job).config();
                match p.version {
                    Some(v) => text.push_str(&format!("--- {path} (registry, version {v})\n")),
                    None => text.push_str(&format!("--- {path} (absent)\n")),
                }
                text.push_str(&format!("+++ {path} ({})\n", p.file.display()));
                text.push_str(&unified_diff(p.old_yaml.as_deref().unwrap_or(""), &p.new_yaml, 3));
            }
            out.text(&text)
        }
    }
}

/// A unified line diff (hunks with `context` lines around changes), without file headers.
fn unified_diff(old: &str, new: &str, context: usize) -> String {
    #[derive(Clone, Copy, PartialEq)]
    enum Line {
        Same,
        Del,
        Ins,
    }
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    // (kind, index in a, index in b, text): for Del / Ins the other index is the position.
    let mut ops: Vec<(Line, usize, usize, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push((Line::Same, i, j, a[i]));
            i += 1;
            j += 1;
        } else if j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push((Line::Del, i, j, a[i]));
            i += 1;
        } else {
            ops.push((Line::Ins, i, j, b[j]));
            j += 1;
        }
    }
    let changed: Vec<usize> = ops.iter().enumerate().filter(|(_, o)| o.0 != Line::Same).map(|(k, _)| k).collect();
    let mut hunks: Vec<(usize, usize)> = Vec::new();
    for &k in &changed {
        let start = k.saturating_sub(context);
        let end = (k + context + 1).min(ops.len());
        match hunks.last_mut() {
            Some(last) if start <= last.1 => last.1 = end,
            _ => hunks.push((start, end)),
        }
    }
    let mut out = String::new();
    for (start, end) in hunks {
        let slice = &ops[start..end];
        let old_len = slice.iter().filter(|o| o.0 != Line::Ins).count();
        let new_len = slice.iter().filter(|o| o.0 != Line::Del).count();
        let (a0, b0) = (slice[0].1, slice[0].2);
        let old_start = if old_len == 0 { a0 } else { a0 + 1 };
        let new_start = if new_len == 0 { b0 } else { b0 + 1 };
        out.push_str(&format!("@@ -{old_start},{old_len} +{new_start},{new_len} @@\n"));
        for (kind, _, _, text) in slice {
            let mark = match kind {
                Line::Same => ' ',
                Line::Del => '-',
                Line::Ins => '+',
            };
            out.push(mark);
            out.push_str(text);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> JobConfig {
        let mut c = JobConfig::new("j", 2);
        c.cron = Some("0/5 * * * * ?".into());
        c
    }

    fn set_all(c: &mut JobConfig, raw: &[&str]) -> Result<(), String> {
        let raw: Vec<String> = raw.iter().map(|s| s.to_string()).collect();
        for a in parse_assignments(&raw)? {
            apply_assignment(c, &a);
        }
        Ok(())
    }

    #[test]
    fn yaml_and_snake_case_keys() {
        let mut c = cfg();
        set_all(
            &mut c,
            &[
                "shardingTotalCount=4",
                "cron=0/10 * * * * ?",
                "failover=TRUE",
                "misfire=false",
                "time_zone=GMT+8",
                "job_sharding_strategy_type=round_robin",
                "jobErrorHandlerType=ignore",
                "jobListenerTypes=a, b,",
                "max_time_diff_seconds=-1",
                "description=",
                "props.script.command.line=echo hi=there",
            ],
        )
        .unwrap();
        assert_eq!(c.sharding_total_count, 4);
        assert_eq!(c.cron.as_deref(), Some("0/10 * * * * ?"));
        assert!(c.failover && !c.misfire);
        assert_eq!(c.time_zone.as_deref(), Some("GMT+8"));
        assert_eq!(c.job_sharding_strategy_type.as_deref(), Some("ROUND_ROBIN"));
        assert_eq!(c.job_error_handler_type.as_deref(), Some("IGNORE"));
        assert_eq!(c.job_listener_types, ["a", "b"]);
        assert_eq!(c.description, None);
        assert_eq!(c.props["script.command.line"], "echo hi=there");
        set_all(&mut c, &["props.script.command.line=", "cron="]).unwrap();
        assert!(c.props.is_empty());
        assert_eq!(c.cron, None);
    }

    #[test]
    fn the_stored_executor_key_name_is_kept() {
        let mut old =
            JobConfig::from_yaml("jobName: j\nshardingTotalCount: 1\njobExecutorServiceHandlerType: CPU\n").unwrap();
        set_all(&mut old, &["jobExecutorThreadPoolSizeProviderType=single_thread"]).unwrap();
        assert_eq!(old.executor_pool_key, ExecutorPoolKey::ServiceHandler);
        assert!(old.to_yaml().contains("jobExecutorServiceHandlerType: SINGLE_THREAD\n"));
        let mut fresh = cfg();
        set_all(&mut fresh, &["job_executor_service_handler_type=CPU"]).unwrap();
        assert_eq!(fresh.executor_pool_key, ExecutorPoolKey::ServiceHandler);
        let mut fresh = cfg();
        set_all(&mut fresh, &["jobExecutorThreadPoolSizeProviderType=CPU"]).unwrap();
        assert_eq!(fresh.executor_pool_key, ExecutorPoolKey::ThreadPoolSizeProvider);
    }

    #[test]
    fn malformed_assignments_name_the_problem() {
        let err = |raw: &[&str]| set_all(&mut cfg(), raw).unwrap_err();
        assert_eq!(err(&["shardingTotalCount"]), "'shardingTotalCount' is not KEY=VALUE");
        assert_eq!(err(&["=4"]), "'=4' has no key (KEY=VALUE)");
        assert_eq!(
            err(&["shardingTotalCont=4"]),
            "unknown key 'shardingTotalCont' (did you mean 'shardingTotalCount'?)"
        );
        assert_eq!(
            err(&["sharding_total_cont=4"]),
            "unknown key 'sharding_total_cont' (did you mean 'sharding_total_count'?)"
        );
        assert_eq!(err(&["bogus=1"]), "unknown key 'bogus'");
        assert_eq!(err(&["shardingTotalCount=four"]), "shardingTotalCount: 'four' is not an integer");
        assert_eq!(err(&["shardingTotalCount="]), "shardingTotalCount: needs a value (an integer)");
        assert_eq!(err(&["failover=yes"]), "failover: 'yes' is not true or false");
        assert_eq!(err(&["props.=x"]), "'props.=x': name the property: props.NAME=VALUE");
        assert!(err(&["jobExtraConfigurations=x"]).contains("use `ejctl config edit`"));
        assert_eq!(err(&["cron=a", "cron=b"]), "'cron' is given twice");
        assert_eq!(err(&["cron=a", "cron=b"]), "'cron' is given twice");
        assert_eq!(
            err(&["jobExecutorServiceHandlerType=CPU", "job_executor_thread_pool_size_provider_type=CPU"]),
            "'jobExecutorServiceHandlerType' and 'job_executor_thread_pool_size_provider_type' set the same key"
        );
    }

    #[test]
    fn changes_are_key_by_key() {
        let old = cfg();
        let mut new = old.clone();
        set_all(&mut new, &["shardingTotalCount=4", "props.a=1", "timeZone=GMT"]).unwrap();
        let c = changes(Some(&old), &new);
        assert_eq!(c.keys().collect::<Vec<_>>(), ["props.a", "shardingTotalCount", "timeZone"]);
        assert_eq!(c["shardingTotalCount"], Change { old: 2.into(), new: 4.into() });
        assert_eq!(c["props.a"], Change { old: Json::Null, new: "1".into() });
        assert!(changes(Some(&old), &old).is_empty());
        assert_eq!(show(&Json::Null), "(unset)");
        assert_eq!(show(&Json::String(String::new())), "\"\"");
        assert_eq!(show(&Json::String("0/5 * * * * ?".into())), "0/5 * * * * ?");
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
        )
        .unwrap();
        assert_eq!(ok.sharding_total_count, 3);
        assert_eq!(ok.job_sharding_strategy_type.as_deref(), Some("ODEVITY"));
        let err = |text: &str| prepare_edit("j", None, Some(&old), text).unwrap_err();
        let e = err("jobName: j\nshardingTotalCont: 3\n");
        assert_eq!(e.exit, Exit::Usage);
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
        let e = prepare_edit("j", Some(&JobType::Script), Some(&script), "jobName: j\nshardingTotalCount: 2\n")
            .unwrap_err();
        assert!(e.to_string().contains("script.command.line"), "{e}");
    }

    #[test]
    fn editor_commands_are_split_into_words() {
        assert_eq!(split_command("vi").unwrap(), ["vi"]);
        assert_eq!(split_command("  code --wait ").unwrap(), ["code", "--wait"]);
        assert_eq!(
            split_command("'/opt/my editor/bin' -n \"a b\" c\\ d").unwrap(),
            ["/opt/my editor/bin", "-n", "a b", "c d"]
        );
        assert_eq!(split_command("x ''").unwrap(), ["x", ""]);
        assert!(split_command("  ").is_err());
        assert!(split_command("'open").is_err());
    }

    #[test]
    fn unified_diffs() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
        let new = "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\n";
        assert_eq!(unified_diff(old, new, 2), "@@ -2,5 +2,5 @@\n b\n c\n-d\n+D\n e\n f\n@@ -9,2 +9,3 @@\n i\n j\n+k\n");
        assert_eq!(unified_diff("", "x\ny\n", 3), "@@ -0,0 +1,2 @@\n+x\n+y\n");
        assert_eq!(unified_diff("same\n", "same\n", 3), "");
    }
}
