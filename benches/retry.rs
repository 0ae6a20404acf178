//! Retries after a registry outage: how the jobs' retried registrations spread in time once the
//! registry accepts them again.
//!
//! One worker runs N idle jobs (a cron once a day) on a real ZooKeeper, reached through a proxy in
//! this process that notes the time, kind and path of every request the worker sends. Once the
//! jobs have settled:
//!
//! 1. a client of this process makes every job's `instances` node read-only (its ACL), so that
//!    creating an instance node fails at once (`NoAuth`) while everything else works;
//! 2. the proxy drops the worker's connections and refuses new ones until the client declares its
//!    session expired (about 1.4 × the session timeout), then lets them through: the worker gets
//!    a new session and every job registers again at once — and fails, and retries, for
//!    `--refused-ms`;
//! 3. the ACLs are opened again. From then it reports the instance node creations (the jobs'
//!    registration tries) per 100 ms window — the most in one window, and how many windows had
//!    any — and the time until every job's instance node belongs to the worker's session (read
//!    on the client of this process, not through the proxy). The same figures for the refused
//!    period show how the failing retries were spread.
//!
//! `cargo bench --bench retry [-- --jobs 1000 --refused-ms 5000 --json]`

// A benchmark reports on stdout.
#![allow(clippy::print_stdout, clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use ejctl::config::JobConfig;
use ejctl::registry::codec::JobType;
use ejctl::registry::path::JobPaths;
use ejctl::registry::{LinkState, Registry};
use ejctl::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};
use support::{ZkServer, unique_ns, zk_options};

/// The session timeout the worker asks for.
const SESSION: Duration = Duration::from_secs(6);

/// The width of a window of the spread.
const WINDOW_MS: u128 = 100;

/// ZooKeeper's opcodes of writes: create, delete, setData, multi, create2, createContainer,
/// createTTL.
const WRITES: [i32; 7] = [1, 2, 5, 14, 15, 19, 21];

/// A request the worker sent: when, its opcode, and whether it creates an instance node.
type Seen = (Instant, i32, bool);

/// A proxy that notes the worker's requests and can drop and refuse its connections.
struct CountingProxy {
    port: u16,
    refusing: Arc<AtomicBool>,
    live: Arc<Mutex<Vec<TcpStream>>>,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl CountingProxy {
    fn start(upstream: SocketAddr) -> CountingProxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let proxy = CountingProxy {
            port,
            refusing: Arc::new(AtomicBool::new(false)),
            live: Arc::default(),
            seen: Arc::default(),
        };
        let (refusing, live, seen) = (Arc::clone(&proxy.refusing), Arc::clone(&proxy.live), Arc::clone(&proxy.seen));
        thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                if refusing.load(Ordering::SeqCst) {
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                }
                let Ok(server) = TcpStream::connect(upstream) else {
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                };
                {
                    let mut live = live.lock().unwrap();
                    live.push(client.try_clone().unwrap());
                    live.push(server.try_clone().unwrap());
                }
                let (c2, s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
                let seen = Arc::clone(&seen);
                thread::spawn(move || requests(client, server, &seen));
                thread::spawn(move || copy(s2, c2));
            }
        });
        proxy
    }

    fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Drops every connection and refuses new ones (`true`), or lets them through.
    fn refuse(&self, on: bool) {
        self.refusing.store(on, Ordering::SeqCst);
        if on {
            for stream in self.live.lock().unwrap().drain(..) {
                let _ = stream.shutdown(Shutdown::Both);
            }
        }
    }

    /// The writes seen in `from..to`, and among them the instance node creations.
    fn writes(&self, from: Instant, to: Instant) -> (Vec<Instant>, Vec<Instant>) {
        let seen = self.seen.lock().unwrap();
        let within = || seen.iter().filter(|(at, op, _)| *at >= from && *at < to && WRITES.contains(op));
        (within().map(|s| s.0).collect(), within().filter(|s| s.2).map(|s| s.0).collect())
    }
}

