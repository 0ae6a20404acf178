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
//! The network-fault test (tests/netns.rs, tests/support/nemesis.rs) runs the same job and checker
//! with the members and the workers on hosts of their own, and adds operators' actions from a host
//! of their own: the checker then also holds them to being obeyed (no run starts while the job is
//! disabled, a `job trigger --wait` that succeeds saw a run of every item, items beyond a lowered
//! `shardingTotalCount` stop).
//!
//! The script records its times on the real clock (`date` without the worker's libfaketime, which
//! a worker with a jumping clock has preloaded), so the checker judges every worker on one clock.
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
start=$(env -u LD_PRELOAD date +%s%3N)
inst=${EJCTL_TASK_ID##*@-@READY@-@}
echo "$EJCTL_FIRE_TIME $EJCTL_SHARDING_ITEM $inst $start $$" >> "$1.starts"
d=$(( (EJCTL_FIRE_TIME / 1000 * 7 + EJCTL_SHARDING_ITEM * 13) % 15 ))
sleep $((d / 10)).$((d % 10))
end=$(env -u LD_PRELOAD date +%s%3N)
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
    /// Delay, with jitter, what a worker exchanges with each member (a relay on its path).
    SlowWorker,
    /// Split the hosts in two: one member and some workers on the minority side.
    SplitZk,
    /// Step a worker's wall clock forward or back (its monotonic clock keeps running).
    JumpClock,
}

/// An operator's command, run from a host of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdminAction {
    /// `ejctl job disable`.
    Disable,
    /// `ejctl job enable`.
    Enable,
    /// `ejctl job trigger --wait`.
    TriggerWait,
    /// `ejctl config set shardingTotalCount=N`.
    SetTotal(u32),
}

