//! Job listeners: code or commands run once per fire per instance, before its items start and
//! after they all ended, as ElasticJob's `ElasticJobListener` (`beforeJobExecuted`,
//! `afterJobExecuted`, `order()`).
//!
//! A library job adds [`JobListener`]s with [`crate::runtime::JobDefinition::with_listener`]; a
//! job file's `before` / `after` commands are one more listener ([`CommandListener`]), ordered
//! last. Listeners run in ascending [`JobListener::order`] (ties keep their order of addition);
//! the first that fails ends its phase, and the failure is logged and counted. Items wait for the
//! `before` phase (as ElasticJob runs it first) but run even when it failed, as ElasticJob's
//! executor does.
//!
//! Differences from ElasticJob, deliberate: an instance with no items in a fire runs no
//! listener (ElasticJob calls them anyway, with empty contexts); a failed-over run is a fire of
//! its own here too (ElasticJob triggers a new fire for it), so it has its own phases.
//!
//! A [`DistributeOnceListener`] (ElasticJob's `AbstractDistributeOnceElasticJobListener`) runs
//! once per fire across all instances instead: `before_once` on one instance once every item of
//! the fire started, before any of them runs; `after_once` on one instance once every item
//! ended. The job file's `before_once` / `after_once` commands are one more, ordered last. How
//! the instances agree is [`crate::coord::once`]'s; which fires take part and the timeouts are
//! the README's ("Listeners").

use std::collections::BTreeMap;

use futures::future::BoxFuture;

use crate::config::schema::listener_key;
use crate::exec::RunControl;
use crate::exec::process::{self, Invocation, OutputLabel, StdoutMode};

/// What a listener learns of a fire (ElasticJob's `ShardingContexts`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FireContext {
    /// The job.
    pub job_name: String,
    /// The fire's task id (`{job}@-@{items}@-@READY@-@{ip}@-@{pid}`).
    pub task_id: String,
    /// `shardingTotalCount`.
    pub sharding_total_count: u32,
    /// `jobParameter`.
    pub job_parameter: String,
    /// The fire's items on this instance, with their parameters.
    pub items: BTreeMap<u32, Option<String>>,
    /// What started it: `cron`, `trigger`, `misfire` or `failover`.
    pub source: &'static str,
    /// The fire's identity across instances (`cron-{ms}`, `trigger-{ms}-{zxid}`) for the fires
    /// every instance handles together (cron, trigger), and the failed-over runs of their items;
    /// `None` otherwise. A once-per-fire callback that must not act twice (it runs again when
    /// its claimer died before recording that it finished) can key on it.
    pub fire: Option<String>,
}

impl FireContext {
    /// As JSON: `{"jobName":…,"taskId":…,"shardingTotalCount":…,"jobParameter":…,
    /// "shardingItemParameterMap":{"0":"a",…}}` (ElasticJob's field names).
    pub fn to_json(&self) -> String {
        let params: serde_json::Map<String, serde_json::Value> = self
            .items
            .iter()
            .map(|(item, p)| (item.to_string(), p.clone().map_or(serde_json::Value::Null, serde_json::Value::String)))
            .collect();
        let text = |s: &str| serde_json::Value::String(s.to_string()).to_string();
        format!(
            "{{\"jobName\":{},\"taskId\":{},\"shardingTotalCount\":{},\"jobParameter\":{},\"shardingItemParameterMap\":{}}}",
            text(&self.job_name),
            text(&self.task_id),
            self.sharding_total_count,
            text(&self.job_parameter),
            serde_json::Value::Object(params)
        )
    }
}

/// A job listener.
pub trait JobListener: Send + Sync {
    /// Before the fire's items start.
    ///
    /// # Errors
    /// Why it failed (logged; the items still run).
    fn before<'a>(&'a self, fire: &'a FireContext) -> BoxFuture<'a, Result<(), String>> {
        let _ = fire;
        Box::pin(async { Ok(()) })
    }

    /// After all the fire's items ended; `failed` lists the items that failed.
    ///
    /// # Errors
    /// Why it failed (logged).
    fn after<'a>(&'a self, fire: &'a FireContext, failed: &'a [u32]) -> BoxFuture<'a, Result<(), String>> {
        let _ = (fire, failed);
        Box::pin(async { Ok(()) })
    }

    /// Listeners run in ascending order; ElasticJob's default is `i32::MAX`.
    fn order(&self) -> i32 {
        i32::MAX
    }
}

/// A listener run once per fire across all the instances of a job (ElasticJob's
/// `AbstractDistributeOnceElasticJobListener`): `before_once` once every item of the fire
/// started, before they run (they wait for it, and run even if it fails or times out);
/// `after_once` once every item ended (nothing waits for it). Each runs on one instance, the one
/// that claims the phase ([`crate::coord::once`]); the fire's items are all of the job's.
///
/// A failure, and a phase that timed out or can no longer complete, go to the job's error
/// handler. The callback is dropped when the worker is fenced (cut off from the registry), so
/// that the instance that claims the phase again after this one's session ended never overlaps
/// it.
pub trait DistributeOnceListener: Send + Sync {
    /// Once all instances started the fire (ElasticJob's `doBeforeJobExecutedAtLastStarted`).
    ///
    /// # Errors
    /// Why it failed (reported; the items still run).
    fn before_once<'a>(&'a self, fire: &'a FireContext) -> BoxFuture<'a, Result<(), String>>;

