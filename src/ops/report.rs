//! What the admin views show, derived from jobs as read ([`JobData`]): plain data that serialises
//! to the documents of `ejctl ... -o json` (field names are stable, see the README).
//!
//! * [`job_briefs`]: ElasticJob's `getAllJobsBriefInfo` (docs/src/design/compatibility.md#statuses)
//!   plus cron, time zone and next fire; [`job_detail`]: everything about one job.
//! * [`server_rows`], [`instance_rows`]: a job's servers and live instances, with leadership and
//!   owned items; [`server_summaries`]: `getAllServersBriefInfo` across jobs.
//! * [`item_rows`]: every sharding item (the children of `sharding` plus any of
//!   `0..shardingTotalCount` not created yet) with owner, status, failover owner and flags.
//! * [`failover_state`]: the items waiting to be failed over (`leader/failover/items/{item}`) and
//!   those being failed over now (`sharding/{item}/failover` or `failovering`,
//!   docs/src/design/compatibility.md#failover).

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::read::JobData;
use super::text::serialize_rfc3339;
pub use crate::coord::state::Health;
use crate::coord::state::{ItemState, JobHealth, cannot_shard_reason};
use crate::coord::status::{self, ItemStatus, JobStatus};
use crate::registry::codec::ItemResult;

/// One job of `job list`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobBrief {
    /// The job name.
    pub name: String,
    /// Its status (docs/src/design/compatibility.md#statuses).
    pub status: JobStatus,
    /// The cron expression; `None` for a one-off job.
    pub cron: Option<String>,
    /// The configured time zone, if any.
    pub time_zone: Option<String>,
    /// The next fire that will happen (RFC 3339 in documents); none for a one-off job, a job
    /// without live instances or with every server disabled.
    #[serde(serialize_with = "serialize_rfc3339")]
    pub next_fire: Option<DateTime<Utc>>,
    /// The number of live instances.
    pub instance_count: usize,
    /// `shardingTotalCount` (0 when the configuration cannot be read).
    pub sharding_total_count: i32,
    /// The description, empty when none.
    pub description: String,
    /// When the latest recorded run of an item ended (RFC 3339 in documents).
    #[serde(serialize_with = "serialize_rfc3339")]
    pub last_run: Option<DateTime<Utc>>,
    /// How the items' runs are going: the worst health of an item that is not disabled
    /// ([`crate::coord::state`]).
    pub health: Health,
    /// The items whose last run failed (or whose last fire was refused), disabled ones left out.
    pub failing_items: Vec<u32>,
    /// The items that are `OVERDUE`: idle with a registered owner, and no start for two fires.
    pub overdue_items: Vec<u32>,
    /// The items that are `SLOW`: their last run outlasted the cron's period.
    pub slow_items: Vec<u32>,
    /// The items that are `OVERRIDDEN`: their last run used a worker's job-file values, not the
    /// registry's.
    pub overridden_items: Vec<u32>,
    /// Why the job is `CANNOT_SHARD` (`null` otherwise).
    pub cannot_shard: Option<CannotShard>,
}

/// The leader's record of a sharding that does not complete
/// ([`crate::registry::codec::ShardingFailure`]), as the documents show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CannotShard {
    /// When the first of the failed attempts in a row failed (RFC 3339 in documents).
    #[serde(serialize_with = "serialize_rfc3339")]
    pub since: Option<DateTime<Utc>>,
    /// How many attempts in a row failed.
    pub attempts: u32,
    /// The last attempt's error.
    pub error: String,
    /// The leader that failed.
    pub instance: String,
    /// All of it, for people: `sharding failed 3 times since ... on ...: ...`.
    pub reason: String,
}

/// Why `j` is `CANNOT_SHARD`, if it is.
pub fn cannot_shard(j: &JobData, now: DateTime<Utc>) -> Option<CannotShard> {
    CannotShard::of(&JobHealth::of(&j.view, &j.item_states(now)))
}

impl CannotShard {
    fn of(health: &JobHealth) -> Option<CannotShard> {
        let f = health.sharding_failure.as_ref()?;
        Some(CannotShard {
            since: f.since(),
            attempts: f.attempts,
            error: f.error.clone(),
            instance: f.instance.clone(),
            reason: cannot_shard_reason(f),
        })
    }
}

