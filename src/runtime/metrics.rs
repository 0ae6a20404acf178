//! The worker's metrics: the Prometheus families that `[instance] http` serves on `/metrics`,
//! and the probes behind `/readyz` and `/healthz` (see `http.rs`).
//!
//! The runtime calls [`Metrics`] at a few points (a fire, an item start and end, a misfire owed,
//! a failover claim, a reshard, a leadership won, a fence change, a heartbeat); everything else
//! (connection state, overdue fires, dropped trace events) is read when the endpoint is scraped.
//! Without an endpoint the metrics are off: every call is a branch on `None`.
//!
//! Labels are bounded: `job` (the jobs of this process), `source` (`cron`, `trigger`, `misfire`,
//! `failover`), `outcome`, `reason` and `phase` (fixed lists below). Items are not labels: their number
//! is bounded per job, but the counts by job already answer the alerting questions.
//!
//! prometheus-client was chosen over `metrics` + its exporter: its registry is a value, not a
//! process-global recorder, so several workers in one process (tests, embedded use) keep their
//! own figures; it needs no C code and built in 8 s.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry as PromRegistry;
use tokio::sync::watch;

use super::StopMode;
use crate::config::schema::listener_key::{AFTER, AFTER_ONCE, BEFORE, BEFORE_ONCE};
use crate::coord::pin::PinKind;
use crate::registry::{LinkState, Registry, SessionStatus};
use crate::sync::lock;
use crate::trace::Tracer;

/// A label set: `(name, value)` pairs.
type Labels = Vec<(&'static str, String)>;

fn job(job: &str) -> Labels {
    vec![("job", job.to_string())]
}

/// Why a fire was refused (the `reason` label of `ejctl_fires_refused_total`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The local clock is off the registry's by more than `maxTimeDiffSeconds`.
    ClockSkew,
    /// A registry value pinned to the job file differs from it and was not used (the job file's
    /// was): a command (`registry_command`) or the error handler's destination
    /// (`registry_error_handler`).
    Registry(PinKind),
    /// The configuration in the registry cannot be run.
    Config,
}

impl Refusal {
    fn label(self) -> &'static str {
        match self {
            Refusal::ClockSkew => "clock_skew",
            Refusal::Registry(PinKind::Command) => "registry_command",
            Refusal::Registry(PinKind::ErrorHandler) => "registry_error_handler",
            Refusal::Config => "config",
        }
    }
}

/// How an item run ended (the `outcome` label of `ejctl_item_runs_total`).
pub(crate) fn outcome_label(success: bool, killed: bool, fenced: bool) -> &'static str {
    match (success, killed, fenced) {
        (_, _, true) => "fenced",
        (true, _, _) => "success",
        (false, true, _) => "killed",
        (false, false, _) => "failure",
    }
}

/// The metric families.
struct Families {
    fires: Family<Labels, Counter>,
    fires_deferred: Family<Labels, Counter>,
    fires_refused: Family<Labels, Counter>,
    item_runs: Family<Labels, Counter>,
    run_duration: Family<Labels, Histogram>,
    fire_lateness: Family<Labels, Histogram>,
    items_running: Family<Labels, Gauge>,
    items_overdue: Family<Labels, Gauge>,
    fires_due: Family<Labels, Gauge>,
    fire_overdue: Family<Labels, Gauge<f64, AtomicU64>>,
    misfires_owed: Family<Labels, Counter>,
    failover_claimed: Family<Labels, Counter>,
    failover_latency: Family<Labels, Histogram>,
    reshards: Family<Labels, Counter>,
    reshard_duration: Family<Labels, Histogram>,
    leader_changes: Family<Labels, Counter>,
    registry_connected: Gauge,
    registry_reconnects: Counter,
    registry_expiries: Counter,
    registry_latency: Histogram,
    fenced: Gauge,
    fencing_events: Counter,
    trace_dropped: Counter,
    ready: Gauge,
    notifications: Family<Labels, Counter>,
    listener_failures: Family<Labels, Counter>,
}

