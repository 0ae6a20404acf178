//! What a fire is owed, and what covers it already: the `misfire` nodes an instance reads, runs
//! or settles, and the runs that cover a trigger since it was written. Every read here is of the
//! registry, not the cache: these nodes' data is lazy, and the answer must be current.

use chrono::{DateTime, Utc};

use super::JobCtx;
use crate::coord::fire::Source;
use crate::coord::txn;
use crate::registry::codec;
use crate::registry::path::ItemLeaf;
use crate::registry::{NodeData, Op, RegistryError};

/// What shows, per item of a trigger, whether a run covered it since it was written (see
/// [`crate::coord::fire::trigger_covered`]; one pipelined read): its result under the trigger's
/// token (a `job trigger --wait`), else the item's start stamp. `None` on a registry error:
/// nothing counts as covered (a repeat at worst, never a miss).
pub(super) async fn read_covered(ctx: &JobCtx, source: &Source, items: &[u32]) -> Option<Vec<Option<NodeData>>> {
    let paths: Vec<String> = match source.token() {
        Some(token) => items.iter().map(|&item| ctx.paths.trigger_result(token, item)).collect(),
        None => items.iter().map(|&item| ctx.paths.item(item)).collect(),
    };
    match ctx.registry.get_many(&paths).await {
        Ok(nodes) => Some(nodes),
        Err(e) => {
            tracing::warn!(job = %ctx.name(), error = %e, "cannot read whether the trigger's items ran already");
            None
        }
    }
}

/// The fire `item`'s `misfire` node owes, unless a run has covered it: the node and the item's
/// start stamp are read together, and a stamp at or after the owed fire is a run that started
/// since (its owner owed the fire while another instance was starting that run, and neither saw
/// the other's write) — the node is then settled, not run again.
pub(super) async fn owed_misfire(ctx: &JobCtx, item: u32) -> Option<DateTime<Utc>> {
    let paths = [ctx.paths.item_leaf(item, ItemLeaf::Misfire), ctx.paths.item(item)];
    let (misfire, stamp) = match ctx.registry.get_many(&paths).await {
        Ok(nodes) => match <[Option<_>; 2]>::try_from(nodes) {
            Ok([misfire, stamp]) => (misfire?, stamp),
            Err(_) => return None,
        },
        Err(e) => {
            tracing::warn!(job = %ctx.name(), item, error = %e, "cannot read the misfire node");
            return None;
        }
    };
    let started = stamp.and_then(|node| codec::decode_millis(&node.data));
    let Some(Op::Delete { path, version }) =
        started.and_then(|started| txn::settle(&ctx.paths, item, started, &misfire))
    else {
        return Some(codec::decode_misfire(&misfire.data));
    };
    tracing::info!(job = %ctx.name(), item, "misfire covered by a run that started since: cleared");
    match ctx.registry.delete(&path, version).await {
        Ok(()) | Err(RegistryError::NoNode(_) | RegistryError::BadVersion(_)) => {}
        Err(e) => tracing::warn!(job = %ctx.name(), item, error = %e, "cannot clear a covered misfire"),
    }
    None
}

pub(super) async fn settle_misfire(ctx: &JobCtx, item: u32, started: DateTime<Utc>) -> Result<(), RegistryError> {
    let node = ctx.paths.item_leaf(item, ItemLeaf::Misfire);
    let Some(misfire) = ctx.registry.get(&node).await? else { return Ok(()) };
    let Some(Op::Delete { path, version }) = txn::settle(&ctx.paths, item, started, &misfire) else { return Ok(()) };
    match ctx.registry.delete(&path, version).await {
        Ok(()) | Err(RegistryError::NoNode(_) | RegistryError::BadVersion(_)) => Ok(()),
        Err(e) => {
            tracing::warn!(job = %ctx.name(), item, error = %e, "cannot clear a covered misfire; retrying");
            Err(e)
        }
    }
}

pub(super) async fn clear_misfire(ctx: &JobCtx, misfire: bool, item: u32) {
    if misfire && let Err(e) = ctx.registry.delete_if_exists(&ctx.paths.item_leaf(item, ItemLeaf::Misfire)).await {
        tracing::warn!(job = %ctx.name(), item, error = %e, "cannot clear the misfire node");
    }
}
