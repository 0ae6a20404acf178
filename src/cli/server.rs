//! `ejctl server ...` (being implemented).

use anyhow::Result;
use clap::Subcommand;

use super::GlobalArgs;
use super::output::Output;
use crate::exit::Exit;

/// `ejctl server ...`.
#[derive(Debug, Subcommand)]
pub enum ServerCmd {
    /// List the servers (IPs) of the namespace.
    #[command(after_help = "Example:\n  ejctl server list")]
    List,
}

/// Runs `ejctl server ...`.
///
/// # Errors
/// Not implemented yet.
pub async fn exec(_global: &GlobalArgs, _cmd: ServerCmd, _out: &mut Output) -> Result<Exit> {
    anyhow::bail!("not implemented")
}
