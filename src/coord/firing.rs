//! One fire on this instance, from the moment it is handled to its runs started, as a machine
//! without I/O in the shape of [`super::once_waiter`]. What each step decides is
//! [`super::fire`]'s ([`gate`], [`plan_item`], [`trigger_covered`], [`FireState`]'s bookkeeping)
//! and [`super::txn`]'s ([`txn::first_alone`]); the machine sequences them with the reads and
//! writes they wait for, and applies their bookkeeping to the instance's [`FireState`].
//!
//! A fire goes through, each step only when the one before calls for it:
//!
//! 1. **The link.** With the registry unreachable, the fire is deferred ([`FireState::defer_offline`])
//!    and runs once the registry answers again.
//! 2. **The clock** (`maxTimeDiffSeconds`, when set): the registry's clock is read; a clock off by
//!    more, or a registry whose clock cannot be read, refuses the fire on the local items.
//! 3. **The gate** ([`gate`]): while resharding, the fire is owed to every item or waits for it.
//! 4. **What covers a trigger**: a trigger with an identity reads whether runs started since it was
//!    written ([`trigger_covered`]); those items get no run of it.
//! 5. **Each item** ([`plan_item`]): busy items and late fires are owed the fire and queued here
//!    as [`FireState::queue`] says; idle items start. To owe, the items' start stamps are read
//!    and [`txn::owe`]'s writes made, all items at once; a run that started since the read makes a
//!    write fail, and that item is read again, [`txn::OWE_ATTEMPTS`] times in all before it is
//!    taken as owed (as is an item whose stamp or write the registry fails: a repeat at worst,
//!    never a miss).
//! 6. **The start**, when the configuration can run: with monitoring the `running` nodes are
//!    written first, the first item's alone in a large fire ([`txn::first_alone`]); the fire's
//!    trace group and listener phases open for the items that start; their runs start; the rest's
//!    nodes follow, and what runs elsewhere leaves the group. An item whose node the registry
//!    fails to write is not lost to the fire: it is owed the fire as at step 5, queued here *in
//!    doubt*, and the queued fires are looked at again after a pause ([`FireAction::Retry`]).
//!    ZooKeeper does not say whether a transaction whose reply was lost was applied; if it was,
//!    the item is stamped (the owe finds the fire covered) and its `running` node names this
//!    instance with no run here — a node that, without failover, is ephemeral and would hold the
//!    item until the session ends. So a fire in doubt first reads the node and the stamp: a node
//!    that names this instance, with no `failovering` node beside it (that is a failover claim's,
//!    left to the failover round), is taken over ([`FireAction::Adopt`]) and the run starts
//!    under it, as it would have after the reply; otherwise the fire runs unless a run covered it.
//!    A `misfire` node's fire ([`Firing::misfire_node`]) reads the node and the stamp the same
//!    way, and is settled when a run started since covers it.
//!
//! The fire of a queued item ([`Firing::queued`]) and a rerun after a busy run
//! ([`Firing::items`]) start at step 4; the fires missed while the registry was unreachable
//! ([`Firing::missed`]) are owed at step 3. An item a failover round claimed ([`Firing::claimed`])
//! starts at step 6 with its node written by the claim, or is given back.
//!
//! **Contract.** Every polled action that asks ([`FireAction::ReadClock`],
//! [`FireAction::ReadStarts`], [`FireAction::WriteOwes`], [`FireAction::ReadCovered`],
//! [`FireAction::Mark`], [`FireAction::ReadLeaves`], [`FireAction::Adopt`]) must be carried out and
//! answered with its
//! event before the next action is polled; the others are carried out in the order they come.
//! When [`Firing::poll_action`] returns `None` the fire is handled.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};

use super::fire::{FireState, Gate, ItemPlan, Source, gate, plan_item, trigger_covered};
use super::outbox::Outbox;
use super::react;
use super::snapshot::JobSnapshot;
use super::txn::{self, Owe, OweOutcome};
use crate::registry::path::{ItemLeaf, JobPaths};
use crate::registry::{NodeData, Op};

