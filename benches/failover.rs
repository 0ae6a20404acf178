//! Failover latency with `ejctl run` processes on a real ZooKeeper: from an instance's death to
//! the start of its orphaned item on another instance.
//!
//! Two workers run a one-off job with 2 items and failover on; worker A runs its item (a long
//! sleep), then A dies:
//! * **graceful**: A gets SIGTERM with `shutdown_timeout_seconds = 0`, so it kills its item and
//!   deletes its instance node at once; measured from the instance node's deletion (seen by a
//!   registry watch in this process) to the item's start on B.
//! * **sigkill**: A is SIGKILLed; measured from the kill to the item's start on B, which is bounded
//!   by the session timeout (the server's session expiry happens on a tick boundary: tick 200 ms
//!   here).
//!
//! `cargo bench --bench failover [-- --rounds 10 --session-ms 4000 --json]`

// A benchmark reports on stdout.
#![allow(clippy::print_stdout, clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::Duration;

use ejctl::registry::WatchEvent;
use support::cluster::{Cluster, ClusterOptions};

const JOB: &str =
    "name = \"fo\"\nsharding_total_count = 2\nfailover = true\nmisfire = true\ncommand = \"{script} {record}\"";

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

fn percentile(sorted: &[i64], p: f64) -> i64 {
    if sorted.is_empty() {
        return 0;
    }
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

/// One round: start A and B, run A's item, kill A the given way, return the latency in ms.
async fn round(c: &mut Cluster, graceful: bool) -> i64 {
    let a = c.start("127.0.0.1").await;
    let b = c.start("127.0.0.2").await;
    let (ida, idb) = (c.id(a), c.id(b));
    c.wait_settled(&[ida.clone(), idb.clone()], 2).await;
    let a_item: u32 = {
        let owner0 = c
            .registry
            .get(&c.paths().item_leaf(0, ejctl::registry::path::ItemLeaf::Instance))
            .await
            .unwrap()
            .unwrap()
            .text();
        u32::from(owner0 != ida)
    };
    c.set_sleep(Some(60.0));
    c.trigger(std::slice::from_ref(&ida)).await;
    let paths = c.paths();
    c.wait_until(20, "a's item to start", async |c| c.starts().iter().any(|s| s.2 == ida && s.1 == a_item)).await;
    c.set_sleep(None);
    let mut watch = c.registry.watch_subtree(&paths.instances()).await.unwrap();
    let gone = paths.instance(&ida);
    let t0 = if graceful {
        let pid = c.pid(a);
        support::cluster::signal(pid, "TERM");
        loop {
            match tokio::time::timeout(Duration::from_secs(30), watch.next()).await {
                Ok(Some(WatchEvent::Deleted(p))) if *p == *gone => break now_ms(),
                Ok(Some(_)) => {}
                _ => panic!("a's instance node was not deleted"),
            }
        }
    } else {
        c.kill(a)
    };
    c.wait_until(30, "the item to start on b", async |c| {
        c.starts().iter().any(|s| s.2 == idb && s.1 == a_item && s.3 >= t0)
    })
    .await;
    let start = c.starts().iter().filter(|s| s.2 == idb && s.1 == a_item && s.3 >= t0).map(|s| s.3).min().unwrap();
    c.stop(b).await;
    start - t0
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let json = std::env::args().any(|a| a == "--json");
    let rounds = support::bench_arg("--rounds", 10);
    let session_ms = support::bench_arg("--session-ms", 4000);
    let mut results = Vec::new();
    for graceful in [true, false] {
        let options = ClusterOptions {
            session_timeout_ms: session_ms,
            kill_grace_seconds: 1,
            tick_ms: 200,
            shutdown_timeout_seconds: 0,
            ..ClusterOptions::default()
        };
        let mut c = Cluster::zookeeper_with("fo", JOB, options).await;
        let mut latencies = Vec::new();
        for _ in 0..rounds {
            latencies.push(round(&mut c, graceful).await);
        }
        latencies.sort_unstable();
        results.push((if graceful { "graceful" } else { "sigkill" }, latencies));
    }
    if json {
        let doc: Vec<serde_json::Value> = results
            .iter()
            .map(|(kind, l)| {
                serde_json::json!({"case": kind, "rounds": l.len(), "p50_ms": percentile(l, 0.5), "p99_ms": percentile(l, 0.99), "max_ms": l.last(), "min_ms": l.first()})
            })
            .collect();
        println!("{}", serde_json::json!({"bench": "failover", "session_timeout_ms": session_ms, "results": doc}));
    } else {
        println!(
            "failover latency: instance death -> orphaned item started elsewhere ({rounds} rounds, session {session_ms} ms, tick 200 ms)"
        );
        for (kind, l) in &results {
            println!(
                "  {kind:<9} min {:>5} ms   p50 {:>5} ms   p99 {:>5} ms   max {:>5} ms",
                l.first().unwrap_or(&0),
                percentile(l, 0.5),
                percentile(l, 0.99),
                l.last().unwrap_or(&0)
            );
        }
    }
}
