//! `ejctl context ...` (being implemented).

use anyhow::Result;
use clap::Subcommand;

use super::GlobalArgs;
use super::output::Output;
use crate::exit::Exit;

/// `ejctl context ...`.
#[derive(Debug, Subcommand)]
pub enum ContextCmd {
    /// List the registry contexts.
    #[command(after_help = "Example:\n  ejctl context list")]
    List,
}

/// Runs `ejctl context ...`.
///
/// # Errors
/// Not implemented yet.
pub async fn exec(_global: &GlobalArgs, _cmd: ContextCmd, _out: &mut Output) -> Result<Exit> {
    anyhow::bail!("not implemented")
}

/// Fills the registry options of `global` from the selected context (`--context`, or the
/// current one), keeping options given explicitly.
///
/// # Errors
/// An unknown context, an unreadable contexts file.
pub fn resolve(global: GlobalArgs) -> Result<GlobalArgs> {
    Ok(global)
}
