//! `ejctl dump` over a large job tree on a real ZooKeeper.
//!
//! Writes a job with N nodes (default 10,000: config, servers, instances and sharding items with
//! their `instance` and `running` leaves), then times the release `ejctl dump JOB -o plain`
//! process end to end (start-up, connect, pipelined read, render) and the library's
//! `read_subtree` alone. Prints a table, or JSON with `--json`.
//!
//! `cargo bench --bench dump [-- --nodes 10000 --runs 7 --json]`

// A benchmark reports on stdout.
#![allow(clippy::print_stdout)]

#[path = "../tests/support/mod.rs"]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod support;

use support::zk;

use std::process::Command;
use std::time::{Duration, Instant};

use ejctl::registry::path::{ItemLeaf, JobPaths};
use ejctl::registry::{Mode, Op, Registry};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let json = std::env::args().any(|a| a == "--json");
    let target = support::bench_arg("--nodes", 10_000);
    let runs = support::bench_arg("--runs", 7);
    let server = zk::ZkServer::start();
    let ns = "bench-dump";
    let registry = Registry::connect(support::zk_options(&server.connect_string(), ns)).await?;

    let job = JobPaths::new("bigJob");
    let config = "cron: 0/5 * * * * ?\ndisabled: false\nfailover: true\njobName: bigJob\nmaxTimeDiffSeconds: -1\n\
misfire: true\nmonitorExecution: true\noverwrite: false\nreconcileIntervalMinutes: 10\nshardingTotalCount: 3300\nstaticSharding: false\n";
    let mut ops = vec![
        Op::Create { path: job.root().into(), data: b"SCRIPT".to_vec(), mode: Mode::Persistent },
        Op::Create { path: job.config(), data: config.as_bytes().to_vec(), mode: Mode::Persistent },
        Op::Create { path: job.servers(), data: vec![], mode: Mode::Persistent },
        Op::Create { path: job.instances(), data: vec![], mode: Mode::Persistent },
        Op::Create { path: job.sharding(), data: vec![], mode: Mode::Persistent },
    ];
    for i in 0..10u32 {
        let ip = format!("10.0.0.{i}");
        ops.push(Op::Create { path: job.server(&ip), data: b"ENABLED".to_vec(), mode: Mode::Persistent });
        let id = format!("{ip}@-@{}", 1000 + i);
        ops.push(Op::Create {
            path: job.instance(&id),
            data: format!("jobInstanceId: {id}\nserverIp: {ip}\n").into_bytes(),
            mode: Mode::Persistent,
        });
    }
    let mut item = 0u32;
    while ops.len() < target {
        let owner = format!("10.0.0.{}@-@{}", item % 10, 1000 + item % 10);
        ops.push(Op::Create { path: job.item(item), data: vec![], mode: Mode::Persistent });
        ops.push(Op::Create {
            path: job.item_leaf(item, ItemLeaf::Instance),
            data: owner.clone().into_bytes(),
            mode: Mode::Persistent,
        });
        ops.push(Op::Create {
            path: job.item_leaf(item, ItemLeaf::Running),
            data: owner.into_bytes(),
            mode: Mode::Persistent,
        });
        item += 1;
    }
    ops.truncate(target);
    let nodes = ops.len();
    for chunk in ops.chunks(1000) {
        registry.transaction(chunk).await?;
    }

    let started = Instant::now();
    let read = registry.read_subtree(job.root(), &|_| {}).await?.map_or(0, |n| n.len());
    let library = started.elapsed();

    let exe = env!("CARGO_BIN_EXE_ejctl");
    let mut times = Vec::new();
    let mut bytes = 0;
    for _ in 0..runs {
        let started = Instant::now();
        let out = Command::new(exe)
            .args(["dump", "bigJob", "-o", "plain", "--zk", &server.connect_string(), "--namespace", ns])
            .output()?;
        times.push(started.elapsed());
        anyhow::ensure!(out.status.success(), "ejctl dump failed: {}", String::from_utf8_lossy(&out.stderr));
        bytes = out.stdout.len();
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let (min, median, max) = (ms(times[0]), ms(times[times.len() / 2]), ms(times[times.len() - 1]));
    if json {
        println!(
            "{}",
            serde_json::json!({
                "bench": "dump", "nodes": nodes, "nodes_read": read, "runs": runs, "output_bytes": bytes,
                "cli_ms": {"min": min, "median": median, "max": max},
                "read_subtree_ms": ms(library),
            })
        );
    } else {
        println!("ejctl dump of one job tree on ZooKeeper 3.8 (loopback, {runs} runs)");
        println!("  nodes in tree            {nodes} ({read} read by read_subtree)");
        println!("  output                   {bytes} bytes");
        println!("  ejctl dump (process)     min {min:.0} ms   median {median:.0} ms   max {max:.0} ms");
        println!("  read_subtree (library)   {:.0} ms", ms(library));
    }
    Ok(())
}
