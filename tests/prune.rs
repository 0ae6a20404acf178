//! Servers that are gone for good: `ejctl server prune` against a real ZooKeeper, its
//! version-checked deletes, and a worker's `prune_servers_after` with 1,000 pod IPs coming and
//! going (embedded registry).

use std::collections::BTreeSet;
use std::time::Duration;

use ejctl::config::JobConfig;
use ejctl::ops::Admin;
use ejctl::registry::codec::{InstanceId, InstanceInfo, JobType};
use ejctl::registry::embedded::EmbeddedStore;
use ejctl::registry::path::{ItemLeaf, JobPaths};
use ejctl::registry::{Mode, Op, Registry};
use ejctl::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};
use serde_json::Value;

use crate::support::{ejctl_on, eventually, zk_registry};

/// Writes `servers/{ip}` with `status` for each server, and a live (ephemeral) instance per
/// `live` IP, owned by `r`'s session.
async fn servers(r: &Registry, job: &str, servers: &[(&str, &str)], live: &[&str]) {
    let paths = JobPaths::new(job);
    r.create(paths.root(), b"SCRIPT", Mode::Persistent).await.unwrap();
    for (ip, status) in servers {
        r.create(&paths.server(ip), status.as_bytes(), Mode::Persistent).await.unwrap();
    }
    for ip in live {
        let id = InstanceId::new(ip, 7);
        let info = InstanceInfo::new(&id).to_yaml();
        r.create(&paths.instance(id.as_str()), info.as_bytes(), Mode::Ephemeral).await.unwrap();
    }
}

async fn server_ips(r: &Registry, job: &str) -> BTreeSet<String> {
    r.children(&JobPaths::new(job).servers()).await.unwrap().unwrap_or_default().into_iter().collect()
}

