use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::*;
use crate::registry::codec::{RefusedValue, ServerStatus};
use crate::schedule::cron;

const A: &str = "10.0.0.1@-@1";
const GONE: &str = "10.0.0.9@-@9";
const RESTART: &str = "restart the workers with its job file: ejctl run JOB_FILE   (a worker runs a job that was shut down or removed again only after a restart)";

fn t(s: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(1_700_000_000 + s, 0).unwrap()
}

/// A healthy job: one instance on an enabled server, leader, items 0..2 owned, each with an ok
/// result ended at `t(0)`.
fn healthy() -> JobSnapshot {
    let mut v = JobSnapshot::default();
    v.instances.insert(A.into(), None);
    v.servers.insert("10.0.0.1".into(), ServerStatus::Enabled);
    v.leader = Some(A.into());
    v.sharding_root = true;
    for i in 0..2 {
        v.items.insert(
            i,
            ItemSnapshot { owner: Some(A.into()), result: Some(result(RunOutcome::Ok, "")), ..ItemSnapshot::default() },
        );
    }
    v
}

fn result(outcome: RunOutcome, message: &str) -> ItemResult {
    ItemResult {
        v: 1,
        instance: A.into(),
        source: "cron".into(),
        fire_ms: Some(t(-1).timestamp_millis()),
        start_ms: Some(t(-1).timestamp_millis()),
        end_ms: t(0).timestamp_millis(),
        outcome,
        exit_code: None,
        signal: None,
        message: Some(message.to_string()).filter(|m| !m.is_empty()),
        stderr_tail: None,
        refused: Vec::new(),
    }
}

struct Case {
    name: &'static str,
    view: JobSnapshot,
    config: JobConfig,
    cron: Option<&'static str>,
    item: Option<u32>,
    now: i64,
    /// The codes expected, in order, and whether the first blocks.
    expect: Vec<Condition>,
    blocking: bool,
    fix: Option<&'static str>,
}

fn config() -> JobConfig {
    let mut c = JobConfig::new("j", 2);
    c.cron = Some("0/10 * * * * ?".into());
    c
}

fn case(name: &'static str, f: impl FnOnce(&mut JobSnapshot, &mut JobConfig)) -> Case {
    let mut view = healthy();
    let mut config = config();
    f(&mut view, &mut config);
    Case {
        name,
        view,
        config,
        cron: Some("0/10 * * * * ?"),
        item: None,
        now: 5,
        expect: Vec::new(),
        blocking: true,
        fix: None,
    }
}

fn run(c: &Case) -> Vec<Finding> {
    let paths = JobPaths::new("j");
    let parsed = c.cron.map(|e| cron::parse(e).unwrap());
    let tz = cron::parse_time_zone("GMT").unwrap();
    let mtimes = BTreeMap::new();
    let snapshot = Snapshot {
        paths: &paths,
        view: &c.view,
        config: Ok(&c.config),
        cron: parsed.as_ref().map(|p| (p, &tz)),
        mtimes: &mtimes,
        ctimes: &mtimes,
        now: t(c.now),
        item: c.item,
        fire: None,
        trace: None,
    };
    explain(&snapshot)
}

