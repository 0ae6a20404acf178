//! Resharding at scale: one job with many items over many instances, in-process workers on the
//! embedded registry (the same runtime code as `ejctl run`, each worker its own session).
//!
//! N workers run a job of T items (cron once a day, so only membership changes move items). Each
//! round one more worker joins, then one leaves (a graceful stop); measured from the change (the
//! join's instance node appearing, the leaver's disappearing, as a subtree watch in this process
//! sees them) to the new sharding being in place: `leader/sharding/processing` removed by the
//! sharding transaction, no `necessary` flag, every item owned by a live instance (the joiner
//! included). The watch is read on a thread of its own, which notes when each event arrived: read
//! by the benchmark's task, which shares the runtime with the workers, a change and the sharding
//! that answered it could be taken in one go, and measured 0.1 ms apart.
//! Reported as p50/p99/max over the rounds. Each change waits a pause first (1 s by
//! default) so that it meets a settled cluster; with `--pause 0` the changes come back to back and
//! each meets 100 instances still taking in the last reshard.
//!
//! `cargo bench --bench reshard [-- --instances 100 --items 1000 --rounds 20 --pause MS --json]`

// A benchmark reports on stdout and its progress on stderr.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use ejctl::config::JobConfig;
use ejctl::registry::codec::{InstanceId, JobType};
use ejctl::registry::embedded::EmbeddedStore;
use ejctl::registry::path::{ItemLeaf, JobPaths};
use ejctl::registry::{Registry, SubtreeWatch, WatchEvent};
use ejctl::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};
use serde_json::json;
use tokio::sync::mpsc;

const JOB: &str = "reshard";

struct Opts {
    instances: u32,
    items: i32,
    rounds: usize,
    pause: Duration,
    json: bool,
}

fn opts() -> Result<Opts> {
    let mut o = Opts { instances: 100, items: 1000, rounds: 20, pause: Duration::from_secs(1), json: false };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--instances" => o.instances = value()?.parse()?,
            "--items" => o.items = value()?.parse()?,
            "--rounds" => o.rounds = value()?.parse()?,
            "--pause" => o.pause = Duration::from_millis(value()?.parse()?),
            "--json" => o.json = true,
            "--quick" => o.rounds = 3,
            "--bench" => {}
            other => bail!(
                "unknown argument '{other}'\nusage: cargo bench --bench reshard [-- --instances N --items T --rounds R --pause MS --quick --json]"
            ),
        }
    }
    ensure!(o.instances > 0 && o.items > 0 && o.rounds > 0, "counts must be positive");
    Ok(o)
}

/// Worker `i`'s address.
fn ip(i: u32) -> String {
    format!("10.{}.{}.{}", i / 62_500, i / 250 % 250, i % 250 + 1)
}

async fn start(store: EmbeddedStore, i: u32, items: i32) -> Result<Worker> {
    let mut config = JobConfig::new(JOB, items);
    config.cron = Some("0 0 3 * * ?".into());
    config.props.insert("script.command.line".into(), "/bin/true".into());
    let mut worker =
        WorkerConfig::new(RegistryTarget::Embedded(store), vec![JobDefinition::new(JobType::Script, config)]);
    worker.ip = Some(ip(i));
    worker.pid = Some(i);
    Worker::start(worker).await
}

/// True when the sharding is settled over exactly `live`.
async fn settled(r: &Registry, paths: &JobPaths, items: i32, live: &BTreeSet<String>) -> Result<bool> {
    if r.exists(&paths.sharding_necessary()).await?.is_some() || r.exists(&paths.sharding_processing()).await?.is_some()
    {
        return Ok(false);
    }
    let owners: Vec<String> = (0..items as u32).map(|i| paths.item_leaf(i, ItemLeaf::Instance)).collect();
    let owners = r.get_many(&owners).await?;
    let owned: BTreeSet<String> = owners.iter().flatten().map(|n| n.text()).collect();
    Ok(owners.iter().all(|o| o.as_ref().is_some_and(|n| live.contains(&n.text()))) && owned == *live)
}

/// The watch's events, each with the instant it arrived, read on a thread of its own.
fn stamped(mut watch: SubtreeWatch) -> Result<mpsc::UnboundedReceiver<(WatchEvent, Instant)>> {
    let (tx, rx) = mpsc::unbounded_channel();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    std::thread::spawn(move || {
        runtime.block_on(async move {
            while let Some(event) = watch.next().await {
                if tx.send((event, Instant::now())).is_err() {
                    break;
                }
            }
        });
    });
    Ok(rx)
}

