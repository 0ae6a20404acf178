//! The options commands share, in groups that each command flattens only when they mean
//! something for it ([`RegistryArgs`], [`OutputArgs`], [`YesArgs`]; [`LogArgs`] applies to every
//! command), how they resolve into one [`GlobalArgs`] per invocation ([`GlobalArgs::from_matches`]),
//! and what commands derive from them: registry options, the connection every admin command
//! shares ([`connect`], [`admin`]), spinners, and the duration syntax of the flags.
//!
//! The registry, output and confirmation options may also be written before the command
//! (`ejctl --context prod job list`), as older versions had them; there they are hidden from
//! `--help`, and one that the command does not take is a usage error instead of being ignored.
//! After the command they may come anywhere, between or after its positional arguments
//! (`ejctl server disable 10.9.9.9 --yes`), since scripts append flags to the end of a line.
//!
//! `-y/--yes` is the one exception to "only where it means something": every command takes it,
//! and on a command that never asks ([`NeverAsks`]) it does nothing. A script that answers yes
//! everywhere loses nothing by it, while a refused `--yes` broke such scripts for no safety gain.
//! A registry option on a command that reads no registry (`ejctl cron next --zk ...`) stays a
//! usage error: there it would silently not do what its writer expected.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::parser::ValueSource;
use clap::{ArgMatches, Args};

use super::output::{Format, TableOptions};
use crate::exit::CliError;
use crate::ops::Admin;
use crate::registry::{Registry, ZkOptions, ZkTls};

/// The default of `--connect-timeout`.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// `--context`: a named registry from the contexts file.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Registry options")]
pub struct ContextArg {
    /// Use a named registry from the contexts file (see `ejctl context`).
    #[arg(long, env = "EJCTL_CONTEXT", value_name = "NAME")]
    pub context: Option<String>,
}

/// How to reach a ZooKeeper registry.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Registry options")]
pub struct ConnectArgs {
    /// ZooKeeper connect string.
    #[arg(long, env = "EJCTL_ZK", value_name = "HOST:PORT[,HOST:PORT...]")]
    pub zk: Option<String>,
    /// Registry namespace (the ZooKeeper chroot the jobs live under).
    #[arg(long, env = "EJCTL_NAMESPACE", value_name = "NAMESPACE")]
    pub namespace: Option<String>,
    /// Digest credentials for a registry that uses ACLs.
    #[arg(long, env = "EJCTL_DIGEST", value_name = "USER:PASSWORD", hide_env_values = true)]
    pub digest: Option<String>,
    /// CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on.
    #[arg(long, env = "EJCTL_TLS_CA", value_name = "FILE")]
    pub tls_ca: Option<PathBuf>,
    /// Client certificate (PEM) for ZooKeeper's x509 authentication over TLS.
    #[arg(long, env = "EJCTL_TLS_CERT", value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The client certificate's private key (PEM).
    #[arg(long, env = "EJCTL_TLS_KEY", value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// How long to wait for the registry (default 5s).
    #[arg(long, env = "EJCTL_CONNECT_TIMEOUT", value_name = "DURATION", value_parser = parse_duration)]
    pub connect_timeout: Option<Duration>,
}

/// Where the registry is: a context, or the connection options.
#[derive(Debug, Clone, Default, Args)]
pub struct RegistryArgs {
    /// `--context`.
    #[command(flatten)]
    pub context: ContextArg,
    /// `--zk`, `--namespace`, ...
    #[command(flatten)]
    pub connect: ConnectArgs,
}

/// `-o/--output` and the table switches.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Output options")]
pub struct OutputArgs {
    /// Output format (`wide`: a table with every column).
    #[arg(short, long, env = "EJCTL_OUTPUT", value_enum, default_value_t = Format::Table)]
    pub output: Format,
    /// Tables and plain rows without the header line.
    #[arg(long)]
    pub no_headers: bool,
    /// Sort table rows by this column (its header, case-insensitive: `--sort-by name`).
    #[arg(long, value_name = "COLUMN")]
    pub sort_by: Option<String>,
}

