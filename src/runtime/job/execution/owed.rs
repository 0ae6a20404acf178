//! What a fire is owed, and what covers it already: the `misfire` nodes an instance reads, runs
//! or settles, and the runs that cover a trigger since it was written. Every read here is of the
//! registry, not the cache: these nodes' data is lazy, and the answer must be current.

use chrono::{DateTime, Utc};

use super::JobCtx;
use crate::coord::fire::Source;
use crate::coord::txn;
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
