//! Job files: the TOML files `ejctl run` reads (SPEC §4).
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
//!
//! [instance]                        # optional
//! ip = "10.0.0.5"                   # IPv4 address used in the instance id; default: detected
//! dump_port = 9888                  # serve `dump@{job}` on this port; default: none
//! shutdown_timeout_seconds = 30     # graceful stop: wait this long for running items
//! kill_grace_seconds = 5            # SIGTERM to SIGKILL delay
//!
//! [[job]]                           # one or more
//! name = "hello"                    # required: jobName
//! type = "script"                   # script (default) | http | dataflow
//! cron = "0/5 * * * * ?"            # Quartz cron; absent or blank: a one-off job
//! sharding_total_count = 3
//! command = "examples/hello.sh --verbose"
//! ```
//!
//! Every field of ElasticJob's `JobConfigurationPOJO` (reference §1.2) is the snake_case of its
//! YAML key (`jobName` is `name`), except `jobExtraConfigurations`, which holds tagged Java
//! objects and cannot be set from a job file. Fields left out take the defaults of ElasticJob's
//! Java `JobConfiguration.Builder` (`monitor_execution` and `misfire` true,
//! `reconcile_interval_minutes` 10, `max_time_diff_seconds` -1), so what ejctl publishes matches
//! what a Java application with the same settings would. The older key of the executor pool type,
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
//! across the files, and the `[registry]` and `[instance]` tables of the files that have one must
//! be identical (a file without the table uses the one the others give).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

use toml::{Table, Value};

use crate::config::JobConfig;
use crate::config::schema::{
    EXTENSIONS, EXTRA_CONFIGURATIONS_FILE_KEY, ExtKind, Extension, FIELDS, FieldId, INSTANCE_KEYS, Kind, REGISTRY_KEYS,
    TYPE_FILE_KEY, Value as FieldValue, camel_to_snake,
};
use crate::config::validate;
use crate::exec::Executor;
use crate::registry::ZkOptions;
use crate::registry::codec::JobType;
use crate::registry::path::{is_ipv4, validate_namespace};
use crate::registry::zk::parse_connect_string;

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
        options
    }
}

/// The `[instance]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstanceSection {
    /// `ip`: overrides the detected IP of the instance id.
    pub ip: Option<String>,
    /// `dump_port`: serve `dump@{job}` on this TCP port.
    pub dump_port: Option<u16>,
    /// `shutdown_timeout_seconds`: how long a graceful stop waits for running items (default 30).
    pub shutdown_timeout: Duration,
    /// `kill_grace_seconds`: SIGTERM to SIGKILL delay when killing an item (default 5).
    pub kill_grace: Duration,
}

impl Default for InstanceSection {
    fn default() -> InstanceSection {
        InstanceSection {
            ip: None,
            dump_port: None,
            shutdown_timeout: Duration::from_secs(30),
            kill_grace: Duration::from_secs(5),
        }
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
    let mut jobs: Vec<JobDefinition> = Vec::new();
    let mut warnings = Vec::new();
    let mut defined_in: HashMap<String, &Path> = HashMap::new();
    for path in paths {
        let text = std::fs::read_to_string(path)
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
    })
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
}

const TOP_KEYS: &[&str] = &["registry", "instance", "job"];
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
    let instance = top.table("instance")?.map(|t| parse_instance(file, t)).transpose()?;
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
    Ok(FileContents { registry, instance, jobs, warnings })
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
    Ok(RegistrySection { servers, namespace, digest, session_timeout, connection_timeout, fencing_timeout })
}

