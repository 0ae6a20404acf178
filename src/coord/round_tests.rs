//! Event sequences of a failover round, events in and actions out: confirming and queueing
//! orphans, going through the queue (stale, covered, lost, gone, claimed), the registry failing
//! it, and the simulator's two injected bugs.

use super::*;
use crate::coord::fixtures::{ME, OTHER, t};
use crate::registry::Stat;

fn facts(suspects: &[u32]) -> RoundFacts {
    RoundFacts {
        paths: JobPaths::new("job"),
        me: InstanceId::from_raw(ME),
        total: 3,
        suspects: suspects.to_vec(),
        disabled: BTreeSet::new(),
        latch: true,
        check_liveness: true,
    }
}

fn node(data: &str) -> Option<NodeData> {
    Some(NodeData { data: data.as_bytes().to_vec(), stat: Stat::default() })
}

/// A suspect's fresh read: its `running` node naming `runner`, no claim, a start stamp.
fn running(runner: &str) -> Result<Vec<Option<NodeData>>, String> {
    Ok(vec![node(runner), None, None, node("1700000000000")])
}

/// Feeds `events` in turn; every action polled after each.
fn run(round: &mut Round, events: Vec<RoundEvent>) -> Vec<RoundAction> {
    let mut actions = Vec::new();
    for event in events {
        round.handle(event);
        actions.extend(std::iter::from_fn(|| round.poll_action()));
    }
    actions
}

fn live(ids: &[&str]) -> RoundEvent {
    RoundEvent::LiveRead(Ok(ids.iter().map(|s| (*s).to_string()).collect()))
}

fn listed(names: &[&str]) -> RoundEvent {
    RoundEvent::Listed(Ok(Some(names.iter().map(|s| (*s).to_string()).collect())))
}

fn entry(present: bool) -> RoundEvent {
    RoundEvent::EntryRead { read: Ok(present.then(|| node("")).flatten()), now: t(100) }
}

fn claim(item: u32) -> RoundAction {
    let ops = txn::claim(&JobPaths::new("job"), &InstanceId::from_raw(ME), item, t(100), None);
    RoundAction::Claim { item, ops }
}

#[test]
fn a_round_confirms_and_queues_the_orphans_then_claims_the_first_queued_item() {
    let gone = "10.0.0.9@-@9";
    let mut round = Round::new(facts(&[0, 1, 2]));
    assert_eq!(round.poll_action(), Some(RoundAction::Latch));
    let actions = run(
        &mut round,
        vec![
            RoundEvent::Latched(Ok(())),
            live(&[ME, OTHER]),
            RoundEvent::Ensured(Ok(())),
            // Item 0's runner is gone: an orphan.
            RoundEvent::SuspectRead { read: running(gone), here: false },
        ],
    );
    assert_eq!(actions[..3], [RoundAction::ReadLive, RoundAction::EnsureQueue, RoundAction::ReadSuspect(0)]);
    assert!(matches!(&actions[3], RoundAction::QueueOrphan { item: 0, runner, .. } if runner == gone));
    let actions = run(
        &mut round,
        vec![
            RoundEvent::Queued(Ok(QueueAnswer::Queued)),
            // Item 1 runs on a live instance; item 2 is this instance's own run, held here.
            RoundEvent::SuspectRead { read: running(OTHER), here: false },
            RoundEvent::SuspectRead { read: running(ME), here: true },
            listed(&["0"]),
            entry(true),
            RoundEvent::Claimed(Ok(ClaimAnswer::Claimed)),
        ],
    );
    assert_eq!(
        actions,
        [
            RoundAction::ReadSuspect(1),
            RoundAction::ReadSuspect(2),
            RoundAction::ListQueue,
            RoundAction::ReadEntry(0),
            claim(0),
            RoundAction::Done(Ok(Some(0))),
        ]
    );
    assert_eq!(round.poll_action(), None);
}