#[test]
fn each_condition() {
    let mut cases = vec![
        Case { expect: vec![Condition::WillRun], blocking: false, ..case("healthy", |_, _| {}) },
        Case {
            expect: vec![Condition::JobDisabled],
            fix: Some("ejctl job enable j"),
            ..case("job disabled on every server", |v, _| {
                v.servers.insert("10.0.0.1".into(), ServerStatus::Disabled);
            })
        },
        Case {
            // Its instances elect no leader: no second finding says so.
            expect: vec![Condition::JobDisabled],
            ..case("job disabled, no leader", |v, _| {
                v.servers.insert("10.0.0.1".into(), ServerStatus::Disabled);
                v.leader = None;
            })
        },
        Case {
            expect: vec![Condition::NoLiveInstance],
            fix: Some(RESTART),
            ..case("shut down: no instance", |v, _| {
                v.instances.clear();
            })
        },
        Case {
            expect: vec![Condition::AllServersDisabled],
            fix: Some("ejctl job enable j --server 10.0.0.1"),
            ..case("the only instance's server is disabled, another is enabled", |v, _| {
                v.servers.insert("10.0.0.1".into(), ServerStatus::Disabled);
                v.servers.insert("10.0.0.2".into(), ServerStatus::Enabled);
            })
        },
        Case {
            expect: vec![Condition::ItemDisabled],
            item: Some(1),
            fix: Some("ejctl sharding enable j 1"),
            ..case("item disabled", |v, _| {
                v.items.get_mut(&1).unwrap().disabled = true;
            })
        },
        Case {
            expect: vec![Condition::CronNeverFires],
            cron: Some("0 0 0 30 2 ?"),
            ..case("February 30th", |_, c| c.cron = Some("0 0 0 30 2 ?".into()))
        },
        Case {
            expect: vec![Condition::NeverTriggered],
            cron: None,
            fix: Some("ejctl job trigger j"),
            ..case("one-off never triggered", |v, c| {
                c.cron = None;
                for i in v.items.values_mut() {
                    i.result = None;
                }
            })
        },
        Case { expect: vec![Condition::NoLeader], ..case("no leader", |v, _| v.leader = None) },
        Case { expect: vec![Condition::ShardingPending], ..case("resharding flagged", |v, _| v.necessary = true) },
        Case {
            // One finding: the failure says why sharding is pending.
            expect: vec![Condition::CannotShard],
            ..case("sharding fails", |v, _| {
                v.necessary = true;
                v.sharding_failure = Some(crate::registry::codec::ShardingFailure::new(t(0), 2, "too large", A));
            })
        },
        Case {
            // A record without the flag is no record (the flag's deletion clears it).
            expect: vec![Condition::WillRun],
            blocking: false,
            ..case("sharding failed, then completed", |v, _| {
                v.sharding_failure = Some(crate::registry::codec::ShardingFailure::new(t(0), 2, "too large", A));
            })
        },
        Case {
            expect: vec![Condition::FailoverPending, Condition::WillRun],
            item: Some(0),
            blocking: false,
            fix: Some("ejctl failover list j"),
            ..case("owner gone, failover queued", |v, c| {
                c.failover = true;
                v.items.get_mut(&0).unwrap().owner = Some(GONE.into());
                v.failover_queue.insert(0);
            })
        },
        Case {
            expect: vec![Condition::OwnerGoneNoFailover],
            item: Some(0),
            fix: Some("ejctl config set j failover=true"),
            ..case("owner gone, failover off", |v, _| {
                v.items.get_mut(&0).unwrap().owner = Some(GONE.into());
            })
        },
        Case {
            expect: vec![Condition::StillRunning, Condition::WillRun],
            item: Some(0),
            blocking: false,
            ..case("still running, misfire owed", |v, _| {
                let i = v.items.get_mut(&0).unwrap();
                i.running = true;
                i.misfire = true;
            })
        },
        Case {
            expect: vec![Condition::StillRunning],
            item: Some(0),
            fix: Some("ejctl config set j misfire=true"),
            ..case("still running, misfire off", |v, c| {
                c.misfire = false;
                v.items.get_mut(&0).unwrap().running = true;
            })
        },
        Case {
            expect: vec![Condition::ClockSkew],
            item: Some(1),
            ..case("clock skew refusal", |v, _| {
                v.items.get_mut(&1).unwrap().result = Some(result(
                    RunOutcome::Refused,
                    "clock skew: this machine's clock is 90000 ms off the registry's, over maxTimeDiffSeconds = 10",
                ));
            })
        },
        Case {
            expect: vec![Condition::FireRefused],
            item: Some(1),
            ..case("refused: executor cannot be built", |v, _| {
                v.items.get_mut(&1).unwrap().result =
                    Some(result(RunOutcome::Refused, "the worker cannot run the job: script.command.line is missing"));
            })
        },
        Case {
            expect: vec![Condition::CommandRefused, Condition::WillRun],
            item: Some(0),
            blocking: false,
            fix: Some(
                "ejctl config set j props.script.command.line='/opt/job.sh --all'   (or, to run the registry's, allow_registry_commands = true in the worker's job file, then restart it)",
            ),
            ..case("the registry's command refused: the job file's ran", |v, c| {
                c.props.insert("script.command.line".into(), "/tmp/evil.sh".into());
                v.items.get_mut(&0).unwrap().result.as_mut().unwrap().refused = vec![RefusedValue {
                    prop: "script.command.line".into(),
                    registry: Some("/tmp/evil.sh".into()),
                    job_file: Some("/opt/job.sh --all".into()),
                }];
            })
        },
        Case {
            expect: vec![Condition::WillRun],
            item: Some(0),
            blocking: false,
            ..case("a refusal the registry no longer calls for: set back to the job file's", |v, c| {
                c.props.insert("script.command.line".into(), "/opt/job.sh".into());
                v.items.get_mut(&0).unwrap().result.as_mut().unwrap().refused = vec![RefusedValue {
                    prop: "script.command.line".into(),
                    registry: Some("/tmp/evil.sh".into()),
                    job_file: Some("/opt/job.sh".into()),
                }];
            })
        },
        Case {
            expect: vec![Condition::InstancesSilent],
            now: 60,
            ..case("registered but silent for several periods", |_, _| {})
        },
        Case {
            expect: vec![Condition::SlowRuns, Condition::WillRun],
            item: Some(0),
            blocking: false,
            fix: Some("ejctl history j --item 0"),
            ..case("a run longer than the cron's period", |v, _| {
                let r = v.items.get_mut(&0).unwrap().result.as_mut().unwrap();
                r.start_ms = Some(t(-25).timestamp_millis());
            })
        },
        Case {
            expect: vec![Condition::LastRunFailed, Condition::WillRun],
            item: Some(1),
            blocking: false,
            fix: Some("ejctl history j --item 1 --output-tail"),
            ..case("last run failed", |v, _| {
                v.items.get_mut(&1).unwrap().result = Some(result(RunOutcome::Failed, "exit code 1"));
            })
        },
    ];
    for c in &mut cases {
        let findings = run(c);
        let codes: Vec<Condition> = findings.iter().map(|f| f.code).collect();
        assert_eq!(codes, c.expect, "{}: {findings:#?}", c.name);
        assert_eq!(findings[0].blocking, c.blocking, "{}", c.name);
        if let Some(fix) = c.fix {
            assert_eq!(findings[0].fix.as_deref(), Some(fix), "{}", c.name);
        }
        assert!(!findings[0].message.is_empty());
    }
}

