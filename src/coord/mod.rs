//! Coordination logic: ElasticJob's sharding semantics and decisions, free of I/O.

pub mod params;
pub mod status;
pub mod strategy;
pub mod view;
