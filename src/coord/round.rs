//! One failover round on this instance, as a machine without I/O in the shape of the
//! [`super::sharder`]: [`Round::handle`] takes the answer to each request, [`Round::poll_action`]
//! gives the next request, or the round's end. When a round starts is the [`super::claimer`]'s;
//! what it confirms and claims is [`super::failover`]'s and [`super::txn`]'s.
//!
//! A round, under the failover latch:
//!
//! 1. confirms each suspect with a fresh read of its `running`, `failover` and `failovering`
//!    nodes and its start stamp against the instances that may still run items
//!    ([`super::failover::orphan`]), and queues each confirmed orphan in one transaction (one
//!    queued already is left as it is);
//! 2. then goes through the queue in ElasticJob's order ([`super::failover::claim_order`]):
//!    an entry beyond the item count is deleted, an entry is read for the stamp it recorded, and
//!    the item claimed ([`super::txn::claim`]): claimed, the round ends with it; covered by a run
//!    since, the entry is deleted; lost to another instance, the next entry is tried.
//!
//! Any request the registry fails ends the round with the error: the claimer pauses and starts
//! another from a fresh look at the cache. An item's failure is not stepped over: the requests
//! of one round go to one registry over one link, and a round that skipped an item would still
//! end with the queue in a state the next one re-reads anyway.
//!
//! **Contract.** Every action but [`RoundAction::Done`] must be carried out and answered with
//! its event before the next is polled. [`RoundAction::Claim`] holds the item in the set of items
//! run here before its transaction and lets go of it unless the item is claimed (so that the
//! round never takes this instance's fresh node for an orphan's); [`RoundAction::ReadSuspect`]
//! answers whether the item is held here, checked after the read. The latch, taken first, is
//! held until [`RoundAction::Done`].

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};

use super::failover::{self as decide, Queued};
use super::txn;
use crate::registry::codec::{self, InstanceId};
use crate::registry::path::JobPaths;
use crate::registry::{NodeData, Op};

/// What a round goes by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundFacts {
    /// The job's paths.
    pub paths: JobPaths,
    /// This instance.
    pub me: InstanceId,
    /// The job's item count.
    pub total: u32,
    /// The suspects the cache names ([`super::failover::suspects`]); the round takes them.
    pub suspects: Vec<u32>,
    /// The disabled items, left in the queue.
    pub disabled: BTreeSet<u32>,
    /// The round takes the failover latch (the simulator's `FailoverWithoutLatch` leaves it out).
    pub latch: bool,
    /// Suspects are confirmed against the live instances (the simulator's
    /// `OrphansWithoutLivenessCheck` takes every runner for gone).
    pub check_liveness: bool,
}

/// How a claim transaction went, for [`RoundEvent::Claimed`] ([`txn::ClaimOutcome`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimAnswer {
    /// The item is this instance's to run.
    Claimed,
    /// A run since covers the orphaned fire: the entry is spent.
    Covered,
    /// Another instance claimed it, the entry went, or the item is held here already.
    Lost,
}

/// How a queue transaction went, for [`RoundEvent::Queued`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueAnswer {
    /// The orphan is queued.
    Queued,
    /// The transaction failed on a node: queued already (its entry stands for it), or the run
    /// moved on meanwhile.
    Conflict,
}

