//! Validation of a job configuration ([`JobConfig`]) before it is written or used.
//!
//! One set of checks shared by job files (`ejctl run`), the admin's `config set` / `edit` /
//! `apply`, and the runtime when it adopts a configuration from the registry, so that a
//! configuration one path accepts the others accept too. Each field is checked as its row of
//! [`schema::FIELDS`] says; the executor properties of a job (`props`) depend on its type and are
//! checked by [`crate::exec::Executor::from_config`].
//!
//! [`check`] returns the parsed settings ([`Checked`]: cron, time zone, strategy, item
//! parameters) so that nothing is parsed twice. Errors name the YAML (camelCase) key; callers with
//! other key names (the job file's snake_case) map [`ConfigError::key`] and
//! [`ConfigWarning::key`] back, which is why neither message repeats the key.

use std::collections::BTreeMap;
use std::fmt;

use super::once;
use super::params::parse_item_parameters;
use super::strategy::Strategy;
use crate::config::JobConfig;
use crate::config::schema::{self, Check, FIELDS, FieldId, Kind, Value};
use crate::registry::path::validate_job_name;
use crate::schedule::cron::{self, CronExpr, JobTimeZone};

pub use crate::config::schema::{
    ERROR_HANDLER_TYPES, EXECUTOR_POOL_TYPES, MAX_SHARDING_TOTAL_COUNT, canonical_type_name,
};

/// A configuration value that cannot be accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {message}")]
pub struct ConfigError {
    /// The YAML key of the field, e.g. `shardingTotalCount`.
    pub key: &'static str,
    /// What is wrong, without the key.
    pub message: String,
}

impl ConfigError {
    fn new(key: &'static str, message: impl Into<String>) -> ConfigError {
        ConfigError { key, message: message.into() }
    }
}

/// A value that is accepted but deserves a word, e.g. an IANA time zone that a Java instance in
/// the same cluster would reject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigWarning {
    /// The YAML key of the field, e.g. `timeZone`.
    pub key: &'static str,
    /// The warning, meant to follow the key: `'Asia/Shanghai' is an IANA name; ...`.
    pub message: String,
}

impl fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.key, self.message)
    }
}

/// A configuration that passed [`check`], with what its strings mean.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The cron; `None` for a one-off job (no cron, or a blank one).
    pub cron: Option<CronExpr>,
    /// The time zone the cron is read in.
    pub time_zone: JobTimeZone,
    /// The sharding strategy.
    pub strategy: Strategy,
    /// `shardingItemParameters`, item → parameter.
    pub item_parameters: BTreeMap<i32, String>,
    /// `shardingTotalCount`, at least 1.
    pub total: u32,
    /// Warnings (boxed: a job keeps its checked configuration, and a vector's spare capacity
    /// is 8 bytes more of every job's state).
    pub warnings: Box<[ConfigWarning]>,
    /// `jobErrorHandlerType` with its properties.
    pub error_handler: crate::notify::ErrorHandler,
    /// ejctl's `max_concurrent_items`.
    pub max_concurrent_items: Option<u32>,
    /// The once-per-fire listeners' `started_timeout_ms` (`None`: none).
    pub started_timeout: Option<std::time::Duration>,
    /// The once-per-fire listeners' `completed_timeout_ms` (`None`: none).
    pub completed_timeout: Option<std::time::Duration>,
}

impl JobConfig {
    /// The number of items, when `shardingTotalCount` is one ejctl runs and shows: 1 to
    /// [`MAX_SHARDING_TOTAL_COUNT`].
    pub fn item_count(&self) -> Option<u32> {
        (1..=MAX_SHARDING_TOTAL_COUNT)
            .contains(&self.sharding_total_count)
            .then(|| u32::try_from(self.sharding_total_count).ok())
            .flatten()
    }
}

/// Checks a job configuration; on success returns the warnings as text
/// (`timeZone 'Asia/Shanghai' is an IANA name; ...`).
///
/// # Errors
/// The first field that is not acceptable, with its YAML key.
pub fn validate_config(cfg: &JobConfig) -> Result<Vec<String>, ConfigError> {
    check_config(cfg).map(|warnings| warnings.iter().map(ToString::to_string).collect())
}

/// Checks a job configuration; on success returns the warnings with their keys.
///
/// # Errors
/// The first field that is not acceptable, with its YAML key.
pub fn check_config(cfg: &JobConfig) -> Result<Vec<ConfigWarning>, ConfigError> {
    check(cfg).map(|checked| checked.warnings.into_vec())
}

