//! Real network faults: a 3-member ZooKeeper ensemble and four `ejctl run` workers, each a host of
//! its own (a network namespace with its own address, tests/support/netns.rs), run the chaos job
//! while nftables rules inside the hosts partition them and lose their packets, one fault at a
//! time with quiet periods between them; then the delivery guarantee
//! (docs/src/design/guarantee.md) is checked on what ran, by the chaos test's checker.
//!
//! The faults, in this order, each healed before the next: a worker partitioned from every member
//! longer than its session timeout; a follower partitioned from the other members (its clients
//! still reach it, and it has lost its leader); the leader partitioned from every host; 30 % of a
//! worker's packets lost in each direction. Which worker and which follower comes from a fixed
//! seed. The workers detect their own addresses, so instance ids differ by IP as on real machines.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::support::chaos::{self, ChaosConfig, Fault, FaultKind, Outcome, Slot, now_ms};
use crate::support::netns::{Host, Net};
use crate::support::zk::{Member, Placement, ZkEnsemble};
use crate::support::{Rng, read_records, signal, wait_exit, write_script};

/// The seed of the choice of worker and follower.
const SEED: u64 = 7;

/// How long a partition of a ZooKeeper member lasts: past the followers' `syncLimit` (5 ticks),
/// so the ensemble notices and elects without it, and past the workers' session timeout.
const MEMBER_PARTITION: Duration = Duration::from_secs(12);

/// How long a worker loses packets, and how many per hundred in each direction.
const LOSS: Duration = Duration::from_secs(10);
const LOSS_PERCENT: u32 = 30;

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

