//! How a job on one instance reacts: to a batch of registry events, to a re-evaluation of the
//! tree, to its session's changes, to the clock, and to a new configuration.
//!
//! * [`react`]: what a batch of cache events asks for — reload the configuration, check the
//!   instance node an operator may have deleted, run a manual trigger;
//! * [`duties`]: after any change, in order — give up leadership (server disabled), contend for
//!   it (no leader), fail over, lead, and whether fires must wait for resharding;
//! * [`session`]: the link went down, came back in the same session, or came back with a new one
//!   (register again);
//! * [`clock_skew`], [`reconcile_due`], [`transition`]: `maxTimeDiffSeconds`, the periodic safety
//!   net, and what a configuration change switches off or reschedules.

use std::time::Duration;

use super::snapshot::JobSnapshot;
use crate::registry::cache::CacheEvent;
use crate::registry::path::{self, Node};
use crate::registry::{LinkState, SessionStatus};

/// What a batch of cache events asks for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reaction {
    /// The configuration may have changed: reload it.
    pub config_changed: bool,
    /// This instance's node was deleted: find out whether an operator did it.
    pub own_instance_deleted: bool,
    /// A trigger for this instance is waiting.
    pub triggered: bool,
    /// Something the job's duties and fires depend on may have changed: any event but one of a
    /// bookkeeping node ([`path::bookkeeping`]: the registry clock probe every fire writes,
    /// failover latches, trigger results, items' last results), which re-evaluate nothing.
    pub reevaluate: bool,
}

/// Reads a batch of events. After a resync (events may have been lost) everything is looked at
/// again: the configuration, and whether a trigger for `me` is waiting (`trigger_waiting`, asked
/// only then: every run's nodes cause events, so the common case must stay cheap).
pub fn react(events: &[CacheEvent], me: &str, trigger_waiting: impl Fn() -> bool) -> Reaction {
    let mut r = Reaction::default();
    for event in events {
        let (CacheEvent::Created(p) | CacheEvent::Changed(p) | CacheEvent::Deleted(p)) = event else {
            r.config_changed = true;
            r.triggered |= trigger_waiting();
            r.reevaluate = true;
            continue;
        };
        r.reevaluate |= !path::bookkeeping(p);
        match path::parse(p) {
            Some((_, Node::Config)) => r.config_changed = true,
            Some((_, Node::Instance(id))) if id == me && matches!(event, CacheEvent::Deleted(_)) => {
                r.own_instance_deleted = true;
            }
            Some((_, Node::Trigger(id))) if id == me && matches!(event, CacheEvent::Created(_)) => {
                r.triggered = true;
            }
            _ => {}
        }
    }
    r
}

/// What to do after a change, in this order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Duties {
    /// This instance leads but its server is disabled: give leadership up, and do nothing else.
    pub resign: bool,
    /// There is no leader and this instance may lead: contend.
    pub elect: bool,
    /// Failover is on (with monitoring) and this instance can run the job: look for orphans and
    /// queued items.
    pub failover: bool,
    /// This instance leads: do the leader's sharding duty.
    pub lead: bool,
    /// Resharding is pending: fires wait; nothing queued starts.
    pub sharding_pending: bool,
}

/// Decides the duties after a change (the link is up). `runnable`: this instance's configuration
/// can run the job. An instance that cannot takes no part in failover: an item it claimed would
/// only go back to the queue, and the queue's change would start the next round, a loop of
/// claims; the queued items wait for an instance that can run them.
pub fn duties(
    view: &JobSnapshot,
    me: &str,
    total: u32,
    failover: bool,
    monitor_execution: bool,
    runnable: bool,
) -> Duties {
    let leader = view.leader.as_deref() == Some(me);
    if leader && !view.server_enabled(codec_ip(me)) {
        return Duties { resign: true, ..Duties::default() };
    }
    Duties {
        resign: false,
        elect: view.leader.is_none() && view.is_available(me),
        failover: failover && monitor_execution && runnable,
        lead: leader,
        sharding_pending: view.sharding_pending(total),
    }
}

/// One step of the duties after a change ([`Duties::steps`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Duty {
    /// This instance does not lead: a sharding failure it recorded is the next leader's.
    NotLeading,
    /// Look at the election: contend (`elect`) or give leadership up (`resign`), as the elector
    /// decides ([`super::elector`]).
    Elect {
        /// No leader, and this instance may lead.
        elect: bool,
        /// This instance leads on a disabled server.
        resign: bool,
    },
    /// Hand back the runs fencing killed ([`super::fire::hand_back`]).
    HandBack,
    /// Look for orphans and queued items ([`super::failover`]).
    Failover,
    /// The leader's sharding duty ([`super::sharder`]).
    Lead,
    /// The simulator's injected bug `sharding-without-leader-check` (only in its mutation check):
    /// an instance that does not lead shards.
    #[cfg(feature = "injected-bugs")]
    LeadUnchecked,
    /// Run the fire that waited for resharding, if there is one, else the fires queued on local
    /// items that nothing runs any more.
    RunWaiting,
}

