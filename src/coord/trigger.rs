//! A manual trigger for this instance (`trigger/{id}`), consumed once, as a machine without I/O
//! in the shape of the [`super::claimer`]: [`Triggers::handle`] takes what happened (the cache
//! shows the node, the answers to the requests), [`Triggers::poll_action`] gives what to do,
//! [`Triggers::poll_timeout`] when to try again.
//!
//! **What fires.** The deletion of the node consumes the trigger: only the request that removed
//! it fires, since a resync may show a node this instance consumed a moment before. The trigger's
//! identity across instances (the `trigger` parent's creation: [`FireId::trigger`]) is read
//! first, while the node still stands for the round.
//!
//! **A deletion the registry failed.** ZooKeeper does not say whether a request whose reply was
//! lost was applied. Such a trigger is *in doubt* and is tried again after a pause
//! ([`retry::TRIGGER`], backing off while the registry keeps failing): a deletion that removes the
//! node fires, and so does one that finds it gone — only this instance consumes its node (an
//! operator's new trigger writes it again, see `ops::trigger`), so a node gone is the lost
//! deletion's work. Without this the trigger was lost whenever the reply was: the operator's
//! `job trigger --wait` waited out its timeout for a run that never came. A trigger seen again
//! while one is in doubt (the node was not deleted after all, or an operator triggered again) is
//! consumed in its place with the same rule: one run answers both.
//!
//! **Contract.** [`TriggerAction::ReadRound`] must be answered with
//! [`TriggerEvent::RoundRead`] (`None` when the read failed: the fire then has no identity),
//! [`TriggerAction::Consume`] (delete the node if it exists) with [`TriggerEvent::Consumed`];
//! [`TriggerAction::Fire`] must fire the trigger here; [`TriggerAction::RetryIn`] expects nothing.
//! Poll after every event until no action is left.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::fire::FireId;
use crate::retry::{self, Attempts};

/// This instance's trigger of one job: nothing, or the one being consumed.
#[derive(Debug, Default)]
pub struct Triggers {
    /// Boxed: an idle job keeps one word for it.
    current: Option<Box<Current>>,
}

/// The trigger being consumed.
#[derive(Debug)]
struct Current {
    /// The trigger as the node showed it.
    trigger: Trigger,
    /// A deletion of it may have been applied without a reply.
    in_doubt: bool,
    /// The deletions that failed in a row.
    attempts: Attempts,
    /// While in doubt: when to try the deletion again.
    retry_at: Option<Instant>,
    /// The action not polled yet.
    action: Option<TriggerAction>,
}

/// A trigger to fire: the token of a `job trigger --wait` that wants the items' results, and the
/// identity every instance it was written for gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trigger {
    /// The node's token, if any.
    pub token: Option<Arc<str>>,
    /// The trigger's identity (`None`: it could not be read).
    pub round: Option<FireId>,
}

/// What happened, for [`Triggers::handle`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TriggerEvent {
    /// The cache shows a trigger node for this instance, with this token.
    Seen {
        /// The node's token, if any.
        token: Option<Arc<str>>,
    },
    /// Answers [`TriggerAction::ReadRound`].
    RoundRead(Option<FireId>),
    /// Answers [`TriggerAction::Consume`]: whether the deletion removed the node, or why the
    /// registry failed it, at `now`; `random` draws the pause.
    Consumed {
        /// `Ok(true)`: removed; `Ok(false)`: it was gone; `Err`: the registry failed it.
        result: Result<bool, ()>,
        /// When the answer came.
        now: Instant,
        /// The random bits of a pause ([`crate::retry::Jitter::draw`]).
        random: u64,
    },
}

/// What to do, from [`Triggers::poll_action`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TriggerAction {
    /// Read the trigger's identity (the `trigger` parent's creation).
    ReadRound,
    /// Delete the trigger node if it exists.
    Consume,
    /// Fire the trigger here.
    Fire(Trigger),
    /// The deletion failed: it is tried again after `delay`.
    RetryIn(Duration),
}

impl Triggers {
    /// No trigger.
    pub fn new() -> Triggers {
        Triggers::default()
    }

