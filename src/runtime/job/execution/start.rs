//! Starting a fire's items here: their `running` nodes written (with monitoring), the first item's
//! before the rest's, then their runs, under one trace group and the fire's listener phases.

use std::sync::Arc;

use super::owed::clear_misfire;
use super::runs::Launch;
use super::{Execution, JobCtx};
use crate::coord::fire::Source;
use crate::coord::snapshot::JobSnapshot;
use crate::coord::txn;
use crate::exec::Executor;
use crate::exec::context::task_id;
use crate::registry::RegistryError;
use crate::registry::codec;
use crate::registry::path::ItemLeaf;
use crate::runtime::job::effective::Effective;
use crate::sync::lock;

impl Execution {
    /// Writes the `running` nodes of `to_start` (with monitoring) and starts the items whose node
    /// was written.
    pub(super) async fn launch(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        view: &JobSnapshot,
        to_start: Vec<u32>,
        source: Source,
        executor: Arc<Executor>,
    ) {
        let (monitor, misfire) = (config.config.monitor_execution, config.config.misfire);
        // With monitoring the processes start only once the transaction writing the items'
        // `running` nodes has succeeded: the spawn waits for that round trip, on purpose. The
        // transaction is where this instance takes the items — another instance's node makes it
        // fail — and so what keeps an item from running twice at once. Spawning while it is in
        // flight, and killing the process if it fails, would not keep that: a process that ran
        // for a moment may have done its work (a kill undoes nothing), and it would have
        // overlapped the very run whose node failed the transaction (a stale assignment here, an
        // item failed over meanwhile). A lost connection leaves the write's outcome unknown for a
        // while, too. A fence or an epoch check cannot help: they stop runs that started, not
        // one that should not have.
        //
        // In a fire of many items, what the first waits for is kept to one small round trip
        // ([`txn::FIRST_ALONE_ABOVE`]): its node is written in a transaction of its own and its
        // run started, then the rest's nodes in one transaction. The fire's
        // task id and trace group name the items planned; an item of the rest found running
        // elsewhere leaves the group, as it leaves ElasticJob's sharding context. A fire with
        // listener phases writes all its nodes at once: its items wait for the `before` phase,
        // which needs the items that start.
        let listeners = crate::runtime::job::listeners::has_listeners(ctx, config);
        let split = txn::first_alone(monitor, to_start.len(), listeners);
        let (first, rest) = if split { to_start.split_at(1) } else { (&to_start[..], &[][..]) };
        let started = if monitor {
            self.mark_running(ctx, config, view, first).await
        } else {
            for &item in first {
                if view.items.get(&item).is_some_and(|v| v.misfire) {
                    clear_misfire(ctx, misfire, item).await;
                }
            }
            first.to_vec()
        };
        if started.is_empty() {
            if !rest.is_empty() {
                // The first item runs elsewhere: the rest go as one fire of their own.
                Box::pin(self.launch(ctx, config, view, rest.to_vec(), source, executor)).await;
            }
            return;
        }
        let planned: Vec<u32> = started.iter().chain(rest).copied().collect();
        let (task, launch) = self.open_fire(ctx, config, &planned, &started, &source);
        self.spawn_runs(ctx, config, &started, (&task, &launch), &source, &executor);
        if rest.is_empty() {
            return;
        }
        let later = self.mark_running(ctx, config, view, rest).await;
        let busy = self.busy();
        busy.state.spend_queued_misfires(&later);
        for &item in rest.iter().filter(|item| !later.contains(item)) {
            busy.groups.leave_out(launch.group(), item);
        }
        self.spawn_runs(ctx, config, &later, (&task, &launch), &source, &executor);
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
        self.fires().spend_queued_misfires(started);
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

    /// Creates the `running` nodes of items about to start (see [`txn::mark_running`]); an item
    /// whose node exists is running elsewhere and is left out.
    async fn mark_running(&mut self, ctx: &JobCtx, config: &Effective, view: &JobSnapshot, items: &[u32]) -> Vec<u32> {
        // Claim the items locally first, so the failover round never reads our fresh running
        // node as an orphan's.
        let items: Vec<u32> = {
            let mut local = lock(&self.local);
            items.iter().copied().filter(|i| local.insert(*i)).collect()
        };
        let started = write_running(ctx, config, view, &items).await;
        let mut local = lock(&self.local);
        for item in &items {
            if !started.contains(item) {
                local.remove(item);
            }
        }
        started
    }
}

/// Writes the running nodes in one transaction; when it fails because a node exists, item by
/// item, leaving out the items running elsewhere.
async fn write_running(ctx: &JobCtx, config: &Effective, view: &JobSnapshot, items: &[u32]) -> Vec<u32> {
    let now = ctx.now();
    let misfires: Vec<u32> = items.iter().copied().filter(|i| view.items.get(i).is_some_and(|v| v.misfire)).collect();
    let ops = txn::mark_running(&ctx.paths, &ctx.me, items, &misfires, config.config.failover, now);
    match ctx.registry.transaction(&ops).await {
        Ok(()) => return items.to_vec(),
        Err(RegistryError::Transaction { .. }) => {}
        Err(e) => {
            tracing::error!(job = %ctx.name(), error = %e, "cannot mark items running; not starting them");
            return Vec::new();
        }
    }
    let mode = txn::running_mode(config.config.failover);
    let stamp = codec::encode_millis(now);
    let mut started = Vec::new();
    for &item in items {
        match ctx.registry.create(&ctx.paths.item_leaf(item, ItemLeaf::Running), &ctx.me.encode(), mode).await {
            Ok(_) => {
                if let Err(e) = ctx.registry.put(&ctx.paths.item(item), &stamp).await {
                    tracing::warn!(job = %ctx.name(), item, error = %e, "cannot record the item's start");
                }
                clear_misfire(ctx, config.config.misfire, item).await;
                started.push(item);
            }
            Err(RegistryError::NodeExists(_)) => {
                tracing::info!(job = %ctx.name(), item, "item is running elsewhere: skipped");
            }
            Err(e) => {
                tracing::error!(job = %ctx.name(), item, error = %e, "cannot mark the item running; not starting it");
            }
        }
    }
    started
}
