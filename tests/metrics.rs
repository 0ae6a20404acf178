//! The worker's HTTP endpoint (`[instance] http`) on real `ejctl run` processes and a real
//! ZooKeeper: `/metrics` counters move as jobs fire, fail, misfire and fail over; `/readyz` turns
//! unready while the worker is cut off from ZooKeeper and ready again once the link heals;
//! `/healthz` and `/dump/{job}` answer; `ejctl run` notifies systemd (`Type=notify`); a flood of
//! idle connections to the endpoints costs the jobs nothing.

use std::time::Duration;

use crate::support::cluster::{Cluster, ClusterOptions};
use crate::support::eventually;

/// Every second, two items; item 1 fails (the wrapper exits 1 for it after recording the run).
const FAILING_EVERY_SECOND: &str = "name = \"tick\"\ncron = \"* * * * * ?\"\nsharding_total_count = 2\nmisfire = true\ncommand = \"{wrap} {script} {record}\"";
const WRAP: &str = "#!/bin/sh\n\"$1\" \"$2\"\n[ \"$EJCTL_SHARDING_ITEM\" = 0 ]\n";
const ONE_OFF_FAILOVER: &str =
    "name = \"fo\"\nsharding_total_count = 4\nfailover = true\nmisfire = true\ncommand = \"{script} {record}\"";

fn options(proxied: bool) -> ClusterOptions {
    ClusterOptions { session_timeout_ms: 4000, kill_grace_seconds: 1, proxied, http: true, ..ClusterOptions::default() }
}

async fn get(url: &str) -> (u16, String) {
    let client = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap();
    match client.get(url).send().await {
        Ok(r) => {
            let status = r.status().as_u16();
            (status, r.text().await.unwrap_or_default())
        }
        Err(e) => (0, e.to_string()),
    }
}

/// The value of one series (`name{labels}`) in a scrape; 0 when absent.
fn value(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(series).and_then(|rest| rest.strip_prefix(' ')))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0.0)
}

