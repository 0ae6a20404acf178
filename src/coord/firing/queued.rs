//! A fire queued here, or owed by a `misfire` node, as it comes to run ([`Firing::queued`],
//! [`Firing::misfire_node`]): what covers it already, and the doubt of a fire whose `running`
//! transaction failed without an answer (step 6 of [`super`]'s module docs).

use chrono::{DateTime, Utc};

use super::{Facts, FireAction, Firing, Note, Stage};
use crate::coord::fire::{FireState, Source, due};
use crate::coord::snapshot::JobSnapshot;
use crate::coord::txn::{self, Owe};
use crate::registry::NodeData;
use crate::registry::codec;
use crate::registry::path::ItemLeaf;

/// What a fire queued in doubt reads, with the item's start stamp: the `running` node the failed
/// transaction may have written, and the `failovering` node that tells a claim's node from it.
pub(super) const DOUBT_LEAVES: [ItemLeaf; 2] = [ItemLeaf::Running, ItemLeaf::Failovering];

impl Firing {
    /// A fire queued for `item` (or owed by its `misfire` node), now that nothing runs the item
    /// anywhere. One owed by a clock ahead of this one stays queued until this clock gets there
    /// ([`FireAction::WakeAt`]): started now, its run would start before the fire it is for.
    ///
    /// A queued fire that is due, other than a trigger, first reads the item's start stamp: a run
    /// that started at or after the fire anywhere covers it, and it is dropped. The fire may have
    /// waited here while the item was elsewhere — resharded away after its mark failed, or while
    /// this clock caught up — and its new owner ran it meanwhile; only this instance's own runs
    /// show in its state. (A trigger checks what covers it at step 4.)
    pub fn queued(
        source: Source,
        item: u32,
        facts: Facts,
        state: &mut FireState,
        view: &JobSnapshot,
        now: DateTime<Utc>,
    ) -> Firing {
        if state.take_doubt(item) {
            let mut firing = Firing::new(source, facts);
            firing.actions.push(FireAction::ReadLeaves(item, DOUBT_LEAVES.to_vec()));
            firing.stage = Stage::Resolving(item);
            return firing;
        }
        if due(source.at(), now) && source.is_trigger() {
            return Firing::items(source, vec![item], facts, state, view, now);
        }
        if due(source.at(), now) {
            let mut firing = Firing::new(source, facts);
            firing.actions.push(FireAction::ReadStarts(vec![item]));
            firing.stage = Stage::Checking(item);
            return firing;
        }
        state.queue(item, &source, true, true);
        let mut firing = Firing::new(source, facts);
        firing.actions.push(FireAction::WakeAt(firing.source.at()));
        firing
    }

    /// A `misfire` node owes `item` a fire — written while the item was busy or unowned, here or
    /// by an earlier owner — now that nothing runs the item anywhere. The node and the item's
    /// start stamp are read together: a stamp at or after the owed fire is a run that started
    /// since (the node was written while another instance was starting that run, and neither saw
    /// the other's write), and the node is settled, not run again. Otherwise the owed fire runs
    /// as a queued one does, the stamp just read standing for the check of what covers it.
    pub fn misfire_node(item: u32, facts: Facts) -> Firing {
        // The owed instant comes with the read.
        let mut firing = Firing::new(Source::Misfire(DateTime::UNIX_EPOCH), facts);
        firing.actions.push(FireAction::ReadLeaves(item, vec![ItemLeaf::Misfire]));
        firing.stage = Stage::ReadingMisfire(item);
        firing
    }

    /// A queued fire's item stamp is read: a run that started at or after the fire covers it;
    /// otherwise (or when the stamp cannot be read: a repeat at worst, never a miss) it runs.
    pub(super) fn checked(
        &mut self,
        item: u32,
        reads: Vec<Result<Option<NodeData>, String>>,
        state: &mut FireState,
        view: &JobSnapshot,
        now: DateTime<Utc>,
    ) {
        match reads.into_iter().next() {
            Some(Ok(node)) if txn::owe(&self.facts.paths, item, self.source.at(), node.as_ref()) == Owe::Covered => {
                self.actions.push(FireAction::Note(Note::QueuedCovered { item }));
                return;
            }
            Some(Err(error)) => self.actions.push(FireAction::Note(Note::StartUnread { item, error })),
            Some(Ok(_)) | None => {}
        }
        self.run(vec![item], state, view, now);
    }

