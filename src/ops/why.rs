//! "Did it run, and if not, why not?": the trace store's runs of a job ([`history`]), and
//! [`Admin::why`], which reads a job's subtree (node times included) and, when a trace store is
//! at hand, its recent runs, and hands them to the pure [`crate::coord::why::explain`].

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDateTime, NaiveTime, TimeDelta, Utc};
use serde::Serialize;

use super::Admin;
use super::OpsError;
use crate::coord::why::{self, Finding, Snapshot, Trace, TracedRun};
use crate::registry::path::JobPaths;
use crate::schedule::cron::{self, JobTimeZone};
use crate::trace::TraceTarget;
use crate::trace::store::{HistoryQuery, RunRecord, Store};

/// Opens the trace store for reading.
///
/// # Errors
/// A SQLite file that does not exist (exit 3), an unreachable database (exit 1).
pub async fn open_store(target: &TraceTarget) -> Result<Store, OpsError> {
    if let TraceTarget::Sqlite(path) = target
        && !path.exists()
    {
        return Err(OpsError::not_found(format!(
            "no trace store at {}: name one with --trace URL (or EJCTL_TRACE), a context's trace (ejctl context set NAME --trace URL), or --job-file FILE of the workers",
            path.display()
        )));
    }
    Store::open(target)
        .await
        .map_err(|e| OpsError::failure(format!("cannot open the trace store {}: {e:#}", target.describe())))
}

/// The runs `query` asks for, newest first.
///
/// # Errors
/// Database errors (exit 1).
pub async fn history(store: &Store, query: &HistoryQuery) -> Result<Vec<RunRecord>, OpsError> {
    store.history(query).await.map_err(|e| OpsError::failure(format!("cannot read the trace store: {e:#}")))
}

/// A past fire to account for, as given: an instant, or a wall-clock time read in the job's time
/// zone (a date and time, or a time of day: the latest such instant up to now).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FireSpec {
    /// An instant.
    At(DateTime<Utc>),
    /// A date and time on the job's wall clock.
    Wall(NaiveDateTime),
    /// A time of day on the job's wall clock.
    TimeOfDay(NaiveTime),
}

impl FireSpec {
    /// The instant, in the job's zone `tz`.
    ///
    /// # Errors
    /// A wall-clock time the zone skips (a daylight-saving gap).
    pub fn resolve(self, tz: &JobTimeZone, now: DateTime<Utc>) -> Result<DateTime<Utc>, String> {
        let wall = match self {
            FireSpec::At(t) => return Ok(t),
            FireSpec::Wall(wall) => wall,
            FireSpec::TimeOfDay(time) => {
                let today = tz.wall_clock(now).date().and_time(time);
                if today <= tz.wall_clock(now) { today } else { today - TimeDelta::days(1) }
            }
        };
        let zone = if matches!(tz, JobTimeZone::Local) { "local time".to_string() } else { tz.to_string() };
        tz.resolve_wall_clock(wall).ok_or_else(|| format!("{wall} does not exist in the job's time zone ({zone})"))
    }
}

/// How many runs `why --fire` reads from the trace store on each side of the fire.
const FIRE_READ_LIMIT: u32 = 1000;

