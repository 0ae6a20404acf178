//! Table tests of the run transactions: the exact ops, and what each outcome means.

use chrono::{DateTime, Duration, Utc};

use super::*;
use crate::registry::Stat;

fn t(ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(1_700_000_000_000 + ms).unwrap()
}

fn me() -> InstanceId {
    InstanceId::from_raw("10.0.0.1@-@1")
}

fn paths() -> JobPaths {
    JobPaths::new("j")
}

/// Ops as short strings: `create /j/sharding/0/running=10.0.0.1@-@1 (persistent)`.
fn show(ops: &[Op]) -> Vec<String> {
    ops.iter()
        .map(|op| match op {
            Op::Check { path, version } => {
                format!("check {path}{}", version.map(|v| format!(" v{v}")).unwrap_or_default())
            }
            Op::Create { path, data, mode } => {
                format!("create {path}={} ({})", String::from_utf8_lossy(data), format!("{mode:?}").to_lowercase())
            }
            Op::Set { path, data, .. } => format!("set {path}={}", String::from_utf8_lossy(data)),
            Op::Delete { path, version } => {
                format!("delete {path}{}", version.map(|v| format!(" v{v}")).unwrap_or_default())
            }
        })
        .collect()
}

fn node(data: &str, version: i32) -> NodeData {
    NodeData { data: data.as_bytes().to_vec(), stat: Stat { version, ..Stat::default() } }
}

#[test]
fn mark_running_with_failover_is_persistent_and_deletes_owed_misfires() {
    let ops = mark_running(&paths(), &me(), &[0, 2], &[2], true, t(5));
    assert_eq!(
        show(&ops),
        [
            "create /j/sharding/0/running=10.0.0.1@-@1 (persistent)",
            "set /j/sharding/0=1700000000005",
            "create /j/sharding/2/running=10.0.0.1@-@1 (persistent)",
            "set /j/sharding/2=1700000000005",
            "delete /j/sharding/2/misfire",
        ]
    );
}

#[test]
fn mark_running_without_failover_is_ephemeral() {
    let ops = mark_running(&paths(), &me(), &[1], &[], false, t(0));
    assert_eq!(
        show(&ops),
        ["create /j/sharding/1/running=10.0.0.1@-@1 (ephemeral)", "set /j/sharding/1=1700000000000"]
    );
    assert!(mark_running(&paths(), &me(), &[], &[], false, t(0)).is_empty());
}

#[test]
fn ending_runs() {
    let result = |item, exists| ResultWrite { item, data: b"{}".to_vec(), exists };
    assert_eq!(
        show(&clear_running(&paths(), &[0, 3], &[result(0, true), result(3, false)])),
        [
            "delete /j/sharding/0/running",
            "delete /j/sharding/3/running",
            "set /j/sharding/0/result={}",
            "create /j/sharding/3/result={} (persistent)"
        ]
    );
    assert_eq!(show(&clear_running(&paths(), &[1], &[])), ["delete /j/sharding/1/running"]);
    assert_eq!(
        show(&complete_failover(&paths(), &[4], &[result(4, false)])),
        [
            "delete /j/sharding/4/running",
            "delete /j/sharding/4/failover",
            "delete /j/sharding/4/failovering",
            "create /j/sharding/4/result={} (persistent)"
        ]
    );
    assert_eq!(show(&record_results(&paths(), &[result(2, true)])), ["set /j/sharding/2/result={}"]);
}

#[test]
fn owe_rules() {
    let fire = t(1000);
    // (rule, item node (data, version) or none, expected ops or None for covered)
    type Row = (&'static str, Option<(&'static str, i32)>, Option<Vec<&'static str>>);
    let rows: Vec<Row> = vec![
        ("a run started after the fire covers it", Some(("1700000001500", 4)), None),
        ("a run started exactly at the fire covers it", Some(("1700000001000", 4)), None),
        (
            "a run started before the fire: owed, checked against the stamp's version",
            Some(("1700000000999", 4)),
            Some(vec!["check /j/sharding/7 v4", "create /j/sharding/7/misfire=1700000001000 (persistent)"]),
        ),
        (
            "no stamp (ElasticJob's empty node): owed",
            Some(("", 0)),
            Some(vec!["check /j/sharding/7 v0", "create /j/sharding/7/misfire=1700000001000 (persistent)"]),
        ),
        (
            "garbage stamp: owed",
            Some(("soon", 2)),
            Some(vec!["check /j/sharding/7 v2", "create /j/sharding/7/misfire=1700000001000 (persistent)"]),
        ),
        (
            "no item node: owed without a check",
            None,
            Some(vec!["create /j/sharding/7/misfire=1700000001000 (persistent)"]),
        ),
    ];
    for (rule, item, expect) in rows {
        let item = item.map(|(d, v)| node(d, v));
        let got = owe(&paths(), 7, fire, item.as_ref());
        match expect {
            None => assert_eq!(got, Owe::Covered, "rule: {rule}"),
            Some(ops) => match got {
                Owe::Write(written) => assert_eq!(show(&written), ops, "rule: {rule}"),
                Owe::Covered => panic!("rule: {rule}: covered"),
            },
        }
    }
}

