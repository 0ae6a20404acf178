//! Where the wall clock is read.
//!
//! Fires are wall-clock instants, so the runtime needs `now`, and the embedded registry stamps
//! node times; both ask a [`Clock`] instead of calling `Utc::now()`, and the coordination
//! decisions ([`crate::coord`]) take the instant as an argument. Production uses [`SystemClock`];
//! the simulator runs the same code under a clock that follows tokio's paused time.

use chrono::{DateTime, Utc};

/// A source of wall-clock instants.
pub trait Clock: Send + Sync + 'static {
    /// The current instant.
    fn now(&self) -> DateTime<Utc>;
}

/// The system's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}
