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

use ejctl::registry::codec::{InstanceId, InstanceInfo, JobConfig};
use ejctl::registry::path::{ItemLeaf, JobPaths};
use ejctl::registry::{Mode, Op, Registry, ZkOptions};

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let json = std::env::args().any(|a| a == "--json");
    let jobs = arg("--jobs", 1000);
    let runs = arg("--runs", 7);
    let server = support::zk::ZkServer::start();
    let ns = "bench-admin";
    let mut options = ZkOptions::new(&server.connect_string(), ns);
    options.create_namespace = true;
    let registry = Registry::connect(options).await?;
    let id = InstanceId::new("10.0.0.1", 42);
    let instance = InstanceInfo::new(&id).to_yaml();
    for chunk in (0..jobs).collect::<Vec<usize>>().chunks(50) {
        let mut ops = Vec::new();
        for i in chunk {
            let name = format!("job{i:04}");
            let p = JobPaths::new(&name);
            let mut cfg = JobConfig::new(&name, 2);
            cfg.cron = Some("0/10 * * * * ?".into());
            cfg.description = Some(format!("job number {i}"));
            let mut create =
                |path: String, data: &[u8]| ops.push(Op::Create { path, data: data.to_vec(), mode: Mode::Persistent });
            create(p.root().to_string(), b"SCRIPT");
            create(p.config(), cfg.to_yaml().as_bytes());
            create(p.servers(), b"");
            create(p.server(id.ip()), b"ENABLED");
            create(p.instances(), b"");
            create(p.instance(id.as_str()), instance.as_bytes());
            create(p.sharding(), b"");
            for item in 0..2 {
                create(p.item(item), b"");
                create(p.item_leaf(item, ItemLeaf::Instance), id.as_str().as_bytes());
            }
        }
        registry.transaction(&ops).await?;
    }
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
