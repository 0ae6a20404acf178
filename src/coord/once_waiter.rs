//! One fire's once-per-fire phase on this instance, as a machine without I/O, in the shape of the
//! [`super::elector`]: it waits for the phase to be over, claims it and has its callbacks run when
//! every item reached it, and reports it once when it ends without them. What each look at the
//! cache decides is [`super::once::step`]'s, what the timeout calls for [`super::once::expiry`]'s;
//! the machine sequences them with the writes and keeps the timers: the phase's deadline, the
//! pause after a failed write.
//!
//! **Contract.** Every polled action but [`WaitAction::Report`], [`WaitAction::Note`] and
//! [`WaitAction::End`] must be carried out and answered before the next event: a
//! [`WaitAction::Write`] or [`WaitAction::WriteDone`] with [`WaitEvent::Written`], a
//! [`WaitAction::ReadRoot`] with [`WaitEvent::RootRead`], a [`WaitAction::ReadExpiry`] with
//! [`WaitEvent::ExpiryRead`], a [`WaitAction::Run`] with [`WaitEvent::Ran`]. After
//! [`WaitAction::End`] the phase is over here. Between answers the driver looks at the cache
//! ([`WaitEvent::Look`]) on every change and when [`OnceWaiter::poll_timeout`] passes
//! ([`OnceWaiter::handle_timeout`] first).
//!
//! **Claims.** A claim is a version-checked write of `claimed:{fire}:{me}`. One whose outcome is
//! unknown (the connection dropped) is settled by reading the root afresh: when it holds this
//! instance's claim, the claim was written. A claim or a report that failed is decided again on the
//! next change, or after a pause ([`retry::ONCE_PHASE`], backing off while writes keep failing)
//! when nothing changes; a write that lost to another instance's is no failure to log.
//!
//! **Timeout.** While waiting, the phase's timeout ends the wait: the root is read afresh (the
//! cache may be behind a write that beat ours) and the timeout recorded with a version-checked
//! write of `timeout:{fire}`, up to [`EXPIRY_TRIES`] times while other writes win; the instance
//! whose write succeeds reports it. When the registry fails, this instance reports it anyway: at
//! least once is better than not at all.
//!
//! **Callbacks.** They run once the claim is written, then `done:{fire}` is recorded,
//! version-checked against the claim — unless the worker was fenced meanwhile (the callbacks were
//! stopped; once its session ends, another instance claims the phase again). A `done` the registry
//! fails is retried ([`retry::ONCE_DONE`]) up to [`DONE_TRIES`] times; a root that changed
//! meanwhile means the phase ended without the callbacks (its timeout) while they ran.
//!
//! **Stopping.** A stop ends the wait and asks for nothing more, except once the callbacks run:
//! `done` is still recorded, since a claim left unrecorded would have them run again elsewhere
//! once this instance is gone.

use std::time::{Duration, Instant};

use super::fire::FireId;
use super::once::{Expiry, Guard, Step};
use super::outbox::Outbox;
use crate::retry::{self, Attempts};

/// How many times the timeout is recorded while other instances' writes win.
pub const EXPIRY_TRIES: u32 = 3;

/// How many times `done` is written after the callbacks when the registry fails.
pub const DONE_TRIES: u32 = 5;

/// One fire's phase on this instance.
#[derive(Debug)]
pub struct OnceWaiter {
    fire: FireId,
    /// This instance's id, in its claims.
    me: String,
    /// When the wait ends without the phase (none: it waits until the phase is over).
    deadline: Option<Instant>,
    stage: Stage,
    /// After a failed write: look again then, or write `done` again.
    retry_at: Option<Instant>,
    /// The writes that failed in a row.
    attempts: Attempts,
    actions: Outbox<WaitAction>,
}

/// Where the phase stands here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Waiting for a look that calls for something.
    Waiting,
    /// The claim's write is under way.
    Claiming,
    /// The claim's outcome is unknown: the root is being read.
    CheckingClaim,
    /// The report of a fire that can no longer complete is being recorded.
    Reporting { item: u32, later: FireId },
    /// The timeout passed: the root is being read (`tries` writes of it lost so far).
    Expiring { tries: u32 },
    /// The timeout is being recorded, `reached` items having reached the phase.
    RecordingTimeout { tries: u32, reached: usize },
    /// The callbacks run; the claim holds the root at `version`.
    Running { version: i32 },
    /// `done` is being recorded at `version` (`tries` failed so far).
    Finishing { version: i32, tries: u32 },
    /// Nothing more to do here.
    Over,
}

/// Why a write failed, for [`WaitEvent::Written`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteError {
    /// Another write won: the version moved on, or the node exists already.
    Conflict,
    /// The node is gone.
    Gone,
    /// Its outcome is unknown: the connection dropped, or no answer came in time.
    Unknown,
    /// The registry failed it.
    Failed,
}

/// A failure, when it happened, and the random bits of the pause it may call for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failure {
    /// Why.
    pub error: WriteError,
    /// When.
    pub now: Instant,
    /// The random bits of the pause ([`crate::retry::Jitter::draw`]).
    pub random: u64,
}

