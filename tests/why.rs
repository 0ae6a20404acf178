//! `ejctl why`: a scenario per condition, each from a real tree on a real ZooKeeper — written the
//! way workers (ejctl or Java) and operators leave it, or by real ejctl workers where the
//! condition needs one (a clock off the registry's, a refused registry command, a run still
//! going with or without a fire owed, `job shutdown`, a worker cut off by a TCP proxy, past fires
//! against the trace a worker wrote, a healthy job) — checked by exit code and JSON.

use std::collections::BTreeSet;
use std::sync::Arc;

use chrono::{DateTime, SubsecRound, Utc};
use serde_json::Value;

use ejctl::config::JobConfig;
use ejctl::registry::codec::{InstanceId, InstanceInfo, ItemResult, RunOutcome};
use ejctl::registry::path::{ItemLeaf, JobPaths};
use ejctl::registry::{Mode, Op, Registry};
use ejctl::runtime::{Clock, JobDefinition, RegistryTarget, Worker, WorkerConfig};

use crate::history::{ejctl_for, json};
use crate::support::cluster::{Cluster, ClusterOptions};
use crate::support::receiver::{Answer, HttpReceiver};
use crate::support::{ZkServer, ejctl_on, eventually, zk_options, zk_registry};

const IP: &str = "10.0.0.1";
const GONE: &str = "10.0.0.9@-@9";

fn me() -> InstanceId {
    InstanceId::new(IP, 42)
}

fn config(name: &str) -> JobConfig {
    let mut c = JobConfig::new(name, 2);
    c.cron = Some("0/10 * * * * ?".into());
    c
}

/// A job as a live instance (the test's session) leaves it: config, an enabled server, the
/// instance, the leader, both items owned; then `extra`.
async fn tree(r: &Registry, cfg: &JobConfig, extra: impl FnOnce(&JobPaths) -> Vec<Op>) {
    let p = JobPaths::new(&cfg.job_name);
    let id = me();
    let create = |path: String, data: &[u8], mode: Mode| Op::Create { path, data: data.to_vec(), mode };
    let mut ops = vec![
        create(p.root().to_string(), b"SCRIPT", Mode::Persistent),
        create(p.config(), cfg.to_yaml().as_bytes(), Mode::Persistent),
        create(p.servers(), b"", Mode::Persistent),
        create(p.server(IP), b"ENABLED", Mode::Persistent),
        create(p.instances(), b"", Mode::Persistent),
        create(p.instance(id.as_str()), InstanceInfo::new(&id).to_yaml().as_bytes(), Mode::Ephemeral),
        create(p.leader(), b"", Mode::Persistent),
        create(format!("{}/election", p.leader()), b"", Mode::Persistent),
        create(p.leader_instance(), id.as_str().as_bytes(), Mode::Ephemeral),
        create(p.sharding(), b"", Mode::Persistent),
    ];
    for item in 0..2 {
        ops.push(create(p.item(item), b"", Mode::Persistent));
        ops.push(create(p.item_leaf(item, ItemLeaf::Instance), id.as_str().as_bytes(), Mode::Persistent));
    }
    ops.extend(extra(&p));
    r.transaction(&ops).await.unwrap();
}

fn result(outcome: RunOutcome, message: &str, ended: DateTime<Utc>) -> Vec<u8> {
    ItemResult {
        v: 1,
        instance: me().to_string(),
        source: "cron".into(),
        fire_ms: Some(ended.timestamp_millis() - 1000),
        start_ms: Some(ended.timestamp_millis() - 1000),
        end_ms: ended.timestamp_millis(),
        outcome,
        exit_code: None,
        signal: None,
        message: Some(message.to_string()),
        stderr_tail: None,
        refused: Vec::new(),
    }
    .encode()
}

fn why(server: &ZkServer, ns: &str, args: &[&str]) -> (i32, Value) {
    json(ejctl_on(server, ns).arg("why").args(args))
}

