//! One watch feeding many caches: a [`CacheHub`] owns one persistent recursive watch and one
//! task, and hands each event to the cache whose root holds its path.
//!
//! A cache on its own ([`TreeCache::start`](super::TreeCache::start)) has a hub of its own,
//! watching its root. A worker whose jobs are most of their namespace shares one hub on the
//! namespace root among all of them (`runtime`): one watch and one task per worker instead of one
//! per job, and on ZooKeeper one watch for the server to keep instead of thousands.
//!
//! A cache joins a hub before it reads its subtree. Until the read is done, the events for it
//! wait in its route, in order; the cache then applies them itself and only after that lets the
//! hub's task apply the events that follow. An event the hub handled before the cache joined
//! happened before its read, so the read shows it; none is lost and none is applied out of order.
//!
//! The task reads the data of a batch's created and changed nodes for all its caches in one
//! pipelined request, so many jobs changing together (a worker's start-up) cost one round trip
//! per batch, not one per job. A resync (after a reconnect or a new session) re-reads every
//! cache's subtree, many at a time.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};

use futures::{FutureExt, StreamExt};
use tokio::sync::Semaphore;

use super::{CacheEvent, Cached, CachedStat, LazyPolicy, Nodes, Projection, Set, Shared, TreeCache};
use crate::queue;
use crate::registry::{NodeData, Registry, RegistryError, Result, SubtreeWatch, TreeNode, WatchEvent, path};
use crate::retry::{self, Attempts, Jitter};
use crate::sync::lock;
use crate::task::OwnedTask;

/// How many caches re-read their subtrees at once: after a resync, and while recovering from
/// failed reads.
const RESYNCS_IN_FLIGHT: usize = 64;

/// One watch and one task feeding many [`TreeCache`]s (see the module docs). Cloning it shares
/// the hub; the hub lives while a clone or one of its caches does.
#[derive(Clone)]
pub struct CacheHub {
    hub: Arc<Hub>,
}

/// The shared part of a hub.
pub(super) struct Hub {
    registry: Registry,
    /// The watched root.
    root: String,
    /// Each cache's route, by the cache's root.
    routes: Mutex<HashMap<Arc<str>, Route>>,
    /// The task applying the watch's events; aborted when the hub goes.
    pump: OnceLock<OwnedTask<()>>,
    /// What the caches' re-reads after a failed read draw their delays with.
    jitter: Jitter,
}

/// Bounds the caches of the process, on every hub, that re-read their subtrees at once to
/// recover from failed reads: when the registry fails every cache's reads, thousands of them
/// would otherwise all re-read together as soon as it answers again (and again at every retry).
static RECOVERIES: Semaphore = Semaphore::const_new(RESYNCS_IN_FLIGHT);

impl Hub {
    fn routes(&self) -> MutexGuard<'_, HashMap<Arc<str>, Route>> {
        lock(&self.routes)
    }

    /// Removes the route of the cache whose state is `shared` (the cache is being dropped).
    pub(super) fn leave(&self, shared: &Arc<Shared>) {
        let mut routes = self.routes();
        if routes.get(&*shared.root).is_some_and(|r| Arc::ptr_eq(&r.target.shared, shared)) {
            routes.remove(&*shared.root);
        }
    }
}

/// Where a cache's events go.
struct Route {
    target: Target,
    /// While the cache reads its subtree: its events, in order, for it to apply once the read
    /// is done.
    pending: Option<Vec<WatchEvent>>,
}

/// A cache, as the code applying events sees it.
#[derive(Clone)]
pub(super) struct Target {
    shared: Arc<Shared>,
    lazy: LazyPolicy,
    tx: queue::Sender<CacheEvent>,
}

impl CacheHub {
    /// Watches `root` for the caches that will join the hub.
    ///
    /// # Errors
    /// Registry errors while registering the watch.
    pub async fn start(registry: Registry, root: &str) -> Result<CacheHub> {
        CacheHub::start_jittered(registry, root, Jitter::from_os()).await
    }

