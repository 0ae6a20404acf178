//! The embedded backend of [`Registry`](super::Registry): ZooKeeper's data model in memory.
//!
//! An [`EmbeddedStore`] is one tree shared by every handle opened on it in this process. Each
//! handle ([`Registry::embedded`](super::Registry::embedded)) is a session with the semantics the
//! coordination code relies on: ephemeral nodes that vanish when their session ends, sequential
//! names from the parent's child version (as ZooKeeper does), versions and zxids, all-or-nothing
//! transactions, persistent recursive watches delivered in order, Curator-format latches, and an
//! expiry that can be forced ([`Registry::expire_session`](super::Registry::expire_session)).
//!
//! [`EmbeddedStore::disconnect`] and [`EmbeddedStore::reconnect`] simulate the server going away
//! and coming back within the session timeout: requests wait, watch events in between are lost and
//! watches yield [`WatchEvent::Resync`] afterwards, exactly what a consumer must cope with on
//! ZooKeeper. The store is for one process only: nothing here is shared across processes.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::{oneshot, watch};

use super::bytes::share;
use super::{LinkState, Mode, NodeData, Op, RegistryError, Result, SessionStatus, Stat, WatchEvent, path};
use crate::clock::{Clock, SystemClock};

mod faults;
mod map;
mod node;
mod watches;

pub use self::faults::{Fault, FaultPlan};
use self::map::NodeMap;
use self::node::{ENode, EStat, U48};

/// The nominal session timeout of an embedded session (used by code that derives deadlines from
/// it; embedded sessions only end when closed or expired on purpose).
pub const SESSION_TIMEOUT: Duration = Duration::from_secs(10);

/// An in-memory registry tree shared by the handles opened on it.
#[derive(Clone, Default)]
pub struct EmbeddedStore {
    state: Arc<Mutex<State>>,
}

struct State {
    nodes: NodeMap,
    zxid: i64,
    next_session: i64,
    sessions: BTreeMap<i64, u64>,
    watches: watches::Watches,
    delete_waiters: Vec<(String, oneshot::Sender<()>)>,
    offline: bool,
    clients: BTreeMap<u64, ClientLink>,
    /// Where node times come from.
    clock: Arc<dyn Clock>,
}

impl Default for State {
    fn default() -> State {
        State {
            nodes: NodeMap::default(),
            zxid: 0,
            next_session: 0,
            sessions: BTreeMap::new(),
            watches: watches::Watches::default(),
            delete_waiters: Vec::new(),
            offline: false,
            clients: BTreeMap::new(),
            clock: Arc::new(SystemClock),
        }
    }
}

struct ClientLink {
    status: watch::Sender<SessionStatus>,
    /// Events are dropped for this client while set (a simulated disconnect or expiry).
    deaf: bool,
    /// Cut off from the server on its own (see [`EmbeddedStore::partition`]).
    partitioned: bool,
    /// When the handle is dropped its session is left open, as a crashed process's is, until it
    /// is expired ([`EmbeddedStore::expire_session_id`]).
    linger: bool,
    /// Fault injection for this handle's requests, and how late its watch events arrive.
    faults: Option<FaultPlan>,
    event_lag: Duration,
}

static NEXT_CLIENT: AtomicU64 = AtomicU64::new(1);

impl EmbeddedStore {
    /// An empty store.
    pub fn new() -> EmbeddedStore {
        EmbeddedStore::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the tree half-changed: every mutation is
        // applied through `transact`, which rolls back on error before returning.
        crate::sync::lock(&self.state)
    }

    /// The number of nodes (the root included).
    pub fn node_count(&self) -> usize {
        self.lock().nodes.len()
    }

    /// An empty store whose node times come from `clock` (a simulation's virtual clock).
    pub fn with_clock(clock: Arc<dyn Clock>) -> EmbeddedStore {
        let store = EmbeddedStore::new();
        store.lock().clock = clock;
        store
    }
}