/// What `ejctl why` found.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WhyReport {
    /// The job.
    pub job: String,
    /// The item asked about, if one.
    pub item: Option<u32>,
    /// Some finding stops the job (or item) from running at its next fire.
    pub blocking: bool,
    /// Whether the trace store was consulted.
    pub traced: bool,
    /// The past fire accounted for, if one (`--fire`, resolved in the job's time zone).
    #[serde(serialize_with = "super::text::serialize_rfc3339")]
    pub fire: Option<DateTime<Utc>>,
    /// The job's time zone (empty: the machine's local time), in which the findings' times read.
    pub time_zone: String,
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
        fire: Option<FireSpec>,
        store: Option<&Store>,
        now: DateTime<Utc>,
    ) -> Result<WhyReport, OpsError> {
        let (job, nodes) = self.read_job_nodes(name).await?;
        let paths = JobPaths::new(name);
        if let (Some(item), Some(total)) = (item, job.total())
            && item >= total
        {
            return Err(OpsError::not_found(format!(
                "job '{name}' has no item {item} (shardingTotalCount is {total})"
            )));
        }
        let times = |f: fn(&crate::registry::Stat) -> i64| -> BTreeMap<String, DateTime<Utc>> {
            nodes
                .iter()
                .filter(|n| f(&n.node.stat) > 0)
                .filter_map(|n| Some((n.path.clone(), DateTime::from_timestamp_millis(f(&n.node.stat))?)))
                .collect()
        };
        let (mtimes, ctimes) = (times(|s| s.mtime), times(|s| s.ctime));
        let config = job.config.as_ref().map_err(String::as_str);
        let tz = cron::parse_time_zone(job.time_zone().unwrap_or("")).ok();
        let fire = fire
            .map(|f| f.resolve(&tz.unwrap_or_default(), now))
            .transpose()
            .map_err(|m| OpsError::usage(format!("--fire: {m}")))?;
        let runs = match (store, fire) {
            (Some(store), Some(fire)) => Some(runs_around(store, name, item, fire).await?),
            _ => None,
        };
        let snapshot = Snapshot {
            paths: &paths,
            view: &job.view,
            config,
            cron: job.schedule(),
            mtimes: &mtimes,
            ctimes: &ctimes,
            now,
            item,
            fire,
            trace: runs.as_ref().map(|(runs, ran_before, known_until)| Trace {
                runs,
                ran_before: *ran_before,
                known_until: *known_until,
            }),
        };
        let findings = why::explain(&snapshot);
        Ok(WhyReport {
            job: name.to_string(),
            item,
            blocking: findings.iter().any(|f| f.blocking),
            traced: store.is_some(),
            fire,
            time_zone: tz.map(|z| z.to_string()).unwrap_or_default(),
            findings,
        })
    }
}

/// The runs around `fire` (of `item`, or every item): the first [`FIRE_READ_LIMIT`] that started
/// at or after it (the covering run of each item is among them, however many ran later), and the
/// last ones before it (what the items were doing then). Also whether any run of the job started
/// before it, and the start after which the read may have left runs out.
async fn runs_around(
    store: &Store,
    job: &str,
    item: Option<u32>,
    fire: DateTime<Utc>,
) -> Result<(Vec<TracedRun>, bool, Option<DateTime<Utc>>), OpsError> {
    let query = HistoryQuery {
        job: job.to_string(),
        item,
        since_ms: Some(fire.timestamp_millis()),
        limit: FIRE_READ_LIMIT,
        oldest_first: true,
        ..HistoryQuery::default()
    };
    let after = history(store, &query).await?;
    let known_until = if after.len() >= FIRE_READ_LIMIT as usize {
        after.last().and_then(|r| DateTime::from_timestamp_millis(r.start_ms))
    } else {
        None
    };
    let query = HistoryQuery { since_ms: None, before_ms: Some(fire.timestamp_millis()), oldest_first: false, ..query };
    let before = history(store, &query).await?;
    let ran_before = !before.is_empty()
        || (item.is_some() && !history(store, &HistoryQuery { item: None, limit: 1, ..query }).await?.is_empty());
    let runs = after.iter().chain(&before).filter_map(traced_run).collect();
    Ok((runs, ran_before, known_until))
}

fn traced_run(r: &RunRecord) -> Option<TracedRun> {
    Some(TracedRun {
        node: format!("trace:{}", r.id),
        item: r.item,
        fire: DateTime::from_timestamp_millis(r.fire_ms)?,
        start: DateTime::from_timestamp_millis(r.start_ms)?,
        end: r.end_ms.and_then(DateTime::from_timestamp_millis),
        source: r.source.clone(),
        outcome: r.outcome.clone(),
        instance: r.instance.clone(),
    })
}
