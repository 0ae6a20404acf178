//! Worker clusters for runtime tests, observed through what their script jobs record.
//!
//! A [`Cluster`] is either real `ejctl run` processes on a real ZooKeeper, or in-process
//! [`Worker`]s sharing one embedded registry; scenarios are written once against it. Every job
//! runs [`RECORD_SCRIPT`], which appends `fire item instance start end` (milliseconds since the
//! epoch) to a file, so a scenario checks what actually ran, where and when.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use ejctl::jobfile;
use ejctl::registry::embedded::EmbeddedStore;
use ejctl::registry::path::JobPaths;
use ejctl::registry::{Mode, Registry, ZkOptions};
use ejctl::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};

use super::proxy::Proxy;
pub use super::signal;
use super::{ZkServer, read_records, unique_ns, wait_exit, write_script, zk_options};

/// Appends one line per completed run to the record file (its first argument): the fire
/// instant, the item, the instance id, start and end; and at start one line to `RECORD.starts`
/// with the script's pid instead of the end. It sleeps for the seconds in `RECORD.sleep`, when
/// that file exists. A killed run leaves a start line without an end line.
pub const RECORD_SCRIPT: &str = r#"#!/bin/sh
start=$(date +%s%3N)
inst=${EJCTL_TASK_ID##*@-@READY@-@}
echo "$EJCTL_FIRE_TIME $EJCTL_SHARDING_ITEM $inst $start $$" >> "$1.starts"
d=$(cat "$1.sleep" 2>/dev/null)
[ -n "$d" ] && sleep "$d"
end=$(date +%s%3N)
echo "$EJCTL_FIRE_TIME $EJCTL_SHARDING_ITEM $inst $start $end" >> "$1"
"#;

/// Options of a cluster.
#[derive(Debug, Clone)]
pub struct ClusterOptions {
    /// The workers' session timeout.
    pub session_timeout_ms: u64,
    /// The workers' kill grace.
    pub kill_grace_seconds: u64,
    /// The workers' fencing timeout (`None`: the default, half the session timeout).
    pub fencing_timeout_ms: Option<u64>,
    /// Put a TCP proxy between each process worker and ZooKeeper.
    pub proxied: bool,
    /// The ZooKeeper server's tick time (session expiry happens on tick boundaries).
    pub tick_ms: u32,
    /// The workers' graceful-stop timeout.
    pub shutdown_timeout_seconds: u64,
    /// The workers' dump port (process clusters).
    pub dump_port: Option<u16>,
    /// The body of the workers' `[trace]` table, if any.
    pub trace: Option<String>,
    /// Give each worker an HTTP endpoint on a free loopback port (see [`Cluster::http`]).
    pub http: bool,
}

impl Default for ClusterOptions {
    fn default() -> ClusterOptions {
        ClusterOptions {
            session_timeout_ms: 10_000,
            kill_grace_seconds: 2,
            fencing_timeout_ms: None,
            proxied: false,
            tick_ms: 1000,
            shutdown_timeout_seconds: 20,
            dump_port: None,
            trace: None,
            http: false,
        }
    }
}

/// One recorded run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub fire: i64,
    pub item: u32,
    pub instance: String,
    pub start: i64,
    pub end: i64,
}

/// An instance of the cluster.
enum Instance {
    Process { child: Child, id: String, proxy: Option<Proxy> },
    InProcess { worker: Option<Worker>, id: String },
}

