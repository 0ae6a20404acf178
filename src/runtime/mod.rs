//! The worker runtime behind `ejctl run`, also usable as a library.
//!
//! [`Worker::start`] connects to the registry (ZooKeeper, or an embedded in-process registry),
//! publishes each job's configuration, registers the instance and starts one job task
//! per job; all jobs share one registry session. Jobs are tokio tasks, not threads, so one
//! process hosts thousands of jobs. [`Worker::run_until`] is the process life of `ejctl run`:
//! the first stop signal stops new fires and lets running items finish within the shutdown
//! timeout, then removes the instance (and leader) nodes; a second signal kills running items
//! and exits at once. With [`WorkerConfig::prune_servers_after`], it also removes its jobs'
//! server nodes that nothing uses any more (`prune.rs`).
//!
//! ```no_run
//! use ejctl::exec::context::ShardingContext;
//! use ejctl::exec::inproc::{SimpleJob, simple};
//! use ejctl::config::JobConfig;
//! use ejctl::registry::embedded::EmbeddedStore;
//! use ejctl::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};
//!
//! struct Report;
//! impl SimpleJob for Report {
//!     async fn execute(&self, ctx: ShardingContext) -> anyhow::Result<()> {
//!         tracing::info!("item {} of {}", ctx.sharding_item, ctx.sharding_total_count);
//!         Ok(())
//!     }
//! }
//!
//! # async fn demo() -> anyhow::Result<()> {
//! let mut config = JobConfig::new("report", 2);
//! config.cron = Some("0/5 * * * * ?".into());
//! let job = JobDefinition::in_process(config, "Report", simple(Report));
//! let worker = Worker::start(WorkerConfig::new(RegistryTarget::Embedded(EmbeddedStore::new()), vec![job])).await?;
//! worker.run_until(tokio::signal::ctrl_c(), std::future::pending::<()>()).await;
//! # Ok(())
//! # }
//! ```

/// `injected!(settings, Bug)`: whether the simulator's mutation check switched
/// `InjectedBug::Bug` on. Without the `injected-bugs` feature (every build that is not a test)
/// the type does not exist, this is the constant `false`, and the code of each bug, which only
/// such a branch reaches, is compiled out; the functions that are nothing but a bug are themselves
/// under the feature.
macro_rules! injected {
    ($settings:expr, $bug:ident) => {{
        #[cfg(feature = "injected-bugs")]
        let on = $settings.bug($crate::runtime::InjectedBug::$bug);
        #[cfg(not(feature = "injected-bugs"))]
        let on = false;
        on
    }};
}

mod alarm;
#[cfg(feature = "injected-bugs")]
mod bugs;
mod dumpport;
mod fence;
mod http;
mod ip;
mod job;
pub(crate) mod metrics;
mod prune;

use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use futures::{StreamExt, TryStreamExt};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::config::JobConfig;
use crate::exec::inproc::ErasedJob;
use crate::registry::cache::CacheHub;
use crate::registry::codec::InstanceId;
use crate::registry::codec::JobType;
use crate::registry::embedded::EmbeddedStore;
use crate::registry::path::JobPaths;
use crate::registry::{Registry, ZkOptions};
use crate::retry::Jitter;
use crate::trace::writer::TraceService;
use crate::trace::{HostInfo, TraceConfig, Tracer};

#[cfg(feature = "injected-bugs")]
pub use self::bugs::InjectedBug;
pub use self::ip::detect_ip;
pub use crate::clock::{Clock, SystemClock};

/// Where the worker's registry is.
#[derive(Clone)]
pub enum RegistryTarget {
    /// A ZooKeeper registry.
    ZooKeeper(ZkOptions),
    /// An in-process registry; every worker started on the same store coordinates with the
    /// others in this process, and with nothing outside it.
    Embedded(EmbeddedStore),
}

/// One job to run.
#[derive(Clone)]
pub struct JobDefinition {
    /// The job type.
    pub job_type: JobType,
    /// The configuration to publish (see [`JobConfig::overwrite`]).
    pub config: JobConfig,
    /// The implementation of an in-process job.
    pub in_process: Option<Arc<dyn ErasedJob>>,
    /// Its listeners ([`crate::listener`]).
    pub listeners: Vec<Arc<dyn crate::listener::JobListener>>,
    /// Its once-per-fire listeners ([`crate::listener::DistributeOnceListener`]).
    pub once_listeners: Vec<Arc<dyn crate::listener::DistributeOnceListener>>,
}

