//! The deterministic simulation (`support::sim`): a fixed set of seeds, each a cluster of workers
//! under a seeded fault and operator schedule, checked against docs/src/design/guarantee.md and
//! liveness; a replay check; and the mutation check — every known bug the runtime can be switched
//! into is caught.

// Test code: a failed unwrap is a failed test, with the value in the message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use ejctl::runtime::InjectedBug;

use support::sim::{self, SimConfig, check};

/// How many seeds `cargo test` runs (split over two threads).
const SEEDS: u64 = 1000;

/// How many seeds the mutation check may need to catch a bug, searched on two threads. Most bugs
/// are caught by the first seeds; `reshard-while-running` only in rare interleavings (the
/// `running` nodes keep an item's new owner off it while its old owner still runs it: it takes an
/// operator's change of the total or a partitioned owner that keeps firing), and which seed
/// catches it moves with any change to the runtime's timing — the bound leaves room for that.
const MUTATION_SEEDS: u64 = 1000;

/// The sharding items of the mutation check's job: twice the suite's, which makes the rare
/// interleavings above less rare.
const MUTATION_ITEMS: u32 = 8;

fn report(outcome: &sim::SimOutcome, verdict: &check::Verdict) -> String {
    let mut out = format!(
        "seed {}: {} violation(s); replay: cargo bench --bench simulation -- --seed {}{}\n",
        outcome.config.seed,
        verdict.violations.len(),
        outcome.config.seed,
        outcome.config.bugs.iter().map(|b| format!(" --inject {}", b.name())).collect::<String>()
    );
    for v in verdict.violations.iter().take(10) {
        out.push_str(&format!("  {v}\n"));
    }
    if let Some(trace) = check::first_trace(outcome, verdict) {
        out.push_str(&trace);
    }
    out
}

fn run_seeds(seeds: std::ops::Range<u64>) -> Vec<String> {
    let mut failures = Vec::new();
    for seed in seeds {
        let outcome = sim::run(&SimConfig::new(seed));
        let verdict = check::check(&outcome);
        if !verdict.ok() {
            failures.push(report(&outcome, &verdict));
        }
    }
    failures
}

#[test]
fn a_thousand_seeded_fault_schedules_keep_the_delivery_guarantee() {
    let started = Instant::now();
    let half = SEEDS / 2;
    let other = std::thread::spawn(move || run_seeds(half..SEEDS));
    let mut failures = run_seeds(0..half);
    failures.extend(other.join().unwrap_or_else(|_| vec!["a simulation thread panicked".into()]));
    eprintln!("simulation: {SEEDS} seeds in {:.1} s", started.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "{} seed(s) failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn a_seed_replays_exactly() {
    let a = sim::run(&SimConfig::new(4242));
    let b = sim::run(&SimConfig::new(4242));
    assert!(!a.runs.is_empty());
    assert_eq!(sim::history(&a), sim::history(&b));
    assert_eq!(a.events.len(), b.events.len());
}

#[test]
fn the_checker_catches_every_injected_bug() {
    for bug in InjectedBug::ALL {
        let caught = first_catch(bug);
        assert!(caught.is_some(), "{} was not caught within {MUTATION_SEEDS} seeds", bug.name());
        eprintln!("simulation: {} caught by seed {}", bug.name(), caught.unwrap_or_default());
    }
}

/// The first seed below [`MUTATION_SEEDS`] whose run with `bug` the checker rejects: two threads
/// take the even and the odd seeds, and each stops once a lower seed has caught it.
fn first_catch(bug: InjectedBug) -> Option<u64> {
    let found = AtomicU64::new(u64::MAX);
    std::thread::scope(|scope| {
        for lane in 0..2 {
            let found = &found;
            scope.spawn(move || {
                let mut seed = lane;
                while seed < MUTATION_SEEDS && seed < found.load(Ordering::SeqCst) {
                    let mut config = SimConfig::new(seed);
                    config.items = MUTATION_ITEMS;
                    config.bugs = vec![bug];
                    if !check::check(&sim::run(&config)).ok() {
                        found.fetch_min(seed, Ordering::SeqCst);
                        return;
                    }
                    seed += 2;
                }
            });
        }
    });
    Some(found.into_inner()).filter(|&seed| seed != u64::MAX)
}
