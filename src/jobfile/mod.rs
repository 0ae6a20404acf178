//! Job files: the TOML files `ejctl run` reads (docs/src/job-files.md).
//!
//! [`load`] reads and validates every file completely before returning, so nothing touches a
//! registry unless all of them are good. Every problem is a one-line [`JobFileError`] naming the
//! file, the job and the key: `jobs.toml: job 'hello': cron: invalid cron expression ...`.
//!
//! # Schema
//!
//! Keys are snake_case; an unknown key anywhere (except inside `props`) is an error.
//!
//! ```toml
//! [registry]                        # optional; absent: the embedded, single-process registry
//! servers = "127.0.0.1:2181"        # required: ZooKeeper connect string
//! namespace = "demo"                # required: the chroot
//! digest = "user:password"          # optional: digest authentication
//! session_timeout_ms = 60000        # default 60000
//! connection_timeout_ms = 15000     # default 15000
//! fencing_timeout_ms = 40000        # optional; less than session_timeout_ms
//! tls = { ca = "ca.pem", cert = "client.pem", key = "client.key" }   # optional: TLS (tls.rs)
//!
//! [instance]                        # optional
//! ip = "10.0.0.5"                   # IPv4 address used in the instance id; default: detected
//! dump_port = 9888                  # serve `dump@{job}` on this port; default: none
//! dump_address = "0.0.0.0"          # the dump port's address; default: 127.0.0.1
//! shutdown_timeout_seconds = 30     # graceful stop: wait this long for running items
//! kill_grace_seconds = 5            # SIGTERM to SIGKILL delay; default 5, less when the
//!                                   # session timeout leaves no room for it (see kill_grace)
//! prune_servers_after_seconds = 600 # optional: remove the jobs' unused servers/{ip} nodes
//!
//! [trace]                           # optional: write every run to ElasticJob's trace tables
//! url = "postgres://u:p@db/jobs"    # default: a SQLite file (see `trace.rs`)
//!
//! [[job]]                           # one or more
//! name = "hello"                    # required: jobName
//! type = "script"                   # script (default) | http | dataflow
//! cron = "0/5 * * * * ?"            # Quartz cron; absent or blank: a one-off job
//! sharding_total_count = 3
//! command = "examples/hello.sh --verbose"
//! ```
//!
//! Every field of ElasticJob's `JobConfigurationPOJO`
//! (docs/src/design/compatibility.md#job-configuration) is the snake_case of its YAML key
//! (`jobName` is `name`), except `jobExtraConfigurations`, which holds tagged Java objects and
//! cannot be set from a job file. Fields left out take the defaults of ElasticJob's Java
//! `JobConfiguration.Builder` (`monitor_execution` and `misfire` true, `reconcile_interval_minutes`
//! 10, `max_time_diff_seconds` -1), so what ejctl publishes matches what a Java application with
//! the same settings would. The older key of the executor pool type,
//! `jobExecutorServiceHandlerType` (ElasticJob 3.0.0–3.0.4), is available as
//! `job_executor_service_handler_type` for clusters with such instances. Type names (strategy,
//! pool, error handler) are matched ignoring case and published in ElasticJob's spelling
//! (`round_robin` becomes `ROUND_ROBIN`); an empty type name means the default.
//!
//! Options ElasticJob has no field for are stored in `props`, where Java instances keep and
//! ignore them: `command` (`script.command.line`, script jobs), `timeout_seconds`
//! (`ejctl.timeout.seconds`, script and dataflow jobs), `http_uri`, `http_method`, `http_data`,
//! `http_content_type`, `http_connect_timeout_ms`, `http_read_timeout_ms` (`http.*`, http jobs),
//! `fetch`, `process` (`ejctl.dataflow.*`) and `streaming_process` (`streaming.process`,
//! dataflow jobs). Such a key on a job of another type is an error, and so is setting both the
//! key and its property in `props`. Script jobs need a command, http jobs a URI and a method,
//! dataflow jobs `fetch` and `process` (either as the key or as the property).
//!
//! # Several files
//!
//! `ejctl run a.toml b.toml` runs the jobs of all files in one process: job names must be unique
//! across the files, and the `[registry]`, `[instance]` and `[trace]` tables of the files that
//! have one must be identical (a file without the table uses the one the others give). A file
//! may hold no job at all, only an `[instance]` table: one set of shared job files serves a fleet,
//! with a small host file per machine (`ejctl run jobs.toml host.toml`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use toml::{Table, Value};

