//! Event sequences of runs that ended on this instance, events in and actions out: the `running`
//! nodes cleared then every item kept (released); no monitoring (only the claims of failed-over
//! runs go); owed misfires settled first, one not settled keeping every node of its run, misfire
//! off settling nothing; the four batches by session, a session change between requests, a run of
//! unknown session; nodes the registry failed to delete kept for their items; fenced runs; the
//! fires queued behind the runs (run again, waiting for resharding, dropped); a run that ended
//! while the job stops; the ledger's later tries (misfires first, then the nodes); answers to
//! nothing asked.

use super::*;
use crate::coord::fire::{Ended, FireState};
use crate::coord::fixtures::{ME, OTHER, t, view_with};
use crate::coord::txn;
use crate::registry::path::ItemLeaf;

/// The session in effect when the runs ended.
const NOW: u64 = 7;
/// An earlier session.
const OLD: u64 = 6;
/// The session after a change.
const NEXT: u64 = 8;

/// When the run of `item` started.
fn started(item: u32) -> DateTime<Utc> {
    t(90 + i64::from(item))
}

fn cron() -> Source {
    Source::Cron(t(80))
}

fn failover() -> Source {
    Source::Failover(t(85))
}

fn trigger() -> Source {
    Source::Trigger(t(95), Some("tok".into()), None)
}

fn paths() -> JobPaths {
    JobPaths::new("job")
}

fn running(item: u32) -> String {
    paths().item_leaf(item, ItemLeaf::Running)
}

/// A job of three items, 0 and 2 here, 1 elsewhere: monitoring, misfire and failover on.
fn facts() -> Facts {
    Facts { me: ME.into(), total: 3, monitor: true, misfire: true, failover: true }
}

/// Items 0 and 2 here, 1 elsewhere.
fn settled() -> JobSnapshot {
    view_with(&[(0, ME), (1, OTHER), (2, ME)], &[])
}

/// The same, with resharding flagged.
fn resharding() -> JobSnapshot {
    JobSnapshot { necessary: true, ..settled() }
}

/// Runs begun at [`started`], with the fires in `queued` queued behind them (owed, here), all
/// ended in the order given — those in `fenced` killed by fencing.
fn finished(runs: &[(u32, Source)], queued: &[(u32, Source)], fenced: &[u32]) -> Finished {
    let mut state = FireState::default();
    let ends: Vec<Ended> = runs
        .iter()
        .map(|(item, source)| {
            let id = state.begin(*item, source.clone(), started(*item)).unwrap();
            Ended { item: *item, id, fenced: fenced.contains(item) }
        })
        .collect();
    for (item, source) in queued {
        state.queue(*item, source, true, true);
    }
    let done = state.finish(&ends);
    assert_eq!(state.running_count(), 0);
    done
}

fn epochs(pairs: &[(u32, u64)]) -> BTreeMap<u32, u64> {
    pairs.iter().copied().collect()
}

fn set(items: &[u32]) -> BTreeSet<u32> {
    items.iter().copied().collect()
}

fn drain(ending: &mut Ending) -> Vec<EndAction> {
    std::iter::from_fn(|| ending.poll_action()).collect()
}

fn clear(nodes: Nodes, items: &[u32], fresh: bool) -> EndAction {
    EndAction::Clear { nodes, items: items.to_vec(), fresh }
}

fn cleared(failed: &[String], epoch: u64) -> EndEvent {
    EndEvent::Cleared { failed: failed.to_vec(), epoch }
}

fn settled_but(failed: &[u32], epoch: u64) -> EndEvent {
    EndEvent::Settled { failed: set(failed), epoch }
}

/// Items whose runs leave nothing: released.
fn released(items: &[u32]) -> Vec<Left> {
    items.iter().map(|&i| Left { item: i, unsettled: Unsettled::default(), held: true }).collect()
}

/// What runs that just ended leave (their items are held for them), and the next try scheduled.
fn kept_after_end(left: Vec<(u32, Unsettled)>) -> [EndAction; 2] {
    let left = left.into_iter().map(|(item, unsettled)| Left { item, unsettled, held: true }).collect();
    [EndAction::Keep(left), EndAction::Tried { left: true }]
}

