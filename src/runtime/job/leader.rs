//! The leader's sharding duty, carried out: [`Sharder`] decides (the step, the round, its
//! retries and their backoff, the failure record), this driver does what it asks — registry
//! requests, the cache's leaves, the log, the metrics and the job's probe — and answers.
//!
//! A sharding that does not complete is said beyond the worker's log: the record
//! ([`crate::registry::codec::ShardingFailure`]) goes into the resharding flag, which every view
//! of the job reads (`CANNOT_SHARD`), and the job's probe makes `/readyz` answer not ready. The
//! record is best effort — a registry that refuses the sharding may refuse it too — and goes with
//! the flag when a sharding completes.

use tokio::time::Instant;

use super::JobCtx;
use super::effective::Effective;
use crate::coord::sharder::{Look, ShardAction, ShardEvent, Sharder};
use crate::coord::snapshot::{self, JobSnapshot};
use crate::ops::text::item_ranges;
use crate::registry::cache::TreeCache;
use crate::registry::{Mode, Op, RegistryError, TRANSACTION_BUDGET, codec, path};
use crate::runtime::Settings;

/// The leader's state of a job on this instance.
pub(super) struct Leader {
    sharder: Sharder,
}

impl Leader {
    #[cfg_attr(not(feature = "injected-bugs"), expect(unused_variables, reason = "no bug to read"))]
    pub(super) fn new(settings: &Settings) -> Leader {
        #[cfg(feature = "injected-bugs")]
        let sharder = Sharder::with_bug(injected!(settings, ReshardWhileRunning));
        #[cfg(not(feature = "injected-bugs"))]
        let sharder = Sharder::new();
        Leader { sharder }
    }

    /// When the next sharding round may go, after a failed one.
    pub(super) fn retry_at(&self) -> Option<Instant> {
        self.sharder.poll_timeout().map(Instant::from_std)
    }

    /// The pause after a failed round is over, if it is.
    pub(super) fn retry(&mut self) {
        self.sharder.handle_timeout(Instant::now().into_std());
    }

    /// This instance leads: flags a stale assignment, reshards as soon as nothing is running.
    pub(super) async fn duties(&mut self, ctx: &JobCtx, config: &Effective, cache: &TreeCache, view: &JobSnapshot) {
        self.sharder.handle(ShardEvent::Lead(look(ctx, config, view)));
        self.carry_out(ctx, cache).await;
    }

    /// This instance does not lead: a failure it recorded is the next leader's business.
    pub(super) fn not_leading(&mut self, ctx: &JobCtx) {
        self.sharder.handle(ShardEvent::NotLeading);
        while let Some(action) = self.sharder.poll_action() {
            if action == ShardAction::ClearFailure {
                ctx.probe.sharding_failed(None);
            }
        }
    }

    /// The mutation check's `InjectedBug::ShardingWithoutLeaderCheck` (see
    /// [`ShardEvent::LeadUnchecked`]).
    #[cfg(feature = "injected-bugs")]
    pub(super) async fn shard_unchecked(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        cache: &TreeCache,
        view: &JobSnapshot,
    ) {
        self.sharder.handle(ShardEvent::LeadUnchecked(look(ctx, config, view)));
        self.carry_out(ctx, cache).await;
    }

