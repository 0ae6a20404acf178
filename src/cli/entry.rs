//! The command-line program behind `ejctl`'s `main`: parses the command line, sets up logging
//! and the async runtime, runs the command and turns its outcome into an exit code. Errors are
//! printed here, once, as one line (`ejctl: error: ...` with the cause chain), clap's own usage
//! errors included; a broken stdout pipe is not an error.
//!
//! It lives in the library rather than in the binary so that its generic code (the runtime's
//! `block_on` of the whole command, the log subscriber's layers) is compiled with the rest of the
//! crate, in parallel, not in a last, serial step of every build.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::FromArgMatches;

use super::run::LogFormat;
use super::{Cli, Command, GlobalArgs};
use crate::exit::{self, Exit};

/// Runs `ejctl` with the process's arguments.
pub fn main() -> ExitCode {
    // Every TLS user (ZooKeeper, HTTP jobs) is built on rustls with aws-lc; naming the process
    // provider keeps a dependency that also enables `ring` from making rustls refuse to choose.
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    let args = super::app::hoist_group_options(std::env::args_os().collect());
    let parsed = super::app::command()
        .try_get_matches_from(args)
        .and_then(|matches| Cli::from_arg_matches(&matches).map(|cli| (cli, matches)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => return clap_error(&e),
    };
    let global = match GlobalArgs::from_matches(&matches) {
        Ok(global) => global,
        Err(e) => {
            report(&anyhow::Error::new(e));
            return ExitCode::from(Exit::Usage.code());
        }
    };
    // The worker runs many jobs: a multi-threaded runtime; admin commands: a single thread.
    let (worker, json_logs, runtime) = match &cli.command {
        Command::Run(args) => {
            (true, args.log_format == LogFormat::Json, tokio::runtime::Builder::new_multi_thread().enable_all().build())
        }
        _ => (false, false, tokio::runtime::Builder::new_current_thread().enable_all().build()),
    };
    // The full-screen console shows errors itself: log lines would tear its frame.
    if !matches!(&cli.command, Command::Console(c) if c.args.snapshot.is_none()) {
        init_logging(&global, worker, json_logs);
    }
    let outcome = match runtime {
        Ok(rt) => rt.block_on(super::run(cli, global)),
        Err(e) => Err(anyhow::Error::new(e).context("cannot start the async runtime")),
    };
    match outcome {
        Ok(code) => ExitCode::from(code.code()),
        Err(err) if exit::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            let code = exit::classify(&err);
            report(&err);
            ExitCode::from(code.code())
        }
    }
}

/// Prints an error chain on one line (no backtrace, whatever `RUST_BACKTRACE` says).
fn report(err: &anyhow::Error) {
    // The one place errors reach the user.
    #[allow(clippy::print_stderr)]
    {
        eprintln!("ejctl: error: {err:#}");
    }
}

/// Help and version go to stdout (exit 0); a usage error is printed like every other error,
/// `ejctl: error: ...` (exit 2), followed by clap's usage lines.
fn clap_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    // The one place clap's errors reach the user.
    #[allow(clippy::print_stderr)]
    {
        eprint!("{}", super::app::usage_error_text(e));
    }
    ExitCode::from(Exit::Usage.code())
}

/// Logs go to stderr: warnings by default (information for `ejctl run`), more with `-v`, only
/// errors with `-q`; `RUST_LOG` overrides both. Colour only when stderr is a terminal. Text logs
/// keep one event per line ([`super::logline`]).
fn init_logging(global: &GlobalArgs, worker: bool, json: bool) {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    use tracing_subscriber::{Layer as _, fmt};

    let levels = [LevelFilter::WARN, LevelFilter::INFO, LevelFilter::DEBUG, LevelFilter::TRACE];
    let base = usize::from(worker);
    let level = if global.quiet { LevelFilter::ERROR } else { levels[(base + usize::from(global.verbose)).min(3)] };
    // `RUST_LOG` as `target=level` directives (`ejctl=debug,zookeeper_client=warn`, or a bare
    // level); one that does not parse leaves the default.
    let filter = std::env::var("RUST_LOG").ok().and_then(|v| v.parse::<Targets>().ok()).unwrap_or_else(|| {
        Targets::new().with_target("ejctl", level).with_target("zookeeper_client", LevelFilter::ERROR)
    });
    let ansi = std::io::stderr().is_terminal();
    let layer = fmt::layer().with_target(false).with_ansi(ansi);
    let _ = if json {
        let layer = layer.json().with_writer(std::io::stderr).with_filter(filter);
        tracing_subscriber::registry().with(layer).try_init()
    } else {
        let layer = layer.with_writer(super::logline::EscapedStderr { ansi }).with_filter(filter);
        tracing_subscriber::registry().with(layer).try_init()
    };
}
