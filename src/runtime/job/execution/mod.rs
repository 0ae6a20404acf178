//! Fires and runs of a job on this instance, carried out: a fire's path is
//! [`crate::coord::firing`]'s, the end of runs [`crate::coord::ending`]'s, the rules
//! [`crate::coord::fire`]'s and the transactions [`crate::coord::txn`]'s; this room drives those
//! machines, does the I/O and owns the runs — the [`FireState`], the tasks running items and their
//! kill switches, and the set of items this instance runs or is about to run ([`LocalRuns`]).
//!
//! Execution is per item: an item never runs twice at once. A fire starts the local items that
//! are idle; an item still busy from an earlier fire gets the fire queued (when `misfire` is on,
//! or for a manual trigger) and runs again as soon as it finishes. A fire that finds resharding
//! flagged is owed to every item (misfire on) or waits for it.
//!
//! [`start`] carries out a fire: the owes, the `running` nodes of its items, their runs; [`runs`]
//! starts run tasks and carries out their ends; [`owed`] reads what a fire is owed and what
//! covers it already; [`traced`] tells the trace store about fires and runs; [`refusal`] records
//! what the worker refuses on the items.

mod owed;
mod pool;
mod refusal;
mod runs;
mod start;
mod traced;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use tokio::sync::watch;
use tokio::task::JoinSet;

use self::refusal::RecordedRefusals;
use self::runs::ActiveRun;
pub(super) use self::runs::RunEnd;
use self::traced::FireGroups;
use super::JobCtx;
use super::effective::Effective;
use crate::coord::ending::Ending;
use crate::coord::fire::{self, FireState, Source};
use crate::coord::firing::{Facts, Firing};
use crate::coord::ledger::{Ledger, Unsettled};
use crate::coord::snapshot::JobSnapshot;
use crate::registry::cache::{CacheReader, TreeCache};
use crate::registry::codec;
use crate::registry::{Op, RegistryError};
use crate::retry::Jitter;
use crate::sync::lock;

/// The items this instance runs or is about to run (its `running` node written or being
/// written), shared with the failover round so that it never takes this instance's own live run
/// for an orphan. Updated before a `running` node is created and after it is removed.
pub(super) type LocalRuns = Arc<Mutex<BTreeSet<u32>>>;

/// The runs of a job on this instance.
pub(super) struct Execution {
    local: LocalRuns,
    /// The job's cache, for the listener phases [`Busy`] holds.
    cache: CacheReader,
    /// What fires and runs need, made by the first fire: most jobs of a large worker wait for a
    /// fire hours away, and an idle job's task then carries only this pointer.
    busy: Option<Box<Busy>>,
}

/// What a job keeps once it has fired (see [`Execution::busy`]).
struct Busy {
    /// Its items' fires and runs; before the first fire, [`FireState::default`]'s.
    state: FireState,
    runs: JoinSet<RunEnd>,
    active: BTreeMap<u64, ActiveRun>,
    /// Tells streaming dataflow runs to stop after their batch (the job is stopping).
    stream_stop: watch::Sender<bool>,
    /// What ended runs could not write (the registry failed), the runs fencing killed and not
    /// handed back yet, and when to try again.
    ledger: Ledger,
    /// The fires whose items run here, for the trace's status rows.
    groups: FireGroups,
    /// The job's executor pool here.
    pool: pool::Pool,
    /// The listener phases of fires in progress.
    phases: super::listeners::Phases,
    /// What the runs here last recorded as refused, per item (`monitorExecution` off).
    refusals: RecordedRefusals,
}

impl Execution {
    pub(super) fn new(cache: CacheReader) -> Execution {
        Execution { local: LocalRuns::default(), cache, busy: None }
    }

    /// What fires and runs need, made on first use.
    fn busy(&mut self) -> &mut Busy {
        self.busy.get_or_insert_with(|| {
            Box::new(Busy {
                state: FireState::default(),
                runs: JoinSet::new(),
                active: BTreeMap::new(),
                stream_stop: watch::Sender::new(false),
                ledger: Ledger::default(),
                groups: FireGroups::default(),
                pool: pool::Pool::default(),
                phases: super::listeners::Phases::new(self.cache.clone()),
                refusals: RecordedRefusals::default(),
            })
        })
    }

