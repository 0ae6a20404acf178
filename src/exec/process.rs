//! Supervised child processes: the one place where ejctl starts, watches and kills the processes of
//! script and dataflow jobs (docs/src/design/behaviour.md#supervised-scripts,
//! docs/src/design/guarantee.md).
//!
//! [`run_supervised`] starts one command and returns a [`ProcessResult`] once the command and
//! everything it left behind in its process group are gone.
//!
//! # Starting
//!
//! * Each child is the leader of its own process group (`setpgid(0, 0)`), so that a kill reaches
//!   the script's own children too.
//! * Each child is started with `prctl(PR_SET_PDEATHSIG, SIGKILL)`, so that a worker that dies
//!   (even by SIGKILL) takes its scripts with it. Right after the `prctl` the child compares
//!   `getppid()` with the worker's pid: if the worker died between the `clone` and the `prctl`,
//!   the child was already re-parented and the signal would never come, so it refuses to start.
//! * The kernel sends the death signal when the **thread** that started the child exits, not
//!   when the process does. Starting children from tokio's blocking pool (whose threads exit
//!   after ten idle seconds) would kill healthy scripts, so every child is started by one of a
//!   few dedicated std threads, `ejctl-spawner-{n}`, started on first use and never ended. They
//!   take spawn requests from one channel and reply with the child's pid and pipes or the error.
//!   A spawn holds its thread until the child has exec'd (that is how an exec failure is
//!   reported), so a fire of many items is started by several threads side by side.
//! * The death signal covers the direct child only. The script's own children (`cmd &`) are
//!   killed with the group while the worker lives (see below), but if the worker is SIGKILLed
//!   while a script has background children, those children are re-parented and survive. The
//!   signal is also cleared by the kernel when the child execs a set-user-id binary.
//! * The child is started the way `posix_spawn` starts one, not by `fork`: see the `spawn`
//!   module. It waits for the child's exit on a pidfd (or on `SIGCHLD` without one) and reads
//!   its output through tokio pipes.
//!
//! # Stopping
//!
//! When the run's kill token fires or its timeout passes, the whole group gets SIGTERM, then
//! SIGKILL after [`RunControl::kill_grace`] if the main process is still there. When the main
//! process exits on its own, whatever is left in its group (background children of the script)
//! is SIGKILLed at once, so that nothing of an item outlives the item. The child is always
//! reaped. If the future of [`run_supervised`] is dropped half-way, the group is SIGKILLed and
//! the child is reaped in the background (a task waiting on its pidfd).
//!
//! # Output
//!
//! stdout and stderr are read concurrently, line by line. Each line is logged with
//! `tracing::info!` and the fields `job`, `item`, `command` and `stream` (`stdout` / `stderr`)
//! up to [`LOG_CAP`] bytes per stream; past the cap one "output truncated" line is logged and the
//! rest is read and dropped, so the child never blocks on a full pipe. With
//! [`StdoutMode::Capture`] stdout is collected instead (dataflow fetch); past the limit the
//! process is stopped and the run fails.

use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::unix::AsyncFd;
use tokio::io::{AsyncWriteExt, Interest};
use tokio::net::unix::pipe;
use tokio::runtime::Handle;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::oneshot;

pub use super::output::{LOG_CAP, OutputLabel};
use super::output::{LineLogger, SharedTails, Sink, Tails, format_bytes, pump};
use super::spawn::{self, SpawnSpec, Spawned};
use super::{ItemOutcome, RunControl};
use crate::task::OwnedTask;

/// The default limit of captured stdout ([`StdoutMode::Capture`]).
pub const CAPTURE_LIMIT: usize = 16 * 1024 * 1024;

/// How long the output readers may take to reach end of file once the process group is gone.
/// Only a process that left the group (`setsid`) and kept the pipe open makes them wait.
const DRAIN_WAIT: Duration = Duration::from_secs(2);

/// What happens to a child's stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StdoutMode {
    /// Logged line by line, like stderr.
    Log,
    /// Collected and returned in [`ProcessResult::stdout`]; more than `limit` bytes stop the
    /// process and fail the run.
    Capture {
        /// The most bytes kept.
        limit: usize,
    },
}

/// One command to run.
#[derive(Debug, Clone)]
pub struct Invocation {
    /// The program (looked up in `PATH` when it has no `/`) and its arguments.
    pub argv: Vec<String>,
    /// Variables added to the inherited environment.
    pub env: Vec<(String, String)>,
    /// Written to the child's stdin, which is then closed; `None` gives `/dev/null`.
    pub stdin: Option<Vec<u8>>,
    /// Stop the process (SIGTERM, then SIGKILL) when it runs longer.
    pub timeout: Option<Duration>,
    /// What happens to stdout.
    pub stdout: StdoutMode,
}