#[test]
fn refused_values_the_fix_spells_or_cannot() {
    let mut c = case("", |_, _| {});
    c.item = Some(1);
    let refused = |job_file: Option<&str>| RefusedValue {
        prop: "http.data".into(),
        registry: Some("x=1".into()),
        job_file: job_file.map(str::to_string),
    };
    // Unset in the job file: the fix removes it; a quote in a value is escaped.
    c.config.props.insert("http.data".into(), "x=1".into());
    c.view.items.get_mut(&1).unwrap().result.as_mut().unwrap().refused =
        vec![refused(None), RefusedValue { prop: "http.uri".into(), ..refused(Some("http://h/it's")) }];
    let f = run(&c);
    assert_eq!(f[0].code, Condition::CommandRefused);
    let fix = f[0].fix.as_deref().unwrap();
    assert!(fix.starts_with("ejctl config set j props.http.data= props.http.uri='http://h/it'\\''s'   (or"), "{fix}");
    assert!(f[0].message.contains("http.data: the registry has 'x=1', the job file (unset)"), "{}", f[0].message);
    assert_eq!(f[0].evidence[0].node, "/j/sharding/1/result");
    assert_eq!(f[0].evidence[0].at, Some(t(0)));
    // A value cut at the cap cannot be spelled back.
    let long = "a".repeat(crate::registry::codec::result::REFUSED_VALUE_CAP);
    c.view.items.get_mut(&1).unwrap().result.as_mut().unwrap().refused = vec![refused(Some(&long))];
    let f = run(&c);
    assert!(f[0].fix.as_deref().unwrap().starts_with("ejctl config edit j   (set the refused"), "{:?}", f[0].fix);
    // The error handler's type: spelled with its job-file key; a URL with a token is masked and
    // not spelled back.
    let handler = |prop: &str, registry: &str, job_file: &str| RefusedValue {
        prop: prop.into(),
        registry: Some(registry.into()),
        job_file: Some(job_file.into()),
    };
    c.view.items.get_mut(&1).unwrap().result.as_mut().unwrap().refused =
        vec![handler("jobErrorHandlerType", "EMAIL", "WEBHOOK")];
    let f = run(&c);
    assert!(f[0].message.contains("notified its job file's error handler for item 1"), "{}", f[0].message);
    assert_eq!(
        f[0].fix.as_deref(),
        Some(
            "ejctl config set j job_error_handler_type=WEBHOOK   (or, to notify the registry's, allow_registry_error_handler = true in the worker's job file, then restart it)"
        )
    );
    c.view.items.get_mut(&1).unwrap().result.as_mut().unwrap().refused =
        vec![handler("webhook.url", "https://evil/?token=x", "https://h/?token=mine"), refused(None)];
    let f = run(&c);
    assert!(f[0].message.contains("used its job file's command and error handler"), "{}", f[0].message);
    assert!(f[0].message.contains("'https://h/?token=****'") && !f[0].message.contains("mine"), "{}", f[0].message);
    let fix = f[0].fix.as_deref().unwrap();
    assert!(fix.starts_with("ejctl config edit j"), "{fix}");
    assert!(fix.contains("allow_registry_commands = true and allow_registry_error_handler = true"), "{fix}");
    // Every item refusing the same values on the same worker: one finding naming them.
    c.item = None;
    for item in [0, 1] {
        c.view.items.get_mut(&item).unwrap().result.as_mut().unwrap().refused = vec![refused(None)];
    }
    let f: Vec<Finding> = run(&c).into_iter().filter(|f| f.code == Condition::CommandRefused).collect();
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].item, None);
    assert!(f[0].message.contains("for items 0,1, not the registry's"), "{}", f[0].message);
    assert_eq!(f[0].evidence.len(), 2);
}

