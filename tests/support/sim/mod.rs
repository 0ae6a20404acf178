//! The deterministic simulator: the real worker runtime (`Worker`, its job tasks, the
//! coordination core they call, the registry layer) on a simulated registry, clock and processes,
//! under a fault and operator schedule drawn from a seed; then the delivery guarantee of SPEC §2a
//! and liveness are checked on what ran ([`check`]).
//!
//! * **Clock**: one tokio current-thread runtime with paused time: timers fire in order and the
//!   runtime jumps to the next one when every task is idle, so minutes of cron fires, session
//!   timeouts and fencing deadlines run in milliseconds. The wall clock the runtime and the
//!   registry read follows tokio's clock ([`SimClock`]). Every `select!` in the runtime is
//!   `biased`, every map it iterates ordered, and the schedule comes from one seed, so a seed
//!   replays exactly.
//! * **Registry**: the embedded registry (ZooKeeper's data model: sessions, ephemeral nodes,
//!   ordered watches, multi-op, versions) with its fault injection: a worker cut off from the
//!   server (requests wait, events are lost, the watch resyncs on heal), session expiry (at once,
//!   or by the server after the session timeout while cut off or crashed), slow replies, and
//!   requests that fail before or after being applied.
//! * **Processes**: each item run is an in-process job that takes a seeded time; killed, it is
//!   taken to stop after a seeded kill latency (SIGTERM handling); a crashed worker's runs die
//!   with it (parent death).
//! * **Faults and operators**: crash and restart, graceful stop and restart, partition (short,
//!   past the fencing deadline, past the session timeout), session expiry, slow and lossy links,
//!   and admin actions through the admin operations layer (`ejctl`'s own `ops`): trigger,
//!   disable/enable an item, disable/enable the job.
//!
//! `InjectedBug`s switch on known bugs in the runtime so that the checker can be shown to catch
//! each of them (the mutation check).

pub mod check;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use ejctl::clock::Clock;
use ejctl::config::JobConfig;
use ejctl::exec::context::ShardingContext;
use ejctl::exec::inproc::{BoxFuture, ErasedJob};
use ejctl::exec::{ItemOutcome, RunControl};
use ejctl::ops::Admin;
use ejctl::ops::read::JobData;
use ejctl::registry::Registry;
use ejctl::registry::codec::ServerStatus;
use ejctl::registry::embedded::{EmbeddedStore, Fault as LinkFault};
use ejctl::registry::path::{ItemLeaf, JobPaths};
use ejctl::runtime::{InjectedBug, JobDefinition, RegistryTarget, Worker, WorkerConfig};
use tokio::time::Instant;

use super::Rng;

/// The simulated job's name.
pub const JOB: &str = "sim";

/// The embedded registry's session timeout, which the server side of the simulation applies.
pub const SESSION_TIMEOUT_MS: i64 = 10_000;

/// How one simulation is set up.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// The seed of everything random.
    pub seed: u64,
    /// Worker instances.
    pub instances: usize,
    /// Sharding items of the job.
    pub items: u32,
    /// Seconds of simulated time with faults, after a quiet warm-up and before a quiet tail.
    pub fault_seconds: u64,
    /// Bugs switched on (the mutation check).
    pub bugs: Vec<InjectedBug>,
}

impl SimConfig {
    /// The configuration the test suite and the benchmark use, for `seed`.
    pub fn new(seed: u64) -> SimConfig {
        SimConfig { seed, instances: 3, items: 4, fault_seconds: 60, bugs: Vec::new() }
    }
}

/// The simulated wall clock: a fixed origin plus tokio's (paused) clock.
#[derive(Debug)]
pub struct SimClock {
    origin: DateTime<Utc>,
    start: Instant,
}

impl SimClock {
    fn new() -> SimClock {
        // A whole second, so that cron instants are whole multiples of 1000 ms from it.
        SimClock { origin: DateTime::from_timestamp(1_700_000_000, 0).unwrap_or_default(), start: Instant::now() }
    }

