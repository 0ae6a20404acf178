//! The shape of the worker-level tables of a job file (`[registry]`, `[instance]`, `[trace]`):
//! a key, what it is and its default, for the README's key table. The tables themselves are in
//! [`super::schema`].

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

pub(super) const fn key(key: &'static str, about: &'static str, default: &'static str) -> TableKey {
    TableKey { key, about, default }
}

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