impl State {
    fn now_millis(&self) -> i64 {
        self.clock.now().timestamp_millis()
    }

    /// Tells `client` its session expired and gives it a new one (ZooKeeper clients rebuild
    /// their session after an expiry).
    fn renew_session(&mut self, client: u64) {
        let new = self.open_session(client);
        if let Some(link) = self.clients.get_mut(&client) {
            link.deaf = true;
            link.status.send_modify(|s| s.state = LinkState::Expired);
            link.status.send_modify(|s| {
                s.epoch += 1;
                s.session_id = new;
            });
        }
    }

    fn ensure_root(&mut self) {
        if !self.nodes.contains_key("/") {
            self.nodes.insert("/", ENode { data: share(&[]), stat: EStat::default() });
        }
    }

    fn resume_client(&mut self, client: u64) {
        if let Some(link) = self.clients.get_mut(&client) {
            if link.partitioned {
                return;
            }
            link.deaf = false;
            link.status.send_modify(|s| s.state = LinkState::Connected);
        }
        self.watches.resync_client(client);
    }

    fn children(&self, parent: &str) -> Vec<String> {
        self.nodes.child_names(parent)
    }

    /// Applies `ops` atomically for `session`; on success delivers the events.
    fn transact(&mut self, ops: &[Op], session: i64) -> Result<Vec<String>> {
        self.ensure_root();
        self.zxid += 1;
        let zxid = self.zxid;
        let mut undo: Vec<(String, Option<ENode>)> = Vec::new();
        let mut events = Vec::new();
        let mut created = Vec::new();
        for (index, op) in ops.iter().enumerate() {
            if let Err(e) = self.apply(op, session, zxid, &mut undo, &mut events, &mut created) {
                for (p, old) in undo.into_iter().rev() {
                    match old {
                        Some(n) => self.nodes.insert(&p, n),
                        None => self.nodes.remove(p.as_str()),
                    };
                }
                self.zxid -= 1;
                return Err(if ops.len() == 1 { e } else { RegistryError::Transaction { index, source: Box::new(e) } });
            }
        }
        self.deliver(events);
        Ok(created)
    }

