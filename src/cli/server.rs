//! `ejctl server ...`: servers (IPs) across every job of the namespace.
//!
//! * `server list`: ElasticJob's `ServerStatisticsAPI.getAllServersBriefInfo` (reference §4.4):
//!   one row per IP found under any job's `servers`, with the live instances whose `serverIp` is
//!   that IP, the jobs it serves and those where it is `DISABLED`.
//! * `server disable|enable|shutdown|remove IP`: the `job = null` forms of `JobOperateAPI`
//!   (reference §4.1) — every job (child of the namespace root, with or without config) that has
//!   `servers/{ip}` (for shutdown/remove: or a live instance on that IP). An IP no job knows is
//!   "not found" (exit 3); a malformed IP is a usage error (exit 2). `shutdown` and `remove` ask
//!   for confirmation.

use anyhow::Result;
use clap::{Args, Subcommand};
use comfy_table::Table;
use serde::Serialize;

use super::GlobalArgs;
use super::job::{self, ActionDoc, Admin, Change, JobData};
use super::output::{Format, Output};
use super::prompt;
use crate::coord::status;
use crate::exit::{CliError, Exit};
use crate::registry::codec::ServerStatus;

/// `ejctl server ...`.
#[derive(Debug, Subcommand)]
pub enum ServerCmd {
    /// List the servers (IPs) of the namespace with their instances and jobs.
    #[command(
        after_help = "Examples:\n  ejctl server list\n  ejctl server list -o json | jq '.servers[] | select(.disabledJobs != [])'"
    )]
    List,
    /// Disable every job on a server: its instances get no items.
    #[command(after_help = "Example:\n  ejctl server disable 10.0.0.5")]
    Disable(IpArg),
    /// Enable every job on a server.
    #[command(after_help = "Example:\n  ejctl server enable 10.0.0.5")]
    Enable(IpArg),
    /// Shut down every job instance on a server (the processes stop their jobs until restarted).
    #[command(after_help = "Example:\n  ejctl server shutdown 10.0.0.5 --yes")]
    Shutdown(IpArg),
    /// Shut a server's instances down and delete its servers/{ip} node from every job.
    #[command(after_help = "Example:\n  ejctl server remove 10.0.0.5 --yes")]
    Remove(IpArg),
}

/// A server IP.
#[derive(Debug, Args)]
pub struct IpArg {
    /// The server's IPv4 address.
    pub ip: String,
}

/// `server list -o json`: `{"servers": [ServerDoc]}`.
#[derive(Serialize)]
struct ServerListDoc {
    servers: Vec<ServerDoc>,
}

/// One server.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ServerDoc {
    ip: String,
    instances: Vec<String>,
    jobs: Vec<String>,
    disabled_jobs: Vec<String>,
}

/// Runs `ejctl server ...`.
///
/// # Errors
/// A malformed IP (exit 2), an IP no job knows (exit 3), a declined confirmation (exit 4), an
/// unavailable registry (exit 5).
pub async fn exec(global: &GlobalArgs, cmd: ServerCmd, out: &mut Output) -> Result<Exit> {
    match cmd {
        ServerCmd::List => list(global, out).await,
        ServerCmd::Disable(a) => set_status(global, &a.ip, "disable", ServerStatus::Disabled, out).await,
        ServerCmd::Enable(a) => set_status(global, &a.ip, "enable", ServerStatus::Enabled, out).await,
        ServerCmd::Shutdown(a) => shutdown_or_remove(global, &a.ip, false, out).await,
        ServerCmd::Remove(a) => shutdown_or_remove(global, &a.ip, true, out).await,
    }
}

