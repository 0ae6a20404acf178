//! Coordination logic: ElasticJob's sharding semantics, free of I/O.

pub mod params;
pub mod strategy;
