//! The leader's sharding duty, carried out: [`crate::coord::leader::step`] decides, this room
//! writes the flag or the new assignment. Owns whether a sharding transaction was written that
//! the cache has not shown yet, and the count of sharding attempts that failed in a row.
//!
//! A sharding that does not complete is said beyond the worker's log: the leader writes its
//! record ([`ShardingFailure`]) into the resharding flag, which every view of the job reads
//! (`CANNOT_SHARD`), and its job's probe makes `/readyz` answer not ready. The record is best
//! effort — a registry that refuses the sharding may refuse it too — and goes with the flag when
//! a sharding completes; the probe is cleared then, or when the flag is seen gone or this
//! instance no longer leads.
//!
//! A failed round is retried after a pause that backs off with each failed round in a row
//! ([`retry::SHARDING`], jittered): the round's own writes (the `processing` marker, the record)
//! are changes that re-evaluate the job, so without it a transaction the registry keeps refusing
//! (a node nobody may write, one over `jute.maxbuffer`) was retried as fast as the registry
//! answered — some 200 rounds a second, four log lines and a dozen requests each.

use tokio::time::Instant;

use super::JobCtx;
use super::effective::Effective;
use crate::coord::leader::{self, LeaderStep, SHARD_ATTEMPTS};
use crate::coord::snapshot::{self, JobSnapshot};
use crate::coord::strategy;
use crate::ops::text::item_ranges;
use crate::registry::cache::TreeCache;
use crate::registry::codec::{self, ShardingFailure};
use crate::registry::{Mode, Op, RegistryError, TRANSACTION_BUDGET, path};
use crate::retry;

/// The leader's state of a job on this instance.
pub(super) struct Leader {
    /// A sharding transaction succeeded and the cache has not shown it yet: do not shard again.
    written: bool,
    /// The sharding attempts that failed in a row (0: the last one completed), and when the
    /// first of them did (epoch ms).
    failed: u32,
    failed_since_ms: i64,
    /// After a failed round: the next waits until then.
    retry_at: Option<Instant>,
}

impl Leader {
    pub(super) fn new() -> Leader {
        Leader { written: false, failed: 0, failed_since_ms: 0, retry_at: None }
    }

    /// When the next sharding round may go, after a failed one.
    pub(super) fn retry_at(&self) -> Option<Instant> {
        self.retry_at
    }

    /// The pause after a failed round is over, if it is.
    pub(super) fn retry(&mut self) {
        if self.retry_at.is_some_and(|at| at <= Instant::now()) {
            self.retry_at = None;
        }
    }

    /// Sets the resharding flag when the assignment is stale, and reshards as soon as nothing
    /// is running.
    pub(super) async fn duties(&mut self, ctx: &JobCtx, config: &Effective, cache: &TreeCache, view: &JobSnapshot) {
        if !view.necessary {
            // Whoever completed the sharding, it completed.
            self.forget_failures(ctx);
        }
        let step = leader::step(view, &config.sharding(ctx.name()), &mut self.written);
        if matches!(step, LeaderStep::Shard | LeaderStep::WaitForRunning)
            && self.retry_at.is_some_and(|at| at > Instant::now())
        {
            tracing::debug!(job = %ctx.name(), "sharding failed: the next round waits");
            return;
        }
        match step {
            LeaderStep::Idle => {}
            LeaderStep::Flag => {
                tracing::info!(job = %ctx.name(), "assignment is stale: resharding");
                if let Err(e) = flag(ctx, cache).await {
                    tracing::warn!(job = %ctx.name(), error = %e, "cannot set the resharding flag");
                }
            }
            #[cfg(feature = "injected-bugs")]
            LeaderStep::WaitForRunning if injected!(ctx.settings, ReshardWhileRunning) => {
                self.shard(ctx, config, cache, view).await;
            }
            LeaderStep::WaitForRunning => tracing::debug!(job = %ctx.name(), "resharding waits for running items"),
            LeaderStep::Shard => self.shard(ctx, config, cache, view).await,
        }
    }

    /// This instance does not lead: a failure it recorded is the next leader's business.
    pub(super) fn not_leading(&mut self, ctx: &JobCtx) {
        self.forget_failures(ctx);
    }

    fn forget_failures(&mut self, ctx: &JobCtx) {
        self.retry_at = None;
        if self.failed > 0 {
            self.failed = 0;
            ctx.probe.sharding_failed(None);
        }
    }

    /// Counts a sharding attempt that failed with `error`, says so in the resharding flag (best
    /// effort) and in the job's probe.
    async fn record_failure(&mut self, ctx: &JobCtx, error: &str) {
        if self.failed == 0 {
            self.failed_since_ms = ctx.now().timestamp_millis();
        }
        self.failed = self.failed.saturating_add(1);
        // The failed rounds in a row before this one: the count of the backoff.
        let before = u8::try_from(self.failed - 1).unwrap_or(u8::MAX);
        self.retry_at = Some(Instant::now() + retry::SHARDING.delay(before, ctx.settings.jitter.draw()));
        let since = chrono::DateTime::from_timestamp_millis(self.failed_since_ms).unwrap_or_default();
        let record = ShardingFailure::new(since, self.failed, error, ctx.me.as_str());
        tracing::error!(job = %ctx.name(), attempts = self.failed, error = %record.error, "sharding did not complete; it will be retried");
        ctx.probe.sharding_failed(Some(record.error.clone()));
        let flag = ctx.paths.sharding_necessary();
        if let Err(e) = ctx.registry.set(&flag, &record.encode(), None).await {
            tracing::warn!(job = %ctx.name(), error = %e, "cannot record the failed sharding in the resharding flag");
        }
    }

