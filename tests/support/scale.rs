//! ZooKeeper at scale on a 3-member ensemble: N in-process workers (each its own ZooKeeper
//! session over the ensemble's connect string, the code path of `ejctl run`) start J jobs of T
//! items each (a daily cron, so nothing fires), all at once; then instances join and leave and
//! every job reshards. Measured from the members' own counters (`mntr`, `wchs`, `srst` to reset
//! the latency statistics before each phase) and from a watch on the namespace.
//!
//! * **Settled**: every job has all live instances registered, no `leader/sharding/necessary`
//!   or `processing` node, and (read back from the registry) every item owned by the instance
//!   `AVG_ALLOCATION` gives it over the live instances.
//! * **Tree**: znodes, ephemerals and data bytes are the leader's counters (the tree is
//!   replicated, so every member holds the same); watches are `wchs` summed over the members
//!   (each member counts only the watches of the sessions connected to it).
//! * **Latency**: each member times the requests of its own clients; the figures combine the
//!   three members: the mean over all reads and writes (`zk_sum_*latency` / `zk_cnt_*latency`),
//!   the worst `zk_max_latency`, and the worst member's `zk_p99_readlatency` /
//!   `zk_p99_updatelatency` (3.8's summaries; percentiles of different members cannot be merged).
//! * **Reshard**: each round a new instance joins whose id sorts first in ElasticJob's order, so
//!   with more instances than items it takes item 0 of *every* job (all jobs reshard at once),
//!   then it stops gracefully (all jobs reshard again). Per job: from the event of its instance
//!   node (created, deleted) to the deletion of its `processing` node by the sharding
//!   transaction, as this process's watch sees them. The workers, the watch and the ensemble
//!   share the machine, so the times include this process's own scheduling delays.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use ejctl::config::JobConfig;
use ejctl::coord::strategy::{Strategy, assign, sort_instances_like_elasticjob};
use ejctl::registry::codec::JobType;
use ejctl::registry::path::{self, ItemLeaf, JobPaths, Node};
use ejctl::registry::{Registry, WatchEvent};
use ejctl::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::zk::{Member, ZkEnsemble, counter, four_letter, total_watches};
use super::{unique_ns, zk_options};

/// One step of the grid.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub instances: u32,
    pub jobs: usize,
    pub items: i32,
    /// Join-and-leave rounds.
    pub rounds: usize,
}

/// ZooKeeper's request latency over a phase, the three members combined.
#[derive(Debug, Clone, Default)]
pub struct Latency {
    /// Reads and writes timed.
    pub requests: i64,
    /// Their mean, in ms.
    pub avg_ms: f64,
    /// The slowest request of any member, in ms.
    pub max_ms: i64,
    /// The worst member's p99 of reads and of writes, in ms.
    pub read_p99_ms: i64,
    pub update_p99_ms: i64,
    /// The most requests outstanding on one member, sampled every 0.5 s.
    pub peak_outstanding: i64,
}

impl Latency {
    fn from_members(mntrs: &[HashMap<String, String>], peak_outstanding: i64) -> Latency {
        let sum = |k: &str| mntrs.iter().map(|m| counter(m, k)).sum::<i64>();
        let max = |k: &str| mntrs.iter().map(|m| counter(m, k)).max().unwrap_or(0);
        let requests = sum("zk_cnt_readlatency") + sum("zk_cnt_updatelatency");
        let total = sum("zk_sum_readlatency") + sum("zk_sum_updatelatency");
        Latency {
            requests,
            avg_ms: if requests > 0 { total as f64 / requests as f64 } else { 0.0 },
            max_ms: max("zk_max_latency"),
            read_p99_ms: max("zk_p99_readlatency"),
            update_p99_ms: max("zk_p99_updatelatency"),
            peak_outstanding,
        }
    }