async fn list(global: &GlobalArgs, out: &mut Output) -> Result<Exit> {
    let admin = Admin::connect(global).await?;
    let jobs = admin.read_all().await?;
    let briefs = status::servers_brief(jobs.iter().map(|j| (j.name.as_str(), &j.view)));
    let servers: Vec<ServerDoc> = briefs
        .into_iter()
        .map(|b| ServerDoc {
            ip: b.ip,
            instances: b.instances.into_iter().collect(),
            jobs: b.jobs,
            disabled_jobs: b.disabled_jobs,
        })
        .collect();
    match out.format {
        Format::Json | Format::Yaml => out.document(&ServerListDoc { servers })?,
        Format::Plain => {
            let rows: Vec<Vec<String>> = servers
                .iter()
                .map(|s| {
                    vec![
                        s.ip.clone(),
                        s.instances.len().to_string(),
                        s.jobs.len().to_string(),
                        s.disabled_jobs.len().to_string(),
                        s.instances.join(","),
                    ]
                })
                .collect();
            out.rows(&rows)?;
        }
        Format::Table => {
            let mut table = Table::new();
            table.set_header(["IP", "INSTANCES", "JOBS", "DISABLED JOBS", "INSTANCE IDS"]);
            for s in &servers {
                table.add_row([
                    s.ip.clone(),
                    s.instances.len().to_string(),
                    s.jobs.len().to_string(),
                    s.disabled_jobs.len().to_string(),
                    job::name_list(&s.instances),
                ]);
            }
            out.table(table)?;
        }
    }
    Ok(Exit::Ok)
}

/// Reads every job and checks that `ip` is known to at least one (a `servers/{ip}` node, or with
/// `or_instances` a live instance on it).
async fn read_for_server(global: &GlobalArgs, ip: &str, or_instances: bool) -> Result<(Admin, Vec<JobData>)> {
    job::check_ip(ip)?;
    let admin = Admin::connect(global).await?;
    let jobs = admin.read_all().await?;
    let known = jobs
        .iter()
        .any(|j| j.view.servers.contains_key(ip) || (or_instances && !status::instances_on(&j.view, ip).is_empty()));
    if !known {
        return Err(CliError::not_found(format!("server '{ip}' not found in namespace '{}'", admin.namespace)).into());
    }
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
    let changes: Vec<Change> = jobs
        .iter()
        .filter(|j| j.view.servers.get(ip).is_some_and(|s| *s != to))
        .map(|j| Change::Server { job: j.name.clone(), ip: ip.to_string(), to: to.clone() })
        .collect();
    let done = job::apply(&admin.registry, &changes).await?;
    let word = if to.is_enabled() { "enabled" } else { "disabled" };
    let names: Vec<&str> = done.iter().map(|c| c.job.as_str()).collect();
    let note = if names.is_empty() {
        format!("server {ip} is already {word} for every job: nothing to change")
    } else {
        format!("server {ip} {word} for {} job(s): {}", names.len(), job::name_list(&names))
    };
    let doc = ActionDoc { action, job: None, server: Some(ip.to_string()), changed: done };
    job::report(global, out, &doc, &note)?;
    Ok(Exit::Ok)
}

async fn shutdown_or_remove(global: &GlobalArgs, ip: &str, remove: bool, out: &mut Output) -> Result<Exit> {
    let (admin, jobs) = read_for_server(global, ip, true).await?;
    let mut changes = Vec::new();
    for j in &jobs {
        changes.extend(
            status::instances_on(&j.view, ip).into_iter().map(|id| Change::Instance { job: j.name.clone(), id }),
        );
    }
    let instances = changes.len();
    if remove {
        changes.extend(
            jobs.iter()
                .filter(|j| j.view.servers.contains_key(ip))
                .map(|j| Change::DeleteServer { job: j.name.clone(), ip: ip.to_string() }),
        );
    }
    let mut done = Vec::new();
    if !changes.is_empty() {
        let question = if remove {
            format!(
                "remove server {ip} ({instances} instance(s) shut down, {} server node(s) deleted)",
                changes.len() - instances
            )
        } else {
            format!("shut down {instances} instance(s) on server {ip}")
        };
        prompt::confirm(global, &question)?;
        done = job::apply(&admin.registry, &changes).await?;
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
    job::report(global, out, &doc, &note)?;
    Ok(Exit::Ok)
}
