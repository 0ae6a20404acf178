//! Run tasks: starting an item's execution, and what happens when it ends — its outcome logged
//! and reported to a waiting `job trigger --wait`, its nodes cleared in one batch, an owed misfire
//! settled, a queued fire run again.

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use futures::FutureExt;
use tokio::task::JoinError;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::{Execution, JobCtx, Owner, Unsettled, delete_all, lock, settle_misfire};
use crate::coord::fire::{self, Ended, Rerun, RunInfo, Source, StopCleanup, stop_cleanup};
use crate::coord::txn;
use crate::exec::context::ShardingContext;
use crate::exec::{Executor, ItemOutcome, RunControl};
use crate::registry::cache::TreeCache;
use crate::registry::codec::TriggerResult;
use crate::registry::path::{self, ItemLeaf};

use crate::runtime::InjectedBug;
use crate::runtime::job::effective::Effective;

/// What the runtime holds of a run in progress besides [`RunInfo`]: its kill switch, its
/// monotonic start (for the elapsed time) and the registry session it started in.
pub(super) struct ActiveRun {
    kill: CancellationToken,
    started: Instant,
    /// The session epoch its nodes were written in: once it changed, another instance may have
    /// taken the item over, and the run's nodes are only deleted if they still name this one.
    epoch: u64,
}

/// A run task's report.
pub(crate) struct RunEnd {
    item: u32,
    id: u64,
    outcome: ItemOutcome,
    /// Killed because the worker was cut off from the registry.
    fenced: bool,
}

impl Execution {
    /// Starts a run of `item` as a task of its own.
    pub(crate) fn spawn_run(
        &mut self,
        ctx: &JobCtx,
        item: u32,
        sharding: ShardingContext,
        source: Source,
        executor: Arc<Executor>,
    ) {
        let fire_time = source.at();
        let label = source.label();
        let Some(id) = self.state.begin(item, source, ctx.now()) else {
            // Every start path holds the item's running node first, so this is a bug if reached.
            tracing::error!(job = %ctx.name(), item, "item already runs here: not starting it twice");
            return;
        };
        let kill = CancellationToken::new();
        let control = RunControl {
            kill: kill.clone(),
            stop: self.stream_stop.subscribe(),
            kill_grace: ctx.settings.kill_grace,
            fire_time: Some(fire_time),
            source: label,
        };
        tracing::info!(job = %ctx.name(), item, source = label, "item started");
        let mut fence = ctx.fence.clone();
        let fence_kill = kill.clone();
        let fencing = !ctx.settings.bug(InjectedBug::NoFencing);
        self.runs.spawn(async move {
            // The run watches the fence itself, so a kill does not wait for the job task (which
            // may be blocked on a registry request while the link is down).
            let run = AssertUnwindSafe(executor.run(&sharding, control)).catch_unwind();
            tokio::pin!(run);
            let mut fenced = fencing && fence.borrow().fenced;
            if fenced {
                fence_kill.cancel();
            }
            let result = loop {
                tokio::select! {
                    biased;
                    result = &mut run => break result,
                    changed = fence.changed(), if fencing && !fenced => {
                        if changed.is_err() || fence.borrow().fenced {
                            fenced = true;
                            fence_kill.cancel();
                        }
                    }
                }
            };
            let outcome = result.unwrap_or_else(|_| ItemOutcome::failed("the job panicked"));
            RunEnd { item, id, outcome, fenced }
        });
        self.active
            .insert(id, ActiveRun { kill, started: Instant::now(), epoch: ctx.registry.session().borrow().epoch });
    }

    /// Waits for the next run to end, with any others that ended meanwhile (pending forever
    /// while nothing runs).
    pub(crate) async fn next_ends(&mut self) -> Vec<Result<RunEnd, JoinError>> {
        let Some(first) = self.runs.join_next().await else {
            return std::future::pending().await;
        };
        let mut batch = vec![first];
        while let Some(more) = self.runs.try_join_next() {
            batch.push(more);
        }
        batch
    }

