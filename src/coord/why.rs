//! `ejctl why`: why a job (or one item) did not run, or will not run next — as a pure function
//! of a snapshot of the job's subtree, its configuration, the items' last results, the current
//! instant and, when a trace store is at hand, the runs it recorded.
//!
//! [`explain`] returns [`Finding`]s, most decisive first. Each names the condition (a stable
//! [`Condition`] code for scripts), says what it means, shows its evidence (the node, and when
//! known the instant) and the `ejctl` command that fixes it. A finding is *blocking* when it
//! stops the job or item from running at its next fire; the others explain what happened (a
//! failed last run, a registry command the worker refused and replaced with its job file's) or
//! what is merely pending (a failover about to be claimed).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::Serialize;

pub use super::past_fire::TracedRun;
use super::snapshot::{ItemSnapshot, JobSnapshot};
use super::state::{Health, ItemState, Schedule, cannot_shard_reason, item_states};
use crate::config::JobConfig;
use crate::registry::codec::{ItemResult, RunOutcome};
use crate::registry::path::{ItemLeaf, JobPaths};
use crate::schedule::cron::{CronExpr, JobTimeZone};

/// The conditions `why` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// The configuration cannot be read.
    ConfigUnreadable,
    /// The job is disabled on every server (or its configuration says `disabled`).
    JobDisabled,
    /// The job has no live instance: it was shut down, or no worker runs it.
    NoLiveInstance,
    /// Every live instance's server is disabled for this job.
    AllServersDisabled,
    /// The item is disabled.
    ItemDisabled,
    /// The cron never comes due again.
    CronNeverFires,
    /// A one-off job (no cron) that was never triggered.
    NeverTriggered,
    /// There is no leader to shard the job.
    NoLeader,
    /// The leader's sharding does not complete: it recorded its failed attempts in the
    /// resharding flag.
    CannotShard,
    /// Resharding is flagged or in progress, or items have no owner yet.
    ShardingPending,
    /// The item's owner is gone and failover is queued (it runs as soon as a live instance
    /// claims it).
    FailoverPending,
    /// The item's owner is gone and failover is off: it waits for resharding.
    OwnerGoneNoFailover,
    /// The item's previous run is still running.
    StillRunning,
    /// The worker refused the last fire: the clock is off the registry's by more than
    /// `maxTimeDiffSeconds`.
    ClockSkew,
    /// The worker refused the last fire for another reason (a configuration it cannot run).
    FireRefused,
    /// The item's last run refused the registry's command: the registry holds a command value
    /// (script command, dataflow or HTTP request, listener) other than the worker's job file,
    /// which pins its own and runs that instead.
    CommandRefused,
    /// Items are overdue ([`super::state`]): their owners are registered, yet no run started for
    /// two fires since the last ended. The owners may be cut off from ZooKeeper (fenced), frozen,
    /// or dead with their sessions still open.
    InstancesSilent,
    /// The item's last run outlasted the cron's period (or was a misfire run): fires due while it
    /// runs coalesce into one run after it, or are skipped with misfire off.
    SlowRuns,
    /// The item's last run failed.
    LastRunFailed,
    /// A past fire (`--fire`, [`super::past_fire`]) is still to come.
    FireNotDue,
    /// A past fire's instant is not a fire time of the cron.
    FireNotAFireTime,
    /// A past fire came before the job existed.
    FireBeforeJob,
    /// A past fire came before any instance was registered.
    FireNoInstance,
    /// A past fire ran in time.
    FireInTime,
    /// A past fire was covered late (the finding says why).
    FireCoveredLate,
    /// A past fire was not run: no run started since.
    FireNotRun,
    /// What became of a past fire cannot be told from what is known.
    FireUnknown,
    /// Nothing prevents the next fire.
    WillRun,
}

/// One piece of evidence: a node (or a trace row), and when it was written, if known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// The node path (namespace-relative), or `trace:<row id>`.
    pub node: String,
    /// When it was written or what it records happened.
    #[serde(serialize_with = "serialize_time")]
    pub at: Option<DateTime<Utc>>,
    /// What it says.
    pub detail: String,
}

/// One explanation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The condition.
    pub code: Condition,
    /// It stops the job (or item) from running at the next fire.
    pub blocking: bool,
    /// The item it is about, if one.
    pub item: Option<u32>,
    /// What it means, for people.
    pub message: String,
    /// Why `why` says so.
    pub evidence: Vec<Evidence>,
    /// The command that fixes it, if one does.
    pub fix: Option<String>,
}

