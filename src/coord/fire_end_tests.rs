//! Table tests of what becomes of runs that end: what [`FireState::finish`] and a stop's cleanup
//! leave behind, a fire queued behind a run once it ends, and a run fencing killed handed back
//! (docs/src/design/guarantee.md).

use super::*;
use crate::coord::fixtures::{ME, OTHER, cron_fire, t, trigger_fire};

#[test]
fn finish_rules() {
    struct Row {
        rule: &'static str,
        source: Source,
        queued: Option<Source>,
        fenced: bool,
        stale: bool,
        clear: bool,
        complete: bool,
        kept: bool,
        settle: bool,
        rerun: Option<Source>,
    }
    let rows = [
        Row {
            rule: "a cron run ends: its running node goes and it may settle a misfire",
            source: cron_fire(),
            queued: None,
            fenced: false,
            stale: false,
            clear: true,
            complete: false,
            kept: false,
            settle: true,
            rerun: None,
        },
        Row {
            rule: "a failover run ends: its failover nodes go together",
            source: Source::Failover(t(100)),
            queued: None,
            fenced: false,
            stale: false,
            clear: false,
            complete: true,
            kept: false,
            settle: true,
            rerun: None,
        },
        Row {
            rule: "a run with a fire queued behind it runs again",
            source: cron_fire(),
            queued: Some(Source::Misfire(t(101))),
            fenced: false,
            stale: false,
            clear: true,
            complete: false,
            kept: false,
            settle: true,
            rerun: Some(Source::Misfire(t(101))),
        },
        Row {
            rule: "a trigger queued behind a failover run runs again",
            source: Source::Failover(t(100)),
            queued: Some(trigger_fire()),
            fenced: false,
            stale: false,
            clear: false,
            complete: true,
            kept: false,
            settle: true,
            rerun: Some(trigger_fire()),
        },
        Row {
            rule: "a run killed by fencing keeps its running node and drops what was queued",
            source: cron_fire(),
            queued: Some(Source::Misfire(t(101))),
            fenced: true,
            stale: false,
            clear: false,
            complete: false,
            kept: true,
            settle: false,
            rerun: None,
        },
        Row {
            rule: "a fenced failover run keeps its nodes too",
            source: Source::Failover(t(100)),
            queued: None,
            fenced: true,
            stale: false,
            clear: false,
            complete: false,
            kept: true,
            settle: false,
            rerun: None,
        },
        Row {
            rule: "a stale report (another run id) changes nothing",
            source: cron_fire(),
            queued: Some(Source::Misfire(t(101))),
            fenced: false,
            stale: true,
            clear: false,
            complete: false,
            kept: false,
            settle: false,
            rerun: None,
        },
    ];
    for row in rows {
        let mut state = FireState::default();
        let id = state.begin(2, row.source.clone(), t(100)).unwrap();
        state.slots.entry(2).or_default().queued = row.queued.clone();
        let ended = Ended { item: 2, id: if row.stale { id + 1 } else { id }, fenced: row.fenced };
        let done = state.finish(&[ended]);
        assert_eq!(done.clear_running == [2], row.clear, "rule: {}", row.rule);
        assert_eq!(done.complete_failover == [2], row.complete, "rule: {}", row.rule);
        assert_eq!(done.fenced == [2], row.kept, "rule: {}", row.rule);
        assert_eq!(done.settle == [(2, t(100))], row.settle, "rule: {}", row.rule);
        assert_eq!(done.rerun.first().map(|(_, s)| s.clone()), row.rerun, "rule: {}", row.rule);
        assert_eq!(state.is_running(2), row.stale, "rule: {}", row.rule);
        if row.stale {
            assert_eq!(state.slot(2).unwrap().queued, row.queued, "rule: {}", row.rule);
        }
    }
}

#[test]
fn stop_cleanup_rules() {
    use StopCleanup::{ClearRunning, CompleteFailover, Keep};
    let cron = cron_fire();
    let failover = Source::Failover(t(100));
    // (rule, source, fenced, killed, failover on, monitoring, expected)
    let rows: Vec<(&str, &Source, bool, bool, bool, bool, StopCleanup)> = vec![
        ("finished normally: running node goes", &cron, false, false, false, true, ClearRunning),
        ("finished normally with failover on: running node goes", &cron, false, false, true, true, ClearRunning),
        ("killed without failover: running node goes", &cron, false, true, false, true, ClearRunning),
        ("killed with failover on: node stays for takeover", &cron, false, true, true, true, Keep),
        ("fenced: node stays", &cron, true, true, false, true, Keep),
        ("fenced with failover: node stays", &cron, true, true, true, true, Keep),
        ("not monitoring: no node to clean", &cron, false, false, false, false, Keep),
        ("not monitoring, killed: no node", &cron, false, true, true, false, Keep),
        ("failover run finished: failover nodes go", &failover, false, false, true, true, CompleteFailover),
        ("failover run killed with failover on: stays", &failover, false, true, true, true, Keep),
        ("failover run killed, failover switched off: nodes go", &failover, false, true, false, true, CompleteFailover),
        ("failover run fenced: stays", &failover, true, true, true, true, Keep),
    ];
    for (rule, source, fenced, killed, failover_on, monitor, expect) in rows {
        assert_eq!(stop_cleanup(source, fenced, killed, failover_on, monitor), expect, "rule: {rule}");
    }
}

