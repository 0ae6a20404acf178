//! Process exit codes (SPEC §5) and how an error chain maps onto them.
//!
//! Every command returns either `Ok(Exit)` or an `anyhow::Error`; `main` turns an error into a code
//! with [`classify`]. Errors that carry their own code are wrapped in [`CliError`]; registry errors
//! are classified by kind (see [`crate::registry::RegistryError::exit`]).

use std::fmt;

use crate::registry::RegistryError;

/// The documented exit codes of every `ejctl` command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Success, including idempotent no-ops.
    Ok = 0,
    /// The operation failed.
    Failure = 1,
    /// Usage error: bad arguments, a bad job file.
    Usage = 2,
    /// A job, instance, server or item named by the user does not exist.
    NotFound = 3,
    /// Refused: confirmation declined, version conflict, unmet precondition.
    Refused = 4,
    /// The registry is unavailable: unreachable, bad connect string, wrong credentials, session lost.
    RegistryUnavailable = 5,
    /// Interrupted by SIGINT.
    Interrupted = 130,
}

impl Exit {
    /// The numeric process exit code.
    pub fn code(self) -> u8 {
        self as u8
    }
}

/// An error that carries the exit code it must end the process with.
#[derive(Debug)]
pub struct CliError {
    /// The exit code.
    pub exit: Exit,
    /// The one-line message.
    pub message: String,
}

impl CliError {
    /// An error with an explicit exit code.
    pub fn new(exit: Exit, message: impl Into<String>) -> CliError {
        CliError { exit, message: message.into() }
    }

    /// A usage error (exit 2).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError::new(Exit::Usage, message)
    }

    /// A "not found" error (exit 3).
    pub fn not_found(message: impl Into<String>) -> CliError {
        CliError::new(Exit::NotFound, message)
    }

    /// A refusal (exit 4).
    pub fn refused(message: impl Into<String>) -> CliError {
        CliError::new(Exit::Refused, message)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

/// Maps an error chain onto an exit code: the first [`CliError`] or [`RegistryError`] in the chain
/// decides; anything else is a plain failure.
pub fn classify(err: &anyhow::Error) -> Exit {
    for cause in err.chain() {
        if let Some(e) = cause.downcast_ref::<CliError>() {
            return e.exit;
        }
        if let Some(e) = cause.downcast_ref::<RegistryError>() {
            return e.exit();
        }
    }
    Exit::Failure
}

/// True when the error chain contains a broken pipe on stdout (`ejctl ... | head`), which is not
/// an error for a command-line tool.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|cause| cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe))
}
