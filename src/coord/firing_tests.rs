//! Event sequences of one fire on this instance, events in and actions out: a fire deferred with
//! the registry unreachable; the clock check (a skew over the limit, a clock that cannot be read,
//! no check); resharding (owed to every item, dropped by the injected bug, waiting); idle items
//! marked and started, the first item's node written alone in a large fire and the rest going as
//! a fire of their own when it runs elsewhere; starting without monitoring; a configuration that
//! cannot run; busy items owed, queued or skipped; a cron fire handled late; a trigger covered by
//! runs since it was written; a claimed item started or given back; answers to nothing asked.
//! What a fire owes and queues — the owes' reads and writes, marks the registry failed, queued and
//! missed fires — is in `firing_owed_tests.rs`.

use super::*;
use crate::coord::fire::{Ended, FireId};
use crate::coord::fixtures::{ME, OTHER, fire_facts, t, view_with};
use crate::coord::snapshot::ItemSnapshot;
use crate::registry::Stat;
use crate::registry::codec;

pub(super) fn cron() -> Source {
    Source::Cron(t(100))
}

/// A job of three items, 0 and 2 here, 1 elsewhere: monitoring and misfire on, no clock check,
/// no listeners, runnable, the registry reachable.
pub(super) fn facts() -> Facts {
    fire_facts(3)
}

/// Items 0 and 2 here, 1 elsewhere, nothing running.
pub(super) fn settled() -> JobSnapshot {
    view_with(&[(0, ME), (1, OTHER), (2, ME)], &[])
}

/// The same, with resharding flagged.
pub(super) fn resharding() -> JobSnapshot {
    JobSnapshot { necessary: true, ..settled() }
}

/// A job of `total` items, all here.
pub(super) fn all_mine(total: u32) -> (Facts, JobSnapshot) {
    let owners: Vec<(u32, &str)> = (0..total).map(|i| (i, ME)).collect();
    (Facts { total, ..facts() }, view_with(&owners, &[]))
}

// The large fires below have more items than that.
const _: () = assert!(20 > txn::FIRST_ALONE_ABOVE && 17 > txn::FIRST_ALONE_ABOVE && 16 == txn::FIRST_ALONE_ABOVE);

pub(super) fn drain(firing: &mut Firing) -> Vec<FireAction> {
    std::iter::from_fn(|| firing.poll_action()).collect()
}

/// Answers the reads and writes that owe a fire to `asked`, which are `owed` it: the others a run
/// started after the fire covers (their stamps say so), the owed have no stamp and their writes
/// succeed.
pub(super) fn answer_owes(
    f: &mut Firing,
    (asked, owed): (&[u32], &[u32]),
    state: &mut FireState,
    view: &JobSnapshot,
    now: DateTime<Utc>,
) {
    let read = |item: &u32| if owed.contains(item) { Ok(None) } else { Ok(stamp(1_000, 1)) };
    f.handle(FireEvent::StartsRead(asked.iter().map(read).collect()), state, view, now);
    if owed.is_empty() {
        return;
    }
    let written: Vec<u32> = match drain(f).as_slice() {
        [FireAction::WriteOwes(writes)] => writes.iter().map(|(item, _)| *item).collect(),
        other => panic!("expected the owes' writes, got {other:?}"),
    };
    assert_eq!(written, owed);
    f.handle(FireEvent::OwesWritten(vec![OweOutcome::Owed; owed.len()]), state, view, now);
}

/// The answer to a `Mark` whose nodes were all written but those of items running elsewhere.
pub(super) fn marked(written: Vec<u32>) -> FireEvent {
    FireEvent::Marked { written, failed: Vec::new() }
}

pub(super) fn range(items: std::ops::Range<u32>) -> Vec<u32> {
    items.collect()
}

/// An item node carrying the start stamp of a run at `secs`, written at zxid `mzxid`.
pub(super) fn stamp(secs: i64, mzxid: i64) -> Option<NodeData> {
    Some(NodeData { data: codec::encode_millis(t(secs)), stat: Stat { mzxid, ..Stat::default() } })
}

