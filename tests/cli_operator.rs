//! What an operator meets at the command line, one test (mostly a table) per concern: where
//! `ejctl run` takes its registry and instance IP from, which options each command offers, the
//! exit codes of every command, confirmations of risky configuration changes, names that are
//! almost right, registry errors, `config edit` without an editor, help texts, logs, times and
//! tables.

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Duration;

use ejctl::registry::Registry;
use ejctl::registry::path::JobPaths;

use crate::support::cluster::signal;
use crate::support::{ZkServer, eventually, unique_ns, wait_exit, zk_options};

/// Every variable that changes what `ejctl` does, removed so the developer's shell cannot leak in.
const ENV: &[&str] = &[
    "RUST_LOG",
    "EJCTL_ZK",
    "EJCTL_NAMESPACE",
    "EJCTL_CONTEXT",
    "EJCTL_DIGEST",
    "EJCTL_OUTPUT",
    "EJCTL_CONNECT_TIMEOUT",
    "EJCTL_CONFIG",
    "EJCTL_TRACE",
    "EJCTL_TLS_CA",
    "EJCTL_TLS_CERT",
    "EJCTL_TLS_KEY",
    "EJCTL_INSTANCE_IP",
    "VISUAL",
    "EDITOR",
];

/// An `ejctl run` process with its stderr in a file; killed when dropped.
struct Run {
    child: Child,
    stderr: PathBuf,
}

impl Run {
    fn start(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
        Run::start_in(dir, dir, args, env)
    }

