//! One job on one instance: the task that schedules fires, runs items and reacts to the registry.
//!
//! A [`JobTask`] owns the job's watched cache, its effective configuration, its next fire, and
//! one room per kind of state, each the only writer of what it owns:
//!
//! * [`registration`]: the server and instance nodes, the session, the link state;
//! * [`election`]: contending for leadership;
//! * [`leader`]: the leader's sharding duty;
//! * [`execution`]: fires and runs (per-item slots, queued and owed fires, run tasks);
//! * [`failover`]: claim rounds for orphaned runs.
//!
//! The decisions are [`crate::coord`]'s machines and rules; the rooms carry them out. The task
//! loops over a `select!` of: the worker's signals (a stop request, session changes, the fence:
//! [`Signals`]), ended runs, one timer for the next cron fire, a registration retry and the
//! reconcile tick, a finished claim round or contention for leadership, and cache events; it
//! hands what woke it to one boxed handler ([`JobTask::on_wake`]), so that an idle job holds only
//! its state and its waits. Everything it decides comes from the cache (ElasticJob's listeners
//! and services, docs/src/design/compatibility.md), and steady-state fires read nothing from the
//! registry: the only requests of a fire are the batched `running` node writes when
//! `monitorExecution` is on (and, for a job with once-per-fire listeners, their marks and claims:
//! [`once`]).

mod effective;
mod election;
mod execution;
mod failover;
mod leader;
mod listeners;
mod once;
mod overdue;
mod registration;
mod report;
mod signals;
mod trigger;

#[cfg(test)]
#[path = "tests.rs"]
mod tests;

use std::future::Pending;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures::future::Either;
use tokio::sync::watch;
use tokio::time::{Instant, Sleep};

use self::effective::Effective;
use self::election::Election;
use self::execution::Execution;
use self::failover::Failover;
use self::leader::Leader;
use self::registration::Registration;
use self::signals::Beacon;
pub(crate) use self::signals::Signals;
use self::trigger::TriggerRoom;
use super::alarm::{self, Alarm};
use super::fence::FenceState;
use super::metrics::{JobProbe, Refusal};
use super::{Settings, StopMode};
use crate::config::JobConfig;
use crate::coord::fire::Source;
use crate::coord::pin::{Pin, PinKind};
use crate::coord::react::{self, Adoption, Duty, Reaction};
use crate::coord::snapshot::{JobSnapshot, LiveSnapshot};
use crate::coord::timetable::Timetable;
use crate::exec::inproc::ErasedJob;
use crate::ops::publish::{self, Outcome};
use crate::registry::cache::{CacheEvent, CacheHub, CacheRead, CacheReader, TreeCache};
use crate::registry::codec::{self, InstanceId, JobType};
use crate::registry::path::{self, ItemLeaf, JobPaths, Node};
use crate::registry::{Registry, SessionStatus};

/// Paths whose data the runner never needs from the cache: markers, latches, the items' last
/// results (written by the runs themselves, read only by the admin views), and the items'
/// last-start stamps (read directly in the rare case they matter). Every run creates and deletes a
/// `running` node and stamps its item, so reading their data on each event would cost every
/// instance reads on every fire. Trigger nodes are not lazy: their data is the
/// `job trigger --wait` token; nor are `guarantee` phase nodes: theirs is the fire they hold.
/// The parents `servers`, `instances` and `sharding` are lazy too: empty, only their existence
/// and their children count.
pub(crate) fn lazy_path(p: &str) -> bool {
    match path::parse(p) {
        Some((_, Node::Servers | Node::Instances | Node::Sharding)) => true,
        Some((_, Node::ItemLeaf(_, leaf))) => {
            matches!(leaf, ItemLeaf::Running | ItemLeaf::Misfire | ItemLeaf::Disabled | ItemLeaf::Result)
        }
        Some((_, Node::Item(_) | Node::ShardingNecessary | Node::ShardingProcessing | Node::FailoverItem(_))) => true,
        Some((_, Node::Other | Node::Runner(_))) => true,
        _ => false,
    }
}

/// The nodes a job's cache holds while it settles on one instance, for `total` items: 15 of the
/// job's own (its root, configuration, server, instance, runner, leader, election, latch and
/// sharding nodes), the two markers of a sharding in progress, and for each item its directory
/// and owner. No more: with thousands of idle jobs in a worker, room for what a fire adds (each
/// item's `running` marker) took 0.2 KB of every job, where a job that fires grows its cache
/// once, by a quarter ([`crate::registry::pathmap`]).
fn expected_nodes(total: u32) -> usize {
    usize::try_from(total).unwrap_or(usize::MAX).saturating_mul(2).saturating_add(17)
}

