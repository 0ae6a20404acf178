//! Failover, carried out (docs/src/design/compatibility.md#failover without its gaps): the driver
//! of the job's [`Claimer`], which decides when a claim round starts, what becomes of the item it
//! claimed and how long to pause after a failed round, and of each [`Round`], which decides what a
//! round does (confirm and queue the orphans, then claim a queued item). Owns the round in flight.
//!
//! A round runs in a task of its own under the failover latch, so that queueing and claiming
//! never interleave across instances. It never takes this instance's own live run for an orphan:
//! it checks the set of items the execution room is running or about to run ([`LocalRuns`]).

use std::collections::BTreeSet;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use super::JobCtx;
use super::execution::LocalRuns;
use crate::clock::Clock;
use crate::coord::claimer::{ClaimAction, ClaimEvent, Claimer, RoundEnd};
use crate::coord::failover as decide;
use crate::coord::round::{ClaimAnswer, QueueAnswer, Round, RoundAction, RoundEvent, RoundFacts};
use crate::coord::snapshot::JobSnapshot;
use crate::coord::txn::{self, ClaimOutcome};
use crate::registry::codec::{self, InstanceId};
use crate::registry::path::JobPaths;
use crate::registry::{LatchGuard, Op, Registry, RegistryError};

use crate::runtime::Settings;
use crate::sync::lock;
use crate::task::OwnedTask;

/// The outcome of a round: the item claimed, if any.
pub(super) type Claimed = Result<Option<u32>, String>;

/// Failover of a job on this instance: the job's [`Claimer`] and the round it asked for.
pub(super) struct Failover {
    claimer: Claimer,
    /// The round in flight.
    round: Option<OwnedTask<Claimed>>,
}

impl Failover {
    pub(super) fn new() -> Failover {
        Failover { claimer: Claimer::new(), round: None }
    }

    /// The cache changed in a way that can matter: a new round may find work.
    pub(super) fn wake(&mut self) {
        self.claimer.handle(ClaimEvent::Wake);
    }

    /// When a failed round's pause ends, if one failed.
    pub(super) fn retry_at(&self) -> Option<tokio::time::Instant> {
        self.claimer.poll_timeout().map(tokio::time::Instant::from_std)
    }

    /// A failed round's pause may be over.
    pub(super) fn retry(&mut self) {
        self.claimer.handle_timeout(tokio::time::Instant::now().into_std());
    }

    /// The job's failover duty after a change: starts a round in the background when the
    /// claimer asks for one (only a look does).
    pub(super) fn duties(
        &mut self,
        ctx: &JobCtx,
        total: u32,
        view: &JobSnapshot,
        local: &LocalRuns,
        busy_here: impl Fn(u32) -> bool,
    ) {
        let me = ctx.me.as_str();
        let bugs = RoundBugs::of(&ctx.settings);
        let suspects = if !bugs.no_liveness_check() {
            decide::suspects(view, me, busy_here)
        } else {
            view.items.iter().filter(|(item, s)| s.running && !busy_here(**item)).map(|(item, _)| *item).collect()
        };
        self.claimer.handle(ClaimEvent::Look { work: decide::has_work(view, me, &suspects) });
        if self.claimer.poll_action() != Some(ClaimAction::Round) {
            return;
        }
        let (registry, paths, me, local) = (ctx.registry.clone(), ctx.paths.clone(), ctx.me.clone(), Arc::clone(local));
        let clock = Arc::clone(&ctx.settings.clock);
        let disabled: BTreeSet<u32> = view.items.iter().filter(|(_, s)| s.disabled).map(|(i, _)| *i).collect();
        self.round = Some(OwnedTask::spawn(async move {
            let queue = Queue { total, suspects: &suspects, disabled: &disabled };
            round(&registry, &paths, &me, &local, clock.as_ref(), queue, bugs).await
        }));
    }

    /// The outcome of the round in flight once it has ended; otherwise (or while there is none)
    /// leaves `cx`'s waker for its end.
    pub(super) fn poll_claim(&mut self, cx: &mut Context<'_>) -> Poll<Result<Claimed, tokio::task::JoinError>> {
        match self.round.as_mut() {
            Some(task) => task.poll_join(cx),
            None => Poll::Pending,
        }
    }

