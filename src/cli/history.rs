//! `ejctl history JOB`: the runs the trace store recorded — one row per run with its fire,
//! item, instance, start, duration, lateness, result and exit code — filtered by item, age,
//! outcome and source; `--output-tail` prints the captured output of an item's last run.
//!
//! The store is found from `--trace` (or `EJCTL_TRACE`), else the `[trace]` table of
//! `--job-file`, else the `trace` key of the context in use, else the default SQLite file
//! `ejctl run` writes with an empty `[trace]` table.
//!
//! A job name is checked against the registry when one is given (a mistyped name is exit 3 with
//! the closest name, as `job show` says it, rather than an empty history); without a registry,
//! or when it cannot be reached, against the jobs that have runs in the store. A limited answer
//! says how many runs matched (`20 of 248 runs`), so that it never passes for all of them.

use std::path::PathBuf;

use anyhow::Result;
use chrono::{DateTime, Local, NaiveDateTime, TimeZone, Utc};
use clap::Args;
use comfy_table::Table;
use serde::Serialize;

use super::global::GlobalArgs;
use super::output::{Block, Output, Render};
use super::render::result_cell;
use crate::exit::{CliError, Exit};
use crate::jobfile;
use crate::ops::check_job_name;
use crate::ops::text::{absolute, closest, humanize, rfc3339};
use crate::ops::why as ops;
use crate::trace::store::{HistoryQuery, RunRecord, Store};
use crate::trace::{TraceTarget, default_sqlite_path};

/// Where the trace store is.
#[derive(Debug, Clone, Args)]
pub struct TraceArgs {
    /// The trace store: a SQLite file or a postgres:// URL (default: the workers' default
    /// SQLite file on this machine).
    #[arg(long, env = "EJCTL_TRACE", value_name = "URL", hide_env_values = true)]
    pub trace: Option<String>,
    /// Take the trace store from the trace table of this job file.
    #[arg(long, value_name = "JOB_FILE", conflicts_with = "trace")]
    pub job_file: Option<PathBuf>,
}

impl TraceArgs {
    /// The store named, or the default SQLite file; `None` when nothing names one and the
    /// default file does not exist (`require` false).
    ///
    /// # Errors
    /// A bad URL or job file (exit 2).
    pub fn target(&self, require: bool) -> Result<Option<TraceTarget>, CliError> {
        if let Some(url) = &self.trace {
            return TraceTarget::parse(url).map(Some).map_err(|m| CliError::usage(format!("--trace: {m}")));
        }
        if let Some(file) = &self.job_file {
            let files = jobfile::load(std::slice::from_ref(file)).map_err(|e| CliError::usage(e.to_string()))?;
            return match files.trace {
                Some(trace) => Ok(Some(trace.target)),
                None => Err(CliError::usage(format!("{}: no [trace] table", file.display()))),
            };
        }
        if let Some((url, file)) = context_trace() {
            return TraceTarget::parse(&url)
                .map(|t| Some(t.relative_to_file(&file)))
                .map_err(|m| CliError::usage(format!("the context's trace: {m}")));
        }
        let default = default_sqlite_path();
        Ok((require || default.exists()).then_some(TraceTarget::Sqlite(default)))
    }
}

/// The `trace` key of the context this invocation uses, if any, and the contexts file.
fn context_trace() -> Option<(String, PathBuf)> {
    let resolution = super::context::resolution()?;
    let (name, _) = resolution.context?;
    let file = resolution.file?;
    let contents = super::context::load(&file).ok()??;
    Some((contents.contexts.get(&name)?.trace.clone()?, file))
}

/// Arguments of `ejctl history`.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// The job name.
    pub job: String,
    /// Only this sharding item.
    #[arg(long, value_name = "N")]
    pub item: Option<u32>,
    /// Only runs that started within this long (`30m`, `2h`, `7d`) or since this time
    /// (RFC 3339, or `YYYY-MM-DD HH:MM:SS` local).
    #[arg(long, value_name = "DURATION|TIME")]
    pub since: Option<String>,
    /// Only runs that failed or were killed.
    #[arg(long)]
    pub failed: bool,
    /// Only runs of this source.
    #[arg(long, value_enum)]
    pub source: Option<SourceArg>,
    /// At most this many runs (newest first).
    #[arg(short = 'n', long, default_value_t = 20)]
    pub limit: u32,
    /// Print the captured output of the item's last run (needs --item).
    #[arg(long, requires = "item")]
    pub output_tail: bool,
    /// The trace store.
    #[command(flatten)]
    pub store: TraceArgs,
}

/// `--source`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SourceArg {
    /// Cron fires.
    Cron,
    /// Manual triggers.
    Trigger,
    /// Re-runs of fires missed while the item was busy.
    Misfire,
    /// Runs of items taken over from a dead instance.
    Failover,
}

