//! The `ejctl` binary: its allocator, then [`ejctl::cli::entry::main`].

use std::process::ExitCode;

#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read before `main`:
/// * `narenas:1`: one arena for all threads (each thread keeps its own cache of small blocks in
///   front of it), instead of four per core: a worker's threads mostly wait, and each arena
///   holds pages of its own (one idle job: 0.3 MB less);
/// * `muzzy_decay_ms:0`: a purge gives pages back to the system at once (`MADV_DONTNEED`)
///   rather than marking them lazily freeable first, which still counts them in the process's
///   resident memory until the kernel needs them.
#[cfg(target_os = "linux")]
#[allow(unsafe_code, non_upper_case_globals)]
#[unsafe(export_name = "_rjem_malloc_conf")]
static malloc_conf: Option<&'static std::ffi::c_char> =
    // SAFETY: the pointer is to the first byte of a static, NUL-terminated string.
    Some(unsafe { &*c"narenas:1,muzzy_decay_ms:0".as_ptr() });

fn main() -> ExitCode {
    ejctl::cli::entry::main()
}
