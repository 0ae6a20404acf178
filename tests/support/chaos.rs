//! The chaos harness and the delivery-guarantee checker of docs/src/design/guarantee.md.
//!
//! Four `ejctl run` workers on a 3-member ZooKeeper ensemble, each reaching every member through
//! its own TCP proxy, run one job: 8 items on a 1-second cron with failover and misfire on. The
//! job's script records `fire item instance start` when it starts and `... end` when it ends, and
//! sleeps 0–1.4 s (a deterministic function of the fire and the item). Meanwhile the harness
//! injects faults, one at a time with quiet periods between them: SIGKILL a worker (restarted
//! later), freeze a worker with all its children longer than the session timeout, SIGTERM a worker
//! (restarted later), kill a ZooKeeper member (the leader among them), and cut a worker off from
//! ZooKeeper through its proxies longer than the session timeout. The schedule comes from a fixed
//! seed.
//!
//! [`check`] then asserts the guarantee on what ran: every fire of every item is covered by a
//! completed run starting at or after it — within a second of the item being free away from
//! faults, within `period + session timeout + 2 s` in a fault window —, no two runs of an item
//! overlap (a killed run ends when its worker was killed, frozen or fenced), and a run that covers
//! no fire follows a killed run.
//!
//! The network-fault test (tests/netns.rs) runs the same job and checker with the members and the
//! workers on hosts of their own.
//!
//! A frozen worker is resumed before its children: the worker fences at once (its deadline passed
//! while frozen) and its pending kill reaches the children as they resume, so a paused script
//! does no further work. Resuming the children first would let a script whose item was failed over
//! during the pause run on for the few milliseconds the kill takes — the limit of any lease-based
//! scheduler without fencing at the resource.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::proxy::Proxy;
use super::zk::ZkEnsemble;
use super::{Rng, miss, read_records, signal, wait_exit, write_script};

/// The chaos job's sharding total count.
pub const ITEMS: u32 = 8;

/// The longest run of [`CHAOS_SCRIPT`] (it sleeps 0.0–1.4 s), in ms.
const LONGEST_RUN_MS: i64 = 1400;

/// The ensemble's tick (tests/support/zk.rs): a session expires up to one tick after its timeout.
const ZK_TICK_MS: i64 = 1000;

/// Records start and end lines; sleeps a deterministic 0–1.4 s.
pub const CHAOS_SCRIPT: &str = r#"#!/bin/sh
start=$(date +%s%3N)
inst=${EJCTL_TASK_ID##*@-@READY@-@}
echo "$EJCTL_FIRE_TIME $EJCTL_SHARDING_ITEM $inst $start $$" >> "$1.starts"
d=$(( (EJCTL_FIRE_TIME / 1000 * 7 + EJCTL_SHARDING_ITEM * 13) % 15 ))
sleep $((d / 10)).$((d % 10))
end=$(date +%s%3N)
echo "$EJCTL_FIRE_TIME $EJCTL_SHARDING_ITEM $inst $start $end" >> "$1"
"#;

/// How a chaos run is set up.
#[derive(Debug, Clone)]
pub struct ChaosConfig {
    /// How long to inject faults.
    pub seconds: u64,
    /// The seed of the fault schedule.
    pub seed: u64,
    /// The workers' session timeout.
    pub session_timeout_ms: u64,
    /// The workers' kill grace.
    pub kill_grace_s: u64,
    /// `true`: every fault kind once, in a fixed order (CI); `false`: random faults.
    pub every_kind_once: bool,
}

impl ChaosConfig {
    /// The CI configuration: each kind of fault once, a few minutes at most.
    pub fn ci() -> ChaosConfig {
        ChaosConfig { seconds: 0, seed: 42, session_timeout_ms: 4000, kill_grace_s: 1, every_kind_once: true }
    }
}

/// The kinds of fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// SIGKILL a worker; restart it later.
    KillWorker,
    /// SIGSTOP a worker and its children longer than the session timeout.
    FreezeWorker,
    /// Cut a worker off from ZooKeeper longer than the session timeout.
    CutWorker,
    /// SIGTERM a worker (graceful stop); restart it later.
    StopWorker,
    /// Kill the ZooKeeper leader; restart it later.
    KillZkLeader,
    /// Kill a ZooKeeper follower; restart it later.
    KillZkFollower,
    /// Partition a ZooKeeper member from the other members (its clients still reach it).
    IsolateZkMember,
    /// Partition the ZooKeeper leader from every other host.
    IsolateZkLeader,
    /// Drop a share of a worker's packets at random.
    LossyWorker,
}

