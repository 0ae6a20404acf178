//! `ejctl run JOB_FILE...`: the worker runtime.
//!
//! Loads and validates every job file before anything touches a registry, starts a
//! [`Worker`] for all their jobs in this process, and runs until SIGINT or SIGTERM: the first
//! signal stops new fires, lets running items finish (`[instance] shutdown_timeout_seconds`) and
//! leaves the registry, exiting 0; a second signal kills running items and exits 130 at once.
//! Under systemd `Type=notify` it sends `READY=1` once every job is registered and
//! `STOPPING=1` on the first signal.
//!
//! The registry is, field by field, the first of: `--zk`, `--namespace`, `--digest`, `--tls-*`,
//! `--connect-timeout` or their `EJCTL_*` variables; a context named with `--context` /
//! `EJCTL_CONTEXT`; the files' `[registry]` table. The current context is not used (a worker on
//! an operator's machine must not join the cluster the operator last looked at). Without any,
//! the embedded in-process registry is used. The choice and where it came from are logged at
//! start-up. The instance IP is `--ip` / `EJCTL_INSTANCE_IP`, else `[instance] ip`, else detected,
//! so one set of job files serves a whole fleet.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use tokio::sync::watch;

use super::context::{self, Layer};
use super::global::{GlobalArgs, NeverAsks, RegistryArgs};
use crate::exit::{CliError, Exit};
use crate::jobfile::{self, WorkerFiles};
use crate::registry::embedded::EmbeddedStore;
use crate::registry::path::is_ipv4;
use crate::registry::{ZkOptions, ZkTls};
use crate::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};

mod memory;

/// Arguments of `ejctl run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Job files (TOML); all their jobs run in this process. A file may hold only an
    /// `[instance]` (or `[registry]`) table, for settings that differ per host.
    #[arg(required = true, value_name = "JOB_FILE")]
    pub files: Vec<PathBuf>,
    /// The IPv4 address in this worker's instance id (`IP@-@PID`); overrides `[instance] ip`.
    #[arg(long, env = "EJCTL_INSTANCE_IP", value_name = "IPV4")]
    pub ip: Option<String>,
    /// Log format on stderr.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Registry options; they win over the files' `[registry]` table.
    #[command(flatten)]
    pub registry: RegistryArgs,
    /// `--yes`, which changes nothing here.
    #[command(flatten)]
    pub yes: NeverAsks,
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
pub async fn exec(global: &GlobalArgs, args: RunArgs) -> Result<Exit> {
    let files = jobfile::load(&args.files).map_err(|e| CliError::usage(e.to_string()))?;
    for warning in &files.warnings {
        tracing::warn!("{warning}");
    }
    let ip = match args.ip.as_deref().map(str::trim).filter(|ip| !ip.is_empty()) {
        Some(ip) if is_ipv4(ip) => Some(ip.to_string()),
        Some(ip) => {
            return Err(CliError::usage(format!("--ip '{ip}' is not an IPv4 address (such as 10.0.0.5)")).into());
        }
        None => files.instance.ip.clone(),
    };
    let registry = choose_registry(global, &files)?;
    let jobs_count = files.jobs.len();
    let jobs = files.jobs.into_iter().map(|j| JobDefinition::new(j.job_type, j.config)).collect();
    let mut config = WorkerConfig::new(registry, jobs);
    config.ip = ip;
    config.dump_port = files.instance.dump_port;
    config.dump_address = files.instance.dump_address;
    config.http = files.instance.http;
    config.shutdown_timeout = files.instance.shutdown_timeout;
    config.fencing_timeout = files.registry.as_ref().and_then(|r| r.fencing_timeout);
    // A grace the files do not write fits below the session timeout the worker asks for (the
    // fencing timeout defaults to half of it, as in the runtime), so that only written values
    // can draw the runtime's warning about fencing timeout + kill grace.
    config.kill_grace = files.instance.kill_grace.unwrap_or_else(|| match &config.registry {
        RegistryTarget::ZooKeeper(options) => {
            let fencing = config.fencing_timeout.unwrap_or(options.session_timeout / 2);
            jobfile::kill_grace(options.session_timeout, fencing)
        }
        RegistryTarget::Embedded(_) => jobfile::DEFAULT_KILL_GRACE,
    });
    config.trace = files.trace.clone();
    config.prune_servers_after = files.instance.prune_servers_after;
    let signals = signal_counter()?;
    let worker = Worker::start(config).await?;
    memory::flush_thread_cache();
    let _trim = crate::task::OwnedTask::spawn(memory::trim_periodically());
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

/// The worker's registry ([module docs](self)), logged with the reason it was chosen.
///
/// # Errors
/// A usage error for a registry without a namespace or TLS files without a CA.
fn choose_registry(global: &GlobalArgs, files: &WorkerFiles) -> Result<RegistryTarget, CliError> {
    let file_layer = files.registry.as_ref().map(Layer::from_section);
    let (layer, source) = context::for_worker(global, file_layer.as_ref());
    let (Some(servers), Some(source)) = (layer.zk.clone().filter(|s| !s.trim().is_empty()), source) else {
        let mut why = "no --zk, EJCTL_ZK, --context or [registry] table in the job files".to_string();
        if let Some(name) = context::unused_current_context() {
            why.push_str(&format!(
                "; the current context '{name}' is used by `ejctl run` only when named with --context"
            ));
        }
        tracing::info!("registry: the embedded in-process registry, which coordinates this process only ({why})");
        return Ok(RegistryTarget::Embedded(EmbeddedStore::new()));
    };
    let namespace = layer.namespace.clone().filter(|n| !n.trim().is_empty()).ok_or_else(|| {
        CliError::usage(format!(
            "the registry {servers} (from {source}) has no namespace: pass --namespace NAME or set EJCTL_NAMESPACE"
        ))
    })?;
    let mut options = match &files.registry {
        Some(section) => section.zk_options(),
        None => {
            let mut o = ZkOptions::new(&servers, &namespace);
            o.create_namespace = true;
            o
        }
    };
    options.servers = servers.trim().to_string();
    options.namespace = namespace.trim().trim_matches('/').to_string();
    options.digest = layer.digest.clone().filter(|d| !d.is_empty());
    let path = |p: &Option<String>| p.clone().filter(|p| !p.is_empty()).map(PathBuf::from);
    options.tls = match (path(&layer.tls_ca), path(&layer.tls_cert), path(&layer.tls_key)) {
        (None, None, None) => None,
        (Some(ca), cert, key) => Some(ZkTls { ca, cert, key }),
        (None, _, _) => return Err(CliError::usage("--tls-cert and --tls-key need --tls-ca")),
    };
    if let Some(t) = layer.connect_timeout {
        options.connection_timeout = t;
    }
    let how = |id: &str, what: &str| global.origins.get(id).map(|o| format!(", {what} from {o}")).unwrap_or_default();
    tracing::info!(
        "registry: zookeeper {}/{} (from {source}{}{})",
        options.servers,
        options.namespace,
        how("namespace", "namespace"),
        how("digest", "digest"),
    );
    Ok(RegistryTarget::ZooKeeper(options))
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
