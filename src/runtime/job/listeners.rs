//! The listener phases of this instance's fires ([`crate::listener`]): `before` when a fire's
//! items start (they wait for it), `after` once the last of them ended, each in a task of its
//! own so the job's loop never waits for a listener; and, for the fires that take part, the
//! once-per-fire phases ([`super::once`]): `before_once` after `before` (the items wait for it
//! too), `after_once` beside `after`. The tasks belong to [`Phases`]: dropped with it, and waited
//! for (up to the graceful deadline) when the job stops — once-per-fire waits end at once then,
//! a callback in progress is let finish.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, OnceLock};

use futures::FutureExt;
use futures::future::{BoxFuture, Shared};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::JobCtx;
use super::effective::Effective;
use super::once::OnceFire;
use super::report::Reporter;
use crate::config::schema::listener_key;
use crate::coord::fire::{FireId, Source};
use crate::coord::group::Group;
use crate::coord::once::Mark;
use crate::exec::context::task_id;
use crate::listener::{DistributeOnceListener, FireContext, JobListener};
use crate::registry::cache::CacheReader;
use crate::registry::path::GuaranteePhase;

/// The library's listeners of a job ([`crate::listener`]), boxed: most jobs have none, and
/// every job's task holds this.
#[derive(Default)]
pub(crate) struct Listeners(Option<Box<Lists>>);

/// The listeners called for each item, and those called once per fire.
struct Lists {
    each: Vec<Arc<dyn JobListener>>,
    once: Vec<Arc<dyn DistributeOnceListener>>,
}

impl Listeners {
    /// The listeners called for each item, and those called once per fire.
    pub(crate) fn new(each: Vec<Arc<dyn JobListener>>, once: Vec<Arc<dyn DistributeOnceListener>>) -> Listeners {
        Listeners((!each.is_empty() || !once.is_empty()).then(|| Box::new(Lists { each, once })))
    }

    /// The listeners called for each item.
    pub(crate) fn each(&self) -> &[Arc<dyn JobListener>] {
        self.0.as_ref().map_or(&[], |l| &l.each)
    }

    /// The listeners called once per fire.
    pub(crate) fn once(&self) -> &[Arc<dyn DistributeOnceListener>] {
        self.0.as_ref().map_or(&[], |l| &l.once)
    }
}

/// True when a fire of the job has listener phases: listeners of each instance or once per fire
/// (the library's, or the job file's commands).
pub(crate) fn has_listeners(ctx: &JobCtx, config: &Effective) -> bool {
    let command = config.command_listener.as_ref();
    !ctx.listeners.each().is_empty()
        || command.is_some_and(|c| c.before.is_some() || c.after.is_some())
        || has_once_listeners(ctx, config)
}

/// True when the job has once-per-fire listeners (the library's, or the job file's commands).
pub(crate) fn has_once_listeners(ctx: &JobCtx, config: &Effective) -> bool {
    let command = config.command_listener.as_ref();
    !ctx.listeners.once().is_empty() || command.is_some_and(|c| c.before_once.is_some() || c.after_once.is_some())
}

/// A `before` phase: items await it.
pub(crate) type Before = Shared<BoxFuture<'static, ()>>;

struct Fire {
    context: Arc<FireContext>,
    listeners: Arc<Vec<Arc<dyn JobListener>>>,
    /// Its items here: the `after` phase runs once the last ended, with the failed ones.
    items: Group<()>,
    before: Before,
    once: Option<Arc<OnceFire>>,
    report: Arc<Reporter>,
}

/// The fires with listeners in progress here.
pub(crate) struct Phases {
    fires: BTreeMap<u64, Fire>,
    /// The job's cache: what the once-per-fire phases wait on.
    cache: CacheReader,
    /// How many listener calls failed (a log line reports each). Made by the first fire with
    /// listeners, like the token and the task set below: most jobs in a large worker have none,
    /// and each would be an allocation of every job that has run.
    failures: Option<Arc<AtomicU64>>,
    /// Cancelled when the job stops: once-per-fire waits end (made by the stop, if no fire
    /// made it).
    stopping: OnceLock<CancellationToken>,
    /// The phases' tasks (aborted when this is dropped).
    tasks: Option<JoinSet<()>>,
}

impl Phases {
    /// The phases of a job whose cache is `cache`.
    pub(crate) fn new(cache: CacheReader) -> Phases {
        Phases { fires: BTreeMap::new(), cache, failures: None, stopping: OnceLock::new(), tasks: None }
    }

    /// Items of fire `group` start: runs the `before` phase, then the `before_once` one when the
    /// fire takes part, if the job has such listeners.
    pub(crate) fn open(
        &mut self,
        ctx: &JobCtx,
        config: &Effective,
        (group, task_id): (u64, &str),
        items: &[u32],
        source: &Source,
    ) {
        let mut listeners: Vec<Arc<dyn JobListener>> = ctx.listeners.each().to_vec();
        if let Some(command) = config.command_listener.as_ref().filter(|c| c.before.is_some() || c.after.is_some()) {
            listeners.push(command.clone());
        }
        if items.is_empty() || (listeners.is_empty() && !has_once_listeners(ctx, config)) {
            return;
        }
        // The fire a failed-over run stands for: its item's `started` mark.
        let fire = source.fire_id().or_else(|| match (source, items) {
            (Source::Failover(_), [item]) => self.started_mark(ctx, *item),
            _ => None,
        });
        let context = Arc::new(FireContext {
            job_name: ctx.name().to_string(),
            task_id: task_id.to_string(),
            sharding_total_count: config.total(),
            job_parameter: config.config.job_parameter(),
            items: items.iter().map(|&i| (i, config.context(ctx.name(), i, task_id).sharding_parameter)).collect(),
            source: source.label(),
            fire: fire.map(|f| f.to_string()),
        });
        let report = Arc::new(Reporter::new(ctx, config, self.failures.get_or_insert_with(Arc::default).clone()));
        let once = fire.and_then(|fire| self.once_fire(ctx, config, fire, &context, &report));
        if listeners.is_empty() && once.is_none() {
            return;
        }
        listeners.sort_by_key(|l| l.order());
        let listeners = Arc::new(listeners);
        let (l, c, r) = (listeners.clone(), context.clone(), report.clone());
        // A failed-over run's item started in its own fire: it takes no part in `started`.
        let started = once.clone().filter(|_| !matches!(source, Source::Failover(_)));
        let local = items.to_vec();
        let before = async move {
            for listener in l.iter() {
                if let Err(e) = listener.before(&c).await {
                    r.listener_failed(&c, listener_key::BEFORE, &e);
                    break;
                }
            }
            if let Some(once) = started {
                once.started(&local).await;
            }
        }
        .boxed()
        .shared();
        self.spawn(before.clone());
        let fire = Fire { context, listeners, items: Group::new(items), before, once, report };
        self.fires.insert(group, fire);
    }

