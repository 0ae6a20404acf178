//! The integration tests, compiled into one binary. Tests that need ZooKeeper start a real server
//! (Debian's `zookeeper` package) through `support::zk`; they fail, never skip, when it is missing.

// Test code: a failed unwrap is a failed test, with the value in the message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

/// Registry behaviour on ZooKeeper and the embedded registry, plus ZooKeeper restarts, expiry and
/// ensemble failover.
mod registry;

/// `ejctl dump`, and the registry errors every admin command shares.
mod cli_dump;

/// The committed completions and man pages match the command line.
mod generated;

/// The source tree: no import cycles, no overlong files.
mod layout;

/// The worker runtime: `ejctl run` processes on ZooKeeper and in-process workers on the embedded
/// registry.
mod runtime;

/// Admin commands for operators and scripts: views and job/server/sharding operations.
mod cli_admin;

/// What workers cost ZooKeeper (znodes, watches, requests), in a small configuration.
mod footprint;

/// Many instances and jobs on a 3-member ensemble, in a small configuration.
mod scale;

/// `ejctl server prune` and a worker's `prune_servers_after`: servers gone for good do not
/// accumulate, and nothing in use is removed.
mod prune;

/// `ejctl config ...` and contexts.
mod cli_config;

/// What an operator meets at the command line (issue 11): registry choice of `ejctl run`,
/// options per command, exit codes, confirmations, suggestions, help, logs, times and tables.
mod cli_operator;

/// `ejctl console`: its model, its frames, and the binary in tmux against ZooKeeper.
mod console;

/// The README's command examples: each parses, and the admin block runs against a real worker.
mod readme;

/// The guide in docs/: links, anchors, the pages' table of contents, and citations in the code.
mod docs;

/// Commands that need no registry (`cron next`, `sharding plan`) and `ejctl run` with bad job
/// files.
mod cli_offline;

/// Failover, fencing and reconnects with `ejctl run` processes on ZooKeeper.
mod failover;

/// Execution history: last results in the registry, the event trace in SQLite and PostgreSQL,
/// `ejctl history`.
mod history;

/// `ejctl why`: one scenario per condition, each from a real tree.
mod why;

/// Secrets of configurations are masked in every output and local endpoint unless asked for.
mod secrets;

/// Every view of an item (list and whole reads, `job list`, `job show`, `sharding show`,
/// `failover list`) shows the one state `coord::state` decides.
mod views;

/// The chaos test: faults of every kind, then the delivery guarantee is checked.
mod chaos;

/// Real network faults between hosts in network namespaces: partitions of workers and ZooKeeper
/// members, packet loss; then the delivery guarantee is checked.
mod netns;

/// TLS to ZooKeeper, ACLs from the outside, the dump port's address, commands pinned to the job
/// file, HTTPS jobs.
mod security;

/// Corrupt registry data: a worker keeps its other jobs, reports the fault and recovers.
mod corrupt;

mod handlers;
mod listeners;
mod pool;
/// Property tests of every parser of outside input (round trips, no panics).
mod properties;

/// The fuzz targets' bodies over their corpus and inputs mutated from it.
mod fuzz;

/// The binary's link mode, the Debian package's metadata, the units and the container image.
mod packaging;

/// The worker's HTTP endpoint: Prometheus metrics from real workers, readiness while cut off.
mod metrics;

/// A job whose sharding ZooKeeper refuses: every view, `why` and `/readyz` say so until it shards.
mod sharding;