    /// Both phases as one: the mean weighted by requests, the worst of the rest.
    fn merge(&self, other: &Latency) -> Latency {
        let requests = self.requests + other.requests;
        Latency {
            requests,
            avg_ms: if requests > 0 {
                (self.avg_ms * self.requests as f64 + other.avg_ms * other.requests as f64) / requests as f64
            } else {
                0.0
            },
            max_ms: self.max_ms.max(other.max_ms),
            read_p99_ms: self.read_p99_ms.max(other.read_p99_ms),
            update_p99_ms: self.update_p99_ms.max(other.update_p99_ms),
            peak_outstanding: self.peak_outstanding.max(other.peak_outstanding),
        }
    }

    pub fn json(&self) -> Value {
        json!({
            "requests": self.requests, "avg_ms": round2(self.avg_ms), "max_ms": self.max_ms,
            "read_p99_ms": self.read_p99_ms, "update_p99_ms": self.update_p99_ms,
            "peak_outstanding": self.peak_outstanding,
        })
    }

    fn row(&self) -> String {
        format!(
            "{:>8} requests, avg {:>5.2} ms, max {:>5} ms, p99 read {:>4} ms / write {:>4} ms, outstanding peak {:>5}",
            self.requests, self.avg_ms, self.max_ms, self.read_p99_ms, self.update_p99_ms, self.peak_outstanding
        )
    }
}

/// What one step measured.
#[derive(Debug, Clone)]
pub struct Step {
    pub shape: Shape,
    /// From the first worker's start to the whole grid settled.
    pub startup: Duration,
    pub znodes: i64,
    pub ephemerals: i64,
    pub data_bytes: i64,
    /// `wchs` summed over the members.
    pub watches: i64,
    /// Every member's `zk_znode_count` once settled (the same when replication kept up).
    pub member_znodes: Vec<i64>,
    /// The sessions on each member (`zk_num_alive_connections`, less this process's own).
    pub connections: Vec<i64>,
    /// The largest member's resident memory (JVM), in MiB.
    pub max_rss_mib: f64,
    pub startup_latency: Latency,
    pub reshard_latency: Latency,
    /// Per job and round, in ms: a join's and a leave's reshard.
    pub join_ms: Vec<f64>,
    pub leave_ms: Vec<f64>,
    /// Per round, in ms: from the change to the last job resharded (a join's includes the
    /// joiner's own start-up, which registers it in the jobs one after another).
    pub join_all_ms: Vec<f64>,
    pub leave_all_ms: Vec<f64>,
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// The `p` quantile (nearest rank) of unsorted values; 0 when empty.
pub fn quantile(values: &[f64], p: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    if v.is_empty() { 0.0 } else { v[((v.len() as f64 - 1.0) * p).round() as usize] }
}

impl Step {
    pub fn znodes_per_job(&self) -> f64 {
        self.znodes as f64 / self.shape.jobs as f64
    }

    pub fn json(&self) -> Value {
        let s = self.shape;
        let fig = |v: &[f64]| json!({"p50_ms": round2(quantile(v, 0.5)), "p99_ms": round2(quantile(v, 0.99)), "max_ms": round2(quantile(v, 1.0)), "n": v.len()});
        json!({
            "instances": s.instances, "jobs": s.jobs, "items": s.items, "rounds": s.rounds,
            "startup_s": round2(self.startup.as_secs_f64()),
            "znodes": self.znodes, "znodes_per_job": round2(self.znodes_per_job()),
            "ephemerals": self.ephemerals, "data_bytes": self.data_bytes,
            "data_bytes_per_job": round2(self.data_bytes as f64 / s.jobs as f64),
            "watches": self.watches,
            "member_znodes": self.member_znodes, "connections_per_member": self.connections,
            "max_member_rss_mib": round2(self.max_rss_mib),
            "startup_latency": self.startup_latency.json(),
            "reshard_latency": self.reshard_latency.json(),
            "reshard_join_per_job": fig(&self.join_ms), "reshard_leave_per_job": fig(&self.leave_ms),
            "reshard_join_all_jobs": fig(&self.join_all_ms), "reshard_leave_all_jobs": fig(&self.leave_all_ms),
        })
    }

