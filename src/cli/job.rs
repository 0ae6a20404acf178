//! `ejctl job ...`: list, show, trigger, disable/enable (pause/resume), shutdown and remove jobs,
//! with the node effects of ElasticJob's `JobOperateAPI` (reference §4.1) and the statuses of its
//! statistics API (reference §4.4, computed by [`crate::coord::status`]).
//!
//! This module also holds the reading layer every admin view shares (`Admin`, `JobData`):
//!
//! * `Admin::read_jobs` reads many jobs with two rounds of pipelined multi-reads for all of them
//!   together (roots, configs, leaders and child lists; then server, instance and item-owner
//!   values), so `job list` over 1,000 jobs costs a few dozen batched requests, not thousands of
//!   round trips.
//! * `Admin::read_job` reads one job's whole subtree ([`crate::registry::Registry::read_subtree`])
//!   for the detailed views.
//!
//! A job exists when `/{job}/config` exists (as in ElasticJob's lifecycle API): `job list` skips
//! a bare `/{job}` without config, and naming one is "not found" (exit 3). Server operations
//! (`ejctl server ...`) still act on such a job's `servers/{ip}`, as Java's `disable(null, ip)`
//! does.
//!
//! Mutations validate everything (job, server, items) before the first write, and are no-ops
//! (exit 0) when the tree already says what was asked. In `table`/`plain` mode a short
//! confirmation goes to stderr and stdout stays empty; `-o json|yaml` prints an action document
//! (see `ActionDoc`). `shutdown` and `remove` ask for confirmation ([`super::prompt::confirm`]).

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use clap::{Args, Subcommand};
use comfy_table::Table;
use serde::Serialize;

use super::GlobalArgs;
use super::output::{Format, Output};
use super::{failover, prompt, sharding};
use crate::config::JobConfig;
use crate::config::schema::{self, Kind};
use crate::coord::status::{self, JobStatus};
use crate::coord::view::JobView;
use crate::exit::{CliError, Exit};
use crate::registry::codec::{ServerStatus, TriggerResult};
use crate::registry::path::{self, ItemLeaf, JobPaths, Node};
use crate::registry::{Mode, NodeData, Op, Registry, TreeNode, WatchEvent};
use crate::schedule::cron;

/// `ejctl job ...`.
#[derive(Debug, Subcommand)]
pub enum JobCmd {
    /// List the jobs of the namespace: status, cron, next fire, instances, items, description.
    #[command(
        after_help = "Examples:\n  ejctl job list\n  ejctl job list -o json | jq '.jobs[] | select(.status != \"OK\")'"
    )]
    List,
    /// Show one job: configuration, servers, instances, sharding, failover and leader.
    #[command(after_help = "Examples:\n  ejctl job show myJob\n  ejctl job show myJob -o json | jq .job.sharding")]
    Show(JobArg),
    /// Trigger a job now on every live instance; --wait follows the items until they finish.
    #[command(
        after_help = "Examples:\n  ejctl job trigger myJob\n  ejctl job trigger myJob --wait --timeout 5m\n\nWith --wait the exit status is 0 when every item succeeded and 1 when an item failed or the\ntimeout passed. Only ejctl workers report results; a Java instance runs the trigger but never\nreports, so --wait on a Java cluster ends at the timeout."
    )]
    Trigger(TriggerArgs),
    /// Disable a job on every server, or on one with --server (its items move elsewhere).
    #[command(after_help = "Examples:\n  ejctl job disable myJob\n  ejctl job disable myJob --server 10.0.0.5")]
    Disable(ServerArgs),
    /// Enable a job on every server, or on one with --server.
    #[command(after_help = "Examples:\n  ejctl job enable myJob\n  ejctl job enable myJob --server 10.0.0.5")]
    Enable(ServerArgs),
    /// Pause a job: the same as disable (ElasticJob 3.x folded 2.x's pause into DISABLED).
    #[command(after_help = "Example:\n  ejctl job pause myJob --server 10.0.0.5")]
    Pause(ServerArgs),
    /// Resume a job: the same as enable.
    #[command(after_help = "Example:\n  ejctl job resume myJob")]
    Resume(ServerArgs),
    /// Shut a job's instances down (all, or those of one server); they stay down until restarted.
    #[command(
        after_help = "Examples:\n  ejctl job shutdown myJob --server 10.0.0.5\n  ejctl job shutdown myJob --yes\n\nDeletes the instance nodes; each owning process stops the job until it is restarted."
    )]
    Shutdown(ServerArgs),
    /// Remove a job from its servers (shutdown, then delete servers/*); --purge deletes the job.
    #[command(
        after_help = "Examples:\n  ejctl job remove myJob --server 10.0.0.5\n  ejctl job remove myJob --purge --yes\n\nWithout --purge the configuration stays (ElasticJob's JobOperateAPI.remove); --purge deletes\nthe whole /{job} tree (removeJobConfiguration)."
    )]
    Remove(RemoveArgs),
}

/// A job name.
#[derive(Debug, Args)]
pub struct JobArg {
    /// The job name.
    pub job: String,
}

/// A job and an optional server.
#[derive(Debug, Args)]
pub struct ServerArgs {
    /// The job name.
    pub job: String,
    /// Only this server (IPv4 address).
    #[arg(long, visible_alias = "ip", value_name = "IP")]
    pub server: Option<String>,
}

/// Arguments of `ejctl job trigger`.
#[derive(Debug, Args)]
pub struct TriggerArgs {
    /// The job name.
    pub job: String,
    /// Wait until every item of this fire has finished and print per-item results.
    #[arg(long)]
    pub wait: bool,
    /// How long --wait waits (ms, s, m, h).
    #[arg(long, value_name = "DURATION", default_value = "60s", requires = "wait", value_parser = super::parse_duration)]
    pub timeout: Duration,
}

/// Arguments of `ejctl job remove`.
#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// The job name.
    pub job: String,
    /// Only this server (IPv4 address).
    #[arg(long, visible_alias = "ip", value_name = "IP", conflicts_with = "purge")]
    pub server: Option<String>,
    /// Delete the whole job tree, configuration included.
    #[arg(long)]
    pub purge: bool,
}

