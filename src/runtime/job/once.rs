//! The once-per-fire listener phases of one fire on this instance: the registry writes and the
//! waiting around [`crate::coord::once`]'s decisions.
//!
//! A fire takes part when every instance handles it together: a cron fire or a trigger (its
//! [`FireId`]), plus the failed-over runs of its items, which learn the fire from the item's
//! `started` mark and complete the item for it. Misfire runs (a fire one instance owes, run
//! late) take no part: a fire whose item ran as a misfire does not complete its phases, which
//! end by their timeout or at the next fire, reported once.
//!
//! * `started`: once its `before` listeners ran, the instance marks its items of the fire
//!   started; with `before_once` listeners its items then wait for the phase to be done (or to
//!   end without it: the timeout, a later fire) — on whichever instance claims it.
//! * `completed`: each item that ends marks itself completed; once the instance's last item of
//!   the fire ended it waits for the phase and claims it when every item completed. Nothing
//!   waits for it.
//!
//! Waiting reads the job's watched cache on each change (no polling); a claim that failed is
//! retried after a change or a pause that backs off while claims keep failing
//! ([`retry::ONCE_PHASE`]). A stopping job stops waiting (and claims nothing more).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::report::Reporter;
use crate::config::schema::listener_key;
use crate::coord::fire::FireId;
use crate::coord::once::{self, Expiry, Guard, Mark, Snapshot, Step};
use crate::listener::{DistributeOnceListener, FireContext};
use crate::registry::cache::{CacheRead, CacheReader};
use crate::registry::path::{GuaranteePhase, ItemLeaf, JobPaths};
use crate::registry::{Mode, Registry, RegistryError};
use crate::retry::{self, Attempts};
use crate::runtime::Settings;
use crate::runtime::fence::FenceState;

/// How many times `done` is written after the callback when the registry fails.
const DONE_ATTEMPTS: u32 = 5;

/// One fire's once-per-fire phases here.
pub(crate) struct OnceFire {
    pub(crate) registry: Registry,
    pub(crate) paths: JobPaths,
    pub(crate) me: String,
    pub(crate) cache: CacheReader,
    pub(crate) report: Arc<Reporter>,
    pub(crate) fence: watch::Receiver<FenceState>,
    /// The worker's settings: the jitter of retries.
    pub(crate) settings: Arc<Settings>,
    /// Cancelled when the job stops: waits end, nothing more is claimed.
    pub(crate) stopping: CancellationToken,
    pub(crate) fire: FireId,
    pub(crate) total: u32,
    pub(crate) started_timeout: Option<Duration>,
    pub(crate) completed_timeout: Option<Duration>,
    /// The `before_once` listeners (none: the items only mark themselves started, which tells a
    /// failed-over run its fire).
    pub(crate) before: Vec<Arc<dyn DistributeOnceListener>>,
    /// The `after_once` listeners (none: no completed marks).
    pub(crate) after: Vec<Arc<dyn DistributeOnceListener>>,
    /// What the callbacks get: the whole fire, every item of the job.
    pub(crate) context: FireContext,
}

impl OnceFire {
    /// The fire's items `items` start here: marks them started and, with `before_once`
    /// listeners, waits until the phase is over.
    pub(crate) async fn started(&self, items: &[u32]) {
        let marks: Vec<(u32, Mark)> = items.iter().map(|&i| (i, Mark { fire: self.fire, failed: false })).collect();
        self.mark(GuaranteePhase::Started, &marks).await;
        if !self.before.is_empty() {
            self.phase(GuaranteePhase::Started).await;
        }
    }

    /// An item of the fire ended here.
    pub(crate) async fn item_completed(&self, item: u32, failed: bool) {
        if !self.after.is_empty() {
            self.mark(GuaranteePhase::Completed, &[(item, Mark { fire: self.fire, failed })]).await;
        }
    }

    /// The fire's last item here ended: waits for the `after_once` phase, and runs it when this
    /// instance claims it.
    pub(crate) async fn completed(&self) {
        if !self.after.is_empty() {
            self.phase(GuaranteePhase::Completed).await;
        }
    }

    /// Writes item marks: one transaction, or item by item when it fails (the cache was behind).
    async fn mark(&self, phase: GuaranteePhase, marks: &[(u32, Mark)]) {
        let ops = {
            let view = self.cache.read();
            let parents = (view.exists(&self.paths.guarantee()), view.exists(&self.paths.guarantee_root(phase)));
            once::mark_ops(&self.paths, phase, marks, parents, |i| view.exists(&self.paths.guarantee_item(phase, i)))
        };
        if self.registry.transaction(&ops).await.is_ok() {
            return;
        }
        for (item, mark) in marks {
            if let Err(e) = self.registry.put(&self.paths.guarantee_item(phase, *item), &mark.encode()).await {
                tracing::warn!(job = %self.paths.job(), item, %phase, error = %e, "cannot mark the item for the once-per-fire listener");
            }
        }
    }

