//! The options every command takes ([`GlobalArgs`]: registry, output format, confirmation,
//! verbosity), and what commands derive from them: registry options, the connection every admin
//! command shares ([`connect`], [`admin`]), spinners, and the duration syntax of the flags.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

use super::output::Format;
use crate::exit::CliError;
use crate::ops::Admin;
use crate::registry::{Registry, ZkOptions, ZkTls};

/// Options that apply to every command.
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// ZooKeeper connect string.
    #[arg(long, global = true, env = "EJCTL_ZK", value_name = "HOST:PORT[,HOST:PORT...]")]
    pub zk: Option<String>,
    /// Registry namespace (the ZooKeeper chroot the jobs live under).
    #[arg(long, global = true, env = "EJCTL_NAMESPACE", value_name = "NAMESPACE")]
    pub namespace: Option<String>,
    /// Use a named registry from the contexts file (see `ejctl context`).
    #[arg(long, global = true, env = "EJCTL_CONTEXT", value_name = "NAME")]
    pub context: Option<String>,
    /// Digest credentials for a registry that uses ACLs.
    #[arg(long, global = true, env = "EJCTL_DIGEST", value_name = "USER:PASSWORD", hide_env_values = true)]
    pub digest: Option<String>,
    /// CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on.
    #[arg(long, global = true, env = "EJCTL_TLS_CA", value_name = "FILE")]
    pub tls_ca: Option<PathBuf>,
    /// Client certificate (PEM) for ZooKeeper's x509 authentication over TLS.
    #[arg(long, global = true, env = "EJCTL_TLS_CERT", value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The client certificate's private key (PEM).
    #[arg(long, global = true, env = "EJCTL_TLS_KEY", value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// How long to wait for the registry.
    #[arg(long, global = true, env = "EJCTL_CONNECT_TIMEOUT", value_name = "DURATION", default_value = "5s", value_parser = parse_duration)]
    pub connect_timeout: Duration,
    /// Output format.
    #[arg(short, long, global = true, env = "EJCTL_OUTPUT", value_enum, default_value_t = Format::Table)]
    pub output: Format,
    /// Answer yes to confirmations (needed without a terminal).
    #[arg(short = 'y', long, global = true)]
    pub yes: bool,
    /// More log output on stderr (repeat for more).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Only errors on stderr.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
}

impl GlobalArgs {
    /// Registry options from the global flags.
    ///
    /// # Errors
    /// A usage error when the connect string or the namespace is missing.
    pub fn zk_options(&self) -> Result<ZkOptions> {
        let servers = self
            .zk
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .ok_or_else(|| CliError::usage("no registry given: pass --zk HOST:PORT or set EJCTL_ZK"))?;
        let namespace = self
            .namespace
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .ok_or_else(|| CliError::usage("no namespace given: pass --namespace NAME or set EJCTL_NAMESPACE"))?;
        let mut options = ZkOptions::new(servers, namespace.trim_matches('/'));
        options.digest = self.digest.clone().filter(|d| !d.is_empty());
        options.connection_timeout = self.connect_timeout;
        options.session_timeout = Duration::from_secs(30);
        options.request_timeout = self.connect_timeout.max(Duration::from_secs(5));
        options.create_namespace = false;
        let given = |p: &Option<PathBuf>| p.clone().filter(|p| !p.as_os_str().is_empty());
        options.tls = match (given(&self.tls_ca), given(&self.tls_cert), given(&self.tls_key)) {
            (None, None, None) => None,
            (Some(ca), cert, key) => Some(ZkTls { ca, cert, key }),
            (None, _, _) => {
                return Err(CliError::usage(
                    "--tls-cert and --tls-key need --tls-ca (the CA that signed the ZooKeeper servers' certificates)",
                )
                .into());
            }
        };
        Ok(options)
    }

    /// True when progress bars and spinners may be drawn on stderr.
    pub fn show_progress(&self) -> bool {
        !self.quiet && !self.output.is_document() && std::io::stderr().is_terminal()
    }

    /// A spinner on stderr (hidden when progress is not shown).
    pub fn spinner(&self, message: impl Into<std::borrow::Cow<'static, str>>) -> indicatif::ProgressBar {
        if !self.show_progress() {
            return indicatif::ProgressBar::hidden();
        }
        let pb = indicatif::ProgressBar::new_spinner();
        pb.set_message(message);
        pb.enable_steady_tick(Duration::from_millis(100));
        pb
    }
}

/// Connects an admin command to the registry named by the global options.
///
/// # Errors
/// Missing options or unusable TLS files (exit 2); an unreachable registry, bad connect string,
/// credentials or TLS handshake (exit 5); a namespace that does not exist (exit 3).
pub async fn connect(global: &GlobalArgs) -> Result<Registry> {
    let options = global.zk_options()?;
    let spinner = global.spinner(format!("connecting to {}", options.servers));
    let namespace = options.namespace.clone();
    let result = Registry::connect(options).await;
    spinner.finish_and_clear();
    match result {
        Ok(registry) => Ok(registry),
        Err(crate::registry::RegistryError::NoNode(_)) => {
            Err(CliError::not_found(format!("namespace '{namespace}' does not exist in the registry")).into())
        }
        Err(e @ crate::registry::RegistryError::NoAuth(_)) => Err(CliError::registry(
            "cannot connect to the registry (its nodes are ACL-protected: pass the workers' credentials with --digest USER:PASSWORD or --tls-cert/--tls-key, or use a context that has them)",
            e,
        )
        .into()),
        Err(e) => Err(e).context("cannot connect to the registry"),
    }
}

/// Connects an admin command ([`connect`]) and names the namespace for messages.
///
/// # Errors
/// See [`connect`].
pub async fn admin(global: &GlobalArgs) -> Result<Admin> {
    let registry = connect(global).await?;
    Ok(Admin::new(registry, global.namespace.as_deref().unwrap_or_default()))
}

/// Parses a duration: a number with a unit `ms`, `s`, `m` or `h` (`500ms`, `5s`, `2m`); a bare
/// number is seconds.
///
/// # Errors
/// A message naming the accepted forms.
pub fn parse_duration(s: &str) -> std::result::Result<Duration, String> {
    let s = s.trim();
    let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let (number, unit) = s.split_at(split);
    let value: f64 = number.parse().map_err(|_| format!("'{s}' is not a duration (examples: 500ms, 5s, 2m, 1h)"))?;
    let seconds = match unit.trim() {
        "ms" => value / 1000.0,
        "" | "s" => value,
        "m" => value * 60.0,
        "h" => value * 3600.0,
        other => return Err(format!("unknown duration unit '{other}' in '{s}' (use ms, s, m or h)")),
    };
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("'{s}' is out of range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("5s").unwrap(), Duration::from_secs(5));
        assert_eq!(parse_duration("2").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_duration("1.5m").unwrap(), Duration::from_secs(90));
        assert!(parse_duration("5 parsecs").is_err());
        assert!(parse_duration("").is_err());
    }
}
