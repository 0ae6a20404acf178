//! Typed registry errors. Callers branch on the kind (a missing node, a version conflict, an
//! unavailable registry); nothing is swallowed here.

use std::time::Duration;

/// An error from the registry, with the node it concerns where there is one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// The node does not exist.
    #[error("node {0} does not exist")]
    NoNode(String),
    /// The node already exists.
    #[error("node {0} already exists")]
    NodeExists(String),
    /// A version check failed: someone else changed the node.
    #[error("node {0} was changed concurrently (version conflict)")]
    BadVersion(String),
    /// The node has children and cannot be deleted on its own.
    #[error("node {0} has children")]
    NotEmpty(String),
    /// An ephemeral node cannot have children.
    #[error("node {0} is ephemeral and cannot have children")]
    NoChildrenForEphemerals(String),
    /// The session is not authorised for the node.
    #[error("not authorised to access {0}: wrong or missing digest credentials")]
    NoAuth(String),
    /// The connect string cannot be used.
    #[error("invalid connect string '{servers}': {reason}")]
    InvalidConnectString {
        /// The connect string as given.
        servers: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No server could be reached within the connection timeout.
    #[error("zookeeper at {servers} is unreachable: {reason}")]
    Unreachable {
        /// The connect string.
        servers: String,
        /// The last connection error.
        reason: String,
    },
    /// The TLS settings cannot be used: a file is unreadable or holds no usable PEM.
    #[error("{0}")]
    TlsConfig(String),
    /// The connection dropped while the request was in flight; the outcome is unknown.
    #[error("connection to the registry was lost")]
    ConnectionLoss,
    /// The session expired; a new one is being established.
    #[error("registry session expired")]
    SessionExpired,
    /// The request did not complete in time.
    #[error("registry request timed out after {0:?}")]
    Timeout(Duration),
    /// The registry handle was closed.
    #[error("registry closed")]
    Closed,
    /// One operation of a transaction failed, so none was applied.
    #[error("transaction not applied: operation {index} failed: {source}")]
    Transaction {
        /// The index of the failing operation.
        index: usize,
        /// Why it failed.
        source: Box<RegistryError>,
    },
    /// A node or value the registry returned is not what the layout allows.
    #[error("{0}")]
    Corrupt(String),
    /// Any other ZooKeeper error.
    #[error("zookeeper error on {path}: {message}")]
    Other {
        /// The node concerned.
        path: String,
        /// The error.
        message: String,
    },
}

impl RegistryError {
    /// True when the registry cannot be used right now (connection, session, credentials).
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            RegistryError::NoAuth(_)
                | RegistryError::InvalidConnectString { .. }
                | RegistryError::Unreachable { .. }
                | RegistryError::ConnectionLoss
                | RegistryError::SessionExpired
                | RegistryError::Timeout(_)
                | RegistryError::Closed
        )
    }

    /// True when retrying the same request later may succeed.
    pub fn is_transient(&self) -> bool {
        matches!(self, RegistryError::ConnectionLoss | RegistryError::SessionExpired | RegistryError::Timeout(_))
    }

    /// Maps a ZooKeeper client error for a request on `path`.
    pub(crate) fn from_zk(err: zookeeper_client::Error, path: &str) -> RegistryError {
        use zookeeper_client::Error as E;
        match err {
            E::NoNode => RegistryError::NoNode(path.to_string()),
            E::NodeExists => RegistryError::NodeExists(path.to_string()),
            E::BadVersion => RegistryError::BadVersion(path.to_string()),
            E::NotEmpty => RegistryError::NotEmpty(path.to_string()),
            E::NoChildrenForEphemerals => RegistryError::NoChildrenForEphemerals(path.to_string()),
            E::NoAuth | E::AuthFailed => RegistryError::NoAuth(path.to_string()),
            E::ConnectionLoss => RegistryError::ConnectionLoss,
            E::SessionExpired | E::SessionMoved => RegistryError::SessionExpired,
            E::ClientClosed => RegistryError::Closed,
            other => RegistryError::Other { path: path.to_string(), message: other.to_string() },
        }
    }
}

/// Shorthand for registry results.
pub type Result<T, E = RegistryError> = std::result::Result<T, E>;