    /// [`CacheHub::start`], with the caches' re-reads after a failed read drawing their delays
    /// from `jitter` (a worker's, seeded by the simulator).
    ///
    /// # Errors
    /// As [`CacheHub::start`].
    pub async fn start_jittered(registry: Registry, root: &str, jitter: Jitter) -> Result<CacheHub> {
        let watch = registry.watch_subtree(root).await?;
        let hub =
            Arc::new(Hub { registry, root: root.to_string(), routes: Mutex::default(), pump: OnceLock::new(), jitter });
        let task = OwnedTask::spawn(pump(Arc::downgrade(&hub), watch));
        // Only this function sets it.
        let _ = hub.pump.set(task);
        Ok(CacheHub { hub })
    }

    /// A cache of `root` (at or below the hub's root) fed by this hub: reads the subtree and
    /// keeps it current, with `projection` kept current beside the nodes, and room for
    /// `expected` nodes ([`Nodes::with_room`]). A root that already has a cache on this hub, or
    /// one outside the hub's root, gets a cache with a watch of its own.
    ///
    /// # Errors
    /// Registry errors while reading the subtree.
    pub async fn cache(
        &self,
        root: &str,
        lazy: LazyPolicy,
        projection: Option<Box<dyn Projection>>,
        expected: usize,
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<TreeCache> {
        let key: Arc<str> = Arc::from(root);
        let shared = Arc::new(Shared::new(Arc::clone(&key)));
        let (tx, events) = queue::unbounded();
        let target = Target { shared: Arc::clone(&shared), lazy, tx };
        let joined = path::below(&self.hub.root, root).is_some() && {
            let mut routes = self.hub.routes();
            let free = !routes.contains_key(root);
            if free {
                routes.insert(Arc::clone(&key), Route { target: target.clone(), pending: Some(Vec::new()) });
            }
            free
        };
        if !joined {
            let own =
                Box::pin(CacheHub::start_jittered(self.hub.registry.clone(), root, self.hub.jitter.fork())).await?;
            return Box::pin(own.cache(root, lazy, projection, expected, progress)).await;
        }
        // From here, dropping the cache (an error below included) removes its route.
        let cache = TreeCache { shared, events, hub: Arc::clone(&self.hub) };
        let registry = &self.hub.registry;
        let nodes = load(registry, &key, lazy, expected, progress).await?;
        cache.shared.write(|tree| tree.set(nodes, projection));
        drain(&self.hub, &target).await;
        Ok(cache)
    }
}

impl Hub {
    /// The route of `target`, if the cache is still on the hub.
    fn route_of<'a>(routes: &'a mut HashMap<Arc<str>, Route>, target: &Target) -> Option<&'a mut Route> {
        routes.get_mut(&*target.shared.root).filter(|r| Arc::ptr_eq(&r.target.shared, &target.shared))
    }
}

/// Applies the events waiting in `target`'s route, then those that came meanwhile, until none
/// waits: then the hub's task feeds the cache again.
async fn drain(hub: &Hub, target: &Target) {
    loop {
        let batch = {
            let mut routes = hub.routes();
            let Some(route) = Hub::route_of(&mut routes, target) else { return };
            match route.pending.take() {
                Some(batch) if !batch.is_empty() => {
                    route.pending = Some(Vec::new());
                    batch
                }
                _ => return,
            }
        };
        let applied = match prefetch(&hub.registry, [(target, batch.as_slice())]).await {
            Ok(mut fetched) => apply(&hub.registry, target, batch, &mut fetched).await,
            Err(e) => Err(e),
        };
        if let Err(e) = applied
            && !recover(hub, target, &e).await
        {
            return;
        }
    }
}