/// Checks every field as its row of [`schema::FIELDS`] says, in the table's order:
///
/// * `jobName` is a valid node name;
/// * `shardingTotalCount` is between 1 and [`MAX_SHARDING_TOTAL_COUNT`];
/// * `cron`, when set and not blank, is a valid Quartz expression (absent or blank: a one-off
///   job);
/// * `timeZone` is empty, a `GMT` offset, or an IANA name (accepted with a warning, since a Java
///   instance rejects it);
/// * `shardingItemParameters` parses (ElasticJob's messages);
/// * `maxTimeDiffSeconds` ≥ -1 (ElasticJob treats -1 as "no check"; any other negative value
///   would refuse every fire);
/// * `reconcileIntervalMinutes` ≥ 0 (0 disables reconcile);
/// * `jobShardingStrategyType` names a built-in strategy;
/// * the executor pool type (under whichever of its two key names) is `CPU` or `SINGLE_THREAD`;
/// * `jobErrorHandlerType` is one of `LOG`, `IGNORE`, `THROW`, `EMAIL`, `WECHAT`, `DINGTALK`,
///   `WEBHOOK`, and the `props` it reads are present and well formed ([`crate::notify::handler`]).
///
/// Type names are matched ignoring ASCII case, as ElasticJob's SPI lookup does; an empty type
/// name means the default, as for a missing one.
///
/// # Errors
/// The first field that is not acceptable, with its YAML key.
pub fn check(cfg: &JobConfig) -> Result<Checked, ConfigError> {
    let mut warnings = Vec::new();
    let mut checked = Checked {
        cron: None,
        time_zone: JobTimeZone::default(),
        strategy: Strategy::default(),
        item_parameters: BTreeMap::new(),
        total: 0,
        warnings: Box::default(),
        error_handler: crate::notify::ErrorHandler::default(),
        max_concurrent_items: None,
        started_timeout: None,
        completed_timeout: None,
    };
    for field in FIELDS {
        let key = field.yaml;
        let value = cfg.get(field.id);
        match (field.check, &value) {
            (Check::Any, _) => {}
            (Check::JobName, _) => validate_job_name(&cfg.job_name).map_err(|m| ConfigError::new(key, m))?,
            (Check::Range { min, max, below }, Value::Int(v)) => {
                if *v < min {
                    return Err(ConfigError::new(key, format!("must be {below}, got {v}")));
                }
                if *v > max {
                    return Err(ConfigError::new(key, format!("must be at most {max}, got {v}")));
                }
            }
            (Check::Cron, _) => {
                if let Some(expr) = cfg.cron_expr() {
                    checked.cron = Some(cron::parse(expr).map_err(|e| ConfigError::new(key, e.to_string()))?);
                }
            }
            (Check::TimeZone, Value::Str(zone)) => {
                let zone = zone.as_deref().unwrap_or("");
                let tz = cron::parse_time_zone(zone).map_err(|e| ConfigError::new(key, e.to_string()))?;
                if !tz.is_java_compatible() {
                    warnings.push(ConfigWarning {
                        key,
                        message: format!(
                            "'{zone}' is an IANA name; a Java ElasticJob instance in the same cluster would reject it"
                        ),
                    });
                }
                checked.time_zone = tz;
            }
            (Check::Strategy, Value::Str(name)) => {
                checked.strategy =
                    Strategy::from_config(name.as_deref()).map_err(|e| ConfigError::new(key, e.to_string()))?;
            }
            (Check::OneOf, Value::Str(Some(name))) if !name.is_empty() => {
                let Kind::TypeName(valid) = field.kind else { continue };
                if canonical_type_name(name, valid).is_none() {
                    return Err(ConfigError::new(
                        key,
                        format!("unknown type '{name}'; valid types: {}", valid.join(", ")),
                    ));
                }
            }
            (Check::ItemParameters, Value::Str(Some(params))) => {
                checked.item_parameters =
                    parse_item_parameters(params).map_err(|e| ConfigError::new(key, e.to_string()))?;
            }
            _ => {}
        }
    }
    checked.total = u32::try_from(cfg.sharding_total_count).unwrap_or(0);
    checked.error_handler = crate::notify::ErrorHandler::from_config(cfg)
        .map_err(|m| ConfigError::new(schema::yaml_key(FieldId::ErrorHandler), m))?;
    if let Some(v) = cfg.props.get(schema::prop::MAX_CONCURRENT_ITEMS) {
        let n = v.trim().parse::<u32>().ok().filter(|n| *n > 0);
        let prop = schema::prop::MAX_CONCURRENT_ITEMS;
        checked.max_concurrent_items = Some(n.ok_or_else(|| {
            ConfigError::new(schema::yaml_key(FieldId::Props), format!("'{prop}' must be an integer > 0, got '{v}'"))
        })?);
    }
    let timeout = |prop: &str, default: i64| -> Result<Option<std::time::Duration>, ConfigError> {
        let Some(v) = cfg.props.get(prop) else { return Ok(once::timeout(default)) };
        let ms = v.trim().parse::<i64>().map_err(|_| {
            ConfigError::new(
                schema::yaml_key(FieldId::Props),
                format!("'{prop}' must be an integer (milliseconds; 0 or less: no timeout), got '{v}'"),
            )
        })?;
        Ok(once::timeout(ms))
    };
    checked.started_timeout = timeout(schema::prop::STARTED_TIMEOUT, once::DEFAULT_STARTED_TIMEOUT_MS)?;
    checked.completed_timeout = timeout(schema::prop::COMPLETED_TIMEOUT, once::DEFAULT_COMPLETED_TIMEOUT_MS)?;
    checked.warnings = warnings.into_boxed_slice();
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::model::ExecutorPoolKey;

    fn cfg() -> JobConfig {
        let mut c = JobConfig::new("job", 3);
        c.cron = Some("0/5 * * * * ?".into());
        c
    }

    fn err(c: &JobConfig) -> String {
        validate_config(c).unwrap_err().to_string()
    }

    #[test]
    fn a_builder_default_config_is_valid() {
        assert_eq!(validate_config(&cfg()), Ok(vec![]));
        assert_eq!(validate_config(&JobConfig::new("one-off", 1)), Ok(vec![]));
    }

    #[test]
    fn a_fully_set_config_is_valid() {
        let mut c = cfg();
        c.time_zone = Some("GMT+08:00".into());
        c.sharding_item_parameters = Some("0=A,1=B,2=C".into());
        c.job_sharding_strategy_type = Some("round_robin".into());
        c.job_executor_pool_type = Some("single_thread".into());
        c.job_error_handler_type = Some("Ignore".into());
        c.max_time_diff_seconds = 0;
        c.reconcile_interval_minutes = 0;
        assert_eq!(validate_config(&c), Ok(vec![]));
    }

    #[test]
    fn job_name() {
        let mut c = cfg();
        c.job_name = "a/b".into();
        assert_eq!(err(&c), "jobName: job name 'a/b' must not contain '/'");
        c.job_name = String::new();
        assert_eq!(err(&c), "jobName: job name must not be empty");
    }

    #[test]
    fn sharding_total_count_bounds() {
        let mut c = cfg();
        c.sharding_total_count = 0;
        assert_eq!(err(&c), "shardingTotalCount: must be at least 1, got 0");
        c.sharding_total_count = -2;
        assert_eq!(err(&c), "shardingTotalCount: must be at least 1, got -2");
        c.sharding_total_count = 10_000;
        assert!(validate_config(&c).is_ok());
        c.sharding_total_count = 10_001;
        assert_eq!(err(&c), "shardingTotalCount: must be at most 10000, got 10001");
    }

    #[test]
    fn cron() {
        let mut c = cfg();
        c.cron = Some("0 0 12 * * *".into());
        assert_eq!(
            err(&c),
            "cron: invalid cron expression '0 0 12 * * *': exactly one of day-of-month and day-of-week must be '?'"
        );
        c.cron = Some("   ".into());
        assert!(validate_config(&c).is_ok(), "blank is a one-off job");
        c.cron = None;
        assert!(validate_config(&c).is_ok());
    }

    #[test]
    fn time_zone() {
        let mut c = cfg();
        for ok in ["", "GMT", "GMT+8", "GMT-05:30"] {
            c.time_zone = Some(ok.into());
            assert_eq!(validate_config(&c), Ok(vec![]), "{ok}");
        }
        c.time_zone = Some("Asia/Shanghai".into());
        assert_eq!(
            validate_config(&c),
            Ok(vec![
                "timeZone 'Asia/Shanghai' is an IANA name; a Java ElasticJob instance in the same cluster \
                 would reject it"
                    .to_string()
            ])
        );
        assert_eq!(check_config(&c).unwrap()[0].key, "timeZone");
        c.time_zone = Some("Mars/Olympus".into());
        assert!(err(&c).starts_with("timeZone: invalid time zone 'Mars/Olympus': "), "{}", err(&c));
        c.time_zone = Some("GMT+25".into());
        assert!(err(&c).starts_with("timeZone: invalid time zone 'GMT+25': "), "{}", err(&c));
    }

    #[test]
    fn strategy() {
        let mut c = cfg();
        c.job_sharding_strategy_type = Some(String::new());
        assert!(validate_config(&c).is_ok());
        c.job_sharding_strategy_type = Some("FANCY".into());
        assert_eq!(
            err(&c),
            "jobShardingStrategyType: Cannot find sharding strategy using type 'FANCY'. \
             Valid types: AVG_ALLOCATION, ODEVITY, ROUND_ROBIN, SINGLE_SHARDING_BALANCE"
        );
    }

    #[test]
    fn executor_pool_type_under_either_key() {
        let mut c = cfg();
        c.job_executor_pool_type = Some("cpu".into());
        assert!(validate_config(&c).is_ok());
        c.job_executor_pool_type = Some("HUGE".into());
        assert_eq!(
            err(&c),
            "jobExecutorThreadPoolSizeProviderType: unknown type 'HUGE'; valid types: CPU, SINGLE_THREAD"
        );
        c.executor_pool_key = ExecutorPoolKey::ServiceHandler;
        assert_eq!(err(&c), "jobExecutorServiceHandlerType: unknown type 'HUGE'; valid types: CPU, SINGLE_THREAD");
    }

    #[test]
    fn max_concurrent_items() {
        let mut c = cfg();
        let prop = schema::prop::MAX_CONCURRENT_ITEMS;
        c.props.insert(prop.into(), "2".into());
        assert_eq!(check(&c).unwrap().max_concurrent_items, Some(2));
        c.props.insert(prop.into(), "0".into());
        assert_eq!(err(&c), format!("props: '{prop}' must be an integer > 0, got '0'"));
    }

    #[test]
    fn error_handler_type() {
        let mut c = cfg();
        for (k, v) in [
            ("dingtalk.webhook", "https://oapi.dingtalk.com/robot/send?access_token=t"),
            ("wechat.webhook", "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k"),
            ("webhook.url", "https://hooks.example.com/x"),
            ("email.host", "smtp.example.com"),
            ("email.port", "465"),
            ("email.username", "u"),
            ("email.password", "p"),
            ("email.from", "ejctl@example.com"),
            ("email.to", "ops@example.com"),
        ] {
            c.props.insert(k.into(), v.into());
        }
        for ok in ERROR_HANDLER_TYPES {
            c.job_error_handler_type = Some(ok.to_lowercase());
            assert!(validate_config(&c).is_ok(), "{ok}");
        }
        c.job_error_handler_type = Some("SLACK".into());
        assert_eq!(
            err(&c),
            "jobErrorHandlerType: unknown type 'SLACK'; valid types: LOG, IGNORE, THROW, EMAIL, WECHAT, DINGTALK, WEBHOOK"
        );
        c.job_error_handler_type = Some("EMAIL".into());
        c.props.remove("email.to");
        assert_eq!(err(&c), "jobErrorHandlerType: props 'email.to' is required by the error handler");
    }

    #[test]
    fn sharding_item_parameters_use_elasticjob_messages() {
        let mut c = cfg();
        c.sharding_item_parameters = Some("0=A,,1=B".into());
        assert_eq!(
            err(&c),
            "shardingItemParameters: Sharding item parameters '0=A,,1=B' format error, should be int=xx,int=xx"
        );
        c.sharding_item_parameters = Some("x=A".into());
        assert_eq!(err(&c), "shardingItemParameters: Sharding item parameters key 'x' is not an integer.");
        c.sharding_item_parameters = Some(String::new());
        assert!(validate_config(&c).is_ok());
    }

    #[test]
    fn max_time_diff_and_reconcile() {
        let mut c = cfg();
        c.max_time_diff_seconds = -2;
        assert_eq!(err(&c), "maxTimeDiffSeconds: must be -1 (no check) or at least 0, got -2");
        c.max_time_diff_seconds = -1;
        c.reconcile_interval_minutes = -1;
        assert_eq!(err(&c), "reconcileIntervalMinutes: must be 0 (disabled) or more, got -1");
    }

    #[test]
    fn canonical_type_names() {
        assert_eq!(canonical_type_name("single_thread", &EXECUTOR_POOL_TYPES), Some("SINGLE_THREAD"));
        assert_eq!(canonical_type_name("x", &EXECUTOR_POOL_TYPES), None);
    }
}