#[test]
fn runs_ended_in_this_session_clear_their_running_nodes_then_release_every_item() {
    let done = finished(&[(0, cron()), (2, cron())], &[], &[]);
    assert_eq!(done.settle, [(0, started(0)), (2, started(2))]);
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[(0, NOW), (2, NOW)]), &set(&[]), NOW);
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[0, 2], true)]);
    assert_eq!(drain(&mut e), [], "waits for the answer");
    e.handle(cleared(&[], NOW));
    // An empty `Unsettled` releases the item: it comes all the same. No fire is queued: no Look.
    assert_eq!(drain(&mut e), [EndAction::Keep(released(&[0, 2]))]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [], "over");
}

#[test]
fn without_monitoring_only_the_claims_of_failed_over_runs_go() {
    let facts = || Facts { monitor: false, ..facts() };
    let done = finished(&[(0, cron()), (1, failover())], &[], &[]);
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[(0, NOW), (1, NOW)]), &set(&[]), NOW);
    assert_eq!(drain(&mut e), [clear(Nodes::Claims, &[1], true)]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [EndAction::Keep(released(&[0, 1]))]);
    // Runs that leave no node: straight to the ledger.
    let done = finished(&[(0, cron()), (2, cron())], &[], &[]);
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[]), &set(&[]), NOW);
    assert_eq!(drain(&mut e), [EndAction::Keep(released(&[0, 2]))]);
}

#[test]
fn an_owed_misfire_is_settled_before_the_nodes_go() {
    let done = finished(&[(0, cron()), (1, failover()), (2, cron())], &[], &[]);
    // Item 1's misfire is not owed; item 5 ended no run here.
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[]), &set(&[0, 2, 5]), NOW);
    assert_eq!(drain(&mut e), [EndAction::Settle(vec![(0, started(0)), (2, started(2))])]);
    assert_eq!(drain(&mut e), [], "waits for the answer");
    e.handle(settled_but(&[], NOW));
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[0, 2], true)]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [clear(Nodes::Claims, &[1], true)]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [EndAction::Keep(released(&[0, 1, 2]))]);
}

#[test]
fn a_misfire_not_settled_keeps_every_node_of_its_run() {
    let done = finished(&[(0, cron()), (1, failover()), (2, cron()), (3, failover())], &[], &[]);
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[]), &set(&[0, 1, 2, 3]), NOW);
    let settle = vec![(0, started(0)), (1, started(1)), (2, started(2)), (3, started(3))];
    assert_eq!(drain(&mut e), [EndAction::Settle(settle)]);
    e.handle(settled_but(&[0, 1], NOW));
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[2], true)], "item 0 left out");
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [clear(Nodes::Claims, &[3], true)], "item 1 left out");
    e.handle(cleared(&[], NOW));
    let kept = vec![
        (0, Unsettled { nodes: vec![running(0)], settle: Some(started(0)) }),
        (1, Unsettled { nodes: txn::failover_nodes(&paths(), &[1]), settle: Some(started(1)) }),
        (2, Unsettled::default()),
        (3, Unsettled::default()),
    ];
    assert_eq!(drain(&mut e), kept_after_end(kept));
}

#[test]
fn when_no_misfire_is_settled_no_node_goes() {
    let done = finished(&[(0, cron()), (1, failover())], &[], &[]);
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[]), &set(&[0, 1]), NOW);
    assert_eq!(drain(&mut e), [EndAction::Settle(vec![(0, started(0)), (1, started(1))])]);
    e.handle(settled_but(&[0, 1], NOW));
    let kept = vec![
        (0, Unsettled { nodes: vec![running(0)], settle: Some(started(0)) }),
        (1, Unsettled { nodes: txn::failover_nodes(&paths(), &[1]), settle: Some(started(1)) }),
    ];
    assert_eq!(drain(&mut e), kept_after_end(kept));
}

