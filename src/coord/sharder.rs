//! The leader's sharding of one job on this instance, as a machine without I/O: the quinn-proto
//! shape. [`Sharder::handle`] takes what happened (the job as the cache shows it, an answer to an
//! action), [`Sharder::poll_action`] gives what to do next, [`Sharder::poll_timeout`] when to look
//! again. It reads no clock and draws no random number: the instant, the wall-clock time and the
//! random bits of a backoff come in with [`ShardEvent::Lead`].
//!
//! **Contract.** Every action polled must be carried out, and the ones that ask a question
//! ([`ShardAction::CreateMarker`], [`ShardAction::CheckMarker`], [`ShardAction::ReadLeaves`],
//! [`ShardAction::Write`], [`ShardAction::Reread`]) answered with their event before the next
//! [`ShardEvent::Lead`]; an action that cannot be carried out is answered with its failure. The
//! others ([`ShardAction::Flag`], [`ShardAction::DeleteMarker`], [`ShardAction::RecordFailure`],
//! [`ShardAction::ClearFailure`], [`ShardAction::Resharded`]) expect no answer: their failures are
//! the driver's to log, and the next look decides again.
//!
//! **A round.** When [`leader::step`] says to shard, the round takes the `processing` marker (or finds it
//! is this session's already), reads the item leaves the cache shows, and writes the assignment in
//! one transaction or, too large for one request, several ([`leader::split`]); a write that fails (the
//! cache was behind) is retried from a fresh read of the job, [`SHARD_ATTEMPTS`] times in all. A
//! round that writes nothing because the flag went (another leader completed it) or nobody is
//! available ends quietly; one whose writes kept failing is recorded ([`ShardingFailure`], into the
//! flag and the job's probe) and the next round waits ([`retry::SHARDING`], backing off with each
//! failed round in a row): the round's own writes are changes that re-evaluate the job, and a
//! transaction the registry keeps refusing would otherwise be retried as fast as it answers. The
//! marker is deleted when a round ends without writing (a written sharding deletes it itself).

use std::collections::BTreeMap;
use std::time::Instant;

use chrono::DateTime;

use super::leader::{self, LeaderStep, SHARD_ATTEMPTS, Sharding};
use super::outbox::Outbox;
use super::snapshot::JobSnapshot;
use super::strategy;
use crate::registry::codec::ShardingFailure;
use crate::registry::path::{ItemLeaf, JobPaths};
use crate::registry::{Op, TreeNode};
use crate::retry;

/// The leader's sharding state of one job on this instance.
#[derive(Debug, Default)]
pub struct Sharder {
    /// A sharding transaction succeeded and the cache has not shown it yet: do not shard again.
    written: bool,
    /// The rounds that failed in a row (0: the last one completed or none failed), and when the
    /// first of them failed (epoch ms).
    failed: u32,
    failed_since_ms: i64,
    /// After a failed round: the next waits until then.
    retry_at: Option<Instant>,
    /// The round under way, if any.
    round: Option<Box<Round>>,
    /// Actions not polled yet.
    actions: Outbox<ShardAction>,
    /// The mutation check's `InjectedBug::ReshardWhileRunning`: shard without waiting for
    /// running items.
    #[cfg(feature = "injected-bugs")]
    reshard_while_running: bool,
}

/// What happened, for [`Sharder::handle`].
#[derive(Debug)]
pub enum ShardEvent<'a> {
    /// This instance leads the job: decide from what the cache shows.
    Lead(Look<'a>),
    /// The mutation check's `InjectedBug::ShardingWithoutLeaderCheck`: an instance that does
    /// not lead writes the assignment its own view calls for at once, without the leader's
    /// protocol (flag the resharding, let fires wait, wait for running items).
    #[cfg(feature = "injected-bugs")]
    LeadUnchecked(Look<'a>),
    /// This instance does not lead the job (any more): a failure it recorded is the next
    /// leader's business.
    NotLeading,
    /// Answers [`ShardAction::CreateMarker`]: created.
    MarkerCreated,
    /// Answers [`ShardAction::CreateMarker`]: the marker exists already.
    MarkerExists,
    /// Answers [`ShardAction::CheckMarker`]: whether the marker is this session's.
    MarkerOwned(bool),
    /// Answers [`ShardAction::CreateMarker`] or [`ShardAction::CheckMarker`]: the registry failed.
    MarkerFailed,
    /// Answers [`ShardAction::ReadLeaves`]: the leaves under each item, as the cache shows them.
    Leaves(BTreeMap<u32, Vec<ItemLeaf>>),
    /// Answers [`ShardAction::Write`]: every transaction was written.
    Written,
    /// Answers [`ShardAction::Write`]: one failed (the later ones were not tried).
    WriteFailed(String),
    /// Answers [`ShardAction::Reread`]: the job's subtree (`None`: the job is gone).
    Reread(Option<Vec<TreeNode>>),
    /// Answers [`ShardAction::Reread`]: the read failed.
    RereadFailed,
}

/// A look at the job, for [`ShardEvent::Lead`].
#[derive(Debug, Clone, Copy)]
pub struct Look<'a> {
    /// The job as its cache shows it.
    pub view: &'a JobSnapshot,
    /// Its sharding settings.
    pub sharding: Sharding<'a>,
    /// Its paths.
    pub paths: &'a JobPaths,
    /// This instance (the failure record names it).
    pub me: &'a str,
    /// The registry's path prefix in bytes (a chrooted namespace's), for [`leader::split`].
    pub prefix: usize,
    /// The most bytes of one transaction.
    pub budget: usize,
    /// The current instant.
    pub now: Instant,
    /// The wall clock, in milliseconds since the epoch.
    pub now_ms: i64,
    /// 64 random bits: the backoff's, should this look's round fail.
    pub random: u64,
}

