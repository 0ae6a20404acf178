//! A typed snapshot of one job's subtree, and the decisions ElasticJob's services make from it.
//!
//! [`JobSnapshot`] is built from the watched cache (or from a direct read) and answers the questions of
//! docs/src/design/compatibility.md: who the leader is, which instances are available, which items
//! are local, whether resharding is needed, what the sharding transaction is, and the statuses of
//! docs/src/design/compatibility.md#statuses. It does no I/O, so all of it is tested with plain unit tests.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::strategy::{self, Strategy};
use crate::registry::cache::{CacheRead, Cached, Nodes, Projection};
use crate::registry::codec::{self, InstanceInfo, ServerStatus};
use crate::registry::path::{self, ItemLeaf, JobPaths, Node};
use crate::registry::{Op, TreeNode};

/// What is known about one sharding item.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ItemSnapshot {
    /// `sharding/{i}/instance`: the owner.
    pub owner: Option<String>,
    /// `sharding/{i}/running` exists.
    pub running: bool,
    /// `sharding/{i}/failover`: the instance that took the item over.
    pub failover: Option<String>,
    /// `sharding/{i}/failovering`: the instance executing it as a failover.
    pub failovering: Option<String>,
    /// `sharding/{i}/misfire` exists.
    pub misfire: bool,
    /// `sharding/{i}/disabled` exists.
    pub disabled: bool,
    /// `sharding/{i}/result` (ejctl): the last run or refused fire, when its data was read and
    /// decodes (the runtime's cache does not read it).
    pub result: Option<codec::ItemResult>,
}

impl ItemSnapshot {
    /// Forgets what `leaf` said.
    fn clear(&mut self, leaf: ItemLeaf) {
        match leaf {
            ItemLeaf::Instance => self.owner = None,
            ItemLeaf::Running => self.running = false,
            ItemLeaf::Failover => self.failover = None,
            ItemLeaf::Failovering => self.failovering = None,
            ItemLeaf::Misfire => self.misfire = false,
            ItemLeaf::Disabled => self.disabled = false,
            ItemLeaf::Result => self.result = None,
        }
    }
}

/// A snapshot of a job's coordination state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JobSnapshot {
    /// Live instances by id, with their decoded YAML where it could be read.
    pub instances: BTreeMap<String, Option<InstanceInfo>>,
    /// Servers by IP.
    pub servers: BTreeMap<String, ServerStatus>,
    /// Sharding items by number (every child of `sharding`).
    pub items: BTreeMap<u32, ItemSnapshot>,
    /// The leader's instance id.
    pub leader: Option<String>,
    /// The `sharding` node exists.
    pub sharding_root: bool,
    /// `leader/sharding/necessary` exists.
    pub necessary: bool,
    /// The leader's record in `leader/sharding/necessary`: its sharding does not complete. Only
    /// from a read of the node's data (a worker's cache does not read it).
    pub sharding_failure: Option<codec::ShardingFailure>,
    /// `leader/sharding/processing` exists.
    pub processing: bool,
    /// Items queued under `leader/failover/items`.
    pub failover_queue: BTreeSet<u32>,
    /// Instance ids with a `runners/{id}` node (ejctl): their sessions may still run items,
    /// even when an operator deleted their instance nodes.
    pub runners: BTreeSet<String>,
    /// Instance ids with a `trigger/{id}` node.
    pub triggers: BTreeSet<String>,
    /// Instance nodes that are persistent: no session owns them, so they are no live instance
    /// (a worker registers ephemeral nodes). A worker's snapshot ([`JobSnapshot::from_cache`]) leaves
    /// them out of [`JobSnapshot::instances`] so that no item is ever assigned to them.
    pub persistent_instances: BTreeSet<String>,
}

impl JobSnapshot {
    /// Builds the snapshot of `paths`' job from the cache.
    pub fn from_cache(paths: &JobPaths, cache: &CacheRead<'_>) -> JobSnapshot {
        JobSnapshot::from_cached(paths, cache.nodes())
    }

