//! Known bugs the simulator's mutation check can switch the runtime into (see [`InjectedBug`]).

/// Known bugs the simulator's mutation check switches on, one at a time, to prove that its
/// checker of the delivery guarantee catches each of them. Never set outside that check: every
/// one of them breaks SPEC §2a.
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
}

impl InjectedBug {
    /// Every injectable bug.
    pub const ALL: [InjectedBug; 4] = [
        InjectedBug::NoFencing,
        InjectedBug::OrphansWithoutLivenessCheck,
        InjectedBug::MisfireDropped,
        InjectedBug::ReshardWhileRunning,
    ];

    /// The name `--inject` takes.
    pub fn name(self) -> &'static str {
        match self {
            InjectedBug::NoFencing => "no-fencing",
            InjectedBug::OrphansWithoutLivenessCheck => "orphans-without-liveness-check",
            InjectedBug::MisfireDropped => "misfire-dropped",
            InjectedBug::ReshardWhileRunning => "reshard-while-running",
        }
    }
}
