//! What runs that ended leave on this instance, settled, as a machine without I/O in the shape of
//! [`super::firing`]: the misfires they cover, their nodes, what the registry failed, and the fires
//! queued behind them. The runs' own records — their trace rows, logs, alerts ([`alerts`]),
//! `job trigger --wait` results and `result` leaves — are written before, from the [`Finished`]
//! of [`super::fire::FireState::finish`]; this machine takes it from there.
//!
//! After runs ended ([`Ending::ended`]):
//!
//! 1. **Fenced runs** keep their nodes: they are the ledger's to hand back ([`EndAction::Fenced`]).
//! 2. **Misfires first.** A run covers the owed fire no later than its start: the `misfire` node
//!    it covers goes before its `running` node, which keeps every other instance off the item
//!    meanwhile — the other order lets the next owner read the node and run the fire again. An
//!    item whose misfire cannot be settled keeps every node of its run until it is (retried).
//! 3. **The nodes**, in up to four batches: the `running` nodes (with monitoring) and the claims'
//!    nodes of failed-over runs, first those written in the session in effect now (`fresh`: one
//!    unconditional transaction is safe), then those of an earlier session (deleted only while
//!    they still name this instance). The session is the one in effect right before each request
//!    (each answer says it): a request made after the session changed fails rather than be
//!    applied in a later session.
//! 4. **What is left** — nodes the registry failed to delete, a misfire not settled — goes to the
//!    ledger ([`super::ledger::Unsettled::after_end`]).
//! 5. **Queued fires** run again, wait for resharding or are dropped ([`rerun`]).
//!
//! A run that ends while the job stops ([`Ending::stopped`]) settles its misfire unless it was
//! killed or fenced, then clears its nodes as [`stop_cleanup`] says; what fails is left for
//! whoever sees this instance leave, and nothing runs again.
//!
//! The ledger's later tries at what is left ([`Ending::retry`]) follow the same rule: an item's
//! misfire first, its nodes only once that is settled, what fails again back to the ledger.
//!
//! **Contract.** [`EndAction::Settle`], [`EndAction::Clear`], [`EndAction::Delete`] and
//! [`EndAction::Look`] must be
//! carried out and answered ([`EndEvent::Settled`], [`EndEvent::Cleared`], [`Ending::look`])
//! before the next action is polled; the others are
//! carried out in the order they come. When [`Ending::poll_action`] returns `None` the ends are
//! settled.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};

use super::fire::{Finished, Rerun, RunInfo, Source, StopCleanup, rerun, stop_cleanup};
use super::ledger::Unsettled;
use super::outbox::Outbox;
use super::snapshot::JobSnapshot;
use crate::registry::path::JobPaths;

/// What settling ended runs goes by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    /// This instance's id.
    pub me: String,
    /// The job's sharding total.
    pub total: u32,
    /// `monitorExecution`.
    pub monitor: bool,
    /// `misfire`.
    pub misfire: bool,
    /// `failover`.
    pub failover: bool,
}

/// Whether an ended run is reported to the job's error handler: one that failed, unless fencing
/// killed it (the worker was cut off: the run is handed over, not failed) or the worker pulled its
/// kill switch (`killed_here`: the job's stop ends runs on purpose). A run that fails on its own
/// while the job stops, its own timeout included, is reported.
pub fn alerts(success: bool, fenced: bool, killed_here: bool) -> bool {
    !success && !fenced && !killed_here
}

/// Which nodes a [`EndAction::Clear`] deletes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nodes {
    /// The items' `running` nodes.
    Running,
    /// The items' `running`, `failover` and `failovering` nodes (failed-over runs).
    Claims,
}

/// What to do, from [`Ending::poll_action`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndAction {
    /// These items' runs were killed by fencing: their nodes stay, for the ledger to hand back.
    Fenced(Vec<u32>),
    /// Settle the `misfire` node each item's run covers (it started at the instant given);
    /// answer [`EndEvent::Settled`].
    Settle(Vec<(u32, DateTime<Utc>)>),
    /// Delete the nodes of these items' runs, with their `result` leaves written in the same
    /// request; `fresh`: written in the session in effect now. Answer [`EndEvent::Cleared`].
    Clear {
        /// Which nodes.
        nodes: Nodes,
        /// The items.
        items: Vec<u32>,
        /// Written in the session in effect now.
        fresh: bool,
    },
    /// Delete these nodes of ended runs, each only while it names this instance (written in an
    /// earlier request, perhaps an earlier session); answer [`EndEvent::Cleared`].
    Delete(Vec<String>),
    /// What these items' runs leave, for the ledger ([`super::ledger::Ledger::keep`]).
    Keep(Vec<Left>),
    /// Schedule the ledger's next try ([`super::ledger::Ledger::tried`]): after a pause when
    /// something was `left`, else the backoff starts over.
    Tried {
        /// Something was left.
        left: bool,
    },
    /// Look at the cache for the fires queued behind the runs: answer with [`Ending::look`].
    Look,
    /// Run the fire queued behind the item's run now.
    Rerun(u32, Source),
    /// Keep the fire until resharding is done.
    WaitForSharding(Source),
}

