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
    history_finds_the_store_and_filters_by_time(&c, &db).await;
    c.stop(0).await;
}

/// `ejctl history` end to end: the store found through `EJCTL_TRACE`, a context's `trace` key and
/// `--job-file`; `--since` as a time (RFC 3339, local `YYYY-MM-DD HH:MM:SS`) and as a duration
/// keeps exactly the runs that started since.
async fn history_finds_the_store_and_filters_by_time(c: &Cluster, db: &std::path::Path) {
    let trace = db.display().to_string();
    let store = format!("sqlite:{trace}");
    // No default store nor contexts file to fall back on: each way of naming the store must be
    // the one used.
    let state = tempfile::tempdir().unwrap();
    let history = || {
        let mut cmd = crate::support::ejctl();
        cmd.env("XDG_STATE_HOME", state.path()).env("XDG_CONFIG_HOME", state.path()).arg("history").arg("ledger");
        cmd
    };
    let (code, doc) = json(&mut history());
    assert_eq!(code, 3, "no store named and none by default: {doc}");
    let found = |(code, doc): (i32, Value)| {
        assert_eq!((code, doc["store"].as_str()), (0, Some(store.as_str())), "{doc}");
        assert!(!doc["runs"].as_array().unwrap().is_empty(), "{doc}");
    };
    found(json(history().env("EJCTL_TRACE", &trace)));
    let zk = c.zk().unwrap();
    let contexts = c.dir.path().join("contexts.toml");
    std::fs::write(
        &contexts,
        format!(
            "current_context = \"t\"\n\n[contexts.t]\nzk = \"{}\"\nnamespace = \"{}\"\ntrace = \"{trace}\"\n",
            zk.servers, zk.namespace
        ),
    )
    .unwrap();
    found(json(history().env("EJCTL_CONFIG", &contexts)));
    found(json(history().env("EJCTL_CONFIG", &contexts).args(["--context", "t"])));
    // EJCTL_TRACE comes before the context.
    let (code, _) = json(history().env("EJCTL_CONFIG", &contexts).env("EJCTL_TRACE", c.dir.path().join("none.db")));
    assert_eq!(code, 3);
    found(json(history().arg("--job-file").arg(c.dir.path().join("worker-0.toml"))));
    // A relative SQLite path is relative to the file naming it, not to the working directory.
    let conf = db.parent().unwrap().join("conf");
    std::fs::create_dir_all(&conf).unwrap();
    let worker_file = std::fs::read_to_string(c.dir.path().join("worker-0.toml")).unwrap();
    let relative = worker_file.replace(&format!("url = \"{trace}\""), "url = \"../trace.db\"");
    assert_ne!(relative, worker_file);
    std::fs::write(conf.join("w.toml"), relative).unwrap();
    std::fs::write(
        &contexts,
        format!(
            "current_context = \"t\"\n[contexts.t]\nzk = \"{}\"\nnamespace = \"{}\"\ntrace = \"../trace.db\"\n",
            zk.servers, zk.namespace
        ),
    )
    .unwrap();
    std::fs::rename(&contexts, conf.join("contexts.toml")).unwrap();
    let store = format!("sqlite:{}", conf.join("../trace.db").display());
    for cmd in [
        history().arg("--job-file").arg(conf.join("w.toml")),
        history().env("EJCTL_CONFIG", conf.join("contexts.toml")),
    ] {
        let (code, doc) = json(cmd.current_dir(c.dir.path()));
        assert_eq!((code, doc["store"].as_str()), (0, Some(store.as_str())), "{doc}");
        assert!(!doc["runs"].as_array().unwrap().is_empty(), "{doc}");
    }

    // --since.
    let runs = |args: &[&str]| -> Vec<(String, i64)> {
        let (code, doc) = json(history().args(["--trace", &trace, "-n", "10000"]).args(args));
        assert_eq!(code, 0, "{args:?}: {doc}");
        doc["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["id"].as_str().unwrap().to_string(), r["startMs"].as_i64().unwrap()))
            .collect()
    };
    // Runs over a few seconds, to leave some out.
    let span = || {
        let starts: Vec<i64> = runs(&[]).iter().map(|(_, s)| *s).collect();
        starts.iter().max().unwrap_or(&0) - starts.iter().min().unwrap_or(&0)
    };
    eventually(60, "runs over three seconds", async || span() >= 3000).await;
    let all = runs(&[]);
    let mut starts: Vec<i64> = all.iter().map(|(_, s)| *s).collect();
    starts.sort_unstable();
    let check = |since: i64, got: &[(String, i64)], what: &str| {
        assert!(got.iter().all(|(_, s)| *s >= since), "{what}: a run started before {since}: {got:?}");
        for (id, start) in &all {
            let kept = got.iter().any(|(g, _)| g == id);
            assert!(kept || *start < since, "{what}: the run {id} started at {start} is missing");
        }
        assert!(all.iter().any(|(_, s)| *s < since), "{what}: nothing to filter out");
    };
    let mid = starts[starts.len() / 2];
    assert!(starts[0] < mid, "{starts:?}");
    let at = chrono::DateTime::from_timestamp_millis(mid).unwrap();
    check(mid, &runs(&["--since", &at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)]), "RFC 3339");
    // Local time, to the second: from the first run in a later second than the oldest.
    let later = *starts.iter().find(|s| **s / 1000 > starts[0] / 1000).unwrap();
    let at = chrono::DateTime::from_timestamp_millis(later / 1000 * 1000).unwrap();
    let local = at.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M:%S").to_string();
    check(later / 1000 * 1000, &runs(&["--since", &local]), "local time");
    // A duration back from now: a second less than the oldest run's age, which it leaves out.
    let before = chrono::Utc::now().timestamp_millis();
    let secs = (before - starts[0]) / 1000 - 1;
    assert!(secs >= 1, "the runs span too little time: {starts:?}");
    let got = runs(&["--since", &format!("{secs}s")]);
    let after = chrono::Utc::now().timestamp_millis();
    assert!(got.iter().all(|(_, s)| *s >= before - secs * 1000), "a run older than {secs}s: {got:?}");
    assert!(starts[0] < before - secs * 1000);
    for (id, start) in &all {
        assert!(*start < after - secs * 1000 || got.iter().any(|(g, _)| g == id), "{secs}s: the run {id} is missing");
    }
}

