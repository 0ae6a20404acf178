//! The configuration a job runs with: the registry's [`JobConfig`], validated once and parsed
//! once ([`crate::coord::validate::check`]) into the cron, time zone, strategy and item
//! parameters, with the executor built from it; of the configuration itself the job keeps only
//! the values it reads ([`Stored`]). Every fire, failover run and leader decision reads these;
//! nothing is parsed again until the configuration changes.
//!
//! The executor and the error handler use the values the job file pins ([`crate::coord::pin`]):
//! the configuration is validated and built with the job file's values put back where the
//! registry's differ, and the difference is kept in [`Effective::refused`], which every fire logs
//! and counts and every run records on its item's `result` leaf.

use std::sync::{Arc, OnceLock};

use crate::config::schema::prop;
use crate::config::{JobConfig, Props};
use crate::coord::leader::Sharding;
use crate::coord::pin::{self, Pin};
use crate::coord::react::Switches;
use crate::coord::validate::{self, Checked};
use crate::exec::Executor;
use crate::exec::context::ShardingContext;
use crate::exec::inproc::ErasedJob;
use crate::exec::script;
use crate::listener::CommandListener;
use crate::registry::codec::JobType;

/// The values of the stored configuration a job reads after its configuration is built: the
/// rest is parsed into [`Effective::checked`] and the executor, and not kept (the whole
/// configuration was 336 bytes of every job's task, with its strings and properties beside it).
pub(crate) struct Stored {
    /// `monitorExecution`.
    pub(crate) monitor_execution: bool,
    /// `failover`.
    pub(crate) failover: bool,
    /// `misfire`.
    pub(crate) misfire: bool,
    /// `disabled`.
    pub(crate) disabled: bool,
    /// `staticSharding`.
    pub(crate) static_sharding: bool,
    /// `maxTimeDiffSeconds`.
    pub(crate) max_time_diff_seconds: i32,
    /// `reconcileIntervalMinutes`.
    pub(crate) reconcile_interval_minutes: i32,
    /// `jobParameter`.
    pub(crate) job_parameter: Option<Box<str>>,
}

impl Stored {
    fn of(config: &JobConfig) -> Stored {
        Stored {
            monitor_execution: config.monitor_execution,
            failover: config.failover,
            misfire: config.misfire,
            disabled: config.disabled,
            static_sharding: config.static_sharding,
            max_time_diff_seconds: config.max_time_diff_seconds,
            reconcile_interval_minutes: config.reconcile_interval_minutes,
            job_parameter: config.job_parameter.as_deref().map(Box::from),
        }
    }

    /// `jobParameter`, empty when unset.
    pub(crate) fn job_parameter(&self) -> String {
        self.job_parameter.as_deref().unwrap_or_default().to_string()
    }
}

/// A configuration in effect.
pub(crate) struct Effective {
    /// What the job reads of it as stored.
    pub(crate) config: Stored,
    /// What its strings mean.
    pub(crate) checked: Checked,
    /// The executor, or why the job cannot run until its configuration is fixed (a missing
    /// command, say): the job stays registered and fires are refused with this message.
    pub(crate) executor: Result<Arc<Executor>, Box<str>>,
    /// The registry's values the job does not use (pinned to the job file): commands and the
    /// error handler's destination; empty when the registry agrees with the job file.
    pub(crate) refused: Box<[pin::Refused]>,
    /// The job file's `before` / `after` / `before_once` / `after_once` commands (pinned like the
    /// job's command).
    pub(crate) command_listener: Option<Arc<CommandListener>>,
    /// How many items of the job run at once here (`None`: no bound).
    pool_limit: Option<u32>,
}

impl Effective {
    /// Validates and parses a configuration for a job of `job_type`, with the values `pin` holds
    /// in place of the registry's.
    ///
    /// # Errors
    /// The validation error, naming the YAML key.
    pub(crate) fn build(
        config: JobConfig,
        job_type: &JobType,
        in_process: Option<Arc<dyn ErasedJob>>,
        pin: Option<&Pin>,
    ) -> Result<Effective, String> {
        let (config, refused) = match pin.map(|p| p.apply(&config)) {
            Some(applied) => (applied.config, applied.refused.into_boxed_slice()),
            None => (config, Box::default()),
        };
        let checked = validate::check(&config).map_err(|e| e.to_string())?;
        let command_listener = command_listener(&config.props)?;
        let pool_limit =
            crate::coord::pool::limit(config.job_executor_pool_type.as_deref(), checked.max_concurrent_items, cores());
        let executor = Executor::from_config(job_type, &config, in_process);
        Ok(Effective {
            config: Stored::of(&config),
            checked,
            executor: executor.map(Arc::new).map_err(String::into_boxed_str),
            refused,
            command_listener,
            pool_limit,
        })
    }

    /// `shardingTotalCount`.
    pub(crate) fn total(&self) -> u32 {
        self.checked.total
    }

    /// The sharding settings the leader uses.
    pub(crate) fn sharding<'a>(&self, job: &'a str) -> Sharding<'a> {
        Sharding {
            job,
            total: self.total(),
            strategy: self.checked.strategy,
            static_sharding: self.config.static_sharding,
            monitor_execution: self.config.monitor_execution,
        }
    }

    /// The settings whose change a running job reacts to.
    pub(crate) fn switches(&self) -> Switches<'_> {
        Switches {
            monitor_execution: self.config.monitor_execution,
            failover: self.config.failover,
            cron: self.checked.cron.as_ref().map(crate::schedule::cron::CronExpr::as_str),
            time_zone: &self.checked.time_zone,
        }
    }

    /// How many items of the job run at once here (`None`: no bound).
    pub(crate) fn pool_limit(&self) -> Option<u32> {
        self.pool_limit
    }

    /// What a run of `item` receives.
    pub(crate) fn context(&self, job: &str, item: u32, task_id: &str) -> ShardingContext {
        ShardingContext {
            job_name: job.to_string(),
            task_id: task_id.to_string(),
            sharding_total_count: self.total(),
            job_parameter: self.config.job_parameter(),
            sharding_item: item,
            sharding_parameter: i32::try_from(item).ok().and_then(|i| self.checked.item_parameters.get(&i).cloned()),
        }
    }
}

/// The cores the process may use, read once: `available_parallelism` reads the cgroup's files at
/// each call, which was 10,000 reads to start 10,000 jobs. The runtime's threads are as many, and
/// fixed at start too.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get))
}

/// The listener commands of `props`, parsed.
fn command_listener(props: &Props) -> Result<Option<Arc<CommandListener>>, String> {
    let parse = |key: &str| -> Result<Option<Vec<String>>, String> {
        match props.get(key).filter(|v| !v.trim().is_empty()) {
            Some(line) => script::parse_prop_command_line(key, line).map(Some),
            None => Ok(None),
        }
    };
    let listener = CommandListener {
        before: parse(prop::LISTENER_BEFORE)?,
        after: parse(prop::LISTENER_AFTER)?,
        before_once: parse(prop::LISTENER_BEFORE_ONCE)?,
        after_once: parse(prop::LISTENER_AFTER_ONCE)?,
        timeout: script::timeout_from_props(props).ok().flatten(),
    };
    if [&listener.before, &listener.after, &listener.before_once, &listener.after_once].iter().all(|c| c.is_none()) {
        return Ok(None);
    }
    Ok(Some(Arc::new(listener)))
}
