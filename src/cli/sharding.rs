//! `ejctl sharding ...`: how items are assigned.
//!
//! `sharding plan` previews what a strategy assigns, offline: the same code the leader runs, with
//! Java `String.hashCode` semantics and ElasticJob's reverse-lexicographic instance order.

use anyhow::Result;
use clap::{Args, Subcommand};
use comfy_table::Table;
use serde::Serialize;

use super::output::{Format, Output};
use crate::coord::strategy::{self, Strategy};
use crate::exit::{CliError, Exit};

/// `ejctl sharding ...`.
#[derive(Debug, Subcommand)]
pub enum ShardingCmd {
    /// Preview what a sharding strategy assigns, without a registry.
    #[command(
        after_help = "Examples:\n  ejctl sharding plan --instances 10.0.0.1@-@100,10.0.0.2@-@200 --total 5\n  ejctl sharding plan --strategy ROUND_ROBIN --job-name myJob --instances a,b,c --total 2 -o json"
    )]
    Plan(PlanArgs),
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
    /// shardingTotalCount.
    #[arg(long)]
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
/// A usage error (exit 2) for an unknown strategy or empty instance ids.
pub async fn exec(_global: &super::GlobalArgs, cmd: ShardingCmd, out: &mut Output) -> Result<Exit> {
    let ShardingCmd::Plan(args) = cmd;
    let strategy = Strategy::from_config(Some(&args.strategy)).map_err(|e| CliError::usage(e.to_string()))?;
    let mut instances: Vec<String> = args.instances.iter().map(|s| s.trim().to_string()).collect();
    if instances.iter().any(String::is_empty) {
        return Err(CliError::usage("--instances has an empty instance id").into());
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
