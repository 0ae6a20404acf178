//! A job that cannot shard, on a real worker and ZooKeeper: the leader's sharding transaction is
//! refused (an item's owner node writable by nobody), and `job list`, `why` and the worker's
//! `/readyz` say so until the node is writable again and the sharding completes.

use std::time::Duration;

use zookeeper_client as zkc;

use crate::security::{WorkerProcess, job_file, marker_job};
use crate::support::{ZkServer, ejctl_on, eventually, unique_ns};

/// `/readyz`: its status and body (0 and the error when it does not answer).
async fn readyz(url: &str) -> (u16, String) {
    let client = reqwest::Client::builder().timeout(Duration::from_secs(5)).build().unwrap();
    match client.get(url).send().await {
        Ok(r) => (r.status().as_u16(), r.text().await.unwrap_or_default()),
        Err(e) => (0, e.to_string()),
    }
}

/// `job list -o json`'s entry of `job`.
fn listed(server: &ZkServer, ns: &str, job: &str) -> serde_json::Value {
    let out = ejctl_on(server, ns).args(["job", "list", "-o", "json"]).output().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    doc["jobs"].as_array().into_iter().flatten().find(|j| j["name"] == job).cloned().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_that_cannot_shard_says_so_everywhere_until_it_shards() {
    let server = ZkServer::start();
    let ns = unique_ns("stuck");
    let dir = tempfile::tempdir().unwrap();
    // Item 0 is owned by an instance that is gone, and its owner node may be read and have its
    // ACL changed, not be written: the leader's sharding transaction, which writes the new owner,
    // is refused.
    let client = zkc::Client::connector().connect(&server.connect_string()).await.unwrap();
    let open = zkc::CreateMode::Persistent.with_acls(zkc::Acls::anyone_all());
    let sharding = format!("/{ns}/stuck/sharding");
    for node in [format!("/{ns}"), format!("/{ns}/stuck"), sharding.clone(), format!("{sharding}/0")] {
        client.create(&node, b"", &open).await.unwrap();
    }
    let read_only = [zkc::Acl::new(zkc::Permission::READ | zkc::Permission::ADMIN, zkc::AuthId::anyone())];
    let owner = format!("{sharding}/0/instance");
    let locked = zkc::CreateMode::Persistent.with_acls(zkc::Acls::new(&read_only));
    client.create(&owner, b"127.0.0.9@-@1", &locked).await.unwrap();

    let (job, out) = marker_job(dir.path(), "stuck", "ran");
    let port = crate::support::zk::free_port();
    let extra = format!("session_timeout_ms = 10000\n\n[instance]\nhttp = \"127.0.0.1:{port}\"\n\n");
    let file = job_file(dir.path(), &server.connect_string(), &ns, &extra, &job);
    let worker = WorkerProcess::start(&file, &[]);
    let ready = format!("http://127.0.0.1:{port}/readyz");

    eventually(40, "job list to say CANNOT_SHARD", async || listed(&server, &ns, "stuck")["health"] == "CANNOT_SHARD")
        .await;
    let brief = listed(&server, &ns, "stuck");
    let cannot = &brief["cannotShard"];
    assert!(cannot["attempts"].as_u64().unwrap_or(0) >= 1, "{brief}");
    assert!(cannot["instance"].as_str().unwrap_or("").contains("@-@"), "{brief}");
    let error = cannot["error"].as_str().unwrap_or("").to_string();
    assert!(!error.is_empty() && cannot["since"].is_string(), "{brief}");
    assert!(cannot["reason"].as_str().unwrap_or("").starts_with("sharding failed "), "{brief}");
    assert!(worker.log().contains("sharding did not complete; it will be retried"), "{}", worker.log());

    let why = ejctl_on(&server, &ns).args(["why", "stuck", "-o", "json"]).output().unwrap();
    assert_eq!(why.status.code(), Some(1), "blocking");
    let doc: serde_json::Value = serde_json::from_slice(&why.stdout).unwrap();
    let finding = &doc["findings"][0];
    assert_eq!(finding["code"], "cannot_shard", "{doc}");
    assert!(finding["fix"].as_str().unwrap_or("").contains("jute.maxbuffer"), "{doc}");
    let table = ejctl_on(&server, &ns).args(["job", "list"]).output().unwrap();
    assert!(String::from_utf8_lossy(&table.stdout).contains("CANNOT_SHARD"));

    eventually(20, "/readyz to say the job cannot shard", async || {
        let (status, body) = readyz(&ready).await;
        status == 503 && body.contains("job stuck: cannot shard: ")
    })
    .await;
    assert!(std::fs::read_to_string(&out).unwrap_or_default().is_empty(), "nothing ran");

    // The node writable again: the leader's next attempt shards, which clears the record.
    client.set_acl(&owner, &zkc::Acls::anyone_all(), None).await.unwrap();
    eventually(60, "a run", async || !std::fs::read_to_string(&out).unwrap_or_default().is_empty()).await;
    let brief = listed(&server, &ns, "stuck");
    assert_ne!(brief["health"], "CANNOT_SHARD", "{brief}");
    assert!(brief["cannotShard"].is_null(), "{brief}");
    eventually(20, "/readyz to be ready", async || readyz(&ready).await.0 == 200).await;
    ejctl_on(&server, &ns).args(["why", "stuck"]).assert().success();
}