    /// The fire state, when the job has fired.
    fn fired(&self) -> Option<&FireState> {
        self.busy.as_ref().map(|busy| &busy.state)
    }

    /// The fire state, made by the first change.
    fn fires(&mut self) -> &mut FireState {
        &mut self.busy().state
    }

    /// Hands `f` the fire state; before the first fire, one that is kept only if `f` changed it:
    /// a fire that finds no item here to start, queue or remember leaves an idle job without the
    /// state of a busy one.
    fn with_fires<R>(&mut self, f: impl FnOnce(&mut FireState) -> R) -> R {
        if let Some(busy) = self.busy.as_deref_mut() {
            return f(&mut busy.state);
        }
        let mut state = FireState::default();
        let result = f(&mut state);
        if state != FireState::default() {
            self.busy().state = state;
        }
        result
    }

    /// The set the failover round checks.
    pub(super) fn local(&self) -> &LocalRuns {
        &self.local
    }

    /// True while this instance runs `item`, is about to, or still has to clear its nodes.
    pub(super) fn holds(&self, item: u32) -> bool {
        lock(&self.local).contains(&item)
    }

    /// When clearing the nodes of ended runs, or a fire owed by a clock ahead, is tried again.
    pub(super) fn retry_at(&self) -> Option<tokio::time::Instant> {
        self.busy.as_ref().and_then(|busy| busy.ledger.poll_timeout()).map(tokio::time::Instant::from_std)
    }

    /// Tries again to clear what ended runs left when the [`Ledger`] says a try is due (not
    /// while the link is down: `link_ok`), as [`Ending::retry`] says.
    pub(super) async fn retry_unsettled(&mut self, ctx: &JobCtx, config: &Effective, cache: &TreeCache, link_ok: bool) {
        let now = tokio::time::Instant::now().into_std();
        let Some(busy) = self.busy.as_deref_mut() else { return };
        let Some(left) = busy.ledger.due(now, link_ok, || ctx.settings.jitter.draw()) else { return };
        let ending = Ending::retry(ctx.paths.clone(), runs::end_facts(ctx, config), left);
        self.settle(ctx, config, cache, ending, &[]).await;
    }

    /// Hands back the runs fencing killed (see [`fire::hand_back`]): with `failover` their items
    /// are queued for failover, without it their `running` nodes go. What the registry fails is
    /// tried again with the nodes of ended runs ([`crate::retry::CLEAR`]).
    pub(super) async fn hand_back_fenced(&mut self, ctx: &JobCtx, view: &JobSnapshot, failover: bool, monitor: bool) {
        let Some(busy) = self.busy.as_deref_mut().filter(|busy| busy.ledger.has_fenced()) else { return };
        let fenced = busy.ledger.take_fenced();
        if !monitor {
            return;
        }
        let instances: BTreeSet<String> = view.instances.keys().chain(&view.runners).cloned().collect();
        let mut left = BTreeSet::new();
        if failover && let Err(e) = ctx.registry.create_if_absent(&ctx.paths.failover_items(), codec::EMPTY).await {
            tracing::warn!(job = %ctx.name(), error = %e, "cannot hand back the runs killed by fencing; retrying");
            self.refence(fenced, &ctx.settings.jitter);
            return;
        }
        for item in fenced {
            let fresh = match ctx.registry.get_many(&fire::hand_back_reads(&ctx.paths, item)).await {
                Ok(fresh) => fresh,
                Err(e) => {
                    tracing::warn!(job = %ctx.name(), item, error = %e, "cannot read the nodes of a run killed by fencing; retrying");
                    left.insert(item);
                    continue;
                }
            };
            // Checked after the read: a run of the item that began here since holds its nodes.
            let here = self.holds(item);
            let me = ctx.me.as_str();
            let Some(ops) = fire::hand_back(&ctx.paths, item, me, here, failover, &instances, &fresh) else { continue };
            match ctx.registry.transaction(&ops).await {
                Ok(()) if failover => {
                    tracing::warn!(job = %ctx.name(), item, "run killed by fencing: queued for failover");
                }
                Ok(()) => tracing::info!(job = %ctx.name(), item, "run killed by fencing: running node cleared"),
                // The nodes changed since the read: read them again.
                Err(e @ RegistryError::Transaction { .. }) => {
                    tracing::debug!(job = %ctx.name(), item, error = %e, "the nodes of a run killed by fencing changed; reading them again");
                    left.insert(item);
                }
                Err(e) => {
                    tracing::warn!(job = %ctx.name(), item, error = %e, "cannot hand back a run killed by fencing; retrying");
                    left.insert(item);
                }
            }
        }
        self.refence(left, &ctx.settings.jitter);
    }

