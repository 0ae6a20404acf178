//! The deterministic simulator: the real worker runtime (`Worker`, its job tasks, the coordination
//! core they call, the registry layer) on a simulated registry, clock and processes, under a fault
//! and operator schedule drawn from a seed; then the delivery guarantee
//! (docs/src/design/guarantee.md) and liveness are checked on what ran ([`check`]).
//!
//! * **Clock**: one tokio current-thread runtime with paused time: timers fire in order and the
//!   runtime jumps to the next one when every task is idle, so minutes of cron fires, session
//!   timeouts and fencing deadlines run in milliseconds. The wall clock the registry reads follows
//!   tokio's clock ([`SimClock`]); each worker reads it through its machine's clock, which a skew
//!   event sets off by a number of milliseconds ([`SkewedClock`]). Every `select!` in the runtime
//!   is `biased`, every map it iterates ordered, and the schedule comes from one seed, so a seed
//!   replays exactly.
//! * **Registry**: the embedded registry (ZooKeeper's data model: sessions, ephemeral nodes,
//!   ordered watches, multi-op, versions) with its fault injection: a worker cut off from the
//!   server (requests wait, events are lost, the watch resyncs on heal), session expiry (at once,
//!   or by the server after the session timeout while cut off or crashed), slow replies, and
//!   requests that fail before or after being applied.
//! * **Processes**: each item run is an in-process job that takes a seeded time; killed, it is
//!   taken to stop after a seeded kill latency (SIGTERM handling); a crashed worker's runs die
//!   with it (parent death).
//! * **Faults and operators** ([`schedule`]): crash and restart, graceful stop and restart,
//!   partition (short, past the fencing deadline, past the session timeout; half of them of the
//!   leader), session expiry, slow and lossy links, clock skew within `maxTimeDiffSeconds` and
//!   (rarely) beyond it, and admin actions through the admin operations layer (`ejctl`'s own
//!   `ops`): trigger, trigger and wait for the results, disable/enable an item, the job or a
//!   server, shut down a server or the job (an operator restarts the workers later), remove the
//!   job (with or without purging its tree; restarted later), and change `shardingTotalCount`.
//!
//! `InjectedBug`s switch on known bugs in the runtime so that the checker can be shown to catch
//! each of them (the mutation check).

pub mod check;
mod schedule;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};
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
use ejctl::registry::embedded::EmbeddedStore;
use ejctl::runtime::{InjectedBug, JobDefinition, RegistryTarget, Worker, WorkerConfig};
use tokio::time::Instant;

use super::Rng;

pub use schedule::{Event, EventKind, Waiter, WaiterEnd};

/// The simulated job's name.
pub const JOB: &str = "sim";

/// The embedded registry's session timeout, which the server side of the simulation applies.
pub const SESSION_TIMEOUT_MS: i64 = 10_000;

/// The longest another worker's watch lags during an event (a degraded link).
pub const EVENT_WATCH_LAG_MS: u64 = 350;

/// How long the trigger-and-wait made once the faults healed may take: longer than most hung
/// runs it may have to wait for.
pub const HEALED_WAIT_MS: i64 = 26_000;

/// The job's `maxTimeDiffSeconds`: a worker whose clock is further off the registry's refuses
/// its fires.
pub const MAX_TIME_DIFF_SECONDS: i32 = 1;

/// How one simulation is set up.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// The seed of everything random.
    pub seed: u64,
    /// Worker instances.
    pub instances: usize,
    /// Sharding items of the job at the start (an operator may change the count).
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

/// The simulated wall clock: a fixed origin plus tokio's (paused) clock. The registry stamps
/// its nodes with it; the workers read it through a [`SkewedClock`].
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

/// One machine's clock: the simulated clock set off by its skew (milliseconds, changed by skew
/// events; 0 otherwise).
#[derive(Debug)]
pub struct SkewedClock {
    base: Arc<SimClock>,
    skew: Arc<AtomicI64>,
}

impl Clock for SkewedClock {
    fn now(&self) -> DateTime<Utc> {
        self.base.now() + chrono::Duration::milliseconds(self.skew.load(Ordering::Relaxed))
    }
}

