//! Table tests of the once-per-fire phases: completeness, who claims, stale marks, a claimer that
//! is gone, a later fire, the timeout; and the node data.

use super::*;

const ME: &str = "10.0.0.1@-@1";
const LIVE: &str = "10.0.0.2@-@2";
const GONE: &str = "10.0.0.3@-@3";

/// The fire under test, an earlier and a later one.
const FIRE: FireId = FireId { at_ms: 100_000, trigger: None };
const EARLIER: FireId = FireId { at_ms: 90_000, trigger: None };
const LATER: FireId = FireId { at_ms: 110_000, trigger: None };

fn live(id: &str) -> bool {
    id == ME || id == LIVE
}

fn ok(fire: FireId) -> Mark {
    Mark { fire, failed: false }
}

/// Three items with these marks (`None`: no node), the root (`None`: absent) at version 7.
fn snap(marks: [Option<FireId>; 3], root: Option<Guard>) -> Snapshot {
    Snapshot {
        root: root.map(|g| (g, 7)),
        marks: marks.iter().enumerate().filter_map(|(i, m)| m.map(|f| (i as u32, ok(f)))).collect(),
        total: 3,
        disabled: BTreeSet::new(),
    }
}

fn claimed(fire: FireId, instance: &str) -> Guard {
    Guard::Claimed { fire, instance: instance.into() }
}

const ALL: [Option<FireId>; 3] = [Some(FIRE); 3];

#[test]
fn step_rules() {
    let f = Some(FIRE);
    let claim = Step::Claim { version: Some(7) };
    let rows: Vec<(&str, Snapshot, Step)> = vec![
        ("no item marked yet: wait", snap([None; 3], Some(Guard::Free)), Step::Wait),
        ("two of three items marked: wait", snap([f, f, None], Some(Guard::Free)), Step::Wait),
        ("every item marked, root free: claim", snap(ALL, Some(Guard::Free)), claim.clone()),
        ("every item marked, no root yet: claim by creating it", snap(ALL, None), Step::Claim { version: None }),
        (
            "stale marks of a crashed earlier fire do not count",
            snap([f, Some(EARLIER), Some(EARLIER)], Some(Guard::Free)),
            Step::Wait,
        ),
        ("an earlier fire's done is as good as free", snap(ALL, Some(Guard::Done(EARLIER))), claim.clone()),
        ("an earlier fire's timeout is as good as free", snap(ALL, Some(Guard::TimedOut(EARLIER))), claim.clone()),
        (
            "an earlier fire's claim, even alive, is as good as free",
            snap(ALL, Some(claimed(EARLIER, LIVE))),
            claim.clone(),
        ),
        ("claimed by a live instance: wait for its done", snap(ALL, Some(claimed(FIRE, LIVE))), Step::Wait),
        ("claimed by a gone instance: claim again", snap(ALL, Some(claimed(FIRE, GONE))), claim.clone()),
        (
            "claimed by a gone instance, not complete any more: wait",
            snap([f, f, None], Some(claimed(FIRE, GONE))),
            Step::Wait,
        ),
        (
            "claimed here (by another wait of this fire, or a claim whose reply was lost): wait",
            snap(ALL, Some(claimed(FIRE, ME))),
            Step::Wait,
        ),
        ("done for this fire: done", snap(ALL, Some(Guard::Done(FIRE))), Step::Done),
        ("done before every mark was seen: done", snap([f, None, None], Some(Guard::Done(FIRE))), Step::Done),
        ("timeout reported for this fire: over", snap([f, None, None], Some(Guard::TimedOut(FIRE))), Step::Over),
        ("a later fire claimed the phase: over", snap([f, None, None], Some(claimed(LATER, LIVE))), Step::Over),
        ("a later fire is done: over", snap(ALL, Some(Guard::Done(LATER))), Step::Over),
        (
            "a later fire's mark on an item: hopeless",
            snap([f, Some(LATER), None], Some(Guard::Free)),
            Step::Hopeless { item: 1, later: LATER, version: Some(7) },
        ),
        (
            "a later fire's mark, claimer gone: hopeless",
            snap([f, Some(LATER), f], Some(claimed(FIRE, GONE))),
            Step::Hopeless { item: 1, later: LATER, version: Some(7) },
        ),
        (
            "a later fire's mark while a live claimer runs: wait for its done",
            snap([f, Some(LATER), f], Some(claimed(FIRE, LIVE))),
            Step::Wait,
        ),
    ];
    for (rule, s, want) in rows {
        assert_eq!(step(&s, FIRE, ME, live), want, "{rule}");
    }
}