/// Runs `ejctl job ...`.
///
/// # Errors
/// An unknown job or server (exit 3), a bad name or IP (exit 2), a declined confirmation
/// (exit 4), an unavailable registry (exit 5), failed items of `trigger --wait` (exit 1).
pub async fn exec(global: &GlobalArgs, cmd: JobCmd, out: &mut Output) -> Result<Exit> {
    match cmd {
        JobCmd::List => list(global, out).await,
        JobCmd::Show(args) => show(global, &args.job, out).await,
        JobCmd::Trigger(args) => trigger(global, &args, out).await,
        JobCmd::Disable(args) => set_status(global, &args, "disable", ServerStatus::Disabled, out).await,
        JobCmd::Enable(args) => set_status(global, &args, "enable", ServerStatus::Enabled, out).await,
        JobCmd::Pause(args) => set_status(global, &args, "pause", ServerStatus::Disabled, out).await,
        JobCmd::Resume(args) => set_status(global, &args, "resume", ServerStatus::Enabled, out).await,
        JobCmd::Shutdown(args) => shutdown(global, &args, out).await,
        JobCmd::Remove(args) => remove(global, &args, out).await,
    }
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/// A connected admin session: the registry and the namespace name for messages.
pub(crate) struct Admin {
    /// The registry, chrooted to the namespace.
    pub(crate) registry: Registry,
    /// The namespace, for messages and documents.
    pub(crate) namespace: String,
}

/// One job as the admin views read it.
pub(crate) struct JobData {
    /// The job name.
    pub(crate) name: String,
    /// Its node paths.
    pub(crate) paths: JobPaths,
    /// The job root's data: `SCRIPT`, `HTTP` or a Java class name.
    pub(crate) job_type: String,
    /// `/{job}/config` exists.
    pub(crate) has_config: bool,
    /// The stored configuration text.
    pub(crate) config_text: String,
    /// The decoded configuration, or why it could not be decoded.
    pub(crate) config: std::result::Result<JobConfig, String>,
    /// The coordination state.
    pub(crate) view: JobView,
    /// `leader/sharding/necessary` exists (only known from a full read).
    pub(crate) resharding: bool,
}

impl JobData {
    fn new(name: &str, nodes: &[TreeNode]) -> JobData {
        let paths = JobPaths::new(name);
        let view = JobView::from_nodes(&paths, nodes);
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
            job_type: value(paths.root()).unwrap_or_default(),
            resharding: view.necessary,
            paths,
            has_config,
            config_text,
            config,
            view,
        }
    }

    /// `shardingTotalCount`, when the configuration is readable and the count positive.
    pub(crate) fn total(&self) -> Option<u32> {
        self.config.as_ref().ok().and_then(|c| u32::try_from(c.sharding_total_count).ok()).filter(|t| *t > 0)
    }

    /// The job status (reference §4.4).
    pub(crate) fn status(&self) -> JobStatus {
        status::job_status(&self.view)
    }

    /// The cron expression; `None` for a one-off job or an unreadable configuration.
    pub(crate) fn cron(&self) -> Option<&str> {
        self.config.as_ref().ok().and_then(JobConfig::cron_expr)
    }

    /// The configured time zone, if any.
    pub(crate) fn time_zone(&self) -> Option<&str> {
        self.config.as_ref().ok().and_then(|c| c.time_zone.as_deref()).filter(|z| !z.is_empty())
    }

    /// The next instant the cron comes due, in the job's time zone; `None` for one-off jobs,
    /// invalid expressions and expressions that never fire again.
    pub(crate) fn next_fire(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let expr = cron::parse(self.cron()?).ok()?;
        let tz = cron::parse_time_zone(self.time_zone().unwrap_or("")).ok()?;
        expr.next_after(now, &tz)
    }

    /// The description, empty when there is none.
    pub(crate) fn description(&self) -> String {
        self.config.as_ref().ok().and_then(|c| c.description.clone()).unwrap_or_default()
    }

    /// The items each instance owns.
    pub(crate) fn items_by_owner(&self) -> BTreeMap<String, Vec<u32>> {
        let mut out: BTreeMap<String, Vec<u32>> = BTreeMap::new();
        for (item, state) in &self.view.items {
            if let Some(owner) = &state.owner {
                out.entry(owner.clone()).or_default().push(*item);
            }
        }
        out
    }
}

/// A node read by a multi-read, as a tree node (data without metadata for synthesised parents).
fn tree_node(path: String, node: Option<NodeData>) -> TreeNode {
    TreeNode { path, node: node.unwrap_or(NodeData { data: Vec::new(), stat: crate::registry::Stat::default() }) }
}

impl Admin {
    /// Connects with the global options.
    ///
    /// # Errors
    /// See [`super::connect`].
    pub(crate) async fn connect(global: &GlobalArgs) -> Result<Admin> {
        let registry = super::connect(global).await?;
        let namespace = global.namespace.as_deref().unwrap_or_default().trim_matches('/').to_string();
        Ok(Admin { registry, namespace })
    }

    /// `job 'x' not found in namespace 'ns'` (exit 3).
    pub(crate) fn job_not_found(&self, job: &str) -> anyhow::Error {
        CliError::not_found(format!("job '{job}' not found in namespace '{}'", self.namespace)).into()
    }

    /// The children of the namespace root, sorted.
    ///
    /// # Errors
    /// Registry errors.
    pub(crate) async fn job_names(&self) -> Result<Vec<String>> {
        let mut names =
            self.registry.children(path::NAMESPACE_ROOT).await.context("cannot list the jobs")?.unwrap_or_default();
        names.sort();
        Ok(names)
    }

    /// Every child of the namespace root (with or without config), read with [`Admin::read_jobs`].
    ///
    /// # Errors
    /// Registry errors.
    pub(crate) async fn read_all(&self) -> Result<Vec<JobData>> {
        let names = self.job_names().await?;
        self.read_jobs(&names).await
    }

    /// Reads what the list views need of many jobs — root, config, leader, `servers/*`,
    /// `instances/*` and `sharding/*/instance` — in two rounds of pipelined multi-reads for all
    /// the jobs together. Jobs that vanish meanwhile are left out.
    ///
    /// # Errors
    /// Registry errors.
    pub(crate) async fn read_jobs(&self, names: &[String]) -> Result<Vec<JobData>> {
        let paths: Vec<JobPaths> = names.iter().map(|n| JobPaths::new(n)).collect();
        let gets: Vec<String> =
            paths.iter().flat_map(|p| [p.root().to_string(), p.config(), p.leader_instance()]).collect();
        let lists: Vec<String> = paths.iter().flat_map(|p| [p.servers(), p.instances(), p.sharding()]).collect();
        let (values, children) = tokio::try_join!(self.registry.get_many(&gets), self.registry.children_many(&lists))
            .context("cannot read the jobs")?;
        let mut values = values.into_iter();
        let mut children = children.into_iter();
        let mut jobs: Vec<(String, Vec<TreeNode>)> = Vec::with_capacity(names.len());
        let mut second: Vec<String> = Vec::new();
        let mut spans: Vec<std::ops::Range<usize>> = Vec::with_capacity(names.len());
        for (name, p) in names.iter().zip(&paths) {
            let (root, config, leader) = (values.next().flatten(), values.next().flatten(), values.next().flatten());
            let (servers, instances, items) =
                (children.next().flatten(), children.next().flatten(), children.next().flatten());
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
                second.extend(servers.unwrap_or_default().iter().map(|ip| p.server(ip)));
                second.extend(instances.unwrap_or_default().iter().map(|id| p.instance(id)));
                if let Some(items) = items {
                    nodes.push(tree_node(p.sharding(), None));
                    for item in items.iter().filter_map(|i| path::parse_item(i)) {
                        nodes.push(tree_node(p.item(item), None));
                        second.push(p.item_leaf(item, ItemLeaf::Instance));
                    }
                }
            }
            spans.push(start..second.len());
            jobs.push((name.clone(), nodes));
        }
        let mut found: Vec<Option<NodeData>> = self.registry.get_many(&second).await.context("cannot read the jobs")?;
        let mut out = Vec::with_capacity(jobs.len());
        for ((name, mut nodes), span) in jobs.into_iter().zip(spans) {
            if nodes.is_empty() {
                continue;
            }
            for i in span {
                if let Some(node) = found[i].take() {
                    nodes.push(tree_node(std::mem::take(&mut second[i]), Some(node)));
                }
            }
            out.push(JobData::new(&name, &nodes));
        }
        Ok(out)
    }

    /// Reads one job's whole subtree.
    ///
    /// # Errors
    /// A usage error for an invalid name, "not found" (exit 3) when the job has no
    /// configuration, registry errors.
    pub(crate) async fn read_job(&self, name: &str) -> Result<JobData> {
        path::validate_job_name(name).map_err(CliError::usage)?;
        let paths = JobPaths::new(name);
        let nodes = self
            .registry
            .read_subtree(paths.root(), &|_| {})
            .await
            .with_context(|| format!("cannot read job '{name}'"))?
            .ok_or_else(|| self.job_not_found(name))?;
        let data = JobData::new(name, &nodes);
        if !data.has_config {
            return Err(self.job_not_found(name));
        }
        Ok(data)
    }
}