impl JobBrief {
    /// The cron with its time zone as the job lists show it: `0/5 * * * * ? (Asia/Shanghai)`,
    /// or `(one-off)`.
    pub fn cron_cell(&self) -> String {
        match (&self.cron, &self.time_zone) {
            (Some(c), Some(z)) => format!("{c} ({z})"),
            (Some(c), None) => c.clone(),
            (None, _) => "(one-off)".to_string(),
        }
    }

    /// `OK`, `-`, the worst health with its items, `FAILING 1/3 (item 2)`, or `CANNOT_SHARD:`
    /// and why: a failing, overdue, slow or unshardable job stands out.
    pub fn health_cell(&self) -> String {
        if let Some(c) = &self.cannot_shard {
            return format!("{}: {}", self.health, c.reason);
        }
        let items = match self.health {
            Health::Failing => &self.failing_items,
            Health::Overdue => &self.overdue_items,
            Health::Slow => &self.slow_items,
            Health::Overridden => &self.overridden_items,
            other => return other.to_string(),
        };
        format!(
            "{} {}/{} (item{} {})",
            self.health,
            items.len(),
            self.sharding_total_count,
            if items.len() == 1 { "" } else { "s" },
            super::text::item_ranges(items)
        )
    }
}

/// The jobs that have a configuration, as `job list` shows them (ElasticJob skips the others).
pub fn job_briefs(jobs: &[JobData], now: DateTime<Utc>) -> Vec<JobBrief> {
    jobs.iter().filter(|j| j.has_config).map(|j| job_brief(j, now)).collect()
}

/// One job as `job list` shows it.
pub fn job_brief(j: &JobData, now: DateTime<Utc>) -> JobBrief {
    let health = JobHealth::of(&j.view, &j.item_states(now));
    JobBrief {
        cannot_shard: CannotShard::of(&health),
        name: j.name.clone(),
        status: j.status(),
        cron: j.cron().map(str::to_string),
        time_zone: j.time_zone().map(str::to_string),
        next_fire: j.upcoming_fire(now),
        instance_count: j.view.instances.len(),
        sharding_total_count: j.config.as_ref().map_or(0, |c| c.sharding_total_count),
        description: j.description(),
        last_run: health.last_run,
        health: health.health,
        failing_items: health.failing,
        overdue_items: health.overdue,
        slow_items: health.slow,
        overridden_items: health.overridden,
    }
}

/// Everything about one job (`job show`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobDetail {
    /// The job name.
    pub name: String,
    /// The namespace.
    pub namespace: String,
    /// The job root's data: `SCRIPT`, `HTTP` or a Java class name.
    #[serde(rename = "type")]
    pub job_type: String,
    /// The job status.
    pub status: JobStatus,
    /// The stored configuration with ElasticJob's key names (every key, known or not).
    pub config: serde_json::Value,
    /// Why the configuration cannot be decoded, if it cannot.
    pub config_error: Option<String>,
    /// The next fire that will happen (RFC 3339 in documents); none for a one-off job, a job
    /// without live instances or with every server disabled.
    #[serde(serialize_with = "serialize_rfc3339")]
    pub next_fire: Option<DateTime<Utc>>,
    /// The leader's instance id.
    pub leader: Option<String>,
    /// The leader's resharding flag is set.
    pub resharding_needed: bool,
    /// Why the job cannot shard, when the leader recorded that its sharding fails (`null`
    /// otherwise).
    pub cannot_shard: Option<CannotShard>,
    /// The servers.
    pub servers: Vec<ServerRow>,
    /// The live instances.
    pub instances: Vec<InstanceRow>,
    /// The sharding items.
    pub sharding: Vec<ItemRow>,
    /// The configuration keys whose registry value the items' last runs did not use (their
    /// workers' job files pin them): the items are `OVERRIDDEN`.
    pub overridden: BTreeSet<String>,
    /// The failover state.
    pub failover: FailoverState,
}