#[test]
fn without_monitoring_a_misfire_not_settled_keeps_only_the_misfire() {
    let facts = Facts { monitor: false, ..facts() };
    let done = finished(&[(0, cron())], &[], &[]);
    let mut e = Ending::ended(paths(), facts, done, epochs(&[]), &set(&[0]), NOW);
    assert_eq!(drain(&mut e), [EndAction::Settle(vec![(0, started(0))])]);
    e.handle(settled_but(&[0], NOW));
    assert_eq!(drain(&mut e), kept_after_end(vec![(0, Unsettled { nodes: vec![], settle: Some(started(0)) })]));
}

#[test]
fn with_misfire_off_nothing_owed_is_settled() {
    let facts = Facts { misfire: false, ..facts() };
    let done = finished(&[(0, cron()), (1, failover())], &[], &[]);
    let mut e = Ending::ended(paths(), facts, done, epochs(&[]), &set(&[0, 1]), NOW);
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[0], true)]);
    e.handle(settled_but(&[0, 1], NOW));
    assert_eq!(drain(&mut e), [], "no Settle was asked");
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [clear(Nodes::Claims, &[1], true)]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [EndAction::Keep(released(&[0, 1]))]);
}

#[test]
fn runs_of_an_earlier_session_are_cleared_after_the_fresh_ones() {
    // Items 3 and 4 ran in a session not known: taken as the one in effect.
    let runs = [(0, cron()), (1, failover()), (2, cron()), (3, failover()), (4, cron()), (5, failover())];
    let done = finished(&runs, &[], &[]);
    let epochs = epochs(&[(0, NOW), (1, OLD), (2, OLD), (5, NOW)]);
    let mut e = Ending::ended(paths(), facts(), done, epochs, &set(&[]), NOW);
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[0, 4], true)]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [clear(Nodes::Claims, &[3, 5], true)]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[2], false)]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [clear(Nodes::Claims, &[1], false)]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [EndAction::Keep(released(&[0, 1, 2, 3, 4, 5]))]);
}

#[test]
fn empty_batches_are_skipped() {
    // Only stale runs: the fresh batches are skipped.
    let done = finished(&[(0, cron()), (1, failover())], &[], &[]);
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[(0, OLD), (1, OLD)]), &set(&[]), NOW);
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[0], false)]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [clear(Nodes::Claims, &[1], false)]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [EndAction::Keep(released(&[0, 1]))]);
    // A fresh claim and a stale running node: Claims fresh, then Running stale.
    let done = finished(&[(0, cron()), (1, failover())], &[], &[]);
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[(0, OLD), (1, NOW)]), &set(&[]), NOW);
    assert_eq!(drain(&mut e), [clear(Nodes::Claims, &[1], true)]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[0], false)]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [EndAction::Keep(released(&[0, 1]))]);
}

#[test]
fn a_session_change_between_batches_moves_the_runs_of_the_old_one_to_the_stale_batches() {
    let runs = [(0, cron()), (1, failover()), (2, cron()), (3, failover())];
    let done = finished(&runs, &[], &[]);
    // Item 2's session is not known: it counts as the one in effect, whichever that is.
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[(0, NOW), (1, NOW), (3, OLD)]), &set(&[]), NOW);
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[0, 2], true)]);
    // The session changed while the nodes were cleared: that request failed item 0's node.
    e.handle(cleared(&[running(0)], NEXT));
    // Item 1's claim was written in the session before: no fresh claim is left. Item 0 is asked
    // again, as stale (whether or not its node went the first time).
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[0], false)]);
    e.handle(cleared(&[], NEXT));
    assert_eq!(drain(&mut e), [clear(Nodes::Claims, &[1, 3], false)]);
    e.handle(cleared(&[], NEXT));
    // What the first request failed stays failed, although the second did not fail it.
    let kept = vec![
        (0, Unsettled { nodes: vec![running(0)], settle: None }),
        (1, Unsettled::default()),
        (2, Unsettled::default()),
        (3, Unsettled::default()),
    ];
    assert_eq!(drain(&mut e), kept_after_end(kept));
}

