//! `ejctl job ...`: list, show, trigger, disable/enable (pause/resume), shutdown and remove jobs,
//! with the node effects of ElasticJob's `JobOperateAPI`
//! (docs/src/design/compatibility.md#admin-operations) and the statuses of its statistics API
//! (docs/src/design/compatibility.md#statuses, computed by [`crate::coord::status`]).
//!
//! Reading, planning and applying are [`crate::ops`]'s; this module parses the arguments, asks
//! for confirmation (`shutdown` and `remove`, [`super::prompt::confirm`]) and renders. A job
//! exists when `/{job}/config` exists: `job list` skips a bare `/{job}` without config, and naming
//! one is "not found" (exit 3).
//!
//! Mutations validate everything (job, server) before the first write, and are no-ops (exit 0)
//! when the tree already says what was asked. In `table`/`plain` mode a short confirmation goes
//! to stderr and stdout stays empty; `-o json|yaml` prints an action document
//! ([`super::render::ActionDoc`]). `job trigger` is in [`super::trigger`].

use anyhow::Result;
use chrono::Utc;
use clap::{Args, Subcommand};
use comfy_table::Table;
use serde::Serialize;

use super::global::{self, Changes, GlobalArgs, Reads};
use super::output::{Block, Output, Render};
use super::render::{ActionDoc, ActionOutcome, health_notes, item_plain_row, item_table, overview_rows};
use super::{prompt, trigger};
use crate::config::schema::{self, Kind};
use crate::config::secrets;
use crate::coord::pin;
use crate::exit::Exit;
use crate::ops::change::{self, Change};
use crate::ops::read::JobData;
use crate::ops::report::{self, JobBrief, JobDetail};
use crate::ops::text::{ago, item_ranges, join_items, name_list, rfc3339, when};
use crate::ops::{check_ip, check_job_name};
use crate::registry::codec::ServerStatus;

/// `ejctl job ...`.
#[derive(Debug, Subcommand)]
pub enum JobCmd {
    /// List the jobs of the namespace: status, cron, next fire, instances, items, description.
    #[command(
        after_help = "Examples:\n  ejctl job list\n  ejctl job list -o json | jq '.jobs[] | select(.health == \"FAILING\")'\n  ejctl job list --watch\n  ejctl job list --watch -o json    # one JSON line per change"
    )]
    List(Reads<ListArgs>),
    /// Show one job: configuration, servers, instances, sharding, failover and leader.
    #[command(after_help = "Examples:\n  ejctl job show myJob\n  ejctl job show myJob -o json | jq .job.sharding")]
    Show(Reads<ShowArgs>),
    /// Trigger a job now on every live instance; --wait follows the items until they finish.
    #[command(
        after_help = "Examples:\n  ejctl job trigger myJob\n  ejctl job trigger myJob --wait --timeout 5m\n\nWith --wait the exit status is 0 when every item succeeded and 1 when an item failed or the\ntimeout passed. Only ejctl workers report results; a Java instance runs the trigger but never\nreports, so --wait on a Java cluster ends at the timeout."
    )]
    Trigger(Reads<trigger::TriggerArgs>),
    /// Disable a job on every server, or on one with --server (its items move elsewhere).
    #[command(after_help = "Examples:\n  ejctl job disable myJob\n  ejctl job disable myJob --server 10.0.0.5")]
    Disable(Reads<ServerArgs>),
    /// Enable a job on every server, or on one with --server.
    #[command(after_help = "Examples:\n  ejctl job enable myJob\n  ejctl job enable myJob --server 10.0.0.5")]
    Enable(Reads<ServerArgs>),
    /// Pause a job: the same as disable (ElasticJob 3.x folded 2.x's pause into DISABLED).
    #[command(after_help = "Example:\n  ejctl job pause myJob --server 10.0.0.5")]
    Pause(Reads<ServerArgs>),
    /// Resume a job: the same as enable.
    #[command(after_help = "Example:\n  ejctl job resume myJob")]
    Resume(Reads<ServerArgs>),
    /// Shut a job's instances down (all, or those of one server); they stay down until restarted.
    #[command(
        after_help = "Examples:\n  ejctl job shutdown myJob --server 10.0.0.5\n  ejctl job shutdown myJob --yes\n\nDeletes the instance nodes; each owning process stops the job at once: its running items are\nkilled (SIGTERM, then SIGKILL after kill_grace_seconds), without the graceful wait of a stop\nsignal, and their items fail over to the other instances. The job stays down in those\nprocesses until they restart. To stop fires but let running items finish: ejctl job disable."
    )]
    Shutdown(Changes<ServerArgs>),
    /// Remove a job from its servers (shutdown, then delete servers/*); --purge deletes the job.
    #[command(
        after_help = "Examples:\n  ejctl job remove myJob --server 10.0.0.5\n  ejctl job remove myJob --purge --yes\n\nRunning items are killed at once, as with `job shutdown`. Without --purge the configuration\nstays (ElasticJob's JobOperateAPI.remove): `job list` then shows the job as CRASHED (configured,\nno live instance), and it comes back when a worker whose job file has it restarts. --purge\ndeletes the whole /{job} tree (removeJobConfiguration); a worker with the job in its file\nstill publishes it again when it restarts, so remove the job from the files first."
    )]
    Remove(Changes<RemoveArgs>),
}