fn parse_instance(file: &Path, table: &Table) -> Result<InstanceSection, JobFileError> {
    let f = Fields { table, file, job: None, prefix: "instance." };
    let known: Vec<&str> = INSTANCE_KEYS.iter().map(|k| k.key).collect();
    f.check_keys(&known, &[])?;
    let ip = f.string("ip")?;
    if let Some(ip) = &ip
        && !is_ipv4(ip)
    {
        return Err(f.err("ip", format!("'{ip}' is not an IPv4 address")));
    }
    let dump_port = match f.integer("dump_port")? {
        None => None,
        Some(p) => Some(
            u16::try_from(p)
                .ok()
                .filter(|p| *p > 0)
                .ok_or_else(|| f.err("dump_port", format!("must be a port number from 1 to 65535, got {p}")))?,
        ),
    };
    let seconds = |key: &str, default: u64| -> Result<Duration, JobFileError> {
        Ok(Duration::from_secs(f.int_at_least(key, 0)?.map_or(default, |v| v as u64)))
    };
    Ok(InstanceSection {
        ip,
        dump_port,
        shutdown_timeout: seconds("shutdown_timeout_seconds", 30)?,
        kill_grace: seconds("kill_grace_seconds", 5)?,
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
        ExtKind::Seconds => Ok(f.int_at_least(key, 1)?.unwrap_or_default().to_string()),
        ExtKind::Millis => {
            let v = f.int_at_least(key, 1)?.unwrap_or_default();
            if v > i64::from(i32::MAX) {
                return Err(f.err(key, format!("must be at most {}, got {v}", i32::MAX)));
            }
            Ok(v.to_string())
        }
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

/// "a string", "an integer", ... for messages.
fn describe(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "a string",
        Value::Integer(_) => "an integer",
        Value::Float(_) => "a float",
        Value::Boolean(_) => "a boolean",
        Value::Datetime(_) => "a date-time",
        Value::Array(_) => "an array",
        Value::Table(_) => "a table",
    }
}

/// Typed access to a table's values, naming the file, job and key in every error.
struct Fields<'a> {
    table: &'a Table,
    file: &'a Path,
    job: Option<&'a str>,
    /// Prepended to keys in messages: `registry.`.
    prefix: &'static str,
}

impl Fields<'_> {
    fn err(&self, key: &str, message: impl Into<String>) -> JobFileError {
        JobFileError::new(self.file, self.job, Some(&format!("{}{key}", self.prefix)), message)
    }

    fn err_no_key(&self, message: impl Into<String>) -> JobFileError {
        JobFileError::new(self.file, self.job, None, message)
    }

    fn type_err(&self, key: &str, expected: &str, got: &Value) -> JobFileError {
        self.err(key, format!("expected {expected}, found {}", describe(got)))
    }

    /// Rejects keys outside `known` and `also`, suggesting the closest known key.
    fn check_keys(&self, known: &[&str], also: &[&str]) -> Result<(), JobFileError> {
        let all = || known.iter().chain(also).copied();
        let Some(unknown) = self.table.keys().find(|k| !all().any(|known| known == k.as_str())) else {
            return Ok(());
        };
        let snake = camel_to_snake(unknown);
        let suggestion = all().find(|k| *k == snake).or_else(|| {
            all()
                .map(|k| (edit_distance(unknown, k), k))
                .filter(|(d, k)| *d <= 2 && *d * 3 <= k.len().max(unknown.len()))
                .min_by_key(|(d, _)| *d)
                .map(|(_, k)| k)
        });
        let mut message = format!("unknown key '{}{unknown}'", self.prefix);
        if let Some(s) = suggestion {
            message.push_str(&format!(" (did you mean '{}{s}'?)", self.prefix));
        }
        Err(self.err_no_key(message))
    }

    fn table(&self, key: &str) -> Result<Option<&Table>, JobFileError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::Table(t)) => Ok(Some(t)),
            Some(v) => Err(self.type_err(key, "a table", v)),
        }
    }

    fn string(&self, key: &str) -> Result<Option<String>, JobFileError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(self.type_err(key, "a string", v)),
        }
    }

    fn boolean(&self, key: &str) -> Result<Option<bool>, JobFileError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::Boolean(b)) => Ok(Some(*b)),
            Some(v) => Err(self.type_err(key, "a boolean", v)),
        }
    }

    fn integer(&self, key: &str) -> Result<Option<i64>, JobFileError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::Integer(i)) => Ok(Some(*i)),
            Some(v) => Err(self.type_err(key, "an integer", v)),
        }
    }

    /// A Java `int`; the range beyond that is checked by validation.
    fn int32(&self, key: &str) -> Result<Option<i32>, JobFileError> {
        self.integer(key)?
            .map(|v| i32::try_from(v).map_err(|_| self.err(key, format!("{v} is out of range (a 32-bit integer)"))))
            .transpose()
    }

    fn int_at_least(&self, key: &str, min: i64) -> Result<Option<i64>, JobFileError> {
        match self.integer(key)? {
            Some(v) if v < min => Err(self.err(key, format!("must be at least {min}, got {v}"))),
            other => Ok(other),
        }
    }

    fn string_list(&self, key: &str) -> Result<Option<Vec<String>>, JobFileError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(self.type_err(key, "an array of strings", other)),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(v) => Err(self.type_err(key, "an array of strings", v)),
        }
    }

    fn string_map(&self, key: &str) -> Result<Option<BTreeMap<String, String>>, JobFileError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::Table(t)) => t
                .iter()
                .map(|(k, v)| match v {
                    Value::String(s) => Ok((k.clone(), s.clone())),
                    other => Err(self.err(key, format!("'{k}' must be a string, found {}", describe(other)))),
                })
                .collect::<Result<BTreeMap<_, _>, _>>()
                .map(Some),
            Some(v) => Err(self.type_err(key, "a table of strings", v)),
        }
    }
}