/// What to do, from [`Round::poll_action`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoundAction {
    /// Take the failover latch; answer [`RoundEvent::Latched`].
    Latch,
    /// Read who may still run items (the instance and runner nodes); answer
    /// [`RoundEvent::LiveRead`].
    ReadLive,
    /// Create the queue's parent if absent; answer [`RoundEvent::Ensured`].
    EnsureQueue,
    /// Read the suspect's [`decide::suspect_reads`]; answer [`RoundEvent::SuspectRead`].
    ReadSuspect(u32),
    /// Queue a confirmed orphan with this transaction; answer [`RoundEvent::Queued`].
    QueueOrphan {
        /// The item.
        item: u32,
        /// Whose run it was.
        runner: String,
        /// Creates the entry and removes the orphan's nodes.
        ops: Vec<Op>,
    },
    /// List the queue; answer [`RoundEvent::Listed`].
    ListQueue,
    /// Delete the item's queue entry (beyond the item count, or covered); answer
    /// [`RoundEvent::Deleted`].
    DeleteEntry(u32),
    /// Read the item's queue entry; answer [`RoundEvent::EntryRead`].
    ReadEntry(u32),
    /// Hold the item here, then claim it with this transaction (let go of it unless claimed);
    /// answer [`RoundEvent::Claimed`].
    Claim {
        /// The item.
        item: u32,
        /// The claim.
        ops: Vec<Op>,
    },
    /// The round is over: the item claimed for this instance, or why the registry failed it.
    Done(Result<Option<u32>, String>),
}

/// What happened, for [`Round::handle`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoundEvent {
    /// Answers [`RoundAction::Latch`].
    Latched(Result<(), String>),
    /// Answers [`RoundAction::ReadLive`]: the ids with an instance or a runner node.
    LiveRead(Result<BTreeSet<String>, String>),
    /// Answers [`RoundAction::EnsureQueue`].
    Ensured(Result<(), String>),
    /// Answers [`RoundAction::ReadSuspect`]: the nodes, and whether the item is held here
    /// (checked after the read: a run of ours that began before it is seen).
    SuspectRead {
        /// The leaves, then the item node.
        read: Result<Vec<Option<NodeData>>, String>,
        /// Held here.
        here: bool,
    },
    /// Answers [`RoundAction::QueueOrphan`].
    Queued(Result<QueueAnswer, String>),
    /// Answers [`RoundAction::ListQueue`]: the entries' names (`None`: no queue).
    Listed(Result<Option<Vec<String>>, String>),
    /// Answers [`RoundAction::DeleteEntry`].
    Deleted(Result<(), String>),
    /// Answers [`RoundAction::ReadEntry`] at `now` (the claim's start stamp).
    EntryRead {
        /// The entry (`None`: gone).
        read: Result<Option<NodeData>, String>,
        /// When it was read.
        now: DateTime<Utc>,
    },
    /// Answers [`RoundAction::Claim`].
    Claimed(Result<ClaimAnswer, String>),
}

/// Where the round stands: the request it waits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Latching,
    ReadingLive,
    Ensuring,
    ReadingSuspect(u32),
    Queueing,
    Listing,
    Deleting,
    ReadingEntry(u32),
    Claiming(u32),
    Over,
}

/// One round (see the module docs).
#[derive(Debug)]
pub struct Round {
    facts: RoundFacts,
    /// Who may still run items.
    live: BTreeSet<String>,
    /// The suspects not confirmed yet, in order.
    suspects: std::vec::IntoIter<u32>,
    /// The queue not gone through yet, in claim order.
    queue: std::vec::IntoIter<Queued>,
    stage: Stage,
    action: Option<RoundAction>,
}

impl Round {
    /// A round: it asks for the latch first (or, without it, starts at once).
    pub fn new(mut facts: RoundFacts) -> Round {
        let suspects = std::mem::take(&mut facts.suspects).into_iter();
        let mut round = Round {
            facts,
            live: BTreeSet::new(),
            suspects,
            queue: Vec::new().into_iter(),
            stage: Stage::Over,
            action: None,
        };
        if round.facts.latch {
            round.ask(Stage::Latching, RoundAction::Latch);
        } else {
            round.latched();
        }
        round
    }

    /// The next action, if any.
    pub fn poll_action(&mut self) -> Option<RoundAction> {
        self.action.take()
    }