    /// Milliseconds since the epoch, now.
    pub fn ms(&self) -> i64 {
        self.now().timestamp_millis()
    }
}

impl Clock for SimClock {
    fn now(&self) -> DateTime<Utc> {
        let elapsed = chrono::Duration::from_std(self.start.elapsed()).unwrap_or_default();
        self.origin + elapsed
    }
}

/// One item run, as the simulated process saw it.
#[derive(Debug, Clone)]
pub struct Run {
    pub item: u32,
    pub instance: String,
    /// The fire it covers (`RunControl::fire_time`), epoch ms.
    pub fire: i64,
    /// Why it ran: `cron`, `trigger`, `misfire` or `failover`.
    pub source: &'static str,
    pub start: i64,
    /// When it stopped (a killed run: when it was killed plus its kill latency).
    pub end: Option<i64>,
    /// Completed (not killed).
    pub completed: bool,
}

/// A fault or an operator action, with the window it affected.
#[derive(Debug, Clone)]
pub struct Event {
    pub kind: EventKind,
    pub slot: Option<usize>,
    /// The instance the slot ran when the event began.
    pub instance: Option<String>,
    pub start: i64,
    pub end: i64,
}

/// The kinds of fault and operator action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// The worker process dies (its session expires after the timeout); restarted later.
    Crash,
    /// The worker stops gracefully; restarted later.
    Stop,
    /// The worker is cut off from the registry for a while.
    Partition,
    /// The server expires the worker's session.
    Expire,
    /// The worker's registry replies are slow.
    Slow,
    /// Some of the worker's requests fail, before or after being applied.
    Lossy,
    /// An operator triggers the job.
    Trigger,
    /// An operator disables an item, and enables it again later.
    DisableItem(u32),
    /// An operator disables the job, and enables it again later.
    DisableJob,
}

/// The shared record of what ran.
#[derive(Default)]
pub struct Record {
    pub runs: Vec<Run>,
    rng: Rng,
}

/// The simulated process of an item run.
struct SimJob {
    record: Arc<Mutex<Record>>,
    clock: Arc<SimClock>,
}

/// Records a run's end when its future is dropped before it ended: its worker died, and the
/// parent-death signal took the process with it.
struct RunGuard {
    record: Arc<Mutex<Record>>,
    clock: Arc<SimClock>,
    index: usize,
    done: bool,
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let end = self.clock.ms();
        if let Ok(mut r) = self.record.lock()
            && let Some(run) = r.runs.get_mut(self.index)
        {
            run.end = Some(end);
        }
    }
}

impl ErasedJob for SimJob {
    fn run<'a>(
        &'a self,
        ctx: &'a ShardingContext,
        control: &'a RunControl,
        _streaming: bool,
    ) -> BoxFuture<'a, ItemOutcome> {
        Box::pin(async move {
            let instance = ctx.task_id.rsplit("@-@READY@-@").next().unwrap_or_default().to_string();
            let start = self.clock.ms();
            let fire = control.fire_time.map_or(start, |t| t.timestamp_millis());
            let (index, duration_ms, kill_latency_ms, fails) = {
                let mut r = self.record.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                // Mostly well under the 1 s period; sometimes longer than several periods; now
                // and then a hang that outlasts the session timeout (only fencing stops it in time
                // when its worker is cut off).
                let duration_ms = match r.rng.below(100) {
                    0 | 1 => 12_000 + r.rng.below(18_000),
                    2..=11 => 1000 + r.rng.below(3000),
                    _ => 50 + r.rng.below(900),
                };
                let kill_latency_ms = r.rng.below(300);
                let fails = r.rng.below(20) == 0;
                r.runs.push(Run {
                    item: ctx.sharding_item,
                    instance,
                    fire,
                    source: control.source,
                    start,
                    end: None,
                    completed: false,
                });
                (r.runs.len() - 1, duration_ms, kill_latency_ms, fails)
            };
            let mut guard =
                RunGuard { record: Arc::clone(&self.record), clock: Arc::clone(&self.clock), index, done: false };
            let killed = tokio::select! {
                biased;
                () = control.kill.cancelled() => true,
                () = tokio::time::sleep(Duration::from_millis(duration_ms)) => false,
            };
            if killed {
                // SIGTERM: the process takes a moment to stop.
                tokio::time::sleep(Duration::from_millis(kill_latency_ms)).await;
            }
            guard.done = true;
            let end = self.clock.ms();
            if let Ok(mut r) = self.record.lock()
                && let Some(run) = r.runs.get_mut(index)
            {
                run.end = Some(end);
                run.completed = !killed;
            }
            if killed {
                return ItemOutcome { killed: true, ..ItemOutcome::failed("killed") };
            }
            if fails { ItemOutcome::failed("simulated failure") } else { ItemOutcome::ok() }
        })
    }

    fn stops_when_killed(&self) -> bool {
        true
    }
}

