//! ZooKeeper at scale: many in-process instances (each its own ZooKeeper session over a
//! 3-member ensemble's connect string, the code path of `ejctl run`) times many jobs, on an
//! ensemble started by the test support. Per step of the grid: the start-up wall time until every
//! job is sharded, the tree (znodes, ephemerals, data bytes, watches), ZooKeeper's own latency
//! (`mntr`) during the start-up and during the reshards, and the reshard time when an instance
//! joins and when it leaves (every job reshards). What is measured and how is in
//! `tests/support/scale.rs`; a small configuration runs as a test (`tests/scale.rs`).
//!
//! `cargo bench --bench scale [-- --instances 10,30 --jobs 100,300 --items 4 --rounds 3
//! --heap 1024 --timeout 900 --quick --json]`
//!
//! The default grid (10 and 30 instances times 100 and 300 jobs, 3 rounds) took 4.6 minutes on a
//! shared 2-core machine; every step starts a fresh ensemble. All the instances run
//! in this one process, so what grows first with the instances is this process's own work (each
//! event goes to every instance of the job): 30 instances times 1,000 jobs takes over ten minutes
//! here, most of it in the instances, not in ZooKeeper.

// A benchmark reports on stdout and its progress on stderr.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::Duration;

use anyhow::{Context, Result, bail, ensure};
use serde_json::json;
use support::ZkEnsemble;
use support::scale::{Shape, Step, measure};

struct Opts {
    instances: Vec<u32>,
    jobs: Vec<usize>,
    items: i32,
    rounds: usize,
    heap_mb: u32,
    timeout: Duration,
    json: bool,
}

fn list<T: std::str::FromStr>(s: &str) -> Result<Vec<T>>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    s.split(',').map(|v| v.trim().parse::<T>().with_context(|| format!("'{v}' in '{s}'"))).collect()
}

fn opts() -> Result<Opts> {
    let mut o = Opts {
        instances: vec![10, 30],
        jobs: vec![100, 300],
        items: 4,
        rounds: 3,
        heap_mb: 1024,
        timeout: Duration::from_secs(900),
        json: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--instances" => o.instances = list(value()?)?,
            "--jobs" => o.jobs = list(value()?)?,
            "--items" => o.items = value()?.parse()?,
            "--rounds" => o.rounds = value()?.parse()?,
            "--heap" => o.heap_mb = value()?.parse()?,
            "--timeout" => o.timeout = Duration::from_secs(value()?.parse()?),
            "--quick" => {
                o.instances = vec![5];
                o.jobs = vec![100];
                o.rounds = 1;
            }
            "--json" => o.json = true,
            "--bench" => {}
            other => bail!(
                "unknown argument '{other}'\nusage: cargo bench --bench scale [-- --instances N,... --jobs J,... --items T --rounds R --heap MIB --timeout S --quick --json]"
            ),
        }
    }
    ensure!(
        o.items > 0 && o.instances.iter().all(|&n| n > o.items as u32) && o.jobs.iter().all(|&j| j > 0),
        "instances must outnumber items (so that a joiner takes an item of every job), and counts be positive"
    );
    Ok(o)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<()> {
    let o = opts()?;
    let mut steps: Vec<Step> = Vec::new();
    for &instances in &o.instances {
        for &jobs in &o.jobs {
            let shape = Shape { instances, jobs, items: o.items, rounds: o.rounds };
            eprintln!("[scale] {instances} instances x {jobs} jobs x {} items, {} rounds", o.items, o.rounds);
            let ensemble = ZkEnsemble::start_with_heap(o.heap_mb);
            let step = measure(&ensemble, shape, o.timeout).await?;
            eprintln!("{}", step.rows());
            steps.push(step);
        }
    }
    if o.json {
        println!(
            "{}",
            json!({"scale": steps.iter().map(Step::json).collect::<Vec<_>>(), "heap_mib_per_member": o.heap_mb})
        );
    } else {
        println!(
            "ZooKeeper at scale: a 3-member ensemble ({} MiB heap each), in-process instances with a session each, jobs of {} items with a daily cron",
            o.heap_mb, o.items
        );
        for step in &steps {
            println!("  {}", step.rows());
        }
    }
    Ok(())
}