/// The longest part of the job root's data a log line shows.
const ROOT_SHOWN: usize = 256;

/// The job root's data after `events`, when they changed it from `seen`; logged. The root holds
/// the job's type (a Java class name for a Java job): someone who changes it while this worker
/// runs the job changes nothing here — the worker runs its job file's type, the one it was given
/// to run — but every reader of the registry (`job show`, a console) now sees another type, so
/// the change is said, with both values (capped; the text log escapes control characters).
fn root_changed(ctx: &JobCtx, cache: &TreeCache, events: &[CacheEvent], seen: &str) -> Option<Box<str>> {
    let root = ctx.paths.root();
    let touched = events.iter().any(|e| match e {
        CacheEvent::Created(p) | CacheEvent::Changed(p) => &**p == root,
        CacheEvent::Resynced => true,
        CacheEvent::Deleted(_) => false,
    });
    let now = cache.read().text(root).filter(|now| touched && now != seen)?;
    let cap = |s: &str| codec::result::cap_head(s, ROOT_SHOWN);
    tracing::warn!(
        job = %ctx.name(),
        old = ?cap(seen),
        new = ?cap(&now),
        runs = %ctx.job_type,
        "the job root's type changed in the registry; this worker keeps running its job file's type"
    );
    Some(now.into_boxed_str())
}

/// Whether the job's cache shows a node, as the registration asks it.
fn shows(cache: &TreeCache) -> impl Fn(&str) -> bool + Sync + '_ {
    move |p| cache.read().exists(p)
}

/// Everything a job needs to start.
pub(crate) struct JobSetup {
    pub(crate) job_type: JobType,
    pub(crate) in_process: Option<Arc<dyn ErasedJob>>,
    pub(crate) config: JobConfig,
    pub(crate) listeners: Vec<Arc<dyn crate::listener::JobListener>>,
    pub(crate) once_listeners: Vec<Arc<dyn crate::listener::DistributeOnceListener>>,
}

/// What every room of a job reads and nobody changes.
pub(crate) struct JobCtx {
    pub(crate) registry: Registry,
    pub(crate) me: InstanceId,
    pub(crate) paths: JobPaths,
    pub(crate) settings: Arc<Settings>,
    pub(crate) job_type: JobType,
    pub(crate) in_process: Option<Arc<dyn ErasedJob>>,
    /// The link monitor (see `fence.rs`).
    pub(crate) fence: watch::Receiver<FenceState>,
    /// The command values of the job file ([`crate::coord::pin`]); `None`: none pinned.
    /// Boxed: read only when the configuration is loaded, and 24 bytes of every job's state.
    pub(crate) pin: Option<Box<Pin>>,
    /// What the job publishes for `/metrics` and `/readyz`.
    pub(crate) probe: Arc<JobProbe>,
    /// The error handler's sender ([`crate::notify`]).
    pub(crate) alerts: crate::notify::Alerts,
    /// The library's listeners of the job.
    pub(crate) listeners: listeners::Listeners,
}

impl JobCtx {
    /// The job name.
    pub(crate) fn name(&self) -> &str {
        self.paths.job()
    }

    /// The current instant.
    pub(crate) fn now(&self) -> DateTime<Utc> {
        self.settings.clock.now()
    }

    /// The job as the cache shows it now: the view the cache keeps current for a large job
    /// ([`LiveSnapshot`]), shared, else built from the nodes.
    pub(crate) fn snapshot(&self, cache: &TreeCache) -> Arc<JobSnapshot> {
        self.snapshot_of(&cache.read())
    }

    /// [`JobCtx::snapshot`] of a look at the cache.
    pub(crate) fn snapshot_of(&self, nodes: &CacheRead<'_>) -> Arc<JobSnapshot> {
        match nodes.projection::<LiveSnapshot>().and_then(LiveSnapshot::current) {
            Some(view) => view,
            None => Arc::new(JobSnapshot::from_cache(&self.paths, nodes)),
        }
    }

    /// Builds the configuration in effect from the registry's, with the job file's pinned
    /// commands.
    pub(crate) fn effective(&self, config: JobConfig) -> Result<Effective, String> {
        Effective::build(config, &self.job_type, self.in_process.clone(), self.pin.as_deref())
    }