/// Checks a `--server` value: an IPv4 address (exit 2 otherwise).
///
/// # Errors
/// A usage error naming the value.
pub(crate) fn check_ip(ip: &str) -> Result<()> {
    if path::is_ipv4(ip) {
        Ok(())
    } else {
        Err(CliError::usage(format!("invalid server ip '{ip}': expected an IPv4 address such as 10.0.0.5")).into())
    }
}

/// An instant for tables: local time.
pub(crate) fn local_time(t: &DateTime<Utc>) -> String {
    t.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M:%S").to_string()
}

/// An instant for documents: RFC 3339, UTC, seconds.
pub(crate) fn rfc3339(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Items as `0,1,2`.
pub(crate) fn join_items(items: &[u32]) -> String {
    items.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

fn or_dash(s: Option<&str>) -> String {
    s.filter(|s| !s.is_empty()).unwrap_or("-").to_string()
}

// ---------------------------------------------------------------------------------------------
// job list
// ---------------------------------------------------------------------------------------------

/// `job list -o json`: `{"namespace", "jobs": [JobBrief]}`.
#[derive(Serialize)]
struct JobListDoc {
    namespace: String,
    jobs: Vec<JobBrief>,
}

/// One job of `job list`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JobBrief {
    name: String,
    status: JobStatus,
    cron: Option<String>,
    time_zone: Option<String>,
    next_fire: Option<String>,
    instance_count: usize,
    sharding_total_count: i32,
    description: String,
}

async fn list(global: &GlobalArgs, out: &mut Output) -> Result<Exit> {
    let admin = Admin::connect(global).await?;
    let jobs = admin.read_all().await?;
    let now = Utc::now();
    let briefs: Vec<(JobBrief, Option<DateTime<Utc>>)> = jobs
        .iter()
        .filter(|j| j.has_config)
        .map(|j| {
            if let Err(e) = &j.config {
                tracing::warn!(job = %j.name, error = %e, "unreadable job configuration");
            }
            let next = j.next_fire(now);
            let brief = JobBrief {
                name: j.name.clone(),
                status: j.status(),
                cron: j.cron().map(str::to_string),
                time_zone: j.time_zone().map(str::to_string),
                next_fire: next.as_ref().map(rfc3339),
                instance_count: j.view.instances.len(),
                sharding_total_count: j.config.as_ref().map_or(0, |c| c.sharding_total_count),
                description: j.description(),
            };
            (brief, next)
        })
        .collect();
    match out.format {
        Format::Json | Format::Yaml => out.document(&JobListDoc {
            namespace: admin.namespace.clone(),
            jobs: briefs.into_iter().map(|(b, _)| b).collect(),
        })?,
        Format::Plain => {
            let rows: Vec<Vec<String>> = briefs
                .iter()
                .map(|(b, _)| {
                    vec![
                        b.name.clone(),
                        b.status.to_string(),
                        b.cron.clone().unwrap_or_default(),
                        b.next_fire.clone().unwrap_or_default(),
                        b.instance_count.to_string(),
                        b.sharding_total_count.to_string(),
                        b.description.clone(),
                    ]
                })
                .collect();
            out.rows(&rows)?;
        }
        Format::Table => {
            let mut table = Table::new();
            table.set_header(["NAME", "STATUS", "CRON", "NEXT FIRE", "INSTANCES", "ITEMS", "DESCRIPTION"]);
            for (b, next) in &briefs {
                let cron = match (&b.cron, &b.time_zone) {
                    (Some(c), Some(z)) => format!("{c} ({z})"),
                    (Some(c), None) => c.clone(),
                    (None, _) => "(one-off)".to_string(),
                };
                table.add_row([
                    b.name.clone(),
                    b.status.to_string(),
                    cron,
                    next.as_ref().map_or_else(|| "-".to_string(), local_time),
                    b.instance_count.to_string(),
                    b.sharding_total_count.to_string(),
                    b.description.clone(),
                ]);
            }
            out.table(table)?;
        }
    }
    Ok(Exit::Ok)
}

// ---------------------------------------------------------------------------------------------
// job show
// ---------------------------------------------------------------------------------------------

/// `job show -o json`: `{"job": JobDetail}`.
#[derive(Serialize)]
struct JobShowDoc {
    job: JobDetail,
}

/// Everything about one job.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JobDetail {
    name: String,
    namespace: String,
    #[serde(rename = "type")]
    job_type: String,
    status: JobStatus,
    /// The stored configuration with ElasticJob's key names (every key, known or not).
    config: serde_json::Value,
    config_error: Option<String>,
    next_fire: Option<String>,
    leader: Option<String>,
    resharding_needed: bool,
    servers: Vec<ServerRow>,
    instances: Vec<InstanceRow>,
    sharding: Vec<sharding::ItemRow>,
    failover: failover::FailoverDoc,
}

/// A server of a job.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ServerRow {
    /// The IP.
    pub(crate) ip: String,
    /// The node value (`ENABLED`, `DISABLED`, anything else as stored).
    pub(crate) status: String,
    /// Live instances on this IP.
    pub(crate) instances: Vec<String>,
}

