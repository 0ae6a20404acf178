//! Node data, and node paths below a job, shared by every holder in the process that has the
//! same bytes.
//!
//! Most of a settled job's small node data is the same in every job of a worker: its instance id
//! (each item's owner, the leader), `ENABLED` (its server) and its instance's YAML. Each job's
//! cache held a copy of each, about 0.2 KB of every job in allocations of 32 to 64 bytes, made
//! while the jobs settle on the runtime's threads, among the events they free. Shared, a value
//! is one allocation for the whole worker. And on the embedded registry, the store and the job's
//! cache hold one copy of the job's configuration, not two.
//!
//! Measured: 10,000 idle jobs on ZooKeeper 65.4–66.0 → 60.5 MB RSS; on the embedded registry
//! 92.3–92.9 → 83.4–83.6 MB.
//!
//! The keys of a job's nodes in its cache and in the embedded store are shared values too
//! ([`super::pathmap`]): their paths below the job, the same in every job.
//!
//! Only values of at most [`SHARED_MAX`] bytes are looked up, so that a large node's every
//! change is not hashed. The table keeps a value for as long as anyone else does: once it holds
//! twice as many values as after its last sweep, it drops those only it holds (instance ids of
//! instances long gone, a configuration replaced), so it stays within twice the values in use.
//! A value nobody else has (a job's configuration on ZooKeeper) costs the table's entry: a
//! pointer and a control byte.

use std::borrow::Borrow;
use std::collections::HashSet;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::{LazyLock, Mutex};

use triomphe::ThinArc;

/// The longest value shared: a job's configuration with a few dozen properties fits.
pub const SHARED_MAX: usize = 4096;

/// The fewest values the table holds before it sweeps.
const SWEEP_MIN: usize = 64;

/// The empty value, the most common one (every directory's): shared without a lookup.
static EMPTY: LazyLock<Data> = LazyLock::new(|| Data::new(&[]));

/// A node's data, shared: one pointer (its length is in the allocation, beside the count), where
/// an `Arc<[u8]>` takes two. Every node of the embedded store and of a job's cache holds one, so
/// the second word was 8 bytes of each. Measured, the anonymous memory of 10,000 idle jobs: on
/// ZooKeeper 56.4–56.6 → 54.0–54.4 MB, on the embedded registry 80.2–80.3 → 76.4–76.5 MB.
#[derive(Clone)]
pub struct Data(ThinArc<(), u8>);

impl Data {
    fn new(bytes: &[u8]) -> Data {
        Data(ThinArc::from_header_and_slice((), bytes))
    }

    /// True when both are the same allocation.
    pub fn ptr_eq(a: &Data, b: &Data) -> bool {
        a.0.ptr() == b.0.ptr()
    }

    /// The number of holders of this allocation.
    fn holders(&self) -> usize {
        ThinArc::strong_count(&self.0)
    }
}

impl Deref for Data {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0.slice
    }
}

impl Borrow<[u8]> for Data {
    fn borrow(&self) -> &[u8] {
        self
    }
}

/// Compared and hashed as the bytes, as a lookup by `&[u8]` in the table needs.
impl PartialEq for Data {
    fn eq(&self, other: &Data) -> bool {
        Data::ptr_eq(self, other) || **self == **other
    }
}

impl Eq for Data {}

impl Hash for Data {
    fn hash<S: Hasher>(&self, state: &mut S) {
        (**self).hash(state);
    }
}

impl fmt::Debug for Data {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

/// The shared values.
#[derive(Default)]
struct Table {
    values: HashSet<Data>,
    /// The number of values at which the next insertion sweeps first.
    sweep_at: usize,
}

impl Table {
    /// The value of these bytes, made and kept if the table has none.
    fn share(&mut self, data: &[u8]) -> Data {
        if let Some(value) = self.values.get(data) {
            return value.clone();
        }
        if self.values.len() >= self.sweep_at {
            self.values.retain(|v| v.holders() > 1);
            self.sweep_at = self.values.len().saturating_mul(2).max(SWEEP_MIN);
        }
        let value = Data::new(data);
        self.values.insert(value.clone());
        value
    }
}

static TABLE: LazyLock<Mutex<Table>> = LazyLock::new(Mutex::default);

/// `data` as a shared value: the one already held when another holder has the same bytes and
/// they are short ([`SHARED_MAX`]), else a value of its own.
pub fn share(data: &[u8]) -> Data {
    if data.is_empty() {
        return EMPTY.clone();
    }
    if data.len() > SHARED_MAX {
        return Data::new(data);
    }
    crate::sync::lock(&TABLE).share(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_short_values_are_one_allocation_and_long_ones_are_not_shared() {
        let a = share(b"10.0.0.1@-@4242");
        let b = share(b"10.0.0.1@-@4242");
        assert!(Data::ptr_eq(&a, &b));
        assert!(Data::ptr_eq(&share(b""), &share(b"")));
        let long = vec![b'x'; SHARED_MAX + 1];
        let (c, d) = (share(&long), share(&long));
        assert_eq!(c, d);
        assert!(!Data::ptr_eq(&c, &d));
        assert_eq!(&*a, b"10.0.0.1@-@4242");
    }

    #[test]
    fn values_nobody_holds_are_swept_as_the_table_grows() {
        let mut table = Table::default();
        let kept: Vec<Data> = (0..SWEEP_MIN).map(|i| table.share(format!("kept-{i}").as_bytes())).collect();
        for i in 0..SWEEP_MIN * 8 {
            drop(table.share(format!("dropped-{i}").as_bytes()));
            // Within twice the values in use (the kept ones), and at least the few of a sweep.
            assert!(table.values.len() <= (kept.len() * 2).max(SWEEP_MIN), "{} values", table.values.len());
        }
        assert!(kept.iter().all(|v| table.values.contains(v)));
        let again = table.share(b"kept-0");
        assert!(Data::ptr_eq(&again, &kept[0]), "a value in use is never swept");
    }
}
