//! One model of a sharding item's state, behind every view that shows one: `job list`'s HEALTH,
//! `job show`, `sharding show`, `failover list`, `why`, the console and `--watch` render
//! [`item_states`] and [`JobHealth`], and compute nothing of their own, so they cannot disagree.
//!
//! An item's state is ElasticJob's status (`DISABLED`, `RUNNING`, `SHARDING_FLAG`, `PENDING`,
//! docs/src/design/compatibility.md#statuses) plus what ejctl knows beyond it, from the same
//! snapshot and nothing else (no request per fire): its owner and whether the owner is
//! registered, failover, an owed misfire, its last run (`sharding/{item}/result`), and its
//! [`Health`]:
//!
//! * `OVERDUE`: the owner is registered and the item idle, yet no run started for two fires of the
//!   cron after its last run ended (with [`OVERDUE_GRACE`] of slack): the owner is dead with its
//!   session still open, frozen, or cut off. ZooKeeper cannot say a session is dead before it
//!   expires; the item's history can say it stopped running. (From the end, not the start: fires
//!   that came due during a long run are owed to the run after it, or skipped, not missed.)
//! * `FAILING`: its last run failed, was killed, or its last fire was refused.
//! * `OVERRIDDEN`: its last run used values of the worker's job file where the registry holds
//!   others — a command or the error handler's destination, pinned to the job file
//!   ([`crate::coord::pin`]) — and the registry still does. The run's own outcome (its RESULT)
//!   may be a success: what is wrong is that the registry does not say what runs.
//! * `SLOW`: its last run outlasted the cron's period, or was itself a coalesced misfire: fires due
//!   while it runs coalesce into one run after it (misfire on) or are skipped (misfire off).
//! * `OK`: its last run succeeded in time. `-` (unknown): nothing recorded (never ran, a Java
//!   cluster, `monitorExecution` off).
//!
//! A disabled item has no health: it does not run, and its last result is history.
//!
//! A job's health ([`JobHealth`]) is its worst item's, unless the job cannot shard: the leader
//! recorded in `leader/sharding/necessary` that its sharding attempts fail
//! ([`crate::registry::codec::ShardingFailure`]). The job is then `CANNOT_SHARD`, worse than any
//! item's health: no item's health says it (their owners are the old assignment's, their runs
//! wait), and nothing runs until a sharding completes, which deletes the flag and the record.
//! Pure functions: no I/O, no clock (the instant is an argument).

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::pin;
use super::snapshot::JobSnapshot;
use super::status::{self, ItemStatus, JobStatus};
use crate::clock::humanize;
use crate::config::JobConfig;
use crate::registry::codec::{ItemResult, RefusedValue, ShardingFailure};
use crate::schedule::cron::{CronExpr, JobTimeZone};

/// How long past the second fire due after an item's last run ended the item may still not have
/// started before it is `OVERDUE`: the lateness a busy worker or a slow registry can add to a
/// start.
pub const OVERDUE_GRACE: Duration = Duration::from_secs(2);

/// How an item's runs are going.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Health {
    /// Nothing recorded.
    Unknown,
    /// The last run succeeded, within the cron's period.
    Ok,
    /// The last run outlasted the cron's period (or was a coalesced misfire).
    Slow,
    /// The last run used the job file's pinned values, not the registry's.
    Overridden,
    /// The last run failed, was killed, or the last fire was refused.
    Failing,
    /// Idle with a registered owner, and no start for two fires since its last run ended.
    Overdue,
    /// The job's sharding does not complete (a job's health only, never an item's).
    CannotShard,
    /// The item is disabled.
    Disabled,
}

impl Health {
    /// The name the views show: `OK`, `SLOW`, `FAILING`, `OVERDUE`, `CANNOT_SHARD`, `DISABLED`,
    /// `-`.
    pub fn as_str(self) -> &'static str {
        match self {
            Health::Unknown => "-",
            Health::Ok => "OK",
            Health::Slow => "SLOW",
            Health::Overridden => "OVERRIDDEN",
            Health::Failing => "FAILING",
            Health::Overdue => "OVERDUE",
            Health::CannotShard => "CANNOT_SHARD",
            Health::Disabled => "DISABLED",
        }
    }
}

