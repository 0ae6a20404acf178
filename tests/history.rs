//! Execution history: the items' last results in the registry, the event trace in SQLite and
//! PostgreSQL (ElasticJob's tables, every source, a database killed during runs), and the
//! `history` command — with real `ejctl run` workers on a real ZooKeeper.

use serde_json::Value;
use sqlx::Row;

use crate::support::cluster::{Cluster, ClusterOptions};
use crate::support::pg::PgServer;
use crate::support::{eventually, write_script};

/// A script that prints a line on stdout, and for item 1 a line on stderr and exit 3. It records
/// each run like the cluster's record script (so scenarios can wait for fires).
const FLAKY: &str = r#"#!/bin/sh
echo "working on $EJCTL_SHARDING_ITEM"
d=$(cat "$0.sleep" 2>/dev/null)
[ -n "$d" ] && sleep "$d"
if [ "$EJCTL_SHARDING_ITEM" = 1 ]; then
  echo "cannot reach the ledger" >&2
  exit 3
fi
"#;

pub fn ejctl_for(c: &Cluster) -> assert_cmd::Command {
    let zk = c.zk().unwrap();
    let mut cmd = crate::support::ejctl();
    cmd.args(["--zk", &zk.servers, "--namespace", &zk.namespace]);
    cmd
}

pub fn json(cmd: &mut assert_cmd::Command) -> (i32, Value) {
    let out = cmd.args(["-o", "json"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    if text.is_empty() && !out.status.success() {
        return (out.status.code().unwrap_or(-1), Value::Null);
    }
    let value = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {text} / {}", String::from_utf8_lossy(&out.stderr));
    });
    (out.status.code().unwrap_or(-1), value)
}

fn flaky_job(c_dir: &std::path::Path, extra: &str) -> String {
    let script = c_dir.join("flaky.sh");
    write_script(&script, FLAKY);
    format!(
        "name = \"ledger\"\ncron = \"0/1 * * * * ?\"\nsharding_total_count = 2\ncommand = \"{}\"\n{extra}",
        script.display()
    )
}

async fn sqlite_rows(db: &std::path::Path, sql: &str) -> Vec<sqlx::sqlite::SqliteRow> {
    try_sqlite_rows(db, sql).await.unwrap()
}

