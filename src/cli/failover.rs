//! `ejctl failover list [JOB]`: the items waiting to be failed over and the items being failed over
//! right now (docs/src/design/compatibility.md#failover, [`crate::ops::report::failover_state`]), of
//! one job or of every job (like `instance list [JOB]`).
//!
//! * pending: `leader/failover/items/{item}` — a crash detector queued the item; the failover
//!   leader has not assigned it yet. Shown with the item's recorded owner (the crashed instance).
//! * assigned: items with `sharding/{item}/failover` (the instance that took it over, ephemeral)
//!   or `sharding/{item}/failovering` (the instance executing it as a failover, persistent).

use anyhow::Result;
use clap::{Args, Subcommand};
use comfy_table::Table;
use serde::Serialize;

use super::global::{self, GlobalArgs, Reads};
use super::output::{Block, Output, Render};
use crate::exit::Exit;
use crate::ops::check_job_name;
use crate::ops::report::{self, FailoverState};
use crate::registry::path::ItemLeaf;

/// `ejctl failover ...`.
#[derive(Debug, Subcommand)]
pub enum FailoverCmd {
    /// List pending failover items and the instances failing items over now, of every job or one.
    #[command(
        after_help = "Examples:\n  ejctl failover list\n  ejctl failover list myJob\n  ejctl failover list myJob -o json | jq '.pending[].item'\n\nWith a job: {\"job\", \"pending\", \"assigned\"}; without: {\"jobs\": [...]}, one such object per job."
    )]
    List(Reads<ListArgs>),
}

/// Arguments of `ejctl failover list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Only this job.
    pub job: Option<String>,
}

/// `failover list JOB`: `{"job", "pending": [...], "assigned": [...]}` in documents.
struct FailoverList(FailoverState);

impl FailoverList {
    fn rows(&self) -> Vec<[String; 6]> {
        rows(&self.0)
    }
}

/// `failover list` of every job: `{"jobs": [FailoverState]}`, rows with the job first.
#[derive(Serialize)]
struct AllFailovers {
    jobs: Vec<FailoverState>,
}

impl AllFailovers {
    fn rows(&self) -> Vec<Vec<String>> {
        self.jobs
            .iter()
            .flat_map(|state| {
                let job = state.job.clone().unwrap_or_default();
                rows(state).into_iter().map(move |r| std::iter::once(job.clone()).chain(r).collect())
            })
            .collect()
    }
}

impl Render for AllFailovers {
    fn document(&self) -> impl Serialize {
        self
    }

    fn plain(&self) -> Vec<Block> {
        vec![Block::Rows(self.rows())]
    }

    fn table(&self) -> Vec<Block> {
        let mut table = Table::new();
        table.set_header(["JOB", "ITEM", "STATE", "OWNER", "FAILOVER TO", "FAILOVERING", "RUNNING"]);
        for r in self.rows() {
            table.add_row(r);
        }
        vec![Block::table(table)]
    }
}

/// One job's failover items as rows: item, state, owner, failover to, failovering, running.
fn rows(doc: &FailoverState) -> Vec<[String; 6]> {
    doc.pending
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
        .collect()
}

impl Render for FailoverList {
    fn document(&self) -> impl Serialize {
        &self.0
    }

    fn plain(&self) -> Vec<Block> {
        vec![Block::Rows(self.rows().into_iter().map(|r| r.to_vec()).collect())]
    }

    fn table(&self) -> Vec<Block> {
        let mut table = Table::new();
        table.set_header(["ITEM", "STATE", "OWNER", "FAILOVER TO", "FAILOVERING", "RUNNING"]);
        for r in self.rows() {
            table.add_row(r);
        }
        vec![Block::table(table)]
    }
}

/// Runs `ejctl failover ...`.
///
/// # Errors
/// An unknown job (exit 3), a bad job name (exit 2), an unavailable registry (exit 5).
pub async fn exec(global: &GlobalArgs, cmd: FailoverCmd, out: &mut Output) -> Result<Exit> {
    let FailoverCmd::List(Reads { args, .. }) = cmd;
    let Some(name) = args.job else {
        let admin = global::admin(global).await?;
        let jobs = admin.read_all().await?;
        let jobs = jobs
            .into_iter()
            .filter(|j| j.has_config)
            .map(|j| {
                let mut state = report::failover_state(&j, chrono::Utc::now());
                state.job = Some(j.name);
                state
            })
            .collect();
        out.render(&AllFailovers { jobs })?;
        return Ok(Exit::Ok);
    };
    check_job_name(&name)?;
    let admin = global::admin(global).await?;
    let job = admin.read_job(&name).await?;
    let mut state = report::failover_state(&job, chrono::Utc::now());
    state.job = Some(job.name);
    out.render(&FailoverList(state))?;
    Ok(Exit::Ok)
}
