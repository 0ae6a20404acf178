//! The network-fault scenario: a 3-member ZooKeeper ensemble, four `ejctl run` workers and an
//! operator, each a host of its own (a network namespace, tests/support/netns.rs), run the chaos
//! job (tests/support/chaos.rs) while nemeses strike; then the chaos checker holds what ran to the
//! delivery guarantee (docs/src/design/guarantee.md) and the operators' commands to being obeyed.
//!
//! The nemeses, each bounded and undone at its end:
//!
//! * partitions (nftables drop rules inside a host): a worker from every member; a follower from
//!   the other members (its clients still reach it, and it has lost its leader); the leader from
//!   every host; a majority/minority split (one member and some workers on one side, two members,
//!   the other workers and the operator on the other);
//! * packet loss on a worker (`numgen random`), and delay with jitter on the links of the fourth
//!   worker, which reaches each member through a relay in its own namespace (tests/support/
//!   proxy.rs): each relay holds every chunk for its own base delay plus or minus a jitter, in
//!   order (a relay cannot reorder bytes within a TCP stream; what it can do is delay one
//!   connection more than another);
//! * a worker frozen with all its children (SIGSTOP, a paused machine) longer than the session
//!   timeout;
//! * a worker killed with SIGKILL (its scripts get SIGKILL too, `PR_SET_PDEATHSIG`) and started
//!   again on its host, under a new instance id;
//! * a member killed with SIGKILL (the leader, or a follower) and restarted;
//! * the third worker's wall clock stepped forward or back, within and beyond the job's
//!   `max_time_diff_seconds` (2): the worker runs with libfaketime preloaded, its offset read
//!   from a file the harness rewrites (at most a second later: libfaketime caches it), its
//!   monotonic clock left alone, as a real clock step does;
//! * an operator on a host of its own runs `ejctl job disable` and `enable`, `ejctl job trigger
//!   --wait` and `ejctl config set shardingTotalCount=...` during the faults.
//!
//! Nemeses come in rounds: one nemesis of the ensemble with worker nemeses on other workers and
//! an operator's command overlapping it, then a quiet gap once the ensemble has a leader again.
//! [`NetConfig::ci`] plays a fixed schedule with every kind once; with `seconds` set, rounds are
//! drawn at random from the seed until the time is up.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::chaos::{self, Admin, AdminAction, ChaosConfig, Fault, FaultKind, ITEMS, Outcome, Slot, Summary, now_ms};
use super::netns::{Host, Net};
use super::proxy::Proxy;
use super::zk::{Member, Placement, ZkEnsemble};
use super::{Rng, read_records, signal, wait_exit, write_script};

/// The job's `max_time_diff_seconds`: the clock nemesis steps within it and beyond it.
pub const MAX_TIME_DIFF_S: i64 = 2;

/// The worker whose clock jumps (w3) and the worker behind relays (w4).
const CLOCK_WORKER: usize = 2;
const RELAYED_WORKER: usize = 3;

/// How a network-fault run is set up.
#[derive(Debug, Clone)]
pub struct NetConfig {
    /// The seed of the choices (which member, which worker, and the random schedule).
    pub seed: u64,
    /// 0: the fixed schedule (every kind once); otherwise random rounds for this long.
    pub seconds: u64,
}

impl NetConfig {
    /// The CI configuration: the fixed schedule, seed 7.
    pub fn ci() -> NetConfig {
        NetConfig { seed: 7, seconds: 0 }
    }
}

/// One nemesis and what it acts on.
#[derive(Debug, Clone)]
enum Nemesis {
    /// A worker partitioned from every member.
    Cut(usize),
    /// A worker frozen with its children.
    Freeze(usize),
    /// A worker killed (SIGKILL), started again at the end.
    Kill(usize),
    /// A worker losing this many packets in a hundred, each way.
    Loss(usize, u32),
    /// The relayed worker's links delayed: base and jitter in ms, per member's relay.
    Slow(Vec<(u64, u64)>),
    /// A follower partitioned from the other members.
    IsolateFollower,
    /// The leader partitioned from every host.
    IsolateLeader,
    /// The leader killed (SIGKILL), restarted at the end.
    KillLeader,
    /// A follower killed (SIGKILL), restarted at the end.
    KillFollower,
    /// This member and these workers cut off from every other host.
    Split(usize, Vec<usize>),
    /// The clock worker's wall clock off by this many seconds.
    Clock(i64),
}

