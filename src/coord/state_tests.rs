use chrono::{DateTime, Utc};

use super::*;
use crate::coord::snapshot::ItemSnapshot;
use crate::registry::codec::{RunOutcome, ServerStatus};
use crate::schedule::cron::{self, JobTimeZone};

const A: &str = "10.0.0.1@-@1";
const B: &str = "10.0.0.2@-@2";
const GONE: &str = "10.0.0.9@-@9";

/// Seconds after a whole minute.
fn t(s: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(1_700_000_040 + s, 0).unwrap()
}

/// A run of `source` for the fire at `fire` s, from `start` to `end` s.
fn run(outcome: RunOutcome, source: &str, fire: i64, start: i64, end: i64) -> ItemResult {
    ItemResult {
        v: 1,
        instance: A.into(),
        source: source.into(),
        fire_ms: Some(t(fire).timestamp_millis()),
        start_ms: Some(t(start).timestamp_millis()),
        end_ms: t(end).timestamp_millis(),
        outcome,
        exit_code: None,
        signal: None,
        message: (outcome != RunOutcome::Ok).then(|| "exit 1".to_string()),
        stderr_tail: None,
        refused: Vec::new(),
    }
}

/// Instances A and B, enabled; three items, 0 and 1 owned by A, 2 by B; each last ran ok for the
/// fire at 0 s.
fn job() -> JobSnapshot {
    let mut v = JobSnapshot::default();
    for id in [A, B] {
        v.instances.insert(id.into(), None);
    }
    v.servers.insert("10.0.0.1".into(), ServerStatus::Enabled);
    v.servers.insert("10.0.0.2".into(), ServerStatus::Enabled);
    v.leader = Some(A.into());
    v.sharding_root = true;
    for (i, owner) in [(0, A), (1, A), (2, B)] {
        v.items.insert(
            i,
            ItemSnapshot {
                owner: Some(owner.into()),
                result: Some(run(RunOutcome::Ok, "cron", 0, 0, 1)),
                ..ItemSnapshot::default()
            },
        );
    }
    v
}

/// The states at `now` s of `view` on a cron of every 2 s.
fn states(view: &JobSnapshot, now: i64) -> Vec<ItemState> {
    let config = JobConfig::new("etl", 3);
    let expr = cron::parse("0/2 * * * * ?").unwrap();
    let tz = JobTimeZone::Fixed(chrono::FixedOffset::east_opt(0).unwrap());
    item_states(view, Schedule { config: Some(&config), cron: Some((&expr, &tz)) }, t(now))
}

fn healths(states: &[ItemState]) -> Vec<Health> {
    states.iter().map(|s| s.health).collect()
}

#[test]
fn items_that_ran_in_time_are_ok() {
    let view = job();
    let s = states(&view, 1);
    assert_eq!(healths(&s), [Health::Ok; 3]);
    assert_eq!(s[0].next_fire, Some(t(2)));
    let h = JobHealth::of(&view, &s);
    assert_eq!((h.health, h.items.len(), h.of), (Health::Ok, 0, 3));
    assert_eq!(h.last_run, Some(t(1)));
}

#[test]
fn an_idle_item_whose_registered_owner_stopped_starting_it_is_overdue() {
    // B was killed after its run of the fire at 0 s (it ended at 1 s); its session is still open,
    // so its instance node is there. The fires at 2 and 4 s passed without a start.
    let view = job();
    assert_eq!(states(&view, 6)[2].health, Health::Ok, "within the grace after the second fire");
    let s = states(&view, 7);
    assert_eq!(healths(&s), [Health::Overdue; 3], "A's items did not start either");
    let overdue = s[2].overdue.clone().unwrap();
    assert_eq!((overdue.since, overdue.period, overdue.owner.as_str()), (t(1), Duration::from_secs(2), B));
    assert_eq!(
        s[2].reason(t(8)).unwrap(),
        format!(
            "no run started in the 7s since the last one ended, on a 2s cron; owner {B} registered but silent (dead with its session open, frozen, or cut off)"
        )
    );
    let h = JobHealth::of(&view, &s);
    assert_eq!((h.health, h.overdue.clone()), (Health::Overdue, vec![0, 1, 2]));
}

