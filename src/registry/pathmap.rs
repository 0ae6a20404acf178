//! Nodes by path: sorted in a vector while they are few, in a B-tree once there are many. A
//! job's cache ([`super::cache::Nodes`]) and each job's group of nodes in the embedded store
//! keep their nodes in one.
//!
//! An idle job has about two dozen nodes. In a B-tree those take a root and two or three leaves of
//! 11 entries each, used or not: about 2 KB of a cache's nodes. Sorted in a vector they take 32
//! bytes each, under 1 KB. A lookup is then a binary search, and an insertion or removal moves the
//! entries after it, which is cheaper than a B-tree's allocation while the vector is small. A large
//! job (a thousand items, a few thousand nodes, a thousand `running` nodes created and deleted at
//! each fire) would move kilobytes at every change: above [`LARGE`] nodes the map keeps them in a
//! B-tree, and back in a vector below half of that, so a job near the limit does not convert at
//! every change.
//!
//! The vector's keys are shared values ([`super::bytes`]): a path below a job's root, such as
//! `/sharding/0/instance`, is the same in every job of a process, so it is one allocation for all
//! of them, and a node holds a pointer to it. The keys are given relative to the job (a cache's
//! [`super::cache::Nodes`], each group of the embedded store) for that reason. The paths in one
//! string per map, each node its offset and length in it, took the same 8 bytes beside every
//! node and about 0.5 KB of text for every job's cache, and as much again for its group in the
//! embedded store. The vector grows by a quarter (at least 4 entries) when full, not twice: a
//! map filled one node at a time, as the embedded store fills a job's, would otherwise keep up
//! to half of its room unused, and a job's cache made with room for its idle nodes would double
//! at its first fire.

use std::collections::BTreeMap;
use std::collections::btree_map;
use std::ops::Bound;

use crate::registry::bytes::{self, Data};
use crate::registry::path;

/// The number of nodes above which they are kept in a B-tree.
pub const LARGE: usize = 256;

/// Nodes by path, in byte order of the path.
#[derive(Debug)]
pub struct PathMap<V>(Repr<V>);

impl<V> Default for PathMap<V> {
    fn default() -> PathMap<V> {
        PathMap(Repr::default())
    }
}

#[derive(Debug)]
enum Repr<V> {
    Small(Packed<V>),
    Large(BTreeMap<Box<str>, V>),
}

impl<V> Default for Repr<V> {
    fn default() -> Repr<V> {
        Repr::Small(Packed::default())
    }
}

/// Nodes sorted by path, no path twice.
#[derive(Debug)]
struct Packed<V> {
    /// Sorted by path.
    slots: Vec<Slot<V>>,
}

impl<V> Default for Packed<V> {
    fn default() -> Packed<V> {
        Packed { slots: Vec::new() }
    }
}

/// A node and its path, shared ([`bytes::share`]).
#[derive(Debug)]
struct Slot<V> {
    key: Data,
    node: V,
}

impl<V> Slot<V> {
    fn path(&self) -> &str {
        // Made from a `&str`: always UTF-8.
        std::str::from_utf8(&self.key).unwrap_or_default()
    }
}

impl<V> Packed<V> {
    fn find(&self, path: &str) -> Result<usize, usize> {
        self.slots.binary_search_by(|s| (*s.key).cmp(path.as_bytes()))
    }

    /// Inserts a path not there at slot `i`.
    fn insert(&mut self, i: usize, path: &str, node: V) {
        if self.slots.len() == self.slots.capacity() {
            self.slots.reserve_exact((self.slots.len() / 4).max(4));
        }
        self.slots.insert(i, Slot { key: bytes::share(path.as_bytes()), node });
    }

    fn remove(&mut self, i: usize) -> V {
        self.slots.remove(i).node
    }

    /// Into a B-tree.
    fn into_map(self) -> BTreeMap<Box<str>, V> {
        self.slots.into_iter().map(|s| (Box::from(s.path()), s.node)).collect()
    }
}

/// The nodes in byte order of the path, or those of a range of paths.
pub struct Iter<'a, V>(IterRepr<'a, V>);

