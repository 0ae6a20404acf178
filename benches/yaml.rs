//! CPU time of decoding the most hostile registry YAML the bounded decoder
//! (`registry::codec::bounded`) still admits: for each family of input (many top-level keys,
//! deepest block and flow nesting, most flow openers, aliases expanding to the limit, a long
//! scalar, many list items), the largest instance that passes the pre-scan, just under its limits
//! (128 KiB, depth 64, 1,024 openers, 100 aliases, 512 KiB expanded; 256 keys and 32 KiB of
//! unmodelled entries).
//!
//! Each input goes through the paths that decode registry YAML: the pre-scan alone,
//! `JobConfig::from_yaml` (with the preserved entries of unmodelled keys), the configuration as
//! JSON (`config get`: each preserved entry decoded again) and `job show` (`job_detail`: the stored
//! text as a generic value). Times are CPU time of the measuring thread (`/proc/thread-self/schedstat`,
//! wall time where that is missing) per call, the median of the runs.
//!
//! `cargo bench --bench yaml [-- --runs 5 --json]`; exits non-zero when a path exceeds the 50 ms
//! target on some input.

// A benchmark reports on stdout.
#![allow(clippy::print_stdout)]

use std::time::Instant;

use ejctl::config::JobConfig;
use ejctl::ops::read::JobData;
use ejctl::registry::codec::bounded::{self, MAX_NODE_BYTES};
use ejctl::registry::{NodeData, Stat, TreeNode};

/// The most CPU time one decode of an admitted input may take.
const TARGET_MS: f64 = 50.0;

fn arg<T: std::str::FromStr>(name: &str, default: T) -> T {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// On-CPU time of this thread, in nanoseconds.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat").ok()?.split_whitespace().next()?.parse().ok()
}

/// The CPU time of one call of `f`, in milliseconds: the median over `runs` batches, each
/// calling `f` for at least 100 ms of wall time (the CPU clock of `/proc` counts in ticks of a
/// few milliseconds), the time of a batch divided by its calls.
fn time<R>(runs: usize, mut f: impl FnMut() -> R) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let (cpu0, wall0) = (cpu_ns(), Instant::now());
            let mut calls = 0u32;
            while calls == 0 || wall0.elapsed().as_millis() < 100 {
                std::hint::black_box(f());
                calls += 1;
            }
            let total = match (cpu0, cpu_ns()) {
                (Some(a), Some(b)) => b.saturating_sub(a) as f64 / 1e6,
                _ => wall0.elapsed().as_secs_f64() * 1000.0,
            };
            total / f64::from(calls)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// `make(n)` for the largest `n` whose text the pre-scan admits (`make` grows with `n`).
fn largest(make: impl Fn(usize) -> String) -> String {
    largest_by(|text| bounded::check(text).is_ok(), make)
}

/// `make(n)` for the largest `n` whose text `JobConfig::from_yaml` decodes.
fn largest_decoded(make: impl Fn(usize) -> String) -> String {
    largest_by(|text| JobConfig::from_yaml(text).is_ok(), make)
}

