//! Trying again after a failure: one policy, exponential backoff with jitter, for every place
//! that retries — the job rooms' registry requests, the registry connection and its watches, the
//! caches' re-reads, the trace writer, the notification sender, the HTTP and dump ports, the
//! console's reconnect.
//!
//! A [`Policy`] is a first delay and a cap. After `n` failures in a row (`n` from 0) the wait is
//! drawn uniformly from `[floor, min(cap, first · 2ⁿ)]`, and a success starts again from the
//! first delay ([`Attempts::reset`]). The jitter is what matters when many retry together: after
//! a registry outage every job of a worker fails at the same instant, and a flat or merely
//! doubling pause keeps them in lock-step, each retry a burst of thousands of requests; drawn
//! from a range that widens with each failure, the retries spread over the range and the burst
//! flattens into a steady trickle.
//!
//! The floor is half the first delay, not zero ("full jitter" draws from zero): a draw near zero
//! would retry at once, and a request the registry refuses as fast as it answers would then spin.
//! With the floor, no place ever retries more often than once per half first delay, and the first
//! retry still spreads over half its nominal delay.
//!
//! The policy is pure — no clock, no I/O, no randomness of its own: a delay takes its random bits
//! as an argument, drawn by the caller from a [`Jitter`]. A worker's jobs draw from the worker's
//! one source, seeded from the operating system, or from the simulation's seed in the
//! deterministic simulator, so that a seed replays exactly. A job's own backoff state is an
//! [`Attempts`]: one byte beside a `const` policy, which matters with thousands of idle jobs in
//! one worker.
//!
//! The named policies below are every place's first delay and cap, in one list.

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// A job's registration (its server, runner and instance nodes) after the registry failed: about
/// a second at first, as ElasticJob retries, spreading out to 10 s while it keeps failing.
pub const REGISTRATION: Policy = Policy::new(Duration::from_secs(1), Duration::from_secs(10));

/// A stopping job's removal of its runner node: the stop waits on it, so the cap stays short.
pub const LEAVE: Policy = Policy::new(Duration::from_secs(1), Duration::from_secs(2));

/// A failed contention for a job's leadership: its own latch writes change the cache, so without
/// a pause it would contend again at once, as fast as a failing registry answers.
pub const ELECTION: Policy = Policy::new(Duration::from_secs(1), Duration::from_secs(10));

/// A failover round that failed: orphans wait for it, so the cap stays at 10 s.
pub const FAILOVER: Policy = Policy::new(Duration::from_secs(1), Duration::from_secs(10));

/// Clearing the nodes of an ended run: the item stays held here until they are gone.
pub const CLEAR: Policy = Policy::new(Duration::from_secs(1), Duration::from_secs(10));

/// Deleting a trigger node again after the registry failed the deletion (its reply may have been
/// lost): an operator may be waiting for the run.
pub const TRIGGER: Policy = Policy::new(Duration::from_millis(500), Duration::from_secs(5));

/// A failed sharding round: its own writes re-evaluate the job, and a transaction the registry
/// keeps refusing would otherwise be retried as fast as it answers.
pub const SHARDING: Policy = Policy::new(Duration::from_millis(100), Duration::from_secs(10));

/// A claim or report of a once-per-fire phase that failed: decided again after a change anyway.
pub const ONCE_PHASE: Policy = Policy::new(Duration::from_secs(1), Duration::from_secs(10));

/// Recording once-per-fire listeners as done: a few quick tries while the fire is still current.
pub const ONCE_DONE: Policy = Policy::new(Duration::from_millis(200), Duration::from_secs(2));

/// A cache whose subtree read failed re-reads it: quick at first, a cache behind is wrong.
pub const CACHE_RESYNC: Policy = Policy::new(Duration::from_millis(100), Duration::from_secs(5));

/// Connecting to ZooKeeper within the connection timeout: quick tries, bounded by that timeout.
pub const ZK_CONNECT: Policy = Policy::new(Duration::from_millis(50), Duration::from_secs(1));

