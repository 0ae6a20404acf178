//! What ended runs leave, and the tries at clearing it: holding an item, the backoff, a link that
//! is down, a clock ahead, the runs fencing killed.

use std::time::Duration;

use super::*;
use crate::registry::path::{ItemLeaf, JobPaths};

/// Random bits in the middle of the range: a pause midway between its floor and its widest.
const MID: u64 = u64::MAX / 2;

fn nodes(paths: &[&str]) -> Unsettled {
    Unsettled { nodes: paths.iter().map(ToString::to_string).collect(), settle: None }
}

#[test]
fn an_item_is_held_while_nodes_of_its_run_are_left() {
    let at = DateTime::from_timestamp(1_700_000_000, 0);
    // (rule, left, held, expected)
    let rows = [
        ("nothing left, held: released", Unsettled::default(), true, Kept { release: true, left: false }),
        (
            "nothing left, not held: nothing to release",
            Unsettled::default(),
            false,
            Kept { release: false, left: false },
        ),
        ("a node left: still held", nodes(&["/j/sharding/0/running"]), true, Kept { release: false, left: true }),
        (
            "only the misfire unsettled: released, the settle tried again",
            Unsettled { nodes: Vec::new(), settle: at },
            true,
            Kept { release: true, left: true },
        ),
    ];
    for (rule, left, held, expected) in rows {
        let mut l = Ledger::default();
        assert_eq!(l.keep(0, left, held), expected, "rule: {rule}");
    }
}

#[test]
fn what_is_left_adds_up_and_the_latest_start_settles() {
    let (early, late) = (DateTime::from_timestamp(100, 0), DateTime::from_timestamp(200, 0));
    let t0 = Instant::now();
    let mut l = Ledger::default();
    l.keep(3, Unsettled { nodes: vec!["a".into()], settle: late }, true);
    l.keep(3, Unsettled { nodes: vec!["b".into()], settle: early }, true);
    l.tried(true, t0, || MID);
    let due = l.due(t0 + Duration::from_secs(60), true, || MID).expect("due");
    assert_eq!(due[&3], Unsettled { nodes: vec!["a".into(), "b".into()], settle: late });
    assert_eq!(l.due(t0 + Duration::from_secs(60), true, || MID), None, "taken: nothing due");
}

#[test]
fn tries_that_leave_something_back_off_and_one_that_leaves_nothing_resets() {
    let t0 = Instant::now();
    let mut l = Ledger::default();
    assert_eq!(l.poll_timeout(), None);
    let mut pauses = Vec::new();
    for _ in 0..3 {
        l.keep(1, nodes(&["x"]), true);
        l.tried(true, t0, || MID);
        let at = l.poll_timeout().expect("a try");
        pauses.push(at - t0);
        assert_eq!(l.due(at - Duration::from_millis(1), true, || MID), None, "not before its time");
        assert_eq!(l.due(at, true, || MID).map(|d| d.len()), Some(1));
        assert_eq!(l.poll_timeout(), None);
    }
    assert_eq!(pauses, [750, 1250, 2250].map(Duration::from_millis));
    l.tried(false, t0, || MID);
    l.tried(true, t0, || MID);
    assert_eq!(l.poll_timeout(), Some(t0 + Duration::from_millis(750)), "back to the first pause");
}

#[test]
fn a_try_due_while_the_link_is_down_is_put_off_without_counting() {
    let t0 = Instant::now();
    let mut l = Ledger::default();
    l.keep(1, nodes(&["x"]), true);
    l.tried(true, t0, || MID);
    // One try failed: a put-off waits the backoff's delay after one failure, and does not grow it.
    let current = retry::CLEAR.delay(1, MID);
    for _ in 0..3 {
        let at = l.poll_timeout().expect("a try");
        assert_eq!(l.due(at, false, || MID), None);
        assert_eq!(l.poll_timeout(), Some(at + current));
    }
    let at = l.poll_timeout().expect("a try");
    assert!(l.due(at, true, || MID).is_some());
}

#[test]
fn a_fire_owed_by_a_clock_ahead_wakes_the_job_no_later_than_a_try() {
    let t0 = Instant::now();
    let mut l = Ledger::default();
    l.wake_at(t0 + Duration::from_secs(5));
    l.wake_at(t0 + Duration::from_secs(9));
    assert_eq!(l.poll_timeout(), Some(t0 + Duration::from_secs(5)));
    l.keep(1, nodes(&["x"]), true);
    l.tried(true, t0, || MID);
    assert_eq!(l.poll_timeout(), Some(t0 + Duration::from_millis(750)), "the earlier of the two");
}

#[test]
fn runs_killed_by_fencing_wait_to_be_handed_back_and_a_failed_hand_back_is_tried_again() {
    let t0 = Instant::now();
    let mut l = Ledger::default();
    l.fence(2);
    l.fence(5);
    assert!(l.has_fenced());
    assert_eq!(l.take_fenced(), BTreeSet::from([2, 5]));
    assert!(!l.has_fenced());
    l.refence([], t0, || MID);
    assert_eq!(l.poll_timeout(), None, "all handed back: no try");
    l.refence([5], t0, || MID);
    assert_eq!(l.take_fenced(), BTreeSet::from([5]));
    assert_eq!(l.poll_timeout(), Some(t0 + Duration::from_millis(750)));
}

#[test]
fn an_ended_run_whose_misfire_is_unsettled_keeps_all_its_nodes() {
    let paths = JobPaths::new("j");
    let leaf = |i: u32, l: ItemLeaf| paths.item_leaf(i, l);
    let started = DateTime::from_timestamp(1_700_000_000, 0);
    let failed = vec![leaf(1, ItemLeaf::Running), leaf(2, ItemLeaf::Running), leaf(1, ItemLeaf::Failover)];
    let claim_nodes = [ItemLeaf::Running, ItemLeaf::Failover, ItemLeaf::Failovering].map(|l| leaf(1, l)).to_vec();
    // (rule, settle, claim, monitor, expected nodes)
    let rows = [
        (
            "settled: the item's nodes the clearing failed",
            None,
            false,
            true,
            vec![failed[0].clone(), failed[2].clone()],
        ),
        ("settled, a claim: the same", None, true, false, vec![failed[0].clone(), failed[2].clone()]),
        ("unsettled, a failed-over run: the claim's three", started, true, true, claim_nodes),
        ("unsettled, monitored: the running node", started, false, true, vec![leaf(1, ItemLeaf::Running)]),
        ("unsettled, not monitored: no node, the settle only", started, false, false, Vec::new()),
    ];
    for (rule, settle, claim, monitor, nodes) in rows {
        let left = Unsettled::after_end(&paths, 1, settle, &failed, claim, monitor);
        assert_eq!(left, Unsettled { nodes, settle }, "rule: {rule}");
    }
}
