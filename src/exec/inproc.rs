//! Jobs implemented in Rust and run in the worker process: the library API.
//!
//! Implement [`SimpleJob`] (one call per item) or [`DataflowJob`] (fetch, then process), wrap it
//! with [`simple`] or [`dataflow`] and register it with the runtime under a type name (see
//! `runtime::JobSetup::in_process`). The runtime calls it exactly as it runs a script: once per
//! local sharding item per fire, items of one fire concurrently, never two runs of one item at
//! once. An `Err` fails the item; a panic fails the item too (the task is isolated). When the
//! worker must stop an item (timeout, fencing, a forced shutdown) the future is dropped.
//!
//! ```no_run
//! use ejctl::exec::context::ShardingContext;
//! use ejctl::exec::inproc::{SimpleJob, simple};
//!
//! struct Hello;
//!
//! impl SimpleJob for Hello {
//!     async fn execute(&self, ctx: ShardingContext) -> anyhow::Result<()> {
//!         tracing::info!(item = ctx.sharding_item, "hello from {}", ctx.job_name);
//!         Ok(())
//!     }
//! }
//!
//! let job = simple(Hello);
//! # let _ = job;
//! ```

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::context::ShardingContext;
use super::{ItemOutcome, RunControl};

/// A job that runs one call per sharding item.
pub trait SimpleJob: Send + Sync + 'static {
    /// Executes one item.
    fn execute(&self, ctx: ShardingContext) -> impl Future<Output = anyhow::Result<()>> + Send;
}

/// A job that fetches data and processes it (ElasticJob's `DataflowJob`).
pub trait DataflowJob: Send + Sync + 'static {
    /// The data type passed from fetch to process.
    type Item: Send + 'static;

    /// Fetches the next batch for an item; an empty batch ends the run.
    fn fetch(&self, ctx: &ShardingContext) -> impl Future<Output = anyhow::Result<Vec<Self::Item>>> + Send;

    /// Processes a batch.
    fn process(&self, ctx: &ShardingContext, data: Vec<Self::Item>) -> impl Future<Output = anyhow::Result<()>> + Send;
}

/// A boxed future, for the object-safe [`ErasedJob`].
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// An in-process job with its type erased, as the runtime holds it.
pub trait ErasedJob: Send + Sync {
    /// Runs one item to its outcome. `streaming` is the job's `streaming.process` setting.
    fn run<'a>(
        &'a self,
        ctx: &'a ShardingContext,
        control: &'a RunControl,
        streaming: bool,
    ) -> BoxFuture<'a, ItemOutcome>;

    /// True when the job stops by itself once `control.kill` is cancelled (and returns an outcome
    /// with `killed` set), as a process does after SIGTERM; the runtime then waits for it instead
    /// of dropping its future the moment it kills it. Off by default.
    fn stops_when_killed(&self) -> bool {
        false
    }
}

struct Simple<J>(J);

impl<J: SimpleJob> ErasedJob for Simple<J> {
    fn run<'a>(
        &'a self,
        ctx: &'a ShardingContext,
        _control: &'a RunControl,
        _streaming: bool,
    ) -> BoxFuture<'a, ItemOutcome> {
        Box::pin(async move {
            match self.0.execute(ctx.clone()).await {
                Ok(()) => ItemOutcome::ok(),
                Err(e) => ItemOutcome::failed(format!("{e:#}")),
            }
        })
    }
}

struct Dataflow<J>(J);

impl<J: DataflowJob> ErasedJob for Dataflow<J> {
    fn run<'a>(
        &'a self,
        ctx: &'a ShardingContext,
        control: &'a RunControl,
        streaming: bool,
    ) -> BoxFuture<'a, ItemOutcome> {
        Box::pin(async move {
            loop {
                let data = match self.0.fetch(ctx).await {
                    Ok(data) => data,
                    Err(e) => return ItemOutcome::failed(format!("fetch failed: {e:#}")),
                };
                if data.is_empty() {
                    return ItemOutcome::ok();
                }
                if let Err(e) = self.0.process(ctx, data).await {
                    return ItemOutcome::failed(format!("process failed: {e:#}"));
                }
                if !streaming || *control.stop.borrow() {
                    return ItemOutcome::ok();
                }
            }
        })
    }
}