    /// A round ended: returns the item claimed for this instance to run, if any (answered with
    /// [`Failover::refused`] when it cannot start).
    pub(super) async fn on_claimed(
        &mut self,
        ctx: &JobCtx,
        result: Result<Claimed, tokio::task::JoinError>,
    ) -> Option<u32> {
        self.round = None;
        let (end, failure) = match result {
            Ok(Ok(Some(item))) => (RoundEnd::Claimed(item), None),
            Ok(Ok(None)) => (RoundEnd::Nothing, None),
            Ok(Err(e)) => (failed(ctx), Some(e)),
            Err(e) => (failed(ctx), Some(format!("the round's task failed: {e}"))),
        };
        self.claimer.handle(ClaimEvent::Ended(end));
        self.carry_out(ctx, failure).await
    }

    /// The item a round claimed cannot start here: it goes back to the queue.
    pub(super) async fn refused(&mut self, ctx: &JobCtx, item: u32) {
        self.claimer.handle(ClaimEvent::Refused(item));
        self.carry_out(ctx, None).await;
    }

    /// Carries out what the claimer asks for after a round's end or a refused run; returns the
    /// item to run. `failure` is the error of a failed round, for the log.
    async fn carry_out(&mut self, ctx: &JobCtx, mut failure: Option<String>) -> Option<u32> {
        while let Some(action) = self.claimer.poll_action() {
            match action {
                ClaimAction::Run(item) => {
                    ctx.settings.metrics.failover_claimed(ctx.name());
                    return Some(item);
                }
                ClaimAction::Return(item) => {
                    tracing::info!(job = %ctx.name(), item, "returning a just-claimed item to the failover queue");
                    return_claim(ctx, item).await;
                }
                ClaimAction::RetryIn(delay) => {
                    let error = failure.take().unwrap_or_default();
                    tracing::warn!(job = %ctx.name(), error = %error, retry_in_ms = delay.as_millis(), "failover claim failed; retrying");
                }
                // Only a look asks for a round ([`Failover::duties`]).
                ClaimAction::Round => {}
            }
        }
        None
    }

    /// Stopping: no round starts, and the round in flight is waited for, so that it cannot
    /// claim after the instance left; an item it claimed goes back to the queue.
    pub(super) async fn stop(&mut self, ctx: &JobCtx) {
        self.claimer.handle(ClaimEvent::Stop);
        if let Some(mut task) = self.round.take() {
            let result = task.join().await;
            self.on_claimed(ctx, result).await;
        }
    }

    /// Failover was switched off: remove its nodes (see [`decide::switched_off`]).
    pub(super) async fn clear_nodes(&self, ctx: &JobCtx, view: &JobSnapshot, busy_here: impl Fn(u32) -> bool) {
        for node in decide::switched_off(view, &ctx.paths, busy_here) {
            if let Err(e) = ctx.registry.delete_if_exists(&node).await {
                tracing::warn!(job = %ctx.name(), path = %node, error = %e, "cannot clear a failover node");
            }
        }
    }
}

/// A failed round's end, now, with the random bits of its pause.
fn failed(ctx: &JobCtx) -> RoundEnd {
    RoundEnd::Failed { now: tokio::time::Instant::now().into_std(), random: ctx.settings.jitter.draw() }
}

/// Puts a claimed item back in the queue.
async fn return_claim(ctx: &JobCtx, item: u32) {
    if let Err(e) = ctx.registry.transaction(&txn::return_claim(&ctx.paths, item)).await {
        tracing::warn!(job = %ctx.name(), item, error = %e, "cannot return the claimed item");
    }
}

/// Bugs the simulator's mutation check switches into a round (`InjectedBug`); none, and nothing
/// to hold, in a build without the `injected-bugs` feature.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct RoundBugs {
    /// Every item running elsewhere is taken for an orphan, its runner alive or not.
    #[cfg(feature = "injected-bugs")]
    no_liveness_check: bool,
    /// No latch, and the claim made request by request as Java's is.
    #[cfg(feature = "injected-bugs")]
    no_latch: bool,
}

impl RoundBugs {
    /// A correct round.
    #[cfg(test)]
    pub(super) const NONE: RoundBugs = RoundBugs { no_liveness_check: false, no_latch: false };

    /// The bugs `settings` switched on.
    #[cfg_attr(not(feature = "injected-bugs"), expect(unused_variables, reason = "no bug to read"))]
    pub(super) fn of(settings: &Settings) -> RoundBugs {
        RoundBugs {
            #[cfg(feature = "injected-bugs")]
            no_liveness_check: injected!(settings, OrphansWithoutLivenessCheck),
            #[cfg(feature = "injected-bugs")]
            no_latch: injected!(settings, FailoverWithoutLatch),
        }
    }