/// What a fire on this instance goes by, from the configuration and the worker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    /// The job's paths.
    pub paths: JobPaths,
    /// This instance's id.
    pub me: String,
    /// The job's sharding total.
    pub total: u32,
    /// `monitorExecution`.
    pub monitor: bool,
    /// `misfire`.
    pub misfire: bool,
    /// `maxTimeDiffSeconds` (negative: the clock is not checked).
    pub max_time_diff_seconds: i32,
    /// The job has listener phases (the items wait for the `before` phase).
    pub listeners: bool,
    /// Why the configuration cannot run, when it cannot: items due to start are refused.
    pub unrunnable: Option<String>,
    /// The registry answers: a fire handled without it is deferred.
    pub link_ok: bool,
    /// The simulator's injected bug `misfire-dropped` (set only by its mutation check): a fire
    /// that finds its item busy, or comes during resharding, is dropped instead of owed.
    pub drop_misfires: bool,
}

/// Why a fire is refused on the items, for [`FireAction::Refuse`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The clock is `skew_ms` off the registry's, over `maxTimeDiffSeconds` = `limit`.
    ClockSkew {
        /// How far off.
        skew_ms: i64,
        /// The limit, in seconds.
        limit: i32,
    },
    /// The registry's clock could not be read (the error).
    ClockUnread(String),
    /// The configuration cannot run (why).
    Unrunnable(String),
}

impl Refusal {
    /// What the items' `result` records.
    pub fn reason(&self) -> String {
        match self {
            Refusal::ClockSkew { skew_ms, limit } => format!(
                "clock skew: this machine's clock is {skew_ms} ms off the registry's, over maxTimeDiffSeconds = {limit}"
            ),
            Refusal::ClockUnread(e) => {
                format!("cannot read the registry's clock for the maxTimeDiffSeconds check: {e}")
            }
            Refusal::Unrunnable(e) => format!("the worker cannot run the job: {e}"),
        }
    }
}

/// What to log, for [`FireAction::Note`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// The fire comes during resharding: it is owed to every item.
    OwedToAll,
    /// The fire waits for resharding.
    WaitsForSharding,
    /// Fires were missed while the registry was unreachable: the latest is owed to `items`.
    OwingMissed {
        /// How many items.
        items: usize,
    },
    /// Runs started after the trigger was written cover it on these items.
    TriggerCovered(Vec<u32>),
    /// The item is busy (`here`, or elsewhere) and misfire is off: the fire is skipped.
    Skipped {
        /// The item.
        item: u32,
        /// Busy here.
        here: bool,
    },
    /// The item is busy (`here`, or elsewhere): the fire is owed a run.
    Queued {
        /// The item.
        item: u32,
        /// Busy here.
        here: bool,
    },
    /// The fire came late to the idle item: it is owed a run.
    OwedLate {
        /// The item.
        item: u32,
    },
    /// The item's start stamp could not be read: the fire is taken as owed to it.
    StartUnread {
        /// The item.
        item: u32,
        /// The registry's error.
        error: String,
    },
    /// The registry failed to write these items' `running` nodes: the fire is owed to them.
    Unmarked(Vec<u32>),
    /// A run that started at or after the fire queued for the item covers it: it is dropped.
    QueuedCovered {
        /// The item.
        item: u32,
    },
    /// Whether the registry applied the `running` transaction of a fire queued in doubt cannot
    /// be told yet (`error`): the fire stays queued in doubt, looked at again after a pause.
    InDoubt {
        /// The item.
        item: u32,
        /// Why.
        error: String,
    },
    /// The `running` transaction of a fire queued in doubt was applied: the item's run starts
    /// here under the node it wrote.
    Adopted {
        /// The item.
        item: u32,
    },
    /// The `misfire` node owing the item a fire could not be read (`error`): it is read again
    /// when the queued fires are looked at next.
    MisfireUnread {
        /// The item.
        item: u32,
        /// Why.
        error: String,
    },
    /// A `misfire` node owes the item a fire that a run started since covers: it is settled.
    MisfireCovered {
        /// The item.
        item: u32,
    },
    /// A `misfire` node owes the item a fire missed while it was busy or unowned: it runs.
    MisfireOwed {
        /// The item.
        item: u32,
    },
    /// A failed-over item starts here.
    FailedOver {
        /// The item.
        item: u32,
    },
}