#[test]
fn a_running_item_a_dead_owner_a_long_run_or_a_stopped_job_is_not_overdue() {
    let mut view = job();
    view.items.get_mut(&0).unwrap().running = true;
    view.items.get_mut(&1).unwrap().owner = Some(GONE.into());
    // Item 2's run took 29 s and ended at 30 s: the fires during it were owed or skipped, not
    // missed.
    view.items.get_mut(&2).unwrap().result = Some(run(RunOutcome::Ok, "cron", 0, 0, 30));
    let s = states(&view, 30);
    assert_eq!(healths(&s[..2]), [Health::Ok, Health::Ok]);
    assert_eq!(s[2].health, Health::Slow);
    // Every server disabled: nothing is due.
    let mut view = job();
    view.servers.values_mut().for_each(|s| *s = ServerStatus::Disabled);
    assert_eq!(healths(&states(&view, 30)), [Health::Ok; 3]);
    assert_eq!(states(&view, 30)[0].next_fire, None);
}

#[test]
fn a_disabled_item_has_no_health_and_does_not_count_as_failing() {
    let mut view = job();
    let item = view.items.get_mut(&1).unwrap();
    item.disabled = true;
    item.result = Some(run(RunOutcome::Failed, "cron", 0, 0, 1));
    let s = states(&view, 1);
    assert_eq!(healths(&s), [Health::Ok, Health::Disabled, Health::Ok]);
    assert_eq!(s[1].next_fire, None);
    let h = JobHealth::of(&view, &s);
    assert_eq!((h.health, h.failing.clone(), h.of), (Health::Ok, vec![], 2));
}

#[test]
fn a_failed_last_run_is_failing_with_its_message() {
    let mut view = job();
    view.items.get_mut(&2).unwrap().result = Some(run(RunOutcome::Failed, "cron", 0, 0, 1));
    let s = states(&view, 1);
    assert_eq!(s[2].health, Health::Failing);
    assert_eq!(s[2].reason(t(1)).as_deref(), Some("exit 1"));
    let h = JobHealth::of(&view, &s);
    assert_eq!((h.health, h.items.clone(), h.failing.clone()), (Health::Failing, vec![2], vec![2]));
}

#[test]
fn a_run_longer_than_the_period_or_a_misfire_run_is_slow() {
    let mut view = job();
    // 5 s for the fire at 0 s on a 2 s cron.
    view.items.get_mut(&0).unwrap().result = Some(run(RunOutcome::Ok, "cron", 0, 0, 5));
    // A misfire run: it covered fires that came due while the run before it went on.
    view.items.get_mut(&1).unwrap().result = Some(run(RunOutcome::Ok, "misfire", 4, 5, 6));
    let s = states(&view, 6);
    assert_eq!(healths(&s), [Health::Slow, Health::Slow, Health::Ok]);
    assert_eq!(
        s[0].slow,
        Some(Slow { took: Duration::from_secs(5), period: Duration::from_secs(2), coalesced: false })
    );
    assert!(
        s[0].reason(t(6)).unwrap().starts_with("its last run took 5s on a 2s cron: fires due while it runs coalesce")
    );
    assert!(s[1].slow.as_ref().unwrap().coalesced);
    let h = JobHealth::of(&view, &s);
    assert_eq!((h.health, h.slow.clone()), (Health::Slow, vec![0, 1]));
}

#[test]
fn an_item_failing_over_shows_its_queue_and_owners() {
    let mut view = job();
    let item = view.items.get_mut(&2).unwrap();
    item.owner = Some(GONE.into());
    item.failover = Some(A.into());
    view.failover_queue.insert(1);
    let s = states(&view, 1);
    assert_eq!((s[2].owner_registered, s[2].failover.as_deref()), (false, Some(A)));
    assert_eq!(s[2].status, ItemStatus::ShardingFlag);
    assert!(s[1].failover_queued && !s[0].failover_queued);
}

