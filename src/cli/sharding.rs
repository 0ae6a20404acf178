//! `ejctl sharding ...`: how items are assigned, and operator switches per item.
//!
//! * `sharding show JOB`: every item with its owner, server IP, status
//!   (docs/src/design/compatibility.md#statuses: `DISABLED`, `RUNNING`, `SHARDING_FLAG`,
//!   `PENDING`), failover owner and flags ([`crate::ops::report::item_rows`]).
//! * `sharding disable|enable JOB ITEM...`: ElasticJob's `ShardingOperateAPI`
//!   (docs/src/design/compatibility.md#admin-operations), planned by
//!   [`crate::ops::change::item_switch`]: each item must be in `0..shardingTotalCount` (exit 3
//!   otherwise), all are checked before any write, and the writes are one transaction.
//! * `sharding plan` previews what a strategy assigns, offline: the same code the leader runs,
//!   with Java `String.hashCode` semantics and ElasticJob's reverse-lexicographic instance order.

use anyhow::Result;
use clap::{Args, Subcommand};
use comfy_table::Table;
use serde::Serialize;

use super::global::{self, GlobalArgs, Offline, Reads};
use super::output::{Block, Output, Render};
use super::render::{ActionDoc, ActionOutcome, cannot_shard_note, health_notes, item_plain_row, item_table};
use crate::coord::strategy::{self, Strategy};
use crate::exit::{CliError, Exit};
use crate::ops::change;
use crate::ops::check_job_name;
use crate::ops::report::{self, CannotShard, ItemRow};
use crate::ops::text::{item_ranges, join_items};

/// `ejctl sharding ...`.
#[derive(Debug, Subcommand)]
pub enum ShardingCmd {
    /// Show a job's items: owner, server IP, status, failover owner, disabled.
    #[command(
        after_help = "Examples:\n  ejctl sharding show myJob\n  ejctl sharding show myJob -o json | jq '.items[] | select(.status == \"SHARDING_FLAG\")'\n  ejctl sharding show myJob --watch"
    )]
    Show(Reads<ShowArgs>),
    /// Disable sharding items: their owners skip them until they are enabled again.
    #[command(after_help = "Examples:\n  ejctl sharding disable myJob 2\n  ejctl sharding disable myJob 0 1 2")]
    Disable(Reads<ItemArgs>),
    /// Enable sharding items that were disabled.
    #[command(after_help = "Example:\n  ejctl sharding enable myJob 2")]
    Enable(Reads<ItemArgs>),
    /// Preview what a sharding strategy assigns, without a registry.
    #[command(
        after_help = "Examples:\n  ejctl sharding plan --instances 10.0.0.1@-@100,10.0.0.2@-@200 --total 5\n  ejctl sharding plan --strategy ROUND_ROBIN --job-name myJob --instances a,b,c --total 2 -o json"
    )]
    Plan(Offline<PlanArgs>),
}

/// Arguments of `ejctl sharding show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The job name.
    pub job: String,
    /// Redraw after every change in the job's tree (ZooKeeper watches, no polling); Ctrl-C ends.
    #[arg(short, long)]
    pub watch: bool,
}

/// Arguments of `ejctl sharding disable|enable`.
#[derive(Debug, Args)]
pub struct ItemArgs {
    /// The job name.
    pub job: String,
    /// Item numbers, 0 to shardingTotalCount - 1.
    #[arg(required = true, num_args = 1.., value_name = "ITEM")]
    pub items: Vec<String>,
}

/// Arguments of `ejctl sharding plan`.
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// AVG_ALLOCATION, ODEVITY, ROUND_ROBIN or SINGLE_SHARDING_BALANCE.
    #[arg(long, default_value = "AVG_ALLOCATION")]
    pub strategy: String,
    /// The job name (ODEVITY, ROUND_ROBIN and SINGLE_SHARDING_BALANCE hash it); default: empty.
    #[arg(long, value_name = "NAME")]
    pub job_name: Option<String>,
    /// Instance ids, comma-separated (`ip@-@pid`).
    #[arg(long, value_delimiter = ',', required = true)]
    pub instances: Vec<String>,
    /// shardingTotalCount (1 to 10000, as in a job configuration).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::coord::validate::MAX_SHARDING_TOTAL_COUNT)))]
    pub total: u32,
    /// Use the instances in the order given instead of ElasticJob's (reverse lexicographic).
    #[arg(long)]
    pub keep_order: bool,
}

/// `sharding plan -o json`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PlanDoc {
    strategy: &'static str,
    job_name: String,
    total: u32,
    assignments: Vec<Assignment>,
}

#[derive(Serialize)]
struct Assignment {
    instance: String,
    items: Vec<u32>,
}

impl Render for PlanDoc {
    fn document(&self) -> impl Serialize {
        self
    }

    fn plain(&self) -> Vec<Block> {
        vec![Block::Rows(self.assignments.iter().map(|a| vec![a.instance.clone(), join_items(&a.items)]).collect())]
    }

    fn table(&self) -> Vec<Block> {
        let mut table = Table::new();
        table.set_header(["INSTANCE", "ITEMS"]);
        for a in &self.assignments {
            table.add_row([a.instance.clone(), item_ranges(&a.items)]);
        }
        vec![Block::table(table)]
    }
}

