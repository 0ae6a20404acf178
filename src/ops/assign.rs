//! `KEY=VALUE` assignments to a job configuration (`ejctl config set`).
//!
//! Keys are the YAML keys (`shardingTotalCount=4`) or the job file's names
//! (`sharding_total_count=4`; `name` for `jobName`; the options stored in `props`, such as
//! `command=...` or `timeout_seconds=60`, checked as in a job file); `props.NAME=VALUE` sets a property and
//! `props.NAME=` removes it; an empty value removes an optional key (`timeZone=`, and `cron=`
//! makes a one-off job); `jobListenerTypes=a,b` is comma-separated. Either executor-pool key name
//! sets the pool type, and the key name already stored is kept (it tells which ElasticJob version
//! the cluster runs). Type names are written in ElasticJob's spelling (`round_robin` becomes
//! `ROUND_ROBIN`). An unknown key is refused with the closest known one as a suggestion.

use std::collections::BTreeMap;

use crate::config::schema::{
    self, EXTENSIONS, EXTRA_CONFIGURATIONS, EXTRA_CONFIGURATIONS_FILE_KEY, ExtKind, Extension, FieldId, Kind,
    Value as FieldValue, field,
};
use crate::config::{ExecutorPoolKey, JobConfig};
use crate::jobfile::edit_distance;

/// The closest known key (YAML or snake_case spelling, whichever style `key` uses), if close.
fn suggest(key: &str) -> Option<String> {
    let snake = key.contains('_');
    schema::FIELDS
        .iter()
        .map(|f| if snake { f.file.to_string() } else { f.yaml.to_string() })
        .chain(std::iter::once(EXTRA_CONFIGURATIONS.to_string()))
        .chain(EXTENSIONS.iter().map(|e| e.key.to_string()))
        .map(|candidate| (edit_distance(&key.to_lowercase(), &candidate.to_lowercase()), candidate))
        .filter(|(d, candidate)| *d <= 3 && *d * 3 <= candidate.len().max(key.len()))
        .min_by_key(|(d, _)| *d)
        .map(|(_, candidate)| candidate)
}

/// `unknown key 'x'`, with the closest known key when there is one.
pub fn unknown_key(key: &str) -> String {
    match suggest(key) {
        Some(s) => format!("unknown key '{key}' (did you mean '{s}'?)"),
        None => format!("unknown key '{key}'"),
    }
}

/// What an assignment changes.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    /// A modelled field.
    Field(FieldId),
    /// A property (`props.NAME`).
    Prop(String),
}

/// A parsed `KEY=VALUE`.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// The key as typed.
    key: String,
    /// What it changes.
    target: Target,
    /// The value (`None` / empty: remove).
    value: FieldValue,
}

/// Parses one `KEY=VALUE`; the message names the assignment.
fn parse_assignment(raw: &str) -> Result<Assignment, String> {
    let Some((key, value)) = raw.split_once('=') else {
        return Err(format!("'{raw}' is not KEY=VALUE"));
    };
    let key = key.trim();
    if key.is_empty() {
        return Err(format!("'{raw}' has no key (KEY=VALUE)"));
    }
    if let Some(name) = key.strip_prefix("props.") {
        if name.is_empty() {
            return Err(format!("'{raw}': name the property: props.NAME=VALUE"));
        }
        let value = Some(value.to_string()).filter(|v| !v.is_empty());
        return Ok(Assignment {
            key: key.to_string(),
            target: Target::Prop(name.to_string()),
            value: FieldValue::Str(value),
        });
    }
    if key == field(FieldId::Props).yaml {
        return Err(format!("'{raw}': set properties one at a time: props.NAME=VALUE"));
    }
    if key == EXTRA_CONFIGURATIONS || key == EXTRA_CONFIGURATIONS_FILE_KEY {
        return Err(format!(
            "'{key}' holds tagged Java objects and cannot be set with KEY=VALUE; use `ejctl config edit`"
        ));
    }
    if let Some(ext) = EXTENSIONS.iter().find(|e| e.key == key) {
        let value = extension_value(ext, value)?;
        return Ok(Assignment { key: key.to_string(), target: Target::Prop(ext.prop.to_string()), value });
    }
    let Some(f) = schema::lookup(key) else {
        return Err(unknown_key(key));
    };
    let value = match f.kind {
        Kind::Str | Kind::TypeName(_) => FieldValue::Str(Some(value.to_string()).filter(|v| !v.is_empty())),
        Kind::Int => {
            let v = value.trim();
            if v.is_empty() {
                return Err(format!("{key}: needs a value (an integer)"));
            }
            FieldValue::Int(v.parse::<i32>().map_err(|_| format!("{key}: '{value}' is not an integer"))?)
        }
        Kind::Bool => match value.trim().to_ascii_lowercase().as_str() {
            "true" => FieldValue::Bool(true),
            "false" => FieldValue::Bool(false),
            _ => return Err(format!("{key}: '{value}' is not true or false")),
        },
        Kind::List => {
            FieldValue::List(value.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect())
        }
        Kind::Map => return Err(format!("'{raw}': set properties one at a time: props.NAME=VALUE")),
    };
    Ok(Assignment { key: key.to_string(), target: Target::Field(f.id), value })
}

