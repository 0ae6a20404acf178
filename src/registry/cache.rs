//! A watched cache of one subtree (a job), kept current by a persistent recursive watch.
//!
//! [`TreeCache::start`] registers the watch first and then reads the subtree (pipelined), so no
//! change can fall between the two. The task of the cache's [`CacheHub`] (its own, or one that
//! feeds many caches from one watch, see `hub.rs`) applies each watch event in order —
//! fetching the data of created and changed nodes unless the path is *lazy* (markers whose data
//! nobody needs, such as `running`, are recorded without a read so steady-state fires cost no
//! reads), in one pipelined read for the events that arrived together — and forwards it as a
//! [`CacheEvent`]. After a reconnect or a new session the watch yields a resync: the cache
//! re-reads the subtree, emits the difference from what it held as created / changed / deleted
//! events (kube-runtime's re-list), then [`CacheEvent::Resynced`].
//! A failed read also leads to a resync, retried with backoff, so the cache never silently
//! diverges.
//!
//! Readers look at the cache through [`CacheRead`] (a short read lock, never held across an
//! await) and can wait for a condition with [`TreeCache::wait_until`]; every applied event bumps
//! a revision counter that wakes them.
//!
//! A cache may keep a [`Projection`] — a structure derived from its nodes, such as a job's typed
//! view — current under the same lock, updated for each changed path instead of rebuilt from
//! every node, so a reader of a large subtree pays for what changed, not for its size.

use std::any::Any;
use std::sync::{Arc, OnceLock, RwLock, RwLockReadGuard};

use tokio::sync::watch;

use super::{NodeData, Registry, Result, Stat};
use crate::queue;

mod hub;

pub use self::hub::CacheHub;
use super::bytes::Data;
pub use super::pathmap::LARGE;
use super::pathmap::PathMap;

/// A cache's nodes. They are kept by their path below the cache's root, so that the keys are
/// the same in every job's cache and shared ([`PathMap`]); they are looked up, and listed, by
/// their whole path.
#[derive(Debug)]
pub struct Nodes {
    root: Arc<str>,
    map: PathMap<Cached>,
}

/// What [`Nodes::set`] did to its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Set {
    /// The path is new.
    Created,
    /// The path's node is another now.
    Changed,
    /// The path held this very node: same data, same stat (the zxid of its last change among
    /// it). An event older than the read that showed its change, such as a job's configuration
    /// published just before its cache read it. A lazy node (no stat) is never the same: what
    /// changed in it is not known. Also the answer for a path outside the cache's root, which
    /// changes nothing (the hub routes no such event to a cache).
    Unchanged,
}

/// Puts `node` in place of `old`, unless it is the same.
fn replace(old: &mut Cached, node: Cached) -> Set {
    if node.stat.is_some() && *old == node {
        Set::Unchanged
    } else {
        *old = node;
        Set::Changed
    }
}

impl Nodes {
    /// No nodes, below `root`.
    pub fn new(root: impl Into<Arc<str>>) -> Nodes {
        Nodes { root: root.into(), map: PathMap::new() }
    }

    /// The nodes below `root` among `nodes` (in any order; of a path given twice, the last),
    /// with room for `room` ([`PathMap::with_room`]).
    pub fn with_room(root: impl Into<Arc<str>>, mut nodes: Vec<(String, Cached)>, room: usize) -> Nodes {
        let mut out = Nodes::new(root);
        // Each path cut to what follows the root, in place.
        nodes.retain_mut(|(p, _)| match out.below(p).map(str::len) {
            Some(rest) => {
                p.replace_range(..p.len() - rest, "");
                true
            }
            None => false,
        });
        out.map = PathMap::with_room(nodes, room);
        out
    }

