//! Run tasks: starting an item's execution, and what happens when it ends — its outcome logged
//! and reported to a waiting `job trigger --wait`, its trace rows and `result` leaf (which lists
//! the registry values the run refused) made; then what [`Ending`] calls for carried out: an owed
//! misfire settled, the nodes cleared in one batch together with the `result` leaves, what the
//! registry failed left to the ledger, a queued fire run again.

use std::collections::{BTreeMap, BTreeSet};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::task::{Context, Poll};

use futures::FutureExt;
use tokio::task::JoinError;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::refusal::Refusals;
use super::{Execution, JobCtx, Owner, apply_all, lock, owed::settle_misfire, traced};
use crate::coord::ending::{self, EndAction, EndEvent, Ending, Facts as EndFacts, Left, Nodes};
use crate::coord::fire::{Ended, RunInfo, Source};
use crate::coord::pin;
use crate::coord::txn::{self, ResultWrite};
use crate::exec::context::ShardingContext;
use crate::exec::{Executor, ItemOutcome, RunControl};
use crate::registry::Op;
use crate::registry::cache::TreeCache;
use crate::registry::codec::{ItemResult, TriggerResult};
use crate::registry::path::{self, ItemLeaf};

use crate::runtime::job::effective::Effective;
use crate::runtime::metrics;

/// What the runtime holds of a run in progress besides [`RunInfo`]: its kill switch, its
/// monotonic start (for the elapsed time), the registry session it started in, and what the
/// trace knows of it.
pub(super) struct ActiveRun {
    kill: CancellationToken,
    started: Instant,
    /// The session epoch its nodes were written in: once it changed, another instance may have
    /// taken the item over, and the run's nodes are only deleted if they still name this one.
    epoch: u64,
    /// The fire group it belongs to (status rows).
    group: u64,
    /// Its trace rows' start, when tracing.
    trace: Option<crate::trace::RunStart>,
    /// Its source's label, for the metrics.
    source: &'static str,
    /// The registry values it does not run (its `result` lists them).
    refused: Refusals,
}

/// What the runs of one fire share: their fire group (status rows), the bound of the executor
/// pool, and the registry values they refuse.
#[derive(Clone)]
pub(super) struct Launch {
    group: u64,
    limit: Option<u32>,
    refused: Refusals,
}

impl Launch {
    /// The runs of fire group `group` under `config`.
    pub(super) fn new(config: &Effective, group: u64) -> Launch {
        Launch { group, limit: config.pool_limit(), refused: Arc::new(pin::recorded(&config.refused)) }
    }

    /// The fire group the runs belong to.
    pub(super) fn group(&self) -> u64 {
        self.group
    }
}

