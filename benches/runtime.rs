//! The worker runtime (`ejctl run`) on a real ZooKeeper (and, for fire lateness, on the embedded
//! registry too), measured as docs/src/performance.md#how-performance-is-measured describes.
//!
//! Sections (all by default; `--section NAME[,NAME]` picks some):
//!
//! * `lateness`: K jobs × N `ejctl run` processes × T items at a 1-second cron. Every item runs a
//!   tiny `#!/bin/bash` script that records `$EJCTL_FIRE_TIME` and its own start
//!   (`$EPOCHREALTIME`, a builtin: no fork). Lateness = start − scheduled instant. Reported per
//!   fire as the *first-fire* lateness (earliest start of the fire: the scheduler's own wake-up
//!   error) and over all items (p50/p99/max), over M fires after 2 warm-up fires. Beside it, in
//!   the same run, the **ideal spawn floor**: a loop in this process that sleeps until each whole
//!   second and spawns the same K×T scripts at once (`std::process::Command`, no ZooKeeper),
//!   measured the same way. Beside both, the **peer**, APScheduler (Python; Debian's
//!   `python3-apscheduler`, which the bench installs when it is root and no `python3` imports
//!   it), run after ejctl on the same work: the K×T jobs at `CronTrigger(second='*')` in one
//!   process, each run a `subprocess.Popen` of the same script with the scheduled instant as
//!   `$EJCTL_FIRE_TIME` (`benches/peers/apscheduler_lateness.py`), measured as ejctl is, over the
//!   fires after the same 2 warm-up (`--peers off` leaves it out; a row that cannot run says why).
//!   With `--trace both` (the default) ejctl runs twice, with the event trace off and on (a
//!   `[trace]` table: each process writes its runs to a SQLite file of its own), so the cost of
//!   tracing shows beside the same floor; `--trace off|on` runs one.
//!   `--http on|both` does the same for the HTTP endpoint and metrics (`[instance] http`, with
//!   `/metrics` scraped every second as Prometheus would), and reports the workers' CPU over the
//!   run beside each. `--registry both` (the default) also runs each shape of one process on the
//!   embedded registry (`ejctl run` with no `[registry]`), labelled `/e`; `zookeeper` or
//!   `embedded` runs one.
//! * `zk`: ZooKeeper requests per fire per instance, from the server's `mntr` counters
//!   (`zk_packets_received`/`zk_packets_sent`, and the read/update request counts
//!   `zk_cnt_readlatency`/`zk_cnt_updatelatency`) over a steady window of W fires, with
//!   `monitor_execution` on and off, and for an idle job (no cron) over the same window, whose
//!   traffic (pings) is subtracted.
//! * `density`: anonymous memory (`RssAnon`, beside PSS and RSS) and CPU (% of one core over an
//!   idle window) of one `ejctl run` with 1, 1,000 and 10,000 jobs: one-off jobs on the embedded
//!   registry, cron jobs that fire once a day on ZooKeeper; with the anonymous memory a job costs
//!   beyond the 1-job process and the wall and CPU time start-up took; with `--http on|both`,
//!   also (or only) with the endpoint on and scraped every second.
//! * `reshard`: with N processes running a job, one more process starts; the time from its
//!   instance node appearing to the sharding being settled (`leader/sharding/necessary` gone,
//!   every item owned by a live instance, the new one included), seen through a persistent
//!   recursive watch; then the same for its graceful stop. Repeated R times.
//!
//! ```text
//! cargo bench --bench runtime [-- --json] [--quick] [--section lateness,zk,density,reshard]
//!     [--shapes 1x1x100,10x2x10] [--fires M] [--monitor on|off]      lateness
//!     [--registry zookeeper|embedded|both] [--peers on|off]           lateness
//!     [--trace off|on|both] [--http off|on|both]                      lateness, density
//!     [--zk-shape 1x2x10] [--window W]                                zk
//!     [--jobs 1,1000,10000] [--idle SECONDS]                          density
//!     [--reshard-shape 1x2x10] [--rounds R]                           reshard
//!     [--exe PATH]                                                    every section
//! ```
//!
//! `--exe` runs another `ejctl` binary than the one built with the benchmark: two builds
//! compared on the same machine, one after the other.
//!
//! Shapes are `KxNxT`: K jobs, N processes, T sharding items per job. `--quick` shortens every
//! section to a few seconds of measurement (3 fires, a 3-fire window, 2 rounds, a 5 s idle
//! window). Progress goes to stderr; the table (or with `--json` one JSON object) to stdout.

// A benchmark reports its figures on stdout and its progress on stderr; its helpers unwrap only
// what was just written (a file path of a temporary directory).
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

#[path = "../tests/support/mod.rs"]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod support;

use support::zk;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, anyhow, bail, ensure};
use ejctl::registry::path::{self, ItemLeaf, JobPaths, Node};
use ejctl::registry::{Mode, Op, Registry, WatchEvent};
use serde_json::{Value, json};
use tokio::sync::mpsc;

const EXE: &str = env!("CARGO_BIN_EXE_ejctl");

/// The `ejctl` binary the sections run: `--exe`, or the one built with the benchmark.
static EXE_OVERRIDE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

fn exe() -> &'static Path {
    EXE_OVERRIDE.get().map_or(Path::new(EXE), PathBuf::as_path)
}

/// Records `fire item start_us instance job` for one run. `$EPOCHREALTIME` is read first thing,
/// with no fork; `printf` is a builtin.
const RECORD_SCRIPT: &str = r#"#!/bin/bash
s=$EPOCHREALTIME
printf '%s %s %s %s %s\n' "$EJCTL_FIRE_TIME" "$EJCTL_SHARDING_ITEM" "${s/[.,]/}" "${EJCTL_TASK_ID##*@-@}" "$EJCTL_JOB_NAME" >> "$1"
"#;

/// Sessions of the workers: long enough that a loaded machine does not expire them.
const SESSION_TIMEOUT_MS: u64 = 10_000;

// ---------------------------------------------------------------------------------------------
// Options

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shape {
    /// Jobs per process.
    k: u32,
    /// Processes.
    n: u32,
    /// Sharding items per job.
    t: u32,
}

impl Shape {
    fn parse(s: &str) -> Result<Shape> {
        let parts: Vec<u32> = s
            .split('x')
            .map(|p| p.trim().parse::<u32>())
            .collect::<Result<_, _>>()
            .with_context(|| format!("shape '{s}': expected KxNxT, e.g. 10x2x10"))?;
        let [k, n, t] = parts.as_slice() else { bail!("shape '{s}': expected KxNxT, e.g. 10x2x10") };
        ensure!(*k > 0 && *n > 0 && *t > 0, "shape '{s}': K, N and T must be positive");
        Ok(Shape { k: *k, n: *n, t: *t })
    }

    fn label(self) -> String {
        format!("{}x{}x{}", self.k, self.n, self.t)
    }

    /// Item runs per fire over all jobs and processes.
    fn runs_per_fire(self) -> usize {
        (self.k * self.t) as usize
    }

    /// Distinct instances that own items (each job spreads its T items over the N processes).
    fn owning_instances(self) -> usize {
        self.n.min(self.t) as usize
    }

    fn json(self) -> Value {
        json!({"k": self.k, "n": self.n, "t": self.t})
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Lateness,
    Zk,
    Density,
    Reshard,
}

impl Section {
    const ALL: [Section; 4] = [Section::Lateness, Section::Zk, Section::Density, Section::Reshard];

    fn name(self) -> &'static str {
        match self {
            Section::Lateness => "lateness",
            Section::Zk => "zk",
            Section::Density => "density",
            Section::Reshard => "reshard",
        }
    }
}

#[derive(Debug, Clone)]
struct Opts {
    json: bool,
    quick: bool,
    sections: Vec<Section>,
    shapes: Vec<Shape>,
    fires: usize,
    monitor: bool,
    zk_shape: Shape,
    window: usize,
    jobs: Vec<usize>,
    idle_secs: u64,
    reshard_shape: Shape,
    rounds: usize,
    /// Lateness runs with the trace off (`false`) and on (`true`).
    trace: Vec<bool>,
    /// Lateness and density runs with the HTTP endpoint off (`false`) and on (`true`).
    http: Vec<bool>,
    /// Lateness runs on ZooKeeper (`true`) and on the embedded registry (`false`, one process).
    registries: Vec<bool>,
    /// Lateness also runs the peer scheduler (APScheduler) on the same work.
    peers: bool,
}

const USAGE: &str = "usage: cargo bench --bench runtime [-- --json] [--quick] [--section lateness,zk,density,reshard] \
[--shapes KxNxT,...] [--fires M] [--monitor on|off] [--registry zookeeper|embedded|both] [--peers on|off] [--trace off|on|both] [--http off|on|both] [--zk-shape KxNxT] [--window W] [--jobs J,J,...] [--idle SECONDS] \
[--reshard-shape KxNxT] [--rounds R] [--exe PATH]";

/// The most jobs the density section starts on ZooKeeper: 10,000 jobs register in about 6 s and
/// settle in about 15 s.
const DENSITY_ZK_MAX_JOBS: usize = 10_000;

