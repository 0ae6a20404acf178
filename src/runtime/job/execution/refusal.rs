//! What the worker refuses, recorded on the items' `result` leaves so that `ejctl why` can name
//! it:
//!
//! * a fire refused outright — the clock is off the registry's by more than `maxTimeDiffSeconds`
//!   ([`registry_clock`]), or the configuration cannot run — is recorded by [`refuse_fire`], one
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
use crate::coord::firing::Refusal;
use crate::coord::txn::ResultWrite;
use crate::exec::context::task_id;
use crate::registry::codec::{self, ItemResult, RefusedValue, RunOutcome};
use crate::registry::path::ItemLeaf;
use crate::runtime::job::effective::Effective;
use crate::runtime::metrics;

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
async fn refuse(ctx: &JobCtx, items: &[u32], source: &Source, reason: &str) {
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

/// `maxTimeDiffSeconds`: the registry's clock, as the mtime of a node written now (`None`: no
/// node to read), for [`crate::coord::firing::Firing`] to compare with this machine's; or why it
/// could not be read.
pub(super) async fn registry_clock(ctx: &JobCtx) -> Result<Option<i64>, String> {
    let node = ctx.paths.system_time();
    let read = async {
        ctx.registry.put(&node, codec::EMPTY).await?;
        ctx.registry.exists(&node).await
    };
    read.await.map(|stat| stat.map(|stat| stat.mtime)).map_err(|e| e.to_string())
}

/// A fire refused on `items` ([`Refusal`]): logged, counted, reported to the error handler when
/// the clock is at fault, and recorded on the items ([`refuse`]).
pub(super) async fn refuse_fire(ctx: &JobCtx, config: &Effective, items: &[u32], source: &Source, refusal: &Refusal) {
    let reason = refusal.reason();
    match refusal {
        Refusal::ClockSkew { skew_ms, limit } => tracing::error!(
            job = %ctx.name(),
            skew_ms,
            "fire refused: time different between job server and register center exceed '{limit}' seconds, max time different is '{limit}' seconds"
        ),
        Refusal::ClockUnread(e) => {
            tracing::warn!(job = %ctx.name(), error = %e, "cannot read the registry clock; fire refused");
        }
        Refusal::Unrunnable(e) => {
            let list: Vec<String> = items.iter().map(ToString::to_string).collect();
            tracing::error!(job = %ctx.name(), items = %list.join(","), error = %e, "items not run");
        }
    }
    if let Refusal::Unrunnable(_) = refusal {
        ctx.settings.metrics.fire_refused(ctx.name(), metrics::Refusal::Config);
    } else {
        ctx.settings.metrics.fire_refused(ctx.name(), metrics::Refusal::ClockSkew);
        super::super::report::clock_refused(ctx, config, source.label(), &reason);
    }
    refuse(ctx, items, source, &reason).await;
}