/// What an ended run leaves for the bookkeeping of its end.
#[derive(Default)]
struct Finished {
    /// How long it ran.
    elapsed_ms: u64,
    /// The session epoch it started in (`None`: unknown).
    epoch: Option<u64>,
    /// The registry values it refused.
    refused: Refusals,
    /// The worker pulled its kill switch (the job's stop, or fencing); not its own timeout.
    killed: bool,
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
    pub(super) fn spawn_run(
        &mut self,
        ctx: &JobCtx,
        item: u32,
        sharding: ShardingContext,
        source: Source,
        executor: Arc<Executor>,
        launch: Launch,
    ) {
        let Launch { group, limit, refused } = launch;
        let fire_time = source.at();
        let label = source.label();
        let started_at = ctx.now();
        let Some(id) = self.fires().begin(item, source.clone(), started_at) else {
            // Every start path holds the item's running node first, so this is a bug if reached.
            tracing::error!(job = %ctx.name(), item, "item already runs here: not starting it twice");
            return;
        };
        let trace = traced::run_started(ctx, item, &sharding.task_id, &source, started_at);
        let busy = self.busy();
        let kill = CancellationToken::new();
        let control = RunControl {
            kill: kill.clone(),
            stop: busy.stream_stop.subscribe(),
            kill_grace: ctx.settings.kill_grace,
            fire_time: Some(fire_time),
            source: label,
            started_at: Some(started_at),
        };
        let before = busy.phases.before(group);
        let mut ticket = busy.pool.ticket(limit);
        if ticket.queued() {
            tracing::info!(job = %ctx.name(), item, source = %label, "item started: waiting for a slot of the executor pool");
        } else {
            tracing::info!(job = %ctx.name(), item, source = %label, "item started");
        }
        let lateness = (started_at - fire_time).to_std().map_or(0.0, |d| d.as_secs_f64());
        ctx.settings.metrics.item_started(ctx.name(), label, Some(lateness));
        let mut fence = ctx.fence.clone();
        let fence_kill = kill.clone();
        let fencing = !injected!(ctx.settings, NoFencing);
        busy.runs.spawn(async move {
            // The run watches the fence itself, so a kill does not wait for the job task (which
            // may be blocked on a registry request while the link is down).
            let queue_kill = control.kill.clone();
            let run = AssertUnwindSafe(async {
                let waits = ticket.queued() || before.is_some();
                let wait = async {
                    if let Some(before) = before {
                        before.await;
                    }
                    ticket.acquire().await;
                };
                tokio::select! {
                    biased;
                    () = queue_kill.cancelled(), if waits => {
                        return ItemOutcome { killed: true, ..ItemOutcome::failed("killed before it started") };
                    }
                    () = wait => {}
                }
                executor.run(&sharding, control).await
            })
            .catch_unwind();
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
        let epoch = ctx.registry.session().borrow().epoch;
        let run = ActiveRun { kill, started: Instant::now(), epoch, group, trace, source: label, refused };
        busy.active.insert(id, run);
    }

    /// Waits for the next run to end, with any others that ended meanwhile (pending forever
    /// while nothing runs).
    pub(crate) async fn next_ends(&mut self) -> Vec<Result<RunEnd, JoinError>> {
        std::future::poll_fn(|cx| self.poll_ends(cx)).await
    }

    /// The next run's end, with any others that ended meanwhile; otherwise leaves `cx`'s waker
    /// for the next end (none while nothing runs: a new run comes from a handler, after which the
    /// job's loop polls again).
    pub(crate) fn poll_ends(&mut self, cx: &mut Context<'_>) -> Poll<Vec<Result<RunEnd, JoinError>>> {
        let Some(runs) = self.busy.as_mut().map(|busy| &mut busy.runs) else { return Poll::Pending };
        let Poll::Ready(Some(first)) = runs.poll_join_next(cx) else { return Poll::Pending };
        let mut batch = vec![first];
        while let Some(more) = runs.try_join_next() {
            batch.push(more);
        }
        Poll::Ready(batch)
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
                Ok(end) => {
                    self.meter_end(ctx, &end);
                    ends.push(end);
                }
                Err(_) => tracing::error!(job = %ctx.name(), "an item task was lost"),
            }
        }
        let ended: Vec<Ended> = ends.iter().map(|e| Ended { item: e.item, id: e.id, fenced: e.fenced }).collect();
        let done = self.fires().finish(&ended);
        let mut epochs: BTreeMap<u32, u64> = BTreeMap::new();
        let mut results = Vec::new();
        let mut refusals = Vec::new();
        for (item, run) in &done.runs {
            let Some(end) = ends.iter().find(|e| e.item == *item && e.id == run.id) else { continue };
            let finished = self.finish_active(ctx, *item, run.id, &end.outcome);
            epochs.extend(finished.epoch.map(|e| (*item, e)));
            log_outcome(ctx.name(), *item, run, finished.elapsed_ms, &end.outcome);
            if ending::alerts(end.outcome.success, end.fenced, finished.killed) {
                ctx.alerts.failed(&config.checked.error_handler, failure(ctx, *item, run, &end.outcome));
            }
            record_trigger_result(ctx, *item, run, finished.elapsed_ms, &end.outcome).await;
            let result = result_write(ctx, cache, *item, run, &end.outcome, &finished.refused);
            if !config.config.monitor_execution && !done.complete_failover.contains(item) {
                refusals.push((result.clone(), finished.refused));
            }
            results.push(result);
        }
        // Without monitoring no result is written, but a change of what the runs refuse is.
        self.busy().refusals.record(ctx, refusals).await;
        let owed: BTreeSet<u32> = {
            let nodes = cache.read();
            let owes = |item: &u32| nodes.exists(&ctx.paths.item_leaf(*item, ItemLeaf::Misfire));
            done.settle.iter().map(|(item, _)| *item).filter(owes).collect()
        };
        let ending = Ending::ended(ctx.paths.clone(), end_facts(ctx, config), done, epochs, &owed, epoch(ctx));
        self.settle(ctx, config, cache, ending, &results).await;
    }

