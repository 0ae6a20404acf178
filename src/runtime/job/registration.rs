//! Registration: the job's `servers/{ip}` and ephemeral `instances/{id}` nodes, the session they
//! belong to, and what a session change or a deleted instance node means
//! (docs/src/design/compatibility.md#sessions-and-reactions,
//! docs/src/design/behaviour.md#reconnect-without-churn). Beside the instance node, the ephemeral
//! `runners/{id}` node says that this session may still run items: an operator's `job shutdown`
//! deletes the instance node, and the runner node goes only once the job has stopped here and its
//! runs have ended, so that no other instance fails an item over while its killed run is still
//! exiting. Owns the link state the other rooms read: `connected`, and whether an operator stopped
//! the job here.

use tokio::time::Instant;

use super::JobCtx;
use crate::coord::react::{self, SessionStep};
use crate::coord::txn;
use crate::registry::codec::{self, InstanceInfo, ServerStatus};
use crate::registry::{RegistryError, SessionStatus};
use crate::retry::{self, Attempts};

/// How many times a stopping job tries to remove its runner node.
const LEAVE_ATTEMPTS: u32 = 10;

/// The registration state of a job on this instance.
pub(super) struct Registration {
    /// Connected to the registry.
    connected: bool,
    /// The session the instance node was last written in.
    registered_session: i64,
    /// When to try a failed registration again.
    retry_at: Option<Instant>,
    /// The registrations that failed in a row ([`retry::REGISTRATION`]).
    attempts: Attempts,
    /// An operator deleted the instance node within our session: the job stops in this process.
    stopped_by_admin: bool,
}

impl Registration {
    pub(super) fn new() -> Registration {
        Registration {
            connected: true,
            registered_session: 0,
            retry_at: None,
            attempts: Attempts::default(),
            stopped_by_admin: false,
        }
    }

    /// Connected to the registry.
    pub(super) fn connected(&self) -> bool {
        self.connected
    }

    /// An operator stopped the job here (`job shutdown`).
    pub(super) fn stopped_by_admin(&self) -> bool {
        self.stopped_by_admin
    }

    /// When a failed registration is retried.
    pub(super) fn retry_at(&self) -> Option<Instant> {
        self.retry_at
    }

    /// Registers the server node (kept as is when it exists, written `ENABLED`/`DISABLED` from
    /// `disabled` when it does not) and the ephemeral runner and instance nodes of this session.
    /// `cached` says whether the job's cache shows a node: when it shows neither the runner nor
    /// the instance node (a start, as a rule) everything missing is created in one transaction
    /// ([`txn::registration`]); otherwise, or when the cache was behind, node by node.
    pub(super) async fn register(
        &mut self,
        ctx: &JobCtx,
        cached: &(dyn Fn(&str) -> bool + Sync),
        disabled: bool,
    ) -> Result<(), RegistryError> {
        let status = ServerStatus::from_enabled(!disabled);
        let info = InstanceInfo::new(&ctx.me).to_yaml();
        let session = ctx.registry.session_id();
        let fresh = txn::registration(&ctx.paths, &ctx.me, cached, &status, &info);
        let written = match fresh {
            Some(ops) => match ctx.registry.transaction(&ops).await {
                Ok(()) => true,
                // A node the cache did not show yet (another instance made a parent meanwhile),
                // or one it still showed: node by node below, which copes with either.
                Err(RegistryError::Transaction { .. }) => false,
                Err(e) => return Err(e),
            },
            None => false,
        };
        if !written {
            ctx.registry.create_if_absent(&ctx.paths.server(ctx.me.ip()), status.encode()).await?;
            ctx.registry.create_if_absent(&ctx.paths.runners(), codec::EMPTY).await?;
            ctx.registry.put_ephemeral(&ctx.paths.runner(ctx.me.as_str()), codec::EMPTY).await?;
            ctx.registry.put_ephemeral(&ctx.paths.instance(ctx.me.as_str()), info.as_bytes()).await?;
        }
        if session != self.registered_session {
            if self.registered_session != 0 {
                tracing::info!(job = %ctx.name(), instance = %ctx.me, "re-registered with a new registry session");
            }
            self.registered_session = session;
        }
        Ok(())
    }

