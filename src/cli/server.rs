//! `ejctl server ...`: servers (IPs) across every job of the namespace.
//!
//! * `server list`: ElasticJob's `ServerStatisticsAPI.getAllServersBriefInfo`
//!   (docs/src/design/compatibility.md#statuses): one row per IP found under any job's `servers`,
//!   with the live instances whose `serverIp` is that IP, the jobs it serves and those where it is
//!   `DISABLED`.
//! * `server show IP`: one server: every job that has `servers/{ip}` or a live instance on it,
//!   with its status there, the instances and the items they own. An IP no job knows is exit 3,
//!   with the closest known IP as a suggestion.
//! * `server disable|enable|shutdown|remove IP`: the `job = null` forms of `JobOperateAPI`
//!   (docs/src/design/compatibility.md#admin-operations) — every job (child of the namespace root,
//!   with or without config) that has `servers/{ip}` (for shutdown/remove: or a live instance on
//!   that IP). An IP no job knows is "not found" (exit 3); a malformed IP is a usage error (exit
//!   2). `shutdown` and `remove` ask for confirmation.
//! * `server prune [--older-than D]`: the `servers/{ip}` nodes of every job that nothing uses
//!   any more ([`crate::ops::prune`]): listed (a dry run) without `--yes`, deleted with it.

use std::time::Duration;

use anyhow::Result;
use clap::{Args, Subcommand};
use comfy_table::Table;
use serde::Serialize;

use super::global::{self, Changes, GlobalArgs, NoArgs, Reads};
use super::output::{Block, Output, Render};
use super::prompt;
use super::render::{ActionDoc, ActionOutcome};
use crate::exit::Exit;
use crate::ops::change::Changed;
use crate::ops::read::JobData;
use crate::ops::report::{self, ServerSummary};
use crate::ops::text::{item_ranges, join_items, name_list};
use crate::ops::{Admin, change, check_ip};
use crate::registry::codec::ServerStatus;

/// `ejctl server ...`.
#[derive(Debug, Subcommand)]
pub enum ServerCmd {
    /// List the servers (IPs) of the namespace with their instances and jobs.
    #[command(
        after_help = "Examples:\n  ejctl server list\n  ejctl server list -o json | jq '.servers[] | select(.disabledJobs != [])'"
    )]
    List(Reads<NoArgs>),
    /// Show one server: its jobs, their status there, its instances and their items.
    #[command(
        after_help = "Examples:\n  ejctl server show 10.0.0.5\n  ejctl server show 10.0.0.5 -o json | jq '.server.jobs[].job'"
    )]
    Show(Reads<IpArg>),
    /// Disable every job on a server: its instances get no items.
    #[command(after_help = "Example:\n  ejctl server disable 10.0.0.5")]
    Disable(Reads<IpArg>),
    /// Enable every job on a server.
    #[command(after_help = "Example:\n  ejctl server enable 10.0.0.5")]
    Enable(Reads<IpArg>),
    /// Shut down every job instance on a server (the processes stop their jobs until restarted).
    #[command(after_help = "Example:\n  ejctl server shutdown 10.0.0.5 --yes")]
    Shutdown(Changes<IpArg>),
    /// Shut a server's instances down and delete its servers/{ip} node from every job.
    #[command(after_help = "Example:\n  ejctl server remove 10.0.0.5 --yes")]
    Remove(Changes<IpArg>),
    /// List the servers/{ip} nodes nothing uses any more (no live instance, no sharding item on
    /// that IP, not disabled), across every job; with --yes, delete them.
    #[command(
        after_help = "A dry run unless --yes is given. A server that comes alive meanwhile is kept (the deletes are \
version-checked after the instances are read again).\n\nExamples:\n  ejctl server prune\n  ejctl server prune \
--older-than 1h --yes"
    )]
    Prune(Changes<PruneArgs>),
}

/// `server prune` options.
#[derive(Debug, Args)]
pub struct PruneArgs {
    /// Only servers whose node was not written during this long (e.g. 0s, 10m, 1h): a server
    /// just registering writes its node before its instance.
    #[arg(long, value_name = "DURATION", default_value = "1m", value_parser = global::parse_duration)]
    pub older_than: Duration,
}

/// A server IP.
#[derive(Debug, Args)]
pub struct IpArg {
    /// The server's IPv4 address.
    pub ip: String,
}

/// `server list -o json`: `{"servers": [ServerSummary]}`.
#[derive(Serialize)]
struct ServerListDoc {
    servers: Vec<ServerSummary>,
}

impl Render for ServerListDoc {
    fn document(&self) -> impl Serialize {
        self
    }