/// Copies the worker's bytes to the server, noting each request: ZooKeeper frames are a 4-byte
/// length and a body; after the connect request, a body starts with the xid and the opcode.
/// Pings and other session traffic (negative xids) are not noted.
fn requests(mut from: TcpStream, mut to: TcpStream, seen: &Mutex<Vec<Seen>>) {
    let mut pending: Vec<u8> = Vec::new();
    let mut connect_seen = false;
    let mut buf = [0u8; 16384];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if to.write_all(&buf[..n]).is_err() {
            break;
        }
        let now = Instant::now();
        pending.extend_from_slice(&buf[..n]);
        loop {
            if pending.len() < 4 {
                break;
            }
            let len = usize::try_from(u32::from_be_bytes(pending[..4].try_into().unwrap())).unwrap();
            if pending.len() < 4 + len {
                break;
            }
            if connect_seen && len >= 8 {
                let xid = i32::from_be_bytes(pending[4..8].try_into().unwrap());
                let op = i32::from_be_bytes(pending[8..12].try_into().unwrap());
                if xid >= 0 {
                    seen.lock().unwrap().push((now, op, creates_instance(op, &pending[12..4 + len])));
                }
            }
            connect_seen = true;
            pending.drain(..4 + len);
        }
    }
    let _ = from.shutdown(Shutdown::Both);
    let _ = to.shutdown(Shutdown::Both);
}

/// Whether a request body (after its header) creates an instance node: a create whose path (a
/// 4-byte length and the bytes) has an `instances` parent.
fn creates_instance(op: i32, body: &[u8]) -> bool {
    if ![1, 15, 19, 21].contains(&op) || body.len() < 4 {
        return false;
    }
    let len = usize::try_from(i32::from_be_bytes(body[..4].try_into().unwrap())).unwrap_or(0);
    body.get(4..4 + len).is_some_and(|path| path.windows(11).any(|w| w == b"/instances/"))
}