    /// Runs ended: log, report, clear their running nodes in one batch, settle misfires, and
    /// start queued re-runs.
    pub(crate) async fn on_ends(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        cache: &TreeCache,
        batch: Vec<Result<RunEnd, JoinError>>,
    ) {
        let mut ends = Vec::new();
        for result in batch {
            match result {
                Ok(end) => ends.push(end),
                Err(_) => tracing::error!(job = %ctx.name(), "an item task was lost"),
            }
        }
        let ended: Vec<Ended> = ends.iter().map(|e| Ended { item: e.item, id: e.id, fenced: e.fenced }).collect();
        let done = self.state.finish(&ended);
        let epoch = ctx.registry.session().borrow().epoch;
        let mut stale = Vec::new();
        for (item, run) in &done.runs {
            let Some(end) = ends.iter().find(|e| e.item == *item && e.id == run.id) else { continue };
            let active = self.active.remove(&run.id);
            if active.as_ref().is_some_and(|a| a.epoch != epoch) {
                stale.push(*item);
            }
            let elapsed_ms = active.map_or(0, |a| elapsed_ms(a.started));
            log_outcome(ctx.name(), *item, run, elapsed_ms, &end.outcome);
            record_trigger_result(ctx, *item, run, elapsed_ms, &end.outcome).await;
        }
        for item in &done.fenced {
            tracing::warn!(job = %ctx.name(), item, "item killed: cut off from the registry");
            lock(&self.local).remove(item);
        }
        // A run covers the owed fire no later than its start: its misfire node goes before its
        // running node, which keeps every other instance off the item meanwhile — the other
        // order lets the next owner read the node and run the fire again. When the misfire
        // cannot be settled, the run's nodes stay until it is (retried).
        let owed_misfire =
            |item: u32| config.config.misfire && cache.view().exists(&ctx.paths.item_leaf(item, ItemLeaf::Misfire));
        let mut unsettled: BTreeMap<u32, DateTime<Utc>> = BTreeMap::new();
        for &(item, started) in &done.settle {
            if owed_misfire(item) && settle_misfire(ctx, item, started).await.is_err() {
                unsettled.insert(item, started);
            }
        }
        // The settled items of `items` written in this session (`fresh`) or an earlier one.
        let settled = |items: &[u32], fresh: bool| -> Vec<u32> {
            items.iter().copied().filter(|i| !unsettled.contains_key(i) && fresh != stale.contains(i)).collect()
        };
        let mut failed: Vec<String> = Vec::new();
        if config.config.monitor_execution {
            failed.extend(clear_running(ctx, &settled(&done.clear_running, true), true).await);
            failed.extend(clear_running(ctx, &settled(&done.clear_running, false), false).await);
        }
        failed.extend(complete_failovers(ctx, &settled(&done.complete_failover, true), true).await);
        failed.extend(complete_failovers(ctx, &settled(&done.complete_failover, false), false).await);
        for &(item, _) in &done.settle {
            let settle = unsettled.get(&item).copied();
            let nodes: Vec<String> = match settle {
                None => failed.iter().filter(|p| item_of(p) == Some(item)).cloned().collect(),
                Some(_) if done.complete_failover.contains(&item) => txn::failover_nodes(&ctx.paths, &[item]),
                Some(_) if config.config.monitor_execution => vec![ctx.paths.item_leaf(item, ItemLeaf::Running)],
                Some(_) => Vec::new(),
            };
            self.keep(item, Unsettled { nodes, settle }, true);
        }
        if !done.rerun.is_empty() {
            let view = ctx.view(cache);
            let local = view.local_items(ctx.me.as_str(), config.total());
            let pending = view.sharding_pending(config.total());
            for (item, source) in done.rerun {
                match fire::rerun(&source, pending, local.contains(&item)) {
                    Rerun::Start => self.start_items(ctx, config, &view, vec![item], source).await,
                    Rerun::WaitForSharding => self.state.wait_for_sharding(source),
                    Rerun::Drop => {}
                }
            }
        }
    }

    /// Stopping: tells streaming runs to stop after their batch.
    pub(crate) fn stop_streams(&self) {
        let _ = self.stream_stop.send(true);
    }

    /// True while runs are in progress.
    pub(crate) fn has_runs(&self) -> bool {
        !self.runs.is_empty()
    }

    /// How many runs are in progress.
    pub(crate) fn run_count(&self) -> usize {
        self.runs.len()
    }

    /// Kills every run in progress (SIGTERM, then SIGKILL after the kill grace).
    pub(crate) fn kill_all(&self) {
        for run in self.active.values() {
            run.kill.cancel();
        }
    }

    /// Waits for the next run to end during a stop; `None` when none is left.
    pub(crate) async fn next_end_stopping(&mut self) -> Option<Result<RunEnd, JoinError>> {
        self.runs.join_next().await
    }

