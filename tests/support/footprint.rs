//! What workers cost ZooKeeper, from the server's own counters (`mntr`, and `wchs` for watches):
//! in-process workers (each its own session, the code path of `ejctl run`) start J jobs of T
//! items each, settle, idle; the footprint is the difference in znodes, ephemerals, data bytes
//! and watches, and the requests of the start-up and of the idle window. Then, on fresh workers
//! in a namespace of their own, jobs that fire every second (`monitor_execution` on, as by
//! default): the reads and writes per fire per instance (`zk_cnt_readlatency` and
//! `zk_cnt_updatelatency`; pings count as reads, a multi as one write) over a window of whole
//! fires, less the idle rate.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use ejctl::config::JobConfig;
use ejctl::registry::codec::JobType;
use ejctl::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};
use serde_json::{Value, json};

use super::zk::{ZkServer, counter, four_letter, total_watches};
use super::{unique_ns, zk_options};

/// The measured footprint.
#[derive(Debug, Clone)]
pub struct Footprint {
    pub jobs: usize,
    pub instances: u32,
    pub items: i32,
    pub znodes: i64,
    pub ephemerals: i64,
    pub data_bytes: i64,
    pub watches: i64,
    pub startup_requests: i64,
    pub startup: Duration,
    pub idle_requests_per_s: f64,
    /// Reads and writes per second of the idle workers, all instances together.
    pub idle_reads_per_s: f64,
    pub idle_writes_per_s: f64,
    /// What a fire costs, when measured.
    pub fires: Option<FireCost>,
}

/// ZooKeeper requests per fire: `jobs` jobs (of the footprint's instances and items) at a
/// 1-second cron, over a window of `window` fires.
#[derive(Debug, Clone)]
pub struct FireCost {
    pub jobs: usize,
    pub window: u32,
    /// Per fire of a job per instance, idle traffic subtracted (clamped at 0: steady traffic
    /// replaces the pings).
    pub reads: f64,
    pub writes: f64,
    /// Every item had run the window's last fire when the window closed.
    pub complete: bool,
}

impl Footprint {
    pub fn znodes_per_job(&self) -> f64 {
        self.znodes as f64 / self.jobs as f64
    }

    pub fn startup_requests_per_job_per_instance(&self) -> f64 {
        self.startup_requests as f64 / (self.jobs as f64 * f64::from(self.instances))
    }

    pub fn watches_per_job_per_instance(&self) -> f64 {
        self.watches as f64 / (self.jobs as f64 * f64::from(self.instances))
    }

    pub fn json(&self) -> Value {
        let per_job = |v: i64| (v as f64 / self.jobs as f64 * 100.0).round() / 100.0;
        let per_job_instance = |v: f64| (v / (self.jobs as f64 * f64::from(self.instances)) * 100.0).round() / 100.0;
        json!({
            "jobs": self.jobs, "instances": self.instances, "items": self.items,
            "znodes_per_job": per_job(self.znodes), "ephemerals_per_job_per_instance": per_job_instance(self.ephemerals as f64),
            "data_bytes_per_job": per_job(self.data_bytes), "watches_per_job_per_instance": per_job_instance(self.watches as f64),
            "startup_requests_per_job_per_instance": per_job_instance(self.startup_requests as f64),
            "startup_s": (self.startup.as_secs_f64() * 100.0).round() / 100.0,
            "idle_requests_per_s_per_instance": (self.idle_requests_per_s / f64::from(self.instances) * 100.0).round() / 100.0,
            "per_fire_per_instance": self.fires.as_ref().map(|f| json!({
                "firing_jobs": f.jobs, "window_fires": f.window, "complete": f.complete,
                "reads": (f.reads * 100.0).round() / 100.0, "writes": (f.writes * 100.0).round() / 100.0,
            })),
        })
    }

    pub fn row(&self) -> String {
        let j = self.jobs as f64;
        let ji = j * f64::from(self.instances);
        format!(
            "{:>6} jobs x {:>3} instances x {:>2} items: per job {:>5.1} znodes, {:>6.0} bytes; per job and instance {:>4.2} ephemerals, {:>4.2} watches, {:>5.1} start-up requests; idle {:>5.2} requests/s per instance; start {:>6.2} s",
            self.jobs,
            self.instances,
            self.items,
            self.znodes as f64 / j,
            self.data_bytes as f64 / j,
            self.ephemerals as f64 / ji,
            self.watches as f64 / ji,
            self.startup_requests as f64 / ji,
            self.idle_requests_per_s / f64::from(self.instances),
            self.startup.as_secs_f64(),
        ) + &self.fires.as_ref().map_or_else(String::new, |f| {
            format!(
                "; per fire and instance {:.2} reads, {:.2} writes ({} jobs at a 1 s cron, {} fires{})",
                f.reads,
                f.writes,
                f.jobs,
                f.window,
                if f.complete { "" } else { ", NOT all run" }
            )
        })
    }
}

/// Waits until the server received at most `idle` requests (idle sessions ping) during a whole
/// second (or `timeout` passed); returns how many `mntr` requests it sent meanwhile.
async fn wait_quiet(server: &ZkServer, idle: i64, timeout: Duration) -> i64 {
    let deadline = Instant::now() + timeout;
    let mut polls = 0;
    while Instant::now() < deadline {
        let before = counter(&server.mntr(), "zk_packets_received");
        tokio::time::sleep(Duration::from_secs(1)).await;
        polls += 1;
        // The first `mntr` is a packet itself.
        if counter(&server.mntr(), "zk_packets_received") - before - 1 <= idle {
            break;
        }
    }
    // The `mntr` of each poll, the last one's included.
    polls * 2 - 1
}