/// Arguments of `ejctl job list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Redraw after every change in the registry (ZooKeeper watches, no polling); Ctrl-C ends.
    #[arg(short, long)]
    pub watch: bool,
}

/// A job name.
#[derive(Debug, Args)]
pub struct JobArg {
    /// The job name.
    pub job: String,
}

/// Arguments of `job show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The job name.
    pub job: String,
    /// Show the secrets of the configuration (`email.password`, `dingtalk.secret`, tokens in
    /// webhook URLs) instead of `****`.
    #[arg(long)]
    pub show_secrets: bool,
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
        JobCmd::List(a) => list(global, a.args.watch, out).await,
        JobCmd::Show(a) => show(global, &a.args.job, a.args.show_secrets, out).await,
        JobCmd::Trigger(a) => trigger::exec(global, &a.args, out).await,
        JobCmd::Disable(a) => set_status(global, &a.args, "disable", ServerStatus::Disabled, out).await,
        JobCmd::Enable(a) => set_status(global, &a.args, "enable", ServerStatus::Enabled, out).await,
        JobCmd::Pause(a) => set_status(global, &a.args, "pause", ServerStatus::Disabled, out).await,
        JobCmd::Resume(a) => set_status(global, &a.args, "resume", ServerStatus::Enabled, out).await,
        JobCmd::Shutdown(a) => shutdown(global, &a.args, out).await,
        JobCmd::Remove(a) => remove(global, &a.args, out).await,
    }
}

// ---------------------------------------------------------------------------------------------
// job list
// ---------------------------------------------------------------------------------------------

/// `job list`.
struct JobList {
    namespace: String,
    jobs: Vec<JobBrief>,
}

/// `job list -o json`: `{"namespace", "jobs": [JobBrief]}`.
#[derive(Serialize)]
struct JobListDoc<'a> {
    namespace: &'a str,
    jobs: &'a [JobBrief],
}

impl Render for JobList {
    fn document(&self) -> impl Serialize {
        JobListDoc { namespace: &self.namespace, jobs: &self.jobs }
    }

    fn plain(&self) -> Vec<Block> {
        let rows = self
            .jobs
            .iter()
            .map(|b| {
                vec![
                    b.name.clone(),
                    b.status.to_string(),
                    b.cron.clone().unwrap_or_default(),
                    b.next_fire.as_ref().map(rfc3339).unwrap_or_default(),
                    b.instance_count.to_string(),
                    b.sharding_total_count.to_string(),
                    b.description.clone(),
                    b.last_run.as_ref().map(rfc3339).unwrap_or_default(),
                    b.health.to_string(),
                    b.time_zone.clone().unwrap_or_default(),
                    join_items(&b.failing_items),
                    join_items(&b.overdue_items),
                    join_items(&b.slow_items),
                    b.cannot_shard.as_ref().map(|c| c.reason.clone()).unwrap_or_default(),
                ]
            })
            .collect();
        vec![Block::Rows(rows)]
    }

    fn table(&self) -> Vec<Block> {
        vec![Block::table(self.job_table(false))]
    }

    fn wide(&self) -> Vec<Block> {
        vec![Block::table(self.job_table(true))]
    }
}

