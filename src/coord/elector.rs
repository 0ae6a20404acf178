//! The contention for a job's leadership on this instance, as a machine without I/O, in the shape
//! of the leader's [`super::sharder`]: [`Elector::handle`] takes what happened (what the job's
//! duties say after a change, how a contention ended), [`Elector::poll_action`] gives what to do,
//! [`Elector::poll_timeout`] when to look again. The instant and the random bits of a pause come
//! in with the event that needs them.
//!
//! **Contract.** A polled [`ElectAction::Contend`] must be carried out — the Curator latch at
//! `leader/election/latch`, then "create `leader/election/instance` if absent"
//! (docs/src/design/compatibility.md#leader-election) — and its end reported, with
//! [`ElectEvent::Won`] (it ran to the end, whoever leads now) or [`ElectEvent::Failed`] (the
//! registry failed it); until then no other contention is asked for. [`ElectAction::Resign`]
//! expects no answer: a failure to give leadership up is the driver's to log, and the next look
//! decides again.
//!
//! **Pauses.** A contention that failed is followed by a pause before the next
//! ([`retry::ELECTION`], backing off while contentions keep failing, back to the first delay after
//! one that ran to the end): the contention's own latch nodes change the job's cache, and
//! contending again at every such change would be a busy loop of requests while the registry
//! fails.

use std::time::Instant;

use crate::retry::{self, Attempts};

/// The contention state of one job on this instance.
#[derive(Debug, Default)]
pub struct Elector {
    /// A contention was asked for and has not ended.
    contending: bool,
    /// After a failed contention: not before this instant.
    retry_at: Option<Instant>,
    /// The contentions that failed in a row.
    attempts: Attempts,
    /// The action not polled yet (one at most: a look asks for one).
    action: Option<ElectAction>,
}

/// What happened, for [`Elector::handle`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElectEvent {
    /// The job's duties after a change ([`super::react::duties`]): `elect` when the job has no
    /// leader and this instance may lead it, `resign` when this instance leads it while its
    /// server is disabled.
    Look {
        /// Contend for leadership.
        elect: bool,
        /// Give leadership up.
        resign: bool,
    },
    /// The contention ran to the end: this instance leads, or another did already.
    Won,
    /// The registry failed the contention at `now`; `random` draws the pause.
    Failed {
        /// When it failed.
        now: Instant,
        /// The random bits of the pause ([`crate::retry::Jitter::draw`]).
        random: u64,
    },
    /// The job stops: a contention under way is abandoned.
    Stop,
    /// The stopped job leaves, its runs ended: `leading` when the cache shows this instance as
    /// the leader and the link is up. The leader node goes then rather than with the session, so
    /// that another instance takes over at once.
    Leave {
        /// This instance leads, and the registry can be told.
        leading: bool,
    },
}

/// What to do, from [`Elector::poll_action`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElectAction {
    /// Contend for leadership (in the background), then report how it ended.
    Contend,
    /// Delete this instance's leader node (its server was disabled, or the job leaves).
    Resign,
}

impl Elector {
    /// Not contending, no pause.
    pub fn new() -> Elector {
        Elector::default()
    }