/// What a try leaves of an item's ended run, for [`EndAction::Keep`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Left {
    /// The item.
    pub item: u32,
    /// What is left of its run.
    pub unsettled: Unsettled,
    /// The item is in the set of items this instance runs for this run (the run just ended, or
    /// its nodes were left): it is released once nothing of them is left.
    pub held: bool,
}

/// What happened, for [`Ending::handle`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndEvent {
    /// Answers [`EndAction::Settle`]: the items whose misfire could not be settled, and the
    /// session in effect now.
    Settled {
        /// The items not settled.
        failed: BTreeSet<u32>,
        /// The session epoch now.
        epoch: u64,
    },
    /// Answers [`EndAction::Clear`] and [`EndAction::Delete`]: the nodes the registry failed to
    /// delete, and the session in effect now.
    Cleared {
        /// The paths not deleted.
        failed: Vec<String>,
        /// The session epoch now.
        epoch: u64,
    },
}

/// Where the settling stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The misfires are being settled.
    Settling,
    /// Batch `n` of [`BATCHES`] is being cleared.
    Clearing(usize),
    /// A stopping run's misfire is being settled.
    SettlingStopped,
    /// A stopping run's nodes are being cleared.
    ClearingStopped,
    /// A later try's misfires are being settled.
    RetrySettling,
    /// A later try's nodes are being deleted.
    RetryDeleting,
    /// The cache is being looked at for the queued fires.
    Looking,
    /// Settled.
    Over,
}

/// The batches of step 3, in order.
const BATCHES: [(Nodes, bool); 4] =
    [(Nodes::Running, true), (Nodes::Claims, true), (Nodes::Running, false), (Nodes::Claims, false)];

/// Runs that ended on this instance (see the module docs).
#[derive(Debug)]
pub struct Ending {
    paths: JobPaths,
    facts: Facts,
    done: Finished,
    /// The session epoch each run started in (none: unknown, taken as the one in effect).
    epochs: BTreeMap<u32, u64>,
    /// Items whose misfire could not be settled, with their run's start.
    unsettled: BTreeMap<u32, DateTime<Utc>>,
    /// The nodes the registry failed to delete.
    failed: Vec<String>,
    /// What a later try is at ([`Ending::retry`]).
    retrying: BTreeMap<u32, Unsettled>,
    stage: Stage,
    actions: Outbox<EndAction>,
}

impl Ending {
    fn new(paths: JobPaths, facts: Facts, done: Finished, epochs: BTreeMap<u32, u64>) -> Ending {
        Ending {
            paths,
            facts,
            done,
            epochs,
            unsettled: BTreeMap::new(),
            failed: Vec::new(),
            retrying: BTreeMap::new(),
            stage: Stage::Over,
            actions: Outbox::default(),
        }
    }

    /// Runs ended ([`FireState::finish`](super::fire::FireState::finish)'s `done`), their nodes
    /// written in the sessions `epochs` says. `owed`: the items whose `misfire` node the cache
    /// shows; `epoch`: the session in effect now.
    pub fn ended(
        paths: JobPaths,
        facts: Facts,
        done: Finished,
        epochs: BTreeMap<u32, u64>,
        owed: &BTreeSet<u32>,
        epoch: u64,
    ) -> Ending {
        let mut ending = Ending::new(paths, facts, done, epochs);
        if !ending.done.fenced.is_empty() {
            ending.actions.push(EndAction::Fenced(ending.done.fenced.clone()));
        }
        let owes = |(item, _): &(u32, DateTime<Utc>)| ending.facts.misfire && owed.contains(item);
        let settle: Vec<(u32, DateTime<Utc>)> = ending.done.settle.iter().copied().filter(owes).collect();
        if settle.is_empty() {
            ending.clear_from(0, epoch);
        } else {
            ending.actions.push(EndAction::Settle(settle));
            ending.stage = Stage::Settling;
        }
        ending
    }

