//! Supervised child processes: the one place where ejctl starts, watches and kills the
//! processes of script and dataflow jobs (SPEC §2 point 8, §2a point 2).
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
//!   `getppid()` with the worker's pid: if the worker died between `fork` and `prctl`, the child
//!   was already re-parented and the signal would never come, so it refuses to start.
//! * The kernel sends the death signal when the **thread** that forked the child exits, not when
//!   the process does. Forking from tokio's blocking pool (whose threads exit after ten idle
//!   seconds) would kill healthy scripts, so every child is forked by one of a few dedicated
//!   std threads, `ejctl-spawner-{n}`, started on first use and never ended. They take spawn
//!   requests from one channel, enter the requesting task's tokio runtime
//!   (`tokio::process::Command::spawn` registers the child's pipes and its exit with a runtime)
//!   and reply with the `tokio::process::Child` or the error. A spawn holds its thread until the
//!   child has exec'd (that is how an exec failure is reported), so a fire of many items is
//!   spawned by several threads side by side rather than one after another.
//! * The death signal covers the direct child only. The script's own children (`cmd &`) are
//!   killed with the group while the worker lives (see below), but if the worker is SIGKILLed
//!   while a script has background children, those children are re-parented and survive. The
//!   signal is also cleared by the kernel when the child execs a set-user-id binary.
//! * `pre_exec` forces `fork` + `exec` instead of `posix_spawn`; that is the price of the
//!   death signal.
//!
//! # Stopping
//!
//! When the run's kill token fires or its timeout passes, the whole group gets SIGTERM, then
//! SIGKILL after [`RunControl::kill_grace`] if the main process is still there. When the main
//! process exits on its own, whatever is left in its group (background children of the script)
//! is SIGKILLed at once, so that nothing of an item outlives the item. The child is always
//! reaped. If the future of [`run_supervised`] is dropped half-way, the group is SIGKILLed and
//! tokio reaps the child in the background.
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
use std::os::unix::process::ExitStatusExt;
use std::process::{ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::{Pid, getpid, getppid};
use tokio::io::AsyncWriteExt;
use tokio::process::{Child, Command};
use tokio::runtime::Handle;
use tokio::sync::oneshot;

pub use super::output::{LOG_CAP, OutputLabel};
use super::output::{LineLogger, SharedTails, Sink, Tails, format_bytes, pump};
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
    let mut command = Command::new(program);
    command
        .args(argv.iter().skip(1))
        .envs(env)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match spawn(command).await {
        Ok(child) => child,
        Err(e) => return ProcessResult::spawn_failed(format!("cannot start '{program}': {e}")),
    };
    let Some(pgid) = child.id().and_then(|id| i32::try_from(id).ok()).map(Pid::from_raw) else {
        // Cannot happen: the child is not reaped before we wait for it.
        let _ = child.start_kill();
        return ProcessResult::spawn_failed(format!("cannot start '{program}': the child has no pid"));
    };
    let mut group = GroupGuard { pgid: Some(pgid) };
    tracing::debug!(job = %label.job, item = label.item, command = label.command, pid = pgid.as_raw(), program = %program, "process started");

    let stdin_task = match (stdin, child.stdin.take()) {
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
    let stdout_task = child.stdout.take().map(|pipe| {
        let sink = match stdout_mode {
            StdoutMode::Log => Sink::Log(LineLogger::new(label.clone(), "stdout", Arc::clone(&tails))),
            StdoutMode::Capture { limit } => {
                Sink::Capture { data: Vec::new(), limit, overflow: Some(overflow_tx), overflowed: false }
            }
        };
        OwnedTask::spawn(pump(pipe, sink))
    });
    let stderr_task = child.stderr.take().map(|pipe| {
        OwnedTask::spawn(pump(pipe, Sink::Log(LineLogger::new(label.clone(), "stderr", Arc::clone(&tails)))))
    });

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
            group.signal(Signal::SIGKILL);
            ProcessEnd::Exited(status)
        }
        Ok(Err(e)) => {
            group.signal(Signal::SIGKILL);
            ProcessEnd::WaitFailed(format!("cannot wait for '{program}': {e}"))
        }
        Err(reason) => {
            tracing::info!(job = %label.job, item = label.item, command = %label.command, pid = pgid.as_raw(), reason = %reason, "stopping process group");
            let status = terminate(&mut child, &group, control.kill_grace).await;
            ProcessEnd::Stopped { reason, status }
        }
    };
    group.disarm();

    let stdout = match (stdout_task.map(finish_task), stdout_mode) {
        (Some(task), StdoutMode::Capture { limit }) => match (task.await, &end) {
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
        (Some(task), StdoutMode::Log) => {
            let _ = task.await;
            Vec::new()
        }
        (None, _) => Vec::new(),
    };
    if let Some(task) = stderr_task {
        let _ = finish_task(task).await;
    }
    // The child is gone; a writer still blocked on its stdin is aborted when dropped here.
    drop(stdin_task);
    let (output_tail, stderr_tail) = Tails::take(&tails);
    ProcessResult { end, stdout, output_tail, stderr_tail }
}

