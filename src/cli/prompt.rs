//! Confirmation of destructive commands (`job remove`, `job shutdown`, changing
//! `shardingTotalCount`, ...).
//!
//! `--yes` answers for the user. Without it, a prompt (dialoguer, on stderr) appears only on a
//! terminal and never in JSON/YAML mode; otherwise the command is refused with exit 4 and a
//! message asking for `--yes`, so a script can never hang on a prompt.

use std::io::IsTerminal;

use anyhow::Result;

use super::global::GlobalArgs;
use crate::exit::CliError;

/// Asks `question` (a yes/no question without the question mark), or answers it from `--yes`.
///
/// # Errors
/// [`CliError`] with exit 4 when the user declines, or when there is no terminal to ask on and
/// `--yes` was not given.
pub fn confirm(global: &GlobalArgs, question: &str) -> Result<()> {
    if global.yes {
        return Ok(());
    }
    if global.output.is_document() || !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
        return Err(CliError::refused(format!("{question}? refusing without confirmation: pass --yes")).into());
    }
    match dialoguer::Confirm::new().with_prompt(format!("{question}?")).default(false).interact() {
        Ok(true) => Ok(()),
        Ok(false) => Err(CliError::refused("cancelled").into()),
        Err(e) => Err(CliError::refused(format!("cannot ask for confirmation: {e}")).into()),
    }
}
