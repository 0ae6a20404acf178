//! Locking the process's mutexes.

use std::sync::{Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Locks `m`, taking over a lock whose holder panicked: the mutexes guard state that each holder
/// changes in one step (sets of items, maps of probes or routes, queues, wakers, the embedded
/// registry's tree, whose every change goes through a transaction that rolls back on error),
/// consistent either way.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Read-locks `l`, taking over a lock whose writer panicked, as [`lock`] does.
pub(crate) fn read<T>(l: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    l.read().unwrap_or_else(PoisonError::into_inner)
}

/// Write-locks `l`, taking over a lock whose writer panicked, as [`lock`] does.
pub(crate) fn write<T>(l: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    l.write().unwrap_or_else(PoisonError::into_inner)
}