    /// `p` below the root ([`super::path::below`]).
    fn below<'p>(&self, p: &'p str) -> Option<&'p str> {
        super::path::below(&self.root, p)
    }

    /// The node at `p`.
    pub fn get(&self, p: &str) -> Option<&Cached> {
        self.map.get(self.below(p)?)
    }

    /// True when there is a node at `p`.
    pub fn contains_key(&self, p: &str) -> bool {
        self.get(p).is_some()
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// How many nodes there is room for without growing.
    pub fn room(&self) -> usize {
        self.map.room()
    }

    /// Sets the node at `p`, and says whether it was new, changed, or held already. A known
    /// path keeps its key (no allocation: most changes are to a node the cache holds). A path
    /// outside the root (which no event for this cache has) changes nothing.
    pub fn set(&mut self, p: &str, node: Cached) -> Set {
        let Some(rest) = self.below(p) else { return Set::Unchanged };
        self.map.put(rest, node, replace, Set::Created)
    }

    /// Removes the node at `p`, returning it.
    pub fn remove(&mut self, p: &str) -> Option<Cached> {
        let rest = self.below(p)?;
        self.map.remove(rest)
    }

    /// The names of `p`'s children, in byte order.
    pub fn children(&self, p: &str) -> Vec<String> {
        self.below(p).map(|rest| self.map.children(rest)).unwrap_or_default()
    }

    /// Calls `f` with every node and its whole path, in byte order of the path.
    pub fn for_each(&self, mut f: impl FnMut(&str, &Cached)) {
        self.walk(self.map.iter(), |p, node| {
            f(p, node);
            true
        });
    }

    /// True when `f` holds for a node whose path starts with `prefix` (a directory's path with
    /// its trailing `/`); `f` sees them in byte order of the path until it holds.
    pub fn any_under(&self, prefix: &str, mut f: impl FnMut(&str, &Cached) -> bool) -> bool {
        match self.below(prefix) {
            Some(rest) => !self.walk(self.map.under(rest), |p, node| !f(p, node)),
            None => false,
        }
    }

    /// Calls `f` with each node of `nodes` and its whole path (put together in one buffer)
    /// while it answers true; false when it answered false.
    fn walk<'a>(
        &self,
        nodes: impl Iterator<Item = (&'a str, &'a Cached)>,
        mut f: impl FnMut(&str, &Cached) -> bool,
    ) -> bool {
        // The root's path as the keys' prefix: empty for `/`, whose keys are whole paths.
        let base = super::path::base(&self.root);
        let mut path = String::with_capacity(base.len() + 64);
        path.push_str(base);
        for (rest, node) in nodes {
            path.truncate(base.len());
            path.push_str(rest);
            if !f(&path, node) {
                return false;
            }
        }
        true
    }
}

/// Decides which paths are lazy: their data is not fetched on events.
pub type LazyPolicy = fn(&str) -> bool;

/// A cached node: 24 bytes beside its path, where the data as a `Vec` and ZooKeeper's whole stat
/// took 88.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cached {
    /// The data; `None` when the path is lazy (its data is neither read nor kept). Short data is
    /// shared with every other holder of the same bytes ([`super::bytes`]).
    pub data: Option<Data>,
    /// The metadata, when known.
    pub stat: Option<CachedStat>,
}

/// What a cache keeps of a node's [`Stat`]: the version a conditional write names, whether the
/// node is ephemeral, and the zxid of its last change, which tells a node recreated or rewritten
/// with the same data and version apart when a resync compares old and new. Whose ephemeral node
/// it is (the owner's session) is not kept: what depends on that reads the node itself, and the
/// flag's spare values let `Option<CachedStat>` take no more room than the stat (16 bytes, not
/// 32, in every cached node).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CachedStat {
    /// Zxid of the transaction that last changed the node's data (or created it).
    pub mzxid: i64,
    /// Number of data changes.
    pub version: i32,
    /// True when the node is ephemeral (owned by a session).
    pub ephemeral: bool,
}

impl From<&Stat> for CachedStat {
    fn from(s: &Stat) -> CachedStat {
        CachedStat { mzxid: s.mzxid, version: s.version, ephemeral: s.ephemeral_owner != 0 }
    }
}

impl Cached {
    /// A copy of the data; empty when it is not loaded.
    pub fn data_vec(&self) -> Vec<u8> {
        self.data.as_deref().map(<[u8]>::to_vec).unwrap_or_default()
    }
}

