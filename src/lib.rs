//! ejctl: ElasticJob-Lite style distributed job scheduling over ZooKeeper, in one binary.
//!
//! The crate is both the `ejctl` command-line tool and a library that Rust programs can embed.
//!
//! # Layout
//!
//! One line per module, in layers from the command line down to the foundations. A module
//! imports from its own layer or those below, never from a layer above, and no modules import
//! each other in a circle (`tests/layout.rs` checks both):
//!
//! 1. [`cli`]: the command-line interface: clap definitions, one module per command group,
//!    confirmations and progress, and the one rendering path that writes to stdout.
//! 2. [`exit`]: the command line's exit codes and how errors (its own, the operations', the
//!    registry's) map onto them.
//! 3. [`runtime`]: the worker behind `ejctl run`: a [`runtime::Worker`] runs one task per job,
//!    each owning rooms for registration, election, leadership (sharding), execution (fires,
//!    runs, misfire) and failover, plus fencing, the dump port and the HTTP endpoint (metrics,
//!    health and readiness probes). It carries out what [`coord`] decides.
//! 4. [`ops`]: the admin operations on a namespace, for any Rust program: reading jobs and the
//!    reports built from them, every mutation of ElasticJob's operations API as planned changes
//!    applied in transactions, trigger-and-wait, configuration get/set/edit, publishing
//!    configurations (`config apply` / `diff`, a worker's start-up), `why`.
//! 5. [`jobfile`]: the TOML job files `ejctl run` reads, validated before anything is written.
//! 6. [`coord`]: coordination decisions as pure, table-tested functions — no I/O, no clock: the
//!    typed job snapshot, which items a fire runs, the registry transactions of runs, failover and
//!    leader steps, reactions to changes, statuses, sharding strategies, item parameters, pinned
//!    values, a configuration's validation (done once), `why`'s explanations; and the machines
//!    without I/O that sequence a job's decisions (registration, election, the leader's sharding,
//!    failover claims, a fire's path, the end of runs, once-per-fire phases, what ended runs
//!    left), which the runtime drives.
//! 7. The adapters around a run:
//!    * [`exec`]: how one sharding item is executed: script, HTTP, dataflow and in-process jobs,
//!      process supervision.
//!    * [`listener`]: job listeners run before and after each fire's items, on each instance or
//!      once across all of them: the [`listener::JobListener`] and
//!      [`listener::DistributeOnceListener`] traits for library jobs and the job file's `before` /
//!      `after` / `before_once` / `after_once` commands.
//!    * [`notify`]: error handlers (`jobErrorHandlerType`: LOG, IGNORE, THROW, DINGTALK, WECHAT,
//!      EMAIL, WEBHOOK) and the bounded, rate-limited background sender of their notifications.
//!    * [`trace`]: the event trace — every run in ElasticJob's trace tables (and ejctl's own) in
//!      SQLite or PostgreSQL, written off the fire path by a background writer; `ejctl
//!      history`'s queries.
//! 8. [`registry`]: node paths (the only place that spells node names) and value codecs of
//!    ElasticJob 3.x's ZooKeeper layout, the [`registry::Registry`] handle with a ZooKeeper
//!    (plaintext or TLS) and an embedded in-process backend (with fault injection for the
//!    simulator), the watched subtree cache, and the namespace tree reader of `ejctl dump`.
//! 9. [`config`]: the one schema of job configuration keys (ElasticJob's YAML keys, job-file
//!    keys, checks, defaults) and the typed configuration.
//! 10. Foundations:
//!    * [`schedule`]: Quartz cron expressions and job time zones.
//!    * [`retry`]: the one retry policy (exponential backoff with jitter, a floor, a cap, a reset
//!      on success) every room that retries uses, its jitter injected so a simulation replays.
//!    * [`clock`]: where the wall clock is read (injectable, for the simulator).
//!    * [`files`]: reading the files a job file names, and job files: regular files of bounded
//!      size.
//!    * `queue`: the event queue of a job's watch and cache, which holds no buffer while empty.
//!    * `sync`: locking a mutex whose holder panicked.
//!    * `task`: spawned tasks with an owner (aborted when dropped).

pub mod cli;
pub mod clock;
pub mod config;
pub mod coord;
pub mod exec;
pub mod exit;
pub mod files;
pub mod jobfile;
pub mod listener;
pub mod notify;
pub mod ops;
mod queue;
pub mod registry;
pub mod retry;
pub mod runtime;
pub mod schedule;
mod sync;
mod task;
pub mod trace;