impl Opts {
    fn parse() -> Result<Opts> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let quick = args.iter().any(|a| a == "--quick");
        let mut o = Opts {
            json: false,
            quick,
            sections: Section::ALL.to_vec(),
            shapes: vec![Shape { k: 1, n: 1, t: 100 }, Shape { k: 10, n: 2, t: 10 }],
            fires: if quick { 3 } else { 20 },
            monitor: true,
            zk_shape: Shape { k: 1, n: 2, t: 10 },
            window: if quick { 3 } else { 10 },
            jobs: vec![1, 1000, 10_000],
            idle_secs: if quick { 5 } else { 30 },
            reshard_shape: Shape { k: 1, n: 2, t: 10 },
            rounds: if quick { 2 } else { 5 },
            trace: vec![false, true],
            http: vec![false],
            registries: vec![true, false],
            peers: true,
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = || it.next().with_context(|| format!("{a} needs a value\n{USAGE}"));
            match a.as_str() {
                "--json" => o.json = true,
                "--quick" => {}
                // `cargo bench` passes `--bench` to harness-less benchmarks.
                "--bench" => {}
                "--section" | "--sections" => {
                    o.sections = value()?
                        .split(',')
                        .map(|s| {
                            Section::ALL
                                .into_iter()
                                .find(|x| x.name() == s.trim())
                                .with_context(|| format!("unknown section '{s}'\n{USAGE}"))
                        })
                        .collect::<Result<_>>()?;
                }
                "--shapes" | "--shape" => o.shapes = value()?.split(',').map(Shape::parse).collect::<Result<_>>()?,
                "--fires" => o.fires = value()?.parse().context("--fires")?,
                "--monitor" => {
                    o.monitor = match value()?.as_str() {
                        "on" | "true" => true,
                        "off" | "false" => false,
                        other => bail!("--monitor {other}: expected on or off"),
                    }
                }
                "--registry" => {
                    o.registries = match value()?.as_str() {
                        "zookeeper" | "zk" => vec![true],
                        "embedded" => vec![false],
                        "both" => vec![true, false],
                        other => bail!("--registry {other}: expected zookeeper, embedded or both"),
                    }
                }
                "--peers" => {
                    o.peers = match value()?.as_str() {
                        "on" | "true" => true,
                        "off" | "false" => false,
                        other => bail!("--peers {other}: expected on or off"),
                    }
                }
                "--trace" => {
                    o.trace = match value()?.as_str() {
                        "off" => vec![false],
                        "on" => vec![true],
                        "both" => vec![false, true],
                        other => bail!("--trace {other}: expected off, on or both"),
                    }
                }
                "--http" => {
                    o.http = match value()?.as_str() {
                        "off" => vec![false],
                        "on" => vec![true],
                        "both" => vec![false, true],
                        other => bail!("--http {other}: expected off, on or both"),
                    }
                }
                "--zk-shape" => o.zk_shape = Shape::parse(value()?)?,
                "--window" => o.window = value()?.parse().context("--window")?,
                "--jobs" => {
                    o.jobs =
                        value()?.split(',').map(|j| j.trim().parse()).collect::<Result<_, _>>().context("--jobs")?;
                }
                "--idle" => o.idle_secs = value()?.parse().context("--idle")?,
                "--exe" => {
                    let path = PathBuf::from(value()?);
                    anyhow::ensure!(path.is_file(), "--exe {}: no such file", path.display());
                    let _ = EXE_OVERRIDE.set(path);
                }
                "--reshard-shape" => o.reshard_shape = Shape::parse(value()?)?,
                "--rounds" => o.rounds = value()?.parse().context("--rounds")?,
                "-h" | "--help" => {
                    println!("{USAGE}");
                    std::process::exit(0);
                }
                other => bail!("unknown argument '{other}'\n{USAGE}"),
            }
        }
        ensure!(
            o.fires > 0 && o.window > 0 && o.rounds > 0 && o.jobs.iter().all(|&j| j > 0) && o.idle_secs > 0,
            "counts must be positive"
        );
        Ok(o)
    }
}

// ---------------------------------------------------------------------------------------------
// Small helpers

fn epoch_us() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
}

fn epoch_ms() -> i64 {
    epoch_us() / 1000
}

/// Sleeps (blocking) until the wall clock reaches `ms` since the epoch.
fn sleep_until_epoch_ms_blocking(ms: i64) {
    loop {
        let left = ms * 1000 - epoch_us();
        if left <= 0 {
            return;
        }
        std::thread::sleep(Duration::from_micros(left.unsigned_abs()));
    }
}

async fn sleep_until_epoch_ms(ms: i64) {
    let left = ms - epoch_ms();
    if left > 0 {
        tokio::time::sleep(Duration::from_millis(left.unsigned_abs())).await;
    }
}

fn progress(opts: &Opts, msg: &str) {
    let _ = opts;
    eprintln!("[runtime bench] {msg}");
}

/// Nearest-rank percentile of a sorted slice.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn r2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn ratio(a: f64, b: f64) -> f64 {
    if b.abs() < 1e-9 { f64::NAN } else { r2(a / b) }
}

fn make_executable(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    Ok(())
}

fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// `getconf CLK_TCK` (the unit of utime/stime in /proc/PID/stat).
fn clock_ticks() -> u64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(100)
}

/// utime + stime of a process, in clock ticks.
fn cpu_ticks(pid: u32) -> Result<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    let rest = stat.rsplit_once(')').map(|(_, r)| r).context("bad /proc/PID/stat")?;
    // Fields after the command name start at field 3 (state): utime is field 14, stime 15.
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11).context("no utime")?.parse()?;
    let stime: u64 = fields.get(12).context("no stime")?.parse()?;
    Ok(utime + stime)
}