/// An instance of a job.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InstanceRow {
    /// The job.
    pub(crate) job: String,
    /// The instance id.
    pub(crate) id: String,
    /// Its server IP (instance YAML `serverIp`).
    pub(crate) server_ip: String,
    /// The value of its `servers/{ip}` node, if any.
    pub(crate) server_status: Option<String>,
    /// Its labels, if any.
    pub(crate) labels: Option<String>,
    /// It is the job's leader.
    pub(crate) leader: bool,
    /// The items it owns.
    pub(crate) items: Vec<u32>,
}

/// The servers of a job.
pub(crate) fn server_rows(job: &JobData) -> Vec<ServerRow> {
    job.view
        .servers
        .iter()
        .map(|(ip, s)| ServerRow {
            ip: ip.clone(),
            status: s.to_string(),
            instances: status::instances_on(&job.view, ip),
        })
        .collect()
}

/// The instances of a job.
pub(crate) fn instance_rows(job: &JobData) -> Vec<InstanceRow> {
    let owned = job.items_by_owner();
    job.view
        .instances
        .iter()
        .map(|(id, info)| {
            let ip = job.view.instance_server_ip(id);
            InstanceRow {
                job: job.name.clone(),
                id: id.clone(),
                server_status: job.view.servers.get(&ip).map(ToString::to_string),
                server_ip: ip,
                labels: info.as_ref().and_then(|i| i.labels.clone()),
                leader: job.view.leader.as_deref() == Some(id.as_str()),
                items: owned.get(id).cloned().unwrap_or_default(),
            }
        })
        .collect()
}

async fn show(global: &GlobalArgs, name: &str, out: &mut Output) -> Result<Exit> {
    path::validate_job_name(name).map_err(CliError::usage)?;
    let admin = Admin::connect(global).await?;
    let job = admin.read_job(name).await?;
    let next = job.next_fire(Utc::now());
    let config = serde_yaml_ng::from_str::<serde_yaml_ng::Value>(&job.config_text)
        .ok()
        .and_then(|v| serde_json::to_value(v).ok())
        .unwrap_or(serde_json::Value::Null);
    let detail = JobDetail {
        name: job.name.clone(),
        namespace: admin.namespace.clone(),
        job_type: job.job_type.clone(),
        status: job.status(),
        config,
        config_error: job.config.as_ref().err().cloned(),
        next_fire: next.as_ref().map(rfc3339),
        leader: job.view.leader.clone(),
        resharding_needed: job.resharding,
        servers: server_rows(&job),
        instances: instance_rows(&job),
        sharding: sharding::item_rows(&job),
        failover: failover::failover_doc(&job),
    };
    match out.format {
        Format::Json | Format::Yaml => out.document(&JobShowDoc { job: detail })?,
        Format::Plain => out.rows(&show_rows(&job, &detail))?,
        Format::Table => show_table(&job, &detail, next.as_ref(), out)?,
    }
    Ok(Exit::Ok)
}

/// `job show -o plain`: one record per line, the first field naming the record type.
fn show_rows(job: &JobData, d: &JobDetail) -> Vec<Vec<String>> {
    let mut rows = vec![
        vec!["job".into(), d.name.clone(), d.job_type.clone(), d.status.to_string()],
        vec!["cron".into(), job.cron().unwrap_or_default().into(), job.time_zone().unwrap_or_default().into()],
        vec!["next_fire".into(), d.next_fire.clone().unwrap_or_default()],
        vec![schema::field(schema::FieldId::ShardingTotalCount).file.into(), job.total().unwrap_or(0).to_string()],
        vec!["leader".into(), d.leader.clone().unwrap_or_default()],
    ];
    for s in &d.servers {
        rows.push(vec!["server".into(), s.ip.clone(), s.status.clone(), s.instances.join(",")]);
    }
    for i in &d.instances {
        rows.push(vec![
            "instance".into(),
            i.id.clone(),
            i.server_ip.clone(),
            i.leader.to_string(),
            join_items(&i.items),
        ]);
    }
    for r in &d.sharding {
        rows.push(sharding::item_plain_row("item", r));
    }
    for p in &d.failover.pending {
        rows.push(vec!["failover_pending".into(), p.item.to_string(), p.owner.clone().unwrap_or_default()]);
    }
    rows
}

fn show_table(job: &JobData, d: &JobDetail, next: Option<&DateTime<Utc>>, out: &mut Output) -> Result<()> {
    let mut head = Table::new();
    head.load_style(comfy_table::presets::NOTHING);
    head.set_content_arrangement(comfy_table::ContentArrangement::Dynamic);
    let mut kv = |k: &str, v: String| {
        head.add_row([k.to_string(), v]);
    };
    let kind = if d.job_type.is_empty() { String::new() } else { format!(" ({})", d.job_type) };
    kv("Job", format!("{}{kind}", d.name));
    kv("Status", d.status.to_string());
    match &job.config {
        Ok(c) => {
            let cron = match (job.cron(), job.time_zone()) {
                (Some(cron), Some(z)) => format!("{cron} ({z})"),
                (Some(cron), None) => cron.to_string(),
                (None, _) => "(one-off: runs when triggered)".to_string(),
            };
            kv("Cron", cron);
            kv("Next fire", next.map_or_else(|| "-".to_string(), local_time));
            let strategy =
                c.job_sharding_strategy_type.as_deref().filter(|s| !s.is_empty()).unwrap_or("AVG_ALLOCATION");
            let params = c.sharding_item_parameters.as_deref().filter(|s| !s.is_empty());
            kv(
                "Sharding",
                format!(
                    "{} items, {strategy}{}",
                    c.sharding_total_count,
                    params.map(|p| format!(", parameters {p}")).unwrap_or_default()
                ),
            );
            if let Some(p) = c.job_parameter.as_deref().filter(|s| !s.is_empty()) {
                kv("Parameter", p.to_string());
            }
            let flags: Vec<String> = schema::FIELDS
                .iter()
                .filter(|f| f.kind == Kind::Bool)
                .map(|f| format!("{}={}", f.yaml, c.get(f.id).to_json()))
                .collect();
            kv("Options", flags.join(" "));
            if !c.props.is_empty() {
                kv("Props", c.props.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" "));
            }
            if let Some(desc) = c.description.as_deref().filter(|s| !s.is_empty()) {
                kv("Description", desc.to_string());
            }
        }
        Err(e) => kv("Config", format!("unreadable: {e}")),
    }
    kv("Leader", or_dash(d.leader.as_deref()));
    if d.resharding_needed {
        kv("Resharding", "pending (the leader's resharding flag is set)".to_string());
    }
    let failover_queue: Vec<u32> = d.failover.pending.iter().map(|p| p.item).collect();
    kv("Failover queue", if failover_queue.is_empty() { "-".into() } else { join_items(&failover_queue) });
    let head: String = head.to_string().lines().map(|l| format!("{}\n", l.trim_end())).collect();
    out.text(&head)?;

    out.text("\nServers\n")?;
    let mut servers = Table::new();
    servers.set_header(["IP", "STATUS", "INSTANCES"]);
    for s in &d.servers {
        servers.add_row([s.ip.clone(), s.status.clone(), s.instances.join(", ")]);
    }
    out.table(servers)?;

    out.text("\nInstances\n")?;
    let mut instances = Table::new();
    instances.set_header(["INSTANCE", "SERVER IP", "LEADER", "ITEMS"]);
    for i in &d.instances {
        instances.add_row([
            i.id.clone(),
            i.server_ip.clone(),
            if i.leader { "yes".into() } else { String::new() },
            join_items(&i.items),
        ]);
    }
    out.table(instances)?;

    out.text("\nSharding\n")?;
    out.table(sharding::item_table(&d.sharding))?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Mutations