enum IterRepr<'a, V> {
    /// Of the vector.
    Small(std::slice::Iter<'a, Slot<V>>),
    /// Of the B-tree.
    Large(btree_map::Range<'a, Box<str>, V>),
}

impl<'a, V> Iterator for Iter<'a, V> {
    type Item = (&'a str, &'a V);

    fn next(&mut self) -> Option<(&'a str, &'a V)> {
        match &mut self.0 {
            IterRepr::Small(i) => i.next().map(|s| (s.path(), &s.node)),
            IterRepr::Large(i) => i.next().map(|(p, c)| (&**p, c)),
        }
    }
}

impl<V> PathMap<V> {
    /// No nodes.
    pub fn new() -> PathMap<V> {
        PathMap::default()
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Small(v) => v.slots.len(),
            Repr::Large(m) => m.len(),
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The node at `path`.
    pub fn get(&self, path: &str) -> Option<&V> {
        match &self.0 {
            Repr::Small(v) => v.find(path).ok().map(|i| &v.slots[i].node),
            Repr::Large(m) => m.get(path),
        }
    }

    /// The node at `path`, to change.
    pub fn get_mut(&mut self, path: &str) -> Option<&mut V> {
        match &mut self.0 {
            Repr::Small(v) => v.find(path).ok().map(|i| &mut v.slots[i].node),
            Repr::Large(m) => m.get_mut(path),
        }
    }

    /// True when there is a node at `path`.
    pub fn contains_key(&self, path: &str) -> bool {
        self.get(path).is_some()
    }

    /// Sets the node at `path`, returning the one it replaces.
    pub fn insert(&mut self, path: &str, node: V) -> Option<V> {
        self.put(path, node, |old, node| Some(std::mem::replace(old, node)), None)
    }

    /// Puts `node` at `path`: `known` takes it when the path holds a node (keeping its key: no
    /// allocation), and its answer is returned; `new` is returned when the path is new.
    pub fn put<R>(&mut self, path: &str, node: V, known: impl FnOnce(&mut V, V) -> R, new: R) -> R {
        let v = match &mut self.0 {
            Repr::Small(v) => v,
            Repr::Large(m) => {
                return match m.get_mut(path) {
                    Some(old) => known(old, node),
                    None => {
                        m.insert(path.into(), node);
                        new
                    }
                };
            }
        };
        match v.find(path) {
            Ok(i) => return known(&mut v.slots[i].node, node),
            Err(i) if v.slots.len() < LARGE => {
                v.insert(i, path, node);
                return new;
            }
            Err(_) => {}
        }
        // Into a B-tree: past LARGE nodes.
        let mut map = std::mem::take(v).into_map();
        map.insert(path.into(), node);
        self.0 = Repr::Large(map);
        new
    }

    /// Removes the node at `path`, returning it.
    pub fn remove(&mut self, path: &str) -> Option<V> {
        match &mut self.0 {
            Repr::Small(v) => v.find(path).ok().map(|i| v.remove(i)),
            Repr::Large(m) => {
                let removed = m.remove(path);
                if m.len() < LARGE / 2 {
                    *self = PathMap::with_room(std::mem::take(m).into_iter().collect(), 0);
                }
                removed
            }
        }
    }

    /// How many nodes the vector has room for without growing (none in a B-tree).
    pub fn room(&self) -> usize {
        match &self.0 {
            Repr::Small(v) => v.slots.capacity(),
            Repr::Large(_) => 0,
        }
    }

    /// Every node, in byte order of the path.
    pub fn iter(&self) -> Iter<'_, V> {
        match &self.0 {
            Repr::Small(v) => Iter(IterRepr::Small(v.slots.iter())),
            Repr::Large(m) => Iter(IterRepr::Large(m.range::<str, _>(..))),
        }
    }

    /// Every node whose path starts with `prefix` (a directory's path with its trailing `/`),
    /// in byte order of the path.
    pub fn under<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = (&'a str, &'a V)> + 'a {
        let from = match &self.0 {
            Repr::Small(v) => {
                let first = v.slots.partition_point(|s| *s.key < *prefix.as_bytes());
                IterRepr::Small(v.slots[first..].iter())
            }
            Repr::Large(m) => IterRepr::Large(m.range::<str, _>((Bound::Included(prefix), Bound::Unbounded))),
        };
        Iter(from).take_while(move |(p, _)| p.starts_with(prefix))
    }

    /// The names of `parent`'s children, in byte order.
    pub fn children(&self, parent: &str) -> Vec<String> {
        let prefix = path::dir_prefix(parent);
        path::direct_children(&prefix, self.under(&prefix).map(|(p, _)| p))
    }
}