#[test]
fn a_session_change_while_settling_makes_the_runs_stale() {
    let done = finished(&[(0, cron()), (1, failover()), (2, cron())], &[], &[]);
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[(0, NOW), (1, NOW)]), &set(&[0]), NOW);
    assert_eq!(drain(&mut e), [EndAction::Settle(vec![(0, started(0))])]);
    e.handle(settled_but(&[], NEXT));
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[2], true)], "a run of no known session is current");
    e.handle(cleared(&[], NEXT));
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[0], false)]);
    e.handle(cleared(&[], NEXT));
    assert_eq!(drain(&mut e), [clear(Nodes::Claims, &[1], false)]);
    e.handle(cleared(&[], NEXT));
    assert_eq!(drain(&mut e), [EndAction::Keep(released(&[0, 1, 2]))]);
}

#[test]
fn nodes_the_registry_failed_to_delete_are_kept_for_their_items() {
    let done = finished(&[(0, cron()), (1, failover()), (2, cron())], &[], &[]);
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[]), &set(&[]), NOW);
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[0, 2], true)]);
    // A path that is no item's goes to no item.
    e.handle(cleared(&[running(0), paths().leader_instance()], NOW));
    assert_eq!(drain(&mut e), [clear(Nodes::Claims, &[1], true)]);
    let claim = txn::failover_nodes(&paths(), &[1]);
    e.handle(cleared(&claim[1..], NOW));
    let kept = vec![
        (0, Unsettled { nodes: vec![running(0)], settle: None }),
        (1, Unsettled { nodes: claim[1..].to_vec(), settle: None }),
        (2, Unsettled::default()),
    ];
    assert_eq!(drain(&mut e), kept_after_end(kept));
}

#[test]
fn fenced_runs_keep_their_nodes_for_the_ledger() {
    // Item 0's run was fenced with a fire queued behind it: the fire goes with the run.
    let runs = [(0, cron()), (1, failover()), (2, cron())];
    let done = finished(&runs, &[(0, Source::Cron(t(100)))], &[0, 1]);
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[]), &set(&[0, 1, 2]), NOW);
    assert_eq!(drain(&mut e), [EndAction::Fenced(vec![0, 1]), EndAction::Settle(vec![(2, started(2))])]);
    e.handle(settled_but(&[], NOW));
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[2], true)]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [EndAction::Keep(released(&[2]))], "no Look");
    // Only fenced runs: nothing else.
    let done = finished(&[(0, cron()), (1, failover())], &[], &[0, 1]);
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[]), &set(&[0, 1]), NOW);
    assert_eq!(drain(&mut e), [EndAction::Fenced(vec![0, 1])]);
    e.handle(settled_but(&[], NOW));
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), []);
}

#[test]
fn nothing_ended_leaves_nothing_to_do() {
    let mut e = Ending::ended(paths(), facts(), Finished::default(), epochs(&[]), &set(&[0]), NOW);
    assert_eq!(drain(&mut e), []);
    e.look(&settled());
    assert_eq!(drain(&mut e), []);
}

/// Runs of items 0 and 2 ended, a cron fire queued behind 0 (a misfire now) and a trigger behind
/// 2, their nodes cleared: the fires are to be looked at.
fn ended_with_queued_fires() -> Ending {
    let done = finished(&[(0, cron()), (2, cron())], &[(0, Source::Cron(t(100))), (2, trigger())], &[]);
    assert_eq!(done.rerun, [(0, Source::Misfire(t(100))), (2, trigger())]);
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[]), &set(&[]), NOW);
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[0, 2], true)]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [EndAction::Keep(released(&[0, 2])), EndAction::Look]);
    e
}