/// Everything about one job read with [`super::Admin::read_job`].
pub fn job_detail(namespace: &str, job: &JobData, now: DateTime<Utc>) -> JobDetail {
    let states = job.item_states(now);
    // Bounded like every decode of registry YAML: a hostile node shows as no configuration.
    let config = crate::registry::codec::bounded::value(&job.config_text, "job configuration")
        .ok()
        .and_then(|v| serde_json::to_value(v).ok())
        .unwrap_or(serde_json::Value::Null);
    JobDetail {
        name: job.name.clone(),
        namespace: namespace.to_string(),
        job_type: job.job_type.clone(),
        status: job.status(),
        config,
        config_error: job.config.as_ref().err().cloned(),
        next_fire: job.upcoming_fire(now),
        leader: job.view.leader.clone(),
        resharding_needed: job.resharding,
        cannot_shard: CannotShard::of(&JobHealth::of(&job.view, &states)),
        servers: server_rows(job),
        instances: instance_rows(job),
        sharding: rows_of(&states, now),
        overridden: states.iter().flat_map(|s| &s.overridden).map(|r| r.prop.clone()).collect(),
        failover: failover_of(&states),
    }
}

/// A server of a job.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerRow {
    /// The IP.
    pub ip: String,
    /// The node value (`ENABLED`, `DISABLED`, anything else as stored).
    pub status: String,
    /// Live instances on this IP.
    pub instances: Vec<String>,
}

/// The servers of a job.
pub fn server_rows(job: &JobData) -> Vec<ServerRow> {
    job.view
        .servers
        .iter()
        .map(|(ip, s)| ServerRow {
            ip: ip.clone(),
            status: s.to_string(),
            instances: status::instances_on(&job.view, ip),
        })
        .collect()
}

/// An instance of a job.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstanceRow {
    /// The job.
    pub job: String,
    /// The instance id.
    pub id: String,
    /// Its server IP (instance YAML `serverIp`).
    pub server_ip: String,
    /// The value of its `servers/{ip}` node, if any.
    pub server_status: Option<String>,
    /// Its labels, if any.
    pub labels: Option<String>,
    /// It is the job's leader.
    pub leader: bool,
    /// The items it owns.
    pub items: Vec<u32>,
}

/// The instances of a job.
pub fn instance_rows(job: &JobData) -> Vec<InstanceRow> {
    let owned = job.items_by_owner();
    job.view
        .instances
        .iter()
        .map(|(id, info)| {
            let ip = job.view.instance_server_ip(id);
            InstanceRow {
                job: job.name.clone(),
                id: id.clone(),
                server_status: job.view.servers.get(&ip).map(ToString::to_string),
                server_ip: ip,
                labels: info.as_ref().and_then(|i| i.labels.clone()),
                leader: job.view.leader.as_deref() == Some(id.as_str()),
                items: owned.get(id).cloned().unwrap_or_default(),
            }
        })
        .collect()
}

/// One server (IP) across the jobs of a namespace (`server list`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerSummary {
    /// The IP.
    pub ip: String,
    /// The live instances whose `serverIp` is this IP.
    pub instances: Vec<String>,
    /// The jobs that have `servers/{ip}`.
    pub jobs: Vec<String>,
    /// Those where it is `DISABLED`.
    pub disabled_jobs: Vec<String>,
}

/// Every IP found under any job's `servers` (docs/src/design/compatibility.md#statuses,
/// `getAllServersBriefInfo`).
pub fn server_summaries(jobs: &[JobData]) -> Vec<ServerSummary> {
    status::servers_brief(jobs.iter().map(|j| (j.name.as_str(), &j.view)))
        .into_iter()
        .map(|b| ServerSummary {
            ip: b.ip,
            instances: b.instances.into_iter().collect(),
            jobs: b.jobs,
            disabled_jobs: b.disabled_jobs,
        })
        .collect()
}

/// One sharding item.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemRow {
    /// The item number.
    pub item: u32,
    /// The owner's instance id (`sharding/{i}/instance`), if any.
    pub instance: Option<String>,
    /// The owner's server IP (from its instance YAML, else from the id).
    pub server_ip: Option<String>,
    /// `DISABLED`, `RUNNING`, `SHARDING_FLAG` or `PENDING`.
    pub status: ItemStatus,
    /// How its runs are going: `OK`, `FAILING`, `OVERDUE`, `SLOW`, `DISABLED`, `UNKNOWN`
    /// ([`crate::coord::state`]).
    pub health: Health,
    /// Why it has that health: the failure's message, or what makes it overdue or slow.
    pub reason: Option<String>,
    /// The instance that took the item over (`sharding/{i}/failover`), if any.
    pub failover: Option<String>,
    /// The instance executing it as a failover (`sharding/{i}/failovering`), if any.
    pub failovering: Option<String>,
    /// `sharding/{i}/running` exists.
    pub running: bool,
    /// `sharding/{i}/misfire` exists.
    pub misfire: bool,
    /// `sharding/{i}/disabled` exists.
    pub disabled: bool,
    /// When its last recorded run ended (RFC 3339 in documents).
    #[serde(serialize_with = "serialize_rfc3339")]
    pub last_run: Option<DateTime<Utc>>,
    /// How it ended: `OK`, `FAILED`, `KILLED`, `REFUSED`; `null` when nothing is recorded.
    pub result: Option<&'static str>,
    /// Its exit code, when a process ran.
    pub exit_code: Option<i32>,
    /// Why it failed: the message and the last stderr line.
    pub message: Option<String>,
    /// The instance that ran it.
    pub last_instance: Option<String>,
    /// The job's next fire that will happen, unless the item is disabled (RFC 3339 in documents).
    #[serde(serialize_with = "serialize_rfc3339")]
    pub next_fire: Option<DateTime<Utc>>,
}