/// A read for `target` failed in the hub's task: its events wait in its route again while a task
/// of its own re-reads the subtree (with backoff) and then applies them, so that a cache whose
/// reads fail holds up no other cache.
fn detach(hub: &Arc<Hub>, target: &Target, error: RegistryError) {
    {
        let mut routes = hub.routes();
        let Some(route) = Hub::route_of(&mut routes, target) else { return };
        if route.pending.is_some() {
            // Already re-reading, or still reading for the first time: that read follows this
            // failure and shows what the failed read would have.
            return;
        }
        route.pending = Some(Vec::new());
    }
    let (hub, target) = (Arc::clone(hub), target.clone());
    tokio::spawn(async move {
        if recover(&hub, &target, &error).await {
            drain(&hub, &target).await;
        }
    });
}

/// Applies the watch's events to the hub's caches until the watch ends or the hub is gone; then
/// closes every cache's events.
async fn pump(hub: Weak<Hub>, watch: SubtreeWatch) {
    // `SubtreeWatch::next` is not cancel-safe: the stream keeps a call in progress, so looking
    // for more events without waiting (below) drops none.
    let mut events =
        Box::pin(futures::stream::unfold(watch, |mut watch| async move { watch.next().await.map(|e| (e, watch)) }));
    while let Some(first) = events.next().await {
        let mut batch = vec![first];
        while let Some(Some(more)) = events.next().now_or_never() {
            batch.push(more);
        }
        let Some(hub) = hub.upgrade() else { return };
        // Boxed: the task waits for events nearly all its life, and its future is then as small
        // as that wait instead of as large as a batch's reads.
        Box::pin(dispatch(&hub, batch)).await;
    }
    if let Some(hub) = hub.upgrade() {
        hub.routes().clear();
    }
}

/// Applies a batch of watch events: each part up to a resync is routed to its caches, their
/// data read in one request; a resync re-reads every cache.
async fn dispatch(hub: &Arc<Hub>, batch: Vec<WatchEvent>) {
    let mut events = batch.into_iter();
    loop {
        let mut part = Vec::new();
        let mut resync = false;
        for event in events.by_ref() {
            if matches!(event, WatchEvent::Resync) {
                resync = true;
                break;
            }
            part.push(event);
        }
        if !part.is_empty() {
            apply_part(hub, part).await;
        }
        if !resync {
            return;
        }
        resync_all(hub).await;
    }
}

/// Applies events (no resync among them) to their caches, the data of all of them read in one
/// request.
async fn apply_part(hub: &Arc<Hub>, part: Vec<WatchEvent>) {
    let groups = route(hub, part);
    let mut fetched = match prefetch(&hub.registry, groups.iter().map(|(t, events)| (t, events.as_slice()))).await {
        Ok(fetched) => fetched,
        Err(e) => {
            // Each cache's re-read reads everything its events would have.
            for (target, _) in &groups {
                detach(hub, target, e.clone());
            }
            return;
        }
    };
    for (target, events) in groups {
        if let Err(e) = apply(&hub.registry, &target, events, &mut fetched).await {
            detach(hub, &target, e);
        }
    }
}

/// Groups `events` by the cache whose root holds their path, in order; a cache still reading its
/// subtree keeps its events for later. Paths no cache holds are dropped.
fn route(hub: &Hub, events: Vec<WatchEvent>) -> Vec<(Target, Vec<WatchEvent>)> {
    let mut groups: Vec<(Target, Vec<WatchEvent>)> = Vec::new();
    let mut index: HashMap<*const Shared, usize> = HashMap::new();
    let mut routes = hub.routes();
    for event in events {
        let (WatchEvent::Created(p) | WatchEvent::Changed(p) | WatchEvent::Deleted(p)) = &event else { continue };
        let mut root: &str = p;
        let route = loop {
            if let Some(route) = routes.get_mut(root) {
                break Some(route);
            }
            if root == hub.root || root == "/" {
                break None;
            }
            root = path::parent(root);
        };
        let Some(route) = route else { continue };
        if let Some(pending) = route.pending.as_mut() {
            pending.push(event);
            continue;
        }
        let at = *index.entry(Arc::as_ptr(&route.target.shared)).or_insert_with(|| {
            groups.push((route.target.clone(), Vec::new()));
            groups.len() - 1
        });
        groups[at].1.push(event);
    }
    groups
}

