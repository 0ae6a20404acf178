//! Event sequences of what a fire owes and queues on this instance, events in and actions out: a
//! queued fire owed by a clock ahead, or covered by a run anywhere; fires missed while the
//! registry was unreachable; owing (stamps read, writes, a raced write read again, a failure taken
//! as owed); items the registry failed to mark (owed, queued in doubt, retried); a `misfire`
//! node's fire, run or settled.

use super::tests::{all_mine, answer_owes, cron, drain, facts, marked, range, resharding, settled, stamp};
use super::*;
use crate::coord::fire::FireId;
use crate::coord::fixtures::{ME, t};
use crate::registry::Stat;
use crate::registry::codec::{self, ServerStatus};
use crate::registry::path::ItemLeaf;

#[test]
fn a_queued_fire_owed_by_a_clock_ahead_waits_for_this_clock() {
    let mut state = FireState::default();
    let view = settled();
    let ahead = Source::Misfire(t(105));
    let mut f = Firing::queued(ahead.clone(), 0, facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::WakeAt(t(105))]);
    assert_eq!(state.slot(0).and_then(|s| s.queued.clone()), Some(ahead.clone()));
    // Still early: it stays queued.
    assert_eq!(state.take_free_queued(&view, ME, 3, true, t(104)), []);
    let ready = state.take_free_queued(&view, ME, 3, true, t(105));
    assert_eq!(ready, [(0, Some(ahead.clone()))]);
    let mut f = Firing::queued(ahead, 0, facts(), &mut state, &view, t(105));
    assert_eq!(drain(&mut f), [FireAction::ReadStarts(vec![0])]);
    f.handle(FireEvent::StartsRead(vec![Ok(stamped_before(1))]), &mut state, &view, t(105));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0])]);
    f.handle(marked(vec![0]), &mut state, &view, t(105));
    assert_eq!(drain(&mut f), [FireAction::Open { planned: vec![0], started: vec![0] }, FireAction::Spawn(vec![0])]);
}

#[test]
fn a_queued_fire_that_is_due_starts_like_a_rerun_unless_a_run_anywhere_covered_it() {
    let mut state = FireState::default();
    let view = settled();
    let queued = || Source::Misfire(t(100));
    let mut f = Firing::queued(queued(), 2, facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadStarts(vec![2])], "the item's stamp first");
    f.handle(FireEvent::StartsRead(vec![Ok(stamped_before(1))]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![2])]);
    // A run elsewhere started at or after the fire (the item was away meanwhile): dropped.
    let mut f = Firing::queued(queued(), 2, facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadStarts(vec![2])]);
    f.handle(FireEvent::StartsRead(vec![Ok(stamp(100, 7))]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Note(Note::QueuedCovered { item: 2 })]);
    // A stamp that cannot be read: it runs (a repeat at worst, never a miss).
    let mut f = Firing::queued(queued(), 2, facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadStarts(vec![2])]);
    f.handle(FireEvent::StartsRead(vec![Err("connection loss".into())]), &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [FireAction::Note(Note::StartUnread { item: 2, error: "connection loss".into() }), FireAction::Mark(vec![2]),]
    );
    // A queued trigger with an identity reads what covers it first.
    let id = FireId::trigger(t(90).timestamp_millis(), 50);
    let trigger = Source::Trigger(t(90), None, Some(id));
    let mut f = Firing::queued(trigger, 2, facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadCovered(vec![2])]);
    f.handle(FireEvent::CoveredRead(Some(vec![stamp(95, 60)])), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Note(Note::TriggerCovered(vec![2]))]);
}

#[test]
fn missed_fires_are_owed_to_the_local_items_or_to_every_item_while_resharding() {
    let mut state = FireState::default();
    let view = settled();
    let mut f = Firing::missed(t(100), facts(), &view);
    assert_eq!(f.source(), &Source::Misfire(t(100)));
    assert_eq!(drain(&mut f), [FireAction::Note(Note::OwingMissed { items: 2 }), FireAction::ReadStarts(vec![0, 2])]);
    answer_owes(&mut f, (&[0, 2], &[0, 2]), &mut state, &view, t(130));
    assert_eq!(drain(&mut f), [], "the misfire nodes run the items");
    assert_eq!(state, FireState::default());
    let mut f = Firing::missed(t(100), facts(), &resharding());
    assert_eq!(
        drain(&mut f),
        [FireAction::Note(Note::OwingMissed { items: 3 }), FireAction::ReadStarts(vec![0, 1, 2])]
    );
    // With misfire off in the facts too: the fire was deferred, so it is owed.
    let mut f = Firing::missed(t(100), Facts { misfire: false, ..facts() }, &resharding());
    assert_eq!(
        drain(&mut f),
        [FireAction::Note(Note::OwingMissed { items: 3 }), FireAction::ReadStarts(vec![0, 1, 2])]
    );
    // This server disabled: no local item, nothing to owe.
    let mut disabled = settled();
    disabled.servers.insert("10.0.0.1".into(), ServerStatus::Disabled);
    let mut f = Firing::missed(t(100), facts(), &disabled);
    assert_eq!(drain(&mut f), [FireAction::Note(Note::OwingMissed { items: 0 })]);
    f.handle(FireEvent::StartsRead(vec![]), &mut state, &disabled, t(130));
    assert_eq!(drain(&mut f), []);
}

