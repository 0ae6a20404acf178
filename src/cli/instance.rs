//! `ejctl instance list [JOB]`: the live instances (`instances/{ip@-@pid}`, ephemeral) of one job
//! or of every job, with their server IP and status, leadership and owned items.
//!
//! Read with the pipelined multi-read of `job::Admin::read_jobs`; a job named on the
//! command line must exist (exit 3). Without a job, every child of the namespace root is listed,
//! jobs without a configuration included (their instances are still live processes).

use anyhow::Result;
use clap::{Args, Subcommand};
use comfy_table::Table;
use serde::Serialize;

use super::GlobalArgs;
use super::job::{self, Admin, InstanceRow};
use super::output::{Format, Output};
use crate::exit::{CliError, Exit};
use crate::registry::path;

/// `ejctl instance ...`.
#[derive(Debug, Subcommand)]
pub enum InstanceCmd {
    /// List the live instances of every job, or of one job.
    #[command(
        after_help = "Examples:\n  ejctl instance list\n  ejctl instance list myJob -o json | jq -r '.instances[].id'"
    )]
    List(ListArgs),
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

/// Runs `ejctl instance ...`.
///
/// # Errors
/// An unknown job (exit 3), a bad job name (exit 2), an unavailable registry (exit 5).
pub async fn exec(global: &GlobalArgs, cmd: InstanceCmd, out: &mut Output) -> Result<Exit> {
    let InstanceCmd::List(args) = cmd;
    if let Some(name) = &args.job {
        path::validate_job_name(name).map_err(CliError::usage)?;
    }
    let admin = Admin::connect(global).await?;
    let jobs = match &args.job {
        Some(name) => {
            let jobs = admin.read_jobs(std::slice::from_ref(name)).await?;
            if !jobs.iter().any(|j| j.has_config) {
                return Err(admin.job_not_found(name));
            }
            jobs
        }
        None => admin.read_all().await?,
    };
    let rows: Vec<InstanceRow> = jobs.iter().flat_map(job::instance_rows).collect();
    match out.format {
        Format::Json | Format::Yaml => out.document(&InstanceListDoc { instances: rows })?,
        Format::Plain => {
            let rows: Vec<Vec<String>> = rows
                .iter()
                .map(|r| {
                    vec![
                        r.job.clone(),
                        r.id.clone(),
                        r.server_ip.clone(),
                        r.server_status.clone().unwrap_or_default(),
                        r.leader.to_string(),
                        job::join_items(&r.items),
                    ]
                })
                .collect();
            out.rows(&rows)?;
        }
        Format::Table => {
            let mut table = Table::new();
            table.set_header(["JOB", "INSTANCE", "SERVER IP", "SERVER", "LEADER", "ITEMS"]);
            for r in &rows {
                table.add_row([
                    r.job.clone(),
                    r.id.clone(),
                    r.server_ip.clone(),
                    r.server_status.clone().unwrap_or_else(|| "-".into()),
                    if r.leader { "yes".into() } else { String::new() },
                    job::join_items(&r.items),
                ]);
            }
            out.table(table)?;
        }
    }
    Ok(Exit::Ok)
}