#[test]
fn queued_fires_run_again_wait_for_resharding_or_are_dropped() {
    // (rule, the cache, what comes)
    let rows = [
        (
            "still local, no resharding: both run again",
            settled(),
            vec![EndAction::Rerun(0, Source::Misfire(t(100))), EndAction::Rerun(2, trigger())],
        ),
        (
            "resharding: the trigger waits, the misfire (owed in the registry) goes",
            resharding(),
            vec![EndAction::WaitForSharding(trigger())],
        ),
        (
            "item 0 moved: its fire goes",
            view_with(&[(0, OTHER), (1, OTHER), (2, ME)], &[]),
            vec![EndAction::Rerun(2, trigger())],
        ),
        ("no item is local any more", view_with(&[(0, OTHER), (1, OTHER), (2, OTHER)], &[]), vec![]),
    ];
    for (rule, view, then) in rows {
        let mut e = ended_with_queued_fires();
        e.look(&view);
        assert_eq!(drain(&mut e), then, "{rule}");
        // Looked at once: a second look is ignored.
        e.look(&settled());
        assert_eq!(drain(&mut e), [], "{rule}");
    }
}

/// The misfire item 0's run covers, settled.
fn settle_0() -> EndAction {
    EndAction::Settle(vec![(0, started(0))])
}

/// The run of item 0 covering `source`, begun at [`started`], as it ended during a stop.
fn stopping(source: Source) -> RunInfo {
    let mut state = FireState::default();
    let id = state.begin(0, source, started(0)).unwrap();
    state.finish_stopping(0, id).unwrap()
}

#[test]
fn a_run_that_ended_normally_during_a_stop_settles_its_misfire_then_clears_its_nodes() {
    // (rule, the run's source, which nodes)
    let rows = [("a run of a fire", cron(), Nodes::Running), ("a failed-over run", failover(), Nodes::Claims)];
    for (rule, source, nodes) in rows {
        let run = stopping(source);
        let mut e = Ending::stopped(paths(), facts(), (0, &run), false, false, Some(NOW), NOW);
        assert_eq!(drain(&mut e), [EndAction::Settle(vec![(0, started(0))])], "{rule}");
        e.handle(cleared(&[], NOW));
        assert_eq!(drain(&mut e), [], "{rule}: waiting for the misfire");
        e.handle(settled_but(&[], NOW));
        assert_eq!(drain(&mut e), [clear(nodes, &[0], true)], "{rule}");
        // What fails is left for whoever sees this instance leave: no Keep, no Look.
        e.handle(cleared(&[running(0)], NOW));
        assert_eq!(drain(&mut e), [], "{rule}");
        e.look(&settled());
        assert_eq!(drain(&mut e), [], "{rule}");
    }
}

#[test]
fn a_misfire_not_settled_during_a_stop_keeps_the_nodes() {
    let run = stopping(cron());
    let mut e = Ending::stopped(paths(), facts(), (0, &run), false, false, None, NOW);
    assert_eq!(drain(&mut e), [EndAction::Settle(vec![(0, started(0))])]);
    e.handle(settled_but(&[0], NOW));
    assert_eq!(drain(&mut e), []);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), []);
}

#[test]
fn what_a_run_that_ended_during_a_stop_clears() {
    let off = |f: fn(&mut Facts)| {
        let mut facts = facts();
        f(&mut facts);
        facts
    };
    // (rule, facts, source, fenced, killed, the run's session, what comes)
    let rows = [
        ("killed with failover on: its nodes stay", facts(), cron(), false, true, Some(NOW), vec![]),
        (
            "killed with failover off: no misfire settled",
            off(|f| f.failover = false),
            cron(),
            false,
            true,
            Some(NOW),
            vec![clear(Nodes::Running, &[0], true)],
        ),
        ("fenced", facts(), cron(), true, false, Some(NOW), vec![]),
        ("fenced and killed", off(|f| f.failover = false), cron(), true, true, Some(NOW), vec![]),
        // Without monitoring the run has no nodes, but the misfire it covers goes.
        ("monitoring off", off(|f| f.monitor = false), cron(), false, false, Some(NOW), vec![settle_0()]),
        (
            "monitoring off, failed over",
            off(|f| f.monitor = false),
            failover(),
            false,
            false,
            Some(NOW),
            vec![settle_0()],
        ),
        (
            "misfire off",
            off(|f| f.misfire = false),
            cron(),
            false,
            false,
            Some(NOW),
            vec![clear(Nodes::Running, &[0], true)],
        ),
        (
            "misfire off, failed over",
            off(|f| f.misfire = false),
            failover(),
            false,
            false,
            Some(NOW),
            vec![clear(Nodes::Claims, &[0], true)],
        ),
        (
            "misfire off, an earlier session",
            off(|f| f.misfire = false),
            cron(),
            false,
            false,
            Some(OLD),
            vec![clear(Nodes::Running, &[0], false)],
        ),
        (
            "misfire off, no known session",
            off(|f| f.misfire = false),
            failover(),
            false,
            false,
            None,
            vec![clear(Nodes::Claims, &[0], true)],
        ),
    ];
    for (rule, facts, source, fenced, killed, run_epoch, then) in rows {
        let run = stopping(source);
        let mut e = Ending::stopped(paths(), facts, (0, &run), fenced, killed, run_epoch, NOW);
        assert_eq!(drain(&mut e), then, "{rule}");
        e.handle(cleared(&[], NOW));
        e.handle(settled_but(&[], NOW));
        e.look(&settled());
        assert_eq!(drain(&mut e), [], "{rule}: over");
    }
}