/// One item run, as the simulated process saw it.
#[derive(Debug, Clone)]
pub struct Run {
    pub item: u32,
    pub instance: String,
    /// The fire it covers (`RunControl::fire_time`, on its machine's clock), epoch ms.
    pub fire: i64,
    /// Why it ran: `cron`, `trigger`, `misfire` or `failover`.
    pub source: &'static str,
    pub start: i64,
    /// When its worker started it, on the worker's clock (`RunControl::started_at`): it covers
    /// the fires up to this instant.
    pub local_start: i64,
    /// When it stopped (a killed run: when it was killed plus its kill latency).
    pub end: Option<i64>,
    /// Completed (not killed).
    pub completed: bool,
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
            let local_start = control.started_at.map_or(start, |t| t.timestamp_millis());
            let fire = control.fire_time.map_or(local_start, |t| t.timestamp_millis());
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
                    local_start,
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

/// One worker slot (a machine): its current worker, if running, and its clock's skew.
struct Slot {
    ip: String,
    pid: u32,
    worker: Option<Worker>,
    skew: Arc<AtomicI64>,
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
    /// Draws the watch lags of slow and healing links.
    lag_rng: Rng,
    events: Vec<Event>,
    /// The trigger waits: one entry per `TriggerWait` event, filled in when its wait ends.
    waiters: Arc<Mutex<Vec<Waiter>>>,
}

/// What a simulation produced.
pub struct SimOutcome {
    pub config: SimConfig,
    pub runs: Vec<Run>,
    pub events: Vec<Event>,
    pub waiters: Vec<Waiter>,
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
    cfg.max_time_diff_seconds = MAX_TIME_DIFF_SECONDS;
    cfg
}

impl World {
    async fn start_worker(&mut self, slot: usize) {
        self.slots[slot].pid += 1;
        let (ip, pid) = (self.slots[slot].ip.clone(), self.slots[slot].pid);
        let skew = Arc::clone(&self.slots[slot].skew);
        let job = Arc::new(SimJob { record: Arc::clone(&self.record), clock: Arc::clone(&self.clock) });
        let definition = JobDefinition::in_process(job_config(self.config.items), "SimJob", job);
        let mut wc = WorkerConfig::new(RegistryTarget::Embedded(self.store.clone()), vec![definition]);
        wc.ip = Some(ip);
        wc.pid = Some(pid);
        wc.kill_grace = Duration::from_secs(1);
        wc.shutdown_timeout = Duration::from_secs(5);
        // The machine's clock, as the worker reads it: skewed, and set back when a skew ends.
        wc.clock = Arc::new(SkewedClock { base: Arc::clone(&self.clock), skew });
        wc.bugs.clone_from(&self.config.bugs);
        // The retries' jitter follows the seed too, one sequence per worker start.
        wc.jitter_seed = Some(self.config.seed ^ (u64::from(pid) << 32));
        wc.exact_wakeups = false;
        match Worker::start(wc).await {
            Ok(worker) => self.slots[slot].worker = Some(worker),
            Err(e) => panic!("seed {}: worker {slot} did not start: {e:#}", self.config.seed),
        }
        self.round_trips(slot);
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
        .map(|i| Slot {
            ip: format!("10.0.0.{}", i + 1),
            pid: 100 * i as u32,
            worker: None,
            skew: Arc::new(AtomicI64::new(0)),
        })
        .collect();
    let record = Arc::new(Mutex::new(Record { runs: Vec::new(), rng: Rng::new(config.seed ^ 0x5EED) }));
    let mut world = World {
        rng: Rng::new(config.seed),
        lag_rng: Rng::new(config.seed ^ 0x1A6),
        config,
        clock,
        store,
        admin,
        record,
        slots,
        events: Vec::new(),
        waiters: Arc::default(),
    };
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
    // Once the faults healed (a crashed worker's session has expired), an operator's
    // trigger-and-wait gets every result in time.
    sleep_ms(u64::try_from(SESSION_TIMEOUT_MS).unwrap_or(10_000) + 2_000).await;
    world.trigger_and_wait(HEALED_WAIT_MS, true).await;
    sleep_ms(28_000).await;
    let final_job = world.admin.read_job(JOB).await.ok();
    let ended = world.clock.ms();
    for slot in &mut world.slots {
        if let Some(worker) = slot.worker.take() {
            worker.kill().await;
        }
    }
    let runs = world.record.lock().map(|r| r.runs.clone()).unwrap_or_default();
    let waiters = world.waiters.lock().map(|w| w.clone()).unwrap_or_default();
    SimOutcome {
        config: world.config,
        runs,
        events: world.events,
        waiters,
        checked_from,
        ended,
        faults_ended,
        final_job,
    }
}

/// The run history of an outcome as lines, for replay comparisons and failure reports.
pub fn history(outcome: &SimOutcome) -> Vec<String> {
    let mut lines: BTreeMap<(i64, u32, String), String> = BTreeMap::new();
    for r in &outcome.runs {
        lines.insert(
            (r.start, r.item, r.instance.clone()),
            format!(
                "run item={} instance={} fire={} start={} local={} end={:?} completed={}",
                r.item, r.instance, r.fire, r.start, r.local_start, r.end, r.completed
            ),
        );
    }
    lines.into_values().collect()
}
