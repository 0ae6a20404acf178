//! The ZooKeeper footprint of ejctl workers, from the server's own counters: per job and per
//! instance the znodes, ephemerals, data bytes, watches (`wchs`) and start-up requests, and the
//! requests per second of idle workers. In-process workers, each with its own ZooKeeper session
//! (the code path of `ejctl run`), on a server started by the test support. Then the reads and
//! writes per fire per instance, idle traffic subtracted: up to `--fire-jobs` jobs of the shape
//! (10 by default: each fire of each item spawns `/bin/true`) at a 1-second cron,
//! `monitor_execution` on, over a window of `--fires` fires (0: not measured); the `zk` section
//! of `cargo bench --bench runtime` measures the same with `ejctl run` processes. A small
//! configuration of the same code runs as a test (`tests/footprint.rs`).
//!
//! `cargo bench --bench footprint [-- --shapes 100x2x4,1000x2x4,100x10x4 --idle 10 --fires 10
//! --fire-jobs 10 --json]` (shapes are JOBSxINSTANCESxITEMS).

// A benchmark reports on stdout and its progress on stderr.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde_json::json;
use support::ZkServer;
use support::footprint::measure;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<()> {
    let mut shapes = vec![(100, 2, 4), (1000, 2, 4), (100, 10, 4)];
    let mut idle = 10;
    let mut fires = 10;
    let mut fire_jobs = 10;
    let mut as_json = false;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--shapes" => {
                shapes = value()?
                    .split(',')
                    .map(|s| {
                        let p: Vec<&str> = s.split('x').collect();
                        let [j, n, t] = p.as_slice() else { bail!("shape '{s}': expected JOBSxINSTANCESxITEMS") };
                        Ok((j.parse()?, n.parse()?, t.parse()?))
                    })
                    .collect::<Result<_>>()?;
            }
            "--idle" => idle = value()?.parse()?,
            "--fires" => fires = value()?.parse()?,
            "--fire-jobs" => fire_jobs = value()?.parse()?,
            "--quick" => {
                shapes = vec![(100, 2, 4)];
                idle = 3;
                fires = 5;
            }
            "--json" => as_json = true,
            "--bench" => {}
            other => bail!(
                "unknown argument '{other}'\nusage: cargo bench --bench footprint [-- --shapes JxNxT,... --idle S --fires N --fire-jobs J --quick --json]"
            ),
        }
    }
    let mut rows = Vec::new();
    for (jobs, instances, items) in shapes {
        eprintln!("[footprint] {jobs} jobs x {instances} instances x {items} items");
        let server = ZkServer::start();
        let fire = (fires > 0).then_some((fire_jobs.min(jobs), fires));
        rows.push(measure(&server, jobs, instances, items, Duration::from_secs(idle), fire).await);
    }
    if as_json {
        println!("{}", json!({"footprint": rows.iter().map(support::footprint::Footprint::json).collect::<Vec<_>>()}));
    } else {
        println!(
            "ZooKeeper footprint (one server, in-process workers with a session each; idle window {idle} s; reads and \
writes per fire = zk_cnt_readlatency and zk_cnt_updatelatency, a multi is one write, idle traffic subtracted)"
        );
        for row in &rows {
            println!("  {}", row.row());
        }
    }
    Ok(())
}