/// Why ejctl stopped a process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The run's timeout passed.
    Timeout(Duration),
    /// The run's kill token fired (the worker killed the item).
    Kill,
    /// Captured stdout went over this many bytes.
    StdoutLimit(usize),
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::Timeout(d) => write!(f, "timeout after {}s", d.as_secs_f64()),
            StopReason::Kill => f.write_str("killed"),
            StopReason::StdoutLimit(n) => write!(f, "stdout over {n} bytes"),
        }
    }
}

/// How a supervised process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProcessEnd {
    /// The process could not be started; the message says why.
    SpawnFailed(String),
    /// The process ended on its own with this status.
    Exited(ExitStatus),
    /// ejctl stopped the process; `status` is its final status (`None` if waiting failed).
    Stopped {
        /// Why it was stopped.
        reason: StopReason,
        /// The status it ended with.
        status: Option<ExitStatus>,
    },
    /// Waiting for the process failed (the process group was killed).
    WaitFailed(String),
}

/// The result of [`run_supervised`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessResult {
    /// How the process ended.
    pub end: ProcessEnd,
    /// The collected stdout with [`StdoutMode::Capture`] (empty otherwise).
    pub stdout: Vec<u8>,
    /// The last lines logged, stdout and stderr in arrival order (at most 4 KiB).
    pub output_tail: String,
    /// The last lines of stderr (at most 5).
    pub stderr_tail: String,
}

impl ProcessResult {
    fn spawn_failed(message: String) -> ProcessResult {
        ProcessResult::ended(ProcessEnd::SpawnFailed(message))
    }

    fn ended(end: ProcessEnd) -> ProcessResult {
        ProcessResult { end, stdout: Vec::new(), output_tail: String::new(), stderr_tail: String::new() }
    }

    /// The signal that ended the process, if one did.
    pub fn signal(&self) -> Option<i32> {
        match &self.end {
            ProcessEnd::Exited(status) | ProcessEnd::Stopped { status: Some(status), .. } => status.signal(),
            _ => None,
        }
    }

    /// The exit code, or 128 + the signal number when a signal ended the process; `None` when
    /// it never started or was never reaped.
    pub fn exit_code(&self) -> Option<i32> {
        match &self.end {
            ProcessEnd::Exited(status) | ProcessEnd::Stopped { status: Some(status), .. } => Some(exit_code(*status)),
            _ => None,
        }
    }

    /// True when the process ended on its own with exit code 0.
    pub fn success(&self) -> bool {
        matches!(&self.end, ProcessEnd::Exited(status) if status.code() == Some(0))
    }

    /// True when ejctl stopped the process because of a timeout or a kill.
    pub fn killed(&self) -> bool {
        matches!(&self.end, ProcessEnd::Stopped { reason: StopReason::Timeout(_) | StopReason::Kill, .. })
    }

    /// Why the run failed (`None` on success): `exit code 3`, `killed by signal 15 (exit 143)`,
    /// `timed out after 5s`, `killed by the worker`, a spawn error.
    pub fn failure(&self) -> Option<String> {
        match &self.end {
            ProcessEnd::SpawnFailed(message) | ProcessEnd::WaitFailed(message) => Some(message.clone()),
            ProcessEnd::Exited(status) => {
                if let Some(signal) = status.signal() {
                    Some(format!("killed by signal {signal} (exit {})", 128 + signal))
                } else {
                    match status.code() {
                        Some(0) => None,
                        Some(code) => Some(format!("exit code {code}")),
                        None => Some(format!("ended with {status}")),
                    }
                }
            }
            ProcessEnd::Stopped { reason, .. } => Some(match reason {
                StopReason::Timeout(after) => format!("timed out after {}", format_duration(*after)),
                StopReason::Kill => "killed by the worker".to_owned(),
                StopReason::StdoutLimit(limit) => format!("stdout went over the {} limit", format_bytes(*limit)),
            }),
        }
    }

    /// The item outcome for this result; `what` (e.g. `fetch command`) prefixes a failure
    /// message.
    pub fn to_outcome(&self, what: Option<&str>) -> ItemOutcome {
        let message = self.failure().map(|m| match what {
            Some(what) => format!("{what}: {m}"),
            None => m,
        });
        ItemOutcome {
            success: self.success(),
            exit_code: self.exit_code(),
            signal: self.signal(),
            message,
            killed: self.killed(),
            output_tail: self.output_tail.clone(),
            stderr_tail: self.stderr_tail.clone(),
        }
    }
}

/// The exit code of a status, or 128 + the signal number.
pub fn exit_code(status: ExitStatus) -> i32 {
    match (status.code(), status.signal()) {
        (Some(code), _) => code,
        (None, Some(signal)) => 128 + signal,
        (None, None) => -1,
    }
}