    /// Waits for the phase of this fire to be over, claiming and running it when it is this
    /// instance's turn; reports it once when it ends without its callback.
    async fn phase(&self, phase: GuaranteePhase) {
        let timeout = match phase {
            GuaranteePhase::Started => self.started_timeout,
            GuaranteePhase::Completed => self.completed_timeout,
        };
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut revisions = self.cache.revisions();
        let mut retry: Option<Instant> = None;
        let mut attempts = Attempts::default();
        loop {
            revisions.borrow_and_update();
            let step = {
                let view = self.cache.read();
                let snapshot = self.snapshot(&view, phase);
                once::step(&snapshot, self.fire, &self.me, |id| view.exists(&self.paths.instance(id)))
            };
            match step {
                Step::Done | Step::Over => return,
                Step::Claim { version } => {
                    let claim = Guard::Claimed { fire: self.fire, instance: self.me.clone() };
                    match self.write(phase, &claim, version).await {
                        Ok(version) => return self.run(phase, version).await,
                        Err(e) => {
                            if let Some(version) = self.lost_claim(phase, &claim, &e).await {
                                return self.run(phase, version).await;
                            }
                            retry = Some(self.retry_after(phase, "claim", &e, &mut attempts));
                        }
                    }
                }
                Step::Hopeless { item, later, version } => {
                    match self.write(phase, &Guard::TimedOut(self.fire), version).await {
                        Ok(_) => {
                            let reason = format!(
                                "Job timeout: the {phase} phase of fire {} can no longer complete: item {item} already belongs to the later fire {later}.",
                                self.fire
                            );
                            return self.report.listener_failed(&self.context, label(phase), &reason);
                        }
                        Err(e) => retry = Some(self.retry_after(phase, "report", &e, &mut attempts)),
                    }
                }
                Step::Wait => {}
            }
            tokio::select! {
                biased;
                () = self.stopping.cancelled() => return,
                changed = revisions.changed() => {
                    if changed.is_err() {
                        return;
                    }
                }
                () = sleep_until(deadline) => return self.expire(phase, timeout.unwrap_or_default()).await,
                () = sleep_until(retry) => retry = None,
            }
        }
    }

    /// A claim whose outcome is unknown (the connection dropped): the root read afresh says
    /// whether it was written; returns its version then.
    async fn lost_claim(&self, phase: GuaranteePhase, claim: &Guard, e: &RegistryError) -> Option<i32> {
        if !matches!(e, RegistryError::ConnectionLoss | RegistryError::Timeout(_)) {
            return None;
        }
        let node = self.registry.get(&self.paths.guarantee_root(phase)).await.ok().flatten()?;
        (Guard::decode(&node.data) == *claim).then_some(node.stat.version)
    }

    /// A write of the root failed: logged unless someone else's write won (the cache shows it
    /// soon); decided again after a change or the next delay of `attempts`
    /// ([`retry::ONCE_PHASE`]).
    fn retry_after(&self, phase: GuaranteePhase, what: &str, e: &RegistryError, attempts: &mut Attempts) -> Instant {
        if !matches!(e, RegistryError::BadVersion(_) | RegistryError::NodeExists(_)) {
            tracing::warn!(job = %self.paths.job(), fire = %self.fire, %phase, error = %e, "cannot {what} the once-per-fire phase; retrying");
        }
        Instant::now() + attempts.fail(&retry::ONCE_PHASE, self.settings.jitter.draw())
    }

    /// The phase's timeout passed: reported once across the instances (the one whose write of
    /// `timeout:{fire}` succeeds), unless the phase is over meanwhile.
    async fn expire(&self, phase: GuaranteePhase, timeout: Duration) {
        let root = self.paths.guarantee_root(phase);
        let mut last_error = None;
        for _ in 0..3 {
            // The root read afresh: the cache may be behind the write that beat ours.
            let fresh = match self.registry.get(&root).await {
                Ok(node) => node.map(|n| (Guard::decode(&n.data), n.stat.version)),
                Err(e) => {
                    last_error = Some(e);
                    break;
                }
            };
            let snapshot = Snapshot { root: fresh, ..self.snapshot(&self.cache.read(), phase) };
            let Expiry::Report { version } = once::expiry(&snapshot, self.fire) else { return };
            match self.write(phase, &Guard::TimedOut(self.fire), version).await {
                Ok(_) => {
                    let reached = snapshot.marks.values().filter(|m| m.fire == self.fire).count();
                    let reason = format!(
                        "Job timeout. timeout mills is {}. (the {phase} phase of fire {}: {reached} of {} items reached it)",
                        timeout.as_millis(),
                        self.fire,
                        self.total
                    );
                    return self.report.listener_failed(&self.context, label(phase), &reason);
                }
                Err(e @ (RegistryError::BadVersion(_) | RegistryError::NodeExists(_))) => last_error = Some(e),
                Err(e) => {
                    last_error = Some(e);
                    break;
                }
            }
        }
        // The registry failed: reported from here, so that it is reported at least once.
        let error = last_error.map(|e| e.to_string()).unwrap_or_default();
        let reason = format!(
            "Job timeout. timeout mills is {}. (the {phase} phase of fire {}; its timeout could not be recorded: {error})",
            timeout.as_millis(),
            self.fire
        );
        self.report.listener_failed(&self.context, label(phase), &reason);
    }

