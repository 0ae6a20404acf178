//! The ZooKeeper footprint of workers in a small configuration (the `footprint` benchmark's code,
//! in seconds), so that what a job and a fire cost the ensemble does not grow unnoticed.

use std::time::Duration;

use crate::support::ZkServer;
use crate::support::footprint::measure;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_costs_zookeeper_a_few_znodes_and_one_watch_per_instance() {
    let server = ZkServer::start();
    let fp = measure(&server, 5, 2, 4, Duration::from_secs(2), Some((5, 3))).await;
    eprintln!("{}", fp.row());
    // One persistent recursive watch per job per worker, nothing else once settled.
    assert_eq!(fp.watches, 10, "{fp:?}");
    // Root, config, servers (2), instances (2), runners (2), sharding (4 items with their
    // owners), leader nodes, the latch directory: 25 with 4 items and 2 instances today.
    assert!(fp.znodes_per_job() <= 26.0, "{fp:?}");
    // Ephemerals: per job and instance its instance node and its runner node; per job the
    // leader's latch node.
    assert!(fp.ephemerals <= 5 * (2 * 2 + 1), "{fp:?}");
    // Start-up: publishing, the cache's first read, the registration in one transaction, the
    // election, two shardings (the second instance joins after the first sharded) and the cache
    // reads their events cause: about 17 requests per job and instance today (38 before they
    // were batched).
    assert!(fp.startup_requests_per_job_per_instance() <= 30.0, "{fp:?}");
    // A fire of a job on an instance (2 items here): one transaction writes its items' running
    // nodes, one per batch of ended runs clears them with their results (runs that end apart
    // are two batches); nothing is read.
    let fires = fp.fires.as_ref().expect("fires measured");
    assert!(fires.complete, "{fp:?}");
    assert!(fires.writes <= 3.2 && fires.reads <= 0.5, "{fp:?}");
}
