//! Where the runtime reads the wall clock.
//!
//! Fires are wall-clock instants, so the runtime needs `now`; it asks a [`Clock`] instead of
//! calling `Utc::now()`, and the coordination decisions ([`crate::coord`]) take the instant as an
//! argument. Production uses [`SystemClock`]; a simulation can run the same runtime under a
//! clock of its own (with tokio's paused time for the monotonic side).

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
