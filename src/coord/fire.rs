//! Fires and runs of one job on one instance, as pure state and decisions.
//!
//! [`FireState`] is what an instance knows about its own runs: per item the run in progress, a fire
//! queued behind it and when the last run started; a fire waiting for resharding; the latest fire
//! that came due while the registry was unreachable. Its methods are the rules of
//! docs/src/design/guarantee.md and docs/src/design/compatibility.md#fires-and-misfire, with the
//! time passed in:
//!
//! * [`gate`]: whether a fire can run now, must wait for resharding, or is owed to every item;
//! * [`plan_item`]: for one item of a fire — disabled, covered by a run that started after the
//!   fire, skipped (misfire off), owed a run because it is busy here or elsewhere, or started;
//! * [`FireState::queue`], [`FireState::begin`], [`FireState::finish`],
//!   [`FireState::take_free_queued`]: the bookkeeping of queued fires, runs and misfires.
//!
//! Nothing here does I/O or reads a clock: the runtime feeds in the view of the registry, the
//! outcome of its requests and the current instant, and carries out what comes back.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::failover::SUSPECT_LEAVES;
use super::snapshot::{ItemSnapshot, JobSnapshot};
use crate::registry::codec;
use crate::registry::path::{ItemLeaf, JobPaths};
use crate::registry::{NodeData, Op};

/// Why an item run was started, and the instant of the fire it covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A cron fire due at this instant.
    Cron(DateTime<Utc>),
    /// A manual trigger (`trigger/{id}`) seen at this instant, with the token of a
    /// `job trigger --wait` that wants the items' results, and the identity every instance it
    /// was written for gives it (`None` when it could not be read).
    Trigger(DateTime<Utc>, Option<Arc<str>>, Option<FireId>),
    /// A fire (the latest one, when several coalesced) that came due while the item was busy or
    /// the registry unreachable.
    Misfire(DateTime<Utc>),
    /// An orphaned run (its instance died or was cut off) claimed at this instant.
    Failover(DateTime<Utc>),
}

impl Source {
    /// `cron`, `trigger`, `misfire` or `failover`, for logs.
    pub fn label(&self) -> &'static str {
        match self {
            Source::Cron(_) => "cron",
            Source::Trigger(..) => "trigger",
            Source::Misfire(_) => "misfire",
            Source::Failover(_) => "failover",
        }
    }

    /// The fire instant this run covers.
    pub fn at(&self) -> DateTime<Utc> {
        match self {
            Source::Cron(t) | Source::Trigger(t, ..) | Source::Misfire(t) | Source::Failover(t) => *t,
        }
    }

    /// True for a manual trigger: it gets a run of its own (its caller may wait for it) unless
    /// one started after it was written ([`trigger_covered`]).
    pub fn is_trigger(&self) -> bool {
        matches!(self, Source::Trigger(..))
    }

    /// The fire a run queued behind a busy item stands for, given what was queued already: a
    /// trigger stays a trigger (its results are awaited), a cron fire becomes a misfire.
    pub fn queue_behind(&self, queued: Option<Source>) -> Source {
        match (self, queued) {
            (Source::Trigger(..), _) => self.clone(),
            (_, Some(trigger @ Source::Trigger(..))) => trigger,
            (Source::Cron(t) | Source::Misfire(t) | Source::Failover(t), _) => Source::Misfire(*t),
        }
    }

    /// The `job trigger --wait` token, if any.
    pub fn token(&self) -> Option<&str> {
        match self {
            Source::Trigger(_, token, _) => token.as_deref(),
            _ => None,
        }
    }

    /// The fire's identity across instances, for the fires every instance handles together: a
    /// cron instant, a trigger written for every instance at once. A misfire or a failed-over
    /// run stands for a fire one instance owes; it has none.
    pub fn fire_id(&self) -> Option<FireId> {
        match self {
            Source::Cron(t) => Some(FireId::cron(*t)),
            Source::Trigger(_, _, id) => *id,
            Source::Misfire(_) | Source::Failover(_) => None,
        }
    }
}