    /// Runs in `cwd`, with the log and contexts file in `dir`.
    fn start_in(cwd: &Path, dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
        let stderr = dir.join(format!("stderr-{}.txt", unique_ns("run")));
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ejctl"));
        for var in ENV {
            cmd.env_remove(var);
        }
        cmd.env("EJCTL_CONFIG", dir.join("contexts.toml"));
        let child = cmd
            .arg("run")
            .args(args)
            .envs(env.iter().copied())
            .current_dir(cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .unwrap();
        Run { child, stderr }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    fn check_alive(&mut self) {
        if let Some(status) = self.child.try_wait().unwrap() {
            panic!("ejctl run exited early with {status}: {}", self.log());
        }
    }

    /// SIGTERM, then exit 0 within 10 s; returns the log.
    fn stop(mut self) -> String {
        signal(self.child.id(), "TERM");
        let code = wait_exit(&mut self.child, Duration::from_secs(10));
        let log = self.log();
        assert_eq!(code, Some(0), "exit 0 after SIGTERM: {log}");
        log
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Makes a contexts file readable by its owner only, as `ejctl context set` writes it.
fn private(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).unwrap();
}

const IDLE_JOB: &str = "[[job]]\nname = \"idle\"\ncron = \"0 0 0 1 1 ? 2099\"\ncommand = \"true\"\n";

/// Waits until `ns` on `server` has the instance `ip@-@pid` of job `idle`.
async fn wait_registered(server: &ZkServer, ns: &str, run: &mut Run, ip: &str) {
    let registry = Registry::connect(zk_options(&server.connect_string(), ns)).await.unwrap();
    let instance = JobPaths::new("idle").instance(&format!("{ip}@-@{}", run.child.id()));
    eventually(30, &format!("the instance in namespace {ns}"), async || {
        run.check_alive();
        registry.exists(&instance).await.unwrap().is_some()
    })
    .await;
}

/// Issue 11, points 1 and 2: `ejctl run` takes its registry from the command line, the
/// environment, a context named with `--context`, then the job files, says which and why, and
/// never the current context unasked; the instance IP comes from `--ip`, `EJCTL_INSTANCE_IP` or a
/// host file holding only `[instance]`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r11_run_chooses_its_registry_and_instance_ip_and_says_why() {
    let server = ZkServer::start();
    let zk = server.connect_string();
    let dead = format!("127.0.0.1:{}", crate::support::zk::free_port());
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A job file naming a registry nothing listens on: the command line must win over it.
    std::fs::write(
        d.join("elsewhere.toml"),
        format!("[registry]\nservers = \"{dead}\"\nnamespace = \"wrong\"\n\n{IDLE_JOB}"),
    )
    .unwrap();
    std::fs::write(d.join("plain.toml"), IDLE_JOB).unwrap();
    std::fs::write(d.join("host.toml"), "[instance]\nip = \"10.1.2.5\"\n").unwrap();
    let (ns_flags, ns_env, ns_context, ns_file) =
        (unique_ns("flags"), unique_ns("env"), unique_ns("ctx"), unique_ns("file"));
    std::fs::write(
        d.join("own.toml"),
        format!("[registry]\nservers = \"{zk}\"\nnamespace = \"{ns_file}\"\n\n{IDLE_JOB}"),
    )
    .unwrap();
    std::fs::write(
        d.join("contexts.toml"),
        format!("current_context = \"c\"\n[contexts.c]\nzk = \"{zk}\"\nnamespace = \"{ns_context}\"\n"),
    )
    .unwrap();
    private(&d.join("contexts.toml"));

    // Flags beat the file's [registry]; --ip names the instance.
    let mut run = Run::start(d, &["--zk", &zk, "--namespace", &ns_flags, "--ip", "10.1.2.3", "elsewhere.toml"], &[]);
    wait_registered(&server, &ns_flags, &mut run, "10.1.2.3").await;
    let log = run.stop();
    assert!(
        log.contains(&format!("registry: zookeeper {zk}/{ns_flags} (from --zk, namespace from --namespace)")),
        "{log}"
    );

    // Variables do the same.
    let env = [("EJCTL_ZK", zk.as_str()), ("EJCTL_NAMESPACE", ns_env.as_str()), ("EJCTL_INSTANCE_IP", "10.1.2.4")];
    let mut run = Run::start(d, &["elsewhere.toml"], &env);
    wait_registered(&server, &ns_env, &mut run, "10.1.2.4").await;
    let log = run.stop();
    assert!(
        log.contains(&format!("registry: zookeeper {zk}/{ns_env} (from EJCTL_ZK, namespace from EJCTL_NAMESPACE)")),
        "{log}"
    );

    // A context named with --context beats the file.
    let mut run = Run::start(d, &["--context", "c", "--ip", "10.1.2.3", "elsewhere.toml"], &[]);
    wait_registered(&server, &ns_context, &mut run, "10.1.2.3").await;
    let log = run.stop();
    assert!(log.contains(&format!("registry: zookeeper {zk}/{ns_context} (from context 'c' (--context))")), "{log}");

    // The files' [registry] beats the current context; a host file gives the IP.
    let mut run = Run::start(d, &["own.toml", "host.toml"], &[]);
    wait_registered(&server, &ns_file, &mut run, "10.1.2.5").await;
    let log = run.stop();
    assert!(
        log.contains(&format!("registry: zookeeper {zk}/{ns_file} (from the job files' [registry] table)")),
        "{log}"
    );

    // Nothing names a registry: the embedded one, saying why, and no warning to act on.
    let mut run = Run::start(d, &["plain.toml"], &[]);
    eventually(30, "the embedded worker to start", async || {
        run.check_alive();
        run.log().contains("worker started")
    })
    .await;
    let log = run.stop();
    assert!(log.contains("registry: the embedded in-process registry, which coordinates this process only (no --zk, EJCTL_ZK, --context or [registry] table in the job files; the current context 'c' is used by `ejctl run` only when named with --context)"), "{log}");
    assert!(!log.contains("WARN"), "the embedded registry starts without warnings: {log}");

    // A bad --ip is a usage error before anything starts.
    let out = crate::support::ejctl().args(["run", "--ip", "10.0.0", "plain.toml"]).current_dir(d).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "ejctl: error: --ip '10.0.0' is not an IPv4 address (such as 10.0.0.5)\n"
    );
}

/// Issue 11, point 1: an option that means nothing for a command is not offered there — not in
/// its help, and refused (exit 2) whether written before or after the command.
#[test]
fn r11_commands_offer_only_the_options_that_mean_something() {
    let cases: &[(&[&str], &str)] = &[
        (&["run", "-o", "json", "x.toml"], "-o"),
        (&["cron", "next", "0 * * * * ?", "--zk", "h:1"], "--zk"),
        (&["sharding", "plan", "--instances", "a", "--total", "1", "--namespace", "n"], "--namespace"),
        (&["completions", "bash", "-o", "json"], "-o"),
    ];
    for (args, option) in cases {
        let out = crate::support::ejctl().args(*args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with(&format!("ejctl: error: unexpected argument '{option}")), "{args:?}: {err}");
    }
    // Before the command: the same refusal, in words.
    for (args, message) in [
        (&["--zk", "h:1", "cron", "next", "0 * * * * ?"][..], "--zk means nothing for `ejctl cron next`"),
        (&["-o", "json", "run", "x.toml"], "-o/--output means nothing for `ejctl run`"),
    ] {
        crate::support::ejctl().args(args).assert().code(2).stdout("").stderr(format!("ejctl: error: {message}\n"));
    }
    // Help lists only what applies.
    let help = |args: &[&str]| {
        String::from_utf8(crate::support::ejctl().args(args).arg("--help").output().unwrap().stdout).unwrap()
    };
    let run = help(&["run"]);
    assert!(
        run.contains("--zk") && run.contains("--ip") && !run.contains("--output") && run.contains("never asks"),
        "{run}"
    );
    let cron = help(&["cron", "next"]);
    assert!(!cron.contains("--zk") && !cron.contains("--context") && cron.contains("--output"), "{cron}");
}

/// Global options at the end of the line: `--yes` on every command (a no-op where nothing asks,
/// and said so in help), `-o` and the registry options after the command and after its
/// positional arguments, and between a command group and its subcommand; a registry option on a
/// command without a registry is still refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn global_options_anywhere_on_the_line() {
    let (server, ns, r) = crate::support::zk_registry("anywhere").await;
    crate::support::seed_jobs(&r, 1, ejctl::registry::Mode::Ephemeral).await;
    let zk = server.connect_string();
    let run = |args: &[&str]| {
        let mut cmd = crate::support::ejctl();
        cmd.env("EJCTL_CONFIG", "/nonexistent/ejctl.toml").args(args);
        tokio::task::block_in_place(|| cmd.output().unwrap())
    };
    let at_end = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--zk", &zk, "--namespace", &ns]);
        run(&all)
    };
    let cases: &[(&[&str], i32)] = &[
        (&["server", "disable", "10.9.9.9", "--yes"], 3),
        (&["server", "disable", "10.0.0.1", "--yes"], 0),
        (&["server", "enable", "10.0.0.1", "-y"], 0),
        (&["job", "trigger", "job0000", "-y"], 0),
        (&["job", "list", "--yes"], 0),
        (&["job", "-y", "list"], 0),
        (&["sharding", "show", "job0000", "-y", "-o", "json"], 0),
    ];
    for (args, code) in cases {
        let out = at_end(args);
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // -o after the command, between the group and the subcommand, and at the very end after the
    // positional argument and registry options.
    for args in [&["job", "list", "-o", "json"][..], &["job", "-o", "json", "list"], &["job", "--output=json", "list"]]
    {
        let out = at_end(args);
        let list: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        assert!(list["jobs"].is_array(), "{list}");
    }
    let out = run(&["sharding", "--zk", &zk, "-o", "json", "--namespace", &ns, "show", "job0000"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // An option the subcommand does not take is refused by name, wherever it is written.
    let out = run(&["cron", "--zk", &zk, "next", "0 0 12 * * ?"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["job", "show", "--zk", &zk, "--namespace", &ns, "job0000", "-o", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let show: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(show.is_object(), "{show}");
    // --yes on commands that read nothing from a registry, or only the contexts file.
    for args in
        [&["cron", "next", "0 0 12 * * ?", "--yes"][..], &["context", "list", "-y"], &["completions", "bash", "-y"]]
    {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let help = String::from_utf8(run(&["job", "list", "--help"]).stdout).unwrap();
    assert!(help.contains("Accepted for scripts and ignored: this command never asks for confirmation"), "{help}");
    let help = String::from_utf8(run(&["job", "shutdown", "--help"]).stdout).unwrap();
    assert!(help.contains("Answer yes to confirmations"), "{help}");
    // A registry option where no registry is read stays a usage error, wherever it is written.
    let out = run(&["cron", "next", "0 0 12 * * ?", "--zk", &zk]);
    assert_eq!(out.status.code(), Some(2));
}

/// Issue 11, point 2: `config diff --files A B` compares the jobs of two files without a
/// registry; their `[instance]` (and `[registry]`) tables do not count.
#[test]
fn r11_config_diff_compares_two_job_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let job = |cron: &str| format!("[[job]]\nname = \"etl\"\ncron = \"{cron}\"\ncommand = \"true\"\n");
    std::fs::write(d.join("a.toml"), format!("[instance]\nip = \"10.0.0.1\"\n\n{}", job("0 0 * * * ?"))).unwrap();
    std::fs::write(d.join("b.toml"), format!("[instance]\nip = \"10.0.0.2\"\n\n{}", job("0 0 * * * ?"))).unwrap();
    std::fs::write(d.join("c.toml"), format!("{}\n{IDLE_JOB}", job("0 30 * * * ?"))).unwrap();
    let diff = |a: &str, b: &str, format: &str| {
        crate::support::ejctl().args(["config", "diff", "--files", a, b, "-o", format]).current_dir(d).output().unwrap()
    };
    // Only [instance] differs: no drift, exit 0.
    let out = diff("a.toml", "b.toml", "table");
    assert_eq!((out.status.code(), out.stdout.as_slice(), out.stderr.as_slice()), (Some(0), &b""[..], &b""[..]));
    // A changed cron and a job only in the second file: exit 1, a diff per job.
    let out = diff("a.toml", "c.toml", "table");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("--- a.toml (job 'etl')\n+++ c.toml (job 'etl')\n"), "{text}");
    assert!(text.contains("-cron: 0 0 * * * ?\n+cron: 0 30 * * * ?\n"), "{text}");
    assert!(text.contains("+++ c.toml (job 'idle')\n"), "{text}");
    let doc: serde_json::Value = serde_json::from_slice(&diff("a.toml", "c.toml", "json").stdout).unwrap();
    assert_eq!(doc["drift"], true);
    assert_eq!(doc["jobs"][0]["job"], "etl");
    assert_eq!(doc["jobs"][0]["action"], "update");
    assert_eq!(doc["jobs"][0]["changed"]["cron"], serde_json::json!({"old": "0 0 * * * ?", "new": "0 30 * * * ?"}));
    assert_eq!(doc["jobs"][1]["action"], "create");
    // Exactly two files.
    crate::support::ejctl()
        .args(["config", "diff", "--files", "a.toml"])
        .current_dir(d)
        .assert()
        .code(2)
        .stderr("ejctl: error: --files compares two job files, got 1\n");
}

/// The leaf commands of the command line, as `job list`, `config set`, ...
fn leaf_commands() -> Vec<String> {
    fn walk(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            let name = if path.is_empty() { sub.get_name().to_string() } else { format!("{path} {}", sub.get_name()) };
            if sub.has_subcommands() {
                walk(sub, &name, out);
            } else {
                out.push(name);
            }
        }
    }
    let mut out = Vec::new();
    walk(&ejctl::cli::app::command(), "", &mut out);
    out
}

/// Issue 11, point 9: the exit codes the README documents, from every command: 0 ok, 1 failed,
/// 2 usage, 3 not found (job, server, instance, item, context), 4 refused, 5 registry
/// unavailable. Every error is one `ejctl: error: ...` line on stderr and nothing on stdout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r11_exit_codes_of_every_command() {
    use ejctl::config::JobConfig;
    let (server, ns, r) = crate::support::zk_registry("exit").await;
    // job0000: a live instance 10.0.0.1@-@42 (ephemeral in this session); lonely: no instance.
    crate::support::seed_jobs(&r, 1, ejctl::registry::Mode::Ephemeral).await;
    let lonely = JobPaths::new("lonely");
    r.put(lonely.root(), b"SCRIPT").await.unwrap();
    r.put(&lonely.config(), JobConfig::new("lonely", 2).to_yaml().as_bytes()).await.unwrap();
    let home = tempfile::tempdir().unwrap();
    let contexts = home.path().join("contexts.toml");
    std::fs::write(&contexts, format!("[contexts.dev]\nzk = \"{}\"\nnamespace = \"{ns}\"\n", server.connect_string()))
        .unwrap();
    private(&contexts);
    let blocked = home.path().join("file");
    std::fs::write(&blocked, "").unwrap();
    let blocked_dir = blocked.join("man");
    let blocked_dir = blocked_dir.to_str().unwrap();

    let cases: &[(&[&str], i32)] = &[
        (&["run", "missing.toml"], 2),
        (&["job", "list"], 0),
        (&["job", "show", "nope"], 3),
        (&["job", "show", "bad/name"], 2),
        (&["job", "trigger", "lonely"], 4),
        (&["job", "trigger", "nope"], 3),
        (&["job", "disable", "nope"], 3),
        (&["job", "enable", "job0000", "--server", "10.0.0"], 2),
        (&["job", "pause", "job0000", "--server", "10.9.9.9"], 3),
        (&["job", "resume", "nope"], 3),
        (&["job", "shutdown", "job0000"], 4),
        (&["job", "remove", "job0000"], 4),
        (&["config", "get", "nope"], 3),
        (&["config", "set", "job0000", "bogus=1"], 2),
        (&["config", "set", "nope", "cron="], 3),
        (&["config", "set", "job0000", "shardingTotalCount=5"], 4),
        (&["config", "edit", "job0000"], 4),
        (&["config", "apply", "missing.toml"], 2),
        (&["config", "diff", "missing.toml"], 2),
        (&["server", "list"], 0),
        (&["server", "disable", "10.9.9.9"], 3),
        (&["server", "enable", "ten"], 2),
        (&["server", "shutdown", "10.0.0.1"], 4),
        (&["server", "remove", "10.9.9.9", "--yes"], 3),
        (&["server", "show", "10.9.9.9"], 3),
        (&["server", "prune", "--older-than", "soon"], 2),
        (&["instance", "show", "10.0.0.1@-@43"], 3),
        (&["instance", "list", "nope"], 3),
        (&["sharding", "show", "nope"], 3),
        (&["sharding", "disable", "job0000", "9"], 3),
        (&["sharding", "enable", "job0000", "x"], 2),
        (&["sharding", "plan", "--instances", "a", "--total", "0"], 2),
        (&["failover", "list", "nope"], 3),
        (&["context", "list"], 0),
        (&["context", "show", "nope"], 3),
        (&["context", "set", "fresh"], 2),
        (&["context", "use", "nope"], 3),
        (&["context", "delete", "nope"], 3),
        (&["--context", "nope", "job", "list"], 3),
        (&["job", "list", "--context", "nope"], 3),
        (&["cron", "next", "bad"], 2),
        (&["dump", "nope"], 3),
        (&["history", "job0000", "--trace", "nope://x"], 2),
        (&["why", "nope"], 3),
        (&["console"], 2), // no terminal: only --snapshot works
        (&["completions", "nosh"], 2),
        (&["man", blocked_dir], 1),
        (&["job", "bogus"], 2),
        (&["job", "list", "--bogus"], 2),
    ];
    let mut covered = std::collections::BTreeSet::new();
    for (args, code) in cases {
        let mut cmd = crate::support::ejctl();
        cmd.env("EJCTL_CONFIG", &contexts).current_dir(home.path());
        if !args.iter().any(|a| *a == "--context" || *a == "context") {
            cmd.env("EJCTL_ZK", server.connect_string()).env("EJCTL_NAMESPACE", &ns);
        }
        let out = tokio::task::block_in_place(|| cmd.args(*args).output().unwrap());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {err}");
        if *code != 0 {
            assert!(out.stdout.is_empty(), "{args:?}: stdout {}", String::from_utf8_lossy(&out.stdout));
            // One error line (after any warnings); clap's errors add usage lines below it.
            let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("ejctl: error: ")).collect();
            assert_eq!(errors.len(), 1, "{args:?}: {err}");
            if !err.contains("For more information") {
                assert!(err.lines().last().unwrap().starts_with("ejctl: error: "), "{args:?}: {err}");
            }
        }
        let words: Vec<&str> = args.iter().copied().filter(|a| !a.starts_with('-')).collect();
        for n in 1..=words.len().min(2) {
            covered.insert(words[..n].join(" "));
        }
    }
    // An unreachable registry is 5.
    crate::support::assert_unreachable(crate::support::ejctl(), &["job", "list"]);
    let missing: Vec<String> = leaf_commands().into_iter().filter(|c| !covered.contains(c)).collect();
    assert!(missing.is_empty(), "commands without an exit-code case: {missing:?}");
}

/// `ejctl` on `server`/`ns` without a terminal, editor or contexts file.
fn ejctl_at(server: &ZkServer, ns: &str) -> assert_cmd::Command {
    let mut cmd = crate::support::ejctl();
    cmd.env_remove("EDITOR").env_remove("VISUAL").env("EJCTL_CONFIG", "/nonexistent/ejctl.toml");
    cmd.args(["--zk", &server.connect_string(), "--namespace", ns]);
    cmd
}

/// Issue 11, point 3: edits that switch a job off, or do more than they seem, are confirmed:
/// refused with exit 4 without a terminal unless `--yes`, saying what would happen and what to
/// use instead; `config set`, `config edit` and `config apply` alike. Points 7 and 8: `config
/// set` takes the job file's names; `config edit` refuses before reading anything without an
/// editor or a terminal for it, and keeps the edited file on every refusal after the edit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r11_risky_config_changes_are_confirmed() {
    let (server, ns, r) = crate::support::zk_registry("risky").await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("etl.toml");
    let job = "[[job]]\nname = \"etl\"\ncron = \"0 0 * * * ?\"\nsharding_total_count = 2\ncommand = \"/opt/etl.sh\"\n";
    std::fs::write(&file, job).unwrap();
    ejctl_at(&server, &ns).args(["config", "apply"]).arg(&file).assert().success();
    let config = async || r.get(&JobPaths::new("etl").config()).await.unwrap().unwrap();
    let before = config().await;

    let cases = [
        ("cron=", "remove the cron of job 'etl': it becomes a one-off job that runs only when triggered"),
        ("cron=0 0 0 31 2 ?", "set the cron of job 'etl' to '0 0 0 31 2 ?', which never fires again"),
        ("disabled=true", "set disabled=true for job 'etl': workers read it only when they register"),
        ("shardingTotalCount=4", "change shardingTotalCount of job 'etl' from 2 to 4 (its items are resharded)"),
    ];
    for (assignment, says) in cases {
        for format in ["table", "json"] {
            let out = ejctl_at(&server, &ns).args(["config", "set", "etl", assignment, "-o", format]).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(4), "{assignment}: {err}");
            assert!(out.stdout.is_empty(), "{assignment}");
            assert!(err.starts_with(&format!("ejctl: error: {says}")), "{assignment}: {err}");
            assert!(err.ends_with("? refusing without confirmation: pass --yes\n"), "{assignment}: {err}");
            if assignment != "shardingTotalCount=4" {
                assert!(err.contains("use `ejctl job disable etl` instead"), "{assignment}: {err}");
            }
        }
        assert_eq!(config().await.stat.version, before.stat.version, "{assignment}: nothing written");
    }
    // Harmless changes need no confirmation; the job file's names work for every key.
    ejctl_at(&server, &ns).args(["config", "set", "etl", "failover=true", "timeout_seconds=60"]).assert().success();
    let text = config().await.text();
    assert!(text.contains("failover: true") && text.contains("ejctl.timeout.seconds: '60'"), "{text}");
    // --yes applies a risky one.
    ejctl_at(&server, &ns).args(["config", "set", "etl", "disabled=true", "--yes"]).assert().success();
    assert!(config().await.text().contains("disabled: true"));
    ejctl_at(&server, &ns).args(["config", "set", "etl", "disabled=false"]).assert().success();

    // config apply: the same confirmation.
    std::fs::write(&file, job.replace("cron = \"0 0 * * * ?\"\n", "")).unwrap();
    let out = ejctl_at(&server, &ns).args(["config", "apply"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("becomes a one-off job"));

    // config edit: no editor, or a terminal editor without a terminal: refused before anything
    // is read (a dead registry would be exit 5).
    let dead = format!("127.0.0.1:{}", crate::support::zk::free_port());
    let edit = || {
        let mut cmd = crate::support::ejctl();
        cmd.env_remove("EDITOR").env_remove("VISUAL").args([
            "config",
            "edit",
            "etl",
            "--zk",
            &dead,
            "--namespace",
            "x",
        ]);
        cmd
    };
    edit().assert().code(4).stdout("").stderr(
        "ejctl: error: no editor: set VISUAL or EDITOR (EDITOR=vi ejctl config edit etl), or change keys with `ejctl config set etl KEY=VALUE`\n",
    );
    let out = edit().env("EDITOR", "vim").assert().code(4);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.starts_with("ejctl: error: the editor 'vim' needs a terminal and there is none"), "{err}");
    // An edit that disables the job: refused without --yes, the edit kept and named.
    let editor = dir.path().join("disable.sh");
    crate::support::write_script(&editor, "#!/bin/sh\nsed -i 's/^disabled: false/disabled: true/' \"$1\"\n");
    let out = ejctl_at(&server, &ns).env("EDITOR", &editor).args(["config", "edit", "etl"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(4), "{err}");
    let kept = err.trim_end().rsplit_once("(your edit is kept in ").map(|(_, p)| p.trim_end_matches(')')).unwrap();
    assert!(std::fs::read_to_string(kept).unwrap().contains("disabled: true"), "{err}");
    assert!(!config().await.text().contains("disabled: true"));
}

