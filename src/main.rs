//! The `ejctl` binary: parses the command line, sets up logging and the async runtime, runs the
//! command and turns its outcome into an exit code. Errors are printed here, once, as one line
//! (`ejctl: error: ...` with the cause chain); a broken stdout pipe is not an error.

use std::process::ExitCode;

use clap::Parser;
use ejctl::cli::run::LogFormat;
use ejctl::cli::{self, Cli, Command};
use ejctl::exit;

fn main() -> ExitCode {
    // Every TLS user (ZooKeeper, HTTP jobs) is built on rustls with aws-lc; naming the process
    // provider keeps a dependency that also enables `ring` from making rustls refuse to choose.
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    let cli = Cli::parse();
    // The worker runs many jobs: a multi-threaded runtime; admin commands: a single thread.
    let (worker, json_logs, runtime) = match &cli.command {
        Command::Run(args) => {
            (true, args.log_format == LogFormat::Json, tokio::runtime::Builder::new_multi_thread().enable_all().build())
        }
        _ => (false, false, tokio::runtime::Builder::new_current_thread().enable_all().build()),
    };
    init_logging(&cli.global, worker, json_logs);
    let outcome = match runtime {
        Ok(rt) => rt.block_on(cli::run(cli)),
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

/// Logs go to stderr: warnings by default (information for `ejctl run`), more with `-v`, only
/// errors with `-q`; `RUST_LOG` overrides both.
fn init_logging(global: &cli::GlobalArgs, worker: bool, json: bool) {
    let levels = ["warn", "info", "debug", "trace"];
    let base = usize::from(worker);
    let level = if global.quiet { "error" } else { levels[(base + usize::from(global.verbose)).min(3)] };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(format!("ejctl={level},zookeeper_client=error")));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_target(false);
    let _ = if json { builder.json().try_init() } else { builder.try_init() };
}