impl JobList {
    /// The jobs as a table: times relative (`2m ago`, `in 3s`), or in full with `wide` (with
    /// the offset of the job's time zone).
    fn job_table(&self, wide: bool) -> Table {
        let now = Utc::now();
        let mut table = Table::new();
        table.set_header([
            "NAME",
            "STATUS",
            "HEALTH",
            "CRON",
            "LAST RUN",
            "NEXT FIRE",
            "INSTANCES",
            "ITEMS",
            "DESCRIPTION",
        ]);
        for b in &self.jobs {
            let cron = b.cron_cell();
            let time = |t: Option<&chrono::DateTime<Utc>>| {
                if wide { when(t, b.time_zone.as_deref(), now) } else { ago(t, now) }
            };
            table.add_row([
                b.name.clone(),
                b.status.to_string(),
                b.health_cell(),
                cron,
                time(b.last_run.as_ref()),
                time(b.next_fire.as_ref()),
                b.instance_count.to_string(),
                b.sharding_total_count.to_string(),
                b.description.clone(),
            ]);
        }
        table
    }
}

async fn list(global: &GlobalArgs, watch: bool, out: &mut Output) -> Result<Exit> {
    let admin = global::admin(global).await?;
    let read = async || -> Result<JobList> {
        let jobs = admin.read_all().await?;
        for j in jobs.iter().filter(|j| j.has_config) {
            if let Err(e) = &j.config {
                tracing::warn!(job = %j.name, error = %e, "unreadable job configuration");
            }
        }
        let jobs = report::job_briefs(&jobs, Utc::now());
        Ok(JobList { namespace: admin.namespace().to_string(), jobs })
    };
    if watch {
        return super::watch::watch(out, admin.registry(), crate::registry::path::NAMESPACE_ROOT, read).await;
    }
    out.render(&read().await?)?;
    Ok(Exit::Ok)
}

// ---------------------------------------------------------------------------------------------
// job show
// ---------------------------------------------------------------------------------------------

/// `job show`: the job as read and what the views derive from it.
struct JobShow {
    job: JobData,
    detail: JobDetail,
}

/// `job show -o json`: `{"job": JobDetail}`.
#[derive(Serialize)]
struct JobShowDoc<'a> {
    job: &'a JobDetail,
}

impl Render for JobShow {
    fn document(&self) -> impl Serialize {
        JobShowDoc { job: &self.detail }
    }

    /// One record per line, the first field naming the record type.
    fn plain(&self) -> Vec<Block> {
        let (job, d) = (&self.job, &self.detail);
        let mut rows = vec![
            vec!["job".into(), d.name.clone(), d.job_type.clone(), d.status.to_string()],
            vec!["cron".into(), job.cron().unwrap_or_default().into(), job.time_zone().unwrap_or_default().into()],
            vec!["next_fire".into(), d.next_fire.as_ref().map(rfc3339).unwrap_or_default()],
            vec![schema::field(schema::FieldId::ShardingTotalCount).file.into(), job.total().unwrap_or(0).to_string()],
            vec!["leader".into(), d.leader.clone().unwrap_or_default()],
            vec!["namespace".into(), d.namespace.clone()],
            vec!["resharding_needed".into(), d.resharding_needed.to_string()],
            vec!["config_error".into(), d.config_error.clone().unwrap_or_default()],
            vec!["cannot_shard".into(), d.cannot_shard.as_ref().map(|c| c.reason.clone()).unwrap_or_default()],
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
            rows.push(item_plain_row("item", r));
        }
        for p in &d.failover.pending {
            rows.push(vec!["failover_pending".into(), p.item.to_string(), p.owner.clone().unwrap_or_default()]);
        }
        for a in &d.failover.assigned {
            rows.push(vec![
                "failover_assigned".into(),
                a.item.to_string(),
                a.owner.clone().unwrap_or_default(),
                a.failover.clone().unwrap_or_default(),
                a.failovering.clone().unwrap_or_default(),
                a.running.to_string(),
            ]);
        }
        vec![Block::Rows(rows)]
    }

    fn table(&self) -> Vec<Block> {
        self.blocks(false)
    }

    fn wide(&self) -> Vec<Block> {
        self.blocks(true)
    }
}