#[test]
fn a_fire_with_the_registry_unreachable_is_deferred() {
    let mut state = FireState::default();
    // The link is checked before the clock.
    let facts = Facts { link_ok: false, max_time_diff_seconds: 5, ..facts() };
    let mut f = Firing::fire(cron(), facts, &mut state, &settled(), t(100));
    assert_eq!(drain(&mut f), [FireAction::Deferred]);
    // Nothing is asked: any answer is ignored.
    f.handle(FireEvent::ClockRead(Ok(None)), &mut state, &settled(), t(100));
    assert_eq!(drain(&mut f), []);
    assert_eq!(state.take_missed_offline(true), Some(Source::Misfire(t(100))));
    assert_eq!(state.take_missed_offline(true), None, "taken once");
}

#[test]
fn the_clock_is_read_first_and_a_skew_over_the_limit_refuses_the_local_items() {
    let mut state = FireState::default();
    let view = settled();
    let facts = Facts { max_time_diff_seconds: 5, ..facts() };
    let mut f = Firing::fire(cron(), facts, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadClock]);
    let registry_ms = t(94).timestamp_millis();
    f.handle(FireEvent::ClockRead(Ok(Some(registry_ms))), &mut state, &view, t(100));
    let refusal = Refusal::ClockSkew { skew_ms: 6000, limit: 5 };
    assert_eq!(drain(&mut f), [FireAction::Refuse { items: vec![0, 2], refusal: refusal.clone() }]);
    assert!(refusal.reason().contains("6000 ms") && refusal.reason().contains("maxTimeDiffSeconds = 5"));
    // Nothing starts, nothing is queued or owed.
    f.handle(marked(vec![0, 2]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), []);
    assert_eq!(state, FireState::default());
}

#[test]
fn a_registry_clock_ahead_refuses_the_fire_too() {
    let mut state = FireState::default();
    let view = settled();
    let facts = Facts { max_time_diff_seconds: 0, ..facts() };
    let mut f = Firing::fire(cron(), facts, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadClock]);
    let registry_ms = t(100).timestamp_millis() + 1;
    f.handle(FireEvent::ClockRead(Ok(Some(registry_ms))), &mut state, &view, t(100));
    let refusal = Refusal::ClockSkew { skew_ms: 1, limit: 0 };
    assert_eq!(drain(&mut f), [FireAction::Refuse { items: vec![0, 2], refusal }]);
}

#[test]
fn a_clock_that_cannot_be_read_refuses_the_fire() {
    let mut state = FireState::default();
    let view = settled();
    let facts = Facts { max_time_diff_seconds: 5, ..facts() };
    let mut f = Firing::fire(cron(), facts, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadClock]);
    f.handle(FireEvent::ClockRead(Err("connection loss".into())), &mut state, &view, t(100));
    let refusal = Refusal::ClockUnread("connection loss".into());
    assert_eq!(drain(&mut f), [FireAction::Refuse { items: vec![0, 2], refusal }]);
    assert_eq!(state, FireState::default());
}

#[test]
fn a_clock_within_the_limit_lets_the_fire_start() {
    // (rule, the registry's clock)
    let rows = [
        ("the same instant", Some(t(100).timestamp_millis())),
        ("off by the limit exactly", Some(t(95).timestamp_millis())),
        ("nothing to compare", None),
    ];
    for (rule, registry_ms) in rows {
        let mut state = FireState::default();
        let view = settled();
        let facts = Facts { max_time_diff_seconds: 5, ..facts() };
        let mut f = Firing::fire(cron(), facts, &mut state, &view, t(100));
        assert_eq!(drain(&mut f), [FireAction::ReadClock], "{rule}");
        f.handle(FireEvent::ClockRead(Ok(registry_ms)), &mut state, &view, t(100));
        assert_eq!(drain(&mut f), [FireAction::Mark(vec![0, 2])], "{rule}");
    }
}

#[test]
fn a_negative_limit_reads_no_clock() {
    let mut state = FireState::default();
    let mut f = Firing::fire(cron(), facts(), &mut state, &settled(), t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0, 2])]);
}