/// A fire's identity, the same on every instance that handles it: a cron fire's scheduled
/// instant (every instance computes it from the same cron), or a trigger's creation — the
/// `trigger` node an admin writes for all instances at once, its creation time (the registry's
/// clock) and zxid. Ordered by instant, so that "a later fire" has a meaning across both kinds
/// (a trigger and a cron fire within the same millisecond: the cron fire first).
///
/// Written as `cron-{ms}` or `trigger-{ms}-{zxid}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FireId {
    /// The instant, ms since the epoch.
    pub at_ms: i64,
    /// For a trigger, the zxid that created its `trigger` node.
    pub trigger: Option<i64>,
}

impl FireId {
    /// A cron fire's identity.
    pub fn cron(at: DateTime<Utc>) -> FireId {
        FireId { at_ms: at.timestamp_millis(), trigger: None }
    }

    /// A trigger's identity: its `trigger` node's creation time (ms) and zxid.
    pub fn trigger(ctime_ms: i64, czxid: i64) -> FireId {
        FireId { at_ms: ctime_ms, trigger: Some(czxid) }
    }

    /// Parses [`FireId`]'s text; `None` for anything else.
    pub fn parse(text: &str) -> Option<FireId> {
        if let Some(ms) = text.strip_prefix("cron-") {
            return Some(FireId { at_ms: ms.parse().ok()?, trigger: None });
        }
        let (ms, zxid) = text.strip_prefix("trigger-")?.split_once('-')?;
        Some(FireId { at_ms: ms.parse().ok()?, trigger: Some(zxid.parse().ok()?) })
    }
}

impl std::fmt::Display for FireId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.trigger {
            None => write!(f, "cron-{}", self.at_ms),
            Some(zxid) => write!(f, "trigger-{}-{zxid}", self.at_ms),
        }
    }
}

/// How long after its instant a fire is late. A cron fire handled later than this was held up
/// (its task waited on the registry): its items are owed the fire through the registry rather
/// than started, since they may have been failed over and run elsewhere meanwhile. A past fire
/// whose first run started later than this was covered late (`ejctl why --fire`).
pub const LATE: chrono::TimeDelta = chrono::TimeDelta::seconds(2);

/// Whether a fire scheduled at `scheduled` is due at `now`: once the worker's clock reaches it.
/// A timer armed before the clock was set back (NTP) goes off early; the fire then waits until
/// the clock gets there — fired early, its runs would start "before" it and not cover it, while
/// an owed fire coalesced into it would count as covered. The rule for every fire, cron
/// ([`super::timetable`]) or owed.
pub fn due(scheduled: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    now >= scheduled
}

/// What a fire does once the registry is reachable and the clock within limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gate {
    /// Resharding is flagged or in progress (or items have no owner): with misfire on, the fire
    /// is owed to every item of the job so that exactly one run covers it across the cluster,
    /// whoever owns the item afterwards.
    OweToAll,
    /// The same, for a trigger or with misfire off: the fire runs here once resharding is done.
    Wait,
    /// Start (or queue, or owe) these local items.
    Run(Vec<u32>),
}

/// Decides a fire from the registry view (docs/src/design/compatibility.md#fires-and-misfire with
/// docs/src/design/behaviour.md#misfire-done-right).
pub fn gate(view: &JobSnapshot, me: &str, total: u32, misfire: bool, source: &Source) -> Gate {
    if view.sharding_pending(total) {
        if misfire && !source.is_trigger() { Gate::OweToAll } else { Gate::Wait }
    } else {
        Gate::Run(view.local_items(me, total))
    }
}

/// What one item does at a fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemPlan {
    /// The item is disabled.
    Disabled,
    /// A run that started here at or after the fire covers it.
    Covered,
    /// The item is busy (`here`, or elsewhere) and misfire is off: the fire is skipped.
    Skipped {
        /// Busy with a run of this instance.
        here: bool,
    },
    /// The item is busy (`here`, or elsewhere): when `owe` (misfire on) the fire is recorded as
    /// owed in the registry; see [`FireState::queue`] for what waits here.
    Busy {
        /// Busy with a run of this instance.
        here: bool,
        /// Record the owed fire in the registry (misfire is on).
        owe: bool,
    },
    /// Idle, but the fire is handled late (a cron fire, misfire on): its task was held up and
    /// the item may have been failed over and run elsewhere meanwhile, so the fire is owed
    /// through the registry's start stamps ([`super::txn::owe`]) rather than started.
    OweLate,
    /// Idle: start it.
    Start,
}