#[test]
fn unreadable_config_and_past_fires() {
    let paths = JobPaths::new("j");
    let view = healthy();
    let mtimes = BTreeMap::new();
    let every_second = cron::parse("* * * * * ?").unwrap();
    let tz = cron::parse_time_zone("GMT+08:00").unwrap();
    let base = Snapshot {
        paths: &paths,
        view: &view,
        config: Err("bad yaml"),
        cron: Some((&every_second, &tz)),
        mtimes: &mtimes,
        ctimes: &mtimes,
        now: t(5),
        item: None,
        fire: None,
        trace: None,
    };
    let f = explain(&base);
    assert_eq!(f.len(), 1);
    assert_eq!((f[0].code, f[0].fix.as_deref()), (Condition::ConfigUnreadable, Some("ejctl config edit j")));

    let config = config();
    let run = |item: u32, start: i64| TracedRun {
        node: format!("trace:r{item}"),
        item,
        fire: t(start),
        start: t(start),
        end: Some(t(start + 1)),
        source: "cron".into(),
        outcome: Some("ok".into()),
        instance: A.into(),
    };
    let runs = vec![run(0, -10), run(1, -20), run(1, -4)];
    let trace = Trace { runs: &runs, ran_before: true, known_until: None };
    // The past fire's findings (the job's own come first when they block).
    let of_fire = |f: Vec<Finding>| -> Vec<Finding> {
        f.into_iter().filter(|f| serde_json::to_string(&f.code).unwrap().starts_with("\"fire_")).collect()
    };
    let at = |fire: i64, item: u32| {
        of_fire(explain(&Snapshot {
            config: Ok(&config),
            item: Some(item),
            fire: Some(t(fire)),
            trace: Some(trace),
            ..base
        }))
    };
    let f = at(-10, 0);
    assert_eq!(f[0].code, Condition::FireInTime);
    assert_eq!(f[0].evidence[0].node, "trace:r0");
    // Times read in the job's zone.
    assert!(f[0].message.contains("+08:00"), "{}", f[0].message);
    let f = at(-10, 1);
    assert_eq!(f[0].code, Condition::FireCoveredLate, "{f:?}");
    assert!(f[0].message.contains("covered late, 6s after it"), "{}", f[0].message);
    let f = at(-5, 0);
    assert_eq!(f[0].code, Condition::FireNotRun);
    assert_eq!(f[0].fix.as_deref(), Some(format!("ejctl history j --item 0 --since {}", rfc3339(&t(-5))).as_str()));
    // Every item alike: one finding.
    let f = of_fire(explain(&Snapshot { config: Ok(&config), fire: Some(t(60)), trace: Some(trace), ..base }));
    assert_eq!(f.iter().map(|f| (f.code, f.item)).collect::<Vec<_>>(), [(Condition::FireNotDue, None)]);
}