#[test]
fn owing_reads_the_stamps_writes_and_reads_again_what_a_run_raced() {
    let (facts, view) = all_mine(4);
    let mut state = FireState::default();
    let misfire = |item: u32| Op::Create {
        path: facts.paths.item_leaf(item, ItemLeaf::Misfire),
        data: codec::encode_millis(t(100)),
        mode: crate::registry::Mode::Persistent,
    };
    let checked = |item: u32, version: i32| {
        vec![Op::Check { path: facts.paths.item(item), version: Some(version) }, misfire(item)]
    };
    let mut f = Firing::missed(t(100), facts.clone(), &view);
    assert_eq!(drain(&mut f), [FireAction::Note(Note::OwingMissed { items: 4 }), FireAction::ReadStarts(range(0..4))]);
    // Item 0 unread (taken as owed), 1 covered by a later run, 2 and 3 stamped before the fire.
    let reads = vec![Err("connection loss".into()), Ok(stamp(1_000, 1)), Ok(stamped_before(4)), Ok(stamped_before(7))];
    f.handle(FireEvent::StartsRead(reads), &mut state, &view, t(130));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::Note(Note::StartUnread { item: 0, error: "connection loss".into() }),
            FireAction::WriteOwes(vec![(2, checked(2, 4)), (3, checked(3, 7))]),
        ]
    );
    // A run of item 3 started since the read: its write fails, it is read again.
    f.handle(FireEvent::OwesWritten(vec![OweOutcome::Owed, OweOutcome::Retry]), &mut state, &view, t(130));
    assert_eq!(drain(&mut f), [FireAction::ReadStarts(vec![3])]);
    f.handle(FireEvent::StartsRead(vec![Ok(stamped_before(8))]), &mut state, &view, t(130));
    assert_eq!(drain(&mut f), [FireAction::WriteOwes(vec![(3, checked(3, 8))])]);
    f.handle(FireEvent::OwesWritten(vec![OweOutcome::Retry]), &mut state, &view, t(130));
    assert_eq!(drain(&mut f), [FireAction::ReadStarts(vec![3])], "the third read");
    f.handle(FireEvent::StartsRead(vec![Ok(stamped_before(9))]), &mut state, &view, t(130));
    assert_eq!(drain(&mut f), [FireAction::WriteOwes(vec![(3, checked(3, 9))])]);
    // Raced a third time: taken as owed, no fourth read; the fire is handled.
    f.handle(FireEvent::OwesWritten(vec![OweOutcome::Retry]), &mut state, &view, t(130));
    assert_eq!(drain(&mut f), []);
    f.handle(FireEvent::StartsRead(vec![Ok(None)]), &mut state, &view, t(130));
    assert_eq!(drain(&mut f), [], "handled: nothing more is asked");
}

#[test]
fn a_busy_item_whose_owe_the_registry_failed_is_still_queued() {
    let mut state = FireState::default();
    state.begin(0, Source::Cron(t(90)), t(90)).unwrap();
    let view = settled();
    let mut f = Firing::fire(cron(), facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::ReadStarts(vec![0])]);
    f.handle(FireEvent::StartsRead(vec![Ok(None)]), &mut state, &view, t(100));
    assert!(matches!(drain(&mut f).as_slice(), [FireAction::WriteOwes(_)]));
    f.handle(FireEvent::OwesWritten(vec![OweOutcome::Failed]), &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::Note(Note::Queued { item: 0, here: true }),
            FireAction::StillRunning(vec![0]),
            FireAction::Mark(vec![2]),
        ],
        "a repeat at worst, never a miss"
    );
}

/// An item's start stamp of a run at 50, at `version`: before the fire at 100.
fn stamped_before(version: i32) -> Option<NodeData> {
    Some(NodeData { data: codec::encode_millis(t(50)), stat: Stat { version, ..Stat::default() } })
}

#[test]
fn an_item_the_registry_failed_to_mark_is_owed_the_fire_queued_here_and_retried() {
    let mut state = FireState::default();
    let view = settled();
    let mut f = Firing::fire(cron(), facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0, 2])]);
    // Item 0's node is written, the registry fails item 2's.
    f.handle(FireEvent::Marked { written: vec![0], failed: vec![2] }, &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::Open { planned: vec![0], started: vec![0] },
            FireAction::Spawn(vec![0]),
            FireAction::Note(Note::Unmarked(vec![2])),
            FireAction::ReadStarts(vec![2]),
        ]
    );
    f.handle(FireEvent::StartsRead(vec![Ok(stamped_before(3))]), &mut state, &view, t(100));
    assert!(matches!(drain(&mut f).as_slice(), [FireAction::WriteOwes(w)] if w.len() == 1 && w[0].0 == 2));
    f.handle(FireEvent::OwesWritten(vec![OweOutcome::Owed]), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Retry]);
    assert_eq!(state.slot(2).and_then(|s| s.queued.clone()), Some(Source::Misfire(t(100))));
    // The queued fire starts when it is looked at again (the item is free).
    let ready = state.take_free_queued(&view, ME, 3, true, t(102));
    assert_eq!(ready, [(2, Some(Source::Misfire(t(100))))]);
}