/// What the trace store holds of a job's runs around a past fire.
#[derive(Debug, Clone, Copy)]
pub struct Trace<'a> {
    /// The runs read, in any order: the first ones that started at or after the fire, and the
    /// last ones before it.
    pub runs: &'a [TracedRun],
    /// A run of the job started before the fire.
    pub ran_before: bool,
    /// Runs that started after this instant may be missing (the read stopped at its limit).
    pub known_until: Option<DateTime<Utc>>,
}

/// What `why` looks at.
pub struct Snapshot<'a> {
    /// The job's node paths.
    pub paths: &'a JobPaths,
    /// The job's subtree (its item views carry the last results).
    pub view: &'a JobSnapshot,
    /// The configuration, or why it cannot be read.
    pub config: Result<&'a JobConfig, &'a str>,
    /// The parsed cron (`None` for a one-off job or an invalid expression) and time zone.
    pub cron: Option<(&'a CronExpr, &'a JobTimeZone)>,
    /// When nodes were last written (namespace-relative path → mtime), where known.
    pub mtimes: &'a BTreeMap<String, DateTime<Utc>>,
    /// When nodes were created (namespace-relative path → ctime), where known.
    pub ctimes: &'a BTreeMap<String, DateTime<Utc>>,
    /// Now.
    pub now: DateTime<Utc>,
    /// Only this item.
    pub item: Option<u32>,
    /// A past fire to account for.
    pub fire: Option<DateTime<Utc>>,
    /// What the trace store holds (`None`: no store).
    pub trace: Option<Trace<'a>>,
}

fn rfc3339(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

fn serialize_time<S: serde::Serializer>(t: &Option<DateTime<Utc>>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_some(&rfc3339(t)),
        None => s.serialize_none(),
    }
}

impl Snapshot<'_> {
    fn evidence(&self, node: String, detail: impl Into<String>) -> Evidence {
        let at = self.mtimes.get(&node).copied();
        Evidence { node, at, detail: detail.into() }
    }

    fn name(&self) -> &str {
        self.paths.job()
    }
}

/// Explains a job or an item (see the module docs). Never empty: when nothing stands in the way
/// the one finding is [`Condition::WillRun`] with the next fire.
pub fn explain(s: &Snapshot<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let job = s.name().to_string();
    let config = match s.config {
        Ok(config) => config,
        Err(e) => {
            out.push(Finding {
                code: Condition::ConfigUnreadable,
                blocking: true,
                item: None,
                message: format!("the configuration cannot be read: {e}"),
                evidence: vec![s.evidence(s.paths.config(), e)],
                fix: Some(format!("ejctl config edit {job}")),
            });
            return out;
        }
    };
    let Some(total) = config.item_count() else {
        let count = config.sharding_total_count;
        out.push(Finding {
            code: Condition::ConfigUnreadable,
            blocking: true,
            item: None,
            message: format!(
                "shardingTotalCount {count} is not one ejctl runs (1 to {}): workers refuse the configuration and keep the one in effect",
                super::validate::MAX_SHARDING_TOTAL_COUNT
            ),
            evidence: vec![s.evidence(s.paths.config(), format!("shardingTotalCount: {count}"))],
            fix: Some(format!("ejctl config set {job} shardingTotalCount=N")),
        });
        return out;
    };
    let items: Vec<u32> = match s.item {
        Some(i) => vec![i],
        None => (0..total).collect(),
    };
    job_level(s, config, &mut out);
    if let Some(fire) = s.fire {
        fire::fire_level(s, fire, &items, &mut out);
    }
    for &item in &items {
        let state = s.view.items.get(&item).cloned().unwrap_or_default();
        item_level(s, config, item, &state, &mut out);
    }
    refused::command_refused(s, config, &items, &mut out);
    health_level(s, &items, &mut out);
    out.sort_by_key(|f| (!f.blocking, f.code, f.item));
    if !out.iter().any(|f| f.blocking) {
        let next = s.cron.and_then(|(cron, tz)| cron.next_after(s.now, tz));
        let message = match next {
            Some(next) => format!("nothing prevents the next fire at {}", rfc3339(&next)),
            None => "nothing prevents a run when the job is triggered".to_string(),
        };
        out.push(Finding {
            code: Condition::WillRun,
            blocking: false,
            item: s.item,
            message,
            evidence: Vec::new(),
            fix: None,
        });
    }
    out
}