#[test]
fn a_session_change_while_a_stopping_run_settles_makes_it_stale() {
    let run = stopping(cron());
    let mut e = Ending::stopped(paths(), facts(), (0, &run), false, false, Some(NOW), NOW);
    assert_eq!(drain(&mut e), [EndAction::Settle(vec![(0, started(0))])]);
    e.handle(settled_but(&[], NEXT));
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[0], false)]);
    // A run of no known session stays current.
    let mut e = Ending::stopped(paths(), facts(), (0, &run), false, false, None, NOW);
    assert_eq!(drain(&mut e), [EndAction::Settle(vec![(0, started(0))])]);
    e.handle(settled_but(&[], NEXT));
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[0], true)]);
}

/// What earlier ends left, for a later try: item 0 its `running` node and misfire, item 1 its
/// claim, item 2 only a misfire (monitoring was off for it: no node holds it here).
fn left_before() -> BTreeMap<u32, Unsettled> {
    BTreeMap::from([
        (0, Unsettled { nodes: vec![running(0)], settle: Some(started(0)) }),
        (1, Unsettled { nodes: txn::failover_nodes(&paths(), &[1]), settle: None }),
        (2, Unsettled { nodes: vec![], settle: Some(started(2)) }),
    ])
}

fn left(item: u32, unsettled: Unsettled, held: bool) -> Left {
    Left { item, unsettled, held }
}

#[test]
fn a_later_try_settles_the_misfires_then_deletes_the_nodes_and_releases_what_held_them() {
    let mut e = Ending::retry(paths(), facts(), left_before());
    assert_eq!(drain(&mut e), [EndAction::Settle(vec![(0, started(0)), (2, started(2))])]);
    e.handle(settled_but(&[], NOW));
    let mut nodes = vec![running(0)];
    nodes.extend(txn::failover_nodes(&paths(), &[1]));
    assert_eq!(drain(&mut e), [EndAction::Delete(nodes)]);
    e.handle(cleared(&[], NOW));
    let keep = vec![
        left(0, Unsettled::default(), true),
        left(1, Unsettled::default(), true),
        left(2, Unsettled::default(), false),
    ];
    assert_eq!(drain(&mut e), [EndAction::Keep(keep), EndAction::Tried { left: false }]);
}

#[test]
fn a_later_try_keeps_every_node_of_an_item_whose_misfire_is_not_settled() {
    let mut e = Ending::retry(paths(), facts(), left_before());
    assert_eq!(drain(&mut e), [EndAction::Settle(vec![(0, started(0)), (2, started(2))])]);
    e.handle(settled_but(&[0], NOW));
    let claim = txn::failover_nodes(&paths(), &[1]);
    assert_eq!(drain(&mut e), [EndAction::Delete(claim.clone())], "item 0's node stays");
    // One of the claim's nodes fails again.
    e.handle(cleared(&claim[..1], NOW));
    let keep = vec![
        left(0, left_before()[&0].clone(), true),
        left(1, Unsettled { nodes: claim[..1].to_vec(), settle: None }, true),
        left(2, Unsettled::default(), false),
    ];
    assert_eq!(drain(&mut e), [EndAction::Keep(keep), EndAction::Tried { left: true }]);
}

