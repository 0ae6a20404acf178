//! Failover, fencing and reconnects with real `ejctl run` processes on a real ZooKeeper: a
//! SIGKILLed worker's running items run elsewhere, a lone idle survivor takes over eight orphans
//! before anything else happens, a partitioned worker kills its script before its session can
//! expire, a ZooKeeper restart costs no fire, and a session expiry leaves the worker running.

use std::collections::BTreeSet;
use std::time::Duration;

use crate::support::cluster::{Cluster, ClusterOptions, Run, next_second_fire};

const ONE_OFF_FAILOVER: &str =
    "name = \"fo\"\nsharding_total_count = 8\nfailover = true\nmisfire = true\ncommand = \"{script} {record}\"";
const EVERY_SECOND: &str = "name = \"tick\"\ncron = \"* * * * * ?\"\nsharding_total_count = 4\nfailover = true\nmisfire = true\ncommand = \"{script} {record}\"";

fn short_sessions(proxied: bool) -> ClusterOptions {
    ClusterOptions { session_timeout_ms: 4000, kill_grace_seconds: 1, proxied, ..ClusterOptions::default() }
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

fn runs_on(c: &Cluster, instance: &str, after: i64) -> Vec<Run> {
    c.runs().into_iter().filter(|r| r.instance == instance && r.start >= after).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sigkilled_workers_running_items_run_elsewhere() {
    let mut c = Cluster::zookeeper_with("fo", ONE_OFF_FAILOVER, short_sessions(false)).await;
    let a = c.start("127.0.0.1").await;
    let b = c.start("127.0.0.2").await;
    let (ida, idb) = (c.id(a), c.id(b));
    c.wait_settled(&[ida.clone(), idb.clone()], 8).await;
    c.set_sleep(Some(60.0));
    c.trigger(std::slice::from_ref(&ida)).await;
    c.wait_until(20, "a's items to start", async |c| c.starts().iter().filter(|s| s.2 == ida).count() == 4).await;
    let a_items: BTreeSet<u32> = c.starts().iter().filter(|s| s.2 == ida).map(|s| s.1).collect();
    c.set_sleep(None);
    let killed_at = c.kill(a);
    c.wait_until(30, "a's running items to run on b", async |c| runs_on(c, &idb, killed_at).len() >= 4).await;
    let taken: Vec<Run> = runs_on(&c, &idb, killed_at);
    let items: BTreeSet<u32> = taken.iter().map(|r| r.item).collect();
    assert_eq!(items, a_items, "exactly the items that were running on a: {taken:#?}\n{}", c.logs());
    for r in &taken {
        assert!(r.start - killed_at < 4000 + 3000, "taken over within the session timeout + 3 s: {r:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_orphaned_items_all_run_on_the_one_idle_survivor() {
    let mut c = Cluster::zookeeper_with("fo", ONE_OFF_FAILOVER, short_sessions(false)).await;
    let a = c.start("127.0.0.1").await;
    let ida = c.id(a);
    c.wait_settled(std::slice::from_ref(&ida), 8).await;
    c.set_sleep(Some(60.0));
    c.trigger(std::slice::from_ref(&ida)).await;
    c.wait_until(20, "all eight items to start on a", async |c| c.starts().len() == 8).await;
    // b joins while a runs everything: resharding waits for a's items, so b stays idle.
    let b = c.start("127.0.0.2").await;
    let idb = c.id(b);
    c.set_sleep(None);
    let killed_at = c.kill(a);
    let instance_node = c.paths().instance(&ida);
    c.wait_until(20, "a's session to expire", async |c| c.registry.exists(&instance_node).await.unwrap().is_none())
        .await;
    let detected_at = now_ms();
    c.wait_until(20, "all eight orphans to run on b", async |c| runs_on(c, &idb, killed_at).len() >= 8).await;
    let taken = runs_on(&c, &idb, killed_at);
    let items: BTreeSet<u32> = taken.iter().map(|r| r.item).collect();
    assert_eq!(items, (0..8).collect(), "every orphan ran: {taken:#?}\n{}", c.logs());
    for r in &taken {
        // As soon as the death is detected: within a couple of seconds, not at some later fire.
        assert!(r.start - detected_at < 2000, "{r:?} started {} ms after the expiry was seen", r.start - detected_at);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_partitioned_worker_kills_its_script_before_its_session_can_expire() {
    let mut c = Cluster::zookeeper_with("fo", ONE_OFF_FAILOVER, short_sessions(true)).await;
    let w = c.start("127.0.0.1").await;
    let y = c.start("127.0.0.2").await;
    let (idw, idy) = (c.id(w), c.id(y));
    c.wait_settled(&[idw.clone(), idy.clone()], 8).await;
    let old_session = c.registry.exists(&c.paths().instance(&idw)).await.unwrap().unwrap().ephemeral_owner;
    c.set_sleep(Some(60.0));
    c.trigger(std::slice::from_ref(&idw)).await;
    c.wait_until(20, "w's items to start", async |c| c.starts().iter().filter(|s| s.2 == idw).count() == 4).await;
    let pids: Vec<u32> = c.starts().iter().filter(|s| s.2 == idw).map(|s| s.4).collect();
    c.proxy(w).cut(true);
    let cut_at = now_ms();
    c.wait_until(10, "w's scripts to be killed", async |_| {
        pids.iter().all(|p| !std::path::Path::new(&format!("/proc/{p}")).exists())
    })
    .await;
    let killed_after = now_ms() - cut_at;
    // The server expires w's session no earlier than the session timeout after w's last
    // heartbeat, which came at most a fencing/4 ping interval before the cut.
    assert!(
        killed_after < 4000 - 500,
        "scripts killed {killed_after} ms after the cut: too late to be safe\n{}",
        c.logs()
    );
    assert!(c.runs().iter().all(|r| r.instance != idw), "the killed runs did not complete");
    // y takes the items over once w's session has expired, after w's scripts are gone.
    c.set_sleep(None);
    c.wait_until(30, "y to take over w's items", async |c| runs_on(c, &idy, cut_at).len() >= 4).await;
    for r in runs_on(&c, &idy, cut_at) {
        assert!(r.start > cut_at + killed_after, "takeover {r:?} started before w's script died");
    }
    // The partition heals: w builds a new session, registers again and keeps running its job.
    c.proxy(w).cut(false);
    let node = c.paths().instance(&idw);
    c.wait_until(30, "w to register with a new session", async |c| {
        c.registry.exists(&node).await.unwrap().is_some_and(|s| s.ephemeral_owner != old_session)
    })
    .await;
    let settled = [idw.clone(), idy.clone()];
    c.wait_settled(&settled, 8).await;
    let before = now_ms();
    c.trigger(&settled).await;
    c.wait_until(20, "both workers to run a new trigger", async |c| {
        let runs: Vec<Run> = c.runs().into_iter().filter(|r| r.start >= before).collect();
        runs.len() >= 8
    })
    .await;
}

/// Every item has a run starting in `[fire, fire + bound]` for every whole second in
/// `[first, last]`.
fn assert_every_fire_covered(c: &Cluster, items: u32, first: i64, last: i64, bound_ms: i64) {
    let runs = c.runs();
    for fire in (first..=last).step_by(1000) {
        for item in 0..items {
            let covered = runs.iter().any(|r| r.item == item && r.start >= fire - 100 && r.start <= fire + bound_ms);
            assert!(covered, "item {item} has no run for fire {fire}: {:#?}\n{}", runs, c.logs());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_zookeeper_restart_within_the_session_timeout_costs_no_fire() {
    let options = ClusterOptions { session_timeout_ms: 10_000, ..ClusterOptions::default() };
    let mut c = Cluster::zookeeper_with("tick", EVERY_SECOND, options).await;
    let a = c.start("127.0.0.1").await;
    let b = c.start("127.0.0.2").await;
    c.wait_settled(&[c.id(a), c.id(b)], 4).await;
    let first = next_second_fire(300);
    c.wait_fire(first + 1000, 4).await;
    tokio::task::block_in_place(|| c.server().outage(Duration::from_millis(1500)));
    // The client reconnects with its own backoff (up to several seconds after a short outage);
    // fires missed meanwhile are covered by one run per item on reconnect. The bound of
    // docs/src/design/guarantee.md for a fire in a fault window: cron period + session timeout + 2
    // s.
    let last = next_second_fire(2000);
    c.wait_until(30, "every item to run after the restart", async |c| {
        (0..4).all(|item| c.runs().iter().any(|r| r.item == item && r.start >= last))
    })
    .await;
    assert_every_fire_covered(&c, 4, first, last, 1000 + 10_000 + 2000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_expiry_leaves_the_worker_running_with_a_new_session() {
    let mut c = Cluster::zookeeper_with("tick", EVERY_SECOND, short_sessions(false)).await;
    let a = c.start("127.0.0.1").await;
    let ida = c.id(a);
    c.wait_settled(std::slice::from_ref(&ida), 4).await;
    let node = c.paths().instance(&ida);
    let old_session = c.registry.exists(&node).await.unwrap().unwrap().ephemeral_owner;
    c.wait_fire(next_second_fire(300), 4).await;
    // The server is gone for longer than the session timeout (the client declares the session
    // expired after about 1.4 × the timeout).
    tokio::task::block_in_place(|| c.server().outage(Duration::from_millis(7000)));
    c.wait_until(40, "the worker to register with a new session", async |c| {
        c.registry.exists(&node).await.ok().flatten().is_some_and(|s| s.ephemeral_owner != old_session)
    })
    .await;
    // The same process, registered again, keeps firing every item.
    let fire = next_second_fire(1500);
    c.wait_fire(fire, 4).await;
    c.wait_fire(fire + 2000, 4).await;
    assert!(c.is_running(a), "the worker exited on the expiry\n{}", c.logs());
}