#[test]
fn completeness_skips_disabled_items_and_ignores_items_beyond_the_total() {
    let mut s = snap([Some(FIRE), None, Some(FIRE)], Some(Guard::Free));
    assert!(!s.complete(FIRE));
    s.disabled.insert(1);
    assert!(s.complete(FIRE), "a disabled item does not run, so it is not waited for");
    assert_eq!(step(&s, FIRE, ME, live), Step::Claim { version: Some(7) });
    // A job that shrank from 5 items to 3: the marks of items 3 and 4 do not matter.
    let mut s = snap(ALL, Some(Guard::Free));
    s.marks.insert(4, ok(EARLIER));
    assert!(s.complete(FIRE));
    assert_eq!(stale_items(&["0".into(), "2".into(), "3".into(), "4".into(), "x".into()], 3), [3, 4]);
}

#[test]
fn triggers_and_cron_fires_are_ordered_by_instant() {
    let trigger = FireId::trigger(105_000, 42);
    assert!(FIRE < trigger && trigger < LATER);
    assert!(FireId::trigger(100_000, 1) > FIRE, "same millisecond: the cron fire first");
    let s = snap([Some(FIRE), Some(trigger), None], Some(Guard::Free));
    assert_eq!(step(&s, FIRE, ME, live), Step::Hopeless { item: 1, later: trigger, version: Some(7) });
    // A trigger's own phase completes on its own marks.
    let s = snap([Some(trigger); 3], Some(Guard::Done(FIRE)));
    assert_eq!(step(&s, trigger, ME, live), Step::Claim { version: Some(7) });
}

#[test]
fn expiry_rules() {
    let report = Expiry::Report { version: Some(7) };
    let rows: Vec<(&str, Snapshot, Expiry)> = vec![
        ("incomplete, root free: report", snap([Some(FIRE), None, None], Some(Guard::Free)), report),
        ("an earlier fire's state: report", snap([None; 3], Some(Guard::Done(EARLIER))), report),
        ("no root: report by creating it", snap([None; 3], None), Expiry::Report { version: None }),
        ("a live claimer slower than the timeout: report", snap(ALL, Some(claimed(FIRE, LIVE))), report),
        ("a gone claimer: report", snap(ALL, Some(claimed(FIRE, GONE))), report),
        ("done meanwhile: quiet", snap(ALL, Some(Guard::Done(FIRE))), Expiry::Quiet),
        ("someone reported it: quiet", snap([None; 3], Some(Guard::TimedOut(FIRE))), Expiry::Quiet),
        ("a later fire holds the phase: quiet", snap([None; 3], Some(claimed(LATER, LIVE))), Expiry::Quiet),
    ];
    for (rule, s, want) in rows {
        assert_eq!(expiry(&s, FIRE), want, "{rule}");
    }
}

#[test]
fn node_data_round_trips() {
    for fire in [FIRE, FireId::trigger(1_700_000_000_123, 4_294_967_301)] {
        assert_eq!(FireId::parse(&fire.to_string()), Some(fire));
        for failed in [false, true] {
            let mark = Mark { fire, failed };
            assert_eq!(Mark::decode(&mark.encode()), Some(mark));
        }
        for guard in [Guard::Free, claimed(fire, LIVE), Guard::Done(fire), Guard::TimedOut(fire)] {
            assert_eq!(Guard::decode(&guard.encode()), guard);
        }
    }
    assert_eq!(FIRE.to_string(), "cron-100000");
    assert_eq!(FireId::trigger(5, 6).to_string(), "trigger-5-6");
    assert_eq!(String::from_utf8(claimed(FIRE, LIVE).encode()).unwrap(), "claimed:cron-100000:10.0.0.2@-@2");
    assert_eq!(String::from_utf8(Mark { fire: FIRE, failed: true }.encode()).unwrap(), "cron-100000:failed");
    // ElasticJob's empty nodes and garbage: no mark, a free root.
    for junk in [&b""[..], b"x", b"cron-", b"cron-1x", b"trigger-1", b"\xff", b"claimed:cron-1:", b"done:"] {
        assert_eq!(Mark::decode(junk), None, "{junk:?}");
        assert_eq!(Guard::decode(junk), Guard::Free, "{junk:?}");
    }
}

#[test]
fn marks_overwrite_existing_nodes_and_create_missing_parents() {
    let paths = JobPaths::new("j");
    let phase = GuaranteePhase::Started;
    let marks = [(0, ok(FIRE)), (1, Mark { fire: FIRE, failed: true })];
    let ops = mark_ops(&paths, phase, &marks, (false, false), |i| i == 0);
    let create = |path: &str, data: &str| Op::Create { path: path.into(), data: data.into(), mode: Mode::Persistent };
    assert_eq!(
        ops,
        [
            create("/j/guarantee", ""),
            create("/j/guarantee/started", ""),
            Op::Set { path: "/j/guarantee/started/0".into(), data: b"cron-100000".to_vec(), version: None },
            create("/j/guarantee/started/1", "cron-100000:failed"),
        ]
    );
    assert_eq!(mark_ops(&paths, phase, &marks[..1], (true, true), |_| true).len(), 1);
}