    fn apply(
        &mut self,
        op: &Op,
        session: i64,
        zxid: i64,
        undo: &mut Vec<(String, Option<ENode>)>,
        events: &mut Vec<WatchEvent>,
        created: &mut Vec<String>,
    ) -> Result<()> {
        let p = op.path();
        if !valid_path(p) {
            return Err(RegistryError::Other { path: p.to_string(), message: "invalid path".into() });
        }
        let check_version = |node: &ENode, version: Option<i32>| match version {
            Some(v) if v != -1 && v != node.stat.version => Err(RegistryError::BadVersion(p.to_string())),
            _ => Ok(()),
        };
        match op {
            Op::Check { version, .. } => {
                let node = self.nodes.get(p).ok_or_else(|| RegistryError::NoNode(p.to_string()))?;
                check_version(node, *version)
            }
            Op::Create { data, mode, .. } => {
                if p == "/" {
                    return Err(RegistryError::NodeExists(p.to_string()));
                }
                let parent_path = path::parent(p).to_string();
                let parent =
                    self.nodes.get(parent_path.as_str()).ok_or_else(|| RegistryError::NoNode(p.to_string()))?;
                if parent.stat.owner != 0 {
                    return Err(RegistryError::NoChildrenForEphemerals(p.to_string()));
                }
                let actual =
                    if mode.is_sequential() { format!("{p}{:010}", parent.stat.cversion) } else { p.to_string() };
                if self.nodes.contains_key(actual.as_str()) {
                    return Err(RegistryError::NodeExists(actual));
                }
                undo.push((parent_path.clone(), Some(parent.clone())));
                undo.push((actual.clone(), None));
                let now = self.now_millis();
                let owner = if mode.is_ephemeral() { session_id_bits(session) } else { 0 };
                let (zxid, now) = (U48::from(zxid), U48::from(now));
                let stat = EStat { czxid: zxid, mzxid: zxid, ctime: now, mtime: now, owner, ..EStat::default() };
                self.nodes.insert(&actual, ENode { data: share(data), stat });
                if let Some(parent) = self.nodes.get_mut(parent_path.as_str()) {
                    parent.stat.cversion += 1;
                    parent.stat.num_children += 1;
                }
                events.push(WatchEvent::Created(Arc::from(actual.as_str())));
                created.push(actual);
                Ok(())
            }
            Op::Set { data, version, .. } => {
                let node = self.nodes.get(p).ok_or_else(|| RegistryError::NoNode(p.to_string()))?;
                check_version(node, *version)?;
                undo.push((p.to_string(), Some(node.clone())));
                let now = self.now_millis();
                if let Some(node) = self.nodes.get_mut(p) {
                    node.data = share(data);
                    node.stat.version += 1;
                    node.stat.mzxid = U48::from(zxid);
                    node.stat.mtime = U48::from(now);
                }
                events.push(WatchEvent::Changed(Arc::from(p)));
                Ok(())
            }
            Op::Delete { version, .. } => {
                if p == "/" {
                    return Err(RegistryError::Other { path: p.into(), message: "cannot delete the root".into() });
                }
                let node = self.nodes.get(p).ok_or_else(|| RegistryError::NoNode(p.to_string()))?;
                check_version(node, *version)?;
                if node.stat.num_children > 0 {
                    return Err(RegistryError::NotEmpty(p.to_string()));
                }
                let parent_path = path::parent(p).to_string();
                undo.push((p.to_string(), Some(node.clone())));
                if let Some(parent) = self.nodes.get(parent_path.as_str()) {
                    undo.push((parent_path.clone(), Some(parent.clone())));
                }
                self.nodes.remove(p);
                if let Some(parent) = self.nodes.get_mut(parent_path.as_str()) {
                    parent.stat.cversion += 1;
                    parent.stat.num_children -= 1;
                }
                events.push(WatchEvent::Deleted(Arc::from(p)));
                Ok(())
            }
        }
    }

    fn deliver(&mut self, events: Vec<WatchEvent>) {
        for event in events {
            let (WatchEvent::Created(p) | WatchEvent::Changed(p) | WatchEvent::Deleted(p)) = &event else {
                continue;
            };
            if let WatchEvent::Deleted(p) = &event {
                let waiters = std::mem::take(&mut self.delete_waiters);
                for (path, tx) in waiters {
                    if *path == **p {
                        let _ = tx.send(());
                    } else {
                        self.delete_waiters.push((path, tx));
                    }
                }
            }
            let clients = &self.clients;
            self.watches.deliver(p, &event, |client| clients.get(&client).is_none_or(|c| c.deaf));
        }
    }

    fn close_session(&mut self, session: i64) {
        self.sessions.remove(&session);
        let owned: Vec<String> = self.nodes.paths_where(|n| n.ephemeral_owner() == session);
        if owned.is_empty() {
            return;
        }
        let ops: Vec<Op> = owned.into_iter().map(|path| Op::Delete { path, version: None }).collect();
        // Ephemeral nodes have no children, so deleting them cannot fail.
        if let Err(e) = self.transact(&ops, session) {
            tracing::error!(error = %e, "embedded registry could not remove ephemeral nodes");
        }
    }

    /// A new session's id: 0x1001, 0x1002 and so on, so that an id fits the 32 bits a node keeps
    /// of its owner (a store would have to open four billion sessions to run out; it would then
    /// reuse the last id).
    fn open_session(&mut self, client: u64) -> i64 {
        self.next_session = (self.next_session + 1).min(i64::from(u32::MAX) - 0x1000);
        let id = 0x1000 + self.next_session;
        self.sessions.insert(id, client);
        id
    }
}

/// A session id of this store as a node keeps it ([`State::open_session`] makes them fit).
fn session_id_bits(session: i64) -> u32 {
    u32::try_from(session).unwrap_or(u32::MAX)
}

