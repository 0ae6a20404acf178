//! Starting a child process the way `posix_spawn` does, with the parent-death signal set in
//! between: `clone(CLONE_VM | CLONE_VFORK)`, so the child borrows the worker's memory until it
//! execs instead of copying its page tables as `fork` does.
//!
//! `std::process::Command` would use `posix_spawn` itself, but not once a `pre_exec` hook is
//! installed, and `prctl(PR_SET_PDEATHSIG)` can only be called by the child. With `fork`, every
//! spawn copied the worker's page tables and made its memory copy-on-write until the child
//! exec'd: measured on a fire of 100 items, the last item started ×1.5–1.6 later than a
//! `posix_spawn` loop's, and the worker used four times the CPU. This module costs what
//! `posix_spawn` costs (×1.12 of the loop, measured) and keeps the guarantee.
//!
//! The child runs on a stack of its own, in the worker's memory, while the spawning thread is
//! suspended. It therefore only makes system calls (through libc's thin wrappers) on values the
//! parent prepared: it allocates nothing and takes no lock. In order, it
//! 1. resets every caught signal to its default action (and `SIGPIPE`, which Rust ignores, as
//!    `std` does), while all signals are still blocked: the handlers are the worker's and must not
//!    run in the child;
//! 2. becomes the leader of its own process group;
//! 3. sets `PR_SET_PDEATHSIG` to `SIGKILL` and checks that its parent is still the worker (if the
//!    worker died before the `prctl`, no signal would ever come);
//! 4. puts its stdin, stdout and stderr in place, unblocks all signals and `execvpe`s (the same
//!    `PATH` search, and the same fallback to `/bin/sh` for a script without `#!`, as before).
//!
//! If a step fails, the child stores its errno where the parent reads it and exits with 127; the
//! parent reaps it and reports the error, exactly as `Command::spawn` reports a failed exec.

use std::ffi::{CString, OsStr};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;

use libc::{c_char, c_int, c_void};

/// What to start. Built by the requesting task; the C strings are made here so that a bad
/// argument is an error before anything is started.
pub(super) struct SpawnSpec {
    program: CString,
    argv: Vec<CString>,
    envp: Vec<CString>,
    stdin_piped: bool,
}

impl SpawnSpec {
    /// `argv[0]` is the program (looked up in the worker's `PATH` when it has no `/`; a `PATH` in
    /// `env` is the child's but does not change the lookup); the environment is the worker's with
    /// `env` added (replacing variables of the same name).
    ///
    /// # Errors
    /// An argument, name or value with a NUL byte, or an empty `argv`.
    pub(super) fn new(argv: &[String], env: &[(String, String)], stdin_piped: bool) -> io::Result<SpawnSpec> {
        let nul = |what: &str| io::Error::new(io::ErrorKind::InvalidInput, format!("{what} contains a NUL byte"));
        let program = CString::new(argv.first().ok_or_else(|| io::Error::other("empty command line"))?.as_bytes())
            .map_err(|_| nul("the program name"))?;
        let argv = argv.iter().map(|a| CString::new(a.as_bytes())).collect::<Result<Vec<_>, _>>();
        let argv = argv.map_err(|_| nul("an argument"))?;
        let mut envp = Vec::new();
        for (name, value) in std::env::vars_os() {
            if env.iter().any(|(n, _)| OsStr::new(n) == name) {
                continue;
            }
            let mut entry = name.as_bytes().to_vec();
            entry.push(b'=');
            entry.extend_from_slice(value.as_bytes());
            // The inherited environment cannot hold a NUL byte; skip rather than fail if it did.
            if let Ok(entry) = CString::new(entry) {
                envp.push(entry);
            }
        }
        for (i, (name, value)) in env.iter().enumerate() {
            // A name given twice: the last value counts, as with `Command::env`.
            if env[i + 1..].iter().any(|(n, _)| n == name) {
                continue;
            }
            if name.is_empty() || name.contains('=') {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("bad environment variable name '{name}'"),
                ));
            }
            envp.push(CString::new(format!("{name}={value}")).map_err(|_| nul("an environment variable"))?);
        }
        Ok(SpawnSpec { program, argv, envp, stdin_piped })
    }
}

/// A started child: its pid (also its process group) and the parent's ends of its pipes. The
/// caller owns the child from here: it must wait for it (see `process::Child`).
#[derive(Debug)]
pub(super) struct Spawned {
    pub(super) pid: libc::pid_t,
    pub(super) stdin: Option<OwnedFd>,
    pub(super) stdout: OwnedFd,
    pub(super) stderr: OwnedFd,
}