#[test]
fn a_cron_fire_during_resharding_is_owed_to_every_item() {
    let mut state = FireState::default();
    let view = resharding();
    let mut f = Firing::fire(cron(), facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Note(Note::OwedToAll), FireAction::ReadStarts(vec![0, 1, 2])]);
    answer_owes(&mut f, (&[0, 1, 2], &[0, 1, 2]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [], "owed: the fire is handled");
    assert_eq!(state, FireState::default(), "nothing waits here: the misfire nodes stand for the fire");
    // An item without owner is resharding too.
    let unowned = view_with(&[(0, ME), (1, OTHER)], &[]);
    let mut f = Firing::fire(cron(), facts(), &mut state, &unowned, t(100));
    assert_eq!(drain(&mut f), [FireAction::Note(Note::OwedToAll), FireAction::ReadStarts(vec![0, 1, 2])]);
}

#[test]
fn the_injected_bug_drops_a_fire_during_resharding() {
    let mut state = FireState::default();
    let facts = Facts { drop_misfires: true, ..facts() };
    let mut f = Firing::fire(cron(), facts, &mut state, &resharding(), t(100));
    assert_eq!(drain(&mut f), []);
    assert_eq!(state, FireState::default());
}

#[test]
fn a_trigger_or_a_fire_without_misfire_waits_for_resharding() {
    let trigger = Source::Trigger(t(100), Some("tok".into()), None);
    // (rule, fire, misfire)
    let rows = [("a trigger", trigger.clone(), true), ("a cron fire, misfire off", cron(), false)];
    for (rule, source, misfire) in rows {
        let mut state = FireState::default();
        let facts = Facts { misfire, ..facts() };
        let mut f = Firing::fire(source.clone(), facts, &mut state, &resharding(), t(100));
        assert_eq!(drain(&mut f), [FireAction::Note(Note::WaitsForSharding)], "{rule}");
        assert_eq!(state.take_pending(), Some(source), "{rule}");
    }
}

#[test]
fn idle_items_are_marked_then_started_and_those_running_elsewhere_left_out() {
    let mut state = FireState::default();
    let view = settled();
    let mut f = Firing::fire(cron(), facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0, 2])]);
    // Item 0's node exists: it runs elsewhere.
    f.handle(marked(vec![2]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Open { planned: vec![2], started: vec![2] }, FireAction::Spawn(vec![2])]);
    f.handle(marked(vec![0]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [], "handled");
}

#[test]
fn no_item_marked_starts_nothing() {
    let mut state = FireState::default();
    let view = settled();
    let mut f = Firing::fire(cron(), facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0, 2])]);
    f.handle(marked(vec![]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), []);
}

#[test]
fn disabled_items_and_items_covered_by_a_run_here_do_nothing() {
    let mut state = FireState::default();
    // Item 0's run here started at the fire: it covers it (and it is still running).
    state.begin(0, Source::Misfire(t(90)), t(100)).unwrap();
    let disabled = ItemSnapshot { disabled: true, ..ItemSnapshot::default() };
    let view = view_with(&[(0, ME), (1, ME), (2, ME)], &[(2, disabled)]);
    let mut f = Firing::fire(cron(), facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![1])]);
}

#[test]
fn a_large_fire_marks_and_starts_its_first_item_alone() {
    let mut state = FireState::default();
    let (facts, view) = all_mine(20);
    let mut f = Firing::fire(cron(), facts, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0])]);
    f.handle(marked(vec![0]), &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::Open { planned: range(0..20), started: vec![0] },
            FireAction::Spawn(vec![0]),
            FireAction::Mark(range(1..20)),
        ]
    );
    // Items 10..20 run elsewhere: they leave the fire's group.
    f.handle(marked(range(1..10)), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::LeaveOut(range(10..20)), FireAction::Spawn(range(1..10))]);
    f.handle(marked(range(1..10)), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [], "handled");
}