/// What became of a job's failure notifications (the `outcome` label of
/// `ejctl_notifications_total`), in the order of [`JobProbe::notified`].
const NOTIFICATION_OUTCOMES: [&str; 3] = ["sent", "failed", "dropped"];

/// The listener phases (the `phase` label of `ejctl_listener_failures_total`).
pub(crate) const LISTENER_PHASES: [&str; 4] = [BEFORE, AFTER, BEFORE_ONCE, AFTER_ONCE];

/// What the job task publishes for the probes, read when scraped.
#[derive(Default)]
pub(crate) struct JobProbe {
    /// The next cron fire's instant (epoch ms; 0: none).
    next_fire_ms: AtomicI64,
    /// The earliest fire that came due while the registry was unreachable and has not run yet
    /// (epoch ms; 0: none).
    deferred_since_ms: AtomicI64,
    /// Registered in the current session.
    registered: AtomicBool,
    /// The error handler's counters (see [`crate::notify::send::Counts`]).
    alerts: Option<Arc<crate::notify::send::Counts>>,
    /// How many fires ran the job file's pinned command instead of a differing one from the
    /// registry, for the log line of each.
    refusals: AtomicU64,
    /// The values of those counters at the last scrape: sent, failed, dropped.
    notified: [AtomicU64; 3],
    /// The job's items this instance saw `OVERDUE` at its last cron fire.
    overdue_items: AtomicI64,
    /// This instance leads the job and its last sharding attempt failed, with this error.
    sharding_failed: Mutex<Option<String>>,
}

impl JobProbe {
    /// Called each turn of the job's loop.
    pub(crate) fn turn(&self, next_fire: Option<DateTime<Utc>>, registered: bool) {
        self.next_fire_ms.store(next_fire.map_or(0, |t| t.timestamp_millis()), Ordering::Relaxed);
        self.registered.store(registered, Ordering::Relaxed);
    }

    /// Records how many of the job's items are overdue ([`crate::coord::state::overdue`]).
    pub(crate) fn overdue(&self, items: i64) {
        self.overdue_items.store(items, Ordering::Relaxed);
    }

    /// The job's sharding, led here, failed with this error (`None`: it completed, or this
    /// instance no longer leads).
    pub(crate) fn sharding_failed(&self, error: Option<String>) {
        *lock(&self.sharding_failed) = error;
    }

    /// Counts a fire that refused the registry's command; returns how many have.
    pub(crate) fn refused(&self) -> u64 {
        self.refusals.fetch_add(1, Ordering::Relaxed) + 1
    }
}

struct Inner {
    registry: PromRegistry,
    families: Families,
    jobs: Mutex<BTreeMap<String, Arc<JobProbe>>>,
    tracer: Mutex<Option<Tracer>>,
    /// The last value of `ejctl_trace_events_dropped_total`'s source.
    trace_dropped_seen: AtomicU64,
}

/// The worker's metrics; `Metrics::off()` records nothing.
pub(crate) struct Metrics {
    inner: Option<Box<Inner>>,
}

/// What the fence monitor says of the link (its `FenceState`, without depending on it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Link {
    /// The registry answered recently.
    pub(crate) healthy: bool,
    /// The registry has been silent for the fencing timeout.
    pub(crate) fenced: bool,
}

/// Readiness, as `/readyz` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Readiness {
    /// Ready to run fires.
    pub(crate) ready: bool,
    /// One line per check.
    pub(crate) detail: String,
}

impl Metrics {
    /// Whether anything is recorded (the worker serves metrics).
    pub(crate) fn is_on(&self) -> bool {
        self.inner.is_some()
    }

    /// Metrics that record nothing.
    pub(crate) fn off() -> Metrics {
        Metrics { inner: None }
    }

