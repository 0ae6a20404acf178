//! Making the registry hold given job configurations: what `ejctl config apply` / `diff` do for
//! job files, and what a worker does with its own jobs at start-up ([`publish`]).
//!
//! One plan per job ([`plan`]) compares the configuration with the registry:
//!
//! * no `/{job}/config`: create it, with the job root (the job type) when that is missing or
//!   says something else — the nodes a worker writes for a new job;
//! * a stored configuration that differs: rewrite it with the version read, keeping what the
//!   given configuration cannot express — the stored entries ejctl does not model (unknown keys,
//!   Java's tagged `jobExtraConfigurations`) and the executor-pool key name — so a Java cluster's
//!   settings survive; the job root is left as it is (a warning says when it names another type);
//! * an identical one: nothing.
//!
//! [`apply`] writes every plan in one transaction: all or nothing, and a concurrent change makes
//! it fail (exit 4) instead of being overwritten.

use std::collections::BTreeMap;

use super::OpsError;
use super::config::{ValueChange, changes};
use crate::config::JobConfig;
use crate::registry::codec::JobType;
use crate::registry::path::JobPaths;
use crate::registry::{Mode, NodeData, Op, Registry, RegistryError};

/// What applying a plan does to one job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// The job has no configuration: it is created.
    Create,
    /// The stored configuration differs: it is rewritten.
    Update,
    /// The stored configuration is the same: nothing is written.
    Unchanged,
}

/// What one job needs to hold a given configuration.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The job.
    pub job: String,
    /// What applying the plan does.
    pub action: Action,
    /// The version of the stored configuration (none for a job without configuration).
    pub version: Option<i32>,
    /// The stored configuration, normalised (raw when it cannot be read; none when absent).
    pub old_yaml: Option<String>,
    /// The configuration the registry will hold.
    pub config: JobConfig,
    /// Its YAML.
    pub new_yaml: String,
    /// The stored configuration, decoded, when there is a readable one.
    pub stored: Option<JobConfig>,
    /// What changes, key by key.
    pub changed: BTreeMap<String, ValueChange>,
    /// What the caller should know (a job root of another type, an unreadable configuration
    /// that is replaced), each naming the job.
    pub warnings: Vec<String>,
    /// Why the stored configuration cannot be decoded, when it cannot.
    stored_error: Option<String>,
    /// The writes.
    ops: Vec<Op>,
}

/// The plan of one job from its root and configuration nodes as read.
fn plan_job(job_type: &JobType, config: &JobConfig, root: Option<&NodeData>, stored: Option<&NodeData>) -> Plan {
    let job = config.job_name.clone();
    let p = JobPaths::new(&job);
    let root_data = job_type.root_data();
    let mut plan = Plan {
        job: job.clone(),
        action: Action::Unchanged,
        version: None,
        old_yaml: None,
        config: config.clone(),
        new_yaml: String::new(),
        stored: None,
        changed: BTreeMap::new(),
        warnings: Vec::new(),
        stored_error: None,
        ops: Vec::new(),
    };
    let Some(node) = stored else {
        plan.action = Action::Create;
        plan.new_yaml = config.to_yaml();
        plan.changed = changes(None, config);
        match root {
            None => plan.ops.push(Op::Create {
                path: p.root().to_string(),
                data: root_data.as_bytes().to_vec(),
                mode: Mode::Persistent,
            }),
            Some(node) if node.data != root_data.as_bytes() => plan.ops.push(Op::Set {
                path: p.root().to_string(),
                data: root_data.as_bytes().to_vec(),
                version: Some(node.stat.version),
            }),
            Some(_) => {}
        }
        plan.ops.push(Op::Create {
            path: p.config(),
            data: plan.new_yaml.clone().into_bytes(),
            mode: Mode::Persistent,
        });
        return plan;
    };
    plan.version = Some(node.stat.version);
    if let Some(root) = root
        && root.data != root_data.as_bytes()
    {
        plan.warnings.push(format!(
            "job '{job}': the registry's job root says '{}', the file's type is '{root_data}'; the root node is left as it is",
            root.text()
        ));
    }
    let text = node.text();
    match JobConfig::from_yaml(&text) {
        Ok(stored) => {
            plan.config.preserved.clone_from(&stored.preserved);
            if plan.config.job_executor_pool_type.is_none() {
                plan.config.executor_pool_key = stored.executor_pool_key;
            }
            plan.old_yaml = Some(stored.to_yaml());
            plan.stored = Some(stored);
        }
        Err(e) => {
            plan.warnings
                .push(format!("job '{job}': the stored configuration cannot be read ({e}); apply replaces it"));
            plan.stored_error = Some(e.to_string());
            plan.old_yaml = Some(text);
        }
    }
    plan.new_yaml = plan.config.to_yaml();
    if plan.old_yaml.as_deref() != Some(plan.new_yaml.as_str()) {
        plan.action = Action::Update;
        plan.changed = changes(plan.stored.as_ref(), &plan.config);
        plan.ops.push(Op::Set {
            path: p.config(),
            data: plan.new_yaml.clone().into_bytes(),
            version: Some(node.stat.version),
        });
    }
    plan
}

