//! A watched cache of one subtree (a job), kept current by a persistent recursive watch.
//!
//! [`TreeCache::start`] registers the watch first and then reads the subtree (pipelined), so no
//! change can fall between the two. A task owned by the cache applies each watch event in order —
//! fetching the data of created and changed nodes unless the path is *lazy* (markers whose data
//! nobody needs, such as `running`, are recorded without a read so steady-state fires cost no
//! reads), in one pipelined read for the events that arrived together — and forwards it as a
//! [`CacheEvent`]. After a reconnect or a new session the watch yields a resync: the cache
//! re-reads the subtree, emits the difference from what it held as created / changed / deleted
//! events (kube-runtime's re-list), then [`CacheEvent::Resynced`].
//! A failed read also leads to a resync, retried with backoff, so the cache never silently
//! diverges.
//!
//! Readers look at the cache through [`CacheView`] (a short read lock, never held across an
//! await) and can wait for a condition with [`TreeCache::wait_until`]; every applied event bumps
//! a revision counter that wakes them.
//!
//! A cache may keep a [`Projection`] — a structure derived from its nodes, such as a job's typed
//! view — current under the same lock, updated for each changed path instead of rebuilt from
//! every node, so a reader of a large subtree pays for what changed, not for its size.

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, OnceLock, RwLock, RwLockReadGuard};
use std::time::Duration;

use futures::{FutureExt, StreamExt};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::{NodeData, Registry, Result, Stat, SubtreeWatch, TreeNode, WatchEvent};
use crate::queue;

mod nodes;

pub use self::nodes::{Iter, LARGE, Nodes};

/// Decides which paths are lazy: their data is not fetched on events.
pub type LazyPolicy = fn(&str) -> bool;

/// A cached node: 32 bytes beside its path, where the data as a `Vec` and ZooKeeper's whole stat
/// took 88.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cached {
    /// The data; `None` when the path is lazy (its data is neither read nor kept).
    pub data: Option<Box<[u8]>>,
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

impl From<NodeData> for Cached {
    fn from(node: NodeData) -> Cached {
        Cached { data: Some(node.data.into_boxed_slice()), stat: Some(CachedStat::from(&node.stat)) }
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
/// [`CacheView::projection`], always consistent with the nodes beside it.
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
    fn new(nodes: Nodes, mut projection: Option<Box<dyn Projection>>) -> Tree {
        if let Some(p) = projection.as_mut() {
            p.rebuild(&nodes);
        }
        Tree { nodes, projection }
    }

    /// Sets `path`'s node; true when it is new.
    fn insert(&mut self, path: &str, node: Cached) -> bool {
        let created = self.nodes.set(path, node);
        if let Some(p) = self.projection.as_mut() {
            p.update(&self.nodes, path);
        }
        created
    }

    /// Removes `path`; true when it was there.
    fn remove(&mut self, path: &str) -> bool {
        let existed = self.nodes.remove(path).is_some();
        if existed && let Some(p) = self.projection.as_mut() {
            p.update(&self.nodes, path);
        }
        existed
    }

    fn replace(&mut self, nodes: Nodes) {
        self.nodes = nodes;
        if let Some(p) = self.projection.as_mut() {
            p.rebuild(&self.nodes);
        }
    }
}

struct Shared {
    root: String,
    tree: RwLock<Tree>,
    /// Made by the first [`TreeCache::revisions`]: most caches never have a waiter, and a watch
    /// channel is 344 bytes of every job. A waiter subscribes before it looks at the tree, so a
    /// change it did not see is made after the channel exists and wakes it.
    revision: OnceLock<watch::Sender<u64>>,
}

impl Shared {
    fn read(&self) -> RwLockReadGuard<'_, Tree> {
        match self.tree.read() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn write<R>(&self, f: impl FnOnce(&mut Tree) -> R) -> R {
        let out = match self.tree.write() {
            Ok(mut g) => f(&mut g),
            Err(poisoned) => f(&mut poisoned.into_inner()),
        };
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
pub struct CacheView<'a> {
    tree: RwLockReadGuard<'a, Tree>,
}

impl CacheView<'_> {
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

    /// Every cached path and node, in byte order of the path.
    pub fn iter(&self) -> Iter<'_> {
        self.tree.nodes.iter()
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
    pub fn view(&self) -> CacheView<'_> {
        CacheView { tree: self.shared.read() }
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

/// The watched cache of one subtree. Dropping it stops its task and the watch.
pub struct TreeCache {
    shared: Arc<Shared>,
    events: queue::Receiver<CacheEvent>,
    task: JoinHandle<()>,
}

impl Drop for TreeCache {
    fn drop(&mut self) {
        self.task.abort();
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
        TreeCache::start_inner(registry, root, lazy, progress, None, 0).await
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
        TreeCache::start_inner(registry, root, lazy, &|_| {}, Some(projection), expected).await
    }

