//! Admin operations on a registry namespace, for any Rust program: what `ejctl`'s admin commands
//! do, without a command line, a terminal or an output format.
//!
//! Everything starts from an [`Admin`]: a connected [`Registry`] (chrooted to the namespace) and
//! the namespace's name for messages. Operations return plain data (serialisable views and rows)
//! and fail with an [`OpsError`]: a one-line message, its [`ErrorKind`] (a job that does not
//! exist, a version conflict, an unavailable registry...) and the registry error behind it, if
//! any. The command line maps the kinds onto its exit codes ([`crate::exit`]).
//!
//! * [`read`]: reading jobs — the job names, many jobs at once with two rounds of pipelined
//!   multi-reads ([`Admin::read_jobs`]), one job's whole subtree ([`Admin::read_job`]) — into
//!   [`read::JobData`].
//! * [`report`]: what the admin views show, derived from [`read::JobData`]: job briefs and details,
//!   servers, instances, sharding items, failover state.
//! * [`change`]: every mutation of ElasticJob's `JobOperateAPI` and `ShardingOperateAPI`
//!   (docs/src/design/compatibility.md#admin-operations): job and server disable/enable, shutdown,
//!   remove and purge, item disable/enable. Each is planned from a read into [`change::Change`]s,
//!   which a caller may confirm, then applied in transactions ([`Admin::apply`]).
//! * [`prune`]: the `servers/{ip}` nodes nothing uses any more (no live instance, no item
//!   refers to one on that IP, not disabled), found and deleted with version checks (`server
//!   prune`, a worker's `prune_servers_after`).
//! * [`trigger`]: trigger a job on its live instances, and wait for the results of that fire
//!   (a registry watch, a timeout, progress and cancellation from the caller).
//! * [`config`] and [`assign`]: read a job's stored configuration with its version, `KEY=VALUE`
//!   assignments, validation of a changed configuration, version-checked writes.
//! * [`publish`]: make the registry hold configurations — plan, diff and apply many jobs in one
//!   transaction (`ejctl config apply` / `diff`), or publish one job as a worker does at start-up.
//! * [`why`]: the trace store's runs of a job (`ejctl history`), and why a job or item did not
//!   or will not run (`ejctl why`, decided by [`crate::coord::why`]).
//! * [`text`]: how instants, durations and lists are spelled for people, shared with the
//!   command line.
//!
//! Nothing here prompts, prints or draws progress: confirmations, rendering, progress and Ctrl-C
//! belong to the caller (`ejctl`'s [`crate::cli`]). Validation warnings are returned as data; only
//! anomalies nobody asked about (an undecodable trigger result, a cleanup that failed) are
//! logged with `tracing`.

pub mod assign;
pub mod change;
pub mod config;
pub mod error;
pub mod prune;
pub mod publish;
pub mod read;
pub mod report;
pub mod text;
pub mod trigger;
pub mod why;

pub use self::error::{ErrorKind, OpsError};
use crate::registry::Registry;
use crate::registry::path;

/// A connected admin session: the registry, chrooted to the namespace, and the namespace's name.
#[derive(Clone)]
pub struct Admin {
    registry: Registry,
    namespace: String,
}

impl Admin {
    /// An admin session on `registry`, which is chrooted to `namespace` (the name is only used
    /// in messages; surrounding slashes are dropped).
    pub fn new(registry: Registry, namespace: &str) -> Admin {
        Admin { registry, namespace: namespace.trim_matches('/').to_string() }
    }

    /// The registry.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The namespace's name.
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// `job 'x' not found in namespace 'ns'` (exit 3).
    pub fn job_not_found(&self, job: &str) -> OpsError {
        OpsError::not_found(format!("job '{job}' not found in namespace '{}'", self.namespace))
    }

    /// [`Admin::job_not_found`], with the closest job name of the namespace when there is one
    /// (`(did you mean 'hello'?)`).
    pub async fn missing_job(&self, job: &str) -> OpsError {
        let names = self.job_names().await.unwrap_or_default();
        let hint = text::did_you_mean(job, names.iter().map(String::as_str));
        OpsError::not_found(format!("job '{job}' not found in namespace '{}'{hint}", self.namespace))
    }
}

/// Checks a job name as the registry layout allows it (exit 2 otherwise).
///
/// # Errors
/// A usage error naming the problem.
pub fn check_job_name(name: &str) -> Result<(), OpsError> {
    path::validate_job_name(name).map_err(OpsError::usage)
}

/// Checks a server IP: an IPv4 address (exit 2 otherwise).
///
/// # Errors
/// A usage error naming the value.
pub fn check_ip(ip: &str) -> Result<(), OpsError> {
    if path::is_ipv4(ip) {
        Ok(())
    } else {
        Err(OpsError::usage(format!("invalid server ip '{ip}': expected an IPv4 address such as 10.0.0.5")))
    }
}