/// Issue 11, point 7: one grammar. `show` for every noun (`server show IP`, `instance show ID`),
/// `list [JOB]` for every list, "did you mean" for job, server, instance and context names, and a
/// typo never steered to a destructive subcommand.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r11_nouns_and_verbs_and_near_misses() {
    let (server, ns, r) = crate::support::zk_registry("grammar").await;
    crate::support::seed_jobs(&r, 2, ejctl::registry::Mode::Ephemeral).await;
    let json = |args: &[&str]| -> serde_json::Value {
        let out =
            tokio::task::block_in_place(|| ejctl_at(&server, &ns).args(args).args(["-o", "json"]).output().unwrap());
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let doc = json(&["server", "show", "10.0.0.1"]);
    assert_eq!(doc["server"]["ip"], "10.0.0.1");
    assert_eq!(
        doc["server"]["jobs"][0],
        serde_json::json!({"job": "job0000", "status": "ENABLED", "instances": ["10.0.0.1@-@42"], "items": [0, 1]})
    );
    assert_eq!(doc["server"]["jobs"].as_array().unwrap().len(), 2);
    let doc = json(&["instance", "show", "10.0.0.1@-@42"]);
    assert_eq!(doc["instance"]["serverIp"], "10.0.0.1");
    assert_eq!(doc["instance"]["jobs"][1]["job"], "job0001");
    assert_eq!(doc["instance"]["jobs"][1]["items"], serde_json::json!([0, 1]));
    let doc = json(&["failover", "list"]);
    assert_eq!(doc["jobs"][0], serde_json::json!({"job": "job0000", "pending": [], "assigned": []}));
    assert_eq!(doc["jobs"].as_array().unwrap().len(), 2);

    // Near misses: exit 3 with the closest name.
    let home = tempfile::tempdir().unwrap();
    let contexts = home.path().join("contexts.toml");
    std::fs::write(&contexts, format!("[contexts.dev]\nzk = \"{}\"\nnamespace = \"{ns}\"\n", server.connect_string()))
        .unwrap();
    private(&contexts);
    for (args, message) in [
        (
            &["job", "show", "job000"][..],
            format!("job 'job000' not found in namespace '{ns}' (did you mean 'job0000'?)"),
        ),
        (
            &["server", "show", "10.0.0.2"],
            format!("server '10.0.0.2' not found in namespace '{ns}' (did you mean '10.0.0.1'?)"),
        ),
        (
            &["instance", "show", "10.0.0.1@-@43"],
            format!(
                "instance '10.0.0.1@-@43' not found in namespace '{ns}' (did you mean '10.0.0.1@-@42'?) (`ejctl instance list` shows the live ones)"
            ),
        ),
        (
            &["context", "use", "de"],
            format!(
                "unknown context 'de' (did you mean 'dev'?) (known contexts: dev; contexts file: {})",
                contexts.display()
            ),
        ),
    ] {
        let mut cmd = if args[0] == "context" { crate::support::ejctl() } else { ejctl_at(&server, &ns) };
        let out = tokio::task::block_in_place(|| cmd.env("EJCTL_CONFIG", &contexts).args(args).output().unwrap());
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), format!("ejctl: error: {message}\n"), "{args:?}");
    }
    // Typos: clap's suggestions, but never a destructive subcommand.
    for (args, safe) in [
        (&["server", "shwo", "10.0.0.1"][..], Some("show")),
        (&["server", "shutdwn", "10.0.0.1"], None),
        (&["job", "remov", "x"], None),
    ] {
        let out = crate::support::ejctl().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(err.starts_with(&format!("ejctl: error: unrecognized subcommand '{}'", args[1])), "{err}");
        for destructive in ["shutdown", "remove", "delete"] {
            assert!(!err.contains(&format!("'{destructive}'")), "{args:?} suggests {destructive}: {err}");
        }
        if let Some(safe) = safe {
            assert!(err.contains(&format!("'{safe}'")), "{args:?}: {err}");
        }
    }
}

