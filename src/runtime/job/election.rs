//! Leader election (docs/src/design/compatibility.md#leader-election): the Curator latch at
//! `leader/election/latch` guards "create `leader/election/instance` if absent". Contending runs in
//! a task of its own, owned here; its outcome shows up in the cache as the leader node.
//!
//! A contention that failed (the registry did not answer) is followed by a pause before the next
//! ([`retry::ELECTION`], backing off while contentions keep failing): its own latch nodes change
//! the cache, and contending again on every such change would be a busy loop of registry requests
//! while the registry fails.

use futures::FutureExt;
use tokio::time::Instant;

use super::JobCtx;
use crate::registry::cache::TreeCache;
use crate::registry::codec::InstanceId;
use crate::registry::path::JobPaths;
use crate::registry::{Mode, Op, Registry, RegistryError, codec};
use crate::retry::{self, Attempts};
use crate::runtime::Settings;
use crate::task::OwnedTask;

/// The election of a job on this instance.
pub(super) struct Election {
    contending: Option<OwnedTask<bool>>,
    /// After a failed contention: not before this instant.
    retry_at: Option<Instant>,
    /// The contentions that failed in a row.
    attempts: Attempts,
}

impl Election {
    pub(super) fn new() -> Election {
        Election { contending: None, retry_at: None, attempts: Attempts::default() }
    }

    /// Forgets a finished contention, so the next change may contend again (after a pause when
    /// it failed, drawn with `settings`' jitter).
    pub(super) fn reap(&mut self, settings: &Settings) {
        if !self.contending.as_ref().is_some_and(OwnedTask::is_finished) {
            return;
        }
        // A finished task's result is ready: no waiting here.
        let failed =
            self.contending.take().and_then(|mut task| task.join().now_or_never()).is_none_or(|r| r.unwrap_or(true));
        if failed {
            self.retry_at = Some(Instant::now() + self.attempts.fail(&retry::ELECTION, settings.jitter.draw()));
        } else {
            self.attempts.reset();
        }
    }

    /// When a failed contention may be retried.
    pub(super) fn retry_at(&self) -> Option<Instant> {
        self.retry_at
    }

    /// A failed contention's pause is over.
    pub(super) fn retry(&mut self) {
        if self.retry_at.is_some_and(|at| at <= Instant::now()) {
            self.retry_at = None;
        }
    }

    /// Contends for leadership in the background, unless already contending (or pausing after a
    /// failure).
    pub(super) fn contend(&mut self, ctx: &JobCtx, cache: &TreeCache) {
        if self.contending.is_some() || self.retry_at.is_some() {
            return;
        }
        let directories = latch_directories(ctx, cache);
        let registry = ctx.registry.clone();
        let paths = ctx.paths.clone();
        let me = ctx.me.clone();
        let settings = std::sync::Arc::clone(&ctx.settings);
        self.contending = Some(OwnedTask::spawn(async move {
            // The contention itself is boxed once a slot is free: a task waiting for a slot is
            // then a few hundred bytes, not the contention's kilobyte and a half.
            let _slot = settings.contention().await;
            let result = Box::pin(contend(&registry, &paths, &me, &settings, directories)).await;
            match result {
                Ok(()) => false,
                Err(e) => {
                    tracing::warn!(job = %paths.job(), error = %e, "leader election failed; retrying");
                    true
                }
            }
        }));
    }

    /// Gives leadership up: this instance's server was disabled, or it is stopping.
    pub(super) async fn resign(&self, ctx: &JobCtx) {
        if let Err(e) = ctx.registry.delete_if_exists(&ctx.paths.leader_instance()).await {
            tracing::warn!(job = %ctx.name(), error = %e, "cannot give up leadership");
        }
    }

    /// Stops contending.
    pub(super) fn stop(&mut self) {
        self.contending = None;
    }
}

/// Takes the latch and creates the leader node if it is absent.
async fn contend(
    registry: &Registry,
    paths: &JobPaths,
    me: &InstanceId,
    settings: &Settings,
    directories: Vec<Op>,
) -> Result<(), RegistryError> {
    if !directories.is_empty()
        && let Err(e) = registry.transaction(&directories).await
    {
        // The cache was behind: the latch creates what is missing.
        tracing::debug!(job = %paths.job(), error = %e, "latch directories not created in one transaction");
    }
    let _latch = registry.latch(&paths.election_latch()).await?;
    if registry.exists(&paths.leader_instance()).await?.is_none() {
        match registry.create(&paths.leader_instance(), &me.encode(), Mode::Ephemeral).await {
            Ok(_) => {
                settings.metrics.leader_change(paths.job());
                tracing::info!(job = %paths.job(), instance = %me, "elected leader");
            }
            Err(RegistryError::NodeExists(_)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The latch's directories (`leader`, `leader/election`, `leader/election/latch`) the cache does
/// not show, as one transaction creating them as Curator does (containers): for a new job the
/// latch would otherwise find each missing, one failed creation after another.
fn latch_directories(ctx: &JobCtx, cache: &TreeCache) -> Vec<Op> {
    let missing = cache.read().missing_dirs(&ctx.paths.election_latch(), ctx.paths.root());
    missing.into_iter().map(|path| Op::Create { path, data: codec::EMPTY.to_vec(), mode: Mode::Container }).collect()
}