/// Compares each job (type and configuration) with the registry; `None` stands for a registry
/// without the namespace (every job is then created). The plans are in the order given.
///
/// # Errors
/// Registry errors.
pub async fn plan(registry: Option<&Registry>, jobs: &[(&JobType, &JobConfig)]) -> Result<Vec<Plan>, OpsError> {
    let mut paths = Vec::new();
    for (_, config) in jobs {
        let p = JobPaths::new(&config.job_name);
        paths.push(p.root().to_string());
        paths.push(p.config());
    }
    let nodes = match registry {
        Some(r) => r.get_many(&paths).await.map_err(|e| OpsError::registry("cannot read the job configurations", e))?,
        None => vec![None; paths.len()],
    };
    Ok(jobs
        .iter()
        .zip(nodes.chunks(2))
        .map(|((job_type, config), pair)| {
            plan_job(job_type, config, pair.first().and_then(Option::as_ref), pair.get(1).and_then(Option::as_ref))
        })
        .collect())
}

/// Writes every plan in one transaction: all or nothing.
///
/// # Errors
/// Exit 4 when a job's nodes changed since they were read (nothing is written); registry
/// errors.
pub async fn apply(registry: &Registry, plans: &[&Plan]) -> Result<(), OpsError> {
    let mut ops = Vec::new();
    let mut owner = Vec::new();
    for (i, p) in plans.iter().enumerate() {
        ops.extend(p.ops.iter().cloned());
        owner.extend(std::iter::repeat_n(i, p.ops.len()));
    }
    match registry.transaction(&ops).await {
        Ok(()) => Ok(()),
        Err(RegistryError::Transaction { index, source }) => {
            let job = owner.get(index).and_then(|i| plans.get(*i)).map_or("?", |p| p.job.as_str());
            Err(match *source {
                RegistryError::BadVersion(_) | RegistryError::NodeExists(_) | RegistryError::NoNode(_) => {
                    OpsError::refused(format!(
                        "job '{job}': the configuration changed concurrently; re-run the command (nothing was written)"
                    ))
                }
                other => OpsError::registry(format!("job '{job}': cannot write (nothing was written)"), other),
            })
        }
        Err(e) => Err(OpsError::registry("cannot write the job configurations", e)),
    }
}

/// What [`publish`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The job had no configuration: its root and configuration were written.
    Created,
    /// `overwrite`: the stored configuration was rewritten with the given one (keeping what the
    /// given one cannot express).
    Overwritten,
    /// `overwrite`, but the registry already held that configuration: nothing was written.
    Unchanged,
    /// Without `overwrite` the registry's configuration wins; nothing was written. `differs`
    /// tells whether it differs from the given one.
    Kept {
        /// The stored configuration differs from the given one.
        differs: bool,
    },
    /// Without `overwrite`, a stored configuration that cannot be decoded is left as it is;
    /// nothing was written and the returned configuration is the given one.
    Invalid {
        /// Why it cannot be decoded, naming the node.
        error: String,
    },
}