    /// The same, from a cache's nodes.
    fn from_cached(paths: &JobPaths, nodes: &Nodes) -> JobSnapshot {
        let mut snapshot = JobSnapshot::default();
        nodes.for_each(|p, node| snapshot.absorb_cached(paths, p, node));
        snapshot
    }

    fn absorb_cached(&mut self, paths: &JobPaths, p: &str, node: &Cached) {
        let persistent = node.stat.as_ref().is_some_and(|s| !s.ephemeral);
        self.absorb(paths, p, node.data.as_deref(), persistent);
    }

    /// Brings the snapshot up to date after `p` changed (created, changed or deleted) in `nodes`:
    /// the part of the snapshot `p` feeds is cleared and absorbed again from `p`, so the result is
    /// what [`JobSnapshot::from_cache`] would build. (A tree holding one item under two spellings,
    /// such as `3` and `03`, which neither ElasticJob nor ejctl writes, could differ in which
    /// spelling wins.)
    fn refresh(&mut self, paths: &JobPaths, nodes: &Nodes, p: &str) {
        let Some((job, node)) = path::parse(p) else { return };
        if job != paths.job() {
            return;
        }
        match &node {
            Node::Instance(id) => {
                self.instances.remove(id);
                self.persistent_instances.remove(id);
            }
            Node::Runner(id) => {
                self.runners.remove(id);
            }
            Node::Server(ip) => {
                self.servers.remove(ip);
            }
            Node::Sharding => self.sharding_root = false,
            Node::Item(i) | Node::ItemLeaf(i, _) => {
                if let (Node::ItemLeaf(_, leaf), Some(item)) = (&node, self.items.get_mut(i)) {
                    item.clear(*leaf);
                }
                if !nodes.contains_key(p) && !item_present(paths, nodes, *i) {
                    self.items.remove(i);
                }
            }
            Node::LeaderInstance => self.leader = None,
            Node::ShardingNecessary => {
                self.necessary = false;
                self.sharding_failure = None;
            }
            Node::ShardingProcessing => self.processing = false,
            Node::FailoverItem(i) => {
                self.failover_queue.remove(i);
            }
            Node::Trigger(id) => {
                self.triggers.remove(id);
            }
            _ => return,
        }
        if let Some(n) = nodes.get(p) {
            self.absorb_cached(paths, p, n);
        }
    }

    /// Builds the snapshot from nodes read directly (for example by `read_subtree`).
    pub fn from_nodes(paths: &JobPaths, nodes: &[TreeNode]) -> JobSnapshot {
        let mut snapshot = JobSnapshot::default();
        for n in nodes {
            // Admin views show what is there, persistent instance nodes included.
            snapshot.absorb(paths, &n.path, Some(&n.node.data), false);
        }
        snapshot
    }

    fn absorb(&mut self, paths: &JobPaths, p: &str, data: Option<&[u8]>, persistent: bool) {
        let Some((job, node)) = path::parse(p) else { return };
        if job != paths.job() {
            return;
        }
        let text = || data.map(codec::decode_text);
        match node {
            Node::Instance(id) if persistent => {
                self.persistent_instances.insert(id);
            }
            Node::Instance(id) => {
                let info = data.and_then(|d| InstanceInfo::from_yaml(&codec::decode_text(d), &id).ok());
                self.instances.insert(id, info);
            }
            Node::Runner(id) => {
                self.runners.insert(id);
            }
            Node::Server(ip) => {
                self.servers.insert(ip, data.map_or(ServerStatus::Other(String::new()), ServerStatus::decode));
            }
            Node::Sharding => self.sharding_root = true,
            Node::Item(i) => {
                self.items.entry(i).or_default();
            }
            Node::ItemLeaf(i, leaf) => {
                let item = self.items.entry(i).or_default();
                match leaf {
                    ItemLeaf::Instance => item.owner = text().filter(|s| !s.is_empty()),
                    ItemLeaf::Running => item.running = true,
                    ItemLeaf::Failover => item.failover = Some(text().unwrap_or_default()),
                    ItemLeaf::Failovering => item.failovering = Some(text().unwrap_or_default()),
                    ItemLeaf::Misfire => item.misfire = true,
                    ItemLeaf::Disabled => item.disabled = true,
                    ItemLeaf::Result => item.result = data.and_then(|d| codec::ItemResult::decode(d).ok()),
                }
            }
            Node::LeaderInstance => self.leader = text(),
            Node::ShardingNecessary => {
                self.necessary = true;
                self.sharding_failure = data.and_then(codec::ShardingFailure::decode);
            }
            Node::ShardingProcessing => self.processing = true,
            Node::FailoverItem(i) => {
                self.failover_queue.insert(i);
            }
            Node::Trigger(id) => {
                self.triggers.insert(id);
            }
            _ => {}
        }
    }

