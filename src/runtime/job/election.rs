//! Leader election (docs/src/design/compatibility.md#leader-election): the driver of the job's
//! [`Elector`], which decides when to contend, when to give leadership up and how long to pause
//! after a failed contention. Contending runs in a task of its own, owned here; its outcome shows
//! up in the cache as the leader node, and its end goes back to the elector.

use std::task::{Context, Poll, ready};

use futures::FutureExt;
use tokio::time::Instant;

use super::JobCtx;
use crate::coord::elector::{ElectAction, ElectEvent, Elector};
use crate::registry::cache::TreeCache;
use crate::registry::codec::InstanceId;
use crate::registry::path::JobPaths;
use crate::registry::{Mode, Op, Registry, RegistryError, codec};
use crate::runtime::Settings;
use crate::task::OwnedTask;

/// The election of a job on this instance.
pub(super) struct Election {
    elector: Elector,
    /// The contention under way; its result is true when the registry failed it.
    contending: Option<OwnedTask<bool>>,
}

impl Election {
    pub(super) fn new() -> Election {
        Election { elector: Elector::new(), contending: None }
    }

    /// Reports a finished contention to the elector, if one has finished (see
    /// [`Election::ended`]).
    pub(super) fn reap(&mut self, settings: &Settings) {
        if !self.contending.as_ref().is_some_and(OwnedTask::is_finished) {
            return;
        }
        // A finished task's result is ready: no waiting here. A task that ended without a
        // result (it panicked) failed.
        let failed =
            self.contending.take().and_then(|mut task| task.join().now_or_never()).is_none_or(|r| r.unwrap_or(true));
        self.ended(failed, settings);
    }

    /// Whether the contention under way has ended, and failed (a task that ended without a result
    /// panicked: failed); otherwise (or while there is none) leaves `cx`'s waker for its end. The
    /// job's loop waits for it, so that a failed contention's pause starts at once, not at the
    /// next change of the cache (a contention that fails changes nothing).
    pub(super) fn poll_end(&mut self, cx: &mut Context<'_>) -> Poll<bool> {
        let Some(task) = self.contending.as_mut() else { return Poll::Pending };
        let failed = ready!(task.poll_join(cx)).unwrap_or(true);
        self.contending = None;
        Poll::Ready(failed)
    }

    /// Reports a contention's end to the elector: a failed one with the random bits of its
    /// pause, drawn from `settings`' jitter. One that ran to the end shows in the cache as the
    /// leader node: the change that follows looks at it.
    pub(super) fn ended(&mut self, failed: bool, settings: &Settings) {
        self.elector.handle(if failed {
            ElectEvent::Failed { now: Instant::now().into_std(), random: settings.jitter.draw() }
        } else {
            ElectEvent::Won
        });
    }

    /// When a failed contention's pause ends.
    pub(super) fn retry_at(&self) -> Option<Instant> {
        self.elector.poll_timeout().map(Instant::from_std)
    }

    /// A failed contention's pause may be over.
    pub(super) fn retry(&mut self) {
        self.elector.handle_timeout(Instant::now().into_std());
    }

    /// What the job's duties say after a change: contends in the background, or gives
    /// leadership up, as the elector decides.
    pub(super) async fn look(&mut self, ctx: &JobCtx, cache: &TreeCache, elect: bool, resign: bool) {
        self.elector.handle(ElectEvent::Look { elect, resign });
        while let Some(action) = self.elector.poll_action() {
            match action {
                ElectAction::Contend => self.contend(ctx, cache),
                ElectAction::Resign => resign_now(ctx).await,
            }
        }
    }

    /// Contends for leadership in a task of its own.
    fn contend(&mut self, ctx: &JobCtx, cache: &TreeCache) {
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

    /// Stops contending.
    pub(super) fn stop(&mut self) {
        self.elector.handle(ElectEvent::Stop);
        self.contending = None;
    }

    /// The stopped job leaves: gives leadership up when `leading` (see [`ElectEvent::Leave`]).
    pub(super) async fn leave(&mut self, ctx: &JobCtx, leading: bool) {
        self.elector.handle(ElectEvent::Leave { leading });
        while let Some(action) = self.elector.poll_action() {
            match action {
                ElectAction::Resign => resign_now(ctx).await,
                // A stopped elector asks for no contention.
                ElectAction::Contend => {}
            }
        }
    }
}

/// Gives leadership up: this instance's server was disabled, or the job leaves.
async fn resign_now(ctx: &JobCtx) {
    if let Err(e) = ctx.registry.delete_if_exists(&ctx.paths.leader_instance()).await {
        tracing::warn!(job = %ctx.name(), error = %e, "cannot give up leadership");
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