/// Decides one item of a fire (`start_items` of docs/src/design/compatibility.md#fires-and-misfire,
/// per item):
///
/// 1. a disabled item does nothing;
/// 2. an item taken over by another instance (`failover`/`failovering` naming someone else), or
///    running elsewhere (its `running` node, when monitoring), is busy elsewhere;
/// 3. a fire handled late (it waited for resharding or a busy run) is covered by a run that
///    started here at or after its instant — except a trigger, which gets its own run unless the
///    registry shows a run that started after it was written ([`trigger_covered`], checked by
///    the caller before this);
/// 4. a busy item is skipped when misfire is off (triggers excepted), else owed a run;
/// 5. an idle item of a cron fire handled more than [`LATE`] after its instant (`now`), misfire
///    on, is owed the fire ([`ItemPlan::OweLate`]);
/// 6. anything else starts.
pub fn plan_item(
    state: &ItemSnapshot,
    slot: Option<&Slot>,
    source: &Source,
    me: &str,
    (monitor_execution, misfire): (bool, bool),
    now: DateTime<Utc>,
) -> ItemPlan {
    if state.disabled {
        return ItemPlan::Disabled;
    }
    let taken_over =
        state.failover.as_deref().is_some_and(|o| o != me) || state.failovering.as_deref().is_some_and(|o| o != me);
    let busy_elsewhere = taken_over || (monitor_execution && state.running);
    let busy_here = slot.and_then(|s| s.run.as_ref()).map(|r| r.started_at);
    let trigger = source.is_trigger();
    if busy_here.is_none() && !trigger && slot.and_then(|s| s.last_start).is_some_and(|at| at >= source.at()) {
        return ItemPlan::Covered;
    }
    if busy_here.is_none() && !busy_elsewhere {
        let late = matches!(source, Source::Cron(_)) && misfire && now - source.at() > LATE;
        return if late { ItemPlan::OweLate } else { ItemPlan::Start };
    }
    let here = busy_here.is_some();
    if busy_here.is_some_and(|at| at >= source.at()) && !trigger {
        return ItemPlan::Covered;
    }
    if !misfire && !trigger {
        return ItemPlan::Skipped { here };
    }
    ItemPlan::Busy { here, owe: misfire }
}

/// Whether a trigger no longer needs a run of an item, as the registry shows it (`node`): a
/// trigger's fire is the moment its `trigger` node was written (zxid `written`), and a run of the
/// item that started after that covers it (docs/src/design/guarantee.md#the-promise), wherever it ran. This is what keeps a trigger
/// that reaches two instances while resharding moves an item between them from running the item
/// on both: the old owner ran it at once, the new one finds the run when its turn comes.
///
/// * For a `job trigger --wait` (`by_result`), `node` is the item's result under the trigger's
///   token: only a run of that very trigger covers it, since its caller waits for that result.
/// * Otherwise `node` is the item (`sharding/{i}`), whose data is the start stamp every run
///   writes as it starts: a stamp written after the trigger (a later zxid; a zxid orders writes
///   without any clock) is a run that started after it. An item node with no stamp (created by
///   resharding) covers nothing.
pub fn trigger_covered(written: i64, by_result: bool, node: Option<&NodeData>) -> bool {
    match node {
        Some(_) if by_result => true,
        Some(node) => node.stat.mzxid > written && codec::decode_millis(&node.data).is_some(),
        None => false,
    }
}

/// A run in progress on this instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunInfo {
    /// Distinguishes runs of the same item.
    pub id: u64,
    /// What it covers.
    pub source: Source,
    /// When it started, by the wall clock (fires are wall-clock instants).
    pub started_at: DateTime<Utc>,
}

/// Per item: the run in progress and a fire queued behind it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Slot {
    /// The run in progress here.
    pub run: Option<RunInfo>,
    /// A fire that runs as soon as the item is free.
    pub queued: Option<Source>,
    /// When the last run here started, by the wall clock.
    pub last_start: Option<DateTime<Utc>>,
    /// The queued fire's `running` transaction failed without an answer: it may have been
    /// applied, and the item started here by the registry's account ([`super::firing`]).
    pub in_doubt: bool,
}

/// A run that ended, as the run task reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ended {
    /// The item.
    pub item: u32,
    /// The run's id.
    pub id: u64,
    /// Killed because the worker was cut off from the registry.
    pub fenced: bool,
}