/// Re-reads every cache after events may have been lost; a cache still reading its subtree
/// re-reads it once it is done.
async fn resync_all(hub: &Arc<Hub>) {
    let targets: Vec<Target> = {
        let mut routes = hub.routes();
        routes
            .values_mut()
            .filter_map(|route| match route.pending.as_mut() {
                Some(pending) => {
                    pending.push(WatchEvent::Resync);
                    None
                }
                None => Some(route.target.clone()),
            })
            .collect()
    };
    futures::stream::iter(targets)
        .for_each_concurrent(RESYNCS_IN_FLIGHT, |target| async move {
            if let Err(e) = resync(&hub.registry, &target).await {
                detach(hub, &target, e);
            }
        })
        .await;
}

/// Reads, in one request, the data the caches keep of the nodes their events (up to a resync)
/// create or change; nothing when there is one such node or none (`apply` reads a single one
/// itself).
async fn prefetch<'a>(
    registry: &Registry,
    caches: impl IntoIterator<Item = (&'a Target, &'a [WatchEvent])>,
) -> Result<BTreeMap<String, Option<NodeData>>> {
    let wanted: Vec<String> = caches
        .into_iter()
        .flat_map(|(t, events)| wanted(&t.shared.root, t.lazy, events))
        .collect::<BTreeSet<&str>>()
        .into_iter()
        .map(str::to_string)
        .collect();
    if wanted.len() < 2 {
        return Ok(BTreeMap::new());
    }
    let nodes = registry.get_many(&wanted).await?;
    Ok(wanted.into_iter().zip(nodes).collect())
}

/// The paths of `events` below `root` whose data a cache keeps, up to a resync (the events after
/// one are read after it, so that nothing older than it is applied).
fn wanted<'a>(root: &'a str, lazy: LazyPolicy, events: &'a [WatchEvent]) -> impl Iterator<Item = &'a str> + 'a {
    events.iter().take_while(|e| !matches!(e, WatchEvent::Resync)).filter_map(move |e| match e {
        WatchEvent::Created(p) | WatchEvent::Changed(p) if path::below(root, p).is_some() && !lazy(p) => Some(&**p),
        _ => None,
    })
}

