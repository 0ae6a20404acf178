//! Real network faults: a 3-member ZooKeeper ensemble, four `ejctl run` workers and an operator,
//! each a host of its own (a network namespace with its own address), run the chaos job through
//! every nemesis of tests/support/nemesis.rs once — partitions (a worker from every member, a
//! follower from the other members, the leader from everyone, a majority/minority split), packet
//! loss, delay with jitter through a relay, a frozen worker, a killed and restarted worker, leader
//! and follower, a worker's clock stepped back and forward within and beyond `max_time_diff_seconds`
//! — with independent nemeses on different hosts overlapping, while the operator disables and
//! enables the job, triggers it and waits, and raises and lowers its sharding total. Then the
//! delivery guarantee (docs/src/design/guarantee.md) is checked on what ran, and the operators'
//! commands on being obeyed, by the chaos test's checker. The schedule comes from a fixed seed;
//! `cargo bench --bench netns` draws random ones.

use crate::support::nemesis::{self, NetConfig};

#[test]
fn netns_faults_keep_the_guarantee() {
    let config = NetConfig::ci();
    let run = nemesis::run(&config);
    let summary = &run.summary;
    println!(
        "netns: {}\nrecovery (ms from a heal to every item running again): {:?}\nworker logs:\n{}schedule (ms from {}):\n{}",
        summary.line(),
        run.recovery,
        run.bites,
        run.outcome.started,
        run.schedule
    );
    // EJCTL_NETNS_KEEP=1 keeps the records and every worker's log of a run that passed too.
    if summary.violations.is_empty() && std::env::var_os("EJCTL_NETNS_KEEP").is_some() {
        println!("records and logs kept in {}", run.outcome.dir.keep().display());
    } else if !summary.violations.is_empty() {
        let kept = run.outcome.dir.keep();
        panic!(
            "{}\nseed {}; schedule (ms after {}):\n{}{:#?}\n{}records and every host's log kept in {}",
            summary.line(),
            config.seed,
            run.outcome.started,
            run.schedule,
            summary.violations,
            run.logs,
            kept.display()
        );
    }
}