    /// Runs fencing killed whose hand-back failed: tried again later ([`Ledger::refence`]).
    fn refence(&mut self, items: impl IntoIterator<Item = u32>, jitter: &Jitter) {
        self.busy().ledger.refence(items, tokio::time::Instant::now().into_std(), || jitter.draw());
    }

    /// Records what an ended run of `item` could not write ([`Ledger::keep`]), releasing the
    /// item from [`LocalRuns`] when the ledger says so. `held`: the item is in [`LocalRuns`] for
    /// it (its run just ended, or its nodes were left).
    fn keep(&mut self, item: u32, left: Unsettled, held: bool) {
        if self.busy().ledger.keep(item, left, held).release {
            lock(&self.local).remove(&item);
        }
    }

    /// A round of tries at clearing what ended runs left ended, `left` saying whether it left
    /// anything ([`Ledger::tried`]).
    fn schedule_clear(&mut self, left: bool, jitter: &Jitter) {
        let Some(busy) = self.busy.as_deref_mut() else { return };
        busy.ledger.tried(left, tokio::time::Instant::now().into_std(), || jitter.draw());
    }

    /// True when a run of `item` is in progress here.
    pub(super) fn is_running(&self, item: u32) -> bool {
        self.fired().is_some_and(|state| state.is_running(item))
    }

    /// The fire that waited for resharding, if any.
    pub(super) fn take_pending(&mut self) -> Option<Source> {
        self.busy.as_mut()?.state.take_pending()
    }

    /// The fire missed while the registry was unreachable, if it is to run now.
    pub(super) fn take_missed_offline(&mut self, misfire: bool) -> Option<Source> {
        self.busy.as_mut()?.state.take_missed_offline(misfire)
    }

    /// A fire ([`Firing::fire`]): run every idle local item; queue or owe the fire for busy ones;
    /// while resharding, owe it to every item or let it wait. With the link down the fire is
    /// remembered and runs once the registry answers again.
    pub(super) async fn fire(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        cache: &TreeCache,
        link_ok: bool,
        source: Source,
    ) {
        ctx.settings.metrics.fire(ctx.name(), source.label());
        let view = ctx.snapshot(cache);
        let facts = facts(ctx, config, link_ok);
        let firing = self.with_fires(|state| Firing::fire(source, facts, state, &view, ctx.now()));
        self.drive(ctx, config, firing, view).await;
    }

    /// The registry is back after an outage during which fires were deferred: the latest of them
    /// is owed ([`Firing::missed`]). The owed items run from their `misfire` nodes.
    pub(super) async fn owe_missed(&mut self, ctx: &JobCtx, config: &Effective, cache: &TreeCache, at: DateTime<Utc>) {
        ctx.settings.metrics.deferred_handled(&ctx.probe);
        let view = ctx.snapshot(cache);
        let firing = Firing::missed(at, facts(ctx, config, true), &view);
        self.drive(ctx, config, firing, view).await;
    }

    /// Starts the given items where they are idle, local and enabled; queues or owes the fire
    /// for the busy ones ([`Firing::items`]). A trigger leaves out the items a run has covered
    /// since it was written.
    pub(super) async fn start_items(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        view: Arc<JobSnapshot>,
        items: Vec<u32>,
        source: Source,
    ) {
        let facts = facts(ctx, config, true);
        let firing = self.with_fires(|state| Firing::items(source, items, facts, state, &view, ctx.now()));
        self.drive(ctx, config, firing, view).await;
    }

    /// Runs an item a failover round claimed ([`Firing::claimed`]). Returns false when it cannot
    /// run here, so the claim is given back.
    pub(super) async fn start_failover(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        cache: &TreeCache,
        item: u32,
    ) -> bool {
        let facts = facts(ctx, config, true);
        let firing = self.with_fires(|state| Firing::claimed(item, facts, state, ctx.now()));
        self.drive(ctx, config, firing, ctx.snapshot(cache)).await.is_empty()
    }

