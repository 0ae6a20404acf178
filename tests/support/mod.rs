//! Test support: real ZooKeeper servers ([`zk`]), real PostgreSQL servers ([`pg`]), registry fixtures that run one scenario
//! against ZooKeeper and the embedded registry alike, and helpers for running the `ejctl` binary.

#![allow(dead_code, unused_imports)] // Each test module (and bench) uses a different part of the support code.

pub mod chaos;
pub mod cluster;
pub mod footprint;
pub mod nemesis;
pub mod netns;
pub mod pg;
pub mod proxy;
pub mod receiver;
pub mod scale;
pub mod sim;
pub mod tls;
pub mod worker;
pub mod zk;

use std::os::unix::net::UnixDatagram;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use ejctl::config::JobConfig;
use ejctl::registry::codec::{InstanceId, InstanceInfo};
use ejctl::registry::embedded::EmbeddedStore;
use ejctl::registry::path::{ItemLeaf, JobPaths};
use ejctl::registry::{Mode, Op, Registry, ZkOptions};

pub use zk::{ZkEnsemble, ZkServer};

/// A namespace no other test uses.
pub fn unique_ns(prefix: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    format!("{prefix}-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed))
}

/// Registry options for tests against `servers`.
pub fn zk_options(servers: &str, ns: &str) -> ZkOptions {
    let mut o = ZkOptions::new(servers, ns);
    o.session_timeout = Duration::from_secs(10);
    o.connection_timeout = Duration::from_secs(10);
    o.request_timeout = Duration::from_secs(30);
    o.create_namespace = true;
    o
}

/// A fresh ZooKeeper server, a namespace no other test uses (`prefix-...`) and a session on it.
pub async fn zk_registry(prefix: &str) -> (ZkServer, String, Registry) {
    let server = ZkServer::start();
    let ns = unique_ns(prefix);
    let registry = Registry::connect(zk_options(&server.connect_string(), &ns)).await.unwrap();
    (server, ns, registry)
}

/// The `ejctl` binary, isolated from the environment that would change what it does: no
/// `RUST_LOG` and no `EJCTL_*` variables (so no contexts file either, unless a test sets one).
pub fn ejctl() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("ejctl").unwrap();
    for var in [
        "RUST_LOG",
        "EJCTL_ZK",
        "EJCTL_NAMESPACE",
        "EJCTL_CONTEXT",
        "EJCTL_DIGEST",
        "EJCTL_OUTPUT",
        "EJCTL_CONNECT_TIMEOUT",
        "EJCTL_CONFIG",
        "EJCTL_TRACE",
        "EJCTL_TLS_CA",
        "EJCTL_TLS_CERT",
        "EJCTL_TLS_KEY",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// [`ejctl`] with the registry flags for `server` and `ns`.
pub fn ejctl_on(server: &ZkServer, ns: &str) -> assert_cmd::Command {
    let mut cmd = ejctl();
    cmd.args(["--zk", &server.connect_string(), "--namespace", ns]);
    cmd
}

/// Runs `cmd ARGS` against a registry address nothing listens on and asserts what every admin
/// command does then: exit 5, nothing on stdout, one line on stderr naming the address, and no
/// backtrace even with `RUST_BACKTRACE=1`.
pub fn assert_unreachable(mut cmd: assert_cmd::Command, args: &[&str]) {
    let dead = format!("127.0.0.1:{}", zk::free_port());
    let out = cmd
        .env("RUST_BACKTRACE", "1")
        .args(["--zk", &dead, "--namespace", "x", "--connect-timeout", "1s"])
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: stdout {:?}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("ejctl: error: cannot connect to the registry: zookeeper at 127.0.0.1:"), "{err}");
    assert!(!err.contains("backtrace") && !err.contains("panicked"), "{err}");
}

/// The delivery-guarantee checkers' (chaos test, simulator) report of a missed fire: `covered`
/// is the start of the fire's first covering run, if any; `bound` the latest it was owed by.
pub fn miss(item: u32, fire: i64, covered: Option<i64>, bound: i64) -> String {
    match covered {
        Some(start) => format!(
            "item {item}: fire {fire} first covered by a run at {start} ({} ms late, bound {} ms)",
            start - fire,
            bound - fire
        ),
        None => format!("item {item}: fire {fire} never covered"),
    }
}

/// Polls `check` every 50 ms until it holds, failing the test with `what` after `secs` seconds
/// (test code; the product never polls).
pub async fn eventually(secs: u64, what: &str, mut check: impl AsyncFnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    while !check().await {
        assert!(tokio::time::Instant::now() < deadline, "timed out after {secs}s waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Writes an executable script.
pub fn write_script(path: &std::path::Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, body).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Writes `n` script jobs `job0000`, `job0001`, ... as one live Java instance leaves them: config,
/// an enabled server, the instance (`instance_mode`: ephemeral to belong to `r`'s session) and two
/// items it owns; 50 jobs per transaction.
pub async fn seed_jobs(r: &Registry, n: usize, instance_mode: Mode) {
    let id = InstanceId::new("10.0.0.1", 42);
    let instance = InstanceInfo::new(&id).to_yaml();
    for chunk in (0..n).collect::<Vec<usize>>().chunks(50) {
        let mut ops = Vec::new();
        for i in chunk {
            let name = format!("job{i:04}");
            let p = JobPaths::new(&name);
            let mut cfg = JobConfig::new(&name, 2);
            cfg.cron = Some("0/10 * * * * ?".into());
            cfg.description = Some(format!("job number {i}"));
            let mut create =
                |path: String, data: &[u8], mode: Mode| ops.push(Op::Create { path, data: data.to_vec(), mode });
            create(p.root().to_string(), b"SCRIPT", Mode::Persistent);
            create(p.config(), cfg.to_yaml().as_bytes(), Mode::Persistent);
            create(p.servers(), b"", Mode::Persistent);
            create(p.server(id.ip()), b"ENABLED", Mode::Persistent);
            create(p.instances(), b"", Mode::Persistent);
            create(p.instance(id.as_str()), instance.as_bytes(), instance_mode);
            create(p.sharding(), b"", Mode::Persistent);
            for item in 0..2 {
                create(p.item(item), b"", Mode::Persistent);
                create(p.item_leaf(item, ItemLeaf::Instance), id.as_str().as_bytes(), Mode::Persistent);
            }
        }
        r.transaction(&ops).await.unwrap();
    }
}

/// A benchmark's `--name VALUE` argument, or `default`.
pub fn bench_arg<T: std::str::FromStr>(name: &str, default: T) -> T {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Where a scenario runs: a real ZooKeeper server or an embedded store.
pub enum Target {
    Zk(ZkServer),
    Embedded(EmbeddedStore),
}

/// A registry to run one scenario against.
pub struct Fixture {
    pub target: Target,
    pub ns: String,
}

impl Fixture {
    pub fn zookeeper() -> Fixture {
        Fixture { target: Target::Zk(ZkServer::start()), ns: unique_ns("t") }
    }

    pub fn embedded() -> Fixture {
        Fixture { target: Target::Embedded(EmbeddedStore::new()), ns: unique_ns("t") }
    }

    /// A new session.
    pub async fn registry(&self) -> Registry {
        match &self.target {
            Target::Zk(server) => Registry::connect(zk_options(&server.connect_string(), &self.ns)).await.unwrap(),
            Target::Embedded(store) => Registry::embedded(store),
        }
    }

    /// The server goes away and comes back within the session timeout.
    pub async fn outage(&mut self) {
        match &mut self.target {
            Target::Zk(server) => tokio::task::block_in_place(|| server.outage(Duration::from_millis(300))),
            Target::Embedded(store) => {
                store.disconnect();
                tokio::time::sleep(Duration::from_millis(300)).await;
                store.reconnect();
            }
        }
    }
}

/// Generates `zookeeper` and `embedded` tests running the same async scenario `fn(Fixture)`.
#[macro_export]
macro_rules! on_both_registries {
    ($($scenario:ident),* $(,)?) => {
        $(
            mod $scenario {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn zookeeper() {
                    super::$scenario($crate::support::Fixture::zookeeper()).await;
                }
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn embedded() {
                    super::$scenario($crate::support::Fixture::embedded()).await;
                }
            }
        )*
    };
}

/// A `/proc/PID/status` field in kB (`VmRSS`, `VmHWM`, `RssAnon`, ...); `None` when the process
/// is gone or has no such field.
pub fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let value = status.lines().find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))?;
    value.trim().trim_end_matches("kB").trim().parse().ok()
}

/// A `/proc/PID/smaps_rollup` field in kB (`Pss`, `Pss_Anon`, ...): the proportional set size,
/// which charges each shared page to its processes in equal parts; `None` when the process is
/// gone or the kernel has no such field.
pub fn smaps_kib(pid: u32, field: &str) -> Option<u64> {
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    let value = rollup.lines().find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))?;
    value.trim().trim_end_matches("kB").trim().parse().ok()
}