/// What to do, from [`Sharder::poll_action`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShardAction {
    /// The assignment is stale: create the resharding flag if absent.
    Flag,
    /// Create the `processing` marker, ephemeral; answer [`ShardEvent::MarkerCreated`],
    /// [`ShardEvent::MarkerExists`] or [`ShardEvent::MarkerFailed`].
    CreateMarker,
    /// Read whether the existing marker is this session's; answer [`ShardEvent::MarkerOwned`] or
    /// [`ShardEvent::MarkerFailed`].
    CheckMarker,
    /// Read the item leaves the cache shows; answer [`ShardEvent::Leaves`].
    ReadLeaves,
    /// Write these transactions, in order, stopping at the first that fails; answer
    /// [`ShardEvent::Written`] or [`ShardEvent::WriteFailed`].
    Write(Vec<Vec<Op>>),
    /// Read the job's subtree from the registry; answer [`ShardEvent::Reread`] or
    /// [`ShardEvent::RereadFailed`].
    Reread,
    /// Delete the `processing` marker.
    DeleteMarker,
    /// The round did not complete: write the record into the resharding flag and the job's probe.
    RecordFailure(ShardingFailure),
    /// A recorded failure is over: clear it from the job's probe.
    ClearFailure,
    /// The assignment was written (for the log and the metrics).
    Resharded(Vec<(String, Vec<u32>)>),
}

/// A round under way.
#[derive(Debug)]
struct Round {
    /// The job as the round last read it.
    current: JobSnapshot,
    leaves: BTreeMap<u32, Vec<ItemLeaf>>,
    paths: JobPaths,
    me: String,
    job: String,
    total: u32,
    strategy: strategy::Strategy,
    prefix: usize,
    budget: usize,
    now_ms: i64,
    now: Instant,
    random: u64,
    /// Transactions written so far (1-based), and the last write's error.
    attempt: usize,
    failure: Option<String>,
    assignment: Vec<(String, Vec<u32>)>,
}

impl Sharder {
    /// No sharding under way, none failed.
    pub fn new() -> Sharder {
        Sharder::default()
    }

    /// The mutation check's sharder: with `reshard_while_running`, it shards without waiting for
    /// running items (`InjectedBug::ReshardWhileRunning`).
    #[cfg(feature = "injected-bugs")]
    pub fn with_bug(reshard_while_running: bool) -> Sharder {
        Sharder { reshard_while_running, ..Sharder::default() }
    }

