//! What a job's fires and runs tell the trace store (see [`crate::trace::event`]): a row per run
//! at its start and end, and ElasticJob's status rows per fire on this instance — staging and
//! running when its items start, finished or error once the last of them ended, the misfire
//! message for items still busy, the reason for a refused fire.
//!
//! Every function here only builds events and hands them to [`crate::trace::Tracer::emit`],
//! which never waits; with no `[trace]` configured they do nothing.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};

use super::JobCtx;
use crate::coord::fire::Source;
use crate::exec::ItemOutcome;
use crate::trace::event::{self, RunEnd, RunStart, StatusTrace, TraceEvent};

/// The items of one fire started together on this instance, until the last one ends.
struct Group {
    task_id: String,
    items: Vec<u32>,
    pending: BTreeSet<u32>,
    errors: Vec<(u32, String)>,
}

/// The fires in progress on this instance, for their closing status row.
#[derive(Default)]
pub(super) struct FireGroups {
    next: u64,
    groups: BTreeMap<u64, Group>,
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
        let group = Group {
            task_id: task_id.to_string(),
            items: items.to_vec(),
            pending: items.iter().copied().collect(),
            errors: Vec::new(),
        };
        self.groups.insert(self.next, group);
        self.next
    }

    /// An item of group `id` did not start after all (it was found running elsewhere): the
    /// group's closing row leaves it out.
    pub(super) fn leave_out(&mut self, id: u64, item: u32) {
        if let Some(group) = self.groups.get_mut(&id) {
            group.items.retain(|&i| i != item);
            group.pending.remove(&item);
        }
    }

    /// An item of group `id` ended; the last one writes `TASK_FINISHED`, or `TASK_ERROR` with
    /// the causes of the failed items.
    pub(super) fn close_item(&mut self, ctx: &JobCtx, id: u64, item: u32, outcome: &ItemOutcome) {
        let Some(group) = self.groups.get_mut(&id) else { return };
        group.pending.remove(&item);
        if let Some(reason) = outcome.reason() {
            group.errors.push((item, reason));
        }
        if !group.pending.is_empty() {
            return;
        }
        if let Some(group) = self.groups.remove(&id) {
            let (state, message) = if group.errors.is_empty() {
                (event::TASK_FINISHED, String::new())
            } else {
                (event::TASK_ERROR, event::error_message(&group.errors))
            };
            status(ctx, &group.task_id, &group.items, state, message);
        }
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
