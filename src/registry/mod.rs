//! The registry layer: where jobs coordinate.
//!
//! [`Registry`] is a cloneable handle on one registry session with two implementations behind
//! the same methods:
//!
//! * **ZooKeeper** ([`zk`]): the production registry. The handle is chrooted to the namespace,
//!   authenticates with a digest and creates nodes with creator-only ACLs when one is given,
//!   supervises its session (Disconnected / Connected / Expired are published on
//!   [`Registry::session`]) and builds a new session when the old one expires.
//! * **Embedded** ([`embedded`]): the same tree and semantics in memory, for one process. It is
//!   what `ejctl run` uses when the job file names no registry, and tests use it to run the same
//!   coordination scenarios in-process.
//!
//! On top of the primitive operations this module adds ElasticJob's storage verbs
//! (`create_if_absent`, `put`, `put_ephemeral`, `delete_if_exists`, `delete_recursive`), the
//! pipelined subtree reader ([`Registry::read_subtree`]), and [`cache::TreeCache`], the watched
//! cache of a job subtree. Node names live in [`path`], value formats in [`codec`].
//!
//! Errors are typed ([`RegistryError`]) and never swallowed: "already exists" and "does not
//! exist" are returned as such, and only the storage verbs whose meaning makes them no-ops
//! (`create_if_absent`, `delete_if_exists`) treat them as success.

pub mod bytes;
pub mod cache;
pub mod codec;
pub mod embedded;
mod error;
pub mod path;
pub mod pathmap;
pub mod snapshot;
mod verbs;
pub mod zk;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

pub use self::error::{RegistryError, Result};
pub use self::zk::{ZkOptions, ZkTls};

/// The metadata of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stat {
    /// Zxid of the transaction that created the node.
    pub czxid: i64,
    /// Zxid of the transaction that last changed its data.
    pub mzxid: i64,
    /// Creation time, milliseconds since the epoch (the registry's clock).
    pub ctime: i64,
    /// Last modification time, milliseconds since the epoch (the registry's clock).
    pub mtime: i64,
    /// Number of data changes.
    pub version: i32,
    /// Number of child changes.
    pub cversion: i32,
    /// Session that owns the node if it is ephemeral, else 0.
    pub ephemeral_owner: i64,
    /// Number of children.
    pub num_children: i32,
    /// Length of the data.
    pub data_length: i32,
}

impl From<&zookeeper_client::Stat> for Stat {
    fn from(s: &zookeeper_client::Stat) -> Stat {
        Stat {
            czxid: s.czxid,
            mzxid: s.mzxid,
            ctime: s.ctime,
            mtime: s.mtime,
            version: s.version,
            cversion: s.cversion,
            ephemeral_owner: s.ephemeral_owner,
            num_children: s.num_children,
            data_length: s.data_length,
        }
    }
}

/// A node's data and metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeData {
    /// The data.
    pub data: Vec<u8>,
    /// The metadata.
    pub stat: Stat,
}

impl NodeData {
    /// The data as (lossy) UTF-8 text.
    pub fn text(&self) -> String {
        codec::decode_text(&self.data)
    }
}

/// How a node is created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Lives until deleted.
    Persistent,
    /// Deleted when the creating session ends.
    Ephemeral,
    /// Persistent, with a 10-digit sequence number appended to the name.
    PersistentSequential,
    /// Ephemeral, with a 10-digit sequence number appended to the name.
    EphemeralSequential,
    /// Persistent, and deleted by ZooKeeper some time after its last child is (the parents
    /// Curator creates for a latch). The embedded registry keeps it like a persistent node.
    Container,
}

impl Mode {
    fn is_sequential(self) -> bool {
        matches!(self, Mode::PersistentSequential | Mode::EphemeralSequential)
    }

    fn is_ephemeral(self) -> bool {
        matches!(self, Mode::Ephemeral | Mode::EphemeralSequential)
    }
}

/// One operation of an all-or-nothing [`Registry::transaction`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// The node exists (and has this version, if given).
    Check {
        /// The node.
        path: String,
        /// The expected version; `None` checks existence only.
        version: Option<i32>,
    },
    /// Create a node (its parent must exist or be created earlier in the transaction).
    Create {
        /// The node.
        path: String,
        /// Its data.
        data: Vec<u8>,
        /// Its mode.
        mode: Mode,
    },
    /// Replace a node's data.
    Set {
        /// The node.
        path: String,
        /// The new data.
        data: Vec<u8>,
        /// The expected version; `None` for any.
        version: Option<i32>,
    },
    /// Delete a node (it must have no children).
    Delete {
        /// The node.
        path: String,
        /// The expected version; `None` for any.
        version: Option<i32>,
    },
}

