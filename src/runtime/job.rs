//! One job on one instance: the task that schedules fires, runs items and reacts to the registry.
//!
//! A [`JobRunner`] owns the job's watched cache and a `JoinSet` of running items, and loops over a
//! `select!` of: a stop request, finished items, session changes, cache events, the next cron fire
//! and a reconcile tick. Everything it decides comes from the cache (ElasticJob's listeners and
//! services, reference §2–§3, §6.2), and steady-state fires read nothing from the registry: the
//! only requests of a fire are the batched `running` node writes when `monitorExecution` is on.
//!
//! Execution is per item: an item never runs twice at once. A fire starts the local items that
//! are idle; an item still busy from an earlier fire gets the fire queued (when `misfire` is on,
//! or for a manual trigger) and runs again as soon as it finishes. Resharding is eager: the leader
//! sets the flag when the assignment no longer matches the live instances, and writes the new
//! assignment in one transaction as soon as nothing is running; a fire that finds the flag set
//! waits for that instead of starting items.

use std::collections::{BTreeMap, BTreeSet};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures::FutureExt;
use tokio::sync::watch;
use tokio::task::{JoinHandle, JoinSet};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::fence::FenceState;
use super::{Settings, StopMode};
use crate::config::JobConfig;
use crate::config::validate::validate_config;
use crate::coord::params::parse_item_parameters;
use crate::coord::strategy::{self, Strategy};
use crate::coord::view::{self, JobView};
use crate::exec::context::{ShardingContext, task_id};
use crate::exec::inproc::ErasedJob;
use crate::exec::{Executor, ItemOutcome, RunControl};
use crate::registry::cache::{CacheEvent, TreeCache};
use crate::registry::codec::JobType;
use crate::registry::codec::{self, InstanceId, InstanceInfo, ServerStatus, TriggerResult};
use crate::registry::path::{self, ItemLeaf, JobPaths, Node};
use crate::registry::{LinkState, Mode, Op, Registry, RegistryError, SessionStatus};
use crate::schedule::cron::{self, CronExpr, JobTimeZone};

/// Why an item run was started, and the instant of the fire it covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    /// A cron fire due at this instant.
    Cron(DateTime<Utc>),
    /// A manual trigger (`trigger/{id}`) seen at this instant, with the token of a
    /// `job trigger --wait` that wants the items' results.
    Trigger(DateTime<Utc>, Option<Arc<str>>),
    /// A fire (the latest one, when several coalesced) that came due while the item was busy or
    /// the registry unreachable.
    Misfire(DateTime<Utc>),
    /// An orphaned run (its instance died or was cut off) claimed at this instant.
    Failover(DateTime<Utc>),
}

impl Source {
    fn label(&self) -> &'static str {
        match self {
            Source::Cron(_) => "cron",
            Source::Trigger(..) => "trigger",
            Source::Misfire(_) => "misfire",
            Source::Failover(_) => "failover",
        }
    }

    /// The fire instant this run covers.
    fn at(&self) -> DateTime<Utc> {
        match self {
            Source::Cron(t) | Source::Trigger(t, _) | Source::Misfire(t) | Source::Failover(t) => *t,
        }
    }

    /// The fire a run queued behind a busy item stands for, given what was queued already: a
    /// trigger stays a trigger (its results are awaited), a cron fire becomes a misfire.
    fn queue_behind(&self, queued: Option<Source>) -> Source {
        match (self, queued) {
            (Source::Trigger(..), _) => self.clone(),
            (_, Some(trigger @ Source::Trigger(..))) => trigger,
            (Source::Cron(t) | Source::Misfire(t) | Source::Failover(t), _) => Source::Misfire(*t),
        }
    }

    /// The `job trigger --wait` token, if any.
    fn token(&self) -> Option<&str> {
        match self {
            Source::Trigger(_, token) => token.as_deref(),
            _ => None,
        }
    }
}

/// Paths whose data the runner never needs from the cache: markers, latches, and the items'
/// last-start stamps (read directly in the rare case they matter). Every run creates and deletes a
/// `running` node and stamps its item, so reading their data on each event would cost every
/// instance reads on every fire. Trigger nodes are not lazy: their data is the
/// `job trigger --wait` token.
pub(crate) fn lazy_path(p: &str) -> bool {
    match path::parse(p) {
        Some((_, Node::ItemLeaf(_, leaf))) => {
            matches!(leaf, ItemLeaf::Running | ItemLeaf::Misfire | ItemLeaf::Disabled)
        }
        Some((_, Node::Item(_) | Node::ShardingNecessary | Node::ShardingProcessing | Node::FailoverItem(_))) => true,
        Some((_, Node::Other)) => true,
        _ => false,
    }
}

/// An item run in progress.
struct ActiveRun {
    id: u64,
    kill: CancellationToken,
    source: Source,
    started: Instant,
    /// When it started, by the wall clock (fires are wall-clock instants).
    started_at: DateTime<Utc>,
}

/// Per item: the run in progress and a fire queued behind it.
#[derive(Default)]
struct Slot {
    run: Option<ActiveRun>,
    queued: Option<Source>,
    /// When the last run here started, by the wall clock.
    last_start: Option<DateTime<Utc>>,
}

/// A finished run, as the run task reports it.
struct Finished {
    item: u32,
    id: u64,
    outcome: ItemOutcome,
    /// Killed because the worker was cut off from the registry.
    fenced: bool,
}

/// The items this instance runs or is about to run (its `running` node written or being written),
/// shared with the failover round so that it never takes this instance's own live run for an
/// orphan. Updated by the job task before a `running` node is created and after it is removed.
type LocalRuns = Arc<std::sync::Mutex<BTreeSet<u32>>>;

fn lock(local: &LocalRuns) -> std::sync::MutexGuard<'_, BTreeSet<u32>> {
    match local.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// Settings switched off by a configuration change, whose nodes must be cleaned up.
struct SwitchedOff {
    monitor_execution: bool,
    failover: bool,
}

/// Everything a job needs to start.
pub(crate) struct JobSetup {
    pub(crate) job_type: JobType,
    pub(crate) in_process: Option<Arc<dyn ErasedJob>>,
    pub(crate) config: JobConfig,
}

/// One job's task state (see the module docs).
pub(crate) struct JobRunner {
    registry: Registry,
    me: InstanceId,
    settings: Arc<Settings>,
    paths: JobPaths,
    job_type: JobType,
    in_process: Option<Arc<dyn ErasedJob>>,
    cache: TreeCache,
    config: JobConfig,
    cron: Option<CronExpr>,
    tz: JobTimeZone,
    executor: Result<Arc<Executor>, String>,
    next_fire: Option<DateTime<Utc>>,
    slots: BTreeMap<u32, Slot>,
    runs: JoinSet<Finished>,
    next_run_id: u64,
    /// A fire waiting for resharding to finish.
    pending: Option<Source>,
    /// The latest fire that came due while the registry was unreachable.
    missed_offline: Option<DateTime<Utc>>,
    session: watch::Receiver<SessionStatus>,
    registered_session: i64,
    connected: bool,
    retry_registration: Option<Instant>,
    election: Option<JoinHandle<()>>,
    stream_stop: watch::Sender<bool>,
    stop: watch::Receiver<StopMode>,
    stopped_by_admin: bool,
    last_reconcile: Instant,
    /// A sharding transaction succeeded and the cache has not shown it yet: do not shard again.
    sharding_written: bool,
    /// The link monitor (see `fence.rs`).
    fence: watch::Receiver<FenceState>,
    /// A failover claim in progress: the item claimed, if any.
    claim: Option<JoinHandle<Result<Option<u32>, RegistryError>>>,
    /// The last claim found nothing: do not contend again before the cache changes.
    claim_idle: bool,
    /// See [`LocalRuns`].
    local: LocalRuns,
}