impl Nemesis {
    fn kind(&self) -> FaultKind {
        match self {
            Nemesis::Cut(_) => FaultKind::CutWorker,
            Nemesis::Freeze(_) => FaultKind::FreezeWorker,
            Nemesis::Kill(_) => FaultKind::KillWorker,
            Nemesis::Loss(..) => FaultKind::LossyWorker,
            Nemesis::Slow(_) => FaultKind::SlowWorker,
            Nemesis::IsolateFollower => FaultKind::IsolateZkMember,
            Nemesis::IsolateLeader => FaultKind::IsolateZkLeader,
            Nemesis::KillLeader => FaultKind::KillZkLeader,
            Nemesis::KillFollower => FaultKind::KillZkFollower,
            Nemesis::Split(..) => FaultKind::SplitZk,
            Nemesis::Clock(_) => FaultKind::JumpClock,
        }
    }

    /// The worker it strikes, if one.
    fn worker(&self) -> Option<usize> {
        match self {
            Nemesis::Cut(w) | Nemesis::Freeze(w) | Nemesis::Kill(w) | Nemesis::Loss(w, _) => Some(*w),
            Nemesis::Slow(_) => Some(RELAYED_WORKER),
            Nemesis::Clock(_) => Some(CLOCK_WORKER),
            _ => None,
        }
    }
}

/// A nemesis of a round: it starts `at` ms into the round and lasts `ms`.
struct Planned {
    at: u64,
    ms: u64,
    nemesis: Nemesis,
}

/// An operator's command of a round, `at` ms into it, or `at` ms after the previous command
/// returned (`after_previous`: an enable some time after the disable took effect).
struct PlannedAdmin {
    at: u64,
    action: AdminAction,
    after_previous: bool,
}

#[derive(Default)]
struct Round {
    nemeses: Vec<Planned>,
    admin: Vec<PlannedAdmin>,
}

/// How to undo a nemesis.
enum Undo {
    /// Delete the fault tables of these hosts.
    Heal(Vec<Host>),
    /// Resume a frozen worker, then its children.
    Thaw(u32, Vec<u32>),
    /// Start a killed member again.
    Respawn(usize),
    /// Start a killed worker again.
    Restart(usize),
    /// Take the relays' delay off.
    Undelay,
    /// Set the clock worker's offset back to 0 from this many seconds.
    Unskew(i64),
}

/// What a network-fault run produced.
pub struct NetRun {
    pub outcome: Outcome,
    pub summary: Summary,
    /// The nemeses and commands with their times, one per line.
    pub schedule: String,
    /// Per nemesis kind: the longest time from a heal until every item had started a run again.
    pub recovery: BTreeMap<String, i64>,
    /// What the workers' logs show the nemeses did, per worker (see [`BITES`]).
    pub bites: String,
    /// Each host's last log lines (filled on a violation).
    pub logs: String,
}

/// What a worker logs when a nemesis bites, and what the count is called: its runs killed by
/// fencing, the registry silent, a new session (the old one expired), an orphaned item claimed,
/// a fire refused for its clock, a resharding it led.
const BITES: [(&str, &str); 6] = [
    ("fenced", "killing running items"),
    ("silent", "registry not answering"),
    ("new_session", "re-registered with a new registry session"),
    ("claimed", "claimed an orphaned item"),
    ("clock_refused", "fire refused: time different"),
    ("resharded", "resharded"),
];

/// For each slow-link nemesis: the median time from a fire to the start of its run on the slowed
/// worker during the nemesis, and over the whole run (each run's start stamps go through the
/// delayed links).
fn slowdown(outcome: &Outcome) -> String {
    let starts = read_records(&outcome.dir.path().join("runs.txt.starts"));
    let median = |mut v: Vec<i64>| {
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(0)
    };
    let mut out = String::new();
    for f in outcome.faults.iter().filter(|f| f.kind == FaultKind::SlowWorker) {
        let mine: Vec<(i64, i64)> =
            starts.iter().filter(|s| Some(&s.2) == f.instance.as_ref()).map(|s| (s.0, s.3)).collect();
        let during: Vec<i64> =
            mine.iter().filter(|(_, st)| *st >= f.start && *st <= f.end).map(|(fi, st)| st - fi).collect();
        let n = during.len();
        let all: Vec<i64> = mine.iter().map(|(fi, st)| st - fi).collect();
        writeln!(
            out,
            "  slow links from {} ms: {n} runs started a median {} ms after their fire (over the whole run: {} ms)",
            f.start - outcome.started,
            median(during),
            median(all)
        )
        .unwrap();
    }
    out
}

/// Counts [`BITES`] in each worker's log.
fn bites(hosts: &[Host], slots: &[Slot]) -> String {
    let mut out = String::new();
    for (h, s) in hosts.iter().zip(slots) {
        let log = std::fs::read_to_string(&s.log).unwrap_or_default();
        let counts: Vec<String> =
            BITES.iter().map(|(name, needle)| format!("{name}={}", log.matches(needle).count())).collect();
        writeln!(out, "  {}: {}", h.label, counts.join(" ")).unwrap();
    }
    out
}