#[test]
fn the_rest_of_a_large_fire_all_marked_leaves_nothing_out() {
    let mut state = FireState::default();
    let (facts, view) = all_mine(20);
    let mut f = Firing::fire(cron(), facts, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0])]);
    f.handle(marked(vec![0]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f).last(), Some(&FireAction::Mark(range(1..20))));
    f.handle(marked(range(1..20)), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Spawn(range(1..20))]);
    // None of the rest marked: all leave, nothing more starts.
    let mut f = Firing::fire(cron(), all_mine(20).0, &mut state, &view, t(100));
    f.handle(marked(vec![0]), &mut state, &view, t(100));
    drain(&mut f);
    f.handle(marked(vec![]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::LeaveOut(range(1..20))]);
}

#[test]
fn when_the_first_item_runs_elsewhere_the_rest_go_as_a_fire_of_their_own() {
    let mut state = FireState::default();
    let (facts, view) = all_mine(18);
    let mut f = Firing::fire(cron(), facts, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0])]);
    // 17 items left: still large, split again.
    f.handle(marked(vec![]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![1])]);
    // 16 items left: written at once.
    f.handle(marked(vec![]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(range(2..18))]);
    f.handle(marked(range(2..18)), &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [FireAction::Open { planned: range(2..18), started: range(2..18) }, FireAction::Spawn(range(2..18))]
    );
    // The second item starts: its fire plans it and the rest.
    let mut f = Firing::fire(cron(), all_mine(18).0, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0])]);
    f.handle(marked(vec![]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![1])]);
    f.handle(marked(vec![1]), &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::Open { planned: range(1..18), started: vec![1] },
            FireAction::Spawn(vec![1]),
            FireAction::Mark(range(2..18)),
        ]
    );
}

#[test]
fn a_large_fire_with_listeners_or_without_monitoring_is_not_split() {
    let (facts, view) = all_mine(20);
    let mut state = FireState::default();
    let mut f = Firing::fire(cron(), Facts { listeners: true, ..facts.clone() }, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(range(0..20))]);
    f.handle(marked(range(0..20)), &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [FireAction::Open { planned: range(0..20), started: range(0..20) }, FireAction::Spawn(range(0..20))]
    );
    let mut f = Firing::fire(cron(), Facts { monitor: false, ..facts }, &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [FireAction::Open { planned: range(0..20), started: range(0..20) }, FireAction::Spawn(range(0..20))]
    );
}

#[test]
fn without_monitoring_misfire_nodes_are_cleared_and_items_start_at_once() {
    let mut state = FireState::default();
    // Item 0 has a misfire queued here and a misfire node; item 2 has neither.
    assert!(state.queue(0, &Source::Cron(t(50)), true, true));
    let misfired = ItemSnapshot { misfire: true, ..ItemSnapshot::default() };
    let view = view_with(&[(0, ME), (1, OTHER), (2, ME)], &[(0, misfired)]);
    let facts = Facts { monitor: false, ..facts() };
    let mut f = Firing::fire(cron(), facts, &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::ClearMisfires(vec![0]),
            FireAction::Open { planned: vec![0, 2], started: vec![0, 2] },
            FireAction::Spawn(vec![0, 2]),
        ]
    );
    assert_eq!(state.slot(0).and_then(|s| s.queued.clone()), None, "the run spends the queued misfire");
}

#[test]
fn a_queued_trigger_is_not_spent_by_a_start() {
    let mut state = FireState::default();
    let trigger = Source::Trigger(t(50), None, None);
    assert!(state.queue(0, &trigger, true, false));
    let view = settled();
    let mut f = Firing::fire(cron(), facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0, 2])]);
    f.handle(marked(vec![0, 2]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f).len(), 2);
    assert_eq!(state.slot(0).and_then(|s| s.queued.clone()), Some(trigger));
}

#[test]
fn an_unrunnable_configuration_refuses_the_items_due_to_start() {
    for monitor in [true, false] {
        let mut state = FireState::default();
        let misfired = ItemSnapshot { misfire: true, ..ItemSnapshot::default() };
        let view = view_with(&[(0, ME), (1, OTHER), (2, ME)], &[(0, misfired)]);
        let facts = Facts { monitor, unrunnable: Some("no such script".into()), ..facts() };
        let mut f = Firing::fire(cron(), facts, &mut state, &view, t(100));
        let refusal = Refusal::Unrunnable("no such script".into());
        assert_eq!(drain(&mut f), [FireAction::Refuse { items: vec![0, 2], refusal }], "monitor {monitor}");
    }
}

