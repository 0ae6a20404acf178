//! "Did it run, and if not, why not?": the trace store's runs of a job ([`history`]), and
//! [`Admin::why`], which reads a job's subtree (node times included) and, when a trace store is
//! at hand, its recent runs, and hands them to the pure [`crate::coord::why::explain`].

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::Admin;
use crate::coord::why::{self, Finding, Snapshot, TracedRun};
use crate::exit::CliError;
use crate::registry::path::JobPaths;
use crate::schedule::cron;
use crate::trace::TraceTarget;
use crate::trace::store::{HistoryQuery, RunRecord, Store};

/// Opens the trace store for reading.
///
/// # Errors
/// A SQLite file that does not exist (exit 3), an unreachable database (exit 1).
pub async fn open_store(target: &TraceTarget) -> Result<Store, CliError> {
    if let TraceTarget::Sqlite(path) = target
        && !path.exists()
    {
        return Err(CliError::not_found(format!(
            "no trace store at {}: name one with --trace URL (or EJCTL_TRACE), a context's trace (ejctl context set NAME --trace URL), or --job-file FILE of the workers",
            path.display()
        )));
    }
    Store::open(target)
        .await
        .map_err(|e| CliError::failure(format!("cannot open the trace store {}: {e:#}", target.describe())))
}

/// The runs `query` asks for, newest first.
///
/// # Errors
/// Database errors (exit 1).
pub async fn history(store: &Store, query: &HistoryQuery) -> Result<Vec<RunRecord>, CliError> {
    store.history(query).await.map_err(|e| CliError::failure(format!("cannot read the trace store: {e:#}")))
}

/// What `ejctl why` found.
#[derive(Debug, Clone, Serialize)]
pub struct WhyReport {
    /// The job.
    pub job: String,
    /// The item asked about, if one.
    pub item: Option<u32>,
    /// Some finding stops the job (or item) from running at its next fire.
    pub blocking: bool,
    /// Whether the trace store was consulted.
    pub traced: bool,
    /// The findings, most decisive first.
    pub findings: Vec<Finding>,
}

impl Admin {
    /// Explains why job `name` (or one item) did not or will not run; `store` adds the runs it
    /// recorded.
    ///
    /// # Errors
    /// A bad job name (exit 2), a job or item that does not exist (exit 3), registry errors.
    pub async fn why(
        &self,
        name: &str,
        item: Option<u32>,
        fire: Option<DateTime<Utc>>,
        store: Option<&Store>,
        now: DateTime<Utc>,
    ) -> Result<WhyReport, CliError> {
        let (job, nodes) = self.read_job_nodes(name).await?;
        let paths = JobPaths::new(name);
        if let (Some(item), Some(total)) = (item, job.total())
            && item >= total
        {
            return Err(CliError::not_found(format!(
                "job '{name}' has no item {item} (shardingTotalCount is {total})"
            )));
        }
        let mtimes: BTreeMap<String, DateTime<Utc>> = nodes
            .iter()
            .filter_map(|n| Some((n.path.clone(), DateTime::from_timestamp_millis(n.node.stat.mtime)?)))
            .filter(|(_, t)| t.timestamp_millis() > 0)
            .collect();
        let runs = match store {
            Some(store) => {
                // For a past fire, the first runs since it: the one that covered it is among them
                // however many ran after.
                let query = HistoryQuery {
                    job: name.to_string(),
                    item,
                    since_ms: fire.map(|f| f.timestamp_millis()),
                    limit: 1000,
                    oldest_first: fire.is_some(),
                    ..HistoryQuery::default()
                };
                let records = history(store, &query).await?;
                Some(records.iter().filter_map(traced_run).collect::<Vec<_>>())
            }
            None => None,
        };
        let config = job.config.as_ref().map_err(String::as_str);
        let parsed = job.cron().and_then(|c| cron::parse(c).ok());
        let tz = cron::parse_time_zone(job.time_zone().unwrap_or("")).ok();
        let snapshot = Snapshot {
            paths: &paths,
            view: &job.view,
            config,
            cron: parsed.as_ref().zip(tz.as_ref()),
            mtimes: &mtimes,
            now,
            item,
            fire,
            trace: runs.as_deref(),
        };
        let findings = why::explain(&snapshot);
        Ok(WhyReport {
            job: name.to_string(),
            item,
            blocking: findings.iter().any(|f| f.blocking),
            traced: store.is_some(),
            findings,
        })
    }
}

fn traced_run(r: &RunRecord) -> Option<TracedRun> {
    Some(TracedRun {
        id: r.id.clone(),
        item: r.item,
        fire: DateTime::from_timestamp_millis(r.fire_ms)?,
        start: DateTime::from_timestamp_millis(r.start_ms)?,
        outcome: r.outcome.clone(),
        instance: r.instance.clone(),
    })
}