fn job_level(s: &Snapshot<'_>, config: &JobConfig, out: &mut Vec<Finding>) {
    let job = s.name().to_string();
    let view = s.view;
    let disabled_servers: Vec<&String> =
        view.servers.iter().filter(|(_, st)| !st.is_enabled()).map(|(ip, _)| ip).collect();
    if !view.servers.is_empty() && disabled_servers.len() == view.servers.len() {
        out.push(Finding {
            code: Condition::JobDisabled,
            blocking: true,
            item: None,
            message: "the job is disabled on every server".into(),
            evidence: disabled_servers.iter().map(|ip| s.evidence(s.paths.server(ip), "DISABLED")).collect(),
            fix: Some(format!("ejctl job enable {job}")),
        });
    } else if config.disabled && view.servers.is_empty() {
        out.push(Finding {
            code: Condition::JobDisabled,
            blocking: true,
            item: None,
            message: "the configuration says disabled: workers register their servers disabled".into(),
            evidence: vec![s.evidence(s.paths.config(), "disabled: true")],
            fix: Some(format!("ejctl config set {job} disabled=false")),
        });
    }
    if view.instances.is_empty() {
        // The newest run tells a job that ran (and was shut down or removed since, or whose
        // workers stopped) from one no worker ever ran.
        let last =
            view.items.iter().filter_map(|(item, st)| Some((*item, st.result.as_ref()?))).max_by_key(|(_, r)| r.end_ms);
        let (message, mut evidence, fix) = match last {
            Some((item, result)) => (
                "no live instance runs the job: it was shut down or removed (job shutdown, job remove), or its workers stopped".to_string(),
                vec![Evidence {
                    node: s.paths.item_leaf(item, ItemLeaf::Result),
                    at: result.ended(),
                    detail: format!("the last run, of item {item}, on {}", result.instance),
                }],
                "restart the workers with its job file: ejctl run JOB_FILE   (a worker runs a job that was shut down or removed again only after a restart)",
            ),
            None if view.servers.is_empty() => (
                "no live instance runs the job: no worker with its job file has run it".to_string(),
                Vec::new(),
                "start a worker: ejctl run JOB_FILE",
            ),
            None => (
                "no live instance runs the job: it was shut down, or no worker with its job file is running".to_string(),
                Vec::new(),
                "start a worker: ejctl run JOB_FILE",
            ),
        };
        evidence.insert(0, s.evidence(s.paths.instances(), "no instance node"));
        out.push(Finding {
            code: Condition::NoLiveInstance,
            blocking: true,
            item: None,
            message,
            evidence,
            fix: Some(fix.into()),
        });
    } else if view.available_instances().is_empty() && !out.iter().any(|f| f.code == Condition::JobDisabled) {
        out.push(Finding {
            code: Condition::AllServersDisabled,
            blocking: true,
            item: None,
            message: "every live instance runs on a server where the job is disabled".into(),
            evidence: view
                .instances
                .keys()
                .map(|id| {
                    let ip = view.instance_server_ip(id);
                    s.evidence(s.paths.server(&ip), format!("instance {id}: server {ip} disabled"))
                })
                .collect(),
            fix: view.servers.keys().next().map(|ip| format!("ejctl job enable {job} --server {ip}")),
        });
    }
    match (config.cron_expr(), s.cron) {
        (Some(expr), Some((cron, tz))) if cron.next_after(s.now, tz).is_none() => out.push(Finding {
            code: Condition::CronNeverFires,
            blocking: true,
            item: None,
            message: format!("the cron '{expr}' never comes due again"),
            evidence: vec![s.evidence(s.paths.config(), format!("cron: {expr}"))],
            fix: Some(format!("ejctl config set {job} cron='0 0 2 * * ?'")),
        }),
        (None, _) if !view.items.values().any(|i| i.result.is_some()) => out.push(Finding {
            code: Condition::NeverTriggered,
            blocking: true,
            item: None,
            message: "a one-off job (no cron) runs only when triggered, and it never was".into(),
            evidence: vec![s.evidence(s.paths.config(), "no cron")],
            fix: Some(format!("ejctl job trigger {job}")),
        }),
        _ => {}
    }
    // A disabled job's instances elect no leader: that finding says all.
    if !view.instances.is_empty() && view.leader.is_none() && !out.iter().any(|f| f.code == Condition::JobDisabled) {
        out.push(Finding {
            code: Condition::NoLeader,
            blocking: true,
            item: None,
            message: "no leader: nobody shards the job until an instance wins the election".into(),
            evidence: vec![s.evidence(s.paths.leader_instance(), "absent")],
            fix: Some(format!("ejctl job show {job}")),
        });
    }
    let total = config.item_count().unwrap_or(0);
    if let Some(failure) = view.sharding_failure.as_ref().filter(|_| view.necessary) {
        out.push(Finding {
            code: Condition::CannotShard,
            blocking: true,
            item: None,
            message: format!("the job cannot shard: {}; fires wait until a sharding completes", cannot_shard_reason(failure)),
            evidence: vec![s.evidence(s.paths.sharding_necessary(), "resharding flagged, with the leader's record of its failures")],
            fix: Some(format!(
                "read the leader's log and the ZooKeeper servers' logs for why the sharding transaction is refused; one larger than jute.maxbuffer is: raise jute.maxbuffer (servers and clients) or lower the total: ejctl config set {job} shardingTotalCount=N"
            )),
        });
    } else if !view.instances.is_empty() && view.sharding_pending(total) {
        let mut evidence = Vec::new();
        if view.necessary {
            evidence.push(s.evidence(s.paths.sharding_necessary(), "resharding flagged"));
        }
        if view.processing {
            evidence.push(s.evidence(s.paths.sharding_processing(), "the leader is sharding"));
        }
        let unowned: Vec<u32> = (0..total).filter(|i| view.items.get(i).is_none_or(|v| v.owner.is_none())).collect();
        if !unowned.is_empty() {
            evidence.push(s.evidence(s.paths.sharding(), format!("items without owner: {unowned:?}")));
        }
        out.push(Finding {
            code: Condition::ShardingPending,
            blocking: true,
            item: None,
            message: "sharding is pending: fires wait (or are owed) until the leader assigns the items".into(),
            evidence,
            fix: Some(format!("ejctl job show {job}")),
        });
    }
}

