//! ejctl: ElasticJob-Lite style distributed job scheduling over ZooKeeper, in one binary.
//!
//! The crate is both the `ejctl` command-line tool and a library that Rust programs can embed.
//!
//! # Layout
//!
//! * [`registry`]: the registry layer. Node paths and value codecs of ElasticJob 3.x's ZooKeeper
//!   layout (the only place that spells node names), the [`registry::Registry`] handle with a
//!   ZooKeeper (plaintext or TLS) and an embedded in-process implementation, the watched subtree
//!   cache and the namespace tree reader used by `ejctl dump`.
//! * [`coord`]: coordination logic that needs no I/O: sharding strategies, item parameters,
//!   configuration validation, the typed job view and its decisions, statuses, and which command
//!   values a worker takes from its job file rather than the registry (`coord::pin`).
//! * [`runtime`]: the worker runtime behind `ejctl run`: one task per job, registration,
//!   election, sharding, fires, misfire, failover, fencing, reactions to the registry, graceful
//!   and forced stops, dump port.
//! * [`schedule`]: Quartz cron expressions and job time zones.
//! * [`exec`]: how one sharding item is executed: script, HTTP, dataflow and in-process jobs.
//! * [`jobfile`]: the TOML job files `ejctl run` reads, validated before anything is written.
//! * [`ops`]: the admin operations on a namespace, for any Rust program: reading jobs and the
//!   views built from them, every mutation of ElasticJob's operations API as planned changes
//!   applied in transactions, trigger-and-wait, configuration get/set/edit, and publishing
//!   configurations (`config apply` / `diff`, a worker's start-up).
//! * [`cli`]: the command-line interface: clap definitions, one module per command group, and the
//!   one place that writes to stdout.
//! * [`trace`]: the event trace — every run in ElasticJob's trace tables (and ejctl's own) in
//!   SQLite or PostgreSQL, written off the fire path by a background writer; `ejctl history`'s
//!   queries.
//! * [`exit`]: process exit codes and how errors map onto them.
//! * [`clock`]: where the wall clock is read (injectable, for the simulator).
//! * `task`: spawned tasks with an owner (aborted when dropped).

pub mod cli;
pub mod clock;
pub mod config;
pub mod coord;
pub mod exec;
pub mod exit;
pub mod jobfile;
pub mod listener;
pub mod notify;
pub mod ops;
pub mod registry;
pub mod runtime;
pub mod schedule;
mod task;
pub mod trace;