/// Waits (at most 60 s) until every member serves and one of them leads: a member partitioned
/// from the others rejoins some seconds after the heal, and the next fault picks its member by
/// role.
fn wait_for_quorum(ensemble: &ZkEnsemble) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let modes: Vec<String> = ensemble.members.iter().map(Member::mode).collect();
        let leaders = modes.iter().filter(|m| *m == "leader").count();
        if leaders == 1 && modes.iter().all(|m| m == "leader" || m == "follower") {
            return;
        }
        assert!(Instant::now() < deadline, "the ensemble did not recover within 60 s: {modes:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The last `n` lines of a log file, Java stack frames left out.
fn tail(path: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('\t')).collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

#[test]
fn netns_faults_keep_the_guarantee() {
    let mut net = Net::create(&["z1", "z2", "z3", "w1", "w2", "w3", "w4"]);
    let zk_hosts: Vec<Host> = net.hosts[..3].to_vec();
    let worker_hosts: Vec<Host> = net.hosts[3..].to_vec();
    let config =
        ChaosConfig { seconds: 0, seed: SEED, session_timeout_ms: 4000, kill_grace_s: 1, every_kind_once: true };
    let t_ms = config.session_timeout_ms;
    let dir = tempfile::Builder::new().prefix("ejctl-netns-").tempdir().unwrap();
    let script = dir.path().join("chaos.sh");
    write_script(&script, chaos::CHAOS_SCRIPT);
    let record = dir.path().join("runs.txt");

    let places: Vec<Placement> = zk_hosts
        .iter()
        .map(|h| Placement { ip: h.ip, ports: [2181, 2888, 3888], netns: Some(h.netns.clone()) })
        .collect();
    let ensemble = ZkEnsemble::start_at(&places, 256);
    let servers = ensemble.connect_string();
    let mut slots: Vec<Slot> = worker_hosts
        .iter()
        .map(|h| {
            let file = dir.path().join(format!("{}.toml", h.label));
            std::fs::write(&file, chaos::job_file(&servers, None, &config, &script, &record)).unwrap();
            let log = dir.path().join(format!("{}.log", h.label));
            Slot { ip: h.ip.to_string(), file, log, proxies: Vec::new(), netns: Some(h.netns.clone()), child: None }
        })
        .collect();
    for s in &mut slots {
        s.spawn();
        std::thread::sleep(Duration::from_millis(300));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = watch_exits(record.with_extension("txt.starts"), Arc::clone(&stop));
    let started = chaos::settled(&record, now_ms() + 2000, &dir);
    // Each worker detected its host's address: the instance ids are the hosts' own.
    let instances: HashSet<String> = read_records(&record).into_iter().map(|r| r.2).collect();
    for s in &slots {
        assert!(instances.contains(&s.instance()), "no run on {} in {instances:?}", s.instance());
    }
    std::thread::sleep(Duration::from_secs(2));

    let mut rng = Rng::new(SEED);
    let mut faults: Vec<Fault> = Vec::new();
    let mut schedule = String::new();
    let kinds = [FaultKind::CutWorker, FaultKind::IsolateZkMember, FaultKind::IsolateZkLeader, FaultKind::LossyWorker];
    for kind in kinds {
        wait_for_quorum(&ensemble);
        let worker = usize::try_from(rng.below(4)).unwrap();
        let start = now_ms();
        let mut instance = None;
        let what = match kind {
            FaultKind::CutWorker => {
                instance = Some(slots[worker].instance());
                let members: Vec<&Host> = zk_hosts.iter().collect();
                net.partition(&worker_hosts[worker], &members);
                std::thread::sleep(Duration::from_millis(t_ms + 2000));
                format!("{} partitioned from every member", worker_hosts[worker].label)
            }
            FaultKind::IsolateZkMember => {
                let followers: Vec<usize> = (0..3).filter(|&m| ensemble.members[m].mode() == "follower").collect();
                let member = followers[usize::try_from(rng.below(followers.len() as u64)).unwrap()];
                let others: Vec<&Host> = (0..3).filter(|&m| m != member).map(|m| &zk_hosts[m]).collect();
                net.partition(&zk_hosts[member], &others);
                std::thread::sleep(MEMBER_PARTITION);
                format!("follower {} partitioned from the other members", zk_hosts[member].label)
            }
            FaultKind::IsolateZkLeader => {
                let leader = (0..3).find(|&m| ensemble.members[m].mode() == "leader").expect("a leader");
                let everyone: Vec<Host> =
                    net.hosts.iter().filter(|h| h.netns != zk_hosts[leader].netns).cloned().collect();
                net.partition(&zk_hosts[leader], &everyone.iter().collect::<Vec<&Host>>());
                std::thread::sleep(MEMBER_PARTITION);
                format!("leader {} partitioned from every host", zk_hosts[leader].label)
            }
            FaultKind::LossyWorker => {
                instance = Some(slots[worker].instance());
                net.loss(&worker_hosts[worker], LOSS_PERCENT);
                std::thread::sleep(LOSS);
                format!("{} loses {LOSS_PERCENT} % of its packets", worker_hosts[worker].label)
            }
            _ => unreachable!("not a network fault"),
        };
        net.heal();
        let end = now_ms();
        let is_worker = matches!(kind, FaultKind::CutWorker | FaultKind::LossyWorker);
        writeln!(schedule, "  {:>6} ms .. {:>6} ms  {kind:?}: {what}", start - started, end - started).unwrap();
        faults.push(Fault { kind, worker: is_worker.then_some(worker), instance, start, end });
        // A quiet period: the cluster settles before the next fault.
        std::thread::sleep(Duration::from_millis(t_ms + 4000));
    }
    // Liveness after the last heal: the checker holds every fire up to the session timeout and
    // 3 s before the end to the guarantee.
    std::thread::sleep(Duration::from_secs(8));
    let ended = now_ms();
    for s in &mut slots {
        if let Some(mut c) = s.child.take() {
            signal(c.id(), "TERM");
            let _ = wait_exit(&mut c, Duration::from_secs(15));
        }
    }
    stop.store(true, Ordering::SeqCst);
    let exits = watcher.join().unwrap();
    let outcome = Outcome { dir, faults, started, ended, config, exits };
    let summary = chaos::check(&outcome);
    println!("netns: {}\nfaults (from {started}):\n{schedule}", summary.line());
    if !summary.violations.is_empty() {
        let mut logs = String::new();
        for (h, s) in worker_hosts.iter().zip(&slots) {
            writeln!(logs, "--- {} ({}) {}\n{}", h.label, h.ip, s.log.display(), tail(&s.log, 15)).unwrap();
        }
        for (h, m) in zk_hosts.iter().zip(&ensemble.members) {
            // The ensemble's directory goes with it: its logs are kept with the records.
            let kept_log = outcome.dir.path().join(format!("{}.log", h.label));
            let _ = std::fs::copy(m.log(), &kept_log);
            writeln!(logs, "--- {} ({}) {}\n{}", h.label, h.ip, kept_log.display(), tail(&kept_log, 15)).unwrap();
        }
        let kept = outcome.dir.keep();
        panic!(
            "{}\nseed {SEED}; faults (ms after {started}):\n{schedule}{:#?}\n{logs}records and every host's log kept in {}",
            summary.line(),
            summary.violations,
            kept.display()
        );
    }
}
