//! Table tests of the fire rules: each row reads like a rule of
//! docs/src/design/compatibility.md#fires-and-misfire / docs/src/design/guarantee.md.
//!
//! Cases the chaos test found, kept as rows: a fire handled late is covered by a run that started
//! after it ("a run here that started after the fire covers it"); a fire during resharding is
//! owed to every item rather than run by two owners ("resharding flagged, misfire on: owed to
//! all"); a queued misfire is spent by any run that starts, a queued trigger is not.

use super::*;
use crate::coord::fixtures::{ME, OTHER, cron_fire, t, trigger_fire, view_with};
use crate::coord::snapshot::ItemSnapshot;
use crate::registry::codec::ServerStatus;

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
            in_doubt: false,
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
                                        in_doubt: false,
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