/// Wraps a [`SimpleJob`] for the runtime.
pub fn simple(job: impl SimpleJob) -> Arc<dyn ErasedJob> {
    Arc::new(Simple(job))
}

/// Wraps a [`DataflowJob`] for the runtime.
pub fn dataflow(job: impl DataflowJob) -> Arc<dyn ErasedJob> {
    Arc::new(Dataflow(job))
}

/// Runs one item of an in-process job; the kill token drops the job's future, unless the job
/// stops by itself when killed ([`ErasedJob::stops_when_killed`]).
pub async fn run(job: &dyn ErasedJob, ctx: &ShardingContext, control: RunControl, streaming: bool) -> ItemOutcome {
    if job.stops_when_killed() {
        return job.run(ctx, &control, streaming).await;
    }
    let kill = control.kill.clone();
    tokio::select! {
        biased;
        outcome = job.run(ctx, &control, streaming) => outcome,
        () = kill.cancelled() => ItemOutcome { killed: true, ..ItemOutcome::failed("stopped by the worker") },
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    fn ctx(item: u32) -> ShardingContext {
        ShardingContext {
            job_name: "j".into(),
            task_id: "j@-@0@-@READY@-@x".into(),
            sharding_total_count: 2,
            job_parameter: String::new(),
            sharding_item: item,
            sharding_parameter: None,
        }
    }

    struct Fails;
    impl SimpleJob for Fails {
        async fn execute(&self, ctx: ShardingContext) -> anyhow::Result<()> {
            anyhow::bail!("item {} is broken", ctx.sharding_item)
        }
    }

    #[tokio::test]
    async fn simple_job_errors_fail_the_item() {
        let out = run(simple(Fails).as_ref(), &ctx(1), RunControl::detached(), false).await;
        assert_eq!(out, ItemOutcome::failed("item 1 is broken"));
    }

    struct Counter {
        left: Mutex<u32>,
        processed: Mutex<Vec<u32>>,
    }
    impl DataflowJob for Counter {
        type Item = u32;
        async fn fetch(&self, _ctx: &ShardingContext) -> anyhow::Result<Vec<u32>> {
            let mut left = self.left.lock().unwrap();
            if *left == 0 {
                return Ok(vec![]);
            }
            *left -= 1;
            Ok(vec![*left])
        }
        async fn process(&self, _ctx: &ShardingContext, data: Vec<u32>) -> anyhow::Result<()> {
            self.processed.lock().unwrap().extend(data);
            Ok(())
        }
    }

    #[tokio::test]
    async fn dataflow_streams_until_fetch_is_empty() {
        let job = Arc::new(Counter { left: Mutex::new(3), processed: Mutex::new(vec![]) });
        struct Shared(Arc<Counter>);
        impl DataflowJob for Shared {
            type Item = u32;
            async fn fetch(&self, ctx: &ShardingContext) -> anyhow::Result<Vec<u32>> {
                self.0.fetch(ctx).await
            }
            async fn process(&self, ctx: &ShardingContext, data: Vec<u32>) -> anyhow::Result<()> {
                self.0.process(ctx, data).await
            }
        }
        let erased = dataflow(Shared(Arc::clone(&job)));
        assert!(run(erased.as_ref(), &ctx(0), RunControl::detached(), false).await.success);
        assert_eq!(*job.processed.lock().unwrap(), [2]);
        assert!(run(erased.as_ref(), &ctx(0), RunControl::detached(), true).await.success);
        assert_eq!(*job.processed.lock().unwrap(), [2, 1, 0]);
    }

    struct Forever;
    impl SimpleJob for Forever {
        async fn execute(&self, _ctx: ShardingContext) -> anyhow::Result<()> {
            std::future::pending().await
        }
    }

    #[tokio::test]
    async fn kill_token_stops_the_job() {
        let control = RunControl::detached();
        control.kill.cancel();
        let out = run(simple(Forever).as_ref(), &ctx(0), control, false).await;
        assert!(out.killed && !out.success);
    }
}