/// A new ZooKeeper session after the last one ended: every worker of a cluster does it at once.
pub const ZK_SESSION: Policy = Policy::new(Duration::from_millis(100), Duration::from_secs(5));

/// Registering a cache's watch on a new session: events are lost until it is back.
pub const ZK_REWATCH: Policy = Policy::new(Duration::from_millis(50), Duration::from_secs(2));

/// Writing to the trace store: fires never wait on it, so it may back off far.
pub const TRACE: Policy = Policy::new(Duration::from_millis(100), Duration::from_secs(30));

/// Sending a failure notification again (HTTP 429, 5xx, transport errors): a few tries.
pub const NOTIFY: Policy = Policy::new(Duration::from_secs(1), Duration::from_secs(4));

/// Accepting on the HTTP or dump port after an error (out of file descriptors, say).
pub const ACCEPT: Policy = Policy::new(Duration::from_millis(100), Duration::from_secs(2));

/// The console's reconnect and re-read of the namespace: someone is watching, but so may many
/// other consoles of the same registry.
pub const CONSOLE: Policy = Policy::new(Duration::from_secs(3), Duration::from_secs(30));

/// How long to wait between tries: exponential backoff with jitter, a floor and a cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    first: Duration,
    cap: Duration,
}

impl Policy {
    /// A policy whose first retry waits about `first`, and no retry longer than `cap` (at least
    /// `first`).
    pub const fn new(first: Duration, cap: Duration) -> Policy {
        let cap = if cap.as_nanos() < first.as_nanos() { first } else { cap };
        Policy { first, cap }
    }

    /// The shortest wait: half the first delay.
    pub fn floor(&self) -> Duration {
        self.first / 2
    }

    /// The longest wait after `attempt` failures in a row (0: the first): `first · 2^attempt`,
    /// at most the cap.
    pub fn ceiling(&self, attempt: u8) -> Duration {
        self.first.saturating_mul(1u32 << attempt.min(31)).min(self.cap)
    }

    /// The wait after `attempt` failures in a row (0: the first), drawn uniformly from
    /// `[floor, ceiling]` by `random` (64 random bits, from a [`Jitter`]).
    pub fn delay(&self, attempt: u8, random: u64) -> Duration {
        let floor = self.floor();
        let span = u64::try_from((self.ceiling(attempt) - floor).as_nanos()).unwrap_or(u64::MAX);
        // The top 64 bits of a 128-bit product: `random` scaled to `0..=span`, without the bias
        // of a remainder.
        let offset = (u128::from(random) * (u128::from(span) + 1)) >> 64;
        floor + Duration::from_nanos(u64::try_from(offset).unwrap_or(span))
    }
}

/// The failures in a row of one place that retries: one byte, beside its `const` [`Policy`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Attempts(u8);

impl Attempts {
    /// Another failure: the wait before the next try under `policy`, drawn by `random`.
    pub fn fail(&mut self, policy: &Policy, random: u64) -> Duration {
        let delay = policy.delay(self.0, random);
        self.0 = self.0.saturating_add(1);
        delay
    }

    /// A success: the next failure waits about the first delay again.
    pub fn reset(&mut self) {
        self.0 = 0;
    }

    /// The failures in a row so far.
    pub fn count(&self) -> u8 {
        self.0
    }
}

/// The random bits delays are drawn with: SplitMix64, whose state only ever advances by a
/// constant, kept in an atomic so that every job of a worker draws from one source without a
/// lock. Each draw takes a distinct state; one seed gives one sequence of draws (in the order
/// they are taken).
#[derive(Debug)]
pub struct Jitter(AtomicU64);

/// SplitMix64's increment (the golden ratio in 64 bits).
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

impl Jitter {
    /// A source whose draws follow from `seed` (the simulator's).
    pub fn seeded(seed: u64) -> Jitter {
        Jitter(AtomicU64::new(seed))
    }

