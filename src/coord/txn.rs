//! The registry transactions of a job's runs, built as plain [`Op`] lists, and what their
//! outcomes mean.
//!
//! Every write a run makes is one multi-op (docs/src/design/compatibility.md#fires-and-misfire,
//! made atomic):
//!
//! * [`mark_running`]: the items about to start get their `running` node (persistent with
//!   failover on, so a crash can be detected; ephemeral otherwise), their start stamp on
//!   `sharding/{item}`, and lose an owed `misfire` node — a start covers every fire owed before it;
//! * [`clear_running`] / [`complete_failover`]: runs ended — their nodes go, and in the same
//!   multi-op each item's `result` leaf records how its run ended ([`ResultWrite`]), so the last
//!   result costs no request of its own; [`record_results`] alone for a refused fire;
//! * [`owe`] / [`owe_outcome`]: a fire is owed a run of an item busy elsewhere or here, checked
//!   against the item's start stamp in the same transaction so that a run starting meanwhile
//!   decides it again;
//! * [`settle`]: an ended run covers an owed fire no later than its start;
//! * [`claim`] / [`claim_outcome`] / [`return_claim`]: a failover claim and its undo;
//! * [`registration`]: an instance's registration at its start, in one transaction.
//!
//! The runtime sends the ops and feeds the outcome back; nothing here does I/O.

use chrono::{DateTime, Utc};

use crate::registry::codec::{self, InstanceId, ServerStatus};
use crate::registry::path::{self, ItemLeaf, JobPaths, Node};
use crate::registry::{Mode, NodeData, Op, RegistryError};

/// A fire that starts more items here than this writes the first item's `running` node in a
/// transaction of its own and starts its run, then the rest's: the first run then waits for one
/// small round trip instead of the multi of every item (on ZooKeeper 3.8 ms for 100 items, 0.9
/// ms for 5). It costs one write more per fire, so it is paid only where the multi is long.
pub const FIRST_ALONE_ABOVE: usize = 16;

/// Whether a fire starting `items` items here writes the first item's `running` node on its own
/// ([`FIRST_ALONE_ABOVE`]): only with monitoring (without it no node is written) and without
/// listener phases (the items wait for the `before` phase, which needs every item that starts,
/// so the nodes are written at once).
pub fn first_alone(monitor: bool, items: usize, listeners: bool) -> bool {
    monitor && items > FIRST_ALONE_ABOVE && !listeners
}

/// The mode of `running` nodes: persistent when failover is on (a crashed runner's node stays
/// for others to find), ephemeral otherwise (it goes with the session).
pub fn running_mode(failover: bool) -> Mode {
    if failover { Mode::Persistent } else { Mode::Ephemeral }
}

/// Takes over `item`'s `running` node, which names `me` (a `running` transaction applied with its
/// reply lost), as the node of a run starting now: its data written again at the `running`
/// version read, so that the write fails if the node changed or went (a failover round queued
/// it), and a round that read the node before cannot queue it after; and the start stamp checked
/// at the `stamp` version read, since a node queued and claimed again meanwhile may be back at
/// the same version, but its claim stamped the item.
pub fn adopt(paths: &JobPaths, me: &InstanceId, item: u32, running: i32, stamp: i32) -> Vec<Op> {
    vec![
        Op::Check { path: paths.item(item), version: Some(stamp) },
        Op::Set { path: paths.item_leaf(item, ItemLeaf::Running), data: me.encode(), version: Some(running) },
    ]
}

/// Marks `items` running in one transaction. `misfire_nodes` are the items whose `misfire` node
/// exists (it is deleted with the start).
pub fn mark_running(
    paths: &JobPaths,
    me: &InstanceId,
    items: &[u32],
    misfire_nodes: &[u32],
    failover: bool,
    now: DateTime<Utc>,
) -> Vec<Op> {
    let mode = running_mode(failover);
    let started = codec::encode_millis(now);
    let mut ops = Vec::with_capacity(items.len() * 3);
    for &i in items {
        ops.push(Op::Create { path: paths.item_leaf(i, ItemLeaf::Running), data: me.encode(), mode });
        ops.push(Op::Set { path: paths.item(i), data: started.clone(), version: None });
        if misfire_nodes.contains(&i) {
            ops.push(Op::Delete { path: paths.item_leaf(i, ItemLeaf::Misfire), version: None });
        }
    }
    ops
}

/// What an ended run (or a refused fire) records on its item's `result` leaf: the encoded
/// [`codec::ItemResult`], and whether the leaf exists already (as the cache shows it), which
/// decides between create and set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultWrite {
    /// The item.
    pub item: u32,
    /// The encoded result.
    pub data: Vec<u8>,
    /// The leaf exists.
    pub exists: bool,
}