    /// Carries out what settling ended runs calls for ([`Ending`]) and answers it. `results`: the
    /// `result` leaves of the runs, written with their nodes' deletes.
    pub(super) async fn settle(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        cache: &TreeCache,
        mut ending: Ending,
        results: &[ResultWrite],
    ) {
        let mut view = None;
        while let Some(action) = ending.poll_action() {
            let event = match action {
                EndAction::Fenced(items) => {
                    for item in items {
                        tracing::warn!(job = %ctx.name(), item, "item killed: cut off from the registry");
                        lock(&self.local).remove(&item);
                        self.busy().ledger.fence(item);
                    }
                    continue;
                }
                EndAction::Settle(items) => {
                    let mut failed = BTreeSet::new();
                    for (item, started) in items {
                        if settle_misfire(ctx, item, started).await.is_err() {
                            failed.insert(item);
                        }
                    }
                    EndEvent::Settled { failed, epoch: epoch(ctx) }
                }
                EndAction::Clear { nodes, items, fresh } => {
                    let results: Vec<ResultWrite> =
                        results.iter().filter(|r| items.contains(&r.item)).cloned().collect();
                    let failed = match nodes {
                        Nodes::Running => clear_running(ctx, &items, &results, fresh).await,
                        Nodes::Claims => complete_failovers(ctx, &items, &results, fresh).await,
                    };
                    EndEvent::Cleared { failed, epoch: epoch(ctx) }
                }
                EndAction::Delete(nodes) => {
                    let ops = nodes.into_iter().map(|path| Op::Delete { path, version: None }).collect();
                    let failed = apply_all(ctx, ops, Owner::Mine, false, "the nodes of an ended run").await;
                    EndEvent::Cleared { failed, epoch: epoch(ctx) }
                }
                EndAction::Keep(left) => {
                    for Left { item, unsettled, held } in left {
                        self.keep(item, unsettled, held);
                    }
                    continue;
                }
                EndAction::Tried { left } => {
                    self.schedule_clear(left, &ctx.settings.jitter);
                    continue;
                }
                EndAction::Look => {
                    let now = ctx.snapshot(cache);
                    ending.look(&now);
                    view = Some(now);
                    continue;
                }
                EndAction::Rerun(item, source) => {
                    let view = view.clone().unwrap_or_else(|| ctx.snapshot(cache));
                    self.start_items(ctx, config, view, vec![item], source).await;
                    continue;
                }
                EndAction::WaitForSharding(source) => {
                    self.fires().wait_for_sharding(source);
                    continue;
                }
            };
            ending.handle(event);
        }
    }

    /// Counts a run's end in the metrics.
    fn meter_end(&self, ctx: &JobCtx, end: &RunEnd) {
        if let Some(active) = self.busy.as_ref().and_then(|busy| busy.active.get(&end.id)) {
            let outcome = metrics::outcome_label(end.outcome.success, end.outcome.killed, end.fenced);
            let seconds = active.started.elapsed().as_secs_f64();
            ctx.settings.metrics.item_ended(ctx.name(), active.source, outcome, seconds);
        }
    }

    /// A run ended: forget its kill switch, tell the trace; returns how long it ran, the session
    /// epoch it started in and what it refused.
    fn finish_active(&mut self, ctx: &JobCtx, item: u32, id: u64, outcome: &ItemOutcome) -> Finished {
        let Some(busy) = self.busy.as_deref_mut() else { return Finished::default() };
        let Some(active) = busy.active.remove(&id) else { return Finished::default() };
        if let Some(start) = active.trace {
            traced::run_ended(ctx, start, outcome);
        }
        busy.groups.close_item(ctx, active.group, item, outcome);
        busy.phases.close_item(active.group, item, outcome.success);
        Finished {
            elapsed_ms: elapsed_ms(active.started),
            epoch: Some(active.epoch),
            refused: active.refused,
            killed: active.kill.is_cancelled(),
        }
    }