#[test]
fn rerun_rules() {
    use Rerun::{Drop, Start, WaitForSharding};
    let misfire = Source::Misfire(t(100));
    // (rule, queued fire, resharding pending, item still local, expected)
    let rows: Vec<(&str, Source, bool, bool, Rerun)> = vec![
        ("a queued misfire on a local item runs now", misfire.clone(), false, true, Start),
        ("a queued trigger on a local item runs now", trigger_fire(), false, true, Start),
        ("the item moved away: its new owner has the misfire node", misfire.clone(), false, false, Drop),
        ("the item moved away: a queued trigger goes with it", trigger_fire(), false, false, Drop),
        ("resharding: the misfire node stands for the fire (no job-wide re-fire)", misfire.clone(), true, true, Drop),
        ("resharding, item moving away: dropped", misfire, true, false, Drop),
        ("resharding: a trigger waits for it", trigger_fire(), true, true, WaitForSharding),
        ("resharding: a trigger waits even if the item may move", trigger_fire(), true, false, WaitForSharding),
    ];
    for (rule, source, pending, local, expect) in rows {
        assert_eq!(rerun(&source, pending, local), expect, "rule: {rule}");
    }
}

/// A node read for [`hand_back`], or `None` when absent.
fn node(data: Option<&str>, version: i32) -> Option<NodeData> {
    data.map(|d| NodeData {
        data: d.as_bytes().to_vec(),
        stat: crate::registry::Stat { version, ..Default::default() },
    })
}

/// A row of [`hand_back_rules`].
type HandBackRow = (Option<&'static str>, Option<&'static str>, bool, bool, bool, Option<Vec<Op>>);

#[test]
fn hand_back_rules() {
    let paths = JobPaths::new("j");
    let running = paths.item_leaf(3, ItemLeaf::Running);
    let failovering = paths.item_leaf(3, ItemLeaf::Failovering);
    let entry = paths.failover_item(3);
    // The item's start stamp is at version 7: the entry records it, the transaction checks it.
    let data = crate::registry::codec::encode_queued_stamp(7);
    let create = Op::Create { path: entry.clone(), data, mode: crate::registry::Mode::Persistent };
    let check = Op::Check { path: paths.item(3), version: Some(7) };
    let delete = Op::Delete { path: running.clone(), version: Some(4) };
    let live: BTreeSet<String> = [ME.to_string(), OTHER.to_string()].into();
    // (running, failovering, queued, failover on, runs here again) → ops
    let rows: Vec<HandBackRow> = vec![
        // Its own run, the id live again: queued for failover, the node version-checked.
        (Some(ME), None, false, true, false, Some(vec![create.clone(), check.clone(), delete.clone()])),
        // Already queued: the entry stands for it, only the node goes.
        (Some(ME), None, true, true, false, Some(vec![check.clone(), delete.clone()])),
        // A failed-over run of ours: its claim goes too.
        (
            Some(ME),
            Some(ME),
            false,
            true,
            false,
            Some(vec![
                create.clone(),
                check.clone(),
                delete.clone(),
                Op::Delete { path: failovering.clone(), version: Some(1) },
            ]),
        ),
        // Without failover the node is only cleared.
        (Some(ME), None, false, false, false, Some(vec![delete.clone()])),
        // Someone else runs the item now, or nothing does: nothing to hand back.
        (Some(OTHER), None, false, true, false, None),
        (Some(OTHER), None, false, false, false, None),
        (None, None, false, true, false, None),
        (None, None, false, false, false, None),
        // The item runs here again: the node is that run's.
        (Some(ME), None, false, true, true, None),
        (Some(ME), None, false, false, true, None),
    ];
    for (i, (run, claim, queued, failover, here, want)) in rows.into_iter().enumerate() {
        let fresh =
            vec![node(run, 4), None, node(claim, 1), node(Some("1700000000000"), 7), node(queued.then_some(""), 0)];
        assert_eq!(hand_back(&paths, 3, ME, here, failover, &live, &fresh), want, "row {i}");
    }
    let reads = vec![running, paths.item_leaf(3, ItemLeaf::Failover), failovering, paths.item(3), entry];
    assert_eq!(hand_back_reads(&paths, 3), reads);
}
