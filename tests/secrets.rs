//! Secrets of a job's configuration never leave through outputs or local endpoints unless asked
//! for: `dump`, `job show` and `config get` mask `email.password`, `dingtalk.secret` and the
//! tokens of webhook URLs unless `--show-secrets`; a worker's `/dump/{job}` and dump port always
//! do; a failed notification's log line names its URL without the token. A real worker on a real
//! ZooKeeper, its notification sent to a port nothing listens on.

use std::io::{Read, Write};
use std::time::Duration;

use crate::support::zk::free_port;
use crate::support::{ZkServer, ejctl_on, eventually, unique_ns};

const PASSWORD: &str = "hunter2-secret";
const SIGNING: &str = "SECsigning";
const TOKEN: &str = "tok3n";

fn output(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn assert_masked(what: &str, text: &str) {
    for secret in [PASSWORD, SIGNING, TOKEN] {
        assert!(!text.contains(secret), "{what} shows {secret}: {text}");
    }
    assert!(text.contains("****"), "{what} masks: {text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_are_masked_in_every_output_unless_asked_for() {
    let server = ZkServer::start();
    let ns = unique_ns("secrets");
    let dir = tempfile::tempdir().unwrap();
    let (http, dump, dead) = (free_port(), free_port(), free_port());
    let file = dir.path().join("jobs.toml");
    std::fs::write(
        &file,
        format!(
            "[registry]\nservers = \"{}\"\nnamespace = \"{ns}\"\n\n[instance]\nip = \"127.0.0.1\"\nhttp = \"127.0.0.1:{http}\"\ndump_port = {dump}\n\n\
             [[job]]\nname = \"mail\"\ncron = \"* * * * * ?\"\ncommand = \"false\"\njob_error_handler_type = \"EMAIL\"\n\
             props = {{ \"email.host\" = \"127.0.0.1\", \"email.port\" = \"{dead}\", \"email.username\" = \"ops\", \"email.password\" = \"{PASSWORD}\", \"email.from\" = \"a@example.com\", \"email.to\" = \"b@example.com\" }}\n\n\
             [[job]]\nname = \"robot\"\ncron = \"* * * * * ?\"\ncommand = \"false\"\njob_error_handler_type = \"DINGTALK\"\n\
             props = {{ \"dingtalk.webhook\" = \"http://127.0.0.1:{dead}/robot/send?access_token={TOKEN}\", \"dingtalk.secret\" = \"{SIGNING}\" }}\n",
            server.connect_string()
        ),
    )
    .unwrap();
    let log = dir.path().join("worker.log");
    let mut worker = std::process::Command::new(env!("CARGO_BIN_EXE_ejctl"))
        .arg("run")
        .arg(&file)
        .env_remove("RUST_LOG")
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let read_log = || std::fs::read_to_string(&log).unwrap_or_default();
    let failed = |job: &str| {
        read_log().lines().any(|l| l.contains("failure notification failed") && l.contains(&format!(" job={job} ")))
    };
    eventually(60, "both notifications to fail", async || failed("robot") && failed("mail")).await;
    let log_text = read_log();
    let failures: String =
        log_text.lines().filter(|l| l.contains("failure notification")).map(|l| format!("{l}\n")).collect();
    for secret in [PASSWORD, SIGNING, TOKEN] {
        assert!(!log_text.contains(secret), "the log shows {secret}: {log_text}");
    }
    assert!(failures.contains("access_token=****"), "the URL is named, its token masked: {failures}");

    for job in ["mail", "robot"] {
        let dumped = output(ejctl_on(&server, &ns).args(["dump", job]));
        assert_masked("dump", &dumped);
        let shown = output(ejctl_on(&server, &ns).args(["job", "show", job]));
        assert_masked("job show", &shown);
        let doc = output(ejctl_on(&server, &ns).args(["job", "show", job, "-o", "json"]));
        assert_masked("job show -o json", &doc);
        let got = output(ejctl_on(&server, &ns).args(["config", "get", job]));
        assert_masked("config get", &got);
        let doc = output(ejctl_on(&server, &ns).args(["config", "get", job, "-o", "json"]));
        assert_masked("config get -o json", &doc);
        let body = reqwest::get(format!("http://127.0.0.1:{http}/dump/{job}")).await.unwrap().text().await.unwrap();
        assert_masked("/dump", &body);
        let mut port = std::net::TcpStream::connect(("127.0.0.1", dump)).unwrap();
        port.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        port.write_all(format!("dump@{job}\n").as_bytes()).unwrap();
        let mut answer = String::new();
        port.read_to_string(&mut answer).unwrap();
        assert_masked("the dump port", &answer);
    }
    // Asked for, they show, and the YAML can be written back.
    let got = output(ejctl_on(&server, &ns).args(["config", "get", "mail", "--show-secrets"]));
    assert!(got.contains(PASSWORD), "{got}");
    let shown = output(ejctl_on(&server, &ns).args(["job", "show", "robot", "--show-secrets", "-o", "json"]));
    assert!(shown.contains(SIGNING) && shown.contains(TOKEN), "{shown}");
    let dumped = output(ejctl_on(&server, &ns).args(["dump", "mail", "--show-secrets"]));
    assert!(dumped.contains(PASSWORD), "{dumped}");
    let _ = worker.kill();
    let _ = worker.wait();
}

/// The trace store's SQLite files (the database and its write-ahead log) are the owner's only:
/// the runs' output tails may hold what scripts print.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_trace_files_are_the_owners_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("trace.db");
    let store = ejctl::trace::store::Store::open(&ejctl::trace::TraceTarget::Sqlite(db.clone())).await.unwrap();
    let names = store.job_names().await.unwrap();
    assert!(names.is_empty());
    let mut checked = 0;
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let entry = entry.unwrap();
        let mode = entry.metadata().unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", entry.path().display());
        checked += 1;
    }
    assert!(checked >= 2, "the database and its write-ahead log");
    store.close().await;
}