    /// Metrics that record, with every family registered.
    pub(crate) fn on() -> Metrics {
        let f = Families {
            fires: Family::default(),
            fires_deferred: Family::default(),
            fires_refused: Family::default(),
            item_runs: Family::default(),
            run_duration: Family::new_with_constructor(|| Histogram::new(exponential_buckets(0.01, 4.0, 10))),
            fire_lateness: Family::new_with_constructor(|| Histogram::new(exponential_buckets(0.001, 4.0, 10))),
            items_running: Family::default(),
            items_overdue: Family::default(),
            fires_due: Family::default(),
            fire_overdue: Family::default(),
            misfires_owed: Family::default(),
            failover_claimed: Family::default(),
            failover_latency: Family::new_with_constructor(|| Histogram::new(exponential_buckets(0.05, 2.0, 14))),
            reshards: Family::default(),
            reshard_duration: Family::new_with_constructor(|| Histogram::new(exponential_buckets(0.001, 4.0, 8))),
            leader_changes: Family::default(),
            registry_connected: Gauge::default(),
            registry_reconnects: Counter::default(),
            registry_expiries: Counter::default(),
            registry_latency: Histogram::new(exponential_buckets(0.0005, 4.0, 9)),
            fenced: Gauge::default(),
            fencing_events: Counter::default(),
            trace_dropped: Counter::default(),
            ready: Gauge::default(),
            notifications: Family::default(),
            listener_failures: Family::default(),
        };
        let mut r = PromRegistry::with_prefix("ejctl");
        r.register("fires", "Fires handled, by job and source", f.fires.clone());
        r.register(
            "fires_deferred",
            "Fires that came due while the registry was unreachable (run once it answers)",
            f.fires_deferred.clone(),
        );
        r.register("fires_refused", "Fires refused, by job and reason", f.fires_refused.clone());
        r.register("item_runs", "Item runs ended, by job, source and outcome", f.item_runs.clone());
        r.register("run_duration_seconds", "Item run duration", f.run_duration.clone());
        r.register(
            "fire_lateness_seconds",
            "Scheduled instant of a cron fire to its item's process start",
            f.fire_lateness.clone(),
        );
        r.register("items_running", "Items running in this process", f.items_running.clone());
        r.register(
            "items_overdue",
            "Items of the job this instance sees OVERDUE: owner registered and idle, no run ended for two fires",
            f.items_overdue.clone(),
        );
        r.register(
            "fires_due_not_started",
            "Fires due and not started yet: a cron fire past its instant, or fires deferred while the registry is unreachable",
            f.fires_due.clone(),
        );
        r.register("fire_overdue_seconds", "How long the oldest due fire has waited to start", f.fire_overdue.clone());
        r.register("misfires_owed", "Fires owed a run as misfires", f.misfires_owed.clone());
        r.register("failover_claimed", "Orphaned items claimed by this instance", f.failover_claimed.clone());
        r.register(
            "failover_latency_seconds",
            "Claim of an orphaned item to the start of its run here",
            f.failover_latency.clone(),
        );
        r.register("reshards", "Reshards written by this instance as leader", f.reshards.clone());
        r.register("reshard_duration_seconds", "Duration of a reshard", f.reshard_duration.clone());
        r.register("leader_changes", "Times this instance became the job's leader", f.leader_changes.clone());
        r.register("registry_connected", "1 when connected to the registry", f.registry_connected.clone());
        r.register("registry_reconnects", "Reconnections to the registry", f.registry_reconnects.clone());
        r.register("registry_session_expiries", "Registry sessions expired", f.registry_expiries.clone());
        r.register(
            "registry_request_duration_seconds",
            "Latency of the registry heartbeat request",
            f.registry_latency.clone(),
        );
        r.register("fenced", "1 while fenced: cut off from the registry, running items killed", f.fenced.clone());
        r.register("fencing_events", "Times the worker was fenced", f.fencing_events.clone());
        r.register(
            "trace_events_dropped",
            "Trace events dropped because the trace database was slow or down",
            f.trace_dropped.clone(),
        );
        r.register("ready", "1 when /readyz answers ready", f.ready.clone());
        r.register(
            "notifications",
            "Failure notifications of the error handler, by job and outcome (sent, failed, dropped)",
            f.notifications.clone(),
        );
        r.register(
            "listener_failures",
            "Listener phases that failed or timed out, by job and phase",
            f.listener_failures.clone(),
        );
        Metrics {
            inner: Some(Box::new(Inner {
                registry: r,
                families: f,
                jobs: Mutex::new(BTreeMap::new()),
                tracer: Mutex::new(None),
                trace_dropped_seen: AtomicU64::new(0),
            })),
        }
    }