/// One worker slot: its current worker, if running.
struct Slot {
    ip: String,
    pid: u32,
    worker: Option<Worker>,
}

/// The simulated cluster.
struct World {
    config: SimConfig,
    clock: Arc<SimClock>,
    store: EmbeddedStore,
    admin: Admin,
    record: Arc<Mutex<Record>>,
    slots: Vec<Slot>,
    rng: Rng,
    events: Vec<Event>,
}

/// What a simulation produced.
pub struct SimOutcome {
    pub config: SimConfig,
    pub runs: Vec<Run>,
    pub events: Vec<Event>,
    /// When checking starts (after the warm-up) and ends (the end of the quiet tail), epoch ms.
    pub checked_from: i64,
    pub ended: i64,
    /// The fault window's end: the quiet tail starts here.
    pub faults_ended: i64,
    /// What the registry held at the end (for the liveness checks).
    pub final_job: Option<JobData>,
}

fn job_config(items: u32) -> JobConfig {
    let mut cfg = JobConfig::new(JOB, i32::try_from(items).unwrap_or(1));
    cfg.cron = Some("* * * * * ?".into());
    cfg.failover = true;
    cfg.misfire = true;
    cfg.monitor_execution = true;
    cfg
}

impl World {
    async fn start_worker(&mut self, slot: usize) {
        self.slots[slot].pid += 1;
        let (ip, pid) = (self.slots[slot].ip.clone(), self.slots[slot].pid);
        let job = Arc::new(SimJob { record: Arc::clone(&self.record), clock: Arc::clone(&self.clock) });
        let definition = JobDefinition::in_process(job_config(self.config.items), "SimJob", job);
        let mut wc = WorkerConfig::new(RegistryTarget::Embedded(self.store.clone()), vec![definition]);
        wc.ip = Some(ip);
        wc.pid = Some(pid);
        wc.kill_grace = Duration::from_secs(1);
        wc.shutdown_timeout = Duration::from_secs(5);
        wc.clock = self.clock.clone();
        wc.bugs.clone_from(&self.config.bugs);
        match Worker::start(wc).await {
            Ok(worker) => self.slots[slot].worker = Some(worker),
            Err(e) => panic!("seed {}: worker {slot} did not start: {e:#}", self.config.seed),
        }
    }

    fn instance(&self, slot: usize) -> Option<String> {
        self.slots[slot].worker.as_ref().map(|w| w.instance_id().to_string())
    }

    fn client(&self, slot: usize) -> Option<u64> {
        self.slots[slot].worker.as_ref().and_then(|w| w.registry().embedded_client())
    }

    fn live_slots(&self) -> Vec<usize> {
        (0..self.slots.len()).filter(|s| self.slots[*s].worker.is_some()).collect()
    }