/// The rows of a query; none while the database or the tables are not there yet.
async fn pg_rows(url: &str, sql: &str) -> Vec<sqlx::postgres::PgRow> {
    let Ok(pool) = sqlx::PgPool::connect(url).await else { return Vec::new() };
    let rows = sqlx::query(sql).fetch_all(&pool).await.unwrap_or_default();
    pool.close().await;
    rows
}

/// A trace store the workers of a scenario write, read the same way whatever its dialect.
enum Db {
    Sqlite(std::path::PathBuf),
    Pg(String),
}

/// A row, every column as text (queries `CAST(... AS TEXT)` what is not text).
type TextRow = Vec<Option<String>>;

impl Db {
    /// The rows of `sql`; none while the store or its tables are not there yet.
    async fn rows(&self, sql: &str) -> Vec<TextRow> {
        fn texts<R: Row>(r: &R) -> TextRow
        where
            usize: sqlx::ColumnIndex<R>,
            for<'a> Option<String>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
        {
            (0..r.len()).map(|i| r.try_get::<Option<String>, _>(i).unwrap()).collect()
        }
        match self {
            Db::Sqlite(path) => match path.exists() {
                true => {
                    try_sqlite_rows(path, sql).await.map(|rows| rows.iter().map(texts).collect()).unwrap_or_default()
                }
                false => Vec::new(),
            },
            Db::Pg(url) => pg_rows(url, sql).await.iter().map(texts).collect(),
        }
    }

    /// The first column of each row (NULL as the empty string).
    async fn column(&self, sql: &str) -> Vec<String> {
        self.rows(sql).await.into_iter().map(|r| r.into_iter().next().flatten().unwrap_or_default()).collect()
    }
}

/// The cluster's record script, except that while `RECORD.fail` exists its runs fail: a line
/// on stderr and exit 3.
fn failing_record_script(dir: &std::path::Path) -> std::path::PathBuf {
    let script = dir.join("record-or-fail.sh");
    let body = format!(
        "{}if [ -e \"$1.fail\" ]; then\n  echo 'the ledger is down' >&2\n  exit 3\nfi\n",
        crate::support::cluster::RECORD_SCRIPT
    );
    write_script(&script, &body);
    script
}

const EVERY_SOURCE_JOB: &str = "name = \"rec\"\ncron = \"0/1 * * * * ?\"\nsharding_total_count = 2\ncommand = \"SCRIPT {record}\"\nfailover = true\nmisfire = true\n";