impl Duties {
    /// The steps, in order. The election goes first: a leader gives up leadership before
    /// anything else when its server is disabled, and does nothing else. The runs fencing killed
    /// are handed back before that return: the disabled server's id is live, so only it can hand
    /// them back, and the leader waits for their nodes before it reshards. Failover before the
    /// sharding duty, and fires wait while resharding is pending. `shard_unchecked`: the injected
    /// bug, for an available instance that does not lead (false in any build but the
    /// simulator's).
    pub fn steps(&self, shard_unchecked: bool) -> Vec<Duty> {
        let mut steps = Vec::with_capacity(6);
        if !self.lead {
            steps.push(Duty::NotLeading);
        }
        steps.push(Duty::Elect { elect: self.elect, resign: self.resign });
        steps.push(Duty::HandBack);
        if self.resign {
            return steps;
        }
        if self.failover {
            steps.push(Duty::Failover);
        }
        if self.lead {
            steps.push(Duty::Lead);
        }
        #[cfg(feature = "injected-bugs")]
        if !self.lead && shard_unchecked {
            steps.push(Duty::LeadUnchecked);
        }
        #[cfg(not(feature = "injected-bugs"))]
        let _ = shard_unchecked;
        if !self.sharding_pending {
            steps.push(Duty::RunWaiting);
        }
        steps
    }
}

fn codec_ip(id: &str) -> &str {
    crate::registry::codec::instance_ip(id)
}

/// What a session change asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionStep {
    /// The link is down: no fires until it is back (`was_up`: it just went down, say so).
    Down {
        /// The link was up until now.
        was_up: bool,
    },
    /// Connected with a session other than the one registered: register again, then resume.
    Register,
    /// Connected in the registered session: resume (`was_down`: it just came back, say so).
    Resume {
        /// The link was down until now.
        was_down: bool,
    },
}

/// Decides a session change; `connected` is updated.
pub fn session(connected: &mut bool, registered_session: i64, status: SessionStatus) -> SessionStep {
    match status.state {
        LinkState::Disconnected | LinkState::Expired => {
            let was_up = *connected;
            *connected = false;
            SessionStep::Down { was_up }
        }
        LinkState::Connected => {
            let was_down = !*connected;
            *connected = true;
            if status.session_id != registered_session {
                SessionStep::Register
            } else {
                SessionStep::Resume { was_down }
            }
        }
    }
}

/// Whether this instance's deleted node needs a look: only when connected in the registered
/// session. After a new session the deletion is expected (re-registration follows); within our
/// session only an operator deletes it (`job shutdown`), and then the job stops in this process.
pub fn check_own_instance(connected: bool, session_id: i64, registered_session: i64) -> bool {
    connected && session_id == registered_session
}

/// `maxTimeDiffSeconds`: the skew between this machine's clock and the registry's (the mtime of a
/// node written now), in milliseconds, when it is over the limit; `None` when within it or when
/// the check is off (`limit < 0`).
pub fn clock_skew(limit_seconds: i32, now_ms: i64, registry_ms: i64) -> Option<i64> {
    if limit_seconds < 0 {
        return None;
    }
    let skew = (now_ms - registry_ms).abs();
    (skew > i64::from(limit_seconds) * 1000).then_some(skew)
}

/// Whether the periodic reconcile is due: `reconcileIntervalMinutes` (0 disables it) have passed
/// since the last one.
pub fn reconcile_due(interval_minutes: i32, since_last: Duration) -> bool {
    let interval = u64::try_from(interval_minutes).unwrap_or(0);
    interval > 0 && since_last >= Duration::from_secs(interval * 60)
}

/// How long after the last reconcile the next one is due; `None` when
/// `reconcileIntervalMinutes` is 0 (disabled): the job then keeps no timer for it.
pub fn reconcile_interval(interval_minutes: i32) -> Option<Duration> {
    let interval = u64::try_from(interval_minutes).unwrap_or(0);
    (interval > 0).then(|| Duration::from_secs(interval * 60))
}

/// What a new configuration changes in a running job.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Transition {
    /// `monitorExecution` was switched off: every instance clears the `running` nodes.
    pub monitor_switched_off: bool,
    /// `failover` was switched off: every instance clears the failover nodes.
    pub failover_switched_off: bool,
    /// The cron or time zone changed: the next fire is computed again.
    pub reschedule: bool,
}

/// The settings a [`Transition`] compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Switches<'a> {
    /// `monitorExecution`.
    pub monitor_execution: bool,
    /// `failover`.
    pub failover: bool,
    /// The cron expression, as written.
    pub cron: Option<&'a str>,
    /// The time zone.
    pub time_zone: &'a crate::schedule::cron::JobTimeZone,
}

/// What a job does with a new configuration that validates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Adoption {
    /// It takes effect.
    Adopt,
    /// It takes effect, but the job cannot run items under it (an executor property out of
    /// range, say) until it is fixed: the one in effect could not either.
    AdoptUnrunnable,
    /// It does not take effect: it cannot run items, and the one in effect can, so that one keeps
    /// running, as with a configuration that does not validate.
    Keep,
}

/// Whether a validated configuration takes effect, from whether items can run under it
/// (`runs`) and under the one in effect (`current_runs`).
pub fn adoption(runs: bool, current_runs: bool) -> Adoption {
    match (runs, current_runs) {
        (true, _) => Adoption::Adopt,
        (false, true) => Adoption::Keep,
        (false, false) => Adoption::AdoptUnrunnable,
    }
}

/// Compares the settings before (`None`: the first configuration) and after a change.
pub fn transition(old: Option<Switches<'_>>, new: Switches<'_>) -> Transition {
    match old {
        None => Transition { reschedule: true, ..Transition::default() },
        Some(old) => Transition {
            monitor_switched_off: old.monitor_execution && !new.monitor_execution,
            failover_switched_off: old.failover && !new.failover,
            reschedule: old.cron != new.cron || old.time_zone != new.time_zone,
        },
    }
}

#[cfg(test)]
#[path = "react_tests.rs"]
mod tests;