/// The op writing one item's result.
pub fn write_result(paths: &JobPaths, w: &ResultWrite) -> Op {
    let path = paths.item_leaf(w.item, ItemLeaf::Result);
    if w.exists {
        Op::Set { path, data: w.data.clone(), version: None }
    } else {
        Op::Create { path, data: w.data.clone(), mode: Mode::Persistent }
    }
}

/// Writes the results of items (a refused fire).
pub fn record_results(paths: &JobPaths, results: &[ResultWrite]) -> Vec<Op> {
    results.iter().map(|w| write_result(paths, w)).collect()
}

/// Deletes the `running` nodes of `items` and records the `results` of their runs.
pub fn clear_running(paths: &JobPaths, items: &[u32], results: &[ResultWrite]) -> Vec<Op> {
    items
        .iter()
        .map(|&i| Op::Delete { path: paths.item_leaf(i, ItemLeaf::Running), version: None })
        .chain(record_results(paths, results))
        .collect()
}

/// The nodes a failed-over run leaves: `running`, `failover` and `failovering`
/// (`updateFailoverComplete`).
pub fn failover_nodes(paths: &JobPaths, items: &[u32]) -> Vec<String> {
    const LEAVES: [ItemLeaf; 3] = [ItemLeaf::Running, ItemLeaf::Failover, ItemLeaf::Failovering];
    items.iter().flat_map(|&i| LEAVES.iter().map(move |&l| paths.item_leaf(i, l))).collect()
}

/// Failed-over runs ended: their three nodes go together, and their `results` are recorded.
pub fn complete_failover(paths: &JobPaths, items: &[u32], results: &[ResultWrite]) -> Vec<Op> {
    failover_nodes(paths, items)
        .into_iter()
        .map(|path| Op::Delete { path, version: None })
        .chain(record_results(paths, results))
        .collect()
}

/// The next step of recording that `fire` is owed a run of an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owe {
    /// A run that started at or after the fire covers it: nothing is owed.
    Covered,
    /// Write these ops (the `misfire` node with the fire's instant, guarded by the version of the
    /// item's start stamp).
    Write(Vec<Op>),
}

/// Decides how to owe `fire` a run of `item`, given the item node as just read (its data is
/// the start stamp of the item's latest run; `None` when the node does not exist).
pub fn owe(paths: &JobPaths, item: u32, fire: DateTime<Utc>, item_node: Option<&NodeData>) -> Owe {
    if let Some(node) = item_node
        && codec::decode_millis(&node.data).is_some_and(|started| started.timestamp_millis() >= fire.timestamp_millis())
    {
        return Owe::Covered;
    }
    let misfire = Op::Create {
        path: paths.item_leaf(item, ItemLeaf::Misfire),
        data: codec::encode_millis(fire),
        mode: Mode::Persistent,
    };
    Owe::Write(match item_node {
        Some(node) => vec![Op::Check { path: paths.item(item), version: Some(node.stat.version) }, misfire],
        None => vec![misfire],
    })
}

/// What the outcome of an [`Owe::Write`] transaction means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OweOutcome {
    /// The fire is owed (written now, or owed already by an earlier fire's node).
    Owed,
    /// A run started meanwhile: read the stamp and decide again.
    Retry,
    /// The registry failed: treat the fire as owed (a queued re-run at worst repeats, never
    /// misses) and log the error.
    Failed,
}

/// Classifies the outcome of an owe transaction.
pub fn owe_outcome(result: &Result<(), RegistryError>) -> OweOutcome {
    match result {
        Ok(()) => OweOutcome::Owed,
        Err(RegistryError::Transaction { source, .. }) if matches!(**source, RegistryError::NodeExists(_)) => {
            OweOutcome::Owed
        }
        Err(RegistryError::Transaction { .. }) => OweOutcome::Retry,
        Err(_) => OweOutcome::Failed,
    }
}

/// How many times an owe reads an item's start stamp, when each write fails because a run started
/// meanwhile, before the fire is taken as owed.
pub const OWE_ATTEMPTS: usize = 3;

/// A run of `item` that started at `started` ended: the `misfire` node (as read) is covered when
/// the fire it owes is no later than that start; returns the version-checked delete.
pub fn settle(paths: &JobPaths, item: u32, started: DateTime<Utc>, misfire: &NodeData) -> Option<Op> {
    (codec::decode_misfire(&misfire.data) <= started)
        .then(|| Op::Delete { path: paths.item_leaf(item, ItemLeaf::Misfire), version: Some(misfire.stat.version) })
}