#[test]
fn the_queue_goes_in_claim_order_past_stale_covered_lost_and_gone_entries() {
    let mut round = Round::new(facts(&[]));
    round.poll_action();
    let facts = RoundFacts { disabled: BTreeSet::from([1]), ..facts(&[]) };
    let mut disabled = Round::new(facts);
    disabled.poll_action();
    // Reverse order: 5 (beyond the count), 2, 1, 0.
    let actions = run(
        &mut round,
        vec![
            RoundEvent::Latched(Ok(())),
            listed(&["0", "1", "2", "5"]),
            RoundEvent::Deleted(Ok(())),
            entry(true),
            // A run since covers item 2's orphaned fire: its entry goes.
            RoundEvent::Claimed(Ok(ClaimAnswer::Covered)),
            RoundEvent::Deleted(Ok(())),
            entry(true),
            // Another instance claimed item 1 first.
            RoundEvent::Claimed(Ok(ClaimAnswer::Lost)),
            // Item 0's entry is gone.
            entry(false),
        ],
    );
    assert_eq!(
        actions,
        [
            RoundAction::ListQueue,
            RoundAction::DeleteEntry(5),
            RoundAction::ReadEntry(2),
            claim(2),
            RoundAction::DeleteEntry(2),
            RoundAction::ReadEntry(1),
            claim(1),
            RoundAction::ReadEntry(0),
            RoundAction::Done(Ok(None)),
        ]
    );
    // A disabled item waits in the queue.
    let actions = run(&mut disabled, vec![RoundEvent::Latched(Ok(())), listed(&["1"])]);
    assert_eq!(actions, [RoundAction::ListQueue, RoundAction::Done(Ok(None))]);
}

#[test]
fn a_request_the_registry_fails_ends_the_round_with_its_error() {
    let err = || Err::<(), String>("connection loss".into());
    let failed = RoundAction::Done(Err("connection loss".into()));
    // (rule, the events up to the failure)
    let rows: Vec<(&str, Vec<RoundEvent>)> = vec![
        ("the latch", vec![RoundEvent::Latched(err())]),
        ("the live instances", vec![RoundEvent::Latched(Ok(())), RoundEvent::LiveRead(Err("connection loss".into()))]),
        (
            "a suspect's read",
            vec![
                RoundEvent::Latched(Ok(())),
                live(&[ME]),
                RoundEvent::Ensured(Ok(())),
                RoundEvent::SuspectRead { read: Err("connection loss".into()), here: false },
            ],
        ),
        (
            "a claim",
            vec![
                RoundEvent::Latched(Ok(())),
                live(&[ME]),
                RoundEvent::Ensured(Ok(())),
                RoundEvent::SuspectRead { read: running(ME), here: true },
                listed(&["0"]),
                entry(true),
                RoundEvent::Claimed(Err("connection loss".into())),
            ],
        ),
    ];
    for (rule, events) in rows {
        let mut round = Round::new(facts(&[0]));
        round.poll_action();
        let actions = run(&mut round, events);
        assert_eq!(actions.last(), Some(&failed), "rule: {rule}");
        // Over: an answer now is ignored.
        assert_eq!(run(&mut round, vec![RoundEvent::Ensured(Ok(()))]), [], "rule: {rule}");
    }
}

#[test]
fn the_injected_bugs_leave_out_the_latch_or_the_liveness_check() {
    let no_latch = RoundFacts { latch: false, ..facts(&[0]) };
    assert_eq!(Round::new(no_latch).poll_action(), Some(RoundAction::ReadLive));
    // Without the liveness check a live instance's run is taken for an orphan.
    let mut round = Round::new(RoundFacts { check_liveness: false, ..facts(&[0]) });
    let actions = run(
        &mut round,
        vec![
            RoundEvent::Latched(Ok(())),
            RoundEvent::Ensured(Ok(())),
            RoundEvent::SuspectRead { read: running(OTHER), here: false },
        ],
    );
    assert_eq!(actions[..2], [RoundAction::EnsureQueue, RoundAction::ReadSuspect(0)]);
    assert!(matches!(&actions[2], RoundAction::QueueOrphan { item: 0, .. }));
}