    /// One fault or operator action from the schedule; returns when it is over.
    async fn event(&mut self) {
        let live = self.live_slots();
        let slot = live[self.rng.below(live.len() as u64) as usize];
        let kind = match self.rng.below(9) {
            0 => EventKind::Crash,
            1 => EventKind::Stop,
            2 | 3 => EventKind::Partition,
            4 => EventKind::Expire,
            5 => EventKind::Slow,
            6 => EventKind::Lossy,
            7 if self.rng.below(2) == 0 => EventKind::Trigger,
            7 => EventKind::DisableJob,
            _ => EventKind::DisableItem(self.rng.below(u64::from(self.config.items)) as u32),
        };
        // Keep at least one worker running: no fault takes the last one.
        let takes_worker = matches!(kind, EventKind::Crash | EventKind::Stop);
        let kind = if takes_worker && live.len() < 2 { EventKind::Partition } else { kind };
        let instance = self.instance(slot);
        let start = self.clock.ms();
        let worker_event = !matches!(kind, EventKind::Trigger | EventKind::DisableItem(_) | EventKind::DisableJob);
        match kind {
            EventKind::Crash => {
                if let (Some(client), Some(worker)) = (self.client(slot), self.slots[slot].worker.take()) {
                    let session = worker.registry().session_id();
                    self.store.linger(client);
                    drop(worker);
                    // The server notices after the session timeout.
                    let store = self.store.clone();
                    tokio::spawn(async move {
                        tokio::time::sleep(Duration::from_millis(SESSION_TIMEOUT_MS as u64)).await;
                        store.expire_session_id(session);
                    });
                }
                sleep_ms(2000 + self.rng.below(15_000)).await;
                self.start_worker(slot).await;
            }
            EventKind::Stop => {
                if let Some(worker) = self.slots[slot].worker.take() {
                    worker.shutdown().await;
                }
                sleep_ms(1000 + self.rng.below(5000)).await;
                self.start_worker(slot).await;
            }
            EventKind::Partition => {
                if let Some(client) = self.client(slot) {
                    // Shorter than the fencing deadline, past it, or past the session timeout.
                    let ms = match self.rng.below(3) {
                        0 => 500 + self.rng.below(3000),
                        1 => 5500 + self.rng.below(4000),
                        _ => 11_000 + self.rng.below(10_000),
                    };
                    self.store.partition(client);
                    if ms > SESSION_TIMEOUT_MS as u64 {
                        sleep_ms(SESSION_TIMEOUT_MS as u64).await;
                        self.store.expire(client);
                        sleep_ms(ms - SESSION_TIMEOUT_MS as u64).await;
                    } else {
                        sleep_ms(ms).await;
                    }
                    self.store.heal(client);
                }
            }
            EventKind::Expire => {
                if let Some(client) = self.client(slot) {
                    self.store.expire(client);
                }
            }
            EventKind::Slow | EventKind::Lossy => {
                if let Some(client) = self.client(slot) {
                    let mut rng = Rng::new(self.rng.next());
                    let slow = kind == EventKind::Slow;
                    self.store.set_faults(
                        client,
                        Some(Box::new(move || {
                            if slow {
                                LinkFault::Delay(Duration::from_millis(rng.below(400)))
                            } else {
                                match rng.below(20) {
                                    0 => LinkFault::Fail,
                                    1 => LinkFault::LoseReply,
                                    _ => LinkFault::None,
                                }
                            }
                        })),
                    );
                    sleep_ms(2000 + self.rng.below(8000)).await;
                    self.store.set_faults(client, None);
                }
            }
            EventKind::Trigger => {
                // Off the whole second, so trigger runs are told apart from cron runs.
                sleep_ms(500).await;
                if let Ok(job) = self.admin.read_job(JOB).await {
                    let _ = self.admin.trigger(&job).await;
                }
            }
            EventKind::DisableItem(item) => {
                let paths = JobPaths::new(JOB);
                let node = paths.item_leaf(item, ItemLeaf::Disabled);
                let _ = self.admin.registry().create_if_absent(&node, b"").await;
                sleep_ms(2000 + self.rng.below(8000)).await;
                let _ = self.admin.registry().delete_if_exists(&node).await;
            }
            EventKind::DisableJob => {
                let _ = self.admin.set_job_status(JOB, None, &ServerStatus::Disabled).await;
                sleep_ms(2000 + self.rng.below(8000)).await;
                let _ = self.admin.set_job_status(JOB, None, &ServerStatus::Enabled).await;
            }
        }
        let end = self.clock.ms();
        self.events.push(Event { kind, slot: worker_event.then_some(slot), instance, start, end });
    }
}

