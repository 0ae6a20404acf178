//! `ejctl run JOB_FILE...`: the worker runtime.
//!
//! Loads and validates every job file before anything touches a registry, starts a
//! [`Worker`] for all their jobs in this process, and runs until SIGINT or SIGTERM: the first
//! signal stops new fires, lets running items finish (`[instance] shutdown_timeout_seconds`) and
//! leaves the registry, exiting 0; a second signal kills running items and exits 130 at once.
//! Under systemd `Type=notify` it sends `READY=1` once every job is registered and
//! `STOPPING=1` on the first signal.
//! The registry comes from the files' `[registry]` table (the global `--zk` options do not apply);
//! without one, the embedded in-process registry is used.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use tokio::sync::watch;

use crate::exit::{CliError, Exit};
use crate::jobfile;
use crate::registry::embedded::EmbeddedStore;
use crate::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};

/// Arguments of `ejctl run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Job files (TOML); all their jobs run in this process.
    #[arg(required = true, value_name = "JOB_FILE")]
    pub files: Vec<PathBuf>,
    /// Log format on stderr.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// How logs are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// Runs `ejctl run`.
///
/// # Errors
/// A bad job file (exit 2), an unreachable registry (exit 5), a failed start.
pub async fn exec(args: RunArgs) -> Result<Exit> {
    let files = jobfile::load(&args.files).map_err(|e| CliError::usage(e.to_string()))?;
    for warning in &files.warnings {
        tracing::warn!("{warning}");
    }
    let registry = match &files.registry {
        Some(section) => RegistryTarget::ZooKeeper(section.zk_options()),
        None => RegistryTarget::Embedded(EmbeddedStore::new()),
    };
    let jobs_count = files.jobs.len();
    let jobs = files.jobs.into_iter().map(|j| JobDefinition::new(j.job_type, j.config)).collect();
    let mut config = WorkerConfig::new(registry, jobs);
    config.ip = files.instance.ip.clone();
    config.dump_port = files.instance.dump_port;
    config.dump_address = files.instance.dump_address;
    config.http = files.instance.http;
    config.shutdown_timeout = files.instance.shutdown_timeout;
    config.kill_grace = files.instance.kill_grace;
    config.fencing_timeout = files.registry.as_ref().and_then(|r| r.fencing_timeout);
    config.trace = files.trace.clone();
    let signals = signal_counter()?;
    let worker = Worker::start(config).await?;
    // systemd `Type=notify` (a no-op without NOTIFY_SOCKET): ready once every job is registered.
    notify(&[sd_notify::NotifyState::Status(&format!("running {jobs_count} jobs")), sd_notify::NotifyState::Ready]);
    let first_signal = wait_for(signals.clone(), 1);
    let first = async {
        first_signal.await;
        notify(&[sd_notify::NotifyState::Stopping]);
    };
    let second = wait_for(signals, 2);
    let forced = worker.run_until(first, second).await;
    Ok(if forced { Exit::Interrupted } else { Exit::Ok })
}

/// Tells systemd the service state; a failure to tell is logged, never fatal.
fn notify(state: &[sd_notify::NotifyState]) {
    if let Err(e) = sd_notify::notify(state) {
        tracing::warn!(error = %e, "cannot notify systemd (NOTIFY_SOCKET)");
    }
}

/// Counts SIGINT and SIGTERM deliveries.
fn signal_counter() -> Result<watch::Receiver<u32>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    let (tx, rx) = watch::channel(0u32);
    tokio::spawn(async move {
        loop {
            tokio::select! {
                Some(()) = interrupt.recv() => {}
                Some(()) = terminate.recv() => {}
                else => return,
            }
            tx.send_modify(|n| *n += 1);
            if tx.is_closed() {
                return;
            }
        }
    });
    Ok(rx)
}

async fn wait_for(mut signals: watch::Receiver<u32>, n: u32) {
    if signals.wait_for(|count| *count >= n).await.is_err() {
        std::future::pending::<()>().await;
    }
}