    /// Logs and counts a fire that uses pinned values instead of the registry's: one line and
    /// one count per kind refused (a command, the error handler's destination).
    pub(crate) fn note_refusal(&self, config: &Effective, items: &[u32]) {
        for kind in [PinKind::Command, PinKind::ErrorHandler] {
            let of_kind = || config.refused.iter().filter(move |r| PinKind::of(r.prop) == kind);
            if of_kind().next().is_none() {
                continue;
            }
            let count = self.probe.refused();
            self.settings.metrics.fire_refused(self.name(), Refusal::Registry(kind));
            tracing::warn!(
                job = %self.name(),
                items = ?items,
                refusals = count,
                "refused the registry's {noun} (uses the job file's; set {switch} = true in the job file to accept it): {refused}",
                noun = kind.noun(),
                switch = kind.switch(),
                refused = crate::coord::pin::describe(of_kind()),
            );
        }
    }
}

/// What woke a job's loop.
enum Wake {
    /// The stop, the session or the fence changed; false: their channel closed.
    Signals(bool),
    /// Runs ended.
    Ends(Vec<Result<execution::RunEnd, tokio::task::JoinError>>),
    /// The next fire or chore may be due.
    Timer,
    /// A claim round finished.
    Claimed(Result<failover::Claimed, tokio::task::JoinError>),
    /// A contention for leadership ended; `failed`: the registry failed it.
    Contended {
        /// The registry failed it.
        failed: bool,
    },
    /// A registry change; `None`: the registry handle is gone.
    Event(Option<CacheEvent>),
}

/// One job's task (see the module docs).
pub(crate) struct JobTask {
    ctx: JobCtx,
    cache: TreeCache,
    config: Effective,
    timetable: Timetable,
    last_reconcile: Instant,
    session: watch::Receiver<SessionStatus>,
    /// Changes with any of the stop, the session and the fence ([`Signals`]); reads the stop.
    signals: Beacon,
    registration: Registration,
    election: Election,
    leader: Leader,
    execution: Execution,
    failover: Failover,
    trigger: TriggerRoom,
    /// When runs of the job's items ended, for `ejctl_items_overdue` (only with metrics on; boxed:
    /// one word in an idle job's task otherwise).
    run_ends: Option<Box<overdue::RunEnds>>,
    /// The job root's data (its type) as last seen, to log a change of it ([`root_changed`]).
    root: Box<str>,
}

impl JobTask {
    /// Publishes the job's configuration (when absent or `overwrite`), loads the effective one,
    /// starts the cache and registers the server and instance nodes.
    pub(crate) async fn start(
        registry: Registry,
        me: InstanceId,
        settings: Arc<Settings>,
        setup: JobSetup,
        signals: &Signals,
    ) -> anyhow::Result<JobTask> {
        let published = publish_config(&registry, &setup).await?;
        JobTask::published(registry, me, settings, setup, signals, published).await
    }

    /// [`JobTask::start`] once the configuration is published.
    async fn published(
        registry: Registry,
        me: InstanceId,
        settings: Arc<Settings>,
        setup: JobSetup,
        signals: &Signals,
        published: Published,
    ) -> anyhow::Result<JobTask> {
        let paths = JobPaths::new(&setup.config.job_name);
        let Published { config: stored, fault, version } = published;
        let pin = Pin::from_job_file(&setup.job_type, &setup.config).map(Box::new);
        let alerts = crate::notify::Alerts::start();
        let probe = settings.metrics.job(paths.job(), alerts.shared_counts());
        let ctx = JobCtx {
            registry,
            me,
            alerts,
            listeners: listeners::Listeners::new(setup.listeners, setup.once_listeners),
            paths,
            settings,
            job_type: setup.job_type,
            in_process: setup.in_process,
            fence: signals.fence.clone(),
            pin,
            probe,
        };
        let (stored, fault) = match ctx.effective(stored) {
            Ok(config) => (Ok(config), fault),
            // Decodable but invalid (a cron that does not parse, say): a fault like an
            // undecodable one.
            Err(e) => (Err(()), Some(format!("invalid configuration at {}: {e}", ctx.paths.config()))),
        };
        let mut config = match stored {
            Ok(config) => config,
            Err(()) => ctx
                .effective(setup.config.clone())
                .map_err(|e| anyhow::anyhow!("job '{}': invalid configuration in the job file: {e}", ctx.name()))?,
        };
        if let Some(fault) = fault {
            // The registry's configuration is corrupt: the job registers with its job file's
            // settings but runs nothing until the configuration is fixed (a change of the node
            // reloads it).
            config.executor = Err(format!("{fault}; fires are refused until it is fixed").into());
        }
        if let Err(e) = &config.executor {
            tracing::error!(job = %ctx.name(), error = %e, "the job cannot run until its configuration is fixed");
        }
        let live = Box::new(LiveSnapshot::new(ctx.paths.clone()));
        let expected = expected_nodes(config.total());
        let root = ctx.paths.root();
        let cache = match &ctx.settings.caches {
            Some(hub) => hub.cache(root, lazy_path, Some(live), expected, &|_| {}).await?,
            None => {
                let hub = CacheHub::start_jittered(ctx.registry.clone(), root, ctx.settings.jitter.fork()).await?;
                hub.cache(root, lazy_path, Some(live), expected, &|_| {}).await?
            }
        };
        let reader = cache.reader();
        let root_seen = cache.read().text(root).unwrap_or_default().into_boxed_str();
        let timetable = Timetable::new(&config.checked, ctx.now());
        let run_ends = ctx.settings.metrics.is_on().then(|| Box::new(overdue::RunEnds::new(ctx.now())));
        let mut task = JobTask {
            session: ctx.registry.session(),
            leader: Leader::new(&ctx.settings),
            ctx,
            cache,
            config,
            timetable,
            last_reconcile: Instant::now(),
            signals: signals.any.clone(),
            registration: Registration::new(),
            election: Election::new(),
            execution: Execution::new(reader),
            failover: Failover::new(),
            trigger: TriggerRoom::default(),
            run_ends,
            root: root_seen,
        };
        // A change made between the publish and the cache's read is in the cache, but came as no
        // event: the read showed it already.
        let cached = task.cache.read().node(&task.ctx.paths.config()).and_then(|n| n.stat).map(|s| s.version);
        if cached != version {
            task.reload_config().await;
        }
        task.registration.register(&task.ctx, &shows(&task.cache), task.config.config.disabled).await?;
        Ok(task)
    }