    async fn start_inner(
        registry: Registry,
        root: &str,
        lazy: LazyPolicy,
        progress: &(dyn Fn(usize) + Sync),
        projection: Option<Box<dyn Projection>>,
        expected: usize,
    ) -> Result<TreeCache> {
        let watch = registry.watch_subtree(root).await?;
        // A path below the root is about 16 bytes longer than the root ("/sharding/0/instance",
        // "/servers/10.0.0.1", "/config").
        let text_room = expected.saturating_mul(root.len().saturating_add(16));
        let nodes = load(&registry, root, lazy, (expected, text_room), progress).await?;
        let tree = RwLock::new(Tree::new(nodes, projection));
        let shared = Arc::new(Shared { root: root.to_string(), tree, revision: OnceLock::new() });
        let (tx, events) = queue::unbounded();
        let task = tokio::spawn(follow(registry, Arc::clone(&shared), watch, lazy, tx));
        Ok(TreeCache { shared, events, task })
    }

    /// Looks at the cached tree.
    pub fn view(&self) -> CacheView<'_> {
        CacheView { tree: self.shared.read() }
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
    pub async fn wait_until(&self, condition: impl Fn(&CacheView<'_>) -> bool) {
        let mut revisions = self.revisions();
        loop {
            if condition(&self.view()) {
                return;
            }
            if revisions.changed().await.is_err() {
                return;
            }
        }
    }
}

/// Reads the subtree, with room for `room.0` nodes and `room.1` bytes of their paths. The data
/// of lazy paths is dropped, as an event about them would: a job's cache would otherwise keep,
/// until their next change, the data its worker never reads (each item's last result among it).
async fn load(
    registry: &Registry,
    root: &str,
    lazy: LazyPolicy,
    room: (usize, usize),
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Nodes> {
    let nodes = registry.read_subtree(root, progress).await?.unwrap_or_default();
    let entries = nodes
        .into_iter()
        .map(|TreeNode { path, node }| {
            let mut cached = Cached::from(node);
            if lazy(&path) {
                cached.data = None;
            }
            (path, cached)
        })
        .collect();
    Ok(Nodes::with_room(entries, room.0, room.1))
}

/// Applies watch events to the cache until the watch ends or the cache is dropped. Events that
/// have arrived together (the nodes of one transaction, as a rule) are applied as a batch: the
/// data of its non-lazy created and changed nodes is read in one pipelined request
/// ([`Registry::get_many`]) instead of a round trip each.
fn follow(
    registry: Registry,
    shared: Arc<Shared>,
    watch: SubtreeWatch,
    lazy: LazyPolicy,
    tx: queue::Sender<CacheEvent>,
) -> impl Future<Output = ()> + Send {
    // `SubtreeWatch::next` is not cancel-safe: the stream keeps a call in progress, so looking
    // for more events without waiting (below) drops none. Made outside the task's future and
    // boxed: made inside, the future would hold the watch twice (its captured argument and the
    // stream's), and pinning the stream there moves it once more. Every job has one such task.
    let mut events =
        Box::pin(futures::stream::unfold(watch, |mut watch| async move { watch.next().await.map(|e| (e, watch)) }));
    async move {
        while let Some(first) = events.next().await {
            let mut batch = vec![first];
            while let Some(Some(more)) = events.next().now_or_never() {
                batch.push(more);
            }
            // Boxed: the task waits for events nearly all its life, and its future (held for
            // every job) is then as small as that wait instead of as large as a batch's reads.
            if !Box::pin(apply(&registry, &shared, lazy, &tx, batch)).await {
                return;
            }
        }
    }
}

/// Applies a batch of watch events; false when the cache is gone.
async fn apply(
    registry: &Registry,
    shared: &Shared,
    lazy: LazyPolicy,
    tx: &queue::Sender<CacheEvent>,
    batch: Vec<WatchEvent>,
) -> bool {
    let root = shared.root.as_str();
    let under_root =
        |p: &str| root == "/" || p.strip_prefix(root).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'));
    // The data of the batch's nodes, read once the batch is in; up to a resync only (the
    // events after one are read after it, so that nothing older than it is applied).
    let wanted: Vec<String> = batch
        .iter()
        .take_while(|e| !matches!(e, WatchEvent::Resync))
        .filter_map(|e| match e {
            WatchEvent::Created(p) | WatchEvent::Changed(p) if under_root(p) && !lazy(p) => Some(&**p),
            _ => None,
        })
        .collect::<BTreeSet<&str>>()
        .into_iter()
        .map(str::to_string)
        .collect();
    let mut fetched: BTreeMap<String, Option<NodeData>> = BTreeMap::new();
    if wanted.len() > 1 {
        match registry.get_many(&wanted).await {
            Ok(nodes) => fetched = wanted.into_iter().zip(nodes).collect(),
            // The resync reads everything the batch would have.
            Err(e) => return recover(registry, shared, lazy, tx, &e).await,
        }
    }
    for event in batch {
        let outcome = match event {
            WatchEvent::Created(p) | WatchEvent::Changed(p) if under_root(&p) => {
                let fetched = if lazy(&p) {
                    Ok(None)
                } else if let Some(node) = fetched.get(&*p) {
                    Ok(Some(node.clone()))
                } else {
                    registry.get(&p).await.map(Some)
                };
                match fetched {
                    Ok(Some(None)) => {
                        // Gone again already; its deletion event follows.
                        Ok(())
                    }
                    Ok(fetched) => {
                        let cached = match fetched.flatten() {
                            Some(node) => Cached::from(node),
                            None => Cached { data: None, stat: None },
                        };
                        let created = shared.write(|tree| tree.insert(&p, cached));
                        send(tx, if created { CacheEvent::Created(p) } else { CacheEvent::Changed(p) })
                    }
                    Err(e) => Err(e),
                }
            }
            WatchEvent::Deleted(p) if under_root(&p) => {
                if shared.write(|tree| tree.remove(&p)) {
                    send(tx, CacheEvent::Deleted(p))
                } else {
                    Ok(())
                }
            }
            WatchEvent::Created(_) | WatchEvent::Changed(_) | WatchEvent::Deleted(_) => Ok(()),
            WatchEvent::Resync => {
                fetched.clear();
                resync(registry, shared, lazy, tx).await
            }
        };
        if let Err(e) = outcome {
            fetched.clear();
            if !recover(registry, shared, lazy, tx, &e).await {
                return false;
            }
        }
    }
    true
}

/// A read failed: re-reads the subtree until that works, with backoff. Returns false when the
/// cache is gone.
async fn recover(
    registry: &Registry,
    shared: &Shared,
    lazy: LazyPolicy,
    tx: &queue::Sender<CacheEvent>,
    error: &super::RegistryError,
) -> bool {
    if tx.is_closed() {
        return false;
    }
    tracing::warn!(root = %shared.root, error = %error, "cache read failed, re-reading the subtree");
    let mut delay = Duration::from_millis(100);
    while let Err(e) = resync(registry, shared, lazy, tx).await {
        if tx.is_closed() {
            return false;
        }
        tracing::warn!(root = %shared.root, error = %e, "cache resync failed, retrying");
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(Duration::from_secs(5));
    }
    true
}

fn send(tx: &queue::Sender<CacheEvent>, event: CacheEvent) -> Result<()> {
    tx.send(event).map_err(|_| super::RegistryError::Closed)
}

/// Re-reads the subtree and emits the difference, then [`CacheEvent::Resynced`].
async fn resync(registry: &Registry, shared: &Shared, lazy: LazyPolicy, tx: &queue::Sender<CacheEvent>) -> Result<()> {
    let room = shared.read().nodes.room();
    let fresh = load(registry, &shared.root, lazy, room, &|_| {}).await?;
    let mut diff = Vec::new();
    shared.write(|tree| {
        let nodes = &tree.nodes;
        for (p, old) in nodes.iter() {
            match fresh.get(p) {
                None => diff.push(CacheEvent::Deleted(Arc::from(p))),
                Some(new) if new != old => diff.push(CacheEvent::Changed(Arc::from(p))),
                Some(_) => {}
            }
        }
        for (p, _) in fresh.iter() {
            if !nodes.contains_key(p) {
                diff.push(CacheEvent::Created(Arc::from(p)));
            }
        }
        tree.replace(fresh);
    });
    // Deletions deepest first, creations parents first, as watch events would have come.
    diff.sort_by_key(|e| match e {
        CacheEvent::Deleted(p) => (0, usize::MAX - path_depth(p), p.clone()),
        CacheEvent::Created(p) => (1, path_depth(p), p.clone()),
        CacheEvent::Changed(p) => (2, path_depth(p), p.clone()),
        CacheEvent::Resynced => (3, 0, Arc::from("")),
    });
    for event in diff {
        send(tx, event)?;
    }
    send(tx, CacheEvent::Resynced)
}

fn path_depth(p: &str) -> usize {
    if p == "/" { 0 } else { p.matches('/').count() }
}
