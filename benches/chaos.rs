//! The chaos test's long mode: random faults of every kind for a given time, then the delivery
//! guarantee (docs/src/design/guarantee.md) is checked (see `tests/support/chaos.rs`).
//!
//! `cargo bench --bench chaos [-- --minutes 30 --seed 7 --json]`

// A benchmark reports on stdout.
#![allow(clippy::print_stdout, clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use support::chaos::{self, ChaosConfig};

fn main() {
    let json = std::env::args().any(|a| a == "--json");
    let config = ChaosConfig {
        seconds: support::bench_arg("--minutes", 30) * 60,
        seed: support::bench_arg("--seed", 7),
        every_kind_once: false,
        ..ChaosConfig::ci()
    };
    let outcome = chaos::run(config);
    let summary = chaos::check(&outcome);
    let mut kinds = std::collections::BTreeMap::new();
    for f in &outcome.faults {
        *kinds.entry(format!("{:?}", f.kind)).or_insert(0u32) += 1;
    }
    if json {
        println!(
            "{}",
            serde_json::json!({
                "bench": "chaos", "minutes": (outcome.ended - outcome.started) / 60_000,
                "fires": summary.fires, "item_runs": summary.runs, "kills": summary.kills,
                "failovers": summary.failovers, "repeats": summary.repeats, "misses": summary.misses,
                "overlaps": summary.overlaps, "faults": kinds, "violations": summary.violations,
            })
        );
    } else {
        println!("{}", summary.line());
        println!("faults: {kinds:?}");
        for v in &summary.violations {
            println!("  violation: {v}");
        }
    }
    if !summary.violations.is_empty() {
        let kept = outcome.dir.keep();
        println!("records and logs kept in {}", kept.display());
        std::process::exit(1);
    }
}
