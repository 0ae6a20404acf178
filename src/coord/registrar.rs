//! A job's registration on this instance, as a machine without I/O, in the shape of the leader's
//! [`super::sharder`]: the link state the job's other decisions read (connected, the session its
//! nodes were written in, an operator's `job shutdown`), and what a session change, a failed
//! registration, a deleted instance node or a missing server node call for
//! (docs/src/design/compatibility.md#sessions-and-reactions,
//! docs/src/design/behaviour.md#reconnect-without-churn).
//!
//! **Contract.** A polled [`RegAction::Register`] must be carried out (the server, runner and
//! instance nodes) and answered with [`RegEvent::Registered`] or [`RegEvent::RegisterFailed`];
//! [`RegAction::CheckInstance`] with [`RegEvent::InstanceChecked`], or not at all when the read
//! failed (the next look checks again). The other actions expect no answer.
//!
//! A failed registration is tried again after a pause ([`retry::REGISTRATION`], backing off while
//! registrations keep failing, back to the first delay after one that succeeded).

use std::time::{Duration, Instant};

use super::outbox::Outbox;
use super::react::{self, SessionStep};
use crate::registry::{LinkState, SessionStatus};
use crate::retry::{self, Attempts};

/// The registration state of one job on this instance.
#[derive(Debug)]
pub struct Registrar {
    /// Connected to the registry.
    connected: bool,
    /// The session the instance node was last written in (0: none yet).
    registered_session: i64,
    /// When to try a failed registration again.
    retry_at: Option<Instant>,
    /// The registrations that failed in a row.
    attempts: Attempts,
    /// An operator deleted the instance node within our session: the job stops in this process.
    stopped_by_admin: bool,
    /// Actions not polled yet.
    actions: Outbox<RegAction>,
}

/// What happened, for [`Registrar::handle`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegEvent {
    /// The registry session's status changed.
    Session(SessionStatus),
    /// Answers [`RegAction::Register`]: the nodes are written, in `session`.
    Registered {
        /// The session they were written in.
        session: i64,
    },
    /// Answers [`RegAction::Register`]: the registry failed it at `now`; `random` draws the
    /// pause.
    RegisterFailed {
        /// When it failed.
        now: Instant,
        /// The random bits of the pause ([`crate::retry::Jitter::draw`]).
        random: u64,
    },
    /// This instance's node is not in the cache (a deletion, or the reconcile's look); `session`
    /// is the current session's id.
    InstanceGone {
        /// The current session.
        session: i64,
    },
    /// Answers [`RegAction::CheckInstance`]: whether the instance node exists as this session's.
    InstanceChecked {
        /// The node exists and this session owns it.
        ours: bool,
    },
    /// This instance's server node is not in the cache; `session` is the current session's id.
    ServerGone {
        /// The current session.
        session: i64,
    },
}

/// What to do, from [`Registrar::poll_action`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegAction {
    /// Write the server node (when absent), the runner and the instance nodes of this session.
    Register,
    /// The link just went down (disconnected, or the session expired): no fires until it is
    /// back.
    LinkLost(LinkState),
    /// The link is usable: run what was missed, re-evaluate.
    Resume {
        /// It came back in the session the job registered in after being down (no
        /// registration needed; say so).
        back_in_session: bool,
    },
    /// The nodes were written again in a new session.
    Reregistered,
    /// A registration failed: the next is tried after `delay`.
    RetryIn(Duration),
    /// Read the instance node: within our session only an operator deletes it.
    CheckInstance,
    /// An operator deleted the instance node (`job shutdown`): the job stops in this process.
    StoppedByAdmin,
    /// Write the server node again if it is gone, so that a prune that raced with the
    /// registration cannot leave a live instance without its server.
    RestoreServer,
}

/// What a stopping job removes, from [`Registrar::leaving`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaving {
    /// Nothing: the link is down (the session's end removes the ephemeral nodes).
    Nothing,
    /// The runner node only: an operator deleted the instance node already.
    Runner,
    /// The instance node, then the runner node.
    InstanceAndRunner,
}

impl Default for Registrar {
    fn default() -> Registrar {
        Registrar {
            connected: true,
            registered_session: 0,
            retry_at: None,
            attempts: Attempts::default(),
            stopped_by_admin: false,
            actions: Outbox::default(),
        }
    }
}

impl Registrar {
    /// Connected, not registered yet.
    pub fn new() -> Registrar {
        Registrar::default()
    }

    /// Connected to the registry.
    pub fn connected(&self) -> bool {
        self.connected
    }

    /// An operator stopped the job here (`job shutdown`).
    pub fn stopped_by_admin(&self) -> bool {
        self.stopped_by_admin
    }

    /// When a failed registration is tried again.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.retry_at
    }

    /// The pause after a failed registration ends at `now` or before: register again.
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.retry_at.is_some_and(|at| at <= now) {
            self.register();
        }
    }

    /// The next action, if any.
    pub fn poll_action(&mut self) -> Option<RegAction> {
        self.actions.pop()
    }

    /// What a stopping job removes.
    pub fn leaving(&self) -> Leaving {
        match (self.connected, self.stopped_by_admin) {
            (false, _) => Leaving::Nothing,
            (true, true) => Leaving::Runner,
            (true, false) => Leaving::InstanceAndRunner,
        }
    }

    /// Asks for a registration (the job starts, or a new session needs one).
    pub fn register(&mut self) {
        self.retry_at = None;
        self.actions.push(RegAction::Register);
    }

    /// Takes in what happened.
    pub fn handle(&mut self, event: RegEvent) {
        match event {
            RegEvent::Session(status) => match react::session(&mut self.connected, self.registered_session, status) {
                SessionStep::Down { was_up } => {
                    if was_up {
                        self.actions.push(RegAction::LinkLost(status.state));
                    }
                }
                SessionStep::Register => {
                    self.register();
                    self.actions.push(RegAction::Resume { back_in_session: false });
                }
                SessionStep::Resume { was_down } => self.actions.push(RegAction::Resume { back_in_session: was_down }),
            },
            RegEvent::Registered { session } => {
                self.attempts.reset();
                if session != self.registered_session {
                    if self.registered_session != 0 {
                        self.actions.push(RegAction::Reregistered);
                    }
                    self.registered_session = session;
                }
            }
            RegEvent::RegisterFailed { now, random } => {
                let delay = self.attempts.fail(&retry::REGISTRATION, random);
                self.retry_at = Some(now + delay);
                self.actions.push(RegAction::RetryIn(delay));
            }
            RegEvent::InstanceGone { session } => {
                if react::check_own_instance(self.connected, session, self.registered_session) {
                    self.actions.push(RegAction::CheckInstance);
                }
            }
            RegEvent::InstanceChecked { ours } => {
                if !ours {
                    self.stopped_by_admin = true;
                    self.actions.push(RegAction::StoppedByAdmin);
                }
            }
            RegEvent::ServerGone { session } => {
                if self.connected && !self.stopped_by_admin && self.registered_session == session {
                    self.actions.push(RegAction::RestoreServer);
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "registrar_tests.rs"]
mod tests;
