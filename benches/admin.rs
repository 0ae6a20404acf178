//! `ejctl job list -o json` over a namespace of 1,000 jobs on a real ZooKeeper, end to end
//! (process start-up, connect, pipelined reads, render).
//!
//! `cargo bench --bench admin [-- --jobs 1000 --runs 7 --json]`

// A benchmark reports on stdout.
#![allow(clippy::print_stdout)]

#[path = "../tests/support/mod.rs"]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod support;

use std::process::Command;
use std::time::{Duration, Instant};

use ejctl::registry::{Mode, Registry};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let json = std::env::args().any(|a| a == "--json");
    let jobs = support::bench_arg("--jobs", 1000);
    let runs = support::bench_arg("--runs", 7);
    let server = support::zk::ZkServer::start();
    let ns = "bench-admin";
    let registry = Registry::connect(support::zk_options(&server.connect_string(), ns)).await?;
    // Persistent instance nodes: the figures do not depend on this session staying alive.
    support::seed_jobs(&registry, jobs, Mode::Persistent).await;
    let exe = env!("CARGO_BIN_EXE_ejctl");
    let mut times = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        let out = Command::new(exe)
            .args(["job", "list", "-o", "json", "--zk", &server.connect_string(), "--namespace", ns])
            .output()?;
        times.push(started.elapsed());
        anyhow::ensure!(out.status.success(), "ejctl job list failed: {}", String::from_utf8_lossy(&out.stderr));
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout)?;
        anyhow::ensure!(doc["jobs"].as_array().map_or(0, Vec::len) == jobs, "not every job was listed");
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let (min, median, max) = (ms(times[0]), ms(times[times.len() / 2]), ms(times[times.len() - 1]));
    if json {
        println!(
            "{}",
            serde_json::json!({"bench": "admin", "jobs": jobs, "runs": runs, "job_list_ms": {"min": min, "median": median, "max": max}})
        );
    } else {
        println!("ejctl job list -o json over {jobs} jobs on ZooKeeper 3.8 (loopback, {runs} runs)");
        println!("  whole process   min {min:.0} ms   median {median:.0} ms   max {max:.0} ms");
    }
    Ok(())
}