pub(crate) use self::fields::edit_distance;
use self::fields::{Fields, describe};

use crate::config::JobConfig;
use crate::config::schema::{
    EXTENSIONS, EXTRA_CONFIGURATIONS_FILE_KEY, ExtKind, Extension, FIELDS, FieldId, Kind, REGISTRY_KEYS, TYPE_FILE_KEY,
    Value as FieldValue, camel_to_snake,
};
use crate::coord::validate;
use crate::exec::Executor;
use crate::registry::codec::JobType;
use crate::registry::path::validate_namespace;
use crate::registry::zk::parse_connect_string;
use crate::registry::{ZkOptions, ZkTls};
use crate::trace::TraceConfig;

/// The `[registry]` table: a ZooKeeper registry. Absent: the embedded registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistrySection {
    /// `servers`: the connect string.
    pub servers: String,
    /// `namespace`.
    pub namespace: String,
    /// `digest`: `user:password`.
    pub digest: Option<String>,
    /// `session_timeout_ms` (default 60000; the server clamps it).
    pub session_timeout: Duration,
    /// `connection_timeout_ms` (default 15000).
    pub connection_timeout: Duration,
    /// `fencing_timeout_ms`: how long a worker cut off from the registry keeps its scripts
    /// running; `None` derives it from the session timeout.
    pub fencing_timeout: Option<Duration>,
    /// `tls`: reach ZooKeeper over TLS.
    pub tls: Option<ZkTls>,
    /// `allow_open_acl`: with credentials, accept namespace and job nodes others can use.
    pub allow_open_acl: bool,
}

impl RegistrySection {
    /// The options a worker connects with: the namespace node is created when missing, and a
    /// request may take as long as the session timeout.
    pub fn zk_options(&self) -> ZkOptions {
        let mut options = ZkOptions::new(&self.servers, &self.namespace);
        options.digest = self.digest.clone();
        options.session_timeout = self.session_timeout;
        options.connection_timeout = self.connection_timeout;
        options.request_timeout = self.session_timeout;
        options.create_namespace = true;
        options.tls.clone_from(&self.tls);
        options.allow_open_acl = self.allow_open_acl;
        options
    }
}

/// One `[[job]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct JobDefinition {
    /// The file it came from.
    pub file: PathBuf,
    /// The job type.
    pub job_type: JobType,
    /// The configuration to publish.
    pub config: JobConfig,
}

/// Everything the job files of one `ejctl run` define.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkerFiles {
    /// The registry; `None` for the embedded registry.
    pub registry: Option<RegistrySection>,
    /// Instance settings.
    pub instance: InstanceSection,
    /// The jobs, in file order.
    pub jobs: Vec<JobDefinition>,
    /// Warnings (for example an IANA time zone a Java instance would reject).
    pub warnings: Vec<String>,
    /// The trace store; `None`: no trace.
    pub trace: Option<TraceConfig>,
}

