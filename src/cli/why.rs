//! `ejctl why JOB [--item N] [--fire TIME]`: why a job or item did not run, or will not run
//! next. The registry (the job's subtree, the items' last results), the cron and — when a trace
//! store is at hand — the recorded runs go to [`crate::coord::why::explain`]; each finding names
//! the condition, its evidence and the command that fixes it.
//!
//! Exit status: 0 when nothing stops the next run, 1 when something does (so scripts can alert
//! on it), 3 for an unknown job or item.

use anyhow::Result;
use chrono::{DateTime, NaiveDateTime, NaiveTime, Utc};
use clap::Args;
use serde::Serialize;

use super::global::{self, GlobalArgs};
use super::history::{TraceArgs, parse_since};
use super::output::{Block, Output, Render};
use crate::exit::{CliError, Exit};
use crate::ops::text::absolute;
use crate::ops::why::{self as ops, FireSpec, WhyReport};

/// Arguments of `ejctl why`.
#[derive(Debug, Args)]
pub struct WhyArgs {
    /// The job name.
    pub job: String,
    /// Only this sharding item.
    #[arg(long, value_name = "N")]
    pub item: Option<u32>,
    /// Account for this past fire: was it run in time, late (and why), or not (RFC 3339;
    /// `YYYY-MM-DD HH:MM:SS` or a time of day `HH:MM[:SS]` in the job's time zone, a time of day
    /// being its latest occurrence; or a duration ago such as `10m`).
    #[arg(long, value_name = "TIME")]
    pub fire: Option<String>,
    /// The trace store.
    #[command(flatten)]
    pub store: TraceArgs,
}

/// Parses `--fire` (see [`WhyArgs::fire`]).
///
/// # Errors
/// A message naming the accepted forms.
pub fn parse_fire(s: &str, now: DateTime<Utc>) -> Result<FireSpec, String> {
    let s = s.trim();
    for format in ["%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"] {
        if let Ok(wall) = NaiveDateTime::parse_from_str(s, format) {
            return Ok(FireSpec::Wall(wall));
        }
    }
    for format in ["%H:%M:%S", "%H:%M"] {
        if let Ok(time) = NaiveTime::parse_from_str(s, format) {
            return Ok(FireSpec::TimeOfDay(time));
        }
    }
    parse_since(s, now).map(FireSpec::At).map_err(|_| {
        format!("'{s}' is neither a time (RFC 3339, YYYY-MM-DD HH:MM:SS, HH:MM[:SS]) nor a duration ago (30m, 2h, 7d)")
    })
}

struct WhyView {
    report: WhyReport,
    /// `--fire` as given, when it was read on the job's wall clock.
    fire_arg: Option<String>,
}

impl Render for WhyView {
    fn document(&self) -> impl Serialize {
        &self.report
    }

    fn plain(&self) -> Vec<Block> {
        let rows = self
            .report
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
        let report = &self.report;
        let zone = Some(report.time_zone.as_str());
        let mut text = String::new();
        if let (Some(fire), Some(arg)) = (&report.fire, &self.fire_arg) {
            let tz = if report.time_zone.is_empty() { "local time" } else { report.time_zone.as_str() };
            text.push_str(&format!("--fire {arg}: the fire at {} (the job's time zone: {tz})\n", absolute(fire, zone)));
        }
        for f in &report.findings {
            let mark = if f.blocking { "✗" } else { "•" };
            text.push_str(&format!("{mark} {}\n", f.message));
            for e in &f.evidence {
                let at = e.at.as_ref().map(|t| format!(" ({})", absolute(t, zone))).unwrap_or_default();
                text.push_str(&format!("    evidence: {}{at}: {}\n", e.node, e.detail));
            }
            if let Some(fix) = &f.fix {
                text.push_str(&format!("    fix:      {fix}\n"));
            }
        }
        if !report.traced {
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
        .map(|s| parse_fire(s, Utc::now()))
        .transpose()
        .map_err(|m| CliError::usage(format!("--fire: {m}")))?;
    let fire_arg = args.fire.clone().filter(|_| !matches!(fire, Some(FireSpec::At(_)) | None));
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
    out.render(&WhyView { report, fire_arg })?;
    Ok(if blocking { Exit::Failure } else { Exit::Ok })
}