    fn plain(&self) -> Vec<Block> {
        let rows = self
            .servers
            .iter()
            .map(|s| {
                vec![
                    s.ip.clone(),
                    s.instances.len().to_string(),
                    s.jobs.len().to_string(),
                    s.disabled_jobs.len().to_string(),
                    s.instances.join(","),
                    s.jobs.join(","),
                    s.disabled_jobs.join(","),
                ]
            })
            .collect();
        vec![Block::Rows(rows)]
    }

    fn table(&self) -> Vec<Block> {
        let mut table = Table::new();
        table.set_header(["IP", "INSTANCES", "JOBS", "DISABLED JOBS", "INSTANCE IDS"]);
        for s in &self.servers {
            table.add_row([
                s.ip.clone(),
                s.instances.len().to_string(),
                s.jobs.len().to_string(),
                s.disabled_jobs.len().to_string(),
                name_list(&s.instances),
            ]);
        }
        vec![Block::table(table)]
    }
}

/// Runs `ejctl server ...`.
///
/// # Errors
/// A malformed IP (exit 2), an IP no job knows (exit 3), a declined confirmation (exit 4), an
/// unavailable registry (exit 5).
pub async fn exec(global: &GlobalArgs, cmd: ServerCmd, out: &mut Output) -> Result<Exit> {
    match cmd {
        ServerCmd::List(_) => list(global, out).await,
        ServerCmd::Show(a) => show(global, &a.args.ip, out).await,
        ServerCmd::Disable(a) => set_status(global, &a.args.ip, "disable", ServerStatus::Disabled, out).await,
        ServerCmd::Enable(a) => set_status(global, &a.args.ip, "enable", ServerStatus::Enabled, out).await,
        ServerCmd::Shutdown(a) => shutdown_or_remove(global, &a.args.ip, false, out).await,
        ServerCmd::Remove(a) => shutdown_or_remove(global, &a.args.ip, true, out).await,
        ServerCmd::Prune(a) => prune(global, a.args.older_than, out).await,
    }
}

/// `server prune`: lists the unused server nodes; with `--yes` deletes them.
async fn prune(global: &GlobalArgs, older_than: Duration, out: &mut Output) -> Result<Exit> {
    let admin = global::admin(global).await?;
    let plan = admin.plan_prune(None, older_than, chrono::Utc::now().timestamp_millis()).await?;
    let (changed, note) = if global.yes {
        let done = admin.prune(&plan).await?;
        let kept = plan.len() - done.len();
        let note = match (done.len(), kept) {
            (0, 0) => "no server to prune".to_string(),
            (n, 0) => format!("pruned {n} server node(s): {}", pairs(&done)),
            (n, k) => format!(
                "pruned {n} server node(s): {}; {k} came alive or changed meanwhile and were kept",
                pairs(&done)
            ),
        };
        (done, note)
    } else {
        let changed: Vec<Changed> = plan
            .iter()
            .map(|p| Changed {
                job: p.job.clone(),
                server: Some(p.ip.clone()),
                instance: None,
                item: None,
                effect: "unused",
            })
            .collect();
        let note = if changed.is_empty() {
            "no server to prune".to_string()
        } else {
            format!("{} unused server node(s): {} (dry run: pass --yes to delete them)", changed.len(), pairs(&changed))
        };
        (changed, note)
    };
    let doc =
        ActionDoc { action: if global.yes { "prune" } else { "prune-dry-run" }, job: None, server: None, changed };
    out.render(&ActionOutcome { doc, note })?;
    Ok(Exit::Ok)
}

/// `job/ip, job/ip` for a note.
fn pairs(changed: &[Changed]) -> String {
    let names: Vec<String> =
        changed.iter().map(|c| format!("{}/{}", c.job, c.server.as_deref().unwrap_or_default())).collect();
    name_list(&names)
}

async fn list(global: &GlobalArgs, out: &mut Output) -> Result<Exit> {
    let admin = global::admin(global).await?;
    let jobs = admin.read_all().await?;
    out.render(&ServerListDoc { servers: report::server_summaries(&jobs) })?;
    Ok(Exit::Ok)
}

/// `server show -o json`: `{"server": {"ip", "jobs": [{"job", "status", "instances", "items"}]}}`.
#[derive(Serialize)]
struct ServerShowDoc {
    server: ServerDetail,
}

#[derive(Serialize)]
struct ServerDetail {
    ip: String,
    jobs: Vec<ServerJob>,
}

/// One job on the server.
#[derive(Serialize)]
struct ServerJob {
    job: String,
    /// `servers/{ip}`: `ENABLED`, `DISABLED`, or `null` when the node is missing.
    status: Option<String>,
    /// The job's live instances on this server.
    instances: Vec<String>,
    /// The items they own.
    items: Vec<u32>,
}

