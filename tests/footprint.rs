//! The ZooKeeper footprint of workers in a small configuration (the `footprint` benchmark's code,
//! in seconds), so that what a job and a fire cost the ensemble does not grow unnoticed.

use std::time::Duration;

use ejctl::config::JobConfig;
use ejctl::registry::Registry;
use ejctl::registry::codec::JobType;
use ejctl::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};

use crate::support::footprint::measure;
use crate::support::zk::four_letter;
use crate::support::{ZkServer, unique_ns, zk_options};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_costs_zookeeper_a_few_znodes_and_a_worker_one_watch() {
    let server = ZkServer::start();
    let fp = measure(&server, 5, 2, 4, Duration::from_secs(2), Some((5, 3))).await;
    eprintln!("{}", fp.row());
    // One persistent recursive watch per worker on the namespace (its jobs are all of it),
    // nothing else once settled.
    assert_eq!(fp.watches, 2, "{fp:?}");
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

/// The paths ZooKeeper holds a watch on (`wchp`), each once.
fn watched_paths(server: &ZkServer) -> Vec<String> {
    let mut paths: Vec<String> =
        four_letter(server.port(), "wchp").lines().filter(|l| l.starts_with('/')).map(str::to_string).collect();
    paths.sort();
    paths.dedup();
    paths
}

/// A worker whose jobs are most of their namespace watches the namespace once; one running a
/// job beside many others watches that job's subtree only, and so sees nothing of the others.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_watches_the_namespace_only_when_its_jobs_are_most_of_it() {
    let server = ZkServer::start();
    let ns = unique_ns("hub");
    let r = Registry::connect(zk_options(&server.connect_string(), &ns)).await.unwrap();
    for other in ["o1", "o2", "o3"] {
        r.put(&format!("/{other}/config"), b"").await.unwrap();
    }
    let start = |names: &[&str], pid: u32| {
        let defs = names
            .iter()
            .map(|name| {
                let mut config = JobConfig::new(name, 2);
                config.cron = Some("0 0 3 * * ?".into());
                config.props.insert("script.command.line".into(), "/bin/true".into());
                JobDefinition::new(JobType::Script, config)
            })
            .collect();
        let mut config = WorkerConfig::new(RegistryTarget::ZooKeeper(zk_options(&server.connect_string(), &ns)), defs);
        config.ip = Some("10.0.0.1".into());
        config.pid = Some(pid);
        Worker::start(config)
    };
    let lone = start(&["mine"], 1).await.unwrap();
    assert_eq!(watched_paths(&server), [format!("/{ns}/mine")]);
    lone.shutdown().await;
    let most = start(&["a", "b", "c", "d"], 2).await.unwrap();
    assert_eq!(watched_paths(&server), [format!("/{ns}")]);
    most.shutdown().await;
}