    /// Our server node is not in the cache while our instance is registered: writes it again
    /// when it is gone (`ENABLED` or `DISABLED` from `disabled`, as at registration), so a prune
    /// that raced with the registration cannot leave a live instance without its server.
    pub(super) async fn restore_server(&mut self, ctx: &JobCtx, disabled: bool) {
        if !self.connected || self.stopped_by_admin || self.registered_session != ctx.registry.session_id() {
            return;
        }
        let status = ServerStatus::from_enabled(!disabled);
        match ctx.registry.create_if_absent(&ctx.paths.server(ctx.me.ip()), status.encode()).await {
            Ok(true) => {
                tracing::info!(job = %ctx.name(), ip = %ctx.me.ip(), "server node deleted while this instance is registered: written again")
            }
            Ok(false) => {}
            Err(e) => tracing::warn!(job = %ctx.name(), error = %e, "cannot write the server node again"),
        }
    }

    /// Registers, and on failure schedules a retry, backing off while it keeps failing
    /// ([`retry::REGISTRATION`]).
    pub(super) async fn register_or_retry(
        &mut self,
        ctx: &JobCtx,
        cached: &(dyn Fn(&str) -> bool + Sync),
        disabled: bool,
    ) {
        self.retry_at = None;
        match self.register(ctx, cached, disabled).await {
            Ok(()) => self.attempts.reset(),
            Err(e) => {
                let delay = self.attempts.fail(&retry::REGISTRATION, ctx.settings.jitter.draw());
                tracing::warn!(job = %ctx.name(), error = %e, retry_in_ms = delay.as_millis(), "registration failed, retrying");
                self.retry_at = Some(Instant::now() + delay);
            }
        }
    }

    /// The session changed: note the link state and register again in a new session. Returns
    /// true when the link is up again (the job resumes).
    pub(super) async fn on_session(
        &mut self,
        ctx: &JobCtx,
        cached: &(dyn Fn(&str) -> bool + Sync),
        status: SessionStatus,
        disabled: bool,
    ) -> bool {
        match react::session(&mut self.connected, self.registered_session, status) {
            SessionStep::Down { was_up } => {
                if was_up {
                    tracing::warn!(job = %ctx.name(), state = %status.state.as_str(), "registry connection lost: no new fires until it is back");
                }
                false
            }
            SessionStep::Register => {
                self.register_or_retry(ctx, cached, disabled).await;
                true
            }
            SessionStep::Resume { was_down } => {
                if was_down {
                    tracing::info!(job = %ctx.name(), "registry connection is back (same session)");
                }
                true
            }
        }
    }

    /// The job stopped here and its runs ended: the instance node goes (unless an operator
    /// deleted it), then the runner node — retried for a while ([`retry::LEAVE`]), since until it
    /// goes no other instance takes over the runs this one left.
    pub(super) async fn leave(&self, ctx: &JobCtx) {
        if !self.connected {
            return;
        }
        if !self.stopped_by_admin
            && let Err(e) = ctx.registry.delete_if_exists(&ctx.paths.instance(ctx.me.as_str())).await
        {
            tracing::warn!(job = %ctx.name(), error = %e, "cannot remove the instance node");
        }
        let mut attempts = Attempts::default();
        for attempt in 1..=LEAVE_ATTEMPTS {
            match ctx.registry.delete_if_exists(&ctx.paths.runner(ctx.me.as_str())).await {
                Ok(_) => return,
                Err(e) if attempt == LEAVE_ATTEMPTS => {
                    tracing::error!(job = %ctx.name(), error = %e, "cannot remove the runner node: the runs this instance left are failed over when its session ends");
                }
                Err(e) => {
                    tracing::warn!(job = %ctx.name(), error = %e, "cannot remove the runner node; retrying");
                    tokio::time::sleep(attempts.fail(&retry::LEAVE, ctx.settings.jitter.draw())).await;
                }
            }
        }
    }

    /// Our instance node is gone. Within our session only an operator deletes it
    /// (`job shutdown`), and then ElasticJob stops the job in this process.
    pub(super) async fn own_instance_deleted(&mut self, ctx: &JobCtx) {
        let session = ctx.registry.session_id();
        if !react::check_own_instance(self.connected, session, self.registered_session) {
            return;
        }
        match ctx.registry.exists(&ctx.paths.instance(ctx.me.as_str())).await {
            Ok(Some(stat)) if stat.ephemeral_owner == session => {}
            Ok(_) => {
                tracing::warn!(job = %ctx.name(), instance = %ctx.me, "instance node deleted by an operator: stopping this job in this process");
                self.stopped_by_admin = true;
            }
            Err(e) => tracing::warn!(job = %ctx.name(), error = %e, "cannot check the instance node"),
        }
    }
}