    /// Starts local items whose queued fire (or a misfire node left by an earlier owner) can run
    /// now that nothing runs them anywhere ([`Firing::queued`]).
    pub(super) async fn start_free_queued(&mut self, ctx: &JobCtx, config: &Effective, view: &Arc<JobSnapshot>) {
        let now = ctx.now();
        let (me, total, misfire) = (ctx.me.as_str(), config.total(), config.config.misfire);
        // Before the first fire no fire is queued, but an earlier owner may have left a misfire.
        let ready = match self.busy.as_deref_mut() {
            Some(busy) => busy.state.take_free_queued(view, me, total, misfire, now),
            None => FireState::default().take_free_queued(view, me, total, misfire, now),
        };
        for (item, source) in ready {
            let facts = facts(ctx, config, true);
            let firing = match source {
                Some(source) => self.with_fires(|state| Firing::queued(source, item, facts, state, view, ctx.now())),
                None => Firing::misfire_node(item, facts),
            };
            self.drive(ctx, config, firing, Arc::clone(view)).await;
        }
    }
}

/// What a fire here goes by ([`Facts`]); `link_ok`: the registry answers.
fn facts(ctx: &JobCtx, config: &Effective, link_ok: bool) -> Facts {
    Facts {
        paths: ctx.paths.clone(),
        me: ctx.me.to_string(),
        total: config.total(),
        monitor: config.config.monitor_execution,
        misfire: config.config.misfire,
        max_time_diff_seconds: config.config.max_time_diff_seconds,
        listeners: super::listeners::has_listeners(ctx, config),
        unrunnable: config.executor.as_ref().err().map(ToString::to_string),
        link_ok,
        drop_misfires: injected!(ctx.settings, MisfireDropped),
    }
}

/// Whose nodes a cleanup deletes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    /// Nodes of this instance's runs: a node is deleted only while it still names this instance.
    /// Once this instance's session ended, another instance may have taken the item over and
    /// written its own node under the same name; deleting that would let a second run start.
    Mine,
    /// Every instance's (monitoring was switched off: every instance clears every node).
    Anyone,
}

/// Applies `ops` (deletes of run nodes, writes of `result` leaves). `fresh`: in the session that
/// wrote the nodes, so one unconditional transaction (no read) is safe; otherwise, or when that
/// transaction fails (a node is gone already, a `result` leaf appeared or vanished since the
/// cache saw it), op by op: a delete — for [`Owner::Mine`] after reading that the node still
/// names this instance, of that version — and a write as create-or-set.
/// Returns the paths of the deletes it could not do (the registry failed); a result that cannot
/// be written is only logged.
async fn apply_all(ctx: &JobCtx, ops: Vec<Op>, owner: Owner, fresh: bool, what: &str) -> Vec<String> {
    let mut failed = Vec::new();
    if ops.is_empty() || (fresh && ctx.registry.transaction(&ops).await.is_ok()) {
        return failed;
    }
    for op in &ops {
        let result = match (op, owner) {
            (Op::Create { path, data, .. } | Op::Set { path, data, .. }, _) => {
                if let Err(e) = ctx.registry.put(path, data).await {
                    tracing::warn!(job = %ctx.name(), path = %path, error = %e, "cannot record the result");
                }
                continue;
            }
            (Op::Check { .. }, _) => continue,
            (Op::Delete { path, .. }, Owner::Anyone) => ctx.registry.delete_if_exists(path).await.map(drop),
            (Op::Delete { path, .. }, Owner::Mine) => delete_if_mine(ctx, path).await,
        };
        if let Err(e) = result {
            tracing::warn!(job = %ctx.name(), path = %op.path(), error = %e, "cannot clear {what}; retrying");
            failed.push(op.path().to_string());
        }
    }
    failed
}

/// Deletes `path` if it names this instance (that version of it).
async fn delete_if_mine(ctx: &JobCtx, path: &str) -> Result<(), RegistryError> {
    let Some(node) = ctx.registry.get(path).await? else { return Ok(()) };
    if node.data != ctx.me.encode() {
        return Ok(());
    }
    match ctx.registry.delete(path, Some(node.stat.version)).await {
        Ok(()) | Err(RegistryError::NoNode(_) | RegistryError::BadVersion(_)) => Ok(()),
        Err(e) => Err(e),
    }
}