    /// The end of a failed contention's pause: look again then.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.retry_at
    }

    /// The pause ends at `now` or before: the next look may contend.
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.retry_at.is_some_and(|at| at <= now) {
            self.retry_at = None;
        }
    }

    /// The next action, if any.
    pub fn poll_action(&mut self) -> Option<ElectAction> {
        self.action.take()
    }

    /// Takes in what happened.
    pub fn handle(&mut self, event: ElectEvent) {
        match event {
            ElectEvent::Look { resign: true, .. } => self.action = Some(ElectAction::Resign),
            ElectEvent::Look { elect: true, .. } if !self.contending && self.retry_at.is_none() => {
                self.contending = true;
                self.action = Some(ElectAction::Contend);
            }
            ElectEvent::Look { .. } => {}
            ElectEvent::Won => {
                self.contending = false;
                self.attempts.reset();
            }
            ElectEvent::Failed { now, random } => {
                self.contending = false;
                self.retry_at = Some(now + self.attempts.fail(&retry::ELECTION, random));
            }
            ElectEvent::Stop => {
                self.contending = false;
                self.action = None;
            }
            ElectEvent::Leave { leading } => self.action = leading.then_some(ElectAction::Resign),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    const LOOK: ElectEvent = ElectEvent::Look { elect: true, resign: false };
    /// Random bits in the middle of the range: the pause is midway between the policy's floor
    /// and its widest.
    const MID: u64 = u64::MAX / 2;

    fn actions(e: &mut Elector) -> Vec<ElectAction> {
        std::iter::from_fn(|| e.poll_action()).collect()
    }

    #[test]
    fn one_contention_at_a_time_then_again_after_it_ended() {
        let mut e = Elector::new();
        e.handle(ElectEvent::Look { elect: false, resign: false });
        assert_eq!(actions(&mut e), []);
        e.handle(LOOK);
        assert_eq!(actions(&mut e), [ElectAction::Contend]);
        // Its own latch nodes change the cache: no second contention meanwhile.
        e.handle(LOOK);
        assert_eq!(actions(&mut e), []);
        e.handle(ElectEvent::Won);
        e.handle(LOOK);
        assert_eq!(actions(&mut e), [ElectAction::Contend]);
        assert_eq!(e.poll_timeout(), None);
    }

    #[test]
    fn failed_contentions_pause_backing_off_until_one_runs_to_the_end() {
        let t0 = Instant::now();
        let mut e = Elector::new();
        let mut pauses = Vec::new();
        for _ in 0..3 {
            e.handle(LOOK);
            assert_eq!(actions(&mut e), [ElectAction::Contend]);
            e.handle(ElectEvent::Failed { now: t0, random: MID });
            let at = e.poll_timeout().expect("a pause");
            pauses.push(at - t0);
            // No contention before the pause ends, whatever changes.
            e.handle(LOOK);
            assert_eq!(actions(&mut e), []);
            e.handle_timeout(at - Duration::from_millis(1));
            e.handle(LOOK);
            assert_eq!(actions(&mut e), []);
            e.handle_timeout(at);
            assert_eq!(e.poll_timeout(), None);
            // The timeout itself asks for nothing: the next look does.
            assert_eq!(actions(&mut e), []);
        }
        assert_eq!(pauses, [750, 1250, 2250].map(Duration::from_millis));
        e.handle(LOOK);
        assert_eq!(actions(&mut e), [ElectAction::Contend]);
        e.handle(ElectEvent::Won);
        e.handle(LOOK);
        e.handle(ElectEvent::Failed { now: t0, random: MID });
        assert_eq!(e.poll_timeout(), Some(t0 + Duration::from_millis(750)), "back to the first pause");
    }

    #[test]
    fn resigning_asks_for_no_contention_and_a_stop_abandons_one() {
        let mut e = Elector::new();
        e.handle(ElectEvent::Look { elect: true, resign: true });
        assert_eq!(actions(&mut e), [ElectAction::Resign]);
        e.handle(LOOK);
        e.handle(ElectEvent::Stop);
        assert_eq!(actions(&mut e), [], "a contention asked for and not polled is dropped");
        e.handle(LOOK);
        assert_eq!(actions(&mut e), [ElectAction::Contend], "a stopped contention holds nothing");
    }

    #[test]
    fn a_leader_that_leaves_gives_leadership_up() {
        let mut e = Elector::new();
        e.handle(ElectEvent::Stop);
        e.handle(ElectEvent::Leave { leading: false });
        assert_eq!(actions(&mut e), []);
        e.handle(ElectEvent::Leave { leading: true });
        assert_eq!(actions(&mut e), [ElectAction::Resign]);
    }
}
