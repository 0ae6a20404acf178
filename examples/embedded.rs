//! Jobs written in Rust, run by the ejctl runtime inside this program.
//!
//! Two workers (two instances of the same program, as two machines would be) share an embedded
//! registry and split two jobs between them: a simple job with 4 items every 2 seconds, and a
//! streaming dataflow job that drains a queue. After 10 seconds both stop gracefully.
//!
//! `cargo run --example embedded`
//!
//! With a ZooKeeper registry, `RegistryTarget::ZooKeeper(ZkOptions::new("host:2181", "ns"))`
//! makes the same workers coordinate across processes and machines.

// An example reports on stdout.
#![allow(clippy::print_stdout)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ejctl::config::JobConfig;
use ejctl::exec::context::ShardingContext;
use ejctl::exec::inproc::{DataflowJob, SimpleJob, dataflow, simple};
use ejctl::registry::embedded::EmbeddedStore;
use ejctl::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};

/// A simple job: one call per sharding item per fire.
struct Report {
    worker: &'static str,
}

impl SimpleJob for Report {
    async fn execute(&self, ctx: ShardingContext) -> anyhow::Result<()> {
        println!(
            "[{}] report item {} of {} ({})",
            self.worker,
            ctx.sharding_item,
            ctx.sharding_total_count,
            ctx.sharding_parameter.as_deref().unwrap_or("-")
        );
        Ok(())
    }
}

/// A dataflow job: each item drains its share of a queue, a few entries per fetch.
struct Drain {
    worker: &'static str,
    queue: Arc<Mutex<VecDeque<u32>>>,
}

impl DataflowJob for Drain {
    type Item = u32;

    async fn fetch(&self, ctx: &ShardingContext) -> anyhow::Result<Vec<u32>> {
        let mut queue = self.queue.lock().map_err(|_| anyhow::anyhow!("queue lock poisoned"))?;
        let total = ctx.sharding_total_count;
        let mine: Vec<u32> = queue.iter().copied().filter(|v| v % total == ctx.sharding_item).take(3).collect();
        queue.retain(|v| !mine.contains(v));
        Ok(mine)
    }

    async fn process(&self, ctx: &ShardingContext, data: Vec<u32>) -> anyhow::Result<()> {
        println!("[{}] drain item {}: processed {data:?}", self.worker, ctx.sharding_item);
        Ok(())
    }
}

fn worker(store: &EmbeddedStore, name: &'static str, pid: u32, queue: &Arc<Mutex<VecDeque<u32>>>) -> WorkerConfig {
    let mut report = JobConfig::new("report", 4);
    report.cron = Some("0/2 * * * * ?".into());
    report.sharding_item_parameters = Some("0=north,1=south,2=east,3=west".into());
    let mut drain = JobConfig::new("drain", 2);
    drain.cron = Some("0/3 * * * * ?".into());
    drain.props.insert("streaming.process".into(), "true".into());
    let jobs = vec![
        JobDefinition::in_process(report, "Report", simple(Report { worker: name })),
        JobDefinition::in_process(drain, "Drain", dataflow(Drain { worker: name, queue: Arc::clone(queue) })),
    ];
    let mut config = WorkerConfig::new(RegistryTarget::Embedded(store.clone()), jobs);
    // Two instances in one process need distinct ids: ip@-@pid.
    config.ip = Some("127.0.0.1".into());
    config.pid = Some(pid);
    config
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let store = EmbeddedStore::new();
    let queue = Arc::new(Mutex::new((0..40).collect::<VecDeque<u32>>()));
    let a = Worker::start(worker(&store, "a", 1, &queue)).await?;
    let b = Worker::start(worker(&store, "b", 2, &queue)).await?;
    println!("workers {} and {} running; stopping in 10 s", a.instance_id(), b.instance_id());
    tokio::time::sleep(Duration::from_secs(10)).await;
    tokio::join!(a.shutdown(), b.shutdown());
    let left = queue.lock().map_err(|_| anyhow::anyhow!("queue lock poisoned"))?.len();
    println!("stopped; {left} queue entries left");
    Ok(())
}