    fn f(&self) -> Option<&Families> {
        self.inner.as_deref().map(|i| &i.families)
    }

    /// The probe of a job, reading its error handler's `alerts` counters when scraped; its
    /// families start at zero so dashboards see the job before it fires.
    pub(crate) fn job(&self, name: &str, alerts: Arc<crate::notify::send::Counts>) -> Arc<JobProbe> {
        let probe = Arc::new(JobProbe { alerts: Some(alerts), ..JobProbe::default() });
        if let Some(inner) = self.inner.as_deref() {
            let f = &inner.families;
            let labels = job(name);
            let _ = f.items_running.get_or_create(&labels);
            let _ = f.fires_due.get_or_create(&labels);
            let _ = f.misfires_owed.get_or_create(&labels);
            let _ = f.failover_claimed.get_or_create(&labels);
            let _ = f.fires_deferred.get_or_create(&labels);
            let _ = f.leader_changes.get_or_create(&labels);
            for outcome in NOTIFICATION_OUTCOMES {
                let _ =
                    f.notifications.get_or_create(&vec![("job", name.to_string()), ("outcome", outcome.to_string())]);
            }
            for phase in LISTENER_PHASES {
                let _ =
                    f.listener_failures.get_or_create(&vec![("job", name.to_string()), ("phase", phase.to_string())]);
            }
            lock(&inner.jobs).insert(name.to_string(), Arc::clone(&probe));
        }
        probe
    }

    /// Reads dropped trace events from this tracer when scraped.
    pub(crate) fn watch_trace(&self, tracer: Option<Tracer>) {
        if let Some(inner) = self.inner.as_deref() {
            *lock(&inner.tracer) = tracer;
        }
    }

    /// A fire is handled (a cron instant came, a trigger arrived).
    pub(crate) fn fire(&self, name: &str, source: &'static str) {
        if let Some(f) = self.f() {
            f.fires.get_or_create(&vec![("job", name.to_string()), ("source", source.to_string())]).inc();
        }
    }

    /// A fire came due while the registry was unreachable.
    pub(crate) fn fire_deferred(&self, probe: &JobProbe, name: &str, at: DateTime<Utc>) {
        if let Some(f) = self.f() {
            f.fires_deferred.get_or_create(&job(name)).inc();
            let ms = at.timestamp_millis();
            let _ = probe.deferred_since_ms.compare_exchange(0, ms, Ordering::Relaxed, Ordering::Relaxed);
        }
    }

    /// The fires deferred while the registry was unreachable were handled (owed as misfires).
    pub(crate) fn deferred_handled(&self, probe: &JobProbe) {
        probe.deferred_since_ms.store(0, Ordering::Relaxed);
    }

    /// A fire was refused.
    pub(crate) fn fire_refused(&self, name: &str, reason: Refusal) {
        if let Some(f) = self.f() {
            f.fires_refused
                .get_or_create(&vec![("job", name.to_string()), ("reason", reason.label().to_string())])
                .inc();
        }
    }

    /// A fire was owed to an item as a misfire.
    pub(crate) fn misfire_owed(&self, name: &str) {
        if let Some(f) = self.f() {
            f.misfires_owed.get_or_create(&job(name)).inc();
        }
    }