// ---------------------------------------------------------------------------------------------

/// The result of a mutation in `-o json|yaml`: `{"action", "job", "server", "changed": [...]}`.
#[derive(Serialize)]
pub(crate) struct ActionDoc {
    /// The command: `disable`, `enable`, `pause`, `resume`, `shutdown`, `remove`, `trigger`, ...
    pub(crate) action: &'static str,
    /// The job named on the command line (`null` for server commands).
    pub(crate) job: Option<String>,
    /// The server named on the command line, if any.
    pub(crate) server: Option<String>,
    /// What was changed; empty for a no-op.
    pub(crate) changed: Vec<ChangeDoc>,
}

/// One changed node.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ChangeDoc {
    /// The job.
    pub(crate) job: String,
    /// The server concerned (`servers/{ip}` set or deleted), if any.
    pub(crate) server: Option<String>,
    /// The instance concerned (instance node deleted, trigger node created), if any.
    pub(crate) instance: Option<String>,
    /// The sharding item concerned, if any.
    pub(crate) item: Option<u32>,
    /// `disabled`, `enabled`, `deleted` or `triggered`.
    pub(crate) effect: &'static str,
}

/// A planned change.
#[derive(Debug, Clone)]
pub(crate) enum Change {
    /// Set `servers/{ip}`.
    Server { job: String, ip: String, to: ServerStatus },
    /// Delete `instances/{id}`.
    Instance { job: String, id: String },
    /// Delete `servers/{ip}`.
    DeleteServer { job: String, ip: String },
    /// Delete the whole `/{job}` tree.
    Purge { job: String },
}

impl Change {
    fn doc(&self) -> ChangeDoc {
        let (job, server, instance, effect) = match self {
            Change::Server { job, ip, to } => {
                (job, Some(ip.clone()), None, if to.is_enabled() { "enabled" } else { "disabled" })
            }
            Change::Instance { job, id } => (job, None, Some(id.clone()), "deleted"),
            Change::DeleteServer { job, ip } => (job, Some(ip.clone()), None, "deleted"),
            Change::Purge { job } => (job, None, None, "deleted"),
        };
        ChangeDoc { job: job.clone(), server, instance, item: None, effect }
    }
}

/// Most operations per transaction.
const TRANSACTION_CHUNK: usize = 500;

/// Applies changes in order: server values (in transactions), then instance deletions, then
/// server deletions, then purges. Returns the changes that took effect (a node that vanished
/// meanwhile is left out).
///
/// # Errors
/// Registry errors.
pub(crate) async fn apply(registry: &Registry, changes: &[Change]) -> Result<Vec<ChangeDoc>> {
    let mut done = Vec::new();
    let sets: Vec<(&Change, Op)> = changes
        .iter()
        .filter_map(|c| match c {
            Change::Server { job, ip, to } => {
                Some((c, Op::Set { path: JobPaths::new(job).server(ip), data: to.encode().to_vec(), version: None }))
            }
            _ => None,
        })
        .collect();
    for chunk in sets.chunks(TRANSACTION_CHUNK) {
        let ops: Vec<Op> = chunk.iter().map(|(_, op)| op.clone()).collect();
        registry.transaction(&ops).await.context("cannot change the server status")?;
        done.extend(chunk.iter().map(|(c, _)| c.doc()));
    }
    let instances: Vec<&Change> = changes.iter().filter(|c| matches!(c, Change::Instance { .. })).collect();
    let deleted = futures::future::join_all(instances.iter().map(|c| async move {
        let Change::Instance { job, id } = c else { return Ok(false) };
        registry
            .delete_if_exists(&JobPaths::new(job).instance(id))
            .await
            .with_context(|| format!("cannot delete instance '{id}' of job '{job}'"))
    }))
    .await;
    for (c, result) in instances.iter().zip(deleted) {
        if result? {
            done.push(c.doc());
        }
    }
    for c in changes {
        let (path, what) = match c {
            Change::DeleteServer { job, ip } => {
                (JobPaths::new(job).server(ip), format!("server '{ip}' of job '{job}'"))
            }
            Change::Purge { job } => (JobPaths::new(job).root().to_string(), format!("job '{job}'")),
            _ => continue,
        };
        if registry.delete_recursive(&path).await.with_context(|| format!("cannot delete {what}"))? {
            done.push(c.doc());
        }
    }
    Ok(done)
}

/// Prints a mutation's result: the document in `-o json|yaml`, else `note` on stderr (unless
/// `-q`).
///
/// # Errors
/// I/O errors.
pub(crate) fn report(global: &GlobalArgs, out: &mut Output, doc: &ActionDoc, note: &str) -> Result<()> {
    if out.format.is_document() {
        out.document(doc)
    } else if global.quiet {
        Ok(())
    } else {
        out.note(note)
    }
}

/// Lists names for a message: `a, b, c` (at most 5, then `and N more`).
pub(crate) fn name_list<S: AsRef<str>>(names: &[S]) -> String {
    let shown: Vec<&str> = names.iter().take(5).map(AsRef::as_ref).collect();
    let mut s = shown.join(", ");
    if names.len() > 5 {
        s.push_str(&format!(" and {} more", names.len() - 5));
    }
    s
}

/// Checks that `ip` is a server of `job` (`servers/{ip}` exists, or with `or_instances` a live
/// instance runs there).
fn check_server(admin: &Admin, job: &JobData, ip: &str, or_instances: bool) -> Result<()> {
    if job.view.servers.contains_key(ip) || (or_instances && !status::instances_on(&job.view, ip).is_empty()) {
        return Ok(());
    }
    Err(CliError::not_found(format!("server '{ip}' not found in job '{}' (namespace '{}')", job.name, admin.namespace))
        .into())
}