    /// A run of `item` ended while the job stops: `killed` by the stop, or `fenced`; its nodes
    /// written in session `run_epoch` (none: unknown). `epoch`: the session in effect now.
    pub fn stopped(
        paths: JobPaths,
        facts: Facts,
        (item, run): (u32, &RunInfo),
        fenced: bool,
        killed: bool,
        run_epoch: Option<u64>,
        epoch: u64,
    ) -> Ending {
        let cleanup = stop_cleanup(&run.source, fenced, killed, facts.failover, facts.monitor);
        let mut done = Finished::default();
        match cleanup {
            StopCleanup::Keep => {}
            StopCleanup::ClearRunning => done.clear_running.push(item),
            StopCleanup::CompleteFailover => done.complete_failover.push(item),
        }
        let epochs = run_epoch.map(|e| (item, e)).into_iter().collect();
        // A run that completed covers the fire its item owes, whatever becomes of its nodes (with
        // monitoring off it has none, yet its misfire must go, or the next owner repeats it).
        let settle = !killed && !fenced && facts.misfire;
        let mut ending = Ending::new(paths, facts, done, epochs);
        if settle {
            ending.actions.push(EndAction::Settle(vec![(item, run.started_at)]));
            ending.stage = Stage::SettlingStopped;
        } else {
            ending.clear_stopped(epoch);
        }
        ending
    }

    /// A try, due now, at what earlier ends `left` ([`super::ledger::Ledger::due`]): each item's
    /// misfire first; its nodes once that is settled (an item whose misfire is not keeps them
    /// all, as after its run's end), each only while it still names this instance; what fails
    /// again goes back to the ledger, and the next try is scheduled. A try with nothing left to
    /// try (the job woke for its queued fires) does nothing: it is no success, and does not start
    /// the backoff over while what it woke for keeps failing.
    pub fn retry(paths: JobPaths, facts: Facts, left: BTreeMap<u32, Unsettled>) -> Ending {
        let mut ending = Ending::new(paths, facts, Finished::default(), BTreeMap::new());
        if left.is_empty() {
            return ending;
        }
        let settle: Vec<(u32, DateTime<Utc>)> =
            left.iter().filter_map(|(&item, u)| u.settle.map(|started| (item, started))).collect();
        ending.retrying = left;
        if settle.is_empty() {
            ending.retry_delete();
        } else {
            ending.actions.push(EndAction::Settle(settle));
            ending.stage = Stage::RetrySettling;
        }
        ending
    }

    /// The next action, if any; `None` once settled (or waiting for an answer).
    pub fn poll_action(&mut self) -> Option<EndAction> {
        self.actions.pop()
    }

    /// An answer to [`EndAction::Settle`] or [`EndAction::Clear`]. One to nothing asked is ignored.
    pub fn handle(&mut self, event: EndEvent) {
        match (self.stage, event) {
            (Stage::Settling, EndEvent::Settled { failed, epoch }) => {
                let starts = self.done.settle.iter().filter(|(item, _)| failed.contains(item));
                self.unsettled = starts.copied().collect();
                self.clear_from(0, epoch);
            }
            (Stage::Clearing(n), EndEvent::Cleared { failed, epoch }) => {
                self.failed.extend(failed);
                self.clear_from(n + 1, epoch);
            }
            (Stage::SettlingStopped, EndEvent::Settled { failed, epoch }) => {
                if failed.is_empty() {
                    self.clear_stopped(epoch);
                } else {
                    self.stage = Stage::Over;
                }
            }
            (Stage::ClearingStopped, EndEvent::Cleared { .. }) => self.stage = Stage::Over,
            (Stage::RetrySettling, EndEvent::Settled { failed, .. }) => {
                let not_settled = self.retrying.iter().filter(|(item, _)| failed.contains(item));
                self.unsettled = not_settled.filter_map(|(item, u)| Some((*item, u.settle?))).collect();
                self.retry_delete();
            }
            (Stage::RetryDeleting, EndEvent::Cleared { failed, .. }) => {
                self.failed = failed;
                self.retry_keep();
            }
            _ => {}
        }
    }