/// What happened, for [`OnceWaiter::handle`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitEvent {
    /// What the cache calls for now ([`super::once::step`]).
    Look(Step),
    /// Answers [`WaitAction::Write`] and [`WaitAction::WriteDone`]: the version written, or why
    /// not.
    Written(Result<i32, Failure>),
    /// Answers [`WaitAction::ReadRoot`], at `now`.
    RootRead {
        /// The root's state and version (`None`: no root), or why the read failed.
        root: Result<Option<(Guard, i32)>, WriteError>,
        /// When the answer came.
        now: Instant,
        /// The random bits of the pause it may call for.
        random: u64,
    },
    /// Answers [`WaitAction::ReadExpiry`]: what the timeout calls for with the root read afresh,
    /// and how many items reached the phase; or the read failed.
    ExpiryRead(Result<(Expiry, usize), Failure>),
    /// Answers [`WaitAction::Run`]: the callbacks ended, or were stopped because the worker was
    /// fenced.
    Ran {
        /// The worker was fenced: the callbacks were stopped.
        fenced: bool,
    },
    /// The job stops.
    Stop,
}

/// What to do, from [`OnceWaiter::poll_action`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitAction {
    /// Write the root's new state at `version` (`None`: create the root).
    Write {
        /// The new state.
        guard: Guard,
        /// The root's version it replaces.
        version: Option<i32>,
    },
    /// Read the root afresh.
    ReadRoot,
    /// Read the root afresh and decide what the timeout calls for.
    ReadExpiry,
    /// Delete the marks of items beyond the total, and run the callbacks (stopped if the worker
    /// is fenced).
    Run {
        /// The root's version under the claim.
        version: i32,
    },
    /// Record `done:{fire}` at `version`.
    WriteDone {
        /// The root's version under the claim.
        version: i32,
    },
    /// Report the phase as ended without its callbacks, to the job's error handler.
    Report(PhaseReport),
    /// Something to log.
    Note(Note),
    /// The phase is over here.
    End,
}

/// Why the phase ended without its callbacks, for [`WaitAction::Report`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhaseReport {
    /// The fire can no longer complete: `item` already belongs to the later fire `later`.
    Hopeless {
        /// The item.
        item: u32,
        /// The later fire.
        later: FireId,
    },
    /// The timeout passed with `reached` items at the phase; recorded.
    TimedOut {
        /// The items that reached the phase.
        reached: usize,
    },
    /// The timeout passed and could not be recorded (the last failure says why).
    Unrecorded,
}

/// What to log, for [`WaitAction::Note`]; the last failure says why where one is involved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Note {
    /// A claim (`claim: true`) or a report failed; decided again after a change or `delay`.
    Retrying {
        /// The claim failed, rather than a report.
        claim: bool,
        /// The pause.
        delay: Duration,
    },
    /// The callbacks were stopped: the worker was fenced.
    Fenced,
    /// `done` failed; written again after `delay`.
    DoneRetrying {
        /// The pause.
        delay: Duration,
    },
    /// `done` failed [`DONE_TRIES`] times: the claim stays until the others' timeout.
    DoneGivenUp,
    /// The root changed while the callbacks ran: the phase had ended without them (its timeout).
    DoneLate,
}

impl OnceWaiter {
    /// Waits for `fire`'s phase from `now`, for at most `timeout`.
    pub fn new(fire: FireId, me: &str, timeout: Option<Duration>, now: Instant) -> OnceWaiter {
        OnceWaiter {
            fire,
            me: me.to_string(),
            deadline: timeout.map(|t| now + t),
            stage: Stage::Waiting,
            retry_at: None,
            attempts: Attempts::default(),
            actions: Outbox::default(),
        }
    }

    /// The next instant to look again at (the deadline, or a pause's end), if any.
    pub fn poll_timeout(&self) -> Option<Instant> {
        match self.stage {
            Stage::Waiting => self.deadline.into_iter().chain(self.retry_at).min(),
            Stage::Finishing { .. } => self.retry_at,
            _ => None,
        }
    }

