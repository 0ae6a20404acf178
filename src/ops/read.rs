//! Reading jobs for the admin views and operations.
//!
//! * [`Admin::read_jobs`] reads many jobs with two rounds of pipelined multi-reads for all of them
//!   together (roots, configs, leaders and child lists; then server and instance values, item
//!   owners and results, and each item's leaves), so `job list` over 1,000 jobs costs a few dozen
//!   batched requests, not thousands of round trips, and sees every item as `job show` does.
//! * [`Admin::read_job`] reads one job's whole subtree
//!   ([`crate::registry::Registry::read_subtree`]) for the detailed views and the mutations.
//!
//! A job exists when `/{job}/config` exists (as in ElasticJob's lifecycle API): naming a bare
//! `/{job}` without config is "not found" (exit 3). [`Admin::read_all`] still returns such jobs
//! (with [`JobData::has_config`] false): server operations act on their `servers/{ip}` too, as
//! Java's `disable(null, ip)` does, and their instances are live processes.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::Admin;
use super::OpsError;
use crate::config::JobConfig;
use crate::coord::snapshot::JobSnapshot;
use crate::coord::state::{self, ItemState, Schedule};
use crate::coord::status::{self, JobStatus};
use crate::registry::path::{self, ItemLeaf, JobPaths};
use crate::registry::{NodeData, Stat, TreeNode};
use crate::schedule::cron::{self, CronExpr, JobTimeZone};

/// One job as the admin views read it.
#[derive(Debug, Clone)]
pub struct JobData {
    /// The job name.
    pub name: String,
    /// Its node paths.
    pub paths: JobPaths,
    /// The job root's data: `SCRIPT`, `HTTP` or a Java class name.
    pub job_type: String,
    /// `/{job}/config` exists.
    pub has_config: bool,
    /// The stored configuration text.
    pub config_text: String,
    /// The decoded configuration, or why it could not be decoded.
    pub config: Result<JobConfig, String>,
    /// The coordination state.
    pub view: JobSnapshot,
    /// `leader/sharding/necessary` exists.
    pub resharding: bool,
    /// The parsed cron and time zone (`None`: a one-off job, or one that does not parse).
    schedule: Option<Parsed>,
}

/// A parsed cron and its time zone, shared by the jobs that have them.
type Parsed = Arc<(CronExpr, JobTimeZone)>;

/// Crons parsed once per expression and zone for the jobs of one read: parsing a Quartz
/// expression costs more than everything else a list view does with a job, and a namespace's
/// jobs share a handful of crons.
#[derive(Default)]
pub struct Schedules(HashMap<(String, String), Option<Parsed>>);

impl Schedules {
    fn get(&mut self, config: Option<&JobConfig>) -> Option<Parsed> {
        let config = config?;
        let expr = config.cron_expr()?;
        let zone = config.time_zone.as_deref().unwrap_or("");
        self.0
            .entry((expr.to_string(), zone.to_string()))
            .or_insert_with(|| Some(Arc::new((cron::parse(expr).ok()?, cron::parse_time_zone(zone).ok()?))))
            .clone()
    }
}

impl JobData {
    /// A job from the nodes read under its root (any subset of its subtree).
    pub fn from_nodes(name: &str, nodes: &[TreeNode]) -> JobData {
        JobData::from_nodes_with(name, nodes, &mut Schedules::default())
    }

    /// [`JobData::from_nodes`], with crons parsed once across the jobs of one read.
    pub fn from_nodes_with(name: &str, nodes: &[TreeNode], schedules: &mut Schedules) -> JobData {
        let paths = JobPaths::new(name);
        let view = JobSnapshot::from_nodes(&paths, nodes);
        let value = |p: &str| nodes.iter().find(|n| n.path == p).map(|n| n.node.text());
        let config_node = value(&paths.config());
        let has_config = config_node.is_some();
        let config_text = config_node.unwrap_or_default();
        let config = if has_config {
            JobConfig::from_yaml(&config_text).map_err(|e| e.to_string())
        } else {
            Err("the job has no configuration".to_string())
        };
        JobData {
            name: name.to_string(),
            schedule: schedules.get(config.as_ref().ok()),
            job_type: value(paths.root()).unwrap_or_default(),
            resharding: view.necessary,
            paths,
            has_config,
            config_text,
            config,
            view,
        }
    }

