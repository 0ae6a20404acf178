//! Table tests of the reactions: events, duties and their steps, sessions, clock, reconcile,
//! configuration.

use super::*;
use crate::coord::snapshot::ItemSnapshot;
use crate::registry::codec::ServerStatus;
use crate::schedule::cron::{self, JobTimeZone};

const ME: &str = "10.0.0.1@-@1";
const OTHER: &str = "10.0.0.2@-@2";

fn created(p: &str) -> CacheEvent {
    CacheEvent::Created(p.into())
}

fn deleted(p: &str) -> CacheEvent {
    CacheEvent::Deleted(p.into())
}

fn changed(p: &str) -> CacheEvent {
    CacheEvent::Changed(p.into())
}

#[test]
fn event_rules() {
    let mut with_trigger = JobSnapshot::default();
    with_trigger.triggers.insert(ME.into());
    let empty = JobSnapshot::default();
    let r = |config: bool, own: bool, trig: bool| Reaction {
        config_changed: config,
        own_instance_deleted: own,
        triggered: trig,
        reevaluate: true,
    };
    let bookkeeping = Reaction::default();
    // (rule, events, view, expected)
    let rows: Vec<(&str, Vec<CacheEvent>, &JobSnapshot, Reaction)> = vec![
        ("nothing", vec![], &empty, bookkeeping),
        ("config changed", vec![changed("/j/config")], &empty, r(true, false, false)),
        ("config created", vec![created("/j/config")], &empty, r(true, false, false)),
        ("my instance deleted", vec![deleted(&format!("/j/instances/{ME}"))], &empty, r(false, true, false)),
        ("my instance changed: nothing", vec![changed(&format!("/j/instances/{ME}"))], &empty, r(false, false, false)),
        (
            "another instance deleted: nothing",
            vec![deleted(&format!("/j/instances/{OTHER}"))],
            &empty,
            r(false, false, false),
        ),
        ("a trigger for me", vec![created(&format!("/j/trigger/{ME}"))], &empty, r(false, false, true)),
        ("my trigger deleted: nothing", vec![deleted(&format!("/j/trigger/{ME}"))], &empty, r(false, false, false)),
        (
            "a trigger for another: nothing",
            vec![created(&format!("/j/trigger/{OTHER}"))],
            &empty,
            r(false, false, false),
        ),
        ("a running node: nothing", vec![created("/j/sharding/0/running")], &empty, r(false, false, false)),
        ("resync: reload config", vec![CacheEvent::Resynced], &empty, r(true, false, false)),
        (
            "resync with my trigger waiting: reload and trigger",
            vec![CacheEvent::Resynced],
            &with_trigger,
            r(true, false, true),
        ),
        (
            "a batch: everything at once",
            vec![changed("/j/config"), deleted(&format!("/j/instances/{ME}")), created(&format!("/j/trigger/{ME}"))],
            &empty,
            r(true, true, true),
        ),
        ("a path outside the layout: nothing", vec![created("/j/unknown/x")], &empty, r(false, false, false)),
        (
            "the registry clock probe: not even a re-evaluation",
            vec![changed("/j/systemTime/current")],
            &empty,
            bookkeeping,
        ),
        ("an item's last result: not even a re-evaluation", vec![created("/j/sharding/0/result")], &empty, bookkeeping),
        (
            "a failover latch node: not even a re-evaluation",
            vec![deleted("/j/leader/failover/latch/_c_x-latch-0000000001")],
            &empty,
            bookkeeping,
        ),
        (
            "bookkeeping with a running node: re-evaluate",
            vec![changed("/j/systemTime/current"), deleted("/j/sharding/0/running")],
            &empty,
            r(false, false, false),
        ),
    ];
    for (rule, events, view, expect) in rows {
        assert_eq!(react(&events, ME, || view.triggers.contains(ME)), expect, "rule: {rule}");
    }
}

fn view(leader: Option<&str>, my_server: &str, pending: bool) -> JobSnapshot {
    let mut v = JobSnapshot::default();
    v.instances.insert(ME.into(), None);
    v.instances.insert(OTHER.into(), None);
    v.servers.insert("10.0.0.1".into(), ServerStatus::decode(my_server.as_bytes()));
    v.servers.insert("10.0.0.2".into(), ServerStatus::Enabled);
    v.leader = leader.map(str::to_string);
    v.items.insert(0, ItemSnapshot { owner: Some(OTHER.into()), ..ItemSnapshot::default() });
    v.necessary = pending;
    v
}