#[test]
fn a_stamp_within_the_fires_millisecond_covers_it() {
    // A trigger's instant has sub-millisecond precision; stamps have milliseconds.
    let fire = t(1000) + Duration::microseconds(500);
    assert_eq!(owe(&paths(), 0, fire, Some(&node("1700000001000", 1))), Owe::Covered);
}

#[test]
fn owe_outcomes() {
    let txn = |e: RegistryError| Err(RegistryError::Transaction { index: 1, source: Box::new(e) });
    let rows: Vec<(&str, Result<(), RegistryError>, OweOutcome)> = vec![
        ("written: owed", Ok(()), OweOutcome::Owed),
        ("misfire node exists: owed already", txn(RegistryError::NodeExists("m".into())), OweOutcome::Owed),
        ("stamp changed (a run started): decide again", txn(RegistryError::BadVersion("s".into())), OweOutcome::Retry),
        ("item node gone: decide again", txn(RegistryError::NoNode("s".into())), OweOutcome::Retry),
        ("connection lost: taken as owed", Err(RegistryError::ConnectionLoss), OweOutcome::Failed),
        ("session expired: taken as owed", Err(RegistryError::SessionExpired), OweOutcome::Failed),
    ];
    for (rule, result, expect) in rows {
        assert_eq!(owe_outcome(&result), expect, "rule: {rule}");
    }
}

#[test]
fn settle_rules() {
    // (rule, misfire data, run started, settles)
    let rows = [
        ("owed before the run started: settled", "1700000000500", 600, true),
        ("owed at the run's start: settled", "1700000000600", 600, true),
        ("owed after the run started: stays", "1700000000700", 600, false),
        ("ElasticJob's empty misfire node: any run settles it", "", 0, true),
        ("garbage: read as owed since ever, settled", "x", 0, true),
    ];
    for (rule, data, started, settles) in rows {
        let got = settle(&paths(), 1, t(started), &node(data, 3));
        assert_eq!(got.is_some(), settles, "rule: {rule}");
        if let Some(op) = got {
            assert_eq!(show(&[op]), ["delete /j/sharding/1/misfire v3"], "rule: {rule}");
        }
    }
}

#[test]
fn claim_is_one_transaction() {
    assert_eq!(
        show(&claim(&paths(), &me(), 5, t(9), None)),
        [
            "check /j/leader/failover/items/5",
            "create /j/sharding/5/failover=10.0.0.1@-@1 (ephemeral)",
            "create /j/sharding/5/failovering=10.0.0.1@-@1 (persistent)",
            "create /j/sharding/5/running=10.0.0.1@-@1 (persistent)",
            "set /j/sharding/5=1700000000009",
            "delete /j/leader/failover/items/5",
        ]
    );
    assert_eq!(
        show(&return_claim(&paths(), 5)),
        [
            "create /j/leader/failover/items/5= (persistent)",
            "delete /j/sharding/5/running",
            "delete /j/sharding/5/failover",
            "delete /j/sharding/5/failovering",
        ]
    );
}

#[test]
fn a_claim_checks_the_start_stamp_the_entry_recorded_before_it_stamps_its_own() {
    assert_eq!(
        show(&claim(&paths(), &me(), 5, t(9), Some(7))),
        [
            "check /j/leader/failover/items/5",
            "create /j/sharding/5/failover=10.0.0.1@-@1 (ephemeral)",
            "create /j/sharding/5/failovering=10.0.0.1@-@1 (persistent)",
            "create /j/sharding/5/running=10.0.0.1@-@1 (persistent)",
            "check /j/sharding/5 v7",
            "set /j/sharding/5=1700000000009",
            "delete /j/leader/failover/items/5",
        ]
    );
}

