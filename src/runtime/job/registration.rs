//! Registration: the job's `servers/{ip}` and ephemeral `instances/{id}` nodes, carried out for
//! the job's [`Registrar`], which decides what a session change, a failed registration or a
//! deleted node calls for (docs/src/design/compatibility.md#sessions-and-reactions,
//! docs/src/design/behaviour.md#reconnect-without-churn). Beside the instance node, the ephemeral
//! `runners/{id}` node says that this session may still run items: an operator's `job shutdown`
//! deletes the instance node, and the runner node goes only once the job has stopped here and its
//! runs have ended, so that no other instance fails an item over while its killed run is still
//! exiting. The registrar holds the link state the other rooms read: `connected`, and whether an
//! operator stopped the job here.

use tokio::time::Instant;

use super::JobCtx;
use crate::coord::registrar::{Leaving, RegAction, RegEvent, Registrar};
use crate::coord::txn;
use crate::registry::codec::{self, InstanceInfo, ServerStatus};
use crate::registry::{RegistryError, SessionStatus};
use crate::retry::{self, Attempts};

/// How many times a stopping job tries to remove its runner node.
const LEAVE_ATTEMPTS: u32 = 10;

/// The registration of a job on this instance.
pub(super) struct Registration {
    registrar: Registrar,
}

impl Registration {
    pub(super) fn new() -> Registration {
        Registration { registrar: Registrar::new() }
    }

    /// Connected to the registry.
    pub(super) fn connected(&self) -> bool {
        self.registrar.connected()
    }

    /// An operator stopped the job here (`job shutdown`).
    pub(super) fn stopped_by_admin(&self) -> bool {
        self.registrar.stopped_by_admin()
    }

    /// When a failed registration is retried.
    pub(super) fn retry_at(&self) -> Option<Instant> {
        self.registrar.poll_timeout().map(Instant::from_std)
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
        let session = write_nodes(ctx, cached, disabled).await?;
        self.registrar.handle(RegEvent::Registered { session });
        self.carry_out(ctx, cached, disabled).await;
        Ok(())
    }

    /// Carries out what the registrar asks for, registering with `cached` and `disabled` when
    /// it asks for a registration. Returns true when the link is usable again (the job
    /// resumes).
    async fn carry_out(&mut self, ctx: &JobCtx, cached: &(dyn Fn(&str) -> bool + Sync), disabled: bool) -> bool {
        let mut resume = false;
        let mut failure = None;
        while let Some(action) = self.registrar.poll_action() {
            match action {
                RegAction::Register => match write_nodes(ctx, cached, disabled).await {
                    Ok(session) => self.registrar.handle(RegEvent::Registered { session }),
                    Err(e) => {
                        failure = Some(e);
                        let random = ctx.settings.jitter.draw();
                        self.registrar.handle(RegEvent::RegisterFailed { now: Instant::now().into_std(), random });
                    }
                },
                RegAction::RetryIn(delay) => {
                    let error = failure.take().map(|e| e.to_string()).unwrap_or_default();
                    tracing::warn!(job = %ctx.name(), error = %error, retry_in_ms = delay.as_millis(), "registration failed, retrying");
                }
                RegAction::Reregistered => {
                    tracing::info!(job = %ctx.name(), instance = %ctx.me, "re-registered with a new registry session");
                }
                RegAction::LinkLost(state) => {
                    tracing::warn!(job = %ctx.name(), state = %state.as_str(), "registry connection lost: no new fires until it is back");
                }
                RegAction::Resume { back_in_session } => {
                    if back_in_session {
                        tracing::info!(job = %ctx.name(), "registry connection is back (same session)");
                    }
                    resume = true;
                }
                RegAction::CheckInstance => {
                    let session = ctx.registry.session_id();
                    match ctx.registry.exists(&ctx.paths.instance(ctx.me.as_str())).await {
                        Ok(stat) => {
                            let ours = stat.is_some_and(|s| s.ephemeral_owner == session);
                            self.registrar.handle(RegEvent::InstanceChecked { ours });
                        }
                        Err(e) => tracing::warn!(job = %ctx.name(), error = %e, "cannot check the instance node"),
                    }
                }
                RegAction::StoppedByAdmin => {
                    tracing::warn!(job = %ctx.name(), instance = %ctx.me, "instance node deleted by an operator: stopping this job in this process");
                }
                RegAction::RestoreServer => {
                    let status = ServerStatus::from_enabled(!disabled);
                    match ctx.registry.create_if_absent(&ctx.paths.server(ctx.me.ip()), status.encode()).await {
                        Ok(true) => {
                            tracing::info!(job = %ctx.name(), ip = %ctx.me.ip(), "server node deleted while this instance is registered: written again")
                        }
                        Ok(false) => {}
                        Err(e) => tracing::warn!(job = %ctx.name(), error = %e, "cannot write the server node again"),
                    }
                }
            }
        }
        resume
    }

    /// Our server node is not in the cache: written again when the registrar says so
    /// ([`RegAction::RestoreServer`]), `ENABLED` or `DISABLED` from `disabled`.
    pub(super) async fn restore_server(&mut self, ctx: &JobCtx, disabled: bool) {
        self.registrar.handle(RegEvent::ServerGone { session: ctx.registry.session_id() });
        // No registration follows a missing server node: nothing is looked up in the cache.
        self.carry_out(ctx, &|_| false, disabled).await;
    }

    /// A failed registration's pause may be over: registers again.
    pub(super) async fn retry(&mut self, ctx: &JobCtx, cached: &(dyn Fn(&str) -> bool + Sync), disabled: bool) {
        self.registrar.handle_timeout(Instant::now().into_std());
        self.carry_out(ctx, cached, disabled).await;
    }

    /// The session changed: registers again in a new one. Returns true when the link is up
    /// again (the job resumes).
    pub(super) async fn on_session(
        &mut self,
        ctx: &JobCtx,
        cached: &(dyn Fn(&str) -> bool + Sync),
        status: SessionStatus,
        disabled: bool,
    ) -> bool {
        self.registrar.handle(RegEvent::Session(status));
        self.carry_out(ctx, cached, disabled).await
    }

    /// The job stopped here and its runs ended: the instance node goes (unless an operator
    /// deleted it), then the runner node — retried for a while ([`retry::LEAVE`]), since until it
    /// goes no other instance takes over the runs this one left.
    pub(super) async fn leave(&self, ctx: &JobCtx) {
        let leaving = self.registrar.leaving();
        if leaving == Leaving::Nothing {
            return;
        }
        if leaving == Leaving::InstanceAndRunner
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
        self.registrar.handle(RegEvent::InstanceGone { session: ctx.registry.session_id() });
        // A check of the instance node asks for no registration and writes no server node.
        self.carry_out(ctx, &|_| false, false).await;
    }
}

/// Writes the server node (when absent), the runner and the instance nodes ([`Registration::register`]);
/// returns the session they were written in.
async fn write_nodes(
    ctx: &JobCtx,
    cached: &(dyn Fn(&str) -> bool + Sync),
    disabled: bool,
) -> Result<i64, RegistryError> {
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
    Ok(session)
}
