//! The admin commands end to end against a real ZooKeeper: `job`, `server`, `instance`,
//! `sharding` and `failover`. Most run on a tree written in ElasticJob 3.0.5's exact format
//! (`tests/data/elasticjob-3.0.5/`, as a Java cluster leaves it); `job trigger --wait` runs
//! against in-process ejctl workers. Each test checks the exit code, stdout (JSON parsed), the
//! stderr message and the tree read back with `Registry`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use ejctl::config::JobConfig;
use ejctl::jobfile;
use ejctl::registry::codec::{InstanceId, InstanceInfo};
use ejctl::registry::path::{ItemLeaf, JobPaths};
use ejctl::registry::{Mode, Registry};
use ejctl::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};
use serde_json::{Value, json};

use crate::support::{ZkServer, assert_unreachable, ejctl, ejctl_on, eventually, seed_jobs, write_script, zk_registry};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/elasticjob-3.0.5");

const SIMPLE: &str = "javaSimpleJob";
const FAILOVER: &str = "javaFailoverJob";
const SCRIPT: &str = "javaScriptJob";
const I1: &str = "192.168.10.1@-@2101";
const I2: &str = "192.168.10.2@-@2102";
const I3: &str = "192.168.10.3@-@2103";

/// Runs a command that must succeed and parses its stdout as JSON.
fn json_of(cmd: &mut Command) -> Value {
    let out = cmd.assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out)))
}

/// Runs a command and returns (exit code, stdout, stderr).
fn run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// Writes the ElasticJob 3.0.5 fixture tree (`tree.tsv`) with `r`'s session, which then owns the
/// ephemeral nodes like the live Java instances would.
async fn load_fixture(r: &Registry) {
    let dir = PathBuf::from(FIXTURE);
    let text = std::fs::read_to_string(dir.join("tree.tsv")).unwrap();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut fields = line.splitn(3, '\t');
        let (path, mode, value) = (fields.next().unwrap(), fields.next().unwrap(), fields.next().unwrap_or(""));
        let data = match value.strip_prefix('@') {
            Some(file) => std::fs::read(dir.join(file)).unwrap(),
            None => value.replace("\\n", "\n").into_bytes(),
        };
        let mode = match mode {
            "P" => Mode::Persistent,
            "E" => Mode::Ephemeral,
            other => panic!("bad mode {other} in {line}"),
        };
        r.create(path, &data, mode).await.unwrap();
    }
}

/// Every node of the namespace with its data.
async fn snapshot(r: &Registry) -> BTreeMap<String, String> {
    r.read_subtree("/", &|_| {}).await.unwrap().unwrap().into_iter().map(|n| (n.path.clone(), n.node.text())).collect()
}

async fn value(r: &Registry, path: &str) -> Option<String> {
    r.get(path).await.unwrap().map(|n| n.text())
}