    /// The server IP of an instance: its YAML `serverIp`, else the id's IP part.
    pub fn instance_server_ip(&self, id: &str) -> String {
        match self.instances.get(id) {
            Some(Some(info)) => info.server_ip.clone(),
            _ => codec::instance_ip(id).to_string(),
        }
    }

    /// True when the server is `ENABLED`.
    pub fn server_enabled(&self, ip: &str) -> bool {
        self.servers.get(ip).is_some_and(ServerStatus::is_enabled)
    }

    /// ElasticJob's `getAvailableJobInstances`: live instances whose server is enabled, in
    /// reverse lexicographic order of their ids (the order the strategies expect).
    pub fn available_instances(&self) -> Vec<String> {
        let mut ids: Vec<String> =
            self.instances.keys().filter(|id| self.server_enabled(&self.instance_server_ip(id))).cloned().collect();
        strategy::sort_instances_like_elasticjob(&mut ids);
        ids
    }

    /// True while `id` may still run items: it is a live instance, or its session keeps its
    /// runner node (an operator shut it down and its killed runs have not ended yet).
    pub fn may_run(&self, id: &str) -> bool {
        self.instances.contains_key(id) || self.runners.contains(id)
    }

    /// True when `id` is live and its server enabled (`isAvailableServer`, with an exact match
    /// instead of ElasticJob's IP prefix test).
    pub fn is_available(&self, id: &str) -> bool {
        self.instances.contains_key(id) && self.server_enabled(&self.instance_server_ip(id))
    }

    /// The items 0..total owned by `me`, empty when `me` is not available
    /// (`getLocalShardingItems`).
    pub fn local_items(&self, me: &str, total: u32) -> Vec<u32> {
        if !self.is_available(me) {
            return Vec::new();
        }
        (0..total).filter(|i| self.items.get(i).and_then(|v| v.owner.as_deref()) == Some(me)).collect()
    }

    /// True while a fire must wait for the leader: resharding is flagged or in progress, or some
    /// item 0..total has no owner yet (a new job, or a count that just grew).
    pub fn sharding_pending(&self, total: u32) -> bool {
        self.necessary || self.processing || (0..total).any(|i| self.items.get(&i).is_none_or(|v| v.owner.is_none()))
    }

    /// True when any item 0..total is running (`hasRunningItems`).
    pub fn any_running(&self, total: u32) -> bool {
        (0..total).any(|i| self.items.get(&i).is_some_and(|v| v.running))
    }

    /// The current assignment of items 0..total.
    pub fn assignment(&self, total: u32) -> BTreeMap<u32, Option<String>> {
        (0..total).map(|i| (i, self.items.get(&i).and_then(|v| v.owner.clone()))).collect()
    }

    /// Whether the leader must reshard: the items do not match the count, an item has no owner or
    /// an owner that is no longer available, or (for deterministic strategies) the strategy would
    /// now assign differently, for example because an instance joined or a server was enabled.
    /// With `static_sharding`, an existing assignment is only redone for missing items.
    pub fn needs_resharding(&self, total: u32, strategy: Strategy, job_name: &str, static_sharding: bool) -> bool {
        let available = self.available_instances();
        if available.is_empty() {
            return false;
        }
        let shape_wrong = self.items.len() != total as usize || (0..total).any(|i| !self.items.contains_key(&i));
        let owners_missing = (0..total).any(|i| self.items.get(&i).and_then(|v| v.owner.as_ref()).is_none());
        if static_sharding && !self.items.is_empty() {
            return shape_wrong || owners_missing;
        }
        if shape_wrong || owners_missing {
            return true;
        }
        let orphaned = (0..total).any(|i| {
            self.items.get(&i).and_then(|v| v.owner.as_deref()).is_some_and(|o| !available.iter().any(|a| a == o))
        });
        if orphaned {
            return true;
        }
        if strategy == Strategy::SingleShardingBalance {
            return false;
        }
        let desired = strategy::assign(strategy, job_name, &available, total, 0);
        desired.iter().any(|(id, items)| {
            items.iter().any(|i| self.items.get(i).and_then(|v| v.owner.as_deref()) != Some(id.as_str()))
        })
    }