    /// The job name.
    pub(crate) fn name(&self) -> &str {
        self.ctx.name()
    }

    /// The cache reader, for the dump port.
    pub(crate) fn cache_reader(&self) -> CacheReader {
        self.cache.reader()
    }

    /// Runs until stopped; then stops gracefully (or at once) and leaves the registry.
    ///
    /// Every handler below is boxed: an idle job's task then holds only the loop's own state,
    /// not the largest handler's (a few KB per job, with thousands of jobs in one process). The
    /// loop is an `async move` block rather than an `async fn`: an `async fn` keeps its `self`
    /// argument twice in its future (the captured value and the local it is moved to), 1.4 KB
    /// more for every job.
    #[allow(clippy::manual_async_fn)]
    pub(crate) fn run(mut self) -> impl Future<Output = ()> + Send {
        async move {
            Box::pin(self.begin()).await;
            loop {
                if self.registration.stopped_by_admin() || !matches!(self.signals.stop(), StopMode::Run) {
                    break;
                }
                let registered = self.registration.connected() && self.registration.retry_at().is_none();
                self.ctx.probe.turn(self.timetable.poll_timeout(), registered);
                // One timer for the next fire and the chores (each timer is 112 bytes of every
                // job's idle future). The fire's wall-clock instant becomes a monotonic one; a
                // wake-up before either is due (the wall clock was set back, or the sleep ended
                // at the alarm's lead) only goes round.
                let fire_at = monotonic(self.ctx.now(), self.timetable.poll_timeout());
                let wake_up = timer(fire_at, self.chores().1, self.ctx.settings.exact_wakeups);
                let wake = tokio::select! {
                    biased;
                    // The stop, the session or the fence: the stop is seen at the top of the loop.
                    changed = std::future::poll_fn(|cx| self.signals.poll_changed(cx)) => Wake::Signals(changed.is_ok()),
                    ends = std::future::poll_fn(|cx| self.execution.poll_ends(cx)) => Wake::Ends(ends),
                    // Fires before registry events: a busy stream of events must not delay a fire.
                    () = wake_up => Wake::Timer,
                    // A finished claim round or contention, then registry events: one wait for
                    // them all (a wait of its own for each was 40 bytes more of every job's idle
                    // future).
                    wake = std::future::poll_fn(|cx| {
                        if let Poll::Ready(claimed) = self.failover.poll_claim(cx) {
                            return Poll::Ready(Wake::Claimed(claimed));
                        }
                        if let Poll::Ready(failed) = self.election.poll_end(cx) {
                            return Poll::Ready(Wake::Contended { failed });
                        }
                        self.cache.poll_recv(cx).map(Wake::Event)
                    }) => wake,
                };
                if Box::pin(self.on_wake(wake)).await.is_break() {
                    break;
                }
            }
            Box::pin(self.shutdown()).await;
        }
    }

    /// The first reaction, in a turn: to what the registration and the cache's first read call
    /// for. Its own boxed call, as [`JobTask::on_wake`]: its turn's permit would otherwise take
    /// room in the loop's future for good.
    async fn begin(&mut self) {
        let _turn = Box::pin(self.turn()).await;
        Box::pin(self.after_change()).await;
    }

