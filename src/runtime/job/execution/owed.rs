//! What a fire is owed, and what covers it already: the `misfire` nodes an instance reads, runs
//! or settles, and the runs that cover a trigger since it was written. Every read here is of the
//! registry, not the cache: these nodes' data is lazy, and the answer must be current.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};

use super::JobCtx;
use crate::coord::fire::{self, Source};
use crate::coord::txn;
use crate::registry::codec;
use crate::registry::path::ItemLeaf;
use crate::registry::{Op, RegistryError};

/// The items of a trigger that a run has covered since the trigger was written (see
/// [`fire::trigger_covered`]; one pipelined read): they get no run of it, are not queued and owe
/// nothing — also when busy with that very run. Nothing for any other fire, for a trigger whose
/// identity could not be read, and on a registry error (a repeat at worst, never a miss).
pub(super) async fn covered_trigger(ctx: &JobCtx, source: &Source, items: &[u32]) -> BTreeSet<u32> {
    let Some(written) = source.fire_id().and_then(|id| id.trigger) else { return BTreeSet::new() };
    if items.is_empty() {
        return BTreeSet::new();
    }
    let token = source.token();
    let paths: Vec<String> = match token {
        Some(token) => items.iter().map(|&item| ctx.paths.trigger_result(token, item)).collect(),
        None => items.iter().map(|&item| ctx.paths.item(item)).collect(),
    };
    let nodes = match ctx.registry.get_many(&paths).await {
        Ok(nodes) => nodes,
        Err(e) => {
            tracing::warn!(job = %ctx.name(), error = %e, "cannot read whether the trigger's items ran already");
            return BTreeSet::new();
        }
    };
    let covered: BTreeSet<u32> = items
        .iter()
        .zip(nodes)
        .filter(|(_, node)| fire::trigger_covered(written, token.is_some(), node.as_ref()))
        .map(|(&item, _)| item)
        .collect();
    if !covered.is_empty() {
        let list: Vec<String> = covered.iter().map(ToString::to_string).collect();
        tracing::info!(job = %ctx.name(), items = %list.join(","), "trigger covered already: these items started a run after it was written");
    }
    covered
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