fn copy(mut from: TcpStream, mut to: TcpStream) {
    let mut buf = [0u8; 16384];
    loop {
        match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                if to.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let _ = from.shutdown(Shutdown::Both);
    let _ = to.shutdown(Shutdown::Both);
}

/// Waits until the worker's link state satisfies `ok`.
async fn link(registry: &Registry, what: &str, ok: impl Fn(LinkState, u64) -> bool) {
    let mut session = registry.session();
    let waited = tokio::time::timeout(Duration::from_secs(60), session.wait_for(|s| ok(s.state, s.epoch))).await;
    assert!(waited.is_ok(), "timed out waiting for {what}");
}

/// How many of the jobs' instance nodes belong to `session`, read on a connection of its own.
async fn registered(admin: &Registry, jobs: usize, instance: &str, session: i64) -> usize {
    let reads = (0..jobs).map(|j| async move {
        let path = JobPaths::new(&format!("retry{j}")).instance(instance);
        admin.exists(&path).await.ok().flatten().is_some_and(|stat| stat.ephemeral_owner == session)
    });
    futures::future::join_all(reads).await.into_iter().filter(|ok| *ok).count()
}

/// Sets the ACL of every job's `instances` node: read-only (and its ACL writable, to open it
/// again), or open.
async fn instances_acl(zk: &zookeeper_client::Client, ns: &str, jobs: usize, read_only: bool) {
    use zookeeper_client::{Acl, AuthId, Permission};
    let acl = if read_only {
        vec![Acl::new(Permission::READ | Permission::ADMIN, AuthId::anyone())]
    } else {
        zookeeper_client::Acls::anyone_all().to_vec()
    };
    let sets = (0..jobs).map(|j| {
        let path = format!("/{ns}{}", JobPaths::new(&format!("retry{j}")).instances());
        let acl = &acl;
        async move { zk.set_acl(&path, acl, None).await.unwrap() }
    });
    futures::future::join_all(sets).await;
}

/// The spread of `writes` from `from`: the most in one window, and the windows with any.
fn spread(writes: &[Instant], from: Instant) -> (usize, usize) {
    let mut windows = std::collections::BTreeMap::<u128, usize>::new();
    for at in writes {
        *windows.entry(at.duration_since(from).as_millis() / WINDOW_MS).or_default() += 1;
    }
    (windows.values().copied().max().unwrap_or(0), windows.len())
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let jobs = usize::try_from(arg("--jobs", 1000)).unwrap();
    let refused = Duration::from_millis(arg("--refused-ms", 5000));
    let json = args.iter().any(|a| a == "--json");

    let server = ZkServer::start();
    let proxy = CountingProxy::start(format!("127.0.0.1:{}", server.port()).parse().unwrap());
    let ns = unique_ns("retry");
    let mut options = zk_options(&proxy.addr(), &ns);
    options.session_timeout = SESSION;
    let defs = (0..jobs)
        .map(|j| {
            let mut config = JobConfig::new(&format!("retry{j}"), 1);
            config.cron = Some("0 0 3 * * ?".into());
            config.props.insert("script.command.line".into(), "/bin/true".into());
            JobDefinition::new(JobType::Script, config)
        })
        .collect();
    let mut config = WorkerConfig::new(RegistryTarget::ZooKeeper(options), defs);
    config.ip = Some("10.9.0.1".into());
    config.pid = Some(1);
    let started = Instant::now();
    let worker = Worker::start(config).await.unwrap();
    let instance = worker.instance_id().to_string();
    let admin = Registry::connect(zk_options(&server.connect_string(), &ns)).await.unwrap();
    let zk = zookeeper_client::Client::connect(&server.connect_string()).await.unwrap();
    tokio::time::sleep(Duration::from_secs(5)).await;
    println!("{jobs} jobs started and settled in {:.1} s", started.elapsed().as_secs_f64());

    // 1. Instance nodes cannot be created.
    instances_acl(&zk, &ns, jobs, true).await;
    // 2. A new session: every job registers again, and fails.
    let registry = worker.registry().clone();
    let epoch = registry.session().borrow().epoch;
    proxy.refuse(true);
    link(&registry, "the session's expiry", |state, _| state == LinkState::Expired).await;
    proxy.refuse(false);
    link(&registry, "a new session", |state, e| state == LinkState::Connected && e > epoch).await;
    let failing = Instant::now();
    tokio::time::sleep(refused).await;
    // 3. Open again: how the retries that follow spread, until every job is registered.
    let back = Instant::now();
    instances_acl(&zk, &ns, jobs, false).await;
    let session = registry.session_id();
    let mut done = 0;
    while done < jobs && back.elapsed() < Duration::from_secs(120) {
        tokio::time::sleep(Duration::from_millis(100)).await;
        done = registered(&admin, jobs, &instance, session).await;
    }
    let all_in = back.elapsed().as_secs_f64();
    let (fail_writes, fail_tries) = proxy.writes(failing, back);
    let (writes, tries) = proxy.writes(back, Instant::now());
    let ((fail_peak, fail_windows), (peak, windows)) = (spread(&fail_tries, failing), spread(&tries, back));
    if json {
        println!(
            "{}",
            serde_json::json!({
                "jobs": jobs, "refused_ms": refused.as_millis(),
                "refused": {"writes": fail_writes.len(), "registration_tries": fail_tries.len(),
                    "peak_tries_per_100ms": fail_peak, "windows_with_tries": fail_windows},
                "after": {"writes": writes.len(), "registration_tries": tries.len(),
                    "peak_tries_per_100ms": peak, "windows_with_tries": windows,
                    "seconds_to_all_registered": all_in, "registered": done},
            })
        );
    } else {
        println!(
            "while instance nodes were refused ({} ms): {} registration tries ({} writes), at most {fail_peak} in a 100 ms window, tries in {fail_windows} windows",
            refused.as_millis(),
            fail_tries.len(),
            fail_writes.len()
        );
        println!(
            "once accepted: {done} of {jobs} jobs registered after {all_in:.2} s; {} registration tries ({} writes), at most {peak} in a 100 ms window, tries in {windows} windows",
            tries.len(),
            writes.len()
        );
    }
    worker.kill().await;
}
