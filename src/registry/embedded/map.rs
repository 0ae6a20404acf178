//! The embedded store's nodes by path, in groups: one per top-level node (a worker's job: the
//! embedded registry has no namespace, its jobs are at `/{job}`) holding it and its subtree, and
//! one for the root.
//!
//! One B-tree of every node, keyed by boxed paths, took about 3.5 KB of every idle job: leaves
//! of 11 entries of 80 bytes filled to about 60 % as a job's nodes come one after another, and a
//! block of 32 to 48 bytes for each path. A group keeps its nodes as a job's cache does, in a
//! [`PathMap`]: sorted in a vector while they are few. And it keeps them relative to the group's
//! path, so their keys are the same in every job (and in the job's cache), and shared. A tree
//! with its jobs deeper (a test's `/{namespace}/{job}`) has them all in one group, which then
//! holds them in a B-tree: as compact as before, not more.

use std::collections::BTreeMap;
use std::ops::Bound;

use super::node::ENode;
use crate::registry::path;
use crate::registry::pathmap::PathMap;

/// The nodes a group has room for when it is made: those of an idle job of a few items, whose
/// nodes come one at a time as it registers, elects and shards. Made with room, the group does
/// not grow five times, each time leaving its old block as a hole among the other jobs' memory:
/// measured with 1,000 jobs, the holes took more than the B-tree this map replaced.
///
/// An idle job of 3 items has 20 nodes (14, and 2 an item). Room for 22 nodes of 56 bytes is
/// 1,232 bytes, in the allocator's 1,280-byte class, where room for 24 took a 1,536-byte block.
/// A fire adds a `running` node an item, which grows the group once, by a quarter (to 27 nodes,
/// the 1,536-byte class): a job of a few items costs what it did while it fires, 256 bytes less
/// while it is idle.
const GROUP_NODES: usize = 22;

/// Every node of the store.
#[derive(Default)]
pub(super) struct NodeMap {
    /// By the group's path; each group's nodes by their path after it (`""` for the group's own
    /// node).
    groups: BTreeMap<Box<str>, PathMap<ENode>>,
    len: usize,
}

/// The path's group (its first segment) and the rest of the path.
fn split(p: &str) -> (&str, &str) {
    p.split_at(p.get(1..).and_then(|rest| rest.find('/')).map_or(p.len(), |i| i + 1))
}

impl NodeMap {
    /// The number of nodes.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn get(&self, p: &str) -> Option<&ENode> {
        let (group, rest) = split(p);
        self.groups.get(group)?.get(rest)
    }

    pub(super) fn get_mut(&mut self, p: &str) -> Option<&mut ENode> {
        let (group, rest) = split(p);
        self.groups.get_mut(group)?.get_mut(rest)
    }

    pub(super) fn contains_key(&self, p: &str) -> bool {
        self.get(p).is_some()
    }

    /// Sets the node at `p`, returning the one it replaces.
    pub(super) fn insert(&mut self, p: &str, node: ENode) -> Option<ENode> {
        let (group, rest) = split(p);
        let old = match self.groups.get_mut(group) {
            Some(nodes) => nodes.insert(rest, node),
            None => {
                let mut nodes = PathMap::with_room(Vec::<(&str, ENode)>::new(), GROUP_NODES);
                nodes.insert(rest, node);
                self.groups.insert(group.into(), nodes);
                None
            }
        };
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    pub(super) fn remove(&mut self, p: &str) -> Option<ENode> {
        let (group, rest) = split(p);
        let nodes = self.groups.get_mut(group)?;
        let removed = nodes.remove(rest)?;
        if nodes.is_empty() {
            self.groups.remove(group);
        }
        self.len -= 1;
        Some(removed)
    }

    /// The paths of the nodes `keep` accepts (only theirs are put together from group and rest).
    pub(super) fn paths_where(&self, keep: impl Fn(&ENode) -> bool) -> Vec<String> {
        self.groups
            .iter()
            .flat_map(|(group, nodes)| nodes.iter().map(move |(rest, node)| (group, rest, node)))
            .filter(|(_, _, node)| keep(node))
            .map(|(group, rest, _)| format!("{group}{rest}"))
            .collect()
    }

    /// The names of `parent`'s children, in byte order.
    pub(super) fn child_names(&self, parent: &str) -> Vec<String> {
        let (group, rest) = split(parent);
        if parent == "/" {
            // The top-level nodes are groups of their own.
            let prefix = path::dir_prefix(parent);
            let groups = self
                .groups
                .range::<str, _>((Bound::Included(prefix.as_str()), Bound::Unbounded))
                .map(|(g, _)| &**g)
                .take_while(|g| g.starts_with(prefix.as_str()));
            return path::direct_children(&prefix, groups);
        }
        let Some(nodes) = self.groups.get(group) else { return Vec::new() };
        let prefix = format!("{rest}/");
        path::direct_children(&prefix, nodes.under(&prefix).map(|(p, _)| p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::embedded::node::EStat;

    fn node(version: i32) -> ENode {
        ENode { data: crate::registry::bytes::share(&[]), stat: EStat { version, ..EStat::default() } }
    }

    #[test]
    fn a_path_splits_after_its_first_segment() {
        assert_eq!(split("/"), ("/", ""));
        assert_eq!(split("/job"), ("/job", ""));
        assert_eq!(split("/job/sharding/0"), ("/job", "/sharding/0"));
    }

    #[test]
    fn children_come_from_groups_and_from_within_them() {
        let mut map = NodeMap::default();
        for p in ["/", "/ns", "/ns/a", "/ns/a/x", "/ns/a/x/y", "/ns/a/z", "/ns/a-b", "/ns/b", "/nt", "/n"] {
            assert!(map.insert(p, node(0)).is_none());
        }
        assert_eq!(map.len(), 10);
        assert_eq!(map.child_names("/"), ["n", "ns", "nt"]);
        assert_eq!(map.child_names("/ns"), ["a", "a-b", "b"]);
        assert_eq!(map.child_names("/ns/a"), ["x", "z"]);
        assert_eq!(map.child_names("/ns/a/x"), ["y"]);
        assert!(map.child_names("/ns/b").is_empty());
        assert!(map.child_names("/missing/deep").is_empty());
        assert_eq!(map.insert("/ns/a/x", node(1)).map(|n| n.stat.version), Some(0));
        assert_eq!(map.get("/ns/a/x").map(|n| n.stat.version), Some(1));
        assert_eq!(map.len(), 10);
        assert!(map.remove("/ns/b").is_some());
        assert!(map.remove("/ns/b").is_none());
        assert_eq!(map.child_names("/ns"), ["a", "a-b"]);
        assert_eq!(map.len(), 9);
        let mut all = map.paths_where(|_| true);
        all.sort();
        assert_eq!(all, ["/", "/n", "/ns", "/ns/a", "/ns/a-b", "/ns/a/x", "/ns/a/x/y", "/ns/a/z", "/nt"]);
    }
}
