//! `ejctl job trigger JOB [--wait]`: trigger a job on every live instance
//! ([`crate::ops::trigger`]); with `--wait`, follow that fire's items until they finish, with a
//! progress bar on a terminal, and end with exit 0 only when every item succeeded (1 when an
//! item failed or the timeout passed, 130 on Ctrl-C).
//!
//! Without `--wait` a note on stderr names the instances (`-o json`: `{"job", "triggered"}`);
//! with it, one row per item: its result, `missing` (no result before the timeout) or `skipped`
//! (no worker runs it for a trigger, with the reason).

use std::time::Duration;

use anyhow::Result;
use clap::Args;
use comfy_table::Table;
use serde::Serialize;

use super::global::{self, GlobalArgs};
use super::output::{Block, Output, Render};
use crate::exit::Exit;
use crate::ops::check_job_name;
use crate::ops::text::{humanize, name_list};
use crate::ops::trigger::{ItemResult, Skipped, TriggerReport};

/// Arguments of `ejctl job trigger`.
#[derive(Debug, Args)]
pub struct TriggerArgs {
    /// The job name.
    pub job: String,
    /// Wait until every item of this fire has finished and print per-item results.
    #[arg(long)]
    pub wait: bool,
    /// How long --wait waits (ms, s, m, h).
    #[arg(long, value_name = "DURATION", default_value = "60s", requires = "wait", value_parser = super::global::parse_duration)]
    pub timeout: Duration,
}

/// `job trigger -o json`: `{"job", "triggered": [ids]}`; with `--wait` also `"token"`,
/// `"results"`, `"missing"`, `"skipped"` and `"ok"`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TriggerDoc<'a> {
    job: &'a str,
    triggered: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    results: Option<&'a [ItemResult]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<&'a [u32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<&'a [Skipped]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ok: Option<bool>,
}

/// A trigger without `--wait`.
struct Triggered {
    job: String,
    instances: Vec<String>,
}

impl Render for Triggered {
    fn document(&self) -> impl Serialize {
        TriggerDoc {
            job: &self.job,
            triggered: &self.instances,
            token: None,
            results: None,
            missing: None,
            skipped: None,
            ok: None,
        }
    }

    fn plain(&self) -> Vec<Block> {
        vec![Block::Note(format!("job '{}' triggered on {}", self.job, name_list(&self.instances)))]
    }

    fn table(&self) -> Vec<Block> {
        self.plain()
    }
}

impl Render for TriggerReport {
    fn document(&self) -> impl Serialize {
        TriggerDoc {
            job: &self.job,
            triggered: &self.triggered,
            token: Some(&self.token),
            results: Some(&self.results),
            missing: Some(&self.missing),
            skipped: Some(&self.skipped),
            ok: Some(self.ok()),
        }
    }

    fn plain(&self) -> Vec<Block> {
        vec![Block::Rows(rows(self).into_iter().map(|r| r.to_vec()).collect())]
    }

    fn table(&self) -> Vec<Block> {
        let mut table = Table::new();
        table.set_header(["ITEM", "INSTANCE", "RESULT", "EXIT", "ELAPSED", "MESSAGE"]);
        for r in rows(self) {
            table.add_row(r);
        }
        vec![Block::table(table)]
    }
}

/// The rows of a wait, by item: results, missing and skipped items.
fn rows(report: &TriggerReport) -> Vec<[String; 6]> {
    let mut rows: Vec<(u32, [String; 6])> = report
        .results
        .iter()
        .map(|r| {
            (
                r.item,
                [
                    r.item.to_string(),
                    r.instance.clone(),
                    if r.success { "ok".into() } else { "failed".into() },
                    r.exit_code.map(|c| c.to_string()).unwrap_or_default(),
                    humanize(Duration::from_millis(r.elapsed_ms)),
                    r.message.clone().unwrap_or_default(),
                ],
            )
        })
        .collect();
    rows.extend(report.missing.iter().map(|i| {
        (
            *i,
            [
                i.to_string(),
                report.expected.get(i).cloned().unwrap_or_default(),
                "missing".into(),
                String::new(),
                String::new(),
                "no result before the timeout".into(),
            ],
        )
    }));
    rows.extend(report.skipped.iter().filter(|s| !report.results.iter().any(|r| r.item == s.item)).map(|s| {
        (s.item, [s.item.to_string(), String::new(), "skipped".into(), String::new(), String::new(), s.reason.clone()])
    }));
    rows.sort_by_key(|(i, _)| *i);
    rows.into_iter().map(|(_, r)| r).collect()
}

/// Runs `ejctl job trigger`.
///
/// # Errors
/// See [`crate::ops::trigger`]; failed or missing items of `--wait` (exit 1), Ctrl-C (exit 130).
pub async fn exec(global: &GlobalArgs, args: &TriggerArgs, out: &mut Output) -> Result<Exit> {
    check_job_name(&args.job)?;
    let admin = global::admin(global).await?;
    let job = admin.read_job(&args.job).await?;
    if !args.wait {
        let instances = admin.trigger(&job).await?;
        out.render(&Triggered { job: job.name, instances })?;
        return Ok(Exit::Ok);
    }
    let wait = admin.trigger_and_watch(&job).await?;
    let bar = progress_bar(global, &job.name, wait.expected().len());
    let report = wait.wait(args.timeout, |done| bar.set_position(done as u64), tokio::signal::ctrl_c()).await;
    bar.finish_and_clear();
    let report = report?;
    out.render(&report)?;
    match report.error() {
        Some(e) => Err(e.into()),
        None => Ok(Exit::Ok),
    }
}

/// The `--wait` progress bar on stderr (hidden when progress is not shown).
fn progress_bar(global: &GlobalArgs, job: &str, items: usize) -> indicatif::ProgressBar {
    if !global.show_progress() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(items as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} items ({elapsed})")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(format!("waiting for job '{job}'"));
    bar.enable_steady_tick(Duration::from_millis(100));
    bar
}