impl SourceArg {
    fn label(self) -> &'static str {
        match self {
            SourceArg::Cron => "cron",
            SourceArg::Trigger => "trigger",
            SourceArg::Misfire => "misfire",
            SourceArg::Failover => "failover",
        }
    }
}

/// Parses `--since`: a duration back from `now`, or an instant.
///
/// # Errors
/// A message naming the accepted forms.
pub fn parse_since(s: &str, now: DateTime<Utc>) -> Result<DateTime<Utc>, String> {
    let s = s.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Ok(t.with_timezone(&Utc));
    }
    for format in ["%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"] {
        if let Ok(naive) = NaiveDateTime::parse_from_str(s, format) {
            return Local
                .from_local_datetime(&naive)
                .earliest()
                .map(|t| t.with_timezone(&Utc))
                .ok_or_else(|| format!("'{s}' does not exist in the local time zone"));
        }
    }
    let duration = match s.strip_suffix('d') {
        Some(days) => days
            .parse::<f64>()
            .ok()
            .and_then(|d| std::time::Duration::try_from_secs_f64(d * 86_400.0).ok())
            .ok_or_else(|| format!("'{s}' is not a duration"))?,
        None => super::global::parse_duration(s).map_err(|_| {
            format!("'{s}' is neither a duration (30m, 2h, 7d) nor a time (RFC 3339, or YYYY-MM-DD HH:MM:SS)")
        })?,
    };
    Ok(now - chrono::Duration::from_std(duration).map_err(|_| format!("'{s}' is out of range"))?)
}

/// `history -o json`: `{"job", "store", "runs": [RunRecord], "total", "truncated"}`.
#[derive(Serialize)]
struct HistoryDoc {
    job: String,
    store: String,
    runs: Vec<RunRecord>,
    /// How many runs match the filters, `--limit` aside.
    total: u64,
    /// Fewer runs are shown than match.
    truncated: bool,
}

impl HistoryDoc {
    /// `20 of 248 runs; --limit N for more`, when the limit left runs out.
    fn truncation(&self) -> Option<Block> {
        self.truncated.then(|| Block::Note(format!("{} of {} runs; --limit N for more", self.runs.len(), self.total)))
    }
}

struct HistoryView {
    doc: HistoryDoc,
    tail_only: bool,
    /// The job's time zone, when the registry said it (else times are local).
    zone: Option<String>,
}

fn at(ms: i64) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp_millis(ms)
}

fn ms(v: i64) -> String {
    humanize(std::time::Duration::from_millis(u64::try_from(v).unwrap_or(0)))
}

impl Render for HistoryView {
    fn document(&self) -> impl Serialize {
        &self.doc
    }

    fn plain(&self) -> Vec<Block> {
        if self.tail_only {
            return self.table();
        }
        let rows = self
            .doc
            .runs
            .iter()
            .map(|r| {
                vec![
                    at(r.fire_ms).as_ref().map(rfc3339).unwrap_or_default(),
                    r.item.to_string(),
                    r.instance.clone(),
                    r.source.clone(),
                    at(r.start_ms).as_ref().map(rfc3339).unwrap_or_default(),
                    r.duration_ms.map(|d| d.to_string()).unwrap_or_default(),
                    r.lateness_ms.to_string(),
                    r.outcome.clone().unwrap_or_else(|| "in progress".into()),
                    r.exit_code.map(|c| c.to_string()).unwrap_or_default(),
                    r.message.clone().unwrap_or_default(),
                ]
            })
            .collect();
        vec![Block::Rows(rows)].into_iter().chain(self.doc.truncation()).collect()
    }

    fn table(&self) -> Vec<Block> {
        if self.tail_only {
            let text = match self.doc.runs.first() {
                Some(r) => r.output_tail.clone().unwrap_or_default(),
                None => String::new(),
            };
            return vec![Block::Text(text)];
        }
        if self.doc.runs.is_empty() {
            return vec![Block::Note(format!("no runs of job '{}' in {}", self.doc.job, self.doc.store))];
        }
        let mut table = Table::new();
        table.set_header(["FIRE", "ITEM", "INSTANCE", "SOURCE", "START", "DURATION", "LATE", "RESULT", "EXIT"]);
        for r in &self.doc.runs {
            let outcome = r.outcome.as_deref().map(str::to_uppercase);
            table.add_row([
                at(r.fire_ms).as_ref().map(|t| absolute(t, self.zone.as_deref())).unwrap_or_default(),
                r.item.to_string(),
                r.instance.clone(),
                r.source.clone(),
                at(r.start_ms).as_ref().map(|t| absolute(t, self.zone.as_deref())).unwrap_or_default(),
                r.duration_ms.map(ms).unwrap_or_else(|| "-".into()),
                ms(r.lateness_ms),
                match outcome {
                    Some(o) => result_cell(Some(&o), r.message.as_deref()),
                    None => "RUNNING".into(),
                },
                r.exit_code.map(|c| c.to_string()).unwrap_or_else(|| "-".into()),
            ]);
        }
        vec![Block::table(table)].into_iter().chain(self.doc.truncation()).collect()
    }
}