impl Render for ServerShowDoc {
    fn document(&self) -> impl Serialize {
        self
    }

    fn plain(&self) -> Vec<Block> {
        let rows = self
            .server
            .jobs
            .iter()
            .map(|j| {
                vec![j.job.clone(), j.status.clone().unwrap_or_default(), j.instances.join(","), join_items(&j.items)]
            })
            .collect();
        vec![Block::Rows(rows)]
    }

    fn table(&self) -> Vec<Block> {
        let mut table = Table::new();
        table.set_header(["JOB", "STATUS", "INSTANCES", "ITEMS"]);
        for j in &self.server.jobs {
            table.add_row([
                j.job.clone(),
                j.status.clone().unwrap_or_else(|| "-".into()),
                j.instances.join(", "),
                item_ranges(&j.items),
            ]);
        }
        vec![Block::Text(format!("Server {}\n", self.server.ip)), Block::table(table)]
    }
}

async fn show(global: &GlobalArgs, ip: &str, out: &mut Output) -> Result<Exit> {
    let (_, jobs) = read_for_server(global, ip, true).await?;
    let jobs = jobs
        .iter()
        .filter_map(|j| {
            let rows: Vec<_> = report::instance_rows(j).into_iter().filter(|r| r.server_ip == ip).collect();
            let status = j.view.servers.get(ip).map(ToString::to_string);
            if status.is_none() && rows.is_empty() {
                return None;
            }
            let mut items: Vec<u32> = rows.iter().flat_map(|r| r.items.iter().copied()).collect();
            items.sort_unstable();
            Some(ServerJob { job: j.name.clone(), status, instances: rows.into_iter().map(|r| r.id).collect(), items })
        })
        .collect();
    out.render(&ServerShowDoc { server: ServerDetail { ip: ip.to_string(), jobs } })?;
    Ok(Exit::Ok)
}

/// Reads every job and checks that `ip` is known to at least one.
async fn read_for_server(global: &GlobalArgs, ip: &str, or_instances: bool) -> Result<(Admin, Vec<JobData>)> {
    check_ip(ip)?;
    let admin = global::admin(global).await?;
    let jobs = admin.read_all().await?;
    change::server_known(&admin, &jobs, ip, or_instances)?;
    Ok((admin, jobs))
}

async fn set_status(
    global: &GlobalArgs,
    ip: &str,
    action: &'static str,
    to: ServerStatus,
    out: &mut Output,
) -> Result<Exit> {
    let (admin, jobs) = read_for_server(global, ip, false).await?;
    let done = admin.apply(&change::server_status(&jobs, ip, &to)).await?;
    let word = if to.is_enabled() { "enabled" } else { "disabled" };
    let names: Vec<&str> = done.iter().map(|c| c.job.as_str()).collect();
    let note = if names.is_empty() {
        format!("server {ip} is already {word} for every job: nothing to change")
    } else {
        format!("server {ip} {word} for {} job(s): {}", names.len(), name_list(&names))
    };
    let doc = ActionDoc { action, job: None, server: Some(ip.to_string()), changed: done };
    out.render(&ActionOutcome { doc, note })?;
    Ok(Exit::Ok)
}

async fn shutdown_or_remove(global: &GlobalArgs, ip: &str, remove: bool, out: &mut Output) -> Result<Exit> {
    let (admin, jobs) = read_for_server(global, ip, true).await?;
    let changes = change::server_shutdown(&jobs, ip, remove);
    let mut done = Vec::new();
    if !changes.is_empty() {
        let instances = changes.iter().filter(|c| c.instance_id().is_some()).count();
        let question = if remove {
            format!(
                "remove server {ip} ({instances} instance(s) shut down, {} server node(s) deleted)",
                changes.len() - instances
            )
        } else {
            format!("shut down {instances} instance(s) on server {ip}")
        };
        prompt::confirm(global, &question)?;
        done = admin.apply(&changes).await?;
    }
    let stopped = done.iter().filter(|c| c.instance.is_some()).count();
    let deleted = done.iter().filter(|c| c.server.is_some()).count();
    let note = match (remove, done.is_empty()) {
        (false, true) => format!("server {ip} has no live instances: nothing to shut down"),
        (false, false) => format!("server {ip}: {stopped} instance(s) shut down"),
        (true, true) => format!("server {ip} has nothing left to remove"),
        (true, false) => {
            format!("server {ip} removed: {stopped} instance(s) shut down, {deleted} server node(s) deleted")
        }
    };
    let action = if remove { "remove" } else { "shutdown" };
    let doc = ActionDoc { action, job: None, server: Some(ip.to_string()), changed: done };
    out.render(&ActionOutcome { doc, note })?;
    Ok(Exit::Ok)
}
