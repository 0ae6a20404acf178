//! Event sequences of a fire queued in doubt — its `running` transaction failed without saying
//! whether it was applied —, events in and actions out: a node that names this instance taken
//! over and run under; no node (covered, or run); a node that changed meanwhile, or a claim's;
//! the doubt kept while the registry fails; an item resharded away.

use super::queued::DOUBT_LEAVES;
use super::tests::{cron, drain, facts, marked, settled, stamp};
use super::*;
use crate::coord::fixtures::{ME, OTHER, t, view_with};
use crate::coord::snapshot::ItemSnapshot;
use crate::registry::Stat;

/// A fire whose mark of item 0 failed: queued in doubt (its stamp read as `start`).
fn in_doubt(start: Option<NodeData>) -> FireState {
    let mut state = FireState::default();
    let view = settled();
    let mut f = Firing::items(cron(), vec![0], facts(), &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Mark(vec![0])]);
    f.handle(FireEvent::Marked { written: vec![], failed: vec![0] }, &mut state, &view, t(100));
    assert_eq!(drain(&mut f), [FireAction::Note(Note::Unmarked(vec![0])), FireAction::ReadStarts(vec![0])]);
    f.handle(FireEvent::StartsRead(vec![Ok(start)]), &mut state, &view, t(100));
    let mut actions = drain(&mut f);
    // Not covered: the misfire is written.
    if matches!(actions[..], [FireAction::WriteOwes(_)]) {
        f.handle(FireEvent::OwesWritten(vec![txn::OweOutcome::Owed]), &mut state, &view, t(100));
        actions = drain(&mut f);
    }
    assert_eq!(actions, [FireAction::Retry]);
    assert!(state.slot(0).is_some_and(|s| s.in_doubt));
    state
}

/// The item's `running` node, naming `runner`, at `version`.
fn running(runner: &str, version: i32) -> Option<NodeData> {
    Some(NodeData { data: runner.as_bytes().to_vec(), stat: Stat { version, ..Stat::default() } })
}

/// The queued fire in doubt for item 0, looked at in `view` at 102: it reads the mark first.
fn resolve(state: &mut FireState, view: &JobSnapshot) -> Firing {
    let ready = state.take_free_queued(view, ME, 3, true, t(102));
    assert_eq!(ready, [(0, Some(Source::Misfire(t(100))))]);
    let mut f = Firing::queued(Source::Misfire(t(100)), 0, facts(), state, view, t(102));
    assert_eq!(drain(&mut f), [FireAction::ReadLeaves(0, DOUBT_LEAVES.to_vec())]);
    f
}

#[test]
fn a_node_that_names_this_instance_is_taken_over_and_the_run_starts_under_it() {
    // The reply was lost after the write applied: stamped at the fire, covered to the owe.
    let mut state = in_doubt(stamp(100, 9));
    // The cache shows the item running (the node this instance wrote): taken all the same.
    let view = view_with(&[(0, ME), (1, OTHER), (2, ME)], &[(0, ItemSnapshot { running: true, ..Default::default() })]);
    let mut f = resolve(&mut state, &view);
    f.handle(FireEvent::LeavesRead(Ok(vec![running(ME, 4), None, stamp(100, 9)])), &mut state, &view, t(102));
    assert_eq!(drain(&mut f), [FireAction::Answered, FireAction::Adopt { item: 0, running: 4, stamp: 0 }]);
    f.handle(FireEvent::Adopted(Ok(true)), &mut state, &view, t(102));
    assert_eq!(
        drain(&mut f),
        [
            FireAction::Note(Note::Adopted { item: 0 }),
            FireAction::Open { planned: vec![0], started: vec![0] },
            FireAction::Spawn(vec![0]),
        ]
    );
    assert!(state.slot(0).is_some_and(|s| !s.in_doubt && s.queued.is_none()), "resolved, nothing queued");
}

#[test]
fn without_a_node_the_fire_runs_unless_a_run_covered_it() {
    let view = settled();
    // (rule, the stamp read, what follows)
    let rows = [
        (
            "not applied, no run since: the fire runs",
            stamp(50, 3),
            vec![FireAction::Answered, FireAction::Mark(vec![0])],
        ),
        (
            "a run since (claimed elsewhere) covers it",
            stamp(101, 12),
            vec![FireAction::Answered, FireAction::Note(Note::QueuedCovered { item: 0 })],
        ),
    ];
    for (rule, start, expect) in rows {
        let mut state = in_doubt(stamp(50, 3));
        let mut f = resolve(&mut state, &view);
        f.handle(FireEvent::LeavesRead(Ok(vec![None, None, start])), &mut state, &view, t(102));
        assert_eq!(drain(&mut f), expect, "rule: {rule}");
        assert!(state.slot(0).is_some_and(|s| !s.in_doubt), "rule: {rule}: resolved");
    }
    // The run that follows the mark is the fire's.
    let mut state = in_doubt(stamp(50, 3));
    let mut f = resolve(&mut state, &view);
    f.handle(FireEvent::LeavesRead(Ok(vec![None, None, stamp(50, 3)])), &mut state, &view, t(102));
    drain(&mut f);
    f.handle(marked(vec![0]), &mut state, &view, t(102));
    assert_eq!(drain(&mut f), [FireAction::Open { planned: vec![0], started: vec![0] }, FireAction::Spawn(vec![0])]);
}