#[test]
fn an_unrunnable_configuration_still_owes_and_queues_a_busy_item() {
    let mut state = FireState::default();
    state.begin(0, Source::Cron(t(90)), t(90)).unwrap();
    let view = settled();
    let facts = Facts { unrunnable: Some("bad".into()), ..facts() };
    let mut f = Firing::fire(cron(), facts, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadStarts(vec![0])]);
    answer_owes(&mut f, (&[0], &[0]), &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::Note(Note::Queued { item: 0, here: true }),
            FireAction::StillRunning(vec![0]),
            FireAction::Refuse { items: vec![2], refusal: Refusal::Unrunnable("bad".into()) },
        ]
    );
}

#[test]
fn a_cron_fire_on_an_item_busy_here_is_owed_then_queued_and_rerun() {
    let mut state = FireState::default();
    let id = state.begin(0, Source::Cron(t(90)), t(90)).unwrap();
    let view = settled();
    let mut f = Firing::fire(cron(), facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadStarts(vec![0])], "asks before anything else");
    answer_owes(&mut f, (&[0], &[0]), &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::Note(Note::Queued { item: 0, here: true }),
            FireAction::StillRunning(vec![0]),
            FireAction::Mark(vec![2]),
        ]
    );
    assert_eq!(state.slot(0).and_then(|s| s.queued.clone()), Some(Source::Misfire(t(100))));
    f.handle(marked(vec![2]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Open { planned: vec![2], started: vec![2] }, FireAction::Spawn(vec![2])]);
    // The busy run ends: the queued misfire reruns the item.
    let finished = state.finish(&[Ended { item: 0, id, fenced: false }]);
    assert_eq!(finished.rerun, [(0, Source::Misfire(t(100)))]);
    let mut f = Firing::items(Source::Misfire(t(100)), vec![0], facts(), &mut state, &view, t(130));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0])], "a misfire is never late");
    f.handle(marked(vec![0]), &mut state, &view, t(130));
    assert_eq!(drain(&mut f), [FireAction::Open { planned: vec![0], started: vec![0] }, FireAction::Spawn(vec![0])]);
}

#[test]
fn a_fire_on_a_busy_item_covered_meanwhile_is_not_queued() {
    let mut state = FireState::default();
    state.begin(0, Source::Cron(t(90)), t(90)).unwrap();
    let view = settled();
    let mut f = Firing::fire(cron(), facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadStarts(vec![0])]);
    answer_owes(&mut f, (&[0], &[]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::StillRunning(vec![0]), FireAction::Mark(vec![2])]);
    assert_eq!(state.slot(0).and_then(|s| s.queued.clone()), None);
}

#[test]
fn a_busy_item_with_misfire_off_skips_the_fire() {
    let mut state = FireState::default();
    state.begin(0, Source::Cron(t(90)), t(90)).unwrap();
    let running = ItemSnapshot { running: true, ..ItemSnapshot::default() };
    let view = view_with(&[(0, ME), (1, OTHER), (2, ME)], &[(2, running)]);
    let facts = Facts { misfire: false, ..facts() };
    let mut f = Firing::fire(cron(), facts, &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::Note(Note::Skipped { item: 0, here: true }),
            FireAction::Note(Note::Skipped { item: 2, here: false }),
        ]
    );
    assert_eq!(state.slot(0).and_then(|s| s.queued.clone()), None);
}