/// Issue 11, point 11: registry errors name their cause at once, and `-v` says which registry
/// (and context) a command used.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r11_registry_errors_name_the_cause() {
    let (server, ns, _r) = crate::support::zk_registry("regerr").await;
    let zk = server.connect_string();
    let plain = || {
        let mut cmd = crate::support::ejctl();
        cmd.env("EJCTL_CONFIG", "/nonexistent/ejctl.toml");
        cmd
    };
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["job", "list", "--zk", "nosuchhost.invalid:2181", "--namespace", "x", "--connect-timeout", "60s"],
            5,
            "ejctl: error: cannot connect to the registry: zookeeper at nosuchhost.invalid:2181 is unreachable: host 'nosuchhost.invalid' does not resolve (",
        ),
        (
            &["job", "list", "--zk", "http://127.0.0.1:2181", "--namespace", "x"],
            5,
            "ejctl: error: cannot connect to the registry: invalid connect string 'http://127.0.0.1:2181': a connect string has no scheme ('http://')",
        ),
        (
            &["job", "list"],
            2,
            "ejctl: error: no registry given: pass --zk HOST:PORT and --namespace NAME (or set EJCTL_ZK and EJCTL_NAMESPACE), or save them once: ejctl context set NAME --zk HOST:PORT --namespace NAME --use",
        ),
    ];
    for (args, code, start) in cases {
        let begun = std::time::Instant::now();
        let out = tokio::task::block_in_place(|| plain().args(*args).output().unwrap());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {err}");
        assert!(err.starts_with(start), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(begun.elapsed() < Duration::from_secs(10), "{args:?} took {:?}", begun.elapsed());
    }
    // -v: which registry, and where it came from.
    let home = tempfile::tempdir().unwrap();
    let contexts = home.path().join("contexts.toml");
    std::fs::write(
        &contexts,
        format!("current_context = \"dev\"\n[contexts.dev]\nzk = \"{zk}\"\nnamespace = \"{ns}\"\n"),
    )
    .unwrap();
    private(&contexts);
    for (args, source) in [
        (&["job", "list", "-v"][..], format!("the current context 'dev' in {}", contexts.display())),
        (&["job", "list", "-v", "--context", "dev"], "context 'dev' (--context)".to_string()),
        (&["job", "list", "-v", "--zk", &zk], "--zk".to_string()),
    ] {
        let out = tokio::task::block_in_place(|| {
            crate::support::ejctl().env("EJCTL_CONFIG", &contexts).args(args).output().unwrap()
        });
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {err}");
        assert!(err.contains(&format!("INFO registry: zookeeper {zk}/{ns} (from {source})")), "{args:?}: {err}");
    }
}