/// Reads the subtree, with room for `room` nodes. The data of lazy paths is dropped, as an event
/// about them would: a job's cache would otherwise keep, until their next change, the data its
/// worker never reads (each item's last result among it).
pub(super) async fn load(
    registry: &Registry,
    root: &Arc<str>,
    lazy: LazyPolicy,
    room: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Nodes> {
    let nodes = registry.read_subtree(root, progress).await?.unwrap_or_default();
    let entries = nodes
        .into_iter()
        .map(|TreeNode { path, node }| {
            let cached = if lazy(&path) {
                Cached { data: None, stat: Some(CachedStat::from(&node.stat)) }
            } else {
                Cached::from(node)
            };
            (path, cached)
        })
        .collect();
    Ok(Nodes::with_room(Arc::clone(root), entries, room))
}

/// Applies a cache's events, with the data [`prefetch`] read in `fetched` (a node it did not read
/// is read here).
/// Stops at the first failed read (or once the cache is gone): a re-read of the subtree then
/// shows what the rest would have. A node the cache holds exactly as read is not reported again
/// ([`Set::Unchanged`]): events that waited while the cache read its subtree, or that the pump
/// had not routed yet, can be older than that read.
async fn apply(
    registry: &Registry,
    target: &Target,
    batch: Vec<WatchEvent>,
    fetched: &mut BTreeMap<String, Option<NodeData>>,
) -> Result<()> {
    let shared = &target.shared;
    let root = &*shared.root;
    for event in batch {
        let outcome = match event {
            WatchEvent::Created(p) | WatchEvent::Changed(p) if path::below(root, &p).is_some() => {
                // The cached node, `None` when it is gone again already (its deletion event
                // follows). A prefetched node is taken by reference: the cache shares its data
                // ([`crate::registry::bytes`]), and a copy of it would only be dropped.
                let read = if (target.lazy)(&p) {
                    Ok(Some(Cached { data: None, stat: None }))
                } else if let Some(node) = fetched.get(&*p) {
                    Ok(node.as_ref().map(Cached::from))
                } else {
                    registry.get(&p).await.map(|node| node.map(Cached::from))
                };
                match read {
                    Ok(None) => Ok(()),
                    Ok(Some(cached)) => match shared.write(|tree| tree.insert(&p, cached)) {
                        Set::Created => send(&target.tx, CacheEvent::Created(p)),
                        Set::Changed => send(&target.tx, CacheEvent::Changed(p)),
                        Set::Unchanged => Ok(()),
                    },
                    Err(e) => Err(e),
                }
            }
            WatchEvent::Deleted(p) if path::below(root, &p).is_some() => {
                if shared.write(|tree| tree.remove(&p)) {
                    send(&target.tx, CacheEvent::Deleted(p))
                } else {
                    Ok(())
                }
            }
            WatchEvent::Created(_) | WatchEvent::Changed(_) | WatchEvent::Deleted(_) => Ok(()),
            WatchEvent::Resync => {
                fetched.clear();
                resync(registry, target).await
            }
        };
        outcome?;
    }
    Ok(())
}

/// A read failed: re-reads the subtree until that works, with backoff ([`retry::CACHE_RESYNC`]),
/// at most [`RESYNCS_IN_FLIGHT`] caches at once ([`RECOVERIES`]). Returns false when the cache is
/// gone.
async fn recover(hub: &Hub, target: &Target, error: &RegistryError) -> bool {
    if target.tx.is_closed() {
        return false;
    }
    tracing::warn!(root = %target.shared.root, error = %error, "cache read failed, re-reading the subtree");
    let mut attempts = Attempts::default();
    loop {
        let read = {
            // Never closed: nothing closes it.
            let _turn = RECOVERIES.acquire().await;
            resync(&hub.registry, target).await
        };
        let Err(e) = read else { break };
        if target.tx.is_closed() {
            return false;
        }
        tracing::warn!(root = %target.shared.root, error = %e, "cache resync failed, retrying");
        tokio::time::sleep(attempts.fail(&retry::CACHE_RESYNC, hub.jitter.draw())).await;
    }
    true
}

fn send(tx: &queue::Sender<CacheEvent>, event: CacheEvent) -> Result<()> {
    tx.send(event).map_err(|_| RegistryError::Closed)
}

/// Re-reads the subtree and emits the difference, then [`CacheEvent::Resynced`].
async fn resync(registry: &Registry, target: &Target) -> Result<()> {
    let shared = &target.shared;
    let room = shared.read().nodes.room();
    let fresh = load(registry, &shared.root, target.lazy, room, &|_| {}).await?;
    let mut diff = Vec::new();
    shared.write(|tree| {
        let nodes = &tree.nodes;
        nodes.for_each(|p, old| match fresh.get(p) {
            None => diff.push(CacheEvent::Deleted(Arc::from(p))),
            Some(new) if new != old => diff.push(CacheEvent::Changed(Arc::from(p))),
            Some(_) => {}
        });
        fresh.for_each(|p, _| {
            if !nodes.contains_key(p) {
                diff.push(CacheEvent::Created(Arc::from(p)));
            }
        });
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
        send(&target.tx, event)?;
    }
    send(&target.tx, CacheEvent::Resynced)
}

fn path_depth(p: &str) -> usize {
    if p == "/" { 0 } else { p.matches('/').count() }
}