/// The hosts, the ensemble, the workers and what happened so far.
struct World {
    net: Net,
    ensemble: ZkEnsemble,
    zk_hosts: Vec<Host>,
    worker_hosts: Vec<Host>,
    admin_host: Host,
    slots: Vec<Slot>,
    relays: Vec<Proxy>,
    clock_file: PathBuf,
    servers: String,
    dir: PathBuf,
    started: i64,
    faults: Vec<Fault>,
    admin: Vec<Admin>,
    schedule: String,
    rng: Rng,
}

/// libfaketime's library, or a failure naming the package.
fn libfaketime() -> PathBuf {
    let arch = std::env::consts::ARCH;
    let lib = PathBuf::from(format!("/usr/lib/{arch}-linux-gnu/faketime/libfaketimeMT.so.1"));
    assert!(
        lib.exists(),
        "the clock nemesis needs libfaketime: {} is missing (apt-get install -y --no-install-recommends faketime; \
         the test command .ci/test installs it)",
        lib.display()
    );
    lib
}

/// Watches the script processes recorded in `starts` and notes when each was first seen gone,
/// until `stop` is set: the checker ends a killed run there.
fn watch_exits(starts: PathBuf, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<HashMap<u32, i64>> {
    std::thread::spawn(move || {
        let mut exits = HashMap::new();
        let mut seen: HashSet<u32> = HashSet::new();
        while !stop.load(Ordering::SeqCst) {
            for record in read_records(&starts) {
                if let Ok(pid) = u32::try_from(record.4) {
                    seen.insert(pid);
                }
            }
            let now = now_ms();
            for &pid in &seen {
                if !exits.contains_key(&pid) && !Path::new(&format!("/proc/{pid}")).exists() {
                    exits.insert(pid, now);
                }
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        exits
    })
}

/// The last `n` lines of a log file, Java stack frames left out.
fn tail(path: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('\t')).collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Runs `ejctl` with `action` from the operator's host; waits at most 40 s. Returns how it ended
/// and the last line it printed.
///
/// With the default connect timeout (5 s), which the client shares among the servers it tries: a
/// member that drops every packet, tried first, must not use it up while two others answer.
fn command(host: &Host, servers: &str, action: AdminAction, log: &Path) -> (Admin, String) {
    let total;
    let args: Vec<&str> = match action {
        AdminAction::Disable => vec!["job", "disable", "chaos"],
        AdminAction::Enable => vec!["job", "enable", "chaos"],
        AdminAction::TriggerWait => vec!["job", "trigger", "chaos", "--wait", "--timeout", "8s"],
        AdminAction::SetTotal(n) => {
            total = format!("shardingTotalCount={n}");
            vec!["config", "set", "chaos", &total, "--yes"]
        }
    };
    let out = tempfile::tempfile().unwrap();
    let start = now_ms();
    let mut child = host
        .command(env!("CARGO_BIN_EXE_ejctl"))
        .args(["--zk", servers, "--namespace", "chaos"])
        .args(&args)
        .env_remove("EJCTL_CONTEXT")
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(out.try_clone().unwrap())
        .spawn()
        .unwrap();
    let code = wait_exit(&mut child, Duration::from_secs(40));
    let end = now_ms();
    let mut text = String::new();
    let mut out = out;
    std::io::Seek::rewind(&mut out).unwrap();
    std::io::Read::read_to_string(&mut out, &mut text).unwrap();
    let mut log = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
    std::io::Write::write_all(&mut log, format!("$ ejctl {} -> {code:?}\n{text}", args.join(" ")).as_bytes()).unwrap();
    let last = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim().to_string();
    (Admin { action, start, end, code }, last)
}

/// Runs an operator's commands at their times (ms after `t0`); a command that changes something
/// and fails is repeated until it succeeds (at most 5 times), as an operator would, so the job
/// does not stay disabled or resized past the round.
fn operate(host: Host, servers: String, log: PathBuf, t0: Instant, plan: Vec<PlannedAdmin>) -> Vec<(Admin, String)> {
    let mut done: Vec<(Admin, String)> = Vec::new();
    let mut previous = t0;
    for p in plan {
        let at = if p.after_previous { previous } else { t0 } + Duration::from_millis(p.at);
        std::thread::sleep(at.saturating_duration_since(Instant::now()));
        let must_succeed = p.action != AdminAction::TriggerWait;
        for _ in 0..5 {
            let (a, last) = command(&host, &servers, p.action, &log);
            let ok = a.code == Some(0);
            done.push((a, last));
            if ok || !must_succeed {
                break;
            }
            std::thread::sleep(Duration::from_secs(1));
        }
        previous = Instant::now();
    }
    done
}

impl World {
    fn start(seed: u64, chaos: &ChaosConfig, dir: &Path) -> World {
        let net = Net::create(&["z1", "z2", "z3", "w1", "w2", "w3", "w4", "a1"]);
        let zk_hosts: Vec<Host> = net.hosts[..3].to_vec();
        let worker_hosts: Vec<Host> = net.hosts[3..7].to_vec();
        let admin_host = net.hosts[7].clone();
        let lib = libfaketime();
        let script = dir.join("chaos.sh");
        write_script(&script, chaos::CHAOS_SCRIPT);
        let record = dir.join("runs.txt");
        let places: Vec<Placement> = zk_hosts
            .iter()
            .map(|h| Placement { ip: h.ip, ports: [2181, 2888, 3888], netns: Some(h.netns.clone()) })
            .collect();
        let ensemble = ZkEnsemble::start_at(&places, 256);
        let servers = ensemble.connect_string();
        let relays: Vec<Proxy> = ensemble
            .members
            .iter()
            .map(|m| Proxy::start_in(&worker_hosts[RELAYED_WORKER].netns, (m.ip, m.client_port).into()))
            .collect();
        let relayed: Vec<String> = relays.iter().map(Proxy::addr).collect();
        let clock_file = dir.join("clock.rc");
        std::fs::write(&clock_file, "+0\n").unwrap();
        let slots: Vec<Slot> = worker_hosts
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let file = dir.join(format!("{}.toml", h.label));
                // The relayed worker reaches the members through its relays, so its address is
                // set: it would detect it all the same (its default route), but its connections
                // come from its loopback.
                let (servers, ip) = if i == RELAYED_WORKER {
                    (relayed.join(","), Some(h.ip.to_string()))
                } else {
                    (servers.clone(), None)
                };
                let job = chaos::job_file(&servers, ip.as_deref(), chaos, &script, &record);
                std::fs::write(&file, format!("{job}max_time_diff_seconds = {MAX_TIME_DIFF_S}\n")).unwrap();
                let env = if i == CLOCK_WORKER {
                    vec![
                        ("LD_PRELOAD".to_string(), lib.display().to_string()),
                        ("FAKETIME_TIMESTAMP_FILE".to_string(), clock_file.display().to_string()),
                        ("FAKETIME_CACHE_DURATION".to_string(), "1".to_string()),
                        ("FAKETIME_DONT_FAKE_MONOTONIC".to_string(), "1".to_string()),
                    ]
                } else {
                    Vec::new()
                };
                let log = dir.join(format!("{}.log", h.label));
                Slot {
                    ip: h.ip.to_string(),
                    file,
                    log,
                    proxies: Vec::new(),
                    netns: Some(h.netns.clone()),
                    env,
                    child: None,
                }
            })
            .collect();
        World {
            net,
            ensemble,
            zk_hosts,
            worker_hosts,
            admin_host,
            slots,
            relays,
            clock_file,
            servers,
            dir: dir.to_path_buf(),
            started: 0,
            faults: Vec::new(),
            admin: Vec::new(),
            schedule: String::new(),
            rng: Rng::new(seed),
        }
    }

    /// Waits (at most 60 s) until every member serves and one of them leads: a member
    /// partitioned or killed rejoins some seconds after the heal, and the next nemesis picks
    /// its member by role.
    fn wait_for_quorum(&self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let modes: Vec<String> = self.ensemble.members.iter().map(Member::mode).collect();
            let leaders = modes.iter().filter(|m| *m == "leader").count();
            if leaders == 1 && modes.iter().all(|m| m == "leader" || m == "follower") {
                return;
            }
            assert!(Instant::now() < deadline, "the ensemble did not recover within 60 s: {modes:?}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The index of a member in `mode`, at random among several.
    fn member(&mut self, mode: &str) -> usize {
        let found: Vec<usize> = (0..3).filter(|&m| self.ensemble.members[m].mode() == mode).collect();
        assert!(!found.is_empty(), "no {mode} among the members");
        found[usize::try_from(self.rng.below(found.len() as u64)).unwrap()]
    }

    /// Starts a nemesis; returns what it did and how to undo it.
    fn begin(&mut self, nemesis: &Nemesis) -> (String, Undo) {
        match nemesis {
            Nemesis::Cut(w) => {
                let members: Vec<&Host> = self.zk_hosts.iter().collect();
                self.net.partition(&self.worker_hosts[*w], &members);
                (
                    format!("{} partitioned from every member", self.worker_hosts[*w].label),
                    Undo::Heal(vec![self.worker_hosts[*w].clone()]),
                )
            }
            Nemesis::Freeze(w) => {
                let pid = self.slots[*w].pid();
                // A machine frozen with a run going on: wait (at most 2 s) for a script.
                let deadline = Instant::now() + Duration::from_secs(2);
                while chaos::descendants(pid).is_empty() && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(10));
                }
                let children = chaos::freeze(pid);
                (
                    format!("{} frozen with {} children", self.worker_hosts[*w].label, children.len()),
                    Undo::Thaw(pid, children),
                )
            }
            Nemesis::Kill(w) => {
                let runs = self.slots[*w].child.as_ref().map_or(0, |c| chaos::descendants(c.id()).len());
                if let Some(mut child) = self.slots[*w].child.take() {
                    let _ = child.kill();
                    let _ = child.wait();
                }
                (
                    format!("{} killed (SIGKILL) with {runs} scripts running", self.worker_hosts[*w].label),
                    Undo::Restart(*w),
                )
            }
            Nemesis::Loss(w, percent) => {
                self.net.loss(&self.worker_hosts[*w], *percent);
                (
                    format!("{} loses {percent} % of its packets", self.worker_hosts[*w].label),
                    Undo::Heal(vec![self.worker_hosts[*w].clone()]),
                )
            }
            Nemesis::Slow(delays) => {
                for (relay, (base, jitter)) in self.relays.iter().zip(delays) {
                    relay.delay(Duration::from_millis(*base), Duration::from_millis(*jitter));
                }
                let what: Vec<String> = delays.iter().map(|(b, j)| format!("{b}±{j} ms")).collect();
                (
                    format!(
                        "{} links delayed per member: {}",
                        self.worker_hosts[RELAYED_WORKER].label,
                        what.join(", ")
                    ),
                    Undo::Undelay,
                )
            }
            Nemesis::IsolateFollower => {
                let m = self.member("follower");
                let others: Vec<&Host> = (0..3).filter(|&o| o != m).map(|o| &self.zk_hosts[o]).collect();
                self.net.partition(&self.zk_hosts[m], &others);
                (
                    format!("follower {} partitioned from the other members", self.zk_hosts[m].label),
                    Undo::Heal(vec![self.zk_hosts[m].clone()]),
                )
            }
            Nemesis::IsolateLeader => {
                let m = self.member("leader");
                let everyone: Vec<Host> =
                    self.net.hosts.iter().filter(|h| h.netns != self.zk_hosts[m].netns).cloned().collect();
                self.net.partition(&self.zk_hosts[m], &everyone.iter().collect::<Vec<&Host>>());
                (
                    format!("leader {} partitioned from every host", self.zk_hosts[m].label),
                    Undo::Heal(vec![self.zk_hosts[m].clone()]),
                )
            }
            Nemesis::KillLeader | Nemesis::KillFollower => {
                let mode = if matches!(nemesis, Nemesis::KillLeader) { "leader" } else { "follower" };
                let m = self.member(mode);
                self.ensemble.members[m].kill();
                (format!("{mode} {} killed (SIGKILL)", self.zk_hosts[m].label), Undo::Respawn(m))
            }
            Nemesis::Split(m, workers) => {
                let mut minority: Vec<Host> = vec![self.zk_hosts[*m].clone()];
                minority.extend(workers.iter().map(|&w| self.worker_hosts[w].clone()));
                let majority: Vec<Host> =
                    self.net.hosts.iter().filter(|h| !minority.iter().any(|x| x.netns == h.netns)).cloned().collect();
                for h in &minority {
                    self.net.partition(h, &majority.iter().collect::<Vec<&Host>>());
                }
                let names: Vec<&str> = minority.iter().map(|h| h.label.as_str()).collect();
                let others: Vec<&str> = majority.iter().map(|h| h.label.as_str()).collect();
                (format!("split: {} | {}", names.join(" "), others.join(" ")), Undo::Heal(minority))
            }
            Nemesis::Clock(offset) => {
                std::fs::write(&self.clock_file, format!("{offset:+}\n")).unwrap();
                (format!("{} clock {offset:+} s", self.worker_hosts[CLOCK_WORKER].label), Undo::Unskew(*offset))
            }
        }
    }

    /// Undoes a nemesis; returns when it is over (epoch ms): a clock set back stalls the
    /// worker's clock until the real one has caught up.
    fn undo(&mut self, undo: Undo) -> i64 {
        match undo {
            Undo::Heal(hosts) => {
                for h in &hosts {
                    self.net.heal_host(h);
                }
            }
            Undo::Thaw(pid, children) => chaos::thaw(pid, &children),
            Undo::Respawn(m) => self.ensemble.spawn_member(m),
            Undo::Restart(w) => self.slots[w].spawn(),
            Undo::Undelay => {
                for relay in &self.relays {
                    relay.delay(Duration::ZERO, Duration::ZERO);
                }
            }
            Undo::Unskew(offset) => {
                std::fs::write(&self.clock_file, "+0\n").unwrap();
                // libfaketime reads the file again within a second; a clock that was ahead then
                // holds still (ejctl never lets it run back) until the real time catches up.
                return now_ms() + 1000 + offset.max(0) * 1000;
            }
        }
        now_ms()
    }

    /// Plays a round: its nemeses at their times, its operator's commands on a thread of their
    /// own; returns once everything is undone and the commands have returned.
    fn play(&mut self, round: Round) {
        let t0 = Instant::now();
        let operator = {
            let (host, servers, log) = (self.admin_host.clone(), self.servers.clone(), self.dir.join("a1.log"));
            std::thread::spawn(move || operate(host, servers, log, t0, round.admin))
        };
        let mut pending = round.nemeses;
        pending.sort_by_key(|p| p.at);
        let mut pending = pending.into_iter().peekable();
        let mut active: Vec<(u64, usize, Undo)> = Vec::new();
        loop {
            let now = u64::try_from(t0.elapsed().as_millis()).unwrap();
            while let Some(p) = pending.next_if(|p| p.at <= now) {
                let worker = p.nemesis.worker();
                let instance = worker.map(|w| self.slots[w].instance());
                let (what, undo) = self.begin(&p.nemesis);
                // Once it is in force: a freeze waits (up to 2 s) for a script to be running, and
                // a run that began meanwhile was frozen mid-run, not before it started.
                let start = now_ms();
                let kind = p.nemesis.kind();
                self.faults.push(Fault { kind, worker, instance, start, end: start });
                writeln!(self.schedule, "  {:>6} ms  {kind:?}: {what} for {} ms", start - self.started, p.ms).unwrap();
                active.push((p.at + p.ms, self.faults.len() - 1, undo));
            }
            let now = u64::try_from(t0.elapsed().as_millis()).unwrap();
            while let Some(k) = active.iter().position(|a| a.0 <= now) {
                let (_, fault, undo) = active.remove(k);
                self.faults[fault].end = self.undo(undo);
            }
            if active.is_empty() && pending.peek().is_none() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        for (a, last) in operator.join().unwrap() {
            writeln!(
                self.schedule,
                "  {:>6} ms  {:?}: exit {:?} after {} ms: {last}",
                a.start - self.started,
                a.action,
                a.code,
                a.end - a.start
            )
            .unwrap();
            self.admin.push(a);
        }
    }
}

/// The fixed schedule: five rounds, every nemesis kind and every operator's command once.
fn ci_rounds(rng: &mut Rng) -> Vec<Round> {
    let minority_member = usize::try_from(rng.below(3)).unwrap();
    let nemesis = |at: u64, ms: u64, nemesis: Nemesis| Planned { at, ms, nemesis };
    let admin = |at: u64, action: AdminAction| PlannedAdmin { at, action, after_previous: false };
    vec![
        // A follower loses its leader while a worker is frozen and another is killed.
        Round {
            nemeses: vec![
                nemesis(0, 9000, Nemesis::IsolateFollower),
                nemesis(0, 6000, Nemesis::Freeze(1)),
                nemesis(1000, 4000, Nemesis::Kill(RELAYED_WORKER)),
            ],
            admin: Vec::new(),
        },
        // The leader is cut off from everyone while a worker loses packets and the operator
        // disables the job for 4 s.
        Round {
            nemeses: vec![nemesis(0, 9000, Nemesis::IsolateLeader), nemesis(0, 8000, Nemesis::Loss(0, 30))],
            admin: vec![
                admin(1000, AdminAction::Disable),
                PlannedAdmin { at: 4000, action: AdminAction::Enable, after_previous: true },
            ],
        },
        // A follower is killed while a worker is partitioned from every member and another's
        // clock goes back, within the limit and beyond it; the operator triggers and waits.
        Round {
            nemeses: vec![
                nemesis(0, 4000, Nemesis::KillFollower),
                nemesis(0, 6000, Nemesis::Cut(0)),
                nemesis(0, 3000, Nemesis::Clock(-1)),
                nemesis(4000, 3000, Nemesis::Clock(-3)),
            ],
            admin: vec![admin(1000, AdminAction::TriggerWait)],
        },
        // The leader is killed while the clock goes forward, within the limit and beyond it, and
        // the relayed worker's links are slow; the operator raises the total. (Not with the
        // freeze: a slow worker that claims the frozen worker's orphaned run after its new owner
        // has run the item already runs it once more, a repeat the checker reports.)
        Round {
            nemeses: vec![
                nemesis(0, 4000, Nemesis::KillLeader),
                nemesis(0, 9000, Nemesis::Slow(vec![(150, 100), (80, 60), (40, 30)])),
                nemesis(0, 3000, Nemesis::Clock(1)),
                nemesis(4000, 3000, Nemesis::Clock(3)),
            ],
            admin: vec![admin(1000, AdminAction::SetTotal(ITEMS + 2))],
        },
        // One member and two workers split from the rest; the operator, on the majority side,
        // lowers the total again.
        Round {
            nemeses: vec![nemesis(0, 9000, Nemesis::Split(minority_member, vec![0, 1]))],
            admin: vec![admin(1000, AdminAction::SetTotal(ITEMS))],
        },
    ]
}

/// A random round: an ensemble nemesis (or none), nemeses on some workers, perhaps a command.
fn random_round(rng: &mut Rng, raised: &mut bool) -> Round {
    let mut round = Round::default();
    let mut pick = |n: u64| rng.below(n);
    let mut split_workers: Vec<usize> = Vec::new();
    if pick(10) < 7 {
        let ms = 5000 + pick(9000);
        let nemesis = match pick(5) {
            0 => Nemesis::IsolateFollower,
            1 => Nemesis::IsolateLeader,
            2 => Nemesis::KillLeader,
            3 => Nemesis::KillFollower,
            _ => {
                let member = usize::try_from(pick(3)).unwrap();
                split_workers = (0..4).filter(|_| pick(2) == 0).collect();
                split_workers.truncate(2);
                Nemesis::Split(member, split_workers.clone())
            }
        };
        round.nemeses.push(Planned { at: 0, ms, nemesis });
    }
    for w in 0..4 {
        if pick(100) >= 40 {
            continue;
        }
        let at = pick(3000);
        // Partitions and loss are rules in the worker's own namespace: not on a split's worker.
        let nft_free = !split_workers.contains(&w);
        let nemesis = match (w, pick(4)) {
            (CLOCK_WORKER, 0) => {
                let offset = i64::try_from(pick(9)).unwrap() - 4;
                Nemesis::Clock(if offset == 0 { 3 } else { offset })
            }
            (RELAYED_WORKER, 0) => Nemesis::Slow((0..3).map(|_| (50 + pick(700), pick(400))).collect()),
            (_, 1) if nft_free => Nemesis::Cut(w),
            (_, 2) if nft_free => Nemesis::Loss(w, 10 + u32::try_from(pick(31)).unwrap()),
            (_, 3) => Nemesis::Kill(w),
            _ => Nemesis::Freeze(w),
        };
        let ms = match nemesis {
            Nemesis::Cut(_) | Nemesis::Freeze(_) => 5000 + pick(3000),
            Nemesis::Kill(_) => 1000 + pick(5000),
            Nemesis::Clock(_) => 2000 + pick(3000),
            _ => 5000 + pick(7000),
        };
        round.nemeses.push(Planned { at, ms, nemesis });
    }
    if pick(10) < 4 {
        let at = 500 + pick(3000);
        match pick(3) {
            0 => {
                round.admin.push(PlannedAdmin { at, action: AdminAction::Disable, after_previous: false });
                let after = 2000 + pick(4000);
                round.admin.push(PlannedAdmin { at: after, action: AdminAction::Enable, after_previous: true });
            }
            1 => round.admin.push(PlannedAdmin { at, action: AdminAction::TriggerWait, after_previous: false }),
            _ => {
                let total = if *raised { ITEMS } else { ITEMS + 2 };
                *raised = !*raised;
                round.admin.push(PlannedAdmin { at, action: AdminAction::SetTotal(total), after_previous: false });
            }
        }
    }
    round
}

/// Per nemesis kind, the longest time from a heal to every item having started a run again
/// (items of the job's base total; the checked fires' runs).
fn recovery(outcome: &Outcome) -> BTreeMap<String, i64> {
    let starts = read_records(&outcome.dir.path().join("runs.txt.starts"));
    let mut by_item: BTreeMap<u32, Vec<i64>> = BTreeMap::new();
    for s in &starts {
        by_item.entry(s.1).or_default().push(s.3);
    }
    let mut out: BTreeMap<String, i64> = BTreeMap::new();
    for f in &outcome.faults {
        let back = (0..ITEMS)
            .map(|item| {
                let next = by_item.get(&item).and_then(|l| l.iter().filter(|&&s| s >= f.end).min().copied());
                next.map_or(outcome.ended - f.end, |s| s - f.end)
            })
            .max()
            .unwrap_or(0);
        let slot = out.entry(format!("{:?}", f.kind)).or_insert(0);
        *slot = (*slot).max(back);
    }
    out
}

/// Runs the scenario and checks it.
pub fn run(config: &NetConfig) -> NetRun {
    let chaos = ChaosConfig {
        seconds: config.seconds,
        seed: config.seed,
        session_timeout_ms: 4000,
        kill_grace_s: 1,
        every_kind_once: config.seconds == 0,
    };
    let t_ms = chaos.session_timeout_ms;
    let dir = tempfile::Builder::new().prefix("ejctl-netns-").tempdir().unwrap();
    let mut world = World::start(config.seed, &chaos, dir.path());
    for s in &mut world.slots {
        s.spawn();
        std::thread::sleep(Duration::from_millis(300));
    }
    let record = dir.path().join("runs.txt");
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = watch_exits(record.with_extension("txt.starts"), Arc::clone(&stop));
    world.started = chaos::settled(&record, now_ms() + 2000, &dir);
    // Each worker detected (or was given) its host's address: the instance ids are the hosts'.
    let instances: HashSet<String> = read_records(&record).into_iter().map(|r| r.2).collect();
    for s in &world.slots {
        assert!(instances.contains(&s.instance()), "no run on {} in {instances:?}", s.instance());
    }
    std::thread::sleep(Duration::from_secs(2));

    let mut rng = Rng::new(config.seed.wrapping_add(1));
    let deadline = Instant::now() + Duration::from_secs(config.seconds);
    let mut fixed = if config.seconds == 0 { ci_rounds(&mut rng) } else { Vec::new() }.into_iter();
    let mut raised = false;
    loop {
        let round = if config.seconds == 0 {
            match fixed.next() {
                Some(round) => round,
                None => break,
            }
        } else if Instant::now() < deadline {
            random_round(&mut rng, &mut raised)
        } else {
            break;
        };
        world.wait_for_quorum();
        world.play(round);
        world.wait_for_quorum();
        let leader = world.ensemble.members.iter().position(|m| m.mode() == "leader").unwrap();
        let now = now_ms() - world.started;
        writeln!(world.schedule, "  {now:>6} ms  the ensemble serves again, {} leads", world.zk_hosts[leader].label)
            .unwrap();
        // A quiet gap: the cluster settles before the next round.
        let gap = if config.seconds == 0 { t_ms + 2000 } else { t_ms + 2000 + rng.below(4000) };
        std::thread::sleep(Duration::from_millis(gap));
    }
    // Liveness of the operators' commands once the faults healed: the total back to the job's
    // (if a random round left it raised), then a `trigger --wait` that must get every result.
    let mut last = Vec::new();
    if raised {
        last.push(PlannedAdmin { at: 0, action: AdminAction::SetTotal(ITEMS), after_previous: false });
        last.push(PlannedAdmin { at: t_ms + 2000, action: AdminAction::TriggerWait, after_previous: true });
    } else {
        last.push(PlannedAdmin { at: 0, action: AdminAction::TriggerWait, after_previous: false });
    }
    world.play(Round { nemeses: Vec::new(), admin: last });
    // Liveness after the last heal: the checker holds every fire up to the session timeout and
    // 3 s before the end to the guarantee.
    std::thread::sleep(Duration::from_millis(t_ms + 4000));
    let ended = now_ms();
    for s in &mut world.slots {
        if let Some(mut c) = s.child.take() {
            signal(c.id(), "TERM");
            let _ = wait_exit(&mut c, Duration::from_secs(15));
        }
    }
    stop.store(true, Ordering::SeqCst);
    let exits = watcher.join().unwrap();
    let (faults, admin, schedule, started) = (
        std::mem::take(&mut world.faults),
        std::mem::take(&mut world.admin),
        std::mem::take(&mut world.schedule),
        world.started,
    );
    let outcome = Outcome { dir, faults, started, ended, config: chaos, exits, admin };
    let summary = chaos::check(&outcome);
    let recovery = recovery(&outcome);
    let bites = bites(&world.worker_hosts, &world.slots) + &slowdown(&outcome);
    let mut logs = String::new();
    if !summary.violations.is_empty() {
        for (h, s) in world.worker_hosts.iter().zip(&world.slots) {
            writeln!(logs, "--- {} ({}) {}\n{}", h.label, h.ip, s.log.display(), tail(&s.log, 15)).unwrap();
        }
        for (h, m) in world.zk_hosts.iter().zip(&world.ensemble.members) {
            // The ensemble's directory goes with it: its logs are kept with the records.
            let kept_log = outcome.dir.path().join(format!("{}.log", h.label));
            let _ = std::fs::copy(m.log(), &kept_log);
            writeln!(logs, "--- {} ({}) {}\n{}", h.label, h.ip, kept_log.display(), tail(&kept_log, 15)).unwrap();
        }
        let admin_log = outcome.dir.path().join("a1.log");
        writeln!(logs, "--- a1 (operator) {}\n{}", admin_log.display(), tail(&admin_log, 15)).unwrap();
    }
    NetRun { outcome, summary, schedule, recovery, bites, logs }
}
