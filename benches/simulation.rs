//! The deterministic simulation as a benchmark: explores seeds and prints how much it covered and
//! what the checker found.
//!
//! ```text
//! cargo bench --bench simulation [-- --seeds N] [--seed S] [--items N] [--inject NAME|list] [--json]
//! ```
//!
//! `--seeds N` runs seeds `S..S+N` (`S` from `--seed`, default 0; default N 1000); `--seed S`
//! alone replays one seed and prints its trace on a violation. `--items N` gives the job N
//! sharding items (default the suite's; the mutation check uses 8). `--inject NAME` switches a
//! known bug on (`--inject list` names them). Prints seeds run, simulated fires and hours, runs per second
//! of real time, and violations; a violation prints its seed, the command that replays it, and the
//! events and runs around it. Exit status 1 when a seed violated the guarantee.

// A benchmark reports its figures on stdout and its progress on stderr; its helpers unwrap only
// what was just written (a file path of a temporary directory).
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

#[path = "../tests/support/mod.rs"]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod support;

use std::time::Instant;

use ejctl::runtime::InjectedBug;
use support::sim::{self, SimConfig, check};
use tracing_subscriber::Layer as _;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

fn main() {
    // `RUST_LOG=ejctl=debug` shows what the simulated workers log (with virtual timestamps off).
    if let Some(filter) = std::env::var("RUST_LOG").ok().and_then(|v| v.parse::<Targets>().ok()) {
        let layer =
            tracing_subscriber::fmt::layer().with_writer(std::io::stderr).with_timer(VirtualTime).with_ansi(false);
        let _ = tracing_subscriber::registry().with(layer.with_filter(filter)).try_init();
    }
    let json = std::env::args().any(|a| a == "--json");
    let inject = arg("--inject");
    if inject.as_deref() == Some("list") {
        for bug in InjectedBug::ALL {
            println!("{}", bug.name());
        }
        return;
    }
    let bugs: Vec<InjectedBug> = match &inject {
        None => Vec::new(),
        Some(name) => match InjectedBug::ALL.into_iter().find(|b| b.name() == name) {
            Some(b) => vec![b],
            None => {
                eprintln!("unknown bug '{name}'; `--inject list` names them");
                std::process::exit(2);
            }
        },
    };
    let items: Option<u32> = arg("--items").and_then(|s| s.parse().ok());
    let first: u64 = arg("--seed").and_then(|s| s.parse().ok()).unwrap_or(0);
    let replay_one = arg("--seed").is_some() && arg("--seeds").is_none();
    let count: u64 = if replay_one { 1 } else { arg("--seeds").and_then(|s| s.parse().ok()).unwrap_or(1000) };

    let started = Instant::now();
    let (mut fires, mut runs, mut simulated_ms, mut violating) = (0usize, 0usize, 0i64, Vec::new());
    let (mut events, mut waits, mut waits_done) = (0usize, 0usize, 0usize);
    for seed in first..first + count {
        let mut config = SimConfig::new(seed);
        config.bugs.clone_from(&bugs);
        if let Some(n) = items {
            config.items = n;
        }
        let outcome = sim::run(&config);
        if std::env::var_os("SIM_HISTORY").is_some() {
            for line in sim::history(&outcome) {
                println!("seed {seed}: {line}");
            }
        }
        let verdict = check::check(&outcome);
        fires += verdict.fires;
        runs += verdict.runs;
        events += outcome.events.len();
        waits += verdict.waits;
        waits_done += verdict.waits_done;
        simulated_ms += outcome.ended - outcome.checked_from;
        if !verdict.ok() {
            let replay = format!(
                "cargo bench --bench simulation -- --seed {seed}{}{}",
                items.map(|n| format!(" --items {n}")).unwrap_or_default(),
                inject.as_ref().map(|n| format!(" --inject {n}")).unwrap_or_default()
            );
            eprintln!("seed {seed}: {} violation(s); replay: {replay}", verdict.violations.len());
            for v in verdict.violations.iter().take(5) {
                eprintln!("  {v}");
            }
            if let Some(trace) = check::first_trace(&outcome, &verdict) {
                eprint!("{trace}");
            }
            let texts: Vec<&str> = verdict.violations.iter().map(|v| v.text.as_str()).collect();
            violating.push(serde_json::json!({"seed": seed, "violations": texts, "replay": replay}));
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let hours = simulated_ms as f64 / 3_600_000.0;
    if json {
        println!(
            "{}",
            serde_json::json!({
                "bench": "simulation",
                "seeds": count,
                "first_seed": first,
                "inject": inject,
                "violations": violating,
                "violating_seeds": violating.len(),
                "simulated_fires": fires,
                "simulated_hours": hours,
                "item_runs": runs,
                "events": events,
                "trigger_waits": waits,
                "trigger_waits_done": waits_done,
                "wall_s": secs,
                "seeds_per_minute": count as f64 / secs * 60.0,
                "runs_per_second": runs as f64 / secs,
            })
        );
    } else {
        println!(
            "simulation: seeds={count} violating={} simulated_fires={fires} simulated_hours={hours:.2} item_runs={runs} events={events} trigger_waits={waits} (done {waits_done}) wall={secs:.1}s seeds/min={:.0} runs/s={:.0}",
            violating.len(),
            count as f64 / secs * 60.0,
            runs as f64 / secs
        );
    }
    if !violating.is_empty() {
        std::process::exit(1);
    }
}

/// Log timestamps in simulated milliseconds.
struct VirtualTime;

impl tracing_subscriber::fmt::time::FormatTime for VirtualTime {
    fn format_time(&self, w: &mut tracing_subscriber::fmt::format::Writer<'_>) -> std::fmt::Result {
        static EPOCH: std::sync::OnceLock<tokio::time::Instant> = std::sync::OnceLock::new();
        let epoch = *EPOCH.get_or_init(tokio::time::Instant::now);
        write!(w, "{:>8}", tokio::time::Instant::now().duration_since(epoch).as_millis())
    }
}
