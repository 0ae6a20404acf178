//! How one sharding item is executed.
//!
//! * [`context`]: the [`context::ShardingContext`] every execution receives (Gson JSON for
//!   scripts and HTTP, a struct for in-process jobs) and the task id.
//! * [`process`]: starting supervised child processes (own process group, killed with the worker).
//! * [`script`], [`http`], [`dataflow`]: the executors for command-line job types, configured
//!   from the job's `props` as ElasticJob stores them.
//! * [`inproc`]: traits for jobs implemented in Rust and registered with the runtime.
//!
//! [`Executor`] is built from the job type and the configuration in the registry each time the
//! configuration changes, so an admin's change of command or URI takes effect at the next fire.
//! [`Executor::run`] never returns an error: a failed item is an [`ItemOutcome`] with
//! `success = false` and a message.

pub mod context;
pub mod dataflow;
pub mod http;
pub mod inproc;
mod output;
pub mod process;
pub mod script;
mod spawn;

use crate::config::schema::prop;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use self::context::ShardingContext;
use crate::config::JobConfig;
use crate::registry::codec::{JobType, RunOutcome};

/// The result of one item's execution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemOutcome {
    /// True when the item succeeded.
    pub success: bool,
    /// A process's exit code, or 128 + signal number when a signal ended it.
    pub exit_code: Option<i32>,
    /// The signal that ended the process, if one did.
    pub signal: Option<i32>,
    /// Why the item failed (or a short note on success).
    pub message: Option<String>,
    /// True when the run was stopped by the worker (a timeout, a kill, fencing).
    pub killed: bool,
    /// The last lines the run's processes logged (stdout and stderr), newline-terminated.
    pub output_tail: String,
    /// The last lines of their stderr, newline-terminated.
    pub stderr_tail: String,
}

impl ItemOutcome {
    /// A success.
    pub fn ok() -> ItemOutcome {
        ItemOutcome {
            success: true,
            exit_code: None,
            signal: None,
            message: None,
            killed: false,
            output_tail: String::new(),
            stderr_tail: String::new(),
        }
    }

    /// A failure with a message.
    pub fn failed(message: impl Into<String>) -> ItemOutcome {
        ItemOutcome { success: false, message: Some(message.into()), ..ItemOutcome::ok() }
    }

    /// How it ended, as the item's recorded result and the trace spell it.
    pub fn run_outcome(&self) -> RunOutcome {
        if self.success {
            RunOutcome::Ok
        } else if self.killed {
            RunOutcome::Killed
        } else {
            RunOutcome::Failed
        }
    }

    /// Why it failed, for one line: the message and the last stderr line
    /// (`exit code 1: cannot connect`); `None` on success.
    pub fn reason(&self) -> Option<String> {
        if self.success {
            return None;
        }
        let last = self.stderr_tail.lines().rev().map(str::trim).find(|l| !l.is_empty());
        match (self.message.as_deref(), last) {
            (Some(m), Some(l)) if !m.contains(l) => Some(format!("{m}: {l}")),
            (Some(m), _) => Some(m.to_string()),
            (None, Some(l)) => Some(l.to_string()),
            (None, None) => None,
        }
    }
}

/// What a running execution listens to.
#[derive(Clone)]
pub struct RunControl {
    /// Cancelled when the run must stop now: the worker kills the item (SIGTERM, then SIGKILL
    /// of its process group after [`RunControl::kill_grace`]).
    pub kill: CancellationToken,
    /// Becomes true when a streaming dataflow job should stop after its current batch (resharding
    /// is needed, or the worker is shutting down).
    pub stop: watch::Receiver<bool>,
    /// How long a process may take to exit after SIGTERM before SIGKILL.
    pub kill_grace: Duration,
    /// The instant of the fire this run covers (a cron instant, or when a trigger arrived);
    /// scripts get it as `EJCTL_FIRE_TIME` in milliseconds since the epoch.
    pub fire_time: Option<chrono::DateTime<chrono::Utc>>,
    /// Why the run was started: `cron`, `trigger`, `misfire` or `failover` (`trigger` for a run
    /// started by hand).
    pub source: &'static str,
    /// When the worker started the run, on its clock: it covers the fires up to this instant.
    pub started_at: Option<chrono::DateTime<chrono::Utc>>,
}

impl RunControl {
    /// A control that never asks the run to stop (tests, one-off runs).
    pub fn detached() -> RunControl {
        let (_tx, stop) = watch::channel(false);
        RunControl {
            kill: CancellationToken::new(),
            stop,
            kill_grace: Duration::from_secs(5),
            fire_time: None,
            source: "trigger",
            started_at: None,
        }
    }
}

/// A configured executor for one job.
#[derive(Clone)]
pub enum Executor {
    /// A script job.
    Script(script::ScriptSpec),
    /// An HTTP job (boxed, as the dataflow job: every job keeps its executor, and a script
    /// job's would otherwise take the room of the largest kind).
    Http(Box<http::HttpSpec>),
    /// A command-line dataflow job.
    Dataflow(Box<dataflow::DataflowSpec>),
    /// A job implemented in Rust, and its `streaming.process` setting.
    InProcess(Arc<dyn inproc::ErasedJob>, bool),
}

impl fmt::Debug for Executor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Executor::Script(s) => f.debug_tuple("Script").field(s).finish(),
            Executor::Http(s) => f.debug_tuple("Http").field(s).finish(),
            Executor::Dataflow(s) => f.debug_tuple("Dataflow").field(s).finish(),
            Executor::InProcess(_, streaming) => f.debug_struct("InProcess").field("streaming", streaming).finish(),
        }
    }
}

impl Executor {
    /// Builds the executor for a job type from the job's configuration (its `props`).
    /// `in_process` is the implementation for [`JobType::InProcess`] jobs.
    ///
    /// # Errors
    /// A message naming the missing or invalid property.
    pub fn from_config(
        job_type: &JobType,
        config: &JobConfig,
        in_process: Option<Arc<dyn inproc::ErasedJob>>,
    ) -> Result<Executor, String> {
        match job_type {
            JobType::Script => script::ScriptSpec::from_props(&config.props).map(Executor::Script),
            JobType::Http => http::HttpSpec::from_props(&config.props).map(|s| Executor::Http(Box::new(s))),
            JobType::Dataflow => {
                dataflow::DataflowSpec::from_props(&config.props).map(|s| Executor::Dataflow(Box::new(s)))
            }
            JobType::InProcess(name) => in_process
                .map(|job| {
                    Executor::InProcess(job, config.props.get(prop::STREAMING_PROCESS).is_some_and(|v| v == "true"))
                })
                .ok_or_else(|| format!("no in-process implementation is registered for job type '{name}'")),
        }
    }

    /// Runs one item. Never fails: failures are outcomes.
    pub async fn run(&self, ctx: &ShardingContext, control: RunControl) -> ItemOutcome {
        match self {
            Executor::Script(spec) => script::run(spec, ctx, control).await,
            Executor::Http(spec) => http::run(spec, ctx, control).await,
            Executor::Dataflow(spec) => dataflow::run(spec, ctx, control).await,
            Executor::InProcess(job, streaming) => inproc::run(job.as_ref(), ctx, control, *streaming).await,
        }
    }
}