fn codes(doc: &Value) -> Vec<String> {
    doc["findings"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_condition_from_a_tree() {
    let (server, ns, r) = zk_registry("why").await;
    let create = |path: String, data: &[u8]| Op::Create { path, data: data.to_vec(), mode: Mode::Persistent };
    let set = |path: String, data: &[u8]| Op::Set { path, data: data.to_vec(), version: None };
    let long_ago = Utc::now() - chrono::Duration::minutes(10);

    tree(&r, &config("healthy"), |_| vec![]).await;
    tree(&r, &config("item_off"), |p| vec![create(p.item_leaf(1, ItemLeaf::Disabled), b"")]).await;
    tree(&r, &config("job_off"), |p| vec![set(p.server(IP), b"DISABLED")]).await;
    tree(&r, &config("gone"), |p| vec![Op::Delete { path: p.instance(me().as_str()), version: None }]).await;
    tree(&r, &config("server_off"), |p| vec![set(p.server(IP), b"DISABLED"), create(p.server("10.0.0.2"), b"ENABLED")])
        .await;
    let mut feb30 = config("feb30");
    feb30.cron = Some("0 0 0 30 2 ?".into());
    tree(&r, &feb30, |_| vec![]).await;
    let mut oneoff = config("oneoff");
    oneoff.cron = None;
    tree(&r, &oneoff, |_| vec![]).await;
    tree(&r, &config("leaderless"), |p| vec![Op::Delete { path: p.leader_instance(), version: None }]).await;
    tree(&r, &config("resharding"), |p| {
        vec![create(format!("{}/sharding", p.leader()), b""), create(p.sharding_necessary(), b"")]
    })
    .await;
    let mut fo = config("failover_on");
    fo.failover = true;
    tree(&r, &fo, |p| {
        vec![
            set(p.item_leaf(0, ItemLeaf::Instance), GONE.as_bytes()),
            create(format!("{}/failover", p.leader()), b""),
            create(p.failover_items(), b""),
            create(p.failover_item(0), b""),
        ]
    })
    .await;
    tree(&r, &config("failover_off"), |p| vec![set(p.item_leaf(0, ItemLeaf::Instance), GONE.as_bytes())]).await;
    let mut busy = config("busy");
    busy.misfire = false;
    tree(&r, &busy, |p| vec![create(p.item_leaf(0, ItemLeaf::Running), me().as_str().as_bytes())]).await;
    let recent = Utc::now();
    tree(&r, &config("failed"), |p| {
        vec![create(p.item_leaf(1, ItemLeaf::Result), &result(RunOutcome::Failed, "exit code 2", recent))]
    })
    .await;
    tree(&r, &config("refused"), |p| {
        let message = "the worker cannot run the job: script.command.line is missing";
        vec![create(p.item_leaf(0, ItemLeaf::Result), &result(RunOutcome::Refused, message, recent))]
    })
    .await;
    tree(&r, &config("silent"), |p| {
        (0..2).map(|i| create(p.item_leaf(i, ItemLeaf::Result), &result(RunOutcome::Ok, "", long_ago))).collect()
    })
    .await;

    // (job, item, exit code, first finding, its fix)
    let cases: &[(&str, Option<&str>, i32, &str, &str)] = &[
        ("healthy", None, 0, "will_run", ""),
        ("item_off", Some("1"), 1, "item_disabled", "ejctl sharding enable item_off 1"),
        ("job_off", None, 1, "job_disabled", "ejctl job enable job_off"),
        ("gone", None, 1, "no_live_instance", "start a worker: ejctl run JOB_FILE"),
        ("server_off", None, 1, "all_servers_disabled", "ejctl job enable server_off --server 10.0.0.1"),
        ("feb30", None, 1, "cron_never_fires", "ejctl config set feb30 cron='0 0 2 * * ?'"),
        ("oneoff", None, 1, "never_triggered", "ejctl job trigger oneoff"),
        ("leaderless", None, 1, "no_leader", "ejctl job show leaderless"),
        ("resharding", None, 1, "sharding_pending", "ejctl job show resharding"),
        ("failover_on", Some("0"), 0, "failover_pending", "ejctl failover list failover_on"),
        ("failover_off", Some("0"), 1, "owner_gone_no_failover", "ejctl config set failover_off failover=true"),
        ("busy", Some("0"), 1, "still_running", "ejctl config set busy misfire=true"),
        ("failed", Some("1"), 0, "last_run_failed", "ejctl history failed --item 1 --output-tail"),
        ("refused", Some("0"), 1, "fire_refused", ""),
        ("silent", None, 1, "instances_silent", "ejctl instance list silent   (then check those workers' logs)"),
    ];
    for (job, item, code, first, fix) in cases {
        let mut args = vec![*job];
        if let Some(item) = item {
            args.extend(["--item", item]);
        }
        let (got, doc) = why(&server, &ns, &args);
        assert_eq!((got, codes(&doc)[0].as_str()), (*code, *first), "{job}: {doc:#}");
        let finding = &doc["findings"][0];
        if !fix.is_empty() {
            assert_eq!(finding["fix"], *fix, "{job}");
        }
        assert_eq!(doc["blocking"], *code == 1, "{job}");
        assert!(!finding["evidence"].as_array().unwrap().is_empty() || *first == "will_run", "{job}: {doc:#}");
    }
    // Evidence names the node and, from the registry, when it was written.
    let (_, doc) = why(&server, &ns, &["item_off", "--item", "1"]);
    let evidence = &doc["findings"][0]["evidence"][0];
    assert_eq!(evidence["node"], "/item_off/sharding/1/disabled");
    assert!(evidence["at"].is_string(), "{evidence}");
    // Unknown job or item: exit 3; a bad --fire: exit 2.
    assert_eq!(why(&server, &ns, &["nope"]).0, 3);
    assert_eq!(why(&server, &ns, &["healthy", "--item", "7"]).0, 3);
    let out = ejctl_on(&server, &ns).args(["why", "healthy", "--fire", "later"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    // The table for people: the condition, the evidence and the fix.
    let out = ejctl_on(&server, &ns).args(["why", "job_off"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("✗ the job is disabled on every server") && text.contains("fix:      ejctl job enable job_off"),
        "{text}"
    );
}

/// A clock off the registry's by more than `maxTimeDiffSeconds`: the worker refuses the fire
/// and records it; `why` names it.
struct Skewed;

impl Clock for Skewed {
    fn now(&self) -> DateTime<Utc> {
        Utc::now() + chrono::Duration::minutes(5)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clock_skew_and_runs_from_real_workers() {
    let server = ZkServer::start();
    let ns = crate::support::unique_ns("why-skew");
    let receiver = HttpReceiver::start(Answer::Json(200, "{}".into())).await;
    let mut cfg = JobConfig::new("skewed", 1);
    cfg.cron = Some("0/1 * * * * ?".into());
    cfg.max_time_diff_seconds = 10;
    cfg.props.insert("script.command.line".into(), "/bin/true".into());
    cfg.job_error_handler_type = Some("WEBHOOK".into());
    cfg.props.insert("webhook.url".into(), format!("{}/skew", receiver.url));
    let job = JobDefinition::new(ejctl::registry::codec::JobType::Script, cfg);
    let mut wc = WorkerConfig::new(RegistryTarget::ZooKeeper(zk_options(&server.connect_string(), &ns)), vec![job]);
    wc.ip = Some("127.0.0.1".into());
    wc.clock = Arc::new(Skewed);
    let worker = Worker::start(wc).await.unwrap();
    let r = Registry::connect(zk_options(&server.connect_string(), &ns)).await.unwrap();
    let leaf = JobPaths::new("skewed").item_leaf(0, ItemLeaf::Result);
    eventually(60, "the refused fire to be recorded", async || r.exists(&leaf).await.unwrap().is_some()).await;
    let (code, doc) = why(&server, &ns, &["skewed"]);
    assert_eq!((code, codes(&doc)[0].as_str()), (1, "clock_skew"), "{doc:#}");
    assert!(doc["findings"][0]["message"].as_str().unwrap().contains("maxTimeDiffSeconds = 10"), "{doc:#}");
    // The error handler hears of the refused fire, as ElasticJob's does of its environment check.
    eventually(30, "the refused fire's notification", async || !receiver.requests().is_empty()).await;
    let body = &receiver.requests()[0].body;
    assert!(body.contains("clock skew") && body.contains(r#""item":null"#), "{body}");
    worker.kill().await;

    // A real run still going with misfire off; then a healthy job.
    let job = "name = \"rec\"\ncron = \"0/1 * * * * ?\"\nsharding_total_count = 1\ncommand = \"{script} {record}\"\nmisfire = false\n";
    let mut c = Cluster::zookeeper("rec", job).await;
    c.set_sleep(Some(30.0));
    c.start("127.0.0.1").await;
    c.wait_until(60, "a run in progress", async |c| !c.starts().is_empty()).await;
    let (code, doc) = json(ejctl_for(&c).args(["why", "rec", "--item", "0"]));
    assert_eq!((code, codes(&doc)[0].as_str()), (1, "still_running"), "{doc:#}");
    c.set_sleep(None);
    let out = ejctl_for(&c).args(["config", "set", "rec", "misfire=true", "--yes"]).output().unwrap();
    assert!(out.status.success());
}

/// The item's last result, decoded.
async fn last_result(r: &Registry, job: &str, item: u32) -> Option<(ItemResult, i32)> {
    let node = r.get(&JobPaths::new(job).item_leaf(item, ItemLeaf::Result)).await.unwrap()?;
    Some((ItemResult::decode(&node.data).unwrap(), node.stat.version))
}

/// A registry command refused by a real worker: `config set` changes the command of two jobs
/// behind the worker's job file. The worker runs its job file's command and records the refusal
/// on the item: with the run's end when it monitors execution, and — with monitoring off, where
/// runs record nothing — once when the refusal starts, not at every fire. `why` names the
/// condition, the node and when, and the command that sets the registry back; once it is set
/// back, the next run records no refusal and `why` finds nothing in the way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registry_command_refused_by_a_real_worker() {
    use crate::security::{WorkerProcess, job_file, marker_job};
    let server = ZkServer::start();
    let ns = crate::support::unique_ns("why-pin");
    let r = Registry::connect(zk_options(&server.connect_string(), &ns)).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (watched, out) = marker_job(dir.path(), "pinned", "pinned");
    let (quiet, quiet_out) = marker_job(dir.path(), "quiet", "quiet");
    let jobs = format!("{watched}{quiet}monitor_execution = false\n");
    let file = job_file(dir.path(), &server.connect_string(), &ns, "", &jobs);
    let worker = WorkerProcess::start(&file, &[]);
    let lines = |p: &std::path::Path| std::fs::read_to_string(p).unwrap_or_default().lines().count();
    eventually(60, "first runs of both jobs", async || lines(&out) > 0 && lines(&quiet_out) > 0).await;
    // A run's result is written once the worker has seen it end, a moment after its output.
    eventually(60, "the first run's result", async || last_result(&r, "pinned", 0).await.is_some()).await;
    assert!(last_result(&r, "pinned", 0).await.is_some_and(|(res, _)| res.refused.is_empty()));
    assert!(last_result(&r, "quiet", 0).await.is_none(), "without monitoring runs record no result");

    let evil = dir.path().join("evil.sh");
    crate::support::write_script(&evil, "#!/bin/sh\nexit 0\n");
    for job in ["pinned", "quiet"] {
        let out = ejctl_on(&server, &ns)
            .args(["config", "set", job, &format!("props.script.command.line={}", evil.display())])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    for job in ["pinned", "quiet"] {
        eventually(60, "a run that refused the registry's command", async || {
            last_result(&r, job, 0).await.is_some_and(|(res, _)| !res.refused.is_empty())
        })
        .await;
    }
    let (recorded, version) = last_result(&r, "quiet", 0).await.unwrap();
    assert_eq!(recorded.refused[0].registry.as_deref(), Some(evil.display().to_string().as_str()));
    // Later refused runs of the job without monitoring write nothing more.
    let seen = lines(&quiet_out);
    eventually(60, "three more runs", async || lines(&quiet_out) >= seen + 3).await;
    assert_eq!(last_result(&r, "quiet", 0).await.unwrap().1, version, "one write per refusal, not per fire");

    // Every view says the registry does not hold what runs: HEALTH OVERRIDDEN (the run itself
    // was OK), and `job show` marks the value.
    let list = ejctl_on(&server, &ns).args(["job", "list", "-o", "json"]).output().unwrap();
    let list: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let brief = list["jobs"].as_array().unwrap().iter().find(|j| j["name"] == "pinned").unwrap();
    assert_eq!(
        (&brief["health"], &brief["overriddenItems"]),
        (&serde_json::json!("OVERRIDDEN"), &serde_json::json!([0])),
        "{brief}"
    );
    let show = ejctl_on(&server, &ns).args(["job", "show", "pinned"]).output().unwrap();
    let show = String::from_utf8_lossy(&show.stdout);
    assert!(show.contains(&format!("script.command.line={} (overridden)", evil.display())), "{show}");
    assert!(show.contains("item 0: OVERRIDDEN: its last run, on "), "{show}");
    for job in ["pinned", "quiet"] {
        let command = format!("{} {job}", dir.path().join(format!("{job}.sh")).display());
        let (code, doc) = why(&server, &ns, &[job]);
        assert_eq!((code, codes(&doc)), (0, vec!["command_refused".to_string(), "will_run".into()]), "{doc:#}");
        let finding = &doc["findings"][0];
        assert_eq!((finding["item"].as_u64(), finding["blocking"].as_bool()), (Some(0), Some(false)));
        let message = finding["message"].as_str().unwrap();
        assert!(message.contains(&format!("the registry has '{}'", evil.display())), "{message}");
        assert_eq!(finding["evidence"][0]["node"], format!("/{job}/sharding/0/result"));
        assert!(finding["evidence"][0]["at"].is_string(), "{finding}");
        let fix = finding["fix"].as_str().unwrap();
        assert_eq!(
            fix,
            format!(
                "ejctl config set {job} props.script.command.line='{command}'   (or, to run the registry's, allow_registry_commands = true in the worker's job file, then restart it)"
            )
        );
        // The fix, as given: the registry holds the job file's command again.
        let set = fix.split("   (or").next().unwrap().strip_prefix("ejctl config set ").unwrap();
        let value = set.split_once('=').unwrap().1.trim_matches('\'');
        let out = ejctl_on(&server, &ns)
            .args(["config", "set", job, &format!("props.script.command.line={value}")])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    for job in ["pinned", "quiet"] {
        eventually(60, "a run that refused nothing", async || {
            last_result(&r, job, 0).await.is_some_and(|(res, _)| res.refused.is_empty())
        })
        .await;
        let (code, doc) = why(&server, &ns, &[job]);
        assert_eq!((code, codes(&doc)), (0, vec!["will_run".to_string()]), "{doc:#}");
    }
    assert!(worker.log().contains("refused the registry's command"), "{}", worker.log());
}

/// A real worker's run still going, with a missed fire owed (misfire on): not in the way, the
/// owed fire runs right after it. Then `ejctl job shutdown` stops the job on the worker: no live
/// instance.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn still_running_with_a_misfire_owed_then_shut_down() {
    let job = "name = \"rec\"\ncron = \"0/1 * * * * ?\"\nsharding_total_count = 1\ncommand = \"{script} {record}\"\nmisfire = true\n";
    let mut c = Cluster::zookeeper("rec", job).await;
    c.set_sleep(Some(60.0));
    c.start("127.0.0.1").await;
    let misfire = c.paths().item_leaf(0, ItemLeaf::Misfire);
    c.wait_until(60, "a fire owed behind the run in progress", async |c| {
        !c.starts().is_empty() && c.registry.exists(&misfire).await.unwrap().is_some()
    })
    .await;
    let (code, doc) = json(ejctl_for(&c).args(["why", "rec", "--item", "0"]));
    assert_eq!((code, codes(&doc)), (0, vec!["still_running".to_string(), "will_run".into()]), "{doc:#}");
    let finding = &doc["findings"][0];
    assert_eq!(finding["blocking"], false);
    assert!(finding["message"].as_str().unwrap().contains("a missed fire is owed and runs right after it"));
    let nodes: Vec<&str> =
        finding["evidence"].as_array().unwrap().iter().map(|e| e["node"].as_str().unwrap()).collect();
    assert_eq!(nodes, ["/rec/sharding/0/running", "/rec/sharding/0/misfire"]);
    assert!(finding["evidence"][0]["at"].is_string(), "{finding}");

    // `job shutdown`: the worker stops the job (and kills its run); nothing runs it any more.
    let out = ejctl_for(&c).args(["job", "shutdown", "rec", "--yes"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let instances = c.paths().instances();
    let no_instance = async |c: &Cluster| c.registry.children(&instances).await.unwrap().is_none_or(|i| i.is_empty());
    c.wait_until(60, "the instance to go", no_instance).await;
    // The worker stopped the job rather than registering again.
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    assert!(no_instance(&c).await, "{}", c.logs());
    c.set_sleep(None);
    let (code, doc) = json(ejctl_for(&c).args(["why", "rec"]));
    assert_eq!((code, codes(&doc)[0].as_str()), (1, "no_live_instance"), "{doc:#}");
    let restart = "restart the workers with its job file: ejctl run JOB_FILE   (a worker runs a job that was shut down or removed again only after a restart)";
    assert_eq!(doc["findings"][0]["evidence"][0]["node"], "/rec/instances");
    assert_eq!(doc["findings"][0]["fix"], restart);
    // `job remove` deletes its servers too: the job still ran, and `why` says so.
    let out = ejctl_for(&c).args(["job", "remove", "rec", "--yes"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (code, doc) = json(ejctl_for(&c).args(["why", "rec"]));
    let finding = &doc["findings"][0];
    assert_eq!((code, finding["code"].as_str()), (1, Some("no_live_instance")), "{doc:#}");
    assert!(finding["message"].as_str().unwrap().contains("shut down or removed"), "{doc:#}");
    assert!(finding["evidence"][1]["detail"].as_str().unwrap().starts_with("the last run, of item 0"), "{doc:#}");
    assert_eq!(finding["fix"], restart);
}

/// A real worker cut off from ZooKeeper by a TCP proxy: while its session lasts its instance
/// stays registered but nothing runs (it is fenced), and `why` says so; once the session expired
/// there is no live instance; healed, the worker registers again and the job runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_cut_off_from_zookeeper() {
    let job = "name = \"cut\"\ncron = \"0/1 * * * * ?\"\nsharding_total_count = 1\ncommand = \"{script} {record}\"\n";
    // Ticks of 2 s let the session last 30 s: time to see the instance registered but silent.
    let options =
        ClusterOptions { proxied: true, tick_ms: 2000, session_timeout_ms: 30_000, ..ClusterOptions::default() };
    let mut c = Cluster::zookeeper_with("cut", job, options).await;
    let w = c.start("127.0.0.1").await;
    let result = c.paths().item_leaf(0, ItemLeaf::Result);
    let running = c.paths().item_leaf(0, ItemLeaf::Running);
    // Cut right after a run ended (a cut during a run leaves its `running` node, which `why`
    // reports instead); if a run slipped in, heal and try again.
    let mut cut = false;
    for _ in 0..5 {
        let version = c.registry.exists(&result).await.unwrap().map_or(-1, |s| s.version);
        c.wait_until(60, "a run to end", async |c| {
            c.registry.exists(&result).await.unwrap().is_some_and(|s| s.version > version)
        })
        .await;
        c.proxy(w).cut(true);
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        if c.registry.exists(&running).await.unwrap().is_none() {
            cut = true;
            break;
        }
        c.proxy(w).cut(false);
        tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    }
    assert!(cut, "could not cut the worker off between two runs\n{}", c.logs());
    let instance = c.paths().instance(&c.id(w));
    let mut silent = Value::Null;
    eventually(25, "why to find the instance silent", async || {
        let (code, doc) = json(ejctl_for(&c).args(["why", "cut"]));
        let found = code == 1 && codes(&doc)[0] == "instances_silent";
        if found {
            silent = doc;
        }
        found
    })
    .await;
    assert!(c.registry.exists(&instance).await.unwrap().is_some(), "still registered: the session lasts");
    let finding = &silent["findings"][0];
    assert!(finding["message"].as_str().unwrap().contains("cut off from ZooKeeper (fenced)"), "{finding}");
    assert_eq!(finding["evidence"][0]["node"], instance);
    assert_eq!(finding["fix"], "ejctl instance list cut   (then check those workers' logs)");
    // The session expires: the instance is gone.
    c.wait_until(60, "the session to expire", async |c| c.registry.exists(&instance).await.unwrap().is_none()).await;
    let (code, doc) = json(ejctl_for(&c).args(["why", "cut"]));
    assert_eq!((code, codes(&doc)[0].as_str()), (1, "no_live_instance"), "{doc:#}");
    // Healed: the worker registers again and runs the job.
    c.proxy(w).cut(false);
    eventually(90, "the job to run again", async || json(ejctl_for(&c).args(["why", "cut"])).0 == 0).await;
}

/// `why --fire TIME --trace STORE` against the trace a real worker writes: a fire its item ran
/// ran in time by a recorded run; a fire of a disabled item was not run, and `why` says why; an
/// instant that is not a fire time is said to be one; a time of day is read in the job's zone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_fires_against_a_real_trace() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("trace.db");
    let options = ClusterOptions { trace: Some(format!("url = \"{}\"", db.display())), ..ClusterOptions::default() };
    let job = "name = \"tr\"\ncron = \"0/1 * * * * ?\"\nsharding_total_count = 2\ncommand = \"{script} {record}\"\n";
    let mut c = Cluster::zookeeper_with("tr", job, options).await;
    c.start("127.0.0.1").await;
    c.wait_until(60, "runs of both items", async |c| {
        c.runs().iter().map(|r| r.item).collect::<BTreeSet<_>>().len() == 2
    })
    .await;
    let out = ejctl_for(&c).args(["sharding", "disable", "tr", "1"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // A fire after the worker saw the item disabled (its cache follows within a second or so).
    let fire = (Utc::now() + chrono::Duration::seconds(3)).trunc_subsecs(0);
    let fire_arg = fire.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let trace = db.display().to_string();
    let why_fire =
        |item: &str| json(ejctl_for(&c).args(["why", "tr", "--item", item, "--fire", &fire_arg, "--trace", &trace]));
    let mut covered = Value::Null;
    eventually(60, "a traced run of item 0 covering the fire", async || {
        let (code, doc) = why_fire("0");
        let found = code == 0 && codes(&doc)[0] == "fire_in_time";
        if found {
            covered = doc;
        }
        found
    })
    .await;
    assert_eq!(covered["traced"], true);
    let evidence = &covered["findings"][0]["evidence"][0];
    let id = evidence["node"].as_str().unwrap().strip_prefix("trace:").unwrap().to_string();
    let (_, history) =
        json(crate::support::ejctl().args(["history", "tr", "--item", "0", "--trace", &trace, "-n", "1000"]));
    let run = history["runs"].as_array().unwrap().iter().find(|r| r["id"] == id.as_str()).cloned().unwrap();
    assert_eq!(run["fireMs"].as_i64().unwrap(), fire.timestamp_millis(), "{run}");
    // Half a second later is no fire of `0/1 * * * * ?`; the fires around it are named.
    let off = (fire + chrono::Duration::milliseconds(500)).to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let (_, doc) = json(ejctl_for(&c).args(["why", "tr", "--item", "0", "--fire", &off, "--trace", &trace]));
    let found = doc["findings"].as_array().unwrap().iter().find(|f| f["code"] == "fire_not_a_fire_time").cloned();
    assert!(found.is_some_and(|f| f["message"].as_str().unwrap().contains("the fire times around it are")), "{doc:#}");
    // A time of day is its latest occurrence, on the job's wall clock (local time: no timeZone).
    let time_of_day = fire.with_timezone(&chrono::Local).format("%H:%M:%S").to_string();
    let (_, doc) = json(ejctl_for(&c).args(["why", "tr", "--item", "0", "--fire", &time_of_day, "--trace", &trace]));
    assert_eq!(doc["fire"], fire.to_rfc3339_opts(chrono::SecondsFormat::Secs, true), "{doc:#}");
    let fire_ms = run["fireMs"].as_i64().unwrap();
    c.wait_until(30, "the script's record of that run", async |c| {
        c.runs().iter().any(|r| r.item == 0 && r.fire == fire_ms)
    })
    .await;

    let (code, doc) = why_fire("1");
    assert_eq!(code, 1, "{doc:#}");
    let found = codes(&doc);
    assert_eq!(found[0], "item_disabled", "{doc:#}");
    assert!(found.contains(&"fire_not_run".to_string()), "{doc:#}");
    let not_run = doc["findings"].as_array().unwrap().iter().find(|f| f["code"] == "fire_not_run").unwrap();
    assert_eq!(
        not_run["fix"],
        format!("ejctl history tr --item 1 --since {}", fire.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
    );
    assert!(
        c.runs().iter().all(|r| r.item != 1 || r.fire < fire.timestamp_millis()),
        "item 1 ran after it was disabled"
    );

    // Without a store, `why` says it consulted none, and accounts for the fire from the item's
    // last run only: it ran later than the fire, so what ran in between is not known.
    let state = tempfile::tempdir().unwrap();
    let (code, doc) =
        json(ejctl_for(&c).env("XDG_STATE_HOME", state.path()).args(["why", "tr", "--item", "0", "--fire", &fire_arg]));
    assert_eq!((code, doc["traced"].as_bool()), (0, Some(false)), "{doc:#}");
    let fire_codes: Vec<String> = codes(&doc).into_iter().filter(|c| c.starts_with("fire_")).collect();
    assert!(fire_codes == ["fire_unknown"] || fire_codes == ["fire_in_time"], "{doc:#}");
}
