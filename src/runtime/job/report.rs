//! Failures of a fire as a whole — a listener phase that failed or timed out, a fire refused by the
//! clock-skew check — told to the job's error handler, as ElasticJob calls its handler for a
//! listener's exception and for the max-time-diff check (docs/src/error-handlers.md), plus the log
//! and the metrics. A failed item is reported where its run ends (`execution/runs.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::JobCtx;
use super::effective::Effective;
use crate::listener::FireContext;
use crate::notify::{Alerts, ErrorHandler, Failure};
use crate::runtime::Settings;

/// What the listener phases of a fire report failures through (cheap to share between tasks).
pub(crate) struct Reporter {
    job: String,
    me: String,
    settings: Arc<Settings>,
    alerts: Alerts,
    handler: ErrorHandler,
    /// How many listener calls failed here (the log line counts them).
    failures: Arc<AtomicU64>,
}

impl Reporter {
    /// The reporter of `ctx`'s job under `config`'s error handler; `failures` counts across fires.
    pub(crate) fn new(ctx: &JobCtx, config: &Effective, failures: Arc<AtomicU64>) -> Reporter {
        Reporter {
            job: ctx.name().to_string(),
            me: ctx.me.as_str().to_string(),
            settings: Arc::clone(&ctx.settings),
            alerts: ctx.alerts.clone(),
            handler: config.checked.error_handler.clone(),
            failures,
        }
    }

    /// A listener phase of `fire` failed (`phase`: `before`, `after`, `before_once`,
    /// `after_once`): logged, counted, and handed to the error handler.
    pub(crate) fn listener_failed(&self, fire: &FireContext, phase: &'static str, error: &str) {
        let failures = self.failures.fetch_add(1, Ordering::Relaxed) + 1;
        tracing::warn!(
            job = %self.job,
            task_id = %fire.task_id,
            fire = %fire.fire.as_deref().unwrap_or("-"),
            %phase,
            failures,
            %error,
            "job listener failed"
        );
        self.settings.metrics.listener_failed(&self.job, phase);
        self.alerts.failed(&self.handler, fire_failure(&self.job, &self.me, &self.settings, fire.source, error));
    }
}

/// A fire refused because this machine's clock is too far off the registry's: ElasticJob's
/// environment check calls the error handler (and runs the fire anyway; ejctl refuses it, see
/// `crate::coord::firing::Refusal`), once per fire.
pub(crate) fn clock_refused(ctx: &JobCtx, config: &Effective, source: &'static str, reason: &str) {
    let failure = fire_failure(ctx.name(), ctx.me.as_str(), &ctx.settings, source, reason);
    ctx.alerts.failed(&config.checked.error_handler, failure);
}

fn fire_failure(job: &str, me: &str, settings: &Settings, source: &str, reason: &str) -> Failure {
    Failure {
        job: job.to_string(),
        item: None,
        instance: me.to_string(),
        source: source.to_string(),
        at: settings.clock.now().to_rfc3339(),
        exit_code: None,
        reason: reason.to_string(),
        stderr_tail: String::new(),
    }
}
