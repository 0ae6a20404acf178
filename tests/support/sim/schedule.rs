//! The fault and operator schedule: one event at a time, drawn from the seed, each over before
//! the next begins (its effects — a session that expires later, resharding that waits for a
//! long run — may outlast it). Admin actions go through the admin operations layer (`ops`), as
//! `ejctl`'s commands do.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ejctl::ops::assign::parse_assignments;
use ejctl::ops::change::{job_remove, job_shutdown, server_shutdown, server_status};
use ejctl::ops::config::plan_set;
use ejctl::ops::trigger::WaitOutcome;
use ejctl::registry::codec::ServerStatus;
use ejctl::registry::embedded::Fault as LinkFault;
use ejctl::registry::path::{ItemLeaf, JobPaths};

use super::{EVENT_WATCH_LAG_MS, JOB, MAX_TIME_DIFF_SECONDS, Rng, SESSION_TIMEOUT_MS, World, sleep_ms};

/// How long an operator's `job trigger --wait` waits at most.
pub const WAIT_TIMEOUT_MS: i64 = 20_000;

/// A fault or an operator action, with the window it affected.
#[derive(Debug, Clone)]
pub struct Event {
    pub kind: EventKind,
    pub slot: Option<usize>,
    /// The instance the slot ran when the event began.
    pub instance: Option<String>,
    /// The instances an operator stopped (shutdown, remove): none of them starts a run after.
    pub stopped: Vec<String>,
    /// The items a clock skewed past the limit concerns: those its instance owned.
    pub items: Vec<u32>,
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
    /// The server expires the worker's session. ZooKeeper expires only a session whose client
    /// it has not heard from for the session timeout, so the worker is cut off that long first
    /// (its fence acts), and reconnects the moment its session is gone.
    Expire,
    /// The worker's registry replies are slow.
    Slow,
    /// Some of the worker's requests fail, before or after being applied.
    Lossy,
    /// An operator triggers the job.
    Trigger,
    /// An operator triggers the job and waits for the results (`job trigger --wait`).
    TriggerWait,
    /// An operator disables an item, and enables it again later.
    DisableItem(u32),
    /// An operator disables the job, and enables it again later.
    DisableJob,
    /// An operator disables the slot's server (`server disable`), and enables it again later.
    DisableServer,
    /// An operator shuts the slot's server down (`server shutdown`): its worker stops the job
    /// until the operator restarts it at the end.
    ShutdownServer,
    /// An operator shuts the job down (`job shutdown`): every worker stops it until the operator
    /// restarts them at the end.
    ShutdownJob,
    /// An operator removes the job (`job remove`, with `--purge` its whole tree): every worker
    /// stops it until the operator restarts them at the end (a purged job is published again).
    RemoveJob { purge: bool },
    /// An operator changes `shardingTotalCount` (`config set`).
    Total { from: u32, to: u32 },
    /// The slot's clock is off by this many ms, within `maxTimeDiffSeconds`.
    Skew(i64),
    /// The slot's clock is off by this many ms, beyond `maxTimeDiffSeconds`: its worker refuses
    /// its fires.
    SkewBeyond(i64),
}

impl EventKind {
    /// True when the event acts on one worker (its slot).
    fn on_worker(self) -> bool {
        matches!(
            self,
            EventKind::Crash
                | EventKind::Stop
                | EventKind::Partition
                | EventKind::Expire
                | EventKind::Slow
                | EventKind::Lossy
                | EventKind::DisableServer
                | EventKind::ShutdownServer
                | EventKind::Skew(_)
                | EventKind::SkewBeyond(_)
        )
    }
}

/// A `job trigger --wait` and how it ended.
#[derive(Debug, Clone)]
pub struct Waiter {
    pub start: i64,
    /// How long it waits at most.
    pub timeout_ms: i64,
    /// Made once the faults healed (the quiet tail): it must get every result.
    pub healed: bool,
    /// The trigger was refused (nothing to wait for), with the reason.
    pub refused: Option<String>,
    /// The items it waited for, with their owners.
    pub expected: BTreeMap<u32, String>,
    /// How the wait ended; `None` while it waits.
    pub end: Option<WaiterEnd>,
}

/// How a wait ended.
#[derive(Debug, Clone)]
pub struct WaiterEnd {
    pub at: i64,
    /// Every expected item reported.
    pub done: bool,
    /// The expected items without a result.
    pub missing: Vec<u32>,
    /// The wait failed (a registry error).
    pub error: Option<String>,
}