/// What the child reads (prepared by the parent) and where it reports a failure.
struct ChildArgs {
    program: *const c_char,
    argv: *const *const c_char,
    envp: *const *const c_char,
    /// The descriptors that become the child's 0, 1 and 2 (all above 2).
    stdio: [RawFd; 3],
    parent: libc::pid_t,
    /// Set by the child when a step fails; read by the parent once the child has exec'd or exited.
    error: c_int,
}

/// The highest signal number on Linux.
const MAX_SIGNAL: c_int = 64;

/// The kernel's signal set size in bytes, as `rt_sigprocmask` wants it. Integer arguments to
/// `syscall` are passed as `long`: a narrower one leaves the register's upper half undefined.
const SIGSET_SIZE: libc::c_long = 8;

/// Stack for the child beyond what its arguments need: `execvpe` builds a candidate path and,
/// for the `/bin/sh` fallback, a new argument vector on it.
const CHILD_STACK: usize = 64 * 1024;

/// Starts the child. Blocks the calling thread until the child has exec'd; the child's
/// parent-death signal is tied to this thread, so it must live as long as the process.
///
/// # Errors
/// Creating the pipes, `clone`, or any step in the child (the exec's error, such as "No such file
/// or directory", as a rule).
#[allow(unsafe_code)]
pub(super) fn spawn(spec: &SpawnSpec) -> io::Result<Spawned> {
    let (stdout, stdout_child) = pipe()?;
    let (stderr, stderr_child) = pipe()?;
    let (stdin, stdin_child) = if spec.stdin_piped {
        let (read, write) = pipe()?;
        (Some(write), read)
    } else {
        (None, above_stdio(std::fs::File::open("/dev/null")?.into())?)
    };
    let argv: Vec<*const c_char> = spec.argv.iter().map(|a| a.as_ptr()).chain([std::ptr::null()]).collect();
    let envp: Vec<*const c_char> = spec.envp.iter().map(|e| e.as_ptr()).chain([std::ptr::null()]).collect();
    let mut args = ChildArgs {
        program: spec.program.as_ptr(),
        argv: argv.as_ptr(),
        envp: envp.as_ptr(),
        stdio: [stdin_child.as_raw_fd(), stdout_child.as_raw_fd(), stderr_child.as_raw_fd()],
        parent: std::process::id().cast_signed(),
        error: 0,
    };
    let mut stack = vec![0u8; CHILD_STACK + 16 * argv.len()];
    // SAFETY: the stack is ours and outlives the child's use of it (CLONE_VFORK returns only once
    // the child has exec'd or exited); its top is aligned to 16 bytes as the ABI requires.
    // `child_main` only reads `args` and writes `args.error`, which live until after `clone`
    // returns. All signals are blocked around the clone so that no handler of the worker runs on
    // the child's stack before the child has reset them.
    let pid = unsafe {
        let top = stack.as_mut_ptr().add(stack.len());
        let top = top.sub(top as usize % 16).cast::<c_void>();
        let old = block_all_signals();
        let pid = libc::clone(
            child_main,
            top,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            std::ptr::from_mut(&mut args).cast::<c_void>(),
        );
        let clone_error = io::Error::last_os_error();
        set_signal_mask(&old);
        if pid < 0 {
            return Err(clone_error);
        }
        pid
    };
    drop((stdin_child, stdout_child, stderr_child));
    // SAFETY: written by the child before it exited, read after `clone` returned.
    let error = unsafe { std::ptr::read_volatile(&raw const args.error) };
    if error != 0 {
        reap(pid);
        return Err(io::Error::from_raw_os_error(error));
    }
    Ok(Spawned { pid, stdin, stdout, stderr })
}

