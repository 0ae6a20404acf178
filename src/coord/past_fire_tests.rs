use chrono::{DateTime, TimeDelta, Utc};
use proptest::prelude::*;

use super::*;
use crate::schedule::cron;

const B: &str = "10.0.0.2@-@28109";
const C: &str = "10.0.0.3@-@311";

/// An even instant, so that `0/2 * * * * ?` in GMT fires at every even `ms / 1000`.
fn t(ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(1_700_000_000_000 + ms).unwrap()
}

fn run(start: i64, end: Option<i64>, source: &str, outcome: Option<&str>, instance: &str) -> TracedRun {
    TracedRun {
        node: format!("trace:{start}"),
        item: 0,
        fire: t(start - start.rem_euclid(2000)),
        start: t(start),
        end: end.map(t),
        source: source.into(),
        outcome: outcome.map(str::to_string),
        instance: instance.into(),
    }
}

fn traced(runs: Vec<TracedRun>) -> ItemRuns {
    ItemRuns { runs, known_since: None, known_until: None }
}

fn check_at(fire: i64, runs: &ItemRuns) -> Verdict {
    let cron = cron::parse("0/2 * * * * ?").unwrap();
    let tz = cron::parse_time_zone("GMT").unwrap();
    let facts = JobFacts {
        cron: Some((&cron, &tz)),
        now: t(60_000),
        created: Some(t(0)),
        registered: Some(t(0)),
        ran_before: Some(true),
    };
    check(t(fire), &facts, runs)
}

#[test]
fn a_dead_owner_s_fires_are_not_covered_in_time_and_the_verdict_says_whose() {
    // B ran the item at 14 s and was killed at 15 s; its session stayed open; C ran it at 24 s.
    let runs = traced(vec![
        run(14_000, Some(14_500), "cron", Some("ok"), B),
        run(24_000, Some(24_200), "cron", Some("ok"), C),
    ]);
    let v = check_at(16_000, &runs);
    let Verdict::Late { run, cause: LateCause::OwnerChanged(last) } = &v else { panic!("{v:?}") };
    assert_eq!((run.instance.as_str(), last.instance.as_str()), (C, B));
    let tz = cron::parse_time_zone("GMT").unwrap();
    let message = v.message(t(16_000), Some(2), Some("0/2 * * * * ?"), &tz);
    assert!(message.contains("covered late, 8s after it"), "{message}");
    assert!(message.contains(&format!("{B} ran the item last")), "{message}");
    // The run at 24 s ran its own fire in time.
    assert!(matches!(check_at(24_000, &runs), Verdict::InTime(r) if r.start == t(24_000)));
    // 17 s is not a fire time; the fires around it are named.
    assert_eq!(check_at(17_000, &runs), Verdict::NotAFireTime { previous: Some(t(16_000)), next: Some(t(18_000)) });
    let message = check_at(17_000, &runs).message(t(17_000), None, Some("0/2 * * * * ?"), &tz);
    assert!(message.ends_with("+00:00 and 2023-11-14 22:13:38 +00:00"), "{message}");
    // After the last run: not run, and the last run before it is named.
    let v = check_at(26_000, &runs);
    assert!(matches!(&v, Verdict::NotRun { last: Some(r), .. } if r.instance == C), "{v:?}");
    assert_eq!(check_at(70_000, &runs), Verdict::NotDue);
}

#[test]
fn before_the_job_or_any_instance() {
    let cron = cron::parse("0/2 * * * * ?").unwrap();
    let tz = cron::parse_time_zone("GMT").unwrap();
    let runs = traced(vec![run(30_000, Some(30_100), "cron", Some("ok"), C)]);
    let facts = JobFacts {
        cron: Some((&cron, &tz)),
        now: t(60_000),
        created: Some(t(10_000)),
        registered: Some(t(20_000)),
        ran_before: Some(false),
    };
    assert_eq!(check(t(4_000), &facts, &runs), Verdict::BeforeJob { created: t(10_000) });
    assert_eq!(check(t(12_000), &facts, &runs), Verdict::NoInstance { registered: t(20_000) });
    // With a run before the fire in the trace, an instance was there.
    let facts = JobFacts { ran_before: Some(true), ..facts };
    assert!(matches!(check(t(12_000), &facts, &runs), Verdict::Late { .. }));
}

