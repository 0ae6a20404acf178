//! Test support: real ZooKeeper servers ([`zk`]), registry fixtures that run one scenario
//! against ZooKeeper and the embedded registry alike, and helpers for running the `ejctl` binary.

#![allow(dead_code, unused_imports)] // Each test module (and bench) uses a different part of the support code.

pub mod chaos;
pub mod cluster;
pub mod proxy;
pub mod zk;

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use ejctl::registry::embedded::EmbeddedStore;
use ejctl::registry::{Registry, ZkOptions};

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
            Target::Zk(server) => tokio::task::block_in_place(|| {
                server.member().kill();
                std::thread::sleep(Duration::from_millis(300));
                server.start_again();
            }),
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