    /// An answer. One to nothing asked is ignored.
    pub fn handle(&mut self, event: RoundEvent) {
        let stage = std::mem::replace(&mut self.stage, Stage::Over);
        let result = match (stage, event) {
            (Stage::Latching, RoundEvent::Latched(r)) => r.map(|()| self.latched()),
            (Stage::ReadingLive, RoundEvent::LiveRead(r)) => r.map(|live| {
                self.live = live;
                self.ask(Stage::Ensuring, RoundAction::EnsureQueue);
            }),
            (Stage::Ensuring, RoundEvent::Ensured(r)) => r.map(|()| self.next_suspect()),
            (Stage::ReadingSuspect(item), RoundEvent::SuspectRead { read, here }) => {
                read.map(|fresh| self.suspect_read(item, &fresh, here))
            }
            (Stage::Queueing, RoundEvent::Queued(r)) => r.map(|_| self.next_suspect()),
            (Stage::Listing, RoundEvent::Listed(r)) => r.map(|names| match names {
                Some(names) => {
                    self.queue = decide::claim_order(names, &self.facts.disabled, self.facts.total).into_iter();
                    self.next_queued();
                }
                None => self.done(Ok(None)),
            }),
            (Stage::Deleting, RoundEvent::Deleted(r)) => r.map(|()| self.next_queued()),
            (Stage::ReadingEntry(item), RoundEvent::EntryRead { read, now }) => read.map(|entry| match entry {
                Some(entry) => {
                    let queued = codec::decode_queued_stamp(&entry.data);
                    let ops = txn::claim(&self.facts.paths, &self.facts.me, item, now, queued);
                    self.ask(Stage::Claiming(item), RoundAction::Claim { item, ops });
                }
                None => self.next_queued(),
            }),
            (Stage::Claiming(item), RoundEvent::Claimed(r)) => r.map(|answer| match answer {
                ClaimAnswer::Claimed => self.done(Ok(Some(item))),
                ClaimAnswer::Covered => self.ask(Stage::Deleting, RoundAction::DeleteEntry(item)),
                ClaimAnswer::Lost => self.next_queued(),
            }),
            (stage, _) => {
                self.stage = stage;
                Ok(())
            }
        };
        if let Err(error) = result {
            self.done(Err(error));
        }
    }

    fn ask(&mut self, stage: Stage, action: RoundAction) {
        self.stage = stage;
        self.action = Some(action);
    }

    fn done(&mut self, result: Result<Option<u32>, String>) {
        self.stage = Stage::Over;
        self.action = Some(RoundAction::Done(result));
    }

    /// Step 1 begins, when there are suspects; else step 2.
    fn latched(&mut self) {
        if self.suspects.as_slice().is_empty() {
            self.ask(Stage::Listing, RoundAction::ListQueue);
        } else if self.facts.check_liveness {
            self.ask(Stage::ReadingLive, RoundAction::ReadLive);
        } else {
            self.ask(Stage::Ensuring, RoundAction::EnsureQueue);
        }
    }

    fn next_suspect(&mut self) {
        match self.suspects.next() {
            Some(item) => self.ask(Stage::ReadingSuspect(item), RoundAction::ReadSuspect(item)),
            None => self.ask(Stage::Listing, RoundAction::ListQueue),
        }
    }

    fn suspect_read(&mut self, item: u32, fresh: &[Option<NodeData>], here: bool) {
        let (leaves, stamp) = fresh.split_at(fresh.len().saturating_sub(1));
        let stamp = stamp.first().and_then(Option::as_ref);
        let me = self.facts.me.as_str();
        match decide::orphan(&self.facts.paths, item, me, here, &self.live, leaves, stamp) {
            Some(orphan) => {
                let action = RoundAction::QueueOrphan { item, runner: orphan.runner, ops: orphan.ops };
                self.ask(Stage::Queueing, action);
            }
            None => self.next_suspect(),
        }
    }

    fn next_queued(&mut self) {
        match self.queue.next() {
            Some(Queued::Stale(item)) => self.ask(Stage::Deleting, RoundAction::DeleteEntry(item)),
            Some(Queued::Claim(item)) => self.ask(Stage::ReadingEntry(item), RoundAction::ReadEntry(item)),
            None => self.done(Ok(None)),
        }
    }
}

#[cfg(test)]
#[path = "round_tests.rs"]
mod tests;