    /// `shardingTotalCount`, when the configuration is readable and the count one ejctl runs
    /// ([`JobConfig::item_count`]).
    pub fn total(&self) -> Option<u32> {
        self.config.as_ref().ok().and_then(JobConfig::item_count)
    }

    /// The job status (docs/src/design/compatibility.md#statuses).
    pub fn status(&self) -> JobStatus {
        status::job_status(&self.view)
    }

    /// The cron expression; `None` for a one-off job or an unreadable configuration.
    pub fn cron(&self) -> Option<&str> {
        self.config.as_ref().ok().and_then(JobConfig::cron_expr)
    }

    /// The configured time zone, if any.
    pub fn time_zone(&self) -> Option<&str> {
        self.config.as_ref().ok().and_then(|c| c.time_zone.as_deref()).filter(|z| !z.is_empty())
    }

    /// The next instant the cron comes due, in the job's time zone; `None` for one-off jobs,
    /// invalid expressions and expressions that never fire again.
    pub fn next_fire(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let (cron, tz) = self.schedule()?;
        cron.next_after(now, tz)
    }

    /// The parsed cron and time zone; `None` for a one-off job, an unreadable configuration or an
    /// invalid expression or zone.
    pub fn schedule(&self) -> Option<(&CronExpr, &JobTimeZone)> {
        self.schedule.as_deref().map(|(cron, tz)| (cron, tz))
    }

    /// The next fire that will happen: [`JobData::next_fire`], unless nothing will fire it: no
    /// live instance (`CRASHED`) or every server disabled (`DISABLED`).
    pub fn upcoming_fire(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        match self.status() {
            JobStatus::Crashed | JobStatus::Disabled => None,
            _ => self.next_fire(now),
        }
    }

    /// The description, empty when there is none.
    pub fn description(&self) -> String {
        self.config.as_ref().ok().and_then(|c| c.description.clone()).unwrap_or_default()
    }

    /// The state of every item ([`crate::coord::state`]): what every view of an item shows.
    pub fn item_states(&self, now: DateTime<Utc>) -> Vec<ItemState> {
        let schedule = Schedule { config: self.config.as_ref().ok(), cron: self.schedule() };
        state::item_states(&self.view, schedule, now)
    }

    /// The items each instance owns.
    pub fn items_by_owner(&self) -> BTreeMap<String, Vec<u32>> {
        let mut out: BTreeMap<String, Vec<u32>> = BTreeMap::new();
        for (item, state) in &self.view.items {
            if let Some(owner) = &state.owner {
                out.entry(owner.clone()).or_default().push(*item);
            }
        }
        out
    }

    /// The live instances of the job, all or those on server `ip`.
    pub fn instances_on(&self, ip: Option<&str>) -> Vec<String> {
        match ip {
            Some(ip) => status::instances_on(&self.view, ip),
            None => self.view.instances.keys().cloned().collect(),
        }
    }
}

/// A node read by a multi-read, as a tree node (data without metadata for synthesised parents).
fn tree_node(path: String, node: Option<NodeData>) -> TreeNode {
    TreeNode { path, node: node.unwrap_or(NodeData { data: Vec::new(), stat: Stat::default() }) }
}

impl Admin {
    /// The children of the namespace root, sorted: every job, with or without configuration.
    ///
    /// # Errors
    /// Registry errors.
    pub async fn job_names(&self) -> Result<Vec<String>, OpsError> {
        let mut names = self
            .registry()
            .children(path::NAMESPACE_ROOT)
            .await
            .map_err(|e| OpsError::registry("cannot list the jobs", e))?
            .unwrap_or_default();
        names.sort();
        Ok(names)
    }

