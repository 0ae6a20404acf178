//! Locking the process's mutexes.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `m`, taking over a lock whose holder panicked: the mutexes guard state that each holder
/// changes in one step (sets of items, maps of probes or routes, queues, wakers), consistent
/// either way.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