/// `-y/--yes`, on commands that may ask for confirmation.
#[derive(Debug, Clone, Default, Args)]
pub struct YesArgs {
    /// Answer yes to confirmations (needed without a terminal).
    #[arg(short = 'y', long)]
    pub yes: bool,
}

/// `-y/--yes` on a command that never asks for confirmation: accepted, and nothing changes.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Global options")]
pub struct NeverAsks {
    /// Accepted for scripts and ignored: this command never asks for confirmation.
    #[arg(short = 'y', long)]
    pub yes: bool,
}

/// Options of every command: how much is logged.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Global options")]
pub struct LogArgs {
    /// More log output on stderr (repeat for more); `-v` names the registry a command used.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Only errors on stderr.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
}

/// A command's own arguments with the registry and output options.
#[derive(Debug, Args)]
pub struct Reads<A: Args> {
    /// The command's own arguments.
    #[command(flatten)]
    pub args: A,
    /// Registry options.
    #[command(flatten)]
    pub registry: RegistryArgs,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
    /// `--yes`, which changes nothing here.
    #[command(flatten)]
    pub yes: NeverAsks,
}

/// A command's own arguments with the registry, output and confirmation options.
#[derive(Debug, Args)]
pub struct Changes<A: Args> {
    /// The command's own arguments.
    #[command(flatten)]
    pub args: A,
    /// `--yes`.
    #[command(flatten)]
    pub yes: YesArgs,
    /// Registry options.
    #[command(flatten)]
    pub registry: RegistryArgs,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// A command's own arguments with the output options only (it reads no registry).
#[derive(Debug, Args)]
pub struct Offline<A: Args> {
    /// The command's own arguments.
    #[command(flatten)]
    pub args: A,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
    /// `--yes`, which changes nothing here.
    #[command(flatten)]
    pub yes: NeverAsks,
}

/// A command's own arguments with `--context` and the output options (it reads the contexts
/// file, not the registry).
#[derive(Debug, Args)]
pub struct InContext<A: Args> {
    /// The command's own arguments.
    #[command(flatten)]
    pub args: A,
    /// `--context`.
    #[command(flatten)]
    pub context: ContextArg,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
    /// `--yes`, which changes nothing here.
    #[command(flatten)]
    pub yes: NeverAsks,
}

/// A command's own arguments with the connection options as values and the output options
/// (`context set`).
#[derive(Debug, Args)]
pub struct WithConnect<A: Args> {
    /// The command's own arguments.
    #[command(flatten)]
    pub args: A,
    /// `--zk`, `--namespace`, ...
    #[command(flatten)]
    pub connect: ConnectArgs,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
    /// `--yes`, which changes nothing here.
    #[command(flatten)]
    pub yes: NeverAsks,
}

/// No arguments of its own.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct NoArgs {}

/// The registry, output and confirmation options written before the command: accepted for the
/// commands that take them, hidden from help.
#[derive(Debug, Clone, Default, Args)]
pub struct LeadingArgs {
    #[arg(long, hide = true)]
    /// `--zk` before the command.
    pub zk: Option<String>,
    #[arg(long, hide = true)]
    /// `--namespace` before the command.
    pub namespace: Option<String>,
    #[arg(long, hide = true)]
    /// `--context` before the command.
    pub context: Option<String>,
    #[arg(long, hide = true)]
    /// `--digest` before the command.
    pub digest: Option<String>,
    #[arg(long, hide = true)]
    /// `--tls-ca` before the command.
    pub tls_ca: Option<PathBuf>,
    #[arg(long, hide = true)]
    /// `--tls-cert` before the command.
    pub tls_cert: Option<PathBuf>,
    #[arg(long, hide = true)]
    /// `--tls-key` before the command.
    pub tls_key: Option<PathBuf>,
    #[arg(long, hide = true, value_parser = parse_duration)]
    /// `--connect-timeout` before the command.
    pub connect_timeout: Option<Duration>,
    #[arg(short, long, hide = true, value_enum)]
    /// `--output` before the command.
    pub output: Option<Format>,
    #[arg(long, hide = true)]
    /// `--no-headers` before the command.
    pub no_headers: bool,
    #[arg(long, hide = true)]
    /// `--sort-by` before the command.
    pub sort_by: Option<String>,
    /// `--yes` before the command, or between a command group and its subcommand
    /// (`ejctl job -y list`); global so that a command without a `--yes` of its own (the
    /// console) takes it too.
    #[arg(short = 'y', long, hide = true, global = true)]
    pub yes: bool,
}

/// The options of one invocation, resolved: what the command line (before or after the
/// command) and the environment gave, then filled from a context ([`super::context::resolve`]).
#[derive(Debug, Clone)]
pub struct GlobalArgs {
    /// ZooKeeper connect string.
    pub zk: Option<String>,
    /// Namespace.
    pub namespace: Option<String>,
    /// The context named with `--context` / `EJCTL_CONTEXT`.
    pub context: Option<String>,
    /// Digest credentials.
    pub digest: Option<String>,
    /// TLS CA file.
    pub tls_ca: Option<PathBuf>,
    /// TLS client certificate.
    pub tls_cert: Option<PathBuf>,
    /// TLS client key.
    pub tls_key: Option<PathBuf>,
    /// How long to wait for the registry.
    pub connect_timeout: Duration,
    /// True when `--connect-timeout` or `EJCTL_CONNECT_TIMEOUT` gave the timeout.
    pub connect_timeout_given: bool,
    /// Output format.
    pub output: Format,
    /// Table switches (`--no-headers`, `--sort-by`).
    pub table: TableOptions,
    /// `--yes`.
    pub yes: bool,
    /// `-v` count.
    pub verbose: u8,
    /// `-q`.
    pub quiet: bool,
    /// Where each option given explicitly came from: the flag (`--zk`) or the variable
    /// (`EJCTL_ZK`), by option id.
    pub origins: BTreeMap<&'static str, String>,
    /// Where the connect string came from after resolution (`--zk`, `context 'prod' (...)`),
    /// for `-v`.
    pub source: Option<String>,
}

impl Default for GlobalArgs {
    fn default() -> GlobalArgs {
        GlobalArgs {
            zk: None,
            namespace: None,
            context: None,
            digest: None,
            tls_ca: None,
            tls_cert: None,
            tls_key: None,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            connect_timeout_given: false,
            output: Format::Table,
            table: TableOptions::default(),
            yes: false,
            verbose: 0,
            quiet: false,
            origins: BTreeMap::new(),
            source: None,
        }
    }
}

/// The matches of the command that runs (the deepest subcommand), and its path (`ejctl job list`).
pub fn leaf(matches: &ArgMatches) -> (&ArgMatches, String) {
    let mut path = String::from("ejctl");
    let mut m = matches;
    while let Some((name, sub)) = m.subcommand() {
        path.push(' ');
        path.push_str(name);
        m = sub;
    }
    (m, path)
}

/// Reads option `id` of the running command: the command line after the command, else before
/// it, else its environment variable or default. `flag` and `env` name it in messages.
struct Picker<'a> {
    top: &'a ArgMatches,
    leaf: &'a ArgMatches,
    path: String,
    origins: BTreeMap<&'static str, String>,
}