async fn set_status(
    global: &GlobalArgs,
    args: &ServerArgs,
    action: &'static str,
    to: ServerStatus,
    out: &mut Output,
) -> Result<Exit> {
    path::validate_job_name(&args.job).map_err(CliError::usage)?;
    if let Some(ip) = &args.server {
        check_ip(ip)?;
    }
    let admin = Admin::connect(global).await?;
    let job = admin.read_job(&args.job).await?;
    if let Some(ip) = &args.server {
        check_server(&admin, &job, ip, false)?;
    }
    let changes: Vec<Change> = job
        .view
        .servers
        .iter()
        .filter(|(ip, status)| args.server.as_ref().is_none_or(|s| s == *ip) && **status != to)
        .map(|(ip, _)| Change::Server { job: job.name.clone(), ip: ip.clone(), to: to.clone() })
        .collect();
    let done = apply(&admin.registry, &changes).await?;
    let word = if to.is_enabled() { "enabled" } else { "disabled" };
    let ips: Vec<&str> = done.iter().filter_map(|c| c.server.as_deref()).collect();
    let note = if !ips.is_empty() {
        format!("job '{}' {word} on {}", job.name, name_list(&ips))
    } else if job.view.servers.is_empty() {
        format!("job '{}' has no servers: nothing to change", job.name)
    } else {
        format!(
            "job '{}' is already {word} on {}: nothing to change",
            job.name,
            args.server.as_deref().unwrap_or("every server")
        )
    };
    let doc = ActionDoc { action, job: Some(job.name.clone()), server: args.server.clone(), changed: done };
    report(global, out, &doc, &note)?;
    Ok(Exit::Ok)
}

async fn shutdown(global: &GlobalArgs, args: &ServerArgs, out: &mut Output) -> Result<Exit> {
    path::validate_job_name(&args.job).map_err(CliError::usage)?;
    if let Some(ip) = &args.server {
        check_ip(ip)?;
    }
    let admin = Admin::connect(global).await?;
    let job = admin.read_job(&args.job).await?;
    if let Some(ip) = &args.server {
        check_server(&admin, &job, ip, true)?;
    }
    let ids = instances_of(&job, args.server.as_deref());
    let changes: Vec<Change> =
        ids.iter().map(|id| Change::Instance { job: job.name.clone(), id: id.clone() }).collect();
    let mut done = Vec::new();
    if !changes.is_empty() {
        prompt::confirm(
            global,
            &format!("shut down job '{}' on {} instance(s) ({})", job.name, ids.len(), name_list(&ids)),
        )?;
        done = apply(&admin.registry, &changes).await?;
    }
    let note = if done.is_empty() {
        format!("job '{}' has no live instances{}: nothing to shut down", job.name, on_server(args.server.as_deref()))
    } else {
        let gone: Vec<&str> = done.iter().filter_map(|c| c.instance.as_deref()).collect();
        format!("job '{}' shut down on {}", job.name, name_list(&gone))
    };
    let doc = ActionDoc { action: "shutdown", job: Some(job.name.clone()), server: args.server.clone(), changed: done };
    report(global, out, &doc, &note)?;
    Ok(Exit::Ok)
}

fn on_server(ip: Option<&str>) -> String {
    ip.map(|ip| format!(" on server {ip}")).unwrap_or_default()
}

/// The live instances of a job, all or those on `ip`.
pub(crate) fn instances_of(job: &JobData, ip: Option<&str>) -> Vec<String> {
    match ip {
        Some(ip) => status::instances_on(&job.view, ip),
        None => job.view.instances.keys().cloned().collect(),
    }
}

async fn remove(global: &GlobalArgs, args: &RemoveArgs, out: &mut Output) -> Result<Exit> {
    path::validate_job_name(&args.job).map_err(CliError::usage)?;
    if let Some(ip) = &args.server {
        check_ip(ip)?;
    }
    let admin = Admin::connect(global).await?;
    let job = admin.read_job(&args.job).await?;
    if let Some(ip) = &args.server {
        check_server(&admin, &job, ip, true)?;
    }
    let ids = instances_of(&job, args.server.as_deref());
    let ips: Vec<String> =
        job.view.servers.keys().filter(|ip| args.server.as_ref().is_none_or(|s| s == *ip)).cloned().collect();
    let mut changes: Vec<Change> =
        ids.iter().map(|id| Change::Instance { job: job.name.clone(), id: id.clone() }).collect();
    changes.extend(ips.iter().map(|ip| Change::DeleteServer { job: job.name.clone(), ip: ip.clone() }));
    if args.purge {
        changes.push(Change::Purge { job: job.name.clone() });
    }
    let mut done = Vec::new();
    if !changes.is_empty() {
        let question = if args.purge {
            format!(
                "delete job '{}' with its configuration ({} instance(s) shut down, {} server(s))",
                job.name,
                ids.len(),
                ips.len()
            )
        } else {
            format!(
                "remove job '{}'{} ({} instance(s) shut down, {} server node(s) deleted)",
                job.name,
                on_server(args.server.as_deref()),
                ids.len(),
                ips.len()
            )
        };
        prompt::confirm(global, &question)?;
        done = apply(&admin.registry, &changes).await?;
    }
    let note = if args.purge {
        format!("job '{}' deleted", job.name)
    } else if done.is_empty() {
        format!(
            "job '{}' has no servers or instances{}: nothing to remove",
            job.name,
            on_server(args.server.as_deref())
        )
    } else {
        format!(
            "job '{}' removed{}: {} instance(s) shut down, {} server node(s) deleted",
            job.name,
            on_server(args.server.as_deref()),
            done.iter().filter(|c| c.instance.is_some()).count(),
            done.iter().filter(|c| c.server.is_some()).count()
        )
    };
    let doc = ActionDoc { action: "remove", job: Some(job.name.clone()), server: args.server.clone(), changed: done };
    report(global, out, &doc, &note)?;
    Ok(Exit::Ok)
}

// ---------------------------------------------------------------------------------------------
// job trigger
// ---------------------------------------------------------------------------------------------

/// `job trigger -o json`: `{"job", "triggered": [ids]}`; with `--wait` also `"token"`,
/// `"results"`, `"missing"`, `"skipped"` and `"ok"`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TriggerDoc {
    job: String,
    triggered: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    results: Option<Vec<ItemResult>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<Vec<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<Vec<Skipped>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ok: Option<bool>,
}

/// One item's outcome.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
struct ItemResult {
    item: u32,
    instance: String,
    success: bool,
    exit_code: Option<i32>,
    elapsed_ms: u64,
    message: Option<String>,
}

/// An item `--wait` does not wait for, and why.
#[derive(Debug, Clone, Serialize)]
struct Skipped {
    item: u32,
    reason: String,
}

/// Which items a trigger will run: those owned by a live instance on an enabled server and not
/// disabled (what an ejctl worker runs for a trigger); the others, with the reason.
fn expected_items(job: &JobData, total: u32) -> (BTreeMap<u32, String>, Vec<Skipped>) {
    let mut expected = BTreeMap::new();
    let mut skipped = Vec::new();
    for item in 0..total {
        let state = job.view.items.get(&item);
        let owner = state.and_then(|s| s.owner.clone());
        let reason = match (&owner, state) {
            (_, Some(s)) if s.disabled => Some("the item is disabled".to_string()),
            (None, _) => Some("the item has no owner yet (sharding pending)".to_string()),
            (Some(o), _) if !job.view.instances.contains_key(o) => Some(format!("its owner {o} is not live")),
            (Some(o), _) if !job.view.is_available(o) => {
                Some(format!("its owner's server {} is disabled", job.view.instance_server_ip(o)))
            }
            _ => None,
        };
        match (reason, owner) {
            (Some(reason), _) => skipped.push(Skipped { item, reason }),
            (None, owner) => {
                expected.extend(owner.map(|o| (item, o)));
            }
        }
    }
    (expected, skipped)
}

