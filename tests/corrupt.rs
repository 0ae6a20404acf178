//! Corrupt registry data never takes a worker down: for each kind of bad data, a real `ejctl run`
//! process with two jobs keeps running the healthy one, reports the fault of the other, and runs
//! it again once the data is fixed; admin commands show the fault instead of failing. Hostile
//! configurations (deep nesting, alias bombs, oversized nodes) over four of five jobs leave the
//! fifth firing on schedule and the HTTP endpoint answering.

use std::path::{Path, PathBuf};

use ejctl::registry::path::{ItemLeaf, JobPaths};
use ejctl::registry::{Mode, Registry};

use crate::security::{WorkerProcess, job_file, marker_job};
use crate::support::{ZkServer, ejctl_on, eventually, unique_ns, zk_options};

/// One megabyte, below ZooKeeper's 1 MiB packet limit with the request around it.
const MEGABYTE: usize = 1_000_000;

struct Scene {
    server: ZkServer,
    ns: String,
    registry: Registry,
    _dir: tempfile::TempDir,
    file: PathBuf,
    healthy: PathBuf,
    victim: PathBuf,
    worker: Option<WorkerProcess>,
}

fn count(path: &Path) -> usize {
    std::fs::read_to_string(path).map(|t| t.lines().count()).unwrap_or(0)
}

impl Scene {
    /// A ZooKeeper server and a worker running the jobs `healthy` and `victim` every second.
    async fn start() -> Scene {
        let server = ZkServer::start();
        let ns = unique_ns("corrupt");
        let dir = tempfile::tempdir().unwrap();
        let (healthy_job, healthy) = marker_job(dir.path(), "healthy", "h");
        let (victim_job, victim) = marker_job(dir.path(), "victim", "v");
        let jobs = format!("{healthy_job}{victim_job}");
        let file = job_file(dir.path(), &server.connect_string(), &ns, "session_timeout_ms = 10000\n", &jobs);
        let registry = Registry::connect(zk_options(&server.connect_string(), &ns)).await.unwrap();
        let mut scene = Scene { server, ns, registry, _dir: dir, file, healthy, victim, worker: None };
        scene.start_worker();
        scene.wait_runs("both jobs run", 1, 1).await;
        scene
    }

    fn start_worker(&mut self) {
        self.worker = Some(WorkerProcess::start(&self.file, &[]));
    }

    fn log(&self) -> String {
        self.worker.as_ref().map(WorkerProcess::log).unwrap_or_default()
    }

    fn paths(&self) -> JobPaths {
        JobPaths::new("victim")
    }

    /// Waits until `healthy` and `victim` have run `h` and `v` more times.
    async fn wait_runs(&self, what: &str, h: usize, v: usize) {
        let (h0, v0) = (count(&self.healthy), count(&self.victim));
        eventually(40, what, async || count(&self.healthy) >= h0 + h && count(&self.victim) >= v0 + v).await;
    }

    /// The worker reports `fault` and keeps running the healthy job.
    async fn wait_fault(&self, fault: &str) {
        eventually(40, &format!("the fault '{fault}' in the log"), async || self.log().contains(fault)).await;
        self.wait_runs("the healthy job running on", 3, 0).await;
        self.assert_alive();
    }

    fn assert_alive(&self) {
        let log = self.log();
        assert!(!log.contains("panicked"), "{log}");
        let status = std::process::Command::new("kill").arg("-0").arg(self.pid().to_string()).status().unwrap();
        assert!(status.success(), "the worker died:\n{log}");
    }

    fn pid(&self) -> u32 {
        self.worker.as_ref().map(WorkerProcess::pid).unwrap()
    }

    async fn set(&self, path: &str, data: &[u8]) {
        self.registry.set(path, data, None).await.unwrap();
    }

    async fn config(&self) -> String {
        self.registry.get(&self.paths().config()).await.unwrap().unwrap().text()
    }

    /// `job list` and `job show victim` succeed and name `fault` (JSON).
    fn assert_admin_shows(&self, fault: &str) {
        let list = ejctl_on(&self.server, &self.ns).args(["job", "list", "-o", "json"]).assert().success();
        let list = String::from_utf8_lossy(&list.get_output().stdout).into_owned();
        assert!(list.contains("\"healthy\"") && list.contains("\"victim\""), "{list}");
        let show = ejctl_on(&self.server, &self.ns).args(["job", "show", "victim", "-o", "json"]).assert().success();
        let show = String::from_utf8_lossy(&show.get_output().stdout).into_owned();
        assert!(show.contains(fault), "job show does not name '{fault}': {show}");
    }
}

