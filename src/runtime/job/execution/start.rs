//! Carrying out a fire ([`Firing`]): the registry's clock read, the fire owed to busy items, what
//! covers a trigger read, the items' `running` nodes written (with monitoring), and their runs
//! started under one trace group and the fire's listener phases.

use std::sync::Arc;

use futures::future::join_all;

use super::owed::{clear_misfire, read_covered};
use super::refusal::{refuse_fire, registry_clock};
use super::runs::Launch;
use super::{Execution, JobCtx, traced};
use crate::coord::fire::Source;
use crate::coord::firing::{FireAction, FireEvent, Firing, GiveBack, Note};
use crate::coord::snapshot::JobSnapshot;
use crate::coord::txn::{self, OweOutcome};
use crate::exec::Executor;
use crate::exec::context::task_id;
use crate::registry::RegistryError;
use crate::registry::codec;
use crate::registry::path::ItemLeaf;
use crate::runtime::job::effective::Effective;
use crate::sync::lock;

impl Execution {
    /// Carries out `firing`'s actions and answers them, until the fire is handled. `view` is the
    /// job as the cache showed it when the fire was handled; it is looked at again after the
    /// registry's clock was read (a round trip).
    ///
    /// With monitoring the processes start only once the transaction writing the items'
    /// `running` nodes has succeeded: the spawn waits for that round trip, on purpose. The
    /// transaction is where this instance takes the items — another instance's node makes it
    /// fail — and so what keeps an item from running twice at once. Spawning while it is in
    /// flight, and killing the process if it fails, would not keep that: a process that ran for a
    /// moment may have done its work (a kill undoes nothing), and it would have overlapped the
    /// very run whose node failed the transaction (a stale assignment here, an item failed over
    /// meanwhile). A lost connection leaves the write's outcome unknown for a while, too. A fence
    /// or an epoch check cannot help: they stop runs that started, not one that should not have.
    /// In a fire of many items, what the first waits for is kept to one small round trip
    /// ([`txn::first_alone`]).
    ///
    /// Returns the claimed items given back ([`FireAction::GiveBack`]).
    pub(in crate::runtime::job) async fn drive(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        mut firing: Firing,
        mut view: Arc<JobSnapshot>,
    ) -> Vec<u32> {
        let mut opened: Option<(String, Launch)> = None;
        let mut given_back = Vec::new();
        while let Some(action) = firing.poll_action() {
            let event = match action {
                FireAction::Deferred => {
                    ctx.settings.metrics.fire_deferred(&ctx.probe, ctx.name(), firing.source().at());
                    let source = firing.source().label();
                    tracing::warn!(job = %ctx.name(), source = %source, "fire deferred: the registry is unreachable");
                    continue;
                }
                FireAction::ReadClock => {
                    let read = registry_clock(ctx).await;
                    view = ctx.snapshot_of(&self.cache.read());
                    FireEvent::ClockRead(read)
                }
                FireAction::Refuse { items, refusal } => {
                    refuse_fire(ctx, config, &items, firing.source(), &refusal).await;
                    continue;
                }
                FireAction::ReadStarts(items) => {
                    let reads = items.iter().map(|&item| async move { ctx.registry.get(&ctx.paths.item(item)).await });
                    let reads = join_all(reads).await.into_iter().map(|read| read.map_err(|e| e.to_string()));
                    FireEvent::StartsRead(reads.collect())
                }
                FireAction::WriteOwes(writes) => {
                    let writes =
                        writes.iter().map(|(item, ops)| async move { (*item, ctx.registry.transaction(ops).await) });
                    let outcomes = join_all(writes).await.into_iter().map(|(item, result)| {
                        let outcome = txn::owe_outcome(&result);
                        match (outcome, result) {
                            (OweOutcome::Owed, _) => ctx.settings.metrics.misfire_owed(ctx.name()),
                            (OweOutcome::Failed, Err(e)) => {
                                tracing::warn!(job = %ctx.name(), item, error = %e, "cannot record the misfire");
                            }
                            _ => {}
                        }
                        outcome
                    });
                    FireEvent::OwesWritten(outcomes.collect())
                }
                FireAction::ReadCovered(items) => {
                    FireEvent::CoveredRead(read_covered(ctx, firing.source(), &items).await)
                }
                FireAction::StillRunning(items) => {
                    traced::still_running(ctx, &task_id(ctx.name(), &items, ctx.me.as_str()), &items);
                    continue;
                }
                FireAction::Mark(items) => {
                    let (written, failed) = self.mark_running(ctx, config, &view, &items).await;
                    FireEvent::Marked { written, failed }
                }
                FireAction::ReadLeaves(item, leaves) => {
                    let mut paths: Vec<String> = leaves.iter().map(|&leaf| ctx.paths.item_leaf(item, leaf)).collect();
                    paths.push(ctx.paths.item(item));
                    FireEvent::LeavesRead(ctx.registry.get_many(&paths).await.map_err(|e| e.to_string()))
                }
                FireAction::Settle(op) => {
                    match ctx.registry.transaction(std::slice::from_ref(&op)).await {
                        // Changed or gone meanwhile: not this settlement's to delete.
                        Ok(()) | Err(RegistryError::Transaction { .. }) => {}
                        Err(e) => tracing::warn!(job = %ctx.name(), error = %e, "cannot clear a covered misfire"),
                    }
                    continue;
                }
                FireAction::Adopt { item, running, stamp } => {
                    FireEvent::Adopted(self.adopt(ctx, item, running, stamp).await)
                }
                FireAction::ClearMisfires(items) => {
                    for item in items {
                        clear_misfire(ctx, true, item).await;
                    }
                    continue;
                }
                FireAction::Open { planned, started } => {
                    opened = Some(self.open_fire(ctx, config, &planned, &started, firing.source()));
                    continue;
                }
                FireAction::Spawn(items) => {
                    match (&opened, &config.executor) {
                        (Some(fire), Ok(executor)) => {
                            self.spawn_runs(ctx, config, &items, (&fire.0, &fire.1), firing.source(), executor);
                        }
                        // The machine opens a fire before its runs and refuses one that cannot run.
                        _ => {
                            tracing::error!(job = %ctx.name(), items = ?items, "items not started: no fire opened for them")
                        }
                    }
                    continue;
                }
                FireAction::LeaveOut(items) => {
                    if let Some((_, launch)) = &opened {
                        let busy = self.busy();
                        for item in items {
                            busy.groups.leave_out(ctx, launch.group(), item);
                        }
                    }
                    continue;
                }
                FireAction::Retry => {
                    self.schedule_clear(true, &ctx.settings.jitter);
                    continue;
                }
                FireAction::Answered => {
                    self.schedule_clear(false, &ctx.settings.jitter);
                    continue;
                }
                FireAction::WakeAt(at) => {
                    let wait = (at - ctx.now()).to_std().unwrap_or_default();
                    self.busy().ledger.wake_at((tokio::time::Instant::now() + wait).into_std());
                    continue;
                }
                FireAction::GiveBack { item, why } => {
                    let why = match why {
                        GiveBack::Unrunnable => {
                            lock(&self.local).remove(&item);
                            "the job is misconfigured"
                        }
                        GiveBack::RunningHere => "it is already running here",
                    };
                    tracing::error!(job = %ctx.name(), item, "claimed item not run: {why}; returning it");
                    given_back.push(item);
                    continue;
                }
                FireAction::Note(note) => {
                    log_note(ctx, &note);
                    continue;
                }
            };
            self.with_fires(|state| firing.handle(event, state, &view, ctx.now()));
        }
        given_back
    }

