//! `ejctl sharding ...`: how items are assigned, and operator switches per item.
//!
//! * `sharding show JOB`: every item with its owner, server IP, status (reference §4.4:
//!   `DISABLED`, `RUNNING`, `SHARDING_FLAG`, `PENDING`), failover owner and flags. Items are the
//!   children of `sharding` plus any of `0..shardingTotalCount` not created yet.
//! * `sharding disable|enable JOB ITEM...`: ElasticJob's `ShardingOperateAPI` (reference §4.2):
//!   create or delete `sharding/{item}/disabled`. Unlike Java, items are validated: each must be
//!   an integer in `0..shardingTotalCount` (exit 3 otherwise), all are checked before any write,
//!   and the writes are one transaction.
//! * `sharding plan` previews what a strategy assigns, offline: the same code the leader runs,
//!   with Java `String.hashCode` semantics and ElasticJob's reverse-lexicographic instance order.

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use comfy_table::Table;
use serde::Serialize;

use super::GlobalArgs;
use super::job::{self, ActionDoc, Admin, ChangeDoc, JobData};
use super::output::{Format, Output};
use crate::coord::status::{self, ItemStatus};
use crate::coord::strategy::{self, Strategy};
use crate::exit::{CliError, Exit};
use crate::registry::path::{self, ItemLeaf};
use crate::registry::{Mode, Op, codec};

/// `ejctl sharding ...`.
#[derive(Debug, Subcommand)]
pub enum ShardingCmd {
    /// Show a job's items: owner, server IP, status, failover owner, disabled.
    #[command(
        after_help = "Examples:\n  ejctl sharding show myJob\n  ejctl sharding show myJob -o json | jq '.items[] | select(.status == \"SHARDING_FLAG\")'"
    )]
    Show(ShowArgs),
    /// Disable sharding items: their owners skip them until they are enabled again.
    #[command(after_help = "Examples:\n  ejctl sharding disable myJob 2\n  ejctl sharding disable myJob 0 1 2")]
    Disable(ItemArgs),
    /// Enable sharding items that were disabled.
    #[command(after_help = "Example:\n  ejctl sharding enable myJob 2")]
    Enable(ItemArgs),
    /// Preview what a sharding strategy assigns, without a registry.
    #[command(
        after_help = "Examples:\n  ejctl sharding plan --instances 10.0.0.1@-@100,10.0.0.2@-@200 --total 5\n  ejctl sharding plan --strategy ROUND_ROBIN --job-name myJob --instances a,b,c --total 2 -o json"
    )]
    Plan(PlanArgs),
}

/// Arguments of `ejctl sharding show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The job name.
    pub job: String,
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
    /// The job name (ODEVITY, ROUND_ROBIN and SINGLE_SHARDING_BALANCE hash it).
    #[arg(long, default_value = "")]
    pub job_name: String,
    /// Instance ids, comma-separated (`ip@-@pid`).
    #[arg(long, value_delimiter = ',', required = true)]
    pub instances: Vec<String>,
    /// shardingTotalCount (1 to 100000, as in a job configuration).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::config::validate::MAX_SHARDING_TOTAL_COUNT)))]
    pub total: u32,
    /// Use the instances in the order given instead of ElasticJob's (reverse lexicographic).
    #[arg(long)]
    pub keep_order: bool,
}

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