    /// A fire queued in doubt: its item's `running` node and stamp are read. A node that names
    /// this instance is the failed transaction's, applied: the run starts under it. Otherwise the
    /// transaction was not applied (or its node has gone to failover since), and the fire is a
    /// queued one like any other: it runs unless a run covered it — here while the item is still
    /// local, else it waits queued as any fire of an item resharded away does.
    pub(super) fn mark_read(
        &mut self,
        item: u32,
        read: Result<Vec<Option<NodeData>>, String>,
        state: &mut FireState,
        view: &JobSnapshot,
        now: DateTime<Utc>,
    ) {
        let [running, failovering, start] = match nodes(read) {
            Ok(nodes) => nodes,
            Err(error) => return self.still_in_doubt(item, error, state),
        };
        self.actions.push(FireAction::Answered);
        match (running, failovering, &start) {
            // A `failovering` node makes it a claim's node (a claim whose reply was lost, left to
            // the failover round), not the mark's.
            (Some(node), None, Some(stamp)) if node.text() == self.facts.me => {
                self.actions.push(FireAction::Adopt { item, running: node.stat.version, stamp: stamp.stat.version });
                self.stage = Stage::Adopting(item);
            }
            _ if view.local_items(&self.facts.me, self.facts.total).contains(&item) => {
                self.checked(item, vec![Ok(start)], state, view, now);
            }
            _ => {
                state.queue(item, &self.source, true, true);
            }
        }
    }

    /// The `misfire` node owing `item` a fire is read (see [`Firing::misfire_node`]).
    pub(super) fn misfire_read(
        &mut self,
        item: u32,
        read: Result<Vec<Option<NodeData>>, String>,
        state: &mut FireState,
        view: &JobSnapshot,
        now: DateTime<Utc>,
    ) {
        let [misfire, start] = match nodes(read) {
            Ok(nodes) => nodes,
            Err(error) => return self.actions.push(FireAction::Note(Note::MisfireUnread { item, error })),
        };
        // Gone: a run that started meanwhile took it.
        let Some(misfire) = misfire else { return };
        let started = start.as_ref().and_then(|node| codec::decode_millis(&node.data));
        if let Some(settle) = started.and_then(|started| txn::settle(&self.facts.paths, item, started, &misfire)) {
            self.actions.push(FireAction::Note(Note::MisfireCovered { item }));
            self.actions.push(FireAction::Settle(settle));
            return;
        }
        self.source = Source::Misfire(codec::decode_misfire(&misfire.data));
        self.actions.push(FireAction::Note(Note::MisfireOwed { item }));
        if due(self.source.at(), now) {
            self.run(vec![item], state, view, now);
        } else {
            state.queue(item, &self.source, true, true);
            self.actions.push(FireAction::WakeAt(self.source.at()));
        }
    }

    /// A fire queued in doubt whose `running` node names this instance: taken over, the run
    /// starts; a node that changed or went meanwhile (a failover round queued it) is not this
    /// instance's to run, and the fire is queued as any other.
    pub(super) fn adopted(&mut self, item: u32, adopted: Result<bool, String>, state: &mut FireState) {
        match adopted {
            Ok(true) => {
                self.actions.push(FireAction::Note(Note::Adopted { item }));
                state.spend_queued_misfires(&[item]);
                self.actions.push(FireAction::Open { planned: vec![item], started: vec![item] });
                self.actions.push(FireAction::Spawn(vec![item]));
            }
            // The change shows in the cache, which looks at the queued fires again.
            Ok(false) => {
                state.queue(item, &self.source, true, true);
            }
            Err(error) => self.still_in_doubt(item, error, state),
        }
    }

    /// The doubt could not be resolved (`error`): the fire stays queued in doubt, and the queued
    /// fires are looked at again after a pause.
    pub(super) fn still_in_doubt(&mut self, item: u32, error: String, state: &mut FireState) {
        self.actions.push(FireAction::Note(Note::InDoubt { item, error }));
        state.queue_in_doubt(item, &self.source);
        self.actions.push(FireAction::Retry);
    }
}

/// The nodes of a [`super::FireEvent::LeavesRead`], as many as asked, or why they are not there.
fn nodes<const N: usize>(read: Result<Vec<Option<NodeData>>, String>) -> Result<[Option<NodeData>; N], String> {
    read?.try_into().map_err(|nodes: Vec<_>| format!("{} nodes read for {N}", nodes.len()))
}