fn valid_path(p: &str) -> bool {
    p == "/" || (p.starts_with('/') && !p.ends_with('/') && !p.contains("//") && !p.contains('\0'))
}

/// One handle's session on an [`EmbeddedStore`].
pub(crate) struct EmbeddedBackend {
    store: EmbeddedStore,
    client: u64,
    status: watch::Receiver<SessionStatus>,
}

impl Drop for EmbeddedBackend {
    fn drop(&mut self) {
        let mut st = self.store.lock();
        let session = self.status.borrow().session_id;
        let linger = st.clients.get(&self.client).is_some_and(|l| l.linger);
        if !linger {
            st.close_session(session);
        }
        st.clients.remove(&self.client);
        st.watches.remove_client(self.client);
    }
}

impl EmbeddedBackend {
    pub(crate) fn open(store: &EmbeddedStore) -> Arc<EmbeddedBackend> {
        let client = NEXT_CLIENT.fetch_add(1, Ordering::Relaxed);
        let mut st = store.lock();
        st.ensure_root();
        let session_id = st.open_session(client);
        let state = if st.offline { LinkState::Disconnected } else { LinkState::Connected };
        let (tx, rx) = watch::channel(SessionStatus { epoch: 1, session_id, state });
        let deaf = st.offline;
        let link =
            ClientLink { status: tx, deaf, partitioned: false, linger: false, faults: None, event_lag: Duration::ZERO };
        st.clients.insert(client, link);
        drop(st);
        Arc::new(EmbeddedBackend { store: store.clone(), client, status: rx })
    }

    pub(crate) fn session(&self) -> watch::Receiver<SessionStatus> {
        self.status.clone()
    }

    fn session_id(&self) -> i64 {
        self.status.borrow().session_id
    }

    /// The client id of this handle (for fault injection).
    pub(crate) fn client(&self) -> u64 {
        self.client
    }