impl From<&NodeData> for Cached {
    fn from(node: &NodeData) -> Cached {
        Cached { data: Some(super::bytes::share(&node.data)), stat: Some(CachedStat::from(&node.stat)) }
    }
}

impl From<NodeData> for Cached {
    fn from(node: NodeData) -> Cached {
        Cached::from(&node)
    }
}

/// What changed in the cache (the path is the watch event's, shared).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheEvent {
    /// A node appeared.
    Created(Arc<str>),
    /// A node's data changed.
    Changed(Arc<str>),
    /// A node disappeared.
    Deleted(Arc<str>),
    /// The cache was rebuilt after events may have been lost; the events just before this one
    /// describe the difference.
    Resynced,
}

/// A structure derived from a cache's nodes and kept current with them: rebuilt from every node
/// after a (re)read, updated path by path as events are applied. A reader sees it through
/// [`CacheRead::projection`], always consistent with the nodes beside it.
pub trait Projection: Any + Send + Sync {
    /// Rebuilds from every node (the first read and each resync).
    fn rebuild(&mut self, nodes: &Nodes);

    /// `path` was created, changed or deleted; `nodes` is the tree after the change.
    fn update(&mut self, nodes: &Nodes, path: &str);
}

/// The cached nodes and the projection derived from them.
struct Tree {
    nodes: Nodes,
    projection: Option<Box<dyn Projection>>,
}

impl Tree {
    /// Sets `path`'s node.
    fn insert(&mut self, path: &str, node: Cached) -> Set {
        let set = self.nodes.set(path, node);
        if set != Set::Unchanged
            && let Some(p) = self.projection.as_mut()
        {
            p.update(&self.nodes, path);
        }
        set
    }

    /// Removes `path`; true when it was there.
    fn remove(&mut self, path: &str) -> bool {
        let existed = self.nodes.remove(path).is_some();
        if existed && let Some(p) = self.projection.as_mut() {
            p.update(&self.nodes, path);
        }
        existed
    }

    /// Sets the nodes of the first read, and the projection derived from them.
    fn set(&mut self, nodes: Nodes, projection: Option<Box<dyn Projection>>) {
        self.projection = projection;
        self.replace(nodes);
    }

    fn replace(&mut self, nodes: Nodes) {
        self.nodes = nodes;
        if let Some(p) = self.projection.as_mut() {
            p.rebuild(&self.nodes);
        }
    }
}

struct Shared {
    root: Arc<str>,
    tree: RwLock<Tree>,
    /// Made by the first [`TreeCache::revisions`]: most caches never have a waiter, and a watch
    /// channel is 344 bytes of every job. A waiter subscribes before it looks at the tree, so a
    /// change it did not see is made after the channel exists and wakes it.
    revision: OnceLock<watch::Sender<u64>>,
}

impl Shared {
    /// An empty cache of `root`, before its first read.
    fn new(root: Arc<str>) -> Shared {
        let tree = Tree { nodes: Nodes::new(Arc::clone(&root)), projection: None };
        Shared { root, tree: RwLock::new(tree), revision: OnceLock::new() }
    }

    fn read(&self) -> RwLockReadGuard<'_, Tree> {
        crate::sync::read(&self.tree)
    }

    fn write<R>(&self, f: impl FnOnce(&mut Tree) -> R) -> R {
        let out = f(&mut crate::sync::write(&self.tree));
        if let Some(revision) = self.revision.get() {
            revision.send_modify(|r| *r += 1);
        }
        out
    }

    fn revisions(&self) -> watch::Receiver<u64> {
        self.revision.get_or_init(|| watch::Sender::new(0)).subscribe()
    }
}

/// A read-only look at the cached tree.
pub struct CacheRead<'a> {
    tree: RwLockReadGuard<'a, Tree>,
}