const ALL_KINDS: [FaultKind; 6] = [
    FaultKind::KillWorker,
    FaultKind::FreezeWorker,
    FaultKind::CutWorker,
    FaultKind::StopWorker,
    FaultKind::KillZkLeader,
    FaultKind::KillZkFollower,
];

/// One injected fault.
#[derive(Debug, Clone)]
pub struct Fault {
    pub kind: FaultKind,
    /// The worker slot (worker faults).
    pub worker: Option<usize>,
    /// The instance ids the worker slot had when the fault started.
    pub instance: Option<String>,
    /// When the fault started and when it was undone (restart, resume, heal), epoch ms.
    pub start: i64,
    pub end: i64,
}

/// What a chaos run produced.
pub struct Outcome {
    pub dir: tempfile::TempDir,
    pub faults: Vec<Fault>,
    /// When the workers had settled (epoch ms): the checker starts at the next whole second.
    pub started: i64,
    /// When fault injection and the tail ended (epoch ms).
    pub ended: i64,
    pub config: ChaosConfig,
    /// When each script process (by pid) was first seen gone, epoch ms, when the harness watched
    /// for them: a killed run (no end recorded) then ends there rather than at a bound.
    pub exits: HashMap<u32, i64>,
}

pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// One worker: its job file, its log, its proxies (if any) and its process.
pub struct Slot {
    pub ip: String,
    pub file: PathBuf,
    pub log: PathBuf,
    pub proxies: Vec<Proxy>,
    /// The network namespace it runs in (`None`: this one).
    pub netns: Option<String>,
    pub child: Option<Child>,
}