    /// This instance holds the phase (the root at `version`): runs the callbacks, then records
    /// `done` — unless the worker was fenced meanwhile (the callbacks were stopped; once this
    /// session ends, another instance claims the phase again).
    async fn run(&self, phase: GuaranteePhase, version: i32) {
        self.delete_stale(phase).await;
        let failed = self.snapshot(&self.cache.read(), phase).failed(self.fire);
        tracing::info!(job = %self.paths.job(), fire = %self.fire, %phase, "running the once-per-fire listeners");
        let listeners = match phase {
            GuaranteePhase::Started => &self.before,
            GuaranteePhase::Completed => &self.after,
        };
        let callbacks = async {
            for listener in listeners {
                let result = match phase {
                    GuaranteePhase::Started => listener.before_once(&self.context).await,
                    GuaranteePhase::Completed => listener.after_once(&self.context, &failed).await,
                };
                if let Err(e) = result {
                    self.report.listener_failed(&self.context, label(phase), &e);
                    break;
                }
            }
        };
        let mut fence = self.fence.clone();
        let fenced = async move {
            while !fence.borrow_and_update().fenced {
                if fence.changed().await.is_err() {
                    std::future::pending::<()>().await;
                }
            }
        };
        tokio::select! {
            biased;
            () = fenced => {
                tracing::warn!(job = %self.paths.job(), fire = %self.fire, %phase, "once-per-fire listeners stopped: cut off from the registry");
                return;
            }
            () = callbacks => {}
        }
        let root = self.paths.guarantee_root(phase);
        let mut attempts = Attempts::default();
        for _ in 0..DONE_ATTEMPTS {
            match self.registry.set(&root, &Guard::Done(self.fire).encode(), Some(version)).await {
                Ok(_) => return,
                Err(RegistryError::BadVersion(_) | RegistryError::NoNode(_)) => {
                    tracing::warn!(job = %self.paths.job(), fire = %self.fire, %phase, "the once-per-fire listeners finished after the phase ended without them (its timeout)");
                    return;
                }
                Err(e) => {
                    tracing::warn!(job = %self.paths.job(), fire = %self.fire, %phase, error = %e, "cannot record the once-per-fire listeners as done; retrying");
                    tokio::time::sleep(attempts.fail(&retry::ONCE_DONE, self.settings.jitter.draw())).await;
                }
            }
        }
    }

    /// The claimer deletes the marks of items at or beyond the total (the job shrank).
    async fn delete_stale(&self, phase: GuaranteePhase) {
        let children = self.cache.read().children(&self.paths.guarantee_root(phase));
        for item in once::stale_items(&children, self.total) {
            if let Err(e) = self.registry.delete_if_exists(&self.paths.guarantee_item(phase, item)).await {
                tracing::warn!(job = %self.paths.job(), item, %phase, error = %e, "cannot delete the mark of an item beyond the total");
            }
        }
    }

    /// Writes the root's new state at `version` (`None`: creates the root); returns the version
    /// written.
    async fn write(&self, phase: GuaranteePhase, guard: &Guard, version: Option<i32>) -> Result<i32, RegistryError> {
        let root = self.paths.guarantee_root(phase);
        match version {
            Some(version) => self.registry.set(&root, &guard.encode(), Some(version)).await.map(|s| s.version),
            None => self.registry.create(&root, &guard.encode(), Mode::Persistent).await.map(|_| 0),
        }
    }

    /// The phase as the cache shows it.
    fn snapshot(&self, view: &CacheRead<'_>, phase: GuaranteePhase) -> Snapshot {
        let root = view.node(&self.paths.guarantee_root(phase)).and_then(|n| {
            // Without its version a claim cannot be version-checked: taken as absent, whose
            // create then fails and waits for the cache.
            n.stat.map(|s| (Guard::decode(n.data.as_deref().unwrap_or_default()), s.version))
        });
        let item_data = |i: u32| view.data(&self.paths.guarantee_item(phase, i)).and_then(Mark::decode);
        Snapshot {
            root,
            marks: (0..self.total).filter_map(|i| item_data(i).map(|m| (i, m))).collect(),
            total: self.total,
            disabled: (0..self.total).filter(|i| view.exists(&self.paths.item_leaf(*i, ItemLeaf::Disabled))).collect(),
        }
    }
}

/// The phase's listener label (metrics, logs).
fn label(phase: GuaranteePhase) -> &'static str {
    match phase {
        GuaranteePhase::Started => listener_key::BEFORE_ONCE,
        GuaranteePhase::Completed => listener_key::AFTER_ONCE,
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
