//! The nodes of one cache, by path: sorted in a vector while they are few, in a B-tree once
//! there are many.
//!
//! An idle job's cache holds about two dozen nodes. In a B-tree those take a root and two or
//! three leaves of 11 entries each, used or not: about 2 KB. Sorted in a vector they take 48
//! bytes each, about 1.2 KB. A lookup is then a binary search, and an insertion or removal moves
//! the entries after it, which is cheaper than a B-tree's allocation while the vector is small. A
//! large job (a thousand items, a few thousand nodes, a thousand `running` nodes created and
//! deleted at each fire) would move kilobytes at every change: above [`LARGE`] nodes the cache
//! keeps them in a B-tree, and back in a vector below half of that, so a job near the limit does
//! not convert at every change.

use std::collections::BTreeMap;
use std::collections::btree_map;
use std::ops::Bound;

use super::Cached;
use crate::registry::path;

/// The number of nodes above which they are kept in a B-tree.
pub const LARGE: usize = 256;

/// The cached nodes by path, in byte order of the path.
#[derive(Debug, Default)]
pub struct Nodes(Repr);

#[derive(Debug)]
enum Repr {
    /// Sorted by path, no path twice.
    Small(Vec<(Box<str>, Cached)>),
    Large(BTreeMap<Box<str>, Cached>),
}

impl Default for Repr {
    fn default() -> Repr {
        Repr::Small(Vec::new())
    }
}

/// The nodes in byte order of the path, or those of a range of paths.
pub enum Iter<'a> {
    /// Of the vector.
    Small(std::slice::Iter<'a, (Box<str>, Cached)>),
    /// Of the B-tree.
    Large(btree_map::Range<'a, Box<str>, Cached>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a Cached);

    fn next(&mut self) -> Option<(&'a str, &'a Cached)> {
        match self {
            Iter::Small(i) => i.next().map(|(p, c)| (&**p, c)),
            Iter::Large(i) => i.next().map(|(p, c)| (&**p, c)),
        }
    }
}

impl Nodes {
    /// No nodes.
    pub fn new() -> Nodes {
        Nodes::default()
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Small(v) => v.len(),
            Repr::Large(m) => m.len(),
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The node at `path`.
    pub fn get(&self, path: &str) -> Option<&Cached> {
        match &self.0 {
            Repr::Small(v) => v.binary_search_by(|(p, _)| (**p).cmp(path)).ok().map(|i| &v[i].1),
            Repr::Large(m) => m.get(path),
        }
    }

    /// True when there is a node at `path`.
    pub fn contains_key(&self, path: &str) -> bool {
        self.get(path).is_some()
    }

    /// Sets the node at `path`; true when it is new. A known path keeps its key (no
    /// allocation: most changes are to a node the cache holds).
    pub fn set(&mut self, path: &str, node: Cached) -> bool {
        match &mut self.0 {
            Repr::Small(v) => match v.binary_search_by(|(p, _)| (**p).cmp(path)) {
                Ok(i) => {
                    v[i].1 = node;
                    false
                }
                Err(i) => {
                    v.insert(i, (path.into(), node));
                    if v.len() > LARGE {
                        self.0 = Repr::Large(std::mem::take(v).into_iter().collect());
                    }
                    true
                }
            },
            Repr::Large(m) => match m.get_mut(path) {
                Some(old) => {
                    *old = node;
                    false
                }
                None => m.insert(path.into(), node).is_none(),
            },
        }
    }

    /// Removes the node at `path`, returning it.
    pub fn remove(&mut self, path: &str) -> Option<Cached> {
        match &mut self.0 {
            Repr::Small(v) => v.binary_search_by(|(p, _)| (**p).cmp(path)).ok().map(|i| v.remove(i).1),
            Repr::Large(m) => {
                let removed = m.remove(path);
                if m.len() < LARGE / 2 {
                    let small: Vec<_> = std::mem::take(m).into_iter().collect();
                    self.0 = Repr::Small(small);
                }
                removed
            }
        }
    }

    /// How many nodes the vector has room for without growing (none in a B-tree).
    pub fn room(&self) -> usize {
        match &self.0 {
            Repr::Small(v) => v.capacity(),
            Repr::Large(_) => 0,
        }
    }

    /// Every node, in byte order of the path.
    pub fn iter(&self) -> Iter<'_> {
        match &self.0 {
            Repr::Small(v) => Iter::Small(v.iter()),
            Repr::Large(m) => Iter::Large(m.range::<str, _>(..)),
        }
    }

    /// Every node whose path starts with `prefix` (a directory's path with its trailing `/`),
    /// in byte order of the path.
    pub fn under<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = (&'a str, &'a Cached)> + 'a {
        let from = match &self.0 {
            Repr::Small(v) => Iter::Small(v[v.partition_point(|(p, _)| **p < *prefix)..].iter()),
            Repr::Large(m) => Iter::Large(m.range::<str, _>((Bound::Included(prefix), Bound::Unbounded))),
        };
        from.take_while(move |(p, _)| p.starts_with(prefix))
    }

    /// The names of `parent`'s children, in byte order.
    pub fn children(&self, parent: &str) -> Vec<String> {
        let prefix = path::dir_prefix(parent);
        path::direct_children(&prefix, self.under(&prefix).map(|(p, _)| p))
    }
}

