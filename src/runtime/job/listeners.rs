//! The listener phases of this instance's fires ([`crate::listener`]): `before` when a fire's
//! items start (they wait for it), `after` once the last of them ended, each in a task of its
//! own so the job's loop never waits for a listener. The tasks belong to [`Phases`]: dropped with
//! it, and waited for (up to the graceful deadline) when the job stops.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use futures::FutureExt;
use futures::future::{BoxFuture, Shared};
use tokio::task::JoinSet;
use tokio::time::Instant;

use super::JobCtx;
use super::effective::Effective;
use crate::listener::{FireContext, JobListener};

/// A `before` phase: items await it.
pub(crate) type Before = Shared<BoxFuture<'static, ()>>;

struct Fire {
    context: Arc<FireContext>,
    listeners: Arc<Vec<Arc<dyn JobListener>>>,
    pending: BTreeSet<u32>,
    failed: Vec<u32>,
    before: Before,
}

/// The fires with listeners in progress here.
#[derive(Default)]
pub(crate) struct Phases {
    fires: BTreeMap<u64, Fire>,
    /// How many listener calls failed (a log line reports each).
    failures: Arc<AtomicU64>,
    /// The phases' tasks (aborted when this is dropped).
    tasks: JoinSet<()>,
}

impl Phases {
    /// Items of fire `group` start: runs the `before` phase, if the job has listeners.
    pub(crate) fn open(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        group: u64,
        task_id: &str,
        items: &[u32],
        source: &'static str,
    ) {
        let mut listeners: Vec<Arc<dyn JobListener>> = ctx.listeners.clone();
        if let Some(command) = &config.command_listener {
            listeners.push(command.clone());
        }
        if listeners.is_empty() || items.is_empty() {
            return;
        }
        listeners.sort_by_key(|l| l.order());
        let context = Arc::new(FireContext {
            job_name: ctx.name().to_string(),
            task_id: task_id.to_string(),
            sharding_total_count: config.total(),
            job_parameter: config.config.job_parameter.clone().unwrap_or_default(),
            items: items.iter().map(|&i| (i, config.context(ctx.name(), i, task_id).sharding_parameter)).collect(),
            source,
        });
        let listeners = Arc::new(listeners);
        let (l, c, f) = (listeners.clone(), context.clone(), self.failures.clone());
        let before = async move {
            for listener in l.iter() {
                if let Err(e) = listener.before(&c).await {
                    failed(&f, &c, "before", &e);
                    break;
                }
            }
        }
        .boxed()
        .shared();
        self.spawn(before.clone());
        let fire = Fire { context, listeners, pending: items.iter().copied().collect(), failed: Vec::new(), before };
        self.fires.insert(group, fire);
    }

    /// What a run of fire `group` waits for before it starts.
    pub(crate) fn before(&self, group: u64) -> Option<Before> {
        self.fires.get(&group).map(|f| f.before.clone())
    }

    /// An item of fire `group` ended; after the last one, runs the `after` phase.
    pub(crate) fn close_item(&mut self, group: u64, item: u32, success: bool) {
        let Some(fire) = self.fires.get_mut(&group) else { return };
        fire.pending.remove(&item);
        if !success {
            fire.failed.push(item);
        }
        if !fire.pending.is_empty() {
            return;
        }
        let Some(fire) = self.fires.remove(&group) else { return };
        let failures = self.failures.clone();
        self.spawn(async move {
            fire.before.await;
            for listener in fire.listeners.iter() {
                if let Err(e) = listener.after(&fire.context, &fire.failed).await {
                    failed(&failures, &fire.context, "after", &e);
                    break;
                }
            }
        });
    }
}

impl Phases {
    fn spawn(&mut self, phase: impl std::future::Future<Output = ()> + Send + 'static) {
        while self.tasks.try_join_next().is_some() {}
        self.tasks.spawn(phase);
    }

    /// The job stops: waits for the phases in flight until `deadline` (not at all for none), then
    /// aborts what is left.
    pub(crate) async fn finish(&mut self, deadline: Option<Instant>) {
        if let Some(deadline) = deadline {
            let _ = tokio::time::timeout_at(deadline, async { while self.tasks.join_next().await.is_some() {} }).await;
        }
        self.tasks.abort_all();
        while self.tasks.join_next().await.is_some() {}
    }
}

fn failed(failures: &AtomicU64, fire: &FireContext, phase: &str, error: &str) {
    let failures = failures.fetch_add(1, Ordering::Relaxed) + 1;
    tracing::warn!(job = %fire.job_name, task_id = %fire.task_id, phase, failures, error, "job listener failed");
}