impl std::fmt::Display for Health {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why an item is `OVERDUE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overdue {
    /// When the last run ended (or the last fire was refused).
    pub since: DateTime<Utc>,
    /// The cron's period around then.
    pub period: Duration,
    /// The owner that should have run it.
    pub owner: String,
}

/// Why an item is `SLOW`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slow {
    /// How long the last run took.
    pub took: Duration,
    /// The cron's period.
    pub period: Duration,
    /// The last run was itself a misfire run (it covered fires a busy run coalesced).
    pub coalesced: bool,
}

/// Everything the views show of one sharding item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemState {
    /// The item number.
    pub item: u32,
    /// `sharding/{item}/instance`: the owner.
    pub owner: Option<String>,
    /// The owner's instance id as ElasticJob shows it (from its instance YAML, else the raw
    /// owner).
    pub instance_id: Option<String>,
    /// The owner's server IP (from its instance YAML, else from the id).
    pub server_ip: Option<String>,
    /// The owner has an instance node.
    pub owner_registered: bool,
    /// ElasticJob's status of the item.
    pub status: ItemStatus,
    /// `sharding/{item}/running` exists.
    pub running: bool,
    /// `sharding/{item}/disabled` exists.
    pub disabled: bool,
    /// `sharding/{item}/misfire` exists: a fire is owed a run after the running one.
    pub misfire_owed: bool,
    /// `sharding/{item}/failover`: the instance that took the item over.
    pub failover: Option<String>,
    /// `sharding/{item}/failovering`: the instance executing it as a failover.
    pub failovering: Option<String>,
    /// `leader/failover/items/{item}` exists: queued for failover.
    pub failover_queued: bool,
    /// The last run (or refused fire).
    pub last: Option<ItemResult>,
    /// How its runs are going.
    pub health: Health,
    /// Why it is `OVERDUE`.
    pub overdue: Option<Overdue>,
    /// Why it is `SLOW`.
    pub slow: Option<Slow>,
    /// Why it is `OVERRIDDEN`: the values of its last run's worker's job file that the registry
    /// still holds others for.
    pub overridden: Vec<RefusedValue>,
    /// The next fire that will run it: none when disabled, for a one-off job, or when nothing
    /// will fire the job (no live instance, every server disabled).
    pub next_fire: Option<DateTime<Utc>>,
}

/// What the model needs of a job beside its tree.
#[derive(Clone, Copy)]
pub struct Schedule<'a> {
    /// The decoded configuration, when it decodes.
    pub config: Option<&'a JobConfig>,
    /// The parsed cron and time zone (`None`: one-off, or not parseable).
    pub cron: Option<(&'a CronExpr, &'a JobTimeZone)>,
}

/// The state of every item of `view`'s job (the children of `sharding` and `0..total`), at `now`.
pub fn item_states(view: &JobSnapshot, schedule: Schedule<'_>, now: DateTime<Utc>) -> Vec<ItemState> {
    let total = schedule.config.and_then(JobConfig::item_count);
    let status = status::job_status(view);
    let will_fire = !matches!(status, JobStatus::Crashed | JobStatus::Disabled);
    let next_fire = schedule.cron.filter(|_| will_fire).and_then(|(cron, tz)| cron.next_after(now, tz));
    status::sharding_info(view, total)
        .into_iter()
        .map(|info| {
            let state = view.items.get(&info.item).cloned().unwrap_or_default();
            let owner_registered = state.owner.as_deref().is_some_and(|o| view.instances.contains_key(o));
            let last = state.result.filter(|_| total.is_none_or(|t| info.item < t));
            let mut out = ItemState {
                item: info.item,
                instance_id: info.instance_id,
                server_ip: info.server_ip,
                owner_registered,
                status: info.status,
                running: state.running,
                disabled: state.disabled,
                misfire_owed: state.misfire,
                failover: state.failover.filter(|s| !s.is_empty()),
                failovering: state.failovering.filter(|s| !s.is_empty()),
                failover_queued: view.failover_queue.contains(&info.item),
                next_fire: next_fire.filter(|_| !state.disabled),
                health: Health::Unknown,
                overdue: None,
                slow: None,
                overridden: Vec::new(),
                owner: state.owner,
                last,
            };
            judge(&mut out, status, schedule, now);
            out
        })
        .collect()
}

/// The two fires after `t` and the period between them.
fn period_after(
    cron: Option<(&CronExpr, &JobTimeZone)>,
    t: DateTime<Utc>,
) -> Option<(DateTime<Utc>, DateTime<Utc>, Duration)> {
    let (cron, tz) = cron?;
    let first = cron.next_after(t, tz)?;
    let second = cron.next_after(first, tz)?;
    Some((first, second, (second - first).to_std().ok()?))
}

/// The `OVERDUE` rule, shared by every view and by a worker's `ejctl_items_overdue`: the job is
/// `OK`, the item idle with a registered `owner` (`None` otherwise), and no run has started for
/// two fires of the cron (plus [`OVERDUE_GRACE`]) since its last run ended at `ended`.
pub fn overdue(
    status: JobStatus,
    owner: Option<&str>,
    ended: Option<DateTime<Utc>>,
    cron: Option<(&CronExpr, &JobTimeZone)>,
    now: DateTime<Utc>,
) -> Option<Overdue> {
    let (owner, since) = (owner?, ended?);
    let (_, second, period) = period_after(cron, since)?;
    (status == JobStatus::Ok && now > second + OVERDUE_GRACE).then(|| Overdue {
        since,
        period,
        owner: owner.to_string(),
    })
}

/// Sets the item's health (and its reasons) from its last run, its owner and the cron.
fn judge(item: &mut ItemState, status: JobStatus, schedule: Schedule<'_>, now: DateTime<Utc>) {
    if item.disabled {
        item.health = Health::Disabled;
        return;
    }
    let Some(last) = &item.last else { return };
    let owner = item.owner.as_deref().filter(|_| item.owner_registered && !item.running);
    if let Some(overdue) = overdue(status, owner, last.ended(), schedule.cron, now) {
        item.overdue = Some(overdue);
        item.health = Health::Overdue;
        return;
    }
    if last.outcome.is_bad() {
        item.health = Health::Failing;
        return;
    }
    if let Some(config) = schedule.config {
        let standing = pin::standing(config, &last.refused);
        if !standing.is_empty() {
            item.overridden = standing.into_iter().cloned().collect();
            item.health = Health::Overridden;
            return;
        }
    }
    let took = last.started().zip(last.ended()).and_then(|(s, e)| (e - s).to_std().ok());
    let period_at = |t: DateTime<Utc>| period_after(schedule.cron, t);
    let coalesced = last.source == "misfire";
    if let Some(took) = took
        && let Some((_, _, period)) = last.fire().or(last.started()).and_then(|f| {
            // The period of the fire the run covered: from the fire before it to it.
            period_at(f - chrono::Duration::milliseconds(1))
        })
        && (took > period || coalesced)
    {
        item.slow = Some(Slow { took, period, coalesced });
        item.health = Health::Slow;
        return;
    }
    item.health = Health::Ok;
}

/// A job's health from its items' states: the worst item's, with the items in that state; or
/// `CANNOT_SHARD` (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobHealth {
    /// `CANNOT_SHARD` when the leader recorded that sharding fails; else the worst health among
    /// the items that are not disabled (`-` when none has a recorded run).
    pub health: Health,
    /// The items in that health.
    pub items: Vec<u32>,
    /// The items counted (every item of `0..total` that is not disabled).
    pub of: usize,
    /// The items whose last run failed (or fire was refused), disabled ones left out.
    pub failing: Vec<u32>,
    /// The items that are `OVERDUE`.
    pub overdue: Vec<u32>,
    /// The items that are `SLOW`.
    pub slow: Vec<u32>,
    /// The items that are `OVERRIDDEN`.
    pub overridden: Vec<u32>,
    /// When the latest recorded run ended.
    pub last_run: Option<DateTime<Utc>>,
    /// The leader's record of its failing sharding.
    pub sharding_failure: Option<ShardingFailure>,
}

impl JobHealth {
    /// The health of `view`'s job, whose items are `items` ([`item_states`] of the view).
    pub fn of(view: &JobSnapshot, items: &[ItemState]) -> JobHealth {
        let counted: Vec<&ItemState> = items.iter().filter(|i| i.health != Health::Disabled).collect();
        let worst = counted.iter().map(|i| i.health).max().unwrap_or(Health::Unknown);
        let with = |h: Health| counted.iter().filter(|i| i.health == h).map(|i| i.item).collect::<Vec<u32>>();
        let sharding_failure = view.sharding_failure.clone().filter(|_| view.necessary);
        let health = if sharding_failure.is_some() { Health::CannotShard } else { worst };
        JobHealth {
            health,
            items: if matches!(health, Health::Ok | Health::Unknown | Health::CannotShard) {
                Vec::new()
            } else {
                with(health)
            },
            of: counted.len(),
            failing: counted
                .iter()
                .filter(|i| i.last.as_ref().is_some_and(|r| r.outcome.is_bad()))
                .map(|i| i.item)
                .collect(),
            overdue: with(Health::Overdue),
            slow: with(Health::Slow),
            overridden: with(Health::Overridden),
            last_run: items.iter().filter_map(|i| i.last.as_ref()?.ended()).max(),
            sharding_failure,
        }
    }

    /// Why the job is `CANNOT_SHARD`, for people (the same words in every view); `None`
    /// otherwise.
    pub fn reason(&self) -> Option<String> {
        self.sharding_failure.as_ref().map(cannot_shard_reason)
    }
}

/// `sharding failed 3 times since 2024-05-01T10:00:00Z on 10.0.0.1@-@42: <error>`.
pub fn cannot_shard_reason(f: &ShardingFailure) -> String {
    let since = f
        .since()
        .map_or_else(|| "an unknown time".to_string(), |t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
    let times = if f.attempts == 1 { "once".to_string() } else { format!("{} times", f.attempts) };
    format!("sharding failed {times} since {since} on {}: {}", f.instance, f.error)
}

impl ItemState {
    /// Why the item is in its health, for people (the same words in every view): the failure's
    /// message, or what makes it `OVERDUE` or `SLOW`; `None` when it is `OK`, unknown or disabled.
    pub fn reason(&self, now: DateTime<Utc>) -> Option<String> {
        match self.health {
            Health::Overdue => self.overdue.as_ref().map(|o| {
                let silent = (now - o.since).to_std().unwrap_or_default();
                format!(
                    "no run started in the {} since the last one ended, on a {} cron; owner {} registered but silent (dead with its session open, frozen, or cut off)",
                    humanize(Duration::from_secs(silent.as_secs())),
                    humanize(o.period),
                    o.owner
                )
            }),
            Health::Failing => self.last.as_ref().and_then(ItemResult::reason),
            Health::Slow => self.slow.as_ref().map(|s| {
                let what = if s.coalesced { "it was a misfire run, after a run that outlasted the period" } else { "" };
                let took = format!("its last run took {} on a {} cron", humanize(s.took), humanize(s.period));
                if what.is_empty() {
                    format!("{took}: fires due while it runs coalesce into one run after it (or are skipped with misfire off)")
                } else {
                    format!("{took}; {what}: fires due while it runs coalesce into one run after it")
                }
            }),
            Health::Overridden => self.last.as_ref().map(|last| {
                let values: Vec<&RefusedValue> = self.overridden.iter().collect();
                format!(
                    "its last run, on {}, used the worker's job file's values, not the registry's, which it refuses: {}",
                    last.instance,
                    pin::detail(&values)
                )
            }),
            Health::Ok | Health::Unknown | Health::Disabled | Health::CannotShard => None,
        }
    }
}

#[cfg(test)]
#[path = "state_tests.rs"]
mod tests;