/// Fencing timeout + kill grace must stay below the session timeout; defaults the user did not
/// write are derived so that they do, and only written values that break it draw the warning.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_warns_about_fencing_and_kill_grace_only_for_written_values() {
    let server = ZkServer::start();
    let zk = server.connect_string();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let registry =
        |ns: &str| format!("[registry]\nservers = \"{zk}\"\nnamespace = \"{ns}\"\nsession_timeout_ms = 10000\n");
    let (quiet, loud) = (unique_ns("quiet"), unique_ns("loud"));
    std::fs::write(d.join("quiet.toml"), format!("{}\n{IDLE_JOB}", registry(&quiet))).unwrap();
    std::fs::write(
        d.join("loud.toml"),
        format!("{}\n[instance]\nkill_grace_seconds = 30\n\n{IDLE_JOB}", registry(&loud)),
    )
    .unwrap();
    let warning = "fencing timeout + kill grace is not below the session timeout";

    let mut run = Run::start(d, &["--ip", "10.1.2.3", "quiet.toml"], &[]);
    wait_registered(&server, &quiet, &mut run, "10.1.2.3").await;
    let log = run.stop();
    assert!(!log.contains("WARN"), "only session_timeout_ms written: no warning: {log}");

    let mut run = Run::start(d, &["--ip", "10.1.2.3", "loud.toml"], &[]);
    wait_registered(&server, &loud, &mut run, "10.1.2.3").await;
    let log = run.stop();
    assert!(log.contains(warning) && log.contains("kill_grace_ms=30000"), "a written kill grace too large: {log}");
}

