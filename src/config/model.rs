//! The job configuration as ElasticJob stores it at `/{job}/config`: its `JobConfigurationPOJO`.
//!
//! [`JobConfig`] is the one in-memory form every path shares: the YAML codec
//! ([`crate::registry::codec`]) reads and writes it, job files build it, `ejctl config set`
//! changes it field by field through [`super::schema`], and [`crate::coord::validate`] turns it into the
//! parsed settings the runtime uses.

use super::Props;

/// The two key names ElasticJob used for the executor pool type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum ExecutorPoolKey {
    /// `jobExecutorThreadPoolSizeProviderType` (3.0.5 and later).
    #[default]
    ThreadPoolSizeProvider,
    /// `jobExecutorServiceHandlerType` (3.0.0 to 3.0.4).
    ServiceHandler,
}

/// The job configuration stored at `/{job}/config`: ElasticJob's `JobConfigurationPOJO`.
///
/// Field defaults ([`Default`]) are the POJO defaults, i.e. what a missing key means when read;
/// they differ from what a Java application writes for unset builder fields (`monitorExecution`
/// and `misfire` true, `reconcileIntervalMinutes` 10), which is why those three keys are always
/// written.
#[derive(Debug, Clone, PartialEq)]
pub struct JobConfig {
    /// `jobName`.
    pub job_name: String,
    /// `cron`: a Quartz cron expression; `None` for a one-off job.
    pub cron: Option<String>,
    /// `timeZone`: `GMT+8` style; ejctl also accepts IANA names.
    pub time_zone: Option<String>,
    /// `shardingTotalCount`.
    pub sharding_total_count: i32,
    /// `shardingItemParameters`: `0=a,1=b`.
    pub sharding_item_parameters: Option<String>,
    /// `jobParameter`.
    pub job_parameter: Option<String>,
    /// `monitorExecution`: write `running` nodes.
    pub monitor_execution: bool,
    /// `failover`.
    pub failover: bool,
    /// `misfire`.
    pub misfire: bool,
    /// `maxTimeDiffSeconds`: -1 disables the clock check.
    pub max_time_diff_seconds: i32,
    /// `reconcileIntervalMinutes`: 0 disables reconcile.
    pub reconcile_interval_minutes: i32,
    /// `jobShardingStrategyType`.
    pub job_sharding_strategy_type: Option<String>,
    /// The executor pool type (`CPU`, `SINGLE_THREAD`).
    pub job_executor_pool_type: Option<String>,
    /// Which key name [`JobConfig::job_executor_pool_type`] is written under.
    pub executor_pool_key: ExecutorPoolKey,
    /// `jobErrorHandlerType`.
    pub job_error_handler_type: Option<String>,
    /// `jobListenerTypes`.
    pub job_listener_types: Vec<String>,
    /// `description`.
    pub description: Option<String>,
    /// `props`: executor and handler properties; ejctl's own options live under `ejctl.`.
    pub props: Props,
    /// `disabled`: instances start with their server `DISABLED`.
    pub disabled: bool,
    /// `overwrite`: the local configuration replaces the registry's at start-up.
    pub overwrite: bool,
    /// `label`.
    pub label: Option<String>,
    /// `staticSharding`.
    pub static_sharding: bool,
    /// Entries this type does not model (`jobExtraConfigurations`, keys of other versions),
    /// kept verbatim as `(key, YAML text)` and written back unchanged.
    pub preserved: Vec<(String, String)>,
}

impl Default for JobConfig {
    fn default() -> JobConfig {
        JobConfig {
            job_name: String::new(),
            cron: None,
            time_zone: None,
            sharding_total_count: 0,
            sharding_item_parameters: None,
            job_parameter: None,
            monitor_execution: false,
            failover: false,
            misfire: false,
            max_time_diff_seconds: -1,
            reconcile_interval_minutes: 0,
            job_sharding_strategy_type: None,
            job_executor_pool_type: None,
            executor_pool_key: ExecutorPoolKey::default(),
            job_error_handler_type: None,
            job_listener_types: Vec::new(),
            description: None,
            props: Props::new(),
            disabled: false,
            overwrite: false,
            label: None,
            static_sharding: false,
            preserved: Vec::new(),
        }
    }
}

impl JobConfig {
    /// A configuration with the defaults a Java application's builder writes: `monitorExecution`
    /// and `misfire` on, reconcile every 10 minutes, no clock check.
    pub fn new(job_name: &str, sharding_total_count: i32) -> JobConfig {
        JobConfig {
            job_name: job_name.to_string(),
            sharding_total_count,
            monitor_execution: true,
            misfire: true,
            reconcile_interval_minutes: 10,
            ..JobConfig::default()
        }
    }

    /// The cron expression, with an empty string read as "no cron" (a one-off job).
    pub fn cron_expr(&self) -> Option<&str> {
        self.cron.as_deref().map(str::trim).filter(|c| !c.is_empty())
    }
}