/// `5s`, or `1500ms` when the duration is not whole seconds.
pub fn format_duration(duration: Duration) -> String {
    if duration.subsec_nanos() == 0 {
        format!("{}s", duration.as_secs())
    } else {
        format!("{}ms", duration.as_millis())
    }
}

/// Runs one command under supervision (see the module docs) and returns once it and its process
/// group are gone. Never fails: a spawn error is [`ProcessEnd::SpawnFailed`] with a message
/// such as `cannot start '/path/x': No such file or directory (os error 2)`.
pub async fn run_supervised(invocation: Invocation, label: &OutputLabel, control: &RunControl) -> ProcessResult {
    let Invocation { argv, env, stdin, timeout, stdout: stdout_mode } = invocation;
    let Some(program) = argv.first() else {
        return ProcessResult::spawn_failed("cannot start a process: the command line is empty".to_owned());
    };
    if control.kill.is_cancelled() {
        // The run was killed before it started: start nothing.
        return ProcessResult::ended(ProcessEnd::Stopped { reason: StopReason::Kill, status: None });
    }
    let started = match SpawnSpec::new(&argv, &env, stdin.is_some()) {
        Ok(spec) => spawn(spec).await,
        Err(e) => Err(e),
    };
    let Started { mut child, stdin: stdin_fd, stdout, stderr } = match started {
        Ok(started) => started,
        Err(e) => return ProcessResult::spawn_failed(format!("cannot start '{program}': {e}")),
    };
    let pgid = child.pid;
    tracing::debug!(job = %label.job, item = label.item, command = label.command, pid = pgid.as_raw(), program = %program, "process started");
    let pipes = (
        stdin_fd.map(pipe::Sender::from_owned_fd).transpose(),
        pipe::Receiver::from_owned_fd(stdout),
        pipe::Receiver::from_owned_fd(stderr),
    );
    let (stdin_pipe, stdout_pipe, stderr_pipe) = match pipes {
        (Ok(stdin), Ok(stdout), Ok(stderr)) => (stdin, stdout, stderr),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
            // Dropping the child kills its group and reaps it.
            return ProcessResult::spawn_failed(format!("cannot connect to the pipes of '{program}': {e}"));
        }
    };

    let stdin_task = match (stdin, stdin_pipe) {
        (Some(data), Some(mut pipe)) => Some(OwnedTask::spawn(async move {
            // The child may exit without reading everything (EPIPE): not an error of the run.
            if let Err(e) = pipe.write_all(&data).await {
                tracing::debug!(error = %e, "child did not read all of its stdin");
            }
            drop(pipe);
        })),
        _ => None,
    };
    let (overflow_tx, mut overflow_rx) = oneshot::channel::<()>();
    let tails = SharedTails::default();
    let stdout_task = {
        let sink = match stdout_mode {
            StdoutMode::Log => Sink::Log(LineLogger::new(label.clone(), "stdout", Arc::clone(&tails))),
            StdoutMode::Capture { limit } => {
                Sink::Capture { data: Vec::new(), limit, overflow: Some(overflow_tx), overflowed: false }
            }
        };
        OwnedTask::spawn(pump(stdout_pipe, sink))
    };
    let stderr_task =
        OwnedTask::spawn(pump(stderr_pipe, Sink::Log(LineLogger::new(label.clone(), "stderr", Arc::clone(&tails)))));

    let first = {
        let limit = match stdout_mode {
            StdoutMode::Capture { limit } => limit,
            StdoutMode::Log => 0,
        };
        let deadline = async {
            match timeout {
                Some(after) => tokio::time::sleep(after).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            biased;
            status = child.wait() => Ok(status),
            () = control.kill.cancelled() => Err(StopReason::Kill),
            () = deadline => Err(StopReason::Timeout(timeout.unwrap_or_default())),
            Ok(()) = &mut overflow_rx => Err(StopReason::StdoutLimit(limit)),
        }
    };
    let mut end = match first {
        Ok(Ok(status)) => {
            // Background children of the script must not outlive the item.
            signal_group(pgid, Signal::SIGKILL);
            ProcessEnd::Exited(status)
        }
        Ok(Err(e)) => {
            signal_group(pgid, Signal::SIGKILL);
            ProcessEnd::WaitFailed(format!("cannot wait for '{program}': {e}"))
        }
        Err(reason) => {
            tracing::info!(job = %label.job, item = label.item, command = %label.command, pid = pgid.as_raw(), reason = %reason, "stopping process group");
            let status = terminate(&mut child, control.kill_grace).await;
            ProcessEnd::Stopped { reason, status }
        }
    };

    let stdout = match stdout_mode {
        StdoutMode::Capture { limit } => match (finish_task(stdout_task).await, &end) {
            (Some(captured), _) if !captured.overflowed => captured.data,
            // Output over the limit right before a normal exit: still a failure.
            (Some(_), ProcessEnd::Exited(status)) => {
                end = ProcessEnd::Stopped { reason: StopReason::StdoutLimit(limit), status: Some(*status) };
                Vec::new()
            }
            (None, ProcessEnd::Exited(_)) => {
                end = ProcessEnd::WaitFailed(format!(
                    "'{program}' left a process outside its process group holding its stdout open"
                ));
                Vec::new()
            }
            (_, _) => Vec::new(),
        },
        StdoutMode::Log => {
            let _ = finish_task(stdout_task).await;
            Vec::new()
        }
    };
    let _ = finish_task(stderr_task).await;
    // The child is gone; a writer still blocked on its stdin is aborted when dropped here.
    drop(stdin_task);
    let (output_tail, stderr_tail) = Tails::take(&tails);
    ProcessResult { end, stdout, output_tail, stderr_tail }
}