    fn no_liveness_check(self) -> bool {
        #[cfg(feature = "injected-bugs")]
        return self.no_liveness_check;
        #[cfg(not(feature = "injected-bugs"))]
        false
    }

    fn no_latch(self) -> bool {
        #[cfg(feature = "injected-bugs")]
        return self.no_latch;
        #[cfg(not(feature = "injected-bugs"))]
        false
    }
}

/// What a round works on, from the cache: the item count, the suspects to confirm, and the
/// disabled items (left in the queue).
#[derive(Debug, Clone, Copy)]
pub(super) struct Queue<'a> {
    pub(super) total: u32,
    pub(super) suspects: &'a [u32],
    pub(super) disabled: &'a BTreeSet<u32>,
}

/// One round (see the module docs): carries out the [`Round`]'s requests under the failover
/// latch and returns the claimed item.
///
/// The latch is not what keeps two instances from claiming one item (the claim is one
/// transaction that fails for the second): it is kept for clusters shared with ElasticJob's Java
/// workers, whose claims are several requests made under it. The mutation check's
/// `InjectedBug::FailoverWithoutLatch` makes the claim as Java does without the latch, and the
/// simulator catches the double runs that follow.
pub(super) async fn round(
    registry: &Registry,
    paths: &JobPaths,
    me: &InstanceId,
    local: &LocalRuns,
    clock: &dyn Clock,
    queue: Queue<'_>,
    bugs: RoundBugs,
) -> Claimed {
    let Queue { total, suspects, disabled } = queue;
    let facts = RoundFacts {
        paths: paths.clone(),
        me: me.clone(),
        total,
        suspects: suspects.to_vec(),
        disabled: disabled.clone(),
        latch: !bugs.no_latch(),
        check_liveness: !bugs.no_liveness_check(),
    };
    let mut round = Round::new(facts);
    let mut _latch = None;
    let text = |e: RegistryError| e.to_string();
    while let Some(action) = round.poll_action() {
        let event = match action {
            RoundAction::Latch => {
                RoundEvent::Latched(latch(registry, paths).await.map(|l| _latch = Some(l)).map_err(text))
            }
            RoundAction::ReadLive => {
                // Who may still run items: an instance node, or a runner node (see `JobSnapshot::may_run`).
                let lists = registry.children_many(&[paths.instances(), paths.runners()]).await;
                RoundEvent::LiveRead(lists.map(|lists| lists.into_iter().flatten().flatten().collect()).map_err(text))
            }
            RoundAction::EnsureQueue => RoundEvent::Ensured(
                registry.create_if_absent(&paths.failover_items(), codec::EMPTY).await.map(drop).map_err(text),
            ),
            RoundAction::ReadSuspect(item) => {
                let read = registry.get_many(&decide::suspect_reads(paths, item)).await.map_err(text);
                // Checked after the read: a run of ours that began before it is in the set by now.
                RoundEvent::SuspectRead { read, here: lock(local).contains(&item) }
            }
            RoundAction::QueueOrphan { item, runner, ops } => {
                RoundEvent::Queued(match registry.transaction(&ops).await {
                    Ok(()) => {
                        tracing::warn!(job = %paths.job(), item, runner = %runner, "orphaned run: queued for failover");
                        Ok(QueueAnswer::Queued)
                    }
                    // Already queued: its entry stands for it.
                    Err(e @ RegistryError::Transaction { .. }) => {
                        tracing::debug!(job = %paths.job(), item, error = %e, "orphaned item already queued");
                        Ok(QueueAnswer::Conflict)
                    }
                    Err(e) => Err(e.to_string()),
                })
            }
            RoundAction::ListQueue => {
                RoundEvent::Listed(registry.children(&paths.failover_items()).await.map_err(text))
            }
            RoundAction::DeleteEntry(item) => {
                RoundEvent::Deleted(registry.delete_if_exists(&paths.failover_item(item)).await.map(drop).map_err(text))
            }
            RoundAction::ReadEntry(item) => {
                let read = registry.get(&paths.failover_item(item)).await.map_err(text);
                RoundEvent::EntryRead { read, now: clock.now() }
            }
            RoundAction::Claim { item, ops } => {
                RoundEvent::Claimed(claim(registry, paths, me, local, item, &ops, (bugs, clock)).await)
            }
            RoundAction::Done(result) => return result,
        };
        round.handle(event);
    }
    Ok(None)
}

