//! What an idle worker gives back to the system, a while after start-up and then every
//! [`TRIM_EVERY`]: the allocators' free memory (jemalloc's purge, glibc's `malloc_trim`).
//!
//! Starting thousands of jobs builds and drops about as much as the settled jobs keep (parsed job
//! files, registration transactions, the first reads of every cache), and an allocator keeps what
//! was freed mapped for its next allocations. Without a trim a worker's anonymous memory stays at
//! that start-up peak; an idle worker makes few allocations, so jemalloc's own decay would take
//! long to return it. The trim is the only thing here: shared, file-backed pages (the program's
//! code) are the page cache's, not a worker's cost, and are left alone.

use std::ffi::CStr;
use std::time::Duration;

/// When the first trim after start-up runs: a worker of a few jobs has elected and sharded by
/// then. Each next trim waits twice as long as the one before, up to [`TRIM_EVERY`]: a large
/// worker takes longer to settle (10,000 jobs on ZooKeeper elect and shard for about 10 s after
/// they are registered), and a trim during its start-up gives back only what was freed so far,
/// leaving the rest resident until the next one.
const FIRST_TRIM: Duration = Duration::from_secs(5);
/// How often the memory is given back once the worker is settled: a reshard or a burst of fires
/// leaves far less than the start-up, and a trim walks the whole heap (with 10,000 jobs, a trim
/// every 30 s showed as 0.1 % of a core while idle).
const TRIM_EVERY: Duration = Duration::from_secs(300);

/// Gives memory back ([module docs](self)) [`FIRST_TRIM`] after start-up, then after twice as
/// long each time (at 5, 15, 35, 75 s ...), then every [`TRIM_EVERY`].
pub(super) async fn trim_periodically() {
    let mut wait = FIRST_TRIM;
    loop {
        tokio::time::sleep(wait).await;
        trim_heap();
        wait = wait.saturating_mul(2).min(TRIM_EVERY);
    }
}

/// Gives back the pages the allocators hold free: jemalloc's (the binary's allocator on Linux,
/// whose freed pages otherwise wait for its next allocations to purge them, and an idle worker
/// makes few) and glibc's (what C libraries allocate; everything, in a program that embeds the
/// library without jemalloc, where jemalloc's purge has nothing to give back).
fn trim_heap() {
    // Fails only for a name jemalloc does not know (a test checks it), and changes nothing then.
    let _ = mallctl_call(PURGE);
    trim_glibc();
}

/// Flushes the calling thread's allocator cache (jemalloc's `thread.tcache.flush`), for the main
/// thread once the worker has started: it read and checked the job files, and its cache keeps
/// blocks that start-up freed, for allocations the main thread, waiting for a signal from then
/// on, does not make. The runtime's threads keep theirs: they allocate at every event, and
/// without caches 10,000 jobs took 40 % more CPU to start.
pub(super) fn flush_thread_cache() {
    // A name jemalloc knows (a test checks it): it cannot fail.
    let _ = mallctl_call(FLUSH);
}

/// jemalloc's `arena.<i>.purge` for every arena (`MALLCTL_ARENAS_ALL`, 4096).
const PURGE: &CStr = c"arena.4096.purge";
/// jemalloc's flush of the calling thread's cache.
const FLUSH: &CStr = c"thread.tcache.flush";

/// Calls jemalloc's `mallctl` of `name` that reads and writes no value (a purge, a flush);
/// `mallctl`'s result, 0 when done.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn mallctl_call(name: &CStr) -> i32 {
    // SAFETY: a NUL-terminated name; these calls read and write no value, so they take none.
    unsafe {
        tikv_jemalloc_sys::mallctl(name.as_ptr(), std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut(), 0)
    }
}

#[cfg(not(target_os = "linux"))]
fn mallctl_call(_: &CStr) -> i32 {
    0
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn trim_glibc() {
    // SAFETY: `malloc_trim` has no preconditions; glibc locks each arena while it trims it.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim_glibc() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn jemalloc_knows_the_purge_of_every_arena_and_the_flush_of_a_thread_cache() {
        assert_eq!(mallctl_call(PURGE), 0);
        assert_eq!(mallctl_call(FLUSH), 0);
    }
}
