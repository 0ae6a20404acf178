//! Fencing: a worker cut off from the registry stops its items before its session can expire.
//!
//! The session timeout is the server's promise: only after `T` without hearing from a client does
//! ZooKeeper expire its session, delete its ephemeral nodes and let other instances take its items
//! over. A worker cannot see the server's clock, but it knows when it last heard from the server:
//! this monitor sends a cheap request every `fencing / 4` and remembers when the last successful
//! one was *sent* (the server received it no earlier). From that instant:
//!
//! * after `fencing / 2` the link is **unhealthy**: jobs start no new fires;
//! * after `fencing` the worker is **fenced**: every running item is killed (SIGTERM, then SIGKILL
//!   of its process group after the kill grace) and its `running` node is left in place, so that
//!   whoever sees the session end fails the item over; a worker that gets its session back turns
//!   such items into failover entries itself (see `job.rs`).
//!
//! The default fencing timeout is half the negotiated session timeout; `fencing + kill_grace`
//! must stay below the session timeout so that a killed item is gone before anyone can take it
//! over. A paused process (SIGSTOP, a frozen VM) cannot act while paused: when it resumes past the
//! deadline it fences at once, but if the server expired its session meanwhile the item already
//! runs elsewhere, and only the kill latency separates the two. No lease-based scheduler can do
//! better without fencing at the resource itself; the README says so.

use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

use super::StopMode;
use crate::registry::Registry;

/// What the fence monitor publishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FenceState {
    /// The registry answered recently: fires may start.
    pub(crate) healthy: bool,
    /// The registry has not answered for the fencing timeout: running items must be killed.
    pub(crate) fenced: bool,
}

impl FenceState {
    pub(crate) const HEALTHY: FenceState = FenceState { healthy: true, fenced: false };
}

/// The default fencing timeout for a session timeout: half of it.
pub(crate) fn default_fencing(session_timeout: Duration) -> Duration {
    session_timeout / 2
}

/// A heartbeat request in flight: resolves to whether the registry answered.
type Ping = std::pin::Pin<Box<dyn std::future::Future<Output = bool> + Send>>;

/// Monitors the link until the worker stops.
pub(crate) async fn monitor(
    registry: Registry,
    fencing: Duration,
    state: watch::Sender<FenceState>,
    mut stop: watch::Receiver<StopMode>,
    metrics: std::sync::Arc<super::metrics::Metrics>,
) {
    let every = (fencing / 4).max(Duration::from_millis(50));
    let unhealthy_after = fencing / 2;
    let mut last_ok = Instant::now();
    let mut next_ping = Instant::now();
    let mut inflight: Option<(Instant, Ping)> = None;
    loop {
        let current = *state.borrow();
        tokio::select! {
            biased;
            changed = stop.changed() => {
                if changed.is_err() || matches!(*stop.borrow(), StopMode::Forced) {
                    return;
                }
            }
            ok = async { match inflight.as_mut() { Some((_, f)) => f.as_mut().await, None => std::future::pending().await } } => {
                if let Some((sent, _)) = inflight.take()
                    && ok
                {
                    metrics.registry_request(sent.elapsed());
                    last_ok = last_ok.max(sent);
                }
            }
            () = tokio::time::sleep_until(next_ping), if inflight.is_none() => {
                let registry = registry.clone();
                let timeout = every * 2;
                inflight = Some((
                    Instant::now(),
                    Box::pin(async move { matches!(tokio::time::timeout(timeout, registry.ping()).await, Ok(Ok(()))) }),
                ));
                next_ping = Instant::now() + every;
            }
            () = tokio::time::sleep_until(last_ok + unhealthy_after), if current.healthy => {}
            () = tokio::time::sleep_until(last_ok + fencing), if !current.fenced => {}
        }
        let age = last_ok.elapsed();
        let next = FenceState { healthy: age < unhealthy_after, fenced: age >= fencing };
        if next != current {
            if next.fenced && !current.fenced {
                tracing::error!(
                    silent_ms = u64::try_from(age.as_millis()).unwrap_or(u64::MAX),
                    "registry unreachable for the fencing timeout: killing running items"
                );
            } else if !next.healthy && current.healthy {
                tracing::warn!("registry not answering: no new fires until it does");
            } else if next.healthy && !current.healthy {
                tracing::info!("registry answering again");
            }
            metrics.fence(current.fenced, next.fenced);
            state.send_replace(next);
        }
    }
}