impl<V> PathMap<V> {
    /// The nodes in any order; of a path given twice, the last. Made with room for `room`
    /// nodes: a cache makes room when it starts for the nodes it will hold, since a vector grown
    /// later leaves its old block as a hole among the other jobs' memory.
    pub fn with_room<K: AsRef<str> + Into<Box<str>>>(mut v: Vec<(K, V)>, room: usize) -> PathMap<V> {
        if v.len() > LARGE {
            return PathMap(Repr::Large(v.into_iter().map(|(p, node)| (p.into(), node)).collect()));
        }
        // Stable: of equal paths the last given ends up last; the kept slot takes its node.
        v.sort_by(|(a, _), (b, _)| a.as_ref().cmp(b.as_ref()));
        v.dedup_by(|later, kept| {
            let same = later.0.as_ref() == kept.0.as_ref();
            if same {
                std::mem::swap(later, kept);
            }
            same
        });
        // Room for at most LARGE: past it the nodes go into a B-tree (a job of 100,000 items
        // would otherwise reserve 6 MB for a vector it leaves at its 257th node).
        let mut slots = Vec::with_capacity(v.len().max(room.min(LARGE)));
        slots.extend(v.into_iter().map(|(p, node)| Slot { key: bytes::share(p.as_ref().as_bytes()), node }));
        PathMap(Repr::Small(Packed { slots }))
    }
}

impl<V> FromIterator<(Box<str>, V)> for PathMap<V> {
    /// As [`PathMap::with_room`], without room to spare.
    fn from_iter<I: IntoIterator<Item = (Box<str>, V)>>(iter: I) -> PathMap<V> {
        PathMap::with_room(iter.into_iter().collect(), 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::cache::Cached;

    type Map = PathMap<Cached>;

    fn node(byte: u8) -> Cached {
        Cached { data: Some(crate::registry::bytes::share(&[byte])), stat: None }
    }

    /// The same changes applied to `Map` and to a B-tree, compared after each.
    #[test]
    fn behaves_as_a_map_across_both_forms() {
        let mut nodes = Map::new();
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
                assert_eq!(nodes.insert(&p, node(step as u8)), model.insert(p.clone().into(), node(step as u8)));
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

    /// Paths with multi-byte characters keep their byte order as they come and go.
    #[test]
    fn multi_byte_paths_keep_their_order() {
        let mut nodes = Map::with_room(Vec::<(&str, Cached)>::new(), 8);
        let mut model: BTreeMap<String, Cached> = BTreeMap::new();
        for round in 0..40u8 {
            let p = format!("/jöb/{}/é{round}", round % 5);
            assert_eq!(nodes.insert(&p, node(round)), model.insert(p.clone(), node(round)));
            if round % 3 == 0 {
                let gone = format!("/jöb/{}/é{}", (round + 2) % 5, round / 2);
                assert_eq!(nodes.remove(&gone), model.remove(&gone));
            }
            let all: Vec<_> = nodes.iter().map(|(p, c)| (p.to_string(), c.clone())).collect();
            let expected: Vec<_> = model.iter().map(|(p, c)| (p.clone(), c.clone())).collect();
            assert_eq!(all, expected);
        }
    }

    #[test]
    fn under_and_children_see_only_the_directory() {
        let nodes: Map =
            ["/a", "/a/b", "/a/b/c", "/a/bb", "/ab", "/a/c"].into_iter().map(|p| (Box::from(p), node(0))).collect();
        let under: Vec<&str> = nodes.under("/a/").map(|(p, _)| p).collect();
        assert_eq!(under, ["/a/b", "/a/b/c", "/a/bb", "/a/c"]);
        assert_eq!(nodes.children("/a"), ["b", "bb", "c"]);
        assert_eq!(nodes.children("/"), ["a", "ab"]);
    }

    #[test]
    fn collecting_keeps_the_last_of_a_path_given_twice() {
        let nodes: Map = [("/b", 1), ("/a", 2), ("/b", 3)].into_iter().map(|(p, b)| (Box::from(p), node(b))).collect();
        assert_eq!(nodes.iter().map(|(p, _)| p).collect::<Vec<_>>(), ["/a", "/b"]);
        assert_eq!(nodes.get("/b"), Some(&node(3)));
    }

    #[test]
    fn equal_paths_of_two_maps_are_one_key() {
        let a: Map = [(Box::from("/sharding/0/instance"), node(1))].into_iter().collect();
        let mut b = Map::new();
        b.insert("/sharding/0/instance", node(2));
        let key = |m: &Map| match &m.0 {
            Repr::Small(v) => v.slots[0].key.clone(),
            Repr::Large(_) => unreachable!("one node is a vector"),
        };
        assert!(Data::ptr_eq(&key(&a), &key(&b)));
    }
}