/// Starts `instances` workers, one after the other, in namespace `ns`, with `jobs` script jobs
/// (`/bin/true`) of `items` items each at `cron`.
async fn start_workers(
    server: &ZkServer,
    ns: &str,
    jobs: usize,
    instances: u32,
    items: i32,
    cron: &str,
) -> Vec<Worker> {
    let mut workers = Vec::new();
    for i in 1..=instances {
        let defs = (0..jobs)
            .map(|j| {
                let mut config = JobConfig::new(&format!("fp{j}"), items);
                config.cron = Some(cron.into());
                config.props.insert("script.command.line".into(), "/bin/true".into());
                JobDefinition::new(JobType::Script, config)
            })
            .collect();
        let mut config = WorkerConfig::new(RegistryTarget::ZooKeeper(zk_options(&server.connect_string(), ns)), defs);
        config.ip = Some(format!("10.0.{}.{}", i / 250, i % 250 + 1));
        config.pid = Some(i);
        workers.push(Worker::start(config).await.unwrap());
    }
    workers
}

/// Milliseconds since the epoch.
fn epoch_ms() -> i64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
}

/// Sleeps until an instant given in milliseconds since the epoch.
async fn sleep_until_epoch_ms(at: i64) {
    let wait = u64::try_from(at - epoch_ms()).unwrap_or(0);
    tokio::time::sleep(Duration::from_millis(wait)).await;
}

/// Starts workers whose `jobs` jobs fire every second, lets two fires pass, and counts the reads
/// and writes of a window of `window` fires (from half a second before the first to half a
/// second after the last), per fire of a job per instance, less the idle rate.
async fn measure_fires(
    server: &ZkServer,
    jobs: usize,
    instances: u32,
    items: i32,
    window: u32,
    idle: (f64, f64),
) -> FireCost {
    let ns = unique_ns("footprint-fires");
    let workers = start_workers(server, &ns, jobs, instances, items, "* * * * * ?").await;
    // Two warm-up fires once everything started (the second instance's join reshards).
    let t0 = (epoch_ms() / 1000 + 3) * 1000 + 500;
    sleep_until_epoch_ms(t0).await;
    let a = server.mntr();
    sleep_until_epoch_ms(t0 + i64::from(window) * 1000).await;
    let b = server.mntr();
    let last_fire = t0 + i64::from(window) * 1000 - 500;
    let mut complete = true;
    let registry = workers[0].registry();
    for j in 0..jobs {
        for i in 0..items {
            let item = format!("/fp{j}/sharding/{i}");
            let started = registry.get(&item).await.ok().flatten().map(|n| n.text().trim().parse::<i64>().unwrap_or(0));
            complete &= started.is_some_and(|ms| ms >= last_fire);
        }
    }
    for worker in workers {
        worker.kill().await;
    }
    let per = f64::from(window) * f64::from(instances);
    let d = |k: &str| (counter(&b, k) - counter(&a, k)) as f64;
    // Per second per instance, less idle, then per job: per fire of a job per instance.
    let net = |total: f64, idle: f64| ((total / per - idle / f64::from(instances)) / jobs as f64).max(0.0);
    FireCost {
        jobs,
        window,
        reads: net(d("zk_cnt_readlatency"), idle.0),
        writes: net(d("zk_cnt_updatelatency"), idle.1),
        complete,
    }
}

/// Starts `instances` workers with `jobs` jobs of `items` items each (cron once a day) in a fresh
/// namespace, lets them settle, idles for `idle`, and measures; then, when `fires` is given as
/// `(jobs, window)`, what a fire costs (see [`FireCost`]).
pub async fn measure(
    server: &ZkServer,
    jobs: usize,
    instances: u32,
    items: i32,
    idle: Duration,
    fires: Option<(usize, u32)>,
) -> Footprint {
    let ns = unique_ns("footprint");
    let before = server.mntr();
    let watches_before = total_watches(server.port());
    let started = Instant::now();
    let workers = start_workers(server, &ns, jobs, instances, items, "0 0 3 * * ?").await;
    let startup = started.elapsed();
    let polls = wait_quiet(server, 2 * i64::from(instances), Duration::from_secs(120)).await;
    let settled = server.mntr();
    let watches = total_watches(server.port()) - watches_before;
    let idle_start = Instant::now();
    tokio::time::sleep(idle).await;
    let after = server.mntr();
    let idle_s = idle_start.elapsed().as_secs_f64();
    let d = |a: &HashMap<String, String>, b: &HashMap<String, String>, k: &str| counter(b, k) - counter(a, k);
    let footprint = Footprint {
        jobs,
        instances,
        items,
        // The namespace node itself is not the jobs'.
        znodes: d(&before, &settled, "zk_znode_count") - 1,
        ephemerals: d(&before, &settled, "zk_ephemerals_count"),
        data_bytes: d(&before, &settled, "zk_approximate_data_size"),
        watches,
        // Less this module's own requests: the `wchs`, the polls and the last `mntr`.
        startup_requests: d(&before, &settled, "zk_packets_received") - polls - 2,
        startup,
        // One packet is the second `mntr` itself.
        idle_requests_per_s: (d(&settled, &after, "zk_packets_received") - 1) as f64 / idle_s,
        idle_reads_per_s: d(&settled, &after, "zk_cnt_readlatency") as f64 / idle_s,
        idle_writes_per_s: d(&settled, &after, "zk_cnt_updatelatency") as f64 / idle_s,
        fires: None,
    };
    for worker in workers {
        worker.kill().await;
    }
    let idle_rate = (footprint.idle_reads_per_s, footprint.idle_writes_per_s);
    let fires = match fires {
        Some((jobs, window)) => Some(measure_fires(server, jobs, instances, items, window, idle_rate).await),
        None => None,
    };
    Footprint { fires, ..footprint }
}