/// The child, between `clone` and `exec`: system calls only (see the module docs).
#[allow(unsafe_code)]
extern "C" fn child_main(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` is the parent's `ChildArgs`, alive and not touched by the suspended parent.
    unsafe {
        let args = &mut *arg.cast::<ChildArgs>();
        let fail = |args: &mut ChildArgs| -> c_int {
            std::ptr::write_volatile(&raw mut args.error, *libc::__errno_location());
            libc::_exit(127)
        };
        let mut action: libc::sigaction = std::mem::zeroed();
        for signal in 1..=MAX_SIGNAL {
            if signal == libc::SIGKILL || signal == libc::SIGSTOP {
                continue;
            }
            // Fails (EINVAL) for the two signals glibc reserves for itself, whose handlers then stay
            // installed: harmless, as glibc sends them only to the worker's own threads (`tgkill`
            // on its thread list, which the child is not on).
            if libc::sigaction(signal, std::ptr::null(), &raw mut action) != 0 {
                continue;
            }
            let handler = action.sa_sigaction;
            if signal == libc::SIGPIPE || (handler != libc::SIG_DFL && handler != libc::SIG_IGN) {
                let mut default: libc::sigaction = std::mem::zeroed();
                default.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(signal, &raw const default, std::ptr::null_mut());
            }
        }
        if libc::setpgid(0, 0) != 0 {
            return fail(args);
        }
        let unused: libc::c_ulong = 0;
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, unused, unused, unused) != 0 {
            return fail(args);
        }
        if libc::getppid() != args.parent {
            // The worker died before the prctl: no signal will come, so do not start.
            *libc::__errno_location() = libc::ESRCH;
            return fail(args);
        }
        for (target, &source) in args.stdio.iter().enumerate() {
            if libc::dup2(source, target as c_int) < 0 {
                return fail(args);
            }
        }
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut empty);
        set_signal_mask(&empty);
        libc::execvpe(args.program, args.argv, args.envp);
        fail(args)
    }
}

/// Blocks every signal, libc's own included (the raw system call; libc's wrapper would leave
/// those out); returns the previous mask.
#[allow(unsafe_code)]
fn block_all_signals() -> libc::sigset_t {
    // SAFETY: plain system calls on local sets.
    unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        // Every bit, not `sigfillset`'s set, which leaves out the signals libc reserves.
        std::ptr::write_bytes(&raw mut all, 0xff, 1);
        libc::syscall(
            libc::SYS_rt_sigprocmask,
            libc::c_long::from(libc::SIG_SETMASK),
            &raw const all,
            &raw mut old,
            SIGSET_SIZE,
        );
        old
    }
}

/// Sets the calling thread's signal mask (the raw system call).
#[allow(unsafe_code)]
fn set_signal_mask(mask: &libc::sigset_t) {
    // SAFETY: a plain system call on a set the caller owns.
    unsafe {
        libc::syscall(
            libc::SYS_rt_sigprocmask,
            libc::c_long::from(libc::SIG_SETMASK),
            std::ptr::from_ref(mask),
            std::ptr::null_mut::<libc::sigset_t>(),
            SIGSET_SIZE,
        );
    }
}

/// A pipe, both ends close-on-exec and numbered above 2 (so that putting one child end in place
/// cannot overwrite another): `(read, write)`.
#[allow(unsafe_code)]
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as c_int; 2];
    // SAFETY: `fds` has room for the two descriptors; on success both are new and ours.
    let (read, write) = unsafe {
        if libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return Err(io::Error::last_os_error());
        }
        (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]))
    };
    Ok((above_stdio(read)?, above_stdio(write)?))
}

/// `fd`, moved above 2 if it is 0, 1 or 2 (a worker started with a standard stream closed).
#[allow(unsafe_code)]
fn above_stdio(fd: OwnedFd) -> io::Result<OwnedFd> {
    if fd.as_raw_fd() > 2 {
        return Ok(fd);
    }
    // SAFETY: duplicates a descriptor we own; the new one is ours.
    let moved = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 3) };
    if moved < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `moved` is a new descriptor nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(moved) })
}

/// Waits for `pid` to exit and reaps it (blocking); its raw wait status, or `None` if it was
/// already reaped.
#[allow(unsafe_code)]
pub(super) fn reap(pid: libc::pid_t) -> Option<c_int> {
    let mut status: c_int = 0;
    loop {
        // SAFETY: waits for our own child.
        match unsafe { libc::waitpid(pid, &raw mut status, 0) } {
            -1 if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
            -1 => return None,
            _ => return Some(status),
        }
    }
}

/// Reaps `pid` if it has exited, without waiting: `Ok(Some(status))` once it has, `Ok(None)` while
/// it runs.
///
/// # Errors
/// `waitpid` failing (the child was already reaped).
#[allow(unsafe_code)]
pub(super) fn try_reap(pid: libc::pid_t) -> io::Result<Option<c_int>> {
    let mut status: c_int = 0;
    loop {
        // SAFETY: polls our own child.
        match unsafe { libc::waitpid(pid, &raw mut status, libc::WNOHANG) } {
            -1 if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
            -1 => return Err(io::Error::last_os_error()),
            0 => return Ok(None),
            _ => return Ok(Some(status)),
        }
    }
}

/// A pollable descriptor that becomes readable when `pid` exits (`pidfd_open`, Linux 5.3).
///
/// # Errors
/// The kernel lacks `pidfd_open`, or the process is gone.
#[allow(unsafe_code)]
pub(super) fn pidfd(pid: libc::pid_t) -> io::Result<OwnedFd> {
    // SAFETY: a plain system call; on success the descriptor is new and ours.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, libc::c_long::from(pid), 0 as libc::c_long) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    let fd = c_int::try_from(fd).map_err(|_| io::Error::other("pidfd_open returned a bad descriptor"))?;
    // SAFETY: see above.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}