impl Nodes {
    /// The nodes in any order; of a path given twice, the last. A vector given with room to
    /// spare keeps it: a cache makes room when it starts for the nodes it will hold, since a
    /// vector grown later leaves its old block as a hole among the other jobs' memory.
    pub fn from_vec(mut v: Vec<(Box<str>, Cached)>) -> Nodes {
        if v.len() > LARGE {
            return Nodes(Repr::Large(v.into_iter().collect()));
        }
        // Stable: of equal paths the last given ends up last; the kept slot takes its node.
        v.sort_by(|(a, _), (b, _)| a.cmp(b));
        v.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                std::mem::swap(later, kept);
            }
            same
        });
        Nodes(Repr::Small(v))
    }
}

impl FromIterator<(Box<str>, Cached)> for Nodes {
    /// As [`Nodes::from_vec`].
    fn from_iter<I: IntoIterator<Item = (Box<str>, Cached)>>(iter: I) -> Nodes {
        Nodes::from_vec(iter.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(byte: u8) -> Cached {
        Cached { data: Some(Box::new([byte])), stat: None }
    }

    /// The same changes applied to `Nodes` and to a B-tree, compared after each.
    #[test]
    fn behaves_as_a_map_across_both_forms() {
        let mut nodes = Nodes::new();
        let mut model: BTreeMap<Box<str>, Cached> = BTreeMap::new();
        // Enough paths to cross LARGE both ways; a fixed sequence of sets and removals.
        let path = |i: usize| format!("/job/sharding/{i}");
        let mut state = 7usize;
        for step in 0..4000 {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345) % (1 << 31);
            let i = state % (LARGE + LARGE / 2);
            let p = path(i);
            // Grow for the first half, shrink for the second.
            if (step < 2000) != state.is_multiple_of(4) {
                let created = nodes.set(&p, node(step as u8));
                assert_eq!(created, model.insert(p.clone().into(), node(step as u8)).is_none());
            } else {
                assert_eq!(nodes.remove(&p), model.remove(p.as_str()));
            }
            assert_eq!(nodes.len(), model.len());
            if step % 97 == 0 {
                let all: Vec<_> = nodes.iter().map(|(p, c)| (p.to_string(), c.clone())).collect();
                let expected: Vec<_> = model.iter().map(|(p, c)| (p.to_string(), c.clone())).collect();
                assert_eq!(all, expected);
            }
            assert_eq!(nodes.get(&p), model.get(p.as_str()));
        }
        assert!(matches!(nodes.0, Repr::Small(_)), "back in a vector at {} nodes", nodes.len());
    }

    #[test]
    fn under_and_children_see_only_the_directory() {
        let nodes: Nodes =
            ["/a", "/a/b", "/a/b/c", "/a/bb", "/ab", "/a/c"].into_iter().map(|p| (Box::from(p), node(0))).collect();
        let under: Vec<&str> = nodes.under("/a/").map(|(p, _)| p).collect();
        assert_eq!(under, ["/a/b", "/a/b/c", "/a/bb", "/a/c"]);
        assert_eq!(nodes.children("/a"), ["b", "bb", "c"]);
        assert_eq!(nodes.children("/"), ["a", "ab"]);
    }

    #[test]
    fn collecting_keeps_the_last_of_a_path_given_twice() {
        let nodes: Nodes =
            [("/b", 1), ("/a", 2), ("/b", 3)].into_iter().map(|(p, b)| (Box::from(p), node(b))).collect();
        assert_eq!(nodes.iter().map(|(p, _)| p).collect::<Vec<_>>(), ["/a", "/b"]);
        assert_eq!(nodes.get("/b"), Some(&node(3)));
    }
}