/// A job-file option's value as its property holds it, checked as a job file checks it; empty
/// removes the property.
fn extension_value(ext: &Extension, value: &str) -> Result<FieldValue, String> {
    let key = ext.key;
    if value.is_empty() {
        return Ok(FieldValue::Str(None));
    }
    let number = |min: i64, max: i64| -> Result<FieldValue, String> {
        match value.trim().parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(FieldValue::Str(Some(n.to_string()))),
            Ok(n) => Err(format!("{key}: must be from {min} to {max}, got {n}")),
            Err(_) => Err(format!("{key}: '{value}' is not a whole number")),
        }
    };
    match ext.kind {
        ExtKind::Required if value.trim().is_empty() => Err(format!("{key}: must not be blank")),
        ExtKind::Required | ExtKind::Text => Ok(FieldValue::Str(Some(value.to_string()))),
        ExtKind::Seconds | ExtKind::Count => number(1, i64::MAX),
        ExtKind::Millis => number(1, i64::from(i32::MAX)),
        ExtKind::TimeoutMillis => number(i64::MIN, i64::MAX),
        ExtKind::Flag => match value.trim().to_ascii_lowercase().as_str() {
            b @ ("true" | "false") => Ok(FieldValue::Str(Some(b.to_string()))),
            _ => Err(format!("{key}: '{value}' is not true or false")),
        },
    }
}

/// Parses every assignment, refusing the same key twice.
///
/// # Errors
/// A message naming the first bad assignment.
pub fn parse_assignments(raw: &[String]) -> Result<Vec<Assignment>, String> {
    let mut seen: BTreeMap<Target, String> = BTreeMap::new();
    let mut out = Vec::new();
    for r in raw {
        let a = parse_assignment(r)?;
        // Both executor-pool key names set the same field.
        let target = match a.target {
            Target::Field(FieldId::ExecutorPool(_)) => Target::Field(FieldId::ExecutorPool(ExecutorPoolKey::default())),
            ref other => other.clone(),
        };
        if let Some(first) = seen.insert(target, a.key.clone()) {
            return Err(if first == a.key {
                format!("'{}' is given twice", a.key)
            } else {
                format!("'{first}' and '{}' set the same key", a.key)
            });
        }
        out.push(a);
    }
    Ok(out)
}

