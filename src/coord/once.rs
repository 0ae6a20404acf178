//! The once-per-fire listener phases as pure decisions: ElasticJob's
//! `AbstractDistributeOnceElasticJobListener`
//! (docs/src/design/compatibility.md#distribute-once-listeners) without its known bugs
//! (docs/src/design/compatibility.md#known-flaws: #487, #631, #2032, #2142, #271).
//!
//! A phase — `started` before a fire's items, `completed` after them — runs its callback on one
//! instance once every item of the fire reached it. ElasticJob's nodes are kept, with what they
//! hold changed:
//!
//! * `guarantee/{phase}/{item}` holds the identity of the fire that marked it ([`Mark`], a
//!   [`FireId`]), not `""`. A node left by an earlier fire (a crashed instance, a timeout) never
//!   counts toward a later one — ElasticJob counts children, so leftovers made it fire early. The
//!   nodes are overwritten by the next fire, never deleted, so the tree does not grow; the
//!   claimer deletes the nodes of items at or beyond `shardingTotalCount` when the job shrank.
//! * The phase's root `guarantee/{phase}` holds the phase's state ([`Guard`]): `claimed`, `done`
//!   or `timeout` for one fire. ElasticJob's "count the children, then act under a latch, then
//!   delete the root" let two instances both see the count complete and both act, and waiters
//!   that missed the delete event hung until their timeout. Here exactly one instance wins a
//!   version-checked write of `claimed:{fire}:{instance}` and writes `done:{fire}` after the
//!   callback; the others watch the root in their cache until it says `done` for their fire.
//!
//! Completeness is read from the job's watched cache ([`step`] on each change), never polled:
//! every item 0..total that is not disabled has a mark of this fire. A claim held by an instance
//! whose instance node is gone (its session ended) counts as no claim: the fire is claimed again
//! rather than waited out — so the callback runs at least once, and twice only when the claimer
//! died after it finished but before it wrote `done` (its processes die with it, and a fenced
//! worker's callback is stopped before its session can expire).
//!
//! A fire can end without its callback: when the phase's timeout passes ([`expiry`]), or when a
//! later fire's mark reaches an item first (the fire can no longer complete: [`Step::Hopeless`]).
//! Either way one instance — the one whose version-checked write of `timeout:{fire}` succeeds —
//! reports it to the job's error handler, so it is reported once per fire, not once per waiting
//! instance as in ElasticJob.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use super::fire::FireId;
use crate::registry::path::{GuaranteePhase, JobPaths};
use crate::registry::{Mode, Op};

/// `started_timeout_ms` when unset: one minute. ElasticJob has no default (the timeouts are
/// constructor arguments) and ≤ 0 waits forever; the items of a fire wait on this phase, so a
/// forever wait turns one dead instance into a job whose items never run again (#2032, #271).
/// One minute is longer than a ZooKeeper session can last with the server's default limits
/// (20 ticks of 2 s), so a claimer that died is seen gone and the phase claimed again before the
/// waiters give up; and short enough that a dead instance delays the others' items by a minute.
pub const DEFAULT_STARTED_TIMEOUT_MS: i64 = 60_000;

/// `completed_timeout_ms` when unset: none. Nothing waits on this phase (no instance's next fire
/// does), so no wait can hang the job; items may run for hours, and a default that gave up would
/// skip `after_once` for every fire slower than it. A fire that cannot complete (an instance died
/// mid-fire) still ends, and is reported once, as soon as a later fire's item ends
/// ([`Step::Hopeless`]): a waiter lasts at most until the next fire.
pub const DEFAULT_COMPLETED_TIMEOUT_MS: i64 = 0;

/// A timeout setting in milliseconds as ElasticJob reads it: ≤ 0 is none (it waits forever).
pub fn timeout(ms: i64) -> Option<Duration> {
    u64::try_from(ms).ok().filter(|ms| *ms > 0).map(Duration::from_millis)
}

/// An item's mark: `guarantee/{phase}/{item}` holds `{fire}`, or `{fire}:failed` for a
/// completed item whose run failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    /// The fire the item reached the phase in.
    pub fire: FireId,
    /// The item's run failed (`completed` marks only).
    pub failed: bool,
}