/// The rows, or the error while the worker is still creating the file and its tables.
async fn try_sqlite_rows(db: &std::path::Path, sql: &str) -> Result<Vec<sqlx::sqlite::SqliteRow>, sqlx::Error> {
    let url = format!("sqlite://{}?mode=ro", db.display());
    let pool = sqlx::SqlitePool::connect(&url).await?;
    let rows = sqlx::query(sql).fetch_all(&pool).await;
    pool.close().await;
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_in_the_registry_and_the_trace_in_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("trace.db");
    let options = ClusterOptions { trace: Some(format!("url = \"{}\"", db.display())), ..ClusterOptions::default() };
    let mut c = Cluster::zookeeper_with("ledger", &flaky_job(dir.path(), ""), options).await;
    c.start("127.0.0.1").await;

    // The failing item stands out in `job list`, with no database involved.
    eventually(60, "job list to show the failing item", async || {
        let (_, doc) = json(ejctl_for(&c).args(["job", "list"]));
        doc["jobs"][0]["health"] == "FAILING"
    })
    .await;
    let (code, doc) = json(ejctl_for(&c).args(["job", "list"]));
    assert_eq!(code, 0);
    let job = &doc["jobs"][0];
    assert_eq!((job["status"].as_str(), job["failingItems"].clone()), (Some("OK"), serde_json::json!([1])));
    assert!(job["lastRun"].is_string(), "{job}");
    let (_, table) = (0, String::from_utf8(ejctl_for(&c).args(["job", "list"]).output().unwrap().stdout).unwrap());
    assert!(table.contains("FAILING 1/2 (item 1)"), "{table}");

    // Per item: result, exit code and the last stderr line.
    let (_, doc) = json(ejctl_for(&c).args(["sharding", "show", "ledger"]));
    let items = doc["items"].as_array().unwrap();
    assert_eq!(items[0]["result"], "OK");
    assert_eq!(items[1]["result"], "FAILED");
    assert_eq!(items[1]["exitCode"], 3);
    assert_eq!(items[1]["message"], "exit code 3: cannot reach the ledger");
    assert!(items[1]["nextFire"].is_string() && items[1]["lastRun"].is_string());
    let raw = c.registry.get(&c.paths().item_leaf(1, ejctl::registry::path::ItemLeaf::Result)).await.unwrap().unwrap();
    let result = ejctl::registry::codec::ItemResult::decode(&raw.data).unwrap();
    assert_eq!(result.stderr_tail.as_deref(), Some("cannot reach the ledger\n"));
    assert_eq!(result.source, "cron");

    // trigger --wait reports the stderr line instead of a bare exit code.
    let out =
        ejctl_for(&c).args(["job", "trigger", "ledger", "--wait", "--timeout", "30s", "-o", "json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let failed: Vec<&Value> = doc["results"].as_array().unwrap().iter().filter(|r| r["success"] == false).collect();
    assert_eq!(failed[0]["message"], "exit code 3: cannot reach the ledger", "{doc}");

    // The trace: ElasticJob's tables with their columns.
    eventually(30, "trace rows of both items and a trigger", async || {
        db.exists()
            && try_sqlite_rows(&db, "SELECT DISTINCT r.sharding_item FROM EJCTL_RUN_LOG r WHERE r.fire_source = 'trigger' AND r.outcome IS NOT NULL").await.is_ok_and(|rows| rows.len() == 2)
    })
    .await;
    let rows = sqlite_rows(
        &db,
        "SELECT job_name, task_id, hostname, ip, sharding_item, execution_source, failure_cause, is_success, start_time, complete_time FROM JOB_EXECUTION_LOG WHERE complete_time IS NOT NULL ORDER BY start_time",
    )
    .await;
    assert!(rows.len() >= 2);
    for r in &rows {
        let item: i32 = r.get("sharding_item");
        assert_eq!(r.get::<String, _>("job_name"), "ledger");
        assert_eq!(r.get::<String, _>("ip"), "127.0.0.1");
        assert!(r.get::<String, _>("task_id").starts_with("ledger@-@"), "{}", r.get::<String, _>("task_id"));
        assert!(r.get::<String, _>("task_id").contains("@-@READY@-@127.0.0.1@-@"));
        // A fire that finds an item still busy (a loaded machine) is re-run as a misfire.
        assert!(["NORMAL_TRIGGER", "MISFIRE"].contains(&r.get::<String, _>("execution_source").as_str()));
        assert_eq!(r.get::<bool, _>("is_success"), item == 0);
        let cause: Option<String> = r.get("failure_cause");
        assert_eq!(cause.is_some(), item == 1);
        if let Some(cause) = cause {
            assert!(cause.contains("cannot reach the ledger"), "{cause}");
        }
    }
    assert!(rows.iter().any(|r| r.get::<String, _>("execution_source") == "NORMAL_TRIGGER"));
    let states: Vec<String> = sqlite_rows(&db, "SELECT DISTINCT state FROM JOB_STATUS_TRACE_LOG ORDER BY state")
        .await
        .iter()
        .map(|r| r.get(0))
        .collect();
    for state in ["TASK_ERROR", "TASK_RUNNING", "TASK_STAGING"] {
        assert!(states.iter().any(|s| s == state), "{states:?}");
    }
    let errors = sqlite_rows(
        &db,
        "SELECT source, execution_type, sharding_item, message FROM JOB_STATUS_TRACE_LOG WHERE state = 'TASK_ERROR'",
    )
    .await;
    assert!(errors.iter().any(|r| r.get::<String, _>("sharding_item") == "[0, 1]"));
    for r in &errors {
        assert_eq!(r.get::<String, _>("source"), "LITE_EXECUTOR");
        assert_eq!(r.get::<String, _>("execution_type"), "READY");
        assert!(["[0, 1]", "[1]"].contains(&r.get::<String, _>("sharding_item").as_str()));
        assert_eq!(r.get::<String, _>("message"), "{1=exit code 3: cannot reach the ledger}");
    }

    // history: rows, filters, JSON, the output tail.
    let trace = db.display().to_string();
    let (code, doc) = json(crate::support::ejctl().args(["history", "ledger", "--trace", &trace]));
    assert_eq!(code, 0);
    let runs = doc["runs"].as_array().unwrap();
    assert!(runs.len() >= 4 && runs.len() <= 20, "{}", runs.len());
    assert!(runs.iter().all(|r| r["job"] == "ledger" && r["fireMs"].is_i64() && r["latenessMs"].is_i64()));
    let (_, doc) = json(crate::support::ejctl().args(["history", "ledger", "--trace", &trace, "--failed", "-n", "2"]));
    let failed = doc["runs"].as_array().unwrap();
    assert_eq!(failed.len(), 2);
    assert!(failed.iter().all(|r| r["item"] == 1 && r["outcome"] == "failed" && r["exitCode"] == 3));
    let (_, doc) = json(crate::support::ejctl().args(["history", "ledger", "--trace", &trace, "--source", "trigger"]));
    assert!(doc["runs"].as_array().unwrap().iter().all(|r| r["source"] == "trigger"));
    let out = crate::support::ejctl()
        .args(["history", "ledger", "--trace", &trace, "--item", "1", "--output-tail"])
        .output()
        .unwrap();
    let tail = String::from_utf8(out.stdout).unwrap();
    assert!(tail.contains("working on 1") && tail.contains("cannot reach the ledger"), "{tail}");
    let out = crate::support::ejctl()
        .args(["history", "ledger", "--trace", &trace, "--since", "yesterday"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = crate::support::ejctl()
        .args(["history", "ledger", "--trace", &dir.path().join("none.db").display().to_string()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    c.stop(0).await;
}

/// The rows of a query; none while the database or the tables are not there yet.
async fn pg_rows(url: &str, sql: &str) -> Vec<sqlx::postgres::PgRow> {
    let Ok(pool) = sqlx::PgPool::connect(url).await else { return Vec::new() };
    let rows = sqlx::query(sql).fetch_all(&pool).await.unwrap_or_default();
    pool.close().await;
    rows
}

async fn pg_sources(url: &str) -> Vec<String> {
    pg_rows(url, "SELECT DISTINCT execution_source FROM job_execution_log ORDER BY 1")
        .await
        .iter()
        .map(|r| r.get(0))
        .collect()
}

/// Every source in PostgreSQL (cron, trigger, misfire, failover), a database killed during runs
/// costs no fire, and the rows written after it is back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_source_in_postgres_and_a_dead_database_costs_no_fire() {
    let mut pg = PgServer::start();
    pg.create_database("jobs");
    let url = pg.url("jobs");
    let options = ClusterOptions {
        trace: Some(format!("url = \"{url}\"\nretention_interval_seconds = 1")),
        session_timeout_ms: 6_000,
        ..ClusterOptions::default()
    };
    let job = "name = \"rec\"\ncron = \"0/1 * * * * ?\"\nsharding_total_count = 2\ncommand = \"{script} {record}\"\nfailover = true\nmisfire = true\n";
    let mut c = Cluster::zookeeper_with("rec", job, options).await;
    let a = c.start("127.0.0.1").await;
    c.start("127.0.0.2").await;
    eventually(60, "cron rows in postgres", async || pg_sources(&url).await.contains(&"NORMAL_TRIGGER".to_string()))
        .await;

    // Misfire: runs longer than the period owe the fires missed meanwhile.
    c.set_sleep(Some(1.6));
    eventually(60, "misfire rows", async || pg_sources(&url).await.contains(&"MISFIRE".to_string())).await;

    // Failover: kill a worker in the middle of its runs.
    c.set_sleep(Some(4.0));
    let started_before = c.starts().len();
    c.wait_until(30, "a run in progress", async |c| c.starts().len() > started_before).await;
    c.kill(a);
    eventually(60, "failover rows", async || pg_sources(&url).await.contains(&"FAILOVER".to_string())).await;
    c.set_sleep(None);
    let instances = c.paths().instances();
    c.wait_until(60, "the killed worker's session to end", async |c| {
        c.registry.children(&instances).await.unwrap().is_some_and(|ids| ids.len() == 1)
    })
    .await;
    c.wait_settled(&[c.id(1)], 2).await;

    // Trigger: a run of its own, recorded as NORMAL_TRIGGER with the token in ejctl's table.
    let out = ejctl_for(&c).args(["job", "trigger", "rec", "--wait", "--timeout", "30s"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}\n{}", String::from_utf8_lossy(&out.stderr), c.logs());
    eventually(30, "trigger rows", async || {
        !pg_rows(&url, "SELECT 1 FROM ejctl_run_log WHERE fire_source = 'trigger' AND trigger_token IS NOT NULL AND outcome = 'ok'").await.is_empty()
    })
    .await;
    let sources: Vec<String> = pg_rows(&url, "SELECT DISTINCT fire_source FROM ejctl_run_log ORDER BY 1")
        .await
        .iter()
        .map(|r| r.get(0))
        .collect();
    for s in ["cron", "failover", "misfire", "trigger"] {
        assert!(sources.contains(&s.to_string()), "{sources:?}");
    }
    let row = &pg_rows(&url, "SELECT is_success, complete_time, failure_cause FROM job_execution_log WHERE execution_source = 'FAILOVER' AND complete_time IS NOT NULL LIMIT 1").await[0];
    assert!(row.get::<bool, _>("is_success"));
    assert!(row.get::<Option<String>, _>("failure_cause").is_none());

    // Kill the database during runs: fires go on; rows come back once it is up again.
    pg.kill();
    let killed_at = chrono::Utc::now().timestamp_millis();
    c.wait_until(60, "both items to keep firing while the database is down", async |c| {
        let runs = c.runs();
        (0..2).all(|item| runs.iter().any(|r| r.item == item && r.fire > killed_at + 4000))
    })
    .await;
    let runs = c.runs();
    let fires: std::collections::BTreeSet<i64> =
        runs.iter().filter(|r| r.fire > killed_at && r.fire <= killed_at + 4000).map(|r| r.fire).collect();
    assert!(fires.len() >= 2, "fires stopped while the database was down: {fires:?}\n{}", c.logs());
    pg.restart();
    eventually(60, "rows written after the database came back", async || {
        let sql = format!("SELECT 1 FROM ejctl_run_log WHERE start_ms > {killed_at} AND outcome IS NOT NULL");
        !pg_rows(&url, &sql).await.is_empty()
    })
    .await;
    c.stop(1).await;
}

/// `job list --watch -o json` and `sharding show --watch -o json`: one JSON line per change,
/// driven by watches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_views_print_a_line_per_change() {
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc;

    let (server, ns, r) = crate::support::zk_registry("watch").await;
    crate::support::seed_jobs(&r, 1, ejctl::registry::Mode::Ephemeral).await;
    let spawn = |args: &[&str]| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ejctl"))
            .args(["--zk", &server.connect_string(), "--namespace", &ns, "-o", "json"])
            .args(args)
            .env_remove("RUST_LOG")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel::<Value>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(serde_json::from_str(&line).unwrap()).is_err() {
                    break;
                }
            }
        });
        (child, rx)
    };
    let next = |rx: &mpsc::Receiver<Value>| rx.recv_timeout(std::time::Duration::from_secs(30)).expect("a line");
    let (mut list, list_rx) = spawn(&["job", "list", "--watch"]);
    let (mut show, show_rx) = spawn(&["sharding", "show", "job0000", "--watch"]);
    assert_eq!(next(&list_rx)["jobs"][0]["status"], "OK");
    assert_eq!(next(&show_rx)["items"][1]["disabled"], false);

    let p = ejctl::registry::path::JobPaths::new("job0000");
    r.set(&p.server("10.0.0.1"), b"DISABLED", None).await.unwrap();
    assert_eq!(next(&list_rx)["jobs"][0]["status"], "DISABLED");
    r.create(&p.item_leaf(1, ejctl::registry::path::ItemLeaf::Disabled), b"", ejctl::registry::Mode::Persistent)
        .await
        .unwrap();
    let doc = next(&show_rx);
    let doc = if doc["items"][1]["disabled"] == true { doc } else { next(&show_rx) };
    assert_eq!(doc["items"][1]["disabled"], true);
    let _ = list.kill();
    let _ = show.kill();
    let _ = list.wait();
    let _ = show.wait();
}

fn start(id: &str, item: u32, start_ms: i64) -> ejctl::trace::RunStart {
    ejctl::trace::RunStart {
        id: id.into(),
        job: "j".into(),
        item,
        task_id: format!("j@-@{item}@-@READY@-@10.0.0.1@-@7"),
        instance: "10.0.0.1@-@7".into(),
        hostname: "h".into(),
        ip: "10.0.0.1".into(),
        source: "failover",
        fire_ms: start_ms - 5,
        start_ms,
        token: None,
    }
}

fn end(s: ejctl::trace::RunStart, outcome: ejctl::registry::codec::RunOutcome) -> ejctl::trace::TraceEvent {
    let end_ms = s.start_ms + 100;
    ejctl::trace::TraceEvent::RunEnded(Box::new(ejctl::trace::RunEnd {
        start: s,
        end_ms,
        outcome,
        exit_code: Some(1),
        signal: None,
        message: Some("exit code 1: boom".into()),
        output_tail: "out\nboom\n".into(),
        stderr_tail: "boom\n".into(),
    }))
}

/// The store on tables an ElasticJob cluster created (3.0.5 without `source`, 3.0.4 with it
/// NOT NULL and no default): kept as they are and written correctly; an end whose start row is
/// missing inserts the whole row; retention by rows and by age.
async fn store_scenario(target: ejctl::trace::TraceTarget, create_old: impl AsyncFnOnce(&str)) {
    use ejctl::registry::codec::RunOutcome;
    use ejctl::trace::store::{HistoryQuery, Store};
    create_old("CREATE TABLE JOB_STATUS_TRACE_LOG (id VARCHAR(40) NOT NULL, job_name VARCHAR(100) NOT NULL, original_task_id VARCHAR(255) NOT NULL, task_id VARCHAR(255) NOT NULL, slave_id VARCHAR(50) NOT NULL, source VARCHAR(50) NOT NULL, execution_type VARCHAR(20) NOT NULL, sharding_item VARCHAR(100) NOT NULL, state VARCHAR(20) NOT NULL, message VARCHAR(4000) NULL, creation_time TIMESTAMP NULL, PRIMARY KEY (id))").await;
    let store = Store::open(&target).await.unwrap();
    let now = chrono::Utc::now().timestamp_millis();
    let mut events = vec![ejctl::trace::TraceEvent::RunStarted(start("a", 0, now - 3_600_000 * 48))];
    events.push(end(start("a", 0, now - 3_600_000 * 48), RunOutcome::Ok));
    // An end without its start row (the start was dropped): the whole row is inserted.
    events.push(end(start("b", 1, now - 2000), RunOutcome::Failed));
    for i in 0..5 {
        let s = start(&format!("c{i}"), 2, now - 1000 + i);
        events.push(ejctl::trace::TraceEvent::RunStarted(s.clone()));
        events.push(end(s, RunOutcome::Ok));
    }
    let mut status = ejctl::trace::StatusTrace {
        id: "s1".into(),
        job: "j".into(),
        task_id: "j@-@0@-@READY@-@10.0.0.1@-@7".into(),
        slave_id: "10.0.0.1".into(),
        items: vec![0, 1],
        state: ejctl::trace::event::TASK_STAGING,
        message: ejctl::trace::event::staging_message("j"),
        at_ms: now,
    };
    events.push(ejctl::trace::TraceEvent::Status(status.clone()));
    status.id = "s2".into();
    events.push(ejctl::trace::TraceEvent::Status(status));
    store.write(&events).await.unwrap();
    // Writing the same batch again (a retry) changes nothing.
    store.write(&events).await.unwrap();
    let q = HistoryQuery { job: "j".into(), limit: 100, with_output: true, ..HistoryQuery::default() };
    let runs = store.history(&q).await.unwrap();
    assert_eq!(runs.len(), 7);
    let b = runs.iter().find(|r| r.id == "b").unwrap();
    assert_eq!(
        (b.outcome.as_deref(), b.exit_code, b.output_tail.as_deref()),
        (Some("failed"), Some(1), Some("out\nboom\n"))
    );
    assert_eq!(b.duration_ms, Some(100));
    assert_eq!(b.lateness_ms, 5);
    let failed = store.history(&HistoryQuery { failed: true, ..q.clone() }).await.unwrap();
    assert_eq!(failed.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["b"]);
    let item2 = store.history(&HistoryQuery { item: Some(2), limit: 2, ..q.clone() }).await.unwrap();
    assert_eq!(item2.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["c4", "c3"]);
    // Age: the run of two days ago goes; rows: the newest 3 stay.
    let deleted =
        store.enforce_retention(chrono::Utc::now(), Some(std::time::Duration::from_secs(86_400)), None).await.unwrap();
    assert_eq!(deleted, 1);
    let deleted = store.enforce_retention(chrono::Utc::now(), None, Some(3)).await.unwrap();
    assert_eq!(deleted, 3);
    let left = store.history(&q).await.unwrap();
    assert_eq!(left.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["c4", "c3", "c2"]);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trace_store_on_elasticjob_tables_sqlite_and_postgres() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("old.db");
    let url = format!("sqlite://{}?mode=rwc", db.display());
    store_scenario(ejctl::trace::TraceTarget::Sqlite(db.clone()), async |ddl| {
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        sqlx::query(ddl).execute(&pool).await.unwrap();
        pool.close().await;
    })
    .await;
    let rows = sqlite_rows(&db, "SELECT source, sharding_item FROM JOB_STATUS_TRACE_LOG").await;
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].get::<String, _>("source"), "LITE_EXECUTOR");
    assert_eq!(rows[0].get::<String, _>("sharding_item"), "[0, 1]");

    let pg = PgServer::start();
    pg.create_database("old");
    let url = pg.url("old");
    // The 3.0.5 shape: no `source` column.
    store_scenario(ejctl::trace::TraceTarget::Postgres(url.clone()), async |ddl| {
        let pool = sqlx::PgPool::connect(&url).await.unwrap();
        let ddl = ddl.replace(" source VARCHAR(50) NOT NULL,", "");
        sqlx::query(&ddl).execute(&pool).await.unwrap();
        pool.close().await;
    })
    .await;
    let rows = pg_rows(&url, "SELECT state, execution_type FROM job_status_trace_log").await;
    assert_eq!(rows.len(), 2);
    let rows = pg_rows(
        &url,
        "SELECT execution_source, is_success, complete_time IS NOT NULL AS done FROM job_execution_log WHERE id = 'b'",
    )
    .await;
    assert!(rows.is_empty(), "retention deleted b");
    let rows = pg_rows(&url, "SELECT execution_source FROM job_execution_log").await;
    assert!(rows.iter().all(|r| r.get::<String, _>(0) == "FAILOVER"));
}
