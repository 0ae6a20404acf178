//! Table tests of the failover decisions: suspects, confirmation, order, switch-off.

use super::*;
use crate::coord::snapshot::ItemSnapshot;
use crate::registry::Stat;
use crate::registry::cache::CacheEvent;
use crate::registry::codec::ServerStatus;

const ME: &str = "10.0.0.1@-@1";
const LIVE: &str = "10.0.0.2@-@2";
const GONE: &str = "10.0.0.3@-@3";
/// Shut down by an operator (no instance node), its killed runs not ended yet (runner node).
const STOPPING: &str = "10.0.0.4@-@4";

fn view(items: Vec<(u32, ItemSnapshot)>) -> JobSnapshot {
    let mut v = JobSnapshot::default();
    for id in [ME, LIVE] {
        v.instances.insert(id.into(), None);
    }
    v.runners = [ME, LIVE, STOPPING].iter().map(|s| (*s).to_string()).collect();
    v.servers.insert("10.0.0.1".into(), ServerStatus::Enabled);
    v.servers.insert("10.0.0.2".into(), ServerStatus::Enabled);
    v.items = items.into_iter().collect();
    v
}

fn item(owner: Option<&str>, running: bool, failovering: Option<&str>) -> ItemSnapshot {
    ItemSnapshot {
        owner: owner.map(str::to_string),
        running,
        failovering: failovering.map(str::to_string),
        ..ItemSnapshot::default()
    }
}

#[test]
fn suspect_rules() {
    // (rule, item state, busy here, suspect)
    let rows: Vec<(&str, ItemSnapshot, bool, bool)> = vec![
        ("idle item: no", item(Some(GONE), false, None), false, false),
        ("running, owner live: no", item(Some(LIVE), true, None), false, false),
        ("running, owner gone: yes", item(Some(GONE), true, None), false, true),
        (
            "running, owner shut down by an operator but its runs still being killed: no",
            item(Some(STOPPING), true, None),
            false,
            false,
        ),
        ("running, owner is me but not running here (fenced): yes", item(Some(ME), true, None), false, true),
        ("running, owner is me and running here: no", item(Some(ME), true, None), true, false),
        ("running, no owner at all: yes", item(None, true, None), false, true),
        (
            "running under a live claimer, owner gone: no (the claimer runs it)",
            item(Some(GONE), true, Some(LIVE)),
            false,
            false,
        ),
        ("running under a gone claimer: yes", item(Some(LIVE), true, Some(GONE)), false, true),
        ("claim without running node, claimer gone: yes", item(Some(LIVE), false, Some(GONE)), false, true),
        ("claim without running node, claimer live: no", item(Some(GONE), false, Some(LIVE)), false, false),
        ("claim by me not running here: yes", item(Some(LIVE), false, Some(ME)), false, true),
        ("claim by me running here: no", item(Some(LIVE), true, Some(ME)), true, false),
    ];
    for (rule, state, busy, expect) in rows {
        let v = view(vec![(4, state)]);
        assert_eq!(suspects(&v, ME, |_| busy), if expect { vec![4] } else { vec![] }, "rule: {rule}");
    }
}

#[test]
fn has_work_rules() {
    let mut queued = view(vec![]);
    queued.failover_queue.insert(1);
    let empty = view(vec![]);
    let mut disabled = queued.clone();
    disabled.servers.insert("10.0.0.1".into(), ServerStatus::Disabled);
    let mut not_live = queued.clone();
    not_live.instances.remove(ME);
    // (rule, view, suspects, expected)
    type Row<'a> = (&'a str, &'a JobSnapshot, &'a [u32], bool);
    let rows: Vec<Row<'_>> = vec![
        ("queued items: claim", &queued, &[], true),
        ("suspects: confirm and claim", &empty, &[2], true),
        ("nothing to do", &empty, &[], false),
        ("server disabled: this instance takes nothing", &disabled, &[2], false),
        ("instance not live: takes nothing", &not_live, &[2], false),
    ];
    for (rule, v, s, expect) in rows {
        assert_eq!(has_work(v, ME, s), expect, "rule: {rule}");
    }
}