    /// The sharding transaction (docs/src/design/compatibility.md#sharding, made atomic): remove
    /// items ≥ total with everything below them, make sure items 0..total exist, write every owner,
    /// delete `necessary` and `processing`, all in one multi-op guarded by a check of the namespace
    /// root. Returns the operations and the assignment they write.
    pub fn sharding_transaction(
        &self,
        paths: &JobPaths,
        assignment: &[(String, Vec<u32>)],
        total: u32,
        leaves: &BTreeMap<u32, Vec<ItemLeaf>>,
    ) -> Vec<Op> {
        let mut ops = vec![Op::Check { path: path::NAMESPACE_ROOT.to_string(), version: None }];
        for (&item, _) in self.items.range(total..) {
            for leaf in leaves.get(&item).into_iter().flatten() {
                ops.push(Op::Delete { path: paths.item_leaf(item, *leaf), version: None });
            }
            ops.push(Op::Delete { path: paths.item(item), version: None });
        }
        if !self.sharding_root {
            ops.push(Op::Create { path: paths.sharding(), data: Vec::new(), mode: crate::registry::Mode::Persistent });
        }
        for item in 0..total {
            if !self.items.contains_key(&item) {
                ops.push(Op::Create {
                    path: paths.item(item),
                    data: Vec::new(),
                    mode: crate::registry::Mode::Persistent,
                });
            }
        }
        for (id, items) in assignment {
            for &item in items {
                let leaf = paths.item_leaf(item, ItemLeaf::Instance);
                let exists = self.items.get(&item).is_some_and(|v| v.owner.is_some())
                    || leaves.get(&item).is_some_and(|l| l.contains(&ItemLeaf::Instance));
                if exists {
                    ops.push(Op::Set { path: leaf, data: id.as_bytes().to_vec(), version: None });
                } else {
                    ops.push(Op::Create {
                        path: leaf,
                        data: id.as_bytes().to_vec(),
                        mode: crate::registry::Mode::Persistent,
                    });
                }
            }
        }
        if self.necessary {
            ops.push(Op::Delete { path: paths.sharding_necessary(), version: None });
        }
        if self.processing {
            ops.push(Op::Delete { path: paths.sharding_processing(), version: None });
        }
        ops
    }
}

/// The leaves present under each item, from the cache (what must be deleted with an item).
pub fn item_leaves(paths: &JobPaths, cache: &CacheRead<'_>) -> BTreeMap<u32, Vec<ItemLeaf>> {
    let mut out: BTreeMap<u32, Vec<ItemLeaf>> = BTreeMap::new();
    cache.nodes().for_each(|p, _| {
        if let Some((job, Node::ItemLeaf(item, leaf))) = path::parse(p)
            && job == paths.job()
        {
            out.entry(item).or_default().push(leaf);
        }
    });
    out
}

/// True when `nodes` hold item `i`'s node or one of its known leaves (what gives the item an
/// entry in [`JobSnapshot::items`]).
fn item_present(paths: &JobPaths, nodes: &Nodes, i: u32) -> bool {
    let item = paths.item(i);
    if nodes.contains_key(item.as_str()) {
        return true;
    }
    let prefix = format!("{item}/");
    nodes.any_under(&prefix, |k, _| matches!(path::parse(k), Some((_, Node::ItemLeaf(..)))))
}

