//! `ejctl config get|set|edit|apply|diff` and `ejctl context ...` end to end against a real
//! ZooKeeper: exit codes, stdout (JSON parsed), stderr messages, and the tree read back. Every
//! failing command is checked to leave the tree as it was.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use ejctl::registry::Registry;
use ejctl::registry::path::JobPaths;
use serde_json::Value;

use crate::support::{ZkServer, assert_unreachable, unique_ns, write_script, zk_options, zk_registry};

/// A configuration as ElasticJob-Lite 3.0.5 writes it
/// (docs/src/design/compatibility.md#job-configuration): SnakeYAML `dumpAsMap` order, the 3.0.5
/// executor key, a tracing configuration tagged with its Java class, and a key this version does
/// not know (as a newer ElasticJob might write).
const JAVA_YAML: &str = "\
cron: 0/5 * * * * ?
description: Java job
disabled: false
failover: false
jobErrorHandlerType: LOG
jobExecutorThreadPoolSizeProviderType: CPU
jobExtraConfigurations:
- !!org.apache.shardingsphere.elasticjob.tracing.yaml.YamlTracingConfiguration
  tracingStorageConfiguration: !!org.apache.shardingsphere.elasticjob.tracing.rdb.yaml.YamlDataSourceConfiguration
    dataSourceClassName: com.zaxxer.hikari.HikariDataSource
    props:
      jdbcUrl: jdbc:h2:mem:job_event_storage
      username: sa
  type: RDB
jobFutureOption: enabled
jobName: javaJob
jobParameter: param
jobShardingStrategyType: AVG_ALLOCATION
maxTimeDiffSeconds: -1
misfire: true
monitorExecution: true
overwrite: false
props:
  key: value
reconcileIntervalMinutes: 10
shardingItemParameters: 0=A,1=B,2=C
shardingTotalCount: 3
staticSharding: false
";

/// The job root of a Java job: its class name.
const JAVA_CLASS: &str = "org.apache.shardingsphere.elasticjob.example.job.JavaJob";

/// `ejctl` isolated from the developer's environment (see `support::ejctl`), with no editor and a
/// contexts file under `home` (absent unless a test writes it).
fn bare(home: &Path) -> Command {
    let mut cmd = crate::support::ejctl();
    cmd.env_remove("VISUAL").env_remove("EDITOR").env("EJCTL_CONFIG", contexts_file(home));
    cmd
}

fn contexts_file(home: &Path) -> PathBuf {
    home.join("ejctl").join("config.toml")
}

/// `ejctl` with the registry flags.
fn ejctl(home: &Path, server: &ZkServer, ns: &str) -> Command {
    let mut cmd = bare(home);
    cmd.args(["--zk", &server.connect_string(), "--namespace", ns]);
    cmd
}