impl Picker<'_> {
    fn pick<T: Clone + Send + Sync + 'static>(
        &mut self,
        id: &'static str,
        flag: &str,
        env: Option<&str>,
    ) -> Result<Option<T>, CliError> {
        let here = self.leaf.try_get_one::<T>(id);
        let defined = here.is_ok();
        let source = if defined { self.leaf.value_source(id) } else { None };
        if source == Some(ValueSource::CommandLine) {
            self.origins.insert(id, flag.to_string());
            return Ok(here.ok().flatten().cloned());
        }
        if self.top.value_source(id) == Some(ValueSource::CommandLine) {
            if !defined {
                return Err(CliError::usage(format!("{flag} means nothing for `{}`", self.path)));
            }
            self.origins.insert(id, flag.to_string());
            return Ok(self.top.try_get_one::<T>(id).ok().flatten().cloned());
        }
        if source == Some(ValueSource::EnvVariable)
            && let Some(env) = env
        {
            self.origins.insert(id, env.to_string());
        }
        Ok(here.ok().flatten().cloned())
    }
}

impl GlobalArgs {
    /// The options of the command `matches` runs.
    ///
    /// # Errors
    /// A usage error for an option written before a command that does not take it.
    pub fn from_matches(matches: &ArgMatches) -> Result<GlobalArgs, CliError> {
        let (leaf, path) = leaf(matches);
        let mut p = Picker { top: matches, leaf, path, origins: BTreeMap::new() };
        let mut g = GlobalArgs {
            zk: p.pick("zk", "--zk", Some("EJCTL_ZK"))?,
            namespace: p.pick("namespace", "--namespace", Some("EJCTL_NAMESPACE"))?,
            context: p.pick("context", "--context", Some("EJCTL_CONTEXT"))?,
            digest: p.pick("digest", "--digest", Some("EJCTL_DIGEST"))?,
            tls_ca: p.pick("tls_ca", "--tls-ca", Some("EJCTL_TLS_CA"))?,
            tls_cert: p.pick("tls_cert", "--tls-cert", Some("EJCTL_TLS_CERT"))?,
            tls_key: p.pick("tls_key", "--tls-key", Some("EJCTL_TLS_KEY"))?,
            ..GlobalArgs::default()
        };
        if let Some(t) = p.pick::<Duration>("connect_timeout", "--connect-timeout", Some("EJCTL_CONNECT_TIMEOUT"))? {
            g.connect_timeout = t;
            g.connect_timeout_given = true;
        }
        g.output = p.pick("output", "-o/--output", Some("EJCTL_OUTPUT"))?.unwrap_or_default();
        g.table.no_headers = p.pick("no_headers", "--no-headers", None)?.unwrap_or(false);
        g.table.sort_by = p.pick("sort_by", "--sort-by", None)?;
        g.yes = p.pick("yes", "--yes", None)?.unwrap_or(false);
        g.verbose = leaf.try_get_one::<u8>("verbose").ok().flatten().copied().unwrap_or(0);
        g.quiet = leaf.try_get_one::<bool>("quiet").ok().flatten().copied().unwrap_or(false);
        g.origins = p.origins;
        Ok(g)
    }

