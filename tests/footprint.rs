//! The ZooKeeper footprint of workers in a small configuration (the `footprint` benchmark's code,
//! in seconds), so that what a job and a fire cost the ensemble does not grow unnoticed; and the
//! memory an idle `ejctl run` gives back.

use std::time::Duration;

use ejctl::config::JobConfig;
use ejctl::registry::Registry;
use ejctl::registry::codec::JobType;
use ejctl::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};

use crate::support::footprint::measure;
use crate::support::zk::four_letter;
use crate::support::{ZkServer, run_notified, signal, status_kib, unique_ns, wait_exit, zk_options};

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

/// `ejctl run`'s first trim (5 s after start) drops the mappings of the code and read-only data
/// start-up ran through, and the worker goes on firing: what it runs next is mapped again.
#[test]
fn a_worker_gives_back_the_pages_start_up_ran_through_and_keeps_firing() {
    use std::os::unix::fs::PermissionsExt;
    use std::time::Instant;

    let dir = tempfile::tempdir().unwrap();
    let fired = dir.path().join("fired");
    let script = dir.path().join("tick.sh");
    std::fs::write(&script, format!("#!/bin/sh\necho fired >> {}\n", fired.display())).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let file = dir.path().join("job.toml");
    std::fs::write(
        &file,
        format!("[[job]]\nname = \"tick\"\ncron = \"* * * * * ?\"\ncommand = \"{}\"\n", script.display()),
    )
    .unwrap();
    let (mut child, socket) = run_notified(&file, dir.path());
    let pid = child.id();
    let mut buf = [0u8; 1024];
    socket.recv(&mut buf).expect("READY=1");
    let before = status_kib(pid, "RssFile").unwrap();
    let fires = || std::fs::read_to_string(&fired).map(|t| t.lines().count()).unwrap_or(0);
    let poll = |what: &str, done: &dyn Fn() -> bool| {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !done() {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    // Sampled often: the fires map some of it again between trims.
    poll("the file pages to be given back", &|| status_kib(pid, "RssFile").unwrap() < before * 3 / 4);
    let after = fires();
    poll("a fire after the trim", &|| fires() > after);
    signal(pid, "TERM");
    assert_eq!(wait_exit(&mut child, Duration::from_secs(30)), Some(0));
}