/// Two real workers write runs of every source to one trace store — cron runs, failing ones,
/// misfires, a failover and a trigger — and ElasticJob's status rows with its messages, all
/// checked in the store. Returns the index of the worker left running.
async fn every_source(c: &mut Cluster, db: &Db) -> usize {
    let sources = async || db.column("SELECT DISTINCT execution_source FROM JOB_EXECUTION_LOG").await;
    let a = c.start("127.0.0.1").await;
    let b = c.start("127.0.0.2").await;
    eventually(60, "cron rows", async || sources().await.contains(&"NORMAL_TRIGGER".to_string())).await;

    // Failing runs: TASK_ERROR rows.
    let fail = c.record.with_extension("txt.fail");
    std::fs::write(&fail, "").unwrap();
    eventually(60, "error rows", async || {
        !db.rows("SELECT id FROM JOB_STATUS_TRACE_LOG WHERE state = 'TASK_ERROR'").await.is_empty()
    })
    .await;
    std::fs::remove_file(&fail).unwrap();

    // Misfire: runs longer than the period owe the fires missed meanwhile.
    c.set_sleep(Some(1.6));
    eventually(60, "misfire rows", async || sources().await.contains(&"MISFIRE".to_string())).await;

    // Failover: kill a worker in the middle of one of its runs.
    c.set_sleep(Some(4.0));
    let (ida, slow_from) = (c.id(a), chrono::Utc::now().timestamp_millis());
    c.wait_until(30, "a slow run in progress on the worker to kill", async |c| {
        let ended: Vec<(i64, u32, i64)> = c.runs().iter().map(|r| (r.fire, r.item, r.start)).collect();
        c.starts().iter().any(|(fire, item, instance, start, _)| {
            *instance == ida && *start > slow_from && !ended.contains(&(*fire, *item, *start))
        })
    })
    .await;
    c.kill(a);
    eventually(60, "failover rows", async || sources().await.contains(&"FAILOVER".to_string())).await;
    c.set_sleep(None);
    let instances = c.paths().instances();
    c.wait_until(60, "the killed worker's session to end", async |c| {
        c.registry.children(&instances).await.unwrap().is_some_and(|ids| ids.len() == 1)
    })
    .await;
    c.wait_settled(&[c.id(b)], 2).await;

    // Trigger: a run of its own, NORMAL_TRIGGER in ElasticJob's table, the token in ejctl's.
    let out = ejctl_for(c).args(["job", "trigger", "rec", "--wait", "--timeout", "30s"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}\n{}", String::from_utf8_lossy(&out.stderr), c.logs());
    let triggered = "SELECT e.execution_source FROM EJCTL_RUN_LOG r JOIN JOB_EXECUTION_LOG e ON e.id = r.id WHERE r.fire_source = 'trigger' AND r.trigger_token IS NOT NULL AND r.outcome = 'ok' AND e.complete_time IS NOT NULL";
    eventually(30, "trigger rows", async || !db.rows(triggered).await.is_empty()).await;
    assert!(db.column(triggered).await.iter().all(|s| s == "NORMAL_TRIGGER"));

    // JOB_EXECUTION_LOG: every source, ElasticJob's columns.
    let mut found = sources().await;
    found.sort();
    assert_eq!(found, ["FAILOVER", "MISFIRE", "NORMAL_TRIGGER"]);
    let mut found = db.column("SELECT DISTINCT fire_source FROM EJCTL_RUN_LOG").await;
    found.sort();
    assert_eq!(found, ["cron", "failover", "misfire", "trigger"]);
    let rows = db
        .rows("SELECT job_name, task_id, hostname, ip, CAST(sharding_item AS TEXT), CAST(is_success AS TEXT), failure_cause, CAST(start_time AS TEXT), CAST(complete_time AS TEXT), execution_source FROM JOB_EXECUTION_LOG")
        .await;
    let ips = ["127.0.0.1", "127.0.0.2"];
    for r in &rows {
        let col = |i: usize| r[i].clone().unwrap_or_default();
        assert_eq!(col(0), "rec");
        let task = col(1);
        assert!(
            task.starts_with("rec@-@") && ips.iter().any(|ip| task.contains(&format!("@-@READY@-@{ip}@-@"))),
            "{task}"
        );
        assert!(!col(2).is_empty() && ips.contains(&col(3).as_str()), "{r:?}");
        assert!(["0", "1"].contains(&col(4).as_str()) && r[7].is_some(), "{r:?}");
        if r[8].is_none() {
            continue; // Not ended (a run of the killed worker): ElasticJob's start row as is.
        }
        let success = ["true", "1"].contains(&col(5).as_str());
        assert_eq!(success, r[6].is_none(), "{r:?}");
        if !success {
            assert!(col(6).starts_with("exit code 3: the ledger is down\n"), "{r:?}");
        }
    }
    let failover = "SELECT CAST(is_success AS TEXT), failure_cause FROM JOB_EXECUTION_LOG WHERE execution_source = 'FAILOVER' AND complete_time IS NOT NULL";
    let row = &db.rows(failover).await[0];
    assert!(["true", "1"].contains(&row[0].as_deref().unwrap_or_default()) && row[1].is_none(), "{row:?}");

    // JOB_STATUS_TRACE_LOG: ElasticJob's states and messages.
    let status = db.rows("SELECT state, message, source, execution_type, slave_id, sharding_item, task_id, CAST(creation_time AS TEXT) FROM JOB_STATUS_TRACE_LOG").await;
    let misfired = |m: &str| {
        m.strip_prefix("Previous job 'rec' - shardingItems '[")
            .and_then(|m| m.strip_suffix("]' is still running, misfired job will start after previous job completed."))
            .is_some_and(|items| ["0", "1", "0, 1"].contains(&items))
    };
    let failed = |m: &str| {
        m.strip_prefix('{').and_then(|m| m.strip_suffix('}')).is_some_and(|m| {
            m.split(", ").all(|part| {
                ["0=", "1="].iter().any(|p| part.strip_prefix(p) == Some("exit code 3: the ledger is down"))
            })
        })
    };
    let mut seen = std::collections::BTreeSet::new();
    for r in &status {
        let col = |i: usize| r[i].clone().unwrap_or_default();
        let (state, message) = (col(0), col(1));
        assert_eq!((col(2).as_str(), col(3).as_str()), ("LITE_EXECUTOR", "READY"), "{r:?}");
        assert!(ips.contains(&col(4).as_str()) && ["[0]", "[1]", "[0, 1]"].contains(&col(5).as_str()), "{r:?}");
        assert!(col(6).contains(&format!("@-@READY@-@{}@-@", col(4))) && r[7].is_some(), "{r:?}");
        let kind = match state.as_str() {
            "TASK_STAGING" if message == "Job 'rec' execute begin." => "staging",
            "TASK_RUNNING" if message.is_empty() => "running",
            "TASK_FINISHED" if message.is_empty() => "finished",
            "TASK_FINISHED" if misfired(&message) => "misfired",
            "TASK_ERROR" if failed(&message) => "error",
            _ => panic!("unexpected status row {r:?}"),
        };
        seen.insert(kind);
    }
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), ["error", "finished", "misfired", "running", "staging"]);
    b
}