    /// Reacts to what woke the loop; `Break` when a signal channel or the cache has closed. Its
    /// own boxed future: the loop's future, which every idle job holds, then keeps across its
    /// wait only the waits themselves, not the handlers' locals (each of which a future's layout
    /// would keep beside the waits once it lives across more than one await).
    async fn on_wake(&mut self, wake: Wake) -> ControlFlow<()> {
        match wake {
            Wake::Signals(false) | Wake::Event(None) => return ControlFlow::Break(()),
            Wake::Signals(true) => {
                if self.session.has_changed().unwrap_or(false) {
                    Box::pin(self.on_session_change()).await;
                }
                if self.ctx.fence.has_changed().unwrap_or(false) {
                    Box::pin(self.on_fence_change()).await;
                }
            }
            Wake::Ends(ends) => {
                Box::pin(self.execution.on_ends(&self.ctx, &self.config, &self.cache, ends)).await;
                Box::pin(self.after_change()).await;
            }
            Wake::Timer => {
                let (retry_at, chore_at) = self.chores();
                if let Some(scheduled) = self.timetable.handle_timeout(&self.config.checked, self.ctx.now()) {
                    Box::pin(self.on_cron(scheduled)).await;
                } else if chore_at.is_some_and(|at| at <= Instant::now()) {
                    let _turn = Box::pin(self.turn()).await;
                    if retry_at.is_some_and(|at| at <= Instant::now()) {
                        Box::pin(self.on_retry()).await;
                    } else {
                        Box::pin(self.reconcile()).await;
                    }
                }
            }
            Wake::Claimed(claimed) => {
                let _turn = Box::pin(self.turn()).await;
                if let Some(item) = Box::pin(self.failover.on_claimed(&self.ctx, claimed)).await
                    && !Box::pin(self.execution.start_failover(&self.ctx, &self.config, &self.cache, item)).await
                {
                    Box::pin(self.failover.refused(&self.ctx, item)).await;
                }
                Box::pin(self.after_change()).await;
            }
            // Nothing to re-evaluate: a failed contention's pause is the next chore, and one that
            // ran to the end shows in the cache.
            Wake::Contended { failed } => self.election.ended(failed, &self.ctx.settings),
            Wake::Event(Some(event)) => {
                let mut batch = vec![event];
                while let Some(more) = self.cache.try_recv() {
                    batch.push(more);
                }
                let _turn = Box::pin(self.turn()).await;
                Box::pin(self.on_cache_events(batch)).await;
            }
        }
        ControlFlow::Continue(())
    }

    /// When the next retry is due (of the registration, a failover round, the election, an
    /// ended run's bookkeeping, a sharding round), and the next chore: that retry or the
    /// reconcile tick.
    fn chores(&self) -> (Option<Instant>, Option<Instant>) {
        let retry_at = [
            self.registration.retry_at(),
            self.failover.retry_at(),
            self.election.retry_at(),
            self.execution.retry_at(),
            self.leader.retry_at(),
            self.trigger.retry_at(),
        ]
        .into_iter()
        .flatten()
        .min();
        let reconcile_at = react::reconcile_interval(self.config.config.reconcile_interval_minutes)
            .map(|interval| self.last_reconcile + interval);
        (retry_at, retry_at.into_iter().chain(reconcile_at).min())
    }

    /// Waits for a turn to react to registry changes ([`super::Settings::turn`]). Meanwhile the
    /// job's runs that end are recorded, session and fence changes handled and its cron fires
    /// go ahead, as in the loop; the reaction the turn is for follows (and with it what the ended
    /// runs call for, such as a reshard). A closed session or fence channel is left to the loop,
    /// which stops on it.
    async fn turn(&mut self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        let settings = Arc::clone(&self.ctx.settings);
        let turn = settings.turn();
        tokio::pin!(turn);
        let (mut session_open, mut fence_open) = (true, true);
        loop {
            let fire_at = monotonic(self.ctx.now(), self.timetable.poll_timeout());
            tokio::select! {
                biased;
                permit = &mut turn => return permit,
                ends = self.execution.next_ends() => {
                    Box::pin(self.execution.on_ends(&self.ctx, &self.config, &self.cache, ends)).await;
                }
                changed = self.session.changed(), if session_open => match changed {
                    Ok(()) => Box::pin(self.on_session_change()).await,
                    Err(_) => session_open = false,
                },
                changed = self.ctx.fence.changed(), if fence_open => match changed {
                    Ok(()) => Box::pin(self.on_fence_change()).await,
                    Err(_) => fence_open = false,
                },
                () = timer(fire_at, None, self.ctx.settings.exact_wakeups) => {
                    if let Some(scheduled) = self.timetable.handle_timeout(&self.config.checked, self.ctx.now()) {
                        Box::pin(self.on_cron(scheduled)).await;
                    }
                }
            }
        }
    }