/// Runs `ejctl sharding ...`.
///
/// # Errors
/// A usage error (exit 2) for an unknown strategy, empty instance ids or a bad job name; an
/// unknown job or item (exit 3); an unavailable registry (exit 5).
pub async fn exec(global: &GlobalArgs, cmd: ShardingCmd, out: &mut Output) -> Result<Exit> {
    match cmd {
        ShardingCmd::Plan(args) => plan(args, out),
        ShardingCmd::Show(args) => show(global, &args.job, out).await,
        ShardingCmd::Disable(args) => switch(global, &args, true, out).await,
        ShardingCmd::Enable(args) => switch(global, &args, false, out).await,
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
    let result = strategy::assign(strategy, &args.job_name, &instances, args.total, now);
    let assignments: Vec<Assignment> =
        result.into_iter().map(|(instance, items)| Assignment { instance, items }).collect();
    match out.format {
        Format::Json | Format::Yaml => out.document(&PlanDoc {
            strategy: strategy.as_str(),
            job_name: args.job_name,
            total: args.total,
            assignments,
        })?,
        Format::Plain => {
            let rows: Vec<Vec<String>> = assignments.iter().map(|a| vec![a.instance.clone(), join(&a.items)]).collect();
            out.rows(&rows)?;
        }
        Format::Table => {
            let mut table = Table::new();
            table.set_header(["INSTANCE", "ITEMS"]);
            for a in &assignments {
                table.add_row([a.instance.clone(), join(&a.items)]);
            }
            out.table(table)?;
        }
    }
    Ok(Exit::Ok)
}

fn join(items: &[u32]) -> String {
    items.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// One item of `sharding show` and `job show`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ItemRow {
    /// The item number.
    pub(crate) item: u32,
    /// The owner's instance id (`sharding/{i}/instance`), if any.
    pub(crate) instance: Option<String>,
    /// The owner's server IP (from its instance YAML, else from the id).
    pub(crate) server_ip: Option<String>,
    /// `DISABLED`, `RUNNING`, `SHARDING_FLAG` or `PENDING`.
    pub(crate) status: ItemStatus,
    /// The instance that took the item over (`sharding/{i}/failover`), if any.
    pub(crate) failover: Option<String>,
    /// The instance executing it as a failover (`sharding/{i}/failovering`), if any.
    pub(crate) failovering: Option<String>,
    /// `sharding/{i}/running` exists.
    pub(crate) running: bool,
    /// `sharding/{i}/misfire` exists.
    pub(crate) misfire: bool,
    /// `sharding/{i}/disabled` exists.
    pub(crate) disabled: bool,
}

/// The items of a job (children of `sharding` and `0..shardingTotalCount`).
pub(crate) fn item_rows(job: &JobData) -> Vec<ItemRow> {
    status::sharding_info(&job.view, job.total())
        .into_iter()
        .map(|info| {
            let state = job.view.items.get(&info.item).cloned().unwrap_or_default();
            ItemRow {
                item: info.item,
                instance: info.instance_id,
                server_ip: info.server_ip,
                status: info.status,
                failover: state.failover.filter(|s| !s.is_empty()),
                failovering: state.failovering.filter(|s| !s.is_empty()),
                running: state.running,
                misfire: state.misfire,
                disabled: state.disabled,
            }
        })
        .collect()
}

/// The flags of an item for tables: `running misfire disabled`.
fn flags(r: &ItemRow) -> String {
    [(ItemLeaf::Running, r.running), (ItemLeaf::Misfire, r.misfire), (ItemLeaf::Disabled, r.disabled)]
        .iter()
        .filter(|(_, on)| *on)
        .map(|(leaf, _)| leaf.name())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The items as a table.
pub(crate) fn item_table(rows: &[ItemRow]) -> Table {
    let mut table = Table::new();
    table.set_header(["ITEM", "INSTANCE", "SERVER IP", "STATUS", "FAILOVER", "FLAGS"]);
    for r in rows {
        let failover = match (&r.failover, &r.failovering) {
            (Some(to), _) => to.clone(),
            (None, Some(to)) => format!("{to} (failovering)"),
            (None, None) => String::new(),
        };
        table.add_row([
            r.item.to_string(),
            r.instance.clone().unwrap_or_default(),
            r.server_ip.clone().unwrap_or_default(),
            r.status.to_string(),
            failover,
            flags(r),
        ]);
    }
    table
}

/// One item as a plain row: `kind item instance server_ip status failover disabled`.
pub(crate) fn item_plain_row(kind: &str, r: &ItemRow) -> Vec<String> {
    let mut row = vec![
        r.item.to_string(),
        r.instance.clone().unwrap_or_default(),
        r.server_ip.clone().unwrap_or_default(),
        r.status.to_string(),
        r.failover.clone().or_else(|| r.failovering.clone()).unwrap_or_default(),
        r.disabled.to_string(),
    ];
    if !kind.is_empty() {
        row.insert(0, kind.to_string());
    }
    row
}

/// `sharding show -o json`: `{"job", "shardingTotalCount", "items": [ItemRow]}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ShowDoc {
    job: String,
    sharding_total_count: u32,
    items: Vec<ItemRow>,
}

async fn show(global: &GlobalArgs, name: &str, out: &mut Output) -> Result<Exit> {
    path::validate_job_name(name).map_err(CliError::usage)?;
    let admin = Admin::connect(global).await?;
    let job = admin.read_job(name).await?;
    let rows = item_rows(&job);
    match out.format {
        Format::Json | Format::Yaml => {
            out.document(&ShowDoc {
                job: job.name.clone(),
                sharding_total_count: job.total().unwrap_or(0),
                items: rows,
            })?;
        }
        Format::Plain => out.rows(&rows.iter().map(|r| item_plain_row("", r)).collect::<Vec<_>>())?,
        Format::Table => out.table(item_table(&rows))?,
    }
    Ok(Exit::Ok)
}

/// Parses and range-checks the items named on the command line.
fn check_items(admin: &Admin, job: &JobData, items: &[String]) -> Result<Vec<u32>> {
    let total = job.total().ok_or_else(|| {
        CliError::not_found(format!(
            "job '{}' has no sharding items in namespace '{}' ({})",
            job.name,
            admin.namespace,
            job.config.as_ref().err().cloned().unwrap_or_else(|| "shardingTotalCount is not positive".into())
        ))
    })?;
    let range =
        if total == 1 { "the only item is 0".to_string() } else { format!("valid items are 0 to {}", total - 1) };
    let mut out = Vec::new();
    for raw in items {
        match path::parse_item(raw.trim()).filter(|i| *i < total) {
            Some(item) => {
                if !out.contains(&item) {
                    out.push(item);
                }
            }
            None => {
                return Err(CliError::not_found(format!(
                    "item '{raw}' not found in job '{}': {range} (shardingTotalCount {total})",
                    job.name
                ))
                .into());
            }
        }
    }
    Ok(out)
}

async fn switch(global: &GlobalArgs, args: &ItemArgs, disable: bool, out: &mut Output) -> Result<Exit> {
    path::validate_job_name(&args.job).map_err(CliError::usage)?;
    let admin = Admin::connect(global).await?;
    let job = admin.read_job(&args.job).await?;
    let items = check_items(&admin, &job, &args.items)?;
    let paths = &job.paths;
    let mut ops = Vec::new();
    let mut changed = Vec::new();
    let mut sharding_created = job.view.sharding_root;
    for &item in &items {
        let state = job.view.items.get(&item);
        let is_disabled = state.is_some_and(|s| s.disabled);
        if disable == is_disabled {
            continue;
        }
        if disable {
            // ElasticJob's `persist`: parents are created as needed.
            if !sharding_created {
                ops.push(Op::Create { path: paths.sharding(), data: codec::EMPTY.to_vec(), mode: Mode::Persistent });
                sharding_created = true;
            }
            if state.is_none() {
                ops.push(Op::Create { path: paths.item(item), data: codec::EMPTY.to_vec(), mode: Mode::Persistent });
            }
            ops.push(Op::Create {
                path: paths.item_leaf(item, ItemLeaf::Disabled),
                data: codec::EMPTY.to_vec(),
                mode: Mode::Persistent,
            });
        } else {
            ops.push(Op::Delete { path: paths.item_leaf(item, ItemLeaf::Disabled), version: None });
        }
        changed.push(ChangeDoc {
            job: job.name.clone(),
            server: None,
            instance: None,
            item: Some(item),
            effect: if disable { "disabled" } else { "enabled" },
        });
    }
    let action = if disable { "disable" } else { "enable" };
    admin.registry.transaction(&ops).await.with_context(|| format!("cannot {action} items of job '{}'", job.name))?;
    let word = if disable { "disabled" } else { "enabled" };
    let note = if changed.is_empty() {
        format!("job '{}': item(s) {} already {word}: nothing to change", job.name, job::join_items(&items))
    } else {
        let done: Vec<u32> = changed.iter().filter_map(|c| c.item).collect();
        format!("job '{}': item(s) {} {word}", job.name, job::join_items(&done))
    };
    let doc = ActionDoc { action, job: Some(job.name.clone()), server: None, changed };
    job::report(global, out, &doc, &note)?;
    Ok(Exit::Ok)
}