impl JobRunner {
    /// Publishes the job's configuration (when absent or `overwrite`), loads the effective one,
    /// starts the cache and registers the server and instance nodes.
    pub(crate) async fn start(
        registry: Registry,
        me: InstanceId,
        settings: Arc<Settings>,
        setup: JobSetup,
        stop: watch::Receiver<StopMode>,
        fence: watch::Receiver<FenceState>,
    ) -> anyhow::Result<JobRunner> {
        let paths = JobPaths::new(&setup.config.job_name);
        let config = publish_config(&registry, &paths, &setup).await?;
        let cache = TreeCache::start(registry.clone(), paths.root(), lazy_path).await?;
        let session = registry.session();
        let (stream_stop, _) = watch::channel(false);
        let mut runner = JobRunner {
            registry,
            me,
            settings,
            paths,
            job_type: setup.job_type,
            in_process: setup.in_process,
            cache,
            config: JobConfig::default(),
            cron: None,
            tz: JobTimeZone::default(),
            executor: Err("not configured".into()),
            next_fire: None,
            slots: BTreeMap::new(),
            runs: JoinSet::new(),
            next_run_id: 0,
            pending: None,
            missed_offline: None,
            session,
            registered_session: 0,
            connected: true,
            retry_registration: None,
            election: None,
            stream_stop,
            stop,
            stopped_by_admin: false,
            last_reconcile: Instant::now(),
            sharding_written: false,
            fence,
            claim: None,
            claim_idle: false,
            local: LocalRuns::default(),
        };
        runner.apply_config(config).map_err(|e| anyhow::anyhow!("job '{}': {e}", runner.name()))?;
        runner.register().await?;
        Ok(runner)
    }

    /// The job name.
    pub(crate) fn name(&self) -> &str {
        self.paths.job()
    }

    /// The cache reader, for the dump port.
    pub(crate) fn cache_reader(&self) -> crate::registry::cache::CacheReader {
        self.cache.reader()
    }

    /// Runs until stopped; then stops gracefully (or at once) and leaves the registry.
    pub(crate) async fn run(mut self) {
        let mut reconcile = tokio::time::interval(Duration::from_secs(60));
        reconcile.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        self.after_change().await;
        loop {
            if self.stopped_by_admin || !matches!(*self.stop.borrow(), StopMode::Run) {
                break;
            }
            let fire_at = self.next_fire;
            let retry_at = self.retry_registration;
            tokio::select! {
                biased;
                changed = self.stop.changed() => {
                    if changed.is_err() {
                        break;
                    }
                }
                Some(done) = self.runs.join_next(), if !self.runs.is_empty() => {
                    let mut batch = vec![done];
                    while let Some(more) = self.runs.try_join_next() {
                        batch.push(more);
                    }
                    self.on_finished(batch).await;
                }
                changed = self.session.changed() => {
                    if changed.is_err() {
                        break;
                    }
                    self.on_session().await;
                }
                changed = self.fence.changed() => {
                    if changed.is_err() {
                        break;
                    }
                    self.on_fence().await;
                }
                // Fires before registry events: a busy stream of events must not delay a fire.
                () = sleep_until_utc(fire_at) => self.on_cron().await,
                claimed = async { match self.claim.as_mut() { Some(task) => task.await, None => std::future::pending().await } } => {
                    self.claim = None;
                    self.on_claimed(claimed).await;
                }
                event = self.cache.recv() => {
                    let Some(event) = event else { break };
                    let mut batch = vec![event];
                    while let Some(more) = self.cache.try_recv() {
                        batch.push(more);
                    }
                    self.on_cache_events(batch).await;
                }
                () = sleep_until_opt(retry_at) => {
                    self.retry_registration = None;
                    if let Err(e) = self.register().await {
                        tracing::warn!(job = %self.name(), error = %e, "registration failed, retrying");
                        self.retry_registration = Some(Instant::now() + Duration::from_secs(1));
                    }
                    self.after_change().await;
                }
                _ = reconcile.tick() => self.reconcile().await,
            }
        }
        self.shutdown().await;
    }

    // ----- configuration -----------------------------------------------------------------

    /// Adopts a configuration read from the registry. Returns what was switched off that needs
    /// cleaning up (every instance does it, as in ElasticJob).
    fn apply_config(&mut self, config: JobConfig) -> Result<SwitchedOff, String> {
        validate_config(&config).map_err(|e| format!("invalid configuration at {}: {e}", self.paths.config()))?;
        let cron = match config.cron_expr() {
            Some(expr) => Some(cron::parse(expr).map_err(|e| e.to_string())?),
            None => None,
        };
        let tz = cron::parse_time_zone(config.time_zone.as_deref().unwrap_or("")).map_err(|e| e.to_string())?;
        let executor = Executor::from_config(&self.job_type, &config, self.in_process.clone()).map(Arc::new);
        if let Err(e) = &executor {
            tracing::error!(job = %self.name(), error = %e, "the job cannot run until its configuration is fixed");
        }
        let schedule_changed =
            self.cron.as_ref().map(CronExpr::as_str) != cron.as_ref().map(CronExpr::as_str) || self.tz != tz;
        let first = self.config.job_name.is_empty();
        let switched_off = SwitchedOff {
            monitor_execution: !first && self.config.monitor_execution && !config.monitor_execution,
            failover: !first && self.config.failover && !config.failover,
        };
        self.config = config;
        self.cron = cron;
        self.tz = tz;
        self.executor = executor;
        if schedule_changed || first {
            self.next_fire = self.cron.as_ref().and_then(|c| c.next_after(Utc::now(), &self.tz));
            if !first {
                tracing::info!(job = %self.name(), next = ?self.next_fire, "rescheduled");
            }
        }
        Ok(switched_off)
    }

    /// The config node changed: re-read it from the cache and adopt it if it is valid.
    async fn reload_config(&mut self) {
        let text = self.cache.view().text(&self.paths.config());
        let Some(text) = text else {
            return;
        };
        let parsed = JobConfig::from_yaml(&text).map_err(|e| e.to_string());
        match parsed.and_then(|cfg| self.apply_config(cfg)) {
            Ok(switched_off) => {
                if switched_off.monitor_execution {
                    self.clear_running_nodes(None).await;
                }
                if switched_off.failover {
                    self.clear_failover_nodes().await;
                }
            }
            Err(e) => tracing::error!(
                job = %self.name(),
                error = %e,
                "ignoring the new configuration at {}; keeping the previous one",
                self.paths.config()
            ),
        }
    }

    fn total(&self) -> u32 {
        u32::try_from(self.config.sharding_total_count).unwrap_or(0)
    }

    fn strategy(&self) -> Strategy {
        Strategy::from_config(self.config.job_sharding_strategy_type.as_deref()).unwrap_or_default()
    }

    fn view(&self) -> JobView {
        JobView::from_cache(&self.paths, &self.cache.view())
    }

    fn is_leader(&self, view: &JobView) -> bool {
        view.leader.as_deref() == Some(self.me.as_str())
    }

    // ----- registration and session ------------------------------------------------------

    /// Registers the server node (kept as is when it exists, written `ENABLED`/`DISABLED` from
    /// `disabled` when it does not) and the ephemeral instance node of this session.
    async fn register(&mut self) -> Result<(), RegistryError> {
        let ip = self.me.ip().to_string();
        let status = ServerStatus::from_enabled(!self.config.disabled);
        self.registry.create_if_absent(&self.paths.server(&ip), status.encode()).await?;
        let session = self.registry.session_id();
        let info = InstanceInfo::new(&self.me).to_yaml();
        self.registry.put_ephemeral(&self.paths.instance(self.me.as_str()), info.as_bytes()).await?;
        if session != self.registered_session {
            if self.registered_session != 0 {
                tracing::info!(job = %self.name(), instance = %self.me, "re-registered with a new registry session");
            }
            self.registered_session = session;
        }
        Ok(())
    }