/// Why a claimed item is given back, for [`FireAction::GiveBack`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GiveBack {
    /// The configuration cannot run: the item is not this instance's to hold.
    Unrunnable,
    /// A run of the item is in progress here (it keeps holding the item).
    RunningHere,
}

/// What to do, from [`Firing::poll_action`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FireAction {
    /// The registry is unreachable: the fire is deferred until it answers again.
    Deferred,
    /// Read the registry's clock (write the system-time node, read its mtime); answer
    /// [`FireEvent::ClockRead`].
    ReadClock,
    /// Record the fire refused on these items.
    Refuse {
        /// The items.
        items: Vec<u32>,
        /// Why.
        refusal: Refusal,
    },
    /// Read these items' start stamps (their item nodes), to owe them the fire; answer
    /// [`FireEvent::StartsRead`].
    ReadStarts(Vec<u32>),
    /// Make these writes ([`txn::owe`]'s), one transaction per item; answer
    /// [`FireEvent::OwesWritten`].
    WriteOwes(Vec<(u32, Vec<Op>)>),
    /// Read, per item, what shows whether a run covered the trigger: its result under the
    /// trigger's token (a `job trigger --wait`), else the item's start stamp; answer
    /// [`FireEvent::CoveredRead`].
    ReadCovered(Vec<u32>),
    /// These items are busy with a run here (the trace's status rows).
    StillRunning(Vec<u32>),
    /// Write the `running` nodes of these items ([`txn::mark_running`]); answer
    /// [`FireEvent::Marked`].
    Mark(Vec<u32>),
    /// Read these leaves of the item, then its item node (the start stamp), in one request: the
    /// `running` and `failovering` nodes of a fire queued in doubt, the `misfire` node of a fire
    /// owed by it; answer [`FireEvent::LeavesRead`].
    ReadLeaves(u32, Vec<ItemLeaf>),
    /// Delete a `misfire` node a run covered, version-checked ([`txn::settle`]); a node that
    /// changed or went meanwhile is left as it is.
    Settle(Op),
    /// Take over the item's `running` node, which names this instance, as the node of a run
    /// starting here: hold the item here, then write the node's data again at the `running`
    /// version read, with the start stamp's version checked ([`txn::adopt`]), so that a failover
    /// round that read the node before cannot queue it, and a claim made since is not taken for
    /// the mark's node; answer [`FireEvent::Adopted`].
    Adopt {
        /// The item.
        item: u32,
        /// The `running` node's version as read.
        running: i32,
        /// The item node's version as read.
        stamp: i32,
    },
    /// Delete the `misfire` nodes of these items, which start without monitoring (with misfire
    /// on: the run covers what they owe).
    ClearMisfires(Vec<u32>),
    /// Open the fire's trace group and listener phases: `planned` are its items, of which
    /// `started` start now.
    Open {
        /// The items planned.
        planned: Vec<u32>,
        /// The items starting now.
        started: Vec<u32>,
    },
    /// Start the runs of these items in the fire opened.
    Spawn(Vec<u32>),
    /// These items of the fire opened run elsewhere: they leave its group.
    LeaveOut(Vec<u32>),
    /// The fire stays queued until this clock reaches its instant: look again then.
    WakeAt(DateTime<Utc>),
    /// Fires are queued here for items the registry failed to mark: look at the queued fires
    /// again after a pause (the policy of later tries, [`crate::retry::CLEAR`], with jitter).
    Retry,
    /// The registry answered what a fire queued in doubt asked: the later tries' backoff starts
    /// over (the registry is back).
    Answered,
    /// A claimed item cannot start here: give it back to the failover queue.
    GiveBack {
        /// The item.
        item: u32,
        /// Why.
        why: GiveBack,
    },
    /// Something to log.
    Note(Note),
}