    /// Carries out the sharder's actions until it has none, answering those that ask.
    async fn carry_out(&mut self, ctx: &JobCtx, cache: &TreeCache) {
        let mut began = None;
        while let Some(action) = self.sharder.poll_action() {
            let answer = match action {
                ShardAction::Flag => {
                    tracing::info!(job = %ctx.name(), "assignment is stale: resharding");
                    if let Err(e) = flag(ctx, cache).await {
                        tracing::warn!(job = %ctx.name(), error = %e, "cannot set the resharding flag");
                    }
                    None
                }
                ShardAction::CreateMarker => {
                    began = Some(std::time::Instant::now());
                    let marker = ctx.paths.sharding_processing();
                    Some(match ctx.registry.create(&marker, codec::EMPTY, Mode::Ephemeral).await {
                        Ok(_) => ShardEvent::MarkerCreated,
                        Err(RegistryError::NodeExists(_)) => ShardEvent::MarkerExists,
                        Err(e) => {
                            tracing::warn!(job = %ctx.name(), error = %e, "cannot start sharding");
                            ShardEvent::MarkerFailed
                        }
                    })
                }
                ShardAction::CheckMarker => Some(match ctx.registry.exists(&ctx.paths.sharding_processing()).await {
                    Ok(stat) => {
                        ShardEvent::MarkerOwned(stat.is_some_and(|s| s.ephemeral_owner == ctx.registry.session_id()))
                    }
                    Err(_) => ShardEvent::MarkerFailed,
                }),
                ShardAction::ReadLeaves => Some(ShardEvent::Leaves(snapshot::item_leaves(&ctx.paths, &cache.read()))),
                ShardAction::Write(transactions) => Some(write(ctx, &transactions).await),
                ShardAction::Reread => Some(match ctx.registry.read_subtree(ctx.paths.root(), &|_| {}).await {
                    Ok(nodes) => ShardEvent::Reread(nodes),
                    Err(e) => {
                        tracing::warn!(job = %ctx.name(), error = %e, "cannot re-read the job");
                        ShardEvent::RereadFailed
                    }
                }),
                ShardAction::DeleteMarker => {
                    if let Err(e) = ctx.registry.delete_if_exists(&ctx.paths.sharding_processing()).await {
                        tracing::warn!(job = %ctx.name(), error = %e, "cannot clear the sharding marker");
                    }
                    None
                }
                ShardAction::RecordFailure(record) => {
                    tracing::error!(job = %ctx.name(), attempts = record.attempts, error = %record.error, "sharding did not complete; it will be retried");
                    ctx.probe.sharding_failed(Some(record.error.clone()));
                    if let Err(e) = ctx.registry.set(&ctx.paths.sharding_necessary(), &record.encode(), None).await {
                        tracing::warn!(job = %ctx.name(), error = %e, "cannot record the failed sharding in the resharding flag");
                    }
                    None
                }
                ShardAction::ClearFailure => {
                    ctx.probe.sharding_failed(None);
                    None
                }
                ShardAction::Resharded(assignment) => {
                    let summary: Vec<String> =
                        assignment.iter().map(|(id, items)| format!("{id}=[{}]", item_ranges(items))).collect();
                    tracing::info!(job = %ctx.name(), assignment = %summary.join(" "), "resharded");
                    ctx.settings.metrics.reshard(ctx.name(), began.map(|b| b.elapsed()).unwrap_or_default());
                    None
                }
            };
            if let Some(event) = answer {
                self.sharder.handle(event);
            }
        }
    }
}

/// What the sharder decides from: the job as the cache shows it, its settings, the time.
fn look<'a>(ctx: &'a JobCtx, config: &'a Effective, view: &'a JobSnapshot) -> Look<'a> {
    Look {
        view,
        sharding: config.sharding(ctx.name()),
        paths: &ctx.paths,
        me: ctx.me.as_str(),
        prefix: ctx.registry.path_prefix_len(),
        budget: TRANSACTION_BUDGET,
        now: Instant::now().into_std(),
        now_ms: ctx.now().timestamp_millis(),
        random: ctx.settings.jitter.draw(),
    }
}

/// Writes a sharding's transactions in order, stopping at the first that fails.
async fn write(ctx: &JobCtx, transactions: &[Vec<Op>]) -> ShardEvent<'static> {
    if transactions.len() > 1 {
        tracing::info!(job = %ctx.name(), transactions = transactions.len(), "sharding written in several transactions");
    }
    for ops in transactions {
        if let Err(e) = ctx.registry.transaction(ops).await {
            tracing::warn!(job = %ctx.name(), error = %e, "sharding transaction failed; re-reading");
            return ShardEvent::WriteFailed(e.to_string());
        }
    }
    ShardEvent::Written
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