/// SIGTERM to the group, SIGKILL after `grace`, and SIGKILL for whatever is left once the main
/// process is gone. Returns the main process's status.
async fn terminate(child: &mut Child, grace: Duration) -> Option<ExitStatus> {
    let group = child.pid;
    signal_group(group, Signal::SIGTERM);
    let status = match tokio::time::timeout(grace, child.wait()).await {
        Ok(Ok(status)) => Some(status),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "cannot wait for a stopped process");
            None
        }
        Err(_) => {
            signal_group(group, Signal::SIGKILL);
            match child.wait().await {
                Ok(status) => Some(status),
                Err(e) => {
                    tracing::warn!(error = %e, "cannot wait for a killed process");
                    None
                }
            }
        }
    };
    signal_group(group, Signal::SIGKILL);
    status
}

/// Waits for an output reader to reach end of file, or gives up after [`DRAIN_WAIT`].
async fn finish_task<T>(mut task: OwnedTask<T>) -> Option<T> {
    match task.join_within(DRAIN_WAIT).await {
        Some(Ok(value)) => Some(value),
        Some(Err(e)) => {
            tracing::warn!(error = %e, "output reader failed");
            None
        }
        None => {
            tracing::warn!(
                "a process outside the item's process group still holds its output pipe; not waiting for it"
            );
            None
        }
    }
}

fn signal_group(pgid: Pid, signal: Signal) {
    match killpg(pgid, signal) {
        // The group is empty: everything already exited.
        Ok(()) | Err(Errno::ESRCH) => {}
        Err(e) => {
            tracing::warn!(pgid = pgid.as_raw(), signal = %signal.as_str(), error = %e, "cannot signal process group")
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Spawning

struct SpawnRequest {
    spec: SpawnSpec,
    reply: oneshot::Sender<io::Result<Started>>,
}

/// A started child and the worker's ends of its pipes. Dropped unclaimed (the run went away
/// while its reply was on the way), the child goes with it.
struct Started {
    child: Child,
    stdin: Option<OwnedFd>,
    stdout: OwnedFd,
    stderr: OwnedFd,
}

impl From<Spawned> for Started {
    fn from(Spawned { pid, stdin, stdout, stderr }: Spawned) -> Started {
        Started { child: Child::new(Pid::from_raw(pid)), stdin, stdout, stderr }
    }
}

/// How many spawner threads start children. Each is suspended until its child has exec'd (a few
/// hundred microseconds for a shell), so a few threads overlap what can overlap; more would only
/// hold stacks.
const SPAWNERS: usize = 4;

/// The channel to the spawner threads, started on first use.
fn spawner() -> &'static mpsc::Sender<SpawnRequest> {
    static SPAWNER: OnceLock<mpsc::Sender<SpawnRequest>> = OnceLock::new();
    SPAWNER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<SpawnRequest>();
        // If no thread can be started, `rx` is dropped and every spawn reports it.
        let requests = Arc::new(Mutex::new(rx));
        for n in 0..SPAWNERS {
            let requests = Arc::clone(&requests);
            let started =
                std::thread::Builder::new().name(format!("ejctl-spawner-{n}")).spawn(move || spawner_loop(&requests));
            if let Err(e) = started {
                tracing::error!(error = %e, "cannot start a process spawner thread");
            }
        }
        tx
    })
}

/// A spawner thread: starts children, so that their parent-death signal is tied to a thread
/// that lives as long as the process. The thread waiting for the next request holds the lock;
/// the others are starting children meanwhile.
fn spawner_loop(requests: &Mutex<mpsc::Receiver<SpawnRequest>>) {
    loop {
        let next = crate::sync::lock(requests).recv();
        let Ok(SpawnRequest { spec, reply }) = next else { return };
        // The requester is gone (its run was dropped while queued): start nothing.
        if reply.is_closed() {
            continue;
        }
        // If it goes away now, the child is dropped with the reply, which kills it. A spawn that
        // hangs in `exec` (a hung mount) holds its thread; the others go on.
        let _ = reply.send(spawn::spawn(&spec).map(Started::from));
    }
}

