//! `why --fire`: the past fire's verdict ([`crate::coord::past_fire`]) for each item asked about,
//! as findings — from the trace store's runs when there is one, else from the item's last result
//! and its run in progress.

use chrono::{DateTime, Utc};

use super::{Condition, Evidence, Finding, Snapshot, rfc3339};
use crate::config::JobConfig;
use crate::coord::past_fire::{self, ItemRuns, JobFacts, TracedRun, Verdict};
use crate::registry::codec::RunOutcome;
use crate::registry::path::ItemLeaf;

/// What became of the past fire at `fire` on each of `items` ([`past_fire::check`]): one finding
/// when the verdict is about the instant or the job, else one per item.
pub(super) fn fire_level(s: &Snapshot<'_>, fire: DateTime<Utc>, items: &[u32], out: &mut Vec<Finding>) {
    let registered = s.view.instances.keys().filter_map(|id| s.ctimes.get(&s.paths.instance(id))).min().copied();
    let facts = JobFacts {
        cron: s.cron,
        now: s.now,
        created: s.ctimes.get(&s.paths.config()).copied(),
        registered,
        ran_before: s.trace.map(|t| t.ran_before),
    };
    let verdicts: Vec<(u32, Verdict)> =
        items.iter().map(|&item| (item, past_fire::check(fire, &facts, &item_runs(s, item)))).collect();
    if let Some((_, first)) = verdicts.first()
        && first.is_job_wide()
        && verdicts.iter().all(|(_, v)| v == first)
    {
        out.push(fire_finding(s, fire, s.item, first));
        return;
    }
    out.extend(verdicts.iter().map(|(item, v)| fire_finding(s, fire, Some(*item), v)));
}

fn fire_finding(s: &Snapshot<'_>, fire: DateTime<Utc>, item: Option<u32>, verdict: &Verdict) -> Finding {
    let tz = s.cron.map(|(_, tz)| *tz).unwrap_or_default();
    let code = match verdict {
        Verdict::NotDue => Condition::FireNotDue,
        Verdict::NotAFireTime { .. } => Condition::FireNotAFireTime,
        Verdict::BeforeJob { .. } => Condition::FireBeforeJob,
        Verdict::NoInstance { .. } => Condition::FireNoInstance,
        Verdict::InTime(_) => Condition::FireInTime,
        Verdict::Late { .. } => Condition::FireCoveredLate,
        Verdict::NotRun { .. } => Condition::FireNotRun,
        Verdict::Unknown(_) => Condition::FireUnknown,
    };
    let mut evidence: Vec<Evidence> = verdict
        .runs()
        .into_iter()
        .map(|(run, role)| Evidence {
            node: run.node.clone(),
            at: Some(run.start),
            detail: format!("{role}: {} run for the fire at {} on {}", run.source, rfc3339(&run.fire), run.instance),
        })
        .collect();
    if let Verdict::BeforeJob { .. } = verdict {
        evidence.push(s.evidence(s.paths.config(), "created after the fire"));
    }
    let fix = match (verdict, item) {
        (Verdict::NotRun { .. } | Verdict::Unknown(_), Some(item)) => {
            Some(format!("ejctl history {} --item {item} --since {}", s.name(), rfc3339(&fire)))
        }
        _ => None,
    };
    Finding {
        code,
        blocking: false,
        item,
        message: verdict.message(fire, item, s.config.ok().and_then(JobConfig::cron_expr), &tz),
        evidence,
        fix,
    }
}

/// What is known of `item`'s runs: the trace store's, or else the item's last result and its run
/// in progress (runs before those are not known).
fn item_runs(s: &Snapshot<'_>, item: u32) -> ItemRuns {
    if let Some(trace) = s.trace {
        return ItemRuns {
            runs: trace.runs.iter().filter(|r| r.item == item).cloned().collect(),
            known_since: None,
            known_until: trace.known_until,
        };
    }
    let state = s.view.items.get(&item);
    let mut runs = Vec::new();
    let mut known_since = s.now;
    if let Some(result) = state.and_then(|st| st.result.as_ref()) {
        let node = s.paths.item_leaf(item, ItemLeaf::Result);
        let started = result.started().or_else(|| result.ended());
        known_since = started.unwrap_or(known_since).min(known_since);
        if let (Some(start), false) = (started, result.outcome == RunOutcome::Refused) {
            runs.push(TracedRun {
                node,
                item,
                fire: result.fire_ms.and_then(DateTime::from_timestamp_millis).unwrap_or(start),
                start,
                end: result.ended(),
                source: result.source.clone(),
                outcome: Some(result.outcome.label().to_lowercase()),
                instance: result.instance.clone(),
            });
        }
    }
    let running = s.paths.item_leaf(item, ItemLeaf::Running);
    if let (Some(state), Some(start)) = (state.filter(|st| st.running), s.ctimes.get(&running)) {
        known_since = known_since.min(*start);
        runs.push(TracedRun {
            node: running,
            item,
            fire: *start,
            start: *start,
            end: None,
            source: "current".into(),
            outcome: None,
            instance: state.failovering.clone().or_else(|| state.owner.clone()).unwrap_or_default(),
        });
    }
    ItemRuns { runs, known_since: Some(known_since), known_until: None }
}
