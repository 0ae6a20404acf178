//! What one execution of a sharding item receives.

pub mod context;