#[test]
fn a_mark_the_registry_failed_whole_is_owed_even_when_the_stamps_cannot_be_read() {
    let mut state = FireState::default();
    let view = settled();
    let mut f = Firing::fire(cron(), facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0, 2])]);
    f.handle(FireEvent::Marked { written: vec![], failed: vec![0, 2] }, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Note(Note::Unmarked(vec![0, 2])), FireAction::ReadStarts(vec![0, 2])]);
    let lost = || Err("connection loss".to_string());
    f.handle(FireEvent::StartsRead(vec![lost(), lost()]), &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::Note(Note::StartUnread { item: 0, error: "connection loss".into() }),
            FireAction::Note(Note::StartUnread { item: 2, error: "connection loss".into() }),
            FireAction::Retry,
        ]
    );
    for item in [0, 2] {
        assert_eq!(state.slot(item).and_then(|s| s.queued.clone()), Some(Source::Misfire(t(100))));
    }
}

#[test]
fn a_large_fire_whose_first_mark_failed_after_it_applied_goes_on_with_the_rest() {
    let mut state = FireState::default();
    let (facts, view) = all_mine(20);
    let mut f = Firing::fire(cron(), facts, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0])]);
    f.handle(FireEvent::Marked { written: vec![], failed: vec![0] }, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Note(Note::Unmarked(vec![0])), FireAction::ReadStarts(vec![0])]);
    // The reply was lost after the write applied: the item is stamped after the fire, covered;
    // the fire is queued in doubt all the same (see `firing_doubt_tests`).
    f.handle(FireEvent::StartsRead(vec![Ok(stamp(100, 9))]), &mut state, &view, t(100));
    let rest = [FireAction::Retry, FireAction::Mark(vec![1])];
    assert_eq!(drain(&mut f), rest, "the rest, as a fire of its own, first item alone");
    assert!(state.slot(0).is_some_and(|s| s.in_doubt), "queued in doubt");
    f.handle(marked(vec![1]), &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::Open { planned: range(1..20), started: vec![1] },
            FireAction::Spawn(vec![1]),
            FireAction::Mark(range(2..20)),
        ]
    );
    // Of the rest, 10..20 fail: they leave the group and are owed the fire.
    f.handle(FireEvent::Marked { written: range(2..10), failed: range(10..20) }, &mut state, &view, t(100));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::LeaveOut(range(10..20)),
            FireAction::Spawn(range(2..10)),
            FireAction::Note(Note::Unmarked(range(10..20))),
            FireAction::ReadStarts(range(10..20)),
        ]
    );
}

#[test]
fn a_misfire_node_runs_the_fire_it_owes_unless_a_run_since_covers_it() {
    let view = settled();
    let misfire = |secs: i64| {
        Some(NodeData { data: codec::encode_millis(t(secs)), stat: Stat { version: 2, ..Stat::default() } })
    };
    let settle = Op::Delete { path: facts().paths.item_leaf(0, ItemLeaf::Misfire), version: Some(2) };
    let owed = FireAction::Note(Note::MisfireOwed { item: 0 });
    let lost = "connection loss".to_string();
    // (rule, what the read gives, the actions, the fire queued after)
    let rows = [
        ("gone: a run took it meanwhile", Ok(vec![None, stamp(50, 3)]), vec![], None),
        (
            "a run started since covers it: settled",
            Ok(vec![misfire(100), stamp(101, 12)]),
            vec![FireAction::Note(Note::MisfireCovered { item: 0 }), FireAction::Settle(settle)],
            None,
        ),
        ("owed: it runs", Ok(vec![misfire(100), stamp(50, 3)]), vec![owed.clone(), FireAction::Mark(vec![0])], None),
        (
            "owed by a clock ahead: queued until this clock gets there",
            Ok(vec![misfire(105), None]),
            vec![owed.clone(), FireAction::WakeAt(t(105))],
            Some(Source::Misfire(t(105))),
        ),
        (
            "unread: read again at the next look",
            Err(lost.clone()),
            vec![FireAction::Note(Note::MisfireUnread { item: 0, error: lost.clone() })],
            None,
        ),
    ];
    for (rule, read, expect, queued) in rows {
        let mut state = FireState::default();
        let mut f = Firing::misfire_node(0, facts());
        assert_eq!(drain(&mut f), [FireAction::ReadLeaves(0, vec![ItemLeaf::Misfire])], "rule: {rule}");
        f.handle(FireEvent::LeavesRead(read), &mut state, &view, t(102));
        assert_eq!(drain(&mut f), expect, "rule: {rule}");
        assert_eq!(state.slot(0).and_then(|s| s.queued.clone()), queued, "rule: {rule}");
    }
}