#[test]
fn a_later_try_with_no_misfire_deletes_at_once_and_one_with_nothing_to_delete_keeps_at_once() {
    let nodes_only = BTreeMap::from([(1, left_before()[&1].clone())]);
    let mut e = Ending::retry(paths(), facts(), nodes_only);
    assert_eq!(drain(&mut e), [EndAction::Delete(txn::failover_nodes(&paths(), &[1]))]);
    e.handle(cleared(&[], NOW));
    let keep = vec![left(1, Unsettled::default(), true)];
    assert_eq!(drain(&mut e), [EndAction::Keep(keep), EndAction::Tried { left: false }]);
    // Only a misfire, not settled again: it stays, and the next try backs off.
    let misfire_only = BTreeMap::from([(2, left_before()[&2].clone())]);
    let mut e = Ending::retry(paths(), facts(), misfire_only);
    assert_eq!(drain(&mut e), [EndAction::Settle(vec![(2, started(2))])]);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [], "waits for the misfires");
    e.handle(settled_but(&[2], NOW));
    let keep = vec![left(2, left_before()[&2].clone(), false)];
    assert_eq!(drain(&mut e), [EndAction::Keep(keep), EndAction::Tried { left: true }]);
}

#[test]
fn a_later_try_with_nothing_left_does_nothing_and_keeps_the_backoff() {
    let mut e = Ending::retry(paths(), facts(), BTreeMap::new());
    assert_eq!(drain(&mut e), [], "no Tried: the backoff of what the job woke for goes on");
}

#[test]
fn an_answer_to_nothing_asked_is_ignored() {
    let done = finished(&[(0, cron()), (2, cron())], &[(2, trigger())], &[]);
    let mut e = Ending::ended(paths(), facts(), done, epochs(&[]), &set(&[0]), NOW);
    assert_eq!(drain(&mut e), [EndAction::Settle(vec![(0, started(0))])]);
    // Waiting for the misfires: a Cleared or a look is ignored.
    e.handle(cleared(&[running(0)], NEXT));
    e.look(&settled());
    assert_eq!(drain(&mut e), []);
    e.handle(settled_but(&[], NOW));
    assert_eq!(drain(&mut e), [clear(Nodes::Running, &[0, 2], true)]);
    // Waiting for the nodes: a second Settled (item 0 failing now) or a look is ignored.
    e.handle(settled_but(&[0], NEXT));
    e.look(&settled());
    assert_eq!(drain(&mut e), []);
    e.handle(cleared(&[], NOW));
    assert_eq!(drain(&mut e), [EndAction::Keep(released(&[0, 2])), EndAction::Look]);
    // Waiting for the look: answers are ignored.
    e.handle(cleared(&[], NOW));
    e.handle(settled_but(&[], NOW));
    assert_eq!(drain(&mut e), []);
    e.look(&settled());
    assert_eq!(drain(&mut e), [EndAction::Rerun(2, trigger())]);
    // Over: everything is ignored.
    e.handle(cleared(&[running(0)], NOW));
    e.handle(settled_but(&[0], NOW));
    e.look(&settled());
    assert_eq!(drain(&mut e), []);
}

#[test]
fn a_failed_run_is_reported_unless_fencing_or_the_stop_killed_it() {
    // (rule, success, fenced, killed by the worker, reported)
    let rows = [
        ("a failed run", false, false, false, true),
        ("a run that succeeded", true, false, false, false),
        ("a run fencing killed", false, true, false, false),
        ("a run the stop killed", false, false, true, false),
        ("a run that failed on its own while the job stops", false, false, false, true),
    ];
    for (rule, success, fenced, killed, reported) in rows {
        assert_eq!(alerts(success, fenced, killed), reported, "{rule}");
    }
}