impl JobShow {
    /// The table views: the head, servers, instances and the items (times in full with `wide`).
    fn blocks(&self, wide: bool) -> Vec<Block> {
        let d = &self.detail;
        let (items, rest) = self.overview();
        let mut servers = Table::new();
        servers.set_header(["IP", "STATUS", "INSTANCES"]);
        for s in &d.servers {
            servers.add_row([s.ip.clone(), s.status.clone(), s.instances.join(", ")]);
        }
        let mut instances = Table::new();
        instances.set_header(["INSTANCE", "SERVER IP", "LEADER", "ITEMS"]);
        for i in &d.instances {
            instances.add_row([
                i.id.clone(),
                i.server_ip.clone(),
                if i.leader { "yes".into() } else { String::new() },
                item_ranges(&i.items),
            ]);
        }
        let mut blocks = vec![
            Block::Text(self.head()),
            Block::Text("\nServers\n".into()),
            Block::table(servers),
            Block::Text("\nInstances\n".into()),
            Block::table(instances),
            Block::Text("\nSharding\n".into()),
            Block::table(item_table(&items, self.job.time_zone(), wide)),
        ];
        blocks.extend(rest.map(Block::Text));
        blocks.extend(health_notes(&items).map(Block::Text));
        blocks
    }

    /// The item rows the table views show, and the note on the rest ([`overview_rows`]).
    fn overview(&self) -> (Vec<report::ItemRow>, Option<String>) {
        overview_rows(&self.detail.sharding, &self.detail.name)
    }

    /// The key-value head of the table view.
    fn head(&self) -> String {
        let (job, d) = (&self.job, &self.detail);
        let mut head: Vec<(String, String)> = Vec::new();
        let mut kv = |k: &str, v: String| head.push((k.to_string(), v));
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
                kv("Next fire", when(d.next_fire.as_ref(), job.time_zone(), Utc::now()));
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
                // A value the workers refuse is marked: what runs is their job file's.
                let mark = |key: &str| if d.overridden.contains(key) { " (overridden)" } else { "" };
                let handler = pin::current(c, pin::error_handler_type()).unwrap_or_default();
                if handler != "LOG" || !mark(pin::error_handler_type()).is_empty() {
                    kv("Error handler", format!("{handler}{}", mark(pin::error_handler_type())));
                }
                if !c.props.is_empty() {
                    kv(
                        "Props",
                        c.props.iter().map(|(k, v)| format!("{k}={v}{}", mark(k))).collect::<Vec<_>>().join(" "),
                    );
                }
                if let Some(desc) = c.description.as_deref().filter(|s| !s.is_empty()) {
                    kv("Description", desc.to_string());
                }
            }
            Err(e) => kv("Config", format!("unreadable: {e}")),
        }
        kv("Leader", d.leader.as_deref().filter(|s| !s.is_empty()).unwrap_or("-").to_string());
        if d.resharding_needed {
            kv("Resharding", "pending (the leader's resharding flag is set)".to_string());
        }
        if let Some(c) = &d.cannot_shard {
            kv("Health", format!("{}: {}", crate::ops::report::Health::CannotShard, c.reason));
        }
        let failover_queue: Vec<u32> = d.failover.pending.iter().map(|p| p.item).collect();
        kv("Failover queue", if failover_queue.is_empty() { "-".into() } else { item_ranges(&failover_queue) });
        let width = head.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(0);
        head.iter().map(|(k, v)| format!("{}\n", format!("{k:<width$}   {v}").trim_end())).collect()
    }
}

async fn show(global: &GlobalArgs, name: &str, show_secrets: bool, out: &mut Output) -> Result<Exit> {
    check_job_name(name)?;
    let admin = global::admin(global).await?;
    let mut job = admin.read_job(name).await?;
    let mut detail = report::job_detail(admin.namespace(), &job, Utc::now());
    if !show_secrets {
        secrets::mask_document(&mut detail.config);
        job.config_text = secrets::mask_yaml(&job.config_text);
        if let Ok(config) = &mut job.config {
            config.props = secrets::mask_props(&config.props);
        }
    }
    out.render(&JobShow { job, detail })?;
    Ok(Exit::Ok)
}

// ---------------------------------------------------------------------------------------------
// Mutations
// ---------------------------------------------------------------------------------------------

/// ` on server IP`, or nothing.
fn on_server(ip: Option<&str>) -> String {
    ip.map(|ip| format!(" on server {ip}")).unwrap_or_default()
}