/// Runs `ejctl run ARGS` in `dir` for `secs` seconds (stderr to a file, so not a terminal), stops
/// it with SIGTERM and returns its log.
fn run_for(dir: &Path, args: &[&str], secs: u64) -> String {
    let mut run = Run::start(dir, args, &[]);
    std::thread::sleep(Duration::from_secs(secs));
    run.check_alive();
    run.stop()
}

/// Issue 11, point 6: logs a machine and a person can read: no colour off a terminal, no Rust
/// `Debug` forms, one spelling per field, a failed run's stderr logged once as it comes and the
/// failure at WARN with the last stderr line, `--log-format json`, and the README's example
/// starts without a warning.
#[test]
fn r11_logs_a_machine_and_a_person_can_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("fail.toml"),
        "[[job]]\nname = \"etl\"\ncron = \"* * * * * ?\"\ncommand = \"sh -c 'echo working; echo first-problem >&2; echo last-problem >&2; exit 3'\"\n",
    )
    .unwrap();
    let log = run_for(d, &["fail.toml"], 3);
    assert!(!log.contains('\u{1b}'), "no ANSI colour when stderr is a file: {log}");
    for debug in ["Some(", "None", "=\"", "?state", "Duration", "{ "] {
        assert!(!log.contains(debug), "a Debug form ({debug}) in the log: {log}");
    }
    let lines: Vec<&str> = log.lines().collect();
    let failed = lines.iter().position(|l| l.contains(" WARN item failed job=etl item=0 source=cron ")).expect(&log);
    assert!(lines[failed].contains(" exit_code=3 error=exit code 3: last-problem"), "{}", lines[failed]);
    let first = lines
        .iter()
        .position(|l| l.contains(" INFO first-problem job=etl item=0 ") && l.ends_with(" stream=stderr"))
        .expect(&log);
    assert!(first < failed, "{log}");
    assert!(!lines.iter().any(|l| l.contains(" WARN first-problem")), "each stderr line once, at INFO: {log}");
    // Only the failure is a warning (the embedded registry's start is not one).
    for l in lines.iter().filter(|l| l.contains(" WARN ")) {
        assert!(l.contains("item failed"), "an unexpected warning: {l}");
    }

    // JSON: one object per line, numbers as numbers.
    let log = run_for(d, &["fail.toml", "--log-format", "json"], 3);
    let events: Vec<serde_json::Value> =
        log.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect();
    let failed = events.iter().find(|e| e["fields"]["message"] == "item failed").expect(&log);
    assert_eq!(failed["level"], "WARN");
    assert_eq!((failed["fields"]["job"].as_str(), failed["fields"]["exit_code"].as_i64()), (Some("etl"), Some(3)));

    // The README's example: no warning the user cannot act on.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut run = Run::start_in(root, d, &["examples/hello.toml"], &[]);
    std::thread::sleep(Duration::from_secs(3));
    run.check_alive();
    let log = run.stop();
    assert!(!log.contains("WARN"), "{log}");
    assert!(log.contains("INFO registry: the embedded in-process registry"), "{log}");
}

