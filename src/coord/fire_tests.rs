//! Table tests of the fire rules: each row reads like a rule of
//! docs/src/design/compatibility.md#fires-and-misfire / docs/src/design/guarantee.md.
//!
//! Cases the chaos test found, kept as rows: a fire handled late is covered by a run that started
//! after it ("a run here that started after the fire covers it"); a fire during resharding is
//! owed to every item rather than run by two owners ("resharding flagged, misfire on: owed to
//! all"); a queued misfire is spent by any run that starts, a queued trigger is not.

use chrono::{DateTime, Duration};

use super::*;
use crate::coord::fixtures::{ME, OTHER, t, view_with};
use crate::coord::snapshot::ItemSnapshot;
use crate::registry::codec::ServerStatus;
use crate::schedule::cron;

fn cron_fire() -> Source {
    Source::Cron(t(100))
}

fn trigger_fire() -> Source {
    Source::Trigger(t(100), Some("tok".into()), None)
}

#[derive(Clone, Copy)]
struct ItemRow {
    rule: &'static str,
    disabled: bool,
    failover: Option<&'static str>,
    failovering: Option<&'static str>,
    running: bool,
    monitor: bool,
    /// A run here started at this instant.
    busy_since: Option<i64>,
    /// The last run here started at this instant.
    last_start: Option<i64>,
    trigger: bool,
    misfire: bool,
    expect: ItemPlan,
}

const BASE: ItemRow = ItemRow {
    rule: "",
    disabled: false,
    failover: None,
    failovering: None,
    running: false,
    monitor: true,
    busy_since: None,
    last_start: None,
    trigger: false,
    misfire: true,
    expect: ItemPlan::Start,
};

const BUSY_HERE: ItemPlan = ItemPlan::Busy { here: true, owe: true };
const BUSY_ELSEWHERE: ItemPlan = ItemPlan::Busy { here: false, owe: true };

