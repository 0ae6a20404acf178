//! What a job's ended runs on this instance still have to write, and when to try again, without
//! I/O: the nodes of ended runs the registry failed to clear, the `misfire` nodes their runs cover
//! and that could not be settled, the runs fencing killed and that are not handed back yet
//! ([`super::fire::hand_back`]). The runtime's execution room carries out the tries and reports
//! what each left.
//!
//! **Tries.** Whatever a try leaves is tried again after a pause ([`retry::CLEAR`], backing off
//! while tries keep leaving something, back to the first delay after one that leaves nothing). A
//! try that comes due while the link is down is put off by another delay of the current backoff,
//! and counts as no failure: it was not made. The same timer also wakes the job for a fire owed
//! by a clock ahead of this one ([`Ledger::wake_at`]).
//!
//! **Holding an item.** While nodes of an ended run of an item are left, the item stays in the
//! set of items this instance runs: a node of a run that completed is no orphan to fail over
//! (that would run the item again). Once none is left the item is released — unless the try was
//! not for a run that held it ([`Kept::release`]).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use chrono::{DateTime, Utc};

use super::txn;
use crate::registry::path::{self, ItemLeaf, JobPaths, Node};
use crate::retry::{self, Attempts};

/// What an ended run of an item still has to write.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unsettled {
    /// Its nodes that could not be cleared.
    pub nodes: Vec<String>,
    /// The run's start, when the `misfire` node it covers could not be settled (left, the next
    /// owner of the item would run the owed fire again).
    pub settle: Option<DateTime<Utc>>,
}

impl Unsettled {
    /// Nothing is left.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty() && self.settle.is_none()
    }

    /// What an ended run of `item` leaves after its first try. `settle`: the run's start when the
    /// `misfire` node it covers could not be settled — then every node of the run stays (the
    /// claim's three for a failed-over run, `claim`; the `running` node with `monitor`), keeping
    /// other instances off the item until the misfire is settled, since its next owner would run
    /// the owed fire again. Otherwise the nodes of the item among those the clearing `failed` to
    /// delete.
    pub fn after_end(
        paths: &JobPaths,
        item: u32,
        settle: Option<DateTime<Utc>>,
        failed: &[String],
        claim: bool,
        monitor: bool,
    ) -> Unsettled {
        let of_item = |p: &&String| matches!(path::parse(p), Some((_, Node::ItemLeaf(i, _))) if i == item);
        let nodes = match settle {
            None => failed.iter().filter(of_item).cloned().collect(),
            Some(_) if claim => txn::failover_nodes(paths, &[item]),
            Some(_) if monitor => vec![paths.item_leaf(item, ItemLeaf::Running)],
            Some(_) => Vec::new(),
        };
        Unsettled { nodes, settle }
    }
}

/// What [`Ledger::keep`] decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kept {
    /// Release the item from the set of items this instance runs: no node of its run is left.
    pub release: bool,
    /// Something was left, to be tried again.
    pub left: bool,
}

/// The ledger of one job on this instance.
#[derive(Debug, Default)]
pub struct Ledger {
    /// Per item, what its ended runs left.
    unsettled: BTreeMap<u32, Unsettled>,
    /// Items whose run fencing killed and whose nodes still name this instance.
    fenced: BTreeSet<u32>,
    /// The next try (or the wake-up for a fire owed by a clock ahead).
    retry_at: Option<Instant>,
    /// The tries that left something, in a row.
    attempts: Attempts,
}

impl Ledger {
    /// The next try, or wake-up, if any.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.retry_at
    }

    /// Records what a try for `item` left. `held`: the item is in the set of items this instance
    /// runs for this run (its run just ended, or its nodes were left by an earlier try).
    pub fn keep(&mut self, item: u32, left: Unsettled, held: bool) -> Kept {
        let release = held && left.nodes.is_empty();
        if left.is_empty() {
            return Kept { release, left: false };
        }
        let u = self.unsettled.entry(item).or_default();
        u.nodes.extend(left.nodes);
        u.settle = u.settle.max(left.settle);
        Kept { release, left: true }
    }

    /// A round of tries ended at `now`: when it `left` something, the next try is after a
    /// pause (`random` draws it, only then); otherwise the backoff starts over.
    pub fn tried(&mut self, left: bool, now: Instant, random: impl FnOnce() -> u64) {
        if !left {
            self.attempts.reset();
            return;
        }
        let delay = self.attempts.fail(&retry::CLEAR, random());
        self.wake_at(now + delay);
    }

    /// Wakes the job at `at` at the latest (a fire owed by a clock ahead of this one).
    pub fn wake_at(&mut self, at: Instant) {
        self.retry_at = Some(self.retry_at.map_or(at, |r| r.min(at)));
    }

    /// The try due at `now`, if one is: everything left so far, taken out of the ledger (the
    /// driver reports what each item's try leaves with [`Ledger::keep`], then
    /// [`Ledger::tried`]). With the link down (`link_ok` false) the try is put off by another
    /// delay of the current backoff, drawn with `random` (only then).
    pub fn due(
        &mut self,
        now: Instant,
        link_ok: bool,
        random: impl FnOnce() -> u64,
    ) -> Option<BTreeMap<u32, Unsettled>> {
        if self.retry_at.is_none_or(|at| at > now) {
            return None;
        }
        if !link_ok {
            self.retry_at = Some(now + retry::CLEAR.delay(self.attempts.count(), random()));
            return None;
        }
        self.retry_at = None;
        Some(std::mem::take(&mut self.unsettled))
    }

    /// The run of `item` was killed by fencing: its nodes are to be handed back.
    pub fn fence(&mut self, item: u32) {
        self.fenced.insert(item);
    }

    /// The runs fencing killed, to hand back now; those a try leaves come back with
    /// [`Ledger::refence`].
    pub fn take_fenced(&mut self) -> BTreeSet<u32> {
        std::mem::take(&mut self.fenced)
    }

    /// Runs fencing killed whose hand-back the registry failed at `now`: tried again after the
    /// pause of a try that left something.
    pub fn refence(&mut self, items: impl IntoIterator<Item = u32>, now: Instant, random: impl FnOnce() -> u64) {
        let mut items = items.into_iter().peekable();
        if items.peek().is_none() {
            return;
        }
        self.fenced.extend(items);
        self.tried(true, now, random);
    }

    /// Whether runs fencing killed wait to be handed back.
    pub fn has_fenced(&self) -> bool {
        !self.fenced.is_empty()
    }
}

#[cfg(test)]
#[path = "ledger_tests.rs"]
mod tests;