/// Applies an assignment. The executor-pool key name stored is kept; without one, the name
/// typed is used. Type names are written in ElasticJob's spelling.
pub fn apply_assignment(cfg: &mut JobConfig, a: &Assignment) {
    match (&a.target, &a.value) {
        (Target::Prop(name), FieldValue::Str(Some(v))) => {
            cfg.props.insert(name.clone(), v.clone());
        }
        (Target::Prop(name), _) => {
            cfg.props.remove(name);
        }
        (Target::Field(FieldId::ExecutorPool(typed)), value) => {
            let stored =
                cfg.job_executor_pool_type.is_some() || cfg.executor_pool_key == ExecutorPoolKey::ServiceHandler;
            let key = if stored { cfg.executor_pool_key } else { *typed };
            cfg.set(FieldId::ExecutorPool(key), field(FieldId::ExecutorPool(*typed)).canonical(value.clone()));
        }
        (Target::Field(id), value) => cfg.set(*id, field(*id).canonical(value.clone())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> JobConfig {
        let mut c = JobConfig::new("j", 2);
        c.cron = Some("0/5 * * * * ?".into());
        c
    }

    fn set_all(c: &mut JobConfig, raw: &[&str]) -> Result<(), String> {
        let raw: Vec<String> = raw.iter().map(|s| s.to_string()).collect();
        for a in parse_assignments(&raw)? {
            apply_assignment(c, &a);
        }
        Ok(())
    }

    #[test]
    fn yaml_and_snake_case_keys() {
        let mut c = cfg();
        set_all(
            &mut c,
            &[
                "shardingTotalCount=4",
                "cron=0/10 * * * * ?",
                "failover=TRUE",
                "misfire=false",
                "time_zone=GMT+8",
                "job_sharding_strategy_type=round_robin",
                "jobErrorHandlerType=ignore",
                "jobListenerTypes=a, b,",
                "max_time_diff_seconds=-1",
                "description=",
                "props.script.command.line=echo hi=there",
            ],
        )
        .unwrap();
        assert_eq!(c.sharding_total_count, 4);
        assert_eq!(c.cron.as_deref(), Some("0/10 * * * * ?"));
        assert!(c.failover && !c.misfire);
        assert_eq!(c.time_zone.as_deref(), Some("GMT+8"));
        assert_eq!(c.job_sharding_strategy_type.as_deref(), Some("ROUND_ROBIN"));
        assert_eq!(c.job_error_handler_type.as_deref(), Some("IGNORE"));
        assert_eq!(c.job_listener_types, ["a", "b"]);
        assert_eq!(c.description, None);
        assert_eq!(c.props["script.command.line"], "echo hi=there");
        set_all(&mut c, &["props.script.command.line=", "cron="]).unwrap();
        assert!(c.props.is_empty());
        assert_eq!(c.cron, None);
    }

    #[test]
    fn job_file_names_of_properties() {
        let mut c = cfg();
        set_all(&mut c, &["command=/opt/run.sh --all", "timeout_seconds=60", "allow_registry_commands=TRUE"]).unwrap();
        assert_eq!(c.props["script.command.line"], "/opt/run.sh --all");
        assert_eq!(c.props["ejctl.timeout.seconds"], "60");
        assert_eq!(c.props["ejctl.allow.registry.commands"], "true");
        set_all(&mut c, &["timeout_seconds="]).unwrap();
        assert!(!c.props.contains_key("ejctl.timeout.seconds"));
        let err = |raw: &[&str]| set_all(&mut cfg(), raw).unwrap_err();
        assert_eq!(err(&["timeout_seconds=0"]), format!("timeout_seconds: must be from 1 to {}, got 0", i64::MAX));
        assert_eq!(err(&["http_read_timeout_ms=soon"]), "http_read_timeout_ms: 'soon' is not a whole number");
        assert_eq!(err(&["command= "]), "command: must not be blank");
        assert_eq!(err(&["timeout_secnds=3"]), "unknown key 'timeout_secnds' (did you mean 'timeout_seconds'?)");
        // The key and its property name set the same thing.
        assert_eq!(
            err(&["command=a", "props.script.command.line=b"]),
            "'command' and 'props.script.command.line' set the same key"
        );
    }

    #[test]
    fn the_stored_executor_key_name_is_kept() {
        let mut old =
            JobConfig::from_yaml("jobName: j\nshardingTotalCount: 1\njobExecutorServiceHandlerType: CPU\n").unwrap();
        set_all(&mut old, &["jobExecutorThreadPoolSizeProviderType=single_thread"]).unwrap();
        assert_eq!(old.executor_pool_key, ExecutorPoolKey::ServiceHandler);
        assert!(old.to_yaml().contains("jobExecutorServiceHandlerType: SINGLE_THREAD\n"));
        let mut fresh = cfg();
        set_all(&mut fresh, &["job_executor_service_handler_type=CPU"]).unwrap();
        assert_eq!(fresh.executor_pool_key, ExecutorPoolKey::ServiceHandler);
        let mut fresh = cfg();
        set_all(&mut fresh, &["jobExecutorThreadPoolSizeProviderType=CPU"]).unwrap();
        assert_eq!(fresh.executor_pool_key, ExecutorPoolKey::ThreadPoolSizeProvider);
    }

    #[test]
    fn malformed_assignments_name_the_problem() {
        let err = |raw: &[&str]| set_all(&mut cfg(), raw).unwrap_err();
        assert_eq!(err(&["shardingTotalCount"]), "'shardingTotalCount' is not KEY=VALUE");
        assert_eq!(err(&["=4"]), "'=4' has no key (KEY=VALUE)");
        assert_eq!(
            err(&["shardingTotalCont=4"]),
            "unknown key 'shardingTotalCont' (did you mean 'shardingTotalCount'?)"
        );
        assert_eq!(
            err(&["sharding_total_cont=4"]),
            "unknown key 'sharding_total_cont' (did you mean 'sharding_total_count'?)"
        );
        assert_eq!(err(&["bogus=1"]), "unknown key 'bogus'");
        assert_eq!(err(&["shardingTotalCount=four"]), "shardingTotalCount: 'four' is not an integer");
        assert_eq!(err(&["shardingTotalCount="]), "shardingTotalCount: needs a value (an integer)");
        assert_eq!(err(&["failover=yes"]), "failover: 'yes' is not true or false");
        assert_eq!(err(&["props.=x"]), "'props.=x': name the property: props.NAME=VALUE");
        assert!(err(&["jobExtraConfigurations=x"]).contains("use `ejctl config edit`"));
        assert_eq!(err(&["cron=a", "cron=b"]), "'cron' is given twice");
        assert_eq!(err(&["cron=a", "cron=b"]), "'cron' is given twice");
        assert_eq!(
            err(&["jobExecutorServiceHandlerType=CPU", "job_executor_thread_pool_size_provider_type=CPU"]),
            "'jobExecutorServiceHandlerType' and 'job_executor_thread_pool_size_provider_type' set the same key"
        );
    }
}