/// The most one transaction of ejctl's may weigh ([`Op::encoded_size`]): half of ZooKeeper's
/// default `jute.maxbuffer` (1 MiB − 1), which a server applies to every request it reads — a
/// larger one closes the connection. Writes larger than this are split by their writer.
pub const TRANSACTION_BUDGET: usize = 512 * 1024;

impl Op {
    /// The node the operation is about.
    pub fn path(&self) -> &str {
        match self {
            Op::Check { path, .. } | Op::Create { path, .. } | Op::Set { path, .. } | Op::Delete { path, .. } => path,
        }
    }

    /// Its size in a ZooKeeper multi request, from the wire format, its path prefixed by
    /// `prefix` bytes of namespace: the op header (type, done, error: 9 bytes), the length-prefixed
    /// path, then a create's data, ACL (128 bytes allowed: a digest or x509 identity) and flags, a
    /// set's data and version, a delete's or check's version.
    pub fn encoded_size(&self, prefix: usize) -> usize {
        const HEADER: usize = 9;
        const ACL: usize = 128;
        let path = 4 + prefix + self.path().len();
        HEADER
            + path
            + match self {
                Op::Check { .. } | Op::Delete { .. } => 4,
                Op::Create { data, .. } => 4 + data.len() + ACL + 4,
                Op::Set { data, .. } => 4 + data.len() + 4,
            }
    }
}

/// The state of the link between this handle and the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkState {
    /// Connected; requests are served.
    Connected,
    /// The connection is lost; the session may still be alive on the server. Requests wait.
    Disconnected,
    /// The session expired; its ephemeral nodes are gone. A new session is being established and
    /// [`SessionStatus::epoch`] changes when it is.
    Expired,
}

impl LinkState {
    /// The state in a word, for logs: `connected`, `disconnected`, `expired`.
    pub fn as_str(self) -> &'static str {
        match self {
            LinkState::Connected => "connected",
            LinkState::Disconnected => "disconnected",
            LinkState::Expired => "expired",
        }
    }
}

/// What [`Registry::session`] publishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionStatus {
    /// Counts sessions: it changes when a new session replaces an expired one, which is when the
    /// owner must re-create its ephemeral nodes.
    pub epoch: u64,
    /// The session id (0 while none is established).
    pub session_id: i64,
    /// The link state.
    pub state: LinkState,
}

/// An event from a [`SubtreeWatch`]. The path is shared: the embedded registry hands the same
/// event to every watch that sees it, and a cache passes it on in its [`cache::CacheEvent`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchEvent {
    /// A node was created.
    Created(Arc<str>),
    /// A node's data changed.
    Changed(Arc<str>),
    /// A node was deleted.
    Deleted(Arc<str>),
    /// Events may have been lost (a reconnect or a new session): re-read the subtree.
    Resync,
}

/// A persistent recursive watch on a subtree that survives reconnects and session expiry: after
/// either it is re-registered and yields [`WatchEvent::Resync`].
pub struct SubtreeWatch {
    inner: WatchInner,
}

enum WatchInner {
    Zk(zk::ZkWatch),
    Embedded(embedded::EmbeddedWatch),
}

impl SubtreeWatch {
    /// The next event; `None` once the registry handle is gone.
    ///
    /// Not cancel-safe on ZooKeeper (an event being re-registered may be lost): own the watch in
    /// one task and await this method there.
    pub async fn next(&mut self) -> Option<WatchEvent> {
        match &mut self.inner {
            WatchInner::Zk(w) => w.next().await,
            WatchInner::Embedded(w) => w.next().await,
        }
    }
}

/// A held Curator-format latch (`{dir}/_c_{uuid}-latch-{seq}`); released when dropped.
pub struct LatchGuard {
    inner: LatchInner,
}

impl LatchGuard {
    /// The path of the held latch node.
    pub fn path(&self) -> &str {
        match &self.inner {
            LatchInner::Zk(lock) => lock.lock_path(),
            LatchInner::Embedded(latch) => latch.path(),
        }
    }
}

enum LatchInner {
    Zk(zookeeper_client::OwnedLockClient),
    Embedded(embedded::EmbeddedLatch),
}

/// A node read by [`Registry::read_subtree`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeNode {
    /// The namespace-relative path.
    pub path: String,
    /// Data and metadata.
    pub node: NodeData,
}

/// A cloneable handle on one registry session.
#[derive(Clone)]
pub struct Registry {
    backend: Backend,
}

#[derive(Clone)]
enum Backend {
    Zk(Arc<zk::ZkBackend>),
    Embedded(Arc<embedded::EmbeddedBackend>),
}

/// Dispatches a method call to the backend.
macro_rules! dispatch {
    ($self:ident . $method:ident ( $($arg:expr),* )) => {
        match &$self.backend {
            Backend::Zk(b) => b.$method($($arg),*).await,
            Backend::Embedded(b) => b.$method($($arg),*).await,
        }
    };
}

