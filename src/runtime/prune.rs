//! The worker's opt-in pruning of servers that are gone for good (`[instance]
//! prune_servers_after_seconds`): at start-up and then every that long (at least a second
//! apart), the `servers/{ip}` nodes of this worker's jobs that nothing uses and that were not
//! written during that long are deleted ([`crate::ops::prune`]: version-checked, after the
//! instances are read again). Where pod IPs come and go, servers then do not accumulate.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use super::{Clock, StopMode};
use crate::ops::Admin;
use crate::ops::text::name_list;
use crate::registry::Registry;

/// The shortest time between two rounds.
const MIN_PERIOD: Duration = Duration::from_secs(1);

/// Prunes the unused servers of `jobs` until the worker stops.
pub(super) async fn serve(
    registry: Registry,
    jobs: Vec<String>,
    after: Duration,
    clock: Arc<dyn Clock>,
    mut stop: watch::Receiver<StopMode>,
) {
    let admin = Admin::new(registry, "");
    let period = after.max(MIN_PERIOD);
    loop {
        round(&admin, &jobs, after, clock.now().timestamp_millis()).await;
        tokio::select! {
            () = tokio::time::sleep(period) => {}
            changed = stop.changed() => {
                if changed.is_err() || !matches!(*stop.borrow(), StopMode::Run) {
                    return;
                }
            }
        }
    }
}

/// One round: plan, then delete what is still unused.
async fn round(admin: &Admin, jobs: &[String], after: Duration, now_ms: i64) {
    let plan = match admin.plan_prune(Some(jobs), after, now_ms).await {
        Ok(plan) => plan,
        Err(e) => {
            tracing::warn!(error = %e, "cannot look for unused servers to prune");
            return;
        }
    };
    if plan.is_empty() {
        return;
    }
    match admin.prune(&plan).await {
        Ok(done) if !done.is_empty() => {
            let names: Vec<String> =
                done.iter().map(|c| format!("{}/{}", c.job, c.server.as_deref().unwrap_or_default())).collect();
            tracing::info!(count = done.len(), "pruned unused server nodes: {}", name_list(&names));
        }
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "cannot prune unused servers"),
    }
}