/// What happened, for [`Firing::handle`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FireEvent {
    /// Answers [`FireAction::ReadClock`]: the registry's clock (ms; `None`: nothing to compare),
    /// or why it could not be read.
    ClockRead(Result<Option<i64>, String>),
    /// Answers [`FireAction::ReadStarts`]: each item's node (`None`: there is none), or why it
    /// could not be read, in the order asked.
    StartsRead(Vec<Result<Option<NodeData>, String>>),
    /// Answers [`FireAction::WriteOwes`]: each transaction's outcome ([`txn::owe_outcome`]), in
    /// the order asked.
    OwesWritten(Vec<OweOutcome>),
    /// Answers [`FireAction::ReadCovered`]: the nodes, in the order asked (`None`: the read
    /// failed; nothing counts as covered).
    CoveredRead(Option<Vec<Option<NodeData>>>),
    /// Answers [`FireAction::Mark`]: the items whose `running` node was `written`, and those whose
    /// node the registry `failed` to write (an item whose node exists, running elsewhere, is in
    /// neither).
    Marked {
        /// The items whose node was written.
        written: Vec<u32>,
        /// The items the registry failed.
        failed: Vec<u32>,
    },
    /// Answers [`FireAction::ReadLeaves`]: the leaves in the order asked, then the item node
    /// (`None`: there is none), or why they could not be read.
    LeavesRead(Result<Vec<Option<NodeData>>, String>),
    /// Answers [`FireAction::Adopt`]: `Ok(true)`: the node is the run's; `Ok(false)`: it changed
    /// or went meanwhile (nothing is held here); `Err`: the registry failed the write.
    Adopted(Result<bool, String>),
}

/// Where the fire stands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Stage {
    /// The registry's clock is being read.
    Clock,
    /// A queued fire for the item: its start stamp is being read.
    Checking(u32),
    /// A fire queued in doubt for the item: its `running` node and start stamp are being read.
    Resolving(u32),
    /// The item's `misfire` node and start stamp are being read.
    ReadingMisfire(u32),
    /// A fire queued in doubt for the item, whose `running` node names this instance: the node is
    /// being taken over.
    Adopting(u32),
    /// The fire is being owed: the start stamps of `asking` are being read.
    Owing(Owing),
    /// The fire is being owed: the writes for `asking` are being made.
    OwingWrites(Owing),
    /// What covers the trigger on `items` is being read.
    Covering(Vec<u32>),
    /// The `running` nodes of the first items are being written; `rest` follow.
    MarkingFirst {
        /// The items whose nodes follow.
        rest: Vec<u32>,
    },
    /// The `running` nodes of the rest are being written.
    MarkingRest(Vec<u32>),
    /// Handled.
    Over,
}

/// Items being owed the fire.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Owing {
    /// What follows once they are.
    planned: Planned,
    /// The items asked about now.
    asking: Vec<u32>,
    /// The items owed so far.
    owed: BTreeSet<u32>,
    /// The reads of the stamps so far, this one included.
    tries: usize,
}

/// Why an item is owed the fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owed {
    /// It is busy, `here` or elsewhere.
    Busy {
        /// Busy here.
        here: bool,
    },
    /// The fire came late to the idle item.
    Late,
    /// The registry failed to write the item's `running` node: the fire did not start it.
    Unmarked,
}

/// The items of a fire, planned.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Planned {
    /// Items owed the fire, and why.
    pending: Vec<(u32, Owed)>,
    /// Items busy with a run here.
    busy_here: Vec<u32>,
    /// Items to start.
    to_start: Vec<u32>,
}

/// One fire on this instance (see the module docs).
#[derive(Debug)]
pub struct Firing {
    source: Source,
    facts: Facts,
    stage: Stage,
    actions: Outbox<FireAction>,
}

impl Firing {
    fn new(source: Source, facts: Facts) -> Firing {
        Firing { source, facts, stage: Stage::Over, actions: Outbox::default() }
    }