/// Levenshtein distance, for "did you mean" suggestions (also used by `ejctl config set`).
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ExecutorPoolKey;

    struct Files {
        dir: tempfile::TempDir,
    }

    impl Files {
        fn new() -> Files {
            Files { dir: tempfile::tempdir().unwrap() }
        }

        fn add(&self, name: &str, text: &str) -> PathBuf {
            let path = self.dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        }

        /// The error message with the temporary directory removed from paths.
        fn err(&self, paths: &[PathBuf]) -> String {
            let e = load(paths).unwrap_err();
            e.to_string().replace(&format!("{}/", self.dir.path().display()), "")
        }
    }

    fn load_text(text: &str) -> Result<WorkerFiles, JobFileError> {
        let files = Files::new();
        load(&[files.add("jobs.toml", text)])
    }

    /// The error for one file `jobs.toml` with this text.
    fn err(text: &str) -> String {
        let files = Files::new();
        let path = files.add("jobs.toml", text);
        files.err(&[path])
    }

    const HELLO: &str = "[[job]]\nname = \"hello\"\ncron = \"0/5 * * * * ?\"\ncommand = \"echo hi\"\n";

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jobfiles").join(name)
    }

    #[test]
    fn full_file_with_every_key() {
        let path = fixture("full.toml");
        let files = load(std::slice::from_ref(&path)).unwrap();
        assert_eq!(
            files.registry,
            Some(RegistrySection {
                servers: "zk1:2181,zk2:2182".into(),
                namespace: "demo/jobs".into(),
                digest: Some("user:secret".into()),
                session_timeout: Duration::from_millis(30_000),
                connection_timeout: Duration::from_millis(5_000),
                fencing_timeout: Some(Duration::from_millis(20_000)),
            })
        );
        assert_eq!(
            files.instance,
            InstanceSection {
                ip: Some("10.0.0.5".into()),
                dump_port: Some(9888),
                shutdown_timeout: Duration::from_secs(60),
                kill_grace: Duration::from_secs(2),
            }
        );
        assert_eq!(files.jobs.len(), 3);
        assert!(files.jobs.iter().all(|j| j.file == path));

        let script = &files.jobs[0];
        assert_eq!(script.job_type, JobType::Script);
        let expected = JobConfig {
            job_name: "full".into(),
            cron: Some("0/5 * * * * ?".into()),
            time_zone: Some("GMT+08:00".into()),
            sharding_total_count: 3,
            sharding_item_parameters: Some("0=Beijing,1=Shanghai,2=Guangzhou".into()),
            job_parameter: Some("param".into()),
            monitor_execution: false,
            failover: true,
            misfire: false,
            max_time_diff_seconds: 60,
            reconcile_interval_minutes: 0,
            job_sharding_strategy_type: Some("ROUND_ROBIN".into()),
            job_executor_pool_type: Some("SINGLE_THREAD".into()),
            executor_pool_key: ExecutorPoolKey::ThreadPoolSizeProvider,
            job_error_handler_type: Some("IGNORE".into()),
            job_listener_types: vec!["listenerA".into(), "listenerB".into()],
            description: Some("Job description".into()),
            props: [
                ("custom.key", "value"),
                ("ejctl.timeout.seconds", "300"),
                ("script.command.line", "examples/hello.sh --verbose"),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
            disabled: true,
            overwrite: true,
            label: Some("blue".into()),
            static_sharding: true,
            preserved: vec![],
        };
        assert_eq!(script.config, expected);
        assert_eq!(
            script.config.to_yaml(),
            "cron: 0/5 * * * * ?\n\
             description: Job description\n\
             disabled: true\n\
             failover: true\n\
             jobErrorHandlerType: IGNORE\n\
             jobExecutorThreadPoolSizeProviderType: SINGLE_THREAD\n\
             jobListenerTypes:\n\
             - listenerA\n\
             - listenerB\n\
             jobName: full\n\
             jobParameter: param\n\
             jobShardingStrategyType: ROUND_ROBIN\n\
             label: blue\n\
             maxTimeDiffSeconds: 60\n\
             misfire: false\n\
             monitorExecution: false\n\
             overwrite: true\n\
             props:\n  \
               custom.key: value\n  \
               ejctl.timeout.seconds: '300'\n  \
               script.command.line: examples/hello.sh --verbose\n\
             reconcileIntervalMinutes: 0\n\
             shardingItemParameters: 0=Beijing,1=Shanghai,2=Guangzhou\n\
             shardingTotalCount: 3\n\
             staticSharding: true\n\
             timeZone: GMT+08:00\n"
        );

        let http = &files.jobs[1];
        assert_eq!(http.job_type, JobType::Http);
        let mut expected = JobConfig::new("web", 1);
        expected.executor_pool_key = ExecutorPoolKey::ServiceHandler;
        expected.job_executor_pool_type = Some("CPU".into());
        expected.props = [
            ("http.uri", "http://127.0.0.1:8080/run"),
            ("http.method", "POST"),
            ("http.data", "a=1"),
            ("http.content.type", "application/x-www-form-urlencoded"),
            ("http.connect.timeout.milliseconds", "3000"),
            ("http.read.timeout.milliseconds", "5000"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(http.config, expected);

        let dataflow = &files.jobs[2];
        assert_eq!(dataflow.job_type, JobType::Dataflow);
        let mut expected = JobConfig::new("flow", 2);
        expected.cron = Some("0 0/1 * * * ?".into());
        expected.props = [
            ("ejctl.dataflow.fetch", "examples/fetch.sh"),
            ("ejctl.dataflow.process", "examples/process.sh"),
            ("ejctl.timeout.seconds", "60"),
            ("streaming.process", "true"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(dataflow.config, expected);
        assert_eq!(files.warnings, Vec::<String>::new());
    }

    #[test]
    fn defaults_are_the_java_builder_defaults() {
        let files = load_text("[[job]]\nname = \"hello\"\ncommand = \"echo hi\"\n").unwrap();
        assert_eq!(files.registry, None);
        assert_eq!(files.instance, InstanceSection::default());
        assert_eq!(files.jobs.len(), 1);
        assert_eq!(files.jobs[0].job_type, JobType::Script);
        let mut expected = JobConfig::new("hello", 1);
        expected.props.insert("script.command.line".into(), "echo hi".into());
        assert_eq!(files.jobs[0].config, expected);
        assert!(expected.monitor_execution && expected.misfire && !expected.failover);
        assert_eq!((expected.max_time_diff_seconds, expected.reconcile_interval_minutes), (-1, 10));
        assert_eq!(
            files.jobs[0].config.to_yaml(),
            "disabled: false\nfailover: false\njobName: hello\nmaxTimeDiffSeconds: -1\nmisfire: true\n\
             monitorExecution: true\noverwrite: false\nprops:\n  script.command.line: echo hi\n\
             reconcileIntervalMinutes: 10\nshardingTotalCount: 1\nstaticSharding: false\n"
        );
    }

    #[test]
    fn registry_and_instance_defaults_and_zk_options() {
        let files =
            load_text(&format!("[registry]\nservers = \"127.0.0.1:2181\"\nnamespace = \"demo\"\n{HELLO}")).unwrap();
        let registry = files.registry.unwrap();
        assert_eq!(
            registry,
            RegistrySection {
                servers: "127.0.0.1:2181".into(),
                namespace: "demo".into(),
                digest: None,
                session_timeout: Duration::from_secs(60),
                connection_timeout: Duration::from_secs(15),
                fencing_timeout: None,
            }
        );
        let options = registry.zk_options();
        assert_eq!(options.servers, "127.0.0.1:2181");
        assert_eq!(options.namespace, "demo");
        assert_eq!(options.digest, None);
        assert_eq!(options.session_timeout, Duration::from_secs(60));
        assert_eq!(options.connection_timeout, Duration::from_secs(15));
        assert_eq!(options.request_timeout, Duration::from_secs(60));
        assert!(options.create_namespace);
    }

    #[test]
    fn iana_time_zone_is_a_warning() {
        let files = load_text(&format!("{HELLO}time_zone = \"Asia/Shanghai\"\n")).unwrap();
        assert_eq!(files.warnings.len(), 1);
        let warning = files.warnings[0].rsplit_once("jobs.toml: ").unwrap().1;
        assert_eq!(
            warning,
            "job 'hello': time_zone 'Asia/Shanghai' is an IANA name; a Java ElasticJob instance in the same \
             cluster would reject it"
        );
        assert_eq!(files.jobs[0].config.time_zone.as_deref(), Some("Asia/Shanghai"));
    }

    #[test]
    fn one_off_job_and_type_names_are_canonicalised() {
        let files = load_text(
            "[[job]]\nname = \"once\"\ncommand = \"true\"\njob_sharding_strategy_type = \"odevity\"\n\
             job_error_handler_type = \"\"\n",
        )
        .unwrap();
        let cfg = &files.jobs[0].config;
        assert_eq!(cfg.cron, None);
        assert_eq!(cfg.job_sharding_strategy_type.as_deref(), Some("ODEVITY"));
        assert_eq!(cfg.job_error_handler_type, None);
    }

    #[test]
    fn props_can_carry_the_required_options() {
        let files = load_text("[[job]]\nname = \"p\"\nprops = { \"script.command.line\" = \"echo hi\" }\n").unwrap();
        assert_eq!(files.jobs[0].config.props["script.command.line"], "echo hi");
    }

    #[test]
    fn toml_syntax_error_has_line_and_column_on_one_line() {
        assert_eq!(
            err("[[job]]\nname = \"x\"\ncron = 0/5\n"),
            "jobs.toml:3:8: string values must be quoted, expected literal string"
        );
        let e = err("[[job]]\nname = \"x\"\nname = \"y\"\n");
        assert!(e.starts_with("jobs.toml:3:1: "), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }

    #[test]
    fn unknown_keys() {
        assert_eq!(err(&format!("foo = 1\n{HELLO}")), "jobs.toml: unknown key 'foo'");
        assert_eq!(err(&format!("[jobs]\n{HELLO}")), "jobs.toml: unknown key 'jobs' (did you mean 'job'?)");
        assert_eq!(
            err(&format!("[registry]\nservers = \"zk:2181\"\nnamespace = \"n\"\nfoo = 1\n{HELLO}")),
            "jobs.toml: unknown key 'registry.foo'"
        );
        assert_eq!(
            err(&format!("[instance]\nip_address = \"10.0.0.1\"\n{HELLO}")),
            "jobs.toml: unknown key 'instance.ip_address'"
        );
        assert_eq!(err(&format!("{HELLO}foo = 1\n")), "jobs.toml: job 'hello': unknown key 'foo'");
        assert_eq!(
            err(&format!("{HELLO}shardingTotalCount = 2\n")),
            "jobs.toml: job 'hello': unknown key 'shardingTotalCount' (did you mean 'sharding_total_count'?)"
        );
        assert_eq!(
            err(&format!("{HELLO}failvoer = true\n")),
            "jobs.toml: job 'hello': unknown key 'failvoer' (did you mean 'failover'?)"
        );
        assert_eq!(
            err(&format!("{HELLO}job_extra_configurations = []\n")),
            "jobs.toml: job 'hello': job_extra_configurations: cannot be set from a job file (it holds tagged \
             Java objects); set it with a Java application"
        );
    }

    #[test]
    fn missing_name() {
        assert_eq!(
            err(&format!("{HELLO}[[job]]\ncommand = \"x\"\n")),
            "jobs.toml: name: missing in [[job]] number 2 of this file"
        );
        assert_eq!(err("[[job]]\nname = 3\n"), "jobs.toml: name: expected a string, found an integer");
        assert_eq!(
            err("[[job]]\nname = \"a/b\"\ncommand = \"x\"\n"),
            "jobs.toml: job 'a/b': name: job name 'a/b' must not contain '/'"
        );
    }

    #[test]
    fn bad_cron() {
        assert_eq!(
            err("[[job]]\nname = \"hello\"\ncron = \"0 0 12 * * *\"\ncommand = \"x\"\n"),
            "jobs.toml: job 'hello': cron: invalid cron expression '0 0 12 * * *': exactly one of day-of-month \
             and day-of-week must be '?'"
        );
    }

    #[test]
    fn bad_time_zone() {
        let e = err(&format!("{HELLO}time_zone = \"Mars/Olympus\"\n"));
        assert_eq!(
            e,
            "jobs.toml: job 'hello': time_zone: invalid time zone 'Mars/Olympus': not a GMT offset (GMT+8, \
             GMT+08:00, GMT-0530) nor an IANA time zone name (Asia/Shanghai, UTC)"
        );
    }

    #[test]
    fn unknown_strategy() {
        assert_eq!(
            err(&format!("{HELLO}job_sharding_strategy_type = \"FANCY\"\n")),
            "jobs.toml: job 'hello': job_sharding_strategy_type: Cannot find sharding strategy using type 'FANCY'. \
             Valid types: AVG_ALLOCATION, ODEVITY, ROUND_ROBIN, SINGLE_SHARDING_BALANCE"
        );
    }

    #[test]
    fn other_type_names() {
        assert_eq!(
            err(&format!("{HELLO}job_executor_thread_pool_size_provider_type = \"HUGE\"\n")),
            "jobs.toml: job 'hello': job_executor_thread_pool_size_provider_type: unknown type 'HUGE'; valid \
             types: CPU, SINGLE_THREAD"
        );
        assert_eq!(
            err(&format!("{HELLO}job_error_handler_type = \"SLACK\"\n")),
            "jobs.toml: job 'hello': job_error_handler_type: unknown type 'SLACK'; valid types: LOG, IGNORE, \
             THROW, EMAIL, WECHAT, DINGTALK"
        );
        assert_eq!(
            err(&format!(
                "{HELLO}job_executor_thread_pool_size_provider_type = \"CPU\"\n\
                 job_executor_service_handler_type = \"CPU\"\n"
            )),
            "jobs.toml: job 'hello': job_executor_service_handler_type: set only one of \
             job_executor_thread_pool_size_provider_type (ElasticJob 3.0.5 and later) and \
             job_executor_service_handler_type (3.0.0 to 3.0.4)"
        );
    }

    #[test]
    fn bad_sharding_item_parameters() {
        assert_eq!(
            err(&format!("{HELLO}sharding_item_parameters = \"0=A,,1=B\"\n")),
            "jobs.toml: job 'hello': sharding_item_parameters: Sharding item parameters '0=A,,1=B' format error, \
             should be int=xx,int=xx"
        );
        assert_eq!(
            err(&format!("{HELLO}sharding_item_parameters = \"xxx=xxx\"\n")),
            "jobs.toml: job 'hello': sharding_item_parameters: Sharding item parameters key 'xxx' is not an \
             integer."
        );
    }

    #[test]
    fn bad_counts_and_numbers() {
        assert_eq!(
            err(&format!("{HELLO}sharding_total_count = 0\n")),
            "jobs.toml: job 'hello': sharding_total_count: must be at least 1, got 0"
        );
        assert_eq!(
            err(&format!("{HELLO}sharding_total_count = 1000000\n")),
            "jobs.toml: job 'hello': sharding_total_count: must be at most 100000, got 1000000"
        );
        assert_eq!(
            err(&format!("{HELLO}sharding_total_count = 99999999999\n")),
            "jobs.toml: job 'hello': sharding_total_count: 99999999999 is out of range (a 32-bit integer)"
        );
        assert_eq!(
            err(&format!("{HELLO}sharding_total_count = \"3\"\n")),
            "jobs.toml: job 'hello': sharding_total_count: expected an integer, found a string"
        );
        assert_eq!(
            err(&format!("{HELLO}max_time_diff_seconds = -5\n")),
            "jobs.toml: job 'hello': max_time_diff_seconds: must be -1 (no check) or at least 0, got -5"
        );
        assert_eq!(
            err(&format!("{HELLO}reconcile_interval_minutes = -1\n")),
            "jobs.toml: job 'hello': reconcile_interval_minutes: must be 0 (disabled) or more, got -1"
        );
        assert_eq!(
            err(&format!("{HELLO}timeout_seconds = 0\n")),
            "jobs.toml: job 'hello': timeout_seconds: must be at least 1, got 0"
        );
        assert_eq!(
            err(&format!("{HELLO}failover = \"yes\"\n")),
            "jobs.toml: job 'hello': failover: expected a boolean, found a string"
        );
        assert_eq!(
            err(&format!("{HELLO}props = {{ a = 1 }}\n")),
            "jobs.toml: job 'hello': props: 'a' must be a string, found an integer"
        );
        assert_eq!(
            err(&format!("{HELLO}job_listener_types = [1]\n")),
            "jobs.toml: job 'hello': job_listener_types: expected an array of strings, found an integer"
        );
    }

    #[test]
    fn job_type() {
        assert_eq!(
            err("[[job]]\nname = \"j\"\ntype = \"simple\"\n"),
            "jobs.toml: job 'j': type: unknown job type 'simple'; expected script, http or dataflow"
        );
        assert_eq!(err("[job]\nname = \"j\"\n"), "jobs.toml: job: write [[job]] (an array of tables), not [job]");
    }

    #[test]
    fn missing_required_options() {
        assert_eq!(err("[[job]]\nname = \"hello\"\n"), "jobs.toml: job 'hello': script jobs need 'command'");
        assert_eq!(
            err("[[job]]\nname = \"hello\"\ncommand = \" \"\n"),
            "jobs.toml: job 'hello': command: must not be empty"
        );
        assert_eq!(err("[[job]]\nname = \"w\"\ntype = \"http\"\n"), "jobs.toml: job 'w': http jobs need 'http_uri'");
        assert_eq!(
            err("[[job]]\nname = \"w\"\ntype = \"http\"\nhttp_uri = \"http://x/\"\n"),
            "jobs.toml: job 'w': http jobs need 'http_method'"
        );
        assert_eq!(
            err("[[job]]\nname = \"f\"\ntype = \"dataflow\"\nfetch = \"a\"\n"),
            "jobs.toml: job 'f': dataflow jobs need 'process'"
        );
    }

    #[test]
    fn option_on_the_wrong_job_type() {
        assert_eq!(
            err("[[job]]\nname = \"w\"\ntype = \"http\"\nhttp_uri = \"http://x/\"\ncommand = \"echo\"\n"),
            "jobs.toml: job 'w': command is only for script jobs"
        );
        assert_eq!(
            err("[[job]]\nname = \"w\"\ntype = \"http\"\nhttp_uri = \"http://x/\"\ntimeout_seconds = 5\n"),
            "jobs.toml: job 'w': timeout_seconds is only for script and dataflow jobs"
        );
        assert_eq!(
            err(&format!("{HELLO}http_method = \"GET\"\n")),
            "jobs.toml: job 'hello': http_method is only for http jobs"
        );
        assert_eq!(err(&format!("{HELLO}fetch = \"x\"\n")), "jobs.toml: job 'hello': fetch is only for dataflow jobs");
    }

    #[test]
    fn option_and_prop_conflict() {
        assert_eq!(
            err(&format!("{HELLO}props = {{ \"script.command.line\" = \"other\" }}\n")),
            "jobs.toml: job 'hello': command: conflicts with props 'script.command.line'; set only one of them"
        );
    }

    #[test]
    fn bad_registry() {
        let registry = |body: &str| err(&format!("[registry]\n{body}\n{HELLO}"));
        assert_eq!(
            registry("servers = \"zk:2181/chroot\"\nnamespace = \"n\""),
            "jobs.toml: registry.servers: invalid connect string 'zk:2181/chroot': it has a path '/chroot'; the \
             namespace is set separately"
        );
        assert_eq!(
            registry("servers = \"zk:99999\"\nnamespace = \"n\""),
            "jobs.toml: registry.servers: invalid connect string 'zk:99999': '99999' is not a port number"
        );
        assert_eq!(
            registry("namespace = \"n\""),
            "jobs.toml: registry.servers: required (the ZooKeeper connect string)"
        );
        assert_eq!(registry("servers = \"zk\""), "jobs.toml: registry.namespace: required");
        assert_eq!(
            registry("servers = \"zk\"\nnamespace = \"/n\""),
            "jobs.toml: registry.namespace: namespace '/n' must not start or end with '/' or contain an empty segment"
        );
        assert_eq!(
            registry("servers = \"zk\"\nnamespace = \"n\"\ndigest = \"userpassword\""),
            "jobs.toml: registry.digest: must be 'user:password'"
        );
        assert_eq!(
            registry("servers = \"zk\"\nnamespace = \"n\"\nfencing_timeout_ms = 60000"),
            "jobs.toml: registry.fencing_timeout_ms: must be less than session_timeout_ms (60000), got 60000"
        );
        assert_eq!(
            registry("servers = \"zk\"\nnamespace = \"n\"\nsession_timeout_ms = 0"),
            "jobs.toml: registry.session_timeout_ms: must be at least 1, got 0"
        );
        assert_eq!(
            err(&format!("registry = \"zk\"\n{HELLO}")),
            "jobs.toml: registry: expected a table, found a string"
        );
    }

    #[test]
    fn bad_instance() {
        assert_eq!(
            err(&format!("[instance]\nip = \"10.0.0.256\"\n{HELLO}")),
            "jobs.toml: instance.ip: '10.0.0.256' is not an IPv4 address"
        );
        assert_eq!(
            err(&format!("[instance]\ndump_port = 0\n{HELLO}")),
            "jobs.toml: instance.dump_port: must be a port number from 1 to 65535, got 0"
        );
        assert_eq!(
            err(&format!("[instance]\nkill_grace_seconds = -1\n{HELLO}")),
            "jobs.toml: instance.kill_grace_seconds: must be at least 0, got -1"
        );
    }

    #[test]
    fn several_files() {
        let files = Files::new();
        let registry = "[registry]\nservers = \"zk:2181\"\nnamespace = \"n\"\n";
        let a = files.add("a.toml", &format!("{registry}[instance]\ndump_port = 9888\n{HELLO}"));
        let b = files.add("b.toml", "[[job]]\nname = \"other\"\ncommand = \"x\"\n");
        let c = files.add(
            "c.toml",
            &format!("{registry}session_timeout_ms = 60000\n[[job]]\nname = \"third\"\ncommand = \"x\"\n"),
        );
        let loaded = load(&[a.clone(), b.clone(), c.clone()]).unwrap();
        let names: Vec<&str> = loaded.jobs.iter().map(|j| j.config.job_name.as_str()).collect();
        assert_eq!(names, ["hello", "other", "third"]);
        assert_eq!(loaded.jobs[1].file, b);
        assert_eq!(loaded.registry.unwrap().namespace, "n");
        assert_eq!(loaded.instance.dump_port, Some(9888));
    }

    #[test]
    fn duplicate_names_across_files() {
        let files = Files::new();
        let a = files.add("a.toml", HELLO);
        let b = files.add("b.toml", HELLO);
        assert_eq!(files.err(&[a, b]), "b.toml: job 'hello': name: also defined in a.toml");
        assert_eq!(
            err(&format!("{HELLO}{HELLO}")),
            "jobs.toml: job 'hello': name: defined more than once in this file"
        );
    }

    #[test]
    fn conflicting_tables_across_files() {
        let files = Files::new();
        let a = files.add("a.toml", &format!("[registry]\nservers = \"zk:2181\"\nnamespace = \"a\"\n{HELLO}"));
        let b = files.add("b.toml", "[registry]\nservers = \"zk:2181\"\nnamespace = \"b\"\n");
        assert_eq!(
            files.err(&[a.clone(), b]),
            "b.toml: registry: differs from the [registry] table in a.toml; the files of one run share one \
             [registry] table"
        );
        let c = files.add("c.toml", "[instance]\ndump_port = 1\n");
        let d = files.add("d.toml", &format!("[instance]\ndump_port = 2\n{HELLO}"));
        assert_eq!(
            files.err(&[c, d]),
            "d.toml: instance: differs from the [instance] table in c.toml; the files of one run share one \
             [instance] table"
        );
    }

    #[test]
    fn no_jobs() {
        assert_eq!(err(""), "jobs.toml: no [[job]] table; a job file defines at least one job");
        let files = Files::new();
        let a = files.add("a.toml", "");
        let b = files.add("b.toml", "[instance]\n");
        let e = files.err(&[a, b]);
        assert!(e.starts_with("a.toml: no [[job]] table in any of the files ("), "{e}");
        assert_eq!(load(&[]).unwrap_err().to_string(), "no job file given");
    }

    #[test]
    fn unreadable_file() {
        let files = Files::new();
        let missing = files.dir.path().join("missing.toml");
        let e = files.err(&[missing]);
        assert!(e.starts_with("missing.toml: cannot read: "), "{e}");
        assert!(!e.contains('\n'));
    }

    #[test]
    fn nothing_is_returned_when_a_later_file_is_bad() {
        let files = Files::new();
        let good = files.add("good.toml", HELLO);
        let bad = files.add("bad.toml", "[[job]]\nname = \"x\"\ncommand = \"x\"\ncron = \"nope\"\n");
        let e = files.err(&[good, bad]);
        assert!(e.starts_with("bad.toml: job 'x': cron: invalid cron expression 'nope'"), "{e}");
    }

    #[test]
    fn executor_messages_name_the_job_file_key() {
        let files = Files::new();
        let path = files.add("jobs.toml", "");
        let table: Table = "command = \"x\"\nprops = { \"http.uri\" = \"u\" }".parse().unwrap();
        let f = Fields { table: &table, file: &path, job: Some("j"), prefix: "" };
        let e = |m: &str| executor_error(&f, &table, m).to_string().replace(&format!("{}: ", path.display()), "");
        assert_eq!(
            e("props 'script.command.line' has an unterminated \" quote: a\"b"),
            "job 'j': command: has an unterminated \" quote: a\"b"
        );
        assert_eq!(e("a script job needs props 'script.command.line'"), "job 'j': a script job needs 'command'");
        assert_eq!(e("props 'http.uri' is bad"), "job 'j': props 'http.uri' is bad");
    }

    #[test]
    fn helpers() {
        assert_eq!(toml_key("jobName"), "name");
        assert_eq!(toml_key("jobExecutorThreadPoolSizeProviderType"), "job_executor_thread_pool_size_provider_type");
        assert_eq!(edit_distance("failvoer", "failover"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