    async fn on_session(&mut self) {
        let status = *self.session.borrow_and_update();
        match status.state {
            LinkState::Disconnected | LinkState::Expired => {
                if self.connected {
                    tracing::warn!(job = %self.name(), state = ?status.state, "registry connection lost: no new fires until it is back");
                }
                self.connected = false;
            }
            LinkState::Connected => {
                let was_connected = self.connected;
                self.connected = true;
                if status.session_id != self.registered_session {
                    if let Err(e) = self.register().await {
                        tracing::warn!(job = %self.name(), error = %e, "registration failed, retrying");
                        self.retry_registration = Some(Instant::now() + Duration::from_secs(1));
                    }
                } else if !was_connected {
                    tracing::info!(job = %self.name(), "registry connection is back (same session)");
                }
                self.resume_after_outage().await;
            }
        }
    }

    // ----- registry events ---------------------------------------------------------------

    async fn on_cache_events(&mut self, events: Vec<CacheEvent>) {
        self.claim_idle = false;
        let mut config_changed = false;
        let mut own_instance_deleted = false;
        let mut triggered = false;
        for event in &events {
            let (CacheEvent::Created(p) | CacheEvent::Changed(p) | CacheEvent::Deleted(p)) = event else {
                // A resync: look at everything again.
                config_changed = true;
                triggered |= self.cache.view().exists(&self.paths.trigger(self.me.as_str()));
                continue;
            };
            match path::parse(p) {
                Some((_, Node::Config)) => config_changed = true,
                Some((_, Node::Instance(id))) if id == self.me.as_str() && matches!(event, CacheEvent::Deleted(_)) => {
                    own_instance_deleted = true;
                }
                Some((_, Node::Trigger(id))) if id == self.me.as_str() && matches!(event, CacheEvent::Created(_)) => {
                    triggered = true;
                }
                _ => {}
            }
        }
        if config_changed {
            self.reload_config().await;
        }
        if own_instance_deleted {
            self.on_own_instance_deleted().await;
            if self.stopped_by_admin {
                return;
            }
        }
        if triggered {
            let node = self.paths.trigger(self.me.as_str());
            let token = self.cache.view().text(&node).filter(|t| !t.is_empty()).map(Arc::from);
            match self.registry.delete_if_exists(&node).await {
                Ok(_) => self.fire(Source::Trigger(Utc::now(), token)).await,
                Err(e) => tracing::warn!(job = %self.name(), error = %e, "cannot consume the trigger node"),
            }
        }
        self.after_change().await;
    }

    /// Our instance node is gone. After a new session that is expected (re-registration follows);
    /// within our session only an operator deletes it (`job shutdown`), and then ElasticJob stops
    /// the job in this process.
    async fn on_own_instance_deleted(&mut self) {
        let session = self.registry.session_id();
        if !self.connected || session != self.registered_session {
            return;
        }
        match self.registry.exists(&self.paths.instance(self.me.as_str())).await {
            Ok(Some(stat)) if stat.ephemeral_owner == session => {}
            Ok(_) => {
                tracing::warn!(job = %self.name(), instance = %self.me, "instance node deleted by an operator: stopping this job in this process");
                self.stopped_by_admin = true;
            }
            Err(e) => tracing::warn!(job = %self.name(), error = %e, "cannot check the instance node"),
        }
    }

    /// Re-evaluates what the cache now says: leadership, resharding, a fire waiting for
    /// resharding.
    async fn after_change(&mut self) {
        if !self.link_ok() {
            return;
        }
        if self.election.as_ref().is_some_and(JoinHandle::is_finished) {
            self.election = None;
        }
        let view = self.view();
        let my_server_enabled = view.server_enabled(self.me.ip());
        if self.is_leader(&view) && !my_server_enabled {
            tracing::info!(job = %self.name(), "server disabled: giving up leadership");
            if let Err(e) = self.registry.delete_if_exists(&self.paths.leader_instance()).await {
                tracing::warn!(job = %self.name(), error = %e, "cannot give up leadership");
            }
            return;
        }
        if view.leader.is_none() && view.is_available(self.me.as_str()) {
            self.start_election();
        }
        if self.config.failover && self.config.monitor_execution {
            self.failover_duties(&view).await;
        }
        if self.is_leader(&view) {
            self.leader_duties(&view).await;
        }
        if view.sharding_pending(self.total()) {
            return;
        }
        if let Some(source) = self.pending.take() {
            self.fire(source).await;
            return;
        }
        self.start_free_queued(&view).await;
    }

    /// Starts local items whose queued fire (or a misfire node left by an earlier owner) can run
    /// now that nothing runs them anywhere.
    async fn start_free_queued(&mut self, view: &JobView) {
        let me = self.me.as_str();
        let mut ready = Vec::new();
        for item in view.local_items(me, self.total()) {
            let state = view.items.get(&item).cloned().unwrap_or_default();
            let free = !state.disabled
                && !state.running
                && state.failover.as_deref().is_none_or(|o| o == me)
                && state.failovering.as_deref().is_none_or(|o| o == me);
            let slot = self.slots.entry(item).or_default();
            if !free || slot.run.is_some() {
                continue;
            }
            if let Some(source) = slot.queued.take() {
                ready.push((item, Some(source)));
            } else if self.config.misfire && state.misfire {
                ready.push((item, None));
            }
        }
        for (item, source) in ready {
            let source = match source {
                Some(source) => source,
                None => {
                    // The fire the misfire node owes (ElasticJob writes none: owed since ever);
                    // if it is gone, a run started meanwhile took it.
                    let node = self.paths.item_leaf(item, ItemLeaf::Misfire);
                    let Ok(Some(misfire)) = self.registry.get(&node).await else { continue };
                    let owed = misfire.text().trim().parse::<i64>().unwrap_or(0);
                    let Some(at) = DateTime::from_timestamp_millis(owed) else { continue };
                    tracing::info!(job = %self.paths.job(), item, "running a fire missed while the item was busy or unowned");
                    Source::Misfire(at)
                }
            };
            self.start_items(view, vec![item], source).await;
        }
    }

    /// Failover (reference §3.5, without its gaps): every orphaned run — a `running` node whose
    /// runner is gone, a claim whose claimer is gone, or this instance's own run killed by fencing
    /// — is queued under `leader/failover/items`, and queued items are claimed one per latch
    /// round by every live instance, busy or not, until none is left. The cache only picks the
    /// suspects; [`failover_round`] confirms and queues them, and claims, under the failover
    /// latch, in a background task.
    async fn failover_duties(&mut self, view: &JobView) {
        let me = self.me.as_str();
        let alive = |id: &str| view.instances.contains_key(id);
        let mut suspects = Vec::new();
        for (&item, state) in &view.items {
            if self.slots.get(&item).is_some_and(|s| s.run.is_some()) {
                continue;
            }
            let orphan_runner = |id: &str| id == me || !alive(id);
            let inferred = state.failovering.as_deref().or(state.owner.as_deref());
            if (state.running && inferred.is_none_or(orphan_runner))
                || state.failovering.as_deref().is_some_and(orphan_runner)
            {
                suspects.push(item);
            }
        }
        let work = !suspects.is_empty() || !view.failover_queue.is_empty();
        if work && self.claim.is_none() && !self.claim_idle && view.is_available(me) {
            let (registry, paths, me, total, local) =
                (self.registry.clone(), self.paths.clone(), self.me.clone(), self.total(), Arc::clone(&self.local));
            self.claim =
                Some(tokio::spawn(
                    async move { failover_round(&registry, &paths, &me, &local, total, &suspects).await },
                ));
        }
    }