    /// The session changed: the job stops firing while it is down, registers again in a new one
    /// and resumes after an outage.
    async fn on_session_change(&mut self) {
        let status = *self.session.borrow_and_update();
        let disabled = self.config.config.disabled;
        let resumed = self.registration.on_session(&self.ctx, &shows(&self.cache), status, disabled).await;
        if resumed {
            self.resume_after_outage().await;
        }
    }

    /// The link monitor changed its verdict: the job resumes once the link is healthy again.
    async fn on_fence_change(&mut self) {
        if self.ctx.fence.borrow_and_update().healthy {
            self.resume_after_outage().await;
        }
    }

    /// Something that failed is due to be tried again: a registration, a failover round, a
    /// contention for leadership, a sharding round.
    async fn on_retry(&mut self) {
        let now = Instant::now();
        if self.registration.retry_at().is_some_and(|at| at <= now) {
            self.registration.retry(&self.ctx, &shows(&self.cache), self.config.config.disabled).await;
        }
        if self.failover.retry_at().is_some_and(|at| at <= now) {
            self.failover.retry();
        }
        if self.trigger.retry_at().is_some_and(|at| at <= now)
            && let Some(source) = self.trigger.retry(&self.ctx).await
        {
            self.fire(source).await;
        }
        self.election.retry();
        self.leader.retry();
        let link_ok = self.link_ok();
        self.execution.retry_unsettled(&self.ctx, &self.config, &self.cache, link_ok).await;
        self.after_change().await;
    }

    /// The link is usable: connected, and the registry answered recently.
    fn link_ok(&self) -> bool {
        self.registration.connected() && (self.ctx.fence.borrow().healthy || injected!(self.ctx.settings, NoFencing))
    }

    async fn fire(&mut self, source: Source) {
        let link_ok = self.link_ok();
        self.execution.fire(&self.ctx, &self.config, &self.cache, link_ok, source).await;
    }

    /// The cron fire scheduled at `scheduled` is due ([`Timetable::handle_timeout`]).
    async fn on_cron(&mut self, scheduled: DateTime<Utc>) {
        let checked = &self.config.checked;
        if let Some(ends) = &self.run_ends {
            let view = self.ctx.snapshot(&self.cache);
            let cron = checked.cron.as_ref().map(|c| (c, &checked.time_zone));
            self.ctx.probe.overdue(ends.count(&view, self.config.total(), cron, self.ctx.now()));
        }
        self.fire(Source::Cron(scheduled)).await;
    }

    async fn on_cache_events(&mut self, events: Vec<CacheEvent>) {
        if let Some(ends) = &mut self.run_ends {
            ends.heard(&self.ctx.paths, &events, self.ctx.now());
        }
        if events.iter().any(crate::coord::failover::wakes) {
            self.failover.wake();
        }
        if let Some(new) = root_changed(&self.ctx, &self.cache, &events, &self.root) {
            self.root = new;
        }
        let trigger = self.ctx.paths.trigger(self.ctx.me.as_str());
        let Reaction { config_changed, own_instance_deleted, triggered, reevaluate } =
            react::react(&events, self.ctx.me.as_str(), || self.cache.read().exists(&trigger));
        if !reevaluate {
            return;
        }
        if config_changed {
            self.reload_config().await;
        }
        if own_instance_deleted {
            self.registration.own_instance_deleted(&self.ctx).await;
            if self.registration.stopped_by_admin() {
                return;
            }
        }
        if !self.cache.read().exists(&self.ctx.paths.server(self.ctx.me.ip())) {
            self.registration.restore_server(&self.ctx, self.config.config.disabled).await;
        }
        if triggered && let Some(source) = self.trigger.seen(&self.ctx, &self.cache).await {
            self.fire(source).await;
        }
        self.after_change().await;
    }

