//! The command-line interface: the clap definition of every command, and dispatch.
//!
//! Each command group lives in its own module with its arguments and an `exec` function that
//! translates them into library calls and renders the result through [`output::Output`]. The
//! global options (registry, output format, confirmation, verbosity) are [`GlobalArgs`]; every
//! admin command reaches the registry through [`connect`], so connection errors and exit codes
//! are the same everywhere. `completions/` and `man/` are generated from this definition
//! ([`generate`]).

pub mod config;
pub mod context;
pub mod cron;
pub mod dump;
pub mod failover;
pub mod generate;
pub mod instance;
pub mod job;
pub mod output;
pub mod prompt;
pub mod run;
pub mod server;
pub mod sharding;

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};

use crate::exit::{CliError, Exit};
use crate::registry::{Registry, ZkOptions};

use self::output::{Format, Output};

/// Exit codes, shown in `--help` and in the man page.
const EXIT_STATUS: &str = "\
Exit status:
  0    success, including idempotent no-ops
  1    the operation failed
  2    usage error: bad arguments or a bad job file
  3    the job, instance, server or item does not exist
  4    refused: confirmation declined, version conflict, unmet precondition
  5    the registry is unavailable: unreachable, bad connect string, wrong credentials
  130  interrupted";

/// ElasticJob-Lite style distributed job scheduling over ZooKeeper.
///
/// `ejctl run` is the worker runtime; the other commands inspect and operate the registry that
/// workers (ejctl or Java ElasticJob 3.x) coordinate through.
#[derive(Debug, Parser)]
#[command(name = "ejctl", version, propagate_version = true, after_long_help = EXIT_STATUS)]
pub struct Cli {
    /// Options that apply to every command.
    #[command(flatten)]
    pub global: GlobalArgs,
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

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

/// Every command.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the jobs of one or more job files (the worker runtime).
    #[command(
        after_help = "Examples:\n  ejctl run examples/hello.toml\n  ejctl run jobs/*.toml --log-format json\n\nSIGINT/SIGTERM: stop new fires, let running items finish, leave the registry (exit 0);\na second signal kills running items (exit 130)."
    )]
    Run(run::RunArgs),
    /// Inspect and operate jobs: list, show, trigger, disable, enable, shutdown, remove.
    #[command(subcommand)]
    Job(job::JobCmd),
    /// Read and change job configurations.
    #[command(subcommand)]
    Config(config::ConfigCmd),
    /// Servers (IPs): list, disable, enable, shutdown, remove.
    #[command(subcommand)]
    Server(server::ServerCmd),
    /// Live instances.
    #[command(subcommand)]
    Instance(instance::InstanceCmd),
    /// Sharding items: show, disable, enable, and preview what a strategy assigns.
    #[command(subcommand)]
    Sharding(sharding::ShardingCmd),
    /// Failover items.
    #[command(subcommand)]
    Failover(failover::FailoverCmd),
    /// Named registries (connect string, namespace, digest), like kubectl contexts.
    #[command(subcommand)]
    Context(context::ContextCmd),
    /// Check cron expressions.
    #[command(subcommand)]
    Cron(cron::CronCmd),
    /// Print the registry tree (or one job's) with node values.
    #[command(
        after_help = "Examples:\n  ejctl dump\n  ejctl dump myJob --mask-ips\n  ejctl dump myJob --addr 10.0.0.5:9888\n  ejctl dump -o json | jq '.nodes[].path'"
    )]
    Dump(dump::DumpArgs),
    /// Print a shell completion script.
    #[command(after_help = "Example:\n  ejctl completions bash > /etc/bash_completion.d/ejctl")]
    Completions(generate::CompletionsArgs),
    /// Write the man pages into a directory.
    #[command(after_help = "Example:\n  ejctl man /usr/local/share/man/man1")]
    Man(generate::ManArgs),
}

/// Runs a parsed command line.
///
/// # Errors
/// Whatever the command fails with; `main` maps the error onto an exit code.
pub async fn run(cli: Cli) -> Result<Exit> {
    let global = context::resolve(cli.global)?;
    let mut out = Output::new(global.output);
    let global = &global;
    match cli.command {
        Command::Run(args) => run::exec(args).await,
        Command::Job(cmd) => job::exec(global, cmd, &mut out).await,
        Command::Config(cmd) => config::exec(global, cmd, &mut out).await,
        Command::Server(cmd) => server::exec(global, cmd, &mut out).await,
        Command::Instance(cmd) => instance::exec(global, cmd, &mut out).await,
        Command::Failover(cmd) => failover::exec(global, cmd, &mut out).await,
        Command::Context(cmd) => context::exec(global, cmd, &mut out).await,
        Command::Sharding(cmd) => sharding::exec(global, cmd, &mut out).await,
        Command::Cron(cmd) => cron::exec(cmd, &mut out),
        Command::Dump(args) => dump::exec(global, args, &mut out).await,
        Command::Completions(args) => generate::completions(args, &mut out),
        Command::Man(args) => generate::man(args),
    }
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
/// Missing options (exit 2); an unreachable registry, bad connect string or credentials (exit 5);
/// a namespace that does not exist (exit 3).
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
        Err(e) => Err(e).context("cannot connect to the registry"),
    }
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
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("5s").unwrap(), Duration::from_secs(5));
        assert_eq!(parse_duration("2").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_duration("1.5m").unwrap(), Duration::from_secs(90));
        assert!(parse_duration("5 parsecs").is_err());
        assert!(parse_duration("").is_err());
    }

    #[test]
    fn every_command_has_an_example() {
        fn walk(cmd: &clap::Command, path: &str) {
            for sub in cmd.get_subcommands() {
                let name = format!("{path} {}", sub.get_name());
                if sub.has_subcommands() {
                    walk(sub, &name);
                    continue;
                }
                let help = sub.get_after_help().map(|h| h.to_string()).unwrap_or_default();
                assert!(help.contains("Example"), "`{name}` has no example in its help");
                assert!(sub.get_about().is_some(), "`{name}` has no summary");
            }
        }
        walk(&Cli::command(), "ejctl");
    }
}
