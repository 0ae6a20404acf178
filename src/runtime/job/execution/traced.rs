//! What a job's fires and runs tell the trace store (see [`crate::trace::event`]): a row per run
//! at its start and end, and ElasticJob's status rows per fire on this instance — staging and
//! running when its items start, finished or error once the last of them ended, the misfire
//! message for items still busy, the reason for a refused fire.
//!
//! Every function here only builds events and hands them to [`crate::trace::Tracer::emit`],
//! which never waits; with no `[trace]` configured they do nothing.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::JobCtx;
use crate::coord::fire::Source;
use crate::coord::group::Group;
use crate::exec::ItemOutcome;
use crate::trace::event::{self, RunEnd, RunStart, StatusTrace, TraceEvent};

/// The fires in progress on this instance, for their closing status row: each fire's
/// [`Group`], its items' failures with their reasons.
#[derive(Default)]
pub(super) struct FireGroups {
    next: u64,
    groups: BTreeMap<u64, (String, Group<String>)>,
}

impl FireGroups {
    /// Items of a fire start: `TASK_STAGING` and `TASK_RUNNING`. Returns the group's id.
    pub(super) fn open(&mut self, ctx: &JobCtx, task_id: &str, items: &[u32]) -> u64 {
        self.next += 1;
        if ctx.settings.tracer.is_none() {
            return self.next;
        }
        status(ctx, task_id, items, event::TASK_STAGING, event::staging_message(ctx.name()));
        status(ctx, task_id, items, event::TASK_RUNNING, String::new());
        self.groups.insert(self.next, (task_id.to_string(), Group::new(items)));
        self.next
    }

    /// An item of group `id` did not start after all (it was found running elsewhere): the
    /// group's closing row leaves it out.
    pub(super) fn leave_out(&mut self, ctx: &JobCtx, id: u64, item: u32) {
        if self.groups.get_mut(&id).is_some_and(|(_, group)| group.leave_out(item)) {
            self.close(ctx, id);
        }
    }

    /// An item of group `id` ended; the last one writes `TASK_FINISHED`, or `TASK_ERROR` with
    /// the causes of the failed items.
    pub(super) fn close_item(&mut self, ctx: &JobCtx, id: u64, item: u32, outcome: &ItemOutcome) {
        let failure = (!outcome.success).then(|| outcome.reason().unwrap_or_else(|| "failed".to_string()));
        if self.groups.get_mut(&id).is_some_and(|(_, group)| group.close(item, failure)) {
            self.close(ctx, id);
        }
    }

    /// Group `id` is over: its closing row.
    fn close(&mut self, ctx: &JobCtx, id: u64) {
        let Some((task_id, group)) = self.groups.remove(&id) else { return };
        let (state, message) = if group.failed().is_empty() {
            (event::TASK_FINISHED, String::new())
        } else {
            (event::TASK_ERROR, event::error_message(group.failed()))
        };
        status(ctx, &task_id, group.items(), state, message);
    }
}

/// A run starts: its `JOB_EXECUTION_LOG` / `EJCTL_RUN_LOG` rows (`None` without a tracer).
pub(super) fn run_started(
    ctx: &JobCtx,
    item: u32,
    task_id: &str,
    source: &Source,
    started: DateTime<Utc>,
) -> Option<RunStart> {
    let tracer = ctx.settings.tracer.as_ref()?;
    let start = RunStart {
        id: uuid::Uuid::new_v4().to_string(),
        job: ctx.name().to_string(),
        item,
        task_id: task_id.to_string(),
        instance: ctx.me.to_string(),
        hostname: tracer.host.hostname.clone(),
        ip: tracer.host.ip.clone(),
        source: source.label(),
        fire_ms: source.at().timestamp_millis(),
        start_ms: started.timestamp_millis(),
        token: source.token().map(str::to_string),
    };
    tracer.emit(TraceEvent::RunStarted(start.clone()));
    Some(start)
}

/// A run ended: its rows get the outcome.
pub(super) fn run_ended(ctx: &JobCtx, start: RunStart, outcome: &ItemOutcome) {
    let Some(tracer) = &ctx.settings.tracer else { return };
    let end = RunEnd {
        start,
        end_ms: ctx.now().timestamp_millis(),
        outcome: outcome.run_outcome(),
        exit_code: outcome.exit_code,
        signal: outcome.signal,
        message: outcome.reason(),
        output_tail: outcome.output_tail.clone(),
        stderr_tail: outcome.stderr_tail.clone(),
    };
    tracer.emit(TraceEvent::RunEnded(Box::new(end)));
}

/// A fire found these items still running here: `TASK_STAGING`, then `TASK_FINISHED` with
/// ElasticJob's misfire message.
pub(super) fn still_running(ctx: &JobCtx, task_id: &str, items: &[u32]) {
    if ctx.settings.tracer.is_none() || items.is_empty() {
        return;
    }
    status(ctx, task_id, items, event::TASK_STAGING, event::staging_message(ctx.name()));
    status(ctx, task_id, items, event::TASK_FINISHED, event::misfire_message(ctx.name(), items));
}

/// The worker refused a fire for these items: `TASK_STAGING`, then `TASK_ERROR` with the reason.
pub(super) fn refused(ctx: &JobCtx, task_id: &str, items: &[u32], reason: &str) {
    if ctx.settings.tracer.is_none() {
        return;
    }
    status(ctx, task_id, items, event::TASK_STAGING, event::staging_message(ctx.name()));
    status(ctx, task_id, items, event::TASK_ERROR, format!("fire refused: {reason}"));
}

fn status(ctx: &JobCtx, task_id: &str, items: &[u32], state: &'static str, message: String) {
    let Some(tracer) = &ctx.settings.tracer else { return };
    tracer.emit(TraceEvent::Status(StatusTrace {
        id: uuid::Uuid::new_v4().to_string(),
        job: ctx.name().to_string(),
        task_id: task_id.to_string(),
        slave_id: tracer.host.ip.clone(),
        items: items.to_vec(),
        state,
        message,
        at_ms: ctx.now().timestamp_millis(),
    }));
}