/// What to do after runs ended ([`FireState::finish`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Finished {
    /// The runs that ended, with what they covered (for logs and trigger results).
    pub runs: Vec<(u32, RunInfo)>,
    /// Items whose `running` node goes (runs of cron, trigger or misfire fires).
    pub clear_running: Vec<u32>,
    /// Items whose failover run ended: `running`, `failover` and `failovering` go together.
    pub complete_failover: Vec<u32>,
    /// Items killed by fencing: their `running` node stays for failover ([`hand_back`]).
    pub fenced: Vec<u32>,
    /// Runs whose start may settle an owed misfire: `(item, started_at)`.
    pub settle: Vec<(u32, DateTime<Utc>)>,
    /// Fires queued behind the ended runs, to run now.
    pub rerun: Vec<(u32, Source)>,
}

/// What becomes of a fire that was queued behind a run that just ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rerun {
    /// Run it now.
    Start,
    /// Keep it until resharding is done (a trigger: its caller waits for a run).
    WaitForSharding,
    /// Nothing to do here: the item moved to another instance, or resharding is under way and
    /// the fire is a misfire — it is owed in the registry (its `misfire` node), so whoever owns
    /// the item afterwards runs it. Turning it into a fire of every local item instead would run
    /// it again on items this instance only gets by the resharding, whose previous owner may have
    /// covered it already (a repeat the simulator found).
    Drop,
}

/// Decides a queued fire after its item's run ended.
pub fn rerun(source: &Source, sharding_pending: bool, still_local: bool) -> Rerun {
    if sharding_pending {
        if source.is_trigger() { Rerun::WaitForSharding } else { Rerun::Drop }
    } else if still_local {
        Rerun::Start
    } else {
        Rerun::Drop
    }
}

/// What a run that ends while the worker stops leaves behind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopCleanup {
    /// Its nodes stay: it was killed by fencing, or killed with failover on, so another instance
    /// takes the item over.
    Keep,
    /// Its `running` node goes.
    ClearRunning,
    /// Its failover nodes go (a failover run).
    CompleteFailover,
}

/// The cleanup of a run that ended during a stop.
pub fn stop_cleanup(
    source: &Source,
    fenced: bool,
    killed: bool,
    failover: bool,
    monitor_execution: bool,
) -> StopCleanup {
    let keep_node = fenced || (killed && failover);
    if !monitor_execution || keep_node {
        StopCleanup::Keep
    } else if matches!(source, Source::Failover(_)) {
        StopCleanup::CompleteFailover
    } else {
        StopCleanup::ClearRunning
    }
}

/// The nodes a worker reads for each of its runs that fencing killed, before it hands the run
/// back ([`hand_back`]): what a failover round reads for a suspect
/// ([`super::failover::suspect_reads`]), then the item's failover queue entry.
pub fn hand_back_reads(paths: &JobPaths, item: u32) -> Vec<String> {
    let mut reads = super::failover::suspect_reads(paths, item);
    reads.push(paths.failover_item(item));
    reads
}

/// A run that fencing killed, once the registry answers again: its nodes still name this
/// instance (`me`), and no other instance takes them for an orphan while its id is live again
/// (the same id registers in a new session), so the worker hands the run back itself
/// (docs/src/design/compatibility.md#failover). With `failover` the item is queued as
/// [`super::failover::orphan`] queues it (an entry already there stands for it: only the nodes
/// go); without it, its `running` node is deleted. No latch is taken: ElasticJob queues a crashed
/// instance's items without it too, and every delete is version-checked. `fresh` is the read of
/// [`hand_back_reads`]; `instances` those that may still run items ([`JobSnapshot::may_run`]);
/// `here`: the item runs here again (checked after the read). `None`: nothing to hand back (the
/// nodes are gone, or name a run that is not this instance's killed one).
pub fn hand_back(
    paths: &JobPaths,
    item: u32,
    me: &str,
    here: bool,
    failover: bool,
    instances: &BTreeSet<String>,
    fresh: &[Option<NodeData>],
) -> Option<Vec<Op>> {
    if here {
        return None;
    }
    if !failover {
        let running = fresh.first().and_then(Option::as_ref).filter(|n| n.text() == me)?;
        let version = Some(running.stat.version);
        return Some(vec![Op::Delete { path: paths.item_leaf(item, ItemLeaf::Running), version }]);
    }
    let n = SUSPECT_LEAVES.len();
    let (leaves, stamp) = (fresh.get(..n)?, fresh.get(n).and_then(Option::as_ref));
    let orphan =
        super::failover::orphan(paths, item, me, false, instances, leaves, stamp).filter(|o| o.runner == me)?;
    let queued = fresh.get(n + 1).is_some_and(Option::is_some);
    let entry = paths.failover_item(item);
    let ops: Vec<Op> = orphan.ops.into_iter().filter(|op| !(queued && op.path() == entry)).collect();
    Some(ops)
}