    /// `now` may be past [`OnceWaiter::poll_timeout`].
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.retry_at.is_some_and(|at| at <= now) {
            self.retry_at = None;
            if let Stage::Finishing { version, .. } = self.stage {
                self.actions.push(WaitAction::WriteDone { version });
            }
        }
        if self.stage == Stage::Waiting && self.deadline.is_some_and(|at| at <= now) {
            self.stage = Stage::Expiring { tries: 0 };
            self.actions.push(WaitAction::ReadExpiry);
        }
    }

    /// The next action, if any.
    pub fn poll_action(&mut self) -> Option<WaitAction> {
        self.actions.pop()
    }

    /// Takes in what happened.
    pub fn handle(&mut self, event: WaitEvent) {
        match (self.stage, event) {
            // The callbacks ran or run: `done` is recorded still.
            (Stage::Running { .. } | Stage::Finishing { .. } | Stage::Over, WaitEvent::Stop) => {}
            (_, WaitEvent::Stop) => self.end(),
            (Stage::Waiting, WaitEvent::Look(step)) => self.look(step),
            (Stage::Claiming, WaitEvent::Written(Ok(version))) => self.run(version),
            (Stage::Claiming, WaitEvent::Written(Err(f))) if f.error == WriteError::Unknown => {
                self.stage = Stage::CheckingClaim;
                self.actions.push(WaitAction::ReadRoot);
            }
            (Stage::Claiming, WaitEvent::Written(Err(f))) => self.pause(true, f),
            (Stage::CheckingClaim, WaitEvent::RootRead { root, now, random }) => match root {
                Ok(Some((guard, version))) if guard == self.claim() => self.run(version),
                // Not written: the claim failed as a write whose outcome was unknown.
                _ => self.pause(true, Failure { error: WriteError::Unknown, now, random }),
            },
            (Stage::Reporting { item, later }, WaitEvent::Written(written)) => match written {
                Ok(_) => {
                    self.actions.push(WaitAction::Report(PhaseReport::Hopeless { item, later }));
                    self.end();
                }
                Err(f) => self.pause(false, f),
            },
            (Stage::Expiring { tries }, WaitEvent::ExpiryRead(read)) => match read {
                Ok((Expiry::Quiet, _)) => self.end(),
                Ok((Expiry::Report { version }, reached)) => {
                    self.stage = Stage::RecordingTimeout { tries, reached };
                    self.actions.push(WaitAction::Write { guard: Guard::TimedOut(self.fire), version });
                }
                Err(_) => self.report_end(PhaseReport::Unrecorded),
            },
            (Stage::RecordingTimeout { tries, reached }, WaitEvent::Written(written)) => match written {
                Ok(_) => self.report_end(PhaseReport::TimedOut { reached }),
                Err(f) if f.error == WriteError::Conflict && tries + 1 < EXPIRY_TRIES => {
                    self.stage = Stage::Expiring { tries: tries + 1 };
                    self.actions.push(WaitAction::ReadExpiry);
                }
                Err(_) => self.report_end(PhaseReport::Unrecorded),
            },
            (Stage::Running { version }, WaitEvent::Ran { fenced }) => {
                if fenced {
                    self.actions.push(WaitAction::Note(Note::Fenced));
                    self.end();
                } else {
                    self.stage = Stage::Finishing { version, tries: 0 };
                    self.actions.push(WaitAction::WriteDone { version });
                }
            }
            (Stage::Finishing { version, tries }, WaitEvent::Written(written)) => match written {
                Ok(_) => self.end(),
                Err(f) if matches!(f.error, WriteError::Conflict | WriteError::Gone) => {
                    self.actions.push(WaitAction::Note(Note::DoneLate));
                    self.end();
                }
                Err(_) if tries + 1 >= DONE_TRIES => {
                    self.actions.push(WaitAction::Note(Note::DoneGivenUp));
                    self.end();
                }
                Err(f) => {
                    let delay = self.attempts.fail(&retry::ONCE_DONE, f.random);
                    self.stage = Stage::Finishing { version, tries: tries + 1 };
                    self.retry_at = Some(f.now + delay);
                    self.actions.push(WaitAction::Note(Note::DoneRetrying { delay }));
                }
            },
            // A look while an answer is awaited, or after the end; an answer to nothing asked.
            _ => {}
        }
    }

    /// What a look at the cache calls for while waiting.
    fn look(&mut self, step: Step) {
        match step {
            Step::Done | Step::Over => self.end(),
            Step::Claim { version } => {
                self.stage = Stage::Claiming;
                self.actions.push(WaitAction::Write { guard: self.claim(), version });
            }
            Step::Hopeless { item, later, version } => {
                self.stage = Stage::Reporting { item, later };
                self.actions.push(WaitAction::Write { guard: Guard::TimedOut(self.fire), version });
            }
            Step::Wait => {}
        }
    }

    /// This instance's claim of the fire's phase.
    fn claim(&self) -> Guard {
        Guard::Claimed { fire: self.fire, instance: self.me.clone() }
    }

    /// The claim is written at `version`: the callbacks run.
    fn run(&mut self, version: i32) {
        self.attempts.reset();
        self.retry_at = None;
        self.stage = Stage::Running { version };
        self.actions.push(WaitAction::Run { version });
    }

    /// A claim (or a report) failed: back to waiting, and looking again after a pause when
    /// nothing changes meanwhile. A write that lost to another's is not logged.
    fn pause(&mut self, claim: bool, f: Failure) {
        let delay = self.attempts.fail(&retry::ONCE_PHASE, f.random);
        self.stage = Stage::Waiting;
        self.retry_at = Some(f.now + delay);
        if f.error != WriteError::Conflict {
            self.actions.push(WaitAction::Note(Note::Retrying { claim, delay }));
        }
    }

    fn report_end(&mut self, report: PhaseReport) {
        self.actions.push(WaitAction::Report(report));
        self.end();
    }

    fn end(&mut self) {
        self.stage = Stage::Over;
        self.retry_at = None;
        self.actions.push(WaitAction::End);
    }
}

#[cfg(test)]
#[path = "once_waiter_tests.rs"]
mod tests;
