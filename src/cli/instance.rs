//! `ejctl instance list [JOB]`: the live instances (`instances/{ip@-@pid}`, ephemeral) of one job
//! or of every job, with their server IP and status, leadership and owned items. `ejctl instance
//! show ID`: one instance (one worker process) across every job it runs; an id no job has is exit
//! 3, with the closest live id as a suggestion.
//!
//! Read with the pipelined multi-read of [`crate::ops::Admin::read_jobs`]; a job named on the
//! command line must exist (exit 3). Without a job, every child of the namespace root is listed,
//! jobs without a configuration included (their instances are still live processes).

use anyhow::Result;
use clap::{Args, Subcommand};
use comfy_table::Table;
use serde::Serialize;

use super::global::{self, GlobalArgs, Reads};
use super::output::{Block, Output, Render};
use crate::exit::{CliError, Exit};
use crate::ops::check_job_name;
use crate::ops::report::{self, InstanceRow};
use crate::ops::text::{did_you_mean, item_ranges, join_items};

/// `ejctl instance ...`.
#[derive(Debug, Subcommand)]
pub enum InstanceCmd {
    /// List the live instances of every job, or of one job.
    #[command(
        after_help = "Examples:\n  ejctl instance list\n  ejctl instance list myJob -o json | jq -r '.instances[].id'"
    )]
    List(Reads<ListArgs>),
    /// Show one instance (`IP@-@PID`): the jobs it runs, leadership and owned items.
    #[command(
        after_help = "Examples:\n  ejctl instance show 10.0.0.5@-@4242\n  ejctl instance show 10.0.0.5@-@4242 -o json"
    )]
    Show(Reads<IdArg>),
}

/// An instance id.
#[derive(Debug, Args)]
pub struct IdArg {
    /// The instance id, `IP@-@PID`.
    pub id: String,
}

/// `instance show -o json`: `{"instance": {"id", "serverIp", "jobs": [InstanceRow]}}`.
#[derive(Serialize)]
struct InstanceShowDoc {
    instance: InstanceDetail,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InstanceDetail {
    id: String,
    server_ip: String,
    jobs: Vec<InstanceRow>,
}

impl Render for InstanceShowDoc {
    fn document(&self) -> impl Serialize {
        self
    }

    fn plain(&self) -> Vec<Block> {
        InstanceListDoc { instances: self.instance.jobs.clone() }.plain()
    }

    fn table(&self) -> Vec<Block> {
        let mut table = Table::new();
        table.set_header(["JOB", "SERVER", "LEADER", "ITEMS"]);
        for r in &self.instance.jobs {
            table.add_row([
                r.job.clone(),
                r.server_status.clone().unwrap_or_else(|| "-".into()),
                if r.leader { "yes".into() } else { String::new() },
                item_ranges(&r.items),
            ]);
        }
        let head = format!("Instance {} (server {})\n", self.instance.id, self.instance.server_ip);
        vec![Block::Text(head), Block::table(table)]
    }
}

/// Arguments of `ejctl instance list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Only this job.
    pub job: Option<String>,
}

/// `instance list -o json`: `{"instances": [InstanceRow]}`.
#[derive(Serialize)]
struct InstanceListDoc {
    instances: Vec<InstanceRow>,
}

impl Render for InstanceListDoc {
    fn document(&self) -> impl Serialize {
        self
    }

    fn plain(&self) -> Vec<Block> {
        let rows = self
            .instances
            .iter()
            .map(|r| {
                vec![
                    r.job.clone(),
                    r.id.clone(),
                    r.server_ip.clone(),
                    r.server_status.clone().unwrap_or_default(),
                    r.leader.to_string(),
                    join_items(&r.items),
                    r.labels.clone().unwrap_or_default(),
                ]
            })
            .collect();
        vec![Block::Rows(rows)]
    }

    fn table(&self) -> Vec<Block> {
        vec![Block::table(self.instance_table(false))]
    }

    fn wide(&self) -> Vec<Block> {
        vec![Block::table(self.instance_table(true))]
    }
}

impl InstanceListDoc {
    /// The instances as a table; `wide` adds their labels.
    fn instance_table(&self, wide: bool) -> Table {
        let mut table = Table::new();
        let mut header = vec!["JOB", "INSTANCE", "SERVER IP", "SERVER", "LEADER", "ITEMS"];
        if wide {
            header.push("LABELS");
        }
        table.set_header(header);
        for r in &self.instances {
            let mut row = vec![
                r.job.clone(),
                r.id.clone(),
                r.server_ip.clone(),
                r.server_status.clone().unwrap_or_else(|| "-".into()),
                if r.leader { "yes".into() } else { String::new() },
                item_ranges(&r.items),
            ];
            if wide {
                row.push(r.labels.clone().unwrap_or_else(|| "-".into()));
            }
            table.add_row(row);
        }
        table
    }
}

/// Runs `ejctl instance ...`.
///
/// # Errors
/// An unknown job (exit 3), a bad job name (exit 2), an unavailable registry (exit 5).
pub async fn exec(global: &GlobalArgs, cmd: InstanceCmd, out: &mut Output) -> Result<Exit> {
    let args = match cmd {
        InstanceCmd::List(Reads { args, .. }) => args,
        InstanceCmd::Show(Reads { args, .. }) => return show(global, &args.id, out).await,
    };
    if let Some(name) = &args.job {
        check_job_name(name)?;
    }
    let admin = global::admin(global).await?;
    let jobs = admin.read_some(args.job.as_deref()).await?;
    let instances = jobs.iter().flat_map(report::instance_rows).collect();
    out.render(&InstanceListDoc { instances })?;
    Ok(Exit::Ok)
}

async fn show(global: &GlobalArgs, id: &str, out: &mut Output) -> Result<Exit> {
    let admin = global::admin(global).await?;
    let all: Vec<InstanceRow> = admin.read_all().await?.iter().flat_map(report::instance_rows).collect();
    let jobs: Vec<InstanceRow> = all.iter().filter(|r| r.id == id).cloned().collect();
    let Some(first) = jobs.first() else {
        let hint = did_you_mean(id, all.iter().map(|r| r.id.as_str()));
        return Err(CliError::not_found(format!(
            "instance '{id}' not found in namespace '{}'{hint} (`ejctl instance list` shows the live ones)",
            admin.namespace()
        ))
        .into());
    };
    let server_ip = first.server_ip.clone();
    out.render(&InstanceShowDoc { instance: InstanceDetail { id: id.to_string(), server_ip, jobs } })?;
    Ok(Exit::Ok)
}
