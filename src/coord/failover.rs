//! Failover decisions (docs/src/design/compatibility.md#failover, without its gaps:
//! docs/src/design/behaviour.md#failover-misses-nothing).
//!
//! An orphaned run is a `running` node whose runner is gone, a claim whose claimer is gone, or
//! this instance's own run killed by fencing. A runner is gone when it has neither an instance
//! node nor a runner node ([`JobSnapshot::may_run`]): an operator's `job shutdown` deletes the
//! instance node at once, but the worker's killed runs take up to its kill grace to end, and
//! failing the item over meanwhile would run it twice. The cache only names *suspects*
//! ([`suspects`]); a failover round ([`super::claimer`] says when), under the failover latch,
//! re-reads each suspect and queues the confirmed orphans ([`orphan`]), then claims queued items
//! one transaction at a time ([`super::txn::claim`]) in ElasticJob's order ([`claim_order`]) until
//! none is left — every live instance takes part, busy or not, so no item is left behind.

use std::collections::BTreeSet;

use super::snapshot::JobSnapshot;
use crate::registry::cache::CacheEvent;
use crate::registry::codec;
use crate::registry::path::{self, ItemLeaf, JobPaths, Node};
use crate::registry::{Mode, NodeData, Op};

/// The items whose run may be orphaned: their `running` node's runner (the `failovering`
/// claimer, else the owner) or their `failovering` claimer is this instance or not live. Items
/// running here are never suspects (`busy_here`).
pub fn suspects(view: &JobSnapshot, me: &str, busy_here: impl Fn(u32) -> bool) -> Vec<u32> {
    let orphan_runner = |id: &str| id == me || !view.may_run(id);
    view.items
        .iter()
        .filter(|(item, _)| !busy_here(**item))
        .filter(|(_, state)| {
            let inferred = state.failovering.as_deref().or(state.owner.as_deref());
            (state.running && inferred.is_none_or(orphan_runner))
                || state.failovering.as_deref().is_some_and(orphan_runner)
        })
        .map(|(item, _)| *item)
        .collect()
}

/// Whether there is failover work this instance takes part in: suspects to confirm or queued
/// items, and this instance may take items (live, server enabled). When a round starts is the
/// [`super::claimer`]'s to decide.
pub fn has_work(view: &JobSnapshot, me: &str, suspects: &[u32]) -> bool {
    let work = !suspects.is_empty() || !view.failover_queue.is_empty();
    work && view.is_available(me)
}

/// Whether a cache event can change what a failover round finds: a live instance (or a runner)
/// came or went, a server was enabled or disabled, an item's runner, claim, owner or switch
/// changed, the queue changed, or events were lost (a resync). The rounds' own latch nodes are not such events: waking on
/// them would start the next round the moment one ends, for as long as an item stays a suspect
/// (running elsewhere under an owner that is gone) — a busy loop of registry requests.
pub fn wakes(event: &CacheEvent) -> bool {
    let (CacheEvent::Created(p) | CacheEvent::Changed(p) | CacheEvent::Deleted(p)) = event else {
        return true;
    };
    matches!(
        path::parse(p),
        Some((
            _,
            Node::Instance(_)
                | Node::Runner(_)
                | Node::Server(_)
                | Node::ItemLeaf(
                    _,
                    ItemLeaf::Running
                        | ItemLeaf::Failover
                        | ItemLeaf::Failovering
                        | ItemLeaf::Instance
                        | ItemLeaf::Disabled
                )
                | Node::FailoverItem(_)
        ))
    )
}

/// The leaves a round re-reads for a suspect, in this order.
pub const SUSPECT_LEAVES: [ItemLeaf; 3] = [ItemLeaf::Running, ItemLeaf::Failover, ItemLeaf::Failovering];

/// What [`orphan`] decides from: the item's [`SUSPECT_LEAVES`], then its node (the start stamp a
/// queue entry records).
pub fn suspect_reads(paths: &JobPaths, item: u32) -> Vec<String> {
    let mut reads: Vec<String> = SUSPECT_LEAVES.iter().map(|&l| paths.item_leaf(item, l)).collect();
    reads.push(paths.item(item));
    reads
}

/// A confirmed orphan: who ran it, and the transaction that queues it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Orphan {
    /// The instance whose run it was.
    pub runner: String,
    /// Creates the queue entry and removes the orphan's nodes (version-checked).
    pub ops: Vec<Op>,
}