async fn trigger(global: &GlobalArgs, args: &TriggerArgs, out: &mut Output) -> Result<Exit> {
    path::validate_job_name(&args.job).map_err(CliError::usage)?;
    let admin = Admin::connect(global).await?;
    let job = admin.read_job(&args.job).await?;
    let ids: Vec<String> = job.view.instances.keys().cloned().collect();
    if ids.is_empty() {
        return Err(anyhow::anyhow!("job '{}' has no live instances to trigger", job.name));
    }
    let token = args.wait.then(|| uuid::Uuid::new_v4().to_string());
    let mut plan = None;
    if args.wait {
        let total = job.total().ok_or_else(|| {
            anyhow::anyhow!(
                "job '{}' has no usable shardingTotalCount: {}",
                job.name,
                job.config.as_ref().err().cloned().unwrap_or_else(|| "it is not positive".into())
            )
        })?;
        let (expected, skipped) = expected_items(&job, total);
        if expected.is_empty() {
            return Err(CliError::refused(format!(
                "job '{}': no item is owned by a live instance on an enabled server, nothing to wait for ({})",
                job.name,
                skipped.iter().map(|s| format!("item {}: {}", s.item, s.reason)).collect::<Vec<_>>().join("; ")
            ))
            .into());
        }
        plan = Some((expected, skipped));
    }

    // Watch the results before anything can be written there.
    let mut watch = match &token {
        Some(t) => Some(admin.registry.watch_subtree(&job.paths.trigger_results(t)).await?),
        None => None,
    };
    let data = token.as_deref().unwrap_or("").as_bytes().to_vec();
    admin
        .registry
        .delete_recursive(&job.paths.triggers())
        .await
        .with_context(|| format!("cannot clear the trigger nodes of job '{}'", job.name))?;
    let mut ops = vec![Op::Create { path: job.paths.triggers(), data: Vec::new(), mode: Mode::Persistent }];
    ops.extend(ids.iter().map(|id| Op::Create {
        path: job.paths.trigger(id),
        data: data.clone(),
        mode: Mode::Persistent,
    }));
    admin.registry.transaction(&ops).await.with_context(|| format!("cannot trigger job '{}'", job.name))?;

    let (Some(token), Some(watch), Some((expected, skipped))) = (token, watch.as_mut(), plan) else {
        let note = format!("job '{}' triggered on {}", job.name, name_list(&ids));
        if out.format.is_document() {
            out.document(&TriggerDoc {
                job: job.name.clone(),
                triggered: ids,
                token: None,
                results: None,
                missing: None,
                skipped: None,
                ok: None,
            })?;
        } else if !global.quiet {
            out.note(&note)?;
        }
        return Ok(Exit::Ok);
    };

    let waited = wait_for_results(global, &admin.registry, &job, &token, watch, &expected, args.timeout).await;
    let cleanup = admin.registry.delete_recursive(&job.paths.trigger_results(&token)).await;
    if let Err(e) = &cleanup {
        tracing::warn!(job = %job.name, error = %e, "cannot delete the trigger results");
    }
    let (results, outcome) = waited?;
    let missing: Vec<u32> = expected.keys().filter(|i| !results.contains_key(i)).copied().collect();
    let results: Vec<ItemResult> = results
        .into_iter()
        .map(|(item, r)| ItemResult {
            item,
            instance: r.instance,
            success: r.success,
            exit_code: r.exit_code,
            elapsed_ms: r.elapsed_ms,
            message: r.message,
        })
        .collect();
    let failed: Vec<&ItemResult> = results.iter().filter(|r| !r.success).collect();
    let ok = failed.is_empty() && missing.is_empty();
    render_results(out, &job, &ids, &token, &results, &missing, &skipped, &expected, ok)?;

    if outcome == WaitOutcome::Interrupted {
        return Err(
            CliError::new(Exit::Interrupted, format!("interrupted while waiting for job '{}'", job.name)).into()
        );
    }
    let failures = match failed.as_slice() {
        [] => None,
        [one] => Some(format!(
            "item {} failed on {}{}",
            one.item,
            one.instance,
            one.exit_code.map(|c| format!(" (exit code {c})")).unwrap_or_default()
        )),
        many => Some(format!(
            "{} items failed ({})",
            many.len(),
            many.iter().map(|r| r.item.to_string()).collect::<Vec<_>>().join(", ")
        )),
    };
    if !missing.is_empty() {
        let items: Vec<String> = missing.iter().map(u32::to_string).collect();
        let also = failures.map(|f| format!("; {f}")).unwrap_or_default();
        return Err(anyhow::anyhow!(
            "job '{}': timed out after {} waiting for item{} {}{also}",
            job.name,
            humanize(args.timeout),
            if missing.len() == 1 { "" } else { "s" },
            items.join(", ")
        ));
    }
    if let Some(f) = failures {
        return Err(anyhow::anyhow!("job '{}': {f}", job.name));
    }
    Ok(Exit::Ok)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WaitOutcome {
    Done,
    TimedOut,
    Interrupted,
}

/// Waits, with the registry watch, until every expected item has a result, the timeout passes
/// or the user interrupts.
async fn wait_for_results(
    global: &GlobalArgs,
    registry: &Registry,
    job: &JobData,
    token: &str,
    watch: &mut crate::registry::SubtreeWatch,
    expected: &BTreeMap<u32, String>,
    timeout: Duration,
) -> Result<(BTreeMap<u32, TriggerResult>, WaitOutcome)> {
    let bar = if global.show_progress() {
        let bar = indicatif::ProgressBar::new(expected.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} items ({elapsed})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message(format!("waiting for job '{}'", job.name));
        bar.enable_steady_tick(Duration::from_millis(100));
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let deadline = tokio::time::Instant::now() + timeout;
    let mut results = read_results(registry, job, token).await?;
    let done = |r: &BTreeMap<u32, TriggerResult>| expected.keys().all(|i| r.contains_key(i));
    let outcome = loop {
        bar.set_position(expected.keys().filter(|i| results.contains_key(i)).count() as u64);
        if done(&results) {
            break WaitOutcome::Done;
        }
        tokio::select! {
            event = watch.next() => match event {
                Some(WatchEvent::Created(p) | WatchEvent::Changed(p)) => {
                    if let Some((_, Node::TriggerResult(t, item))) = path::parse(&p)
                        && t == token
                        && let Some(node) = registry.get(&p).await?
                    {
                        match TriggerResult::decode(&node.data) {
                            Ok(r) => {
                                results.insert(item, r);
                            }
                            Err(e) => tracing::warn!(job = %job.name, item, error = %e, "unreadable trigger result"),
                        }
                    }
                }
                Some(WatchEvent::Resync) => results = read_results(registry, job, token).await?,
                Some(WatchEvent::Deleted(_)) => {}
                None => return Err(anyhow::anyhow!("the registry connection closed while waiting for job '{}'", job.name)),
            },
            () = tokio::time::sleep_until(deadline) => break WaitOutcome::TimedOut,
            _ = tokio::signal::ctrl_c() => break WaitOutcome::Interrupted,
        }
    };
    bar.finish_and_clear();
    Ok((results, outcome))
}

/// Every result written so far for `token`.
async fn read_results(registry: &Registry, job: &JobData, token: &str) -> Result<BTreeMap<u32, TriggerResult>> {
    let root = job.paths.trigger_results(token);
    let names = registry.children(&root).await?.unwrap_or_default();
    let items: Vec<u32> = names.iter().filter_map(|n| path::parse_item(n)).collect();
    let paths: Vec<String> = items.iter().map(|i| job.paths.trigger_result(token, *i)).collect();
    let nodes = registry.get_many(&paths).await?;
    let mut out = BTreeMap::new();
    for (item, node) in items.into_iter().zip(nodes) {
        if let Some(node) = node {
            match TriggerResult::decode(&node.data) {
                Ok(r) => {
                    out.insert(item, r);
                }
                Err(e) => tracing::warn!(job = %job.name, item, error = %e, "unreadable trigger result"),
            }
        }
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)] // One call site; a struct would only rename the arguments.
fn render_results(
    out: &mut Output,
    job: &JobData,
    ids: &[String],
    token: &str,
    results: &[ItemResult],
    missing: &[u32],
    skipped: &[Skipped],
    expected: &BTreeMap<u32, String>,
    ok: bool,
) -> Result<()> {
    match out.format {
        Format::Json | Format::Yaml => out.document(&TriggerDoc {
            job: job.name.clone(),
            triggered: ids.to_vec(),
            token: Some(token.to_string()),
            results: Some(results.to_vec()),
            missing: Some(missing.to_vec()),
            skipped: Some(skipped.to_vec()),
            ok: Some(ok),
        }),
        Format::Plain | Format::Table => {
            let mut rows: Vec<(u32, [String; 6])> = results
                .iter()
                .map(|r| {
                    (
                        r.item,
                        [
                            r.item.to_string(),
                            r.instance.clone(),
                            if r.success { "ok".into() } else { "failed".into() },
                            r.exit_code.map(|c| c.to_string()).unwrap_or_default(),
                            humanize(Duration::from_millis(r.elapsed_ms)),
                            r.message.clone().unwrap_or_default(),
                        ],
                    )
                })
                .collect();
            rows.extend(missing.iter().map(|i| {
                (
                    *i,
                    [
                        i.to_string(),
                        expected.get(i).cloned().unwrap_or_default(),
                        "missing".into(),
                        String::new(),
                        String::new(),
                        "no result before the timeout".into(),
                    ],
                )
            }));
            rows.extend(skipped.iter().filter(|s| !results.iter().any(|r| r.item == s.item)).map(|s| {
                (
                    s.item,
                    [
                        s.item.to_string(),
                        String::new(),
                        "skipped".into(),
                        String::new(),
                        String::new(),
                        s.reason.clone(),
                    ],
                )
            }));
            rows.sort_by_key(|(i, _)| *i);
            if out.format == Format::Plain {
                let rows: Vec<Vec<String>> = rows.into_iter().map(|(_, r)| r.to_vec()).collect();
                out.rows(&rows)
            } else {
                let mut table = Table::new();
                table.set_header(["ITEM", "INSTANCE", "RESULT", "EXIT", "ELAPSED", "MESSAGE"]);
                for (_, r) in rows {
                    table.add_row(r);
                }
                out.table(table)
            }
        }
    }
}

/// A duration for people: `850ms`, `1.2s`, `3m05s`.
pub(crate) fn humanize(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms}ms")
    } else if ms < 60_000 {
        let s = d.as_secs_f64();
        if (s - s.trunc()).abs() < 1e-9 { format!("{}s", d.as_secs()) } else { format!("{s:.1}s") }
    } else {
        format!("{}m{:02}s", d.as_secs() / 60, d.as_secs() % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Stat;

    fn node(path: &str, value: &str) -> TreeNode {
        TreeNode { path: path.into(), node: NodeData { data: value.as_bytes().to_vec(), stat: Stat::default() } }
    }

    #[test]
    fn expected_items_follow_what_a_worker_runs() {
        let nodes = vec![
            node("/j", "SCRIPT"),
            node("/j/config", "jobName: j\nshardingTotalCount: 5\n"),
            node("/j/servers/10.0.0.1", "ENABLED"),
            node("/j/servers/10.0.0.2", "DISABLED"),
            node("/j/instances/10.0.0.1@-@1", "jobInstanceId: 10.0.0.1@-@1\nserverIp: 10.0.0.1\n"),
            node("/j/instances/10.0.0.2@-@2", "jobInstanceId: 10.0.0.2@-@2\nserverIp: 10.0.0.2\n"),
            node("/j/sharding/0/instance", "10.0.0.1@-@1"),
            node("/j/sharding/1/instance", "10.0.0.1@-@1"),
            node("/j/sharding/1/disabled", ""),
            node("/j/sharding/2/instance", "10.0.0.2@-@2"),
            node("/j/sharding/3/instance", "10.0.0.3@-@3"),
        ];
        let job = JobData::new("j", &nodes);
        assert_eq!(job.total(), Some(5));
        let (expected, skipped) = expected_items(&job, 5);
        assert_eq!(expected.keys().copied().collect::<Vec<_>>(), [0]);
        let reasons: Vec<(u32, &str)> = skipped.iter().map(|s| (s.item, s.reason.as_str())).collect();
        assert_eq!(
            reasons,
            [
                (1, "the item is disabled"),
                (2, "its owner's server 10.0.0.2 is disabled"),
                (3, "its owner 10.0.0.3@-@3 is not live"),
                (4, "the item has no owner yet (sharding pending)"),
            ]
        );
    }

    #[test]
    fn durations_for_people() {
        assert_eq!(humanize(Duration::from_millis(850)), "850ms");
        assert_eq!(humanize(Duration::from_secs(1)), "1s");
        assert_eq!(humanize(Duration::from_millis(1250)), "1.2s");
        assert_eq!(humanize(Duration::from_secs(185)), "3m05s");
        assert_eq!(name_list(&["a", "b"]), "a, b");
        assert_eq!(name_list(&["1", "2", "3", "4", "5", "6", "7"]), "1, 2, 3, 4, 5 and 2 more");
    }
}