    /// The once-per-fire phases of `fire`, when the job has once-per-fire listeners.
    fn once_fire(
        &self,
        ctx: &JobCtx,
        config: &Effective,
        fire: FireId,
        context: &FireContext,
        report: &Arc<Reporter>,
    ) -> Option<Arc<OnceFire>> {
        let command = config.command_listener.as_ref();
        let with = |has: bool| -> Vec<Arc<dyn DistributeOnceListener>> {
            let mut all = ctx.listeners.once().to_vec();
            all.extend(command.filter(|_| has).map(|c| c.clone() as Arc<dyn DistributeOnceListener>));
            all
        };
        let before = with(command.is_some_and(|c| c.before_once.is_some()));
        let after = with(command.is_some_and(|c| c.after_once.is_some()));
        if before.is_empty() && after.is_empty() {
            return None;
        }
        // The callbacks get the whole fire: every item of the job.
        let all: Vec<u32> = (0..config.total()).collect();
        let task = task_id(ctx.name(), &all, ctx.me.as_str());
        let items = all.iter().map(|&i| (i, config.context(ctx.name(), i, &task).sharding_parameter)).collect();
        Some(Arc::new(OnceFire {
            registry: ctx.registry.clone(),
            paths: ctx.paths.clone(),
            me: ctx.me.as_str().to_string(),
            cache: self.cache.clone(),
            report: report.clone(),
            fence: ctx.fence.clone(),
            settings: Arc::clone(&ctx.settings),
            stopping: self.stopping.get_or_init(CancellationToken::new).clone(),
            fire,
            total: config.total(),
            started_timeout: config.checked.started_timeout,
            completed_timeout: config.checked.completed_timeout,
            before,
            after,
            context: FireContext { task_id: task, items, ..context.clone() },
        }))
    }

    /// The fire whose `started` mark `item` carries.
    fn started_mark(&self, ctx: &JobCtx, item: u32) -> Option<FireId> {
        let view = self.cache.read();
        view.data(&ctx.paths.guarantee_item(GuaranteePhase::Started, item)).and_then(Mark::decode).map(|m| m.fire)
    }

    /// What a run of fire `group` waits for before it starts.
    pub(crate) fn before(&self, group: u64) -> Option<Before> {
        self.fires.get(&group).map(|f| f.before.clone())
    }

    /// An item of fire `group` ended; after the last one, runs the `after` phase and waits for
    /// the `after_once` one.
    pub(crate) fn close_item(&mut self, group: u64, item: u32, success: bool) {
        let Some(fire) = self.fires.get_mut(&group) else { return };
        let over = fire.items.close(item, (!success).then_some(()));
        if let Some(once) = fire.once.clone().filter(|o| !o.after.is_empty()) {
            self.spawn(async move { once.item_completed(item, !success).await });
        }
        if !over {
            return;
        }
        let Some(fire) = self.fires.remove(&group) else { return };
        if let Some(once) = fire.once.clone().filter(|o| !o.after.is_empty()) {
            self.spawn(async move { once.completed().await });
        }
        if fire.listeners.is_empty() {
            return;
        }
        let failed = fire.items.failed_items();
        self.spawn(async move {
            fire.before.await;
            for listener in fire.listeners.iter() {
                if let Err(e) = listener.after(&fire.context, &failed).await {
                    fire.report.listener_failed(&fire.context, listener_key::AFTER, &e);
                    break;
                }
            }
        });
    }
}

impl Phases {
    fn spawn(&mut self, phase: impl std::future::Future<Output = ()> + Send + 'static) {
        let tasks = self.tasks.get_or_insert_with(JoinSet::new);
        while tasks.try_join_next().is_some() {}
        tasks.spawn(phase);
    }

    /// The job is stopping: once-per-fire waits end (and claim nothing more), so that items
    /// waiting on a `before_once` phase need not wait for its timeout.
    pub(crate) fn stop_waiting(&self) {
        self.stopping.get_or_init(CancellationToken::new).cancel();
    }

    /// The job stops: once-per-fire waits end; waits for the phases in flight until `deadline`
    /// (not at all for none), then aborts what is left.
    pub(crate) async fn finish(&mut self, deadline: Option<Instant>) {
        self.stop_waiting();
        let Some(tasks) = self.tasks.as_mut() else { return };
        if let Some(deadline) = deadline {
            let _ = tokio::time::timeout_at(deadline, async { while tasks.join_next().await.is_some() {} }).await;
        }
        tasks.abort_all();
        while tasks.join_next().await.is_some() {}
    }
}