    /// The config node changed: re-read it from the cache and adopt it if it is valid.
    async fn reload_config(&mut self) {
        let Some(text) = self.cache.read().text(&self.ctx.paths.config()) else {
            tracing::error!(
                job = %self.name(),
                "the configuration node {} is gone; keeping the configuration in effect until it is back",
                self.ctx.paths.config()
            );
            return;
        };
        let parsed = JobConfig::from_yaml(&text).map_err(|e| e.to_string());
        let built = parsed.and_then(|cfg| self.ctx.effective(cfg));
        let new = match built {
            Ok(new) => new,
            Err(e) => {
                tracing::error!(
                    job = %self.name(),
                    "invalid configuration at {}: {e}; keeping the configuration in effect until it is fixed",
                    self.ctx.paths.config()
                );
                return;
            }
        };
        match (react::adoption(new.executor.is_ok(), self.config.executor.is_ok()), &new.executor) {
            (Adoption::Keep, Err(e)) => {
                tracing::error!(
                    job = %self.name(),
                    "invalid configuration at {}: {e}; keeping the configuration in effect until it is fixed",
                    self.ctx.paths.config()
                );
                return;
            }
            (Adoption::AdoptUnrunnable, Err(e)) => {
                tracing::error!(job = %self.name(), error = %e, "the job cannot run until its configuration is fixed");
            }
            _ => {}
        }
        let change = react::transition(Some(self.config.switches()), new.switches());
        self.config = new;
        if change.reschedule {
            self.timetable.reschedule(&self.config.checked, self.ctx.now());
            let next_fire =
                self.timetable.poll_timeout().map_or_else(|| "none".to_string(), |t| crate::ops::text::rfc3339(&t));
            tracing::info!(job = %self.name(), next_fire = %next_fire, "rescheduled");
        }
        if change.monitor_switched_off {
            self.execution.clear_all_running_nodes(&self.ctx, &self.cache).await;
        }
        if change.failover_switched_off {
            let view = self.ctx.snapshot(&self.cache);
            let execution = &self.execution;
            self.failover.clear_nodes(&self.ctx, &view, |item| execution.is_running(item)).await;
        }
    }

    /// Re-evaluates what the cache now says: carries out the duties' steps in their order
    /// ([`react::Duties::steps`]).
    async fn after_change(&mut self) {
        if !self.link_ok() {
            return;
        }
        self.election.reap(&self.ctx.settings);
        let view = self.ctx.snapshot(&self.cache);
        let config = &self.config.config;
        let runnable = self.config.executor.is_ok();
        let (me, total) = (self.ctx.me.as_str(), self.config.total());
        let duties = react::duties(&view, me, total, config.failover, config.monitor_execution, runnable);
        let shard_unchecked = injected!(self.ctx.settings, ShardingWithoutLeaderCheck) && view.is_available(me);
        for duty in duties.steps(shard_unchecked) {
            match duty {
                Duty::NotLeading => self.leader.not_leading(&self.ctx),
                Duty::Elect { elect, resign } => {
                    if resign {
                        tracing::info!(job = %self.name(), "server disabled: giving up leadership");
                    }
                    self.election.look(&self.ctx, &self.cache, elect, resign).await;
                }
                Duty::HandBack => {
                    let (failover, monitor) = (self.config.config.failover, self.config.config.monitor_execution);
                    self.execution.hand_back_fenced(&self.ctx, &view, failover, monitor).await;
                }
                Duty::Failover => {
                    let execution = &self.execution;
                    self.failover
                        .duties(&self.ctx, self.config.total(), &view, execution.local(), |item| execution.holds(item));
                }
                Duty::Lead => self.leader.duties(&self.ctx, &self.config, &self.cache, &view).await,
                #[cfg(feature = "injected-bugs")]
                Duty::LeadUnchecked => self.leader.shard_unchecked(&self.ctx, &self.config, &self.cache, &view).await,
                Duty::RunWaiting => match self.execution.take_pending() {
                    Some(source) => self.fire(source).await,
                    None => self.execution.start_free_queued(&self.ctx, &self.config, &view).await,
                },
            }
        }
    }

    /// The registry is usable again: run what was missed meanwhile (once), then re-evaluate.
    async fn resume_after_outage(&mut self) {
        if !self.link_ok() {
            return;
        }
        if let Some(missed) = self.execution.take_missed_offline(self.config.config.misfire) {
            // One run per item covers every fire missed meanwhile; it stands for the latest.
            self.execution.owe_missed(&self.ctx, &self.config, &self.cache, missed.at()).await;
        }
        self.after_change().await;
    }

    /// The periodic safety net: ElasticJob's reconcile (the leader reshards when the assignment
    /// is stale) plus a check that this instance is still registered.
    async fn reconcile(&mut self) {
        if !react::reconcile_due(self.config.config.reconcile_interval_minutes, self.last_reconcile.elapsed()) {
            return;
        }
        self.last_reconcile = Instant::now();
        if self.registration.connected() && !self.cache.read().exists(&self.ctx.paths.instance(self.ctx.me.as_str())) {
            self.registration.own_instance_deleted(&self.ctx).await;
        }
        self.after_change().await;
    }