/// A job file that cannot be used. Displayed on one line:
/// `{file}[:{line}:{column}]: job '{job}': {key}: {message}`, leaving out the parts that are
/// `None`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct JobFileError {
    /// The file.
    pub file: PathBuf,
    /// Line and column (1-based, columns in characters) of a TOML syntax error.
    pub position: Option<(usize, usize)>,
    /// The job's name, when the problem is in a `[[job]]`.
    pub job: Option<String>,
    /// The key (the job file's snake_case name, dotted below a table: `registry.servers`).
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl JobFileError {
    fn new(file: &Path, job: Option<&str>, key: Option<&str>, message: impl Into<String>) -> JobFileError {
        JobFileError {
            file: file.to_path_buf(),
            position: None,
            job: job.map(str::to_string),
            key: key.map(str::to_string),
            message: message.into(),
        }
    }

    fn render(&self) -> String {
        let mut out = self.file.display().to_string();
        if let Some((line, column)) = self.position {
            out.push_str(&format!(":{line}:{column}"));
        }
        let mut part = |s: String| {
            if !out.is_empty() {
                out.push_str(": ");
            }
            out.push_str(&s);
        };
        if let Some(job) = &self.job {
            part(format!("job '{job}'"));
        }
        if let Some(key) = &self.key {
            part(key.clone());
        }
        part(self.message.clone());
        out
    }
}

/// Reads and validates job files; nothing is written anywhere.
///
/// # Errors
/// The first problem found: an unreadable file, a TOML syntax error, an unknown key, an invalid
/// value, a job name defined twice, `[registry]` or `[instance]` tables that differ between
/// files, or no job at all.
pub fn load(paths: &[PathBuf]) -> Result<WorkerFiles, JobFileError> {
    let mut registry: Option<(RegistrySection, &Path)> = None;
    let mut instance: Option<(InstanceSection, &Path)> = None;
    let mut trace: Option<(TraceConfig, &Path)> = None;
    let mut jobs: Vec<JobDefinition> = Vec::new();
    let mut warnings = Vec::new();
    let mut defined_in: HashMap<String, &Path> = HashMap::new();
    for path in paths {
        let text = crate::files::read_regular(path, crate::files::JOB_FILE_LIMIT)
            .map_err(|e| JobFileError::new(path, None, None, format!("cannot read: {e}")))?;
        let contents = parse_file(path, &text)?;
        if let Some(section) = contents.registry {
            match &registry {
                None => registry = Some((section, path)),
                Some((first, first_file)) if *first != section => {
                    return Err(differs(path, "registry", first_file));
                }
                Some(_) => {}
            }
        }
        if let Some(section) = contents.instance {
            match &instance {
                None => instance = Some((section, path)),
                Some((first, first_file)) if *first != section => {
                    return Err(differs(path, "instance", first_file));
                }
                Some(_) => {}
            }
        }
        match (contents.trace, &trace) {
            (Some(section), None) => trace = Some((section, path)),
            (Some(section), Some((first, first_file))) if *first != section => {
                return Err(differs(path, "trace", first_file));
            }
            _ => {}
        }
        for job in contents.jobs {
            let name = job.config.job_name.clone();
            if let Some(other) = defined_in.get(&name) {
                let message = if *other == path.as_path() {
                    "defined more than once in this file".to_string()
                } else {
                    format!("also defined in {}", other.display())
                };
                return Err(JobFileError::new(path, Some(&name), Some("name"), message));
            }
            defined_in.insert(name, path);
            jobs.push(job);
        }
        warnings.extend(contents.warnings);
    }
    if jobs.is_empty() {
        let (file, message) = match paths {
            [] => (PathBuf::new(), "no job file given".to_string()),
            [one] => (one.clone(), "no [[job]] table; a job file defines at least one job".to_string()),
            [first, ..] => {
                let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                (first.clone(), format!("no [[job]] table in any of the files ({})", names.join(", ")))
            }
        };
        return Err(JobFileError::new(&file, None, None, message));
    }
    Ok(WorkerFiles {
        registry: registry.map(|(section, _)| section),
        instance: instance.map(|(section, _)| section).unwrap_or_default(),
        jobs,
        warnings,
        trace: trace.map(|(section, _)| section),
    })
}

/// Parses and validates one job file's text as [`load`] would (the fuzz and property tests'
/// entry point); returns how many jobs it defines.
///
/// # Errors
/// The first problem found, as [`load`] reports it.
pub fn check_text(file: &Path, text: &str) -> Result<usize, JobFileError> {
    parse_file(file, text).map(|contents| contents.jobs.len())
}