async fn fixture() -> (ZkServer, String, Registry) {
    let (server, ns, r) = zk_registry("admin").await;
    load_fixture(&r).await;
    (server, ns, r)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_java_tree_is_listed_and_shown() {
    let (server, ns, r) = fixture().await;
    let before = snapshot(&r).await;

    // job list: statuses of docs/src/design/compatibility.md#statuses; the config-less orphanJob is
    // skipped.
    let doc = json_of(ejctl_on(&server, &ns).args(["job", "list", "-o", "json"]));
    assert_eq!(doc["namespace"], ns.as_str());
    let jobs = doc["jobs"].as_array().unwrap();
    let listed: Vec<(&str, &str, u64, u64)> = jobs
        .iter()
        .map(|j| {
            (
                j["name"].as_str().unwrap(),
                j["status"].as_str().unwrap(),
                j["instanceCount"].as_u64().unwrap(),
                j["shardingTotalCount"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [(FAILOVER, "SHARDING_FLAG", 1, 4), (SCRIPT, "DISABLED", 2, 2), (SIMPLE, "OK", 2, 3)],
        "{doc:#}"
    );
    let simple = &jobs[2];
    assert_eq!(simple["cron"], "0/5 * * * * ?");
    assert_eq!(simple["timeZone"], "GMT+08:00");
    assert_eq!(simple["description"], "order settlement");
    let next = chrono::DateTime::parse_from_rfc3339(simple["nextFire"].as_str().unwrap()).unwrap();
    assert!(next > chrono::Utc::now() && next < chrono::Utc::now() + chrono::TimeDelta::seconds(6), "{next}");
    assert_eq!(jobs[1]["description"], "");
    assert_eq!(jobs[1]["timeZone"], Value::Null);

    // The same document in YAML; plain rows without a header; a table for people.
    let out = ejctl_on(&server, &ns).args(["job", "list", "-o", "yaml"]).assert().success().get_output().stdout.clone();
    let yaml: serde_yaml_ng::Value = serde_yaml_ng::from_slice(&out).unwrap();
    assert_eq!(yaml["jobs"][2]["name"].as_str(), Some(SIMPLE));
    let (code, plain, err) = run(ejctl_on(&server, &ns).args(["job", "list", "-o", "plain"]));
    assert_eq!((code, err.as_str()), (0, ""));
    let rows: Vec<Vec<&str>> = plain.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(&rows[2][..3], [SIMPLE, "OK", "0/5 * * * * ?"]);
    assert_eq!(&rows[2][4..7], ["2", "3", "order settlement"]);
    assert_eq!(&rows[2][7..9], ["", "-"], "no run recorded: no last run, health unknown");
    assert_eq!(
        &rows[2][9..],
        ["GMT+08:00", "", "", "", ""],
        "the time zone, the failing, overdue and slow items, why it cannot shard"
    );
    let (code, table, _) = run(ejctl_on(&server, &ns).args(["job", "list"]));
    assert_eq!(code, 0);
    assert!(table.contains("NEXT FIRE") && table.contains("SHARDING_FLAG") && table.contains("(GMT+08:00)"), "{table}");

    // job show: one document with config, servers, instances, sharding, failover and leader.
    let doc = json_of(ejctl_on(&server, &ns).args(["job", "show", FAILOVER, "-o", "json"]));
    let job = &doc["job"];
    assert_eq!(job["name"], FAILOVER);
    assert_eq!(job["namespace"], ns.as_str());
    assert_eq!(job["type"], "org.apache.shardingsphere.elasticjob.example.job.simple.JavaFailoverJob");
    assert_eq!(job["status"], "SHARDING_FLAG");
    assert_eq!(job["leader"], I1);
    assert_eq!(job["reshardingNeeded"], true);
    assert_eq!(job["config"]["shardingTotalCount"], 4);
    assert_eq!(job["configError"], Value::Null);
    assert_eq!(
        job["servers"],
        json!([
            {"ip": "192.168.10.1", "status": "ENABLED", "instances": [I1]},
            {"ip": "192.168.10.3", "status": "ENABLED", "instances": []},
        ])
    );
    assert_eq!(
        job["instances"],
        json!([{"job": FAILOVER, "id": I1, "serverIp": "192.168.10.1", "serverStatus": "ENABLED", "labels": null,
                "leader": true, "items": [2, 3]}])
    );
    let items = job["sharding"].as_array().unwrap();
    let statuses: Vec<&str> = items.iter().map(|i| i["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["RUNNING", "SHARDING_FLAG", "PENDING", "PENDING"]);
    // The crashed owner's instance node is gone: raw id and its IP (Java would throw).
    assert!(items[0]["nextFire"].is_string(), "an enabled item of a cron job has a next fire");
    let mut item0 = items[0].clone();
    item0["nextFire"] = Value::Null;
    assert_eq!(
        item0,
        json!({"item": 0, "instance": I3, "serverIp": "192.168.10.3", "status": "RUNNING", "health": "UNKNOWN",
               "reason": null, "failover": I1, "failovering": I1, "running": true, "misfire": false, "disabled": false, "lastRun": null,
               "result": null, "exitCode": null, "message": null, "lastInstance": null, "nextFire": null})
    );
    assert_eq!(items[3]["misfire"], true);
    assert_eq!(
        job["failover"],
        json!({"pending": [{"item": 1, "owner": I3}],
               "assigned": [{"item": 0, "owner": I3, "failover": I1, "failovering": I1, "running": true}]})
    );

    // Every key the Java side wrote is in the config document.
    let doc = json_of(ejctl_on(&server, &ns).args(["job", "show", SIMPLE, "-o", "json"]));
    let config = &doc["job"]["config"];
    assert_eq!(config["jobExecutorThreadPoolSizeProviderType"], "CPU");
    assert_eq!(config["props"], json!({"custom.key": "value"}));
    assert_eq!(config.as_object().unwrap().len(), 19, "{config:#}");
    assert_eq!(doc["job"]["instances"][1]["items"], json!([0, 2]));
    assert_eq!(doc["job"]["instances"][1]["leader"], true);
    let (code, text, _) = run(ejctl_on(&server, &ns).args(["job", "show", SIMPLE]));
    assert_eq!(code, 0);
    for needle in
        ["javaSimpleJob (org.apache", "0=Beijing,1=Shanghai,2=Guangzhou", "Servers", "Instances", "Sharding", I2]
    {
        assert!(text.contains(needle), "missing {needle}: {text}");
    }
    let (code, plain, _) = run(ejctl_on(&server, &ns).args(["job", "show", SCRIPT, "-o", "plain"]));
    assert_eq!(code, 0);
    assert!(plain.starts_with("job\tjavaScriptJob\tSCRIPT\tDISABLED\n"), "{plain}");
    // Every field of the item's document: ..., failovering, running, misfire, exit code, message,
    // last instance, health, reason.
    assert!(
        plain.contains(
            "\nitem\t1\t192.168.10.1@-@2101\t192.168.10.1\tDISABLED\t\ttrue\t\t\t\t\tfalse\tfalse\t\t\t\tDISABLED\t\n"
        ),
        "{plain}"
    );

    // sharding show.
    let doc = json_of(ejctl_on(&server, &ns).args(["sharding", "show", SCRIPT, "-o", "json"]));
    assert_eq!(doc["job"], SCRIPT);
    assert_eq!(doc["shardingTotalCount"], 2);
    let items: Vec<(u64, &str, &str, bool)> = doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["item"].as_u64().unwrap(),
                i["instance"].as_str().unwrap(),
                i["status"].as_str().unwrap(),
                i["disabled"] == true,
            )
        })
        .collect();
    assert_eq!(items, [(0, I2, "PENDING", false), (1, I1, "DISABLED", true)]);
    let (code, table, _) = run(ejctl_on(&server, &ns).args(["sharding", "show", FAILOVER]));
    assert_eq!(code, 0);
    assert!(table.contains("SHARDING_FLAG") && table.contains("misfire"), "{table}");

    // failover list.
    let doc = json_of(ejctl_on(&server, &ns).args(["failover", "list", FAILOVER, "-o", "json"]));
    assert_eq!(doc["job"], FAILOVER);
    assert_eq!(doc["pending"], json!([{"item": 1, "owner": I3}]));
    assert_eq!(doc["assigned"][0]["failover"], I1);
    let (code, plain, _) = run(ejctl_on(&server, &ns).args(["failover", "list", FAILOVER, "-o", "plain"]));
    assert_eq!(code, 0);
    assert_eq!(plain, format!("1\tpending\t{I3}\t\t\t\n0\tassigned\t{I3}\t{I1}\t{I1}\trunning\n"));

    // instance list, all jobs and one.
    let doc = json_of(ejctl_on(&server, &ns).args(["instance", "list", "-o", "json"]));
    let all = doc["instances"].as_array().unwrap();
    assert_eq!(all.len(), 5);
    let leader = all.iter().find(|i| i["job"] == SIMPLE && i["id"] == I2).unwrap();
    assert_eq!(
        *leader,
        json!({"job": SIMPLE, "id": I2, "serverIp": "192.168.10.2", "serverStatus": "ENABLED", "labels": null,
               "leader": true, "items": [0, 2]})
    );
    let doc = json_of(ejctl_on(&server, &ns).args(["instance", "list", SCRIPT, "-o", "json"]));
    let statuses: Vec<&str> =
        doc["instances"].as_array().unwrap().iter().map(|i| i["serverStatus"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["DISABLED", "DISABLED"]);
    let (code, table, _) = run(ejctl_on(&server, &ns).args(["instance", "list"]));
    assert_eq!(code, 0);
    assert!(table.contains("LEADER") && table.contains(I1), "{table}");

    // server list: ServerStatisticsAPI, the orphan job's server included.
    let doc = json_of(ejctl_on(&server, &ns).args(["server", "list", "-o", "json"]));
    assert_eq!(
        doc["servers"],
        json!([
            {"ip": "192.168.10.1", "instances": [I1], "jobs": [FAILOVER, SCRIPT, SIMPLE], "disabledJobs": [SCRIPT]},
            {"ip": "192.168.10.2", "instances": [I2], "jobs": [SCRIPT, SIMPLE], "disabledJobs": [SCRIPT]},
            {"ip": "192.168.10.3", "instances": [], "jobs": [FAILOVER], "disabledJobs": []},
            {"ip": "192.168.10.9", "instances": [], "jobs": ["orphanJob"], "disabledJobs": []},
        ])
    );
    let (code, plain, _) = run(ejctl_on(&server, &ns).args(["server", "list", "-o", "plain"]));
    assert_eq!(code, 0);
    assert!(
        plain.starts_with(&format!("192.168.10.1\t1\t3\t1\t{I1}\t{FAILOVER},{SCRIPT},{SIMPLE}\t{SCRIPT}\n")),
        "{plain}"
    );

    // Views change nothing.
    assert_eq!(snapshot(&r).await, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_java_tree_is_disabled_enabled_and_triggered() {
    let (server, ns, r) = fixture().await;
    let simple = JobPaths::new(SIMPLE);
    let status = async |job: &str| {
        let doc = json_of(ejctl_on(&server, &ns).args(["job", "list", "-o", "json"]));
        doc["jobs"].as_array().unwrap().iter().find(|j| j["name"] == job).unwrap()["status"]
            .as_str()
            .unwrap()
            .to_string()
    };

    // Disable on every server.
    let doc = json_of(ejctl_on(&server, &ns).args(["job", "disable", SIMPLE, "-o", "json"]));
    assert_eq!(
        doc,
        json!({"action": "disable", "job": SIMPLE, "server": null, "changed": [
            {"job": SIMPLE, "server": "192.168.10.1", "instance": null, "item": null, "effect": "disabled"},
            {"job": SIMPLE, "server": "192.168.10.2", "instance": null, "item": null, "effect": "disabled"},
        ]})
    );
    assert_eq!(value(&r, &simple.server("192.168.10.1")).await.as_deref(), Some("DISABLED"));
    assert_eq!(value(&r, &simple.server("192.168.10.2")).await.as_deref(), Some("DISABLED"));
    assert_eq!(status(SIMPLE).await, "DISABLED");
    // Again: an idempotent no-op, exit 0.
    let doc = json_of(ejctl_on(&server, &ns).args(["job", "disable", SIMPLE, "-o", "json"]));
    assert_eq!(doc["changed"], json!([]));
    let (code, out, err) = run(ejctl_on(&server, &ns).args(["job", "disable", SIMPLE]));
    assert_eq!((code, out.as_str()), (0, ""));
    assert_eq!(err, "job 'javaSimpleJob' is already disabled on every server: nothing to change\n");

    // Enable one server: a partial disable is OK. Table mode: stdout empty, confirmation on stderr.
    let (code, out, err) = run(ejctl_on(&server, &ns).args(["job", "enable", SIMPLE, "--server", "192.168.10.1"]));
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", "job 'javaSimpleJob' enabled on 192.168.10.1\n"));
    assert_eq!(value(&r, &simple.server("192.168.10.1")).await.as_deref(), Some("ENABLED"));
    assert_eq!(value(&r, &simple.server("192.168.10.2")).await.as_deref(), Some("DISABLED"));
    assert_eq!(status(SIMPLE).await, "OK");
    // -q: nothing at all.
    ejctl_on(&server, &ns)
        .args(["-q", "job", "enable", SIMPLE, "--server", "192.168.10.1"])
        .assert()
        .success()
        .stdout("")
        .stderr("");

    // resume = enable, pause = disable (the 3.x folding of 2.x's paused flag).
    let doc = json_of(ejctl_on(&server, &ns).args(["job", "resume", SIMPLE, "-o", "json"]));
    assert_eq!(doc["action"], "resume");
    assert_eq!(doc["changed"][0]["server"], "192.168.10.2");
    assert_eq!(doc["changed"][0]["effect"], "enabled");
    let doc = json_of(ejctl_on(&server, &ns).args(["job", "pause", SIMPLE, "--ip", "192.168.10.2", "-o", "json"]));
    assert_eq!((doc["action"].as_str(), doc["server"].as_str()), (Some("pause"), Some("192.168.10.2")));
    assert_eq!(value(&r, &simple.server("192.168.10.2")).await.as_deref(), Some("DISABLED"));
    json_of(ejctl_on(&server, &ns).args(["job", "resume", SIMPLE, "-o", "json"]));
    assert_eq!(value(&r, &simple.server("192.168.10.2")).await.as_deref(), Some("ENABLED"));

    // server disable/enable: every job that has servers/{ip}.
    let doc = json_of(ejctl_on(&server, &ns).args(["server", "disable", "192.168.10.1", "-o", "json"]));
    assert_eq!(doc["server"], "192.168.10.1");
    assert_eq!(doc["job"], Value::Null);
    let changed: Vec<&str> = doc["changed"].as_array().unwrap().iter().map(|c| c["job"].as_str().unwrap()).collect();
    assert_eq!(changed, [FAILOVER, SIMPLE], "javaScriptJob was already disabled there");
    for job in [FAILOVER, SCRIPT, SIMPLE] {
        assert_eq!(value(&r, &JobPaths::new(job).server("192.168.10.1")).await.as_deref(), Some("DISABLED"), "{job}");
    }
    let (code, out, err) = run(ejctl_on(&server, &ns).args(["server", "enable", "192.168.10.1"]));
    assert_eq!((code, out.as_str()), (0, ""));
    assert_eq!(err, format!("server 192.168.10.1 enabled for 3 job(s): {FAILOVER}, {SCRIPT}, {SIMPLE}\n"));
    for job in [FAILOVER, SCRIPT, SIMPLE] {
        assert_eq!(value(&r, &JobPaths::new(job).server("192.168.10.1")).await.as_deref(), Some("ENABLED"), "{job}");
    }
    assert_eq!(value(&r, &JobPaths::new(SCRIPT).server("192.168.10.2")).await.as_deref(), Some("DISABLED"));

    // sharding disable/enable: sharding/{item}/disabled, one transaction.
    let doc = json_of(ejctl_on(&server, &ns).args(["sharding", "disable", SIMPLE, "1", "2", "-o", "json"]));
    let items: Vec<u64> = doc["changed"].as_array().unwrap().iter().map(|c| c["item"].as_u64().unwrap()).collect();
    assert_eq!(items, [1, 2]);
    assert_eq!(doc["changed"][0]["effect"], "disabled");
    assert_eq!(value(&r, &simple.item_leaf(1, ItemLeaf::Disabled)).await.as_deref(), Some(""));
    assert_eq!(value(&r, &simple.item_leaf(2, ItemLeaf::Disabled)).await.as_deref(), Some(""));
    let doc = json_of(ejctl_on(&server, &ns).args(["sharding", "show", SIMPLE, "-o", "json"]));
    let statuses: Vec<&str> = doc["items"].as_array().unwrap().iter().map(|i| i["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["RUNNING", "DISABLED", "DISABLED"]);
    let (code, out, err) = run(ejctl_on(&server, &ns).args(["sharding", "enable", SIMPLE, "1"]));
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", "job 'javaSimpleJob': item(s) 1 enabled\n"));
    assert_eq!(value(&r, &simple.item_leaf(1, ItemLeaf::Disabled)).await, None);
    let (code, _, err) = run(ejctl_on(&server, &ns).args(["sharding", "enable", SIMPLE, "1"]));
    assert_eq!((code, err.as_str()), (0, "job 'javaSimpleJob': item(s) 1 already enabled: nothing to change\n"));
    // The Java side's disabled item.
    json_of(ejctl_on(&server, &ns).args(["sharding", "enable", SCRIPT, "1", "-o", "json"]));
    assert_eq!(value(&r, &JobPaths::new(SCRIPT).item_leaf(1, ItemLeaf::Disabled)).await, None);

    // trigger: the trigger root is replaced, one empty node per instance (what Java writes).
    r.create(&simple.trigger("10.9.9.9@-@1"), b"", Mode::Persistent).await.unwrap();
    let doc = json_of(ejctl_on(&server, &ns).args(["job", "trigger", SIMPLE, "-o", "json"]));
    assert_eq!(doc, json!({"job": SIMPLE, "triggered": [I1, I2]}));
    let mut triggers = r.children(&simple.triggers()).await.unwrap().unwrap();
    triggers.sort();
    assert_eq!(triggers, [I1, I2], "the stale trigger node is gone");
    assert_eq!(value(&r, &simple.trigger(I1)).await.as_deref(), Some(""));
    let (code, out, err) = run(ejctl_on(&server, &ns).args(["job", "trigger", SCRIPT]));
    assert_eq!((code, out.as_str()), (0, ""));
    assert_eq!(err, format!("job 'javaScriptJob' triggered on {I1}, {I2}\n"));

    // trigger --wait on a Java cluster (nobody reports results): the items owned by live
    // instances on enabled servers are awaited until the timeout, the others are skipped.
    let started = Instant::now();
    let (code, out, err) =
        run(ejctl_on(&server, &ns).args(["job", "trigger", FAILOVER, "--wait", "--timeout", "1s", "-o", "json"]));
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(code, 1, "{err}");
    assert_eq!(err, "ejctl: error: job 'javaFailoverJob': timed out after 1s waiting for items 2, 3\n");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["missing"], json!([2, 3]));
    assert_eq!(doc["results"], json!([]));
    assert_eq!(doc["ok"], false);
    assert_eq!(
        doc["skipped"],
        json!([{"item": 0, "reason": format!("its owner {I3} is not live")},
               {"item": 1, "reason": format!("its owner {I3} is not live")}])
    );
    let token = doc["token"].as_str().unwrap();
    assert_eq!(uuid_version(token), Some('4'), "{token}");
    let failover = JobPaths::new(FAILOVER);
    assert_eq!(value(&r, &failover.trigger(I1)).await.as_deref(), Some(token), "the token is the trigger data");
    assert_eq!(r.exists(&failover.trigger_results(token)).await.unwrap(), None, "the results node is cleaned up");
    // Table mode names the missing items too.
    let (code, out, _) = run(ejctl_on(&server, &ns).args(["job", "trigger", FAILOVER, "--wait", "--timeout", "200ms"]));
    assert_eq!(code, 1);
    assert!(out.contains("missing") && out.contains("skipped") && out.contains("is not live"), "{out}");
}

/// The version nibble of a UUID string.
fn uuid_version(s: &str) -> Option<char> {
    (s.len() == 36).then(|| s.chars().nth(14)).flatten()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_and_remove_ask_for_confirmation() {
    let (server, ns, r) = fixture().await;
    let simple = JobPaths::new(SIMPLE);

    // Without --yes and without a terminal: refused, exit 4, nothing written.
    let before = snapshot(&r).await;
    for args in [
        vec!["job", "remove", SIMPLE],
        vec!["job", "remove", SIMPLE, "-o", "json"],
        vec!["job", "shutdown", SIMPLE],
        vec!["server", "remove", "192.168.10.1"],
        vec!["server", "shutdown", "192.168.10.1"],
    ] {
        let (code, out, err) = run(ejctl_on(&server, &ns).args(&args));
        assert_eq!((code, out.as_str()), (4, ""), "{args:?}: {err}");
        assert!(
            err.starts_with("ejctl: error: ") && err.ends_with("? refusing without confirmation: pass --yes\n"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1);
    }
    let (_, _, err) = run(ejctl_on(&server, &ns).args(["job", "remove", SIMPLE]));
    assert_eq!(
        err,
        "ejctl: error: remove job 'javaSimpleJob' (2 instance(s) shut down, 2 server node(s) deleted)? refusing without confirmation: pass --yes\n"
    );
    assert_eq!(snapshot(&r).await, before);

    // shutdown --server: the instance nodes whose serverIp is the IP.
    let doc = json_of(ejctl_on(&server, &ns).args([
        "job",
        "shutdown",
        SIMPLE,
        "--server",
        "192.168.10.2",
        "--yes",
        "-o",
        "json",
    ]));
    assert_eq!(
        doc,
        json!({"action": "shutdown", "job": SIMPLE, "server": "192.168.10.2", "changed": [
            {"job": SIMPLE, "server": null, "instance": I2, "item": null, "effect": "deleted"}]})
    );
    assert_eq!(r.exists(&simple.instance(I2)).await.unwrap(), None);
    assert!(r.exists(&simple.instance(I1)).await.unwrap().is_some());
    assert_eq!(value(&r, &simple.server("192.168.10.2")).await.as_deref(), Some("ENABLED"), "servers stay");
    // Again: nothing to do, exit 0 without asking.
    let (code, out, err) = run(ejctl_on(&server, &ns).args(["job", "shutdown", SIMPLE, "--server", "192.168.10.2"]));
    assert_eq!((code, out.as_str()), (0, ""));
    assert_eq!(err, "job 'javaSimpleJob' has no live instances on server 192.168.10.2: nothing to shut down\n");

    // remove --server: shutdown, then delete servers/{ip}; the config stays.
    let (code, out, err) =
        run(ejctl_on(&server, &ns).args(["job", "remove", SIMPLE, "--server", "192.168.10.1", "--yes"]));
    assert_eq!((code, out.as_str()), (0, ""));
    assert_eq!(
        err,
        "job 'javaSimpleJob' removed on server 192.168.10.1: 1 instance(s) shut down, 1 server node(s) deleted\n"
    );
    assert_eq!(r.exists(&simple.instance(I1)).await.unwrap(), None);
    assert_eq!(r.exists(&simple.server("192.168.10.1")).await.unwrap(), None);
    assert!(r.exists(&simple.server("192.168.10.2")).await.unwrap().is_some());
    assert!(r.exists(&simple.config()).await.unwrap().is_some());
    let doc = json_of(ejctl_on(&server, &ns).args(["job", "list", "-o", "json"]));
    assert_eq!(doc["jobs"][2]["status"], "CRASHED");

    // remove (every server) of the script job.
    let doc = json_of(ejctl_on(&server, &ns).args(["job", "remove", SCRIPT, "--yes", "-o", "json"]));
    assert_eq!(doc["changed"].as_array().unwrap().len(), 4, "{doc:#}");
    let script = JobPaths::new(SCRIPT);
    assert_eq!(r.children(&script.instances()).await.unwrap(), Some(vec![]));
    assert_eq!(r.children(&script.servers()).await.unwrap(), Some(vec![]));
    assert!(r.exists(&script.config()).await.unwrap().is_some());

    // server shutdown / remove: the job = null forms.
    let doc = json_of(ejctl_on(&server, &ns).args(["server", "shutdown", "192.168.10.1", "--yes", "-o", "json"]));
    assert_eq!(
        doc["changed"],
        json!([{"job": FAILOVER, "server": null, "instance": I1, "item": null, "effect": "deleted"}])
    );
    let failover = JobPaths::new(FAILOVER);
    assert_eq!(r.exists(&failover.instance(I1)).await.unwrap(), None);
    let doc = json_of(ejctl_on(&server, &ns).args(["server", "remove", "192.168.10.3", "--yes", "-o", "json"]));
    assert_eq!(
        doc["changed"],
        json!([{"job": FAILOVER, "server": "192.168.10.3", "instance": null, "item": null, "effect": "deleted"}])
    );
    assert_eq!(r.exists(&failover.server("192.168.10.3")).await.unwrap(), None);
    // Now no job knows it.
    let (code, _, err) = run(ejctl_on(&server, &ns).args(["server", "remove", "192.168.10.3", "--yes"]));
    assert_eq!(
        (code, err),
        (
            3,
            format!(
                "ejctl: error: server '192.168.10.3' not found in namespace '{ns}' (did you mean '192.168.10.1'?)\n"
            )
        )
    );

    // remove --purge: the whole job tree.
    let doc = json_of(ejctl_on(&server, &ns).args(["job", "remove", FAILOVER, "--purge", "--yes", "-o", "json"]));
    assert_eq!(doc["changed"].as_array().unwrap().last().unwrap()["effect"], "deleted");
    assert_eq!(r.exists(failover.root()).await.unwrap(), None);
    ejctl_on(&server, &ns).args(["job", "show", FAILOVER]).assert().code(3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_name_what_is_wrong_and_leave_the_tree_unchanged() {
    let (server, ns, r) = fixture().await;
    // A job without instances, for the trigger error.
    let lonely = JobPaths::new("lonelyJob");
    r.put(lonely.root(), b"SCRIPT").await.unwrap();
    r.put(&lonely.config(), JobConfig::new("lonelyJob", 2).to_yaml().as_bytes()).await.unwrap();
    let before = snapshot(&r).await;

    let cases: Vec<(Vec<&str>, i32, String)> = vec![
        (vec!["job", "show", "nope"], 3, format!("job 'nope' not found in namespace '{ns}'")),
        (vec!["job", "disable", "nope"], 3, format!("job 'nope' not found in namespace '{ns}'")),
        (vec!["job", "trigger", "nope", "--wait"], 3, format!("job 'nope' not found in namespace '{ns}'")),
        (vec!["job", "remove", "nope", "--yes"], 3, format!("job 'nope' not found in namespace '{ns}'")),
        (vec!["sharding", "show", "nope"], 3, format!("job 'nope' not found in namespace '{ns}'")),
        (vec!["failover", "list", "nope"], 3, format!("job 'nope' not found in namespace '{ns}'")),
        (vec!["instance", "list", "nope"], 3, format!("job 'nope' not found in namespace '{ns}'")),
        // A job root without config is not a job.
        (vec!["job", "show", "orphanJob"], 3, format!("job 'orphanJob' not found in namespace '{ns}'")),
        (vec!["job", "show", "bad/name"], 2, "job name 'bad/name' must not contain '/'".into()),
        (
            vec!["sharding", "disable", SIMPLE, "3"],
            3,
            "item '3' not found in job 'javaSimpleJob': valid items are 0 to 2 (shardingTotalCount 3)".into(),
        ),
        (vec!["sharding", "enable", SIMPLE, "abc"], 2, "'abc' is not an item number: valid items are 0 to 2".into()),
        // Validation before the first write: item 0 is not disabled either.
        (vec!["sharding", "disable", SIMPLE, "0", "1.5"], 2, "'1.5' is not an item number: valid items are 0 to 2".into()),
        (
            vec!["job", "disable", SIMPLE, "--server", "10.9.9.9"],
            3,
            format!("server '10.9.9.9' not found in job 'javaSimpleJob' (namespace '{ns}')"),
        ),
        (
            vec!["job", "shutdown", SIMPLE, "--server", "10.9.9.9", "--yes"],
            3,
            format!("server '10.9.9.9' not found in job 'javaSimpleJob' (namespace '{ns}')"),
        ),
        (
            vec!["job", "enable", SIMPLE, "--server", "10.0.0"],
            2,
            "invalid server ip '10.0.0': expected an IPv4 address such as 10.0.0.5".into(),
        ),
        (vec!["server", "disable", "10.9.9.9"], 3, format!("server '10.9.9.9' not found in namespace '{ns}'")),
        (
            vec!["server", "remove", "host.example", "--yes"],
            2,
            "invalid server ip 'host.example': expected an IPv4 address such as 10.0.0.5".into(),
        ),
        (vec!["job", "trigger", "lonelyJob"], 4, format!("job 'lonelyJob' {NO_INSTANCES}")),
        (vec!["job", "trigger", "lonelyJob", "--wait"], 4, format!("job 'lonelyJob' {NO_INSTANCES}")),
        (
            vec!["job", "remove", SIMPLE],
            4,
            "remove job 'javaSimpleJob' (2 instance(s) shut down, 2 server node(s) deleted)? refusing without confirmation: pass --yes".into(),
        ),
    ];
    for (args, code, message) in cases {
        for format in ["table", "json"] {
            let (got, out, err) = run(ejctl_on(&server, &ns).args(&args).args(["-o", format]));
            assert_eq!(got, code, "{args:?} -o {format}: {err}");
            assert_eq!(out, "", "{args:?} -o {format}: nothing on stdout");
            assert_eq!(err, format!("ejctl: error: {message}\n"), "{args:?} -o {format}");
        }
    }
    // --timeout needs --wait (a usage error from the parser).
    ejctl_on(&server, &ns).args(["job", "trigger", SIMPLE, "--timeout", "1s"]).assert().code(2);
    assert_eq!(snapshot(&r).await, before, "failed commands wrote nothing");

    // An unreachable registry: exit 5, one line.
    for args in [&["job", "list"][..], &["job", "disable", SIMPLE], &["server", "list", "-o", "json"]] {
        assert_unreachable(ejctl(), args);
    }
}

/// Why `job trigger` is refused (exit 4) on a job without instances.
const NO_INSTANCES: &str = "has no live instances to trigger: start a worker with its job file (ejctl run FILE)";

/// A script that exits 0 for item 0 and 3 (with a message on stderr) for item 1.
const MIXED_SCRIPT: &str =
    "#!/bin/sh\nif [ \"$EJCTL_SHARDING_ITEM\" = 1 ]; then echo 'item one fails' >&2; exit 3; fi\nexit 0\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trigger_wait_reports_the_results_of_real_workers() {
    let (server, ns, r) = zk_registry("trigger").await;
    let dir = tempfile::Builder::new().prefix("ejctl-trigger-").tempdir().unwrap();
    let script = dir.path().join("mixed.sh");
    write_script(&script, MIXED_SCRIPT);
    let file = dir.path().join("jobs.toml");
    std::fs::write(
        &file,
        format!(
            "[registry]\nservers = \"{}\"\nnamespace = \"{ns}\"\nsession_timeout_ms = 10000\n\n\
             [[job]]\nname = \"mixed\"\nsharding_total_count = 2\ncommand = \"{}\"\n\n\
             [[job]]\nname = \"good\"\nsharding_total_count = 2\ncommand = \"/bin/true\"\n",
            server.connect_string(),
            script.display()
        ),
    )
    .unwrap();

    // Two one-off jobs on two in-process workers.
    let mut workers = Vec::new();
    for (i, ip) in ["127.0.0.1", "127.0.0.2"].into_iter().enumerate() {
        let files = jobfile::load(std::slice::from_ref(&file)).unwrap();
        let target = RegistryTarget::ZooKeeper(files.registry.as_ref().unwrap().zk_options());
        let jobs = files.jobs.into_iter().map(|j| JobDefinition::new(j.job_type, j.config)).collect();
        let mut config = WorkerConfig::new(target, jobs);
        config.ip = Some(ip.to_string());
        config.pid = Some(1001 + i as u32);
        config.kill_grace = Duration::from_secs(1);
        workers.push(Worker::start(config).await.unwrap());
    }
    let ids: Vec<String> = workers.iter().map(|w| w.instance_id().to_string()).collect();
    // Wait until the leader has given each instance one item of each job.
    for job in ["mixed", "good"] {
        let p = JobPaths::new(job);
        eventually(30, &format!("sharding of {job} to settle"), async || {
            let owners =
                r.get_many(&[p.item_leaf(0, ItemLeaf::Instance), p.item_leaf(1, ItemLeaf::Instance)]).await.unwrap();
            let mut owners: Vec<String> = owners.into_iter().flatten().map(|n| n.text()).collect();
            owners.sort();
            owners == ids && r.exists(&p.sharding_necessary()).await.unwrap().is_none()
        })
        .await;
    }
    let owner = |job: &str, item: u32| {
        let p = JobPaths::new(job);
        let r = r.clone();
        async move { r.get(&p.item_leaf(item, ItemLeaf::Instance)).await.unwrap().unwrap().text() }
    };

    // Item 1 fails: both results printed, exit 1, the failure named on stderr.
    let (code, out, err) = tokio::task::block_in_place(|| {
        run(ejctl_on(&server, &ns).args(["job", "trigger", "mixed", "--wait", "--timeout", "30s", "-o", "json"]))
    });
    assert_eq!(code, 1, "{err}");
    let failed_on = owner("mixed", 1).await;
    assert_eq!(err, format!("ejctl: error: job 'mixed': item 1 failed on {failed_on} (exit code 3)\n"));
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["job"], "mixed");
    assert_eq!(doc["triggered"], json!(ids));
    assert_eq!(
        (doc["ok"].clone(), doc["missing"].clone(), doc["skipped"].clone()),
        (json!(false), json!([]), json!([]))
    );
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "{doc:#}");
    assert_eq!((results[0]["item"].clone(), results[0]["success"].clone()), (json!(0), json!(true)));
    assert_eq!(results[0]["exitCode"], 0);
    assert_eq!(results[0]["instance"], owner("mixed", 0).await.as_str());
    assert_eq!((results[1]["item"].clone(), results[1]["success"].clone()), (json!(1), json!(false)));
    assert_eq!(results[1]["exitCode"], 3);
    assert_eq!(results[1]["instance"], failed_on.as_str());
    assert!(results[1]["elapsedMs"].is_u64());
    let token = doc["token"].as_str().unwrap();
    let mixed = JobPaths::new("mixed");
    assert_eq!(r.exists(&mixed.trigger_results(token)).await.unwrap(), None, "results are cleaned up");
    assert_eq!(r.children(&mixed.triggers()).await.unwrap().unwrap_or_default(), Vec::<String>::new(), "consumed");

    // Every item succeeds: exit 0; table and plain renderings.
    let (code, out, err) =
        tokio::task::block_in_place(|| run(ejctl_on(&server, &ns).args(["job", "trigger", "good", "--wait"])));
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(out.contains("RESULT") && out.matches(" ok ").count() == 2, "{out}");
    let (code, out, _) = tokio::task::block_in_place(|| {
        run(ejctl_on(&server, &ns).args(["job", "trigger", "good", "--wait", "-o", "plain"]))
    });
    assert_eq!(code, 0);
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert_eq!((rows[0][0], rows[0][2], rows[0][3]), ("0", "ok", "0"));
    assert_eq!((rows[1][0], rows[1][2], rows[1][3]), ("1", "ok", "0"));

    // A disabled item is skipped, not awaited.
    ejctl_on(&server, &ns).args(["-q", "sharding", "disable", "mixed", "1"]).assert().success();
    let (code, out, err) = tokio::task::block_in_place(|| {
        run(ejctl_on(&server, &ns).args(["job", "trigger", "mixed", "--wait", "--timeout", "30s", "-o", "json"]))
    });
    assert_eq!((code, err.as_str()), (0, ""));
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["skipped"], json!([{"item": 1, "reason": "the item is disabled"}]));
    assert_eq!(doc["results"].as_array().unwrap().len(), 1);

    for w in workers {
        w.shutdown().await;
    }
    // The workers are gone: nothing to trigger.
    let (code, _, err) =
        tokio::task::block_in_place(|| run(ejctl_on(&server, &ns).args(["job", "trigger", "good", "--wait"])));
    assert_eq!((code, err), (4, format!("ejctl: error: job 'good' {NO_INSTANCES}\n")));
}

/// `job list` over 1,000 jobs (timed by `cargo bench --bench admin`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn job_list_reads_1000_jobs_with_pipelined_reads() {
    let (server, ns, r) = zk_registry("thousand").await;
    seed_jobs(&r, 1000, Mode::Ephemeral).await;
    let out = tokio::task::block_in_place(|| {
        ejctl_on(&server, &ns).args(["job", "list", "-o", "json"]).assert().success().get_output().stdout.clone()
    });
    let doc: Value = serde_json::from_slice(&out).unwrap();
    let jobs = doc["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 1000);
    assert!(jobs.iter().all(|j| j["status"] == "OK"));
}

#[test]
fn fixture_names_are_consistent() {
    // The fixture's instance YAML matches what the codec writes for the same id.
    let text = std::fs::read_to_string(PathBuf::from(FIXTURE).join("tree.tsv")).unwrap();
    let yaml = InstanceInfo::new(&InstanceId::from_raw(I1)).to_yaml().replace('\n', "\\n");
    assert!(text.contains(&yaml), "{yaml}");
    // The Java config round-trips through the codec byte for byte.
    for job in [SIMPLE, FAILOVER, SCRIPT] {
        let stored = std::fs::read_to_string(PathBuf::from(FIXTURE).join(format!("{job}.config.yaml"))).unwrap();
        assert_eq!(JobConfig::from_yaml(&stored).unwrap().to_yaml(), stored, "{job}");
    }
}
