//! The network-fault test's long mode: random rounds of every nemesis of
//! tests/support/nemesis.rs, overlapping on different hosts, with operators' commands among them,
//! for a given time; then the delivery guarantee (docs/src/design/guarantee.md) and the operators'
//! commands are checked. Needs root, like the test.
//!
//! `cargo bench --bench netns [-- --seconds 600 --seed 7 --json]`

// A benchmark reports on stdout.
#![allow(clippy::print_stdout, clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use support::nemesis::{self, NetConfig};

fn main() {
    let json = std::env::args().any(|a| a == "--json");
    let config = NetConfig { seconds: support::bench_arg("--seconds", 600), seed: support::bench_arg("--seed", 7) };
    let run = nemesis::run(&config);
    let summary = &run.summary;
    let outcome = &run.outcome;
    let mut kinds = std::collections::BTreeMap::new();
    for f in &outcome.faults {
        *kinds.entry(format!("{:?}", f.kind)).or_insert(0u32) += 1;
    }
    let mut commands = std::collections::BTreeMap::new();
    for a in &outcome.admin {
        let code = a.code.map_or("killed".to_string(), |c| c.to_string());
        *commands.entry(format!("{:?} exit {code}", a.action)).or_insert(0u32) += 1;
    }
    if json {
        println!(
            "{}",
            serde_json::json!({
                "bench": "netns", "seed": config.seed, "seconds": (outcome.ended - outcome.started) / 1000,
                "fires": summary.fires, "item_runs": summary.runs, "kills": summary.kills,
                "failovers": summary.failovers, "repeats": summary.repeats, "misses": summary.misses,
                "overlaps": summary.overlaps, "disobeyed": summary.disobeyed, "waits_ok": summary.waits_ok,
                "faults": kinds, "commands": commands, "recovery_ms": run.recovery,
                "violations": summary.violations,
            })
        );
    } else {
        println!("{}", summary.line());
        println!("seed {}, {} s checked", config.seed, (outcome.ended - outcome.started) / 1000);
        println!("faults: {kinds:?}");
        println!("commands: {commands:?}");
        println!("recovery (ms from a heal to every item running again, longest per kind): {:?}", run.recovery);
        println!("worker logs:\n{}", run.bites);
        for v in &summary.violations {
            println!("  violation: {v}");
        }
    }
    if !summary.violations.is_empty() {
        println!("schedule (ms after {}):\n{}{}", outcome.started, run.schedule, run.logs);
        let kept = run.outcome.dir.keep();
        println!("records and logs kept in {}", kept.display());
        std::process::exit(1);
    }
}