/// The items of a job (children of `sharding` and `0..shardingTotalCount`), with their last
/// results, health and the next fire after `now`.
pub fn item_rows(job: &JobData, now: DateTime<Utc>) -> Vec<ItemRow> {
    rows_of(&job.item_states(now), now)
}

/// The rows of items whose states are `states`.
fn rows_of(states: &[ItemState], now: DateTime<Utc>) -> Vec<ItemRow> {
    states.iter().map(|state| item_row(state, now)).collect()
}

fn item_row(state: &ItemState, now: DateTime<Utc>) -> ItemRow {
    let result = state.last.as_ref();
    ItemRow {
        last_run: result.and_then(ItemResult::ended),
        result: result.map(|r| r.outcome.label()),
        exit_code: result.and_then(|r| r.exit_code),
        message: result.and_then(ItemResult::reason),
        last_instance: result.map(|r| r.instance.clone()).filter(|i| !i.is_empty()),
        next_fire: state.next_fire,
        item: state.item,
        instance: state.instance_id.clone(),
        server_ip: state.server_ip.clone(),
        status: state.status,
        health: state.health,
        reason: state.reason(now),
        failover: state.failover.clone(),
        failovering: state.failovering.clone(),
        running: state.running,
        misfire: state.misfire_owed,
        disabled: state.disabled,
    }
}

/// The failover state of a job: `{"job", "pending": [...], "assigned": [...]}` (`job` only in
/// `failover list`; `job show` embeds the state without it).
#[derive(Debug, Clone, Serialize)]
pub struct FailoverState {
    /// The job.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job: Option<String>,
    /// Items queued under `leader/failover/items`.
    pub pending: Vec<PendingFailover>,
    /// Items with a failover owner.
    pub assigned: Vec<AssignedFailover>,
}

/// A queued failover item.
#[derive(Debug, Clone, Serialize)]
pub struct PendingFailover {
    /// The item.
    pub item: u32,
    /// The item's recorded owner (`sharding/{item}/instance`), usually the crashed instance.
    pub owner: Option<String>,
}

/// An item being failed over.
#[derive(Debug, Clone, Serialize)]
pub struct AssignedFailover {
    /// The item.
    pub item: u32,
    /// The item's recorded owner (`sharding/{item}/instance`).
    pub owner: Option<String>,
    /// `sharding/{item}/failover`: the instance that took the item over.
    pub failover: Option<String>,
    /// `sharding/{item}/failovering`: the instance executing it as a failover.
    pub failovering: Option<String>,
    /// `sharding/{item}/running` exists.
    pub running: bool,
}

/// The failover state of a job, from its items' states.
pub fn failover_state(job: &JobData, now: DateTime<Utc>) -> FailoverState {
    failover_of(&job.item_states(now))
}

/// The failover state of items whose states are `states`.
fn failover_of(states: &[ItemState]) -> FailoverState {
    let pending = states
        .iter()
        .filter(|s| s.failover_queued)
        .map(|s| PendingFailover { item: s.item, owner: s.owner.clone() })
        .collect();
    let assigned = states
        .iter()
        .filter(|s| s.failover.is_some() || s.failovering.is_some())
        .map(|s| AssignedFailover {
            item: s.item,
            owner: s.owner.clone(),
            failover: s.failover.clone(),
            failovering: s.failovering.clone(),
            running: s.running,
        })
        .collect();
    FailoverState { job: None, pending, assigned }
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