    /// A few lines for a terminal.
    pub fn rows(&self) -> String {
        let s = self.shape;
        let pct = |v: &[f64]| format!("p50 {:>7.1} ms  p99 {:>7.1} ms", quantile(v, 0.5), quantile(v, 0.99));
        let all = |v: &[f64]| format!("max {:>8.1} ms", quantile(v, 1.0));
        format!(
            "{:>3} instances x {:>5} jobs x {} items: settled in {:>6.1} s; {:>8} znodes ({:.1}/job), {:>6} ephemerals, {:>6.1} MB data, {:>7} watches; sessions per member {:?}; largest member RSS {:.0} MiB\n\
             \x20     start-up ZooKeeper latency: {}\n\
             \x20     reshard  ZooKeeper latency: {}\n\
             \x20     reshard per job ({} rounds): join {}, leave {}; all jobs: join {} (start-up of the joiner included), leave {}",
            s.instances,
            s.jobs,
            s.items,
            self.startup.as_secs_f64(),
            self.znodes,
            self.znodes_per_job(),
            self.ephemerals,
            self.data_bytes as f64 / 1e6,
            self.watches,
            self.connections,
            self.max_rss_mib,
            self.startup_latency.row(),
            self.reshard_latency.row(),
            s.rounds,
            pct(&self.join_ms),
            pct(&self.leave_ms),
            all(&self.join_all_ms),
            all(&self.leave_all_ms),
        )
    }
}

fn mntr_all(ensemble: &ZkEnsemble) -> Vec<HashMap<String, String>> {
    ensemble.members.iter().map(Member::mntr).collect()
}

/// Resets every member's statistics (latencies, packet counts).
fn reset_stats(ensemble: &ZkEnsemble) {
    for m in &ensemble.members {
        four_letter(m.client_port, "srst");
    }
}

fn leader(ensemble: &ZkEnsemble) -> Result<&Member> {
    ensemble.members.iter().find(|m| m.mode() == "leader").context("the ensemble has no leader")
}

/// Samples `zk_outstanding_requests` on every member every 0.5 s on a thread of its own until
/// stopped; yields the largest value seen.
struct Sampler {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<i64>,
}

impl Sampler {
    fn start(ensemble: &ZkEnsemble) -> Sampler {
        let ports: Vec<u16> = ensemble.members.iter().map(|m| m.client_port).collect();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut peak = 0;
            while !flag.load(Ordering::Relaxed) {
                for &port in &ports {
                    let reply = four_letter(port, "mntr");
                    let n = reply
                        .lines()
                        .find_map(|l| l.strip_prefix("zk_outstanding_requests\t"))
                        .and_then(|v| v.trim().parse().ok())
                        .unwrap_or(0);
                    peak = peak.max(n);
                }
                std::thread::sleep(Duration::from_millis(500));
            }
            peak
        });
        Sampler { stop, thread }
    }

    fn finish(self) -> i64 {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap_or(0)
    }
}

/// Per job, what the watch showed.
#[derive(Default)]
struct JobState {
    instances: BTreeSet<String>,
    necessary: bool,
    processing: bool,
    /// The latest instance node event.
    changed: Option<Instant>,
    /// The latest deletion of `processing` (the end of a sharding transaction).
    resharded: Option<Instant>,
}

/// The namespace as a persistent recursive watch shows it, as far as sharding goes.
struct Tracker {
    jobs: HashMap<String, JobState>,
    /// Sharding transactions seen (deletions of `processing`).
    reshards: u64,
    events: mpsc::UnboundedReceiver<(Instant, WatchEvent)>,
}

