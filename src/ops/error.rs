//! The admin operations' error: a one-line message for people, what kind of failure it is, and
//! the registry error behind it when there is one. The operations know nothing of exit codes:
//! the command line maps a kind onto its documented code ([`crate::exit`]), and a library user
//! reads the kind.

use std::fmt;

use crate::registry::RegistryError;

/// What kind of failure an operation ended with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The operation failed.
    Failure,
    /// Bad input: an argument, a value, a configuration.
    Usage,
    /// A job, instance, server, item or context named does not exist.
    NotFound,
    /// Refused: a version conflict, an unmet precondition, a confirmation missing.
    Refused,
    /// Interrupted (SIGINT) while waiting.
    Interrupted,
    /// A registry request failed: its kind is the registry error's
    /// ([`OpsError::registry_error`]).
    Registry,
}

/// An admin operation's error.
///
/// Displayed alone it is the message; in an error chain (`{:#}`) the registry error follows it
/// (`cannot read job 'x': zookeeper at ... is unreachable: ...`), as an `anyhow` context would.
#[derive(Debug)]
pub struct OpsError {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// The one-line message.
    pub message: String,
    /// The registry error that caused it, if any.
    registry: Option<RegistryError>,
    /// True when `message` is a context for `registry` (which then follows it in a chain); false
    /// when it is the registry error's own message.
    chained: bool,
}

impl OpsError {
    /// An error of `kind`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> OpsError {
        OpsError { kind, message: message.into(), registry: None, chained: false }
    }

    /// Bad input.
    pub fn usage(message: impl Into<String>) -> OpsError {
        OpsError::new(ErrorKind::Usage, message)
    }

    /// Something named does not exist.
    pub fn not_found(message: impl Into<String>) -> OpsError {
        OpsError::new(ErrorKind::NotFound, message)
    }

    /// A refusal.
    pub fn refused(message: impl Into<String>) -> OpsError {
        OpsError::new(ErrorKind::Refused, message)
    }

    /// A plain failure.
    pub fn failure(message: impl Into<String>) -> OpsError {
        OpsError::new(ErrorKind::Failure, message)
    }

    /// Interrupted while waiting.
    pub fn interrupted(message: impl Into<String>) -> OpsError {
        OpsError::new(ErrorKind::Interrupted, message)
    }

    /// A registry request that failed while doing `context`.
    pub fn registry(context: impl Into<String>, error: RegistryError) -> OpsError {
        OpsError { kind: ErrorKind::Registry, message: context.into(), registry: Some(error), chained: true }
    }

    /// The registry error behind this one, if any.
    pub fn registry_error(&self) -> Option<&RegistryError> {
        self.registry.as_ref()
    }

    /// The message, the registry error and whether the message is a context for it (for an
    /// error type that wraps this one).
    pub fn into_parts(self) -> (String, Option<RegistryError>, bool) {
        (self.message, self.registry, self.chained)
    }

    /// Whether it is a refusal, or a registry error of a refusing kind (a version conflict, a node
    /// that exists, a node with children).
    pub fn is_refusal(&self) -> bool {
        self.kind == ErrorKind::Refused
            || self.registry.as_ref().is_some_and(|e| {
                let e = match e {
                    RegistryError::Transaction { source, .. } => source.as_ref(),
                    e => e,
                };
                matches!(e, RegistryError::BadVersion(_) | RegistryError::NodeExists(_) | RegistryError::NotEmpty(_))
            })
    }
}

/// A registry error as it is.
impl From<RegistryError> for OpsError {
    fn from(error: RegistryError) -> OpsError {
        OpsError { kind: ErrorKind::Registry, message: error.to_string(), registry: Some(error), chained: false }
    }
}

impl fmt::Display for OpsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OpsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.registry.as_ref().filter(|_| self.chained).map(|e| e as &(dyn std::error::Error + 'static))
    }
}