    /// An item started; `lateness` is the cron instant to the start, `claimed` the failover claim
    /// instant to the start.
    pub(crate) fn item_started(&self, name: &str, source: &'static str, lateness: Option<f64>) {
        let Some(f) = self.f() else { return };
        let labels = job(name);
        f.items_running.get_or_create(&labels).inc();
        if let Some(seconds) = lateness {
            match source {
                "cron" => f.fire_lateness.get_or_create(&labels).observe(seconds.max(0.0)),
                "failover" => f.failover_latency.get_or_create(&labels).observe(seconds.max(0.0)),
                _ => {}
            }
        }
    }

    /// An item ended.
    pub(crate) fn item_ended(&self, name: &str, source: &'static str, outcome: &'static str, seconds: f64) {
        let Some(f) = self.f() else { return };
        let labels = job(name);
        f.items_running.get_or_create(&labels).dec();
        f.run_duration.get_or_create(&labels).observe(seconds);
        f.item_runs
            .get_or_create(&vec![
                ("job", name.to_string()),
                ("source", source.to_string()),
                ("outcome", outcome.to_string()),
            ])
            .inc();
    }

    /// A listener phase failed or timed out (`phase`: one of [`LISTENER_PHASES`]).
    pub(crate) fn listener_failed(&self, name: &str, phase: &'static str) {
        if let Some(f) = self.f() {
            f.listener_failures.get_or_create(&vec![("job", name.to_string()), ("phase", phase.to_string())]).inc();
        }
    }

    /// This instance claimed an orphaned item.
    pub(crate) fn failover_claimed(&self, name: &str) {
        if let Some(f) = self.f() {
            f.failover_claimed.get_or_create(&job(name)).inc();
        }
    }

    /// This instance wrote a new assignment.
    pub(crate) fn reshard(&self, name: &str, took: Duration) {
        if let Some(f) = self.f() {
            let labels = job(name);
            f.reshards.get_or_create(&labels).inc();
            f.reshard_duration.get_or_create(&labels).observe(took.as_secs_f64());
        }
    }

    /// This instance became the job's leader.
    pub(crate) fn leader_change(&self, name: &str) {
        if let Some(f) = self.f() {
            f.leader_changes.get_or_create(&job(name)).inc();
        }
    }

    /// The registry answered a heartbeat after `took`.
    pub(crate) fn registry_request(&self, took: Duration) {
        if let Some(f) = self.f() {
            f.registry_latency.observe(took.as_secs_f64());
        }
    }

    /// The fence monitor's state changed (see `fence.rs`).
    pub(crate) fn fence(&self, was_fenced: bool, fenced: bool) {
        if let Some(f) = self.f() {
            f.fenced.set(i64::from(fenced));
            if fenced && !was_fenced {
                f.fencing_events.inc();
            }
        }
    }

    /// Follows the registry session until the worker stops: connection state, reconnects and
    /// expiries.
    pub(crate) async fn follow_session(
        self: Arc<Self>,
        mut session: watch::Receiver<SessionStatus>,
        mut stop: watch::Receiver<StopMode>,
    ) {
        let Some(f) = self.f() else { return };
        let mut last = *session.borrow_and_update();
        f.registry_connected.set(i64::from(last.state == LinkState::Connected));
        loop {
            tokio::select! {
                changed = session.changed() => {
                    if changed.is_err() {
                        return;
                    }
                }
                changed = stop.changed() => {
                    if changed.is_err() || matches!(*stop.borrow(), StopMode::Forced) {
                        return;
                    }
                    continue;
                }
            }
            let now = *session.borrow_and_update();
            f.registry_connected.set(i64::from(now.state == LinkState::Connected));
            if now.state == LinkState::Expired && last.state != LinkState::Expired {
                f.registry_expiries.inc();
            }
            if now.state == LinkState::Connected && last.state != LinkState::Connected {
                f.registry_reconnects.inc();
            }
            last = now;
        }
    }