    async fn on_claimed(&mut self, result: Result<Result<Option<u32>, RegistryError>, tokio::task::JoinError>) {
        match result {
            Ok(Ok(Some(item))) => self.start_failover(item).await,
            // Nothing left to claim: wait for the next change before contending again.
            Ok(Ok(None)) => self.claim_idle = true,
            Ok(Err(e)) => {
                tracing::warn!(job = %self.name(), error = %e, "failover claim failed");
                self.claim_idle = true;
            }
            Err(e) => tracing::error!(job = %self.name(), error = %e, "failover claim task failed"),
        }
        self.after_change().await;
    }

    /// Runs a claimed item at once (the claim already wrote its `running` node).
    async fn start_failover(&mut self, item: u32) {
        let Ok(executor) = self.executor.clone() else {
            tracing::error!(job = %self.name(), item, "claimed item not run: the job is misconfigured");
            return;
        };
        if self.slots.get(&item).is_some_and(|slot| slot.run.is_some()) {
            // Cannot happen: the claim created the running node, which a local run would hold.
            tracing::error!(job = %self.name(), item, "claimed item is already running here; returning it");
            self.return_claim(item).await;
            return;
        }
        let params =
            parse_item_parameters(self.config.sharding_item_parameters.as_deref().unwrap_or("")).unwrap_or_default();
        let ctx = ShardingContext {
            job_name: self.name().to_string(),
            task_id: task_id(self.name(), &[item], self.me.as_str()),
            sharding_total_count: self.total(),
            job_parameter: self.config.job_parameter.clone().unwrap_or_default(),
            sharding_item: item,
            sharding_parameter: i32::try_from(item).ok().and_then(|i| params.get(&i).cloned()),
        };
        tracing::info!(job = %self.name(), item, "running a failed-over item");
        self.spawn_run(item, ctx, Source::Failover(Utc::now()), executor);
    }

    /// Puts a claimed item back in the queue.
    async fn return_claim(&self, item: u32) {
        let ops = [
            Op::Create { path: self.paths.failover_item(item), data: Vec::new(), mode: Mode::Persistent },
            Op::Delete { path: self.paths.item_leaf(item, ItemLeaf::Running), version: None },
            Op::Delete { path: self.paths.item_leaf(item, ItemLeaf::Failover), version: None },
            Op::Delete { path: self.paths.item_leaf(item, ItemLeaf::Failovering), version: None },
        ];
        if let Err(e) = self.registry.transaction(&ops).await {
            tracing::warn!(job = %self.name(), item, error = %e, "cannot return the claimed item");
        }
    }

    /// A failed-over run ended: its `running`, `failover` and `failovering` nodes go together
    /// (`updateFailoverComplete`).
    async fn complete_failovers(&self, items: &[u32]) {
        let leaves = [ItemLeaf::Running, ItemLeaf::Failover, ItemLeaf::Failovering];
        let paths: Vec<String> =
            items.iter().flat_map(|&i| leaves.iter().map(move |&l| self.paths.item_leaf(i, l))).collect();
        let ops: Vec<Op> = paths.iter().map(|p| Op::Delete { path: p.clone(), version: None }).collect();
        if self.registry.transaction(&ops).await.is_ok() {
            return;
        }
        for p in &paths {
            if let Err(e) = self.registry.delete_if_exists(p).await {
                tracing::warn!(job = %self.name(), path = %p, error = %e, "cannot clear a failover node");
            }
        }
    }

    /// The link is usable: connected, and the registry answered recently.
    fn link_ok(&self) -> bool {
        self.connected && self.fence.borrow().healthy
    }

    /// The fence monitor changed state.
    async fn on_fence(&mut self) {
        let state = *self.fence.borrow_and_update();
        if state.healthy {
            self.resume_after_outage().await;
        }
    }

    /// The registry is usable again: run what was missed meanwhile (once), then re-evaluate.
    async fn resume_after_outage(&mut self) {
        if !self.link_ok() {
            return;
        }
        if let Some(missed) = self.missed_offline.take()
            && self.config.misfire
        {
            // One run per item covers every fire missed meanwhile; it stands for the latest of
            // them, so a run that began after that instant already covers it.
            self.fire(Source::Misfire(missed)).await;
        }
        self.after_change().await;
    }