    /// Registry options from the global flags.
    ///
    /// # Errors
    /// A usage error when the connect string or the namespace is missing.
    pub fn zk_options(&self) -> Result<ZkOptions> {
        let servers = self.zk.as_deref().filter(|s| !s.trim().is_empty()).ok_or_else(|| {
            CliError::usage(
                "no registry given: pass --zk HOST:PORT and --namespace NAME (or set EJCTL_ZK and EJCTL_NAMESPACE), or save them once: ejctl context set NAME --zk HOST:PORT --namespace NAME --use",
            )
        })?;
        let namespace = self.namespace.as_deref().filter(|s| !s.trim().is_empty()).ok_or_else(|| {
            CliError::usage(
                "no namespace given: pass --namespace NAME or set EJCTL_NAMESPACE (or use a context: ejctl context set NAME --zk HOST:PORT --namespace NAME --use)",
            )
        })?;
        let mut options = ZkOptions::new(servers, namespace.trim_matches('/'));
        options.digest = self.digest.clone().filter(|d| !d.is_empty());
        options.connection_timeout = self.connect_timeout;
        options.session_timeout = Duration::from_secs(30);
        options.request_timeout = self.connect_timeout.max(Duration::from_secs(5));
        options.create_namespace = false;
        options.tls = self.tls()?;
        Ok(options)
    }

    /// The TLS files given, as one setting.
    ///
    /// # Errors
    /// A usage error for a client certificate without a CA.
    pub fn tls(&self) -> Result<Option<ZkTls>, CliError> {
        let given = |p: &Option<PathBuf>| p.clone().filter(|p| !p.as_os_str().is_empty());
        match (given(&self.tls_ca), given(&self.tls_cert), given(&self.tls_key)) {
            (None, None, None) => Ok(None),
            (Some(ca), cert, key) => Ok(Some(ZkTls { ca, cert, key })),
            (None, _, _) => Err(CliError::usage(
                "--tls-cert and --tls-key need --tls-ca (the CA that signed the ZooKeeper servers' certificates)",
            )),
        }
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
    tracing::info!(
        "registry: zookeeper {}/{} (from {})",
        options.servers,
        options.namespace,
        global.source.as_deref().unwrap_or("the command line")
    );
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