impl Mark {
    /// The node data.
    pub fn encode(&self) -> Vec<u8> {
        if self.failed { format!("{}:failed", self.fire) } else { self.fire.to_string() }.into_bytes()
    }

    /// Decodes [`Mark::encode`]; `None` for anything else (ElasticJob's `""`).
    pub fn decode(data: &[u8]) -> Option<Mark> {
        let text = std::str::from_utf8(data).ok()?.trim();
        match text.strip_suffix(":failed") {
            Some(fire) => Some(Mark { fire: FireId::parse(fire)?, failed: true }),
            None => Some(Mark { fire: FireId::parse(text)?, failed: false }),
        }
    }
}

/// A phase's state: the data of `guarantee/{phase}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Guard {
    /// Nothing for any fire: `""` (as ElasticJob leaves it) or anything undecodable.
    Free,
    /// `claimed:{fire}:{instance}`: the instance runs the fire's callback.
    Claimed {
        /// The fire.
        fire: FireId,
        /// The claimer.
        instance: String,
    },
    /// `done:{fire}`: the fire's callback ran.
    Done(FireId),
    /// `timeout:{fire}`: the fire ended without its callback, and that was reported.
    TimedOut(FireId),
}

impl Guard {
    /// The node data.
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Guard::Free => String::new(),
            Guard::Claimed { fire, instance } => format!("claimed:{fire}:{instance}"),
            Guard::Done(fire) => format!("done:{fire}"),
            Guard::TimedOut(fire) => format!("timeout:{fire}"),
        }
        .into_bytes()
    }

    /// Decodes [`Guard::encode`]; anything else is [`Guard::Free`].
    pub fn decode(data: &[u8]) -> Guard {
        let Ok(text) = std::str::from_utf8(data) else { return Guard::Free };
        let parsed = match text.trim().split_once(':') {
            Some(("claimed", rest)) => rest.split_once(':').and_then(|(fire, instance)| {
                Some(Guard::Claimed { fire: FireId::parse(fire)?, instance: instance.to_string() })
                    .filter(|_| !instance.is_empty())
            }),
            Some(("done", fire)) => FireId::parse(fire).map(Guard::Done),
            Some(("timeout", fire)) => FireId::parse(fire).map(Guard::TimedOut),
            _ => None,
        };
        parsed.unwrap_or(Guard::Free)
    }

    /// The fire the state is about.
    pub fn fire(&self) -> Option<FireId> {
        match self {
            Guard::Free => None,
            Guard::Claimed { fire, .. } | Guard::Done(fire) | Guard::TimedOut(fire) => Some(*fire),
        }
    }
}

/// What a waiter sees of a phase in the cache.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// The root's state and version; `None` when the root does not exist.
    pub root: Option<(Guard, i32)>,
    /// The decodable marks of items 0..total.
    pub marks: BTreeMap<u32, Mark>,
    /// `shardingTotalCount`.
    pub total: u32,
    /// The disabled items (they do not run, so they are not waited for).
    pub disabled: BTreeSet<u32>,
}

impl Snapshot {
    fn version(&self) -> Option<i32> {
        self.root.as_ref().map(|(_, v)| *v)
    }

    /// Every item 0..total that is not disabled has a mark of `fire`.
    pub fn complete(&self, fire: FireId) -> bool {
        (0..self.total)
            .filter(|i| !self.disabled.contains(i))
            .all(|i| self.marks.get(&i).is_some_and(|m| m.fire == fire))
    }

    /// The first item whose mark belongs to a fire later than `fire`, with that fire.
    pub fn later_mark(&self, fire: FireId) -> Option<(u32, FireId)> {
        self.marks.iter().find(|(_, m)| m.fire > fire).map(|(i, m)| (*i, m.fire))
    }

    /// The items whose completed run failed.
    pub fn failed(&self, fire: FireId) -> Vec<u32> {
        self.marks.iter().filter(|(_, m)| m.fire == fire && m.failed).map(|(i, _)| *i).collect()
    }
}