/// A job's [`JobSnapshot`] kept current by the job's cache as a [`Projection`]: each change updates
/// the part of the snapshot its path feeds, so a look at a job of many items costs a reference count,
/// not a parse of every node; it always equals what [`JobSnapshot::from_cache`] builds from the same
/// cache.
///
/// Only a job whose subtree is large keeps one: a small job's snapshot costs a few microseconds to
/// build and about 5 KB to keep (maps allocate whole B-tree nodes), which would be most of what an
/// idle job costs. The snapshot is kept while the subtree holds more than the threshold's number of
/// nodes and dropped when it falls under half of it (so a subtree around the threshold does not
/// build it again and again); [`LiveSnapshot::current`] is `None` meanwhile.
#[derive(Debug)]
pub struct LiveSnapshot {
    paths: JobPaths,
    snapshot: Option<Arc<JobSnapshot>>,
    threshold: usize,
}

impl LiveSnapshot {
    /// Node count above which a job keeps its snapshot: about 60 items.
    pub const THRESHOLD: usize = 256;

    /// An empty snapshot of `paths`' job, filled by the cache it is given to.
    pub fn new(paths: JobPaths) -> LiveSnapshot {
        LiveSnapshot::with_threshold(paths, LiveSnapshot::THRESHOLD)
    }

    /// The same, kept above `threshold` nodes instead of [`LiveSnapshot::THRESHOLD`].
    pub fn with_threshold(paths: JobPaths, threshold: usize) -> LiveSnapshot {
        LiveSnapshot { paths, snapshot: None, threshold }
    }

    /// The snapshot as of the cache's last applied change (later changes copy it on write), or
    /// `None` while the subtree is small.
    pub fn current(&self) -> Option<Arc<JobSnapshot>> {
        self.snapshot.clone()
    }
}

impl Projection for LiveSnapshot {
    fn rebuild(&mut self, nodes: &Nodes) {
        self.snapshot = (nodes.len() > self.threshold).then(|| Arc::new(JobSnapshot::from_cached(&self.paths, nodes)));
    }

    fn update(&mut self, nodes: &Nodes, path: &str) {
        match self.snapshot.as_mut() {
            Some(_) if nodes.len() < self.threshold / 2 => self.snapshot = None,
            Some(snapshot) => Arc::make_mut(snapshot).refresh(&self.paths, nodes, path),
            None if nodes.len() > self.threshold => self.rebuild(nodes),
            None => {}
        }
    }
}