fn pairs(doc: &Value) -> Vec<(String, String)> {
    doc["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["job"].as_str().unwrap().to_string(), c["server"].as_str().unwrap().to_string()))
        .collect()
}

fn strings(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(ToString::to_string).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_prune_never_removes_a_server_a_live_instance_or_a_sharding_item_still_uses() {
    let (server, ns, r) = zk_registry("prune").await;
    // Job a: .1 live; .2 owns item 0 (its process is gone, not yet resharded); .3 disabled;
    // .12 unused although .1 (a prefix of it) is live; .4 unused; .5 unused, 2.x-style value.
    servers(
        &r,
        "a",
        &[
            ("10.0.0.1", "ENABLED"),
            ("10.0.0.2", "ENABLED"),
            ("10.0.0.3", "DISABLED"),
            ("10.0.0.12", "ENABLED"),
            ("10.0.0.4", "ENABLED"),
            ("10.0.0.5", ""),
        ],
        &["10.0.0.1"],
    )
    .await;
    let a = JobPaths::new("a");
    r.create(&a.item_leaf(0, ItemLeaf::Instance), b"10.0.0.2@-@9", Mode::Persistent).await.unwrap();
    r.create(&a.item_leaf(1, ItemLeaf::Instance), b"10.0.0.1@-@7", Mode::Persistent).await.unwrap();
    // Job b: .4 is live here (only a's .4 is unused); .6 is taking item 0 over.
    servers(&r, "b", &[("10.0.0.4", "ENABLED"), ("10.0.0.6", "ENABLED"), ("10.0.0.7", "ENABLED")], &["10.0.0.4"]).await;
    let b = JobPaths::new("b");
    r.create(&b.item_leaf(0, ItemLeaf::Failovering), b"10.0.0.6@-@3", Mode::Persistent).await.unwrap();

    let unused = vec![
        ("a".to_string(), "10.0.0.12".to_string()),
        ("a".to_string(), "10.0.0.4".to_string()),
        ("a".to_string(), "10.0.0.5".to_string()),
        ("b".to_string(), "10.0.0.7".to_string()),
    ];
    // A dry run by default: lists, deletes nothing.
    let out = ejctl_on(&server, &ns).args(["server", "prune", "--older-than", "0s", "-o", "json"]).assert().success();
    let doc: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["action"], "prune-dry-run");
    assert_eq!(pairs(&doc), unused);
    assert!(doc["changed"].as_array().unwrap().iter().all(|c| c["effect"] == "unused"), "{doc}");
    assert_eq!(server_ips(&r, "a").await.len(), 6);
    // The default --older-than (1 minute) keeps the servers just written.
    let out = ejctl_on(&server, &ns).args(["server", "prune", "--yes"]).assert().success();
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("no server to prune"));
    assert_eq!(server_ips(&r, "a").await.len(), 6);

    let out = ejctl_on(&server, &ns)
        .args(["server", "prune", "--older-than", "0s", "--yes", "-o", "json"])
        .assert()
        .success();
    let doc: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["action"], "prune");
    assert_eq!(pairs(&doc), unused);
    assert_eq!(server_ips(&r, "a").await, strings(&["10.0.0.1", "10.0.0.2", "10.0.0.3"]));
    assert_eq!(server_ips(&r, "b").await, strings(&["10.0.0.4", "10.0.0.6"]));
    // Again: nothing left to prune, exit 0.
    let out = ejctl_on(&server, &ns).args(["server", "prune", "--older-than", "0s", "--yes"]).assert().success();
    assert_eq!(String::from_utf8_lossy(&out.get_output().stderr).trim(), "no server to prune");
    assert!(out.get_output().stdout.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_comes_alive_or_changes_after_the_plan_is_kept() {
    let (_server, ns, r) = zk_registry("prune-race").await;
    servers(&r, "a", &[("10.0.0.1", "ENABLED"), ("10.0.0.2", "ENABLED"), ("10.0.0.3", "ENABLED")], &[]).await;
    let admin = Admin::new(r.clone(), &ns);
    let now = chrono::Utc::now().timestamp_millis();
    let plan = admin.plan_prune(None, Duration::ZERO, now).await.unwrap();
    assert_eq!(plan.len(), 3);
    // Meanwhile .1 registers an instance and .2's node is written (a Java worker's start-up).
    let id = InstanceId::new("10.0.0.1", 5);
    let paths = JobPaths::new("a");
    r.create(&paths.instance(id.as_str()), b"", Mode::Ephemeral).await.unwrap();
    r.set(&paths.server("10.0.0.2"), b"ENABLED", None).await.unwrap();
    let done = admin.prune(&plan).await.unwrap();
    let deleted: Vec<&str> = done.iter().map(|c| c.server.as_deref().unwrap()).collect();
    assert_eq!(deleted, ["10.0.0.3"]);
    assert_eq!(server_ips(&r, "a").await, strings(&["10.0.0.1", "10.0.0.2"]));
}

fn daily_job(name: &str) -> JobDefinition {
    let mut config = JobConfig::new(name, 4);
    config.cron = Some("0 0 3 * * ?".into());
    config.props.insert("script.command.line".into(), "/bin/true".into());
    JobDefinition::new(JobType::Script, config)
}

/// What a pod's worker leaves: its server node and its live instance (a session of its own),
/// written at once so that a prune cannot fall between them.
async fn pod_up(store: &EmbeddedStore, job: &str, ip: &str) -> Registry {
    let pod = Registry::embedded(store);
    let paths = JobPaths::new(job);
    let id = InstanceId::new(ip, 1);
    let instance = InstanceInfo::new(&id).to_yaml().into_bytes();
    pod.transaction(&[
        Op::Create { path: paths.server(ip), data: b"ENABLED".to_vec(), mode: Mode::Persistent },
        Op::Create { path: paths.instance(id.as_str()), data: instance, mode: Mode::Ephemeral },
    ])
    .await
    .unwrap();
    pod
}

fn pod_ip(i: usize) -> String {
    format!("10.1.{}.{}", i / 250, i % 250 + 1)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_auto_prune_servers_do_not_accumulate_as_1000_pod_ips_come_and_go() {
    const PODS: usize = 1000;
    const ALIVE: usize = 20;
    let store = EmbeddedStore::new();
    let mut config = WorkerConfig::new(RegistryTarget::Embedded(store.clone()), vec![daily_job("churn")]);
    config.ip = Some("10.0.0.1".into());
    config.prune_servers_after = Some(Duration::ZERO);
    let worker = Worker::start(config).await.unwrap();
    let r = Registry::embedded(&store);
    let mut pods = std::collections::VecDeque::new();
    for i in 0..PODS {
        pods.push_back((i, pod_up(&store, "churn", &pod_ip(i)).await));
        if pods.len() > ALIVE {
            // The oldest pod goes away for good: its session ends, its instance node with it.
            drop(pods.pop_front());
        }
        if (i + 1) % 100 == 0 {
            // Every 100 pods: within a round or two only the live pods' servers are left, and
            // every live pod still has its own.
            let live: BTreeSet<String> = pods.iter().map(|(i, _)| pod_ip(*i)).chain(["10.0.0.1".to_string()]).collect();
            eventually(30, "only the live pods' servers left", async || server_ips(&r, "churn").await == live).await;
        }
    }
    worker.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_writes_its_server_node_again_when_it_is_deleted_while_it_runs() {
    let store = EmbeddedStore::new();
    let mut config = WorkerConfig::new(RegistryTarget::Embedded(store.clone()), vec![daily_job("heal")]);
    config.ip = Some("10.0.0.1".into());
    let worker = Worker::start(config).await.unwrap();
    let r = Registry::embedded(&store);
    let server = JobPaths::new("heal").server("10.0.0.1");
    r.delete(&server, None).await.unwrap();
    eventually(10, "the server node written again", async || r.exists(&server).await.unwrap().is_some()).await;
    assert_eq!(r.get(&server).await.unwrap().unwrap().text(), "ENABLED");
    worker.shutdown().await;
}