    /// A fire from its timer or a trigger, handled at `now`.
    pub fn fire(source: Source, facts: Facts, state: &mut FireState, view: &JobSnapshot, now: DateTime<Utc>) -> Firing {
        let mut firing = Firing::new(source, facts);
        if !firing.facts.link_ok {
            state.defer_offline(firing.source.at());
            firing.actions.push(FireAction::Deferred);
        } else if firing.facts.max_time_diff_seconds >= 0 {
            firing.stage = Stage::Clock;
            firing.actions.push(FireAction::ReadClock);
        } else {
            firing.gate(state, view, now);
        }
        firing
    }

    /// The fire `source` for `items`, which are local: a rerun after a busy run, or what a fire
    /// gated to run calls for.
    pub fn items(
        source: Source,
        items: Vec<u32>,
        facts: Facts,
        state: &mut FireState,
        view: &JobSnapshot,
        now: DateTime<Utc>,
    ) -> Firing {
        let mut firing = Firing::new(source, facts);
        firing.run(items, state, view, now);
        firing
    }

    /// The latest of the fires missed while the registry was unreachable, owed to the local
    /// items (to every item while resharding), each unless a run that started at or after it
    /// covers it: meanwhile the items may have been failed over and run elsewhere.
    pub fn missed(at: DateTime<Utc>, facts: Facts, view: &JobSnapshot) -> Firing {
        let source = Source::Misfire(at);
        let items = match gate(view, &facts.me, facts.total, true, &source) {
            Gate::Run(items) => items,
            Gate::OweToAll | Gate::Wait => (0..facts.total).collect(),
        };
        let mut firing = Firing::new(source, facts);
        firing.actions.push(FireAction::Note(Note::OwingMissed { items: items.len() }));
        firing.owe(items, Planned::default());
        firing
    }

    /// An item a failover round claimed for this instance at `now` (the claim wrote its
    /// `running` node): it starts at once, as a fire of its own. A claim this instance cannot run
    /// is given back to the queue: the configuration changed while the round ran (a job that
    /// cannot run claims nothing), or a run of the item is in progress here (which the claim's
    /// node rules out; given back rather than run twice).
    pub fn claimed(item: u32, facts: Facts, state: &FireState, now: DateTime<Utc>) -> Firing {
        let mut firing = Firing::new(Source::Failover(now), facts);
        let give_back = if firing.facts.unrunnable.is_some() {
            Some(GiveBack::Unrunnable)
        } else if state.is_running(item) {
            Some(GiveBack::RunningHere)
        } else {
            None
        };
        match give_back {
            Some(why) => firing.actions.push(FireAction::GiveBack { item, why }),
            None => {
                firing.actions.push(FireAction::Note(Note::FailedOver { item }));
                firing.actions.push(FireAction::Open { planned: vec![item], started: vec![item] });
                firing.actions.push(FireAction::Spawn(vec![item]));
            }
        }
        firing
    }

    /// The fire handled.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The next action, if any; `None` once the fire is handled (or waits for an answer).
    pub fn poll_action(&mut self) -> Option<FireAction> {
        self.actions.pop()
    }