/// Maximum paths per pipelined read request.
const READ_BATCH: usize = 128;

impl Registry {
    /// Connects to ZooKeeper, creating the namespace node if `options.create_namespace` is set.
    ///
    /// # Errors
    /// A bad connect string, no reachable server within the connection timeout, a missing
    /// namespace, or credentials that cannot read the namespace.
    pub async fn connect(options: ZkOptions) -> Result<Registry> {
        Ok(Registry { backend: Backend::Zk(zk::ZkBackend::connect(options).await?) })
    }

    /// Opens a new session on an in-memory registry.
    pub fn embedded(store: &embedded::EmbeddedStore) -> Registry {
        Registry { backend: Backend::Embedded(embedded::EmbeddedBackend::open(store)) }
    }

    /// The embedded handle's client id, which [`embedded::EmbeddedStore`]'s fault injection
    /// (partition, expiry, crash, slow or lost replies) takes; `None` on ZooKeeper.
    pub fn embedded_client(&self) -> Option<u64> {
        match &self.backend {
            Backend::Zk(_) => None,
            Backend::Embedded(b) => Some(b.client()),
        }
    }

    /// `zookeeper` or `embedded`.
    pub fn kind(&self) -> &'static str {
        match &self.backend {
            Backend::Zk(_) => "zookeeper",
            Backend::Embedded(_) => "embedded",
        }
    }

    /// A short description for logs and messages (`zookeeper 127.0.0.1:2181/demo`).
    pub fn describe(&self) -> String {
        match &self.backend {
            Backend::Zk(b) => b.describe(),
            Backend::Embedded(_) => "embedded in-process registry".to_string(),
        }
    }

    /// The session status, updated as the link changes.
    pub fn session(&self) -> watch::Receiver<SessionStatus> {
        match &self.backend {
            Backend::Zk(b) => b.session(),
            Backend::Embedded(b) => b.session(),
        }
    }

    /// The negotiated session timeout.
    pub fn session_timeout(&self) -> Duration {
        match &self.backend {
            Backend::Zk(b) => b.session_timeout(),
            Backend::Embedded(_) => embedded::SESSION_TIMEOUT,
        }
    }

    /// Ends the current session as if it had expired, so that a new one is built (fault
    /// injection for tests: on ZooKeeper the session is closed from a second connection).
    ///
    /// # Errors
    /// When the second connection cannot be made.
    pub async fn expire_session(&self) -> Result<()> {
        dispatch!(self.expire_session())
    }

    /// Reads a node; `None` when it does not exist.
    ///
    /// # Errors
    /// Registry errors other than a missing node.
    pub async fn get(&self, path: &str) -> Result<Option<NodeData>> {
        dispatch!(self.get(path))
    }

    /// Reads many nodes with pipelined multi-read requests; `None` for a missing node.
    ///
    /// # Errors
    /// Registry errors other than a missing node.
    pub async fn get_many(&self, paths: &[String]) -> Result<Vec<Option<NodeData>>> {
        dispatch!(self.get_many(paths))
    }

    /// Reads many nodes and the names of their children with pipelined multi-read requests;
    /// `None` for a missing node.
    ///
    /// # Errors
    /// Registry errors other than a missing node.
    pub async fn get_many_with_children(&self, paths: &[String]) -> Result<Vec<Option<(NodeData, Vec<String>)>>> {
        dispatch!(self.get_many_with_children(paths))
    }

    /// A node's children (unsorted); `None` when the node does not exist.
    ///
    /// # Errors
    /// Registry errors other than a missing node.
    pub async fn children(&self, path: &str) -> Result<Option<Vec<String>>> {
        dispatch!(self.children(path))
    }

    /// The children of many nodes with pipelined requests.
    ///
    /// # Errors
    /// Registry errors other than a missing node.
    pub async fn children_many(&self, paths: &[String]) -> Result<Vec<Option<Vec<String>>>> {
        dispatch!(self.children_many(paths))
    }

    /// Who besides this connection's own identity may use a node (`scheme:id` of its ACL
    /// entries, such as `world:anyone`); empty when the node is creator-only for this identity,
    /// does not exist, or the connection has no identity of its own (nothing is then
    /// creator-only), and always in the embedded registry.
    ///
    /// # Errors
    /// Registry errors other than a missing node.
    pub async fn foreign_access(&self, path: &str) -> Result<Vec<String>> {
        match &self.backend {
            Backend::Zk(b) => b.foreign_access(path).await,
            Backend::Embedded(_) => Ok(Vec::new()),
        }
    }

    /// A node's metadata; `None` when it does not exist.
    ///
    /// # Errors
    /// Registry errors other than a missing node.
    pub async fn exists(&self, path: &str) -> Result<Option<Stat>> {
        dispatch!(self.exists(path))
    }

    /// Creates a node, creating missing parents as persistent nodes. Returns the created path
    /// (with the sequence number for sequential modes).
    ///
    /// # Errors
    /// [`RegistryError::NodeExists`] when it exists; other registry errors.
    pub async fn create(&self, path: &str, data: &[u8], mode: Mode) -> Result<String> {
        match dispatch!(self.create(path, data, mode)) {
            Err(RegistryError::NoNode(_)) => {
                self.create_parents(path).await?;
                dispatch!(self.create(path, data, mode))
            }
            other => other,
        }
    }

    /// Creates the missing ancestors of `path` (persistent, empty): up from its parent, each is
    /// created until one is created or found to exist, then the ones below it, top down. That
    /// is a request per missing ancestor and one per ancestor created on the way down (`k`
    /// missing: `2k - 1`), not a probe per ancestor plus a creation per missing one (`2k + 1`).
    async fn create_parents(&self, path: &str) -> Result<()> {
        let mut missing = Vec::new();
        let mut parent = path::parent(path);
        while parent != "/" {
            match dispatch!(self.create(parent, codec::EMPTY, Mode::Persistent)) {
                Ok(_) | Err(RegistryError::NodeExists(_)) => break,
                Err(RegistryError::NoNode(_)) => missing.push(parent),
                Err(e) => return Err(e),
            }
            parent = path::parent(parent);
        }
        for p in missing.into_iter().rev() {
            match dispatch!(self.create(p, codec::EMPTY, Mode::Persistent)) {
                Ok(_) | Err(RegistryError::NodeExists(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Replaces a node's data, if its version matches when one is given.
    ///
    /// # Errors
    /// [`RegistryError::NoNode`], [`RegistryError::BadVersion`], other registry errors.
    pub async fn set(&self, path: &str, data: &[u8], version: Option<i32>) -> Result<Stat> {
        dispatch!(self.set(path, data, version))
    }

    /// Deletes a node without children, if its version matches when one is given.
    ///
    /// # Errors
    /// [`RegistryError::NoNode`], [`RegistryError::NotEmpty`], [`RegistryError::BadVersion`].
    pub async fn delete(&self, path: &str, version: Option<i32>) -> Result<()> {
        dispatch!(self.delete(path, version))
    }

    /// Applies all operations or none.
    ///
    /// # Errors
    /// [`RegistryError::Transaction`] naming the failing operation; other registry errors.
    pub async fn transaction(&self, ops: &[Op]) -> Result<()> {
        if ops.is_empty() {
            return Ok(());
        }
        dispatch!(self.transaction(ops))
    }

    /// Starts a persistent recursive watch on `path` and everything below it.
    ///
    /// # Errors
    /// Registry errors while registering the watch.
    pub async fn watch_subtree(&self, path: &str) -> Result<SubtreeWatch> {
        let inner = match &self.backend {
            Backend::Zk(b) => WatchInner::Zk(zk::ZkWatch::start(b, path).await?),
            Backend::Embedded(b) => WatchInner::Embedded(b.watch(path)),
        };
        Ok(SubtreeWatch { inner })
    }

    /// Acquires the Curator `LeaderLatch`-format latch at `dir`, waiting for earlier contenders.
    /// Cancel-safe: dropping the future withdraws from the queue.
    ///
    /// # Errors
    /// Registry errors, including an expired session.
    pub async fn latch(&self, dir: &str) -> Result<LatchGuard> {
        let inner = match &self.backend {
            Backend::Zk(b) => LatchInner::Zk(b.latch(dir).await?),
            Backend::Embedded(b) => LatchInner::Embedded(b.latch(dir).await?),
        };
        Ok(LatchGuard { inner })
    }

    /// One cheap round trip to the registry (the namespace root's metadata): proves the link.
    ///
    /// # Errors
    /// Registry errors.
    pub async fn ping(&self) -> Result<()> {
        self.exists(path::NAMESPACE_ROOT).await.map(drop)
    }

    /// The id of the current session.
    pub fn session_id(&self) -> i64 {
        self.session().borrow().session_id
    }

    /// How many bytes the namespace adds to every path on the wire (`/namespace`; none in the
    /// embedded registry, which has no request size limit).
    pub fn path_prefix_len(&self) -> usize {
        match &self.backend {
            Backend::Zk(b) => b.namespace().len() + 1,
            Backend::Embedded(_) => 0,
        }
    }
}

/// Awaits per-chunk request futures, all in flight at once, and concatenates their results in
/// order.
async fn join_batches<R>(
    batches: impl Iterator<Item = impl std::future::Future<Output = Result<Vec<R>>>>,
) -> Result<Vec<R>> {
    let chunks = futures::future::try_join_all(batches).await?;
    Ok(chunks.into_iter().flatten().collect())
}