fn every_source_cluster_job(dir: &std::path::Path) -> String {
    EVERY_SOURCE_JOB.replace("SCRIPT", &failing_record_script(dir).display().to_string())
}

/// Every source from real workers in SQLite (two workers, one file).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_source_in_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("trace.db");
    let options = ClusterOptions {
        trace: Some(format!("url = \"{}\"", db.display())),
        session_timeout_ms: 6_000,
        ..ClusterOptions::default()
    };
    let mut c = Cluster::zookeeper_with("rec", &every_source_cluster_job(dir.path()), options).await;
    let b = every_source(&mut c, &Db::Sqlite(db)).await;
    c.stop(b).await;
}

/// Every source from real workers in PostgreSQL; then the database is killed while the job
/// fires, and restarted.
///
/// What the outage part proves, from the script's own record file and the database:
/// * no fire is lost while PostgreSQL is down: every whole-second fire due during the outage is
///   covered, for both items, by a run that started at or after it (its own run, or the misfire
///   re-run that stands for it under load) within 10 s — the worker kept firing;
/// * the events emitted during the outage were buffered and written once it was back, none
///   dropped: every run the script recorded during the outage has its row in `EJCTL_RUN_LOG`
///   with its outcome and in `JOB_EXECUTION_LOG` with its completion, and each of those fires
///   has its `TASK_STAGING` row. The buffer holds `buffer_events` (10,000 by default) events,
///   hours of this job's events, and the worker never logs a full buffer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_source_in_postgres_and_a_dead_database_costs_no_fire() {
    let mut pg = PgServer::start();
    pg.create_database("jobs");
    let url = pg.url("jobs");
    let dir = tempfile::tempdir().unwrap();
    let options = ClusterOptions {
        trace: Some(format!("url = \"{url}\"\nretention_interval_seconds = 1")),
        session_timeout_ms: 6_000,
        ..ClusterOptions::default()
    };
    let mut c = Cluster::zookeeper_with("rec", &every_source_cluster_job(dir.path()), options).await;
    let db = Db::Pg(url.clone());
    let b = every_source(&mut c, &db).await;

    // Kill the database while the job fires; restart it after five seconds of fires.
    pg.kill();
    let killed_at = chrono::Utc::now().timestamp_millis();
    let last_fire = (killed_at / 1000 + 5) * 1000;
    c.wait_until(60, "both items to run the fires of five seconds without the database", async |c| {
        let runs = c.runs();
        (0..2).all(|item| runs.iter().any(|r| r.item == item && r.fire >= last_fire))
    })
    .await;
    let down_until = chrono::Utc::now().timestamp_millis();
    pg.restart();

    let runs = c.runs();
    let first_fire = (killed_at / 1000 + 1) * 1000;
    for fire in (first_fire..=last_fire).step_by(1000) {
        for item in 0..2 {
            assert!(
                runs.iter().any(|r| r.item == item && r.fire >= fire && r.start >= fire && r.start - fire <= 10_000),
                "item {item}: the fire at {fire} was lost while the database was down\n{runs:?}\n{}",
                c.logs()
            );
        }
    }
    let outage: Vec<&crate::support::cluster::Run> =
        runs.iter().filter(|r| r.fire > killed_at && r.start < down_until).collect();
    assert!(outage.len() >= 10, "{outage:?}");
    let in_db = format!(
        "SELECT CAST(r.sharding_item AS TEXT), CAST(r.fire_ms AS TEXT) FROM EJCTL_RUN_LOG r JOIN JOB_EXECUTION_LOG e ON e.id = r.id WHERE r.fire_ms > {killed_at} AND r.outcome IS NOT NULL AND e.complete_time IS NOT NULL"
    );
    let missing = async || -> Vec<(u32, i64)> {
        let rows: std::collections::BTreeSet<(String, String)> = db
            .rows(&in_db)
            .await
            .into_iter()
            .map(|r| (r[0].clone().unwrap_or_default(), r[1].clone().unwrap_or_default()))
            .collect();
        outage
            .iter()
            .filter(|r| !rows.contains(&(r.item.to_string(), r.fire.to_string())))
            .map(|r| (r.item, r.fire))
            .collect()
    };
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(90);
    loop {
        let left = missing().await;
        if left.is_empty() {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "runs of the outage (item, fire) never reached the database: {left:?}\n{}",
            c.logs()
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let local = |ms: i64| ejctl::trace::store::local_timestamp(ms).unwrap().format("%Y-%m-%d %H:%M:%S%.3f").to_string();
    let staged = db
        .rows(&format!(
            "SELECT id FROM JOB_STATUS_TRACE_LOG WHERE state = 'TASK_STAGING' AND creation_time > '{}' AND creation_time < '{}'",
            local(killed_at),
            local(down_until)
        ))
        .await
        .len();
    let fires: std::collections::BTreeSet<i64> = outage.iter().map(|r| r.fire).collect();
    assert!(staged >= fires.len(), "{staged} staging rows for {} fires during the outage", fires.len());
    assert!(!c.log(b).contains("trace buffer full"), "{}", c.logs());
    c.stop(b).await;
}

/// `job list --watch -o json` and `sharding show --watch -o json`: one JSON line per change,
/// driven by watches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_views_print_a_line_per_change() {
    use std::sync::mpsc;

    let (server, ns, r) = crate::support::zk_registry("watch").await;
    crate::support::seed_jobs(&r, 1, ejctl::registry::Mode::Ephemeral).await;
    let spawn = |args: &[&str]| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ejctl"));
        cmd.args(["--zk", &server.connect_string(), "--namespace", &ns, "-o", "json"]).args(args);
        spawn_lines(cmd)
    };
    let next = |rx: &mpsc::Receiver<String>| -> Value {
        serde_json::from_str(&rx.recv_timeout(std::time::Duration::from_secs(30)).expect("a line")).unwrap()
    };
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
    // The count applies the same filters and no limit.
    assert_eq!(store.count_history(&q).await.unwrap(), 7);
    assert_eq!(store.count_history(&HistoryQuery { failed: true, limit: 0, ..q.clone() }).await.unwrap(), 1);
    assert_eq!(store.count_history(&HistoryQuery { item: Some(2), limit: 2, ..q.clone() }).await.unwrap(), 5);
    let since = HistoryQuery { item: Some(2), since_ms: Some(now - 999), ..q.clone() };
    assert_eq!(store.count_history(&since).await.unwrap(), 4);
    assert_eq!(store.count_history(&HistoryQuery { job: "k".into(), ..q.clone() }).await.unwrap(), 0);
    assert_eq!(store.job_names().await.unwrap(), ["j"]);
    // The first runs since an instant (what `why --fire` looks for).
    let first = HistoryQuery { item: Some(2), limit: 2, oldest_first: true, since_ms: Some(now - 999), ..q.clone() };
    let first = store.history(&first).await.unwrap();
    assert_eq!(first.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["c1", "c2"]);
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

