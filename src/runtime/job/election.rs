//! Leader election (reference §2.2): the Curator latch at `leader/election/latch` guards
//! "create `leader/election/instance` if absent". Contending runs in a task of its own, owned
//! here; its outcome shows up in the cache as the leader node.

use super::JobCtx;
use crate::registry::{Mode, RegistryError};
use crate::task::OwnedTask;

/// The election of a job on this instance.
pub(super) struct Election {
    contending: Option<OwnedTask<()>>,
}

impl Election {
    pub(super) fn new() -> Election {
        Election { contending: None }
    }

    /// Forgets a finished contention, so the next change may contend again.
    pub(super) fn reap(&mut self) {
        if self.contending.as_ref().is_some_and(OwnedTask::is_finished) {
            self.contending = None;
        }
    }

    /// Contends for leadership in the background, unless already contending.
    pub(super) fn contend(&mut self, ctx: &JobCtx) {
        if self.contending.is_some() {
            return;
        }
        let registry = ctx.registry.clone();
        let paths = ctx.paths.clone();
        let me = ctx.me.clone();
        self.contending = Some(OwnedTask::spawn(async move {
            let result = async {
                let _latch = registry.latch(&paths.election_latch()).await?;
                if registry.exists(&paths.leader_instance()).await?.is_none() {
                    match registry.create(&paths.leader_instance(), &me.encode(), Mode::Ephemeral).await {
                        Ok(_) => tracing::info!(job = %paths.job(), instance = %me, "elected leader"),
                        Err(RegistryError::NodeExists(_)) => {}
                        Err(e) => return Err(e),
                    }
                }
                Ok::<_, RegistryError>(())
            };
            if let Err(e) = result.await {
                tracing::warn!(job = %paths.job(), error = %e, "leader election failed; retrying on the next change");
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