fn item_level(s: &Snapshot<'_>, config: &JobConfig, item: u32, state: &ItemSnapshot, out: &mut Vec<Finding>) {
    let job = s.name().to_string();
    let leaf = |l: ItemLeaf| s.paths.item_leaf(item, l);
    if state.disabled {
        out.push(Finding {
            code: Condition::ItemDisabled,
            blocking: true,
            item: Some(item),
            message: format!("item {item} is disabled"),
            evidence: vec![s.evidence(leaf(ItemLeaf::Disabled), "exists")],
            fix: Some(format!("ejctl sharding enable {job} {item}")),
        });
    }
    if let Some(owner) = state.owner.as_deref().filter(|o| !s.view.instances.contains_key(*o))
        && !s.view.instances.is_empty()
    {
        let queued = s.view.failover_queue.contains(&item);
        let (code, blocking, message, fix) = if config.failover {
            let what = if queued { "queued for failover" } else { "failover is on" };
            (
                Condition::FailoverPending,
                false,
                format!("item {item}'s owner {owner} is gone; {what}: a live instance runs it as soon as it claims it"),
                Some(format!("ejctl failover list {job}")),
            )
        } else {
            (
                Condition::OwnerGoneNoFailover,
                true,
                format!("item {item}'s owner {owner} is gone and failover is off: it waits for resharding"),
                Some(format!("ejctl config set {job} failover=true")),
            )
        };
        let mut evidence = vec![s.evidence(leaf(ItemLeaf::Instance), format!("owner {owner}, no instance node"))];
        if queued {
            evidence.push(s.evidence(s.paths.failover_item(item), "queued"));
        }
        out.push(Finding { code, blocking, item: Some(item), message, evidence, fix });
    }
    if state.running {
        let since = s.mtimes.get(&leaf(ItemLeaf::Running)).copied();
        let (message, blocking, fix) = if state.misfire {
            (
                format!("item {item}'s previous run is still running; a missed fire is owed and runs right after it"),
                false,
                None,
            )
        } else if config.misfire {
            (
                format!("item {item}'s previous run is still running; a fire due meanwhile is owed a run after it"),
                false,
                None,
            )
        } else {
            (
                format!(
                    "item {item}'s previous run is still running, and misfire is off: fires due meanwhile are skipped"
                ),
                true,
                Some(format!("ejctl config set {job} misfire=true")),
            )
        };
        let mut evidence = vec![Evidence { node: leaf(ItemLeaf::Running), at: since, detail: "exists".into() }];
        if state.misfire {
            evidence.push(s.evidence(leaf(ItemLeaf::Misfire), "a fire is owed"));
        }
        out.push(Finding { code: Condition::StillRunning, blocking, item: Some(item), message, evidence, fix });
    }
    if let Some(result) = &state.result {
        result_level(s, item, result, out);
    }
}