fn differs(file: &Path, table: &str, first: &Path) -> JobFileError {
    JobFileError::new(
        file,
        None,
        Some(table),
        format!(
            "differs from the [{table}] table in {}; the files of one run share one [{table}] table",
            first.display()
        ),
    )
}

/// What one file defines.
struct FileContents {
    registry: Option<RegistrySection>,
    instance: Option<InstanceSection>,
    jobs: Vec<JobDefinition>,
    warnings: Vec<String>,
    trace: Option<TraceConfig>,
}

const TOP_KEYS: &[&str] = &["registry", "instance", "trace", "job"];
/// The command-line job types a file can define.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FileJobType {
    Script,
    Http,
    Dataflow,
}

impl FileJobType {
    fn parse(s: &str) -> Option<FileJobType> {
        [("script", FileJobType::Script), ("http", FileJobType::Http), ("dataflow", FileJobType::Dataflow)]
            .into_iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(s))
            .map(|(_, t)| t)
    }

    fn job_type(self) -> JobType {
        match self {
            FileJobType::Script => JobType::Script,
            FileJobType::Http => JobType::Http,
            FileJobType::Dataflow => JobType::Dataflow,
        }
    }

    fn name(self) -> &'static str {
        match self {
            FileJobType::Script => "script",
            FileJobType::Http => "http",
            FileJobType::Dataflow => "dataflow",
        }
    }
}

/// Parses and validates one file's text.
fn parse_file(file: &Path, text: &str) -> Result<FileContents, JobFileError> {
    let doc: Table = text.parse().map_err(|e: toml::de::Error| syntax_error(file, text, &e))?;
    let top = Fields { table: &doc, file, job: None, prefix: "" };
    top.check_keys(TOP_KEYS, &[])?;
    let registry = top.table("registry")?.map(|t| parse_registry(file, t)).transpose()?;
    let instance = top.table("instance")?.map(|t| instance::parse_instance(file, t)).transpose()?;
    let trace = top.table("trace")?.map(|t| trace::parse_trace(file, t)).transpose()?;
    let items: &[Value] = match doc.get("job") {
        None => &[],
        Some(Value::Array(items)) => items,
        Some(Value::Table(_)) => {
            return Err(top.err("job", "write [[job]] (an array of tables), not [job]"));
        }
        Some(other) => {
            return Err(top.err("job", format!("expected [[job]] tables, found {}", describe(other))));
        }
    };
    let mut jobs = Vec::new();
    let mut warnings = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let Value::Table(table) = item else {
            return Err(top.err("job", format!("expected [[job]] tables, found {} in the array", describe(item))));
        };
        jobs.push(parse_job(file, index + 1, table, &mut warnings)?);
    }
    Ok(FileContents { registry, instance, jobs, warnings, trace })
}

/// `{file}:{line}:{column}: {message}` from the toml crate's error.
fn syntax_error(file: &Path, text: &str, e: &toml::de::Error) -> JobFileError {
    let message = e.message().trim().lines().map(str::trim).collect::<Vec<_>>().join("; ");
    let mut err = JobFileError::new(file, None, None, message);
    if let Some(span) = e.span() {
        let start = span.start.min(text.len());
        let before = text.get(..start).unwrap_or(text);
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
        err.position = Some((line, column));
    }
    err
}