    /// Stopping: tells streaming runs to stop after their batch, and once-per-fire waits to end.
    /// Nothing to tell before the first run: no run starts once the job is stopping.
    pub(crate) fn stop_streams(&self) {
        if let Some(busy) = &self.busy {
            busy.stream_stop.send_replace(true);
            busy.phases.stop_waiting();
        }
    }

    /// True while runs are in progress.
    pub(crate) fn has_runs(&self) -> bool {
        self.busy.as_ref().is_some_and(|busy| !busy.runs.is_empty())
    }

    /// How many runs are in progress.
    pub(crate) fn run_count(&self) -> usize {
        self.busy.as_ref().map_or(0, |busy| busy.runs.len())
    }

    /// Stopping, runs ended: lets the listener phases in flight finish until `deadline` (none:
    /// aborts them at once).
    pub(crate) async fn finish_listeners(&mut self, deadline: Option<tokio::time::Instant>) {
        if let Some(busy) = self.busy.as_mut() {
            busy.phases.finish(deadline).await;
        }
    }

    /// Kills every run in progress (SIGTERM, then SIGKILL after the kill grace).
    pub(crate) fn kill_all(&self) {
        for run in self.busy.iter().flat_map(|busy| busy.active.values()) {
            run.kill.cancel();
        }
    }

    /// Waits for the next run to end during a stop; `None` when none is left.
    pub(crate) async fn next_end_stopping(&mut self) -> Option<Result<RunEnd, JoinError>> {
        self.busy.as_mut()?.runs.join_next().await
    }

    /// A run that ended while stopping: log it and clear its nodes unless it was killed with
    /// failover on (then they let another instance take the item over).
    pub(crate) async fn on_end_stopping(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        cache: &TreeCache,
        result: Result<RunEnd, JoinError>,
    ) {
        let Ok(end) = result else { return };
        self.meter_end(ctx, &end);
        let Some(run) = self.fires().finish_stopping(end.item, end.id) else { return };
        let finished = self.finish_active(ctx, end.item, run.id, &end.outcome);
        log_outcome(ctx.name(), end.item, &run, finished.elapsed_ms, &end.outcome);
        if ending::alerts(end.outcome.success, end.fenced, finished.killed) {
            ctx.alerts.failed(&config.checked.error_handler, failure(ctx, end.item, &run, &end.outcome));
        }
        record_trigger_result(ctx, end.item, &run, finished.elapsed_ms, &end.outcome).await;
        // Stopping: what cannot be cleared now is left for whoever sees this instance leave.
        let result = [result_write(ctx, cache, end.item, &run, &end.outcome, &finished.refused)];
        let facts = end_facts(ctx, config);
        let ended = (end.item, &run);
        let ending = Ending::stopped(
            ctx.paths.clone(),
            facts,
            ended,
            end.fenced,
            end.outcome.killed,
            finished.epoch,
            epoch(ctx),
        );
        self.settle(ctx, config, cache, ending, &result).await;
        lock(&self.local).remove(&end.item);
    }

    /// Monitoring was switched off: every instance deletes every `running` node (ElasticJob's
    /// `clearAllRunningInfo`). Batched in one transaction; a node someone else already removed is
    /// no error.
    pub(crate) async fn clear_all_running_nodes(&self, ctx: &JobCtx, cache: &TreeCache) {
        let items: Vec<u32> =
            cache.read().children(&ctx.paths.sharding()).iter().filter_map(|n| path::parse_item(n)).collect();
        apply_all(ctx, txn::clear_running(&ctx.paths, &items, &[]), Owner::Anyone, true, "the running node").await;
    }
}

/// Runs of `items` ended: their `running` nodes go and their `results` are recorded, batched
/// (`fresh`: in the session that wrote them; see [`apply_all`]).
async fn clear_running(ctx: &JobCtx, items: &[u32], results: &[ResultWrite], fresh: bool) -> Vec<String> {
    apply_all(ctx, txn::clear_running(&ctx.paths, items, results), Owner::Mine, fresh, "the running node").await
}