/// Confirms a suspect from a fresh read of its [`SUSPECT_LEAVES`] against the instances that may
/// still run items (`instances`: those with an instance node or a runner node, see
/// [`JobSnapshot::may_run`]). `stamp` is the item's `sharding/{i}` node, read with the leaves:
/// the queue entry records its version (the orphaned run's start stamp), checked in the same
/// transaction, so that a claim can tell whether the item ran since ([`super::txn::claim`]).
/// `here` says whether this instance runs (or is about to run) the item — checked after the read,
/// so a run of ours that began before it is seen. `None`: not an orphan (someone live runs or has
/// claimed it, or it finished meanwhile).
pub fn orphan(
    paths: &JobPaths,
    item: u32,
    me: &str,
    here: bool,
    instances: &BTreeSet<String>,
    fresh: &[Option<NodeData>],
    stamp: Option<&NodeData>,
) -> Option<Orphan> {
    let text = |i: usize| fresh.get(i).and_then(Option::as_ref).map(NodeData::text);
    let version = |i: usize| fresh.get(i).and_then(Option::as_ref).map(|n| n.stat.version);
    let orphaned = |id: &str| (id == me && !here) || (id != me && !instances.contains(id));
    let (running, failover, failovering) = (text(0), text(1), text(2));
    if failover.as_deref().is_some_and(|o| o != me && instances.contains(o)) {
        return None;
    }
    let runner = match (&running, &failovering) {
        (Some(r), _) if orphaned(r) => r.clone(),
        (None, Some(f)) if orphaned(f) => f.clone(),
        _ => return None,
    };
    let entry = stamp.map(|s| codec::encode_queued_stamp(s.stat.version)).unwrap_or_default();
    let mut ops = vec![Op::Create { path: paths.failover_item(item), data: entry, mode: Mode::Persistent }];
    if let Some(s) = stamp {
        ops.push(Op::Check { path: paths.item(item), version: Some(s.stat.version) });
    }
    if running.is_some() {
        ops.push(Op::Delete { path: paths.item_leaf(item, ItemLeaf::Running), version: version(0) });
    }
    if failovering.as_deref().is_some_and(orphaned) {
        ops.push(Op::Delete { path: paths.item_leaf(item, ItemLeaf::Failovering), version: version(2) });
    }
    // This instance's own claim that it does not run (the claim's reply was lost): its ephemeral
    // `failover` node would block every later claim of the item for as long as this session lives.
    if failover.as_deref() == Some(me) && !here {
        ops.push(Op::Delete { path: paths.item_leaf(item, ItemLeaf::Failover), version: version(1) });
    }
    Some(Orphan { runner, ops })
}

/// A queued item (`leader/failover/items/{item}`), in the order a round goes through them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queued {
    /// Try to claim it.
    Claim(u32),
    /// Beyond the item count (it shrank since the item was queued): delete the entry.
    Stale(u32),
}

/// The queued items in the order ElasticJob claims them (reverse lexicographic node names);
/// names that are not item numbers are left out, and so are `disabled` items: an operator
/// disabled them, so they wait in the queue until enabled (ejctl runs no disabled item, failed
/// over or not). Items at or beyond `total` are [`Queued::Stale`].
pub fn claim_order(mut names: Vec<String>, disabled: &BTreeSet<u32>, total: u32) -> Vec<Queued> {
    path::sort_reverse_java(&mut names);
    names
        .iter()
        .filter_map(|n| path::parse_item(n))
        .filter(|i| !disabled.contains(i))
        .map(|i| if i >= total { Queued::Stale(i) } else { Queued::Claim(i) })
        .collect()
}

/// Failover was switched off: the nodes to remove (`removeFailoverInfo`) — every `failover`
/// node, and, beyond ElasticJob, the `failovering` markers of runs that are not going on here
/// (`busy_here`). The queue goes too.
pub fn switched_off(view: &JobSnapshot, paths: &JobPaths, busy_here: impl Fn(u32) -> bool) -> Vec<String> {
    let mut nodes = Vec::new();
    for (&item, state) in &view.items {
        if state.failover.is_some() {
            nodes.push(paths.item_leaf(item, ItemLeaf::Failover));
        }
        if state.failovering.is_some() && !busy_here(item) {
            nodes.push(paths.item_leaf(item, ItemLeaf::Failovering));
        }
    }
    nodes.push(paths.failover_items());
    nodes
}

#[cfg(test)]
#[path = "failover_tests.rs"]
mod tests;