#[test]
fn late_causes() {
    // Busy until 15.5 s; the misfire run at 15.6 s coalesced 12 and 14.
    let runs = traced(vec![
        run(10_000, Some(15_500), "cron", Some("ok"), B),
        run(15_600, Some(15_700), "misfire", Some("ok"), B),
    ]);
    assert!(matches!(check_at(12_000, &runs), Verdict::Late { cause: LateCause::Busy(r), .. } if r.start == t(10_000)));
    // A killed run first: the fire stayed owed.
    let runs = traced(vec![
        run(10_000, Some(10_500), "cron", Some("ok"), B),
        run(12_000, Some(12_100), "cron", Some("killed"), B),
        run(16_000, Some(16_100), "cron", Some("ok"), B),
    ]);
    assert!(matches!(check_at(12_000, &runs), Verdict::Late { cause: LateCause::Killed, .. }));
    // Owed and run as a misfire by the same owner.
    let runs = traced(vec![run(10_000, Some(10_500), "cron", Some("ok"), B), run(17_000, None, "misfire", None, B)]);
    assert!(matches!(check_at(12_000, &runs), Verdict::Late { cause: LateCause::Owed, .. }));
}

#[test]
fn without_a_trace_only_the_last_run_and_the_run_in_progress_are_known() {
    let last = run(20_000, Some(20_500), "cron", Some("ok"), B);
    let runs = ItemRuns { runs: vec![last], known_since: Some(t(20_000)), known_until: None };
    assert!(matches!(check_at(20_000, &runs), Verdict::InTime(_)));
    assert!(matches!(check_at(16_000, &runs), Verdict::Unknown(_)));
    // A known run within the lateness bound: whichever run covered it was in time.
    assert!(matches!(check_at(18_000, &runs), Verdict::InTime(_)));
    assert!(matches!(check_at(22_000, &runs), Verdict::NotRun { .. }));
    // The read stopped at its limit before any run of the item: not known.
    let runs = ItemRuns { runs: Vec::new(), known_since: None, known_until: Some(t(30_000)) };
    assert!(matches!(check_at(22_000, &runs), Verdict::Unknown(_)));
}

#[test]
fn a_one_off_job_fires_only_when_triggered() {
    let tz = cron::parse_time_zone("GMT").unwrap();
    let facts = JobFacts { cron: None, now: t(60_000), created: None, registered: None, ran_before: Some(true) };
    let runs = traced(vec![run(10_000, Some(10_100), "trigger", Some("ok"), B)]);
    assert!(matches!(check(t(10_000), &facts, &runs), Verdict::InTime(_)));
    let v = check(t(11_000), &facts, &runs);
    assert_eq!(v, Verdict::NotAFireTime { previous: None, next: None });
    assert!(v.message(t(11_000), None, None, &tz).contains("runs only when triggered"));
}

#[test]
fn the_previous_fire_of_a_rare_cron() {
    let cron = cron::parse("0 0 3 1 * ?").unwrap();
    let tz = cron::parse_time_zone("GMT").unwrap();
    let at = DateTime::parse_from_rfc3339("2026-11-28T12:00:00Z").unwrap().with_timezone(&Utc);
    let previous = DateTime::parse_from_rfc3339("2026-11-01T03:00:00Z").unwrap().with_timezone(&Utc);
    assert_eq!(previous_fire(&cron, &tz, at), Some(previous));
    assert!(is_fire_time(&cron, &tz, previous));
    assert!(!is_fire_time(&cron, &tz, previous + TimeDelta::milliseconds(1)));
}

/// What the brute-force reading says: the kind of verdict, the covering run's start, and whether
/// the item was busy at the fire.
#[derive(Debug, PartialEq, Eq)]
enum Reading {
    NotDue,
    NotAFireTime,
    BeforeJob,
    NoInstance,
    InTime(DateTime<Utc>),
    Late(DateTime<Utc>, bool),
    NotRun,
}

/// Reads a history the long way: every run checked against the definition of the delivery
/// guarantee, no sorting, no search.
fn brute_force(
    fire: DateTime<Utc>,
    now: DateTime<Utc>,
    created: DateTime<Utc>,
    registered: DateTime<Utc>,
    runs: &[TracedRun],
) -> Reading {
    if fire > now {
        return Reading::NotDue;
    }
    let ms = fire.timestamp_millis();
    if ms % 1000 != 0 || (ms / 1000) % 2 != 0 {
        return Reading::NotAFireTime;
    }
    if created > fire {
        return Reading::BeforeJob;
    }
    if !runs.iter().any(|r| r.start < fire) && registered > fire {
        return Reading::NoInstance;
    }
    let mut cover: Option<&TracedRun> = None;
    for r in runs {
        if r.start >= fire
            && r.outcome.as_deref() != Some("killed")
            && cover.is_none_or(|c| (r.start, &r.node) < (c.start, &c.node))
        {
            cover = Some(r);
        }
    }
    let mut last: Option<&TracedRun> = None;
    for r in runs {
        if r.start < fire && last.is_none_or(|l| (r.start, &r.node) > (l.start, &l.node)) {
            last = Some(r);
        }
    }
    match cover {
        None => Reading::NotRun,
        Some(c) if c.start - fire <= TimeDelta::seconds(2) => Reading::InTime(c.start),
        Some(c) => Reading::Late(c.start, last.is_some_and(|l| l.end.is_none_or(|e| e > fire))),
    }
}