/// Checks the arguments before connecting, then reads the job.
async fn read(global: &GlobalArgs, job: &str, server: Option<&str>) -> Result<(crate::ops::Admin, JobData)> {
    check_job_name(job)?;
    if let Some(ip) = server {
        check_ip(ip)?;
    }
    let admin = global::admin(global).await?;
    let job = admin.read_job(job).await?;
    Ok((admin, job))
}

async fn set_status(
    global: &GlobalArgs,
    args: &ServerArgs,
    action: &'static str,
    to: ServerStatus,
    out: &mut Output,
) -> Result<Exit> {
    let server = args.server.as_deref();
    let (admin, job) = read(global, &args.job, server).await?;
    let changes = change::job_status(&admin, &job, server, &to)?;
    let done = admin.apply(&changes).await?;
    let word = if to.is_enabled() { "enabled" } else { "disabled" };
    let ips: Vec<&str> = done.iter().filter_map(|c| c.server.as_deref()).collect();
    let note = if !ips.is_empty() {
        format!("job '{}' {word} on {}", job.name, name_list(&ips))
    } else if job.view.servers.is_empty() {
        format!("job '{}' has no servers: nothing to change", job.name)
    } else {
        format!("job '{}' is already {word} on {}: nothing to change", job.name, server.unwrap_or("every server"))
    };
    let doc = ActionDoc { action, job: Some(job.name.clone()), server: args.server.clone(), changed: done };
    out.render(&ActionOutcome { doc, note })?;
    Ok(Exit::Ok)
}

async fn shutdown(global: &GlobalArgs, args: &ServerArgs, out: &mut Output) -> Result<Exit> {
    let server = args.server.as_deref();
    let (admin, job) = read(global, &args.job, server).await?;
    let changes = change::job_shutdown(&admin, &job, server)?;
    let mut done = Vec::new();
    if !changes.is_empty() {
        let ids: Vec<&str> = changes.iter().filter_map(Change::instance_id).collect();
        prompt::confirm(
            global,
            &format!("shut down job '{}' on {} instance(s) ({})", job.name, ids.len(), name_list(&ids)),
        )?;
        done = admin.apply(&changes).await?;
    }
    let note = if done.is_empty() {
        format!("job '{}' has no live instances{}: nothing to shut down", job.name, on_server(server))
    } else {
        let gone: Vec<&str> = done.iter().filter_map(|c| c.instance.as_deref()).collect();
        format!("job '{}' shut down on {}", job.name, name_list(&gone))
    };
    let doc = ActionDoc { action: "shutdown", job: Some(job.name.clone()), server: args.server.clone(), changed: done };
    out.render(&ActionOutcome { doc, note })?;
    Ok(Exit::Ok)
}

async fn remove(global: &GlobalArgs, args: &RemoveArgs, out: &mut Output) -> Result<Exit> {
    let server = args.server.as_deref();
    let (admin, job) = read(global, &args.job, server).await?;
    let changes = change::job_remove(&admin, &job, server, args.purge)?;
    let mut done = Vec::new();
    if !changes.is_empty() {
        let instances = changes.iter().filter(|c| c.instance_id().is_some()).count();
        let servers = changes.iter().filter(|c| c.deletes_server()).count();
        let question = if args.purge {
            format!(
                "delete job '{}' with its configuration ({instances} instance(s) shut down, {servers} server(s))",
                job.name
            )
        } else {
            format!(
                "remove job '{}'{} ({instances} instance(s) shut down, {servers} server node(s) deleted)",
                job.name,
                on_server(server)
            )
        };
        prompt::confirm(global, &question)?;
        done = admin.apply(&changes).await?;
    }
    let note = if args.purge {
        format!("job '{}' deleted", job.name)
    } else if done.is_empty() {
        format!("job '{}' has no servers or instances{}: nothing to remove", job.name, on_server(server))
    } else {
        format!(
            "job '{}' removed{}: {} instance(s) shut down, {} server node(s) deleted",
            job.name,
            on_server(server),
            done.iter().filter(|c| c.instance.is_some()).count(),
            done.iter().filter(|c| c.server.is_some()).count()
        )
    };
    let doc = ActionDoc { action: "remove", job: Some(job.name.clone()), server: args.server.clone(), changed: done };
    out.render(&ActionOutcome { doc, note })?;
    Ok(Exit::Ok)
}