/// A `/proc/PID/status` field in kB (or a plain count such as `Threads`).
fn status_field(pid: u32, key: &str) -> Result<u64> {
    support::status_kib(pid, key).with_context(|| format!("no {key} in /proc/{pid}/status"))
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Counters of the server's `mntr` reply.
#[derive(Debug, Clone, Default)]
struct Mntr(HashMap<String, String>);

impl Mntr {
    fn take(server: &zk::ZkServer) -> Mntr {
        Mntr(server.mntr())
    }

    fn get(&self, key: &str) -> i64 {
        self.0.get(key).and_then(|v| v.parse::<f64>().ok()).map_or(0, |v| v as i64)
    }
}

/// What happened on the server between two `mntr` snapshots.
#[derive(Debug, Clone, Copy, Default)]
struct ZkDelta {
    received: i64,
    sent: i64,
    reads: i64,
    writes: i64,
}

impl ZkDelta {
    fn between(a: &Mntr, b: &Mntr) -> ZkDelta {
        let d = |k: &str| b.get(k) - a.get(k);
        ZkDelta {
            // The second `mntr` request counts itself as a received packet.
            received: d("zk_packets_received") - 1,
            sent: d("zk_packets_sent"),
            reads: d("zk_cnt_readlatency"),
            writes: d("zk_cnt_updatelatency"),
        }
    }

    fn per(self, div: f64) -> [f64; 4] {
        [self.received as f64 / div, self.sent as f64 / div, self.reads as f64 / div, self.writes as f64 / div]
    }
}

fn delta_json(v: [f64; 4]) -> Value {
    json!({"packets_received": r2(v[0]), "packets_sent": r2(v[1]), "reads": r2(v[2]), "writes": r2(v[3])})
}

// ---------------------------------------------------------------------------------------------
// Workers

/// One `ejctl run` process, killed on drop.
struct Proc {
    child: Child,
    log: PathBuf,
    ip: String,
}

impl Proc {
    fn spawn(files: &[PathBuf], log: PathBuf, ip: &str) -> Result<Proc> {
        let mut command = Command::new(exe());
        command.arg("run").args(files).env_remove("RUST_LOG");
        Proc::start(command, log, ip).context("cannot start ejctl run")
    }

    /// Starts `command` with no stdin, no stdout and its stderr to `log`.
    fn start(mut command: Command, log: PathBuf, ip: &str) -> Result<Proc> {
        let log_file = std::fs::File::create(&log)?;
        let child = command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(log_file).spawn()?;
        Ok(Proc { child, log, ip: ip.to_string() })
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn instance_id(&self) -> String {
        format!("{}@-@{}", self.ip, self.pid())
    }

    fn log_contains(&self, needle: &str) -> bool {
        std::fs::read_to_string(&self.log).is_ok_and(|l| l.contains(needle))
    }

    fn log_tail(&self) -> String {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        let from = lines.len().saturating_sub(15);
        format!("--- {} (pid {}), last lines:\n{}", self.log.display(), self.pid(), lines[from..].join("\n"))
    }

    fn terminate(&self) {
        if let Ok(pid) = i32::try_from(self.pid()) {
            let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGTERM);
        }
    }

    /// Waits for the exit after [`Proc::terminate`]; kills after `timeout`. Returns the time it took.
    async fn wait_exit(&mut self, timeout: Duration) -> Result<Duration> {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait()? {
                ensure!(status.success(), "ejctl run exited with {status}\n{}", self.log_tail());
                return Ok(started.elapsed());
            }
            if started.elapsed() > timeout {
                let _ = self.child.kill();
                let _ = self.child.wait();
                bail!("ejctl run did not stop within {timeout:?}\n{}", self.log_tail());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    async fn stop(&mut self) -> Result<Duration> {
        self.terminate();
        self.wait_exit(Duration::from_secs(60)).await
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

async fn stop_all(procs: &mut [Proc]) -> Result<()> {
    for p in procs.iter() {
        p.terminate();
    }
    for p in procs.iter_mut() {
        p.wait_exit(Duration::from_secs(60)).await?;
    }
    Ok(())
}

async fn wait_logged(procs: &[Proc], needle: &str, timeout: Duration) -> Result<()> {
    let started = Instant::now();
    while !procs.iter().all(|p| p.log_contains(needle)) {
        if started.elapsed() > timeout {
            let tails: Vec<String> = procs.iter().map(Proc::log_tail).collect();
            bail!("timed out after {timeout:?} waiting for '{needle}'\n{}", tails.join("\n"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(())
}

/// One `[[job]]` table.
struct JobSpec {
    name: String,
    cron: Option<String>,
    total: u32,
    command: String,
    monitor: bool,
}

impl JobSpec {
    fn toml(&self) -> String {
        let mut out = format!("[[job]]\nname = {}\n", toml_str(&self.name));
        if let Some(cron) = &self.cron {
            let _ = writeln!(out, "cron = {}", toml_str(cron));
        }
        let _ = writeln!(out, "sharding_total_count = {}", self.total);
        let _ = writeln!(out, "command = {}", toml_str(&self.command));
        let _ = writeln!(out, "monitor_execution = {}\n", self.monitor);
        out
    }
}

/// The benchmark's state shared by sections.
struct Ctx {
    server: zk::ZkServer,
    dir: tempfile::TempDir,
    seq: AtomicU32,
    clk_tck: u64,
}

impl Ctx {
    /// A fresh directory and namespace for one measurement.
    fn scratch(&self, what: &str) -> Result<(PathBuf, String)> {
        let n = self.seq.fetch_add(1, Ordering::Relaxed);
        let dir = self.dir.path().join(format!("{what}-{n}"));
        std::fs::create_dir_all(&dir)?;
        Ok((dir, format!("bench-{what}-{}-{n}", std::process::id())))
    }

    fn job_file(&self, namespace: Option<&str>, ip: &str, jobs: &[JobSpec], trace: Option<&Path>) -> String {
        let mut out = String::new();
        if let Some(db) = trace {
            let _ = write!(out, "[trace]\nurl = {}\n\n", toml_str(&db.display().to_string()));
        }
        if let Some(ns) = namespace {
            let _ = write!(
                out,
                "[registry]\nservers = {}\nnamespace = {}\nsession_timeout_ms = {SESSION_TIMEOUT_MS}\n\n",
                toml_str(&self.server.connect_string()),
                toml_str(ns)
            );
        }
        let _ =
            write!(out, "[instance]\nip = {}\nshutdown_timeout_seconds = 20\nkill_grace_seconds = 1\n\n", toml_str(ip));
        for job in jobs {
            out.push_str(&job.toml());
        }
        out
    }

    /// Writes one job file per process and starts the processes (`10.0.0.{i+1}`).
    fn start_workers(&self, dir: &Path, ns: Option<&str>, n: u32, jobs: &[JobSpec]) -> Result<Vec<Proc>> {
        Ok(self.start_workers_traced(dir, ns, n, jobs, false, false)?.0)
    }

    /// [`Ctx::start_workers`]; with `trace`, each process writes its runs to `trace-{i}.db`; with
    /// `http`, each serves its HTTP endpoint on a free loopback port (returned).
    fn start_workers_traced(
        &self,
        dir: &Path,
        ns: Option<&str>,
        n: u32,
        jobs: &[JobSpec],
        trace: bool,
        http: bool,
    ) -> Result<(Vec<Proc>, Vec<u16>)> {
        let mut procs = Vec::new();
        let mut ports = Vec::new();
        for i in 0..n {
            let ip = format!("10.0.0.{}", i + 1);
            let file = dir.join(format!("worker-{i}.toml"));
            let db = trace.then(|| dir.join(format!("trace-{i}.db")));
            let mut text = self.job_file(ns, &ip, jobs, db.as_deref());
            if http {
                let port = zk::free_port();
                text = with_http(&text, port);
                ports.push(port);
            }
            std::fs::write(&file, text)?;
            procs.push(Proc::spawn(&[file], dir.join(format!("worker-{i}.log")), &ip)?);
        }
        Ok((procs, ports))
    }
}

/// A job file with `[instance] http` on loopback `port`.
fn with_http(job_file: &str, port: u16) -> String {
    job_file.replacen("[instance]\n", &format!("[instance]\nhttp = \"127.0.0.1:{port}\"\n"), 1)
}

/// Scrapes `/metrics` of every port once a second, as Prometheus would, until aborted.
fn spawn_scraper(ports: Vec<u16>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let client = reqwest::Client::new();
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        loop {
            tick.tick().await;
            for port in &ports {
                if let Ok(r) = client.get(format!("http://127.0.0.1:{port}/metrics")).send().await {
                    let _ = r.bytes().await;
                }
            }
        }
    })
}

/// utime+stime of these processes, in clock ticks.
fn cpu_ticks_of(procs: &[Proc]) -> u64 {
    procs.iter().map(|p| cpu_ticks(p.pid()).unwrap_or(0)).sum()
}

fn write_record_script(dir: &Path) -> Result<PathBuf> {
    let script = dir.join("record.sh");
    std::fs::write(&script, RECORD_SCRIPT)?;
    make_executable(&script)?;
    Ok(script)
}

/// The jobs of a lateness-style run: K jobs at a 1-second cron running the record script.
fn cron_jobs(shape: Shape, script: &Path, record: &Path, monitor: bool, cron: Option<&str>) -> Vec<JobSpec> {
    (0..shape.k)
        .map(|j| JobSpec {
            name: format!("job{j}"),
            cron: cron.map(str::to_string),
            total: shape.t,
            command: format!("{} {}", script.display(), record.display()),
            monitor,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Records

#[derive(Debug, Clone)]
struct Rec {
    fire_ms: i64,
    item: u32,
    start_us: i64,
    instance: String,
    job: String,
}

impl Rec {
    fn lateness_ms(&self) -> f64 {
        (self.start_us - self.fire_ms * 1000) as f64 / 1000.0
    }
}

fn read_records(path: &Path) -> Vec<Rec> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            Some(Rec {
                fire_ms: f.first()?.parse().ok()?,
                item: f.get(1)?.parse().ok()?,
                start_us: f.get(2)?.parse().ok()?,
                instance: (*f.get(3)?).to_string(),
                job: (*f.get(4)?).to_string(),
            })
        })
        .collect()
}

/// Per fire: the distinct (job, item) pairs run and the instances that ran them.
type ByFire = BTreeMap<i64, (BTreeSet<(String, u32)>, BTreeSet<String>)>;

fn by_fire(recs: &[Rec]) -> ByFire {
    let mut out = ByFire::new();
    for r in recs {
        let e = out.entry(r.fire_ms).or_default();
        e.0.insert((r.job.clone(), r.item));
        e.1.insert(r.instance.clone());
    }
    out
}

/// The first fire in which every item of every job ran, spread over all owning instances.
fn first_complete_fire(recs: &[Rec], shape: Shape) -> Option<i64> {
    by_fire(recs)
        .into_iter()
        .find(|(_, (items, instances))| {
            items.len() == shape.runs_per_fire() && instances.len() >= shape.owning_instances()
        })
        .map(|(fire, _)| fire)
}

/// Waits until the workers' record file shows a complete fire; returns it.
async fn wait_complete_fire(record: &Path, shape: Shape, procs: &[Proc], timeout: Duration) -> Result<i64> {
    let started = Instant::now();
    loop {
        if let Some(fire) = first_complete_fire(&read_records(record), shape) {
            return Ok(fire);
        }
        if started.elapsed() > timeout {
            let tails: Vec<String> = procs.iter().map(Proc::log_tail).collect();
            bail!("no complete fire of {} within {timeout:?}\n{}", shape.label(), tails.join("\n"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until every fire in `fires` is complete (or a few seconds after the last one is due).
async fn wait_fires_done(record: &Path, shape: Shape, fires: &[i64]) {
    let Some(&last) = fires.last() else { return };
    sleep_until_epoch_ms(last + 300).await;
    let give_up = last + 8000;
    loop {
        let done = by_fire(&read_records(record));
        if fires.iter().all(|f| done.get(f).is_some_and(|(items, _)| items.len() >= shape.runs_per_fire())) {
            return;
        }
        if epoch_ms() > give_up {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Lateness figures over a set of fires.
#[derive(Debug, Clone, Default)]
struct LatenessStats {
    fires: usize,
    runs: usize,
    missing: usize,
    extra: usize,
    first: Vec<f64>,
    all: Vec<f64>,
}

impl LatenessStats {
    fn of(recs: &[Rec], fires: &[i64], per_fire: usize) -> LatenessStats {
        let mut s = LatenessStats { fires: fires.len(), ..LatenessStats::default() };
        for &fire in fires {
            let runs: Vec<&Rec> = recs.iter().filter(|r| r.fire_ms == fire).collect();
            let distinct: BTreeSet<(&str, u32)> = runs.iter().map(|r| (r.job.as_str(), r.item)).collect();
            s.missing += per_fire.saturating_sub(distinct.len());
            s.extra += runs.len() - distinct.len();
            s.runs += runs.len();
            let lateness: Vec<f64> = runs.iter().map(|r| r.lateness_ms()).collect();
            if let Some(first) = lateness.iter().copied().reduce(f64::min) {
                s.first.push(first);
            }
            s.all.extend(lateness);
        }
        s.first.sort_by(f64::total_cmp);
        s.all.sort_by(f64::total_cmp);
        s
    }

    fn first_p50(&self) -> f64 {
        percentile(&self.first, 50.0)
    }
    fn first_max(&self) -> f64 {
        percentile(&self.first, 100.0)
    }
    fn all_p(&self, p: f64) -> f64 {
        percentile(&self.all, p)
    }

    /// This run's figures as ratios of `base`'s, for the JSON output.
    fn ratios(&self, base: &LatenessStats) -> Value {
        json!({
            "first_fire_p50": ratio(self.first_p50(), base.first_p50()),
            "all_p50": ratio(self.all_p(50.0), base.all_p(50.0)),
            "all_p99": ratio(self.all_p(99.0), base.all_p(99.0)),
            "all_max": ratio(self.all_p(100.0), base.all_p(100.0)),
        })
    }

    fn json(&self) -> Value {
        json!({
            "fires": self.fires, "runs": self.runs, "missing": self.missing, "extra": self.extra,
            "first_fire_ms": {"p50": r2(self.first_p50()), "max": r2(self.first_max()),
                              "min": r2(percentile(&self.first, 0.0))},
            "all_items_ms": {"p50": r2(self.all_p(50.0)), "p99": r2(self.all_p(99.0)), "max": r2(self.all_p(100.0))},
        })
    }

    fn row(&self, label: &str) -> String {
        format!(
            "    {label:<8} first-fire p50 {:>7.2}  max {:>7.2} ms   all items p50 {:>7.2}  p99 {:>7.2}  max {:>7.2} ms   runs {:>5}  missing {}  extra {}\n",
            self.first_p50(),
            self.first_max(),
            self.all_p(50.0),
            self.all_p(99.0),
            self.all_p(100.0),
            self.runs,
            self.missing,
            self.extra
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Section 1: fire lateness

/// Makes `std` start the command with `fork` + `exec`, as ejctl does (its `pre_exec` hook sets
/// the parent-death signal), instead of `posix_spawn` (a `vfork`-style clone).
#[allow(unsafe_code)]
fn force_fork(command: &mut Command) {
    // SAFETY: the hook does nothing, so it is trivially async-signal-safe.
    unsafe {
        command.pre_exec(|| Ok(()));
    }
}

/// The ideal spawn floor: sleep until each whole second, spawn the K×T scripts at once from one
/// thread (with `posix_spawn`, or with `fork` when `fork` is set), then reap them.
fn ideal_loop(script: &Path, record: &Path, shape: Shape, fires: usize, fork: bool) -> Result<Vec<i64>> {
    let mut done = Vec::new();
    for _ in 0..fires {
        let fire = epoch_ms() / 1000 * 1000 + 1000;
        sleep_until_epoch_ms_blocking(fire);
        let mut children = Vec::with_capacity(shape.runs_per_fire());
        for j in 0..shape.k {
            for item in 0..shape.t {
                let mut command = Command::new(script);
                if fork {
                    force_fork(&mut command);
                }
                let child = command
                    .arg(record)
                    .arg("{}")
                    .env("EJCTL_FIRE_TIME", fire.to_string())
                    .env("EJCTL_SHARDING_ITEM", item.to_string())
                    .env("EJCTL_JOB_NAME", format!("job{j}"))
                    .env("EJCTL_TASK_ID", format!("job{j}@-@{item}@-@READY@-@127.0.0.1@-@ideal"))
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .process_group(0)
                    .spawn()?;
                children.push(child);
            }
        }
        for mut child in children {
            child.wait()?;
        }
        done.push(fire);
    }
    Ok(done)
}

/// Measures running contender processes (ejctl's workers, or the peer) the same way: waits for
/// their first complete fire, skips it and the next (the 2 warm-up fires), and waits for the
/// `--fires` after them. Returns those fires and the processes' CPU over them (% of one core).
async fn measure_fires(ctx: &Ctx, opts: &Opts, record: &Path, shape: Shape, procs: &[Proc]) -> Result<(Vec<i64>, f64)> {
    let f0 = wait_complete_fire(record, shape, procs, Duration::from_secs(60)).await?;
    let fires: Vec<i64> = (0..opts.fires as i64).map(|i| f0 + 2000 + i * 1000).collect();
    let (ticks0, t0) = (cpu_ticks_of(procs), Instant::now());
    wait_fires_done(record, shape, &fires).await;
    let cpu_pct =
        cpu_ticks_of(procs).saturating_sub(ticks0) as f64 / ctx.clk_tck as f64 / t0.elapsed().as_secs_f64() * 100.0;
    Ok((fires, cpu_pct))
}

/// The peer scheduler's script (`python3 SCRIPT RECORD_SCRIPT RECORD K T`): K×T APScheduler jobs
/// at `CronTrigger(second='*')`, each starting the record script; its docstring gives the choices.
const APSCHEDULER_SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/peers/apscheduler_lateness.py");

/// The interpreters tried for APScheduler, in order: the one on `PATH`, then Debian's (where
/// `python3-apscheduler` installs, when `PATH` leads to another Python first).
const PEER_PYTHONS: [&str; 2] = ["python3", "/usr/bin/python3"];

/// An interpreter that imports APScheduler.
struct PeerPython {
    python: String,
    apscheduler: String,
    python_version: String,
}

impl PeerPython {
    fn probe(python: &str) -> Option<PeerPython> {
        let out = Command::new(python)
            .args(["-c", "import sys, apscheduler; print(apscheduler.__version__, sys.version.split()[0])"])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        if !out.status.success() {
            return None;
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        let mut words = stdout.split_whitespace();
        Some(PeerPython {
            python: python.to_string(),
            apscheduler: words.next()?.to_string(),
            python_version: words.next()?.to_string(),
        })
    }

    fn find() -> Option<PeerPython> {
        PEER_PYTHONS.iter().find_map(|p| PeerPython::probe(p))
    }
}

/// Whether the bench runs as root (effective uid 0, from `/proc/self/status`).
fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|ids| ids.split_whitespace().nth(1)) == Some("0")
    })
}

/// Runs `apt-get ARGS` quietly (its output would mix with the table); the tail of its output on failure.
fn apt_get(args: &[&str]) -> Result<(), String> {
    let out = Command::new("apt-get")
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run apt-get: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let all = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = all.lines().collect();
    Err(format!(
        "apt-get {} exited with {}: {}",
        args.join(" "),
        out.status,
        lines[lines.len().saturating_sub(3)..].join(" / ")
    ))
}

/// The interpreter for the APScheduler row; as root, installs `python3-apscheduler` when no
/// interpreter imports it. `Err` says why the row is missing.
fn find_apscheduler(opts: &Opts) -> Result<PeerPython, String> {
    if let Some(p) = PeerPython::find() {
        return Ok(p);
    }
    let tried = PEER_PYTHONS.join(" or ");
    if !is_root() {
        return Err(format!(
            "no APScheduler: neither {tried} imports apscheduler, and the bench is not root so it does not \
install it (apt-get install python3-apscheduler)"
        ));
    }
    const INSTALL: [&str; 4] = ["install", "-y", "--no-install-recommends", "python3-apscheduler"];
    progress(
        opts,
        &format!("APScheduler: neither {tried} imports apscheduler; installing it: apt-get {}", INSTALL.join(" ")),
    );
    if let Err(e) = apt_get(&INSTALL) {
        progress(opts, &format!("APScheduler: {e}; apt-get update, then installing again"));
        apt_get(&["update"])?;
        apt_get(&INSTALL)?;
    }
    PeerPython::find()
        .ok_or_else(|| format!("python3-apscheduler is installed, but neither {tried} imports apscheduler"))
}

/// One run of the peer, APScheduler, on the work of `shape` (its K×T jobs in one Python process),
/// measured as the ejctl runs are ([`measure_fires`]). Returns its figures, its anonymous memory
/// (MB) and CPU (% of one core).
async fn run_apscheduler(
    ctx: &Ctx,
    opts: &Opts,
    peer: &PeerPython,
    shape: Shape,
    script: &Path,
) -> Result<(LatenessStats, f64, f64)> {
    let (run_dir, _) = ctx.scratch(&format!("lat{}-apscheduler", shape.label()))?;
    let record = run_dir.join("runs.txt");
    let mut command = Command::new(&peer.python);
    command.arg(APSCHEDULER_SCRIPT).arg(script).arg(&record).arg(shape.k.to_string()).arg(shape.t.to_string());
    let mut procs = vec![
        Proc::start(command, run_dir.join("apscheduler.log"), "apscheduler")
            .with_context(|| format!("cannot start {}", peer.python))?,
    ];
    // One process runs every item: one instance owns them all.
    let one = Shape { n: 1, ..shape };
    let (fires, cpu_pct) = measure_fires(ctx, opts, &record, one, &procs).await?;
    let anon_kb = procs.iter().map(|p| status_field(p.pid(), "RssAnon").unwrap_or(0)).max().unwrap_or(0);
    stop_all(&mut procs).await?;
    let stats = LatenessStats::of(&read_records(&record), &fires, shape.runs_per_fire());
    Ok((stats, anon_kb as f64 / 1024.0, cpu_pct))
}

/// The latency of the `running`-node transactions of a fire of `k` local items, timed from a
/// session that, like a worker, holds a persistent recursive watch on the job's subtree: one
/// multi of `k` creates (what a fire waits for before it starts its items) and one of `k` deletes.
async fn multi_latency(ctx: &Ctx, k: u32, tries: usize) -> Result<(f64, f64)> {
    let (_, ns) = ctx.scratch("multi")?;
    let registry = Registry::connect(support::zk_options(&ctx.server.connect_string(), &ns)).await?;
    let paths = JobPaths::new("m");
    let mut watch = registry.watch_subtree(paths.root()).await?;
    let drain = tokio::spawn(async move { while watch.next().await.is_some() {} });
    let mut setup = vec![
        Op::Create { path: paths.root().into(), data: vec![], mode: Mode::Persistent },
        Op::Create { path: paths.sharding(), data: vec![], mode: Mode::Persistent },
    ];
    setup.extend((0..k).map(|i| Op::Create { path: paths.item(i), data: vec![], mode: Mode::Persistent }));
    registry.transaction(&setup).await?;
    let (mut creates, mut deletes) = (Vec::new(), Vec::new());
    for _ in 0..tries {
        let ops: Vec<Op> = (0..k)
            .map(|i| Op::Create {
                path: paths.item_leaf(i, ItemLeaf::Running),
                data: b"10.0.0.1@-@1".to_vec(),
                mode: Mode::Ephemeral,
            })
            .collect();
        let t = Instant::now();
        registry.transaction(&ops).await?;
        creates.push(ms(t.elapsed()));
        let ops: Vec<Op> =
            (0..k).map(|i| Op::Delete { path: paths.item_leaf(i, ItemLeaf::Running), version: None }).collect();
        let t = Instant::now();
        registry.transaction(&ops).await?;
        deletes.push(ms(t.elapsed()));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drain.abort();
    creates.sort_by(f64::total_cmp);
    deletes.sort_by(f64::total_cmp);
    Ok((percentile(&creates, 50.0), percentile(&deletes, 50.0)))
}

async fn section_lateness(ctx: &Ctx, opts: &Opts, text: &mut String) -> Result<Value> {
    let mut results = Vec::new();
    // The peer scheduler, found (or installed) before anything is measured; `Err` is why its row
    // is missing, said on stderr and in the table.
    let peer = opts.peers.then(|| find_apscheduler(opts));
    if let Some(Err(why)) = &peer {
        progress(opts, &format!("the APScheduler row is missing: {why}"));
    }
    let _ = writeln!(
        text,
        "Fire lateness: scheduled instant -> script start ($EPOCHREALTIME), 1 s cron, {} fires after 2 warm-up, monitor_execution {}",
        opts.fires,
        if opts.monitor { "on" } else { "off" }
    );
    let _ = writeln!(
        text,
        "  (first-fire = earliest start of each fire; ideal = spawn loop in the bench process, same script and K×T spawns, \
no ZooKeeper, posix_spawn; ideal/f = the same loop forcing fork+exec, what a pre_exec hook costs; ratios are against ideal)"
    );
    match &peer {
        Some(Ok(p)) => {
            let _ = writeln!(
                text,
                "  (APSched = the peer, APScheduler {} on Python {}: K×T jobs at CronTrigger(second='*') in one BlockingScheduler, \
a ThreadPoolExecutor of K×T threads, each run a subprocess.Popen of the same script, measured as ejctl is)",
                p.apscheduler, p.python_version
            );
        }
        Some(Err(why)) => {
            let _ = writeln!(text, "  (the APScheduler row is missing: {why})");
        }
        None => {}
    }
    for &shape in &opts.shapes {
        let (dir, _) = ctx.scratch(&format!("lat{}", shape.label()))?;
        let script = write_record_script(&dir)?;

        let mut floors = Vec::new();
        for fork in [false, true] {
            let how = if fork { "fork" } else { "posix_spawn" };
            progress(opts, &format!("lateness {}: ideal spawn loop ({how}), {} fires", shape.label(), opts.fires + 2));
            let ideal_record = dir.join(format!("ideal-{how}.txt"));
            let (s, r) = (script.clone(), ideal_record.clone());
            let fires_total = opts.fires + 2;
            let fires = tokio::task::spawn_blocking(move || ideal_loop(&s, &r, shape, fires_total, fork)).await??;
            floors.push(LatenessStats::of(&read_records(&ideal_record), &fires[2..], shape.runs_per_fire()));
        }
        let ideal_fork = floors.pop().context("no fork floor")?;
        let ideal = floors.pop().context("no floor")?;

        let mut runs = Vec::new();
        // The embedded registry lives in one process: shapes of several processes run on
        // ZooKeeper only.
        let registries = opts.registries.iter().filter(|&&on_zk| on_zk || shape.n == 1);
        for (&on_zk, &http, &traced) in
            registries.flat_map(|z| opts.http.iter().flat_map(move |h| opts.trace.iter().map(move |t| (z, h, t))))
        {
            let how = if traced { "with the trace on (SQLite)" } else { "with the trace off" };
            let endpoint = if http { ", HTTP endpoint on (scraped every second)" } else { "" };
            let registry = if on_zk { "ZooKeeper" } else { "the embedded registry" };
            progress(
                opts,
                &format!("lateness {}: {} ejctl run processes on {registry}, {how}{endpoint}", shape.label(), shape.n),
            );
            let (run_dir, run_ns) = ctx.scratch(&format!(
                "lat{}-{}{}{}",
                shape.label(),
                if traced { "on" } else { "off" },
                if http { "-http" } else { "" },
                if on_zk { "" } else { "-embedded" }
            ))?;
            let record = run_dir.join("runs.txt");
            let jobs = cron_jobs(shape, &script, &record, opts.monitor, Some("* * * * * ?"));
            let ns = on_zk.then_some(run_ns.as_str());
            let (mut procs, ports) = ctx.start_workers_traced(&run_dir, ns, shape.n, &jobs, traced, http)?;
            let scraper = spawn_scraper(ports);
            let (fires, cpu_pct) = measure_fires(ctx, opts, &record, shape, &procs).await?;
            scraper.abort();
            let anon_kb: Vec<u64> = procs.iter().map(|p| status_field(p.pid(), "RssAnon").unwrap_or(0)).collect();
            stop_all(&mut procs).await?;
            let stats = LatenessStats::of(&read_records(&record), &fires, shape.runs_per_fire());
            let anon_mb = anon_kb.iter().max().copied().unwrap_or(0) as f64 / 1024.0;
            runs.push((on_zk, traced, http, stats, anon_mb, cpu_pct));
        }
        let local = shape.t.div_ceil(shape.n);
        let (multi_create, multi_delete) = multi_latency(ctx, local, 10).await?;
        // The peer runs last, after the ejctl runs, so theirs run as they did without it.
        let peer_run = match &peer {
            Some(Ok(p)) => {
                progress(
                    opts,
                    &format!(
                        "lateness {}: APScheduler {}, {} jobs in one process",
                        shape.label(),
                        p.apscheduler,
                        shape.runs_per_fire()
                    ),
                );
                Some(run_apscheduler(ctx, opts, p, shape, &script).await.map_err(|e| {
                    let why = format!("the APScheduler run failed: {e:#}");
                    progress(opts, &format!("the APScheduler row of {} is missing: {why}", shape.label()));
                    why
                }))
            }
            Some(Err(why)) => Some(Err(why.clone())),
            None => None,
        };
        let _ = writeln!(
            text,
            "  {} (K={} jobs x N={} processes x T={} items; {} runs per fire)",
            shape.label(),
            shape.k,
            shape.n,
            shape.t,
            shape.runs_per_fire()
        );
        text.push_str(&ideal.row("ideal"));
        text.push_str(&ideal_fork.row("ideal/f"));
        let mut entry = json!({
            "shape": shape.json(),
            "runs_per_fire": shape.runs_per_fire(),
            "running_multi_ms": {"local_items": local, "create_p50": r2(multi_create), "delete_p50": r2(multi_delete)},
            "ideal": ideal.json(),
            "ideal_fork": ideal_fork.json(),
        });
        match &peer_run {
            Some(Ok((aps, anon_mb, cpu_pct))) => {
                let excess = aps.first_p50() - ideal.first_p50();
                text.push_str(&aps.row("APSched"));
                let _ = writeln!(
                    text,
                    "    {:<8} first-fire p50 {:>+7.2} ms over the floor (x{:.2})   all items p50 x{:.2}  p99 x{:.2}   (process anonymous memory {anon_mb:.1} MB, CPU {cpu_pct:.1} % of one core)",
                    "APSched",
                    excess,
                    ratio(aps.first_p50(), ideal.first_p50()),
                    ratio(aps.all_p(50.0), ideal.all_p(50.0)),
                    ratio(aps.all_p(99.0), ideal.all_p(99.0)),
                );
                entry["apscheduler"] = json!({
                    "stats": aps.json(),
                    "process_anon_mb": r2(*anon_mb),
                    "process_cpu_pct_of_one_core": r2(*cpu_pct),
                    "first_fire_p50_excess_ms": r2(excess),
                    "ratio": aps.ratios(&ideal),
                });
            }
            Some(Err(why)) => {
                let _ = writeln!(text, "    {:<8} missing: {why}", "APSched");
                entry["apscheduler"] = json!({"missing": why});
            }
            None => {}
        }
        let aps = match &peer_run {
            Some(Ok((aps, _, _))) => Some(aps),
            _ => None,
        };
        for (on_zk, traced, http, ejctl, anon_mb, cpu_pct) in &runs {
            let label = match (*traced, *http) {
                (false, false) => "ejctl",
                (true, false) => "ejctl+tr",
                (false, true) => "ejctl+ht",
                (true, true) => "ejctl+t+h",
            };
            let key = match (*traced, *http) {
                (false, false) => "ejctl",
                (true, false) => "ejctl_traced",
                (false, true) => "ejctl_http",
                (true, true) => "ejctl_traced_http",
            };
            // Embedded runs: `/e` after the label, `_embedded` after the key.
            let (label, key) = if *on_zk {
                (label.to_string(), key.to_string())
            } else {
                (format!("{label}/e"), format!("{key}_embedded"))
            };
            let label = label.as_str();
            let excess = ejctl.first_p50() - ideal.first_p50();
            text.push_str(&ejctl.row(label));
            let _ = writeln!(
                text,
                "    {:<8} first-fire p50 {:>+7.2} ms over the floor (x{:.2})   all items p50 x{:.2}  p99 x{:.2}   (worker anonymous memory {anon_mb:.1} MB, CPU {cpu_pct:.1} % of one core)",
                label,
                excess,
                ratio(ejctl.first_p50(), ideal.first_p50()),
                ratio(ejctl.all_p(50.0), ideal.all_p(50.0)),
                ratio(ejctl.all_p(99.0), ideal.all_p(99.0)),
            );
            if let Some(aps) = aps {
                let _ = writeln!(
                    text,
                    "    {:<8} first-fire p50 {:>+7.2} ms against APSched (x{:.2})   all items p50 x{:.2}  p99 x{:.2}  max x{:.2}",
                    label,
                    ejctl.first_p50() - aps.first_p50(),
                    ratio(ejctl.first_p50(), aps.first_p50()),
                    ratio(ejctl.all_p(50.0), aps.all_p(50.0)),
                    ratio(ejctl.all_p(99.0), aps.all_p(99.0)),
                    ratio(ejctl.all_p(100.0), aps.all_p(100.0)),
                );
            }
            entry[key.as_str()] = json!({
                "stats": ejctl.json(),
                "worker_anon_mb": r2(*anon_mb),
                "worker_cpu_pct_of_one_core": r2(*cpu_pct),
                "first_fire_p50_excess_ms": r2(excess),
                "ratio": ejctl.ratios(&ideal),
            });
            if let Some(aps) = aps {
                entry[key.as_str()]["against_apscheduler"] = json!({
                    "first_fire_p50_diff_ms": r2(ejctl.first_p50() - aps.first_p50()),
                    "ratio": ejctl.ratios(aps),
                });
            }
        }
        let _ = writeln!(
            text,
            "    (a multi creating the {local} running nodes of one job takes {multi_create:.2} ms, deleting them \
{multi_delete:.2} ms (p50 of 10))"
        );
        results.push(entry);
    }
    text.push('\n');
    let peers = match &peer {
        Some(Ok(p)) => json!({"apscheduler": {"version": p.apscheduler, "python": p.python,
            "python_version": p.python_version, "trigger": "CronTrigger(second='*')",
            "script": "benches/peers/apscheduler_lateness.py"}}),
        Some(Err(why)) => json!({"apscheduler": {"missing": why}}),
        None => json!({}),
    };
    Ok(json!({"fires": opts.fires, "warmup_fires": 2, "monitor_execution": opts.monitor, "cron": "* * * * * ?",
        "peers_on": opts.peers, "peers": peers, "shapes": results}))
}

// ---------------------------------------------------------------------------------------------
// Section 2: ZooKeeper requests per fire per instance

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ZkMode {
    Idle,
    MonitorOn,
    MonitorOff,
}

impl ZkMode {
    fn name(self) -> &'static str {
        match self {
            ZkMode::Idle => "idle",
            ZkMode::MonitorOn => "monitor_on",
            ZkMode::MonitorOff => "monitor_off",
        }
    }
}

/// Waits until the server sees no more than `per_sec` packets per second for 2 seconds in a row
/// (and, when `pid` is given, that process uses at most one clock tick per second). Returns how
/// long it took.
async fn wait_quiet(server: &zk::ZkServer, per_sec: i64, pid: Option<u32>, timeout: Duration) -> Result<Duration> {
    let started = Instant::now();
    let mut quiet = 0;
    let mut last = Mntr::take(server);
    let mut last_ticks = pid.map(cpu_ticks).transpose()?;
    while quiet < 2 {
        if started.elapsed() > timeout {
            bail!("the registry traffic did not settle within {timeout:?}");
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = Mntr::take(server);
        let ticks = pid.map(cpu_ticks).transpose()?;
        let packets_ok = ZkDelta::between(&last, &now).received <= per_sec;
        let cpu_ok = match (last_ticks, ticks) {
            (Some(a), Some(b)) => b - a <= 1,
            _ => true,
        };
        quiet = if packets_ok && cpu_ok { quiet + 1 } else { 0 };
        last = now;
        last_ticks = ticks;
    }
    Ok(started.elapsed())
}

async fn zk_mode(ctx: &Ctx, opts: &Opts, mode: ZkMode) -> Result<(ZkDelta, usize)> {
    let shape = opts.zk_shape;
    let (dir, ns) = ctx.scratch(&format!("zk-{}", mode.name()))?;
    let script = write_record_script(&dir)?;
    let record = dir.join("runs.txt");
    let cron = (mode != ZkMode::Idle).then_some("* * * * * ?");
    let jobs = cron_jobs(shape, &script, &record, mode != ZkMode::MonitorOff, cron);
    let mut procs = ctx.start_workers(&dir, Some(&ns), shape.n, &jobs)?;
    let window_ms = opts.window as i64 * 1000;
    let result = if mode == ZkMode::Idle {
        wait_logged(&procs, "worker started", Duration::from_secs(60)).await?;
        wait_quiet(&ctx.server, i64::from(shape.n), None, Duration::from_secs(30)).await?;
        let a = Mntr::take(&ctx.server);
        tokio::time::sleep(Duration::from_millis(window_ms.unsigned_abs())).await;
        let b = Mntr::take(&ctx.server);
        (ZkDelta::between(&a, &b), opts.window)
    } else {
        let f0 = wait_complete_fire(&record, shape, &procs, Duration::from_secs(60)).await?;
        // Half-way between fires, after 2 warm-up fires: the window holds exactly W fires.
        let t0 = f0 + 2500;
        sleep_until_epoch_ms(t0).await;
        let a = Mntr::take(&ctx.server);
        sleep_until_epoch_ms(t0 + window_ms).await;
        let b = Mntr::take(&ctx.server);
        let fires: Vec<i64> = (1..=opts.window as i64).map(|i| f0 + 2000 + i * 1000).collect();
        let done = by_fire(&read_records(&record));
        let complete =
            fires.iter().filter(|f| done.get(f).is_some_and(|(items, _)| items.len() == shape.runs_per_fire())).count();
        (ZkDelta::between(&a, &b), complete)
    };
    stop_all(&mut procs).await?;
    Ok(result)
}

async fn section_zk(ctx: &Ctx, opts: &Opts, text: &mut String) -> Result<Value> {
    let shape = opts.zk_shape;
    let n = f64::from(shape.n);
    let k = f64::from(shape.k);
    let w = opts.window as f64;
    let mut out = serde_json::Map::new();
    let mut idle_rate = [0.0; 4];
    let local = shape.t.div_ceil(shape.n);
    let _ = writeln!(
        text,
        "ZooKeeper requests per fire per instance ({} = K={} jobs x N={} processes x T={} items, 1 s cron, window of {} fires, mntr deltas)",
        shape.label(),
        shape.k,
        shape.n,
        shape.t,
        opts.window
    );
    let _ = writeln!(text, "  {:<30} {:>12} {:>12} {:>8} {:>8}", "", "pkts recv", "pkts sent", "reads", "writes");
    for mode in [ZkMode::Idle, ZkMode::MonitorOn, ZkMode::MonitorOff] {
        progress(opts, &format!("zk {}: {} processes, {} s window", mode.name(), shape.n, opts.window));
        let (delta, fires) = zk_mode(ctx, opts, mode).await?;
        let raw = delta.per(w * n);
        let row = |label: &str, v: [f64; 4]| {
            format!("  {label:<30} {:>12.2} {:>12.2} {:>8.2} {:>8.2}\n", v[0], v[1], v[2], v[3])
        };
        if mode == ZkMode::Idle {
            idle_rate = raw;
            text.push_str(&row("idle job, per second/instance", raw));
            out.insert(
                "idle_per_second_per_instance".into(),
                json!({"window_s": opts.window, "totals": {"packets_received": delta.received, "packets_sent": delta.sent, "reads": delta.reads, "writes": delta.writes}, "per": delta_json(raw)}),
            );
            continue;
        }
        // One fire per second per job: per job-fire per instance.
        let per_fire = delta.per(w * n * k);
        // Steady traffic replaces the pings, so a difference below zero is shown as zero.
        let net: [f64; 4] = std::array::from_fn(|i| ((raw[i] - idle_rate[i]) / k).max(0.0));
        text.push_str(&row(&format!("{}: raw", mode.name()), per_fire));
        text.push_str(&row(&format!("{}: minus idle", mode.name()), net));
        if fires != opts.window {
            let _ = writeln!(
                text,
                "  ({}: only {fires} of {} fires in the window were complete)",
                mode.name(),
                opts.window
            );
        }
        out.insert(
            mode.name().into(),
            json!({
                "complete_fires": fires,
                "totals": {"packets_received": delta.received, "packets_sent": delta.sent, "reads": delta.reads, "writes": delta.writes},
                "per_fire_per_instance": delta_json(per_fire),
                "per_fire_per_instance_minus_idle": delta_json(net),
            }),
        );
    }
    let reads = shape.t + 3 * local + 8;
    let _ = writeln!(
        text,
        "  ElasticJob: T + 3k + 8 = {reads} reads plus 2k-4k = {}-{} writes per fire per instance (T={}, k={local} local items)",
        2 * local,
        4 * local,
        shape.t
    );
    let _ = writeln!(
        text,
        "  (reads/writes = zk_cnt_readlatency/zk_cnt_updatelatency: pings count as reads, a multi as one write; \
packets sent include watch notifications; \"minus idle\" is clamped at 0)\n"
    );
    out.insert("shape".into(), shape.json());
    out.insert("window_fires".into(), json!(opts.window));
    out.insert(
        "elasticjob".into(),
        json!({"reads": reads, "writes_min": 2 * local, "writes_max": 4 * local, "local_items": local}),
    );
    Ok(Value::Object(out))
}

// ---------------------------------------------------------------------------------------------
// Section 4: density

struct DensityFigures {
    jobs: usize,
    startup: Duration,
    settle: Duration,
    /// CPU seconds used from launch until settled.
    startup_cpu_s: f64,
    /// Anonymous memory (`RssAnon`): what the worker costs the machine.
    anon_kb: u64,
    /// Proportional set size (`Pss`): anonymous memory plus this process's share of the file
    /// pages (the binary's code) it maps.
    pss_kb: u64,
    rss_kb: u64,
    hwm_kb: u64,
    threads: u64,
    cpu_pct: f64,
    zk: Option<ZkDelta>,
    stop: Duration,
}

async fn density_one(ctx: &Ctx, opts: &Opts, jobs: usize, on_zk: bool, http: bool) -> Result<DensityFigures> {
    let what = match (on_zk, http) {
        (true, false) => "density-zk",
        (false, false) => "density-embedded",
        (true, true) => "density-zk-http",
        (false, true) => "density-embedded-http",
    };
    let (dir, ns) = ctx.scratch(what)?;
    let count = jobs;
    let jobs: Vec<JobSpec> = (0..jobs)
        .map(|j| JobSpec {
            name: format!("d{j}"),
            // Once a day at 03:00 (ZooKeeper); one-off (embedded).
            cron: on_zk.then(|| "0 0 3 * * ?".to_string()),
            total: 3,
            command: "/bin/true".to_string(),
            monitor: true,
        })
        .collect();
    let file = dir.join("jobs.toml");
    let mut text = ctx.job_file(on_zk.then_some(ns.as_str()), "10.0.0.1", &jobs, None);
    let port = zk::free_port();
    if http {
        text = with_http(&text, port);
    }
    std::fs::write(&file, text)?;
    let started = Instant::now();
    let mut proc = Proc::spawn(&[file], dir.join("worker.log"), "10.0.0.1")?;
    wait_logged(std::slice::from_ref(&proc), "worker started", Duration::from_secs(300)).await?;
    let startup = started.elapsed();
    let pid = proc.pid();
    let settle = wait_quiet(&ctx.server, 3, Some(pid), Duration::from_secs(if opts.quick { 60 } else { 180 })).await?;
    let scraper = http.then(|| spawn_scraper(vec![port]));
    let ticks0 = cpu_ticks(pid)?;
    let startup_cpu_s = ticks0 as f64 / ctx.clk_tck as f64;
    let m0 = Mntr::take(&ctx.server);
    let t0 = Instant::now();
    tokio::time::sleep(Duration::from_secs(opts.idle_secs)).await;
    let ticks1 = cpu_ticks(pid)?;
    if let Some(scraper) = scraper {
        scraper.abort();
    }
    let elapsed = t0.elapsed().as_secs_f64();
    let m1 = Mntr::take(&ctx.server);
    let cpu_pct = (ticks1 - ticks0) as f64 / ctx.clk_tck as f64 / elapsed * 100.0;
    let anon_kb = status_field(pid, "RssAnon")?;
    let pss_kb = support::smaps_kib(pid, "Pss").with_context(|| format!("no Pss in /proc/{pid}/smaps_rollup"))?;
    let rss_kb = status_field(pid, "VmRSS")?;
    let hwm_kb = status_field(pid, "VmHWM")?;
    let threads = status_field(pid, "Threads")?;
    let stop = proc.stop().await?;
    Ok(DensityFigures {
        jobs: count,
        startup,
        settle,
        startup_cpu_s,
        anon_kb,
        pss_kb,
        rss_kb,
        hwm_kb,
        threads,
        cpu_pct,
        zk: on_zk.then(|| ZkDelta::between(&m0, &m1)),
        stop,
    })
}

async fn section_density(ctx: &Ctx, opts: &Opts, text: &mut String) -> Result<Value> {
    let _ = writeln!(
        text,
        "Density: one ejctl run with {:?} jobs (3 items each; ZooKeeper up to {DENSITY_ZK_MAX_JOBS}), idle window {} s (CPU = utime+stime, % of one core; \
memory is anonymous memory (RssAnon), what the worker costs the machine; PSS adds its share of the shared \
code pages, RSS all of them; target: anonymous ≤ 4 KB a job beyond one job, 1,000 jobs < 12 MB, 10,000 < 64 MB, CPU < 0.1 %)",
        opts.jobs, opts.idle_secs
    );
    let mut out = serde_json::Map::new();
    let runs = [false, true].into_iter().flat_map(|z| opts.http.iter().map(move |&h| (z, h)));
    let runs = runs.flat_map(|(z, h)| opts.jobs.iter().map(move |&j| (j, z, h)));
    // Anonymous memory of the 1-job process of each kind, for the cost of a job beyond it.
    let mut one_job_kb: BTreeMap<(bool, bool), u64> = BTreeMap::new();
    for (jobs, on_zk, http) in runs.filter(|(j, z, _)| !z || *j <= DENSITY_ZK_MAX_JOBS) {
        let label = match (on_zk, http) {
            (true, false) => "zookeeper, cron once a day",
            (false, false) => "embedded, one-off jobs",
            (true, true) => "zookeeper, +http scraped 1/s",
            (false, true) => "embedded, +http scraped 1/s",
        };
        progress(opts, &format!("density: {jobs} jobs, {label}"));
        let d = density_one(ctx, opts, jobs, on_zk, http).await?;
        if jobs == 1 {
            one_job_kb.insert((on_zk, http), d.anon_kb);
        }
        let per_job_kb = one_job_kb
            .get(&(on_zk, http))
            .filter(|_| jobs > 1)
            .map(|one| (d.anon_kb as f64 - *one as f64) / (jobs - 1) as f64);
        let label = format!("{label}, {jobs} jobs");
        let _ = writeln!(
            text,
            "  {label:<44} anonymous {:>6.1} MB ({} KB a job beyond one)  PSS {:>6.1} MB  RSS {:>6.1} MB (peak {:>6.1} MB)  CPU {:>5.2} %  threads {:>2}  start {:>6.2} s  settle {:>5.1} s  start-up CPU {:>5.2} s  stop {:>5.2} s",
            d.anon_kb as f64 / 1024.0,
            per_job_kb.map_or_else(|| "-".to_string(), |kb| format!("{kb:.1}")),
            d.pss_kb as f64 / 1024.0,
            d.rss_kb as f64 / 1024.0,
            d.hwm_kb as f64 / 1024.0,
            d.cpu_pct,
            d.threads,
            d.startup.as_secs_f64(),
            d.settle.as_secs_f64(),
            d.startup_cpu_s,
            d.stop.as_secs_f64()
        );
        let mut v = json!({
            "jobs": d.jobs, "anon_mb": r2(d.anon_kb as f64 / 1024.0), "pss_mb": r2(d.pss_kb as f64 / 1024.0),
            "rss_mb": r2(d.rss_kb as f64 / 1024.0), "peak_rss_mb": r2(d.hwm_kb as f64 / 1024.0),
            "cpu_pct_of_one_core": r2(d.cpu_pct), "threads": d.threads, "idle_window_s": opts.idle_secs,
            "startup_s": r2(d.startup.as_secs_f64()), "settle_s": r2(d.settle.as_secs_f64()), "stop_s": r2(d.stop.as_secs_f64()),
            "startup_cpu_s": r2(d.startup_cpu_s), "anon_kb_per_job_beyond_one": per_job_kb.map(r2),
        });
        if let Some(z) = d.zk {
            let per_s = z.per(opts.idle_secs as f64);
            let _ = writeln!(
                text,
                "  {:<28} idle ZooKeeper traffic per second: {:.2} packets received, {:.2} sent, {:.2} reads, {:.2} writes",
                "", per_s[0], per_s[1], per_s[2], per_s[3]
            );
            v["zk_per_second"] = delta_json(per_s);
            // Packets sent without requests or writes are watch notifications of deletions the
            // server makes itself: its periodic sweep (every 60 s) of empty container nodes, here
            // the leader-latch directories left after the elections.
            let sweep = z.writes == 0 && z.sent > 5 * z.received.max(1) + 10;
            if sweep {
                let _ = writeln!(
                    text,
                    "  {:<28} (the window caught ZooKeeper's sweep of empty container nodes, the jobs' leader-latch \
directories: {} notifications, no requests)",
                    "",
                    z.sent - z.received
                );
            }
            v["zk_container_sweep_in_window"] = json!(sweep);
        }
        let key = format!("{}{}_{jobs}", if on_zk { "zookeeper" } else { "embedded" }, if http { "_http" } else { "" });
        out.insert(key, v);
    }
    text.push('\n');
    Ok(Value::Object(out))
}

// ---------------------------------------------------------------------------------------------
// Section 3: resharding after an instance joins (and leaves)

#[derive(Debug)]
enum Note {
    Joined(String, Instant),
    Left(String, Instant),
    State { at: Instant, settled: bool, live: BTreeSet<String>, owners: BTreeSet<String> },
}

#[derive(Default)]
struct ShardState {
    live: BTreeSet<String>,
    owners: BTreeMap<u32, String>,
    necessary: bool,
}

impl ShardState {
    async fn load(&mut self, registry: &Registry, paths: &JobPaths, total: u32) -> Result<()> {
        self.live = registry.children(&paths.instances()).await?.unwrap_or_default().into_iter().collect();
        self.owners.clear();
        for i in 0..total {
            if let Some(n) = registry.get(&paths.item_leaf(i, ItemLeaf::Instance)).await? {
                self.owners.insert(i, n.text());
            }
        }
        self.necessary = registry.exists(&paths.sharding_necessary()).await?.is_some();
        Ok(())
    }

    fn note(&self, total: u32) -> Note {
        let settled = !self.necessary
            && !self.live.is_empty()
            && (0..total).all(|i| self.owners.get(&i).is_some_and(|o| self.live.contains(o)));
        Note::State {
            at: Instant::now(),
            settled,
            live: self.live.clone(),
            owners: self.owners.values().cloned().collect(),
        }
    }
}

/// Follows the job's subtree through a persistent recursive watch and reports joins, leaves and
/// the sharding state after every change.
async fn watch_sharding(
    registry: Registry,
    paths: JobPaths,
    total: u32,
    tx: mpsc::UnboundedSender<Note>,
) -> Result<()> {
    let mut watch = registry.watch_subtree(paths.root()).await?;
    let mut st = ShardState::default();
    st.load(&registry, &paths, total).await?;
    let _ = tx.send(st.note(total));
    while let Some(event) = watch.next().await {
        match event {
            WatchEvent::Resync => st.load(&registry, &paths, total).await?,
            WatchEvent::Created(p) | WatchEvent::Changed(p) => match path::parse(&p).map(|(_, node)| node) {
                Some(Node::Instance(id)) => {
                    if st.live.insert(id.clone()) {
                        let _ = tx.send(Note::Joined(id, Instant::now()));
                    }
                }
                Some(Node::ItemLeaf(i, ItemLeaf::Instance)) => {
                    if let Some(n) = registry.get(&p).await? {
                        st.owners.insert(i, n.text());
                    }
                }
                Some(Node::ShardingNecessary) => st.necessary = true,
                _ => continue,
            },
            WatchEvent::Deleted(p) => match path::parse(&p).map(|(_, node)| node) {
                Some(Node::Instance(id)) => {
                    st.live.remove(&id);
                    let _ = tx.send(Note::Left(id, Instant::now()));
                }
                Some(Node::ItemLeaf(i, ItemLeaf::Instance)) => {
                    st.owners.remove(&i);
                }
                Some(Node::ShardingNecessary) => st.necessary = false,
                _ => continue,
            },
        }
        let _ = tx.send(st.note(total));
    }
    Ok(())
}

async fn recv(rx: &mut mpsc::UnboundedReceiver<Note>, deadline: tokio::time::Instant, what: &str) -> Result<Note> {
    match tokio::time::timeout_at(deadline, rx.recv()).await {
        Ok(Some(note)) => Ok(note),
        Ok(None) => bail!("the watch stopped while waiting for {what}"),
        Err(_) => bail!("timed out waiting for {what}"),
    }
}

/// From the instance node of `id` appearing (or disappearing, `join = false`) to the sharding
/// being settled with (without) it.
async fn measure_change(rx: &mut mpsc::UnboundedReceiver<Note>, id: &str, join: bool) -> Result<Duration> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let what = format!("{} of {id} to be resharded", if join { "the join" } else { "the leave" });
    let mut seen: Option<Instant> = None;
    loop {
        match recv(rx, deadline, &what).await? {
            Note::Joined(i, at) if join && i == id => seen = Some(at),
            Note::Left(i, at) if !join && i == id => seen = Some(at),
            Note::State { at, settled, live, owners } => {
                if let Some(since) = seen
                    && settled
                    && live.contains(id) == join
                    && owners.contains(id) == join
                {
                    return Ok(at - since);
                }
            }
            _ => {}
        }
    }
}

async fn section_reshard(ctx: &Ctx, opts: &Opts, text: &mut String) -> Result<Value> {
    let shape = Shape { k: 1, ..opts.reshard_shape };
    let (dir, ns) = ctx.scratch("reshard")?;
    let script = write_record_script(&dir)?;
    let record = dir.join("runs.txt");
    let jobs = cron_jobs(shape, &script, &record, true, Some("* * * * * ?"));
    let paths = JobPaths::new("job0");

    let registry = Registry::connect(support::zk_options(&ctx.server.connect_string(), &ns)).await?;
    let (tx, mut rx) = mpsc::unbounded_channel();
    let watcher = tokio::spawn(watch_sharding(registry.clone(), paths, shape.t, tx));

    progress(
        opts,
        &format!("reshard: {} processes, job of {} items at a 1 s cron, {} rounds", shape.n, shape.t, opts.rounds),
    );
    let mut procs = ctx.start_workers(&dir, Some(&ns), shape.n, &jobs)?;
    let ids: BTreeSet<String> = procs.iter().map(Proc::instance_id).collect();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        if let Note::State { settled: true, live, owners, .. } = recv(&mut rx, deadline, "the first sharding").await?
            && live == ids
            && owners.len() == shape.owning_instances()
        {
            break;
        }
    }
    let mut joins = Vec::new();
    let mut leaves = Vec::new();
    let ip = format!("10.0.0.{}", shape.n + 1);
    let file = dir.join("joining.toml");
    std::fs::write(&file, ctx.job_file(Some(&ns), &ip, &jobs, None))?;
    for round in 0..opts.rounds {
        // Let a fire or two pass between rounds.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        while rx.try_recv().is_ok() {}
        let mut p = Proc::spawn(std::slice::from_ref(&file), dir.join(format!("joining-{round}.log")), &ip)?;
        let id = p.instance_id();
        let join = measure_change(&mut rx, &id, true).await.map_err(|e| anyhow!("{e}\n{}", p.log_tail()))?;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        while rx.try_recv().is_ok() {}
        p.terminate();
        let leave = measure_change(&mut rx, &id, false).await.map_err(|e| anyhow!("{e}\n{}", p.log_tail()))?;
        p.wait_exit(Duration::from_secs(60)).await?;
        progress(opts, &format!("reshard round {round}: join {:.1} ms, leave {:.1} ms", ms(join), ms(leave)));
        joins.push(ms(join));
        leaves.push(ms(leave));
    }
    stop_all(&mut procs).await?;
    watcher.abort();
    drop(registry);

    let stats = |v: &[f64]| {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        (percentile(&s, 50.0), percentile(&s, 100.0))
    };
    let (jp50, jmax) = stats(&joins);
    let (lp50, lmax) = stats(&leaves);
    let _ = writeln!(
        text,
        "Resharding (N={} processes + 1 joining, job of T={} items at a 1 s cron, {} rounds; instance node event -> settled, via a watch)",
        shape.n, shape.t, opts.rounds
    );
    let _ = writeln!(text, "  join                         p50 {jp50:>8.1} ms   max {jmax:>8.1} ms");
    let _ = writeln!(text, "  graceful leave               p50 {lp50:>8.1} ms   max {lmax:>8.1} ms\n");
    Ok(json!({
        "shape": shape.json(), "rounds": opts.rounds,
        "join_ms": {"p50": r2(jp50), "max": r2(jmax), "all": joins.iter().map(|v| r2(*v)).collect::<Vec<_>>()},
        "leave_ms": {"p50": r2(lp50), "max": r2(lmax), "all": leaves.iter().map(|v| r2(*v)).collect::<Vec<_>>()},
    }))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

// ---------------------------------------------------------------------------------------------

#[tokio::main]
async fn main() -> Result<()> {
    let opts = Opts::parse()?;
    let load_before = loadavg();
    progress(&opts, "starting ZooKeeper");
    let ctx = Ctx {
        server: zk::ZkServer::start(),
        dir: tempfile::Builder::new().prefix("ejctl-bench-runtime-").tempdir()?,
        seq: AtomicU32::new(0),
        clk_tck: clock_ticks(),
    };
    let mut text = String::new();
    let mut report = serde_json::Map::new();
    report.insert("bench".into(), json!("runtime"));
    report.insert("quick".into(), json!(opts.quick));
    let started = Instant::now();
    for section in Section::ALL {
        if !opts.sections.contains(&section) {
            continue;
        }
        let value = match section {
            Section::Lateness => section_lateness(&ctx, &opts, &mut text).await,
            Section::Zk => section_zk(&ctx, &opts, &mut text).await,
            Section::Density => section_density(&ctx, &opts, &mut text).await,
            Section::Reshard => section_reshard(&ctx, &opts, &mut text).await,
        }
        .with_context(|| format!("section {}", section.name()))?;
        report.insert(section.name().into(), value);
    }
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    let machine = json!({"cores": cores, "loadavg_before": load_before, "loadavg_after": loadavg(),
        "zookeeper": ctx.server.mntr().get("zk_version").cloned().unwrap_or_default(),
        "elapsed_s": r2(started.elapsed().as_secs_f64())});
    report.insert("machine".into(), machine);
    if opts.json {
        println!("{}", Value::Object(report));
    } else {
        println!(
            "ejctl run benchmark{} ({cores} cores, load average before {load_before}, after {})\n",
            if opts.quick { " --quick" } else { "" },
            loadavg()
        );
        print!("{text}");
    }
    Ok(())
}
