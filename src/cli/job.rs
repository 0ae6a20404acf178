//! `ejctl job ...` (being implemented).

use anyhow::Result;
use clap::Subcommand;

use super::GlobalArgs;
use super::output::Output;
use crate::exit::Exit;

/// `ejctl job ...`.
#[derive(Debug, Subcommand)]
pub enum JobCmd {
    /// List the jobs of the namespace.
    #[command(after_help = "Example:\n  ejctl job list")]
    List,
}

/// Runs `ejctl job ...`.
///
/// # Errors
/// Not implemented yet.
pub async fn exec(_global: &GlobalArgs, _cmd: JobCmd, _out: &mut Output) -> Result<Exit> {
    anyhow::bail!("not implemented")
}