fn result_level(s: &Snapshot<'_>, item: u32, result: &ItemResult, out: &mut Vec<Finding>) {
    let job = s.name().to_string();
    let node = s.paths.item_leaf(item, ItemLeaf::Result);
    let reason = result.reason().unwrap_or_default();
    let evidence = vec![Evidence {
        node,
        at: result.ended(),
        detail: format!("{} on {} ({}): {reason}", result.outcome.label(), result.instance, result.source),
    }];
    match result.outcome {
        RunOutcome::Refused if reason.starts_with("clock skew") => out.push(Finding {
            code: Condition::ClockSkew,
            blocking: true,
            item: Some(item),
            message: format!("the worker {} refused the last fire of item {item}: {reason}", result.instance),
            evidence,
            fix: Some(format!(
                "sync the clock (NTP) on {}, or: ejctl config set {job} maxTimeDiffSeconds=-1",
                instance_ip(&result.instance)
            )),
        }),
        RunOutcome::Refused => out.push(Finding {
            code: Condition::FireRefused,
            blocking: true,
            item: Some(item),
            message: format!("the worker {} refused the last fire of item {item}: {reason}", result.instance),
            evidence,
            fix: Some(format!("ejctl config edit {job}   (or fix the worker's job file and restart it)")),
        }),
        RunOutcome::Failed | RunOutcome::Killed | RunOutcome::Unknown => out.push(Finding {
            code: Condition::LastRunFailed,
            blocking: false,
            item: Some(item),
            message: format!("item {item}'s last run {}: {reason}", result.outcome.label().to_lowercase()),
            evidence,
            fix: Some(format!("ejctl history {job} --item {item} --output-tail")),
        }),
        RunOutcome::Ok => {}
    }
}

fn instance_ip(id: &str) -> &str {
    crate::registry::codec::instance_ip(id)
}

/// What the item state model ([`super::state`]) says beyond the tree's flags: items overdue
/// (only when nothing else stops them), and items whose runs outlast the cron's period.
fn health_level(s: &Snapshot<'_>, items: &[u32], out: &mut Vec<Finding>) {
    let schedule = Schedule { config: s.config.ok(), cron: s.cron };
    let states: Vec<ItemState> =
        item_states(s.view, schedule, s.now).into_iter().filter(|st| items.contains(&st.item)).collect();
    let overdue: Vec<&ItemState> = states.iter().filter(|st| st.health == Health::Overdue).collect();
    if let Some(first) = overdue.first()
        && !out.iter().any(|f| f.blocking)
    {
        let numbers: Vec<String> = overdue.iter().map(|st| st.item.to_string()).collect();
        let owners: std::collections::BTreeSet<&str> = overdue.iter().filter_map(|st| st.owner.as_deref()).collect();
        out.push(Finding {
            code: Condition::InstancesSilent,
            blocking: true,
            item: s.item,
            message: format!(
                "item{} {} overdue: {}; the owner may be cut off from ZooKeeper (fenced), frozen, or dead with its session still open",
                if overdue.len() == 1 { "" } else { "s" },
                numbers.join(","),
                first.reason(s.now).unwrap_or_default()
            ),
            evidence: owners.iter().map(|id| s.evidence(s.paths.instance(id), "registered")).collect(),
            fix: Some(format!("ejctl instance list {}   (then check those workers' logs)", s.name())),
        });
    }
    for st in states.iter().filter(|st| st.health == Health::Slow) {
        let Some(last) = &st.last else { continue };
        out.push(Finding {
            code: Condition::SlowRuns,
            blocking: false,
            item: Some(st.item),
            message: format!("item {}: {}", st.item, st.reason(s.now).unwrap_or_default()),
            evidence: vec![Evidence {
                node: s.paths.item_leaf(st.item, ItemLeaf::Result),
                at: last.ended(),
                detail: format!("{} on {} ({})", last.outcome.label(), last.instance, last.source),
            }],
            fix: Some(format!("ejctl history {} --item {}", s.name(), st.item)),
        });
    }
}

mod fire;
mod refused;

#[cfg(test)]
#[path = "why_tests.rs"]
mod tests;
