//! `ejctl config ...` (being implemented).

use anyhow::Result;
use clap::Subcommand;

use super::GlobalArgs;
use super::output::Output;
use crate::exit::Exit;

/// `ejctl config ...`.
#[derive(Debug, Subcommand)]
pub enum ConfigCmd {
    /// Print a job's configuration.
    #[command(after_help = "Example:\n  ejctl config get myJob")]
    List,
}

/// Runs `ejctl config ...`.
///
/// # Errors
/// Not implemented yet.
pub async fn exec(_global: &GlobalArgs, _cmd: ConfigCmd, _out: &mut Output) -> Result<Exit> {
    anyhow::bail!("not implemented")
}