#[test]
fn a_trigger_on_a_busy_item_with_misfire_off_is_queued_without_owing() {
    let mut state = FireState::default();
    state.begin(0, Source::Cron(t(90)), t(90)).unwrap();
    let running = ItemSnapshot { running: true, ..ItemSnapshot::default() };
    let view = view_with(&[(0, ME), (1, ME), (2, ME)], &[(2, running)]);
    let trigger = Source::Trigger(t(100), Some("tok".into()), None);
    let facts = Facts { misfire: false, ..facts() };
    let mut f = Firing::fire(trigger.clone(), facts, &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::Note(Note::Queued { item: 0, here: true }),
            FireAction::Note(Note::Queued { item: 2, here: false }),
            FireAction::StillRunning(vec![0]),
            FireAction::Mark(vec![1]),
        ]
    );
    // A trigger waits here for its own run, busy here or elsewhere.
    assert_eq!(state.slot(0).and_then(|s| s.queued.clone()), Some(trigger.clone()));
    assert_eq!(state.slot(2).and_then(|s| s.queued.clone()), Some(trigger));
}

#[test]
fn an_item_busy_elsewhere_is_owed_but_not_queued_here() {
    let mut state = FireState::default();
    let taken = ItemSnapshot { failovering: Some(OTHER.into()), ..ItemSnapshot::default() };
    let view = view_with(&[(0, ME), (1, OTHER), (2, ME)], &[(0, taken)]);
    let mut f = Firing::fire(cron(), facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadStarts(vec![0])]);
    answer_owes(&mut f, (&[0], &[0]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Note(Note::Queued { item: 0, here: false }), FireAction::Mark(vec![2])]);
    assert_eq!(state.slot(0), None, "the misfire node stands for the fire");
}

#[test]
fn the_injected_bug_drops_a_fire_on_a_busy_item() {
    let mut state = FireState::default();
    state.begin(0, Source::Cron(t(90)), t(90)).unwrap();
    let view = settled();
    let facts = Facts { drop_misfires: true, ..facts() };
    let mut f = Firing::fire(cron(), facts, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![2])]);
    assert_eq!(state.slot(0).and_then(|s| s.queued.clone()), None);
}

#[test]
fn a_cron_fire_handled_late_is_owed_not_started() {
    let mut state = FireState::default();
    let view = settled();
    let mut f = Firing::fire(cron(), facts(), &mut state, &view, t(103));
    assert_eq!(drain(&mut f), [FireAction::ReadStarts(vec![0, 2])]);
    // Item 2 was covered by a run elsewhere meanwhile.
    answer_owes(&mut f, (&[0, 2], &[0]), &mut state, &view, t(103));
    assert_eq!(drain(&mut f), [FireAction::Note(Note::OwedLate { item: 0 })]);
    assert_eq!(state, FireState::default(), "nothing starts or waits here: the misfire node owes the run");
    // At the limit, or with misfire off, it starts.
    let mut f = Firing::fire(cron(), facts(), &mut state, &view, t(102));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0, 2])]);
    let mut f = Firing::fire(cron(), Facts { misfire: false, ..facts() }, &mut state, &view, t(103));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0, 2])]);
}

#[test]
fn a_trigger_with_an_identity_leaves_out_the_items_a_run_covered_since() {
    let mut state = FireState::default();
    let view = settled();
    let id = FireId::trigger(t(100).timestamp_millis(), 50);
    let trigger = Source::Trigger(t(100), None, Some(id));
    let mut f = Firing::fire(trigger, facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadCovered(vec![0, 2])]);
    // Item 0 was stamped after the trigger was written, item 2 before.
    f.handle(FireEvent::CoveredRead(Some(vec![stamp(101, 51), stamp(90, 49)])), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Note(Note::TriggerCovered(vec![0])), FireAction::Mark(vec![2])]);
}

#[test]
fn a_wait_trigger_is_covered_by_its_result() {
    let mut state = FireState::default();
    let view = settled();
    let id = FireId::trigger(t(100).timestamp_millis(), 50);
    let trigger = Source::Trigger(t(100), Some("tok".into()), Some(id));
    let mut f = Firing::fire(trigger, facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadCovered(vec![0, 2])]);
    let result = NodeData { data: b"{}".to_vec(), stat: Stat { mzxid: 70, ..Stat::default() } };
    f.handle(FireEvent::CoveredRead(Some(vec![None, Some(result)])), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Note(Note::TriggerCovered(vec![2])), FireAction::Mark(vec![0])]);
}