    /// Waits while the simulated server is away (or this handle is cut off from it), as
    /// ZooKeeper requests queue while disconnected; a request whose session expired meanwhile
    /// fails, as ZooKeeper's do.
    /// Waits until the handle is connected in `session` (the session the request was issued in):
    /// a request never outlives its session into the next one, as with ZooKeeper, where an
    /// expired session's requests fail.
    async fn connected(&self, session: i64) -> Result<MutexGuard<'_, State>> {
        let mut status = self.status.clone();
        loop {
            {
                let st = self.store.lock();
                let partitioned = st.clients.get(&self.client).is_some_and(|l| l.partitioned);
                if self.session_id() != session {
                    return Err(RegistryError::SessionExpired);
                }
                if !st.offline && !partitioned {
                    return Ok(st);
                }
            }
            status.changed().await.map_err(|_| RegistryError::Closed)?;
        }
    }

    /// A read under fault injection: a lost reply is a failure too.
    async fn read<T>(&self, f: impl FnOnce(&State) -> T) -> Result<T> {
        let session = self.session_id();
        if matches!(self.fault().await, Fault::Fail | Fault::LoseReply) {
            return Err(RegistryError::ConnectionLoss);
        }
        let st = self.connected(session).await?;
        Ok(f(&st))
    }

    /// A write under fault injection: fails before or after being applied.
    async fn write<T>(&self, f: impl FnOnce(&mut State, i64) -> Result<T>) -> Result<T> {
        let session = self.session_id();
        let fault = self.fault().await;
        if fault == Fault::Fail {
            return Err(RegistryError::ConnectionLoss);
        }
        let mut st = self.connected(session).await?;
        let result = f(&mut st, session);
        if fault == Fault::LoseReply {
            return Err(RegistryError::ConnectionLoss);
        }
        result
    }

    pub(crate) async fn expire_session(&self) -> Result<()> {
        let mut st = self.store.lock();
        st.close_session(self.session_id());
        st.renew_session(self.client);
        if !st.offline {
            st.resume_client(self.client);
        }
        Ok(())
    }

    pub(crate) async fn get(&self, p: &str) -> Result<Option<NodeData>> {
        self.read(|st| st.nodes.get(p).map(ENode::read)).await
    }

    pub(crate) async fn get_many(&self, paths: &[String]) -> Result<Vec<Option<NodeData>>> {
        self.read(|st| paths.iter().map(|p| st.nodes.get(p.as_str()).map(ENode::read)).collect()).await
    }

    pub(crate) async fn get_many_with_children(
        &self,
        paths: &[String],
    ) -> Result<Vec<Option<(NodeData, Vec<String>)>>> {
        self.read(|st| paths.iter().map(|p| st.nodes.get(p.as_str()).map(|n| (n.read(), st.children(p)))).collect())
            .await
    }

    pub(crate) async fn children(&self, p: &str) -> Result<Option<Vec<String>>> {
        self.read(|st| st.nodes.contains_key(p).then(|| st.children(p))).await
    }

    pub(crate) async fn children_many(&self, paths: &[String]) -> Result<Vec<Option<Vec<String>>>> {
        self.read(|st| paths.iter().map(|p| st.nodes.contains_key(p.as_str()).then(|| st.children(p))).collect()).await
    }

    pub(crate) async fn exists(&self, p: &str) -> Result<Option<Stat>> {
        self.read(|st| st.nodes.get(p).map(ENode::stat)).await
    }

    pub(crate) async fn create(&self, p: &str, data: &[u8], mode: Mode) -> Result<String> {
        self.write(|st, session| {
            let created = st.transact(&[Op::Create { path: p.to_string(), data: data.to_vec(), mode }], session)?;
            Ok(created.into_iter().next().unwrap_or_else(|| p.to_string()))
        })
        .await
    }

    pub(crate) async fn set(&self, p: &str, data: &[u8], version: Option<i32>) -> Result<Stat> {
        self.write(|st, session| {
            st.transact(&[Op::Set { path: p.to_string(), data: data.to_vec(), version }], session)?;
            st.nodes.get(p).map(ENode::stat).ok_or_else(|| RegistryError::NoNode(p.to_string()))
        })
        .await
    }

    pub(crate) async fn delete(&self, p: &str, version: Option<i32>) -> Result<()> {
        self.write(|st, session| st.transact(&[Op::Delete { path: p.to_string(), version }], session).map(drop)).await
    }

    pub(crate) async fn transaction(&self, ops: &[Op]) -> Result<()> {
        self.write(|st, session| match st.transact(ops, session) {
            // A single-op transaction reports its error as a transaction error, like ZooKeeper.
            Err(e) if ops.len() == 1 && !matches!(e, RegistryError::Transaction { .. }) => {
                Err(RegistryError::Transaction { index: 0, source: Box::new(e) })
            }
            other => other.map(drop),
        })
        .await
    }

    pub(crate) fn watch(&self, root: &str) -> EmbeddedWatch {
        let (tx, rx) = crate::queue::unbounded();
        self.store.lock().watches.add(root, self.client, tx);
        EmbeddedWatch { rx, store: self.store.clone(), client: self.client }
    }

    pub(crate) async fn latch(&self, dir: &str) -> Result<EmbeddedLatch> {
        let prefix = format!("{dir}/_c_{}-{}", uuid::Uuid::new_v4(), path::LATCH_NODE_NAME);
        let session = self.session_id();
        let node = {
            let mut st = self.connected(session).await?;
            let mut missing = Vec::new();
            let mut parent = dir;
            while parent != "/" && !st.nodes.contains_key(parent) {
                missing.push(parent.to_string());
                parent = path::parent(parent);
            }
            let mut ops: Vec<Op> = missing
                .into_iter()
                .rev()
                .map(|p| Op::Create { path: p, data: Vec::new(), mode: Mode::Persistent })
                .collect();
            ops.push(Op::Create { path: prefix, data: Vec::new(), mode: Mode::EphemeralSequential });
            st.transact(&ops, session)?.pop().ok_or_else(|| RegistryError::Corrupt("latch node not created".into()))?
        };
        let latch = EmbeddedLatch { store: self.store.clone(), path: node };
        let own = path::name(&latch.path).to_string();
        loop {
            let wait = {
                let mut st = self.connected(session).await?;
                let mut contenders: Vec<String> = st
                    .children(dir)
                    .into_iter()
                    .filter(|n| n.contains(path::LATCH_NODE_NAME) && sequence(n).is_some())
                    .collect();
                contenders.sort_by_key(|n| sequence(n));
                let Some(pos) = contenders.iter().position(|n| *n == own) else {
                    return Err(RegistryError::SessionExpired);
                };
                if pos == 0 {
                    return Ok(latch);
                }
                let (tx, rx) = oneshot::channel();
                st.delete_waiters.push((path::child(dir, &contenders[pos - 1]), tx));
                rx
            };
            // A closed sender means the store dropped the waiter; re-check either way.
            let _ = wait.await;
        }
    }
}

