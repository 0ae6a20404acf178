//! What an idle worker gives back to the system, a while after start-up and then every
//! [`TRIM_EVERY`]:
//!
//! * **The allocators' free memory** (jemalloc's purge, glibc's `malloc_trim`). Starting 1,000
//!   jobs builds and drops about as much as the settled jobs keep, and an allocator keeps what
//!   was freed mapped for its next allocations: without a trim the process RSS stays at that
//!   start-up peak (measured on ZooKeeper with glibc: 33 MB of anonymous memory before a trim, 23
//!   MB after; with jemalloc, 10,000 embedded jobs: 74.0 MB before, 61.3 MB after).
//! * **The pages of code and read-only data it no longer runs** (`madvise(MADV_DONTNEED)` on the
//!   executable's and its libraries' read-only mappings). Start-up runs through parsers,
//!   validation and registration code an idle worker never runs again, and the kernel maps 64 KB
//!   around each page it first touches: an idle worker kept about 7 MB of file pages mapped, most
//!   of them start-up's. Dropping the mappings leaves the pages in the page cache, shared with
//!   every other process using them: what the worker runs next is mapped again from there (a
//!   minor fault, no disk read), and the rest, no longer mapped by anyone, is what the kernel
//!   reclaims first under memory pressure. Measured: one idle job 7.8 → 3.4 MB RSS, 1,000 idle
//!   jobs 17.8 → 13.2 MB; a job firing every 2 s settles at 6.6 MB.
//!
//! Only mappings that are read-only, private and hold no page of their own (`Anonymous: 0` in
//! `/proc/self/smaps`: no page was ever written, each is the file's) are dropped, so the pages
//! mapped again are the same bytes. And only mappings of files mapped before the worker started
//! (the executable and the libraries it links, which are never unmapped): a library opened later,
//! such as a name-service module, could be closed and its addresses reused by other memory
//! between reading `smaps` and the `madvise`.

use std::collections::BTreeSet;
use std::ffi::CStr;
use std::ops::Range;
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

/// The files mapped when the worker started, whose read-only pages a trim may drop.
pub(super) struct StartMappings(BTreeSet<String>);

impl StartMappings {
    /// The files mapped now (none where `/proc/self/maps` cannot be read). From `maps`, which
    /// has the same lines as `smaps` without the page counts `smaps` walks every mapping for.
    pub(super) fn now() -> StartMappings {
        let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
        StartMappings(mappings(&maps).filter_map(|m| m.file.map(str::to_string)).collect())
    }
}

