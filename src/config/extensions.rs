//! ejctl's own job-file options, stored in a job's `props` where Java instances keep and ignore
//! them: their property names ([`prop`]), their job-file keys, what each applies to, how it is
//! checked, and which are pinned to the job file ([`crate::coord::pin`]). Part of the one schema:
//! [`super::schema`] re-exports them beside ElasticJob's fields.

/// ejctl's own executor properties, stored in `props` where Java instances keep and ignore them.
pub mod prop {
    /// The script job's command line (ElasticJob's `script.command.line`).
    pub const SCRIPT_COMMAND_LINE: &str = "script.command.line";
    /// Per-run timeout of script and dataflow jobs, in seconds.
    pub const TIMEOUT_SECONDS: &str = "ejctl.timeout.seconds";
    /// The HTTP job's URI.
    pub const HTTP_URI: &str = "http.uri";
    /// The HTTP job's method.
    pub const HTTP_METHOD: &str = "http.method";
    /// The HTTP job's request body.
    pub const HTTP_DATA: &str = "http.data";
    /// The HTTP job's content type.
    pub const HTTP_CONTENT_TYPE: &str = "http.content.type";
    /// The HTTP job's connect timeout.
    pub const HTTP_CONNECT_TIMEOUT: &str = "http.connect.timeout.milliseconds";
    /// The HTTP job's read timeout.
    pub const HTTP_READ_TIMEOUT: &str = "http.read.timeout.milliseconds";
    /// The dataflow job's fetch command.
    pub const DATAFLOW_FETCH: &str = "ejctl.dataflow.fetch";
    /// The dataflow job's process command.
    pub const DATAFLOW_PROCESS: &str = "ejctl.dataflow.process";
    /// Whether a dataflow job repeats fetch/process (ElasticJob's `streaming.process`).
    pub const STREAMING_PROCESS: &str = "streaming.process";
    /// Whether the worker runs command values from the registry that differ from its job file's
    /// (read from the job file only; see [`crate::coord::pin`]).
    pub const ALLOW_REGISTRY_COMMANDS: &str = "ejctl.allow.registry.commands";
    /// Whether the worker notifies the error handler the registry names when it differs from
    /// its job file's (read from the job file only; see [`crate::coord::pin`]).
    pub const ALLOW_REGISTRY_ERROR_HANDLER: &str = "ejctl.allow.registry.error.handler";
    /// Whether the `EMAIL` handler may send without TLS (the job file's value only).
    pub const EMAIL_PLAINTEXT: &str = "ejctl.email.plaintext";
    /// How many items of the job run at once on one instance, at most.
    pub const MAX_CONCURRENT_ITEMS: &str = "ejctl.max.concurrent.items";
    /// The command run before a fire's items on each instance.
    pub const LISTENER_BEFORE: &str = "ejctl.listener.before";
    /// The command run after a fire's items on each instance.
    pub const LISTENER_AFTER: &str = "ejctl.listener.after";
    /// The command run once per fire across all instances, before its items.
    pub const LISTENER_BEFORE_ONCE: &str = "ejctl.listener.before.once";
    /// The command run once per fire across all instances, after its items.
    pub const LISTENER_AFTER_ONCE: &str = "ejctl.listener.after.once";
    /// How long a fire's items wait for every instance to start it (ElasticJob's
    /// `started-timeout-milliseconds`).
    pub const STARTED_TIMEOUT: &str = "ejctl.listener.started.timeout.milliseconds";
    /// How long instances wait for every item of a fire to end (ElasticJob's
    /// `completed-timeout-milliseconds`).
    pub const COMPLETED_TIMEOUT: &str = "ejctl.listener.completed.timeout.milliseconds";
}

/// The job-file keys of the switches that let a registry's pinned values through
/// ([`crate::coord::pin`]).
pub mod switch_key {
    /// The registry's commands.
    pub const COMMANDS: &str = "allow_registry_commands";
    /// The registry's error handler type and destination.
    pub const ERROR_HANDLER: &str = "allow_registry_error_handler";
}

/// The job-file keys of the listener commands; they also name the listener phases
/// (`EJCTL_LISTENER`, the `phase` label of `ejctl_listener_failures_total`).
pub mod listener_key {
    /// Per instance, before a fire's items.
    pub const BEFORE: &str = "before";
    /// Per instance, after a fire's items.
    pub const AFTER: &str = "after";
    /// Once per fire across all instances, before its items.
    pub const BEFORE_ONCE: &str = "before_once";
    /// Once per fire across all instances, after its items.
    pub const AFTER_ONCE: &str = "after_once";
}

/// How an extension's value is checked and turned into a property string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtKind {
    /// A non-blank string.
    Required,
    /// Any string.
    Text,
    /// A whole number of seconds, at least 1.
    Seconds,
    /// A count, at least 1.
    Count,
    /// Milliseconds as a Java `int` (ElasticJob parses it with `Integer.parseInt`), at least 1.
    Millis,
    /// A boolean, stored as `true` / `false`.
    Flag,
    /// Milliseconds as a Java `long`, any value: ≤ 0 means no timeout (ElasticJob's listener
    /// timeouts).
    TimeoutMillis,
}