/// The 10-digit sequence suffix of a sequential node name.
fn sequence(name: &str) -> Option<u64> {
    let digits = name.get(name.len().checked_sub(10)?..)?;
    digits.bytes().all(|b| b.is_ascii_digit()).then(|| digits.parse().ok()).flatten()
}

/// A subtree watch on the embedded registry.
pub(crate) struct EmbeddedWatch {
    rx: crate::queue::Receiver<(tokio::time::Instant, WatchEvent)>,
    store: EmbeddedStore,
    client: u64,
}

/// A held latch on the embedded registry; deletes its node when dropped.
pub(crate) struct EmbeddedLatch {
    store: EmbeddedStore,
    path: String,
}

impl EmbeddedLatch {
    pub(crate) fn path(&self) -> &str {
        &self.path
    }
}

impl Drop for EmbeddedLatch {
    fn drop(&mut self) {
        let mut st = self.store.lock();
        let owner = st.nodes.get(self.path.as_str()).map(ENode::ephemeral_owner);
        if let Some(owner) = owner {
            let _ = st.transact(&[Op::Delete { path: self.path.clone(), version: None }], owner);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_suffix() {
        assert_eq!(sequence("_c_x-latch-0000000012"), Some(12));
        assert_eq!(sequence("latch-12"), None);
    }

    #[test]
    fn a_read_derives_the_length_and_the_owner() {
        let store = EmbeddedStore::new();
        let mut st = store.lock();
        st.transact(&[Op::Create { path: "/e".into(), data: b"abc".to_vec(), mode: Mode::Ephemeral }], 0x1001).unwrap();
        let stat = st.nodes.get("/e").map(ENode::stat).unwrap();
        assert_eq!((stat.data_length, stat.ephemeral_owner, stat.version), (3, 0x1001, 0));
        st.transact(&[Op::Set { path: "/e".into(), data: b"abcdef".to_vec(), version: Some(0) }], 0x1001).unwrap();
        let stat = st.nodes.get("/e").map(ENode::stat).unwrap();
        assert_eq!((stat.data_length, stat.version), (6, 1));
        assert_eq!(st.nodes.get("/").map(ENode::stat).unwrap().num_children, 1);
    }

    #[test]
    fn children_are_direct_only() {
        let store = EmbeddedStore::new();
        let mut st = store.lock();
        for p in ["/a", "/a/b", "/a/b/c", "/a/d", "/ab"] {
            st.transact(&[Op::Create { path: p.into(), data: vec![], mode: Mode::Persistent }], 1).unwrap();
        }
        let mut kids = st.children("/a");
        kids.sort();
        assert_eq!(kids, ["b", "d"]);
        let mut top = st.children("/");
        top.sort();
        assert_eq!(top, ["a", "ab"]);
    }
}