impl JobDefinition {
    /// A job run by ejctl's own executors (script, HTTP, dataflow commands).
    pub fn new(job_type: JobType, config: JobConfig) -> JobDefinition {
        JobDefinition { job_type, config, in_process: None, listeners: Vec::new(), once_listeners: Vec::new() }
    }

    /// A job implemented in Rust; `type_name` is written as the job root's data.
    pub fn in_process(config: JobConfig, type_name: &str, job: Arc<dyn ErasedJob>) -> JobDefinition {
        JobDefinition {
            job_type: JobType::InProcess(type_name.to_string()),
            config,
            in_process: Some(job),
            listeners: Vec::new(),
            once_listeners: Vec::new(),
        }
    }

    /// Adds a listener, run once per fire on each instance before and after its items.
    #[must_use]
    pub fn with_listener(mut self, listener: Arc<dyn crate::listener::JobListener>) -> JobDefinition {
        self.listeners.push(listener);
        self
    }

    /// Adds a once-per-fire listener, run once per fire across all the job's instances
    /// (ElasticJob's `AbstractDistributeOnceElasticJobListener`); its timeouts are the job's
    /// `ejctl.listener.started.timeout.milliseconds` / `…completed…` properties.
    #[must_use]
    pub fn with_once_listener(mut self, listener: Arc<dyn crate::listener::DistributeOnceListener>) -> JobDefinition {
        self.once_listeners.push(listener);
        self
    }
}

/// Everything a worker needs.
#[derive(Clone)]
pub struct WorkerConfig {
    /// The registry.
    pub registry: RegistryTarget,
    /// The instance IP; detected when `None`.
    pub ip: Option<String>,
    /// The pid part of the instance id; this process's id when `None` (set it to run several
    /// instances in one process, as tests do).
    pub pid: Option<u32>,
    /// Serve `dump@{job}` on this port.
    pub dump_port: Option<u16>,
    /// The address the dump port listens on; loopback (`127.0.0.1`) when `None`, so only this
    /// machine can read the tree through it unless an address is configured.
    pub dump_address: Option<std::net::IpAddr>,
    /// Serve `/metrics`, `/healthz`, `/readyz` and `/dump/{job}` over HTTP on this address
    /// (port 0: any free port); `None`: no endpoint, and no metrics are recorded.
    pub http: Option<std::net::SocketAddr>,
    /// How long a graceful stop waits for running items.
    pub shutdown_timeout: Duration,
    /// SIGTERM to SIGKILL delay when killing an item.
    pub kill_grace: Duration,
    /// How long the registry may stay silent before running items are killed; half the session
    /// timeout when `None` (see `fence.rs`).
    pub fencing_timeout: Option<Duration>,
    /// The jobs.
    pub jobs: Vec<JobDefinition>,
    /// The wall clock fires are scheduled by.
    pub clock: Arc<dyn Clock>,
    /// Write every run to this trace store (`None`: no trace).
    pub trace: Option<TraceConfig>,
    /// Delete the `servers/{ip}` nodes of this worker's jobs that nothing uses (no live instance,
    /// no sharding item on that IP, not disabled) and that were not written during this long: at
    /// start-up, then every that long ([`crate::ops::prune`]); `None`: off.
    pub prune_servers_after: Option<Duration>,
    /// Bugs switched on for the simulator's mutation check (see [`InjectedBug`]).
    #[doc(hidden)]
    #[cfg(feature = "injected-bugs")]
    pub bugs: Vec<InjectedBug>,
    /// The seed of the jitter the jobs' retries are drawn with ([`crate::retry::Jitter`]); from
    /// the operating system when `None`. The deterministic simulator sets it from its seed.
    pub jitter_seed: Option<u64>,
    /// Wake for fires at their exact instant, through the alarm thread (see `alarm.rs`); off,
    /// fires wake on tokio's millisecond timer, up to 2 ms late. The deterministic simulator
    /// turns it off: its tokio clock is paused and exact, and the thread sleeps in real time.
    pub exact_wakeups: bool,
}