    /// Answers [`EndAction::Look`] with the job as the cache shows it now: the queued fires run
    /// again, wait for resharding or are dropped.
    pub fn look(&mut self, view: &JobSnapshot) {
        if self.stage != Stage::Looking {
            return;
        }
        self.stage = Stage::Over;
        let local = view.local_items(&self.facts.me, self.facts.total);
        let pending = view.sharding_pending(self.facts.total);
        for (item, source) in std::mem::take(&mut self.done.rerun) {
            match rerun(&source, pending, local.contains(&item)) {
                Rerun::Start => self.actions.push(EndAction::Rerun(item, source)),
                Rerun::WaitForSharding => self.actions.push(EndAction::WaitForSharding(source)),
                Rerun::Drop => {}
            }
        }
    }

    /// Step 3 from batch `n`, in session `epoch`: the next batch with items, or step 4.
    fn clear_from(&mut self, n: usize, epoch: u64) {
        for (i, &(nodes, fresh)) in BATCHES.iter().enumerate().skip(n) {
            let items = match nodes {
                Nodes::Running if self.facts.monitor => &self.done.clear_running,
                Nodes::Running => continue,
                Nodes::Claims => &self.done.complete_failover,
            };
            let current = |item: &u32| self.epochs.get(item).is_none_or(|e| *e == epoch);
            let items: Vec<u32> = items
                .iter()
                .copied()
                .filter(|item| !self.unsettled.contains_key(item) && fresh == current(item))
                .collect();
            if !items.is_empty() {
                self.actions.push(EndAction::Clear { nodes, items, fresh });
                self.stage = Stage::Clearing(i);
                return;
            }
        }
        self.keep();
    }

    /// Step 4.
    fn keep(&mut self) {
        let monitor = self.facts.monitor;
        let left: Vec<Left> = self
            .done
            .settle
            .iter()
            .map(|&(item, _)| {
                let (settle, claim) = (self.unsettled.get(&item).copied(), self.done.complete_failover.contains(&item));
                let unsettled = Unsettled::after_end(&self.paths, item, settle, &self.failed, claim, monitor);
                Left { item, unsettled, held: true }
            })
            .collect();
        let any = left.iter().any(|l| !l.unsettled.is_empty());
        if !left.is_empty() {
            self.actions.push(EndAction::Keep(left));
        }
        if any {
            self.actions.push(EndAction::Tried { left: true });
        }
        if self.done.rerun.is_empty() {
            self.stage = Stage::Over;
        } else {
            self.actions.push(EndAction::Look);
            self.stage = Stage::Looking;
        }
    }

    /// A later try's nodes, of the items whose misfire is settled.
    fn retry_delete(&mut self) {
        let nodes: Vec<String> = self
            .retrying
            .iter()
            .filter(|(item, _)| !self.unsettled.contains_key(item))
            .flat_map(|(_, u)| u.nodes.iter().cloned())
            .collect();
        if nodes.is_empty() {
            self.retry_keep();
        } else {
            self.actions.push(EndAction::Delete(nodes));
            self.stage = Stage::RetryDeleting;
        }
    }

    /// What a later try leaves: everything of an item whose misfire is not settled, else the
    /// nodes that failed again. An item is held for its nodes left before the try.
    fn retry_keep(&mut self) {
        let left: Vec<Left> = std::mem::take(&mut self.retrying)
            .into_iter()
            .map(|(item, u)| {
                let held = !u.nodes.is_empty();
                let unsettled = if self.unsettled.contains_key(&item) {
                    u
                } else {
                    let nodes = u.nodes.into_iter().filter(|node| self.failed.contains(node)).collect();
                    Unsettled { nodes, settle: None }
                };
                Left { item, unsettled, held }
            })
            .collect();
        let any = left.iter().any(|l| !l.unsettled.is_empty());
        self.actions.push(EndAction::Keep(left));
        self.actions.push(EndAction::Tried { left: any });
        self.stage = Stage::Over;
    }

    /// A stopping run's nodes, in session `epoch`.
    fn clear_stopped(&mut self, epoch: u64) {
        let (nodes, items) = match (self.done.clear_running.is_empty(), self.done.complete_failover.is_empty()) {
            (false, _) => (Nodes::Running, self.done.clear_running.clone()),
            (_, false) => (Nodes::Claims, self.done.complete_failover.clone()),
            (true, true) => {
                self.stage = Stage::Over;
                return;
            }
        };
        let fresh = items.iter().all(|item| self.epochs.get(item).is_none_or(|e| *e == epoch));
        self.actions.push(EndAction::Clear { nodes, items, fresh });
        self.stage = Stage::ClearingStopped;
    }
}

#[cfg(test)]
#[path = "ending_tests.rs"]
mod tests;