fn parse_registry(file: &Path, table: &Table) -> Result<RegistrySection, JobFileError> {
    let f = Fields { table, file, job: None, prefix: "registry." };
    let known: Vec<&str> = REGISTRY_KEYS.iter().map(|k| k.key).collect();
    f.check_keys(&known, &[])?;
    let servers = f.string("servers")?.ok_or_else(|| f.err("servers", "required (the ZooKeeper connect string)"))?;
    parse_connect_string(&servers).map_err(|e| f.err("servers", e.to_string()))?;
    let namespace = f.string("namespace")?.ok_or_else(|| f.err("namespace", "required"))?;
    validate_namespace(&namespace).map_err(|m| f.err("namespace", m))?;
    let digest = f.string("digest")?;
    if let Some(d) = &digest
        && d.split_once(':').is_none_or(|(user, _)| user.is_empty())
    {
        return Err(f.err("digest", "must be 'user:password'"));
    }
    let millis = |key: &str, default: Option<u64>| -> Result<Option<Duration>, JobFileError> {
        Ok(f.int_at_least(key, 1)?.map(|v| v as u64).or(default).map(Duration::from_millis))
    };
    let session_timeout = millis("session_timeout_ms", Some(60_000))?.unwrap_or_default();
    let connection_timeout = millis("connection_timeout_ms", Some(15_000))?.unwrap_or_default();
    let fencing_timeout = f.int_at_least("fencing_timeout_ms", 0)?.map(|v| Duration::from_millis(v as u64));
    if let Some(fencing) = fencing_timeout
        && fencing >= session_timeout
    {
        return Err(f.err(
            "fencing_timeout_ms",
            format!(
                "must be less than session_timeout_ms ({}), got {}",
                session_timeout.as_millis(),
                fencing.as_millis()
            ),
        ));
    }
    let tls = tls::parse_tls(&f, "tls")?;
    let allow_open_acl = f.boolean("allow_open_acl")?.unwrap_or(false);
    Ok(RegistrySection {
        servers,
        namespace,
        digest,
        session_timeout,
        connection_timeout,
        fencing_timeout,
        tls,
        allow_open_acl,
    })
}

fn parse_job(
    file: &Path,
    index: usize,
    table: &Table,
    warnings: &mut Vec<String>,
) -> Result<JobDefinition, JobFileError> {
    let unnamed = Fields { table, file, job: None, prefix: "" };
    let name = unnamed
        .string("name")?
        .ok_or_else(|| unnamed.err("name", format!("missing in [[job]] number {index} of this file")))?;
    let f = Fields { table, file, job: Some(&name), prefix: "" };
    if table.contains_key(EXTRA_CONFIGURATIONS_FILE_KEY) {
        return Err(f.err(
            EXTRA_CONFIGURATIONS_FILE_KEY,
            "cannot be set from a job file (it holds tagged Java objects); set it with a Java application",
        ));
    }
    let known: Vec<&str> = std::iter::once(TYPE_FILE_KEY).chain(FIELDS.iter().map(|field| field.file)).collect();
    let extension_keys: Vec<&str> = EXTENSIONS.iter().map(|e| e.key).collect();
    f.check_keys(&known, &extension_keys)?;

    let kind = match f.string(TYPE_FILE_KEY)? {
        None => FileJobType::Script,
        Some(t) => FileJobType::parse(&t).ok_or_else(|| {
            f.err(TYPE_FILE_KEY, format!("unknown job type '{t}'; expected script, http or dataflow"))
        })?,
    };
    let mut cfg = JobConfig::new(&name, 1);
    let pools: Vec<&str> = FIELDS
        .iter()
        .filter(|field| matches!(field.id, FieldId::ExecutorPool(_)) && table.contains_key(field.file))
        .map(|field| field.file)
        .collect();
    if let [first, second, ..] = pools.as_slice() {
        return Err(f.err(
            second,
            format!("set only one of {first} (ElasticJob 3.0.5 and later) and {second} (3.0.0 to 3.0.4)"),
        ));
    }
    for field in FIELDS {
        let key = field.file;
        let value = match field.kind {
            Kind::Str | Kind::TypeName(_) => f.string(key)?.map(|v| FieldValue::Str(Some(v))),
            Kind::Int => f.int32(key)?.map(FieldValue::Int),
            Kind::Bool => f.boolean(key)?.map(FieldValue::Bool),
            Kind::List => f.string_list(key)?.map(FieldValue::List),
            Kind::Map => f.string_map(key)?.map(FieldValue::Map),
        };
        if let Some(value) = value {
            cfg.set(field.id, value);
        }
    }

    for ext in EXTENSIONS {
        let Some(value) = table.get(ext.key) else { continue };
        if !ext.types.contains(&kind.name()) {
            return Err(f.err_no_key(format!("{} is only for {} jobs", ext.key, ext.types.join(" and "))));
        }
        let text = extension_value(&f, ext, value)?;
        if cfg.props.contains_key(ext.prop) {
            return Err(f.err(ext.key, format!("conflicts with props '{}'; set only one of them", ext.prop)));
        }
        cfg.props.insert(ext.prop.to_string(), text);
    }
    for ext in EXTENSIONS.iter().filter(|e| e.required && e.types.contains(&kind.name())) {
        if cfg.props.get(ext.prop).is_none_or(|v| v.trim().is_empty()) {
            return Err(f.err_no_key(format!("{} jobs need '{}'", kind.name(), ext.key)));
        }
    }

    for warning in validate::check_config(&cfg).map_err(|e| f.err(&toml_key(e.key), e.message))? {
        warnings.push(format!("{}: job '{name}': {} {}", file.display(), toml_key(warning.key), warning.message));
    }
    cfg.canonicalise_type_names();
    let job_type = kind.job_type();
    Executor::from_config(&job_type, &cfg, None).map_err(|m| executor_error(&f, table, &m))?;
    // Published as ElasticJob YAML, read back through the bounded decoder by every worker.
    crate::registry::codec::bounded::check(&cfg.to_yaml())
        .map_err(|reason| f.err_no_key(format!("the configuration as ElasticJob YAML {reason}")))?;
    Ok(JobDefinition { file: file.to_path_buf(), job_type, config: cfg })
}

