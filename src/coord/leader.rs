//! The leader's sharding duty (docs/src/design/compatibility.md#sharding, made eager and atomic).
//!
//! The leader sets `leader/sharding/necessary` when the assignment no longer matches the live
//! instances ([`JobSnapshot::needs_resharding`]), and writes the new assignment in one transaction
//! ([`JobSnapshot::sharding_transaction`]) as soon as nothing is running. [`step`] decides which of
//! these is due; the runtime carries it out.
//!
//! A sharding too large for one ZooKeeper request ([`split`]) is written in several transactions,
//! in order, while the leader holds `leader/sharding/processing`: instances (ejctl's and Java's)
//! fire nothing while it exists, and the flag `necessary` goes only with the last of them — one
//! that fails leaves the job flagged, and the leader shards again from a fresh read.

use super::snapshot::JobSnapshot;
use super::strategy::Strategy;
use crate::registry::Op;

/// What the leader does now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaderStep {
    /// Nothing.
    Idle,
    /// The assignment is stale: set the resharding flag.
    Flag,
    /// Resharding is flagged but items are running (with monitoring): wait for them.
    WaitForRunning,
    /// Write the new assignment.
    Shard,
}

/// The sharding settings of a job.
#[derive(Debug, Clone, Copy)]
pub struct Sharding<'a> {
    /// The job name (the strategies hash it).
    pub job: &'a str,
    /// `shardingTotalCount`.
    pub total: u32,
    /// The strategy.
    pub strategy: Strategy,
    /// `staticSharding`.
    pub static_sharding: bool,
    /// `monitorExecution`: resharding waits for running items.
    pub monitor_execution: bool,
}

/// Decides the leader's step. `written` is true after a sharding transaction succeeded until the
/// cache shows its effect (the flag gone): meanwhile the leader does not shard again; it is
/// cleared here once the flag is seen gone.
pub fn step(view: &JobSnapshot, s: &Sharding<'_>, written: &mut bool) -> LeaderStep {
    if s.total == 0 {
        return LeaderStep::Idle;
    }
    if *written {
        if view.necessary {
            return LeaderStep::Idle;
        }
        *written = false;
    }
    if !view.necessary {
        return if view.needs_resharding(s.total, s.strategy, s.job, s.static_sharding) {
            LeaderStep::Flag
        } else {
            LeaderStep::Idle
        };
    }
    // Items beyond the count (it shrank) still hold their running nodes until they end.
    let existing = view.items.keys().copied().max().map_or(0, |m| m + 1).max(s.total);
    if s.monitor_execution && view.any_running(existing) {
        return LeaderStep::WaitForRunning;
    }
    if view.available_instances().is_empty() {
        return LeaderStep::Idle;
    }
    LeaderStep::Shard
}

/// How many times the leader re-reads the job and retries a sharding transaction that failed
/// (its cache was behind) before it gives up until the next change or reconcile.
pub const SHARD_ATTEMPTS: usize = 3;