    /// Once all the fire's items ended (ElasticJob's `doAfterJobExecutedAtLastCompleted`);
    /// `failed` lists the items that failed, on any instance.
    ///
    /// # Errors
    /// Why it failed (reported).
    fn after_once<'a>(&'a self, fire: &'a FireContext, failed: &'a [u32]) -> BoxFuture<'a, Result<(), String>>;
}

/// A job file's `before` / `after` / `before_once` / `after_once` commands.
///
/// The command line is parsed as a script job's (no shell) and gets the fire as JSON
/// ([`FireContext::to_json`]) as its last argument, and in its environment `EJCTL_LISTENER`
/// (`before`, `after`, `before_once`, `after_once`), `EJCTL_JOB_NAME`, `EJCTL_TASK_ID`,
/// `EJCTL_SHARDING_TOTAL_COUNT`, `EJCTL_JOB_PARAMETER`, `EJCTL_SHARDING_ITEMS` (`0,2`),
/// `EJCTL_FIRE_SOURCE`, `EJCTL_FIRE_ID` (when the fire has one) and, after, `EJCTL_FAILED_ITEMS`.
/// Its output goes to the log; a non-zero exit is a failure. It is stopped after the job's
/// `timeout_seconds`, when set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandListener {
    /// The `before` command, parsed.
    pub before: Option<Vec<String>>,
    /// The `after` command, parsed.
    pub after: Option<Vec<String>>,
    /// The `before_once` command, parsed.
    pub before_once: Option<Vec<String>>,
    /// The `after_once` command, parsed.
    pub after_once: Option<Vec<String>>,
    /// The job's run timeout.
    pub timeout: Option<std::time::Duration>,
}

impl CommandListener {
    async fn run(
        &self,
        phase: &'static str,
        argv: &[String],
        fire: &FireContext,
        failed: &[u32],
    ) -> Result<(), String> {
        let mut argv = argv.to_vec();
        argv.push(fire.to_json());
        let join = |items: &mut dyn Iterator<Item = u32>| items.map(|i| i.to_string()).collect::<Vec<_>>().join(",");
        let mut env = vec![
            ("EJCTL_LISTENER".to_string(), phase.to_string()),
            ("EJCTL_JOB_NAME".to_string(), fire.job_name.clone()),
            ("EJCTL_TASK_ID".to_string(), fire.task_id.clone()),
            ("EJCTL_SHARDING_TOTAL_COUNT".to_string(), fire.sharding_total_count.to_string()),
            ("EJCTL_JOB_PARAMETER".to_string(), fire.job_parameter.clone()),
            ("EJCTL_SHARDING_ITEMS".to_string(), join(&mut fire.items.keys().copied())),
            ("EJCTL_FIRE_SOURCE".to_string(), fire.source.to_string()),
        ];
        if let Some(fire) = &fire.fire {
            env.push(("EJCTL_FIRE_ID".to_string(), fire.clone()));
        }
        if phase == listener_key::AFTER || phase == listener_key::AFTER_ONCE {
            env.push(("EJCTL_FAILED_ITEMS".to_string(), join(&mut failed.iter().copied())));
        }
        let invocation = Invocation { argv, env, stdin: None, timeout: self.timeout, stdout: StdoutMode::Log };
        let label = OutputLabel {
            job: fire.job_name.clone(),
            item: fire.items.keys().next().copied().unwrap_or(0),
            command: phase,
        };
        let result = process::run_supervised(invocation, &label, &RunControl::detached()).await;
        match result.failure() {
            None => Ok(()),
            Some(why) => Err(format!("the {phase} command failed: {why}")),
        }
    }
}

impl JobListener for CommandListener {
    fn before<'a>(&'a self, fire: &'a FireContext) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            match &self.before {
                Some(argv) => self.run(listener_key::BEFORE, argv, fire, &[]).await,
                None => Ok(()),
            }
        })
    }

    fn after<'a>(&'a self, fire: &'a FireContext, failed: &'a [u32]) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            match &self.after {
                Some(argv) => self.run(listener_key::AFTER, argv, fire, failed).await,
                None => Ok(()),
            }
        })
    }
}

impl DistributeOnceListener for CommandListener {
    fn before_once<'a>(&'a self, fire: &'a FireContext) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            match &self.before_once {
                Some(argv) => self.run(listener_key::BEFORE_ONCE, argv, fire, &[]).await,
                None => Ok(()),
            }
        })
    }

    fn after_once<'a>(&'a self, fire: &'a FireContext, failed: &'a [u32]) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            match &self.after_once {
                Some(argv) => self.run(listener_key::AFTER_ONCE, argv, fire, failed).await,
                None => Ok(()),
            }
        })
    }
}
