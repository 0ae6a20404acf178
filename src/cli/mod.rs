//! The command-line interface: the clap definition of every command, and dispatch.
//!
//! [`app`] defines the whole command line ([`Cli`], [`Command`]); [`fn@run`] dispatches it. Each
//! command group lives in its own module with its arguments and an `exec` function that checks
//! them, calls the admin operations of [`crate::ops`], asks for confirmation where a command is
//! destructive ([`prompt`]) and renders the result: every result is a view implementing
//! [`output::Render`], printed by [`output::Output`] in the format `-o` chose. The global options
//! (registry, output format, confirmation, verbosity) are [`GlobalArgs`] ([`global`]); every
//! admin command reaches the registry through [`connect`], so connection errors and exit codes
//! are the same everywhere. `completions/` and `man/` are generated from this definition
//! ([`generate`]).
//!
//! No command module imports this one, and the pieces they share ([`global`], [`output`],
//! [`render`], [`prompt`]) import no command module, so the module graph has no cycles.

pub mod app;
pub mod config;
pub mod console;
pub mod context;
pub mod cron;
pub mod dump;
pub mod entry;
pub mod failover;
pub mod generate;
pub mod global;
pub mod history;
pub mod instance;
pub mod job;
pub mod logline;
pub mod output;
pub mod prompt;
pub mod render;
pub mod run;
pub mod server;
pub mod sharding;
pub mod trigger;
pub mod watch;
pub mod why;

use anyhow::Result;

pub use self::app::{Cli, Command};
pub use self::global::{GlobalArgs, admin, connect, parse_duration};
use self::output::Output;
use crate::exit::Exit;

/// Runs a parsed command line.
///
/// # Errors
/// Whatever the command fails with; `main` maps the error onto an exit code.
pub async fn run(cli: Cli, global: GlobalArgs) -> Result<Exit> {
    let global = context::resolve(global)?;
    let mut out = Output::new(global.output).quiet(global.quiet).tables(global.table.clone());
    let global = &global;
    match cli.command {
        Command::Run(args) => run::exec(global, args).await,
        Command::Job(cmd) => job::exec(global, cmd, &mut out).await,
        Command::Config(cmd) => config::exec(global, cmd, &mut out).await,
        Command::Server(cmd) => server::exec(global, cmd, &mut out).await,
        Command::Instance(cmd) => instance::exec(global, cmd, &mut out).await,
        Command::Failover(cmd) => failover::exec(global, cmd, &mut out).await,
        Command::Context(cmd) => context::exec(global, cmd, &mut out).await,
        Command::Sharding(cmd) => sharding::exec(global, cmd, &mut out).await,
        Command::Cron(cmd) => cron::exec(cmd, &mut out),
        Command::Dump(a) => dump::exec(global, a.args, &mut out).await,
        Command::History(a) => history::exec(global, a.args, &mut out).await,
        Command::Why(a) => why::exec(global, a.args, &mut out).await,
        Command::Console(a) => console::exec(global, &a.args, &mut out).await,
        Command::Completions(args) => generate::completions(args, &mut out),
        Command::Man(args) => generate::man(args),
    }
}