impl CacheRead<'_> {
    /// The cache's projection, when it keeps one of type `T`.
    pub fn projection<T: Projection>(&self) -> Option<&T> {
        let p: &dyn Any = self.tree.projection.as_deref()?;
        p.downcast_ref()
    }

    /// True when the node exists.
    pub fn exists(&self, p: &str) -> bool {
        self.tree.nodes.contains_key(p)
    }

    /// `dir` and its ancestors below `top` that the cache does not show, top down: what a
    /// transaction creating `dir` must create first (the cache may be behind; the transaction
    /// then fails and the caller falls back to creating node by node).
    pub fn missing_dirs(&self, dir: &str, top: &str) -> Vec<String> {
        let mut missing = Vec::new();
        let mut dir = dir;
        while dir != top && dir != "/" && !self.exists(dir) {
            missing.push(dir.to_string());
            dir = super::path::parent(dir);
        }
        missing.reverse();
        missing
    }

    /// The node, if it exists.
    pub fn node(&self, p: &str) -> Option<&Cached> {
        self.tree.nodes.get(p)
    }

    /// The node's data, if it exists and its data is loaded.
    pub fn data(&self, p: &str) -> Option<&[u8]> {
        self.tree.nodes.get(p).and_then(|c| c.data.as_deref())
    }

    /// The node's data as text, if it exists and its data is loaded.
    pub fn text(&self, p: &str) -> Option<String> {
        self.data(p).map(super::codec::decode_text)
    }

    /// The names of a node's children, in byte order.
    pub fn children(&self, p: &str) -> Vec<String> {
        self.tree.nodes.children(p)
    }

    /// The cached nodes.
    pub fn nodes(&self) -> &Nodes {
        &self.tree.nodes
    }

    /// Every cached path and a copy of its data (empty when not loaded), in byte order of the
    /// path.
    pub fn contents(&self) -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::with_capacity(self.len());
        self.tree.nodes.for_each(|p, node| out.push((p.to_string(), node.data_vec())));
        out
    }

    /// The number of cached nodes.
    pub fn len(&self) -> usize {
        self.tree.nodes.len()
    }

    /// True when nothing is cached (the root does not exist).
    pub fn is_empty(&self) -> bool {
        self.tree.nodes.is_empty()
    }
}

/// A cheap, cloneable reader of a [`TreeCache`] for other tasks (for example the dump port).
#[derive(Clone)]
pub struct CacheReader {
    shared: Arc<Shared>,
}

impl CacheReader {
    /// Looks at the cached tree.
    pub fn read(&self) -> CacheRead<'_> {
        CacheRead { tree: self.shared.read() }
    }

    /// The root path of the cached subtree.
    pub fn root(&self) -> &str {
        &self.shared.root
    }

    /// A receiver that is notified after every change applied to the cache.
    pub fn revisions(&self) -> watch::Receiver<u64> {
        self.shared.revisions()
    }
}

/// The watched cache of one subtree, fed by a [`CacheHub`]: its own, or one it shares with other
/// caches. Dropping it leaves the hub (and stops the hub's watch when nothing else holds it).
pub struct TreeCache {
    shared: Arc<Shared>,
    events: queue::Receiver<CacheEvent>,
    hub: Arc<hub::Hub>,
}

impl Drop for TreeCache {
    fn drop(&mut self) {
        self.hub.leave(&self.shared);
    }
}

impl TreeCache {
    /// Watches `root`, reads it, and keeps the copy current. Returns once the first read is done.
    ///
    /// # Errors
    /// Registry errors while registering the watch or reading the subtree.
    pub async fn start(registry: Registry, root: &str, lazy: LazyPolicy) -> Result<TreeCache> {
        TreeCache::start_with_progress(registry, root, lazy, &|_| {}).await
    }

    /// [`TreeCache::start`], calling `progress` with the number of nodes read so far during the
    /// first read.
    ///
    /// # Errors
    /// As [`TreeCache::start`].
    pub async fn start_with_progress(
        registry: Registry,
        root: &str,
        lazy: LazyPolicy,
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<TreeCache> {
        CacheHub::start(registry, root).await?.cache(root, lazy, None, 0, progress).await
    }

    /// [`TreeCache::start`], keeping `projection` current with the nodes, with room for
    /// `expected` nodes ([`Nodes::with_room`]).
    ///
    /// # Errors
    /// As [`TreeCache::start`].
    pub async fn start_projected(
        registry: Registry,
        root: &str,
        lazy: LazyPolicy,
        projection: Box<dyn Projection>,
        expected: usize,
    ) -> Result<TreeCache> {
        CacheHub::start(registry, root).await?.cache(root, lazy, Some(projection), expected, &|_| {}).await
    }

    /// Looks at the cached tree.
    pub fn read(&self) -> CacheRead<'_> {
        CacheRead { tree: self.shared.read() }
    }