/// Starts `spec` in its own process group with the parent-death signal, on a spawner thread.
async fn spawn(spec: SpawnSpec) -> io::Result<Started> {
    let (reply, response) = oneshot::channel();
    spawner()
        .send(SpawnRequest { spec, reply })
        .map_err(|_| io::Error::other("the process spawner thread is not running"))?;
    response.await.map_err(|_| io::Error::other("the process spawner thread stopped"))?
}

/// A started child, the leader of its own process group. It is reaped when waited for; dropped
/// before that (its run was dropped half-way, or never took it from the spawner), its group is
/// SIGKILLed and it is reaped in the background.
struct Child {
    pid: Pid,
    /// Readable once the child has exited; `None` on a kernel without `pidfd_open`, where
    /// waiting listens for `SIGCHLD` instead.
    pidfd: Option<OwnedFd>,
    status: Option<ExitStatus>,
}

impl Child {
    fn new(pid: Pid) -> Child {
        Child { pid, pidfd: spawn::pidfd(pid.as_raw()).ok(), status: None }
    }

    /// Waits for the child to exit and reaps it. Cancel-safe.
    async fn wait(&mut self) -> io::Result<ExitStatus> {
        if let Some(status) = self.status {
            return Ok(status);
        }
        let status = ExitStatus::from_raw(wait_exit(self.pid, self.pidfd.as_ref()).await?);
        self.status = Some(status);
        Ok(status)
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        if self.status.is_some() {
            return;
        }
        let pid = self.pid;
        signal_group(pid, Signal::SIGKILL);
        if !matches!(spawn::try_reap(pid.as_raw()), Ok(None)) {
            return;
        }
        let pidfd = self.pidfd.take();
        match Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn(async move { wait_exit(pid, pidfd.as_ref()).await })),
            Err(_) => {
                drop(std::thread::Builder::new().name("ejctl-reaper".into()).spawn(move || spawn::reap(pid.as_raw())))
            }
        }
    }
}

/// Waits for `pid` to exit and reaps it: when its pidfd becomes readable, or on each `SIGCHLD`
/// without one. Cancel-safe.
async fn wait_exit(pid: Pid, pidfd: Option<&OwnedFd>) -> io::Result<i32> {
    match pidfd {
        Some(fd) => {
            let exit = watch_readable(fd.try_clone()?)?;
            loop {
                if let Some(status) = spawn::try_reap(pid.as_raw())? {
                    return Ok(status);
                }
                exit.readable().await?.clear_ready();
            }
        }
        None => {
            // Listening before the first look, so that an exit in between is not missed.
            let mut sigchld = signal(SignalKind::child())?;
            loop {
                if let Some(status) = spawn::try_reap(pid.as_raw())? {
                    return Ok(status);
                }
                if sigchld.recv().await.is_none() {
                    return Err(io::Error::other("SIGCHLD is no longer delivered"));
                }
            }
        }
    }
}