/// SIGTERM to the group, SIGKILL after `grace`, and SIGKILL for whatever is left once the main
/// process is gone. Returns the main process's status.
async fn terminate(child: &mut Child, group: &GroupGuard, grace: Duration) -> Option<ExitStatus> {
    group.signal(Signal::SIGTERM);
    let status = match tokio::time::timeout(grace, child.wait()).await {
        Ok(Ok(status)) => Some(status),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "cannot wait for a stopped process");
            None
        }
        Err(_) => {
            group.signal(Signal::SIGKILL);
            match child.wait().await {
                Ok(status) => Some(status),
                Err(e) => {
                    tracing::warn!(error = %e, "cannot wait for a killed process");
                    None
                }
            }
        }
    };
    group.signal(Signal::SIGKILL);
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

/// Signals the child's process group; while armed, SIGKILLs it when dropped (the run's future
/// was dropped half-way).
struct GroupGuard {
    pgid: Option<Pid>,
}

impl GroupGuard {
    fn signal(&self, signal: Signal) {
        if let Some(pgid) = self.pgid {
            signal_group(pgid, signal);
        }
    }

    fn disarm(&mut self) {
        self.pgid = None;
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.signal(Signal::SIGKILL);
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
    command: Command,
    runtime: Handle,
    reply: oneshot::Sender<io::Result<Child>>,
}

/// How many spawner threads fork children. Each waits for its child's `exec` (a few hundred
/// microseconds for a shell) and the kernel serialises the `fork`s' copies of the address space,
/// so a few threads overlap what can overlap; more would only hold stacks.
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

/// A spawner thread: forks children, so that their parent-death signal is tied to a thread
/// that lives as long as the process. The thread waiting for the next request holds the lock;
/// the others are forking meanwhile.
fn spawner_loop(requests: &Mutex<mpsc::Receiver<SpawnRequest>>) {
    loop {
        let next = requests.lock().unwrap_or_else(std::sync::PoisonError::into_inner).recv();
        let Ok(SpawnRequest { mut command, runtime, reply }) = next else { return };
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _entered = runtime.enter();
            command.spawn()
        }))
        .unwrap_or_else(|_| Err(io::Error::other("spawning panicked (the tokio runtime has no process support)")));
        if let Err(Ok(child)) = reply.send(result) {
            // The requester is gone: `kill_on_drop` kills the child and tokio reaps it.
            let _entered = runtime.enter();
            drop(child);
        }
    }
}

/// Starts `command` in its own process group with the parent-death signal, on the spawner thread.
async fn spawn(mut command: Command) -> io::Result<Child> {
    let runtime = Handle::try_current().map_err(|_| io::Error::other("no tokio runtime to run the process on"))?;
    command.process_group(0).kill_on_drop(true);
    install_child_setup(&mut command, getpid());
    let (reply, response) = oneshot::channel();
    spawner()
        .send(SpawnRequest { command, runtime, reply })
        .map_err(|_| io::Error::other("the process spawner thread is not running"))?;
    response.await.map_err(|_| io::Error::other("the process spawner thread stopped"))?
}

// `pre_exec` is unsafe because its closure runs in the forked child before `exec`, where only
// async-signal-safe operations are allowed. `child_setup` makes two raw syscalls (`prctl`,
// `getppid`) through nix, captures a plain `Pid` by value, and builds its error from an errno
// without allocating; it touches no lock, allocator or shared state.
#[allow(unsafe_code)]
fn install_child_setup(command: &mut Command, parent: Pid) {
    // SAFETY: see the comment above; the closure is async-signal-safe.
    unsafe {
        command.pre_exec(move || child_setup(parent));
    }
}

/// Runs in the child between `fork` and `exec`.
fn child_setup(parent: Pid) -> io::Result<()> {
    nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
    // The parent died before the prctl: the child was re-parented and no signal will come.
    if getppid() != parent {
        return Err(Errno::ESRCH.into());
    }
    Ok(())
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

    async fn gone_soon(pid: i32) -> bool {
        for _ in 0..50 {
            if !alive(pid) {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        false
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
            .stdout(Stdio::null())
            .stderr(Stdio::null())
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