/// Claims `item` with `ops`, holding it in `local` first (see [`LocalRuns`]) and letting go of it
/// unless it is claimed. `bugs` and the clock make the claim as `FailoverWithoutLatch` does.
#[cfg_attr(not(feature = "injected-bugs"), expect(unused_variables, reason = "no bug to make the claim"))]
async fn claim(
    registry: &Registry,
    paths: &JobPaths,
    me: &InstanceId,
    local: &LocalRuns,
    item: u32,
    ops: &[Op],
    (bugs, clock): (RoundBugs, &dyn Clock),
) -> Result<ClaimAnswer, String> {
    // Mark the item as ours before the claim writes its running node.
    if !lock(local).insert(item) {
        return Ok(ClaimAnswer::Lost);
    }
    #[cfg(feature = "injected-bugs")]
    let outcome = if bugs.no_latch() {
        claim_piecemeal(registry, paths, me, item, clock.now()).await
    } else {
        txn::claim_outcome(ops, registry.transaction(ops).await)
    };
    #[cfg(not(feature = "injected-bugs"))]
    let outcome = txn::claim_outcome(ops, registry.transaction(ops).await);
    if outcome != ClaimOutcome::Claimed {
        lock(local).remove(&item);
    }
    match outcome {
        ClaimOutcome::Claimed => {
            tracing::info!(job = %paths.job(), item, "claimed an orphaned item");
            Ok(ClaimAnswer::Claimed)
        }
        ClaimOutcome::Covered => {
            tracing::info!(job = %paths.job(), item, "orphaned item has run again since it was queued: not claimed");
            Ok(ClaimAnswer::Covered)
        }
        ClaimOutcome::Lost => Ok(ClaimAnswer::Lost),
        ClaimOutcome::Failed(e) => Err(e.to_string()),
    }
}

/// How long a round waits for the failover latch. A round holds it for a few round trips; a
/// contender that waits longer is behind a holder that is stuck (a Java worker frozen with its
/// session alive, a node left by a client bug): the round fails, says so, and is tried again
/// ([`crate::retry::FAILOVER`]) with the cache's suspects of that time, instead of waiting, unseen, for
/// as long as that session lives. Giving up is cancel-safe: the waiting node is withdrawn.
const LATCH_WAIT: Duration = Duration::from_secs(30);

/// The failover latch, waited for at most [`LATCH_WAIT`].
async fn latch(registry: &Registry, paths: &JobPaths) -> Result<LatchGuard, RegistryError> {
    let dir = paths.failover_latch();
    match tokio::time::timeout(LATCH_WAIT, registry.latch(&dir)).await {
        Ok(latch) => latch,
        Err(_) => {
            let holders = tokio::time::timeout(Duration::from_secs(2), registry.children(&dir)).await;
            let holders = holders.ok().and_then(Result::ok).flatten().unwrap_or_default();
            tracing::warn!(job = %paths.job(), ?holders, "the failover latch was not granted in {LATCH_WAIT:?}; trying again");
            Err(RegistryError::Timeout(LATCH_WAIT))
        }
    }
}

/// `InjectedBug::FailoverWithoutLatch`: the claim as ElasticJob's Java workers make it, one
/// request at a time, overwriting — safe only under the latch that the mutation leaves out.
#[cfg(feature = "injected-bugs")]
async fn claim_piecemeal(
    registry: &Registry,
    paths: &JobPaths,
    me: &InstanceId,
    item: u32,
    now: chrono::DateTime<chrono::Utc>,
) -> ClaimOutcome {
    use crate::registry::path::ItemLeaf;
    let steps = async {
        if registry.exists(&paths.failover_item(item)).await?.is_none() {
            return Ok(false);
        }
        registry.put_ephemeral(&paths.item_leaf(item, ItemLeaf::Failover), &me.encode()).await?;
        registry.put(&paths.item_leaf(item, ItemLeaf::Failovering), &me.encode()).await?;
        registry.put(&paths.item_leaf(item, ItemLeaf::Running), &me.encode()).await?;
        registry.put(&paths.item(item), &codec::encode_millis(now)).await?;
        registry.delete_if_exists(&paths.failover_item(item)).await?;
        Ok::<_, RegistryError>(true)
    };
    match steps.await {
        Ok(true) => ClaimOutcome::Claimed,
        Ok(false) => ClaimOutcome::Lost,
        Err(e) => ClaimOutcome::Failed(e),
    }
}