/// `ejctl ARGS` on `server`/`ns`: exit 0 and stdout.
fn stdout_at(server: &ZkServer, ns: &str, args: &[&str], env: &[(&str, &str)]) -> String {
    let out =
        tokio::task::block_in_place(|| ejctl_at(server, ns).envs(env.iter().copied()).args(args).output().unwrap());
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The cell under `column` in the table line `row` (columns start where their header does).
fn cell<'a>(table: &'a str, column: &str, row: usize) -> &'a str {
    let lines: Vec<&str> = table.lines().collect();
    let start = lines[0].find(column).unwrap_or_else(|| panic!("no {column}: {table}"));
    let end =
        lines[0][start + column.len()..].find(|c: char| c != ' ').map_or(usize::MAX, |i| start + column.len() + i);
    let line = lines[row];
    line.get(start..end.min(line.len())).unwrap_or("").trim()
}

/// Issue 11, point 4: every absolute time has an offset (the job's zone when it has one),
/// tables say how far away it is (`in 3s`, `2m ago`), `-` when nothing will fire (a one-off
/// job, no live instance, a disabled job); documents keep RFC 3339 UTC (`null` for none).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r11_times_say_their_zone() {
    use ejctl::config::JobConfig;
    let (server, ns, r) = crate::support::zk_registry("times").await;
    // job0000 (live, GMT+8 below), job0001 (live, disabled below), lonely (no instance),
    // once (live, no cron).
    crate::support::seed_jobs(&r, 2, ejctl::registry::Mode::Ephemeral).await;
    let lonely = JobPaths::new("lonely");
    let mut cfg = JobConfig::new("lonely", 1);
    cfg.cron = Some("0/10 * * * * ?".into());
    r.put(lonely.root(), b"SCRIPT").await.unwrap();
    r.put(&lonely.config(), cfg.to_yaml().as_bytes()).await.unwrap();
    stdout_at(&server, &ns, &["config", "set", "job0000", "timeZone=GMT+8"], &[]);
    stdout_at(&server, &ns, &["job", "disable", "job0001"], &[]);
    let doc: serde_json::Value =
        serde_json::from_str(&stdout_at(&server, &ns, &["job", "list", "-o", "json"], &[])).unwrap();
    let next = |i: usize| doc["jobs"][i]["nextFire"].clone();
    assert_eq!(doc["jobs"][0]["name"], "job0000");
    assert!(next(0).as_str().unwrap().ends_with('Z'), "documents are UTC: {doc}");
    assert_eq!((next(1), next(2)), (serde_json::Value::Null, serde_json::Value::Null), "disabled, no instance: {doc}");

    let table = stdout_at(&server, &ns, &["job", "list"], &[]);
    // Within half a second of the next fire (every 10 s), it reads `now`.
    let in_secs = regex::Regex::new(r"^(in \d+s|now)$").unwrap();
    assert!(in_secs.is_match(cell(&table, "NEXT FIRE", 1)), "{table}");
    assert_eq!((cell(&table, "NEXT FIRE", 2), cell(&table, "NEXT FIRE", 3)), ("-", "-"), "{table}");
    assert_eq!(cell(&table, "LAST RUN", 1), "-", "{table}");
    let wide = stdout_at(&server, &ns, &["job", "list", "-o", "wide"], &[]);
    let full = regex::Regex::new(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+08:00 \((in \d+s|now)\)$").unwrap();
    assert!(full.is_match(cell(&wide, "NEXT FIRE", 1)), "the job's zone: {wide}");
    let show = stdout_at(&server, &ns, &["job", "show", "job0000"], &[]);
    let line = show.lines().find(|l| l.starts_with("Next fire")).unwrap();
    assert!(full.is_match(line.trim_start_matches("Next fire").trim()), "{show}");
    let items = stdout_at(&server, &ns, &["sharding", "show", "job0000", "-o", "wide"], &[]);
    assert!(full.is_match(cell(&items, "NEXT FIRE", 1)), "{items}");
    // A one-off job: nothing will fire.
    stdout_at(&server, &ns, &["config", "set", "job0000", "cron=", "--yes"], &[]);
    let show = stdout_at(&server, &ns, &["job", "show", "job0000"], &[]);
    assert!(show.lines().any(|l| l.starts_with("Next fire") && l.trim_end().ends_with(" -")), "{show}");
}