/// What an ended run records on its item's `result` leaf.
fn result_write(
    ctx: &JobCtx,
    cache: &TreeCache,
    item: u32,
    run: &RunInfo,
    outcome: &ItemOutcome,
    refused: &[crate::registry::codec::RefusedValue],
) -> ResultWrite {
    let result = ItemResult {
        v: 0,
        instance: ctx.me.to_string(),
        source: run.source.label().to_string(),
        fire_ms: Some(run.source.at().timestamp_millis()),
        start_ms: Some(run.started_at.timestamp_millis()),
        end_ms: ctx.now().timestamp_millis(),
        outcome: outcome.run_outcome(),
        exit_code: outcome.exit_code,
        signal: outcome.signal,
        message: if outcome.success { None } else { outcome.message.clone() },
        stderr_tail: Some(outcome.stderr_tail.clone()).filter(|t| !t.is_empty()),
        refused: refused.to_vec(),
    };
    let exists = cache.read().exists(&ctx.paths.item_leaf(item, ItemLeaf::Result));
    ResultWrite { item, data: result.encode(), exists }
}

/// Failed-over runs of `items` ended: their `running`, `failover` and `failovering` nodes go
/// together (`updateFailoverComplete`), and their `results` are recorded.
async fn complete_failovers(ctx: &JobCtx, items: &[u32], results: &[ResultWrite], fresh: bool) -> Vec<String> {
    apply_all(ctx, txn::complete_failover(&ctx.paths, items, results), Owner::Mine, fresh, "a failover node").await
}

/// A run started by `job trigger --wait`: store its outcome where the admin waits for it.
async fn record_trigger_result(ctx: &JobCtx, item: u32, run: &RunInfo, elapsed_ms: u64, outcome: &ItemOutcome) {
    let Some(token) = run.source.token() else { return };
    let result = TriggerResult {
        instance: ctx.me.to_string(),
        success: outcome.success,
        exit_code: outcome.exit_code,
        message: outcome.reason().or_else(|| outcome.message.clone()),
        elapsed_ms,
    };
    if let Err(e) = ctx.registry.put(&ctx.paths.trigger_result(token, item), &result.encode()).await {
        tracing::warn!(job = %ctx.name(), item, error = %e, "cannot record the trigger result");
    }
}

fn elapsed_ms(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// A failed run, as the error handler reports it.
fn failure(ctx: &JobCtx, item: u32, run: &RunInfo, outcome: &ItemOutcome) -> crate::notify::Failure {
    crate::notify::Failure {
        job: ctx.name().to_string(),
        item: Some(item),
        instance: ctx.me.as_str().to_string(),
        source: run.source.label().to_string(),
        at: ctx.now().to_rfc3339(),
        exit_code: outcome.exit_code,
        reason: outcome.reason().unwrap_or_else(|| "failed".to_string()),
        stderr_tail: outcome.stderr_tail.clone(),
    }
}

/// Logs how an item run ended: a failure at WARN with its reason, which ends with the last line
/// of its stderr, so that a filter on warnings still shows why. The stderr lines themselves were
/// logged as they came (INFO, `stream=stderr`), and are not logged again.
fn log_outcome(job: &str, item: u32, run: &RunInfo, elapsed_ms: u64, outcome: &ItemOutcome) {
    let source = run.source.label();
    if outcome.success {
        tracing::info!(job = %job, item, source = %source, elapsed_ms, "item finished");
        return;
    }
    let error = outcome.reason().unwrap_or_else(|| "failed".to_string());
    match outcome.exit_code {
        Some(code) => tracing::warn!(
            job = %job, item, source = %source, elapsed_ms, exit_code = code, error = %error, "item failed"
        ),
        None => tracing::warn!(job = %job, item, source = %source, elapsed_ms, error = %error, "item failed"),
    }
}

/// What settling ended runs goes by ([`crate::coord::ending::Facts`]).
pub(super) fn end_facts(ctx: &JobCtx, config: &Effective) -> EndFacts {
    let c = &config.config;
    EndFacts {
        me: ctx.me.to_string(),
        total: config.total(),
        monitor: c.monitor_execution,
        misfire: c.misfire,
        failover: c.failover,
    }
}

/// The registry session in effect now.
fn epoch(ctx: &JobCtx) -> u64 {
    ctx.registry.session().borrow().epoch
}