/// `fd` registered with the runtime for readability.
#[allow(unsafe_code)]
fn watch_readable(fd: OwnedFd) -> io::Result<AsyncFd<OwnedFd>> {
    // SAFETY: an `OwnedFd` stays open, as the same descriptor, for as long as it is owned.
    Ok(unsafe { AsyncFd::register_with_interest(fd, Interest::READABLE) }?)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;
    use std::path::{Path, PathBuf};
    use std::time::Instant;

    use super::*;

    fn label() -> OutputLabel {
        OutputLabel { job: "job".to_owned(), item: 0, command: "script" }
    }

    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    fn invocation(path: &Path) -> Invocation {
        Invocation {
            argv: vec![path.to_string_lossy().into_owned()],
            env: Vec::new(),
            stdin: None,
            timeout: None,
            stdout: StdoutMode::Log,
        }
    }

    fn control(grace: Duration) -> RunControl {
        let mut control = RunControl::detached();
        control.kill_grace = grace;
        control
    }

    /// True while `pid` exists and is not a zombie.
    fn alive(pid: i32) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Ok(stat) => stat.rsplit_once(')').map(|(_, rest)| !rest.trim_start().starts_with('Z')).unwrap_or(false),
            Err(_) => false,
        }
    }

    /// True once `done` holds, polled every 20 ms for up to a second: what is observed here is
    /// another process's state in /proc, which sends no event.
    async fn soon(done: impl Fn() -> bool) -> bool {
        for _ in 0..50 {
            if done() {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        false
    }

    async fn gone_soon(pid: i32) -> bool {
        soon(|| !alive(pid)).await
    }

    async fn read_pid(path: &Path) -> i32 {
        for _ in 0..200 {
            if let Ok(text) = std::fs::read_to_string(path)
                && let Ok(pid) = text.trim().parse()
            {
                return pid;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("no pid in {}", path.display());
    }

    #[tokio::test]
    async fn exit_codes() {
        let dir = tempfile::tempdir().unwrap();
        let ok =
            run_supervised(invocation(&script(dir.path(), "ok", "exit 0")), &label(), &control(Duration::from_secs(1)))
                .await;
        assert!(ok.success());
        assert_eq!(ok.exit_code(), Some(0));
        assert_eq!(ok.failure(), None);

        let three = run_supervised(
            invocation(&script(dir.path(), "three", "exit 3")),
            &label(),
            &control(Duration::from_secs(1)),
        )
        .await;
        assert!(!three.success());
        assert!(!three.killed());
        assert_eq!(three.exit_code(), Some(3));
        assert_eq!(three.failure().as_deref(), Some("exit code 3"));
        let outcome = three.to_outcome(Some("fetch command"));
        assert_eq!(outcome.message.as_deref(), Some("fetch command: exit code 3"));
        assert_eq!(outcome.exit_code, Some(3));

        let term = run_supervised(
            invocation(&script(dir.path(), "term", "kill -TERM $$")),
            &label(),
            &control(Duration::from_secs(1)),
        )
        .await;
        assert_eq!(term.exit_code(), Some(143));
        assert_eq!(term.failure().as_deref(), Some("killed by signal 15 (exit 143)"));
        assert!(!term.killed());
    }

    #[tokio::test]
    async fn spawn_failures() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing");
        let result = run_supervised(invocation(&missing), &label(), &RunControl::detached()).await;
        assert_eq!(
            result.failure(),
            Some(format!("cannot start '{}': No such file or directory (os error 2)", missing.display()))
        );
        assert_eq!(result.exit_code(), None);

        let not_executable = dir.path().join("plain");
        std::fs::write(&not_executable, "#!/bin/sh\n").unwrap();
        let result = run_supervised(invocation(&not_executable), &label(), &RunControl::detached()).await;
        assert_eq!(
            result.failure(),
            Some(format!("cannot start '{}': Permission denied (os error 13)", not_executable.display()))
        );

        let empty = Invocation { argv: Vec::new(), ..invocation(&missing) };
        let result = run_supervised(empty, &label(), &RunControl::detached()).await;
        assert!(matches!(result.end, ProcessEnd::SpawnFailed(_)));

        let nul = Invocation { argv: vec!["/bin/echo".to_owned(), "a\0b".to_owned()], ..invocation(&missing) };
        let result = run_supervised(nul, &label(), &RunControl::detached()).await;
        assert_eq!(result.failure(), Some("cannot start '/bin/echo': an argument contains a NUL byte".to_owned()));
    }

    /// The child starts as `std` would start it: no signal blocked, SIGPIPE not ignored (Rust
    /// ignores it in the worker), its own process group, the worker's environment with the
    /// invocation's variables, and `PATH` searched for a bare name.
    #[tokio::test]
    async fn the_child_starts_clean() {
        let (label, control) = (label(), RunControl::detached());
        let run = |argv: &[&str]| {
            let invocation = Invocation {
                argv: argv.iter().map(|a| (*a).to_owned()).collect(),
                env: vec![("EXTRA".to_owned(), "extra".to_owned())],
                stdin: None,
                timeout: None,
                stdout: StdoutMode::Capture { limit: CAPTURE_LIMIT },
            };
            run_supervised(invocation, &label, &control)
        };
        // `grep` itself is the child here (a shell blocks signals around its own forks).
        let result = run(&["grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status"]).await;
        assert!(result.success(), "{result:?}");
        let out = String::from_utf8(result.stdout).unwrap();
        let lines: Vec<&str> = out.lines().map(str::trim).collect();
        assert_eq!(lines[0], "SigBlk:\t0000000000000000", "{out}");
        let ignored = u64::from_str_radix(lines[1].trim_start_matches("SigIgn:\t"), 16).unwrap();
        assert_eq!(ignored & (1 << (libc::SIGPIPE - 1)), 0, "SIGPIPE is not ignored: {out}");

        let result = run(&["sh", "-c", "ps -o pgid= -p $$; echo $$; echo \"$EXTRA $HOME\""]).await;
        assert!(result.success(), "{result:?}");
        let out = String::from_utf8(result.stdout).unwrap();
        let lines: Vec<&str> = out.lines().map(str::trim).collect();
        assert_eq!(lines[0], lines[1], "the child leads its own group: {out}");
        assert_eq!(lines[2], format!("extra {}", std::env::var("HOME").unwrap_or_default()));
    }

    /// A script without `#!` is run by `/bin/sh`, as `execvp` does.
    #[tokio::test]
    async fn a_script_without_an_interpreter_line_runs_in_sh() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bare");
        std::fs::write(&path, "echo bare\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        let result = run_supervised(
            Invocation { stdout: StdoutMode::Capture { limit: CAPTURE_LIMIT }, ..invocation(&path) },
            &label(),
            &RunControl::detached(),
        )
        .await;
        assert!(result.success(), "{result:?}");
        assert_eq!(result.stdout, b"bare\n");
    }

    /// A child nobody took (its run was dropped between the spawn and the reply) is killed and
    /// reaped.
    #[tokio::test]
    async fn a_child_nobody_takes_is_killed_and_reaped() {
        let spec = SpawnSpec::new(&["sleep".to_owned(), "1000".to_owned()], &[], false).unwrap();
        let started = spawn(spec).await.unwrap();
        let pid = started.child.pid.as_raw();
        assert!(alive(pid));
        drop(started);
        let reaped = soon(|| !std::path::Path::new(&format!("/proc/{pid}")).exists()).await;
        assert!(reaped, "child {pid} is still there");
    }

    /// Without a pidfd (a kernel older than 5.3), a child is waited for on `SIGCHLD`.
    #[tokio::test]
    async fn waiting_without_a_pidfd() {
        let spec = SpawnSpec::new(&["sh".to_owned(), "-c".to_owned(), "sleep 0.2; exit 3".to_owned()], &[], false);
        let mut child = spawn(spec.unwrap()).await.unwrap().child;
        child.pidfd = None;
        assert_eq!(child.wait().await.unwrap().code(), Some(3));
    }

    #[tokio::test]
    async fn timeout_kills_the_whole_group() {
        let dir = tempfile::tempdir().unwrap();
        let pids = dir.path().join("pids");
        let path = script(dir.path(), "slow", &format!("sleep 1000 &\necho $! > {}\nwait", pids.display()));
        let started = Instant::now();
        let result = run_supervised(
            Invocation { timeout: Some(Duration::from_millis(300)), ..invocation(&path) },
            &label(),
            &control(Duration::from_secs(5)),
        )
        .await;
        assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
        assert!(result.killed());
        assert_eq!(result.failure().as_deref(), Some("timed out after 300ms"));
        assert_eq!(result.exit_code(), Some(143));
        let sleeper = read_pid(&pids).await;
        assert!(gone_soon(sleeper).await, "background sleep {sleeper} survived");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn background_children_die_with_the_item() {
        let dir = tempfile::tempdir().unwrap();
        let pids = dir.path().join("pids");
        let path = script(dir.path(), "bg", &format!("sleep 1000 &\necho $! > {}\necho done", pids.display()));
        let started = Instant::now();
        let result = run_supervised(invocation(&path), &label(), &control(Duration::from_secs(5))).await;
        assert!(result.success(), "{result:?}");
        assert!(started.elapsed() < Duration::from_secs(3));
        let sleeper = read_pid(&pids).await;
        assert!(gone_soon(sleeper).await, "background sleep {sleeper} survived");
    }

    #[tokio::test]
    async fn kill_token_stops_promptly_and_escalates() {
        let dir = tempfile::tempdir().unwrap();
        // Ignores SIGTERM: only the SIGKILL after the grace period ends it.
        let path = script(dir.path(), "stubborn", "trap '' TERM\nwhile true; do sleep 0.05; done");
        let control = control(Duration::from_millis(300));
        let kill = control.kill.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            kill.cancel();
        });
        let started = Instant::now();
        let result = run_supervised(invocation(&path), &label(), &control).await;
        let elapsed = started.elapsed();
        assert!(elapsed >= Duration::from_millis(450) && elapsed < Duration::from_secs(3), "{elapsed:?}");
        assert!(result.killed());
        assert_eq!(result.exit_code(), Some(137));
        assert_eq!(result.failure().as_deref(), Some("killed by the worker"));
        let outcome = result.to_outcome(None);
        assert!(outcome.killed && !outcome.success);
    }

    #[tokio::test]
    async fn kill_token_with_cooperative_process() {
        let dir = tempfile::tempdir().unwrap();
        let path = script(dir.path(), "sleepy", "exec sleep 1000");
        let control = control(Duration::from_secs(5));
        let kill = control.kill.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(100)).await;
            kill.cancel();
        });
        let started = Instant::now();
        let result = run_supervised(invocation(&path), &label(), &control).await;
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(result.killed());
        assert_eq!(result.exit_code(), Some(143));
    }

    #[tokio::test]
    async fn dropping_the_run_kills_the_group() {
        let dir = tempfile::tempdir().unwrap();
        let pids = dir.path().join("pids");
        let path = script(dir.path(), "dropped", &format!("sleep 1000 &\necho $! > {}\nwait", pids.display()));
        let (label, control) = (label(), RunControl::detached());
        let run = run_supervised(invocation(&path), &label, &control);
        assert!(tokio::time::timeout(Duration::from_millis(300), run).await.is_err());
        let sleeper = read_pid(&pids).await;
        assert!(gone_soon(sleeper).await, "background sleep {sleeper} survived");
    }

    #[tokio::test]
    async fn killed_before_start_starts_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("ran");
        let path = script(dir.path(), "marker", &format!("touch {}", marker.display()));
        let control = RunControl::detached();
        control.kill.cancel();
        let result = run_supervised(invocation(&path), &label(), &control).await;
        assert!(result.killed());
        assert_eq!(result.exit_code(), None);
        assert!(!marker.exists());
    }

    #[tokio::test]
    async fn capture_stdin_and_stdout() {
        let dir = tempfile::tempdir().unwrap();
        let path = script(dir.path(), "cat", "cat; echo err >&2; echo \"$EXTRA\"");
        let result = run_supervised(
            Invocation {
                stdin: Some(b"line 1\nline 2\n".to_vec()),
                env: vec![("EXTRA".to_owned(), "extra value".to_owned())],
                stdout: StdoutMode::Capture { limit: CAPTURE_LIMIT },
                ..invocation(&path)
            },
            &label(),
            &RunControl::detached(),
        )
        .await;
        assert!(result.success());
        assert_eq!(result.stdout, b"line 1\nline 2\nextra value\n");
    }

    #[tokio::test]
    async fn capture_limit_fails_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let path = script(dir.path(), "chatty", "while true; do echo 0123456789; done");
        let result = run_supervised(
            Invocation { stdout: StdoutMode::Capture { limit: 1024 }, ..invocation(&path) },
            &label(),
            &control(Duration::from_secs(1)),
        )
        .await;
        assert!(!result.success());
        assert!(!result.killed());
        assert_eq!(result.failure().as_deref(), Some("stdout went over the 1 KiB limit"));
        assert!(result.stdout.len() <= 1024);
    }

    #[tokio::test]
    async fn capture_limit_fails_a_quick_exit_too() {
        let dir = tempfile::tempdir().unwrap();
        let path = script(dir.path(), "burst", "head -c 2000 /dev/zero");
        for _ in 0..5 {
            let result = run_supervised(
                Invocation { stdout: StdoutMode::Capture { limit: 1024 }, ..invocation(&path) },
                &label(),
                &control(Duration::from_secs(1)),
            )
            .await;
            assert!(!result.success(), "{result:?}");
            assert_eq!(result.failure().as_deref(), Some("stdout went over the 1 KiB limit"));
        }
    }

    #[tokio::test]
    async fn large_logged_output_does_not_block() {
        let dir = tempfile::tempdir().unwrap();
        // About 1 MiB on each stream, far over the log cap and any pipe buffer.
        let path = script(
            dir.path(),
            "loud",
            "i=0; while [ $i -lt 20000 ]; do echo 'some output line of fifty bytes or so..........'; echo 'err' >&2; i=$((i+1)); done",
        );
        let result = run_supervised(invocation(&path), &label(), &RunControl::detached()).await;
        assert!(result.success(), "{result:?}");
    }

    #[test]
    fn durations_and_sizes() {
        assert_eq!(format_duration(Duration::from_secs(5)), "5s");
        assert_eq!(format_duration(Duration::from_millis(1500)), "1500ms");
        assert_eq!(format_bytes(16 * 1024 * 1024), "16 MiB");
        assert_eq!(format_bytes(64 * 1024), "64 KiB");
        assert_eq!(format_bytes(100), "100 bytes");
    }

    /// Runs inside a child test process started by `worker_death_kills_the_child`: starts a
    /// supervised sleep and waits forever. Does nothing in a normal test run.
    #[tokio::test]
    async fn pdeathsig_helper() {
        let Ok(dir) = std::env::var("EJCTL_TEST_PDEATHSIG_DIR") else { return };
        let dir = PathBuf::from(dir);
        let path = script(&dir, "child", &format!("echo $$ > {}\nexec sleep 1000", dir.join("pid").display()));
        let _ = run_supervised(invocation(&path), &label(), &RunControl::detached()).await;
    }

    #[tokio::test]
    async fn worker_death_kills_the_child() {
        let dir = tempfile::tempdir().unwrap();
        let exe = std::env::current_exe().unwrap();
        let mut worker = std::process::Command::new(exe)
            .args(["--exact", "exec::process::tests::pdeathsig_helper", "--nocapture", "--test-threads=1"])
            .env("EJCTL_TEST_PDEATHSIG_DIR", dir.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let child = read_pid(&dir.path().join("pid")).await;
        assert!(alive(child));
        worker.kill().unwrap();
        worker.wait().unwrap();
        if !gone_soon(child).await {
            let _ = nix::sys::signal::kill(Pid::from_raw(child), Signal::SIGKILL);
            panic!("child {child} outlived its worker");
        }
    }
}