/// The same, from nodes read directly.
pub fn item_leaves_from_nodes(paths: &JobPaths, nodes: &[TreeNode]) -> BTreeMap<u32, Vec<ItemLeaf>> {
    let mut out: BTreeMap<u32, Vec<ItemLeaf>> = BTreeMap::new();
    for n in nodes {
        if let Some((job, Node::ItemLeaf(item, leaf))) = path::parse(&n.path)
            && job == paths.job()
        {
            out.entry(item).or_default().push(leaf);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(instances: &[&str], servers: &[(&str, &str)], owners: &[(u32, &str)]) -> JobSnapshot {
        let mut v = JobSnapshot::default();
        for id in instances {
            v.instances.insert((*id).to_string(), None);
        }
        for (ip, status) in servers {
            v.servers.insert((*ip).to_string(), ServerStatus::decode(status.as_bytes()));
        }
        for (i, owner) in owners {
            v.items.insert(*i, ItemSnapshot { owner: Some((*owner).to_string()), ..ItemSnapshot::default() });
        }
        v
    }

    #[test]
    fn local_items_vector() {
        // ShardingServiceTest: instances [0→@-@0, 1→@-@1, 2→@-@0] gives [0, 2] for 127.0.0.1@-@0.
        let v = view(
            &["127.0.0.1@-@0", "127.0.0.1@-@1"],
            &[("127.0.0.1", "ENABLED")],
            &[(0, "127.0.0.1@-@0"), (1, "127.0.0.1@-@1"), (2, "127.0.0.1@-@0")],
        );
        assert_eq!(v.local_items("127.0.0.1@-@0", 3), [0, 2]);
        // A disabled server has no local items.
        let mut disabled = v.clone();
        disabled.servers.insert("127.0.0.1".into(), ServerStatus::Disabled);
        assert!(disabled.local_items("127.0.0.1@-@0", 3).is_empty());
    }

    #[test]
    fn available_instances_are_enabled_and_reverse_ordered() {
        let v = view(
            &["10.0.0.1@-@1", "10.0.0.2@-@1", "10.0.0.12@-@1"],
            &[("10.0.0.1", "ENABLED"), ("10.0.0.2", "DISABLED"), ("10.0.0.12", "ENABLED")],
            &[],
        );
        // Reverse Java order: "10.0.0.1@" sorts after "10.0.0.12" because '@' > '2'.
        assert_eq!(v.available_instances(), ["10.0.0.1@-@1", "10.0.0.12@-@1"]);
        // No prefix matching: 10.0.0.1 being enabled does not make 10.0.0.12 available.
        let only_prefix = view(&["10.0.0.12@-@1"], &[("10.0.0.1", "ENABLED")], &[]);
        assert!(only_prefix.available_instances().is_empty());
    }

    #[test]
    fn resharding_decisions() {
        let a = "10.0.0.1@-@1";
        let b = "10.0.0.2@-@1";
        let servers = [("10.0.0.1", "ENABLED"), ("10.0.0.2", "ENABLED")];
        // AVG over [b, a] (reverse order) for 2 items: b gets 0, a gets 1.
        let settled = view(&[a, b], &servers, &[(0, b), (1, a)]);
        assert!(!settled.needs_resharding(2, Strategy::AverageAllocation, "j", false));
        // Count changed.
        assert!(settled.needs_resharding(3, Strategy::AverageAllocation, "j", false));
        // An owner died.
        let mut died = settled.clone();
        died.instances.remove(a);
        assert!(died.needs_resharding(2, Strategy::AverageAllocation, "j", false));
        // An instance joined and would get items.
        let joined = view(
            &[a, b, "10.0.0.3@-@1"],
            &[("10.0.0.1", "ENABLED"), ("10.0.0.2", "ENABLED"), ("10.0.0.3", "ENABLED")],
            &[(0, b), (1, a)],
        );
        assert!(joined.needs_resharding(2, Strategy::AverageAllocation, "j", false));
        // ...but not with static sharding.
        assert!(!joined.needs_resharding(2, Strategy::AverageAllocation, "j", true));
        // Nothing to do without available instances.
        let none = view(&[], &servers, &[]);
        assert!(!none.needs_resharding(2, Strategy::AverageAllocation, "j", false));
        // A fresh job needs sharding.
        let fresh = view(&[a], &servers, &[]);
        assert!(fresh.needs_resharding(2, Strategy::AverageAllocation, "j", false));
    }

    #[test]
    fn sharding_transaction_shape() {
        // ShardingServiceTest: total 3 with existing children 0..3: item 3 is removed.
        let paths = JobPaths::new("test_job");
        let a = "127.0.0.1@-@0";
        let mut v = view(&[a], &[("127.0.0.1", "ENABLED")], &[(0, a), (1, a), (2, a), (3, a)]);
        v.necessary = true;
        v.processing = true;
        v.sharding_root = true;
        let leaves: BTreeMap<u32, Vec<ItemLeaf>> = (0..4).map(|i| (i, vec![ItemLeaf::Instance])).collect();
        let assignment = strategy::assign(Strategy::AverageAllocation, "test_job", &[a.to_string()], 3, 0);
        let ops = v.sharding_transaction(&paths, &assignment, 3, &leaves);
        let described: Vec<String> = ops
            .iter()
            .map(|op| match op {
                Op::Check { path, .. } => format!("check {path}"),
                Op::Create { path, data, .. } => format!("create {path}={}", String::from_utf8_lossy(data)),
                Op::Set { path, data, .. } => format!("set {path}={}", String::from_utf8_lossy(data)),
                Op::Delete { path, .. } => format!("delete {path}"),
            })
            .collect();
        assert_eq!(
            described,
            [
                "check /",
                "delete /test_job/sharding/3/instance",
                "delete /test_job/sharding/3",
                "set /test_job/sharding/0/instance=127.0.0.1@-@0",
                "set /test_job/sharding/1/instance=127.0.0.1@-@0",
                "set /test_job/sharding/2/instance=127.0.0.1@-@0",
                "delete /test_job/leader/sharding/necessary",
                "delete /test_job/leader/sharding/processing",
            ]
        );
    }

    /// The view a cache keeps current path by path equals the one built from all its nodes,
    /// after any sequence of creations, changes and deletions of any of a job's nodes, and it is
    /// kept whenever the subtree is over the threshold.
    mod live {
        use proptest::prelude::*;

        use super::*;
        use crate::registry::cache::CachedStat;
        use crate::registry::codec::InstanceId;

        fn paths_pool(paths: &JobPaths) -> Vec<String> {
            let ids = ["10.0.0.1@-@1", "10.0.0.2@-@2"];
            let mut pool = vec![paths.root().to_string(), paths.sharding(), paths.leader_instance()];
            pool.extend([paths.sharding_necessary(), paths.sharding_processing()]);
            for id in ids {
                pool.extend([paths.instance(id), paths.runner(id), paths.trigger(id)]);
            }
            pool.extend([paths.server("10.0.0.1"), paths.server("10.0.0.2")]);
            for i in 0..3 {
                pool.push(paths.item(i));
                pool.push(paths.failover_item(i));
                pool.extend(ItemLeaf::ALL.iter().map(|leaf| paths.item_leaf(i, *leaf)));
            }
            pool.push("/other/sharding/0/instance".into());
            pool.push(format!("{}/config", paths.root()));
            pool
        }

        fn data_pool() -> Vec<Option<Vec<u8>>> {
            let info = InstanceInfo::new(&InstanceId::new("10.0.0.1", 1)).to_yaml();
            let failure = codec::ShardingFailure::new(chrono::DateTime::UNIX_EPOCH, 2, "too large", "10.0.0.1@-@1");
            let failure = String::from_utf8_lossy(&failure.encode()).into_owned();
            [Some(info), Some("ENABLED".into()), Some("DISABLED".into()), Some("10.0.0.2@-@2".into())]
                .into_iter()
                .chain([Some(String::new()), Some(": not yaml".into()), Some(failure), None])
                .map(|d| d.map(String::into_bytes))
                .collect()
        }

        proptest! {
            #[test]
            fn equals_the_view_built_from_every_node(
                steps in prop::collection::vec((0usize..63, prop::option::of((0usize..8, any::<bool>()))), 1..80),
                rebuild_at in 0usize..80,
                threshold in 0usize..12,
            ) {
                let paths = JobPaths::new("job");
                let pool = paths_pool(&paths);
                let data = data_pool();
                // Rooted at `/`, so that the pool's node of another job is kept and ignored by the
                // view, as a cache of a whole namespace would hold it.
                let mut nodes = Nodes::new("/");
                let mut live = LiveSnapshot::with_threshold(paths.clone(), threshold);
                for (n, (p, write)) in steps.into_iter().enumerate() {
                    let p = &pool[p % pool.len()];
                    match write {
                        Some((d, ephemeral)) => {
                            let stat = CachedStat { ephemeral, mzxid: 0, version: 0 };
                            let data = data[d].as_deref().map(crate::registry::bytes::share);
                            nodes.set(p, Cached { data, stat: Some(stat) });
                            live.update(&nodes, p);
                        }
                        None => {
                            if nodes.remove(p.as_str()).is_some() {
                                live.update(&nodes, p);
                            }
                        }
                    }
                    if n == rebuild_at {
                        live.rebuild(&nodes);
                    }
                    match live.current() {
                        Some(view) => prop_assert_eq!(&*view, &JobSnapshot::from_cached(&paths, &nodes)),
                        None => prop_assert!(nodes.len() <= threshold, "dropped at {} nodes", nodes.len()),
                    }
                    if nodes.len() > threshold {
                        prop_assert!(live.current().is_some(), "not kept at {} nodes", nodes.len());
                    }
                }
            }
        }
    }
}