fn item_rows() -> Vec<ItemRow> {
    vec![
        ItemRow { rule: "an idle item starts", ..BASE },
        ItemRow { rule: "an idle item starts without monitoring", monitor: false, ..BASE },
        ItemRow { rule: "an idle item starts for a trigger", trigger: true, ..BASE },
        ItemRow { rule: "an idle item starts with misfire off", misfire: false, ..BASE },
        ItemRow { rule: "a disabled item does nothing", disabled: true, expect: ItemPlan::Disabled, ..BASE },
        ItemRow {
            rule: "a disabled item does nothing for a trigger",
            disabled: true,
            trigger: true,
            expect: ItemPlan::Disabled,
            ..BASE
        },
        ItemRow {
            rule: "a disabled busy item does nothing",
            disabled: true,
            busy_since: Some(90),
            expect: ItemPlan::Disabled,
            ..BASE
        },
        ItemRow {
            rule: "a run here that started at the fire covers it",
            last_start: Some(100),
            expect: ItemPlan::Covered,
            ..BASE
        },
        ItemRow {
            rule: "a run here that started after the fire covers it (fire handled late)",
            last_start: Some(105),
            expect: ItemPlan::Covered,
            ..BASE
        },
        ItemRow { rule: "a run here that started before the fire does not cover it", last_start: Some(99), ..BASE },
        ItemRow { rule: "a trigger is never covered by an earlier run", last_start: Some(105), trigger: true, ..BASE },
        ItemRow {
            rule: "busy here since before the fire: owed and queued",
            busy_since: Some(90),
            last_start: Some(90),
            expect: BUSY_HERE,
            ..BASE
        },
        ItemRow {
            rule: "busy here since the fire: covered",
            busy_since: Some(100),
            last_start: Some(100),
            expect: ItemPlan::Covered,
            ..BASE
        },
        ItemRow {
            rule: "busy here since after the fire: covered",
            busy_since: Some(101),
            last_start: Some(101),
            expect: ItemPlan::Covered,
            ..BASE
        },
        ItemRow {
            rule: "busy here since after the fire, a trigger still queues",
            busy_since: Some(101),
            last_start: Some(101),
            trigger: true,
            expect: BUSY_HERE,
            ..BASE
        },
        ItemRow {
            rule: "busy here, misfire off: skipped",
            busy_since: Some(90),
            misfire: false,
            expect: ItemPlan::Skipped { here: true },
            ..BASE
        },
        ItemRow {
            rule: "busy here, misfire off, a trigger still queues (not owed)",
            busy_since: Some(90),
            misfire: false,
            trigger: true,
            expect: ItemPlan::Busy { here: true, owe: false },
            ..BASE
        },
        ItemRow { rule: "running elsewhere: owed", running: true, expect: BUSY_ELSEWHERE, ..BASE },
        ItemRow {
            rule: "running elsewhere, misfire off: skipped",
            running: true,
            misfire: false,
            expect: ItemPlan::Skipped { here: false },
            ..BASE
        },
        ItemRow {
            rule: "a running node is not seen without monitoring: starts",
            running: true,
            monitor: false,
            ..BASE
        },
        ItemRow {
            rule: "running elsewhere, a trigger waits for it",
            running: true,
            trigger: true,
            expect: BUSY_ELSEWHERE,
            ..BASE
        },
        ItemRow {
            rule: "running elsewhere, misfire off, a trigger waits without owing",
            running: true,
            trigger: true,
            misfire: false,
            expect: ItemPlan::Busy { here: false, owe: false },
            ..BASE
        },
        ItemRow {
            rule: "taken over by another instance (failover): busy elsewhere",
            failover: Some(OTHER),
            expect: BUSY_ELSEWHERE,
            ..BASE
        },
        ItemRow {
            rule: "taken over by another instance (failovering): busy elsewhere",
            failovering: Some(OTHER),
            expect: BUSY_ELSEWHERE,
            ..BASE
        },
        ItemRow {
            rule: "taken over by another instance counts even without monitoring",
            failover: Some(OTHER),
            monitor: false,
            expect: BUSY_ELSEWHERE,
            ..BASE
        },
        ItemRow {
            rule: "taken over by another instance, misfire off: skipped",
            failovering: Some(OTHER),
            misfire: false,
            expect: ItemPlan::Skipped { here: false },
            ..BASE
        },
        ItemRow { rule: "taken over by this instance: not busy elsewhere", failover: Some(ME), ..BASE },
        ItemRow { rule: "failovering by this instance: not busy elsewhere", failovering: Some(ME), ..BASE },
        ItemRow {
            rule: "an empty failover owner is someone else's",
            failover: Some(""),
            expect: BUSY_ELSEWHERE,
            ..BASE
        },
        ItemRow {
            rule: "busy here and its own running node: busy here wins",
            running: true,
            busy_since: Some(90),
            expect: BUSY_HERE,
            ..BASE
        },
        ItemRow {
            rule: "covered by a later run here even when running elsewhere now",
            running: true,
            last_start: Some(100),
            expect: ItemPlan::Covered,
            ..BASE
        },
        ItemRow {
            rule: "a trigger for an item running elsewhere and run here earlier waits",
            running: true,
            last_start: Some(120),
            trigger: true,
            expect: BUSY_ELSEWHERE,
            ..BASE
        },
    ]
}

#[test]
fn plan_item_rules() {
    for row in item_rows() {
        let state = ItemSnapshot {
            owner: Some(ME.into()),
            running: row.running,
            failover: row.failover.map(str::to_string),
            failovering: row.failovering.map(str::to_string),
            misfire: false,
            disabled: row.disabled,
            result: None,
        };
        let slot = Slot {
            run: row.busy_since.map(|s| RunInfo { id: 1, source: Source::Cron(t(s)), started_at: t(s) }),
            queued: None,
            last_start: row.last_start.map(t),
        };
        let source = if row.trigger { trigger_fire() } else { cron_fire() };
        let got = plan_item(&state, Some(&slot), &source, ME, (row.monitor, row.misfire), t(100));
        assert_eq!(got, row.expect, "rule: {}", row.rule);
    }
}