/// A job-file option ElasticJob has no field for, stored in `props`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extension {
    /// The job-file key.
    pub key: &'static str,
    /// The property it is stored under.
    pub prop: &'static str,
    /// The job types (job-file `type` names) it applies to.
    pub types: &'static [&'static str],
    /// Its value.
    pub kind: ExtKind,
    /// Required for these job types.
    pub required: bool,
    /// The default, for the README.
    pub default: &'static str,
    /// A command property: workers run their job file's value, not the registry's
    /// ([`crate::coord::pin`]).
    pub pinned: bool,
}

const SCRIPT: &[&str] = &["script"];
const HTTP: &[&str] = &["http"];
const DATAFLOW: &[&str] = &["dataflow"];
const SCRIPT_DATAFLOW: &[&str] = &["script", "dataflow"];
const COMMAND_TYPES: &[&str] = &["script", "http", "dataflow"];

const fn ext(
    key: &'static str,
    prop: &'static str,
    types: &'static [&'static str],
    kind: ExtKind,
    default: &'static str,
) -> Extension {
    Extension { key, prop, types, kind, required: false, default, pinned: false }
}

const fn required(mut e: Extension) -> Extension {
    e.required = true;
    e
}

const fn pinned(mut e: Extension) -> Extension {
    e.pinned = true;
    e
}

/// The job-file options stored in `props`.
pub const EXTENSIONS: &[Extension] = &[
    pinned(required(ext("command", prop::SCRIPT_COMMAND_LINE, SCRIPT, ExtKind::Required, "required for script jobs"))),
    ext("timeout_seconds", prop::TIMEOUT_SECONDS, SCRIPT_DATAFLOW, ExtKind::Seconds, "none (no timeout)"),
    pinned(required(ext("http_uri", prop::HTTP_URI, HTTP, ExtKind::Required, "required for http jobs"))),
    pinned(required(ext("http_method", prop::HTTP_METHOD, HTTP, ExtKind::Required, "required for http jobs"))),
    pinned(ext("http_data", prop::HTTP_DATA, HTTP, ExtKind::Text, "none")),
    ext("http_content_type", prop::HTTP_CONTENT_TYPE, HTTP, ExtKind::Required, "none"),
    ext("http_connect_timeout_ms", prop::HTTP_CONNECT_TIMEOUT, HTTP, ExtKind::Millis, "3000 ms"),
    ext("http_read_timeout_ms", prop::HTTP_READ_TIMEOUT, HTTP, ExtKind::Millis, "5000 ms"),
    pinned(required(ext("fetch", prop::DATAFLOW_FETCH, DATAFLOW, ExtKind::Required, "required for dataflow jobs"))),
    pinned(required(ext("process", prop::DATAFLOW_PROCESS, DATAFLOW, ExtKind::Required, "required for dataflow jobs"))),
    ext("streaming_process", prop::STREAMING_PROCESS, DATAFLOW, ExtKind::Flag, "none (`false`)"),
    ext(
        switch_key::COMMANDS,
        prop::ALLOW_REGISTRY_COMMANDS,
        COMMAND_TYPES,
        ExtKind::Flag,
        "`false`: workers run only the pinned values of their own job file (read from the job file, never the registry)",
    ),
    ext(
        switch_key::ERROR_HANDLER,
        prop::ALLOW_REGISTRY_ERROR_HANDLER,
        COMMAND_TYPES,
        ExtKind::Flag,
        "`false`: workers notify only the error handler type and destination of their own job file (read from the job file, never the registry)",
    ),
    ext("max_concurrent_items", prop::MAX_CONCURRENT_ITEMS, COMMAND_TYPES, ExtKind::Count, "pool type's bound"),
    pinned(ext(listener_key::BEFORE, prop::LISTENER_BEFORE, COMMAND_TYPES, ExtKind::Required, "none")),
    pinned(ext(listener_key::AFTER, prop::LISTENER_AFTER, COMMAND_TYPES, ExtKind::Required, "none")),
    pinned(ext(listener_key::BEFORE_ONCE, prop::LISTENER_BEFORE_ONCE, COMMAND_TYPES, ExtKind::Required, "none")),
    pinned(ext(listener_key::AFTER_ONCE, prop::LISTENER_AFTER_ONCE, COMMAND_TYPES, ExtKind::Required, "none")),
    ext("started_timeout_ms", prop::STARTED_TIMEOUT, COMMAND_TYPES, ExtKind::TimeoutMillis, "`60000` (≤ 0: none)"),
    ext("completed_timeout_ms", prop::COMPLETED_TIMEOUT, COMMAND_TYPES, ExtKind::TimeoutMillis, "none (≤ 0: none)"),
];
