//! Coverage-guided fuzzing of every parser of outside input (the cargo-fuzz targets in `fuzz/`):
//! each target runs for a while from the checked-in seed corpus (new inputs go to a temporary
//! directory, so the corpus stays small); the figures are executions, executions per second,
//! coverage and crashes (a crash leaves its input under `fuzz/artifacts/TARGET/`).
//!
//! `cargo bench --bench fuzz [-- --seconds 300 --json]`; needs cargo-fuzz
//! (`cargo install cargo-fuzz --locked`), which runs on the stable toolchain with `-s none`.

// A benchmark reports on stdout.
#![allow(clippy::print_stdout)]

use std::path::Path;
use std::process::Command;

fn arg<T: std::str::FromStr>(name: &str, default: T) -> T {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The figures libFuzzer prints at the end of a run.
struct Figures {
    target: String,
    execs: u64,
    per_second: u64,
    coverage: u64,
    crashes: u32,
}

/// The last `cov: N` and `exec/s: N` of libFuzzer's status lines, and its final
/// `stat::number_of_executed_units`.
fn parse(target: &str, stderr: &str, crashed: bool) -> Figures {
    let number_after = |line: &str, key: &str| -> Option<u64> {
        let rest = &line[line.find(key)? + key.len()..];
        rest.split_whitespace().next()?.parse().ok()
    };
    let status = stderr.lines().rev().find(|l| l.contains("cov: ") && l.contains("exec/s: ")).unwrap_or_default();
    let execs = stderr.lines().find_map(|l| number_after(l, "stat::number_of_executed_units:")).unwrap_or(0);
    Figures {
        target: target.to_string(),
        execs,
        per_second: number_after(status, "exec/s: ").unwrap_or(0),
        coverage: number_after(status, "cov: ").unwrap_or(0),
        crashes: u32::from(crashed),
    }
}

fn main() -> anyhow::Result<()> {
    let seconds: u64 = arg("--seconds", 300);
    let json = std::env::args().any(|a| a == "--json");
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut targets: Vec<String> = std::fs::read_dir(fuzz.join("fuzz_targets"))?
        .filter_map(|e| e.ok()?.path().file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    targets.sort();
    let built = Command::new("cargo").args(["fuzz", "build", "-s", "none"]).current_dir(&fuzz).status();
    anyhow::ensure!(
        built.is_ok_and(|s| s.success()),
        "cannot build the fuzz targets; install cargo-fuzz with `cargo install cargo-fuzz --locked`"
    );
    let mut all = Vec::new();
    for target in &targets {
        let scratch = tempfile::tempdir()?;
        let out = Command::new("cargo")
            .args(["fuzz", "run", "-s", "none", target])
            .arg(scratch.path())
            .arg(fuzz.join("corpus").join(target))
            .arg("--")
            .arg(format!("-max_total_time={seconds}"))
            .arg("-print_final_stats=1")
            .current_dir(&fuzz)
            .output()?;
        let figures = parse(target, &String::from_utf8_lossy(&out.stderr), !out.status.success());
        if !json {
            println!(
                "{:<16} {:>12} execs {:>9}/s  cov {:>6}  crashes {}",
                figures.target, figures.execs, figures.per_second, figures.coverage, figures.crashes
            );
        }
        all.push(figures);
    }
    let total: u64 = all.iter().map(|f| f.execs).sum();
    let crashes: u32 = all.iter().map(|f| f.crashes).sum();
    if json {
        let targets: Vec<serde_json::Value> = all
            .iter()
            .map(|f| {
                serde_json::json!({"target": f.target, "execs": f.execs, "execsPerSecond": f.per_second,
                    "coverage": f.coverage, "crashes": f.crashes})
            })
            .collect();
        let doc =
            serde_json::json!({"secondsPerTarget": seconds, "execs": total, "crashes": crashes, "targets": targets});
        println!("{doc}");
    } else {
        println!("{} targets, {seconds} s each: {total} execs, {crashes} crashes", all.len());
    }
    anyhow::ensure!(crashes == 0, "{crashes} target(s) crashed; see fuzz/artifacts/");
    Ok(())
}
