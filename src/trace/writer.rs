//! The trace writer: one background task per worker that drains the tracer's channel into the
//! database.
//!
//! It waits [`LINGER`] after an event arrives, takes what has queued up (up to [`BATCH`] events)
//! and writes it in one transaction. When
//! the database is unreachable or a write fails, the batch is kept and retried with exponential
//! backoff and jitter ([`crate::retry::TRACE`]), reconnecting as needed; meanwhile new events wait in the bounded
//! channel, and once that is full the tracer drops them (counted, logged). The fire path only
//! ever does a non-blocking send, so a slow or dead database costs no fire. Retention runs on a
//! timer. When the worker stops, the channel closes and the writer flushes what is left, within
//! a deadline ([`TraceService::finish`]).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tokio::sync::mpsc;

use super::store::Store;
use super::{HostInfo, TraceConfig, TraceEvent, TraceStats, Tracer};
use crate::retry::{self, Attempts, Jitter};
use crate::task::OwnedTask;

/// The most events written in one transaction.
pub const BATCH: usize = 500;

/// How long the writer lets events gather after the first one of a batch: a fire of many items
/// emits its events in a burst while its processes are being started, and one transaction for
/// the burst, written after it, costs the machine the scripts start on far less than writes
/// interleaved with the spawns (measured: with 100 items per fire, 100 ms still doubled the
/// all-items p99 lateness).
pub const LINGER: Duration = Duration::from_millis(500);

/// The running writer, owned by the worker.
pub struct TraceService {
    task: OwnedTask<()>,
    stats: Arc<TraceStats>,
    target: String,
}

impl TraceService {
    /// Starts the writer for `config`; returns the tracer jobs emit to. Connecting happens in the
    /// background: a worker starts (and fires) even while the database is down.
    pub fn start(config: TraceConfig, host: HostInfo) -> (Tracer, TraceService) {
        let (tracer, rx, stats) = Tracer::channel(config.buffer, host);
        let target = config.target.describe();
        tracing::info!(store = %target, "tracing runs to the trace store");
        let task = OwnedTask::spawn(run(config, rx, Arc::clone(&stats)));
        (tracer, TraceService { task, stats, target })
    }

    /// Waits for the writer to flush what is queued (the tracers are gone, so the channel is
    /// closed) for at most `limit`; then gives up on the rest.
    pub async fn finish(mut self, limit: Duration) {
        if self.task.join_within(limit).await.is_none() {
            tracing::warn!(store = %self.target, "trace store too slow at shutdown: unwritten events dropped");
        }
        let s = &self.stats;
        tracing::info!(
            written = s.written.load(Ordering::Relaxed),
            dropped = s.dropped.load(Ordering::Relaxed),
            failed_batches = s.failed_batches.load(Ordering::Relaxed),
            "trace writer stopped"
        );
    }

    /// The counters.
    pub fn stats(&self) -> &TraceStats {
        &self.stats
    }
}

async fn run(config: TraceConfig, mut rx: mpsc::Receiver<TraceEvent>, stats: Arc<TraceStats>) {
    let mut store: Option<Store> = None;
    let mut pending: Vec<TraceEvent> = Vec::new();
    let (mut failures, jitter) = (Attempts::default(), Jitter::from_os());
    let mut healthy = true;
    let mut closed = false;
    let mut retention = tokio::time::interval(config.retention_interval.max(Duration::from_millis(100)));
    retention.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        if pending.is_empty() {
            if closed {
                break;
            }
            tokio::select! {
                event = rx.recv() => match event {
                    Some(event) => {
                        pending.push(event);
                        tokio::time::sleep(LINGER).await;
                    }
                    None => break,
                },
                _ = retention.tick() => {
                    if let Some(store) = &store {
                        enforce_retention(store, &config).await;
                    }
                    continue;
                }
            }
        }
        while pending.len() < BATCH {
            match rx.try_recv() {
                Ok(event) => pending.push(event),
                Err(mpsc::error::TryRecvError::Empty) => break,
                Err(mpsc::error::TryRecvError::Disconnected) => {
                    closed = true;
                    break;
                }
            }
        }
        let result = match &store {
            Some(store) => store.write(&pending).await,
            None => match Store::open(&config.target).await {
                Ok(opened) => {
                    enforce_retention(&opened, &config).await;
                    let written = opened.write(&pending).await;
                    store = Some(opened);
                    written
                }
                Err(e) => Err(e.context(format!("cannot open the trace store {}", config.target.describe()))),
            },
        };
        match result {
            Ok(()) => {
                stats.written.fetch_add(pending.len() as u64, Ordering::Relaxed);
                pending.clear();
                failures.reset();
                if !healthy {
                    tracing::info!(store = %config.target.describe(), "trace store reachable again");
                    healthy = true;
                }
            }
            Err(e) => {
                stats.failed_batches.fetch_add(1, Ordering::Relaxed);
                let backoff = failures.fail(&retry::TRACE, jitter.draw());
                if healthy {
                    tracing::warn!(store = %config.target.describe(), error = %format!("{e:#}"), retry_in_ms = backoff.as_millis(), "cannot write to the trace store; retrying (fires are not affected)");
                    healthy = false;
                } else {
                    tracing::debug!(error = %format!("{e:#}"), retry_in_ms = backoff.as_millis(), "trace store still failing");
                }
                tokio::time::sleep(backoff).await;
            }
        }
    }
    if let Some(store) = store {
        store.close().await;
    }
}

async fn enforce_retention(store: &Store, config: &TraceConfig) {
    match store.enforce_retention(chrono::Utc::now(), config.max_age, config.max_rows).await {
        Ok(0) => {}
        Ok(deleted) => tracing::info!(deleted, "trace retention: old runs deleted"),
        Err(e) => tracing::warn!(error = %format!("{e:#}"), "trace retention failed"),
    }
}