/// An executor's complaint about a property, told in terms of the job-file key when the file set
/// the property through that key: `props 'script.command.line' has an unterminated " quote` becomes
/// `command: has an unterminated " quote`.
fn executor_error(f: &Fields<'_>, table: &Table, message: &str) -> JobFileError {
    let used = || EXTENSIONS.iter().filter(|ext| table.contains_key(ext.key));
    for ext in used() {
        if let Some(rest) = message.strip_prefix(&format!("props '{}' ", ext.prop)) {
            return f.err(ext.key, rest);
        }
    }
    let mut message = message.to_string();
    for ext in used() {
        message = message.replace(&format!("props '{}'", ext.prop), &format!("'{}'", ext.key));
    }
    f.err_no_key(message)
}

/// Checks an extension's value and renders it as a property string.
fn extension_value(f: &Fields<'_>, ext: &Extension, value: &Value) -> Result<String, JobFileError> {
    let key = ext.key;
    match ext.kind {
        ExtKind::Required | ExtKind::Text => {
            let s = f.string(key)?.unwrap_or_default();
            if matches!(ext.kind, ExtKind::Required) && s.trim().is_empty() {
                return Err(f.err(key, "must not be empty"));
            }
            Ok(s)
        }
        ExtKind::Seconds | ExtKind::Count => Ok(f.int_at_least(key, 1)?.unwrap_or_default().to_string()),
        ExtKind::Millis => {
            let v = f.int_at_least(key, 1)?.unwrap_or_default();
            if v > i64::from(i32::MAX) {
                return Err(f.err(key, format!("must be at most {}, got {v}", i32::MAX)));
            }
            Ok(v.to_string())
        }
        ExtKind::TimeoutMillis => Ok(f.integer(key)?.unwrap_or_default().to_string()),
        ExtKind::Flag => match value {
            Value::Boolean(b) => Ok(b.to_string()),
            other => Err(f.err(key, format!("expected a boolean, found {}", describe(other)))),
        },
    }
}

/// The job-file key of a `JobConfigurationPOJO` YAML key: `shardingTotalCount` →
/// `sharding_total_count`, `jobName` → `name`.
fn toml_key(yaml_key: &str) -> String {
    FIELDS.iter().find(|f| f.yaml == yaml_key).map_or_else(|| camel_to_snake(yaml_key), |f| f.file.to_string())
}

mod fields;
mod instance;
pub use self::instance::{DEFAULT_KILL_GRACE, InstanceSection, kill_grace};
mod tls;
mod trace;

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
