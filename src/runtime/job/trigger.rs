//! A manual trigger for this instance, carried out: the driver of the job's [`Triggers`], which
//! decides what consumes a trigger, what fires and when a deletion in doubt is tried again.

use std::sync::Arc;

use super::JobCtx;
use crate::coord::fire::{FireId, Source};
use crate::coord::trigger::{Trigger, TriggerAction, TriggerEvent, Triggers};
use crate::registry::cache::TreeCache;
use crate::registry::codec;

/// The job's trigger on this instance.
#[derive(Debug, Default)]
pub(super) struct TriggerRoom {
    triggers: Triggers,
}

impl TriggerRoom {
    /// When a deletion in doubt is tried again.
    pub(super) fn retry_at(&self) -> Option<tokio::time::Instant> {
        self.triggers.poll_timeout().map(tokio::time::Instant::from_std)
    }

    /// The cache shows a trigger node for this instance: consumes it; returns the fire to start.
    pub(super) async fn seen(&mut self, ctx: &JobCtx, cache: &TreeCache) -> Option<Source> {
        let token = cache.read().data(&ctx.paths.trigger(ctx.me.as_str())).and_then(codec::decode_trigger);
        self.triggers.handle(TriggerEvent::Seen { token: token.map(Arc::from) });
        self.carry_out(ctx).await
    }

    /// A deletion in doubt may be due again: tries it; returns the fire to start.
    pub(super) async fn retry(&mut self, ctx: &JobCtx) -> Option<Source> {
        self.triggers.handle_timeout(tokio::time::Instant::now().into_std());
        self.carry_out(ctx).await
    }

    async fn carry_out(&mut self, ctx: &JobCtx) -> Option<Source> {
        while let Some(action) = self.triggers.poll_action() {
            match action {
                TriggerAction::ReadRound => self.triggers.handle(TriggerEvent::RoundRead(round(ctx).await)),
                TriggerAction::Consume => {
                    let result = ctx.registry.delete_if_exists(&ctx.paths.trigger(ctx.me.as_str())).await;
                    if let Err(e) = &result {
                        tracing::warn!(job = %ctx.name(), error = %e, "cannot consume the trigger node");
                    } else if result.as_ref().is_ok_and(|removed| !removed) {
                        tracing::debug!(job = %ctx.name(), "trigger node gone when consumed");
                    }
                    let now = tokio::time::Instant::now().into_std();
                    let random = ctx.settings.jitter.draw();
                    self.triggers.handle(TriggerEvent::Consumed { result: result.map_err(drop), now, random });
                }
                TriggerAction::Fire(Trigger { token, round }) => return Some(Source::Trigger(ctx.now(), token, round)),
                TriggerAction::RetryIn(delay) => {
                    tracing::info!(job = %ctx.name(), retry_in_ms = delay.as_millis(), "the trigger is consumed again after a pause: the deletion may have been applied");
                }
            }
        }
        None
    }
}

/// A trigger's identity across instances ([`FireId`]): the `trigger` node's creation, shared by
/// every instance the admin triggered (ejctl writes them in one transaction; ElasticJob's admin
/// deletes and recreates the parent). Once-per-fire listeners name the fire by it, and its zxid
/// tells which runs came after the trigger.
async fn round(ctx: &JobCtx) -> Option<FireId> {
    let stat = ctx.registry.exists(&ctx.paths.triggers()).await.ok().flatten()?;
    Some(FireId::trigger(stat.ctime, stat.czxid))
}