#[test]
fn a_node_another_instance_holds_or_one_that_changed_is_not_taken_over() {
    let view = settled();
    // Another instance's node (a failover round queued the orphan, another claimed it).
    let mut state = in_doubt(stamp(100, 9));
    let mut f = resolve(&mut state, &view);
    f.handle(FireEvent::LeavesRead(Ok(vec![running(OTHER, 0), None, stamp(101, 12)])), &mut state, &view, t(102));
    assert_eq!(
        drain(&mut f),
        [FireAction::Answered, FireAction::Note(Note::QueuedCovered { item: 0 })],
        "its claim covers the fire"
    );
    // This instance's node, changed or gone before the take-over: queued as any fire, no doubt.
    let mut state = in_doubt(stamp(100, 9));
    let mut f = resolve(&mut state, &view);
    f.handle(FireEvent::LeavesRead(Ok(vec![running(ME, 4), None, stamp(100, 9)])), &mut state, &view, t(102));
    assert_eq!(drain(&mut f), [FireAction::Answered, FireAction::Adopt { item: 0, running: 4, stamp: 0 }]);
    f.handle(FireEvent::Adopted(Ok(false)), &mut state, &view, t(102));
    assert_eq!(drain(&mut f), []);
    assert!(state.slot(0).is_some_and(|s| !s.in_doubt && s.queued == Some(Source::Misfire(t(100)))));
    // This instance's node with a `failovering` node: a claim's whose reply was lost (a failover
    // round queued the mark's node, then claimed it here), which the round takes back; its stamp
    // covers the fire.
    let mut state = in_doubt(stamp(100, 9));
    let mut f = resolve(&mut state, &view);
    f.handle(
        FireEvent::LeavesRead(Ok(vec![running(ME, 0), running(ME, 0), stamp(101, 12)])),
        &mut state,
        &view,
        t(102),
    );
    assert_eq!(drain(&mut f), [FireAction::Answered, FireAction::Note(Note::QueuedCovered { item: 0 })]);
}

#[test]
fn the_doubt_is_kept_while_the_registry_fails() {
    let view = settled();
    let mut state = in_doubt(stamp(100, 9));
    let mut f = resolve(&mut state, &view);
    let lost = "connection loss".to_string();
    f.handle(FireEvent::LeavesRead(Err(lost.clone())), &mut state, &view, t(102));
    let kept = [FireAction::Note(Note::InDoubt { item: 0, error: lost.clone() }), FireAction::Retry];
    assert_eq!(drain(&mut f), kept);
    // The take-over's write fails too.
    let mut f = resolve(&mut state, &view);
    f.handle(FireEvent::LeavesRead(Ok(vec![running(ME, 4), None, stamp(100, 9)])), &mut state, &view, t(102));
    drain(&mut f);
    f.handle(FireEvent::Adopted(Err(lost.clone())), &mut state, &view, t(102));
    assert_eq!(drain(&mut f), kept);
    assert!(state.slot(0).is_some_and(|s| s.in_doubt), "still in doubt");
}

#[test]
fn an_item_resharded_away_is_taken_over_if_the_node_is_here_else_waits_queued() {
    // Item 0 is another instance's now.
    let away = view_with(&[(0, OTHER), (1, OTHER), (2, ME)], &[]);
    let mut state = in_doubt(stamp(100, 9));
    let mut f = resolve(&mut state, &away);
    f.handle(FireEvent::LeavesRead(Ok(vec![running(ME, 4), None, stamp(100, 9)])), &mut state, &away, t(102));
    assert_eq!(
        drain(&mut f),
        [FireAction::Answered, FireAction::Adopt { item: 0, running: 4, stamp: 0 }],
        "a run that started keeps running"
    );
    let mut state = in_doubt(stamp(50, 3));
    let mut f = resolve(&mut state, &away);
    f.handle(FireEvent::LeavesRead(Ok(vec![None, None, stamp(50, 3)])), &mut state, &away, t(102));
    assert_eq!(drain(&mut f), [FireAction::Answered]);
    assert!(state.slot(0).is_some_and(|s| !s.in_doubt && s.queued.is_some()), "queued as any fire of an item away");
    assert_eq!(state.take_free_queued(&away, ME, 3, true, t(103)), [], "not taken while the item is away");
}
