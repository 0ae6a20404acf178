//! Process exit codes (docs/src/reference/exit-codes.md) and how an error chain maps onto them.
//!
//! Every command returns either `Ok(Exit)` or an `anyhow::Error`; `main` turns an error into a code
//! with [`classify`]. Errors that carry their own code are [`CliError`]s; the admin operations'
//! [`OpsError`]s are mapped by kind ([`for_ops_error`]) and registry errors by theirs
//! ([`for_registry_error`]). Neither the operations nor the registry know about exit codes.

use std::fmt;

use crate::ops::{ErrorKind, OpsError};
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
    /// A job, instance, server, item or context named by the user does not exist.
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

/// An error that carries the exit code it must end the process with: a one-line message, and
/// the registry error behind it when there is one.
///
/// Displayed alone it is the message; in an error chain (`{:#}`) the registry error follows it
/// (`cannot read job 'x': zookeeper at ... is unreachable: ...`), as an `anyhow` context would.
#[derive(Debug)]
pub struct CliError {
    /// The exit code.
    pub exit: Exit,
    /// The one-line message.
    pub message: String,
    /// The registry error that caused it, if any.
    registry: Option<RegistryError>,
    /// True when `message` is a context for `registry` (which then follows it in a chain); false
    /// when it is the registry error's own message.
    chained: bool,
}

impl CliError {
    /// An error with an explicit exit code.
    pub fn new(exit: Exit, message: impl Into<String>) -> CliError {
        CliError { exit, message: message.into(), registry: None, chained: false }
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

    /// A plain failure (exit 1).
    pub fn failure(message: impl Into<String>) -> CliError {
        CliError::new(Exit::Failure, message)
    }

    /// A registry request that failed while doing `context`; the exit code follows the error's
    /// kind ([`for_registry_error`]).
    pub fn registry(context: impl Into<String>, error: RegistryError) -> CliError {
        CliError { exit: for_registry_error(&error), message: context.into(), registry: Some(error), chained: true }
    }

    /// The registry error behind this one, if any.
    pub fn registry_error(&self) -> Option<&RegistryError> {
        self.registry.as_ref()
    }
}

/// A registry error as it is, classified by kind ([`for_registry_error`]).
impl From<RegistryError> for CliError {
    fn from(error: RegistryError) -> CliError {
        CliError { exit: for_registry_error(&error), message: error.to_string(), registry: Some(error), chained: false }
    }
}

/// An admin operation's error, with the exit code of its kind ([`for_ops_error`]).
impl From<OpsError> for CliError {
    fn from(error: OpsError) -> CliError {
        let exit = for_ops_error(&error);
        let (message, registry, chained) = error.into_parts();
        CliError { exit, message, registry, chained }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.registry.as_ref().filter(|_| self.chained).map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// The exit code an admin command ends with when a registry error reaches `main`: a missing node
/// is "not found", a conflict is a refusal, an unusable registry is 5, anything else a failure.
pub fn for_registry_error(error: &RegistryError) -> Exit {
    match error {
        RegistryError::NoNode(_) => Exit::NotFound,
        RegistryError::BadVersion(_) | RegistryError::NodeExists(_) | RegistryError::NotEmpty(_) => Exit::Refused,
        RegistryError::Transaction { source, .. } => for_registry_error(source),
        RegistryError::TlsConfig(_) => Exit::Usage,
        e if e.is_unavailable() => Exit::RegistryUnavailable,
        _ => Exit::Failure,
    }
}

/// The exit code of an admin operation's error: its kind's, or its registry error's.
pub fn for_ops_error(error: &OpsError) -> Exit {
    match error.kind {
        ErrorKind::Failure => Exit::Failure,
        ErrorKind::Usage => Exit::Usage,
        ErrorKind::NotFound => Exit::NotFound,
        ErrorKind::Refused => Exit::Refused,
        ErrorKind::Interrupted => Exit::Interrupted,
        ErrorKind::Registry => error.registry_error().map_or(Exit::Failure, for_registry_error),
    }
}

/// Maps an error chain onto an exit code: the first [`CliError`], [`OpsError`] or
/// [`RegistryError`] in the chain decides; anything else is a plain failure.
pub fn classify(err: &anyhow::Error) -> Exit {
    for cause in err.chain() {
        if let Some(e) = cause.downcast_ref::<CliError>() {
            return e.exit;
        }
        if let Some(e) = cause.downcast_ref::<OpsError>() {
            return for_ops_error(e);
        }
        if let Some(e) = cause.downcast_ref::<RegistryError>() {
            return for_registry_error(e);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_errors_keep_their_kind_and_chain() {
        let err = CliError::registry("cannot read job 'j'", RegistryError::ConnectionLoss);
        assert_eq!(err.exit, Exit::RegistryUnavailable);
        assert_eq!(err.to_string(), "cannot read job 'j'");
        let err = anyhow::Error::new(err);
        assert_eq!(format!("{err:#}"), "cannot read job 'j': connection to the registry was lost");
        assert_eq!(classify(&err), Exit::RegistryUnavailable);
        let nested = RegistryError::Transaction { index: 1, source: Box::new(RegistryError::BadVersion("/x".into())) };
        assert_eq!(for_registry_error(&nested), Exit::Refused);
        assert_eq!(classify(&anyhow::Error::new(RegistryError::NoNode("/x".into()))), Exit::NotFound);
        assert_eq!(classify(&anyhow::anyhow!("plain")), Exit::Failure);
        let plain = anyhow::Error::new(CliError::from(RegistryError::Closed));
        assert_eq!(format!("{plain:#}"), "registry closed");
        assert_eq!(classify(&plain), Exit::RegistryUnavailable);
    }
}
