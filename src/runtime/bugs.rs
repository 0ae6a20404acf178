//! Known bugs the simulator's mutation check can switch the runtime into (see [`InjectedBug`]).

/// Known bugs the simulator's mutation check switches on, one at a time, to prove that its
/// checker of the delivery guarantee catches each of them. Never set outside that check: every
/// one of them breaks docs/src/design/guarantee.md.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InjectedBug {
    /// A worker cut off from the registry keeps starting fires and never kills its running items.
    NoFencing,
    /// Failover takes every item running elsewhere for an orphan: the runner's instance node is
    /// never checked (as a liveness check that compares ids in the wrong form would do).
    OrphansWithoutLivenessCheck,
    /// A fire that finds its item busy is dropped instead of owed a run (misfire ignored).
    MisfireDropped,
    /// The leader reshards without waiting for running items to end (ElasticJob's rule), so an
    /// item's new owner may start it while its old owner still runs it.
    ReshardWhileRunning,
    /// A failover claim made the way ElasticJob's Java workers make it — read the queue entry,
    /// then write the claim's nodes one request at a time, overwriting what is there — but
    /// without the latch that sequence relies on: two instances may both claim one item.
    FailoverWithoutLatch,
    /// Sharding written without the leader check: an instance that is not the leader writes the
    /// assignment its own view calls for, at once, instead of leaving it to the leader and its
    /// protocol (flag the resharding, let fires wait, wait for running items).
    ShardingWithoutLeaderCheck,
}

impl InjectedBug {
    /// Every injectable bug.
    pub const ALL: [InjectedBug; 6] = [
        InjectedBug::NoFencing,
        InjectedBug::OrphansWithoutLivenessCheck,
        InjectedBug::MisfireDropped,
        InjectedBug::ReshardWhileRunning,
        InjectedBug::FailoverWithoutLatch,
        InjectedBug::ShardingWithoutLeaderCheck,
    ];

    /// The name `--inject` takes.
    pub fn name(self) -> &'static str {
        match self {
            InjectedBug::NoFencing => "no-fencing",
            InjectedBug::OrphansWithoutLivenessCheck => "orphans-without-liveness-check",
            InjectedBug::MisfireDropped => "misfire-dropped",
            InjectedBug::ReshardWhileRunning => "reshard-while-running",
            InjectedBug::FailoverWithoutLatch => "failover-without-latch",
            InjectedBug::ShardingWithoutLeaderCheck => "sharding-without-leader-check",
        }
    }
}
