use std::time::{Duration, Instant};

use super::*;
use crate::coord::strategy::Strategy;
use crate::registry::NodeData;

const A: &str = "10.0.0.1@-@1";
const B: &str = "10.0.0.2@-@1";
const NOW_MS: i64 = 1_700_000_000_000;

/// A job of `owners` among `instances` (both servers enabled), flagged or not.
fn job(instances: &[&str], owners: &[(u32, &str)], necessary: bool) -> JobSnapshot {
    crate::coord::leader::tests::view(instances, owners, necessary, &[])
}

/// The nodes a registry read of that job returns (for [`ShardEvent::Reread`]).
fn nodes(paths: &JobPaths, instances: &[&str], necessary: bool) -> Vec<TreeNode> {
    let node =
        |path: String, data: &[u8]| TreeNode { path, node: NodeData { data: data.to_vec(), stat: Default::default() } };
    let mut out = vec![node(paths.server("10.0.0.1"), b"ENABLED"), node(paths.server("10.0.0.2"), b"ENABLED")];
    out.extend(instances.iter().map(|id| node(paths.instance(id), b"")));
    if necessary {
        out.push(node(paths.sharding_necessary(), b""));
    }
    out
}

/// The leader's look at `view`, `after` past the test's epoch, with two items.
fn lead<'a>(view: &'a JobSnapshot, paths: &'a JobPaths, epoch: Instant, after: Duration) -> ShardEvent<'a> {
    ShardEvent::Lead(Look {
        view,
        sharding: Sharding {
            job: "j",
            total: 2,
            strategy: Strategy::AverageAllocation,
            static_sharding: false,
            monitor_execution: true,
        },
        paths,
        me: A,
        prefix: 0,
        budget: crate::registry::TRANSACTION_BUDGET,
        now: epoch + after,
        now_ms: NOW_MS + i64::try_from(after.as_millis()).unwrap_or_default(),
        // The middle of every backoff's range.
        random: u64::MAX / 2,
    })
}

/// Every action the sharder has, with the transactions of a write summarised as their count.
fn drain(s: &mut Sharder) -> Vec<String> {
    std::iter::from_fn(|| s.poll_action())
        .map(|a| match a {
            ShardAction::Write(transactions) => format!("Write({})", transactions.len()),
            ShardAction::RecordFailure(r) => {
                format!("RecordFailure({} since {}: {})", r.attempts, r.at - NOW_MS, r.error)
            }
            ShardAction::Resharded(assignment) => format!("Resharded({assignment:?})"),
            other => format!("{other:?}"),
        })
        .collect()
}