#[test]
fn items_beyond_the_total_keep_no_result_and_missing_items_are_listed() {
    let mut view = job();
    view.items.remove(&1);
    view.items
        .insert(7, ItemSnapshot { result: Some(run(RunOutcome::Failed, "cron", 0, 0, 1)), ..ItemSnapshot::default() });
    let s = states(&view, 1);
    let items: Vec<u32> = s.iter().map(|s| s.item).collect();
    assert_eq!(items, [0, 1, 2, 7]);
    assert_eq!((s[1].health, s[1].status), (Health::Unknown, ItemStatus::ShardingFlag));
    assert_eq!((s[3].health, s[3].last.is_none()), (Health::Unknown, true));
}

#[test]
fn a_run_with_values_the_registry_still_disagrees_with_is_overridden() {
    let mut v = job();
    let refused = RefusedValue {
        prop: "script.command.line".into(),
        registry: Some("/tmp/evil.sh".into()),
        job_file: Some("/opt/job.sh".into()),
    };
    v.items.get_mut(&1).unwrap().result.as_mut().unwrap().refused = vec![refused.clone()];
    // The registry holds the refused value: the run was OK, the item is OVERRIDDEN.
    let mut config = JobConfig::new("etl", 3);
    config.props.insert("script.command.line".into(), "/tmp/evil.sh".into());
    let expr = cron::parse("0/2 * * * * ?").unwrap();
    let tz = JobTimeZone::Fixed(chrono::FixedOffset::east_opt(0).unwrap());
    let at = |v: &JobSnapshot, config: &JobConfig| {
        item_states(v, Schedule { config: Some(config), cron: Some((&expr, &tz)) }, t(1))
    };
    let s = at(&v, &config);
    assert_eq!(healths(&s), [Health::Ok, Health::Overridden, Health::Ok]);
    assert_eq!(s[1].overridden, [refused]);
    assert_eq!(
        s[1].reason(t(1)).unwrap(),
        "its last run, on 10.0.0.1@-@1, used the worker's job file's values, not the registry's, which it refuses: \
         script.command.line: the registry has '/tmp/evil.sh', the job file '/opt/job.sh'"
    );
    let h = JobHealth::of(&v, &s);
    assert_eq!((h.health, h.items.clone(), h.overridden.clone()), (Health::Overridden, vec![1], vec![1]));
    // Set back to the job file's value: nothing stands.
    config.props.insert("script.command.line".into(), "/opt/job.sh".into());
    assert_eq!(healths(&at(&v, &config)), [Health::Ok; 3]);
    // A failure outranks it.
    v.items.get_mut(&0).unwrap().result = Some(run(RunOutcome::Failed, "cron", 0, 0, 1));
    config.props.insert("script.command.line".into(), "/tmp/evil.sh".into());
    assert_eq!(JobHealth::of(&v, &at(&v, &config)).health, Health::Failing);
}

#[test]
fn a_job_whose_leader_recorded_failed_shardings_cannot_shard_whatever_its_items() {
    let mut view = job();
    view.items.get_mut(&2).unwrap().result = Some(run(RunOutcome::Failed, "cron", 0, 0, 1));
    let failure = ShardingFailure::new(t(3), 4, "transaction too large", A);
    view.sharding_failure = Some(failure.clone());
    view.necessary = true;
    let s = states(&view, 4);
    let h = JobHealth::of(&view, &s);
    assert_eq!((h.health, h.items.clone(), h.failing.clone()), (Health::CannotShard, vec![], vec![2]));
    assert_eq!(h.sharding_failure, Some(failure));
    assert!(Health::CannotShard > Health::Overdue, "ranked worse than any item's health");
    assert_eq!(Health::CannotShard.as_str(), "CANNOT_SHARD");
    assert_eq!(
        h.reason().unwrap(),
        format!("sharding failed 4 times since 2023-11-14T22:14:03Z on {A}: transaction too large")
    );
    assert_eq!(healths(&s)[2], Health::Failing, "no item is CANNOT_SHARD");

    // The flag gone (a sharding completed), the record with it: the items' health again.
    view.necessary = false;
    let h = JobHealth::of(&view, &s);
    assert_eq!((h.health, h.reason()), (Health::Failing, None));
    // A record of one failure says so.
    let once = ShardingFailure::new(t(3), 1, "e", A);
    assert_eq!(cannot_shard_reason(&once), format!("sharding failed once since 2023-11-14T22:14:03Z on {A}: e"));
}