#[test]
fn duty_rules() {
    let d =
        |resign, elect, failover, lead, pending| Duties { resign, elect, failover, lead, sharding_pending: pending };
    // (rule, view, failover on, monitoring, expected)
    let rows: Vec<(&str, JobSnapshot, bool, bool, Duties)> = vec![
        ("a follower, settled", view(Some(OTHER), "ENABLED", false), false, true, d(false, false, false, false, false)),
        ("the leader, settled", view(Some(ME), "ENABLED", false), false, true, d(false, false, false, true, false)),
        ("no leader: elect", view(None, "ENABLED", false), false, true, d(false, true, false, false, false)),
        (
            "no leader, my server disabled: do not elect",
            view(None, "DISABLED", false),
            false,
            true,
            d(false, false, false, false, false),
        ),
        (
            "the leader on a disabled server: resign, nothing else",
            view(Some(ME), "DISABLED", true),
            true,
            true,
            d(true, false, false, false, false),
        ),
        (
            "the leader on a server of unknown status: resign",
            view(Some(ME), "", false),
            false,
            true,
            d(true, false, false, false, false),
        ),
        (
            "failover on with monitoring",
            view(Some(OTHER), "ENABLED", false),
            true,
            true,
            d(false, false, true, false, false),
        ),
        (
            "failover on without monitoring: off",
            view(Some(OTHER), "ENABLED", false),
            true,
            false,
            d(false, false, false, false, false),
        ),
        ("resharding pending", view(Some(OTHER), "ENABLED", true), false, true, d(false, false, false, false, true)),
        (
            "the leader with resharding pending",
            view(Some(ME), "ENABLED", true),
            true,
            true,
            d(false, false, true, true, true),
        ),
    ];
    for (rule, v, failover, monitor, expect) in rows {
        assert_eq!(duties(&v, ME, 1, failover, monitor, true), expect, "rule: {rule}");
    }
    // A configuration that cannot run the job: no part in failover.
    let other_leads = view(Some(OTHER), "ENABLED", false);
    assert_eq!(duties(&other_leads, ME, 1, true, true, false), d(false, false, false, false, false));
    // An item without owner is pending too.
    let unowned = view(Some(OTHER), "ENABLED", false);
    assert!(duties(&unowned, ME, 2, false, true, true).sharding_pending);
}

#[test]
fn the_duties_steps_come_in_their_order() {
    use Duty::*;
    let duties =
        |resign, elect, failover, lead, sharding_pending| Duties { resign, elect, failover, lead, sharding_pending };
    let contend = Elect { elect: true, resign: false };
    let look = Elect { elect: false, resign: false };
    // (rule, duties, steps)
    let rows = [
        (
            "a follower, settled",
            duties(false, false, false, false, false),
            vec![NotLeading, look, HandBack, RunWaiting],
        ),
        (
            "no leader: contend",
            duties(false, true, false, false, false),
            vec![NotLeading, contend, HandBack, RunWaiting],
        ),
        (
            "the leader on a disabled server: resign, hand back, nothing else",
            duties(true, false, false, false, false),
            vec![NotLeading, Elect { elect: false, resign: true }, HandBack],
        ),
        (
            "failover before the sharding duty",
            duties(false, false, true, true, false),
            vec![look, HandBack, Failover, Lead, RunWaiting],
        ),
        (
            "resharding pending: fires wait",
            duties(false, false, true, false, true),
            vec![NotLeading, look, HandBack, Failover],
        ),
        ("the leader resharding", duties(false, false, false, true, true), vec![look, HandBack, Lead]),
    ];
    for (rule, duties, steps) in rows {
        assert_eq!(duties.steps(false), steps, "rule: {rule}");
    }
    // The injected bug: a follower shards, after failover and before the fires; a leader does
    // not twice.
    let follower = duties(false, false, true, false, false);
    assert_eq!(follower.steps(true), [NotLeading, look, HandBack, Failover, LeadUnchecked, RunWaiting]);
    let leader = duties(false, false, false, true, false);
    assert_eq!(leader.steps(true), [look, HandBack, Lead, RunWaiting]);
}

#[test]
fn session_rules() {
    let s = |state, id| SessionStatus { epoch: 0, session_id: id, state };
    // (rule, connected before, registered session, status, expected step, connected after)
    let rows = [
        (
            "connected → disconnected: down, say so",
            true,
            7,
            s(LinkState::Disconnected, 7),
            SessionStep::Down { was_up: true },
            false,
        ),
        (
            "still disconnected: down, quietly",
            false,
            7,
            s(LinkState::Disconnected, 7),
            SessionStep::Down { was_up: false },
            false,
        ),
        ("expired: down", true, 7, s(LinkState::Expired, 0), SessionStep::Down { was_up: true }, false),
        (
            "back in the same session: resume, say so",
            false,
            7,
            s(LinkState::Connected, 7),
            SessionStep::Resume { was_down: true },
            true,
        ),
        (
            "connected again while connected: resume",
            true,
            7,
            s(LinkState::Connected, 7),
            SessionStep::Resume { was_down: false },
            true,
        ),
        ("a new session: register", false, 7, s(LinkState::Connected, 8), SessionStep::Register, true),
        (
            "a new session while thought connected: register",
            true,
            7,
            s(LinkState::Connected, 8),
            SessionStep::Register,
            true,
        ),
    ];
    for (rule, before, registered, status, expect, after) in rows {
        let mut connected = before;
        assert_eq!(session(&mut connected, registered, status), expect, "rule: {rule}");
        assert_eq!(connected, after, "rule: {rule}");
    }
}