#[test]
fn a_leader_flags_a_stale_assignment_and_writes_it_in_one_round() {
    let paths = JobPaths::new("j");
    let epoch = Instant::now();
    let mut s = Sharder::new();
    let settled = job(&[A, B], &[(0, B), (1, A)], false);
    let stale = job(&[A, B], &[(0, A), (1, A)], false);
    let flagged = job(&[A, B], &[(0, A), (1, A)], true);
    let mut running = flagged.clone();
    running.items.entry(1).or_default().running = true;

    // (event, the actions it leaves)
    let script: Vec<(ShardEvent<'_>, Vec<&str>)> = vec![
        (lead(&settled, &paths, epoch, Duration::ZERO), vec![]),
        (lead(&stale, &paths, epoch, Duration::ZERO), vec!["Flag"]),
        (lead(&running, &paths, epoch, Duration::ZERO), vec![]),
        (lead(&flagged, &paths, epoch, Duration::ZERO), vec!["CreateMarker"]),
        (ShardEvent::MarkerCreated, vec!["ReadLeaves"]),
        (ShardEvent::Leaves(BTreeMap::new()), vec!["Write(1)"]),
        (ShardEvent::Written, vec![r#"Resharded([("10.0.0.2@-@1", [0]), ("10.0.0.1@-@1", [1])])"#]),
        // The cache still shows the flag: the sharding is written, not again.
        (lead(&flagged, &paths, epoch, Duration::ZERO), vec![]),
        (lead(&settled, &paths, epoch, Duration::ZERO), vec![]),
    ];
    for (i, (event, expected)) in script.into_iter().enumerate() {
        s.handle(event);
        assert_eq!(drain(&mut s), expected, "step {i}");
    }
    assert_eq!(s.poll_timeout(), None);
}

#[test]
fn the_marker_of_another_session_leaves_the_round_to_it() {
    let paths = JobPaths::new("j");
    let epoch = Instant::now();
    let flagged = job(&[A, B], &[(0, A), (1, A)], true);
    // (how the marker answers, the actions that follow)
    let rows: Vec<(&str, Vec<ShardEvent<'_>>, Vec<&str>)> = vec![
        (
            "exists, ours",
            vec![ShardEvent::MarkerExists, ShardEvent::MarkerOwned(true)],
            vec!["CheckMarker", "ReadLeaves"],
        ),
        ("exists, another's", vec![ShardEvent::MarkerExists, ShardEvent::MarkerOwned(false)], vec!["CheckMarker"]),
        ("the creation failed", vec![ShardEvent::MarkerFailed], vec![]),
        ("the check failed", vec![ShardEvent::MarkerExists, ShardEvent::MarkerFailed], vec!["CheckMarker"]),
    ];
    for (rule, answers, expected) in rows {
        let mut s = Sharder::new();
        s.handle(lead(&flagged, &paths, epoch, Duration::ZERO));
        assert_eq!(drain(&mut s), ["CreateMarker"], "{rule}");
        let mut actions = Vec::new();
        for answer in answers {
            s.handle(answer);
            actions.extend(drain(&mut s));
        }
        assert_eq!(actions, expected, "{rule}");
        // No marker of ours to delete, and the next look may start a round again.
        if !expected.contains(&"ReadLeaves") {
            s.handle(lead(&flagged, &paths, epoch, Duration::ZERO));
            assert_eq!(drain(&mut s), ["CreateMarker"], "{rule}");
        }
    }
}

#[test]
fn a_failed_write_is_retried_from_a_fresh_read_and_a_round_that_keeps_failing_backs_off() {
    let paths = JobPaths::new("j");
    let epoch = Instant::now();
    let flagged = job(&[A, B], &[(0, A), (1, A)], true);
    let mut s = Sharder::new();
    let round = |s: &mut Sharder, after: Duration| {
        s.handle(lead(&flagged, &paths, epoch, after));
        let mut actions = drain(s);
        for answer in [ShardEvent::MarkerCreated, ShardEvent::Leaves(BTreeMap::new())] {
            s.handle(answer);
            actions.extend(drain(s));
        }
        for _ in 0..SHARD_ATTEMPTS {
            s.handle(ShardEvent::WriteFailed("refused".into()));
            actions.extend(drain(s));
            if actions.last().is_some_and(|a| a == "Reread") {
                s.handle(ShardEvent::Reread(Some(nodes(&paths, &[A, B], true))));
                actions.extend(drain(s));
            }
        }
        actions
    };
    let writes_then_fails = |record: &str| {
        let mut expected = vec!["CreateMarker", "ReadLeaves", "Write(1)", "Reread", "Write(1)", "Reread", "Write(1)"];
        expected.extend([record, "DeleteMarker"]);
        expected.into_iter().map(String::from).collect::<Vec<_>>()
    };
    assert_eq!(round(&mut s, Duration::ZERO), writes_then_fails("RecordFailure(1 since 0: refused)"));
    // The first pause: in [50 ms, 100 ms]; the middle of it with these random bits.
    let first = s.poll_timeout().map(|at| at - epoch);
    assert_eq!(first, Some(Duration::from_millis(75)));
    // During the pause the flag stands and the round waits; after it, the next round goes.
    s.handle(lead(&flagged, &paths, epoch, Duration::from_millis(10)));
    assert_eq!(drain(&mut s), Vec::<String>::new());
    assert_eq!(round(&mut s, Duration::from_secs(1)), writes_then_fails("RecordFailure(2 since 0: refused)"));
    // The second pause backs off: in [50 ms, 200 ms].
    assert_eq!(s.poll_timeout().map(|at| at - epoch - Duration::from_secs(1)), Some(Duration::from_millis(125)));
    // A sharding completed (by anyone): the failure is over.
    s.handle(lead(&job(&[A, B], &[(0, B), (1, A)], false), &paths, epoch, Duration::from_secs(2)));
    assert_eq!(drain(&mut s), ["ClearFailure"]);
    assert_eq!(s.poll_timeout(), None);
}

#[test]
fn a_round_ends_when_the_flag_went_nobody_is_available_or_the_job_cannot_be_read() {
    let paths = JobPaths::new("j");
    let epoch = Instant::now();
    let flagged = job(&[A, B], &[(0, A), (1, A)], true);
    // (rule, the job the round starts on, the answers, the actions after the marker's creation)
    let rows: Vec<(&str, &JobSnapshot, Vec<ShardEvent<'_>>, Vec<&str>)> = vec![
        (
            "the re-read shows nobody available",
            &flagged,
            vec![
                ShardEvent::Leaves(BTreeMap::new()),
                ShardEvent::WriteFailed("behind".into()),
                ShardEvent::Reread(Some(nodes(&paths, &[], true))),
            ],
            vec!["Write(1)", "Reread", "RecordFailure(1 since 0: behind)", "DeleteMarker"],
        ),
        (
            "the re-read shows the flag gone",
            &flagged,
            vec![
                ShardEvent::Leaves(BTreeMap::new()),
                ShardEvent::WriteFailed("behind".into()),
                ShardEvent::Reread(Some(nodes(&paths, &[A, B], false))),
            ],
            vec!["Write(1)", "Reread", "DeleteMarker"],
        ),
        (
            "the job is gone",
            &flagged,
            vec![ShardEvent::Leaves(BTreeMap::new()), ShardEvent::WriteFailed("gone".into()), ShardEvent::Reread(None)],
            vec!["Write(1)", "Reread", "RecordFailure(1 since 0: gone)", "DeleteMarker"],
        ),
        (
            "the re-read failed",
            &flagged,
            vec![ShardEvent::Leaves(BTreeMap::new()), ShardEvent::WriteFailed("lost".into()), ShardEvent::RereadFailed],
            vec!["Write(1)", "Reread", "RecordFailure(1 since 0: lost)", "DeleteMarker"],
        ),
    ];
    for (rule, view, answers, expected) in rows {
        let mut s = Sharder::new();
        s.handle(lead(view, &paths, epoch, Duration::ZERO));
        s.handle(ShardEvent::MarkerCreated);
        assert_eq!(drain(&mut s), ["CreateMarker", "ReadLeaves"], "{rule}");
        let mut actions = Vec::new();
        for answer in answers {
            s.handle(answer);
            actions.extend(drain(&mut s));
        }
        assert_eq!(actions, expected, "{rule}");
    }
}

#[test]
fn a_failure_is_the_next_leaders_business_once_this_instance_does_not_lead() {
    let paths = JobPaths::new("j");
    let epoch = Instant::now();
    let flagged = job(&[A, B], &[(0, A), (1, A)], true);
    let mut s = Sharder::new();
    s.handle(lead(&flagged, &paths, epoch, Duration::ZERO));
    for answer in [ShardEvent::MarkerCreated, ShardEvent::Leaves(BTreeMap::new()), ShardEvent::WriteFailed("x".into())]
    {
        s.handle(answer);
    }
    s.handle(ShardEvent::RereadFailed);
    assert!(drain(&mut s).iter().any(|a| a.starts_with("RecordFailure")));
    s.handle(ShardEvent::NotLeading);
    assert_eq!(drain(&mut s), ["ClearFailure"]);
    assert_eq!(s.poll_timeout(), None);
    // Not twice.
    s.handle(ShardEvent::NotLeading);
    assert_eq!(drain(&mut s), Vec::<String>::new());
}

#[test]
fn a_sharding_too_large_for_one_request_is_written_in_several() {
    let paths = JobPaths::new("j");
    let epoch = Instant::now();
    let flagged = job(&[A, B], &[(0, A), (1, A)], true);
    let mut s = Sharder::new();
    let ShardEvent::Lead(look) = lead(&flagged, &paths, epoch, Duration::ZERO) else { return };
    s.handle(ShardEvent::Lead(Look { budget: 200, ..look }));
    s.handle(ShardEvent::MarkerCreated);
    s.handle(ShardEvent::Leaves(BTreeMap::new()));
    let actions = drain(&mut s);
    assert_eq!(actions[..2], ["CreateMarker", "ReadLeaves"]);
    assert!(actions[2].starts_with("Write(") && actions[2] != "Write(1)", "{actions:?}");
}
