//! Coordination logic: ElasticJob's sharding semantics and decisions, free of I/O.

pub mod claimer;
pub mod elector;
pub mod ending;
pub mod failover;
pub mod fire;
pub mod firing;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod group;
pub mod leader;
pub mod ledger;
pub mod once;
pub mod once_waiter;
pub mod outbox;
pub mod params;
pub mod past_fire;
pub mod pin;
pub mod pool;
pub mod react;
pub mod registrar;
pub mod round;
pub mod sharder;
pub mod snapshot;
pub mod state;
pub mod status;
pub mod strategy;
pub mod timetable;
pub mod trigger;
pub mod txn;
pub mod validate;
pub mod why;