/// `make(n)` for the largest `n` whose text `admitted` accepts.
fn largest_by(admitted: impl Fn(&str) -> bool, make: impl Fn(usize) -> String) -> String {
    let admitted = |n: usize| admitted(&make(n));
    let mut hi = 1;
    while admitted(hi) {
        hi *= 2;
    }
    let mut lo = hi / 2;
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if admitted(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    make(lo.max(1))
}

/// `text` filled to just under the size limit with `props` entries (the densest modelled
/// content).
fn with_props(text: String) -> String {
    largest(|n| format!("{text}props:\n{}", (0..n).map(|k| format!("  p{k:x}: v\n")).collect::<String>()))
}

/// `text` padded to just under the size limit with a long `description`.
fn padded(text: String) -> String {
    let room = MAX_NODE_BYTES.saturating_sub(text.len() + "description: ''\n".len() + 16);
    format!("{text}description: '{}'\n", "x".repeat(room))
}

/// The deepest `nest(depth)` the pre-scan admits alone.
fn deepest(nest: impl Fn(usize) -> String) -> usize {
    (1..=bounded::MAX_DEPTH * 2).take_while(|&d| bounded::check(&nest(d)).is_ok()).last().unwrap_or(1)
}

fn block_nest(key: usize, depth: usize) -> String {
    let mut s = format!("k{key}:\n");
    for d in 1..depth {
        s.push_str(&format!("{}a:\n", " ".repeat(d)));
    }
    s.push_str(&format!("{}a: 1\n", " ".repeat(depth)));
    s
}

fn seq_nest(key: usize, depth: usize) -> String {
    format!("k{key}:\n{}x\n", "- ".repeat(depth))
}

fn flow_nest(key: usize, depth: usize) -> String {
    format!("k{key}: {}1{}\n", "[".repeat(depth), "]".repeat(depth))
}

fn flow_map_nest(key: usize, depth: usize) -> String {
    format!("k{key}: {}1{}\n", "{a: ".repeat(depth), "}".repeat(depth))
}

/// The hostile inputs, by family.
fn inputs() -> Vec<(&'static str, String)> {
    let head = "jobName: j\nshardingTotalCount: 1\ncron: 0/5 * * * * ?\n";
    let copies = |nest: fn(usize, usize) -> String| {
        let depth = deepest(|d| format!("{head}{}", nest(0, d)));
        largest(move |n| format!("{head}{}", (0..n).map(|k| nest(k, depth)).collect::<String>()))
    };
    let flow_copies = |nest: fn(usize, usize) -> String| {
        let depth = deepest(|d| format!("{head}{}", nest(0, d)));
        padded(largest(move |n| format!("{head}{}", (0..n).map(|k| nest(k, depth)).collect::<String>())))
    };
    vec![
        (
            "top-level keys",
            largest(|n| format!("{head}{}", (0..n).map(|k| format!("k{k:x}: 1\n")).collect::<String>())),
        ),
        (
            "top-level keys, re-serialised",
            // A complex key defeats the block splitter: every entry is re-serialised and checked.
            largest(|n| format!("{head}? [x]\n: 1\n{}", (0..n).map(|k| format!("k{k:x}: 1\n")).collect::<String>())),
        ),
        (
            "unmodelled keys at their limit, props",
            with_props(largest_decoded(|n| {
                format!("{head}{}", (0..n).map(|k| format!("k{k:x}: [a]\n")).collect::<String>())
            })),
        ),
        (
            "unmodelled nesting at its limit, props",
            with_props(largest_decoded(|n| format!("{head}{}", (0..n).map(|k| seq_nest(k, 60)).collect::<String>()))),
        ),
        (
            "unmodelled list at its limit, props",
            with_props(largest_decoded(|n| format!("{head}k: [{}]\n", "1,".repeat(n)))),
        ),
        ("block nesting (mappings)", copies(block_nest)),
        ("block nesting (sequences)", copies(seq_nest)),
        ("flow nesting ([)", flow_copies(flow_nest)),
        ("flow nesting ({)", flow_copies(flow_map_nest)),
        ("flow openers", padded(largest(|n| format!("{head}k: [{}]\n", "[1], ".repeat(n))))),
        ("flow sequence items", largest(|n| format!("{head}k: [{}]\n", "1,".repeat(n)))),
        ("alias to a long scalar", {
            let aliases = bounded::MAX_ALIASES;
            largest(move |n| format!("{head}a: &a {}\nb: [{}]\n", "x".repeat(n), vec!["*a"; aliases].join(", ")))
        }),
        ("alias to a list of scalars", {
            let aliases = bounded::MAX_ALIASES;
            largest(move |n| format!("{head}a: &a [{}]\nb: [{}]\n", "1,".repeat(n), vec!["*a"; aliases].join(", ")))
        }),
        ("alias to a block list", {
            let aliases = bounded::MAX_ALIASES;
            largest(move |n| format!("{head}a: &a\n{}b:\n{}", "- 1\n".repeat(n), "- *a\n".repeat(aliases)))
        }),
        ("nested aliases", {
            // Twelve levels of two aliases each (4,096 copies of the leaf), the leaf as long as
            // the expansion limit allows.
            largest(|n| {
                let mut s = format!("{head}l0: &l0 [{}]\n", "1,".repeat(n));
                for level in 1..12 {
                    s.push_str(&format!("l{level}: &l{level} [*l{0}, *l{0}]\n", level - 1));
                }
                s.push_str("top: [*l11, *l11]\n");
                s
            })
        }),
        ("four aliases to a long scalar", largest(|n| format!("{head}a: &a {}\nb: [*a, *a, *a, *a]\n", "x".repeat(n)))),
        ("long scalar (jobParameter)", largest(|n| format!("{head}jobParameter: '{}'\n", "x".repeat(n)))),
        ("long scalar (unmodelled)", largest(|n| format!("{head}k: '{}'\n", "x".repeat(n)))),
        ("long plain multi-line scalar", largest(|n| format!("{head}k: x\n{}", "  x\n".repeat(n)))),
        ("list items (unmodelled)", largest(|n| format!("{head}k:\n{}", "- a\n".repeat(n)))),
        ("list items (jobListenerTypes)", largest(|n| format!("{head}jobListenerTypes:\n{}", "- a\n".repeat(n)))),
        (
            "props entries",
            largest(|n| format!("{head}props:\n{}", (0..n).map(|k| format!("  p{k:x}: v\n")).collect::<String>())),
        ),
    ]
}

struct Row {
    name: &'static str,
    bytes: usize,
    decoded: bool,
    check: f64,
    from_yaml: f64,
    config_json: f64,
    job_show: f64,
}

impl Row {
    fn max(&self) -> f64 {
        self.check.max(self.from_yaml).max(self.config_json).max(self.job_show)
    }
}

fn measure(name: &'static str, text: &str, runs: usize) -> Row {
    let parsed = JobConfig::from_yaml(text);
    let node = |path: &str, data: &str| TreeNode {
        path: path.to_string(),
        node: NodeData { data: data.as_bytes().to_vec(), stat: Stat::default() },
    };
    let job = JobData::from_nodes("j", &[node("/j", "SCRIPT"), node("/j/config", text)]);
    let now = chrono::Utc::now();
    Row {
        name,
        bytes: text.len(),
        decoded: parsed.is_ok(),
        check: time(runs, || bounded::check(text)),
        from_yaml: time(runs, || JobConfig::from_yaml(text)),
        config_json: parsed.as_ref().map_or(0.0, |cfg| time(runs, || ejctl::ops::config::config_json(cfg))),
        job_show: time(runs, || ejctl::ops::report::job_detail("ns", &job, now)),
    }
}

fn main() -> anyhow::Result<()> {
    let runs: usize = arg("--runs", 5).max(1);
    let json = std::env::args().any(|a| a == "--json");
    let mut rows = Vec::new();
    for (name, text) in inputs() {
        anyhow::ensure!(bounded::check(&text).is_ok(), "{name}: the pre-scan refuses the input built for it");
        rows.push(measure(name, &text, runs));
    }
    let worst = rows.iter().map(Row::max).fold(0.0, f64::max);
    if json {
        let inputs: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({"input": r.name, "bytes": r.bytes, "decoded": r.decoded, "checkMs": r.check,
                    "fromYamlMs": r.from_yaml, "configJsonMs": r.config_json, "jobShowMs": r.job_show})
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({"bench": "yaml", "runs": runs, "targetMs": TARGET_MS, "maxMs": worst, "inputs": inputs})
        );
    } else {
        println!("CPU time per decode of the largest admitted hostile inputs (ms per call, median of {runs} runs)");
        println!(
            "{:<40} {:>7} {:>4} {:>8} {:>9} {:>11} {:>8}",
            "input", "bytes", "ok", "pre-scan", "from_yaml", "config_json", "job_show"
        );
        for r in &rows {
            println!(
                "{:<40} {:>7} {:>4} {:>8.2} {:>9.2} {:>11.2} {:>8.2}",
                r.name,
                r.bytes,
                if r.decoded { "yes" } else { "no" },
                r.check,
                r.from_yaml,
                r.config_json,
                r.job_show
            );
        }
        println!("max {worst:.2} ms (target {TARGET_MS} ms)");
    }
    anyhow::ensure!(worst < TARGET_MS, "a decode took {worst:.2} ms, over the {TARGET_MS} ms target");
    Ok(())
}