/// An instance's own runs of one job: see the module docs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FireState {
    slots: BTreeMap<u32, Slot>,
    next_run_id: u64,
    /// A fire waiting for resharding to finish. Boxed: it is rare, and a fire's source is 56
    /// bytes of every job's state.
    pending: Option<Box<Source>>,
    /// The latest fire that came due while the registry was unreachable.
    missed_offline: Option<DateTime<Utc>>,
}

impl FireState {
    /// The item's slot, if it has one.
    pub fn slot(&self, item: u32) -> Option<&Slot> {
        self.slots.get(&item)
    }

    /// True when a run of `item` is in progress here.
    pub fn is_running(&self, item: u32) -> bool {
        self.slots.get(&item).is_some_and(|s| s.run.is_some())
    }

    /// The runs in progress.
    pub fn running(&self) -> impl Iterator<Item = (u32, &RunInfo)> {
        self.slots.iter().filter_map(|(item, s)| s.run.as_ref().map(|r| (*item, r)))
    }

    /// How many runs are in progress.
    pub fn running_count(&self) -> usize {
        self.slots.values().filter(|s| s.run.is_some()).count()
    }

    /// A fire came due while the registry was unreachable: remember the latest one.
    pub fn defer_offline(&mut self, at: DateTime<Utc>) {
        self.missed_offline = Some(self.missed_offline.map_or(at, |m| m.max(at)));
    }

    /// The registry is back: the fire missed meanwhile, to run once as a misfire (with misfire
    /// on) — one run per item covers every fire missed, standing for the latest of them.
    pub fn take_missed_offline(&mut self, misfire: bool) -> Option<Source> {
        self.missed_offline.take().filter(|_| misfire).map(Source::Misfire)
    }

    /// Keeps a fire until resharding is done: the latest one, except that a trigger is never
    /// displaced by a cron or misfire fire (a run ending during resharding re-queues its misfire
    /// here): the trigger's caller waits for a run of its own, and a run for the trigger covers
    /// the other fire too.
    pub fn wait_for_sharding(&mut self, source: Source) {
        self.pending = Some(match self.pending.take() {
            Some(trigger) if trigger.is_trigger() && !source.is_trigger() => trigger,
            _ => Box::new(source),
        });
    }

    /// The fire that waited for resharding, if any.
    pub fn take_pending(&mut self) -> Option<Source> {
        self.pending.take().map(|source| *source)
    }

    /// After a busy item was owed a fire (`owed`: the misfire node records it): queue the fire
    /// here when the item is busy here and owed, and always for a trigger (it waits for its own
    /// run). Returns whether the fire is owed a run (for the log).
    pub fn queue(&mut self, item: u32, source: &Source, here: bool, owed: bool) -> bool {
        if here && owed || source.is_trigger() {
            let slot = self.slots.entry(item).or_default();
            slot.queued = Some(source.queue_behind(slot.queued.take()));
        }
        owed || source.is_trigger()
    }

    /// The registry failed the `running` transaction of `item` for `source` without saying
    /// whether it was applied: the fire is queued here in doubt, and the doubt is resolved before
    /// it runs ([`FireState::take_doubt`]).
    pub fn queue_in_doubt(&mut self, item: u32, source: &Source) {
        let slot = self.slots.entry(item).or_default();
        slot.queued = Some(source.queue_behind(slot.queued.take()));
        slot.in_doubt = true;
    }

    /// Whether the fire queued for `item` is in doubt; the doubt is now the caller's to resolve.
    pub fn take_doubt(&mut self, item: u32) -> bool {
        self.slots.get_mut(&item).is_some_and(|slot| std::mem::take(&mut slot.in_doubt))
    }