impl WorkerConfig {
    /// A configuration with defaults: detected IP, this process's pid, no dump port, 30 s
    /// shutdown timeout, 5 s kill grace.
    pub fn new(registry: RegistryTarget, jobs: Vec<JobDefinition>) -> WorkerConfig {
        WorkerConfig {
            registry,
            ip: None,
            pid: None,
            dump_port: None,
            dump_address: None,
            http: None,
            shutdown_timeout: Duration::from_secs(30),
            kill_grace: Duration::from_secs(5),
            fencing_timeout: None,
            jobs,
            clock: Arc::new(SystemClock),
            trace: None,
            prune_servers_after: None,
            #[cfg(feature = "injected-bugs")]
            bugs: Vec::new(),
            jitter_seed: None,
            exact_wakeups: true,
        }
    }
}

/// Settings every job of a worker shares.
pub(crate) struct Settings {
    pub(crate) kill_grace: Duration,
    pub(crate) clock: Arc<dyn Clock>,
    /// Where runs are traced, if anywhere.
    pub(crate) tracer: Option<Tracer>,
    #[cfg(feature = "injected-bugs")]
    pub(crate) bugs: BTreeSet<InjectedBug>,
    /// The metrics (off without an HTTP endpoint).
    pub(crate) metrics: Arc<metrics::Metrics>,
    /// The jobs' turns: how many of them react to registry changes at once (see
    /// [`Settings::turn`]).
    pub(crate) turns: Arc<Semaphore>,
    /// How many jobs contend for leadership at once ([`Settings::contention`]).
    pub(crate) contentions: Semaphore,
    /// The one watch the jobs' caches share, when they share one ([`shared_caches`]).
    pub(crate) caches: Option<CacheHub>,
    /// What the jobs' retries draw their delays with ([`crate::retry`]).
    pub(crate) jitter: Jitter,
    /// Fires wake through the alarm thread ([`WorkerConfig::exact_wakeups`]).
    pub(crate) exact_wakeups: bool,
}

impl Settings {
    /// True when the simulator's mutation check switched `bug` on (read through `injected!`).
    #[cfg(feature = "injected-bugs")]
    pub(crate) fn bug(&self, bug: InjectedBug) -> bool {
        self.bugs.contains(&bug)
    }

    /// Waits for a turn to react to registry changes; the turn lasts while the permit lives.
    ///
    /// A change that concerns every job at once (a worker's start-up: each job elects, shards
    /// and takes in the events of both) would otherwise have every job's reaction in flight
    /// together, each holding its views and requests across its round trips: with a thousand
    /// jobs on ZooKeeper that peak was twice the memory the settled jobs keep, and the heap
    /// never gave it back (the long-lived state ends up spread over its pages). A bounded
    /// number of turns still overlaps the round trips. Cron fires, ended runs and changes of the
    /// link's session and fence take no turn, and go on while a job waits for one
    /// (`JobTask::turn`): they never wait behind other jobs. What arrives as a registry change
    /// (a trigger, a failover claim) does take a turn.
    pub(crate) async fn turn(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.turns).acquire_owned().await.ok()
    }

    /// Waits for a slot to contend for a job's leadership in. A worker's start-up has every job
    /// contend at once; each contention is a few round trips on the latch with a kilobyte and a
    /// half of state, and unbounded they were most of the start-up's peak on ZooKeeper (the
    /// heap keeps that peak's pages). Slots are not turns: a contention can wait on a latch until
    /// a dead holder's session expires, and must not hold up other jobs' reactions meanwhile.
    pub(crate) async fn contention(&self) -> Option<tokio::sync::SemaphorePermit<'_>> {
        self.contentions.acquire().await.ok()
    }
}

/// With credentials, the namespace node and the jobs' root and configuration nodes must be the
/// worker's own: created creator-only, as workers with credentials create them. A node others can
/// read or write — made by a client without credentials before the worker first ran, to squat the
/// namespace — is refused rather than adopted (the worker would write the configuration, secrets
/// included, into it and take commands from it), unless the job file's `[registry]` says
/// `allow_open_acl = true`.
/// ACL reads of [`check_acls`] in flight at once.
const ACL_READS_IN_FLIGHT: usize = 256;