    /// Readiness: connected to the registry, not fenced, every job registered in this session,
    /// no job whose sharding, led here, failed and has not completed since, not stopping.
    pub(crate) fn readiness(&self, registry: &Registry, fence: Link, stopping: bool) -> Readiness {
        let connected = registry.session().borrow().state == LinkState::Connected;
        let mut lines = vec![
            format!("registry: {}", if connected { "connected" } else { "not connected" }),
            format!(
                "fence: {}",
                if fence.fenced {
                    "fenced"
                } else if fence.healthy {
                    "healthy"
                } else {
                    "not answering"
                }
            ),
        ];
        if stopping {
            lines.push("worker: stopping".to_string());
        }
        let mut jobs_ok = true;
        if let Some(inner) = self.inner.as_deref() {
            for (name, probe) in lock(&inner.jobs).iter() {
                let ok = probe.registered.load(Ordering::Relaxed);
                jobs_ok &= ok;
                lines.push(format!("job {name}: {}", if ok { "registered" } else { "not registered" }));
                if let Some(error) = lock(&probe.sharding_failed).as_deref() {
                    jobs_ok = false;
                    lines.push(format!("job {name}: cannot shard: {error}"));
                }
            }
        }
        let ready = connected && fence.healthy && !fence.fenced && jobs_ok && !stopping;
        if let Some(f) = self.f() {
            f.ready.set(i64::from(ready));
        }
        lines.insert(0, if ready { "ready".to_string() } else { "not ready".to_string() });
        Readiness { ready, detail: lines.join("\n") + "\n" }
    }

    /// The text of `/metrics` (OpenMetrics), with the values read at scrape time refreshed.
    pub(crate) fn render(&self, now: DateTime<Utc>, registry: &Registry, fence: Link, stopping: bool) -> String {
        let Some(inner) = self.inner.as_deref() else { return String::new() };
        let f = &inner.families;
        let now_ms = now.timestamp_millis();
        for (name, probe) in lock(&inner.jobs).iter() {
            let labels = job(name);
            let next = probe.next_fire_ms.load(Ordering::Relaxed);
            let deferred = probe.deferred_since_ms.load(Ordering::Relaxed);
            // A cron fire is overdue once its instant has passed by more than the loop needs to
            // pick it up.
            let cron_due = (next != 0 && now_ms - next > OVERDUE_GRACE_MS).then_some(next);
            let oldest = [cron_due, (deferred != 0).then_some(deferred)].into_iter().flatten().min();
            let count = i64::from(cron_due.is_some()) + i64::from(deferred != 0);
            f.fires_due.get_or_create(&labels).set(count);
            f.items_overdue.get_or_create(&labels).set(probe.overdue_items.load(Ordering::Relaxed));
            let overdue = oldest.map_or(0.0, |t| (now_ms - t).max(0) as f64 / 1000.0);
            f.fire_overdue.get_or_create(&labels).set(overdue);
            if let Some(counts) = &probe.alerts {
                let now = [&counts.sent, &counts.failed, &counts.dropped].map(|c| c.load(Ordering::Relaxed));
                for ((outcome, total), seen) in NOTIFICATION_OUTCOMES.into_iter().zip(now).zip(&probe.notified) {
                    let before = seen.swap(total, Ordering::Relaxed);
                    f.notifications
                        .get_or_create(&vec![("job", name.to_string()), ("outcome", outcome.to_string())])
                        .inc_by(total.saturating_sub(before));
                }
            }
        }
        if let Some(tracer) = lock(&inner.tracer).as_ref() {
            let total = tracer.stats().dropped.load(Ordering::Relaxed);
            let seen = inner.trace_dropped_seen.swap(total, Ordering::Relaxed);
            f.trace_dropped.inc_by(total.saturating_sub(seen));
        }
        self.readiness(registry, fence, stopping);
        let mut text = String::new();
        if encode(&mut text, &inner.registry).is_err() {
            return String::new();
        }
        text
    }
}

/// How late past its instant a cron fire must be before it counts as due and not started.
const OVERDUE_GRACE_MS: i64 = 2_000;

#[cfg(test)]
#[path = "metrics_tests.rs"]
mod tests;