/// One operator's command and how it ended.
#[derive(Debug, Clone)]
pub struct Admin {
    pub action: AdminAction,
    /// When the command started and returned, epoch ms.
    pub start: i64,
    pub end: i64,
    /// Its exit code (`None`: killed by the harness, past its own timeout).
    pub code: Option<i32>,
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
    /// The operators' commands, in the order they ran.
    pub admin: Vec<Admin>,
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
    /// Environment variables of its process.
    pub env: Vec<(String, String)>,
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
            .envs(self.env.iter().map(|(k, v)| (k, v)))
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
pub fn descendants(pid: u32) -> Vec<u32> {
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

/// Freezes `pid` and every descendant (SIGSTOP): a paused machine. Returns the descendants.
pub fn freeze(pid: u32) -> Vec<u32> {
    signal(pid, "STOP");
    let children = descendants(pid);
    for &c in &children {
        signal(c, "STOP");
    }
    children
}

/// Resumes what [`freeze`] froze: the worker first, so that it fences before its children run
/// again (see the module docs).
pub fn thaw(pid: u32, children: &[u32]) {
    signal(pid, "CONT");
    std::thread::sleep(Duration::from_millis(300));
    for &c in children {
        signal(c, "CONT");
    }
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
            Slot { ip, file, log, proxies, netns: None, env: Vec::new(), child: None }
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
                let children = freeze(pid);
                std::thread::sleep(outage);
                thaw(pid, &children);
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
            FaultKind::IsolateZkMember
            | FaultKind::IsolateZkLeader
            | FaultKind::LossyWorker
            | FaultKind::SlowWorker
            | FaultKind::SplitZk
            | FaultKind::JumpClock => {
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
    Outcome { dir, faults, started, ended, config, exits: HashMap::new(), admin: Vec::new() }
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
    /// Operators' commands, and the `trigger --wait`s among them that succeeded.
    pub admin: usize,
    pub waits_ok: usize,
    /// Runs that started while an operator's command forbade them.
    pub disobeyed: usize,
    pub violations: Vec<String>,
}

impl Summary {
    /// The one summary line.
    pub fn line(&self) -> String {
        format!(
            "chaos: fires={} item_runs={} kills={} failovers={} repeats={} misses={} overlaps={} faults={} admin={} \
             waits_ok={} disobeyed={}",
            self.fires,
            self.runs,
            self.kills,
            self.failovers,
            self.repeats,
            self.misses,
            self.overlaps,
            self.faults,
            self.admin,
            self.waits_ok,
            self.disobeyed
        )
    }
}

/// How soon an operator's command reaches every worker once it returned: a watch and the round
/// trips of a fire already under way.
const HONOUR_MS: i64 = 1000;

/// How much later a worker may see an operator's change when it is connected to a member cut off
/// from its leader: that member serves its old view until it gives up on the leader (`syncLimit`,
/// 5 ticks, tests/support/zk.rs). ZooKeeper's reads are not linearizable.
const STALE_MEMBER_MS: i64 = 5 * ZK_TICK_MS;

/// What the operators' commands say about items and fires.
struct Operators {
    /// When the job was disabled: from the disable's start to the enable's end (or the end).
    disabled: Vec<(i64, i64)>,
    /// When items beyond [`ITEMS`] existed: from a raise's start to the lowering's end, and the
    /// total raised to.
    raised: Vec<(i64, i64, u32)>,
    /// Windows in which fires may be late, as after a fault: around each command.
    windows: Vec<(i64, i64)>,
}

impl Operators {
    fn of(admin: &[Admin], ended: i64) -> Operators {
        let mut ops = Operators { disabled: Vec::new(), raised: Vec::new(), windows: Vec::new() };
        for (i, a) in admin.iter().enumerate() {
            // The end of the first later command that succeeded in undoing this one.
            let undone = |undoes: fn(AdminAction) -> bool| {
                admin[i + 1..].iter().find(|b| b.code == Some(0) && undoes(b.action)).map_or(ended, |b| b.end)
            };
            match a.action {
                AdminAction::Disable => ops.disabled.push((a.start, undone(|b| b == AdminAction::Enable))),
                AdminAction::SetTotal(n) if n > ITEMS => {
                    ops.raised.push((a.start, undone(|b| matches!(b, AdminAction::SetTotal(m) if m <= ITEMS)), n));
                }
                _ => {}
            }
            ops.windows.push((a.start, a.end));
        }
        ops
    }

    /// Whether a fire of `item` at `fire` is owed: not while the job is disabled (nor a run's
    /// length before: a fire found busy then is dropped with the others), and an item beyond
    /// [`ITEMS`] only well inside a time it existed.
    fn owed(&self, item: u32, fire: i64) -> bool {
        if self.disabled.iter().any(|&(from, to)| fire >= from - 1000 - LONGEST_RUN_MS && fire <= to) {
            return false;
        }
        item < ITEMS || self.raised.iter().any(|&(from, to, n)| item < n && fire > from && fire < to - 3000)
    }
}

/// Checks docs/src/design/guarantee.md on what a chaos run recorded, and that operators were
/// obeyed.
pub fn check(outcome: &Outcome) -> Summary {
    let record = outcome.dir.path().join("runs.txt");
    let starts = read_records(&record.with_extension("txt.starts"));
    let ends = read_records(&record);
    let t = i64::try_from(outcome.config.session_timeout_ms).unwrap_or(4000);
    let fencing = t / 2;
    let grace = i64::try_from(outcome.config.kill_grace_s).unwrap_or(1) * 1000;
    let end_of: HashMap<(u32, String, i64), i64> = ends.iter().map(|e| ((e.1, e.2.clone(), e.3), e.4)).collect();
    let ops = Operators::of(&outcome.admin, outcome.ended);
    let mut summary = Summary { faults: outcome.faults.len(), admin: outcome.admin.len(), ..Summary::default() };
    let mut runs: Vec<Run> = Vec::new();
    for (_fire, item, instance, start, pid) in &starts {
        let end = end_of.get(&(*item, instance.clone(), *start)).copied();
        let effective_end = match end {
            Some(e) => e,
            None => match killed_at(outcome, instance, *start, fencing + grace + 500) {
                Some((k, at_fault)) => {
                    summary.kills += 1;
                    let exit = u32::try_from(*pid).ok().and_then(|p| outcome.exits.get(&p)).copied();
                    if at_fault { k } else { exit.unwrap_or(k) }
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
    // Every item the job had, so that an item that never ran counts as missing every fire.
    let most = ops.raised.iter().map(|r| r.2).max().unwrap_or(ITEMS).max(ITEMS);
    let mut by_item: BTreeMap<u32, Vec<Run>> = (0..most).map(|i| (i, Vec::new())).collect();
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

    obeyed(outcome, &ops, &by_item, &mut summary);

    // No miss: every whole second from the end of the warm-up to a tail before the end.
    let first_fire = (outcome.started / 1000 + 1) * 1000;
    let last_fire = ((outcome.ended - t - 3000) / 1000) * 1000;
    let in_fault_window = |f: i64| {
        outcome
            .faults
            .iter()
            .map(|fault| (fault.start, fault.end))
            .chain(ops.windows.iter().copied())
            .any(|(start, end)| f >= start - 1000 && f <= end + 1000 + t)
    };
    if first_fire > last_fire {
        summary.violations.push(format!("no fire to check between {first_fire} and {last_fire}"));
    }
    summary.fires = (first_fire..=last_fire).step_by(1000).count();
    let mut covering: HashMap<(u32, i64), ()> = HashMap::new();
    for (item, list) in &by_item {
        for fire in (first_fire..=last_fire).step_by(1000) {
            let covered_by = list.iter().filter(|r| r.end.is_some() && r.start >= fire).min_by_key(|r| r.start);
            if !ops.owed(*item, fire) {
                if let Some(r) = covered_by {
                    covering.insert((*item, r.start), ());
                }
                continue;
            }
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
            // for a loaded machine. Counted from the heal of a fault the cluster can only wait
            // out ([`until_healed`]).
            let recovery = 1000 + t + ZK_TICK_MS + 2 * LONGEST_RUN_MS + 1000;
            let bound = if in_fault_window(fire) || first_run_killed {
                until_healed(&outcome.faults, fire, fire + recovery, recovery)
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
    // killed run or be a trigger's. Failovers: completed runs that follow a killed run on another
    // instance.
    let triggered = |start: i64| {
        outcome.admin.iter().any(|a| a.action == AdminAction::TriggerWait && start >= a.start && start <= a.end)
    };
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
                && !triggered(r.start)
            {
                summary.repeats += 1;
                summary.violations.push(format!("item {item}: repeated run {r:?} after {prev:?}"));
            }
        }
    }
    summary
}

/// Operators are obeyed: no run starts while the job is disabled (once the disable has reached
/// the workers), none of an item beyond a lowered total once the leader could reshard, and a
/// `trigger --wait` that succeeded returned after a run of every item had completed; one that
/// failed did so while a fault or another command was going on.
fn obeyed(outcome: &Outcome, ops: &Operators, by_item: &BTreeMap<u32, Vec<Run>>, summary: &mut Summary) {
    let t = i64::try_from(outcome.config.session_timeout_ms).unwrap_or(4000);
    let overlaps_fault = |from: i64, to: i64, kinds: &[FaultKind]| {
        outcome
            .faults
            .iter()
            .any(|f| f.start <= to && f.end + t >= from && (kinds.is_empty() || kinds.contains(&f.kind)))
    };
    let stale_members = [FaultKind::IsolateZkMember, FaultKind::IsolateZkLeader, FaultKind::SplitZk];
    let all_runs = || by_item.values().flatten();
    for a in &outcome.admin {
        if a.action == AdminAction::Disable && a.code == Some(0) {
            let enable = ops.disabled.iter().find(|d| d.0 == a.start).map_or(outcome.ended, |d| d.1);
            let lag = HONOUR_MS + if overlaps_fault(a.start, a.end, &stale_members) { STALE_MEMBER_MS } else { 0 };
            // Until the enable (its own start: a run may start as soon as it lands).
            let enable_start = outcome.admin.iter().find(|b| b.action == AdminAction::Enable && b.start > a.start);
            let until = enable_start.map_or(enable, |b| b.start);
            for r in all_runs().filter(|r| r.start > a.end + lag && r.start < until) {
                summary.disobeyed += 1;
                summary
                    .violations
                    .push(format!("item {} ran with the job disabled (disable returned at {}): {r:?}", r.item, a.end));
            }
        }
        if let (AdminAction::SetTotal(n), Some(0)) = (a.action, a.code) {
            // The leader reshards once the runs under way end (a session that must expire first
            // during a fault).
            let fault = overlaps_fault(a.start, a.end, &[]);
            let lag = HONOUR_MS + 2 * LONGEST_RUN_MS + if fault { t + ZK_TICK_MS + STALE_MEMBER_MS } else { 0 };
            let next = outcome.admin.iter().find(|b| matches!(b.action, AdminAction::SetTotal(_)) && b.start > a.start);
            let until = next.map_or(outcome.ended, |b| b.start);
            for r in all_runs().filter(|r| r.item >= n && r.start > a.end + lag && r.start < until) {
                summary.disobeyed += 1;
                summary
                    .violations
                    .push(format!("item {} ran beyond shardingTotalCount {n} (set at {}): {r:?}", r.item, a.end));
            }
        }
        if a.action == AdminAction::TriggerWait {
            match a.code {
                Some(0) => {
                    summary.waits_ok += 1;
                    for (item, list) in by_item.iter().filter(|(item, _)| ops.owed(**item, a.start)) {
                        let ran = list.iter().any(|r| r.start >= a.start && r.end.is_some_and(|e| e <= a.end));
                        if !ran {
                            summary.violations.push(format!(
                                "item {item}: trigger --wait from {} returned success at {} without a completed run",
                                a.start, a.end
                            ));
                        }
                    }
                }
                // Exit 1 (an item failed or missed the timeout) or 5 (the registry unreachable):
                // only under a fault or another command.
                Some(code) => {
                    let busy = overlaps_fault(a.start, a.end, &[])
                        || ops.windows.iter().any(|w| w.0 != a.start && w.0 <= a.end && w.1 >= a.start);
                    if !busy {
                        summary.violations.push(format!(
                            "trigger --wait from {} failed with exit {code} at {} without a fault",
                            a.start, a.end
                        ));
                    }
                }
                None => {
                    summary.violations.push(format!("trigger --wait from {} did not return by its timeout", a.start))
                }
            }
        }
    }
}

/// Faults whose effect lasts until they heal, whatever the cluster does: a worker that keeps its
/// session through a slow or lossy link (nobody fails its items over) completes its requests only
/// now and then; a clock stepped back stalls its worker's fires, and one beyond the limit refuses
/// them; an ensemble without its leader, or split, serves no write until it has one. Against
/// these the cluster can only wait. A worker's fault counts for every item, not only its own: the
/// worker may be the job's leader, whose resharding every item waits for. (A follower cut off from
/// the others is not among them: its clients move to the members that still have the leader.)
fn lasts_until_healed(kind: FaultKind) -> bool {
    matches!(
        kind,
        FaultKind::SlowWorker
            | FaultKind::LossyWorker
            | FaultKind::JumpClock
            | FaultKind::IsolateZkLeader
            | FaultKind::KillZkLeader
            | FaultKind::SplitZk
    )
}

/// The bound for a fire owed through faults: `bound` (the fire plus the time the cluster takes
/// to recover from one fault), pushed to `recovery` after the heal of every fault that
/// [`lasts_until_healed`] and is in force before the bound — faults stack, and a fault that
/// starts while the fire is still owed holds it up as much as one that was there first.
fn until_healed(faults: &[Fault], fire: i64, mut bound: i64, recovery: i64) -> i64 {
    loop {
        let later = faults
            .iter()
            .filter(|f| lasts_until_healed(f.kind) && f.start - 1000 <= bound && f.end + 1000 >= fire)
            .map(|f| f.end + recovery)
            .fold(bound, i64::max);
        if later == bound {
            return bound;
        }
        bound = later;
    }
}

/// When a run that left no end line was killed, and whether it counts as stopped at that instant
/// rather than when its process was seen gone: by a fault of its worker (SIGKILL: at once; frozen:
/// at the freeze, since a frozen process does nothing; cut off: within the fencing deadline), or
/// by fencing during a ZooKeeper outage.
///
/// The faults of the run's own worker are looked at first: with faults overlapping, a run frozen
/// with its worker while a member was cut off stopped at the freeze.
fn killed_at(outcome: &Outcome, instance: &str, start: i64, fence_bound: i64) -> Option<(i64, bool)> {
    let (own, others): (Vec<&Fault>, Vec<&Fault>) =
        outcome.faults.iter().partition(|f| f.instance.as_deref() == Some(instance));
    for fault in own.into_iter().chain(others) {
        let mine = fault.instance.as_deref() == Some(instance);
        match fault.kind {
            FaultKind::KillWorker if mine && start <= fault.start => return Some((fault.start, false)),
            FaultKind::FreezeWorker if mine && start <= fault.start => return Some((fault.start, true)),
            FaultKind::CutWorker if mine && start <= fault.start + fence_bound => {
                return Some((start.max(fault.start) + fence_bound, false));
            }
            FaultKind::StopWorker if mine && start <= fault.end => return Some((fault.end, false)),
            FaultKind::KillZkLeader | FaultKind::KillZkFollower
                if start <= fault.end && start >= fault.start - 2000 =>
            {
                return Some((fault.start.max(start) + fence_bound, false));
            }
            // Packets lost at random or delayed, or a member cut off from the others or from
            // everyone, or the hosts split in two: the worker (or the workers on that member, or
            // on the minority side) may lose its connection at any time until the heal and
            // reconnects only after it, so a run is fenced at most the fencing bound after the
            // heal.
            FaultKind::LossyWorker | FaultKind::SlowWorker if mine && start <= fault.end => {
                return Some((fault.end + fence_bound, false));
            }
            FaultKind::IsolateZkMember | FaultKind::IsolateZkLeader | FaultKind::SplitZk
                if start <= fault.end && start >= fault.start - 2000 =>
            {
                return Some((fault.end + fence_bound, false));
            }
            _ => {}
        }
    }
    None
}
