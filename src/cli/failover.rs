//! `ejctl failover ...` (being implemented).

use anyhow::Result;
use clap::Subcommand;

use super::GlobalArgs;
use super::output::Output;
use crate::exit::Exit;

/// `ejctl failover ...`.
#[derive(Debug, Subcommand)]
pub enum FailoverCmd {
    /// List failover items of a job.
    #[command(after_help = "Example:\n  ejctl failover list myJob")]
    List,
}

/// Runs `ejctl failover ...`.
///
/// # Errors
/// Not implemented yet.
pub async fn exec(_global: &GlobalArgs, _cmd: FailoverCmd, _out: &mut Output) -> Result<Exit> {
    anyhow::bail!("not implemented")
}