fn reading(v: &Verdict) -> Option<Reading> {
    Some(match v {
        Verdict::NotDue => Reading::NotDue,
        Verdict::NotAFireTime { .. } => Reading::NotAFireTime,
        Verdict::BeforeJob { .. } => Reading::BeforeJob,
        Verdict::NoInstance { .. } => Reading::NoInstance,
        Verdict::InTime(r) => Reading::InTime(r.start),
        Verdict::Late { run, cause } => Reading::Late(run.start, matches!(cause, LateCause::Busy(_))),
        Verdict::NotRun { .. } => Reading::NotRun,
        Verdict::Unknown(_) => return None,
    })
}

/// A history of one item: runs one after another (gap before, duration, source, outcome,
/// instance); the last may still run.
fn history() -> impl Strategy<Value = Vec<TracedRun>> {
    prop::collection::vec((0i64..9_000, 1i64..7_000, 0usize..4, 0usize..3, 0usize..3), 0..12).prop_map(|steps| {
        let mut at = 0;
        let count = steps.len();
        steps
            .into_iter()
            .enumerate()
            .map(|(n, (gap, duration, source, outcome, instance))| {
                let start = at + gap;
                at = start + duration;
                let running = n + 1 == count && outcome == 2;
                let outcome = if running { None } else { Some(["ok", "failed", "killed"][outcome]) };
                let source = ["cron", "trigger", "misfire", "failover"][source];
                run(start, (!running).then_some(at), source, outcome, [B, C, "10.0.0.4@-@4"][instance])
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x7768_7966_6972),
        ..ProptestConfig::default()
    })]

    /// With the trace, the checker's verdict is the brute-force reading of the same history.
    #[test]
    fn the_verdict_is_the_brute_force_reading(
        runs in history(),
        fire in prop_oneof![(0i64..40).prop_map(|s| s * 2000), 0i64..80_000],
        created in 0i64..20_000,
        registered in 0i64..30_000,
    ) {
        let cron = cron::parse("0/2 * * * * ?").unwrap();
        let tz = cron::parse_time_zone("GMT").unwrap();
        let now = t(70_000);
        let ran_before = runs.iter().any(|r| r.start < t(fire));
        let facts = JobFacts { cron: Some((&cron, &tz)), now, created: Some(t(created)), registered: Some(t(registered)), ran_before: Some(ran_before) };
        let verdict = check(t(fire), &facts, &traced(runs.clone()));
        prop_assert_eq!(reading(&verdict), Some(brute_force(t(fire), now, t(created), t(registered), &runs)), "{:?}", verdict);
    }

    /// Without the trace (the item's last ended run and its run in progress only), the checker
    /// says what the brute-force reading of the whole history says, or that it cannot tell: never
    /// something else.
    #[test]
    fn without_the_trace_the_verdict_is_true_or_unknown(
        runs in history(),
        fire in prop_oneof![(0i64..40).prop_map(|s| s * 2000), 0i64..80_000],
    ) {
        let cron = cron::parse("0/2 * * * * ?").unwrap();
        let tz = cron::parse_time_zone("GMT").unwrap();
        let now = t(70_000);
        let facts = JobFacts { cron: Some((&cron, &tz)), now, created: None, registered: None, ran_before: None };
        let last = runs.iter().filter(|r| r.end.is_some()).max_by_key(|r| r.start).cloned();
        let running = runs.iter().find(|r| r.end.is_none()).cloned();
        let known: Vec<TracedRun> = last.into_iter().chain(running).collect();
        let known_since = known.iter().map(|r| r.start).min().unwrap_or(now);
        let verdict = check(t(fire), &facts, &ItemRuns { runs: known, known_since: Some(known_since), known_until: None });
        let truth = brute_force(t(fire), now, t(-1), t(-1), &runs);
        let said = reading(&verdict);
        // Without the history before the last run, a late verdict's cause may be unknown, and
        // An earlier run than the first known one may have covered an in-time fire.
        let same = match (&said, &truth) {
            (Some(Reading::Late(a, _)), Reading::Late(b, _)) => a == b,
            (Some(Reading::InTime(_)), Reading::InTime(_)) => true,
            (Some(s), truth) => s == truth,
            (None, _) => true,
        };
        prop_assert!(same, "said {:?}, truth {:?}", verdict, truth);
    }
}
