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
