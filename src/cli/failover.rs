//! `ejctl failover list JOB`: the items waiting to be failed over and the items being failed over
//! right now (reference §3.5).
//!
//! * pending: `leader/failover/items/{item}` — a crash detector queued the item; the failover
//!   leader has not assigned it yet. Shown with the item's recorded owner (the crashed instance).
//! * assigned: items with `sharding/{item}/failover` (the instance that took it over, ephemeral)
//!   or `sharding/{item}/failovering` (the instance executing it as a failover, persistent).

use anyhow::Result;
use clap::{Args, Subcommand};
use comfy_table::Table;
use serde::Serialize;

use super::GlobalArgs;
use super::job::{Admin, JobData};
use super::output::{Format, Output};
use crate::exit::{CliError, Exit};
use crate::registry::path::{self, ItemLeaf};

/// `ejctl failover ...`.
#[derive(Debug, Subcommand)]
pub enum FailoverCmd {
    /// List a job's pending failover items and the instances failing items over now.
    #[command(
        after_help = "Examples:\n  ejctl failover list myJob\n  ejctl failover list myJob -o json | jq '.pending[].item'"
    )]
    List(ListArgs),
}

/// Arguments of `ejctl failover list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// The job name.
    pub job: String,
}

/// `failover list -o json`: `{"job", "pending": [...], "assigned": [...]}`; also the `failover`
/// field of `job show`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct FailoverDoc {
    /// The job.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) job: Option<String>,
    /// Items queued under `leader/failover/items`.
    pub(crate) pending: Vec<Pending>,
    /// Items with a failover owner.
    pub(crate) assigned: Vec<Assigned>,
}

/// A queued failover item.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Pending {
    /// The item.
    pub(crate) item: u32,
    /// The item's recorded owner (`sharding/{item}/instance`), usually the crashed instance.
    pub(crate) owner: Option<String>,
}

/// An item being failed over.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Assigned {
    /// The item.
    pub(crate) item: u32,
    /// The item's recorded owner (`sharding/{item}/instance`).
    pub(crate) owner: Option<String>,
    /// `sharding/{item}/failover`: the instance that took the item over.
    pub(crate) failover: Option<String>,
    /// `sharding/{item}/failovering`: the instance executing it as a failover.
    pub(crate) failovering: Option<String>,
    /// `sharding/{item}/running` exists.
    pub(crate) running: bool,
}

/// The failover state of a job.
pub(crate) fn failover_doc(job: &JobData) -> FailoverDoc {
    let owner = |item: u32| job.view.items.get(&item).and_then(|s| s.owner.clone());
    let pending = job.view.failover_queue.iter().map(|&item| Pending { item, owner: owner(item) }).collect();
    let assigned = job
        .view
        .items
        .iter()
        .filter(|(_, s)| s.failover.is_some() || s.failovering.is_some())
        .map(|(&item, s)| Assigned {
            item,
            owner: s.owner.clone(),
            failover: s.failover.clone(),
            failovering: s.failovering.clone(),
            running: s.running,
        })
        .collect();
    FailoverDoc { job: None, pending, assigned }
}

/// Runs `ejctl failover ...`.
///
/// # Errors
/// An unknown job (exit 3), a bad job name (exit 2), an unavailable registry (exit 5).
pub async fn exec(global: &GlobalArgs, cmd: FailoverCmd, out: &mut Output) -> Result<Exit> {
    let FailoverCmd::List(args) = cmd;
    path::validate_job_name(&args.job).map_err(CliError::usage)?;
    let admin = Admin::connect(global).await?;
    let job = admin.read_job(&args.job).await?;
    let mut doc = failover_doc(&job);
    doc.job = Some(job.name.clone());
    let rows: Vec<[String; 6]> = doc
        .pending
        .iter()
        .map(|p| {
            [
                p.item.to_string(),
                "pending".into(),
                p.owner.clone().unwrap_or_default(),
                String::new(),
                String::new(),
                String::new(),
            ]
        })
        .chain(doc.assigned.iter().map(|a| {
            [
                a.item.to_string(),
                "assigned".into(),
                a.owner.clone().unwrap_or_default(),
                a.failover.clone().unwrap_or_default(),
                a.failovering.clone().unwrap_or_default(),
                if a.running { ItemLeaf::Running.name().into() } else { String::new() },
            ]
        }))
        .collect();
    match out.format {
        Format::Json | Format::Yaml => out.document(&doc)?,
        Format::Plain => out.rows(&rows.into_iter().map(|r| r.to_vec()).collect::<Vec<_>>())?,
        Format::Table => {
            let mut table = Table::new();
            table.set_header(["ITEM", "STATE", "OWNER", "FAILOVER TO", "FAILOVERING", "RUNNING"]);
            for r in rows {
                table.add_row(r);
            }
            out.table(table)?;
        }
    }
    Ok(Exit::Ok)
}