    /// A reader for other tasks.
    pub fn reader(&self) -> CacheReader {
        CacheReader { shared: Arc::clone(&self.shared) }
    }

    /// The root path of the cached subtree.
    pub fn root(&self) -> &str {
        &self.shared.root
    }

    /// The next change; `None` once the registry handle is gone. Cancel-safe.
    pub async fn recv(&mut self) -> Option<CacheEvent> {
        self.events.recv().await
    }

    /// The next change if there is one (`None` once the registry handle is gone); otherwise
    /// leaves `cx`'s waker for the next.
    pub fn poll_recv(&mut self, cx: &mut std::task::Context<'_>) -> std::task::Poll<Option<CacheEvent>> {
        self.events.poll_recv(cx)
    }

    /// A change already queued, without waiting.
    pub fn try_recv(&mut self) -> Option<CacheEvent> {
        self.events.try_recv()
    }

    /// A receiver that is notified after every change applied to the cache.
    pub fn revisions(&self) -> watch::Receiver<u64> {
        self.shared.revisions()
    }

    /// Waits until `condition` holds on the cached tree.
    pub async fn wait_until(&self, condition: impl Fn(&CacheRead<'_>) -> bool) {
        let mut revisions = self.revisions();
        loop {
            if condition(&self.read()) {
                return;
            }
            if revisions.changed().await.is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(byte: u8) -> Cached {
        Cached { data: Some(super::super::bytes::share(&[byte])), stat: None }
    }

    fn paths(nodes: &Nodes) -> Vec<String> {
        let mut out = Vec::new();
        nodes.for_each(|p, _| out.push(p.to_string()));
        out
    }

    #[test]
    fn nodes_are_looked_up_and_listed_by_their_whole_path() {
        let given = ["/job/sharding/0", "/job", "/job/config", "/job/sharding", "/other/config", "/jobs/x"];
        let mut nodes = Nodes::with_room("/job", given.iter().map(|p| ((*p).to_string(), node(1))).collect(), 8);
        assert_eq!(paths(&nodes), ["/job", "/job/config", "/job/sharding", "/job/sharding/0"]);
        assert_eq!(nodes.get("/job/config"), Some(&node(1)));
        assert!(nodes.contains_key("/job"));
        assert!(!nodes.contains_key("/jobs/x"));
        assert_eq!(nodes.children("/job"), ["config", "sharding"]);
        assert_eq!(nodes.set("/job/sharding/1", node(2)), Set::Created);
        assert_eq!(nodes.set("/job/sharding/1", node(3)), Set::Changed);
        assert_eq!(nodes.set("/other/config", node(2)), Set::Unchanged);
        assert_eq!(nodes.remove("/job/sharding/0"), Some(node(1)));
        assert_eq!(nodes.remove("/other/config"), None);
        assert_eq!(nodes.len(), 4);
        assert!(nodes.any_under("/job/sharding/", |p, n| p == "/job/sharding/1" && *n == node(3)));
        assert!(!nodes.any_under("/job/config/", |_, _| true));
    }

    #[test]
    fn a_cache_of_the_root_keeps_whole_paths() {
        let mut nodes = Nodes::new("/");
        for p in ["/", "/a", "/a/b", "/c"] {
            assert_eq!(nodes.set(p, node(0)), Set::Created);
        }
        assert_eq!(paths(&nodes), ["/", "/a", "/a/b", "/c"]);
        assert_eq!(nodes.children("/"), ["a", "c"]);
        assert_eq!(nodes.children("/a"), ["b"]);
        assert!(nodes.any_under("/a/", |p, _| p == "/a/b"));
    }
}