/// The result of [`publish`].
#[derive(Debug, Clone)]
pub struct Published {
    /// What was done.
    pub outcome: Outcome,
    /// The configuration the registry holds now: the one to run with.
    pub config: JobConfig,
    /// The data version of the configuration node as this left it (none without one): a later
    /// reader that finds another version knows the node changed since.
    pub version: Option<i32>,
    /// What the caller should know (see [`Plan::warnings`]).
    pub warnings: Vec<String>,
}

/// How often [`publish`] re-reads and plans again after another writer changed the job's nodes
/// between its read and its write (workers of the same job starting together).
const PUBLISH_ATTEMPTS: usize = 5;

/// Publishes one job's configuration as a worker does at start-up, the way `config apply`
/// writes it:
///
/// * no `/{job}/config`: writes the job root (`job_type`) and `config` ([`Outcome::Created`]);
/// * a stored configuration and `overwrite` false: writes nothing and returns the stored one,
///   decoded ([`Outcome::Kept`]);
/// * a stored configuration and `overwrite` true: rewrites it like a `config apply` update,
///   keeping the stored entries ejctl does not model, and returns what the registry now holds
///   ([`Outcome::Overwritten`], or [`Outcome::Unchanged`] when it already held that). The job
///   root is left as it is; a warning says when it names another type.
///
/// Writes are version-checked; when another writer got in between, the job is read again and
/// the decision made again.
///
/// # Errors
/// Registry errors; exit 4 when the nodes keep changing under the writes. (A stored
/// configuration that cannot be decoded is [`Outcome::Invalid`], not an error: the caller decides
/// what to run meanwhile.)
pub async fn publish(
    registry: &Registry,
    job_type: &JobType,
    config: &JobConfig,
    overwrite: bool,
) -> Result<Published, OpsError> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        let mut plans = plan(Some(registry), &[(job_type, config)]).await?;
        let Some(plan) = plans.pop() else {
            return Err(OpsError::failure(format!("job '{}': nothing to publish", config.job_name)));
        };
        let outcome = match plan.action {
            Action::Create => Outcome::Created,
            _ if !overwrite => {
                let path = JobPaths::new(&plan.job).config();
                let Some(stored) = plan.stored else {
                    let error = plan.stored_error.unwrap_or_default();
                    let error = format!("invalid configuration at {path}: {error}");
                    let warnings = plan.warnings.into_iter().filter(|w| !w.contains("apply replaces it")).collect();
                    let (outcome, version) = (Outcome::Invalid { error }, plan.version);
                    return Ok(Published { outcome, config: config.clone(), version, warnings });
                };
                let differs = stored.to_yaml() != config.to_yaml();
                let (outcome, version) = (Outcome::Kept { differs }, plan.version);
                return Ok(Published { outcome, config: stored, version, warnings: plan.warnings });
            }
            Action::Update => Outcome::Overwritten,
            Action::Unchanged => Outcome::Unchanged,
        };
        // A created node starts at version 0; a version-checked update adds one.
        let version = match plan.action {
            Action::Create => Some(0),
            Action::Update => plan.version.map(|v| v + 1),
            Action::Unchanged => plan.version,
        };
        match apply(registry, &[&plan]).await {
            Ok(()) => return Ok(Published { outcome, config: plan.config, version, warnings: plan.warnings }),
            Err(e) if e.is_refusal() && attempt < PUBLISH_ATTEMPTS => continue,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::embedded::EmbeddedStore;

    fn script(name: &str, count: i32) -> JobConfig {
        let mut c = JobConfig::new(name, count);
        c.cron = Some("0/5 * * * * ?".into());
        c.props.insert("script.command.line".into(), "/bin/true".into());
        c
    }

    async fn text(r: &Registry, path: &str) -> Option<String> {
        r.get(path).await.unwrap().map(|n| n.text())
    }

    #[tokio::test]
    async fn publish_creates_keeps_and_overwrites() {
        let store = EmbeddedStore::new();
        let r = Registry::embedded(&store);
        let mine = script("j", 2);

        let first = publish(&r, &JobType::Script, &mine, false).await.unwrap();
        assert_eq!(first.outcome, Outcome::Created);
        assert_eq!(first.config, mine);
        assert_eq!(text(&r, "/j").await.as_deref(), Some("SCRIPT"));
        assert_eq!(text(&r, "/j/config").await, Some(mine.to_yaml()));

        // The registry's configuration wins without overwrite.
        let mut theirs = script("j", 2);
        theirs.sharding_total_count = 4;
        let kept = publish(&r, &JobType::Script, &theirs, false).await.unwrap();
        assert_eq!(kept.outcome, Outcome::Kept { differs: true });
        assert_eq!(kept.config, mine);
        let same = publish(&r, &JobType::Script, &mine, false).await.unwrap();
        assert_eq!(same.outcome, Outcome::Kept { differs: false });

        // A Java-set entry survives an overwrite.
        let java = format!(
            "{}jobExtraConfigurations:\n- !!org.apache.shardingsphere.elasticjob.tracing.yaml.YamlTracingConfiguration\n  type: RDB\n",
            mine.to_yaml()
        );
        r.set("/j/config", java.as_bytes(), None).await.unwrap();
        let over = publish(&r, &JobType::Script, &theirs, true).await.unwrap();
        assert_eq!(over.outcome, Outcome::Overwritten);
        assert_eq!(over.config.sharding_total_count, 4);
        let stored = text(&r, "/j/config").await.unwrap();
        assert!(stored.contains("shardingTotalCount: 4\n"), "{stored}");
        assert!(stored.contains("YamlTracingConfiguration"), "{stored}");
        assert_eq!(stored, over.config.to_yaml());
        let again = publish(&r, &JobType::Script, &theirs, true).await.unwrap();
        assert_eq!(again.outcome, Outcome::Unchanged);
        assert_eq!(again.config, over.config);
    }

    #[tokio::test]
    async fn publish_names_an_undecodable_configuration_and_warns_about_the_root() {
        let store = EmbeddedStore::new();
        let r = Registry::embedded(&store);
        r.create("/j", b"HTTP", Mode::Persistent).await.unwrap();
        r.create("/j/config", b"jobName: [", Mode::Persistent).await.unwrap();
        let kept = publish(&r, &JobType::Script, &script("j", 1), false).await.unwrap();
        let Outcome::Invalid { error } = &kept.outcome else { panic!("{:?}", kept.outcome) };
        assert!(error.starts_with("invalid configuration at /j/config: "), "{error}");
        assert!(error.len() > "invalid configuration at /j/config: ".len(), "{error}");
        assert_eq!(kept.config, script("j", 1));
        assert_eq!(text(&r, "/j/config").await.as_deref(), Some("jobName: ["), "nothing is written");

        let over = publish(&r, &JobType::Script, &script("j", 1), true).await.unwrap();
        assert_eq!(over.outcome, Outcome::Overwritten);
        assert_eq!(text(&r, "/j").await.as_deref(), Some("HTTP"), "the root is left as it is");
        assert_eq!(over.warnings.len(), 2, "{:?}", over.warnings);
        assert!(over.warnings[0].contains("the registry's job root says 'HTTP'"), "{:?}", over.warnings);
    }

    #[tokio::test]
    async fn a_root_without_configuration_is_completed() {
        let store = EmbeddedStore::new();
        let r = Registry::embedded(&store);
        r.create("/j", b"", Mode::Persistent).await.unwrap();
        let p = publish(&r, &JobType::Dataflow, &script("j", 1), false).await.unwrap();
        assert_eq!(p.outcome, Outcome::Created);
        assert_eq!(text(&r, "/j").await.as_deref(), Some("DATAFLOW"));
    }
}
