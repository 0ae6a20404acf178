//! The ZooKeeper footprint of workers in a small configuration (the `footprint` benchmark's code,
//! in seconds), so that what a job costs the ensemble does not grow unnoticed.

use std::time::Duration;

use crate::support::ZkServer;
use crate::support::footprint::measure;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_costs_zookeeper_a_few_znodes_and_one_watch_per_instance() {
    let server = ZkServer::start();
    let fp = measure(&server, 5, 2, 4, Duration::from_secs(2)).await;
    eprintln!("{}", fp.row());
    // One persistent recursive watch per job per worker, nothing else once settled.
    assert_eq!(fp.watches, 10, "{fp:?}");
    // Root, config, servers (2), instances (2), runners (2), sharding (4 items with their
    // owners), leader nodes, the latch directory: 25 with 4 items and 2 instances today.
    assert!(fp.znodes_per_job() <= 26.0, "{fp:?}");
    // Ephemerals: per job and instance its instance node and its runner node; per job the
    // leader's latch node.
    assert!(fp.ephemerals <= 5 * (2 * 2 + 1), "{fp:?}");
}
