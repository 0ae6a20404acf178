//! A watched cache of one subtree (a job), kept current by a persistent recursive watch.
//!
//! [`TreeCache::start`] registers the watch first and then reads the subtree (pipelined), so no
//! change can fall between the two. A task owned by the cache applies each watch event in order —
//! fetching the data of created and changed nodes unless the path is *lazy* (markers whose data
//! nobody needs, such as `running`, are recorded without a read so steady-state fires cost no
//! reads) — and forwards it as a [`CacheEvent`]. After a reconnect or a new session the watch
//! yields a resync: the cache re-reads the subtree, emits the difference from what it held as
//! created / changed / deleted events (kube-runtime's re-list), then [`CacheEvent::Resynced`].
//! A failed read also leads to a resync, retried with backoff, so the cache never silently
//! diverges.
//!
//! Readers look at the cache through [`CacheView`] (a short read lock, never held across an
//! await) and can wait for a condition with [`TreeCache::wait_until`]; every applied event bumps
//! a revision counter that wakes them.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock, RwLockReadGuard};
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::{Registry, Result, Stat, SubtreeWatch, TreeNode, WatchEvent};

/// Decides which paths are lazy: their data is not fetched on events.
pub type LazyPolicy = fn(&str) -> bool;

/// A cached node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cached {
    /// The data; `None` when the path is lazy and changed since the last full read.
    pub data: Option<Vec<u8>>,
    /// The metadata, when known.
    pub stat: Option<Stat>,
}

/// What changed in the cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheEvent {
    /// A node appeared.
    Created(String),
    /// A node's data changed.
    Changed(String),
    /// A node disappeared.
    Deleted(String),
    /// The cache was rebuilt after events may have been lost; the events just before this one
    /// describe the difference.
    Resynced,
}

struct Shared {
    root: String,
    nodes: RwLock<BTreeMap<String, Cached>>,
    revision: watch::Sender<u64>,
}

impl Shared {
    fn read(&self) -> RwLockReadGuard<'_, BTreeMap<String, Cached>> {
        match self.nodes.read() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn write(&self, f: impl FnOnce(&mut BTreeMap<String, Cached>)) {
        match self.nodes.write() {
            Ok(mut g) => f(&mut g),
            Err(poisoned) => f(&mut poisoned.into_inner()),
        }
        self.revision.send_modify(|r| *r += 1);
    }
}

/// A read-only look at the cached tree.
pub struct CacheView<'a> {
    nodes: RwLockReadGuard<'a, BTreeMap<String, Cached>>,
}

impl CacheView<'_> {
    /// True when the node exists.
    pub fn exists(&self, p: &str) -> bool {
        self.nodes.contains_key(p)
    }

    /// The node, if it exists.
    pub fn node(&self, p: &str) -> Option<&Cached> {
        self.nodes.get(p)
    }

    /// The node's data, if it exists and its data is loaded.
    pub fn data(&self, p: &str) -> Option<&[u8]> {
        self.nodes.get(p).and_then(|c| c.data.as_deref())
    }

    /// The node's data as text, if it exists and its data is loaded.
    pub fn text(&self, p: &str) -> Option<String> {
        self.data(p).map(super::codec::decode_text)
    }

    /// The names of a node's children, in byte order.
    pub fn children(&self, p: &str) -> Vec<String> {
        let prefix = if p == "/" { "/".to_string() } else { format!("{p}/") };
        self.nodes
            .range(prefix.clone()..)
            .take_while(|(k, _)| k.starts_with(&prefix))
            .filter_map(|(k, _)| {
                let rest = &k[prefix.len()..];
                (!rest.is_empty() && !rest.contains('/')).then(|| rest.to_string())
            })
            .collect()
    }

    /// Every cached path and node, in byte order of the path.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Cached)> {
        self.nodes.iter()
    }

    /// The number of cached nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when nothing is cached (the root does not exist).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
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
        CacheView { nodes: self.shared.read() }
    }

    /// The root path of the cached subtree.
    pub fn root(&self) -> &str {
        &self.shared.root
    }

    /// A receiver that is notified after every change applied to the cache.
    pub fn revisions(&self) -> watch::Receiver<u64> {
        self.shared.revision.subscribe()
    }
}