#[test]
fn own_instance_rules() {
    assert!(check_own_instance(true, 7, 7), "connected in the registered session: an operator may have done it");
    assert!(!check_own_instance(false, 7, 7), "disconnected: wait");
    assert!(!check_own_instance(true, 8, 7), "a new session: re-registration follows");
}

#[test]
fn clock_skew_rules() {
    // (rule, limit s, now ms, registry ms, expected)
    let rows = [
        ("check off", -1, 0, 999_999, None),
        ("within the limit", 5, 10_000, 6_000, None),
        ("exactly the limit", 5, 10_000, 5_000, None),
        ("over the limit, ahead", 5, 10_001, 5_000, Some(5_001)),
        ("over the limit, behind", 5, 0, 5_001, Some(5_001)),
        ("limit zero: any skew refuses", 0, 1, 0, Some(1)),
        ("limit zero, no skew", 0, 7, 7, None),
    ];
    for (rule, limit, now, registry, expect) in rows {
        assert_eq!(clock_skew(limit, now, registry), expect, "rule: {rule}");
    }
}

#[test]
fn reconcile_rules() {
    let min = |m: u64| Duration::from_secs(m * 60);
    // (rule, interval minutes, since last, due)
    let rows = [
        ("disabled", 0, min(100), false),
        ("negative means disabled", -1, min(100), false),
        ("not yet", 10, min(9), false),
        ("due", 10, min(10), true),
        ("overdue", 1, min(5), true),
    ];
    for (rule, interval, since, expect) in rows {
        assert_eq!(reconcile_due(interval, since), expect, "rule: {rule}");
    }
    // The timer a job keeps for it: none when disabled.
    assert_eq!(reconcile_interval(0), None);
    assert_eq!(reconcile_interval(-1), None);
    assert_eq!(reconcile_interval(10), Some(min(10)));
}

#[test]
fn configuration_transitions() {
    let gmt = cron::parse_time_zone("GMT").unwrap();
    let local = JobTimeZone::default();
    let sw = |monitor, failover, cron: Option<&'static str>, tz: &'static JobTimeZone| Switches {
        monitor_execution: monitor,
        failover,
        cron,
        time_zone: tz,
    };
    let gmt: &'static JobTimeZone = Box::leak(Box::new(gmt));
    let local: &'static JobTimeZone = Box::leak(Box::new(local));
    let t = |m, f, r| Transition { monitor_switched_off: m, failover_switched_off: f, reschedule: r };
    // (rule, old, new, expected)
    let rows = [
        ("first configuration: schedule", None, sw(true, true, Some("* * * * * ?"), local), t(false, false, true)),
        (
            "nothing changed",
            Some(sw(true, true, Some("* * * * * ?"), local)),
            sw(true, true, Some("* * * * * ?"), local),
            t(false, false, false),
        ),
        (
            "monitoring switched off",
            Some(sw(true, false, None, local)),
            sw(false, false, None, local),
            t(true, false, false),
        ),
        (
            "monitoring switched on: nothing to clear",
            Some(sw(false, false, None, local)),
            sw(true, false, None, local),
            t(false, false, false),
        ),
        (
            "failover switched off",
            Some(sw(true, true, None, local)),
            sw(true, false, None, local),
            t(false, true, false),
        ),
        (
            "cron changed: reschedule",
            Some(sw(true, false, Some("* * * * * ?"), local)),
            sw(true, false, Some("0/5 * * * * ?"), local),
            t(false, false, true),
        ),
        (
            "became one-off: reschedule",
            Some(sw(true, false, Some("* * * * * ?"), local)),
            sw(true, false, None, local),
            t(false, false, true),
        ),
        (
            "time zone changed: reschedule",
            Some(sw(true, false, Some("* * * * * ?"), local)),
            sw(true, false, Some("* * * * * ?"), gmt),
            t(false, false, true),
        ),
    ];
    for (rule, old, new, expect) in rows {
        assert_eq!(transition(old, new), expect, "rule: {rule}");
    }
}

#[test]
fn a_configuration_that_cannot_run_never_replaces_one_that_can() {
    // (items run under the new one, under the one in effect, what happens)
    let rows = [
        (true, true, Adoption::Adopt),
        (true, false, Adoption::Adopt),
        (false, true, Adoption::Keep),
        (false, false, Adoption::AdoptUnrunnable),
    ];
    for (runs, current_runs, expected) in rows {
        assert_eq!(adoption(runs, current_runs), expected, "runs {runs}, current runs {current_runs}");
    }
}