#[test]
fn an_idle_items_cron_fire_handled_late_is_owed_not_started() {
    let idle = ItemSnapshot::default();
    // (rule, fire, misfire, handled at, expected)
    let rows = [
        ("on time", cron_fire(), true, t(100), ItemPlan::Start),
        ("at the limit", cron_fire(), true, t(102), ItemPlan::Start),
        ("late", cron_fire(), true, t(103), ItemPlan::OweLate),
        ("late, misfire off: started (nothing is owed without misfire)", cron_fire(), false, t(103), ItemPlan::Start),
        ("a trigger is never late", trigger_fire(), true, t(200), ItemPlan::Start),
        ("an owed fire is never late", Source::Misfire(t(100)), true, t(200), ItemPlan::Start),
    ];
    for (rule, source, misfire, now, expected) in rows {
        assert_eq!(plan_item(&idle, None, &source, ME, (true, misfire), now), expected, "{rule}");
    }
}

#[test]
fn plan_item_without_a_slot_is_idle_here() {
    let state = ItemSnapshot::default();
    assert_eq!(plan_item(&state, None, &cron_fire(), ME, (true, true), t(100)), ItemPlan::Start);
}

/// `(rule, queued before, fire, busy here, owed, expect queued after, expect "owed a run")`.
type QueueRow = (&'static str, Option<Source>, Source, bool, bool, Option<Source>, bool);

#[test]
fn queue_rules() {
    let rows: Vec<QueueRow> = vec![
        ("busy here and owed: queued as a misfire", None, cron_fire(), true, true, Some(Source::Misfire(t(100))), true),
        ("busy here, not owed (covered meanwhile): nothing queued", None, cron_fire(), true, false, None, false),
        ("busy elsewhere and owed: the misfire node stands for it", None, cron_fire(), false, true, None, true),
        ("busy elsewhere, not owed: nothing", None, cron_fire(), false, false, None, false),
        ("a trigger is queued busy here", None, trigger_fire(), true, true, Some(trigger_fire()), true),
        ("a trigger is queued busy elsewhere too", None, trigger_fire(), false, false, Some(trigger_fire()), true),
        (
            "a queued trigger is not replaced by a cron fire",
            Some(Source::Trigger(t(90), None, None)),
            cron_fire(),
            true,
            true,
            Some(Source::Trigger(t(90), None, None)),
            true,
        ),
        (
            "a later misfire replaces an earlier one (coalescing)",
            Some(Source::Misfire(t(90))),
            cron_fire(),
            true,
            true,
            Some(Source::Misfire(t(100))),
            true,
        ),
        (
            "a trigger replaces a queued misfire",
            Some(Source::Misfire(t(90))),
            trigger_fire(),
            true,
            true,
            Some(trigger_fire()),
            true,
        ),
        (
            "a failover fire queued behind becomes a misfire",
            None,
            Source::Failover(t(100)),
            true,
            true,
            Some(Source::Misfire(t(100))),
            true,
        ),
        (
            "a misfire queued behind stays a misfire",
            None,
            Source::Misfire(t(100)),
            true,
            true,
            Some(Source::Misfire(t(100))),
            true,
        ),
    ];
    for (rule, before, fire, here, owed, after, said_owed) in rows {
        let mut state = FireState::default();
        state.slots.entry(3).or_default().queued = before;
        assert_eq!(state.queue(3, &fire, here, owed), said_owed, "rule: {rule}");
        assert_eq!(state.slot(3).and_then(|s| s.queued.clone()), after, "rule: {rule}");
    }
}

#[test]
fn a_run_starting_spends_a_queued_misfire_but_not_a_trigger() {
    let mut state = FireState::default();
    state.slots.entry(0).or_default().queued = Some(Source::Misfire(t(90)));
    state.slots.entry(1).or_default().queued = Some(trigger_fire());
    state.spend_queued_misfires(&[0, 1, 2]);
    assert_eq!(state.slot(0).unwrap().queued, None);
    assert_eq!(state.slot(1).unwrap().queued, Some(trigger_fire()));
    assert_eq!(state.slot(2).unwrap().queued, None);
}

#[test]
fn begin_records_the_run_once() {
    let mut state = FireState::default();
    assert_eq!(state.begin(4, cron_fire(), t(100)), Some(1));
    assert!(state.is_running(4));
    assert_eq!(state.slot(4).unwrap().last_start, Some(t(100)));
    assert_eq!(state.begin(4, cron_fire(), t(101)), None, "an item never runs twice here");
    assert_eq!(state.begin(5, cron_fire(), t(101)), Some(2));
    assert_eq!(state.running_count(), 2);
}

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
fn gate_rules() {
    let owned = view_with(&[(0, ME), (1, OTHER), (2, ME)], &[]);
    // (rule, view, misfire, trigger, expected)
    let mut resharding = owned.clone();
    resharding.necessary = true;
    let mut processing = owned.clone();
    processing.processing = true;
    let unowned = view_with(&[(0, ME), (1, OTHER)], &[]);
    let rows: Vec<(&str, &JobSnapshot, bool, bool, Gate)> = vec![
        ("settled: the local items run", &owned, true, false, Gate::Run(vec![0, 2])),
        ("settled, a trigger: the local items run", &owned, true, true, Gate::Run(vec![0, 2])),
        ("resharding flagged, misfire on: owed to all", &resharding, true, false, Gate::OweToAll),
        ("resharding flagged, misfire off: waits", &resharding, false, false, Gate::Wait),
        ("resharding flagged, a trigger waits", &resharding, true, true, Gate::Wait),
        ("resharding in progress: owed to all", &processing, true, false, Gate::OweToAll),
        ("an item without owner: owed to all", &unowned, true, false, Gate::OweToAll),
        ("an item without owner, a trigger waits", &unowned, true, true, Gate::Wait),
    ];
    for (rule, view, misfire, trigger, expect) in rows {
        let source = if trigger { trigger_fire() } else { cron_fire() };
        assert_eq!(gate(view, ME, 3, misfire, &source), expect, "rule: {rule}");
    }
    let mut disabled = owned.clone();
    disabled.servers.insert("10.0.0.1".into(), ServerStatus::Disabled);
    assert_eq!(gate(&disabled, ME, 3, true, &cron_fire()), Gate::Run(vec![]), "a disabled server runs nothing");
}

#[test]
fn free_queued_rules() {
    let running = ItemSnapshot { running: true, ..ItemSnapshot::default() };
    let misfired = ItemSnapshot { misfire: true, ..ItemSnapshot::default() };
    let disabled_misfired = ItemSnapshot { misfire: true, disabled: true, ..ItemSnapshot::default() };
    let taken = ItemSnapshot { failovering: Some(OTHER.into()), misfire: true, ..ItemSnapshot::default() };
    let taken_by_me = ItemSnapshot { failover: Some(ME.into()), misfire: true, ..ItemSnapshot::default() };
    let view = view_with(
        &[(0, ME), (1, ME), (2, ME), (3, ME), (4, ME), (5, ME), (6, OTHER)],
        &[(1, running), (2, misfired.clone()), (3, disabled_misfired), (4, taken), (5, taken_by_me), (6, misfired)],
    );
    let mut state = FireState::default();
    for item in 0..7 {
        state.slots.entry(item).or_default().queued = Some(Source::Misfire(t(90)));
    }
    // Item 5 is busy here: its queue waits.
    state.begin(5, cron_fire(), t(95));
    let ready = state.take_free_queued(&view, ME, 7, true, t(1000));
    assert_eq!(
        ready,
        [(0, Some(Source::Misfire(t(90)))), (2, Some(Source::Misfire(t(90))))],
        "free local items run their queue; running, disabled, taken over, busy and foreign items do not"
    );
    assert_eq!(state.slot(1).unwrap().queued, Some(Source::Misfire(t(90))), "a blocked queue stays");
    // A misfire node alone (no queue here) runs with misfire on, not with it off; an item this
    // instance took over itself is free for it.
    let mut fresh = FireState::default();
    assert_eq!(fresh.take_free_queued(&view, ME, 7, true, t(1000)), [(2, None), (5, None)]);
    assert_eq!(fresh.take_free_queued(&view, ME, 7, false, t(1000)), []);
    // A misfire owed by a clock ahead of this one waits until this clock reaches it.
    let mut early = FireState::default();
    early.slots.entry(0).or_default().queued = Some(Source::Misfire(t(90)));
    assert_eq!(early.take_free_queued(&view, ME, 1, true, t(89)), [], "not yet due: stays queued");
    assert_eq!(early.take_free_queued(&view, ME, 1, true, t(90)), [(0, Some(Source::Misfire(t(90))))], "due");
}

#[test]
fn missed_offline_keeps_the_latest_fire_and_needs_misfire() {
    let mut state = FireState::default();
    state.defer_offline(t(100));
    state.defer_offline(t(90));
    state.defer_offline(t(110));
    assert_eq!(state.take_missed_offline(true), Some(Source::Misfire(t(110))));
    assert_eq!(state.take_missed_offline(true), None, "run once");
    state.defer_offline(t(120));
    assert_eq!(state.take_missed_offline(false), None, "misfire off: dropped");
    assert_eq!(state.take_missed_offline(true), None);
}

#[test]
fn a_fire_waiting_for_sharding_is_kept_once() {
    let mut state = FireState::default();
    state.wait_for_sharding(cron_fire());
    state.wait_for_sharding(trigger_fire());
    assert_eq!(state.take_pending(), Some(trigger_fire()), "the latest waiting fire");
    assert_eq!(state.take_pending(), None);
    // A run that ends during resharding re-queues its misfire here: a waiting trigger stays.
    state.wait_for_sharding(trigger_fire());
    state.wait_for_sharding(Source::Misfire(t(200)));
    state.wait_for_sharding(cron_fire());
    assert_eq!(state.take_pending(), Some(trigger_fire()), "a trigger is not displaced");
    state.wait_for_sharding(Source::Misfire(t(200)));
    state.wait_for_sharding(cron_fire());
    assert_eq!(state.take_pending(), Some(cron_fire()), "otherwise the latest");
}

#[test]
fn next_fire_coalesces_missed_periods() {
    let every_10s = cron::parse("0/10 * * * * ?").unwrap();
    let tz = cron::parse_time_zone("GMT").unwrap();
    let at = |s: i64| DateTime::from_timestamp(1_700_000_000 + s, 0).unwrap();
    // (rule, scheduled, now, expected next)
    let rows = [
        ("on time: the next period", 0, 0, Some(10)),
        ("a little late: still the next period", 0, 9, Some(10)),
        ("late by exactly a period: coalesced to the one after now", 0, 10, Some(20)),
        ("late by several periods: coalesced to the one after now", 0, 35, Some(40)),
    ];
    for (rule, scheduled, now, expect) in rows {
        assert_eq!(next_fire(Some(&every_10s), &tz, at(scheduled), at(now)), expect.map(at), "rule: {rule}");
    }
    assert_eq!(next_fire(None, &tz, at(0), at(0)), None, "a one-off job never fires by itself");
    let never_again = cron::parse("0 0 0 1 1 ? 2020").unwrap();
    assert_eq!(next_fire(Some(&never_again), &tz, at(0), at(0)), None, "a cron that never fires again");
}

#[test]
fn a_fire_is_due_once_the_clock_reaches_it() {
    let ms = |ms: i64| t(0) + Duration::milliseconds(ms);
    // (rule, scheduled ms, now ms, due)
    let rows = [
        ("on time", 1000, 1000, true),
        ("late", 1000, 1700, true),
        ("a timer armed before the clock was set back goes off early: not yet", 1000, 660, false),
    ];
    for (rule, scheduled, now, expect) in rows {
        assert_eq!(due(ms(scheduled), ms(now)), expect, "rule: {rule}");
    }
}

#[test]
fn sources() {
    assert_eq!(cron_fire().label(), "cron");
    assert_eq!(trigger_fire().token(), Some("tok"));
    assert_eq!(cron_fire().token(), None);
    assert_eq!(Source::Failover(t(1)).at(), t(1));
    assert!(trigger_fire().is_trigger());
}

/// Every combination of the inputs of [`plan_item`] (1,152 of them), checked against the
/// invariants of docs/src/design/guarantee.md rather than row by row.
#[test]
fn plan_item_invariants_over_every_combination() {
    let owners = [None, Some(ME), Some(OTHER)];
    let instants = [None, Some(90), Some(100), Some(110)];
    let mut checked = 0;
    for disabled in [false, true] {
        for failover in owners {
            for failovering in owners {
                for running in [false, true] {
                    for monitor in [false, true] {
                        for busy_since in instants {
                            for trigger in [false, true] {
                                for misfire in [false, true] {
                                    let last_start = busy_since.or(Some(80));
                                    let state = ItemSnapshot {
                                        owner: Some(ME.into()),
                                        running,
                                        failover: failover.map(str::to_string),
                                        failovering: failovering.map(str::to_string),
                                        misfire: false,
                                        disabled,
                                        result: None,
                                    };
                                    let slot = Slot {
                                        run: busy_since.map(|s| RunInfo {
                                            id: 1,
                                            source: Source::Cron(t(s)),
                                            started_at: t(s),
                                        }),
                                        queued: None,
                                        last_start: last_start.map(t),
                                    };
                                    let source = if trigger { trigger_fire() } else { cron_fire() };
                                    let plan = plan_item(&state, Some(&slot), &source, ME, (monitor, misfire), t(100));
                                    let busy_here = busy_since.is_some();
                                    let taken_over = [failover, failovering].iter().any(|o| o.is_some_and(|o| o != ME));
                                    let case = format!(
                                        "disabled={disabled} failover={failover:?} failovering={failovering:?} running={running} \
                                         monitor={monitor} busy_since={busy_since:?} trigger={trigger} misfire={misfire}: {plan:?}"
                                    );
                                    // A disabled item never runs, and only a disabled item is Disabled.
                                    assert_eq!(disabled, plan == ItemPlan::Disabled, "{case}");
                                    // No overlap: an item never starts while it runs here, is taken over
                                    // by another instance, or (monitored) runs elsewhere.
                                    if busy_here || taken_over || (monitor && running) {
                                        assert_ne!(plan, ItemPlan::Start, "{case}");
                                    }
                                    // A trigger always gets a run of its own.
                                    if trigger {
                                        assert_ne!(plan, ItemPlan::Covered, "{case}");
                                        assert!(!matches!(plan, ItemPlan::Skipped { .. }), "{case}");
                                    }
                                    // Nothing is owed with misfire off, and nothing is skipped with it on.
                                    if let ItemPlan::Busy { owe, .. } = plan {
                                        assert_eq!(owe, misfire, "{case}");
                                    }
                                    if matches!(plan, ItemPlan::Skipped { .. }) {
                                        assert!(!misfire, "{case}");
                                    }
                                    // "Here" means a run of this instance.
                                    if let ItemPlan::Busy { here, .. } | ItemPlan::Skipped { here } = plan {
                                        assert_eq!(here, busy_here, "{case}");
                                    }
                                    // Covered only by a run here that started at or after the fire.
                                    if plan == ItemPlan::Covered {
                                        assert!(last_start.is_some_and(|s| s >= 100), "{case}");
                                    }
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(checked, 2 * 3 * 3 * 2 * 2 * 4 * 2 * 2);
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

/// A trigger written at zxid 50, against what the registry shows of an item.
#[test]
fn a_trigger_is_covered_by_a_run_that_started_after_it_was_written() {
    use crate::registry::{NodeData, Stat};
    let node =
        |data: &str, mzxid: i64| NodeData { data: data.as_bytes().to_vec(), stat: Stat { mzxid, ..Stat::default() } };
    let stamp = codec::encode_millis(t(100));
    let stamp = std::str::from_utf8(&stamp).unwrap();
    let rows: [(&str, bool, Option<NodeData>, bool); 7] = [
        ("stamped after the trigger: the old owner ran it", false, Some(node(stamp, 51)), true),
        ("stamped before the trigger: a run it came after", false, Some(node(stamp, 49)), false),
        ("stamped at the trigger's own zxid (never: a write has one zxid)", false, Some(node(stamp, 50)), false),
        ("created by resharding after the trigger, never run", false, Some(node("", 60)), false),
        ("no item node", false, None, false),
        ("--wait: the trigger's result is there", true, Some(node("{}", 70)), true),
        ("--wait: no result of this trigger yet (a cron run does not count)", true, None, false),
    ];
    for (case, by_result, item, covered) in rows {
        assert_eq!(trigger_covered(50, by_result, item.as_ref()), covered, "{case}");
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