    /// Opens the trace group and listener phases of a fire of the `planned` items, of which
    /// `started` have their `running` nodes written. Returns the fire's task id and what its runs
    /// share.
    fn open_fire(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        planned: &[u32],
        started: &[u32],
        source: &Source,
    ) -> (String, Launch) {
        ctx.note_refusal(config, planned);
        let task = task_id(ctx.name(), planned, ctx.me.as_str());
        let busy = self.busy();
        let group = busy.groups.open(ctx, &task, planned);
        busy.phases.open(ctx, config, (group, &task), started, source);
        (task, Launch::new(config, group))
    }

    /// Starts the runs of `items` (their `running` nodes written) in the fire of `task`.
    fn spawn_runs(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        items: &[u32],
        (task, launch): (&str, &Launch),
        source: &Source,
        executor: &Arc<Executor>,
    ) {
        for &item in items {
            let sharding = config.context(ctx.name(), item, task);
            self.spawn_run(ctx, item, sharding, source.clone(), Arc::clone(executor), launch.clone());
        }
    }

    /// Takes over `item`'s `running` node at `version` ([`txn::adopt`]), holding the item here
    /// first, as [`Execution::mark_running`] does; the hold is released unless the node is taken.
    async fn adopt(&mut self, ctx: &JobCtx, item: u32, running: i32, stamp: i32) -> Result<bool, String> {
        if !lock(&self.local).insert(item) {
            return Ok(false);
        }
        let outcome = match ctx.registry.transaction(&txn::adopt(&ctx.paths, &ctx.me, item, running, stamp)).await {
            Ok(()) => Ok(true),
            Err(RegistryError::Transaction { .. }) => Ok(false),
            Err(e) => Err(e.to_string()),
        };
        if outcome != Ok(true) {
            lock(&self.local).remove(&item);
        }
        outcome
    }