    /// Stops: no new fires; running items get until the graceful deadline (none when forced or
    /// stopped by an operator), then they are killed; a claim round in flight is waited for (and
    /// its item given back); the leader and instance nodes are removed.
    async fn shutdown(&mut self) {
        self.execution.stop_streams();
        self.election.stop();
        let mut stop = self.signals.stop_receiver();
        let deadline = match *stop.borrow_and_update() {
            StopMode::Graceful(deadline) if !self.registration.stopped_by_admin() => Some(deadline),
            _ => None,
        };
        if let Some(deadline) = deadline {
            while self.execution.has_runs() {
                tokio::select! {
                    biased;
                    changed = stop.changed() => {
                        if changed.is_err() || matches!(*stop.borrow(), StopMode::Forced) {
                            break;
                        }
                    }
                    Some(end) = self.execution.next_end_stopping() => {
                        self.execution.on_end_stopping(&self.ctx, &self.config, &self.cache, end).await;
                    }
                    () = tokio::time::sleep_until(deadline) => break,
                }
            }
        }
        if self.execution.has_runs() {
            tracing::warn!(job = %self.name(), item_count = self.execution.run_count(), "killing running items");
            self.execution.kill_all();
            while let Some(end) = self.execution.next_end_stopping().await {
                self.execution.on_end_stopping(&self.ctx, &self.config, &self.cache, end).await;
            }
        }
        let forced = matches!(*stop.borrow(), StopMode::Forced);
        self.execution.finish_listeners(if forced { None } else { deadline }).await;
        self.failover.stop(&self.ctx).await;
        let leading = self.registration.connected()
            && self.ctx.snapshot(&self.cache).leader.as_deref() == Some(self.ctx.me.as_str());
        self.election.leave(&self.ctx, leading).await;
        self.registration.leave(&self.ctx).await;
        tracing::info!(job = %self.name(), "stopped");
    }
}

/// A job's configuration as its publish left the registry.
struct Published {
    /// The configuration to run with.
    config: JobConfig,
    /// Why the registry's configuration cannot be used, when it cannot.
    fault: Option<String>,
    /// The configuration node's data version.
    version: Option<i32>,
}

/// Publishes the job's configuration ([`publish::publish`], the operation `config apply`
/// uses) and returns the one the registry holds: the job file's when the registry had none or
/// `overwrite` is set, else the registry's; when the registry's cannot be decoded, the job file's
/// and the fault.
async fn publish_config(registry: &Registry, setup: &JobSetup) -> anyhow::Result<Published> {
    let name = &setup.config.job_name;
    let published = publish::publish(registry, &setup.job_type, &setup.config, setup.config.overwrite).await?;
    for warning in &published.warnings {
        tracing::warn!(job = %name, "{warning}");
    }
    match published.outcome {
        Outcome::Created | Outcome::Overwritten => tracing::info!(job = %name, "published the job configuration"),
        Outcome::Kept { differs: true } => tracing::info!(
            job = %name,
            "the registry's configuration differs from the job file and wins (set overwrite = true to publish the job file's)"
        ),
        Outcome::Kept { differs: false } | Outcome::Unchanged => {}
        Outcome::Invalid { error } => {
            tracing::error!(job = %name, "{error}");
            return Ok(Published { config: published.config, fault: Some(error), version: published.version });
        }
    }
    Ok(Published { config: published.config, fault: None, version: published.version })
}

/// The monotonic instant of a wall-clock one (`now` is the job's clock): timers run on the
/// monotonic clock, fires are due on the wall clock. A fire that is past is due at once.
fn monotonic(now: DateTime<Utc>, at: Option<DateTime<Utc>>) -> Option<Instant> {
    at.map(|at| Instant::now() + (at - now).to_std().unwrap_or(Duration::ZERO))
}

/// The loop's one timer: until the earlier of the next fire and the next chore (forever for
/// neither). With `exact`, the last [`alarm::LEAD`] before a fire is left to an [`Alarm`]: a
/// tokio sleep ends up to 2 ms after its instant, so it sleeps until the lead, and that wake-up,
/// before the fire is due, only goes round. The future itself, not an `async fn` around it: that
/// kept the arguments beside the timer, bytes of every idle job's loop; the alarm (32 bytes)
/// takes no more room than the sleep (112).
fn timer(fire: Option<Instant>, chore: Option<Instant>, exact: bool) -> Either<Sleep, Either<Alarm, Pending<()>>> {
    match fire.into_iter().chain(chore).min() {
        None => Either::Right(Either::Right(std::future::pending())),
        Some(at) if exact && Some(at) == fire => match at.checked_sub(alarm::LEAD) {
            Some(lead) if lead > Instant::now() => Either::Left(tokio::time::sleep_until(lead)),
            _ if alarm::running() => Either::Right(Either::Left(Alarm::at(at.into_std()))),
            _ => Either::Left(tokio::time::sleep_until(at)),
        },
        Some(at) => Either::Left(tokio::time::sleep_until(at)),
    }
}
