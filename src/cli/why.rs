//! `ejctl why JOB [--item N] [--fire TIME]`: why a job or item did not run, or will not run
//! next. The registry (the job's subtree, the items' last results), the cron and — when a trace
//! store is at hand — the recorded runs go to [`crate::coord::why::explain`]; each finding names
//! the condition, its evidence and the command that fixes it.
//!
//! Exit status: 0 when nothing stops the next run, 1 when something does (so scripts can alert
//! on it), 3 for an unknown job or item.

use anyhow::Result;
use chrono::Utc;
use clap::Args;
use serde::Serialize;

use super::global::{self, GlobalArgs};
use super::history::{TraceArgs, parse_since};
use super::output::{Block, Output, Render};
use crate::exit::{CliError, Exit};
use crate::ops::text::local_time;
use crate::ops::why::{self as ops, WhyReport};

/// Arguments of `ejctl why`.
#[derive(Debug, Args)]
pub struct WhyArgs {
    /// The job name.
    pub job: String,
    /// Only this sharding item.
    #[arg(long, value_name = "N")]
    pub item: Option<u32>,
    /// Account for this past fire: was it run, and if not, why (RFC 3339, `YYYY-MM-DD HH:MM:SS`
    /// local, or a duration ago such as `10m`).
    #[arg(long, value_name = "TIME")]
    pub fire: Option<String>,
    /// The trace store.
    #[command(flatten)]
    pub store: TraceArgs,
}

struct WhyView(WhyReport);

impl Render for WhyView {
    fn document(&self) -> impl Serialize {
        &self.0
    }

    fn plain(&self) -> Vec<Block> {
        let rows = self
            .0
            .findings
            .iter()
            .map(|f| {
                vec![
                    serde_json::to_value(f.code).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(),
                    f.blocking.to_string(),
                    f.item.map(|i| i.to_string()).unwrap_or_default(),
                    f.message.clone(),
                    f.fix.clone().unwrap_or_default(),
                ]
            })
            .collect();
        vec![Block::Rows(rows)]
    }

    fn table(&self) -> Vec<Block> {
        let mut text = String::new();
        for f in &self.0.findings {
            let mark = if f.blocking { "✗" } else { "•" };
            text.push_str(&format!("{mark} {}\n", f.message));
            for e in &f.evidence {
                let at = e.at.as_ref().map(|t| format!(" ({})", local_time(t))).unwrap_or_default();
                text.push_str(&format!("    evidence: {}{at}: {}\n", e.node, e.detail));
            }
            if let Some(fix) = &f.fix {
                text.push_str(&format!("    fix:      {fix}\n"));
            }
        }
        if !self.0.traced {
            text.push_str("(no trace store consulted: pass --trace URL for recorded runs)\n");
        }
        vec![Block::Text(text)]
    }
}

/// Runs `ejctl why`.
///
/// # Errors
/// A bad name or time (exit 2), an unknown job or item (exit 3), an unavailable registry (5).
pub async fn exec(global: &GlobalArgs, args: WhyArgs, out: &mut Output) -> Result<Exit> {
    let fire = args
        .fire
        .as_deref()
        .map(|s| parse_since(s, Utc::now()))
        .transpose()
        .map_err(|m| CliError::usage(format!("--fire: {m}")))?;
    let target = args.store.target(false)?;
    let admin = global::admin(global).await?;
    let store = match &target {
        Some(target) => Some(ops::open_store(target).await?),
        None => None,
    };
    let report = admin.why(&args.job, args.item, fire, store.as_ref(), Utc::now()).await;
    if let Some(store) = &store {
        store.close().await;
    }
    let report = report?;
    let blocking = report.blocking;
    out.render(&WhyView(report))?;
    Ok(if blocking { Exit::Failure } else { Exit::Ok })
}