    /// An answer. One to nothing asked is ignored.
    pub fn handle(&mut self, event: FireEvent, state: &mut FireState, view: &JobSnapshot, now: DateTime<Utc>) {
        match (std::mem::replace(&mut self.stage, Stage::Over), event) {
            (Stage::Clock, FireEvent::ClockRead(read)) => self.clock_read(read, state, view, now),
            (Stage::Checking(item), FireEvent::StartsRead(reads)) => self.checked(item, reads, state, view, now),
            (Stage::Resolving(item), FireEvent::LeavesRead(read)) => self.mark_read(item, read, state, view, now),
            (Stage::ReadingMisfire(item), FireEvent::LeavesRead(read)) => {
                self.misfire_read(item, read, state, view, now);
            }
            (Stage::Adopting(item), FireEvent::Adopted(adopted)) => self.adopted(item, adopted, state),
            (Stage::Owing(owing), FireEvent::StartsRead(reads)) => self.starts_read(owing, reads, state, view),
            (Stage::OwingWrites(owing), FireEvent::OwesWritten(outcomes)) => {
                self.owes_written(owing, &outcomes, state, view);
            }
            (Stage::Covering(items), FireEvent::CoveredRead(nodes)) => self.covered(items, nodes, state, view, now),
            (Stage::MarkingFirst { rest }, FireEvent::Marked { written, failed }) => {
                if failed.is_empty() {
                    self.started(written, rest, state, view);
                } else {
                    // The first batch is one item when there is a rest: both lists are not
                    // filled then. The rest starts once the failed items are owed the fire.
                    self.started(written, Vec::new(), state, view);
                    self.unmarked(failed, rest);
                }
            }
            (Stage::MarkingRest(rest), FireEvent::Marked { written, failed }) => {
                state.spend_queued_misfires(&written);
                let left: Vec<u32> = rest.into_iter().filter(|item| !written.contains(item)).collect();
                if !left.is_empty() {
                    self.actions.push(FireAction::LeaveOut(left));
                }
                if !written.is_empty() {
                    self.actions.push(FireAction::Spawn(written));
                }
                self.unmarked(failed, Vec::new());
            }
            (stage, _) => self.stage = stage,
        }
    }

    fn clock_read(
        &mut self,
        read: Result<Option<i64>, String>,
        state: &mut FireState,
        view: &JobSnapshot,
        now: DateTime<Utc>,
    ) {
        let limit = self.facts.max_time_diff_seconds;
        let refusal = match read {
            Err(e) => Some(Refusal::ClockUnread(e)),
            Ok(registry_ms) => registry_ms
                .and_then(|ms| react::clock_skew(limit, now.timestamp_millis(), ms))
                .map(|skew_ms| Refusal::ClockSkew { skew_ms, limit }),
        };
        match refusal {
            Some(refusal) => {
                let items = view.local_items(&self.facts.me, self.facts.total);
                self.actions.push(FireAction::Refuse { items, refusal });
            }
            None => self.gate(state, view, now),
        }
    }

    fn gate(&mut self, state: &mut FireState, view: &JobSnapshot, now: DateTime<Utc>) {
        let Facts { total, misfire, .. } = self.facts;
        match gate(view, &self.facts.me, total, misfire, &self.source) {
            Gate::OweToAll if self.facts.drop_misfires => {}
            Gate::OweToAll => {
                self.actions.push(FireAction::Note(Note::OwedToAll));
                self.owe((0..total).collect(), Planned::default());
            }
            Gate::Wait => {
                self.actions.push(FireAction::Note(Note::WaitsForSharding));
                state.wait_for_sharding(self.source.clone());
            }
            Gate::Run(items) => self.run(items, state, view, now),
        }
    }

    /// Step 4: a trigger first reads what covers it.
    fn run(&mut self, items: Vec<u32>, state: &mut FireState, view: &JobSnapshot, now: DateTime<Utc>) {
        let identified = self.source.fire_id().is_some_and(|id| id.trigger.is_some());
        if identified && !items.is_empty() {
            self.actions.push(FireAction::ReadCovered(items.clone()));
            self.stage = Stage::Covering(items);
        } else {
            self.plan(items, state, view, now);
        }
    }

    fn covered(
        &mut self,
        items: Vec<u32>,
        nodes: Option<Vec<Option<NodeData>>>,
        state: &mut FireState,
        view: &JobSnapshot,
        now: DateTime<Utc>,
    ) {
        let written = self.source.fire_id().and_then(|id| id.trigger);
        let by_result = self.source.token().is_some();
        let covered: BTreeSet<u32> = match (written, nodes) {
            (Some(written), Some(nodes)) => items
                .iter()
                .zip(nodes)
                .filter(|(_, node)| trigger_covered(written, by_result, node.as_ref()))
                .map(|(&item, _)| item)
                .collect(),
            _ => BTreeSet::new(),
        };
        if !covered.is_empty() {
            self.actions.push(FireAction::Note(Note::TriggerCovered(covered.iter().copied().collect())));
        }
        let items = items.into_iter().filter(|item| !covered.contains(item)).collect();
        self.plan(items, state, view, now);
    }