/// Runs `ejctl sharding ...`.
///
/// # Errors
/// A usage error (exit 2) for an unknown strategy, empty instance ids or a bad job name; an
/// unknown job or item (exit 3); an unavailable registry (exit 5).
pub async fn exec(global: &GlobalArgs, cmd: ShardingCmd, out: &mut Output) -> Result<Exit> {
    match cmd {
        ShardingCmd::Plan(a) => plan(a.args, out),
        ShardingCmd::Show(a) => show(global, &a.args.job, a.args.watch, out).await,
        ShardingCmd::Disable(a) => switch(global, &a.args, true, out).await,
        ShardingCmd::Enable(a) => switch(global, &a.args, false, out).await,
    }
}

fn plan(args: PlanArgs, out: &mut Output) -> Result<Exit> {
    let strategy = Strategy::from_config(Some(&args.strategy)).map_err(|e| CliError::usage(e.to_string()))?;
    let mut instances: Vec<String> = args.instances.iter().map(|s| s.trim().to_string()).collect();
    if instances.iter().any(String::is_empty) {
        return Err(CliError::usage("--instances has an empty instance id").into());
    }
    let mut seen = std::collections::BTreeSet::new();
    if let Some(dup) = instances.iter().find(|id| !seen.insert(id.as_str())) {
        return Err(CliError::usage(format!("--instances names '{dup}' twice; instance ids are unique")).into());
    }
    if !args.keep_order {
        strategy::sort_instances_like_elasticjob(&mut instances);
    }
    let now = chrono::Utc::now().timestamp_millis();
    let job_name = args.job_name.unwrap_or_default();
    let result = strategy::assign(strategy, &job_name, &instances, args.total, now);
    let assignments: Vec<Assignment> =
        result.into_iter().map(|(instance, items)| Assignment { instance, items }).collect();
    out.render(&PlanDoc { strategy: strategy.as_str(), job_name, total: args.total, assignments })?;
    Ok(Exit::Ok)
}

/// `sharding show -o json`: `{"job", "shardingTotalCount", "items": [ItemRow], "cannotShard"}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ShowDoc {
    job: String,
    sharding_total_count: u32,
    items: Vec<ItemRow>,
    /// Why the job cannot shard (`null` unless it is `CANNOT_SHARD`).
    cannot_shard: Option<CannotShard>,
    /// The job's time zone, for the times in tables.
    #[serde(skip)]
    time_zone: Option<String>,
}

impl Render for ShowDoc {
    fn document(&self) -> impl Serialize {
        self
    }

    fn plain(&self) -> Vec<Block> {
        vec![Block::Rows(self.items.iter().map(|r| item_plain_row("", r)).collect())]
    }

    fn table(&self) -> Vec<Block> {
        self.blocks(false)
    }

    fn wide(&self) -> Vec<Block> {
        self.blocks(true)
    }
}

impl ShowDoc {
    /// The item table, with why the job cannot shard above it and why items are overdue or slow
    /// under it.
    fn blocks(&self, wide: bool) -> Vec<Block> {
        let mut blocks: Vec<Block> =
            cannot_shard_note(self.cannot_shard.as_ref()).map(Block::Text).into_iter().collect();
        blocks.push(Block::table(item_table(&self.items, self.time_zone.as_deref(), wide)));
        blocks.extend(health_notes(&self.items).map(Block::Text));
        blocks
    }
}

async fn show(global: &GlobalArgs, name: &str, watch: bool, out: &mut Output) -> Result<Exit> {
    check_job_name(name)?;
    let admin = global::admin(global).await?;
    let read = async || -> Result<ShowDoc> {
        let job = admin.read_job(name).await?;
        let now = chrono::Utc::now();
        let items = report::item_rows(&job, now);
        let time_zone = job.time_zone().map(str::to_string);
        let cannot_shard = report::cannot_shard(&job, now);
        Ok(ShowDoc { sharding_total_count: job.total().unwrap_or(0), job: job.name, items, cannot_shard, time_zone })
    };
    let doc = read().await?;
    if watch {
        let root = crate::registry::path::JobPaths::new(name);
        return super::watch::watch(out, admin.registry(), root.root(), read).await;
    }
    out.render(&doc)?;
    Ok(Exit::Ok)
}

async fn switch(global: &GlobalArgs, args: &ItemArgs, disable: bool, out: &mut Output) -> Result<Exit> {
    check_job_name(&args.job)?;
    let admin = global::admin(global).await?;
    let job = admin.read_job(&args.job).await?;
    let (items, changes) = change::item_switch(&admin, &job, &args.items, disable)?;
    let changed = admin.apply(&changes).await?;
    let action = if disable { "disable" } else { "enable" };
    let word = if disable { "disabled" } else { "enabled" };
    let note = if changed.is_empty() {
        format!("job '{}': item(s) {} already {word}: nothing to change", job.name, item_ranges(&items))
    } else {
        let done: Vec<u32> = changed.iter().filter_map(|c| c.item).collect();
        format!("job '{}': item(s) {} {word}", job.name, item_ranges(&done))
    };
    let doc = ActionDoc { action, job: Some(job.name.clone()), server: None, changed };
    out.render(&ActionOutcome { doc, note })?;
    Ok(Exit::Ok)
}