impl Tracker {
    /// Watches the namespace root of `registry` (the watch is owned by a task of its own: its
    /// `next` is not cancel-safe) and stamps each event as it arrives.
    async fn start(registry: &Registry) -> Result<Tracker> {
        let mut watch = registry.watch_subtree(path::NAMESPACE_ROOT).await?;
        let (tx, events) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Some(event) = watch.next().await {
                if tx.send((Instant::now(), event)).is_err() {
                    break;
                }
            }
        });
        Ok(Tracker { jobs: HashMap::new(), reshards: 0, events })
    }

    fn apply(&mut self, at: Instant, event: WatchEvent) -> Result<()> {
        let (p, created) = match event {
            WatchEvent::Created(p) => (p, true),
            WatchEvent::Deleted(p) => (p, false),
            WatchEvent::Changed(_) => return Ok(()),
            WatchEvent::Resync => bail!("the measuring session lost events (reconnect)"),
        };
        let Some((job, node)) = path::parse(&p) else { return Ok(()) };
        let state = self.jobs.entry(job.to_string()).or_default();
        match node {
            Node::Instance(id) => {
                if created {
                    state.instances.insert(id);
                } else {
                    state.instances.remove(&id);
                }
                state.changed = Some(at);
            }
            Node::ShardingNecessary => state.necessary = created,
            Node::ShardingProcessing => {
                state.processing = created;
                if !created {
                    state.resharded = Some(at);
                    self.reshards += 1;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Applies events until `done` holds; an error after `deadline`.
    async fn until(&mut self, deadline: Instant, mut done: impl FnMut(&Tracker) -> bool) -> Result<()> {
        loop {
            while let Ok((at, event)) = self.events.try_recv() {
                self.apply(at, event)?;
            }
            if done(self) {
                return Ok(());
            }
            let next = tokio::time::timeout_at(deadline.into(), self.events.recv())
                .await
                .context("timed out waiting for the sharding to settle")?
                .context("the measuring watch ended")?;
            self.apply(next.0, next.1)?;
        }
    }

    /// Waits up to `wait` for one more event (none is fine).
    async fn more(&mut self, wait: Duration) -> Result<()> {
        if let Ok(Some((at, event))) = tokio::time::timeout(wait, self.events.recv()).await {
            self.apply(at, event)?;
        }
        Ok(())
    }

    /// Every job registered exactly `live`, with no sharding flag; with `after`, each job also
    /// resharded after its last instance change.
    fn quiet(&self, jobs: &[String], live: &BTreeSet<String>, after_change: bool) -> bool {
        jobs.iter().all(|j| {
            self.jobs.get(j).is_some_and(|s| {
                s.instances == *live
                    && !s.necessary
                    && !s.processing
                    && s.resharded.is_some()
                    && (!after_change || s.resharded >= s.changed)
            })
        })
    }
}

/// The owner `AVG_ALLOCATION` gives each item over `live` (the same for every job).
fn expected_owners(live: &BTreeSet<String>, items: i32) -> BTreeMap<u32, String> {
    let mut ids: Vec<String> = live.iter().cloned().collect();
    sort_instances_like_elasticjob(&mut ids);
    assign(Strategy::AverageAllocation, "any", &ids, items as u32, 0)
        .into_iter()
        .flat_map(|(id, items)| items.into_iter().map(move |i| (i, id.clone())))
        .collect()
}

/// True when every item of every job is owned as `expected` says (read from the registry).
async fn owners_as_expected(r: &Registry, jobs: &[String], expected: &BTreeMap<u32, String>) -> Result<bool> {
    for chunk in jobs.chunks(500) {
        let paths: Vec<String> = chunk
            .iter()
            .flat_map(|j| {
                let p = JobPaths::new(j);
                expected.keys().map(move |&i| p.item_leaf(i, ItemLeaf::Instance)).collect::<Vec<_>>()
            })
            .collect();
        let owners = r.get_many(&paths).await?;
        let want = chunk.iter().flat_map(|_| expected.values());
        if !owners.iter().zip(want).all(|(o, w)| o.as_ref().is_some_and(|n| n.text() == *w)) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Waits until the tracker is quiet over `live` and the owners read back as expected.
async fn settle(
    tracker: &mut Tracker,
    r: &Registry,
    jobs: &[String],
    live: &BTreeSet<String>,
    items: i32,
    after_change: bool,
    deadline: Instant,
) -> Result<()> {
    let expected = expected_owners(live, items);
    loop {
        tracker.until(deadline, |t| t.quiet(jobs, live, after_change)).await?;
        if owners_as_expected(r, jobs, &expected).await? {
            return Ok(());
        }
        // A leader has yet to see the last change: read again after its next sharding (or a
        // second), not in a loop of reads that would load the ensemble being measured.
        ensure!(Instant::now() < deadline, "timed out waiting for the owners to be as expected");
        let (seen, until) = (tracker.reshards, Instant::now() + Duration::from_secs(1));
        while tracker.reshards == seen && Instant::now() < until {
            tracker.more(Duration::from_millis(100)).await?;
        }
    }
}

fn job_name(j: usize) -> String {
    format!("scale{j:05}")
}

/// A worker with `jobs` jobs of `items` items, a daily cron.
async fn start_worker(connect: String, ns: String, ip: String, pid: u32, jobs: usize, items: i32) -> Result<Worker> {
    let defs = (0..jobs)
        .map(|j| {
            let mut config = JobConfig::new(&job_name(j), items);
            config.cron = Some("0 0 3 * * ?".into());
            config.props.insert("script.command.line".into(), "/bin/true".into());
            JobDefinition::new(JobType::Script, config)
        })
        .collect();
    let mut options = zk_options(&connect, &ns);
    // The most a server with a 1 s tick grants: thousands of sessions share two cores here.
    options.session_timeout = Duration::from_secs(20);
    let mut config = WorkerConfig::new(RegistryTarget::ZooKeeper(options), defs);
    config.ip = Some(ip);
    config.pid = Some(pid);
    Worker::start(config).await
}

/// Starts `shape.instances` workers at once on `ensemble` in a fresh namespace, waits until
/// settled, measures, then runs the join-and-leave rounds.
pub async fn measure(ensemble: &ZkEnsemble, shape: Shape, timeout: Duration) -> Result<Step> {
    let ns = unique_ns("scale");
    let connect = ensemble.connect_string();
    // The measuring session creates the namespace and watches it before any worker starts.
    let mut options = zk_options(&connect, &ns);
    options.session_timeout = Duration::from_secs(20);
    let r = Registry::connect(options).await?;
    let mut tracker = Tracker::start(&r).await?;
    let lead = leader(ensemble)?;
    let before = lead.mntr();
    let watches_before: i64 = ensemble.members.iter().map(|m| total_watches(m.client_port)).sum();
    let connections_before: Vec<i64> =
        mntr_all(ensemble).iter().map(|m| counter(m, "zk_num_alive_connections")).collect();
    let jobs: Vec<String> = (0..shape.jobs).map(job_name).collect();
    let deadline = Instant::now() + timeout;

    reset_stats(ensemble);
    let sampler = Sampler::start(ensemble);
    let started = Instant::now();
    let mut starts = tokio::task::JoinSet::new();
    for i in 1..=shape.instances {
        let ip = format!("10.0.{}.{}", i / 250, i % 250 + 1);
        starts.spawn(start_worker(connect.clone(), ns.clone(), ip, i, shape.jobs, shape.items));
    }
    let mut workers = Vec::new();
    while let Some(joined) = starts.join_next().await {
        workers.push(joined.context("worker start panicked")??);
    }
    let mut live: BTreeSet<String> = workers.iter().map(|w| w.instance_id().to_string()).collect();
    settle(&mut tracker, &r, &jobs, &live, shape.items, false, deadline).await?;
    let last = jobs.iter().filter_map(|j| tracker.jobs.get(j).and_then(|s| s.resharded)).max();
    let startup = last.unwrap_or_else(Instant::now).saturating_duration_since(started);
    let startup_latency = Latency::from_members(&mntr_all(ensemble), sampler.finish());

    let settled = mntr_all(ensemble);
    let lead_settled = lead.mntr();
    let d = |k: &str| counter(&lead_settled, k) - counter(&before, k);
    let watches = ensemble.members.iter().map(|m| total_watches(m.client_port)).sum::<i64>() - watches_before;
    let member_znodes = settled.iter().map(|m| counter(m, "zk_znode_count")).collect();
    let connections =
        settled.iter().zip(&connections_before).map(|(m, b)| counter(m, "zk_num_alive_connections") - b).collect();
    let max_rss_mib = ensemble.members.iter().filter_map(Member::rss_kib).max().map_or(0.0, |kib| kib as f64 / 1024.0);
    let (znodes, ephemerals, data_bytes) =
        (d("zk_znode_count"), d("zk_ephemerals_count"), d("zk_approximate_data_size"));

    // Rounds: a joiner that sorts first takes item 0 of every job, then leaves again.
    let mut reshard_latency: Option<Latency> = None;
    let (mut join_ms, mut leave_ms, mut join_all_ms, mut leave_all_ms) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for round in 0..shape.rounds {
        let round_u32 = u32::try_from(round).context("too many rounds")?;
        reset_stats(ensemble);
        let sampler = Sampler::start(ensemble);
        let ip = format!("10.9.{}.{}", round / 250, round % 250 + 1);
        let t0 = Instant::now();
        let joining =
            tokio::spawn(start_worker(connect.clone(), ns.clone(), ip, 100_000 + round_u32, shape.jobs, shape.items));
        // The tracker keeps up with events while the joiner registers.
        let joiner = loop {
            if joining.is_finished() {
                break joining.await.context("joiner panicked")??;
            }
            tracker.more(Duration::from_millis(50)).await?;
        };
        let id = joiner.instance_id().to_string();
        live.insert(id.clone());
        settle(&mut tracker, &r, &jobs, &live, shape.items, true, deadline).await?;
        collect(&tracker, &jobs, t0, &mut join_ms, &mut join_all_ms);
        let t0 = Instant::now();
        live.remove(&id);
        let leaving = tokio::spawn(joiner.shutdown());
        settle(&mut tracker, &r, &jobs, &live, shape.items, true, deadline).await?;
        collect(&tracker, &jobs, t0, &mut leave_ms, &mut leave_all_ms);
        leaving.await.context("leaver panicked")?;
        let latency = Latency::from_members(&mntr_all(ensemble), sampler.finish());
        reshard_latency = Some(reshard_latency.map_or(latency.clone(), |l| l.merge(&latency)));
    }
    // All at once: stopped one after another, each stop would make every job reshard over the
    // instances still there.
    let mut kills = tokio::task::JoinSet::new();
    for worker in workers {
        kills.spawn(worker.kill());
    }
    while kills.join_next().await.is_some() {}
    Ok(Step {
        shape,
        startup,
        znodes,
        ephemerals,
        data_bytes,
        watches,
        member_znodes,
        connections,
        max_rss_mib,
        startup_latency,
        reshard_latency: reshard_latency.unwrap_or_default(),
        join_ms,
        leave_ms,
        join_all_ms,
        leave_all_ms,
    })
}

/// Per job, its reshard time (instance change to `processing` deleted); and the round's: from
/// `t0` to the last job resharded.
fn collect(tracker: &Tracker, jobs: &[String], t0: Instant, per_job: &mut Vec<f64>, all: &mut Vec<f64>) {
    let mut last = t0;
    for j in jobs {
        if let Some(s) = tracker.jobs.get(j)
            && let (Some(changed), Some(resharded)) = (s.changed, s.resharded)
        {
            per_job.push(resharded.saturating_duration_since(changed).as_secs_f64() * 1e3);
            last = last.max(resharded);
        }
    }
    all.push(last.saturating_duration_since(t0).as_secs_f64() * 1e3);
}