    /// Step 5.
    fn plan(&mut self, items: Vec<u32>, state: &mut FireState, view: &JobSnapshot, now: DateTime<Utc>) {
        let Facts { monitor, misfire, .. } = self.facts;
        let mut planned = Planned::default();
        let mut to_owe = Vec::new();
        for item in items {
            let snapshot = view.items.get(&item).cloned().unwrap_or_default();
            match plan_item(&snapshot, state.slot(item), &self.source, &self.facts.me, (monitor, misfire), now) {
                ItemPlan::Disabled | ItemPlan::Covered => {}
                ItemPlan::Skipped { here } => self.actions.push(FireAction::Note(Note::Skipped { item, here })),
                ItemPlan::Busy { .. } if self.facts.drop_misfires => {}
                ItemPlan::Busy { here, owe } => {
                    if here {
                        planned.busy_here.push(item);
                    }
                    if owe {
                        to_owe.push(item);
                    }
                    planned.pending.push((item, Owed::Busy { here }));
                }
                ItemPlan::OweLate => {
                    to_owe.push(item);
                    planned.pending.push((item, Owed::Late));
                }
                ItemPlan::Start => planned.to_start.push(item),
            }
        }
        if to_owe.is_empty() {
            self.owed(planned, &BTreeSet::new(), state, view);
        } else {
            self.owe(to_owe, planned);
        }
    }

    fn owe(&mut self, items: Vec<u32>, planned: Planned) {
        if items.is_empty() {
            return;
        }
        self.actions.push(FireAction::ReadStarts(items.clone()));
        self.stage = Stage::Owing(Owing { planned, asking: items, owed: BTreeSet::new(), tries: 1 });
    }

    /// The start stamps are read: each item a run covered since the fire is owed nothing; the
    /// others are written (an item whose stamp could not be read is taken as owed).
    fn starts_read(
        &mut self,
        mut owing: Owing,
        reads: Vec<Result<Option<NodeData>, String>>,
        state: &mut FireState,
        view: &JobSnapshot,
    ) {
        let at = self.source.at();
        let mut writes = Vec::new();
        let mut asked = Vec::new();
        for (item, read) in std::mem::take(&mut owing.asking).into_iter().zip(reads) {
            match read {
                Err(error) => {
                    self.actions.push(FireAction::Note(Note::StartUnread { item, error }));
                    owing.owed.insert(item);
                }
                Ok(node) => match txn::owe(&self.facts.paths, item, at, node.as_ref()) {
                    Owe::Covered => {}
                    Owe::Write(ops) => {
                        writes.push((item, ops));
                        asked.push(item);
                    }
                },
            }
        }
        if writes.is_empty() {
            let Owing { planned, owed, .. } = owing;
            self.owed(planned, &owed, state, view);
        } else {
            self.actions.push(FireAction::WriteOwes(writes));
            self.stage = Stage::OwingWrites(Owing { asking: asked, ..owing });
        }
    }

    /// The writes are made: the items a run started on meanwhile are read again, up to
    /// [`txn::OWE_ATTEMPTS`] reads in all, then taken as owed.
    fn owes_written(&mut self, mut owing: Owing, outcomes: &[OweOutcome], state: &mut FireState, view: &JobSnapshot) {
        let mut again = Vec::new();
        for (item, outcome) in std::mem::take(&mut owing.asking).into_iter().zip(outcomes) {
            match outcome {
                OweOutcome::Retry if owing.tries < txn::OWE_ATTEMPTS => again.push(item),
                OweOutcome::Owed | OweOutcome::Retry | OweOutcome::Failed => {
                    owing.owed.insert(item);
                }
            }
        }
        if again.is_empty() {
            let Owing { planned, owed, .. } = owing;
            self.owed(planned, &owed, state, view);
        } else {
            self.actions.push(FireAction::ReadStarts(again.clone()));
            self.stage = Stage::Owing(Owing { asking: again, tries: owing.tries + 1, ..owing });
        }
    }