    /// When the next round may go, after a failed one: look again then.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.retry_at
    }

    /// The pause after a failed round ends at `now` or before: the next look may shard.
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.retry_at.is_some_and(|at| at <= now) {
            self.retry_at = None;
        }
    }

    /// The next action, if any.
    pub fn poll_action(&mut self) -> Option<ShardAction> {
        self.actions.pop()
    }

    /// Takes in what happened.
    pub fn handle(&mut self, event: ShardEvent<'_>) {
        match event {
            ShardEvent::Lead(look) => self.look(&look),
            #[cfg(feature = "injected-bugs")]
            ShardEvent::LeadUnchecked(look) => {
                let s = look.sharding;
                if self.round.is_none() && look.view.needs_resharding(s.total, s.strategy, s.job, s.static_sharding) {
                    let mut flagged = look.view.clone();
                    flagged.necessary = true;
                    self.actions.push(ShardAction::Flag);
                    self.start_round(&Look { view: &flagged, ..look });
                }
            }
            ShardEvent::NotLeading => self.forget_failures(),
            ShardEvent::MarkerCreated | ShardEvent::MarkerOwned(true) => self.actions.push(ShardAction::ReadLeaves),
            ShardEvent::MarkerExists => self.actions.push(ShardAction::CheckMarker),
            // Another instance's round (or the registry failed): leave the marker to it.
            ShardEvent::MarkerOwned(false) | ShardEvent::MarkerFailed => self.round = None,
            ShardEvent::Leaves(leaves) => {
                if let Some(round) = self.round.as_mut() {
                    round.leaves = leaves;
                }
                self.attempt();
            }
            ShardEvent::Written => {
                if let Some(round) = self.round.take() {
                    self.written = true;
                    self.forget_failures();
                    self.actions.push(ShardAction::Resharded(round.assignment));
                }
            }
            ShardEvent::WriteFailed(error) => {
                let retry = match self.round.as_mut() {
                    Some(round) => {
                        round.failure = Some(error);
                        round.attempt < SHARD_ATTEMPTS
                    }
                    None => return,
                };
                if retry {
                    self.actions.push(ShardAction::Reread);
                } else {
                    self.end_round();
                }
            }
            ShardEvent::Reread(Some(nodes)) => {
                if let Some(round) = self.round.as_mut() {
                    round.current = JobSnapshot::from_nodes(&round.paths, &nodes);
                    round.leaves = super::snapshot::item_leaves_from_nodes(&round.paths, &nodes);
                }
                self.attempt();
            }
            ShardEvent::Reread(None) | ShardEvent::RereadFailed => self.end_round(),
        }
    }

    /// Decides the leader's step from `look`.
    fn look(&mut self, look: &Look<'_>) {
        if self.round.is_some() {
            return;
        }
        self.handle_timeout(look.now);
        if !look.view.necessary {
            // Whoever completed the sharding, it completed.
            self.forget_failures();
        }
        match leader::step(look.view, &look.sharding, &mut self.written) {
            LeaderStep::Idle => {}
            #[cfg(feature = "injected-bugs")]
            LeaderStep::WaitForRunning if self.reshard_while_running => self.start_round(look),
            LeaderStep::WaitForRunning => {}
            // A failed round's pause: the flag stands, the next round waits.
            LeaderStep::Shard if self.retry_at.is_some() => {}
            LeaderStep::Flag => self.actions.push(ShardAction::Flag),
            LeaderStep::Shard => self.start_round(look),
        }
    }

    fn start_round(&mut self, look: &Look<'_>) {
        self.round = Some(Box::new(Round {
            current: look.view.clone(),
            leaves: BTreeMap::new(),
            paths: look.paths.clone(),
            me: look.me.to_string(),
            job: look.sharding.job.to_string(),
            total: look.sharding.total,
            strategy: look.sharding.strategy,
            prefix: look.prefix,
            budget: look.budget,
            now_ms: look.now_ms,
            now: look.now,
            random: look.random,
            attempt: 0,
            failure: None,
            assignment: Vec::new(),
        }));
        self.actions.push(ShardAction::CreateMarker);
    }

    /// Writes the assignment the round's current read calls for, or ends the round when there is
    /// none to write.
    fn attempt(&mut self) {
        let Some(round) = self.round.as_mut() else { return };
        round.current.processing = true;
        if !round.current.necessary {
            // Another leader's sharding completed meanwhile.
            round.failure = None;
            return self.end_round();
        }
        let available = round.current.available_instances();
        if available.is_empty() {
            return self.end_round();
        }
        round.attempt += 1;
        round.assignment = strategy::assign(round.strategy, &round.job, &available, round.total, round.now_ms);
        let ops = round.current.sharding_transaction(&round.paths, &round.assignment, round.total, &round.leaves);
        self.actions.push(ShardAction::Write(leader::split(ops, round.prefix, round.budget)));
    }

    /// Ends a round that wrote nothing: records its failure, if it had one, and deletes the marker.
    fn end_round(&mut self) {
        let Some(round) = self.round.take() else { return };
        if let Some(error) = round.failure {
            if self.failed == 0 {
                self.failed_since_ms = round.now_ms;
            }
            self.failed = self.failed.saturating_add(1);
            // The failed rounds in a row before this one: the count of the backoff.
            let before = u8::try_from(self.failed - 1).unwrap_or(u8::MAX);
            self.retry_at = Some(round.now + retry::SHARDING.delay(before, round.random));
            let since = DateTime::from_timestamp_millis(self.failed_since_ms).unwrap_or_default();
            self.actions.push(ShardAction::RecordFailure(ShardingFailure::new(since, self.failed, &error, &round.me)));
        }
        self.actions.push(ShardAction::DeleteMarker);
    }

    fn forget_failures(&mut self) {
        self.retry_at = None;
        if self.failed > 0 {
            self.failed = 0;
            self.actions.push(ShardAction::ClearFailure);
        }
    }
}

#[cfg(test)]
#[path = "sharder_tests.rs"]
mod tests;