async fn check_acls(registry: &Registry, options: &ZkOptions, jobs: &[JobDefinition]) -> anyhow::Result<()> {
    if !options.has_identity() || options.allow_open_acl {
        return Ok(());
    }
    let mut nodes = vec![("/".to_string(), format!("/{}", options.namespace))];
    for job in jobs {
        let paths = JobPaths::new(&job.config.job_name);
        for node in [paths.root().to_string(), paths.config()] {
            let shown = format!("/{}{node}", options.namespace);
            nodes.push((node, shown));
        }
    }
    // Pipelined rather than one round trip after another: a worker may start thousands of jobs.
    let checked: Vec<(String, Vec<String>)> = futures::stream::iter(nodes)
        .map(|(node, shown)| async move {
            let others =
                registry.foreign_access(&node).await.with_context(|| format!("cannot read the ACL of {shown}"))?;
            anyhow::Ok((shown, others))
        })
        .buffered(ACL_READS_IN_FLIGHT)
        .try_collect()
        .await?;
    for (shown, others) in checked {
        if !others.is_empty() {
            anyhow::bail!(
                "{shown} is open to {} beyond this worker's credentials: another client created it (the namespace may be squatted); delete it so that the worker creates it creator-only, or restrict it (zkCli: setAcl -R {shown} auth::cdrwa), or accept it with allow_open_acl = true in the job file's [registry] table",
                others.join(", ")
            );
        }
    }
    Ok(())
}

/// One watch on the namespace for the caches of all the worker's jobs, when they are at least half
/// of the namespace's jobs (counting those it is about to publish); otherwise each job's cache
/// watches its own subtree.
///
/// A watch per job costs the worker a task, a stream and the client's bookkeeping for each job
/// (about a kilobyte) and ZooKeeper a watch for each; one watch on the namespace costs one of
/// each, but brings the worker the events of the namespace's other jobs too, which it drops. With
/// this worker's jobs at least half of them, at most half of what it receives is dropped; a worker
/// running a few jobs of a large namespace (say one job beside a Java cluster's hundreds) keeps
/// a watch per job and sees nothing of the others.
async fn shared_caches(
    registry: &Registry,
    jobs: &[JobDefinition],
    jitter: &Jitter,
) -> anyhow::Result<Option<CacheHub>> {
    if jobs.is_empty() {
        return Ok(None);
    }
    let root = crate::registry::path::NAMESPACE_ROOT;
    let existing = registry.children(root).await.context("cannot list the namespace's jobs")?.unwrap_or_default();
    let ours: BTreeSet<&str> = jobs.iter().map(|j| j.config.job_name.as_str()).collect();
    let others = existing.iter().filter(|name| !ours.contains(name.as_str())).count();
    if ours.len() < others {
        tracing::debug!(jobs = ours.len(), others, "each job's cache watches its own subtree");
        return Ok(None);
    }
    let hub =
        CacheHub::start_jittered(registry.clone(), root, jitter.fork()).await.context("cannot watch the namespace")?;
    tracing::debug!(jobs = ours.len(), others, "the jobs' caches share one watch on the namespace");
    Ok(Some(hub))
}

/// How many jobs start at once.
const STARTS_IN_FLIGHT: usize = 64;

/// How many jobs react to registry changes at once ([`Settings::turn`]).
const TURNS: usize = 64;

/// How many jobs contend for leadership at once ([`Settings::contention`]).
const CONTENTIONS: usize = 64;

/// How long a stopping worker waits for the trace writer to flush.
const TRACE_FLUSH: Duration = Duration::from_secs(5);

/// What the job tasks are asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopMode {
    /// Keep running.
    Run,
    /// Stop new fires; let running items finish until the deadline.
    Graceful(Instant),
    /// Kill running items and leave now.
    Forced,
}

/// A running worker.
pub struct Worker {
    instance_id: InstanceId,
    registry: Registry,
    stop: watch::Sender<StopMode>,
    /// One task per job.
    tasks: JoinSet<()>,
    /// The fence monitor and the dump port, stopped once the jobs are.
    services: JoinSet<()>,
    shutdown_timeout: Duration,
    dump_addr: Option<std::net::SocketAddr>,
    http_addr: Option<std::net::SocketAddr>,
    /// The trace writer, flushed once the jobs are stopped.
    trace: Option<TraceService>,
}