async fn sleep_ms(ms: u64) {
    tokio::time::sleep(Duration::from_millis(ms)).await;
}

/// Runs one simulation to completion.
pub fn run(config: &SimConfig) -> SimOutcome {
    // tokio's own randomness (which watcher wakes first, `select!` fairness) comes from the seed.
    let seed = tokio::runtime::RngSeed::from_bytes(&config.seed.to_le_bytes());
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().start_paused(true).rng_seed(seed).build();
    let runtime = match runtime {
        Ok(r) => r,
        Err(e) => panic!("cannot build the simulation runtime: {e}"),
    };
    runtime.block_on(simulate(config.clone()))
}

async fn simulate(config: SimConfig) -> SimOutcome {
    let clock = Arc::new(SimClock::new());
    let store = EmbeddedStore::with_clock(clock.clone());
    let admin = Admin::new(Registry::embedded(&store), "sim");
    let slots: Vec<Slot> = (0..config.instances)
        .map(|i| Slot { ip: format!("10.0.0.{}", i + 1), pid: 100 * i as u32, worker: None })
        .collect();
    let record = Arc::new(Mutex::new(Record { runs: Vec::new(), rng: Rng::new(config.seed ^ 0x5EED) }));
    let mut world =
        World { rng: Rng::new(config.seed), config, clock, store, admin, record, slots, events: Vec::new() };
    for slot in 0..world.slots.len() {
        world.start_worker(slot).await;
    }
    // Warm-up: the leader shards, every item runs.
    sleep_ms(5000).await;
    let checked_from = world.clock.ms();
    let faults_until = checked_from + i64::try_from(world.config.fault_seconds).unwrap_or(60) * 1000;
    while world.clock.ms() < faults_until {
        world.event().await;
        // A quiet period between events.
        sleep_ms(1000 + world.rng.below(6000)).await;
    }
    let faults_ended = world.clock.ms();
    // The quiet tail: every worker back, time for failover and resharding to finish.
    for slot in 0..world.slots.len() {
        if world.slots[slot].worker.is_none() {
            world.start_worker(slot).await;
        }
    }
    sleep_ms(u64::try_from(SESSION_TIMEOUT_MS).unwrap_or(10_000) + 20_000).await;
    let final_job = world.admin.read_job(JOB).await.ok();
    let ended = world.clock.ms();
    for slot in &mut world.slots {
        if let Some(worker) = slot.worker.take() {
            worker.kill().await;
        }
    }
    let runs = world.record.lock().map(|r| r.runs.clone()).unwrap_or_default();
    SimOutcome { config: world.config, runs, events: world.events, checked_from, ended, faults_ended, final_job }
}

/// The run history of an outcome as lines, for replay comparisons and failure reports.
pub fn history(outcome: &SimOutcome) -> Vec<String> {
    let mut lines: BTreeMap<(i64, u32, String), String> = BTreeMap::new();
    for r in &outcome.runs {
        lines.insert(
            (r.start, r.item, r.instance.clone()),
            format!(
                "run item={} instance={} fire={} start={} end={:?} completed={}",
                r.item, r.instance, r.fire, r.start, r.end, r.completed
            ),
        );
    }
    lines.into_values().collect()
}