impl Instance {
    fn id(&self) -> &str {
        match self {
            Instance::Process { id, .. } | Instance::InProcess { id, .. } => id,
        }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        if let Instance::Process { child, .. } = self {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

enum Backend {
    Zk { server: ZkServer, ns: String },
    Embedded { store: EmbeddedStore },
}

/// A set of workers running one job.
pub struct Cluster {
    backend: Backend,
    pub dir: tempfile::TempDir,
    pub record: PathBuf,
    /// The `[[job]]` table (without the `[[job]]` header).
    job: String,
    pub job_name: String,
    instances: Vec<Instance>,
    /// A registry session for the test's own reads and admin-like writes.
    pub registry: Registry,
    pub options: ClusterOptions,
    /// Each instance's HTTP endpoint port, when `options.http`.
    http_ports: Vec<Option<u16>>,
}

impl Cluster {
    /// A cluster of `ejctl run` processes on a fresh ZooKeeper.
    pub async fn zookeeper(job_name: &str, job: &str) -> Cluster {
        Cluster::zookeeper_with(job_name, job, ClusterOptions::default()).await
    }

    /// A cluster of `ejctl run` processes on a fresh ZooKeeper, with options.
    pub async fn zookeeper_with(job_name: &str, job: &str, options: ClusterOptions) -> Cluster {
        let server = ZkServer::start_with_tick(options.tick_ms);
        let ns = unique_ns("run");
        let registry = Registry::connect(zk_options(&server.connect_string(), &ns)).await.unwrap();
        let mut c = Cluster::new(Backend::Zk { server, ns }, registry, job_name, job);
        c.options = options;
        c
    }

    /// A cluster of in-process workers on an embedded registry.
    pub async fn embedded(job_name: &str, job: &str) -> Cluster {
        let store = EmbeddedStore::new();
        let registry = Registry::embedded(&store);
        Cluster::new(Backend::Embedded { store }, registry, job_name, job)
    }

    fn new(backend: Backend, registry: Registry, job_name: &str, job: &str) -> Cluster {
        let dir = tempfile::Builder::new().prefix("ejctl-run-").tempdir().unwrap();
        let script = dir.path().join("record.sh");
        write_script(&script, RECORD_SCRIPT);
        let record = dir.path().join("runs.txt");
        let job =
            job.replace("{script}", &script.display().to_string()).replace("{record}", &record.display().to_string());
        Cluster {
            backend,
            dir,
            record,
            job,
            job_name: job_name.to_string(),
            instances: Vec::new(),
            registry,
            options: ClusterOptions::default(),
            http_ports: Vec::new(),
        }
    }

    /// The job's node paths.
    pub fn paths(&self) -> JobPaths {
        JobPaths::new(&self.job_name)
    }

    fn job_file(&self, ip: &str, servers: Option<&str>, http: Option<u16>) -> String {
        let o = &self.options;
        let registry = match (&self.backend, servers) {
            (Backend::Zk { ns, .. }, Some(servers)) => {
                let fencing = o.fencing_timeout_ms.map(|f| format!("fencing_timeout_ms = {f}\n")).unwrap_or_default();
                format!(
                    "[registry]\nservers = \"{servers}\"\nnamespace = \"{ns}\"\nsession_timeout_ms = {}\nconnection_timeout_ms = 5000\n{fencing}\n",
                    o.session_timeout_ms
                )
            }
            _ => String::new(),
        };
        let mut dump = o.dump_port.map(|p| format!("dump_port = {p}\n")).unwrap_or_default();
        if let Some(port) = http {
            dump.push_str(&format!("http = \"127.0.0.1:{port}\"\n"));
        }
        let trace = o.trace.as_ref().map(|t| format!("[trace]\n{t}\n\n")).unwrap_or_default();
        format!(
            "{registry}{trace}[instance]\nip = \"{ip}\"\n{dump}shutdown_timeout_seconds = {}\nkill_grace_seconds = {}\n\n[[job]]\n{}\n",
            o.shutdown_timeout_seconds, o.kill_grace_seconds, self.job
        )
    }

    /// Sets (or with `None` removes) how long the record script sleeps.
    pub fn set_sleep(&self, seconds: Option<f64>) {
        let file = self.record.with_extension("txt.sleep");
        match seconds {
            Some(s) => std::fs::write(file, format!("{s}\n")).unwrap(),
            None => {
                let _ = std::fs::remove_file(file);
            }
        }
    }

    /// Starts an instance with this IP and waits until it is registered. Returns its index.
    pub async fn start(&mut self, ip: &str) -> usize {
        let index = self.instances.len();
        let http = self.options.http.then(crate::support::zk::free_port);
        self.http_ports.push(http);
        let file = self.dir.path().join(format!("worker-{index}.toml"));
        let instance = match &self.backend {
            Backend::Zk { server, .. } => {
                let proxy = self.options.proxied.then(|| Proxy::start(([127, 0, 0, 1], server.port()).into()));
                let servers = proxy.as_ref().map_or_else(|| server.connect_string(), Proxy::addr);
                std::fs::write(&file, self.job_file(ip, Some(&servers), http)).unwrap();
                let log = std::fs::File::create(self.dir.path().join(format!("worker-{index}.log"))).unwrap();
                let child = Command::new(env!("CARGO_BIN_EXE_ejctl"))
                    .arg("run")
                    .arg(&file)
                    .env("RUST_LOG", "ejctl=debug")
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(log)
                    .spawn()
                    .unwrap();
                let id = format!("{ip}@-@{}", child.id());
                Instance::Process { child, id, proxy }
            }
            Backend::Embedded { store } => {
                std::fs::write(&file, self.job_file(ip, None, http)).unwrap();
                let files = jobfile::load(&[file]).unwrap();
                let jobs = files.jobs.into_iter().map(|j| JobDefinition::new(j.job_type, j.config)).collect();
                let mut config = WorkerConfig::new(RegistryTarget::Embedded(store.clone()), jobs);
                config.ip = Some(ip.to_string());
                config.pid = Some(1000 + u32::try_from(index).unwrap());
                config.kill_grace = Duration::from_secs(self.options.kill_grace_seconds);
                config.trace = files.trace.clone();
                config.http = files.instance.http;
                let worker = Worker::start(config).await.unwrap();
                let id = worker.instance_id().to_string();
                Instance::InProcess { worker: Some(worker), id }
            }
        };
        let path = self.paths().instance(instance.id());
        self.instances.push(instance);
        self.wait_until(30, "the instance to register", async |c| c.registry.exists(&path).await.unwrap().is_some())
            .await;
        index
    }

    /// The base URL of instance `i`'s HTTP endpoint (`options.http`).
    pub fn http(&self, i: usize) -> String {
        let port = self.http_ports[i].expect("the cluster was started with `http: true`");
        format!("http://127.0.0.1:{port}")
    }

    /// The instance id of instance `i`.
    pub fn id(&self, i: usize) -> String {
        self.instances[i].id().to_string()
    }

    /// Stops instance `i` gracefully and waits until it is gone.
    pub async fn stop(&mut self, i: usize) {
        match &mut self.instances[i] {
            Instance::Process { child, .. } => {
                signal(child.id(), "TERM");
                let status = tokio::task::block_in_place(|| wait_exit(child, Duration::from_secs(60)));
                assert_eq!(status, Some(0), "graceful stop exits 0");
            }
            Instance::InProcess { worker, .. } => {
                if let Some(w) = worker.take() {
                    w.shutdown().await;
                }
            }
        }
    }

    /// Waits for process instance `i` to exit (after a signal) and returns its exit code; after
    /// `timeout` it is killed (`None`).
    pub fn wait_exit(&mut self, i: usize, timeout: Duration) -> Option<i32> {
        match &mut self.instances[i] {
            Instance::Process { child, .. } => tokio::task::block_in_place(|| wait_exit(child, timeout)),
            Instance::InProcess { .. } => panic!("instance {i} is in-process"),
        }
    }

    /// What `ejctl job trigger` writes: a trigger node per instance in `ids`.
    pub async fn trigger(&self, ids: &[String]) {
        let paths = self.paths();
        self.registry.delete_recursive(&paths.triggers()).await.unwrap();
        for id in ids {
            self.registry.create(&paths.trigger(id), b"", Mode::Persistent).await.unwrap();
        }
    }

    /// SIGKILLs process instance `i` (its scripts die with it); returns the instant, epoch ms.
    pub fn kill(&mut self, i: usize) -> i64 {
        let now = chrono::Utc::now().timestamp_millis();
        if let Instance::Process { child, .. } = &mut self.instances[i] {
            let _ = child.kill();
            let _ = child.wait();
        }
        now
    }

    /// The pid of process instance `i`.
    pub fn pid(&self, i: usize) -> u32 {
        match &self.instances[i] {
            Instance::Process { child, .. } => child.id(),
            Instance::InProcess { .. } => std::process::id(),
        }
    }

    /// Whether process instance `i` is still the process `start` spawned (it has not exited).
    pub fn is_running(&mut self, i: usize) -> bool {
        match &mut self.instances[i] {
            Instance::Process { child, .. } => matches!(child.try_wait(), Ok(None)),
            Instance::InProcess { worker, .. } => worker.is_some(),
        }
    }

    /// The proxy in front of process instance `i`.
    pub fn proxy(&self, i: usize) -> &Proxy {
        match &self.instances[i] {
            Instance::Process { proxy: Some(p), .. } => p,
            _ => panic!("instance {i} has no proxy"),
        }
    }

    /// The ZooKeeper server of a process cluster.
    pub fn server(&mut self) -> &mut ZkServer {
        match &mut self.backend {
            Backend::Zk { server, .. } => server,
            Backend::Embedded { .. } => panic!("an embedded cluster has no server"),
        }
    }

    /// Every run started so far: `(fire, item, instance, start, pid)`.
    pub fn starts(&self) -> Vec<(i64, u32, String, i64, u32)> {
        read_records(&self.record.with_extension("txt.starts"))
            .into_iter()
            .map(|(fire, item, instance, start, pid)| (fire, item, instance, start, u32::try_from(pid).unwrap_or(0)))
            .collect()
    }

    /// Every run recorded so far, in file order.
    pub fn runs(&self) -> Vec<Run> {
        read_records(&self.record)
            .into_iter()
            .map(|(fire, item, instance, start, end)| Run { fire, item, instance, start, end })
            .collect()
    }

    /// Runs grouped by fire instant.
    pub fn runs_by_fire(&self) -> BTreeMap<i64, Vec<Run>> {
        let mut out: BTreeMap<i64, Vec<Run>> = BTreeMap::new();
        for r in self.runs() {
            out.entry(r.fire).or_default().push(r);
        }
        out
    }

    /// Polls `check` every 50 ms until it holds (test code; the product never polls).
    pub async fn wait_until(&self, secs: u64, what: &str, check: impl AsyncFn(&Cluster) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        while !check(self).await {
            if tokio::time::Instant::now() >= deadline {
                let kept = self.preserve();
                panic!(
                    "timed out after {secs}s waiting for {what}; records and logs copied to {kept}\n{}",
                    self.logs()
                );
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the leader has sharded over exactly `ids` (no flag left, every item owned by
    /// one of them and each of them owning an item when there are enough items).
    pub async fn wait_settled(&self, ids: &[String], total: u32) {
        let ids: BTreeSet<String> = ids.iter().cloned().collect();
        self.wait_until(30, &format!("sharding over {ids:?}"), async |c| {
            let paths = c.paths();
            if c.registry.exists(&paths.sharding_necessary()).await.unwrap().is_some() {
                return false;
            }
            let mut owners = BTreeSet::new();
            for i in 0..total {
                let leaf = paths.item_leaf(i, ejctl::registry::path::ItemLeaf::Instance);
                match c.registry.get(&leaf).await.unwrap() {
                    Some(n) => owners.insert(n.text()),
                    None => return false,
                };
            }
            owners.is_subset(&ids) && (owners.len() == ids.len() || total < ids.len() as u32)
        })
        .await;
    }

    /// Waits until every item in `items` has a completed run for fire `fire`.
    pub async fn wait_fire(&self, fire: i64, items: u32) {
        self.wait_until(30, &format!("fire {fire} to complete"), async |c| {
            let done: BTreeSet<u32> = c.runs().iter().filter(|r| r.fire == fire).map(|r| r.item).collect();
            done.len() as u32 >= items
        })
        .await;
    }

    /// Copies the records and logs out of the temporary directory (which is removed on drop), for
    /// a failing test to point at.
    pub fn preserve(&self) -> String {
        let kept = std::env::temp_dir().join(format!("ejctl-failed-{}", unique_ns("run")));
        let _ = std::fs::create_dir_all(&kept);
        if let Ok(entries) = std::fs::read_dir(self.dir.path()) {
            for e in entries.flatten() {
                let _ = std::fs::copy(e.path(), kept.join(e.file_name()));
            }
        }
        kept.display().to_string()
    }

    /// The log of process instance `i` so far.
    pub fn log(&self, i: usize) -> String {
        std::fs::read_to_string(self.dir.path().join(format!("worker-{i}.log"))).unwrap_or_default()
    }

    /// The workers' logs (process clusters), for failure messages.
    pub fn logs(&self) -> String {
        let mut out = String::new();
        for i in 0..self.instances.len() {
            if let Ok(log) = std::fs::read_to_string(self.dir.path().join(format!("worker-{i}.log"))) {
                let tail: Vec<&str> = log.lines().rev().take(40).collect();
                out.push_str(&format!("--- worker {i} (last lines)\n"));
                for l in tail.into_iter().rev() {
                    out.push_str(l);
                    out.push('\n');
                }
            }
        }
        out
    }

    /// ZooKeeper options for another session on the cluster's registry (process clusters).
    pub fn zk(&self) -> Option<ZkOptions> {
        match &self.backend {
            Backend::Zk { server, ns } => Some(zk_options(&server.connect_string(), ns)),
            Backend::Embedded { .. } => None,
        }
    }
}

/// The next whole-second fire instant at least `after_ms` from now, in epoch milliseconds.
pub fn next_second_fire(after_ms: i64) -> i64 {
    let t = chrono::Utc::now().timestamp_millis() + after_ms;
    (t / 1000 + 1) * 1000
}