/// A limited answer says how many runs matched (`total`, `truncated`, a line on stderr); a
/// mistyped job is exit 3 with the name meant, from the registry when one is given, else from
/// the jobs in the trace store; without a store, the message says how to name one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_reports_truncation_and_near_misses() {
    use ejctl::registry::codec::RunOutcome;
    use ejctl::registry::path::JobPaths;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("trace.db");
    let store = ejctl::trace::store::Store::open(&ejctl::trace::TraceTarget::Sqlite(db.clone())).await.unwrap();
    let now = chrono::Utc::now().timestamp_millis();
    let mut events = Vec::new();
    for i in 0..25 {
        let mut s = start(&format!("r{i}"), 0, now - 60_000 + i);
        s.job = "etl".into();
        events.push(end(s, if i % 5 == 0 { RunOutcome::Ok } else { RunOutcome::Failed }));
    }
    store.write(&events).await.unwrap();
    store.close().await;
    let trace = db.display().to_string();
    let history = |args: &[&str]| {
        let mut cmd = crate::support::ejctl();
        cmd.env("EJCTL_CONFIG", dir.path().join("none.toml")).arg("history").args(args).args(["--trace", &trace]);
        cmd
    };

    let (code, doc) = json(&mut history(&["etl", "--failed"]));
    assert_eq!((code, doc["runs"].as_array().unwrap().len()), (0, 20), "{doc}");
    assert_eq!((doc["total"].clone(), doc["truncated"].clone()), (20.into(), false.into()), "{doc}");
    let (_, doc) = json(&mut history(&["etl"]));
    assert_eq!((doc["runs"].as_array().unwrap().len(), doc["total"].clone()), (20, 25.into()), "{doc}");
    assert_eq!(doc["truncated"], true);
    let (_, doc) = json(&mut history(&["etl", "--limit", "100"]));
    assert_eq!((doc["runs"].as_array().unwrap().len(), doc["truncated"].clone()), (25, false.into()), "{doc}");
    let out = history(&["etl", "--limit", "3"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), err.as_ref()), (Some(0), "3 of 25 runs; --limit N for more\n"));
    let out = history(&["etl", "-n", "3", "-o", "plain"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 3);
    assert!(String::from_utf8_lossy(&out.stderr).contains("3 of 25 runs"));

    // No registry: the trace store's job names stand in, and the message says so.
    let out = history(&["etll"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.starts_with("ejctl: error: no runs of job 'etll' in sqlite:"), "{err}");
    assert!(err.contains("(did you mean 'etl'? no registry was given"), "{err}");
    // A name far from every job: no suggestion, an empty history.
    history(&["zzzzzz"]).assert().success();

    // With a registry: the job is checked there.
    let (server, ns, r) = crate::support::zk_registry("hist").await;
    r.put(JobPaths::new("etl").root(), b"SCRIPT").await.unwrap();
    r.put(JobPaths::new("other").root(), b"SCRIPT").await.unwrap();
    let zk = server.connect_string();
    let out = history(&["etll", "--zk", &zk, "--namespace", &ns]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("ejctl: error: job 'etll' not found in namespace '{ns}' (did you mean 'etl'?)\n")
    );
    history(&["other", "--zk", &zk, "--namespace", &ns]).assert().success();
    let (code, doc) = json(history(&["etl", "--zk", &zk, "--namespace", &ns]).args(["-n", "5"]));
    assert_eq!((code, doc["total"].clone()), (0, 25.into()), "{doc}");
    // Times read in the job's time zone.
    let config = "jobName: etl\nshardingTotalCount: 1\ncron: 0/1 * * * * ?\ntimeZone: GMT+08:00\n";
    r.put(&JobPaths::new("etl").config(), config.as_bytes()).await.unwrap();
    let out = history(&["etl", "--zk", &zk, "--namespace", &ns, "-n", "1", "-o", "table"]).output().unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(table.matches("+08:00").count(), 2, "{table}");

    // No store: how to name one.
    let state = tempfile::tempdir().unwrap();
    let out = crate::support::ejctl()
        .env("XDG_STATE_HOME", state.path())
        .env("EJCTL_CONFIG", dir.path().join("none.toml"))
        .args(["history", "etl"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    for how in ["--trace URL", "EJCTL_TRACE", "context set NAME --trace URL", "--job-file"] {
        assert!(err.contains(how), "{how}: {err}");
    }
}

/// `--watch` while ZooKeeper is down: the view is printed again at once, marked as possibly
/// stale since the outage began (a `registry` object in JSON lines, a banner above a table), and
/// once more without the mark after the link is back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_views_say_when_the_registry_is_unreachable() {
    use std::sync::mpsc;

    let (mut server, ns, r) = crate::support::zk_registry("watchdown").await;
    crate::support::seed_jobs(&r, 1, ejctl::registry::Mode::Persistent).await;
    drop(r);
    let spawn = |format: &str| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ejctl"));
        cmd.args(["job", "list", "--watch", "-o", format, "--zk", &server.connect_string(), "--namespace", &ns]);
        spawn_lines(cmd)
    };
    let next = |rx: &mpsc::Receiver<String>| rx.recv_timeout(std::time::Duration::from_secs(30)).expect("a line");
    let (mut json_child, json_rx) = spawn("json");
    let (mut table_child, table_rx) = spawn("table");
    let first: Value = serde_json::from_str(&next(&json_rx)).unwrap();
    assert!(first.get("registry").is_none(), "{first}");
    assert!(next(&table_rx).starts_with("NAME"));

    server.member().kill();
    let down: Value = serde_json::from_str(&next(&json_rx)).unwrap();
    assert_eq!(
        (down["registry"]["state"].as_str(), down["registry"]["stale"].as_bool()),
        (Some("disconnected"), Some(true)),
        "{down}"
    );
    assert!(down["registry"]["since"].as_str().is_some_and(|s| s.ends_with('Z')), "{down}");
    assert_eq!(down["jobs"], first["jobs"], "the last view, kept");
    let banner = loop {
        let line = next(&table_rx);
        if line.starts_with("registry ") {
            break line;
        }
    };
    assert!(
        banner.starts_with("registry disconnected since ")
            && banner.ends_with("reconnecting; the view below may be stale"),
        "{banner}"
    );

    tokio::task::block_in_place(|| server.start_again());
    let up: Value = serde_json::from_str(&next(&json_rx)).unwrap();
    assert!(up.get("registry").is_none(), "{up}");
    assert_eq!(up["jobs"], first["jobs"]);
    for child in [&mut json_child, &mut table_child] {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// Starts `cmd` with its stdout piped and a thread that sends each line it prints.
fn spawn_lines(mut cmd: std::process::Command) -> (std::process::Child, std::sync::mpsc::Receiver<String>) {
    use std::io::{BufRead, BufReader};
    let mut child = cmd
        .env_remove("RUST_LOG")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

/// A trace path that exists must be a SQLite database: a job file naming `/etc/passwd` or a
/// directory is refused by name, and nothing is written there.
#[tokio::test]
async fn a_trace_path_that_is_no_database_is_refused() {
    use ejctl::trace::TraceTarget;
    use ejctl::trace::store::Store;
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("passwd");
    std::fs::write(&text, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    let err = Store::open(&TraceTarget::Sqlite(text.clone())).await.err().unwrap().to_string();
    assert!(err.ends_with("passwd is not a SQLite database"), "{err}");
    assert_eq!(std::fs::read_to_string(&text).unwrap(), "root:x:0:0:root:/root:/bin/bash\n");
    let err = Store::open(&TraceTarget::Sqlite(dir.path().to_path_buf())).await.err().unwrap().to_string();
    assert!(err.ends_with("is not a regular file"), "{err}");
}