    /// Items about to start: a queued misfire is spent by a run starting now (it covers every
    /// fire missed before it); a queued trigger stays, its caller waits for a run after it.
    pub fn spend_queued_misfires(&mut self, items: &[u32]) {
        for item in items {
            let slot = self.slots.entry(*item).or_default();
            if matches!(slot.queued, Some(Source::Misfire(_))) {
                slot.queued = None;
            }
        }
    }

    /// Records a run that starts now; `None` (a bug if reached: every start path holds the item's
    /// `running` node first) when the item already runs here.
    pub fn begin(&mut self, item: u32, source: Source, now: DateTime<Utc>) -> Option<u64> {
        let slot = self.slots.entry(item).or_default();
        if slot.run.is_some() {
            return None;
        }
        self.next_run_id += 1;
        slot.run = Some(RunInfo { id: self.next_run_id, source, started_at: now });
        slot.last_start = Some(now);
        Some(self.next_run_id)
    }

    /// Runs ended: what to clean up, settle and run again. An end that does not match the run in
    /// progress (a stale report) is ignored.
    pub fn finish(&mut self, ended: &[Ended]) -> Finished {
        let mut out = Finished::default();
        for e in ended {
            let slot = self.slots.entry(e.item).or_default();
            let Some(run) = slot.run.take_if(|r| r.id == e.id) else { continue };
            let queued = slot.queued.take();
            if e.fenced {
                // The running node stays: the run is an orphan now, failed over by whoever sees
                // this session end, or handed back by this instance once the registry answers
                // again ([`hand_back`]).
                out.fenced.push(e.item);
            } else {
                if matches!(run.source, Source::Failover(_)) {
                    out.complete_failover.push(e.item);
                } else {
                    out.clear_running.push(e.item);
                }
                out.settle.push((e.item, run.started_at));
                if let Some(source) = queued {
                    out.rerun.push((e.item, source));
                }
            }
            out.runs.push((e.item, run));
        }
        out
    }

    /// A run that ended during a stop: its record, if it matches the run in progress.
    pub fn finish_stopping(&mut self, item: u32, id: u64) -> Option<RunInfo> {
        self.slots.entry(item).or_default().run.take_if(|r| r.id == id)
    }

    /// Local items that can run a queued fire now — or an owed `misfire` node left by an earlier
    /// owner (with misfire on) — because nothing runs them anywhere. Takes the queued fires; an
    /// item with only a misfire node comes with `None` (its owed instant is read from the node).
    /// A queued misfire whose instant this worker's clock (`now`) has not reached yet (owed by a
    /// clock ahead of it, within `maxTimeDiffSeconds`) stays queued: started now, the run would
    /// start before the fire it is for, and the fire would be owed again.
    ///
    /// A fire queued in doubt ([`FireState::queue_in_doubt`]) is taken whenever no run of its
    /// item is in progress here, whatever the cache shows: its `running` node, if the transaction
    /// was applied, names this instance and makes the item look busy, and the item may have been
    /// resharded away since (a run that started keeps running through a reshard).
    pub fn take_free_queued(
        &mut self,
        view: &JobSnapshot,
        me: &str,
        total: u32,
        misfire: bool,
        now: DateTime<Utc>,
    ) -> Vec<(u32, Option<Source>)> {
        let mut ready = Vec::new();
        for (item, slot) in &mut self.slots {
            if slot.in_doubt && slot.run.is_none() {
                ready.extend(slot.queued.take().map(|source| (*item, Some(source))));
            }
        }
        for item in view.local_items(me, total) {
            let state = view.items.get(&item).cloned().unwrap_or_default();
            let free = !state.disabled
                && !state.running
                && state.failover.as_deref().is_none_or(|o| o == me)
                && state.failovering.as_deref().is_none_or(|o| o == me);
            // No slot is made for an item that has none: an idle job keeps no per-item state.
            let slot = self.slots.get_mut(&item);
            let early = slot.as_ref().is_some_and(|s| matches!(s.queued, Some(Source::Misfire(at)) if !due(at, now)));
            let taken = slot.as_ref().is_some_and(|s| s.in_doubt);
            if !free || slot.as_ref().is_some_and(|s| s.run.is_some()) || early || taken {
                continue;
            }
            if let Some(source) = slot.and_then(|s| s.queued.take()) {
                ready.push((item, Some(source)));
            } else if misfire && state.misfire {
                ready.push((item, None));
            }
        }
        ready
    }
}

#[cfg(test)]
#[path = "fire_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "fire_end_tests.rs"]
mod end_tests;