    /// The mutation check's `InjectedBug::ShardingWithoutLeaderCheck`: an instance that is not
    /// the leader writes the assignment its own view calls for, at once — without leaving it to
    /// the leader and its protocol (flag the resharding, let fires wait, wait for running items).
    #[cfg(feature = "injected-bugs")]
    pub(super) async fn shard_unchecked(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        cache: &TreeCache,
        view: &JobSnapshot,
    ) {
        let s = config.sharding(ctx.name());
        if !view.needs_resharding(s.total, s.strategy, s.job, s.static_sharding) {
            return;
        }
        if flag(ctx, cache).await.is_ok() {
            let mut flagged = view.clone();
            flagged.necessary = true;
            self.shard(ctx, config, cache, &flagged).await;
        }
    }

    /// Writes a new assignment in one transaction; retried with a fresh read when the cache was
    /// behind, reported when it keeps failing (the flag stays, so it is retried on the next
    /// change or reconcile).
    async fn shard(&mut self, ctx: &JobCtx, config: &Effective, cache: &TreeCache, view: &JobSnapshot) {
        let processing = ctx.paths.sharding_processing();
        match ctx.registry.create(&processing, codec::EMPTY, Mode::Ephemeral).await {
            Ok(_) => {}
            Err(RegistryError::NodeExists(_)) => {
                let ours = ctx.registry.exists(&processing).await;
                if !matches!(ours, Ok(Some(stat)) if stat.ephemeral_owner == ctx.registry.session_id()) {
                    return;
                }
            }
            Err(e) => {
                tracing::warn!(job = %ctx.name(), error = %e, "cannot start sharding");
                return;
            }
        }
        let total = config.total();
        let began = std::time::Instant::now();
        let now_ms = ctx.now().timestamp_millis();
        let mut current = view.clone();
        let mut leaves = snapshot::item_leaves(&ctx.paths, &cache.read());
        let mut failure: Option<String> = None;
        for attempt in 1..=SHARD_ATTEMPTS {
            current.processing = true;
            let available = current.available_instances();
            if !current.necessary {
                // Another leader's sharding completed meanwhile.
                failure = None;
                break;
            }
            if available.is_empty() {
                break;
            }
            let assignment = strategy::assign(config.checked.strategy, ctx.name(), &available, total, now_ms);
            let ops = current.sharding_transaction(&ctx.paths, &assignment, total, &leaves);
            let transactions = leader::split(ops, ctx.registry.path_prefix_len(), TRANSACTION_BUDGET);
            if transactions.len() > 1 {
                tracing::info!(job = %ctx.name(), transactions = transactions.len(), "sharding written in several transactions");
            }
            let mut written = Ok(());
            for ops in &transactions {
                written = ctx.registry.transaction(ops).await;
                if written.is_err() {
                    break;
                }
            }
            match written {
                Ok(()) => {
                    let summary: Vec<String> =
                        assignment.iter().map(|(id, items)| format!("{id}=[{}]", item_ranges(items))).collect();
                    tracing::info!(job = %ctx.name(), assignment = %summary.join(" "), "resharded");
                    self.written = true;
                    self.forget_failures(ctx);
                    ctx.settings.metrics.reshard(ctx.name(), began.elapsed());
                    return;
                }
                Err(e) => {
                    tracing::warn!(job = %ctx.name(), attempt, error = %e, "sharding transaction failed; re-reading");
                    failure = Some(e.to_string());
                    match ctx.registry.read_subtree(ctx.paths.root(), &|_| {}).await {
                        Ok(Some(nodes)) => {
                            current = JobSnapshot::from_nodes(&ctx.paths, &nodes);
                            leaves = snapshot::item_leaves_from_nodes(&ctx.paths, &nodes);
                        }
                        Ok(None) => break,
                        Err(e) => {
                            tracing::warn!(job = %ctx.name(), error = %e, "cannot re-read the job");
                            break;
                        }
                    }
                }
            }
        }
        match failure {
            Some(error) => self.record_failure(ctx, &error).await,
            None => {
                tracing::info!(job = %ctx.name(), "no sharding written: no instance is available, or the flag is gone")
            }
        }
        if let Err(e) = ctx.registry.delete_if_exists(&processing).await {
            tracing::warn!(job = %ctx.name(), error = %e, "cannot clear the sharding marker");
        }
    }
}

/// Sets the resharding flag (create if absent). For a new job the cache does not show its parent
/// `leader/sharding` yet: the missing parents and the flag are created in one transaction then,
/// rather than a failed creation, the parents' and the flag's again; when that finds the cache
/// behind, the flag is created if absent (with its parents) as always.
async fn flag(ctx: &JobCtx, cache: &TreeCache) -> Result<(), RegistryError> {
    let flag = ctx.paths.sharding_necessary();
    let missing = cache.read().missing_dirs(path::parent(&flag), ctx.paths.root());
    if !missing.is_empty() {
        let ops: Vec<Op> = missing
            .into_iter()
            .chain([flag.clone()])
            .map(|path| Op::Create { path, data: codec::EMPTY.to_vec(), mode: Mode::Persistent })
            .collect();
        match ctx.registry.transaction(&ops).await {
            Ok(()) => return Ok(()),
            Err(RegistryError::Transaction { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    ctx.registry.create_if_absent(&flag, codec::EMPTY).await.map(drop)
}