fn fresh(
    running: Option<(&str, i32)>,
    failover: Option<&str>,
    failovering: Option<(&str, i32)>,
) -> Vec<Option<NodeData>> {
    let n =
        |d: &str, v: i32| Some(NodeData { data: d.as_bytes().to_vec(), stat: Stat { version: v, ..Stat::default() } });
    vec![running.and_then(|(d, v)| n(d, v)), failover.and_then(|d| n(d, 0)), failovering.and_then(|(d, v)| n(d, v))]
}

#[test]
fn orphan_rules() {
    let paths = JobPaths::new("j");
    let live: BTreeSet<String> = [ME, LIVE, STOPPING].iter().map(|s| (*s).to_string()).collect();
    let queue = "create /j/leader/failover/items/6";
    let del_running = "delete /j/sharding/6/running v2";
    let del_failovering = "delete /j/sharding/6/failovering v5";
    // (rule, fresh leaves, here, expected (runner, ops) or None)
    type Row = (&'static str, Vec<Option<NodeData>>, bool, Option<(&'static str, Vec<&'static str>)>);
    let rows: Vec<Row> = vec![
        (
            "running by a gone instance: queued, running removed",
            fresh(Some((GONE, 2)), None, None),
            false,
            Some((GONE, vec![queue, del_running])),
        ),
        ("running by a live instance: not an orphan", fresh(Some((LIVE, 2)), None, None), false, None),
        (
            "running by an instance shut down whose killed run has not ended (runner node): not an orphan",
            fresh(Some((STOPPING, 2)), None, None),
            false,
            None,
        ),
        (
            "my own run killed by fencing: queued",
            fresh(Some((ME, 2)), None, None),
            false,
            Some((ME, vec![queue, del_running])),
        ),
        ("my own run going on here: not an orphan", fresh(Some((ME, 2)), None, None), true, None),
        ("finished meanwhile (no nodes): nothing", fresh(None, None, None), false, None),
        ("claimed by a live instance: nothing", fresh(Some((GONE, 2)), Some(LIVE), Some((LIVE, 5))), false, None),
        (
            "claimed by a gone instance: queued, both nodes removed",
            fresh(Some((GONE, 2)), Some(GONE), Some((GONE, 5))),
            false,
            Some((GONE, vec![queue, del_running, del_failovering])),
        ),
        (
            "a claim marker of a gone claimer without running node: queued, marker removed",
            fresh(None, None, Some((GONE, 5))),
            false,
            Some((GONE, vec![queue, del_failovering])),
        ),
        (
            "running by a gone instance, a live claim marker stays",
            fresh(Some((GONE, 2)), None, Some((LIVE, 5))),
            false,
            Some((GONE, vec![queue, del_running])),
        ),
        (
            "my own claim without a run here (its reply was lost): queued, all its nodes removed",
            fresh(None, Some(ME), Some((ME, 5))),
            false,
            Some((ME, vec![queue, del_failovering, "delete /j/sharding/6/failover v0"])),
        ),
        (
            "my own claim with a running node, not run here: queued, all three removed",
            fresh(Some((ME, 2)), Some(ME), Some((ME, 5))),
            false,
            Some((ME, vec![queue, del_running, del_failovering, "delete /j/sharding/6/failover v0"])),
        ),
        ("my own claim running here: nothing", fresh(Some((ME, 2)), Some(ME), Some((ME, 5))), true, None),
    ];
    for (rule, leaves, here, expect) in rows {
        let got = orphan(&paths, 6, ME, here, &live, &leaves, None);
        let got = got.map(|o| {
            let ops: Vec<String> = o
                .ops
                .iter()
                .map(|op| match op {
                    Op::Create { path, .. } => format!("create {path}"),
                    Op::Delete { path, version } => format!("delete {path} v{}", version.unwrap_or(-1)),
                    other => format!("{other:?}"),
                })
                .collect();
            (o.runner, ops)
        });
        let expect = expect.map(|(r, ops)| (r.to_string(), ops.into_iter().map(str::to_string).collect::<Vec<_>>()));
        assert_eq!(got, expect, "rule: {rule}");
    }
}

#[test]
fn a_queued_orphan_records_the_start_stamp_it_was_queued_at() {
    let paths = JobPaths::new("j");
    let live: BTreeSet<String> = [ME].iter().map(|s| (*s).to_string()).collect();
    let stamp = NodeData { data: b"1700000000000".to_vec(), stat: Stat { version: 7, ..Stat::default() } };
    let got =
        orphan(&paths, 6, ME, false, &live, &fresh(Some((GONE, 2)), None, None), Some(&stamp)).expect("an orphan");
    assert_eq!(
        got.ops,
        [
            Op::Create { path: "/j/leader/failover/items/6".into(), data: b"7".to_vec(), mode: Mode::Persistent },
            Op::Check { path: "/j/sharding/6".into(), version: Some(7) },
            Op::Delete { path: "/j/sharding/6/running".into(), version: Some(2) },
        ],
        "the entry holds the stamp's version, checked in the same transaction"
    );
}

#[test]
fn claims_go_in_elasticjobs_order() {
    let names: Vec<String> = ["1", "10", "2", "x", "9"].iter().map(|s| (*s).to_string()).collect();
    let claim = |items: &[u32]| items.iter().map(|&i| Queued::Claim(i)).collect::<Vec<_>>();
    assert_eq!(
        claim_order(names.clone(), &BTreeSet::new(), 11),
        claim(&[9, 2, 10, 1]),
        "reverse lexicographic, non-items skipped"
    );
    let disabled: BTreeSet<u32> = [2].into();
    assert_eq!(claim_order(names.clone(), &disabled, 11), claim(&[9, 10, 1]), "a disabled item waits in the queue");
    assert_eq!(
        claim_order(names, &BTreeSet::new(), 3),
        [Queued::Stale(9), Queued::Claim(2), Queued::Stale(10), Queued::Claim(1)],
        "the count shrank: entries beyond it are stale"
    );
}

#[test]
fn switching_failover_off_clears_its_nodes() {
    let paths = JobPaths::new("j");
    let v = view(vec![
        (0, ItemSnapshot { failover: Some(LIVE.into()), failovering: Some(LIVE.into()), ..ItemSnapshot::default() }),
        (1, ItemSnapshot { failover: Some(ME.into()), failovering: Some(ME.into()), ..ItemSnapshot::default() }),
        (2, ItemSnapshot::default()),
    ]);
    assert_eq!(
        switched_off(&v, &paths, |item| item == 1),
        ["/j/sharding/0/failover", "/j/sharding/0/failovering", "/j/sharding/1/failover", "/j/leader/failover/items",],
        "a failovering marker of a run going on here stays until it ends"
    );
}

#[test]
fn what_wakes_a_failover_round() {
    let c = |p: &str| CacheEvent::Created(p.into());
    // (rule, event, wakes)
    let rows: Vec<(&str, CacheEvent, bool)> = vec![
        ("an instance joined", c("/j/instances/10.0.0.3@-@3"), true),
        ("an instance left", CacheEvent::Deleted("/j/instances/10.0.0.3@-@3".into()), true),
        ("a server switched", CacheEvent::Changed("/j/servers/10.0.0.3".into()), true),
        ("a run started", c("/j/sharding/0/running"), true),
        ("a claim", c("/j/sharding/0/failovering"), true),
        ("an owner changed", CacheEvent::Changed("/j/sharding/0/instance".into()), true),
        ("an item queued", c("/j/leader/failover/items/0"), true),
        ("a runner left", CacheEvent::Deleted("/j/runners/10.0.0.3@-@3".into()), true),
        ("an item enabled", CacheEvent::Deleted("/j/sharding/0/disabled".into()), true),
        ("events were lost", CacheEvent::Resynced, true),
        ("a round's own latch node", c("/j/leader/failover/latch/_c_x-latch-0000000001"), false),
        ("an election latch node", c("/j/leader/election/latch/_c_x-latch-0000000001"), false),
        ("a start stamp", CacheEvent::Changed("/j/sharding/0".into()), false),
        ("a misfire node", c("/j/sharding/0/misfire"), false),
        ("the configuration", CacheEvent::Changed("/j/config".into()), false),
    ];
    for (rule, event, expect) in rows {
        assert_eq!(wakes(&event), expect, "rule: {rule}");
    }
}