    /// Creates the `running` nodes of items about to start (see [`txn::mark_running`]): the
    /// items whose node is written, and those the registry failed; an item whose node exists is
    /// running elsewhere and is in neither.
    async fn mark_running(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        view: &JobSnapshot,
        items: &[u32],
    ) -> (Vec<u32>, Vec<u32>) {
        // Claim the items locally first, so the failover round never reads our fresh running
        // node as an orphan's.
        let items: Vec<u32> = {
            let mut local = lock(&self.local);
            items.iter().copied().filter(|i| local.insert(*i)).collect()
        };
        let (written, failed) = write_running(ctx, config, view, &items).await;
        let mut local = lock(&self.local);
        for item in &items {
            if !written.contains(item) {
                local.remove(item);
            }
        }
        (written, failed)
    }
}

/// Writes the running nodes in one transaction; when it fails because a node exists, item by
/// item, leaving out the items running elsewhere. Returns the items written and those the
/// registry failed.
async fn write_running(ctx: &JobCtx, config: &Effective, view: &JobSnapshot, items: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let now = ctx.now();
    let misfires: Vec<u32> = items.iter().copied().filter(|i| view.items.get(i).is_some_and(|v| v.misfire)).collect();
    let ops = txn::mark_running(&ctx.paths, &ctx.me, items, &misfires, config.config.failover, now);
    match ctx.registry.transaction(&ops).await {
        Ok(()) => return (items.to_vec(), Vec::new()),
        Err(RegistryError::Transaction { .. }) => {}
        Err(e) => {
            tracing::warn!(job = %ctx.name(), items = ?items, error = %e, "cannot mark items running");
            return (Vec::new(), items.to_vec());
        }
    }
    let mode = txn::running_mode(config.config.failover);
    let stamp = codec::encode_millis(now);
    let (mut written, mut failed) = (Vec::new(), Vec::new());
    for &item in items {
        match ctx.registry.create(&ctx.paths.item_leaf(item, ItemLeaf::Running), &ctx.me.encode(), mode).await {
            Ok(_) => {
                if let Err(e) = ctx.registry.put(&ctx.paths.item(item), &stamp).await {
                    tracing::warn!(job = %ctx.name(), item, error = %e, "cannot record the item's start");
                }
                clear_misfire(ctx, config.config.misfire, item).await;
                written.push(item);
            }
            Err(RegistryError::NodeExists(_)) => {
                tracing::info!(job = %ctx.name(), item, "item is running elsewhere: skipped");
            }
            Err(e) => {
                tracing::warn!(job = %ctx.name(), item, error = %e, "cannot mark the item running");
                failed.push(item);
            }
        }
    }
    (written, failed)
}

/// Logs what a fire's machine notes.
fn log_note(ctx: &JobCtx, note: &Note) {
    let where_ = |here: bool| if here { "here" } else { "elsewhere" };
    match note {
        Note::OwedToAll => tracing::debug!(job = %ctx.name(), "fire during resharding: recorded as misfires"),
        Note::WaitsForSharding => tracing::debug!(job = %ctx.name(), "fire waits for resharding"),
        Note::OwingMissed { items } => tracing::info!(
            job = %ctx.name(),
            item_count = items,
            "fires were missed while the registry was unreachable: owing the latest"
        ),
        Note::TriggerCovered(items) => {
            let list: Vec<String> = items.iter().map(ToString::to_string).collect();
            tracing::info!(job = %ctx.name(), items = %list.join(","), "trigger covered already: these items started a run after it was written");
        }
        Note::Skipped { item, here } => {
            tracing::info!(job = %ctx.name(), item, "item still running {}: fire skipped (misfire is off)", where_(*here));
        }
        Note::Queued { item, here } => {
            tracing::info!(job = %ctx.name(), item, "item still running {}: the fire is owed a run", where_(*here));
        }
        Note::OwedLate { item } => tracing::info!(job = %ctx.name(), item, "late fire owed a run"),
        Note::StartUnread { item, error } => {
            tracing::warn!(job = %ctx.name(), item, error = %error, "cannot read the item's last start");
        }
        Note::Unmarked(items) => {
            tracing::warn!(job = %ctx.name(), items = ?items, "the fire did not start these items: it is owed to them");
        }
        Note::QueuedCovered { item } => {
            tracing::info!(job = %ctx.name(), item, "queued fire covered by a run since: dropped");
        }
        Note::InDoubt { item, error } => tracing::warn!(
            job = %ctx.name(),
            item,
            error = %error,
            "cannot tell yet whether the item's running node was written: the fire waits"
        ),
        Note::Adopted { item } => {
            tracing::info!(job = %ctx.name(), item, "the item's running node was written after all: its run starts")
        }
        Note::MisfireUnread { item, error } => {
            tracing::warn!(job = %ctx.name(), item, error = %error, "cannot read the misfire node");
        }
        Note::MisfireCovered { item } => {
            tracing::info!(job = %ctx.name(), item, "misfire covered by a run that started since: cleared");
        }
        Note::MisfireOwed { item } => {
            tracing::info!(job = %ctx.name(), item, "running a fire missed while the item was busy or unowned");
        }
        Note::FailedOver { item } => tracing::info!(job = %ctx.name(), item, "running a failed-over item"),
    }
}