fn stdout(out: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

fn stderr(out: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(out.get_output().stderr.clone()).unwrap()
}

fn json(out: &assert_cmd::assert::Assert) -> Value {
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

/// The config text and version of a job.
async fn config_of(r: &Registry, job: &str) -> (String, i32) {
    let node = r.get(&JobPaths::new(job).config()).await.unwrap().unwrap();
    (node.text(), node.stat.version)
}

async fn seed_java_job(r: &Registry) {
    let p = JobPaths::new("javaJob");
    r.put(p.root(), JAVA_CLASS.as_bytes()).await.unwrap();
    r.put(&p.config(), JAVA_YAML.as_bytes()).await.unwrap();
    r.put(&p.server("192.168.10.1"), b"ENABLED").await.unwrap();
}

async fn seed_script_job(r: &Registry) {
    let p = JobPaths::new("scriptJob");
    let yaml = "cron: 0 0 2 * * ?\ndisabled: false\nfailover: false\njobName: scriptJob\nmaxTimeDiffSeconds: -1\n\
misfire: false\nmonitorExecution: false\noverwrite: false\nprops:\n  script.command.line: /opt/jobs/cleanup.sh\n\
reconcileIntervalMinutes: 0\nshardingTotalCount: 2\nstaticSharding: false\n";
    r.put(p.root(), b"SCRIPT").await.unwrap();
    r.put(&p.config(), yaml.as_bytes()).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_and_set_keep_every_key_the_java_side_wrote() {
    let (server, ns, r) = zk_registry("cfg").await;
    let home = tempfile::tempdir().unwrap();
    seed_java_job(&r).await;
    let cli = || ejctl(home.path(), &server, &ns);

    // get: the YAML exactly as stored, in table and plain formats.
    cli().args(["config", "get", "javaJob"]).assert().success().stdout(JAVA_YAML).stderr("");
    cli().args(["config", "get", "javaJob", "-o", "plain"]).assert().success().stdout(JAVA_YAML);

    // get -o json: parsed fields, unknown keys and tagged entries, the raw text and the version.
    let doc = json(&cli().args(["config", "get", "javaJob", "-o", "json"]).assert().success());
    assert_eq!(doc["job"], "javaJob");
    assert_eq!(doc["version"], 0);
    assert_eq!(doc["yaml"], JAVA_YAML);
    let cfg = &doc["config"];
    assert_eq!(cfg["jobName"], "javaJob");
    assert_eq!(cfg["shardingTotalCount"], 3);
    assert_eq!(cfg["monitorExecution"], true);
    assert_eq!(cfg["timeZone"], Value::Null);
    assert_eq!(cfg["jobExecutorThreadPoolSizeProviderType"], "CPU");
    assert_eq!(cfg["props"]["key"], "value");
    assert_eq!(cfg["jobFutureOption"], "enabled");
    let tracing = &cfg["jobExtraConfigurations"][0]["!!org.apache.shardingsphere.elasticjob.tracing.yaml.YamlTracingConfiguration"];
    assert_eq!(tracing["type"], "RDB");
    // -o yaml carries the same document.
    let out = cli().args(["config", "get", "javaJob", "-o", "yaml"]).assert().success();
    let doc: serde_yaml_ng::Value = serde_yaml_ng::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["config"]["cron"].as_str(), Some("0/5 * * * * ?"));

    // set: several keys at once, YAML key names; a property set and one removed.
    let out = cli()
        .args([
            "config",
            "set",
            "javaJob",
            "cron=0/10 * * * * ?",
            "failover=true",
            "props.key=",
            "props.retries=3",
            "-o",
            "json",
        ])
        .assert()
        .success();
    let doc = json(&out);
    assert_eq!(
        doc,
        serde_json::json!({
            "job": "javaJob",
            "version": 1,
            "changed": {
                "cron": {"old": "0/5 * * * * ?", "new": "0/10 * * * * ?"},
                "failover": {"old": false, "new": true},
                "props.key": {"old": "value", "new": null},
                "props.retries": {"old": null, "new": "3"},
            }
        })
    );
    // Every other line is byte-for-byte what the Java side wrote.
    let expected = JAVA_YAML
        .replace("cron: 0/5 * * * * ?\n", "cron: 0/10 * * * * ?\n")
        .replace("failover: false\n", "failover: true\n")
        .replace("props:\n  key: value\n", "props:\n  retries: '3'\n");
    assert_eq!(config_of(&r, "javaJob").await, (expected.clone(), 1));

    // shardingTotalCount needs a confirmation: refused without a terminal and without --yes.
    cli().args(["config", "set", "javaJob", "shardingTotalCount=4"]).assert().code(4).stdout("").stderr(
        "ejctl: error: change shardingTotalCount of job 'javaJob' from 3 to 4 (its items are resharded)? \
             refusing without confirmation: pass --yes\n",
    );
    cli().args(["config", "set", "javaJob", "shardingTotalCount=4", "-o", "json"]).assert().code(4).stdout("");
    assert_eq!(config_of(&r, "javaJob").await, (expected.clone(), 1));
    // With --yes (table output: what changed, old → new).
    cli()
        .args(["config", "set", "javaJob", "shardingTotalCount=4", "--yes"])
        .assert()
        .success()
        .stdout("job 'javaJob': configuration updated (version 2)\n  shardingTotalCount: 3 → 4\n");
    let expected = expected.replace("shardingTotalCount: 3\n", "shardingTotalCount: 4\n");
    assert_eq!(config_of(&r, "javaJob").await, (expected.clone(), 2));

    // The job file's snake_case names work too; -o plain prints key, old, new.
    cli()
        .args(["config", "set", "javaJob", "job_parameter=other", "time_zone=GMT+08:00", "-o", "plain"])
        .assert()
        .success()
        .stdout("jobParameter\tparam\tother\ntimeZone\t\tGMT+08:00\n");
    let expected = expected.replace("jobParameter: param\n", "jobParameter: other\n") + "timeZone: GMT+08:00\n";
    assert_eq!(config_of(&r, "javaJob").await, (expected.clone(), 3));

    // Either executor key name sets the pool type; the stored 3.0.5 name is kept.
    cli()
        .args(["config", "set", "javaJob", "job_executor_service_handler_type=single_thread", "-o", "json"])
        .assert()
        .success();
    let expected = expected.replace(
        "jobExecutorThreadPoolSizeProviderType: CPU\n",
        "jobExecutorThreadPoolSizeProviderType: SINGLE_THREAD\n",
    );
    assert_eq!(config_of(&r, "javaJob").await, (expected.clone(), 4));

    // No change: exit 0, nothing written.
    let doc = json(&cli().args(["config", "set", "javaJob", "failover=true", "-o", "json"]).assert().success());
    assert_eq!(doc, serde_json::json!({"job": "javaJob", "version": 4, "changed": {}}));
    cli().args(["config", "set", "javaJob", "failover=true"]).assert().success().stdout("job 'javaJob': no change\n");
    assert_eq!(config_of(&r, "javaJob").await, (expected, 4));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_refused_and_the_tree_is_unchanged() {
    let (server, ns, r) = zk_registry("cfgerr").await;
    let home = tempfile::tempdir().unwrap();
    seed_java_job(&r).await;
    seed_script_job(&r).await;
    r.put("/rootOnly", b"SCRIPT").await.unwrap();
    let cli = || ejctl(home.path(), &server, &ns);
    let before = (config_of(&r, "javaJob").await, config_of(&r, "scriptJob").await);

    // Unknown job: exit 3.
    for cmd in
        [&["config", "get", "nope"][..], &["config", "set", "nope", "failover=true"], &["config", "edit", "nope"]]
    {
        cli()
            .args(cmd)
            .env("EDITOR", "false")
            .assert()
            .code(3)
            .stdout("")
            .stderr(format!("ejctl: error: job 'nope' not found in namespace '{ns}'\n"));
    }
    cli().args(["config", "get", "rootOnly"]).assert().code(3).stderr(format!(
        "ejctl: error: job 'rootOnly' has no configuration (/rootOnly/config does not exist) in namespace '{ns}'\n"
    ));
    cli()
        .args(["config", "get", "bad/name"])
        .assert()
        .code(2)
        .stderr("ejctl: error: job name 'bad/name' must not contain '/'\n");

    // Malformed KEY=VALUE: exit 2 naming it.
    for (arg, message) in [
        ("shardingTotalCount", "'shardingTotalCount' is not KEY=VALUE"),
        ("shardingTotalCont=4", "unknown key 'shardingTotalCont' (did you mean 'shardingTotalCount'?)"),
        ("shardingTotalCount=four", "shardingTotalCount: 'four' is not an integer"),
        ("failover=maybe", "failover: 'maybe' is not true or false"),
        ("props.=x", "'props.=x': name the property: props.NAME=VALUE"),
    ] {
        cli()
            .args(["config", "set", "javaJob", arg])
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!("ejctl: error: job 'javaJob': {message}\n"));
    }
    // A valid assignment next to a bad one writes nothing either.
    cli().args(["config", "set", "javaJob", "failover=true", "misfire=often"]).assert().code(2);

    // Invalid values: the validator's message (the same as for job files).
    cli().args(["config", "set", "javaJob", "cron=0 0 12 * * *"]).assert().code(2).stdout("").stderr(
        "ejctl: error: job 'javaJob': cron: invalid cron expression '0 0 12 * * *': exactly one of \
             day-of-month and day-of-week must be '?'\n",
    );
    for (arg, start) in [
        ("shardingTotalCount=0", "ejctl: error: job 'javaJob': shardingTotalCount: must be at least 1, got 0"),
        ("timeZone=Mars/Olympus", "ejctl: error: job 'javaJob': timeZone: invalid time zone 'Mars/Olympus'"),
        (
            "jobShardingStrategyType=FANCY",
            "ejctl: error: job 'javaJob': jobShardingStrategyType: Cannot find sharding strategy",
        ),
        (
            "shardingItemParameters=0=A,,1=B",
            "ejctl: error: job 'javaJob': shardingItemParameters: Sharding item parameters",
        ),
        ("jobName=renamed", "ejctl: error: job 'javaJob': jobName cannot be changed"),
    ] {
        let out = cli().args(["config", "set", "javaJob", arg, "--yes"]).assert().code(2).stdout("");
        let err = stderr(&out);
        assert!(err.starts_with(start), "{arg}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // A script job keeps its command.
    let out = cli().args(["config", "set", "scriptJob", "props.script.command.line="]).assert().code(2);
    assert!(
        stderr(&out).starts_with("ejctl: error: job 'scriptJob': props 'script.command.line' is missing"),
        "{}",
        stderr(&out)
    );

    // Unreachable registry: exit 5, one line.
    for cmd in [&["config", "get", "javaJob"][..], &["config", "set", "javaJob", "failover=true"]] {
        assert_unreachable(bare(home.path()), cmd);
    }
    // No registry at all.
    bare(home.path())
        .args(["config", "get", "javaJob"])
        .assert()
        .code(2)
        .stderr("ejctl: error: no registry given: pass --zk HOST:PORT and --namespace NAME (or set EJCTL_ZK and EJCTL_NAMESPACE), or save them once: ejctl context set NAME --zk HOST:PORT --namespace NAME --use\n");

    assert_eq!((config_of(&r, "javaJob").await, config_of(&r, "scriptJob").await), before);
    assert_eq!(r.exists("/nope").await.unwrap(), None);
}

/// Writes an executable `EDITOR` script.
fn editor(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    write_script(&path, &format!("#!/bin/sh\nset -e\n{body}\n"));
    path.display().to_string()
}

/// The path of the kept edit copy named in an error message.
fn kept_copy(err: &str) -> PathBuf {
    let start = err.find("(your edit is kept in ").unwrap() + "(your edit is kept in ".len();
    let end = err[start..].find(')').unwrap() + start;
    PathBuf::from(&err[start..end])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edit_validates_and_refuses_concurrent_changes() {
    let (server, ns, r) = zk_registry("edit").await;
    let home = tempfile::tempdir().unwrap();
    seed_java_job(&r).await;
    let cli = || ejctl(home.path(), &server, &ns);
    let dir = home.path();

    // A change through the editor, with the count confirmed by --yes.
    let ed = editor(
        dir,
        "count.sh",
        r#"sed -i -e 's/^shardingTotalCount: 3$/shardingTotalCount: 5/' -e 's/^description: .*/description: edited/' "$1""#,
    );
    let doc =
        json(&cli().args(["config", "edit", "javaJob", "--yes", "-o", "json"]).env("EDITOR", &ed).assert().success());
    assert_eq!(
        doc,
        serde_json::json!({
            "job": "javaJob",
            "version": 1,
            "changed": {
                "description": {"old": "Java job", "new": "edited"},
                "shardingTotalCount": {"old": 3, "new": 5},
            }
        })
    );
    let expected = JAVA_YAML
        .replace("shardingTotalCount: 3\n", "shardingTotalCount: 5\n")
        .replace("description: Java job\n", "description: edited\n");
    assert_eq!(config_of(&r, "javaJob").await, (expected.clone(), 1));

    // VISUAL wins over EDITOR; an editor that changes nothing writes nothing.
    cli()
        .args(["config", "edit", "javaJob"])
        .env("VISUAL", "true")
        .env("EDITOR", "false")
        .assert()
        .success()
        .stdout("job 'javaJob': no change\n");
    // The editor command is split into words.
    let ed_args = editor(dir, "args.sh", r#"test "$1" = "--flag"; sed -i 's/^misfire: true$/misfire: false/' "$2""#);
    cli()
        .args(["config", "edit", "javaJob"])
        .env("EDITOR", format!("{ed_args} --flag"))
        .assert()
        .success()
        .stdout("job 'javaJob': configuration updated (version 2)\n  misfire: true → false\n");
    let expected = expected.replace("misfire: true\n", "misfire: false\n");
    assert_eq!(config_of(&r, "javaJob").await, (expected.clone(), 2));

    // A count change without --yes is refused.
    let ed = editor(dir, "count6.sh", r#"sed -i 's/^shardingTotalCount: 5$/shardingTotalCount: 6/' "$1""#);
    let out = cli().args(["config", "edit", "javaJob"]).env("EDITOR", &ed).assert().code(4);
    let err = stderr(&out);
    assert!(
        err.starts_with(
            "ejctl: error: change shardingTotalCount of job 'javaJob' from 5 to 6 (its items are resharded)? \
             refusing without confirmation: pass --yes (your edit is kept in "
        ),
        "{err}"
    );
    assert!(std::fs::read_to_string(kept_copy(&err)).unwrap().contains("shardingTotalCount: 6\n"));

    // Invalid results: exit 2, the copy is kept, nothing is written.
    for (name, script, message, edited) in [
        (
            "cron.sh",
            r#"sed -i 's/^cron: .*/cron: 0 0 12 * * */' "$1""#,
            "ejctl: error: job 'javaJob': cron: invalid cron expression '0 0 12 * * *'",
            "cron: 0 0 12 * * *\n",
        ),
        (
            "typo.sh",
            r#"sed -i 's/^shardingTotalCount:/shardingTotalCont:/' "$1""#,
            "ejctl: error: job 'javaJob': unknown key 'shardingTotalCont' (did you mean 'shardingTotalCount'?); ElasticJob's Java reader rejects unknown keys",
            "shardingTotalCont: ",
        ),
        (
            "yaml.sh",
            r#"echo 'cron: [' >> "$1""#,
            "ejctl: error: job 'javaJob': job configuration: not valid YAML",
            "cron: [\n",
        ),
        (
            "rename.sh",
            r#"sed -i 's/^jobName: .*/jobName: other/' "$1""#,
            "ejctl: error: job 'javaJob': jobName cannot be changed",
            "jobName: other\n",
        ),
    ] {
        let ed = editor(dir, name, script);
        let out = cli().args(["config", "edit", "javaJob", "--yes"]).env("EDITOR", &ed).assert().code(2).stdout("");
        let err = stderr(&out);
        assert!(err.starts_with(message), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        let copy = kept_copy(&err);
        let kept = std::fs::read_to_string(&copy).unwrap();
        assert!(kept.contains(edited), "{name}: the edit is in the copy: {kept}");
        std::fs::remove_file(copy).unwrap();
    }
    // A failing editor: exit 1, nothing written.
    let out = cli().args(["config", "edit", "javaJob"]).env("EDITOR", "false").assert().code(1);
    assert!(stderr(&out).starts_with("ejctl: error: job 'javaJob': the editor 'false' failed"), "{}", stderr(&out));
    assert_eq!(config_of(&r, "javaJob").await, (expected.clone(), 2));

    // A concurrent change while the editor is open: the editor script changes the node through
    // another ejctl process before saving. The edit is refused (exit 4), not written over it.
    let bin = assert_cmd::cargo::cargo_bin("ejctl");
    let ed = editor(
        dir,
        "race.sh",
        &format!(
            "\"{}\" --zk {} --namespace {ns} config set javaJob description=concurrent >/dev/null\n\
             sed -i 's/^jobParameter: .*/jobParameter: mine/' \"$1\"",
            bin.display(),
            server.connect_string()
        ),
    );
    let out = cli().args(["config", "edit", "javaJob"]).env("EDITOR", &ed).assert().code(4).stdout("");
    let err = stderr(&out);
    assert!(
        err.starts_with(
            "ejctl: error: job 'javaJob': the configuration changed concurrently; re-run the command (your edit is kept in "
        ),
        "{err}"
    );
    let copy = kept_copy(&err);
    assert!(std::fs::read_to_string(&copy).unwrap().contains("jobParameter: mine\n"));
    std::fs::remove_file(copy).unwrap();
    let concurrent = expected.replace("description: edited\n", "description: concurrent\n");
    assert_eq!(config_of(&r, "javaJob").await, (concurrent, 3));
}

const JOB_FILE: &str = r#"
[[job]]
name = "alpha"
type = "script"
cron = "0/5 * * * * ?"
sharding_total_count = 2
command = "echo alpha"

[[job]]
name = "beta"
type = "http"
cron = "0 0/1 * * * ?"
http_uri = "http://127.0.0.1:1/hook"
http_method = "POST"
failover = true
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_is_idempotent_and_diff_shows_drift() {
    let server = ZkServer::start();
    let home = tempfile::tempdir().unwrap();
    let ns = unique_ns("apply");
    let cli = || ejctl(home.path(), &server, &ns);
    let file = home.path().join("jobs.toml");
    std::fs::write(&file, JOB_FILE).unwrap();
    let file_arg = file.to_str().unwrap();
    let defs = ejctl::jobfile::load(std::slice::from_ref(&file)).unwrap();
    let want = |job: &str| defs.jobs.iter().find(|d| d.config.job_name == job).unwrap().config.to_yaml();

    // Before anything exists (not even the namespace): everything is drift.
    let out = cli().args(["config", "diff", file_arg, "-o", "json"]).assert().code(1);
    let doc = json(&out);
    assert_eq!(doc["namespace"], ns.as_str());
    assert_eq!(doc["drift"], true);
    assert_eq!(doc["jobs"][0]["job"], "alpha");
    assert_eq!(doc["jobs"][0]["action"], "create");
    assert_eq!(doc["jobs"][0]["old"], Value::Null);
    assert_eq!(doc["jobs"][0]["new"], want("alpha").as_str());
    assert_eq!(doc["jobs"][0]["changed"]["shardingTotalCount"], serde_json::json!({"old": null, "new": 2}));
    assert_eq!(doc["jobs"][1]["changed"]["props.http.uri"]["new"], "http://127.0.0.1:1/hook");
    let out = cli().args(["config", "diff", file_arg]).assert().code(1);
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!("--- /alpha/config (absent)\n+++ /alpha/config ({file_arg})\n@@ -0,0 +1,")),
        "{text}"
    );
    assert!(text.contains("\n+shardingTotalCount: 2\n"), "{text}");

    // apply creates the namespace, the job roots and the configurations.
    let doc = json(&cli().args(["config", "apply", file_arg, "-o", "json"]).assert().success());
    assert_eq!(doc["jobs"][0]["result"], "created");
    assert_eq!(doc["jobs"][1]["result"], "created");
    assert_eq!(doc["jobs"][1]["version"], 0);
    let r = Registry::connect(zk_options(&server.connect_string(), &ns)).await.unwrap();
    assert_eq!(r.get("/alpha").await.unwrap().unwrap().text(), "SCRIPT");
    assert_eq!(r.get("/beta").await.unwrap().unwrap().text(), "HTTP");
    assert_eq!(config_of(&r, "alpha").await, (want("alpha"), 0));
    assert_eq!(config_of(&r, "beta").await, (want("beta"), 0));

    // A second apply writes nothing; diff sees no drift.
    cli()
        .args(["config", "apply", file_arg])
        .assert()
        .success()
        .stdout("job 'alpha': unchanged\njob 'beta': unchanged\n");
    assert_eq!(config_of(&r, "alpha").await.1, 0);
    cli().args(["config", "diff", file_arg]).assert().code(0).stdout("");
    let doc = json(&cli().args(["config", "diff", file_arg, "-o", "json"]).assert().code(0));
    assert_eq!(doc["drift"], false);
    assert_eq!(doc["jobs"][1]["action"], "none");

    // Drift made by an operator and by the Java side (a tracing entry and a newer key).
    cli().args(["config", "set", "alpha", "shardingTotalCount=3", "--yes"]).assert().success();
    let (text, v) = config_of(&r, "beta").await;
    let java = text.replace(
        "jobName: beta\n",
        "jobExtraConfigurations:\n- !!org.apache.shardingsphere.elasticjob.tracing.yaml.YamlTracingConfiguration\n  type: RDB\njobFutureOption: enabled\njobName: beta\n",
    );
    r.set("/beta/config", java.as_bytes(), Some(v)).await.unwrap();
    // Only alpha drifted: the entries a job file cannot express are not drift.
    cli()
        .args(["config", "diff", file_arg, "-o", "plain"])
        .assert()
        .code(1)
        .stdout("alpha\tupdate\tshardingTotalCount\t3\t2\n");
    let out = cli().args(["config", "diff", file_arg]).assert().code(1);
    assert!(
        stdout(&out)
            .starts_with(&format!("--- /alpha/config (registry, version 1)\n+++ /alpha/config ({file_arg})\n@@ ")),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("\n-shardingTotalCount: 3\n+shardingTotalCount: 2\n"), "{}", stdout(&out));

    // The file changes beta too: apply rewrites it and keeps the Java side's entries.
    std::fs::write(&file, JOB_FILE.replace("failover = true", "failover = false")).unwrap();
    // (Resharding alpha back to 2 items needs a confirmation.)
    cli().args(["config", "apply", file_arg]).assert().code(4).stderr(
        "ejctl: error: change shardingTotalCount of job 'alpha' from 3 to 2 (its items are resharded)? refusing without confirmation: pass --yes\n",
    );
    cli()
        .args(["config", "apply", file_arg, "--yes"])
        .assert()
        .success()
        .stdout("job 'alpha': updated (shardingTotalCount)\njob 'beta': updated (failover)\n");
    assert_eq!(config_of(&r, "alpha").await, (want("alpha"), 2));
    assert_eq!(config_of(&r, "beta").await, (java.replace("failover: true\n", "failover: false\n"), 2));
    cli().args(["config", "diff", file_arg]).assert().code(0).stdout("");

    // A bad job file: exit 2 with the file's message, nothing written.
    let bad = home.path().join("bad.toml");
    std::fs::write(&bad, "[[job]]\nname = \"gamma\"\ncron = \"0 0 12 * * *\"\ncommand = \"x\"\n").unwrap();
    let out = cli().args(["config", "apply", file_arg, bad.to_str().unwrap()]).assert().code(2).stdout("");
    assert!(
        stderr(&out)
            .starts_with(&format!("ejctl: error: {}: job 'gamma': cron: invalid cron expression", bad.display())),
        "{}",
        stderr(&out)
    );
    assert_eq!(r.exists("/gamma").await.unwrap(), None);

    // The files' [registry] is used when no flags are given; flags win over it.
    let other_ns = unique_ns("applyfile");
    let with_registry = home.path().join("registry.toml");
    std::fs::write(
        &with_registry,
        format!("[registry]\nservers = \"{}\"\nnamespace = \"{other_ns}\"\n{JOB_FILE}", server.connect_string()),
    )
    .unwrap();
    let doc = json(
        &bare(home.path()).args(["config", "apply", with_registry.to_str().unwrap(), "-o", "json"]).assert().success(),
    );
    assert_eq!(doc["namespace"], other_ns.as_str());
    assert_eq!(doc["jobs"][0]["result"], "created");
    let r2 = Registry::connect(zk_options(&server.connect_string(), &other_ns)).await.unwrap();
    assert_eq!(config_of(&r2, "alpha").await, (want("alpha"), 0));
    // (In `ns`, beta has failover = false since the last apply; this file says true.)
    let doc = json(&cli().args(["config", "diff", with_registry.to_str().unwrap(), "-o", "json"]).assert().code(1));
    assert_eq!(doc["namespace"], ns.as_str(), "--namespace wins over the file's [registry]");
    assert_eq!(doc["jobs"][0]["action"], "none");
    assert_eq!(doc["jobs"][1]["changed"], serde_json::json!({"failover": {"old": false, "new": true}}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contexts_name_registries() {
    let (server, ns, r) = zk_registry("ctx").await;
    let home = tempfile::tempdir().unwrap();
    seed_java_job(&r).await;
    let file = contexts_file(home.path());
    let cli = || bare(home.path());

    // No file: no contexts, and that is fine.
    let doc = json(&cli().args(["context", "list", "-o", "json"]).assert().success());
    assert_eq!(doc["contexts"], serde_json::json!([]));
    assert_eq!(doc["current"], Value::Null);
    assert_eq!(doc["file"], file.display().to_string());

    // set creates; the file is private (it may hold a digest).
    cli()
        .args(["context", "set", "dev", "--zk", &server.connect_string(), "--namespace", &ns])
        .assert()
        .success()
        .stdout(format!("context 'dev' created ({})\n", file.display()));
    let doc = json(
        &cli()
            .args(["context", "set", "prod", "--zk", "127.0.0.1:1", "--namespace", "jobs", "--digest", "ops:secret"])
            .args(["--connect-timeout", "1s", "--use", "-o", "json"])
            .assert()
            .success(),
    );
    assert_eq!(doc["action"], "created");
    assert_eq!(doc["current"], "prod");
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("current_context = \"prod\"\n"), "{text}");
    assert!(text.contains("[contexts.prod]\n"), "{text}");
    assert!(text.contains("connect_timeout = \"1s\"\n"), "{text}");

    // list / show mark the current one and mask digests.
    let doc = json(&cli().args(["context", "list", "-o", "json"]).assert().success());
    assert_eq!(doc["current"], "prod");
    let names: Vec<&str> = doc["contexts"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["dev", "prod"]);
    assert_eq!(doc["contexts"][1]["current"], true);
    assert_eq!(doc["contexts"][1]["digest"], "ops:****");
    assert_eq!(doc["contexts"][0]["digest"], Value::Null);
    cli().args(["context", "list", "-o", "plain"]).assert().success().stdout(format!(
        "dev\t{}\t{ns}\t\t\t\t\t\t\t\nprod\t127.0.0.1:1\tjobs\t*\tops:****\t1s\t\t\t\t\n",
        server.connect_string()
    ));
    let doc = json(&cli().args(["context", "show", "-o", "json"]).assert().success());
    assert_eq!(doc["name"], "prod");
    assert_eq!(doc["zk"], "127.0.0.1:1");
    assert_eq!(doc["connectTimeout"], "1s");
    let out = cli().args(["context", "show", "dev"]).assert().success();
    assert!(stdout(&out).contains(&format!("namespace:       {ns}\n")), "{}", stdout(&out));
    assert!(!stdout(&out).contains("secret"));

    // --trace: stored as the file's `trace` key, shown with a postgres password masked.
    cli().args(["context", "set", "prod", "--trace", "postgres://ejctl:secret@db/jobs"]).assert().success();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("trace = \"postgres://ejctl:secret@db/jobs\"\n"), "{text}");
    let doc = json(&cli().args(["context", "show", "prod", "-o", "json"]).assert().success());
    assert_eq!(doc["trace"], "postgres://ejctl:***@db/jobs");
    let doc = json(&cli().args(["context", "list", "-o", "json"]).assert().success());
    assert_eq!(
        (doc["contexts"][0]["trace"].clone(), doc["contexts"][1]["trace"].clone()),
        (Value::Null, "postgres://ejctl:***@db/jobs".into())
    );
    let out = cli().args(["context", "show", "prod"]).assert().success();
    assert!(stdout(&out).contains("trace:           postgres://ejctl:***@db/jobs\n"), "{}", stdout(&out));
    assert!(!stdout(&out).contains("secret"), "{}", stdout(&out));
    let out = cli().args(["context", "list"]).assert().success();
    assert!(stdout(&out).contains("TRACE") && !stdout(&out).contains("secret"), "{}", stdout(&out));
    cli()
        .args(["context", "set", "prod", "--trace", "ftp://db/jobs"])
        .assert()
        .code(2)
        .stderr("ejctl: error: context 'prod': --trace: unsupported trace store 'ftp://': use a SQLite file path or a postgres:// URL\n");
    cli().args(["context", "set", "prod", "--trace", ""]).assert().success();
    let doc = json(&cli().args(["context", "show", "prod", "-o", "json"]).assert().success());
    assert_eq!(doc["trace"], Value::Null);

    // The current context is used (prod: unreachable, with its 1 s timeout: exit 5).
    let out = cli().args(["config", "get", "javaJob"]).assert().code(5);
    assert!(
        stderr(&out).starts_with("ejctl: error: cannot connect to the registry: zookeeper at 127.0.0.1:1"),
        "{}",
        stderr(&out)
    );
    // --context and EJCTL_CONTEXT select another one.
    cli().args(["--context", "dev", "config", "get", "javaJob"]).assert().success().stdout(JAVA_YAML);
    cli().args(["config", "get", "javaJob"]).env("EJCTL_CONTEXT", "dev").assert().success().stdout(JAVA_YAML);
    // Explicit options win over the context's, field by field.
    cli()
        .args(["--zk", &server.connect_string(), "--namespace", &ns, "config", "get", "javaJob"])
        .assert()
        .success()
        .stdout(JAVA_YAML);
    cli()
        .args(["--context", "dev", "--namespace", "elsewhere", "config", "get", "javaJob"])
        .assert()
        .code(3)
        .stderr("ejctl: error: namespace 'elsewhere' does not exist in the registry\n");
    // An unknown context: exit 3, naming the known ones.
    cli().args(["--context", "stage", "config", "get", "javaJob"]).assert().code(3).stdout("").stderr(format!(
        "ejctl: error: unknown context 'stage' (known contexts: dev, prod; contexts file: {})\n",
        file.display()
    ));

    // use / delete.
    cli()
        .args(["context", "use", "dev"])
        .assert()
        .success()
        .stdout(format!("now using context 'dev' ({})\n", file.display()));
    cli().args(["config", "get", "javaJob"]).assert().success().stdout(JAVA_YAML);
    cli().args(["context", "use", "nope"]).assert().code(3);
    // Update: only the options given change.
    let doc = json(&cli().args(["context", "set", "prod", "--digest", "", "-o", "json"]).assert().success());
    assert_eq!(doc["action"], "updated");
    let doc = json(&cli().args(["context", "show", "prod", "-o", "json"]).assert().success());
    assert_eq!(
        (doc["digest"].clone(), doc["zk"].clone(), doc["current"].clone()),
        (Value::Null, "127.0.0.1:1".into(), false.into())
    );
    cli()
        .args(["context", "set", "new", "--zk", "h:1"])
        .assert()
        .code(2)
        .stderr("ejctl: error: new context 'new' needs --namespace\n");
    let doc = json(&cli().args(["context", "delete", "dev", "-o", "json"]).assert().success());
    assert_eq!(
        doc,
        serde_json::json!({"file": file.display().to_string(), "name": "dev", "action": "deleted", "current": null})
    );
    cli().args(["context", "delete", "dev"]).assert().code(3);
    // No current context any more: the registry must be given again.
    cli().args(["config", "get", "javaJob"]).assert().code(2);

    // A broken contexts file is a usage error naming the file.
    std::fs::write(&file, "[contexts.a]\nzk = \"h:1\"\nnamspace = \"x\"\n").unwrap();
    let out = cli().args(["config", "get", "javaJob"]).assert().code(2);
    assert!(
        stderr(&out)
            .starts_with(&format!("ejctl: error: contexts file {}:3: unknown field `namspace`", file.display())),
        "{}",
        stderr(&out)
    );
}