/// Runs `ejctl history`.
///
/// # Errors
/// A bad job name, `--since` or store (exit 2), no trace store or no such job (exit 3), database
/// errors (1).
pub async fn exec(global: &GlobalArgs, args: HistoryArgs, out: &mut Output) -> Result<Exit> {
    check_job_name(&args.job)?;
    let since = args
        .since
        .as_deref()
        .map(|s| parse_since(s, Utc::now()))
        .transpose()
        .map_err(|m| CliError::usage(format!("--since: {m}")))?;
    let Some(target) = args.store.target(true)? else {
        return Err(CliError::not_found("no trace store").into());
    };
    let zone = check_in_registry(global, &args.job).await?;
    let store = ops::open_store(&target).await?;
    let query = HistoryQuery {
        job: args.job.clone(),
        item: args.item,
        since_ms: since.map(|s| s.timestamp_millis()),
        before_ms: None,
        failed: args.failed,
        source: args.source.map(|s| s.label().to_string()),
        limit: if args.output_tail { 1 } else { args.limit.max(1) },
        with_output: args.output_tail,
        oldest_first: false,
    };
    let read = read_runs(&store, &query, zone.is_some(), &target.describe()).await;
    store.close().await;
    let (runs, total) = read?;
    let truncated = !args.output_tail && total > runs.len() as u64;
    let doc = HistoryDoc { job: args.job, store: target.describe(), runs, total, truncated };
    out.render(&HistoryView { doc, tail_only: args.output_tail, zone })?;
    Ok(Exit::Ok)
}

/// Checks that `job` exists in the registry the options name: `Ok(Some(zone))` when it does,
/// with its time zone (empty: local time), in which times are shown; `Ok(None)` when no registry
/// is given or it cannot be reached (said on stderr: the trace store is then the only check, and
/// times are local), exit 3 with the closest job name when it does not exist.
async fn check_in_registry(global: &GlobalArgs, job: &str) -> Result<Option<String>> {
    if global.zk.as_deref().is_none_or(|zk| zk.trim().is_empty()) {
        return Ok(None);
    }
    let admin = match super::global::admin(global).await {
        Ok(admin) => admin,
        Err(e) => {
            tracing::warn!("cannot check job '{job}' against the registry ({e:#}); reading the trace store only");
            return Ok(None);
        }
    };
    let names = match admin.job_names().await {
        Ok(names) => names,
        Err(e) => {
            tracing::warn!("cannot check job '{job}' against the registry ({e:#}); reading the trace store only");
            return Ok(None);
        }
    };
    if names.iter().any(|n| n == job) {
        let zone = admin
            .read_config(job)
            .await
            .ok()
            .and_then(|stored| crate::config::JobConfig::from_yaml(&stored.text).ok())
            .and_then(|config| config.time_zone)
            .unwrap_or_default();
        return Ok(Some(zone));
    }
    Err(admin.missing_job(job).await.into())
}

/// The runs `query` asks for and how many match. A job not checked against a registry that has
/// no runs in the store while a close name has is taken for a typo (exit 3): no registry can say
/// whether it exists, so the store's job names stand in, and the message says so.
async fn read_runs(
    store: &Store,
    query: &HistoryQuery,
    checked: bool,
    described: &str,
) -> Result<(Vec<RunRecord>, u64)> {
    if !checked {
        let names =
            store.job_names().await.map_err(|e| CliError::failure(format!("cannot read the trace store: {e:#}")))?;
        if !names.contains(&query.job)
            && let Some(near) = closest(&query.job, names.iter().map(String::as_str))
        {
            return Err(CliError::not_found(format!(
                "no runs of job '{}' in {described} (did you mean '{near}'? no registry was given to check the name against, so the jobs with runs in the trace store were)",
                query.job
            ))
            .into());
        }
    }
    let runs = ops::history(store, query).await?;
    let total = store
        .count_history(query)
        .await
        .map_err(|e| CliError::failure(format!("cannot read the trace store: {e:#}")))?;
    Ok((runs, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_forms() {
        let now = DateTime::parse_from_rfc3339("2026-01-10T12:00:00Z").unwrap().with_timezone(&Utc);
        assert_eq!(parse_since("30m", now).unwrap(), now - chrono::Duration::minutes(30));
        assert_eq!(parse_since("2d", now).unwrap(), now - chrono::Duration::days(2));
        assert_eq!(parse_since("2026-01-01T00:00:00Z", now).unwrap().to_rfc3339(), "2026-01-01T00:00:00+00:00");
        assert!(parse_since("2026-01-01 08:00:00", now).is_ok());
        assert!(parse_since("yesterday", now).unwrap_err().contains("neither a duration"));
    }
}