    /// When to try a deletion in doubt again.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.current.as_ref().and_then(|c| c.retry_at)
    }

    /// The pause of a deletion in doubt ends at `now` or before: try it again.
    pub fn handle_timeout(&mut self, now: Instant) {
        if let Some(current) = self.current.as_mut().filter(|c| c.retry_at.is_some_and(|at| at <= now)) {
            current.retry_at = None;
            current.action = Some(TriggerAction::Consume);
        }
    }

    /// The next action, if any.
    pub fn poll_action(&mut self) -> Option<TriggerAction> {
        let action = self.current.as_mut()?.action.take();
        if matches!(action, Some(TriggerAction::Fire(_))) {
            self.current = None;
        }
        action
    }

    /// Takes in what happened.
    pub fn handle(&mut self, event: TriggerEvent) {
        match event {
            TriggerEvent::Seen { token } => {
                let in_doubt = self.current.as_ref().is_some_and(|c| c.in_doubt);
                let attempts = self.current.as_ref().map(|c| c.attempts).unwrap_or_default();
                self.current = Some(Box::new(Current {
                    trigger: Trigger { token, round: None },
                    in_doubt,
                    attempts,
                    retry_at: None,
                    action: Some(TriggerAction::ReadRound),
                }));
            }
            TriggerEvent::RoundRead(round) => {
                if let Some(current) = self.current.as_mut() {
                    current.trigger.round = round;
                    current.action = Some(TriggerAction::Consume);
                }
            }
            TriggerEvent::Consumed { result, now, random } => {
                let Some(current) = self.current.as_mut() else { return };
                match result {
                    Ok(removed) if removed || current.in_doubt => {
                        current.action = Some(TriggerAction::Fire(current.trigger.clone()));
                    }
                    // Consumed already (by this instance, a moment before a resync showed it).
                    Ok(_) => self.current = None,
                    Err(()) => {
                        let delay = current.attempts.fail(&retry::TRIGGER, random);
                        current.in_doubt = true;
                        current.retry_at = Some(now + delay);
                        current.action = Some(TriggerAction::RetryIn(delay));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(t: &str) -> Option<Arc<str>> {
        Some(Arc::from(t))
    }

    fn round() -> Option<FireId> {
        Some(FireId::trigger(1_000, 7))
    }

    fn fire(t: &str) -> TriggerAction {
        TriggerAction::Fire(Trigger { token: token(t), round: round() })
    }

    /// Feeds `events` in turn, collecting every action polled after each.
    fn run(triggers: &mut Triggers, events: Vec<TriggerEvent>) -> Vec<TriggerAction> {
        let mut actions = Vec::new();
        for event in events {
            triggers.handle(event);
            actions.extend(std::iter::from_fn(|| triggers.poll_action()));
        }
        actions
    }

    fn consumed(result: Result<bool, ()>, now: Instant) -> TriggerEvent {
        TriggerEvent::Consumed { result, now, random: 0 }
    }

    #[test]
    fn a_trigger_fires_once_when_its_deletion_removes_the_node() {
        let now = Instant::now();
        let mut triggers = Triggers::new();
        let events = vec![TriggerEvent::Seen { token: token("t") }, TriggerEvent::RoundRead(round())];
        assert_eq!(run(&mut triggers, events), [TriggerAction::ReadRound, TriggerAction::Consume]);
        assert_eq!(run(&mut triggers, vec![consumed(Ok(true), now)]), [fire("t")]);
        assert_eq!(triggers.poll_timeout(), None);
        assert!(triggers.current.is_none(), "nothing kept once fired");
        // A resync shows the node this instance just consumed: found gone, nothing fires.
        let events = vec![TriggerEvent::Seen { token: token("t") }, TriggerEvent::RoundRead(round())];
        run(&mut triggers, events);
        assert_eq!(run(&mut triggers, vec![consumed(Ok(false), now)]), []);
        assert!(triggers.current.is_none());
    }

    #[test]
    fn a_deletion_whose_reply_was_lost_fires_once_the_registry_answers() {
        let now = Instant::now();
        let mut triggers = Triggers::new();
        run(&mut triggers, vec![TriggerEvent::Seen { token: token("t") }, TriggerEvent::RoundRead(round())]);
        let failed = run(&mut triggers, vec![consumed(Err(()), now)]);
        let [TriggerAction::RetryIn(first)] = failed[..] else { panic!("a pause: {failed:?}") };
        assert_eq!(triggers.poll_timeout(), Some(now + first));
        triggers.handle_timeout(now);
        assert_eq!(triggers.poll_action(), None, "not before the pause ends");
        // The registry keeps failing: the pause backs off.
        triggers.handle_timeout(now + first);
        assert_eq!(triggers.poll_action(), Some(TriggerAction::Consume));
        let failed = run(&mut triggers, vec![consumed(Err(()), now + first)]);
        let [TriggerAction::RetryIn(second)] = failed[..] else { panic!("a pause: {failed:?}") };
        assert!(second >= retry::TRIGGER.floor() && second <= retry::TRIGGER.ceiling(1));
        // Back: the node is gone, so the lost deletion removed it — the trigger fires.
        triggers.handle_timeout(now + first + second);
        assert_eq!(triggers.poll_action(), Some(TriggerAction::Consume));
        assert_eq!(run(&mut triggers, vec![consumed(Ok(false), now)]), [fire("t")]);
        assert_eq!(triggers.poll_timeout(), None);
    }

    #[test]
    fn a_trigger_seen_while_one_is_in_doubt_is_consumed_in_its_place_and_fires_once() {
        let now = Instant::now();
        // (rule, the deletion's answer, what fires)
        let rows = [
            ("the node was not deleted after all: this deletion removes it", Ok(true), vec![fire("new")]),
            ("gone by the time it is deleted: the doubt's deletion did it", Ok(false), vec![fire("new")]),
        ];
        for (rule, result, expect) in rows {
            let mut triggers = Triggers::new();
            run(&mut triggers, vec![TriggerEvent::Seen { token: token("old") }, TriggerEvent::RoundRead(round())]);
            run(&mut triggers, vec![consumed(Err(()), now)]);
            let events = vec![TriggerEvent::Seen { token: token("new") }, TriggerEvent::RoundRead(round())];
            assert_eq!(run(&mut triggers, events), [TriggerAction::ReadRound, TriggerAction::Consume], "rule: {rule}");
            assert_eq!(triggers.poll_timeout(), None, "rule: {rule}: the pause gives way to the deletion");
            assert_eq!(run(&mut triggers, vec![consumed(result, now)]), expect, "rule: {rule}");
            assert!(triggers.current.is_none(), "rule: {rule}");
        }
    }
}