impl Slot {
    /// Starts `ejctl run` on the job file.
    pub fn spawn(&mut self) {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(&self.log).unwrap();
        let child = super::netns::command_in(self.netns.as_deref(), env!("CARGO_BIN_EXE_ejctl"))
            .arg("run")
            .arg(&self.file)
            .env("RUST_LOG", "ejctl=info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        self.child = Some(child);
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().map_or(0, Child::id)
    }

    /// The instance id of the running process.
    pub fn instance(&self) -> String {
        format!("{}@-@{}", self.ip, self.pid())
    }

    fn cut(&self, on: bool) {
        for p in &self.proxies {
            p.cut(on);
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Every descendant of `pid` (children, grandchildren, ...), from /proc.
fn descendants(pid: u32) -> Vec<u32> {
    let mut parent_of: HashMap<u32, Vec<u32>> = HashMap::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for e in entries.flatten() {
            let Ok(p) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else { continue };
            // Field 4 (ppid) follows the parenthesised command name.
            let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r.to_string()) else { continue };
            let fields: Vec<&str> = rest.split_whitespace().collect();
            if let Some(ppid) = fields.get(1).and_then(|f| f.parse::<u32>().ok()) {
                parent_of.entry(ppid).or_default().push(p);
            }
        }
    }
    let mut out = Vec::new();
    let mut stack = vec![pid];
    while let Some(p) = stack.pop() {
        for &c in parent_of.get(&p).map(Vec::as_slice).unwrap_or(&[]) {
            out.push(c);
            stack.push(c);
        }
    }
    out
}

/// The chaos job's file for a worker reaching ZooKeeper at `servers`: its instance's address
/// is `ip`, or detected when `None`.
pub fn job_file(servers: &str, ip: Option<&str>, config: &ChaosConfig, script: &Path, record: &Path) -> String {
    let ip = ip.map(|ip| format!("ip = \"{ip}\"\n")).unwrap_or_default();
    format!(
        "[registry]\nservers = \"{servers}\"\nnamespace = \"chaos\"\nsession_timeout_ms = {}\nconnection_timeout_ms = 3000\n\n\
         [instance]\n{ip}shutdown_timeout_seconds = 10\nkill_grace_seconds = {}\n\n\
         [[job]]\nname = \"chaos\"\ncron = \"* * * * * ?\"\nsharding_total_count = {ITEMS}\nfailover = true\nmisfire = true\n\
         command = \"{} {}\"\n",
        config.session_timeout_ms,
        config.kill_grace_s,
        script.display(),
        record.display()
    )
}

/// Runs the chaos scenario (blocking; call from a blocking context).
pub fn run(config: ChaosConfig) -> Outcome {
    let dir = tempfile::Builder::new().prefix("ejctl-chaos-").tempdir().unwrap();
    let script = dir.path().join("chaos.sh");
    write_script(&script, CHAOS_SCRIPT);
    let record = dir.path().join("runs.txt");
    let mut ensemble = ZkEnsemble::start();
    let t_ms = config.session_timeout_ms;
    let mut slots: Vec<Slot> = (0..4)
        .map(|i| {
            let proxies: Vec<Proxy> =
                ensemble.members.iter().map(|m| Proxy::start(([127, 0, 0, 1], m.client_port).into())).collect();
            let servers: Vec<String> = proxies.iter().map(Proxy::addr).collect();
            let file = dir.path().join(format!("worker-{i}.toml"));
            let ip = format!("127.0.0.{}", i + 1);
            std::fs::write(&file, job_file(&servers.join(","), Some(&ip), &config, &script, &record)).unwrap();
            let log = dir.path().join(format!("worker-{i}.log"));
            Slot { ip, file, log, proxies, netns: None, child: None }
        })
        .collect();
    for s in &mut slots {
        s.spawn();
        std::thread::sleep(Duration::from_millis(300));
    }
    let started = settled(&record, now_ms() + 2000, &dir);
    // A few checked fires before the first fault.
    std::thread::sleep(Duration::from_secs(2));
    let mut rng = Rng::new(config.seed);
    let mut faults = Vec::new();
    let deadline = started + i64::try_from(config.seconds).unwrap_or(0) * 1000;
    let outage = Duration::from_millis(t_ms + 2000);
    let mut fixed = ALL_KINDS.iter().copied();
    loop {
        let kind = if config.every_kind_once {
            match fixed.next() {
                Some(kind) => kind,
                None => break,
            }
        } else if now_ms() < deadline {
            ALL_KINDS[usize::try_from(rng.below(ALL_KINDS.len() as u64)).unwrap_or(0)]
        } else {
            break;
        };
        let worker = usize::try_from(rng.below(4)).unwrap_or(0);
        let start = now_ms();
        let mut instance = None;
        match kind {
            FaultKind::KillWorker => {
                instance = Some(slots[worker].instance());
                if let Some(mut c) = slots[worker].child.take() {
                    let _ = c.kill();
                    let _ = c.wait();
                }
                std::thread::sleep(Duration::from_millis(t_ms + 2000));
                slots[worker].spawn();
            }
            FaultKind::FreezeWorker => {
                instance = Some(slots[worker].instance());
                let pid = slots[worker].pid();
                signal(pid, "STOP");
                let children = descendants(pid);
                for &c in &children {
                    signal(c, "STOP");
                }
                std::thread::sleep(outage);
                signal(pid, "CONT");
                std::thread::sleep(Duration::from_millis(300));
                for &c in &children {
                    signal(c, "CONT");
                }
            }
            FaultKind::CutWorker => {
                instance = Some(slots[worker].instance());
                slots[worker].cut(true);
                std::thread::sleep(outage);
                slots[worker].cut(false);
            }
            FaultKind::StopWorker => {
                instance = Some(slots[worker].instance());
                if let Some(mut c) = slots[worker].child.take() {
                    signal(c.id(), "TERM");
                    let _ = wait_exit(&mut c, Duration::from_secs(30));
                }
                std::thread::sleep(Duration::from_secs(2));
                slots[worker].spawn();
            }
            FaultKind::KillZkLeader | FaultKind::KillZkFollower => {
                let want = if kind == FaultKind::KillZkLeader { "leader" } else { "follower" };
                let member = ensemble.members.iter().position(|m| m.is_running() && m.mode() == want).unwrap_or(0);
                ensemble.members[member].kill();
                std::thread::sleep(Duration::from_secs(4));
                ensemble.start_member(member);
            }
            FaultKind::IsolateZkMember | FaultKind::IsolateZkLeader | FaultKind::LossyWorker => {
                unreachable!("network faults need hosts of their own (tests/support/netns.rs)")
            }
        }
        let end = now_ms();
        let is_worker = !matches!(kind, FaultKind::KillZkLeader | FaultKind::KillZkFollower);
        faults.push(Fault { kind, worker: is_worker.then_some(worker), instance, start, end });
        // A quiet period: the cluster settles before the next fault.
        std::thread::sleep(Duration::from_millis(t_ms + 4000));
    }
    std::thread::sleep(Duration::from_secs(4));
    let ended = now_ms();
    for s in &mut slots {
        if let Some(mut c) = s.child.take() {
            signal(c.id(), "TERM");
            let _ = wait_exit(&mut c, Duration::from_secs(15));
        }
    }
    Outcome { dir, faults, started, ended, config, exits: HashMap::new() }
}

/// Waits until every item has completed a run of a fire at or after `since` (the last worker
/// has joined and the items are divided among all four) and returns when that was.
pub fn settled(record: &Path, since: i64, dir: &tempfile::TempDir) -> i64 {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let ends = read_records(record);
        if (0..ITEMS).all(|item| ends.iter().any(|e| e.1 == item && e.0 >= since)) {
            return now_ms();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "chaos: the workers ran no fire of every item within 60 s; logs in {}",
            dir.path().display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// One run of an item.
#[derive(Debug, Clone)]
pub struct Run {
    pub item: u32,
    pub instance: String,
    pub start: i64,
    pub end: Option<i64>,
    /// Where a killed run is taken to have stopped.
    pub effective_end: i64,
}

/// The counts the checker prints.
#[derive(Debug, Default)]
pub struct Summary {
    pub fires: usize,
    pub runs: usize,
    pub kills: usize,
    pub failovers: usize,
    pub repeats: usize,
    pub misses: usize,
    pub overlaps: usize,
    pub faults: usize,
    pub violations: Vec<String>,
}

impl Summary {
    /// The one summary line.
    pub fn line(&self) -> String {
        format!(
            "chaos: fires={} item_runs={} kills={} failovers={} repeats={} misses={} overlaps={} faults={}",
            self.fires, self.runs, self.kills, self.failovers, self.repeats, self.misses, self.overlaps, self.faults
        )
    }
}

/// Checks docs/src/design/guarantee.md on what a chaos run recorded.
pub fn check(outcome: &Outcome) -> Summary {
    let record = outcome.dir.path().join("runs.txt");
    let starts = read_records(&record.with_extension("txt.starts"));
    let ends = read_records(&record);
    let t = i64::try_from(outcome.config.session_timeout_ms).unwrap_or(4000);
    let fencing = t / 2;
    let grace = i64::try_from(outcome.config.kill_grace_s).unwrap_or(1) * 1000;
    let end_of: HashMap<(u32, String, i64), i64> = ends.iter().map(|e| ((e.1, e.2.clone(), e.3), e.4)).collect();
    let mut summary = Summary { faults: outcome.faults.len(), ..Summary::default() };
    let mut runs: Vec<Run> = Vec::new();
    for (_fire, item, instance, start, pid) in &starts {
        let end = end_of.get(&(*item, instance.clone(), *start)).copied();
        let effective_end = match end {
            Some(e) => e,
            None => match killed_at(outcome, instance, *start, fencing + grace + 500) {
                Some(k) => {
                    summary.kills += 1;
                    u32::try_from(*pid).ok().and_then(|p| outcome.exits.get(&p)).copied().unwrap_or(k)
                }
                None if *start > outcome.ended - 3000 => outcome.ended,
                None => {
                    summary
                        .violations
                        .push(format!("item {item} on {instance} started at {start} and vanished without a fault"));
                    outcome.ended
                }
            },
        };
        runs.push(Run { item: *item, instance: instance.clone(), start: *start, end, effective_end });
    }
    summary.runs = runs.len();
    // Every item of the job, so that an item that never ran counts as missing every fire.
    let mut by_item: BTreeMap<u32, Vec<Run>> = (0..ITEMS).map(|i| (i, Vec::new())).collect();
    for r in runs {
        by_item.entry(r.item).or_default().push(r);
    }
    for list in by_item.values_mut() {
        list.sort_by_key(|r| r.start);
    }

    // No overlap.
    for (item, list) in &by_item {
        for w in list.windows(2) {
            if w[0].effective_end > w[1].start {
                summary.overlaps += 1;
                summary.violations.push(format!("item {item} overlapped: {:?} and {:?}", w[0], w[1]));
            }
        }
    }

    // No miss: every whole second from the end of the warm-up to a tail before the end.
    let first_fire = (outcome.started / 1000 + 1) * 1000;
    let last_fire = ((outcome.ended - t - 3000) / 1000) * 1000;
    let in_fault_window =
        |f: i64| outcome.faults.iter().any(|fault| f >= fault.start - 1000 && f <= fault.end + 1000 + t);
    if first_fire > last_fire {
        summary.violations.push(format!("no fire to check between {first_fire} and {last_fire}"));
    }
    summary.fires = (first_fire..=last_fire).step_by(1000).count();
    let mut covering: HashMap<(u32, i64), ()> = HashMap::new();
    for (item, list) in &by_item {
        for fire in (first_fire..=last_fire).step_by(1000) {
            let covered_by = list.iter().filter(|r| r.end.is_some() && r.start >= fire).min_by_key(|r| r.start);
            let busy_end = list
                .iter()
                .filter(|r| r.start < fire && r.effective_end > fire)
                .map(|r| r.effective_end)
                .max()
                .unwrap_or(fire);
            // A fire whose first run was killed by a fault is owed a late run, like a fire inside a
            // fault window: runs may outlast the cron period, so such a fire can lie more than a
            // period before the fault.
            let first_run_killed =
                list.iter().filter(|r| r.start >= fire).min_by_key(|r| r.start).is_some_and(|r| r.end.is_none());
            // Owed through a fault: the fault may begin up to a period after the fire; the session
            // of a worker that holds the item expires up to a tick after its timeout; the leader
            // then reshards once nothing runs (new fires wait), which takes up to the longest
            // run, and once more when the worker comes back with a new session; plus a second
            // for a loaded machine.
            let bound = if in_fault_window(fire) || first_run_killed {
                fire + 1000 + t + ZK_TICK_MS + 2 * LONGEST_RUN_MS + 1000
            } else {
                busy_end.max(fire) + 1000
            };
            match covered_by {
                Some(r) if r.start <= bound => {
                    covering.insert((*item, r.start), ());
                }
                _ => {
                    summary.misses += 1;
                    summary.violations.push(miss(*item, fire, covered_by.map(|r| r.start), bound));
                }
            }
        }
    }

    // No repeat: a completed run inside the checked range that covers no fire must follow a
    // killed run. Failovers: completed runs that follow a killed run on another instance.
    for (item, list) in &by_item {
        for (i, r) in list.iter().enumerate() {
            let prev = i.checked_sub(1).map(|p| &list[p]);
            let after_kill = prev.is_some_and(|p| p.end.is_none());
            if after_kill && prev.is_some_and(|p| p.instance != r.instance) && r.end.is_some() {
                summary.failovers += 1;
            }
            // A run is a repeat when it is the first covering run of no fire: every fire up to its
            // start was covered by an earlier completed run.
            let in_range = r.start > first_fire && r.start <= last_fire;
            // The runtime knows when it spawned a run, the record when the script began, a few
            // milliseconds later: a run spawned just before a fire instant and recorded just after
            // it leaves the fire uncovered for the runtime, which runs once more (conservative).
            let spawned_at_the_boundary = prev.is_some_and(|p| p.start.rem_euclid(1000) < 50);
            if in_range
                && r.end.is_some()
                && !covering.contains_key(&(*item, r.start))
                && !after_kill
                && !spawned_at_the_boundary
            {
                summary.repeats += 1;
                summary.violations.push(format!("item {item}: repeated run {r:?} after {prev:?}"));
            }
        }
    }
    summary
}

/// When a run that left no end line was killed: by a fault of its worker (SIGKILL: at once;
/// frozen: at the freeze; cut off: within the fencing deadline), or by fencing during a ZooKeeper
/// outage.
fn killed_at(outcome: &Outcome, instance: &str, start: i64, fence_bound: i64) -> Option<i64> {
    for fault in &outcome.faults {
        let mine = fault.instance.as_deref() == Some(instance);
        match fault.kind {
            FaultKind::KillWorker if mine && start <= fault.start => return Some(fault.start),
            FaultKind::FreezeWorker if mine && start <= fault.start => return Some(fault.start),
            FaultKind::CutWorker if mine && start <= fault.start + fence_bound => {
                return Some(start.max(fault.start) + fence_bound);
            }
            FaultKind::StopWorker if mine && start <= fault.end => return Some(fault.end),
            FaultKind::KillZkLeader | FaultKind::KillZkFollower
                if start <= fault.end && start >= fault.start - 2000 =>
            {
                return Some(fault.start.max(start) + fence_bound);
            }
            // Packets lost at random, or a member cut off from the others or from everyone: the
            // worker (or the workers on that member) may lose its connection at any time until the
            // heal and reconnects only after it, so a run is fenced at most the fencing bound after
            // the heal.
            FaultKind::LossyWorker if mine && start <= fault.end => return Some(fault.end + fence_bound),
            FaultKind::IsolateZkMember | FaultKind::IsolateZkLeader
                if start <= fault.end && start >= fault.start - 2000 =>
            {
                return Some(fault.end + fence_bound);
            }
            _ => {}
        }
    }
    None
}
