//! `ejctl dump` end to end against a real ZooKeeper, and the connection errors every admin
//! command shares (exit 5, one line, no backtrace).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;

use ejctl::config::JobConfig;
use ejctl::registry::codec::{InstanceId, InstanceInfo};
use ejctl::registry::path::{ItemLeaf, JobPaths};
use ejctl::registry::{Mode, Registry};

use crate::support::zk::free_port;
use crate::support::{ZkServer, assert_unreachable, ejctl, ejctl_on, unique_ns, zk_options, zk_registry};

/// Writes a small job tree as a Java worker would leave it.
async fn seed(r: &Registry, job: &str) {
    let p = JobPaths::new(job);
    let mut cfg = JobConfig::new(job, 2);
    cfg.cron = Some("0/5 * * * * ?".into());
    r.put(p.root(), b"SCRIPT").await.unwrap();
    r.put(&p.config(), cfg.to_yaml().as_bytes()).await.unwrap();
    r.put(&p.server("192.168.0.1"), b"ENABLED").await.unwrap();
    let id = InstanceId::new("192.168.0.1", 42);
    r.create(&p.instance(id.as_str()), InstanceInfo::new(&id).to_yaml().as_bytes(), Mode::Ephemeral).await.unwrap();
    for item in 0..2 {
        r.put(&p.item_leaf(item, ItemLeaf::Instance), id.as_str().as_bytes()).await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dump_prints_the_tree_in_every_format() {
    let (server, ns, r) = zk_registry("dump").await;
    seed(&r, "alpha").await;
    seed(&r, "beta").await;

    // plain: one node per line, path and value (escaped) then the other fields, tab-separated.
    let out =
        ejctl_on(&server, &ns).args(["dump", "alpha", "-o", "plain"]).assert().success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert!(rows.iter().all(|r| r.len() == 5), "{text}");
    assert_eq!(rows[0][..4], ["/alpha", "SCRIPT", "false", "0"]);
    assert!(rows[1][1].starts_with("cron: 0/5 * * * * ?\\ndisabled: false\\n"), "{text}");
    assert_eq!(
        rows[3][..3],
        ["/alpha/instances/192.168.0.1@-@42", "jobInstanceId: 192.168.0.1@-@42\\nserverIp: 192.168.0.1\\n", "true"]
    );

    // --elasticjob: ElasticJob's dump lines for one job, reverse order, no root line.
    let out =
        ejctl_on(&server, &ns).args(["dump", "alpha", "--elasticjob"]).assert().success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with('/')).collect();
    assert_eq!(
        lines,
        [
            "/alpha/sharding | ",
            "/alpha/sharding/1 | ",
            "/alpha/sharding/1/instance | 192.168.0.1@-@42",
            "/alpha/sharding/0 | ",
            "/alpha/sharding/0/instance | 192.168.0.1@-@42",
            "/alpha/servers | ",
            "/alpha/servers/192.168.0.1 | ENABLED",
            "/alpha/instances | ",
            "/alpha/instances/192.168.0.1@-@42 | jobInstanceId: 192.168.0.1@-@42",
            "/alpha/config | cron: 0/5 * * * * ?",
        ]
    );
    assert!(text.contains("\nserverIp: 192.168.0.1\n"), "multi-line values are printed raw: {text}");

    // --mask-ips
    let out = ejctl_on(&server, &ns).args(["dump", "alpha", "--elasticjob", "--mask-ips"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("/alpha/servers/ip1 | ENABLED"), "{text}");
    assert!(text.contains("/alpha/sharding/0/instance | ip1@-@42"), "{text}");
    assert!(!text.contains("192.168"), "{text}");

    // json: the whole namespace, parents first, with node metadata.
    let out = ejctl_on(&server, &ns).args(["dump", "-o", "json"]).assert().success().get_output().stdout.clone();
    let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(doc["namespace"], ns.as_str());
    assert_eq!(doc["job"], serde_json::Value::Null);
    let nodes = doc["nodes"].as_array().unwrap();
    let paths: Vec<&str> = nodes.iter().map(|n| n["path"].as_str().unwrap()).collect();
    assert_eq!(paths[0], "/alpha");
    assert!(paths.contains(&"/beta/sharding/1/instance"));
    let instance = nodes.iter().find(|n| n["path"] == "/alpha/instances/192.168.0.1@-@42").unwrap();
    assert_eq!(instance["ephemeral"], true);
    let root = nodes.iter().find(|n| n["path"] == "/alpha").unwrap();
    assert_eq!(root["value"], "SCRIPT");
    assert_eq!(root["ephemeral"], false);

    // yaml carries the same document.
    let out =
        ejctl_on(&server, &ns).args(["dump", "beta", "-o", "yaml"]).assert().success().get_output().stdout.clone();
    let doc: serde_yaml_ng::Value = serde_yaml_ng::from_slice(&out).unwrap();
    assert_eq!(doc["job"].as_str(), Some("beta"));

    // table: an indented tree.
    let out = ejctl_on(&server, &ns).args(["dump", "alpha"]).assert().success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("/alpha = SCRIPT\n"), "{text}");
    assert!(text.contains("├── config\n"), "{text}");
    assert!(text.contains("cron: 0/5 * * * * ?"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dump_reports_missing_jobs_and_namespaces() {
    let (server, ns, r) = zk_registry("dump").await;
    seed(&r, "alpha").await;
    ejctl_on(&server, &ns)
        .args(["dump", "nope"])
        .assert()
        .code(3)
        .stdout("")
        .stderr(format!("ejctl: error: job 'nope' not found in namespace '{ns}'\n"));
    // A near miss names the job meant, as `job show` does.
    ejctl_on(&server, &ns)
        .args(["dump", "alphaa"])
        .assert()
        .code(3)
        .stdout("")
        .stderr(format!("ejctl: error: job 'alphaa' not found in namespace '{ns}' (did you mean 'alpha'?)\n"));
    ejctl_on(&server, "no-such-namespace")
        .args(["dump"])
        .assert()
        .code(3)
        .stderr("ejctl: error: namespace 'no-such-namespace' does not exist in the registry\n");
    ejctl_on(&server, &ns)
        .args(["dump", "bad/name"])
        .assert()
        .code(2)
        .stderr("ejctl: error: job name 'bad/name' must not contain '/'\n");
    // Nothing was created by the failed commands.
    assert_eq!(r.exists("/nope").await.unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registry_errors_are_one_line_with_exit_5() {
    let server = ZkServer::start();
    assert_unreachable(ejctl(), &["dump"]);

    // Bad connect strings.
    for (bad, why) in [
        ("not a host", "is not a host name or address"),
        ("h:abc", "'abc' is not a port number"),
        ("h:2181/chroot", "has a path"),
    ] {
        let out = ejctl().args(["dump", "--zk", bad, "--namespace", "x"]).assert().code(5);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(why), "{bad}: {err}");
    }

    // Wrong digest credentials on a namespace created with creator-only ACLs.
    let ns = unique_ns("acl");
    let mut opts = zk_options(&server.connect_string(), &ns);
    opts.digest = Some("ops:right".into());
    let owner = Registry::connect(opts).await.unwrap();
    owner.put("/job/config", b"x").await.unwrap();
    let out = ejctl_on(&server, &ns).args(["dump", "--digest", "ops:wrong"]).assert().code(5);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("wrong or missing digest credentials"), "{err}");
    // ...and without credentials.
    ejctl_on(&server, &ns).args(["dump"]).assert().code(5);
    // The right credentials work.
    ejctl_on(&server, &ns)
        .args(["dump", "--digest", "ops:right", "--elasticjob"])
        .assert()
        .success()
        .stdout("/job | \n/job/config | x\n");
}

#[test]
fn dump_reads_a_worker_dump_port() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let worker = std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().unwrap();
        let mut line = String::new();
        BufReader::new(conn.try_clone().unwrap()).read_line(&mut line).unwrap();
        conn.write_all(b"/myJob/servers/10.1.2.3 | ENABLED\n/myJob/instances/10.1.2.3@-@7 | \n").unwrap();
        line
    });
    ejctl()
        .args(["dump", "myJob", "--addr", &addr, "--mask-ips"])
        .assert()
        .success()
        .stdout("/myJob/servers/ip1 | ENABLED\n/myJob/instances/ip1@-@7 | \n");
    assert_eq!(worker.join().unwrap(), "dump@myJob\n");
    // Nothing listening: a clear failure.
    let dead = format!("127.0.0.1:{}", free_port());
    let out = ejctl().args(["dump", "myJob", "--addr", &dead]).assert().code(1);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(err.starts_with(&format!("ejctl: error: cannot read the dump port at {dead}")), "{err}");
    ejctl().args(["dump", "--addr", &dead]).assert().code(2);
}