impl Worker {
    /// Connects, publishes and registers every job, and starts them.
    ///
    /// # Errors
    /// An unreachable registry, an invalid configuration in the registry, a dump port in use.
    pub async fn start(config: WorkerConfig) -> anyhow::Result<Worker> {
        let registry = match &config.registry {
            RegistryTarget::ZooKeeper(options) => {
                Registry::connect(options.clone()).await.context("cannot connect to the registry")?
            }
            RegistryTarget::Embedded(store) => Registry::embedded(store),
        };
        if let RegistryTarget::ZooKeeper(options) = &config.registry {
            check_acls(&registry, options, &config.jobs).await?;
        }
        let ip = match &config.ip {
            Some(ip) => ip.clone(),
            None => detect_ip(),
        };
        let instance_id = InstanceId::new(&ip, config.pid.unwrap_or_else(std::process::id));
        let (tracer, trace) = match config.trace.clone() {
            Some(trace) => {
                let host = HostInfo { hostname: crate::trace::hostname(), ip: ip.clone() };
                let (tracer, service) = TraceService::start(trace, host);
                (Some(tracer), Some(service))
            }
            None => (None, None),
        };
        let metrics = Arc::new(if config.http.is_some() { metrics::Metrics::on() } else { metrics::Metrics::off() });
        metrics.watch_trace(tracer.clone());
        // Never backwards (see `crate::clock`).
        let clock: Arc<dyn Clock> = Arc::new(crate::clock::Monotonic::new(Arc::clone(&config.clock)));
        let jitter = config.jitter_seed.map_or_else(Jitter::from_os, Jitter::seeded);
        let settings = Arc::new(Settings {
            kill_grace: config.kill_grace,
            clock: Arc::clone(&clock),
            tracer,
            #[cfg(feature = "injected-bugs")]
            bugs: config.bugs.iter().copied().collect(),
            metrics: Arc::clone(&metrics),
            turns: Arc::new(Semaphore::new(TURNS)),
            contentions: Semaphore::new(CONTENTIONS),
            caches: shared_caches(&registry, &config.jobs, &jitter).await?,
            jitter,
            exact_wakeups: config.exact_wakeups,
        });
        let (stop, stop_rx) = watch::channel(StopMode::Run);
        let mut services = JoinSet::new();
        let session_timeout = registry.session_timeout();
        let fencing = config.fencing_timeout.unwrap_or_else(|| fence::default_fencing(session_timeout));
        // Only another process can take a cut-off item over, and only through ZooKeeper.
        let shared = matches!(config.registry, RegistryTarget::ZooKeeper(_));
        if shared && fencing + config.kill_grace >= session_timeout {
            tracing::warn!(
                fencing_ms = fencing.as_millis(),
                kill_grace_ms = config.kill_grace.as_millis(),
                session_timeout_ms = session_timeout.as_millis(),
                "fencing timeout + kill grace is not below the session timeout: a cut-off item may still run when it is failed over; lower [registry] fencing_timeout_ms or [instance] kill_grace_seconds"
            );
        }
        let (fence_tx, fence_rx) = watch::channel(fence::FenceState::HEALTHY);
        services.spawn(fence::monitor(registry.clone(), fencing, fence_tx, stop_rx.clone(), Arc::clone(&metrics)));
        services.spawn(Arc::clone(&metrics).follow_session(registry.session(), stop_rx.clone()));
        let signals = job::Signals::start(stop_rx.clone(), fence_rx.clone(), registry.session());
        // The jobs start (publish, cache, register) many at a time: on ZooKeeper each start is a
        // few dozen round trips, which then overlap instead of adding up.
        let starts = config.jobs.into_iter().map(|job| {
            let setup = job::JobSetup {
                job_type: job.job_type,
                in_process: job.in_process,
                config: job.config,
                listeners: job.listeners,
                once_listeners: job.once_listeners,
            };
            let (registry, me, settings) = (registry.clone(), instance_id.clone(), Arc::clone(&settings));
            job::JobTask::start(registry, me, settings, setup, &signals)
        });
        let runners: Vec<job::JobTask> = futures::stream::iter(starts).buffered(STARTS_IN_FLIGHT).try_collect().await?;
        if let Some(after) = config.prune_servers_after {
            let jobs = runners.iter().map(|r| r.name().to_string()).collect();
            let clock = Arc::clone(&config.clock);
            services.spawn(prune::serve(registry.clone(), jobs, after, clock, stop_rx.clone()));
        }
        let mut tasks = JoinSet::new();
        let mut dump_addr = None;
        if let Some(port) = config.dump_port {
            let readers: HashMap<String, _> =
                runners.iter().map(|r| (r.name().to_string(), r.cache_reader())).collect();
            let address = config.dump_address.unwrap_or(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST));
            let listener = tokio::net::TcpListener::bind((address, port))
                .await
                .with_context(|| format!("cannot listen on dump port {address}:{port}"))?;
            dump_addr = listener.local_addr().ok();
            services.spawn(dumpport::serve(listener, registry.clone(), readers, stop_rx.clone()));
        }
        let mut http_addr = None;
        if let Some(address) = config.http {
            let listener = tokio::net::TcpListener::bind(address)
                .await
                .with_context(|| format!("cannot listen on the HTTP endpoint {address}"))?;
            http_addr = listener.local_addr().ok();
            let endpoint = http::Endpoint {
                metrics: Arc::clone(&metrics),
                registry: registry.clone(),
                fence: fence_rx.clone(),
                stop: stop_rx.clone(),
                jobs: Arc::new(runners.iter().map(|r| (r.name().to_string(), r.cache_reader())).collect()),
                clock: Arc::clone(&clock),
            };
            services.spawn(http::serve(listener, endpoint));
        }
        tracing::info!(instance = %instance_id, registry = %registry.describe(), jobs = runners.len(), "worker started");
        for runner in runners {
            tasks.spawn(runner.run());
        }
        Ok(Worker {
            instance_id,
            registry,
            stop,
            tasks,
            services,
            shutdown_timeout: config.shutdown_timeout,
            dump_addr,
            http_addr,
            trace,
        })
    }

    /// This worker's instance id (`ip@-@pid`).
    pub fn instance_id(&self) -> &InstanceId {
        &self.instance_id
    }

    /// The registry handle the worker uses.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The address the dump port listens on.
    pub fn dump_addr(&self) -> Option<std::net::SocketAddr> {
        self.dump_addr
    }

    /// The address the HTTP endpoint listens on.
    pub fn http_addr(&self) -> Option<std::net::SocketAddr> {
        self.http_addr
    }

    /// Stops gracefully: no new fires; running items get the shutdown timeout; then the instance
    /// leaves the registry.
    pub async fn shutdown(self) {
        self.run_until(std::future::ready(()), std::future::pending::<()>()).await;
    }

    /// Stops at once: running items are killed.
    pub async fn kill(mut self) {
        let _ = self.stop.send(StopMode::Forced);
        while self.tasks.join_next().await.is_some() {}
        self.services.shutdown().await;
        if let Some(trace) = self.trace.take() {
            trace.finish(TRACE_FLUSH).await;
        }
    }

    /// Runs until `graceful` resolves, then stops gracefully; if `forced` resolves meanwhile,
    /// running items are killed and the stop completes at once. Returns true when the stop was
    /// forced.
    pub async fn run_until(mut self, graceful: impl Future, forced: impl Future) -> bool {
        tokio::pin!(graceful);
        tokio::pin!(forced);
        loop {
            tokio::select! {
                biased;
                () = async { graceful.as_mut().await; } => break,
                joined = self.tasks.join_next() => {
                    if joined.is_none() {
                        // Every job was stopped (by operators); keep serving nothing until asked to stop.
                        graceful.as_mut().await;
                        break;
                    }
                }
            }
        }
        tracing::info!(instance = %self.instance_id, timeout_s = self.shutdown_timeout.as_secs(), "stopping: no new fires, waiting for running items");
        let _ = self.stop.send(StopMode::Graceful(Instant::now() + self.shutdown_timeout));
        let mut was_forced = false;
        loop {
            tokio::select! {
                biased;
                joined = self.tasks.join_next() => {
                    if joined.is_none() {
                        break;
                    }
                }
                () = async { forced.as_mut().await; }, if !was_forced => {
                    tracing::warn!("second stop signal: killing running items");
                    was_forced = true;
                    let _ = self.stop.send(StopMode::Forced);
                }
            }
        }
        self.services.shutdown().await;
        if let Some(trace) = self.trace.take() {
            trace.finish(TRACE_FLUSH).await;
        }
        was_forced
    }
}