    /// Every child of the namespace root (with or without config), read with
    /// [`Admin::read_jobs`].
    ///
    /// # Errors
    /// Registry errors.
    pub async fn read_all(&self) -> Result<Vec<JobData>, OpsError> {
        let names = self.job_names().await?;
        self.read_jobs(&names).await
    }

    /// Reads what the list views need of many jobs — root, config, leader, the resharding flag
    /// (with the leader's record of a sharding that fails), `servers/*`,
    /// `instances/*`, the failover queue and every item's leaves (the data of its owner, result
    /// and failover owners; which flags exist) — so that a job read here has the same item states
    /// ([`crate::coord::state`]) as one read whole with [`Admin::read_job`]. Two rounds of pipelined
    /// multi-reads for all the jobs together, and a third, for the data of `failover` and
    /// `failovering` leaves, only when some item is being failed over. Jobs that vanish meanwhile
    /// are left out.
    ///
    /// # Errors
    /// Registry errors.
    pub async fn read_jobs(&self, names: &[String]) -> Result<Vec<JobData>, OpsError> {
        let cannot = |e| OpsError::registry("cannot read the jobs", e);
        let registry = self.registry();
        let paths: Vec<JobPaths> = names.iter().map(|n| JobPaths::new(n)).collect();
        let gets: Vec<String> = paths
            .iter()
            .flat_map(|p| [p.root().to_string(), p.config(), p.leader_instance(), p.sharding_necessary()])
            .collect();
        let lists: Vec<String> =
            paths.iter().flat_map(|p| [p.servers(), p.instances(), p.sharding(), p.failover_items()]).collect();
        let (values, children) =
            tokio::try_join!(registry.get_many(&gets), registry.children_many(&lists)).map_err(cannot)?;
        let mut values = values.into_iter();
        let mut children = children.into_iter();
        let mut jobs: Vec<(String, Vec<TreeNode>)> = Vec::with_capacity(names.len());
        let mut second: Vec<String> = Vec::new();
        let mut spans: Vec<std::ops::Range<usize>> = Vec::with_capacity(names.len());
        // Each job's items, whose leaves are listed in the second round.
        let mut items: Vec<(usize, u32)> = Vec::new();
        for (name, p) in names.iter().zip(&paths) {
            let (root, config, leader, necessary) =
                (values.next().flatten(), values.next().flatten(), values.next().flatten(), values.next().flatten());
            let (servers, instances, sharding, queued) = (
                children.next().flatten(),
                children.next().flatten(),
                children.next().flatten(),
                children.next().flatten(),
            );
            let start = second.len();
            let mut nodes = Vec::new();
            if root.is_some() {
                nodes.push(tree_node(p.root().to_string(), root));
                if let Some(config) = config {
                    nodes.push(tree_node(p.config(), Some(config)));
                }
                if let Some(leader) = leader {
                    nodes.push(tree_node(p.leader_instance(), Some(leader)));
                }
                if let Some(necessary) = necessary {
                    nodes.push(tree_node(p.sharding_necessary(), Some(necessary)));
                }
                second.extend(servers.unwrap_or_default().iter().map(|ip| p.server(ip)));
                second.extend(instances.unwrap_or_default().iter().map(|id| p.instance(id)));
                nodes.extend(
                    queued
                        .unwrap_or_default()
                        .iter()
                        .filter_map(|i| path::parse_item(i))
                        .map(|i| tree_node(p.failover_item(i), None)),
                );
                if let Some(sharding) = sharding {
                    nodes.push(tree_node(p.sharding(), None));
                    for item in sharding.iter().filter_map(|i| path::parse_item(i)) {
                        nodes.push(tree_node(p.item(item), None));
                        second.push(p.item_leaf(item, ItemLeaf::Instance));
                        second.push(p.item_leaf(item, ItemLeaf::Result));
                        items.push((jobs.len(), item));
                    }
                }
            }
            spans.push(start..second.len());
            jobs.push((name.clone(), nodes));
        }
        let item_lists: Vec<String> = items.iter().map(|&(j, item)| paths[j].item(item)).collect();
        let (mut found, leaves) =
            tokio::try_join!(registry.get_many(&second), registry.children_many(&item_lists)).map_err(cannot)?;
        // The flags each item has (their presence is what they say), and the failover owners,
        // whose data the third round reads.
        let mut third: Vec<(usize, String)> = Vec::new();
        for (&(j, item), leaves) in items.iter().zip(leaves) {
            for leaf in leaves.unwrap_or_default().iter().filter_map(|l| l.parse::<ItemLeaf>().ok()) {
                let at = paths[j].item_leaf(item, leaf);
                match leaf {
                    ItemLeaf::Running | ItemLeaf::Misfire | ItemLeaf::Disabled => jobs[j].1.push(tree_node(at, None)),
                    ItemLeaf::Failover | ItemLeaf::Failovering => third.push((j, at)),
                    ItemLeaf::Instance | ItemLeaf::Result => {}
                }
            }
        }
        if !third.is_empty() {
            let owners: Vec<String> = third.iter().map(|(_, p)| p.clone()).collect();
            let values = registry.get_many(&owners).await.map_err(cannot)?;
            for ((j, at), value) in third.into_iter().zip(values) {
                if let Some(value) = value {
                    jobs[j].1.push(tree_node(at, Some(value)));
                }
            }
        }
        let mut out = Vec::with_capacity(jobs.len());
        let mut schedules = Schedules::default();
        for ((name, mut nodes), span) in jobs.into_iter().zip(spans) {
            if nodes.is_empty() {
                continue;
            }
            for i in span {
                if let Some(node) = found.get_mut(i).and_then(Option::take) {
                    nodes.push(tree_node(std::mem::take(&mut second[i]), Some(node)));
                }
            }
            out.push(JobData::from_nodes_with(&name, &nodes, &mut schedules));
        }
        Ok(out)
    }

