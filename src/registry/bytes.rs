//! Node data shared by every holder in the process that has the same bytes.
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
//! Only values of at most [`SHARED_MAX`] bytes are looked up, so that a large node's every
//! change is not hashed. The table keeps a value for as long as anyone else does: once it holds
//! twice as many values as after its last sweep, it drops those only it holds (instance ids of
//! instances long gone, a configuration replaced), so it stays within twice the values in use.
//! A value nobody else has (a job's configuration on ZooKeeper) costs the table's 16 bytes.

use std::collections::HashSet;
use std::sync::{Arc, LazyLock, Mutex};

/// The longest value shared: a job's configuration with a few dozen properties fits.
pub const SHARED_MAX: usize = 4096;

/// The fewest values the table holds before it sweeps.
const SWEEP_MIN: usize = 64;

/// The empty value, the most common one (every directory's): shared without a lookup.
static EMPTY: LazyLock<Arc<[u8]>> = LazyLock::new(|| Arc::from(&[][..]));

/// The shared values.
#[derive(Default)]
struct Table {
    values: HashSet<Arc<[u8]>>,
    /// The number of values at which the next insertion sweeps first.
    sweep_at: usize,
}

impl Table {
    /// The value of these bytes, made and kept if the table has none.
    fn share(&mut self, data: &[u8]) -> Arc<[u8]> {
        if let Some(value) = self.values.get(data) {
            return Arc::clone(value);
        }
        if self.values.len() >= self.sweep_at {
            self.values.retain(|v| Arc::strong_count(v) > 1);
            self.sweep_at = self.values.len().saturating_mul(2).max(SWEEP_MIN);
        }
        let value: Arc<[u8]> = Arc::from(data);
        self.values.insert(Arc::clone(&value));
        value
    }
}

static TABLE: LazyLock<Mutex<Table>> = LazyLock::new(Mutex::default);

/// `data` as a shared value: the one already held when another holder has the same bytes and
/// they are short ([`SHARED_MAX`]), else a value of its own.
pub fn share(data: &[u8]) -> Arc<[u8]> {
    if data.is_empty() {
        return Arc::clone(&EMPTY);
    }
    if data.len() > SHARED_MAX {
        return Arc::from(data);
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
        assert!(Arc::ptr_eq(&a, &b));
        assert!(Arc::ptr_eq(&share(b""), &share(b"")));
        let long = vec![b'x'; SHARED_MAX + 1];
        let (c, d) = (share(&long), share(&long));
        assert_eq!(c, d);
        assert!(!Arc::ptr_eq(&c, &d));
        assert_eq!(&*a, b"10.0.0.1@-@4242");
    }

    #[test]
    fn values_nobody_holds_are_swept_as_the_table_grows() {
        let mut table = Table::default();
        let kept: Vec<Arc<[u8]>> = (0..SWEEP_MIN).map(|i| table.share(format!("kept-{i}").as_bytes())).collect();
        for i in 0..SWEEP_MIN * 8 {
            drop(table.share(format!("dropped-{i}").as_bytes()));
            // Within twice the values in use (the kept ones), and at least the few of a sweep.
            assert!(table.values.len() <= (kept.len() * 2).max(SWEEP_MIN), "{} values", table.values.len());
        }
        assert!(kept.iter().all(|v| table.values.contains(v)));
        let again = table.share(b"kept-0");
        assert!(Arc::ptr_eq(&again, &kept[0]), "a value in use is never swept");
    }
}