/// What a waiter for a fire's phase does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The fire's callback ran (here or elsewhere): the phase is over.
    Done,
    /// The phase is over for this fire without the callback, and that is someone else's to
    /// report: its timeout was reported, or the phase already belongs to a later fire.
    Over,
    /// Every item reached the phase and nobody (alive) holds it: claim it — write
    /// `claimed:{fire}:{me}` at this root version (`None`: create the root).
    Claim {
        /// The root's version.
        version: Option<i32>,
    },
    /// The fire can no longer complete: `item` already belongs to the later fire `later`. Report
    /// it once — write `timeout:{fire}` at this version (`None`: create the root).
    Hopeless {
        /// The item.
        item: u32,
        /// The later fire.
        later: FireId,
        /// The root's version.
        version: Option<i32>,
    },
    /// Not every item reached the phase yet, or the claimer runs the callback: wait for a change.
    Wait,
}

/// Decides a waiter's next step for `fire`'s phase from the cache. `live`: an instance node
/// exists.
pub fn step(s: &Snapshot, fire: FireId, me: &str, live: impl Fn(&str) -> bool) -> Step {
    match s.root.as_ref() {
        Some((Guard::Done(f), _)) if *f == fire => return Step::Done,
        Some((Guard::TimedOut(f), _)) if *f == fire => return Step::Over,
        Some((g, _)) if g.fire().is_some_and(|f| f > fire) => return Step::Over,
        // Claimed by this instance too: another wait of the same fire here (a trigger queued
        // behind a busy item, a failed-over run) runs the callback.
        Some((Guard::Claimed { fire: f, instance }, _)) if *f == fire && (instance == me || live(instance)) => {
            return Step::Wait;
        }
        // Claimed by an instance that is gone: the claim counts as none.
        // Free, or an earlier fire's state: as good as free.
        _ => {}
    }
    if s.complete(fire) {
        return Step::Claim { version: s.version() };
    }
    match s.later_mark(fire) {
        Some((item, later)) => Step::Hopeless { item, later, version: s.version() },
        None => Step::Wait,
    }
}

/// What a waiter does when the phase's timeout passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expiry {
    /// Nothing to report: the callback ran, the timeout was reported, or a later fire holds the
    /// phase.
    Quiet,
    /// Report the timeout, once: write `timeout:{fire}` at this root version (`None`: create it).
    Report {
        /// The root's version.
        version: Option<i32>,
    },
}

/// Decides what the waiter does at its timeout. A claim held for this fire (the callback is
/// slower than the timeout, or its claimer is gone) does not stop the report: the items stop
/// waiting either way, and the claimer's `done` then finds the root changed and says so.
pub fn expiry(s: &Snapshot, fire: FireId) -> Expiry {
    match s.root.as_ref() {
        Some((Guard::Done(f) | Guard::TimedOut(f), _)) if *f == fire => Expiry::Quiet,
        Some((g, _)) if g.fire().is_some_and(|f| f > fire) => Expiry::Quiet,
        _ => Expiry::Report { version: s.version() },
    }
}

/// The writes that mark `items` for a phase, in one transaction: the parents first when the
/// cache does not show them (`parents`: `guarantee` and `guarantee/{phase}` exist), then a set of
/// each existing item node (`exists`) or a create of a missing one. The nodes are overwritten,
/// never deleted, so a later fire's mark replaces an earlier one's.
pub fn mark_ops(
    paths: &JobPaths,
    phase: GuaranteePhase,
    marks: &[(u32, Mark)],
    parents: (bool, bool),
    exists: impl Fn(u32) -> bool,
) -> Vec<Op> {
    let mut ops = Vec::new();
    let create = |path: String| Op::Create { path, data: Vec::new(), mode: Mode::Persistent };
    if !parents.0 {
        ops.push(create(paths.guarantee()));
    }
    if !parents.1 {
        ops.push(create(paths.guarantee_root(phase)));
    }
    for (item, mark) in marks {
        let path = paths.guarantee_item(phase, *item);
        ops.push(if exists(*item) {
            Op::Set { path, data: mark.encode(), version: None }
        } else {
            Op::Create { path, data: mark.encode(), mode: Mode::Persistent }
        });
    }
    ops
}

/// The item nodes of a phase to delete: those of items at or beyond `total` (the job shrank);
/// `children` are the root's child names.
pub fn stale_items(children: &[String], total: u32) -> Vec<u32> {
    children.iter().filter_map(|c| crate::registry::path::parse_item(c)).filter(|i| *i >= total).collect()
}

#[cfg(test)]
#[path = "once_tests.rs"]
mod tests;