    /// Reads one job's whole subtree.
    ///
    /// # Errors
    /// A usage error for an invalid name, "not found" (exit 3) when the job has no
    /// configuration, registry errors.
    pub async fn read_job(&self, name: &str) -> Result<JobData, OpsError> {
        Ok(self.read_job_nodes(name).await?.0)
    }

    /// [`Admin::read_job`], with the nodes read (their metadata included).
    ///
    /// # Errors
    /// As [`Admin::read_job`].
    pub async fn read_job_nodes(&self, name: &str) -> Result<(JobData, Vec<TreeNode>), OpsError> {
        super::check_job_name(name)?;
        let paths = JobPaths::new(name);
        let nodes = self
            .registry()
            .read_subtree(paths.root(), &|_| {})
            .await
            .map_err(|e| OpsError::registry(format!("cannot read job '{name}'"), e))?;
        let Some(nodes) = nodes else { return Err(self.missing_job(name).await) };
        let data = JobData::from_nodes(name, &nodes);
        if !data.has_config {
            return Err(self.missing_job(name).await);
        }
        Ok((data, nodes))
    }

    /// Reads the jobs named (or, with `None`, every job of the namespace) with
    /// [`Admin::read_jobs`]; a job named must have a configuration (exit 3 otherwise).
    ///
    /// # Errors
    /// A usage error for an invalid name, "not found", registry errors.
    pub async fn read_some(&self, name: Option<&str>) -> Result<Vec<JobData>, OpsError> {
        match name {
            Some(name) => {
                super::check_job_name(name)?;
                let jobs = self.read_jobs(&[name.to_string()]).await?;
                if !jobs.iter().any(|j| j.has_config) {
                    return Err(self.missing_job(name).await);
                }
                Ok(jobs)
            }
            None => self.read_all().await,
        }
    }
}