/// Splits a sharding transaction (`ops`, its first op the namespace check) into transactions of
/// at most `budget` bytes ([`Op::encoded_size`], paths prefixed by `prefix` bytes), each starting
/// with the check, in the original order; one transaction when it fits. An op larger than the
/// budget on its own still gets a transaction (the server then refuses it).
pub fn split(ops: Vec<Op>, prefix: usize, budget: usize) -> Vec<Vec<Op>> {
    let total: usize = ops.iter().map(|op| op.encoded_size(prefix)).sum();
    if total <= budget {
        return vec![ops];
    }
    let mut ops = ops.into_iter();
    let Some(check) = ops.next() else { return Vec::new() };
    let base = check.encoded_size(prefix);
    let mut out: Vec<Vec<Op>> = Vec::new();
    let mut size = usize::MAX;
    for op in ops {
        let weight = op.encoded_size(prefix);
        if size.saturating_add(weight) > budget {
            out.push(vec![check.clone()]);
            size = base;
        }
        size += weight;
        if let Some(last) = out.last_mut() {
            last.push(op);
        }
    }
    out
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    #[test]
    fn a_large_sharding_is_split_in_order_each_part_checked_and_within_budget() {
        use crate::registry::Mode;
        let check = Op::Check { path: "/".into(), version: None };
        let mut ops = vec![check.clone()];
        for i in 0..1000 {
            ops.push(Op::Create { path: format!("/j/sharding/{i}"), data: Vec::new(), mode: Mode::Persistent });
            ops.push(Op::Create {
                path: format!("/j/sharding/{i}/instance"),
                data: b"10.0.0.1@-@1".to_vec(),
                mode: Mode::Persistent,
            });
        }
        ops.push(Op::Delete { path: "/j/leader/sharding/necessary".into(), version: None });
        let whole: usize = ops.iter().map(|op| op.encoded_size(10)).sum();
        assert_eq!(split(ops.clone(), 10, whole), vec![ops.clone()]);
        let parts = split(ops.clone(), 10, 64 * 1024);
        assert!(parts.len() > 1, "{whole}");
        for part in &parts {
            assert_eq!(part[0], check);
            assert!(part.iter().map(|op| op.encoded_size(10)).sum::<usize>() <= 64 * 1024);
        }
        let rejoined: Vec<Op> =
            std::iter::once(check.clone()).chain(parts.iter().flat_map(|p| p[1..].iter().cloned())).collect();
        assert_eq!(rejoined, ops);
        // The flag goes with the last part.
        assert_eq!(parts.last().and_then(|p| p.last()), ops.last());
    }
    use crate::coord::snapshot::ItemSnapshot;
    use crate::registry::codec::ServerStatus;

    const A: &str = "10.0.0.1@-@1";
    const B: &str = "10.0.0.2@-@1";

    /// A job of `owners` among `instances` (both servers enabled), flagged or not, with the
    /// `running` items running.
    pub(in crate::coord) fn view(
        instances: &[&str],
        owners: &[(u32, &str)],
        necessary: bool,
        running: &[u32],
    ) -> JobSnapshot {
        let mut v = JobSnapshot::default();
        for id in instances {
            v.instances.insert((*id).into(), None);
        }
        v.servers.insert("10.0.0.1".into(), ServerStatus::Enabled);
        v.servers.insert("10.0.0.2".into(), ServerStatus::Enabled);
        for (i, o) in owners {
            v.items.insert(
                *i,
                ItemSnapshot { owner: Some((*o).into()), running: running.contains(i), ..ItemSnapshot::default() },
            );
        }
        v.necessary = necessary;
        v
    }

    fn sharding(total: u32, monitor: bool) -> Sharding<'static> {
        Sharding {
            job: "j",
            total,
            strategy: Strategy::AverageAllocation,
            static_sharding: false,
            monitor_execution: monitor,
        }
    }

    #[test]
    fn leader_rules() {
        // AVG over [B, A] for 2 items: B gets 0, A gets 1.
        let settled = view(&[A, B], &[(0, B), (1, A)], false, &[]);
        let stale = view(&[A, B], &[(0, A), (1, A)], false, &[]);
        let flagged = view(&[A, B], &[(0, A), (1, A)], true, &[]);
        let flagged_running = view(&[A, B], &[(0, A), (1, A)], true, &[1]);
        let flagged_running_beyond = view(&[A, B], &[(0, A), (1, A), (2, A)], true, &[2]);
        let flagged_nobody = view(&[], &[(0, A)], true, &[]);
        let fresh = view(&[A], &[], false, &[]);
        // (rule, view, total, monitoring, written before, expected step, written after)
        let rows: Vec<(&str, &JobSnapshot, u32, bool, bool, LeaderStep, bool)> = vec![
            ("settled: idle", &settled, 2, true, false, LeaderStep::Idle, false),
            ("a count of zero: idle", &stale, 0, true, false, LeaderStep::Idle, false),
            ("stale assignment: flag it", &stale, 2, true, false, LeaderStep::Flag, false),
            ("count grew: flag it", &settled, 3, true, false, LeaderStep::Flag, false),
            ("a fresh job: flag it", &fresh, 2, true, false, LeaderStep::Flag, false),
            ("flagged, nothing running: shard", &flagged, 2, true, false, LeaderStep::Shard, false),
            ("flagged, an item running: wait", &flagged_running, 2, true, false, LeaderStep::WaitForRunning, false),
            (
                "flagged, an item running, no monitoring: shard",
                &flagged_running,
                2,
                false,
                false,
                LeaderStep::Shard,
                false,
            ),
            (
                "flagged, an item beyond the new count running: wait",
                &flagged_running_beyond,
                2,
                true,
                false,
                LeaderStep::WaitForRunning,
                false,
            ),
            ("flagged, nobody available: idle", &flagged_nobody, 2, true, false, LeaderStep::Idle, false),
            ("written, flag still seen: idle, stays written", &flagged, 2, true, true, LeaderStep::Idle, true),
            ("written, flag gone: cleared, then decided afresh", &settled, 2, true, true, LeaderStep::Idle, false),
            ("written, flag gone, stale again: flag", &stale, 2, true, true, LeaderStep::Flag, false),
        ];
        for (rule, v, total, monitor, written_before, expect, written_after) in rows {
            let mut written = written_before;
            assert_eq!(step(v, &sharding(total, monitor), &mut written), expect, "rule: {rule}");
            assert_eq!(written, written_after, "rule: {rule}");
        }
    }
}