    /// Contends for leadership in the background: the Curator latch at `leader/election/latch`
    /// guards "create `leader/election/instance` if absent" (reference §2.2). The outcome shows
    /// up in the cache.
    fn start_election(&mut self) {
        if self.election.is_some() {
            return;
        }
        let registry = self.registry.clone();
        let paths = self.paths.clone();
        let me = self.me.clone();
        self.election = Some(tokio::spawn(async move {
            let result = async {
                let _latch = registry.latch(&paths.election_latch()).await?;
                if registry.exists(&paths.leader_instance()).await?.is_none() {
                    match registry.create(&paths.leader_instance(), me.as_str().as_bytes(), Mode::Ephemeral).await {
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

    /// The leader's part: set the resharding flag when the assignment is stale, and reshard as
    /// soon as nothing is running.
    async fn leader_duties(&mut self, view: &JobView) {
        let total = self.total();
        if total == 0 {
            return;
        }
        if self.sharding_written {
            if view.necessary {
                return;
            }
            self.sharding_written = false;
        }
        if !view.necessary {
            if view.needs_resharding(total, self.strategy(), self.name(), self.config.static_sharding) {
                tracing::info!(job = %self.name(), "assignment is stale: resharding");
                if let Err(e) = self.registry.create_if_absent(&self.paths.sharding_necessary(), codec::EMPTY).await {
                    tracing::warn!(job = %self.name(), error = %e, "cannot set the resharding flag");
                }
            }
            return;
        }
        let existing = view.items.keys().copied().max().map_or(0, |m| m + 1).max(total);
        if self.config.monitor_execution && view.any_running(existing) {
            tracing::debug!(job = %self.name(), "resharding waits for running items");
            return;
        }
        if view.available_instances().is_empty() {
            return;
        }
        self.shard(view).await;
    }

    /// Writes a new assignment in one transaction; retried with a fresh read when the cache was
    /// behind, reported when it keeps failing (the flag stays, so it is retried on the next
    /// change or reconcile).
    async fn shard(&mut self, view: &JobView) {
        let total = self.total();
        match self.registry.create(&self.paths.sharding_processing(), codec::EMPTY, Mode::Ephemeral).await {
            Ok(_) => {}
            Err(RegistryError::NodeExists(_)) => {
                let ours = self.registry.exists(&self.paths.sharding_processing()).await;
                if !matches!(ours, Ok(Some(stat)) if stat.ephemeral_owner == self.registry.session_id()) {
                    return;
                }
            }
            Err(e) => {
                tracing::warn!(job = %self.name(), error = %e, "cannot start sharding");
                return;
            }
        }
        let now_ms = Utc::now().timestamp_millis();
        let mut current = view.clone();
        let mut leaves = view::item_leaves(&self.paths, &self.cache.view());
        for attempt in 1..=3 {
            current.processing = true;
            let available = current.available_instances();
            if available.is_empty() || !current.necessary {
                break;
            }
            let assignment = strategy::assign(self.strategy(), self.name(), &available, total, now_ms);
            let ops = current.sharding_transaction(&self.paths, &assignment, total, &leaves);
            match self.registry.transaction(&ops).await {
                Ok(()) => {
                    let summary: Vec<String> = assignment.iter().map(|(id, items)| format!("{id}={items:?}")).collect();
                    tracing::info!(job = %self.name(), assignment = %summary.join(" "), "resharded");
                    self.sharding_written = true;
                    return;
                }
                Err(e) => {
                    tracing::warn!(job = %self.name(), attempt, error = %e, "sharding transaction failed; re-reading");
                    match self.registry.read_subtree(self.paths.root(), &|_| {}).await {
                        Ok(Some(nodes)) => {
                            current = JobView::from_nodes(&self.paths, &nodes);
                            leaves = view::item_leaves_from_nodes(&self.paths, &nodes);
                        }
                        Ok(None) => break,
                        Err(e) => {
                            tracing::warn!(job = %self.name(), error = %e, "cannot re-read the job");
                            break;
                        }
                    }
                }
            }
        }
        tracing::error!(job = %self.name(), "sharding did not complete; it will be retried");
        if let Err(e) = self.registry.delete_if_exists(&self.paths.sharding_processing()).await {
            tracing::warn!(job = %self.name(), error = %e, "cannot clear the sharding marker");
        }
    }

    // ----- fires -------------------------------------------------------------------------

    async fn on_cron(&mut self) {
        let Some(scheduled) = self.next_fire else { return };
        let now = Utc::now();
        let next = self.cron.as_ref().and_then(|c| c.next_after(scheduled, &self.tz));
        // Late by more than a period (a stalled process, a clock jump): coalesce into this fire.
        self.next_fire = match next {
            Some(n) if n <= now => self.cron.as_ref().and_then(|c| c.next_after(now, &self.tz)),
            other => other,
        };
        self.fire(Source::Cron(scheduled)).await;
    }

    /// A fire: run every idle local item; queue the fire behind busy items.
    async fn fire(&mut self, source: Source) {
        if !self.link_ok() {
            tracing::warn!(job = %self.name(), source = source.label(), "fire deferred: the registry is unreachable");
            self.missed_offline = Some(self.missed_offline.map_or(source.at(), |m| m.max(source.at())));
            return;
        }
        if !self.clock_within_limits().await {
            return;
        }
        let view = self.view();
        if view.sharding_pending(self.total()) {
            if self.config.misfire && !matches!(source, Source::Trigger(..)) {
                // The assignment is in flux: owe this fire to every item in the registry, so that
                // exactly one run (by whoever owns the item once sharding is done, or a run that
                // starts meanwhile) covers it across the cluster.
                tracing::debug!(job = %self.name(), "fire during resharding: recorded as misfires");
                self.owe_fire_to_all_items(source.at()).await;
            } else {
                tracing::debug!(job = %self.name(), "fire waits for resharding");
                self.pending = Some(source);
            }
            return;
        }
        let items = view.local_items(self.me.as_str(), self.total());
        self.start_items(&view, items, source).await;
    }

    /// Starts the given items where they are idle, local and enabled; queues the fire behind the
    /// busy ones.
    async fn start_items(&mut self, view: &JobView, items: Vec<u32>, source: Source) {
        let mut to_start = Vec::new();
        for item in items {
            let state = view.items.get(&item).cloned().unwrap_or_default();
            if state.disabled {
                continue;
            }
            let me = self.me.as_str();
            let taken_over = state.failover.as_deref().is_some_and(|o| o != me)
                || state.failovering.as_deref().is_some_and(|o| o != me);
            let busy_elsewhere = taken_over || (self.config.monitor_execution && state.running);
            let slot = self.slots.get(&item);
            let busy_here = slot.and_then(|s| s.run.as_ref()).map(|r| r.started_at);
            // A fire handled late (it waited for resharding or a busy task) is covered by a run
            // that started here at or after its instant.
            if busy_here.is_none()
                && !matches!(source, Source::Trigger(..))
                && slot.and_then(|s| s.last_start).is_some_and(|at| at >= source.at())
            {
                continue;
            }
            if busy_here.is_some() || busy_elsewhere {
                let trigger = matches!(source, Source::Trigger(..));
                if busy_here.is_some_and(|at| at >= source.at()) && !trigger {
                    // The run here began at or after this fire: it covers it.
                    continue;
                }
                let job = self.paths.job();
                let where_ = if busy_here.is_some() { "here" } else { "elsewhere" };
                if !self.config.misfire && !trigger {
                    tracing::info!(job, item, "item still running {where_}: fire skipped (misfire is off)");
                    continue;
                }
                // Busy here: re-run when the run ends. Busy elsewhere: the misfire node makes
                // whoever owns the item run it once it is free, unless a run that started after
                // the fire covers it; a trigger always waits here for its own run.
                let owed = if self.config.misfire { self.owe(item, source.at()).await } else { false };
                if busy_here.is_some() && owed || trigger {
                    let slot = self.slots.entry(item).or_default();
                    slot.queued = Some(source.queue_behind(slot.queued.take()));
                }
                if owed || trigger {
                    tracing::info!(job, item, "item still running {where_}: the fire is owed a run");
                }
                continue;
            }
            to_start.push(item);
        }
        if to_start.is_empty() {
            return;
        }
        let executor = match &self.executor {
            Ok(executor) => Arc::clone(executor),
            Err(e) => {
                tracing::error!(job = %self.name(), items = ?to_start, error = %e, "items not run");
                return;
            }
        };
        let started = if self.config.monitor_execution {
            self.mark_running(view, &to_start).await
        } else {
            for &item in &to_start {
                if view.items.get(&item).is_some_and(|v| v.misfire) {
                    self.clear_misfire(item).await;
                }
            }
            to_start
        };
        // A run now starting covers every fire missed before it: a queued misfire is spent (a
        // queued trigger stays, its caller waits for a run that started after it).
        for item in &started {
            let slot = self.slots.entry(*item).or_default();
            if matches!(slot.queued, Some(Source::Misfire(_))) {
                slot.queued = None;
            }
        }
        if started.is_empty() {
            return;
        }
        let params = match parse_item_parameters(self.config.sharding_item_parameters.as_deref().unwrap_or("")) {
            Ok(p) => p,
            Err(e) => {
                tracing::error!(job = %self.name(), error = %e, "items not run");
                return;
            }
        };
        let task = task_id(self.name(), &started, self.me.as_str());
        for item in started {
            let ctx = ShardingContext {
                job_name: self.name().to_string(),
                task_id: task.clone(),
                sharding_total_count: self.total(),
                job_parameter: self.config.job_parameter.clone().unwrap_or_default(),
                sharding_item: item,
                sharding_parameter: i32::try_from(item).ok().and_then(|i| params.get(&i).cloned()),
            };
            self.spawn_run(item, ctx, source.clone(), Arc::clone(&executor));
        }
    }

    fn spawn_run(&mut self, item: u32, ctx: ShardingContext, source: Source, executor: Arc<Executor>) {
        if self.slots.get(&item).is_some_and(|slot| slot.run.is_some()) {
            // Every start path holds the item's running node first, so this is a bug if reached.
            tracing::error!(job = %self.name(), item, "item already runs here: not starting it twice");
            return;
        }
        self.next_run_id += 1;
        let id = self.next_run_id;
        let kill = CancellationToken::new();
        let control = RunControl {
            kill: kill.clone(),
            stop: self.stream_stop.subscribe(),
            kill_grace: self.settings.kill_grace,
            fire_time: Some(source.at()),
        };
        tracing::info!(job = %self.name(), item, source = source.label(), "item started");
        let mut fence = self.fence.clone();
        let fence_kill = kill.clone();
        self.runs.spawn(async move {
            // The run watches the fence itself, so a kill does not wait for the job task (which
            // may be blocked on a registry request while the link is down).
            let run = AssertUnwindSafe(executor.run(&ctx, control)).catch_unwind();
            tokio::pin!(run);
            let mut fenced = fence.borrow().fenced;
            if fenced {
                fence_kill.cancel();
            }
            let result = loop {
                tokio::select! {
                    result = &mut run => break result,
                    changed = fence.changed(), if !fenced => {
                        if changed.is_err() || fence.borrow().fenced {
                            fenced = true;
                            fence_kill.cancel();
                        }
                    }
                }
            };
            let outcome = result.unwrap_or_else(|_| ItemOutcome::failed("the job panicked"));
            Finished { item, id, outcome, fenced }
        });
        let now = Utc::now();
        let slot = self.slots.entry(item).or_default();
        slot.run = Some(ActiveRun { id, kill, source, started: Instant::now(), started_at: now });
        slot.last_start = Some(now);
    }

    /// Creates the `running` nodes of items about to start in one transaction (persistent when
    /// failover is on, so a crash can be detected; ephemeral otherwise; the data is this
    /// instance's id). An item whose node exists is running elsewhere and is left out.
    async fn mark_running(&mut self, view: &JobView, items: &[u32]) -> Vec<u32> {
        // Claim the items locally first, so the failover round never reads our fresh running
        // node as an orphan's.
        let items: Vec<u32> = {
            let mut local = lock(&self.local);
            items.iter().copied().filter(|i| local.insert(*i)).collect()
        };
        let started = self.write_running(view, &items).await;
        let mut local = lock(&self.local);
        for item in &items {
            if !started.contains(item) {
                local.remove(item);
            }
        }
        started
    }

    async fn write_running(&mut self, view: &JobView, items: &[u32]) -> Vec<u32> {
        let mode = if self.config.failover { Mode::Persistent } else { Mode::Ephemeral };
        let data = self.me.as_str().as_bytes().to_vec();
        let mut ops = Vec::new();
        let started = Utc::now().timestamp_millis().to_string().into_bytes();
        for &i in items {
            ops.push(Op::Create { path: self.paths.item_leaf(i, ItemLeaf::Running), data: data.clone(), mode });
            ops.push(Op::Set { path: self.paths.item(i), data: started.clone(), version: None });
            if view.items.get(&i).is_some_and(|v| v.misfire) {
                ops.push(Op::Delete { path: self.paths.item_leaf(i, ItemLeaf::Misfire), version: None });
            }
        }
        match self.registry.transaction(&ops).await {
            Ok(()) => return items.to_vec(),
            Err(RegistryError::Transaction { .. }) => {}
            Err(e) => {
                tracing::error!(job = %self.name(), error = %e, "cannot mark items running; not starting them");
                return Vec::new();
            }
        }
        let started_ms = started;
        let mut started = Vec::new();
        for &item in items {
            let path = self.paths.item_leaf(item, ItemLeaf::Running);
            match self.registry.create(&path, &data, mode).await {
                Ok(_) => {
                    if let Err(e) = self.registry.put(&self.paths.item(item), &started_ms).await {
                        tracing::warn!(job = %self.name(), item, error = %e, "cannot record the item's start");
                    }
                    self.clear_misfire(item).await;
                    started.push(item);
                }
                Err(RegistryError::NodeExists(_)) => {
                    tracing::info!(job = %self.name(), item, "item is running elsewhere: skipped")
                }
                Err(e) => {
                    tracing::error!(job = %self.name(), item, error = %e, "cannot mark the item running; not starting it")
                }
            }
        }
        started
    }

    /// Records fire `fire` as owed to every item 0..total (see [`JobRunner::owe`]).
    async fn owe_fire_to_all_items(&self, fire: DateTime<Utc>) {
        let owes = (0..self.total()).map(|item| self.owe(item, fire));
        futures::future::join_all(owes).await;
    }

    /// Records that `fire` is owed a run of `item` — a `misfire` node holding the fire's instant —
    /// unless a run that started at or after the fire covers it. Each run writes its start instant
    /// as the data of `sharding/{item}` in the transaction that marks it running, so the check
    /// and the write are one version-checked transaction: a run starting meanwhile makes it fail
    /// and it is decided again. Returns whether the fire is owed.
    async fn owe(&self, item: u32, fire: DateTime<Utc>) -> bool {
        let item_node = self.paths.item(item);
        let misfire = self.paths.item_leaf(item, ItemLeaf::Misfire);
        for _ in 0..3 {
            let last_start = match self.registry.get(&item_node).await {
                Ok(node) => node,
                Err(e) => {
                    tracing::warn!(job = %self.name(), item, error = %e, "cannot read the item's last start");
                    return true;
                }
            };
            if let Some(node) = &last_start
                && node.text().trim().parse::<i64>().is_ok_and(|started| started >= fire.timestamp_millis())
            {
                return false;
            }
            let data = fire.timestamp_millis().to_string().into_bytes();
            let ops = match &last_start {
                Some(node) => vec![
                    Op::Check { path: item_node.clone(), version: Some(node.stat.version) },
                    Op::Create { path: misfire.clone(), data, mode: Mode::Persistent },
                ],
                None => vec![Op::Create { path: misfire.clone(), data, mode: Mode::Persistent }],
            };
            match self.registry.transaction(&ops).await {
                Ok(()) => return true,
                Err(RegistryError::Transaction { source, .. }) if matches!(*source, RegistryError::NodeExists(_)) => {
                    return true;
                }
                Err(RegistryError::Transaction { .. }) => continue,
                Err(e) => {
                    tracing::warn!(job = %self.name(), item, error = %e, "cannot record the misfire");
                    return true;
                }
            }
        }
        true
    }

    /// A run of `item` that started at `started` ended: an owed fire no later than its start is
    /// covered by it, so its misfire node goes.
    async fn settle_misfire(&self, item: u32, started: DateTime<Utc>) {
        let node = self.paths.item_leaf(item, ItemLeaf::Misfire);
        let Ok(Some(misfire)) = self.registry.get(&node).await else { return };
        // ElasticJob writes an empty misfire node: owed since an unknown instant.
        let owed = misfire.text().trim().parse::<i64>().unwrap_or(0);
        if owed <= started.timestamp_millis()
            && let Err(e) = self.registry.delete(&node, Some(misfire.stat.version)).await
            && !matches!(e, RegistryError::NoNode(_) | RegistryError::BadVersion(_))
        {
            tracing::warn!(job = %self.name(), item, error = %e, "cannot clear a covered misfire");
        }
    }

    /// Finished runs: log, clear their running nodes in one batch, start queued re-runs.
    async fn on_finished(&mut self, batch: Vec<Result<Finished, tokio::task::JoinError>>) {
        let mut done = Vec::new();
        let mut failovers_done = Vec::new();
        let mut settle = Vec::new();
        let mut rerun = Vec::new();
        for result in batch {
            let Ok(finished) = result else {
                tracing::error!(job = %self.name(), "an item task was lost");
                continue;
            };
            let slot = self.slots.entry(finished.item).or_default();
            let Some(run) = slot.run.take_if(|r| r.id == finished.id) else { continue };
            let queued = slot.queued.take();
            log_outcome(self.paths.job(), finished.item, &run, &finished.outcome);
            self.record_trigger_result(finished.item, &run, &finished.outcome).await;
            if finished.fenced {
                // The running node stays: the run is an orphan now, failed over by whoever sees
                // this session end, or by this instance once the registry answers again.
                tracing::warn!(job = %self.name(), item = finished.item, "item killed: cut off from the registry");
                lock(&self.local).remove(&finished.item);
                continue;
            }
            if matches!(run.source, Source::Failover(_)) {
                failovers_done.push(finished.item);
            } else {
                done.push(finished.item);
            }
            settle.push((finished.item, run.started_at));
            if let Some(source) = queued {
                rerun.push((finished.item, source));
            }
        }
        if self.config.monitor_execution {
            self.clear_running_nodes(Some(&done)).await;
        }
        if !failovers_done.is_empty() {
            self.complete_failovers(&failovers_done).await;
        }
        {
            let mut local = lock(&self.local);
            for item in done.iter().chain(&failovers_done) {
                local.remove(item);
            }
        }
        if self.config.misfire {
            let owed: Vec<(u32, DateTime<Utc>)> = {
                let view = self.cache.view();
                settle
                    .into_iter()
                    .filter(|(item, _)| view.exists(&self.paths.item_leaf(*item, ItemLeaf::Misfire)))
                    .collect()
            };
            for (item, started) in owed {
                self.settle_misfire(item, started).await;
            }
        }
        if !rerun.is_empty() {
            let view = self.view();
            let local = view.local_items(self.me.as_str(), self.total());
            for (item, source) in rerun {
                if view.sharding_pending(self.total()) {
                    self.pending = Some(source);
                } else if local.contains(&item) {
                    self.start_items(&view, vec![item], source).await;
                }
            }
        }
        self.after_change().await;
    }

    async fn clear_misfire(&self, item: u32) {
        if self.config.misfire
            && let Err(e) = self.registry.delete_if_exists(&self.paths.item_leaf(item, ItemLeaf::Misfire)).await
        {
            tracing::warn!(job = %self.name(), item, error = %e, "cannot clear the misfire node");
        }
    }

    /// A run started by `job trigger --wait`: store its outcome where the admin waits for it.
    async fn record_trigger_result(&self, item: u32, run: &ActiveRun, outcome: &ItemOutcome) {
        let Some(token) = run.source.token() else { return };
        let result = TriggerResult {
            instance: self.me.to_string(),
            success: outcome.success,
            exit_code: outcome.exit_code,
            message: outcome.message.clone(),
            elapsed_ms: u64::try_from(run.started.elapsed().as_millis()).unwrap_or(u64::MAX),
        };
        if let Err(e) = self.registry.put(&self.paths.trigger_result(token, item), &result.encode()).await {
            tracing::warn!(job = %self.name(), item, error = %e, "cannot record the trigger result");
        }
    }

    /// Deletes `running` nodes: of `items`, or of every item (`None`). Batched in one
    /// transaction; a node someone else already removed is no error.
    async fn clear_running_nodes(&self, items: Option<&[u32]>) {
        let items: Vec<u32> = match items {
            Some(items) => items.to_vec(),
            None => {
                self.cache.view().children(&self.paths.sharding()).iter().filter_map(|n| path::parse_item(n)).collect()
            }
        };
        let ops: Vec<Op> = items
            .iter()
            .map(|&i| Op::Delete { path: self.paths.item_leaf(i, ItemLeaf::Running), version: None })
            .collect();
        if ops.is_empty() {
            return;
        }
        if self.registry.transaction(&ops).await.is_ok() {
            return;
        }
        for op in &ops {
            if let Err(e) = self.registry.delete_if_exists(op.path()).await {
                tracing::warn!(job = %self.name(), path = %op.path(), error = %e, "cannot clear the running node");
            }
        }
    }

    /// Failover was switched off: remove the `failover` nodes (`removeFailoverInfo`) and, beyond
    /// ElasticJob, the `failovering` markers of runs that are not going on here and the queue.
    async fn clear_failover_nodes(&self) {
        let view = self.view();
        for (&item, state) in &view.items {
            let here = self.slots.get(&item).is_some_and(|s| s.run.is_some());
            let mut nodes = vec![];
            if state.failover.is_some() {
                nodes.push(self.paths.item_leaf(item, ItemLeaf::Failover));
            }
            if state.failovering.is_some() && !here {
                nodes.push(self.paths.item_leaf(item, ItemLeaf::Failovering));
            }
            for node in nodes {
                if let Err(e) = self.registry.delete_if_exists(&node).await {
                    tracing::warn!(job = %self.name(), path = %node, error = %e, "cannot clear a failover node");
                }
            }
        }
        if let Err(e) = self.registry.delete_if_exists(&self.paths.failover_items()).await {
            tracing::warn!(job = %self.name(), error = %e, "cannot clear the failover queue");
        }
    }

    /// `maxTimeDiffSeconds`: compares this machine's clock with the registry's (the mtime of a
    /// node written now). Returns false, and logs, when the skew is over the limit.
    async fn clock_within_limits(&self) -> bool {
        let limit = self.config.max_time_diff_seconds;
        if limit < 0 {
            return true;
        }
        let node = self.paths.system_time();
        let result = async {
            self.registry.put(&node, codec::EMPTY).await?;
            self.registry.exists(&node).await
        }
        .await;
        match result {
            Ok(Some(stat)) => {
                let skew = (Utc::now().timestamp_millis() - stat.mtime).abs();
                if skew > i64::from(limit) * 1000 {
                    tracing::error!(
                        job = %self.name(),
                        skew_ms = skew,
                        "fire refused: time different between job server and register center exceed '{limit}' seconds, max time different is '{limit}' seconds"
                    );
                    return false;
                }
                true
            }
            Ok(None) => true,
            Err(e) => {
                tracing::warn!(job = %self.name(), error = %e, "cannot read the registry clock; fire refused");
                false
            }
        }
    }

    /// The periodic safety net: ElasticJob's reconcile (the leader reshards when the assignment
    /// is stale) plus a check that this instance is still registered.
    async fn reconcile(&mut self) {
        let interval = u64::try_from(self.config.reconcile_interval_minutes).unwrap_or(0);
        if interval == 0 || self.last_reconcile.elapsed() < Duration::from_secs(interval * 60) {
            return;
        }
        self.last_reconcile = Instant::now();
        if self.connected && !self.cache.view().exists(&self.paths.instance(self.me.as_str())) {
            self.on_own_instance_deleted().await;
        }
        self.after_change().await;
    }

    // ----- stopping ----------------------------------------------------------------------

    /// Stops: no new fires; running items get until the graceful deadline (none when forced or
    /// stopped by an operator), then they are killed; the leader and instance nodes are removed.
    async fn shutdown(&mut self) {
        let _ = self.stream_stop.send(true);
        if let Some(election) = self.election.take() {
            election.abort();
        }
        let deadline = match *self.stop.borrow() {
            StopMode::Graceful(deadline) if !self.stopped_by_admin => Some(deadline),
            _ => None,
        };
        if let Some(deadline) = deadline {
            while !self.runs.is_empty() {
                tokio::select! {
                    Some(done) = self.runs.join_next() => self.on_finished_stopping(done).await,
                    () = tokio::time::sleep_until(deadline) => break,
                    changed = self.stop.changed() => {
                        if changed.is_err() || matches!(*self.stop.borrow(), StopMode::Forced) {
                            break;
                        }
                    }
                }
            }
        }
        if !self.runs.is_empty() {
            tracing::warn!(job = %self.name(), items = self.runs.len(), "killing running items");
            for slot in self.slots.values() {
                if let Some(run) = &slot.run {
                    run.kill.cancel();
                }
            }
            while let Some(done) = self.runs.join_next().await {
                self.on_finished_stopping(done).await;
            }
        }
        if self.connected {
            if self.is_leader(&self.view())
                && let Err(e) = self.registry.delete_if_exists(&self.paths.leader_instance()).await
            {
                tracing::warn!(job = %self.name(), error = %e, "cannot remove the leader node");
            }
            if !self.stopped_by_admin
                && let Err(e) = self.registry.delete_if_exists(&self.paths.instance(self.me.as_str())).await
            {
                tracing::warn!(job = %self.name(), error = %e, "cannot remove the instance node");
            }
        }
        tracing::info!(job = %self.name(), "stopped");
    }

    /// A run that finished while stopping: log it and clear its running node unless it was
    /// killed with failover on (then the node lets another instance take the item over).
    async fn on_finished_stopping(&mut self, result: Result<Finished, tokio::task::JoinError>) {
        let Ok(finished) = result else { return };
        let slot = self.slots.entry(finished.item).or_default();
        let Some(run) = slot.run.take_if(|r| r.id == finished.id) else { return };
        log_outcome(self.paths.job(), finished.item, &run, &finished.outcome);
        self.record_trigger_result(finished.item, &run, &finished.outcome).await;
        let keep_node = finished.fenced || (finished.outcome.killed && self.config.failover);
        if self.config.monitor_execution && !keep_node {
            if matches!(run.source, Source::Failover(_)) {
                self.complete_failovers(&[finished.item]).await;
            } else {
                self.clear_running_nodes(Some(&[finished.item])).await;
            }
        }
        lock(&self.local).remove(&finished.item);
    }
}

/// One failover round, under the failover latch so that queueing and claiming never interleave
/// across instances:
///
/// 1. Each suspect item is confirmed with a fresh read of its `running`, `failover` and
///    `failovering` nodes against the live instances: a run whose runner is gone (or is this
///    instance, which is not running it — a run killed by fencing) is queued, in one transaction
///    that creates the queue entry and removes the orphan's nodes (version-checked).
/// 2. Then the first queued item (ElasticJob's order: reverse lexicographic) that this instance
///    is not running is claimed (reference §3.5 `failoverIfNecessary`) in one transaction that
///    checks the entry, writes `failover` (ephemeral), `failovering` and `running` (persistent)
///    with this instance's id, stamps the item's start and removes the entry — so a claim is
///    complete or absent, and never starts while another run holds the item's `running` node.
///
/// Returns the claimed item.
async fn failover_round(
    registry: &Registry,
    paths: &JobPaths,
    me: &InstanceId,
    local: &LocalRuns,
    total: u32,
    suspects: &[u32],
) -> Result<Option<u32>, RegistryError> {
    let _latch = registry.latch(&paths.failover_latch()).await?;
    if !suspects.is_empty() {
        let instances: BTreeSet<String> =
            registry.children(&paths.instances()).await?.unwrap_or_default().into_iter().collect();
        registry.create_if_absent(&paths.failover_items(), codec::EMPTY).await?;
        for &item in suspects {
            queue_if_orphaned(registry, paths, me, local, &instances, item).await?;
        }
    }
    let Some(mut names) = registry.children(&paths.failover_items()).await? else {
        return Ok(None);
    };
    path::sort_reverse_java(&mut names);
    let id = me.as_str().as_bytes().to_vec();
    for name in names {
        let Some(item) = path::parse_item(&name) else { continue };
        // Mark the item as ours before the claim writes its running node (see `LocalRuns`).
        if !lock(local).insert(item) {
            continue;
        }
        let entry = paths.failover_item(item);
        if item >= total {
            lock(local).remove(&item);
            registry.delete_if_exists(&entry).await?;
            continue;
        }
        let started = chrono::Utc::now().timestamp_millis().to_string().into_bytes();
        let ops = [
            Op::Check { path: entry.clone(), version: None },
            Op::Create { path: paths.item_leaf(item, ItemLeaf::Failover), data: id.clone(), mode: Mode::Ephemeral },
            Op::Create { path: paths.item_leaf(item, ItemLeaf::Failovering), data: id.clone(), mode: Mode::Persistent },
            Op::Create { path: paths.item_leaf(item, ItemLeaf::Running), data: id.clone(), mode: Mode::Persistent },
            Op::Set { path: paths.item(item), data: started, version: None },
            Op::Delete { path: entry.clone(), version: None },
        ];
        let result = registry.transaction(&ops).await;
        if result.is_err() {
            lock(local).remove(&item);
        }
        match result {
            Ok(()) => {
                tracing::info!(job = %paths.job(), item, "claimed an orphaned item");
                return Ok(Some(item));
            }
            // Someone runs the item now (its new owner, after resharding): that run covers the
            // orphaned one, so the entry is spent.
            Err(RegistryError::Transaction { index: 3, .. }) => {
                tracing::info!(job = %paths.job(), item, "orphaned item is running again already");
                registry.delete_if_exists(&entry).await?;
            }
            Err(RegistryError::Transaction { .. }) => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(None)
}

/// Step 1 of [`failover_round`] for one item.
async fn queue_if_orphaned(
    registry: &Registry,
    paths: &JobPaths,
    me: &InstanceId,
    local: &LocalRuns,
    instances: &BTreeSet<String>,
    item: u32,
) -> Result<(), RegistryError> {
    let leaves = [ItemLeaf::Running, ItemLeaf::Failover, ItemLeaf::Failovering];
    let nodes: Vec<String> = leaves.iter().map(|&l| paths.item_leaf(item, l)).collect();
    let fresh = registry.get_many(&nodes).await?;
    // Checked after the read: a run of ours that began before it is in the set by now.
    let here = lock(local).contains(&item);
    let orphaned = |id: &str| (id == me.as_str() && !here) || (id != me.as_str() && !instances.contains(id));
    let text = |i: usize| fresh.get(i).and_then(Option::as_ref).map(crate::registry::NodeData::text);
    let version = |i: usize| fresh.get(i).and_then(Option::as_ref).map(|n| n.stat.version);
    let (running, failover, failovering) = (text(0), text(1), text(2));
    if failover.as_deref().is_some_and(|o| o != me.as_str() && instances.contains(o)) {
        return Ok(());
    }
    let runner = match (&running, &failovering) {
        (Some(r), _) if orphaned(r) => r.clone(),
        (None, Some(f)) if orphaned(f) => f.clone(),
        _ => return Ok(()),
    };
    let mut ops = vec![Op::Create { path: paths.failover_item(item), data: Vec::new(), mode: Mode::Persistent }];
    if running.is_some() {
        ops.push(Op::Delete { path: nodes[0].clone(), version: version(0) });
    }
    if failovering.as_deref().is_some_and(orphaned) {
        ops.push(Op::Delete { path: nodes[2].clone(), version: version(2) });
    }
    match registry.transaction(&ops).await {
        Ok(()) => tracing::warn!(job = %paths.job(), item, runner = %runner, "orphaned run: queued for failover"),
        // Already queued: its entry stands for it.
        Err(e @ RegistryError::Transaction { .. }) => {
            tracing::debug!(job = %paths.job(), item, error = %e, "orphaned item already queued");
        }
        Err(e) => return Err(e),
    }
    Ok(())
}

fn log_outcome(job: &str, item: u32, run: &ActiveRun, outcome: &ItemOutcome) {
    let elapsed_ms = u64::try_from(run.started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let source = run.source.label();
    if outcome.success {
        tracing::info!(job, item, source, elapsed_ms, "item finished");
    } else {
        tracing::warn!(
            job,
            item,
            source,
            elapsed_ms,
            exit_code = ?outcome.exit_code,
            error = outcome.message.as_deref().unwrap_or(""),
            "item failed"
        );
    }
}

/// Writes the job's root and configuration when the registry has none (or `overwrite` is set),
/// then returns the configuration the registry holds.
async fn publish_config(registry: &Registry, paths: &JobPaths, setup: &JobSetup) -> anyhow::Result<JobConfig> {
    let name = paths.job();
    let stored = registry.get(&paths.config()).await?;
    if stored.is_none() || setup.config.overwrite {
        registry.put(paths.root(), setup.job_type.root_data().as_bytes()).await?;
        registry.put(&paths.config(), setup.config.to_yaml().as_bytes()).await?;
        tracing::info!(job = %name, "published the job configuration");
        return Ok(setup.config.clone());
    }
    let text = stored.map(|n| n.text()).unwrap_or_default();
    let config = JobConfig::from_yaml(&text)
        .map_err(|e| anyhow::anyhow!("job '{name}': the configuration at {} is invalid: {e}", paths.config()))?;
    if config.to_yaml() != setup.config.to_yaml() {
        tracing::info!(job = %name, "the registry's configuration differs from the job file and wins (set overwrite = true to publish the job file's)");
    }
    Ok(config)
}

async fn sleep_until_utc(at: Option<DateTime<Utc>>) {
    match at {
        Some(at) => {
            let wait = (at - Utc::now()).to_std().unwrap_or(Duration::ZERO);
            tokio::time::sleep(wait).await;
        }
        None => std::future::pending().await,
    }
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
