//! Security: TLS to ZooKeeper (workers and admin commands, x509 ACLs, a wrong CA, plaintext to a
//! TLS-only server), digest ACLs seen from an unauthenticated client, the dump port on loopback,
//! commands pinned to the job file, and HTTPS jobs.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use ejctl::registry::Registry;
use ejctl::registry::embedded::EmbeddedStore;
use ejctl::registry::path::{ItemLeaf, JobPaths};
use ejctl::runtime::{RegistryTarget, Worker, WorkerConfig};
use zookeeper_client as zkc;

use crate::support::tls::{HttpsServer, Pki};
use crate::support::{ZkServer, ejctl, eventually, unique_ns, wait_exit, write_script, zk_options};

/// An `ejctl run` process; killed on drop.
pub struct WorkerProcess {
    child: Child,
    pub log: PathBuf,
}

impl WorkerProcess {
    /// Starts `ejctl run file` with extra environment variables; its stderr goes to `file.log`.
    pub fn start(file: &Path, env: &[(&str, &str)]) -> WorkerProcess {
        let log = file.with_extension("log");
        let stderr = std::fs::File::create(&log).unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ejctl"));
        cmd.arg("run").arg(file).env_remove("RUST_LOG").stdin(Stdio::null()).stdout(Stdio::null()).stderr(stderr);
        for (k, v) in env {
            cmd.env(k, v);
        }
        WorkerProcess { child: cmd.spawn().unwrap(), log }
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits for the process to exit on its own; its exit code.
    pub fn wait_exit(&mut self, secs: u64) -> Option<i32> {
        wait_exit(&mut self.child, Duration::from_secs(secs))
    }

    /// SIGTERM and wait.
    pub fn stop(&mut self) {
        crate::support::signal(self.child.id(), "TERM");
        wait_exit(&mut self.child, Duration::from_secs(20));
    }
}

impl Drop for WorkerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A script job running every second that appends its marker to `out` (the marker is the
/// script's first argument).
pub fn marker_job(dir: &Path, name: &str, marker: &str) -> (String, PathBuf) {
    let script = dir.join(format!("{name}.sh"));
    let out = dir.join(format!("{name}.out"));
    write_script(&script, &format!("#!/bin/sh\necho \"$1\" >> {}\n", out.display()));
    let job = format!(
        "[[job]]\nname = \"{name}\"\ncron = \"* * * * * ?\"\nsharding_total_count = 1\ncommand = \"{} {marker}\"\n",
        script.display()
    );
    (job, out)
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path).unwrap_or_default().lines().map(str::to_string).collect()
}

fn toml_path(p: &Path) -> String {
    p.display().to_string().replace('\\', "\\\\")
}

/// Writes `dir/job.toml`: a `[registry]` table for `servers` and `ns` with the `extra` lines, then
/// the `jobs` tables.
pub fn job_file(dir: &Path, servers: &str, ns: &str, extra: &str, jobs: &str) -> PathBuf {
    let file = dir.join("job.toml");
    std::fs::write(&file, format!("[registry]\nservers = \"{servers}\"\nnamespace = \"{ns}\"\n{extra}{jobs}")).unwrap();
    file
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_workers_and_admin_commands_with_x509_acls() {
    let pki = Pki::generate();
    let server = ZkServer::start_tls(&pki);
    let ns = unique_ns("tls");
    let dir = tempfile::tempdir().unwrap();
    let (job, out) = marker_job(dir.path(), "tlsJob", "ran");
    let tls = format!(
        "tls = {{ ca = \"{}\", cert = \"{}\", key = \"{}\" }}\n",
        toml_path(&pki.ca),
        toml_path(&pki.client_cert),
        toml_path(&pki.client_key)
    );
    let file = job_file(dir.path(), &server.connect_string(), &ns, &tls, &job);
    let mut worker = WorkerProcess::start(&file, &[]);
    eventually(30, "a run over TLS", async || !lines(&out).is_empty()).await;

    let zk = server.connect_string();
    let admin = |extra: &[&str]| {
        let mut cmd = ejctl();
        cmd.args(["--zk", &zk, "--namespace", &ns, "--connect-timeout", "5s", "--tls-ca"]).arg(&pki.ca).args(extra);
        cmd
    };
    // The workers' certificate: admin commands work.
    let cert = pki.client_cert.display().to_string();
    let key = pki.client_key.display().to_string();
    let listed = admin(&["--tls-cert", &cert, "--tls-key", &key, "job", "list", "-o", "json"]).assert().success();
    let doc: serde_json::Value = serde_json::from_slice(&listed.get_output().stdout).unwrap();
    assert_eq!(doc["jobs"][0]["name"], "tlsJob", "{doc}");
    // The same through the environment variables.
    let mut env_cmd = ejctl();
    env_cmd
        .env("EJCTL_TLS_CA", &pki.ca)
        .env("EJCTL_TLS_CERT", &cert)
        .env("EJCTL_TLS_KEY", &key)
        .args(["--zk", &zk, "--namespace", &ns, "job", "show", "tlsJob", "-o", "json"])
        .assert()
        .success();

    // The nodes are creator-only for the workers' certificate: no certificate, or another one
    // from the same CA, is refused with exit 5 and a hint.
    for extra in [
        vec![],
        vec![
            "--tls-cert",
            pki.other_client_cert.to_str().unwrap(),
            "--tls-key",
            pki.other_client_key.to_str().unwrap(),
        ],
    ] {
        let mut args = extra.clone();
        args.extend(["job", "list"]);
        let failed = admin(&args).assert().code(5);
        let err = String::from_utf8_lossy(&failed.get_output().stderr).into_owned();
        assert!(err.contains("ACL-protected") && err.contains("--tls-cert"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }

    // A CA that did not sign the server: exit 5, and the message says why.
    let failed = ejctl()
        .args(["--zk", &zk, "--namespace", &ns, "--connect-timeout", "2s", "--tls-ca"])
        .arg(&pki.other_ca)
        .args(["job", "list"])
        .assert()
        .code(5);
    let err = String::from_utf8_lossy(&failed.get_output().stderr).into_owned();
    assert!(err.contains("UnknownIssuer"), "{err}");

    // Plaintext to a TLS-only server: exit 5.
    ejctl().args(["--zk", &zk, "--namespace", &ns, "--connect-timeout", "2s", "job", "list"]).assert().code(5);

    // Unusable TLS files are a usage error (exit 2) naming the file.
    let missing = dir.path().join("missing.pem");
    let failed = ejctl()
        .args(["--zk", &zk, "--namespace", &ns, "--tls-ca"])
        .arg(&missing)
        .args(["job", "list"])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&failed.get_output().stderr).into_owned();
    assert!(err.contains("missing.pem"), "{err}");

    worker.stop();
    assert!(!worker.log().contains("panicked"), "{}", worker.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_trusting_the_wrong_ca_exits_5_and_says_why() {
    let pki = Pki::generate();
    let server = ZkServer::start_tls(&pki);
    let dir = tempfile::tempdir().unwrap();
    let (job, _) = marker_job(dir.path(), "j", "x");
    let extra = "connection_timeout_ms = 2000\ntls = { ca = \"other-ca.pem\" }\n";
    let file = job_file(dir.path(), &server.connect_string(), "ns", extra, &job);
    // A relative path is relative to the job file.
    std::fs::copy(&pki.other_ca, dir.path().join("other-ca.pem")).unwrap();
    let mut worker = WorkerProcess::start(&file, &[]);
    assert_eq!(worker.wait_exit(30), Some(5), "{}", worker.log());
    assert!(worker.log().contains("UnknownIssuer"), "{}", worker.log());

    // A job file naming a file that is not there is refused before anything connects.
    std::fs::write(
        &file,
        format!("[registry]\nservers = \"h:1\"\nnamespace = \"ns\"\ntls = {{ ca = \"nope.pem\" }}\n{job}"),
    )
    .unwrap();
    let failed = ejctl().arg("run").arg(&file).assert().code(2);
    let err = String::from_utf8_lossy(&failed.get_output().stderr).into_owned();
    assert!(err.contains("registry.tls") && err.contains("nope.pem"), "{err}");
}

/// A ZooKeeper server and one worker running one marker job every second (`extra` lines in its
/// `[registry]`), once the job has run.
struct OneJob {
    server: ZkServer,
    ns: String,
    dir: tempfile::TempDir,
    file: PathBuf,
    /// The job's `[[job]]` table.
    job: String,
    /// What its runs write.
    out: PathBuf,
    worker: WorkerProcess,
}

impl OneJob {
    async fn start(prefix: &str, name: &str, extra: &str) -> OneJob {
        let server = ZkServer::start();
        let ns = unique_ns(prefix);
        let dir = tempfile::tempdir().unwrap();
        let (job, out) = marker_job(dir.path(), name, name);
        let file = job_file(dir.path(), &server.connect_string(), &ns, extra, &job);
        let worker = WorkerProcess::start(&file, &[]);
        eventually(30, "a first run", async || !lines(&out).is_empty()).await;
        OneJob { server, ns, dir, file, job, out, worker }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn digest_acls_keep_out_an_unauthenticated_client() {
    let scene = OneJob::start("acl", "aclJob", "digest = \"ops:s3cret\"\n").await;
    let (server, ns) = (&scene.server, scene.ns.clone());

    // A second client, with no credentials, straight on ZooKeeper.
    let client = zkc::Client::connector().connect(&server.connect_string()).await.unwrap();
    let root = format!("/{ns}");
    let config = format!("{root}/aclJob/config");
    let instances = format!("{root}/aclJob/instances");
    assert_eq!(client.get_data(&root).await.unwrap_err(), zkc::Error::NoAuth);
    assert_eq!(client.list_children(&root).await.unwrap_err(), zkc::Error::NoAuth);
    assert_eq!(client.get_data(&config).await.unwrap_err(), zkc::Error::NoAuth);
    assert_eq!(client.list_children(&instances).await.unwrap_err(), zkc::Error::NoAuth);
    assert_eq!(client.set_data(&config, b"cron: '* * * * * ?'", None).await.unwrap_err(), zkc::Error::NoAuth);
    let open = zkc::CreateMode::Persistent.with_acls(zkc::Acls::anyone_all());
    assert_eq!(client.create(&format!("{root}/evil"), b"", &open).await.unwrap_err(), zkc::Error::NoAuth);
    assert_eq!(client.create(&format!("{root}/aclJob/evil"), b"", &open).await.unwrap_err(), zkc::Error::NoAuth);
    assert_eq!(client.delete(&config, None).await.unwrap_err(), zkc::Error::NoAuth);
    assert_eq!(client.set_acl(&config, &zkc::Acls::anyone_all(), None).await.unwrap_err(), zkc::Error::NoAuth);
    // A wrong password is no better.
    let wrong =
        zkc::Client::connector().with_auth("digest", b"ops:guess").connect(&server.connect_string()).await.unwrap();
    assert_eq!(wrong.get_data(&config).await.unwrap_err(), zkc::Error::NoAuth);

    // Admin commands without the digest: exit 5 and a hint; with it: they work.
    let failed = ejctl().args(["--zk", &server.connect_string(), "--namespace", &ns, "job", "list"]).assert().code(5);
    let err = String::from_utf8_lossy(&failed.get_output().stderr).into_owned();
    assert!(err.contains("--digest"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    ejctl()
        .args(["--zk", &server.connect_string(), "--namespace", &ns, "--digest", "ops:s3cret", "job", "show", "aclJob"])
        .assert()
        .success();
}

/// A client without credentials creates the namespace and a job's nodes, open to anyone, before a
/// worker with a digest first runs: the worker refuses to start on them (it would adopt the nodes,
/// write its configuration into them and take commands from them), unless its job file accepts
/// open ACLs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_squatted_namespace_is_refused() {
    let server = ZkServer::start();
    let ns = unique_ns("squat");
    let dir = tempfile::tempdir().unwrap();
    let (job, out) = marker_job(dir.path(), "squatted", "ran");
    let client = zkc::Client::connector().connect(&server.connect_string()).await.unwrap();
    let open = zkc::CreateMode::Persistent.with_acls(zkc::Acls::anyone_all());
    for node in [format!("/{ns}"), format!("/{ns}/squatted")] {
        client.create(&node, b"", &open).await.unwrap();
    }
    let file = job_file(dir.path(), &server.connect_string(), &ns, "digest = \"ops:s3cret\"\n", &job);
    let refused = ejctl().args(["run"]).arg(&file).timeout(Duration::from_secs(60)).assert().failure();
    let err = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(err.contains(&format!("/{ns} is open to world:anyone beyond this worker's credentials")), "{err}");
    assert!(err.contains("allow_open_acl = true"), "{err}");
    // Nothing was written into the squatted nodes.
    assert_eq!(client.list_children(&format!("/{ns}/squatted")).await.unwrap(), Vec::<String>::new());
    assert!(lines(&out).is_empty());

    // The namespace made creator-only: the job's node is still open, and named.
    client.set_acl(&format!("/{ns}"), &zkc::Acls::creator_all(), None).await.ok();
    let digest =
        zkc::Client::connector().with_auth("digest", b"ops:s3cret").connect(&server.connect_string()).await.unwrap();
    digest.set_acl(&format!("/{ns}"), &zkc::Acls::creator_all(), None).await.unwrap();
    let refused = ejctl().args(["run"]).arg(&file).timeout(Duration::from_secs(60)).assert().failure();
    let err = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(err.contains(&format!("/{ns}/squatted is open to world:anyone")), "{err}");

    // Accepted on purpose: the worker runs.
    job_file(dir.path(), &server.connect_string(), &ns, "digest = \"ops:s3cret\"\nallow_open_acl = true\n", &job);
    let _worker = WorkerProcess::start(&file, &[]);
    eventually(30, "a run", async || !lines(&out).is_empty()).await;
}

#[tokio::test]
async fn the_dump_port_listens_on_loopback_unless_an_address_is_configured() {
    let start = |address: Option<std::net::IpAddr>| async move {
        let mut config = WorkerConfig::new(RegistryTarget::Embedded(EmbeddedStore::new()), vec![]);
        config.dump_port = Some(crate::support::zk::free_port());
        config.dump_address = address;
        Worker::start(config).await.unwrap()
    };
    let worker = start(None).await;
    assert!(worker.dump_addr().unwrap().ip().is_loopback(), "{:?}", worker.dump_addr());
    worker.shutdown().await;
    let worker = start(Some("0.0.0.0".parse().unwrap())).await;
    assert!(worker.dump_addr().unwrap().ip().is_unspecified(), "{:?}", worker.dump_addr());
    worker.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workers_run_the_job_files_command_not_the_registrys() {
    let OneJob { server, ns, dir, file, job, out, mut worker } = OneJob::start("pin", "pinned", "").await;
    let evil = dir.path().join("evil.sh");
    let evil_out = dir.path().join("evil.out");
    write_script(&evil, &format!("#!/bin/sh\necho evil >> {}\n", evil_out.display()));

    // A registry writer changes the command: `config set` warns, the worker refuses it.
    let set = ejctl()
        .args(["--zk", &server.connect_string(), "--namespace", &ns, "config", "set", "pinned"])
        .arg(format!("props.script.command.line={}", evil.display()))
        .assert()
        .success();
    let err = String::from_utf8_lossy(&set.get_output().stderr).into_owned();
    assert!(err.contains("refuse") && err.contains("allow_registry_commands"), "{err}");
    let before = lines(&out).len();
    eventually(30, "refused fires", async || worker.log().matches("refused the registry's command").count() >= 2).await;
    eventually(10, "the pinned command still running", async || lines(&out).len() >= before + 2).await;
    assert!(lines(&evil_out).is_empty(), "the registry's command ran");
    // Each refusal is counted (the count is in the log line).
    let log = worker.log();
    let refusal = log.lines().filter(|l| l.contains("refused the registry's command")).nth(1).unwrap();
    assert!(refusal.contains("refusals") && refusal.contains('2') && refusal.contains("evil.sh"), "{refusal}");
    worker.stop();

    // A job file that allows registry commands runs the registry's.
    job_file(dir.path(), &server.connect_string(), &ns, "", &format!("{job}allow_registry_commands = true\n"));
    let _worker = WorkerProcess::start(&file, &[]);
    eventually(30, "the registry's command", async || !lines(&evil_out).is_empty()).await;
}

/// A configuration written straight to the registry that validates but cannot run (a negative
/// timeout) is refused like an invalid one: the configuration in effect keeps firing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_configuration_that_cannot_run_keeps_the_one_in_effect() {
    let scene = OneJob::start("keep", "kept", "").await;
    let (server, worker, ns, out) = (&scene.server, &scene.worker, scene.ns.clone(), scene.out.clone());
    let registry = Registry::connect(zk_options(&server.connect_string(), &ns)).await.unwrap();
    let config = JobPaths::new("kept").config();
    let text = registry.get(&config).await.unwrap().unwrap().text();
    let bad = text.replace("props:\n", "props:\n  ejctl.timeout.seconds: '-5'\n");
    assert_ne!(bad, text, "{text}");
    registry.set(&config, bad.as_bytes(), None).await.unwrap();
    eventually(30, "the refusal", async || worker.log().contains("keeping the configuration in effect")).await;
    let before = lines(&out).len();
    eventually(15, "fires on the configuration in effect", async || lines(&out).len() >= before + 2).await;
}

/// The most items a job may have (10,000), under a long namespace and job name, shard in several
/// transactions within ZooKeeper's request limit and shrink back; a larger count written straight
/// to the registry is refused and the configuration in effect stays, the worker's other job
/// firing on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_largest_sharding_fits_zookeepers_request_limit() {
    let server = ZkServer::start();
    let ns = format!("{}-{}", unique_ns("big"), "n".repeat(100));
    let dir = tempfile::tempdir().unwrap();
    let name = "j".repeat(100);
    let (bystander, out) = marker_job(dir.path(), "bystander", "b");
    let big = format!(
        "[[job]]\nname = \"{name}\"\ncron = \"0 0 3 * * ?\"\nsharding_total_count = 10000\ncommand = \"/bin/true\"\n"
    );
    let file = job_file(dir.path(), &server.connect_string(), &ns, "", &format!("{bystander}{big}"));
    let worker = WorkerProcess::start(&file, &[]);
    let registry = Registry::connect(zk_options(&server.connect_string(), &ns)).await.unwrap();
    let paths = JobPaths::new(&name);
    let owned = async |item: u32| registry.exists(&paths.item_leaf(item, ItemLeaf::Instance)).await.unwrap().is_some();
    eventually(120, "all 10,000 items assigned", async || owned(9_999).await && owned(0).await).await;
    assert!(worker.log().contains("sharding written in several transactions"), "{}", worker.log());
    let necessary = async || registry.exists(&paths.sharding_necessary()).await.unwrap().is_some();
    eventually(30, "the resharding flag cleared", async || !necessary().await).await;

    // Back to 2 items: the other 9,998 go.
    let zk = server.connect_string();
    ejctl()
        .args(["--zk", &zk, "--namespace", &ns, "--yes", "config", "set", &name, "shardingTotalCount=2"])
        .assert()
        .success();
    let items = async || registry.children(&paths.sharding()).await.unwrap().unwrap_or_default().len();
    eventually(120, "the items beyond 2 removed", async || items().await == 2).await;

    // Above the maximum, written past `config set`'s validation: refused, the 2 items stay.
    let config = registry.get(&paths.config()).await.unwrap().unwrap().text();
    let huge = config.replace("shardingTotalCount: 2\n", "shardingTotalCount: 100000\n");
    assert_ne!(huge, config, "{config}");
    registry.set(&paths.config(), huge.as_bytes(), None).await.unwrap();
    eventually(30, "the refusal", async || worker.log().contains("must be at most 10000")).await;
    let before = lines(&out).len();
    eventually(15, "the bystander firing on", async || lines(&out).len() >= before + 2).await;
    assert_eq!(items().await, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn https_jobs() {
    let pki = Pki::generate();
    let https = HttpsServer::start(&pki, 200).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("job.toml");
    std::fs::write(
        &file,
        format!(
            "[[job]]\nname = \"secure\"\ntype = \"http\"\ncron = \"* * * * * ?\"\nsharding_total_count = 2\n\
             sharding_item_parameters = \"0=a,1=b\"\nhttp_uri = \"{}\"\nhttp_method = \"POST\"\nhttp_data = \"x=1\"\n",
            https.url("/run?q=1")
        ),
    )
    .unwrap();
    // The test CA is trusted through SSL_CERT_FILE, as the system's trust store would be.
    let ca = pki.ca.display().to_string();
    let mut worker = WorkerProcess::start(&file, &[("SSL_CERT_FILE", &ca)]);
    eventually(30, "two requests over https", async || https.request_count() >= 2).await;
    worker.stop();
    let requests = https.requests.lock().unwrap().clone();
    let first = &requests[0];
    assert!(first.starts_with("POST /run?q=1 HTTP/1.1\r\n"), "{first}");
    assert!(first.to_ascii_lowercase().contains("shardingcontext: {\"jobname\":\"secure\""), "{first}");

    // Without the CA the server is refused, and the log says why.
    let before = https.request_count();
    let mut worker = WorkerProcess::start(&file, &[("SSL_CERT_FILE", "/nonexistent")]);
    eventually(30, "a refused server", async || worker.log().contains("UnknownIssuer")).await;
    worker.stop();
    assert_eq!(https.request_count(), before, "a request reached an untrusted server");
}

/// Registry options with TLS, for in-process use of the test PKI.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_registry_handle_connects_over_tls() {
    let pki = Pki::generate();
    let server = ZkServer::start_tls(&pki);
    let mut options = zk_options(&server.connect_string(), &unique_ns("tlsreg"));
    options.tls = Some(ejctl::registry::ZkTls { ca: pki.ca.clone(), cert: None, key: None });
    let registry = Registry::connect(options).await.unwrap();
    registry.create("/x", b"over tls", ejctl::registry::Mode::Persistent).await.unwrap();
    assert_eq!(registry.get("/x").await.unwrap().unwrap().text(), "over tls");
}

#[test]
fn contexts_keep_tls_files() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    let in_dir = |args: &[&str]| {
        let mut cmd = ejctl();
        cmd.env("EJCTL_CONFIG", &config).current_dir(dir.path()).args(args);
        cmd
    };
    in_dir(&["context", "set", "prod", "--zk", "h:2281", "--namespace", "jobs", "--tls-ca", "ca.pem"])
        .assert()
        .success();
    let text = std::fs::read_to_string(&config).unwrap();
    let absolute = dir.path().join("ca.pem").display().to_string();
    assert!(text.contains(&format!("tls_ca = \"{absolute}\"")), "{text}");
    let shown = in_dir(&["context", "show", "prod", "-o", "json"]).assert().success();
    let doc: serde_json::Value = serde_json::from_slice(&shown.get_output().stdout).unwrap();
    assert_eq!(doc["tlsCa"], absolute.as_str(), "{doc}");
    // A certificate without its key, or without a CA, is a usage error.
    in_dir(&["context", "set", "prod", "--tls-cert", "c.pem"]).assert().code(2);
    in_dir(&[
        "context",
        "set",
        "other",
        "--zk",
        "h:1",
        "--namespace",
        "n",
        "--tls-cert",
        "c.pem",
        "--tls-key",
        "k.pem",
    ])
    .assert()
    .code(2);
    // The context's CA is used: a missing file is named (exit 2) before anything connects.
    let failed = in_dir(&["--context", "prod", "job", "list"]).assert().code(2);
    let err = String::from_utf8_lossy(&failed.get_output().stderr).into_owned();
    assert!(err.contains(&absolute), "{err}");
}