    fn owed(&mut self, planned: Planned, owed: &BTreeSet<u32>, state: &mut FireState, view: &JobSnapshot) {
        let Planned { pending, busy_here, to_start } = planned;
        let mut unmarked = false;
        for (item, why) in pending {
            let owed = owed.contains(&item);
            match why {
                Owed::Busy { here } if state.queue(item, &self.source, here, owed) => {
                    self.actions.push(FireAction::Note(Note::Queued { item, here }));
                }
                Owed::Late if owed => self.actions.push(FireAction::Note(Note::OwedLate { item })),
                // Queued whatever the owe found: a stamp that covers the fire may be the failed
                // transaction's own, applied with its reply lost.
                Owed::Unmarked => {
                    state.queue_in_doubt(item, &self.source);
                    unmarked = true;
                }
                _ => {}
            }
        }
        if unmarked {
            self.actions.push(FireAction::Retry);
        }
        if !busy_here.is_empty() {
            self.actions.push(FireAction::StillRunning(busy_here));
        }
        self.start(to_start, state, view);
    }

    /// Step 6.
    fn start(&mut self, to_start: Vec<u32>, state: &mut FireState, view: &JobSnapshot) {
        if to_start.is_empty() {
            return;
        }
        if let Some(e) = &self.facts.unrunnable {
            let refusal = Refusal::Unrunnable(e.clone());
            self.actions.push(FireAction::Refuse { items: to_start, refusal });
            return;
        }
        let mut first = to_start;
        let rest = if txn::first_alone(self.facts.monitor, first.len(), self.facts.listeners) {
            first.split_off(1)
        } else {
            Vec::new()
        };
        if self.facts.monitor {
            self.actions.push(FireAction::Mark(first));
            self.stage = Stage::MarkingFirst { rest };
            return;
        }
        let owed = |item: &u32| self.facts.misfire && view.items.get(item).is_some_and(|v| v.misfire);
        let misfires: Vec<u32> = first.iter().copied().filter(owed).collect();
        if !misfires.is_empty() {
            self.actions.push(FireAction::ClearMisfires(misfires));
        }
        self.started(first, rest, state, view);
    }

    /// The registry failed to write the `running` nodes of `failed`: the fire is owed to them
    /// and queued here (unless a run covered it meanwhile), and looked at again after a pause;
    /// then `to_start` start.
    fn unmarked(&mut self, failed: Vec<u32>, to_start: Vec<u32>) {
        if failed.is_empty() {
            return;
        }
        self.actions.push(FireAction::Note(Note::Unmarked(failed.clone())));
        let pending = failed.iter().map(|&item| (item, Owed::Unmarked)).collect();
        self.owe(failed, Planned { pending, busy_here: Vec::new(), to_start });
    }

    /// The first items' nodes are written (`started`): their fire opens and they start; the
    /// rest's nodes follow. When the first runs elsewhere, the rest go as a fire of their own.
    fn started(&mut self, started: Vec<u32>, rest: Vec<u32>, state: &mut FireState, view: &JobSnapshot) {
        if started.is_empty() {
            self.start(rest, state, view);
            return;
        }
        state.spend_queued_misfires(&started);
        let planned = started.iter().chain(&rest).copied().collect();
        self.actions.push(FireAction::Open { planned, started: started.clone() });
        self.actions.push(FireAction::Spawn(started));
        if !rest.is_empty() {
            self.actions.push(FireAction::Mark(rest.clone()));
            self.stage = Stage::MarkingRest(rest);
        }
    }
}

mod queued;

#[cfg(test)]
#[path = "firing_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "firing_owed_tests.rs"]
mod owed_tests;

#[cfg(test)]
#[path = "firing_doubt_tests.rs"]
mod doubt_tests;
