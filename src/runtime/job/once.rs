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
//! Waiting reads the job's watched cache on each change (no polling); the fire's
//! [`OnceWaiter`] decides what each look, each write's outcome and each timer calls for. A
//! stopping job stops waiting (and claims nothing more).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::report::Reporter;
use crate::config::schema::listener_key;
use crate::coord::fire::FireId;
use crate::coord::once::{self, Expiry, Guard, Mark, Snapshot};
use crate::coord::once_waiter::{Failure, Note, OnceWaiter, PhaseReport, WaitAction, WaitEvent, WriteError};
use crate::listener::{DistributeOnceListener, FireContext};
use crate::registry::cache::{CacheRead, CacheReader};
use crate::registry::path::{GuaranteePhase, ItemLeaf, JobPaths};
use crate::registry::{Mode, Registry, RegistryError};
use crate::runtime::Settings;
use crate::runtime::fence::FenceState;

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

    /// Waits for the phase of this fire to be over, claiming it and running its callbacks when
    /// it is this instance's turn, as the fire's [`OnceWaiter`] decides; reports it once when it
    /// ends without them.
    async fn phase(&self, phase: GuaranteePhase) {
        let timeout = match phase {
            GuaranteePhase::Started => self.started_timeout,
            GuaranteePhase::Completed => self.completed_timeout,
        };
        let mut waiter = OnceWaiter::new(self.fire, &self.me, timeout, Instant::now().into_std());
        let mut revisions = self.cache.revisions();
        // The last failure, for the log and the report.
        let mut failure: Option<RegistryError> = None;
        let mut stopped = false;
        loop {
            revisions.borrow_and_update();
            let step = {
                let view = self.cache.read();
                let snapshot = self.snapshot(&view, phase);
                once::step(&snapshot, self.fire, &self.me, |id| view.exists(&self.paths.instance(id)))
            };
            waiter.handle(WaitEvent::Look(step));
            while let Some(action) = waiter.poll_action() {
                let answer = match action {
                    WaitAction::Write { guard, version } => {
                        Some(WaitEvent::Written(self.failed(self.write(phase, &guard, version).await, &mut failure)))
                    }
                    WaitAction::ReadRoot => {
                        let root = self.read_root(phase).await;
                        let (now, random) = (Instant::now().into_std(), self.settings.jitter.draw());
                        Some(WaitEvent::RootRead {
                            root: self.failed(root, &mut failure).map_err(|f| f.error),
                            now,
                            random,
                        })
                    }
                    WaitAction::ReadExpiry => {
                        Some(WaitEvent::ExpiryRead(self.failed(self.expiry(phase).await, &mut failure)))
                    }
                    WaitAction::Run { version } => Some(WaitEvent::Ran { fenced: self.run(phase, version).await }),
                    WaitAction::WriteDone { version } => {
                        let done = self.write(phase, &Guard::Done(self.fire), Some(version)).await;
                        Some(WaitEvent::Written(self.failed(done, &mut failure)))
                    }
                    WaitAction::Report(report) => {
                        let reason = self.reason(phase, report, timeout.unwrap_or_default(), failure.as_ref());
                        self.report.listener_failed(&self.context, label(phase), &reason);
                        None
                    }
                    WaitAction::Note(note) => {
                        self.note(phase, note, failure.as_ref());
                        None
                    }
                    WaitAction::End => return,
                };
                if let Some(answer) = answer {
                    waiter.handle(answer);
                }
            }
            let at = waiter.poll_timeout().map(Instant::from_std);
            tokio::select! {
                biased;
                () = self.stopping.cancelled(), if !stopped => {
                    stopped = true;
                    waiter.handle(WaitEvent::Stop);
                }
                changed = revisions.changed() => {
                    if changed.is_err() {
                        return;
                    }
                }
                () = sleep_until(at) => waiter.handle_timeout(Instant::now().into_std()),
            }
        }
    }

    /// A registry call's result as the waiter takes it: a failure keeps its error (`last`) and
    /// gets its instant and the random bits of a pause.
    fn failed<T>(&self, result: Result<T, RegistryError>, last: &mut Option<RegistryError>) -> Result<T, Failure> {
        result.map_err(|e| {
            let error = match e {
                RegistryError::BadVersion(_) | RegistryError::NodeExists(_) => WriteError::Conflict,
                RegistryError::NoNode(_) => WriteError::Gone,
                RegistryError::ConnectionLoss | RegistryError::Timeout(_) => WriteError::Unknown,
                _ => WriteError::Failed,
            };
            *last = Some(e);
            Failure { error, now: Instant::now().into_std(), random: self.settings.jitter.draw() }
        })
    }

    /// The phase's root read afresh: its state and version, `None` when it does not exist.
    async fn read_root(&self, phase: GuaranteePhase) -> Result<Option<(Guard, i32)>, RegistryError> {
        let node = self.registry.get(&self.paths.guarantee_root(phase)).await?;
        Ok(node.map(|n| (Guard::decode(&n.data), n.stat.version)))
    }

    /// What the timeout calls for with the root read afresh (the cache may be behind the write
    /// that beat ours), and how many items reached the phase.
    async fn expiry(&self, phase: GuaranteePhase) -> Result<(Expiry, usize), RegistryError> {
        let snapshot = Snapshot { root: self.read_root(phase).await?, ..self.snapshot(&self.cache.read(), phase) };
        let reached = snapshot.marks.values().filter(|m| m.fire == self.fire).count();
        Ok((once::expiry(&snapshot, self.fire), reached))
    }

    /// The error handler's message for a phase that ended without its callbacks.
    fn reason(
        &self,
        phase: GuaranteePhase,
        report: PhaseReport,
        timeout: Duration,
        failure: Option<&RegistryError>,
    ) -> String {
        let fire = self.fire;
        match report {
            PhaseReport::Hopeless { item, later } => format!(
                "Job timeout: the {phase} phase of fire {fire} can no longer complete: item {item} already belongs to the later fire {later}."
            ),
            PhaseReport::TimedOut { reached } => format!(
                "Job timeout. timeout mills is {}. (the {phase} phase of fire {fire}: {reached} of {} items reached it)",
                timeout.as_millis(),
                self.total
            ),
            PhaseReport::Unrecorded => {
                let error = failure.map(ToString::to_string).unwrap_or_default();
                format!(
                    "Job timeout. timeout mills is {}. (the {phase} phase of fire {fire}; its timeout could not be recorded: {error})",
                    timeout.as_millis()
                )
            }
        }
    }

    /// Logs what the waiter says.
    fn note(&self, phase: GuaranteePhase, note: Note, failure: Option<&RegistryError>) {
        let (job, fire) = (self.paths.job(), self.fire);
        let error = failure.map(ToString::to_string).unwrap_or_default();
        match note {
            Note::Retrying { claim, delay } => {
                let what = if claim { "claim" } else { "report" };
                tracing::warn!(job = %job, fire = %fire, %phase, error = %error, retry_in_ms = delay.as_millis(), "cannot {what} the once-per-fire phase; retrying");
            }
            Note::Fenced => {
                tracing::warn!(job = %job, fire = %fire, %phase, "once-per-fire listeners stopped: cut off from the registry");
            }
            Note::DoneRetrying { delay } => {
                tracing::warn!(job = %job, fire = %fire, %phase, error = %error, retry_in_ms = delay.as_millis(), "cannot record the once-per-fire listeners as done; retrying");
            }
            Note::DoneGivenUp => {
                tracing::error!(job = %job, fire = %fire, %phase, error = %error, "cannot record the once-per-fire listeners as done; the other instances wait for the phase until its timeout");
            }
            Note::DoneLate => {
                tracing::warn!(job = %job, fire = %fire, %phase, "the once-per-fire listeners finished after the phase ended without them (its timeout)");
            }
        }
    }

    /// This instance holds the phase (the root at `version`): deletes stale marks and runs the
    /// callbacks. Returns true when the worker was fenced meanwhile and they were stopped.
    async fn run(&self, phase: GuaranteePhase, version: i32) -> bool {
        self.delete_stale(phase).await;
        let failed = self.snapshot(&self.cache.read(), phase).failed(self.fire);
        tracing::info!(job = %self.paths.job(), fire = %self.fire, %phase, version, "running the once-per-fire listeners");
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
            () = fenced => true,
            () = callbacks => false,
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