/// Claims queued item `item` for `me` (docs/src/design/compatibility.md#failover,
/// `failoverIfNecessary`) in one transaction: the queue entry is checked, `failover` (ephemeral),
/// `failovering` and `running` (persistent) written with this instance's id, the start stamped and
/// the entry removed — a claim is complete or absent, and never starts while another run holds the
/// item's `running` node.
///
/// `queued` is the item's start-stamp version the entry recorded ([`codec::decode_queued_stamp`];
/// `None` for an entry ElasticJob wrote): the stamp is checked to be the same before it is set, so
/// a claim never runs an orphaned fire again after a later run of the item started — and maybe
/// ended — meanwhile: that run covers it (docs/src/design/guarantee.md#how-it-holds).
pub fn claim(paths: &JobPaths, me: &InstanceId, item: u32, now: DateTime<Utc>, queued: Option<i32>) -> Vec<Op> {
    let entry = paths.failover_item(item);
    let mut ops = vec![
        Op::Check { path: entry.clone(), version: None },
        Op::Create { path: paths.item_leaf(item, ItemLeaf::Failover), data: me.encode(), mode: Mode::Ephemeral },
        Op::Create { path: paths.item_leaf(item, ItemLeaf::Failovering), data: me.encode(), mode: Mode::Persistent },
        Op::Create { path: paths.item_leaf(item, ItemLeaf::Running), data: me.encode(), mode: Mode::Persistent },
    ];
    if let Some(version) = queued {
        ops.push(Op::Check { path: paths.item(item), version: Some(version) });
    }
    ops.push(Op::Set { path: paths.item(item), data: codec::encode_millis(now), version: None });
    ops.push(Op::Delete { path: entry, version: None });
    ops
}

/// What the outcome of a [`claim`] transaction means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimOutcome {
    /// The item is ours: run it.
    Claimed,
    /// Another run of the item started after the orphaned one — it runs now (its new owner's
    /// `running` node is there), or it ran (the start stamp changed): it covers the orphaned
    /// fire, so the queue entry is spent — delete it.
    Covered,
    /// Another instance claimed it (or the entry is gone): try the next entry.
    Lost,
    /// The registry failed.
    Failed(RegistryError),
}

/// Classifies the outcome of the [`claim`] transaction `ops`: the op that failed says why.
pub fn claim_outcome(ops: &[Op], result: Result<(), RegistryError>) -> ClaimOutcome {
    match result {
        Ok(()) => ClaimOutcome::Claimed,
        Err(RegistryError::Transaction { index, .. }) => match ops.get(index) {
            Some(Op::Create { path, .. })
                if matches!(path::parse(path), Some((_, Node::ItemLeaf(_, ItemLeaf::Running)))) =>
            {
                ClaimOutcome::Covered
            }
            Some(Op::Check { version: Some(_), .. }) => ClaimOutcome::Covered,
            _ => ClaimOutcome::Lost,
        },
        Err(e) => ClaimOutcome::Failed(e),
    }
}

/// Puts a claimed item back in the queue (it cannot run here).
pub fn return_claim(paths: &JobPaths, item: u32) -> Vec<Op> {
    vec![
        Op::Create { path: paths.failover_item(item), data: Vec::new(), mode: Mode::Persistent },
        Op::Delete { path: paths.item_leaf(item, ItemLeaf::Running), version: None },
        Op::Delete { path: paths.item_leaf(item, ItemLeaf::Failover), version: None },
        Op::Delete { path: paths.item_leaf(item, ItemLeaf::Failovering), version: None },
    ]
}

/// The registration of `me` when the cache (`cached`: whether it shows a node) shows neither its
/// runner nor its instance node, as one transaction: the missing parents (`servers`, `runners`,
/// `instances`, empty persistent nodes as node-by-node creation makes them), the server node
/// (`status`) when the cache does not show it, the runner node, then the instance node (`info`)
/// — so that the instance appears with its runner. `None` when the cache shows the job root
/// missing, or the runner or instance node (this session's already, or an earlier session's on
/// its way out: [`crate::registry::Registry::put_ephemeral`] sorts those out): the runtime then
/// registers node by node. A node the cache is wrong about makes the transaction fail as a whole.
pub fn registration(
    paths: &JobPaths,
    me: &InstanceId,
    cached: &(dyn Fn(&str) -> bool + Sync),
    status: &ServerStatus,
    info: &str,
) -> Option<Vec<Op>> {
    let (runner, instance) = (paths.runner(me.as_str()), paths.instance(me.as_str()));
    if !cached(paths.root()) || cached(&runner) || cached(&instance) {
        return None;
    }
    let mut ops = Vec::new();
    let mut create = |path: String, data: &[u8], mode: Mode| ops.push(Op::Create { path, data: data.to_vec(), mode });
    let server = paths.server(me.ip());
    if !cached(&server) {
        if !cached(&paths.servers()) {
            create(paths.servers(), codec::EMPTY, Mode::Persistent);
        }
        create(server, status.encode(), Mode::Persistent);
    }
    if !cached(&paths.runners()) {
        create(paths.runners(), codec::EMPTY, Mode::Persistent);
    }
    create(runner, codec::EMPTY, Mode::Ephemeral);
    if !cached(&paths.instances()) {
        create(paths.instances(), codec::EMPTY, Mode::Persistent);
    }
    create(instance, info.as_bytes(), Mode::Ephemeral);
    Some(ops)
}

#[cfg(test)]
#[path = "txn_tests.rs"]
mod tests;
