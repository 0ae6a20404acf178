//! ejctl: ElasticJob-Lite style distributed job scheduling over ZooKeeper, in one binary.
//!
//! The crate is both the `ejctl` command-line tool and a library that Rust programs can embed.
//!
//! # Layout
//!
//! * [`registry`]: the registry layer. Node paths and value codecs of ElasticJob 3.x's ZooKeeper
//!   layout (the only place that spells node names), the [`registry::Registry`] handle with a
//!   ZooKeeper and an embedded in-process implementation, the watched subtree cache and the
//!   namespace tree reader used by `ejctl dump`.
//! * [`coord`]: coordination logic that needs no I/O (sharding strategies, item parameters).
//! * [`schedule`]: Quartz cron expressions and job time zones.
//! * [`exec`]: what a job execution receives (the sharding context).
//! * [`cli`]: the command-line interface: clap definitions, one module per command group, and the
//!   one place that writes to stdout.
//! * [`exit`]: process exit codes and how errors map onto them.

pub mod cli;
pub mod coord;
pub mod exec;
pub mod exit;
pub mod registry;
pub mod schedule;