/// Gives memory back ([module docs](self)) [`FIRST_TRIM`] after start-up, then after twice as
/// long each time (at 5, 15, 35, 75 s ...), then every [`TRIM_EVERY`].
pub(super) async fn trim_periodically(files: StartMappings) {
    let mut wait = FIRST_TRIM;
    loop {
        tokio::time::sleep(wait).await;
        trim_heap();
        drop_clean_pages(&files);
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

#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn drop_clean_pages(files: &StartMappings) {
    // Every range first, and the text freed: code run after the first `madvise` (parsing the
    // rest, freeing a large block) maps its pages again, 64 KB around each.
    let ranges: Vec<Range<usize>> = match std::fs::read_to_string("/proc/self/smaps") {
        Ok(smaps) => clean_read_only(&smaps, |file| files.0.contains(file)).collect(),
        Err(_) => return,
    };
    for range in ranges {
        // SAFETY: the range is a whole mapping of a file mapped before the worker started (never
        // unmapped, so the range still holds it), read-only, private, and without a page of its
        // own: every page is the file's, and the kernel maps it again from the file at the next
        // access. Nothing is lost, so a failure (which changes nothing) needs no handling.
        unsafe {
            libc::madvise(range.start as *mut libc::c_void, range.end - range.start, libc::MADV_DONTNEED);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn drop_clean_pages(_: &StartMappings) {}

/// One mapping of `/proc/self/smaps`.
struct Mapping<'a> {
    range: Range<usize>,
    perms: &'a str,
    file: Option<&'a str>,
    /// `Anonymous:` in kB: the pages the process has of its own (written, or never the file's).
    anonymous: Option<u64>,
}

/// The mappings of a `/proc/self/smaps` text (or of `/proc/self/maps`: no `Anonymous:` then).
fn mappings(text: &str) -> impl Iterator<Item = Mapping<'_>> {
    let mut lines = text.lines().peekable();
    std::iter::from_fn(move || {
        loop {
            let line = lines.next()?;
            let mut fields = line.split_whitespace();
            let (Some(range), Some(perms)) = (fields.next(), fields.next()) else { continue };
            let Some((start, end)) = range.split_once('-') else { continue };
            let (Ok(start), Ok(end)) = (usize::from_str_radix(start, 16), usize::from_str_radix(end, 16)) else {
                continue;
            };
            // Offset, device and inode come first, then the path (absent for anonymous memory,
            // and spaces in it kept).
            let file = line.find(" /").map(|at| line[at + 1..].trim_end());
            let mut anonymous = None;
            while let Some(field) = lines.next_if(|l| l.split_whitespace().next().is_some_and(|k| k.ends_with(':'))) {
                if let Some(kb) = field.strip_prefix("Anonymous:") {
                    anonymous = kb.trim().trim_end_matches("kB").trim().parse().ok();
                }
            }
            return Some(Mapping { range: start..end, perms, file, anonymous });
        }
    })
}

/// The read-only private mappings of files `keep` accepts, none of whose pages the process owns.
fn clean_read_only<'a>(smaps: &'a str, keep: impl Fn(&str) -> bool + 'a) -> impl Iterator<Item = Range<usize>> + 'a {
    mappings(smaps)
        .filter(move |m| {
            let perms = m.perms.as_bytes();
            perms.first() == Some(&b'r')
                && perms.get(1) == Some(&b'-')
                && perms.get(3) == Some(&b'p')
                && m.anonymous == Some(0)
                && m.file.is_some_and(&keep)
        })
        .map(|m| m.range)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMAPS: &str = "\
00200000-002fa000 r--p 00000000 fd:01 42 /usr/bin/ejctl
Size:               1000 kB
Anonymous:             0 kB
VmFlags: rd mr mw me
002fa000-00d49000 r-xp 000fa000 fd:01 42 /usr/bin/ejctl
Anonymous:             0 kB
00d49000-00eac000 r--p 00b47000 fd:01 42 /usr/bin/ejctl
Anonymous:          1412 kB
00eac000-00eb4000 rw-p 00ca9000 fd:01 42 /usr/bin/ejctl
Anonymous:            32 kB
01000000-01100000 rw-p 00000000 00:00 0 [heap]
Anonymous:           600 kB
7f0000000000-7f0000010000 r-xp 00000000 fd:01 7 /usr/lib/libnss_dns.so.2
Anonymous:             0 kB
7f0000100000-7f0000200000 r-xs 00000000 fd:01 8 /usr/lib/libc.so.6
Anonymous:             0 kB
7f0000200000-7f0000300000 r-xp 00000000 fd:01 8 /usr/lib/libc.so.6
Anonymous:             0 kB
7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0 [vdso]
Anonymous:             0 kB
";

    #[test]
    fn only_clean_read_only_private_mappings_of_files_from_the_start_are_dropped() {
        let start = ["/usr/bin/ejctl", "/usr/lib/libc.so.6"];
        let dropped: Vec<Range<usize>> = clean_read_only(SMAPS, |f| start.contains(&f)).collect();
        assert_eq!(
            dropped,
            [0x0020_0000..0x002f_a000, 0x002f_a000..0x00d4_9000, 0x7f00_0020_0000..0x7f00_0030_0000],
            "not the relocated read-only data, the writable data, the heap, a library opened \
             later, a shared mapping or the vDSO"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn jemalloc_knows_the_purge_of_every_arena_and_the_flush_of_a_thread_cache() {
        assert_eq!(mallctl_call(PURGE), 0);
        assert_eq!(mallctl_call(FLUSH), 0);
    }

    #[test]
    fn the_files_mapped_at_start_include_the_executable() {
        let files: BTreeSet<String> = mappings(SMAPS).filter_map(|m| m.file.map(str::to_string)).collect();
        assert_eq!(
            files.into_iter().collect::<Vec<_>>(),
            ["/usr/bin/ejctl", "/usr/lib/libc.so.6", "/usr/lib/libnss_dns.so.2"]
        );
        let own = StartMappings::now();
        let exe = std::fs::read_link("/proc/self/exe").unwrap();
        assert!(own.0.contains(exe.to_str().unwrap()), "{exe:?} among {:?}", own.0);
    }
}