/// Issue 11, point 5: tables like kubectl's — aligned columns without borders (boxes only with
/// `-o boxes`), names never broken, only free text cut to the width, `-o wide`, `--no-headers`,
/// `--sort-by`; `-o plain` carries the document's fields.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r11_tables_like_kubectl() {
    let (server, ns, r) = crate::support::zk_registry("tables").await;
    crate::support::seed_jobs(&r, 3, ejctl::registry::Mode::Ephemeral).await;
    let long = "settles every order of the day against the ledger and mails the differences to accounting";
    stdout_at(&server, &ns, &["config", "set", "job0001", &format!("description={long}")], &[]);
    let table = stdout_at(&server, &ns, &["job", "list"], &[]);
    assert!(!table.contains(['│', '┆', '─', '╭', '┌']), "{table}");
    assert!(table.starts_with("NAME "), "{table}");
    assert_eq!(cell(&table, "NAME", 2), "job0001");
    assert_eq!(cell(&table, "DESCRIPTION", 2), long, "not cut without a width: {table}");
    // Narrow: the description is cut, the names stay whole, no header wraps.
    let narrow = stdout_at(&server, &ns, &["job", "list"], &[("COLUMNS", "110")]);
    for (i, name) in ["job0000", "job0001", "job0002"].iter().enumerate() {
        assert_eq!(cell(&narrow, "NAME", i + 1), *name, "{narrow}");
    }
    assert!(narrow.lines().next().unwrap().ends_with("DESCRIPTION"), "{narrow}");
    assert!(cell(&narrow, "DESCRIPTION", 2).ends_with('…'), "{narrow}");
    assert!(narrow.lines().all(|l| l.chars().count() <= 110), "{narrow}");
    // --no-headers, --sort-by.
    let bare = stdout_at(&server, &ns, &["job", "list", "--no-headers"], &[]);
    assert_eq!(bare.lines().count(), 3);
    assert!(bare.starts_with("job0000 "), "{bare}");
    let sorted = stdout_at(&server, &ns, &["job", "list", "--sort-by", "description"], &[]);
    assert_eq!(cell(&sorted, "NAME", 1), "job0000", "'job number 0' < 'job number 2' < 'settles...': {sorted}");
    assert_eq!(cell(&sorted, "NAME", 3), "job0001", "{sorted}");
    let out = tokio::task::block_in_place(|| {
        ejctl_at(&server, &ns).args(["job", "list", "--sort-by", "colour"]).output().unwrap()
    });
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("ejctl: error: --sort-by: no column 'colour' (columns: name, status, health, cron, last-run, next-fire, instances, items, description)"));
    // Boxes only when asked; wide has more columns.
    assert!(stdout_at(&server, &ns, &["job", "list", "-o", "boxes"], &[]).contains('│'));
    let wide = stdout_at(&server, &ns, &["instance", "list", "-o", "wide"], &[]);
    assert!(wide.lines().next().unwrap().ends_with("LABELS"), "{wide}");
    let wide = stdout_at(&server, &ns, &["sharding", "show", "job0000", "-o", "wide"], &[]);
    assert!(wide.lines().next().unwrap().ends_with("EXIT   LAST INSTANCE"), "{wide}");
    // plain: the document's fields; dump tab-separated.
    let plain = stdout_at(&server, &ns, &["sharding", "show", "job0000", "-o", "plain"], &[]);
    let row: Vec<&str> = plain.lines().next().unwrap().split('\t').collect();
    assert_eq!(row.len(), 17, "{plain}");
    assert_eq!((row[15], row[16]), ("-", ""), "health, reason: {plain}");
    assert_eq!(row[..3], ["0", "10.0.0.1@-@42", "10.0.0.1"], "{plain}");
    assert_eq!((row[10], row[11]), ("false", "false"), "running, misfire: {plain}");
    let dump = stdout_at(&server, &ns, &["dump", "job0000", "-o", "plain"], &[]);
    assert!(dump.lines().all(|l| l.split('\t').count() == 5 && !l.contains(" | ")), "{dump}");
    assert!(dump.starts_with("/job0000\tSCRIPT\tfalse\t"), "{dump}");
}