impl World {
    /// One fault or operator action from the schedule; returns when it is over.
    pub(super) async fn event(&mut self) {
        let live = self.live_slots();
        let mut slot = live[self.rng.below(live.len() as u64) as usize];
        let total = self.total().await;
        let kind = match self.rng.below(18) {
            0 | 1 => EventKind::Crash,
            2 => EventKind::Stop,
            3..=5 => EventKind::Partition,
            6 => EventKind::Expire,
            7 => EventKind::Slow,
            8 => EventKind::Lossy,
            9 => EventKind::Trigger,
            10 => EventKind::TriggerWait,
            11 if self.rng.below(2) == 0 => EventKind::DisableJob,
            11 => EventKind::DisableItem(self.rng.below(u64::from(total)) as u32),
            12 => EventKind::DisableServer,
            13 => match self.rng.below(4) {
                0 | 1 => EventKind::ShutdownServer,
                2 => EventKind::ShutdownJob,
                _ => EventKind::RemoveJob { purge: self.rng.below(2) == 0 },
            },
            14 => {
                let to = 2 + self.rng.below(4) as u32;
                EventKind::Total { from: total, to: if to == total { 6 } else { to } }
            }
            15 | 16 => {
                // Within the limit, with room for a slow reply to the clock check.
                let ms = 50 + self.rng.below(400) as i64;
                EventKind::Skew(if self.rng.below(2) == 0 { ms } else { -ms })
            }
            _ => {
                let ms = i64::from(MAX_TIME_DIFF_SECONDS) * 1000 + 500 + self.rng.below(2000) as i64;
                EventKind::SkewBeyond(if self.rng.below(2) == 0 { ms } else { -ms })
            }
        };
        // Keep at least one worker running: no fault takes the last one.
        let takes_worker = matches!(kind, EventKind::Crash | EventKind::Stop | EventKind::ShutdownServer);
        let kind = if takes_worker && live.len() < 2 { EventKind::Partition } else { kind };
        // Half the partitions cut the leader off: two instances may then believe they lead.
        if kind == EventKind::Partition
            && self.rng.below(2) == 0
            && let Some(leader) = self.leader_slot().await
        {
            slot = leader;
        }
        let instance = self.instance(slot);
        // Now and then another worker's watch lags meanwhile (a degraded link): the workers see
        // the event's changes at different times.
        let lagging = self.lagging_watch(slot);
        let start = self.clock.ms();
        let mut stopped = Vec::new();
        let mut items = Vec::new();
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
            EventKind::Partition => self.partition(slot).await,
            EventKind::Expire => {
                if let Some(client) = self.client(slot) {
                    self.store.partition(client);
                    sleep_ms(SESSION_TIMEOUT_MS as u64).await;
                    self.store.expire(client);
                    self.heal(client).await;
                }
            }
            EventKind::Slow | EventKind::Lossy => self.bad_link(slot, kind == EventKind::Slow).await,
            EventKind::Trigger => {
                // Off the whole second, so trigger runs are told apart from cron runs.
                sleep_ms(500).await;
                if let Ok(job) = self.admin.read_job(JOB).await {
                    let _ = self.admin.trigger(&job).await;
                }
            }
            EventKind::TriggerWait => {
                sleep_ms(500).await;
                self.trigger_and_wait(WAIT_TIMEOUT_MS, false).await;
            }
            EventKind::DisableItem(item) => {
                let node = JobPaths::new(JOB).item_leaf(item, ItemLeaf::Disabled);
                let _ = self.admin.registry().create_if_absent(&node, b"").await;
                sleep_ms(2000 + self.rng.below(8000)).await;
                let _ = self.admin.registry().delete_if_exists(&node).await;
            }
            EventKind::DisableJob => {
                let _ = self.admin.set_job_status(JOB, None, &ServerStatus::Disabled).await;
                sleep_ms(2000 + self.rng.below(8000)).await;
                let _ = self.admin.set_job_status(JOB, None, &ServerStatus::Enabled).await;
            }
            EventKind::DisableServer => {
                let ip = self.slots[slot].ip.clone();
                self.server_status(&ip, &ServerStatus::Disabled).await;
                sleep_ms(2000 + self.rng.below(8000)).await;
                self.server_status(&ip, &ServerStatus::Enabled).await;
            }
            EventKind::ShutdownServer => {
                let ip = self.slots[slot].ip.clone();
                if let Ok(jobs) = self.admin.read_all().await {
                    let changes = server_shutdown(&jobs, &ip, false);
                    stopped.extend(changes.iter().filter_map(|c| c.instance_id().map(str::to_string)));
                    let _ = self.admin.apply(&changes).await;
                }
                sleep_ms(1000 + self.rng.below(5000)).await;
                self.restart(&[slot]).await;
            }
            EventKind::ShutdownJob | EventKind::RemoveJob { .. } => {
                if let Ok(job) = self.admin.read_job(JOB).await {
                    let changes = match kind {
                        EventKind::RemoveJob { purge } => job_remove(&self.admin, &job, None, purge),
                        _ => job_shutdown(&self.admin, &job, None),
                    };
                    if let Ok(changes) = changes {
                        stopped.extend(changes.iter().filter_map(|c| c.instance_id().map(str::to_string)));
                        let _ = self.admin.apply(&changes).await;
                    }
                }
                sleep_ms(1000 + self.rng.below(5000)).await;
                let all: Vec<usize> = (0..self.slots.len()).collect();
                self.restart(&all).await;
            }
            EventKind::Total { to, .. } => self.set_total(to).await,
            EventKind::Skew(ms) | EventKind::SkewBeyond(ms) => {
                let beyond = matches!(kind, EventKind::SkewBeyond(_));
                if beyond {
                    items.extend(self.owned(instance.as_deref()).await);
                }
                self.slots[slot].skew.store(ms, Ordering::Relaxed);
                sleep_ms(3000 + self.rng.below(10_000)).await;
                if beyond {
                    items.extend(self.owned(instance.as_deref()).await);
                    items.sort_unstable();
                    items.dedup();
                }
                self.slots[slot].skew.store(0, Ordering::Relaxed);
            }
        }
        if let Some(client) = lagging {
            self.store.set_event_lag(client, Duration::ZERO);
        }
        let end = self.clock.ms();
        let slot = kind.on_worker().then_some(slot);
        self.events.push(Event { kind, slot, instance, stopped, items, start, end });
    }

    /// One time in four, another worker than `slot`'s gets a watch that lags 50 ms up to
    /// [`EVENT_WATCH_LAG_MS`]; returns its client.
    fn lagging_watch(&mut self, slot: usize) -> Option<u64> {
        let others: Vec<usize> = self.live_slots().into_iter().filter(|s| *s != slot).collect();
        if others.is_empty() || self.lag_rng.below(4) != 0 {
            return None;
        }
        let other = others[self.lag_rng.below(others.len() as u64) as usize];
        let client = self.client(other)?;
        self.store.set_event_lag(client, Duration::from_millis(50 + self.lag_rng.below(EVENT_WATCH_LAG_MS - 50)));
        Some(client)
    }

    /// Cuts `slot` off: shorter than the fencing deadline, past it, or past the session timeout.
    async fn partition(&mut self, slot: usize) {
        let Some(client) = self.client(slot) else { return };
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
        self.heal(client).await;
    }

    /// Ends a partition. The link comes back before the worker's view of the tree does: its
    /// watch resyncs a moment later (a reconnect takes round trips), so it acts on what it knew
    /// before the partition for a while.
    async fn heal(&mut self, client: u64) {
        // From a generator of its own, so that the schedule's other draws stay as they were.
        self.store.set_event_lag(client, Duration::from_millis(100 + self.lag_rng.below(1000)));
        self.store.heal(client);
        sleep_ms(1200).await;
        self.store.set_event_lag(client, Duration::ZERO);
    }

    /// Slow replies (and watch events that arrive as late), or requests that fail before or
    /// after being applied, for a while.
    async fn bad_link(&mut self, slot: usize, slow: bool) {
        let Some(client) = self.client(slot) else { return };
        if slow {
            self.store.set_event_lag(client, Duration::from_millis(50 + self.lag_rng.below(300)));
        }
        let mut rng = Rng::new(self.rng.next());
        self.store.set_faults(
            client,
            Some(Box::new(move || {
                if slow {
                    LinkFault::Delay(Duration::from_millis(rng.below(400)))
                } else {
                    match rng.below(20) {
                        0 => LinkFault::Fail,
                        1 => LinkFault::LoseReply,
                        _ => round_trip(&mut rng),
                    }
                }
            })),
        );
        sleep_ms(2000 + self.rng.below(8000)).await;
        self.store.set_event_lag(client, Duration::ZERO);
        self.round_trips(slot);
    }

    /// A healthy link: each request of `slot`'s worker may have other clients' requests served
    /// before it (a round trip takes no simulated time, but it is not atomic with the caller's
    /// next request).
    pub(super) fn round_trips(&mut self, slot: usize) {
        let Some(client) = self.client(slot) else { return };
        let mut rng = Rng::new(self.rng.next());
        self.store.set_faults(client, Some(Box::new(move || round_trip(&mut rng))));
    }

    /// `job trigger --wait --timeout`, which goes on in the background while the schedule does;
    /// `healed`: made once the faults healed.
    pub(super) async fn trigger_and_wait(&mut self, timeout_ms: i64, healed: bool) {
        let (waiters, clock) = (Arc::clone(&self.waiters), Arc::clone(&self.clock));
        let waiter = |expected, refused| Waiter { start: clock.ms(), timeout_ms, healed, refused, expected, end: None };
        let job = self.admin.read_job(JOB).await;
        // Nothing to wait for (no item owned by a live instance): refused, as the command is.
        let pending = match job {
            Ok(job) => self.admin.trigger_and_watch(&job).await,
            Err(e) => Err(e),
        };
        let pending = match pending {
            Ok(pending) => pending,
            Err(e) => {
                lock(&waiters).push(waiter(BTreeMap::new(), Some(e.to_string())));
                return;
            }
        };
        let index = {
            let mut w = lock(&waiters);
            w.push(waiter(pending.expected().clone(), None));
            w.len() - 1
        };
        tokio::spawn(async move {
            let timeout = Duration::from_millis(timeout_ms as u64);
            let report = pending.wait(timeout, |_| {}, std::future::pending::<()>()).await;
            let end = match report {
                Ok(r) => {
                    WaiterEnd { at: clock.ms(), done: r.outcome == WaitOutcome::Done, missing: r.missing, error: None }
                }
                Err(e) => WaiterEnd { at: clock.ms(), done: false, missing: Vec::new(), error: Some(e.to_string()) },
            };
            if let Some(w) = lock(&waiters).get_mut(index) {
                w.end = Some(end);
            }
        });
    }

    /// `server disable|enable IP`.
    async fn server_status(&self, ip: &str, to: &ServerStatus) {
        if let Ok(jobs) = self.admin.read_all().await {
            let _ = self.admin.apply(&server_status(&jobs, ip, to)).await;
        }
    }

    /// `config set sim shardingTotalCount=N`.
    async fn set_total(&self, to: u32) {
        let Ok(stored) = self.admin.read_config(JOB).await else { return };
        let Ok(assignments) = parse_assignments(&[format!("shardingTotalCount={to}")]) else { return };
        if let Ok(update) = plan_set(JOB, &stored, &assignments, &Default::default()) {
            let _ = self.admin.write_config(JOB, stored.version(), &update.new).await;
        }
    }

    /// The operator restarts the workers of `slots` (a stopped job stays stopped until then).
    async fn restart(&mut self, slots: &[usize]) {
        for &slot in slots {
            if let Some(worker) = self.slots[slot].worker.take() {
                worker.shutdown().await;
            }
            self.start_worker(slot).await;
        }
    }

    /// The job's `shardingTotalCount` as stored (the initial count if it cannot be read).
    async fn total(&self) -> u32 {
        match self.admin.read_job(JOB).await {
            Ok(job) => job.total().unwrap_or(self.config.items),
            Err(_) => self.config.items,
        }
    }

    /// The slot whose worker leads the job, if any.
    async fn leader_slot(&self) -> Option<usize> {
        let leader = self.admin.read_job(JOB).await.ok()?.view.leader?;
        (0..self.slots.len()).find(|&s| self.instance(s).as_deref() == Some(leader.as_str()))
    }

    /// The items `instance` owns.
    async fn owned(&self, instance: Option<&str>) -> Vec<u32> {
        let Ok(job) = self.admin.read_job(JOB).await else { return Vec::new() };
        job.view.items.iter().filter(|(_, s)| s.owner.as_deref() == instance).map(|(i, _)| *i).collect()
    }
}

/// One request on a healthy link: served at once, or after the other ready tasks.
fn round_trip(rng: &mut Rng) -> LinkFault {
    if rng.below(2) == 0 { LinkFault::Yield } else { LinkFault::None }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