/// Starts `ejctl run` on `job_file` with a systemd notification socket in `dir` (what
/// `Type=notify` gives a service), its output discarded. Returns the process and the socket,
/// whose reads wait at most 60 s.
pub fn run_notified(job_file: &std::path::Path, dir: &std::path::Path) -> (std::process::Child, UnixDatagram) {
    let socket_path = dir.join("notify.sock");
    let socket = UnixDatagram::bind(&socket_path).unwrap();
    socket.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_ejctl"))
        .arg("run")
        .arg(job_file)
        .env("NOTIFY_SOCKET", &socket_path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    (child, socket)
}

/// Sends a signal (`TERM`, `KILL`, `STOP`, `CONT`, ...) to a process.
pub fn signal(pid: u32, sig: &str) {
    let _ = std::process::Command::new("kill").arg(format!("-{sig}")).arg(pid.to_string()).status();
}

/// Waits for a child to exit and returns its exit code; after `timeout` it is killed (`None`).
pub fn wait_exit(child: &mut std::process::Child, timeout: Duration) -> Option<i32> {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return status.code();
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Reads a record file of `fire item instance start N` lines (N: the end, or the pid in a
/// `.starts` file); malformed lines are skipped.
pub fn read_records(path: &std::path::Path) -> Vec<(i64, u32, String, i64, i64)> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            Some((
                f.first()?.parse().ok()?,
                f.get(1)?.parse().ok()?,
                (*f.get(2)?).to_string(),
                f.get(3)?.parse().ok()?,
                f.get(4)?.parse().ok()?,
            ))
        })
        .collect()
}

/// Awaits `fut` for at most `secs` seconds, failing the test with `what` otherwise.
pub async fn within<T>(secs: u64, what: &str, fut: impl std::future::Future<Output = T>) -> T {
    match tokio::time::timeout(Duration::from_secs(secs), fut).await {
        Ok(v) => v,
        Err(_) => panic!("timed out after {secs}s waiting for {what}"),
    }
}

/// A small deterministic generator (SplitMix64): fault schedules and simulations from a seed.
#[derive(Debug, Clone, Default)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}