    /// A run that ended while stopping: log it and clear its nodes unless it was killed with
    /// failover on (then they let another instance take the item over).
    pub(crate) async fn on_end_stopping(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        result: Result<RunEnd, JoinError>,
    ) {
        let Ok(end) = result else { return };
        let Some(run) = self.state.finish_stopping(end.item, end.id) else { return };
        let active = self.active.remove(&run.id);
        let fresh = active.as_ref().is_none_or(|a| a.epoch == ctx.registry.session().borrow().epoch);
        let elapsed_ms = active.map_or(0, |a| elapsed_ms(a.started));
        log_outcome(ctx.name(), end.item, &run, elapsed_ms, &end.outcome);
        record_trigger_result(ctx, end.item, &run, elapsed_ms, &end.outcome).await;
        let (failover, monitor) = (config.config.failover, config.config.monitor_execution);
        // Stopping: what cannot be cleared now is left for whoever sees this instance leave. A
        // completed run settles the misfire it covers first, as in `on_ends`; if it cannot, its
        // nodes stay too, so that the misfire is not run by the next owner while they last.
        let cleanup = stop_cleanup(&run.source, end.fenced, end.outcome.killed, failover, monitor);
        let unsettled = cleanup != StopCleanup::Keep
            && !end.outcome.killed
            && config.config.misfire
            && settle_misfire(ctx, end.item, run.started_at).await.is_err();
        let _ = match cleanup {
            _ if unsettled => Vec::new(),
            StopCleanup::Keep => Vec::new(),
            StopCleanup::ClearRunning => clear_running(ctx, &[end.item], fresh).await,
            StopCleanup::CompleteFailover => complete_failovers(ctx, &[end.item], fresh).await,
        };
        lock(&self.local).remove(&end.item);
    }

    /// Monitoring was switched off: every instance deletes every `running` node (ElasticJob's
    /// `clearAllRunningInfo`). Batched in one transaction; a node someone else already removed is
    /// no error.
    pub(crate) async fn clear_all_running_nodes(&self, ctx: &JobCtx, cache: &TreeCache) {
        let items: Vec<u32> =
            cache.view().children(&ctx.paths.sharding()).iter().filter_map(|n| path::parse_item(n)).collect();
        delete_all(ctx, txn::clear_running(&ctx.paths, &items), Owner::Anyone, true, "the running node").await;
    }
}

/// Runs of `items` ended: their `running` nodes go, batched (`fresh`: in the session that wrote
/// them; see [`delete_all`]).
async fn clear_running(ctx: &JobCtx, items: &[u32], fresh: bool) -> Vec<String> {
    delete_all(ctx, txn::clear_running(&ctx.paths, items), Owner::Mine, fresh, "the running node").await
}

/// Failed-over runs of `items` ended: their `running`, `failover` and `failovering` nodes go
/// together (`updateFailoverComplete`).
async fn complete_failovers(ctx: &JobCtx, items: &[u32], fresh: bool) -> Vec<String> {
    delete_all(ctx, txn::complete_failover(&ctx.paths, items), Owner::Mine, fresh, "a failover node").await
}

/// The sharding item a node belongs to.
fn item_of(p: &str) -> Option<u32> {
    match path::parse(p) {
        Some((_, path::Node::ItemLeaf(item, _))) => Some(item),
        _ => None,
    }
}

/// A run started by `job trigger --wait`: store its outcome where the admin waits for it.
async fn record_trigger_result(ctx: &JobCtx, item: u32, run: &RunInfo, elapsed_ms: u64, outcome: &ItemOutcome) {
    let Some(token) = run.source.token() else { return };
    let result = TriggerResult {
        instance: ctx.me.to_string(),
        success: outcome.success,
        exit_code: outcome.exit_code,
        message: outcome.message.clone(),
        elapsed_ms,
    };
    if let Err(e) = ctx.registry.put(&ctx.paths.trigger_result(token, item), &result.encode()).await {
        tracing::warn!(job = %ctx.name(), item, error = %e, "cannot record the trigger result");
    }
}

fn elapsed_ms(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)
}

fn log_outcome(job: &str, item: u32, run: &RunInfo, elapsed_ms: u64, outcome: &ItemOutcome) {
    let source = run.source.label();
    if outcome.success {
        tracing::info!(job, item, source, elapsed_ms, "item finished");
    } else {
        tracing::warn!(
            job,
            item,
            source,
            elapsed_ms,
            exit_code = ?outcome.exit_code,
            error = outcome.message.as_deref().unwrap_or(""),
            "item failed"
        );
    }
}