/// Corrupts the configuration while the worker runs, checks the fault is reported and the
/// healthy job unaffected, restarts the worker on the bad data, then fixes it.
async fn config_fault(bad: Vec<u8>, fault: &str, admin_fault: &str) {
    let mut scene = Scene::start().await;
    let good = scene.config().await;
    let config = scene.paths().config();
    scene.set(&config, &bad).await;
    scene.wait_fault(fault).await;
    scene.assert_admin_shows(admin_fault);
    // A worker started on the bad data starts, runs the healthy job, refuses the victim's fires.
    scene.worker.as_mut().unwrap().stop();
    scene.start_worker();
    scene.wait_fault(fault).await;
    let before = count(&scene.victim);
    scene.wait_runs("the healthy job after a restart", 2, 0).await;
    assert_eq!(count(&scene.victim), before, "the victim ran on a bad configuration");
    // Fixed: the victim runs again.
    scene.set(&config, good.as_bytes()).await;
    scene.wait_runs("the victim after the fix", 2, 2).await;
    scene.assert_alive();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_config() {
    config_fault(b"\x00\xff{{ not: [yaml".to_vec(), "invalid configuration", "configError").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn truncated_config() {
    let truncated = b"cron: '* * * * * ?'\njobName: victim\nshardingTotalCount: 1\nprops:\n  script.command.line: 'x";
    config_fault(truncated.to_vec(), "invalid configuration", "configError").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn config_with_wrong_types() {
    config_fault(
        b"cron: 5\njobName: victim\nshardingTotalCount: many\n".to_vec(),
        "invalid configuration",
        "configError",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn config_that_decodes_but_is_invalid() {
    config_fault(
        b"cron: every minute\njobName: victim\nshardingTotalCount: 1\n".to_vec(),
        "invalid configuration",
        "victim",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn megabyte_values() {
    let scene = Scene::start().await;
    let paths = scene.paths();
    let big = "x".repeat(MEGABYTE);
    // A valid configuration with a 1 MB description is a configuration like any other.
    let config = scene.config().await;
    let with_big = format!("{config}description: {big}\n");
    scene.set(&paths.config(), with_big.as_bytes()).await;
    // 1 MB in an instance node, the sharding node and a trigger node.
    let instances = scene.registry.children(&paths.instances()).await.unwrap().unwrap();
    scene.set(&paths.instance(&instances[0]), big.as_bytes()).await;
    scene.set(&paths.item(0), big.as_bytes()).await;
    scene.wait_runs("both jobs with 1 MB values around", 3, 3).await;
    scene.assert_alive();
    scene.assert_admin_shows("victim");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_nodes_and_wrong_modes() {
    let mut scene = Scene::start().await;
    let paths = scene.paths();
    let good = scene.config().await;
    // The configuration deleted: the job keeps its configuration and says so.
    scene.registry.delete(&paths.config(), None).await.unwrap();
    scene.wait_fault("is gone").await;
    ejctl_on(&scene.server, &scene.ns).args(["job", "list", "-o", "json"]).assert().success();
    scene.registry.create(&paths.config(), good.as_bytes(), Mode::Persistent).await.unwrap();
    scene.wait_runs("the victim with its configuration back", 2, 2).await;
    // Persistent instance nodes (of nobody; workers register ephemeral ones), sorted before and
    // after the live one: no item is assigned to them, so nothing stops running.
    for ghost in ["0.0.0.1@-@1", "255.255.255.255@-@1"] {
        let ip = ghost.split("@-@").next().unwrap();
        scene.registry.create(&paths.server(ip), b"", Mode::Persistent).await.unwrap();
        scene.registry.create(&paths.instance(ghost), b"", Mode::Persistent).await.unwrap();
    }
    // A new worker process (a new instance id): the leader reshards, without the ghosts.
    scene.worker.as_mut().unwrap().stop();
    scene.start_worker();
    scene.wait_runs("both jobs after instance nodes of the wrong mode", 3, 3).await;
    let owner = scene.registry.get(&paths.item_leaf(0, ItemLeaf::Instance)).await.unwrap().unwrap().text();
    assert!(!["0.0.0.1@-@1", "255.255.255.255@-@1"].contains(&owner.as_str()), "item 0 went to a ghost: {owner}");
    scene.assert_alive();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_job_type() {
    let mut scene = Scene::start().await;
    let root = scene.paths().root().to_string();
    // The running worker says each change, with both values escaped, and runs its job file's
    // type.
    scene.set(&root, b"Evil\nforged line").await;
    let said = r#"old="SCRIPT" new="Evil\nforged line" runs=SCRIPT"#;
    eventually(40, "the change of the job root logged", async || scene.log().contains(said)).await;
    scene.set(&root, b"com.example.NoSuchJob").await;
    let said = r#"old="Evil\nforged line" new="com.example.NoSuchJob" runs=SCRIPT"#;
    eventually(40, "the second change logged", async || scene.log().contains(said)).await;
    let log = scene.log();
    let line = log.lines().find(|l| l.contains(said)).unwrap_or_default();
    assert!(line.contains("WARN") && line.contains("victim"), "{line}");
    assert!(!log.lines().any(|l| l.starts_with("forged")), "{log}");
    scene.wait_runs("both jobs with an unknown type in the registry", 2, 2).await;
    scene.assert_admin_shows("com.example.NoSuchJob");
    // A worker started on it: it says so and runs its job file's type.
    scene.worker.as_mut().unwrap().stop();
    scene.start_worker();
    scene.wait_fault("com.example.NoSuchJob").await;
    scene.wait_runs("both jobs", 2, 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sharding_nodes_beyond_the_total() {
    let scene = Scene::start().await;
    let paths = scene.paths();
    let instances = scene.registry.children(&paths.instances()).await.unwrap().unwrap();
    for item in [1, 7, 4096] {
        scene.registry.create(&paths.item(item), b"", Mode::Persistent).await.unwrap();
        scene
            .registry
            .create(&paths.item_leaf(item, ItemLeaf::Instance), instances[0].as_bytes(), Mode::Persistent)
            .await
            .unwrap();
    }
    scene.wait_runs("both jobs with items beyond the total", 3, 3).await;
    scene.assert_alive();
    // Only item 0 ran.
    let runs = std::fs::read_to_string(&scene.victim).unwrap();
    assert!(runs.lines().all(|l| l == "v"), "{runs}");
    scene.assert_admin_shows("victim");
    ejctl_on(&scene.server, &scene.ns).args(["sharding", "show", "victim", "-o", "json"]).assert().success();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instance_yaml_that_is_not_yaml() {
    let scene = Scene::start().await;
    let paths = scene.paths();
    let instances = scene.registry.children(&paths.instances()).await.unwrap().unwrap();
    scene.set(&paths.instance(&instances[0]), b"\x00\xff: [unclosed").await;
    scene.registry.create(&paths.instance("10.9.9.8@-@2"), b"{{{", Mode::Ephemeral).await.unwrap();
    scene.wait_runs("both jobs with instance data that is not YAML", 3, 3).await;
    scene.assert_alive();
    scene.assert_admin_shows("victim");
    ejctl_on(&scene.server, &scene.ns).args(["instance", "list", "-o", "json"]).assert().success();
}

/// `/readyz` of a worker's HTTP endpoint: its status, or 0 when it does not answer in 5 s.
async fn readyz(url: &str) -> u16 {
    let client = reqwest::Client::builder().timeout(std::time::Duration::from_secs(5)).build().unwrap();
    client.get(url).send().await.map_or(0, |r| r.status().as_u16())
}

/// Hostile configuration nodes (nesting that costs the parser time quadratic in its depth, alias
/// bombs, a node of 1 MB) written over four of a worker's five jobs: the worker refuses each,
/// the fifth job keeps firing every second and `/readyz` keeps answering.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_configurations_cost_the_other_jobs_nothing() {
    let server = ZkServer::start();
    let ns = unique_ns("hostile");
    let dir = tempfile::tempdir().unwrap();
    let (healthy_job, healthy) = marker_job(dir.path(), "healthy", "h");
    let victims = ["deepFlow", "laughs", "listBomb", "oversized"];
    let mut jobs = healthy_job;
    for name in victims {
        jobs.push_str(&marker_job(dir.path(), name, "v").0);
    }
    let port = crate::support::zk::free_port();
    let extra = format!("session_timeout_ms = 10000\n\n[instance]\nhttp = \"127.0.0.1:{port}\"\n\n");
    let file = job_file(dir.path(), &server.connect_string(), &ns, &extra, &jobs);
    let ready = format!("http://127.0.0.1:{port}/readyz");
    let worker = WorkerProcess::start(&file, &[]);
    eventually(40, "the healthy job to run", async || count(&healthy) >= 1).await;
    eventually(20, "/readyz to be ready", async || readyz(&ready).await == 200).await;

    let registry = Registry::connect(zk_options(&server.connect_string(), &ns)).await.unwrap();
    let head = "jobName: x\nshardingTotalCount: 1\ncron: '* * * * * ?'\n";
    let mut laughs = format!("{head}l0: &l0 lol\n");
    for level in 1..10 {
        laughs.push_str(&format!("l{level}: &l{level} [{}]\n", vec![format!("*l{}", level - 1); 10].join(", ")));
    }
    let hostile = [
        format!("{head}x: {}\n", "[".repeat(100_000)),
        laughs,
        format!("{head}a: &s\n{}b:\n{}", "- 1\n".repeat(25_000), "- *s\n".repeat(100)),
        format!("{head}description: {}\n", "x".repeat(MEGABYTE - 100)),
    ];
    for (name, text) in victims.iter().zip(&hostile) {
        registry.set(&JobPaths::new(name).config(), text.as_bytes(), None).await.unwrap();
    }
    for name in victims {
        let fault = format!("invalid configuration at /{name}/config");
        eventually(40, &fault, async || worker.log().contains(&fault)).await;
    }
    // Ten more runs of the healthy job, /readyz answering all along.
    let before = count(&healthy);
    eventually(60, "ten more runs of the healthy job", async || {
        assert_eq!(readyz(&ready).await, 200, "/readyz");
        count(&healthy) >= before + 10
    })
    .await;
    let log = worker.log();
    assert!(!log.contains("panicked"), "{log}");
    assert!(
        std::process::Command::new("kill").arg("-0").arg(worker.pid().to_string()).status().unwrap().success(),
        "the worker died:\n{log}"
    );
    let show = ejctl_on(&server, &ns).args(["job", "show", "deepFlow", "-o", "json"]).assert().success();
    let show = String::from_utf8_lossy(&show.get_output().stdout).into_owned();
    assert!(show.contains("nests deeper than 64 levels"), "{show}");
}
