//! A job's failover claim rounds on this instance, as a machine without I/O, in the shape of the
//! [`super::elector`]: [`Claimer::handle`] takes what happened (what the cache shows after a
//! change, how a round ended, whether a claimed item could start), [`Claimer::poll_action`] gives
//! what to do, [`Claimer::poll_timeout`] when to look again. The instant and the random bits of a
//! pause come in with the event that needs them. What a round does is [`super::failover`]'s.
//!
//! **Contract.** A polled [`ClaimAction::Round`] must be carried out — one round under the
//! failover latch: confirm the suspects and queue the orphans, then claim the first queued item
//! this instance may take — and its end reported with [`ClaimEvent::Ended`]; until then no other
//! round is asked for. A polled [`ClaimAction::Run`] must start the claimed item here, or be
//! answered with [`ClaimEvent::Refused`] (it cannot run here), which asks for
//! [`ClaimAction::Return`]: put the item back in the queue. [`ClaimAction::Return`] and
//! [`ClaimAction::RetryIn`] expect no answer. Each event asks for one action at most, and a look
//! for nothing but a round: poll after every event.
//!
//! **When rounds start.** One at a time, when there is work ([`super::failover::has_work`]), and
//! not again after a round that found nothing to claim until the cache changes in a way that can
//! matter ([`super::failover::wakes`]): every live instance takes part in failover, and an item
//! that stays a suspect (running elsewhere under an owner the round confirms alive) would
//! otherwise start a round at every look.
//!
//! **Pauses.** A round the registry failed is followed by a pause ([`retry::FAILOVER`], backing
//! off while rounds keep failing, back to the first delay after one that ends). A change that can
//! matter ends the pause at once: the cluster moved, and waiting out a backoff grown during an
//! outage would delay the failover of items orphaned by it.
//!
//! **Stopping.** After [`ClaimEvent::Stop`] no round is asked for, and an item that the round in
//! flight claims is returned to the queue instead of run: the instance is leaving.

use std::time::{Duration, Instant};

use crate::retry::{self, Attempts};

/// The failover state of one job on this instance.
#[derive(Debug, Default)]
pub struct Claimer {
    /// A round was asked for and has not ended.
    in_flight: bool,
    /// The last round found nothing to claim, or failed: no round before a change that can
    /// matter, or the pause's end.
    idle: bool,
    /// The job is stopping.
    stopping: bool,
    /// After a failed round: the pause's end.
    retry_at: Option<Instant>,
    /// The rounds that failed in a row.
    attempts: Attempts,
    /// The action not polled yet (one at most: each event asks for one).
    action: Option<ClaimAction>,
}

/// How a round ended, for [`ClaimEvent::Ended`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundEnd {
    /// It claimed this item for this instance.
    Claimed(u32),
    /// There was nothing this instance could claim.
    Nothing,
    /// The registry failed it at `now` (or the round's task ended without a result); `random`
    /// draws the pause.
    Failed {
        /// When it failed.
        now: Instant,
        /// The random bits of the pause ([`crate::retry::Jitter::draw`]).
        random: u64,
    },
}

/// What happened, for [`Claimer::handle`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimEvent {
    /// The job's failover duty after a change: whether the cache shows work this instance may
    /// take part in ([`super::failover::has_work`]).
    Look {
        /// Suspects to confirm or queued items, and this instance may take items.
        work: bool,
    },
    /// The cache changed in a way that can change what a round finds
    /// ([`super::failover::wakes`]).
    Wake,
    /// Answers [`ClaimAction::Round`].
    Ended(RoundEnd),
    /// Answers [`ClaimAction::Run`]: the claimed item cannot start here.
    Refused(u32),
    /// The job stops.
    Stop,
}

/// What to do, from [`Claimer::poll_action`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimAction {
    /// Carry out a round (in the background), then report how it ended.
    Round,
    /// Run the item claimed for this instance.
    Run(u32),
    /// Put a claimed item back in the failover queue.
    Return(u32),
    /// A round failed: the next may start after `delay`.
    RetryIn(Duration),
}

impl Claimer {
    /// No round, no pause.
    pub fn new() -> Claimer {
        Claimer::default()
    }

    /// A round was asked for and has not ended (the tests' view; a driver knows from its task).
    #[cfg(test)]
    pub fn in_flight(&self) -> bool {
        self.in_flight
    }

    /// The end of a failed round's pause: look again then.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.retry_at
    }

    /// The pause ends at `now` or before: the next look may start a round.
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.retry_at.is_some_and(|at| at <= now) {
            self.end_pause();
        }
    }

    /// The next action, if any.
    pub fn poll_action(&mut self) -> Option<ClaimAction> {
        self.action.take()
    }

    /// Takes in what happened.
    pub fn handle(&mut self, event: ClaimEvent) {
        match event {
            ClaimEvent::Look { work: true } if !self.in_flight && !self.idle && !self.stopping => {
                self.in_flight = true;
                self.action = Some(ClaimAction::Round);
            }
            ClaimEvent::Look { .. } => {}
            ClaimEvent::Wake => self.end_pause(),
            ClaimEvent::Ended(end) => {
                self.in_flight = false;
                match end {
                    RoundEnd::Claimed(item) => {
                        self.attempts.reset();
                        self.action =
                            Some(if self.stopping { ClaimAction::Return(item) } else { ClaimAction::Run(item) });
                    }
                    RoundEnd::Nothing => {
                        self.attempts.reset();
                        self.idle = true;
                    }
                    RoundEnd::Failed { now, random } => {
                        let delay = self.attempts.fail(&retry::FAILOVER, random);
                        self.idle = true;
                        self.retry_at = Some(now + delay);
                        self.action = Some(ClaimAction::RetryIn(delay));
                    }
                }
            }
            ClaimEvent::Refused(item) => self.action = Some(ClaimAction::Return(item)),
            ClaimEvent::Stop => {
                self.stopping = true;
                if self.action == Some(ClaimAction::Round) {
                    self.action = None;
                    self.in_flight = false;
                }
            }
        }
    }

    fn end_pause(&mut self) {
        self.idle = false;
        self.retry_at = None;
    }
}

#[cfg(test)]
#[path = "claimer_tests.rs"]
mod tests;