#[test]
fn claim_outcomes() {
    let txn = |index: usize| {
        Err(RegistryError::Transaction { index, source: Box::new(RegistryError::NodeExists("x".into())) })
    };
    let elasticjob = claim(&paths(), &me(), 5, t(9), None);
    let stamped = claim(&paths(), &me(), 5, t(9), Some(7));
    // (rule, the claim's ops, the transaction's result, the outcome)
    type Row<'a> = (&'a str, &'a [Op], Result<(), RegistryError>, ClaimOutcome);
    let rows: Vec<Row> = vec![
        ("applied: claimed", &stamped, Ok(()), ClaimOutcome::Claimed),
        ("entry gone (claimed by another): next", &stamped, txn(0), ClaimOutcome::Lost),
        ("failover node exists (another claim): next", &stamped, txn(1), ClaimOutcome::Lost),
        ("failovering exists: next", &stamped, txn(2), ClaimOutcome::Lost),
        ("running exists: the item runs again, the entry is spent", &stamped, txn(3), ClaimOutcome::Covered),
        ("the stamp changed: the item ran since, the entry is spent", &stamped, txn(4), ClaimOutcome::Covered),
        ("item node gone: next", &stamped, txn(5), ClaimOutcome::Lost),
        ("an ElasticJob entry, item node gone: next", &elasticjob, txn(4), ClaimOutcome::Lost),
        ("an ElasticJob entry, running exists: spent", &elasticjob, txn(3), ClaimOutcome::Covered),
        (
            "connection lost: failed",
            &stamped,
            Err(RegistryError::ConnectionLoss),
            ClaimOutcome::Failed(RegistryError::ConnectionLoss),
        ),
    ];
    for (rule, ops, result, expect) in rows {
        assert_eq!(claim_outcome(ops, result), expect, "rule: {rule}");
    }
}

#[test]
fn running_node_modes() {
    assert_eq!(running_mode(true), Mode::Persistent);
    assert_eq!(running_mode(false), Mode::Ephemeral);
}

#[test]
fn a_start_registers_in_one_transaction_what_the_cache_does_not_show() {
    let paths = JobPaths::new("j");
    let me = InstanceId::from_raw("10.0.0.1@-@1");
    let created = |ops: Option<Vec<Op>>| -> Option<Vec<String>> {
        ops.map(|ops| {
            ops.into_iter()
                .map(|op| match op {
                    Op::Create { path, mode, .. } => format!("{path} {mode:?}"),
                    other => format!("{other:?}"),
                })
                .collect()
        })
    };
    let status = ServerStatus::Enabled;
    // (rule, the nodes the cache shows, the transaction)
    type Row<'a> = (&'a str, Vec<String>, Option<Vec<&'a str>>);
    let rows: Vec<Row<'_>> = vec![
        ("the job root missing: node by node", vec![], None),
        (
            "a new job: every parent",
            vec![paths.root().to_string()],
            Some(vec![
                "/j/servers Persistent",
                "/j/servers/10.0.0.1 Persistent",
                "/j/runners Persistent",
                "/j/runners/10.0.0.1@-@1 Ephemeral",
                "/j/instances Persistent",
                "/j/instances/10.0.0.1@-@1 Ephemeral",
            ]),
        ),
        (
            "a known server: its node kept",
            vec![
                paths.root().to_string(),
                paths.servers(),
                paths.server("10.0.0.1"),
                paths.runners(),
                paths.instances(),
            ],
            Some(vec!["/j/runners/10.0.0.1@-@1 Ephemeral", "/j/instances/10.0.0.1@-@1 Ephemeral"]),
        ),
        ("the instance shown already: node by node", vec![paths.root().to_string(), paths.instance(me.as_str())], None),
        ("the runner shown already: node by node", vec![paths.root().to_string(), paths.runner(me.as_str())], None),
    ];
    for (rule, shown, expected) in rows {
        let cached = move |p: &str| shown.iter().any(|s| s == p);
        let got = created(registration(&paths, &me, &cached, &status, "info"));
        let expected = expected.map(|e| e.into_iter().map(String::from).collect::<Vec<_>>());
        assert_eq!(got, expected, "{rule}");
    }
}

#[test]
fn first_alone_rules() {
    let many = FIRST_ALONE_ABOVE + 1;
    // (rule, monitor, items, listeners, expected)
    let rows = [
        ("a large fire, monitored: the first item alone", true, many, false, true),
        ("a small fire: one transaction", true, FIRST_ALONE_ABOVE, false, false),
        ("no monitoring: no node to write", false, many, false, false),
        ("listener phases: every node at once", true, many, true, false),
    ];
    for (rule, monitor, items, listeners, expected) in rows {
        assert_eq!(first_alone(monitor, items, listeners), expected, "rule: {rule}");
    }
}