#[test]
fn a_failed_read_covers_nothing_and_a_trigger_without_identity_reads_nothing() {
    let mut state = FireState::default();
    let view = settled();
    let id = FireId::trigger(t(100).timestamp_millis(), 50);
    let mut f = Firing::fire(Source::Trigger(t(100), None, Some(id)), facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadCovered(vec![0, 2])]);
    f.handle(FireEvent::CoveredRead(None), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0, 2])]);
    let mut f = Firing::fire(Source::Trigger(t(100), None, None), facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0, 2])]);
    // No local item: nothing to read.
    let mut f = Firing::items(Source::Trigger(t(100), None, Some(id)), vec![], facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), []);
}

#[test]
fn a_covered_trigger_on_a_busy_item_is_neither_queued_nor_owed() {
    let mut state = FireState::default();
    state.begin(0, Source::Cron(t(90)), t(90)).unwrap();
    let view = settled();
    let id = FireId::trigger(t(100).timestamp_millis(), 50);
    let trigger = Source::Trigger(t(100), None, Some(id));
    let mut f = Firing::fire(trigger, facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadCovered(vec![0, 2])]);
    f.handle(FireEvent::CoveredRead(Some(vec![stamp(101, 51), None])), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Note(Note::TriggerCovered(vec![0])), FireAction::Mark(vec![2])]);
    assert_eq!(state.slot(0).and_then(|s| s.queued.clone()), None);
}

#[test]
fn a_claimed_item_starts_at_once_or_is_given_back() {
    let mut state = FireState::default();
    // The claim wrote the node: no Mark, no owe; the item is its own fire, from failover.
    let mut f = Firing::claimed(1, facts(), &state, t(100));
    assert_eq!(f.source(), &Source::Failover(t(100)));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::Note(Note::FailedOver { item: 1 }),
            FireAction::Open { planned: vec![1], started: vec![1] },
            FireAction::Spawn(vec![1]),
        ]
    );
    // The configuration cannot run: given back, and let go.
    let unrunnable = Facts { unrunnable: Some("bad".into()), ..facts() };
    let mut f = Firing::claimed(1, unrunnable, &state, t(100));
    assert_eq!(drain(&mut f), [FireAction::GiveBack { item: 1, why: GiveBack::Unrunnable }]);
    // A run of the item here already: given back, never run twice.
    state.begin(1, Source::Cron(t(90)), t(90)).unwrap();
    let mut f = Firing::claimed(1, facts(), &state, t(100));
    assert_eq!(drain(&mut f), [FireAction::GiveBack { item: 1, why: GiveBack::RunningHere }]);
    assert_eq!(state.running_count(), 1, "the run here goes on");
}

#[test]
fn an_answer_to_nothing_asked_is_ignored() {
    let mut state = FireState::default();
    let view = settled();
    let facts = Facts { max_time_diff_seconds: 5, ..facts() };
    let mut f = Firing::fire(cron(), facts, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadClock]);
    // Waiting for the clock: other answers leave the stage as it is.
    let answers = [FireEvent::StartsRead(vec![Ok(None)]), FireEvent::OwesWritten(vec![OweOutcome::Owed])];
    for event in [marked(vec![0]), FireEvent::CoveredRead(None)].into_iter().chain(answers) {
        f.handle(event, &mut state, &view, t(100));
        assert_eq!(drain(&mut f), []);
    }
    f.handle(FireEvent::ClockRead(Ok(None)), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0, 2])]);
    // Waiting for the nodes: a second clock read is ignored.
    f.handle(FireEvent::ClockRead(Ok(Some(0))), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), []);
    f.handle(marked(vec![0, 2]), &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [FireAction::Open { planned: vec![0, 2], started: vec![0, 2] }, FireAction::Spawn(vec![0, 2])]
    );
    // Handled: nothing more is taken.
    f.handle(marked(vec![0, 2]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), []);
    assert_eq!(state.running_count(), 0, "the runs begin with the driver, not here");
}
