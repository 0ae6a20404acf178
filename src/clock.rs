//! Where the wall clock is read.
//!
//! Fires are wall-clock instants, so the runtime needs `now`, and the embedded registry stamps
//! node times; both ask a [`Clock`] instead of calling `Utc::now()`, and the coordination
//! decisions ([`crate::coord`]) take the instant as an argument. Production uses [`SystemClock`];
//! the simulator runs the same code under a clock that follows tokio's paused time.
//!
//! The runtime reads its clock through [`Monotonic`]: a system clock stepped back (NTP) would
//! otherwise make a run start "before" a fire it was queued behind — the fire is then owed again
//! by some instances' reckoning and covered by others', and can be lost.

use std::sync::Mutex;
use std::time::Duration;

use chrono::{DateTime, Utc};

/// A duration for people: `850ms`, `1.2s`, `3m05s`.
pub fn humanize(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms}ms")
    } else if ms < 60_000 {
        let s = d.as_secs_f64();
        if (s - s.trunc()).abs() < 1e-9 { format!("{}s", d.as_secs()) } else { format!("{s:.1}s") }
    } else {
        format!("{}m{:02}s", d.as_secs() / 60, d.as_secs() % 60)
    }
}

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

/// A clock that never runs backwards: after its source is set back it holds still until the
/// source has caught up (a step forward is taken at once).
pub struct Monotonic<C> {
    source: C,
    latest: Mutex<Option<DateTime<Utc>>>,
}

impl<C: Clock> Monotonic<C> {
    /// Reads `source`, never backwards.
    pub fn new(source: C) -> Monotonic<C> {
        Monotonic { source, latest: Mutex::new(None) }
    }
}

impl<C: Clock> Clock for Monotonic<C> {
    fn now(&self) -> DateTime<Utc> {
        let now = self.source.now();
        let mut latest = crate::sync::lock(&self.latest);
        let now = latest.map_or(now, |l| l.max(now));
        *latest = Some(now);
        now
    }
}

impl<C: Clock + ?Sized> Clock for std::sync::Arc<C> {
    fn now(&self) -> DateTime<Utc> {
        (**self).now()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicI64, Ordering};

    use super::*;

    struct Stepped(Arc<AtomicI64>);

    impl Clock for Stepped {
        fn now(&self) -> DateTime<Utc> {
            DateTime::from_timestamp_millis(self.0.load(Ordering::Relaxed)).unwrap_or_default()
        }
    }

    #[test]
    fn a_clock_set_back_holds_still_until_it_caught_up() {
        let ms = Arc::new(AtomicI64::new(10_000));
        let clock = Monotonic::new(Stepped(Arc::clone(&ms)));
        let at = |clock: &Monotonic<Stepped>| clock.now().timestamp_millis();
        assert_eq!(at(&clock), 10_000);
        ms.store(9_600, Ordering::Relaxed);
        assert_eq!(at(&clock), 10_000, "set back: held");
        ms.store(10_200, Ordering::Relaxed);
        assert_eq!(at(&clock), 10_200, "caught up");
        ms.store(13_000, Ordering::Relaxed);
        assert_eq!(at(&clock), 13_000, "a step forward is taken");
    }
}
