//! `ejctl instance ...` (being implemented).

use anyhow::Result;
use clap::Subcommand;

use super::GlobalArgs;
use super::output::Output;
use crate::exit::Exit;

/// `ejctl instance ...`.
#[derive(Debug, Subcommand)]
pub enum InstanceCmd {
    /// List the live instances.
    #[command(after_help = "Example:\n  ejctl instance list")]
    List,
}

/// Runs `ejctl instance ...`.
///
/// # Errors
/// Not implemented yet.
pub async fn exec(_global: &GlobalArgs, _cmd: InstanceCmd, _out: &mut Output) -> Result<Exit> {
    anyhow::bail!("not implemented")
}
