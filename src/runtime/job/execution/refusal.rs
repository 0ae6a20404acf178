//! What the worker refuses, recorded on the items' `result` leaves so that `ejctl why` can name
//! it:
//!
//! * a fire refused outright — the clock is off the registry's by more than `maxTimeDiffSeconds`
//!   ([`clock_within_limits`]), or the configuration cannot run — is recorded by [`refuse`], one
//!   write per item;
//! * a run that ran the job file's command instead of a different one from the registry
//!   ([`crate::coord::pin`]) lists the refused values in its `result`, which is written with the
//!   run's end in the transaction that deletes its `running` node: no request of its own. With
//!   `monitorExecution` off, runs write no results; [`RecordedRefusals`] then writes a run's
//!   result only when what it refused differs from what this instance last recorded for the item
//!   — one write when a refusal starts, changes or ends, not one per fire.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{JobCtx, traced};
use crate::coord::fire::Source;
use crate::coord::react;
use crate::coord::txn::ResultWrite;
use crate::exec::context::task_id;
use crate::registry::codec::{self, ItemResult, RefusedValue, RunOutcome};
use crate::registry::path::ItemLeaf;
use crate::runtime::job::effective::Effective;

/// The registry values a run refused, shared by the runs of one fire.
pub(super) type Refusals = Arc<Vec<RefusedValue>>;

/// Per item, what this instance last recorded as refused (`monitorExecution` off).
#[derive(Default)]
pub(super) struct RecordedRefusals(BTreeMap<u32, Refusals>);

impl RecordedRefusals {
    /// Runs ended with `monitorExecution` off: writes the `results` of those whose refusals
    /// differ from what was last recorded for their item (a new refusal, or none after one).
    pub(super) async fn record(&mut self, ctx: &JobCtx, ended: Vec<(ResultWrite, Refusals)>) {
        for (result, refused) in ended {
            let changed = match self.0.get(&result.item) {
                Some(last) => **last != *refused,
                None => !refused.is_empty(),
            };
            if !changed {
                continue;
            }
            match ctx.registry.put(&ctx.paths.item_leaf(result.item, ItemLeaf::Result), &result.data).await {
                Ok(_) => {
                    self.0.insert(result.item, refused);
                }
                Err(e) => {
                    tracing::warn!(job = %ctx.name(), item = result.item, error = %e, "cannot record the refused command");
                }
            }
        }
    }
}

/// A fire the worker refused for `items`: each item's `result` leaf records it (one write per
/// item; refusals are rare, and off the path of runs), so `ejctl why` can name the reason.
pub(super) async fn refuse(ctx: &JobCtx, items: &[u32], source: &Source, reason: &str) {
    let result = ItemResult {
        v: 0,
        instance: ctx.me.to_string(),
        source: source.label().to_string(),
        fire_ms: Some(source.at().timestamp_millis()),
        start_ms: None,
        end_ms: ctx.now().timestamp_millis(),
        outcome: RunOutcome::Refused,
        exit_code: None,
        signal: None,
        message: Some(reason.to_string()),
        stderr_tail: None,
        refused: Vec::new(),
    }
    .encode();
    traced::refused(ctx, &task_id(ctx.name(), items, ctx.me.as_str()), items, reason);
    for &item in items {
        if let Err(e) = ctx.registry.put(&ctx.paths.item_leaf(item, ItemLeaf::Result), &result).await {
            tracing::warn!(job = %ctx.name(), item, error = %e, "cannot record the refused fire");
        }
    }
}

/// `maxTimeDiffSeconds`: compares this machine's clock with the registry's (the mtime of a
/// node written now). Returns why the fire is refused, and logs, when the skew is over the limit
/// or the registry's clock cannot be read.
pub(super) async fn clock_within_limits(ctx: &JobCtx, config: &Effective) -> Result<(), String> {
    let limit = config.config.max_time_diff_seconds;
    if limit < 0 {
        return Ok(());
    }
    let node = ctx.paths.system_time();
    let result = async {
        ctx.registry.put(&node, codec::EMPTY).await?;
        ctx.registry.exists(&node).await
    }
    .await;
    match result {
        Ok(Some(stat)) => match react::clock_skew(limit, ctx.now().timestamp_millis(), stat.mtime) {
            None => Ok(()),
            Some(skew_ms) => {
                tracing::error!(
                    job = %ctx.name(),
                    skew_ms,
                    "fire refused: time different between job server and register center exceed '{limit}' seconds, max time different is '{limit}' seconds"
                );
                Err(format!(
                    "clock skew: this machine's clock is {skew_ms} ms off the registry's, over maxTimeDiffSeconds = {limit}"
                ))
            }
        },
        Ok(None) => Ok(()),
        Err(e) => {
            tracing::warn!(job = %ctx.name(), error = %e, "cannot read the registry clock; fire refused");
            Err(format!("cannot read the registry's clock for the maxTimeDiffSeconds check: {e}"))
        }
    }
}