/// Waits for `change` (an instance node event), then for the sharding to settle over `live`;
/// returns the time from the change to the end of the sharding transaction that settled it.
async fn measure(
    r: &Registry,
    watch: &mut mpsc::UnboundedReceiver<(WatchEvent, Instant)>,
    paths: &JobPaths,
    items: i32,
    live: &BTreeSet<String>,
    change: &str,
) -> Result<Duration> {
    let processing = paths.sharding_processing();
    let mut since = None;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let stamped = tokio::time::timeout_at(deadline.into(), watch.recv()).await.context("timed out")?;
        let (event, now) = match stamped {
            Some((event, at)) => (Some(event), at),
            None => (None, Instant::now()),
        };
        match event {
            Some(WatchEvent::Created(p) | WatchEvent::Deleted(p)) if *p == *change && since.is_none() => {
                since = Some(now);
            }
            Some(WatchEvent::Deleted(p)) if *p == *processing => {
                if let Some(t0) = since
                    && settled(r, paths, items, live).await?
                {
                    return Ok(now - t0);
                }
            }
            Some(_) => {}
            None => bail!("the registry went away"),
        }
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<()> {
    let o = opts()?;
    let store = EmbeddedStore::new();
    let paths = JobPaths::new(JOB);
    let r = Registry::embedded(&store);
    eprintln!("starting {} workers, one job of {} items", o.instances, o.items);
    let started = Instant::now();
    let mut workers = Vec::new();
    for i in 1..=o.instances {
        workers.push(start(store.clone(), i, o.items).await?);
    }
    let mut live: BTreeSet<String> = workers.iter().map(|w| w.instance_id().to_string()).collect();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !settled(&r, &paths, o.items, &live).await? {
        ensure!(Instant::now() < deadline, "the first sharding did not settle");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    eprintln!("settled in {:.1} s", started.elapsed().as_secs_f64());
    let mut watch = stamped(r.watch_subtree(paths.root()).await?)?;
    let (mut joins, mut leaves) = (Vec::new(), Vec::new());
    for (round, next) in (0..o.rounds).zip(o.instances + 1..) {
        tokio::time::sleep(o.pause).await;
        // Measured while the joiner still starts: the leader may reshard before its start
        // returns, and the change's event must be taken as it comes, not after.
        let id = InstanceId::new(&ip(next), next).as_str().to_string();
        live.insert(id.clone());
        let joiner = tokio::spawn(start(store.clone(), next, o.items));
        joins.push(measure(&r, &mut watch, &paths, o.items, &live, &paths.instance(&id)).await?.as_secs_f64() * 1e3);
        let worker = joiner.await??;
        ensure!(worker.instance_id().as_str() == id, "the joiner is {}, not {id}", worker.instance_id());
        workers.push(worker);
        let leaver = workers.remove(round % workers.len());
        let id = leaver.instance_id().to_string();
        live.remove(&id);
        tokio::time::sleep(o.pause).await;
        let stop = tokio::spawn(leaver.shutdown());
        leaves.push(measure(&r, &mut watch, &paths, o.items, &live, &paths.instance(&id)).await?.as_secs_f64() * 1e3);
        stop.await?;
        eprintln!("round {}: join {:.1} ms, leave {:.1} ms", round + 1, joins[round], leaves[round]);
    }
    let stats = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (percentile(v, 0.5), percentile(v, 0.99), v[v.len() - 1])
    };
    let (j, l) = (stats(&mut joins), stats(&mut leaves));
    if o.json {
        let fig = |s: (f64, f64, f64)| json!({"p50_ms": s.0, "p99_ms": s.1, "max_ms": s.2});
        let doc = json!({"instances": o.instances, "items": o.items, "rounds": o.rounds, "pause_ms": o.pause.as_millis() as u64, "join": fig(j), "leave": fig(l)});
        println!("{doc}");
    } else {
        println!(
            "Reshard: one job of {} items over {} in-process instances (embedded registry), {} rounds",
            o.items, o.instances, o.rounds
        );
        println!("  join   p50 {:>7.1} ms  p99 {:>7.1} ms  max {:>7.1} ms", j.0, j.1, j.2);
        println!("  leave  p50 {:>7.1} ms  p99 {:>7.1} ms  max {:>7.1} ms", l.0, l.1, l.2);
    }
    for worker in workers {
        worker.kill().await;
    }
    Ok(())
}