async fn scrape(c: &Cluster, i: usize) -> String {
    let (status, text) = get(&format!("{}/metrics", c.http(i))).await;
    assert_eq!(status, 200, "{text}");
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_move_as_a_job_fires_fails_and_misfires() {
    let wrap_dir = tempfile::tempdir().unwrap();
    let wrap = wrap_dir.path().join("wrap.sh");
    crate::support::write_script(&wrap, WRAP);
    let job = FAILING_EVERY_SECOND.replace("{wrap}", &wrap.display().to_string());
    let mut c = Cluster::zookeeper_with("tick", &job, options(false)).await;
    let w = c.start("127.0.0.1").await;
    let base = c.http(w);
    eventually(30, "fires, successes and failures to be counted", async || {
        let m = scrape(&c, w).await;
        value(&m, "ejctl_fires_total{job=\"tick\",source=\"cron\"}") >= 3.0
            && value(&m, "ejctl_item_runs_total{job=\"tick\",source=\"cron\",outcome=\"success\"}") >= 2.0
            && value(&m, "ejctl_item_runs_total{job=\"tick\",source=\"cron\",outcome=\"failure\"}") >= 2.0
    })
    .await;
    let m = scrape(&c, w).await;
    assert!(value(&m, "ejctl_fire_lateness_seconds_count{job=\"tick\"}") >= 4.0, "{m}");
    assert!(value(&m, "ejctl_run_duration_seconds_count{job=\"tick\"}") >= 4.0, "{m}");
    assert_eq!(value(&m, "ejctl_leader_changes_total{job=\"tick\"}"), 1.0, "{m}");
    assert!(value(&m, "ejctl_reshards_total{job=\"tick\"}") >= 1.0, "{m}");
    assert_eq!(value(&m, "ejctl_registry_connected"), 1.0, "{m}");
    assert!(value(&m, "ejctl_registry_request_duration_seconds_count") >= 1.0, "{m}");
    assert_eq!(value(&m, "ejctl_fenced"), 0.0, "{m}");
    assert_eq!(value(&m, "ejctl_fires_due_not_started{job=\"tick\"}"), 0.0, "{m}");
    assert!(m.trim_end().ends_with("# EOF"), "{m}");

    // Runs longer than the period: the fires that come while the items run are owed as
    // misfires and run when they end.
    c.set_sleep(Some(2.5));
    eventually(40, "misfires to be owed and run", async || {
        let m = scrape(&c, w).await;
        value(&m, "ejctl_misfires_owed_total{job=\"tick\"}") >= 1.0
            && value(&m, "ejctl_item_runs_total{job=\"tick\",source=\"misfire\",outcome=\"success\"}") >= 1.0
    })
    .await;
    c.set_sleep(None);

    assert_eq!(get(&format!("{base}/healthz")).await, (200, "ok\n".to_string()));
    let (status, ready) = get(&format!("{base}/readyz")).await;
    assert_eq!(status, 200, "{ready}");
    assert!(ready.starts_with("ready\n") && ready.contains("job tick: registered"), "{ready}");
    let (status, dump) = get(&format!("{base}/dump/tick")).await;
    assert_eq!(status, 200, "{dump}");
    assert!(dump.lines().any(|l| l.starts_with("/tick/config | ")), "{dump}");
    assert_eq!(get(&format!("{base}/dump/nope")).await.0, 404);
    assert_eq!(get(&format!("{base}/nothing")).await.0, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failover_is_counted_on_the_instance_that_takes_over() {
    let mut c = Cluster::zookeeper_with("fo", ONE_OFF_FAILOVER, options(false)).await;
    let a = c.start("127.0.0.1").await;
    let b = c.start("127.0.0.2").await;
    let (ida, idb) = (c.id(a), c.id(b));
    c.wait_settled(&[ida.clone(), idb.clone()], 4).await;
    c.set_sleep(Some(60.0));
    c.trigger(std::slice::from_ref(&ida)).await;
    c.wait_until(20, "a's items to start", async |c| c.starts().iter().filter(|s| s.2 == ida).count() == 2).await;
    let m = scrape(&c, a).await;
    assert_eq!(value(&m, "ejctl_items_running{job=\"fo\"}"), 2.0, "{m}");
    assert_eq!(value(&m, "ejctl_fires_total{job=\"fo\",source=\"trigger\"}"), 1.0, "{m}");
    c.set_sleep(None);
    c.kill(a);
    eventually(30, "b to claim and run a's two items", async || {
        let m = scrape(&c, b).await;
        value(&m, "ejctl_failover_claimed_total{job=\"fo\"}") >= 2.0
            && value(&m, "ejctl_item_runs_total{job=\"fo\",source=\"failover\",outcome=\"success\"}") >= 2.0
    })
    .await;
    let m = scrape(&c, b).await;
    assert!(value(&m, "ejctl_failover_latency_seconds_count{job=\"fo\"}") >= 2.0, "{m}");
    assert_eq!(value(&m, "ejctl_items_running{job=\"fo\"}"), 0.0, "{m}");
    let _ = idb;
}

/// A worker killed with its session still open: the other instance of the job reports its items
/// `OVERDUE` (`ejctl_items_overdue`) until the session expires and they are resharded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_owners_items_are_overdue_on_the_other_instance() {
    let job = "name = \"ov\"\ncron = \"* * * * * ?\"\nsharding_total_count = 2\ncommand = \"{script} {record}\"";
    let options = ClusterOptions { session_timeout_ms: 20_000, http: true, ..ClusterOptions::default() };
    let mut c = Cluster::zookeeper_with("ov", job, options).await;
    let a = c.start("127.0.0.1").await;
    let b = c.start("127.0.0.2").await;
    c.wait_settled(&[c.id(a), c.id(b)], 2).await;
    let overdue = "ejctl_items_overdue{job=\"ov\"}";
    eventually(20, "both items running every second", async || {
        c.runs().iter().filter(|r| r.item == 0).count() >= 3 && c.runs().iter().filter(|r| r.item == 1).count() >= 3
    })
    .await;
    assert_eq!(value(&scrape(&c, b).await, overdue), 0.0);
    c.kill(a);
    eventually(15, "a's item overdue on b", async || value(&scrape(&c, b).await, overdue) == 1.0).await;
    // The session expires; b takes the item over and it is no longer overdue.
    eventually(60, "the item resharded to b", async || value(&scrape(&c, b).await, overdue) == 0.0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_is_unready_while_cut_off_from_zookeeper_and_ready_after() {
    let mut c = Cluster::zookeeper_with("fo", ONE_OFF_FAILOVER, options(true)).await;
    let w = c.start("127.0.0.1").await;
    let ready = format!("{}/readyz", c.http(w));
    eventually(20, "the worker to be ready", async || get(&ready).await.0 == 200).await;
    c.proxy(w).cut(true);
    eventually(20, "/readyz to turn unready", async || get(&ready).await.0 == 503).await;
    // The process is still alive and serving: liveness does not follow the registry.
    assert_eq!(get(&format!("{}/healthz", c.http(w))).await.0, 200);
    eventually(20, "the worker to be fenced", async || value(&scrape(&c, w).await, "ejctl_fenced") == 1.0).await;
    let m = scrape(&c, w).await;
    assert_eq!(value(&m, "ejctl_ready"), 0.0, "{m}");
    c.proxy(w).cut(false);
    eventually(40, "/readyz to be ready again", async || get(&ready).await.0 == 200).await;
    let m = scrape(&c, w).await;
    assert!(value(&m, "ejctl_fencing_events_total") >= 1.0, "{m}");
    assert_eq!(value(&m, "ejctl_fenced"), 0.0, "{m}");
    assert_eq!(value(&m, "ejctl_registry_connected"), 1.0, "{m}");
}

#[test]
fn ejctl_run_tells_systemd_it_is_ready_and_stopping() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("job.toml");
    std::fs::write(&file, "[[job]]\nname = \"quiet\"\ncommand = \"true\"\n").unwrap();
    let (mut child, socket) = crate::support::run_notified(&file, dir.path());
    let mut buf = [0u8; 1024];
    let n = socket.recv(&mut buf).unwrap();
    let ready = String::from_utf8_lossy(&buf[..n]).to_string();
    assert!(ready.contains("READY=1") && ready.contains("STATUS=running 1 jobs"), "{ready}");
    crate::support::signal(child.id(), "TERM");
    let n = socket.recv(&mut buf).unwrap();
    assert_eq!(String::from_utf8_lossy(&buf[..n]), "STOPPING=1\n");
    assert_eq!(crate::support::wait_exit(&mut child, Duration::from_secs(30)), Some(0));
}

/// Idle connections to the HTTP endpoint and the dump port (a flood that never sends a request)
/// cost the jobs nothing: the worker holds at most the endpoints' caps of them, so the scripts it
/// starts still get file descriptors, and the endpoint answers again once the flood ends. The
/// worker runs with 256 descriptors, so 600 idle connections would exhaust it without the caps.
#[test]
fn a_flood_of_idle_connections_costs_the_jobs_nothing() {
    use std::net::TcpStream;
    use std::os::unix::fs::PermissionsExt;
    use std::time::Instant;

    let dir = tempfile::tempdir().unwrap();
    let fired = dir.path().join("fired");
    let script = dir.path().join("tick.sh");
    std::fs::write(&script, format!("#!/bin/sh\necho fired >> {}\n", fired.display())).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (http, dump) = (crate::support::zk::free_port(), crate::support::zk::free_port());
    let file = dir.path().join("job.toml");
    std::fs::write(
        &file,
        format!(
            "[instance]\nhttp = \"{http}\"\ndump_port = {dump}\n\n[[job]]\nname = \"tick\"\ncron = \"* * * * * ?\"\ncommand = \"{}\"\n",
            script.display()
        ),
    )
    .unwrap();
    let mut worker = std::process::Command::new("sh")
        .args(["-c", "ulimit -n 256 && exec \"$0\" run \"$1\"", env!("CARGO_BIN_EXE_ejctl")])
        .arg(&file)
        .env_remove("RUST_LOG")
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(dir.path().join("worker.log")).unwrap())
        .spawn()
        .unwrap();
    let fires = || std::fs::read_to_string(&fired).map(|t| t.lines().count()).unwrap_or(0);
    let wait_for = |what: &str, done: &dyn Fn() -> bool| {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !done() {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    let healthz = || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(get(&format!("http://127.0.0.1:{http}/healthz"))).0
    };
    wait_for("the job to fire and the endpoint to answer", &|| fires() > 0 && healthz() == 200);

    let mut flood = Vec::new();
    for n in 0..700 {
        let port = if n % 7 == 0 { dump } else { http };
        if let Ok(stream) = TcpStream::connect(("127.0.0.1", port)) {
            flood.push(stream);
        }
    }
    assert!(flood.len() >= 600, "only {} connections were made", flood.len());
    let before = fires();
    wait_for("three fires during the flood", &|| fires() >= before + 3);
    let log = std::fs::read_to_string(dir.path().join("worker.log")).unwrap();
    assert!(!log.contains("Too many open files"), "{log}");
    assert!(worker.try_wait().unwrap().is_none(), "the worker exited: {log}");

    drop(flood);
    wait_for("the endpoint to answer after the flood", &|| healthz() == 200);
    crate::support::signal(worker.id(), "TERM");
    assert_eq!(crate::support::wait_exit(&mut worker, Duration::from_secs(30)), Some(0));
}