    /// A source seeded from the operating system: std's hash keys, which it draws from the
    /// system's random source, differ in every process (and for every call), so the workers of
    /// a cluster do not retry in step with each other either.
    pub fn from_os() -> Jitter {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(GAMMA);
        Jitter::seeded(hasher.finish())
    }

    /// A source of its own for a part that retries apart from the others (a cache's re-reads),
    /// seeded by a draw from this one.
    pub fn fork(&self) -> Jitter {
        Jitter::seeded(self.draw())
    }

    /// The next 64 random bits.
    pub fn draw(&self) -> u64 {
        let mut z = self.0.fetch_add(GAMMA, Ordering::Relaxed).wrapping_add(GAMMA);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Policy = Policy::new(Duration::from_millis(100), Duration::from_secs(1));

    #[test]
    fn every_delay_lies_between_the_floor_and_the_ceiling() {
        let jitter = Jitter::seeded(7);
        for attempt in 0..=u8::MAX {
            for _ in 0..200 {
                let d = P.delay(attempt, jitter.draw());
                assert!(d >= Duration::from_millis(50) && d <= P.ceiling(attempt), "attempt {attempt}: {d:?}");
            }
        }
        assert_eq!(P.delay(3, 0), Duration::from_millis(50));
        assert_eq!(P.delay(3, u64::MAX), Duration::from_millis(800));
    }

    #[test]
    fn the_ceiling_doubles_up_to_the_cap() {
        let ceilings: Vec<u128> = (0..6).map(|n| P.ceiling(n).as_millis()).collect();
        assert_eq!(ceilings, [100, 200, 400, 800, 1000, 1000]);
        assert_eq!(P.ceiling(u8::MAX), Duration::from_secs(1));
        // A cap below the first delay is the first delay.
        let flat = Policy::new(Duration::from_secs(2), Duration::from_secs(1));
        assert_eq!(flat.ceiling(0), Duration::from_secs(2));
        assert_eq!(flat.ceiling(9), Duration::from_secs(2));
    }

    #[test]
    fn draws_spread_over_the_range() {
        let jitter = Jitter::seeded(1);
        let mut buckets = [0u32; 10];
        for _ in 0..10_000 {
            let d = P.delay(4, jitter.draw());
            let bucket = (d - P.floor()).as_nanos() * 10 / (P.ceiling(4) - P.floor()).as_nanos();
            buckets[usize::try_from(bucket).unwrap().min(9)] += 1;
        }
        assert!(buckets.iter().all(|&n| (800..1200).contains(&n)), "{buckets:?}");
    }

    #[test]
    fn attempts_back_off_and_reset_on_success() {
        let mut attempts = Attempts::default();
        // The highest draw: each wait is the ceiling.
        let waits: Vec<u128> = (0..5).map(|_| attempts.fail(&P, u64::MAX).as_millis()).collect();
        assert_eq!(waits, [100, 200, 400, 800, 1000]);
        assert_eq!(attempts.count(), 5);
        attempts.reset();
        assert_eq!(attempts.count(), 0);
        assert_eq!(attempts.fail(&P, u64::MAX), Duration::from_millis(100));
        let mut many = Attempts::default();
        for _ in 0..300 {
            many.fail(&P, 0);
        }
        assert_eq!(many.count(), u8::MAX);
    }

    #[test]
    fn a_seed_gives_one_sequence() {
        let (a, b) = (Jitter::seeded(42), Jitter::seeded(42));
        let first: Vec<u64> = (0..8).map(|_| a.draw()).collect();
        assert_eq!(first, (0..8).map(|_| b.draw()).collect::<Vec<_>>());
        let other = Jitter::seeded(43);
        assert_ne!(first, (0..8).map(|_| other.draw()).collect::<Vec<_>>());
        // SplitMix64's reference output for seed 0.
        assert_eq!(Jitter::seeded(0).draw(), 0xE220_A839_7B1D_CDAF);
        let forked = Jitter::seeded(42).fork();
        assert_ne!(forked.draw(), Jitter::seeded(42).draw());
    }
}