/// The watched cache of one subtree. Dropping it stops its task and the watch.
pub struct TreeCache {
    shared: Arc<Shared>,
    events: mpsc::UnboundedReceiver<CacheEvent>,
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
        let watch = registry.watch_subtree(root).await?;
        let nodes = load(&registry, root, progress).await?;
        let shared =
            Arc::new(Shared { root: root.to_string(), nodes: RwLock::new(nodes), revision: watch::Sender::new(0) });
        let (tx, events) = mpsc::unbounded_channel();
        let task = tokio::spawn(follow(registry, Arc::clone(&shared), watch, lazy, tx));
        Ok(TreeCache { shared, events, task })
    }

    /// Looks at the cached tree.
    pub fn view(&self) -> CacheView<'_> {
        CacheView { nodes: self.shared.read() }
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

    /// A change already queued, without waiting.
    pub fn try_recv(&mut self) -> Option<CacheEvent> {
        self.events.try_recv().ok()
    }

    /// A receiver that is notified after every change applied to the cache.
    pub fn revisions(&self) -> watch::Receiver<u64> {
        self.shared.revision.subscribe()
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

async fn load(registry: &Registry, root: &str, progress: &(dyn Fn(usize) + Sync)) -> Result<BTreeMap<String, Cached>> {
    let nodes = registry.read_subtree(root, progress).await?.unwrap_or_default();
    Ok(nodes
        .into_iter()
        .map(|TreeNode { path, node }| (path, Cached { data: Some(node.data), stat: Some(node.stat) }))
        .collect())
}

/// Applies watch events to the cache until the watch ends or the cache is dropped.
async fn follow(
    registry: Registry,
    shared: Arc<Shared>,
    mut watch: SubtreeWatch,
    lazy: LazyPolicy,
    tx: mpsc::UnboundedSender<CacheEvent>,
) {
    let under_root = |p: &str| p == shared.root || p.starts_with(&format!("{}/", shared.root)) || shared.root == "/";
    while let Some(event) = watch.next().await {
        let outcome = match event {
            WatchEvent::Created(p) | WatchEvent::Changed(p) if under_root(&p) => {
                let created = !shared.read().contains_key(&p);
                let fetched = if lazy(&p) { Ok(None) } else { registry.get(&p).await.map(Some) };
                match fetched {
                    Ok(Some(None)) => {
                        // Gone again already; its deletion event follows.
                        Ok(())
                    }
                    Ok(fetched) => {
                        let cached = match fetched.flatten() {
                            Some(node) => Cached { data: Some(node.data), stat: Some(node.stat) },
                            None => Cached { data: None, stat: None },
                        };
                        shared.write(|nodes| {
                            nodes.insert(p.clone(), cached);
                        });
                        send(&tx, if created { CacheEvent::Created(p) } else { CacheEvent::Changed(p) })
                    }
                    Err(e) => Err(e),
                }
            }
            WatchEvent::Deleted(p) if under_root(&p) => {
                let mut existed = false;
                shared.write(|nodes| existed = nodes.remove(&p).is_some());
                if existed { send(&tx, CacheEvent::Deleted(p)) } else { Ok(()) }
            }
            WatchEvent::Created(_) | WatchEvent::Changed(_) | WatchEvent::Deleted(_) => Ok(()),
            WatchEvent::Resync => resync(&registry, &shared, &tx).await,
        };
        if let Err(e) = outcome {
            if tx.is_closed() {
                return;
            }
            tracing::warn!(root = %shared.root, error = %e, "cache read failed, re-reading the subtree");
            let mut delay = Duration::from_millis(100);
            while let Err(e) = resync(&registry, &shared, &tx).await {
                if tx.is_closed() {
                    return;
                }
                tracing::warn!(root = %shared.root, error = %e, "cache resync failed, retrying");
                tokio::time::sleep(delay).await;
                delay = (delay * 2).min(Duration::from_secs(5));
            }
        }
    }
}

fn send(tx: &mpsc::UnboundedSender<CacheEvent>, event: CacheEvent) -> Result<()> {
    tx.send(event).map_err(|_| super::RegistryError::Closed)
}

/// Re-reads the subtree and emits the difference, then [`CacheEvent::Resynced`].
async fn resync(registry: &Registry, shared: &Shared, tx: &mpsc::UnboundedSender<CacheEvent>) -> Result<()> {
    let fresh = load(registry, &shared.root, &|_| {}).await?;
    let mut diff = Vec::new();
    shared.write(|nodes| {
        for (p, old) in nodes.iter() {
            match fresh.get(p) {
                None => diff.push(CacheEvent::Deleted(p.clone())),
                Some(new) if new != old => diff.push(CacheEvent::Changed(p.clone())),
                Some(_) => {}
            }
        }
        for p in fresh.keys() {
            if !nodes.contains_key(p) {
                diff.push(CacheEvent::Created(p.clone()));
            }
        }
        *nodes = fresh;
    });
    // Deletions deepest first, creations parents first, as watch events would have come.
    diff.sort_by_key(|e| match e {
        CacheEvent::Deleted(p) => (0, usize::MAX - path_depth(p), p.clone()),
        CacheEvent::Created(p) => (1, path_depth(p), p.clone()),
        CacheEvent::Changed(p) => (2, path_depth(p), p.clone()),
        CacheEvent::Resynced => (3, 0, String::new()),
    });
    for event in diff {
        send(tx, event)?;
    }
    send(tx, CacheEvent::Resynced)
}

fn path_depth(p: &str) -> usize {
    if p == "/" { 0 } else { p.matches('/').count() }
}
