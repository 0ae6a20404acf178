//! The shape of the worker-level tables of a job file (`[registry]`, `[instance]`, `[trace]`):
//! a key, what it is and its default, for the README's key table ([`super::schema`] re-exports
//! them beside the job table's keys).

/// A key of the `[registry]`, `[instance]` or `[trace]` table of a job file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableKey {
    /// The key.
    pub key: &'static str,
    /// What it is, for the README's middle column (after `—`), or empty.
    pub about: &'static str,
    /// The default, for the README.
    pub default: &'static str,
}

const fn key(key: &'static str, about: &'static str, default: &'static str) -> TableKey {
    TableKey { key, about, default }
}

/// The keys of `[registry]`.
pub const REGISTRY_KEYS: &[TableKey] = &[
    key("servers", "ZooKeeper connect string", "required"),
    key("namespace", "ZooKeeper chroot", "required"),
    key("digest", "`user:password`", "none"),
    key(
        "allow_open_acl",
        "with credentials: accept namespace and job nodes others can read or write (else the worker refuses to start)",
        "`false`",
    ),
    key("session_timeout_ms", "", "`60000`"),
    key("connection_timeout_ms", "", "`15000`"),
    key("fencing_timeout_ms", "less than `session_timeout_ms`", "half the session timeout"),
    key(
        "tls",
        "`{ ca = \"ca.pem\", cert = \"client.pem\", key = \"client.key\" }`: PEM files, relative to the job file; `cert`/`key` for x509 auth",
        "none (plaintext)",
    ),
];

/// The keys of `[instance]`.
pub const INSTANCE_KEYS: &[TableKey] = &[
    key("ip", "IPv4 in the instance id", "detected"),
    key("dump_port", "serves `dump@{job}`", "none"),
    key("dump_address", "the dump port's IP address", "`127.0.0.1`"),
    key(
        "http",
        "serves `/metrics`, `/healthz`, `/readyz`, `/dump/{job}` on `ADDRESS:PORT`, or on loopback for a bare `PORT`",
        "none",
    ),
    key("shutdown_timeout_seconds", "", "`30`"),
    key("kill_grace_seconds", "SIGTERM → SIGKILL", "`5`"),
    key(
        "prune_servers_after_seconds",
        "remove this worker's jobs' `servers/{ip}` nodes that nothing uses (no live instance, no sharding item on that IP, not `DISABLED`) and that were not written for this long: at start-up, then every that long (like `ejctl server prune --older-than`)",
        "none (off)",
    ),
];

/// The keys of `[trace]` (the event trace; see [`crate::trace`]).
pub const TRACE_KEYS: &[TableKey] = &[
    key(
        "url",
        "a SQLite file path, relative to the job file, or `postgres://user:password@host:port/db`",
        "`~/.local/state/ejctl/trace.db`",
    ),
    key("retention_days", "rows older than this are deleted; `0` keeps them", "`30`"),
    key("retention_rows", "at most this many runs are kept; `0`: no limit", "`1000000`"),
    key("retention_interval_seconds", "how often retention runs", "`600`"),
    key("buffer_events", "events waiting for the database before new ones are dropped", "`10000`"),
];
