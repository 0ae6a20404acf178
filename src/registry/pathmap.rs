//! Nodes by path: sorted in a vector while they are few, in a B-tree once there are many. A
//! job's cache ([`super::cache::Nodes`]) and each job's group of nodes in the embedded store
//! keep their nodes in one.
//!
//! An idle job has about two dozen nodes. In a B-tree those take a root and two or three leaves
//! of 11 entries each, used or not: about 2 KB of a cache's nodes. Sorted in a vector they take
//! 32 bytes each beside their paths, under 1 KB. A lookup is then a binary search, and an insertion or
//! removal moves the entries after it, which is cheaper than a B-tree's allocation while the
//! vector is small. A large job (a thousand items, a few thousand nodes, a thousand `running`
//! nodes created and deleted at each fire) would move kilobytes at every change: above [`LARGE`]
//! nodes the map keeps them in a B-tree, and back in a vector below half of that, so a job near
//! the limit does not convert at every change.
//!
//! The vector's paths are one string, each entry its offset and length in it: a path of its own
//! was an allocation of 32 or 48 bytes for a path of 10 to 40 (the allocator's smallest block is
//! 32 bytes), 0.6 KB of every idle job. A removed path stays in the string until a new one finds
//! no room; the live paths are then moved together in place, or copied into a new string a
//! quarter larger only when they need it, so the string does not grow while a job's `running`
//! nodes come and go at every fire. The vector too grows by a quarter (at least 4 entries) when
//! full, not twice: a map filled one node at a time, as the embedded store fills a job's, would
//! otherwise keep up to half of its room unused, and a job's cache made with room for its idle
//! nodes would double at its first fire.

use std::collections::BTreeMap;
use std::collections::btree_map;
use std::ops::Bound;

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

/// Nodes sorted by path, no path twice, their paths in one string.
#[derive(Debug)]
struct Packed<V> {
    /// The paths one after another, removed ones among them until the next [`Packed::make_room`].
    text: String,
    /// Sorted by path.
    slots: Vec<Slot<V>>,
    /// The bytes of `text` no slot uses.
    garbage: usize,
}

impl<V> Default for Packed<V> {
    fn default() -> Packed<V> {
        Packed { text: String::new(), slots: Vec::new(), garbage: 0 }
    }
}

/// A node and where its path is in [`Packed::text`]. Offsets of 32 bits: the text of at most
/// [`LARGE`] paths stays far below 4 GB, and a path that would not fit turns the nodes into a
/// B-tree instead.
#[derive(Debug)]
struct Slot<V> {
    at: u32,
    len: u32,
    node: V,
}

impl<V> Packed<V> {
    fn path<'a>(text: &'a str, slot: &Slot<V>) -> &'a str {
        let at = slot.at as usize;
        text.get(at..at + slot.len as usize).unwrap_or_default()
    }

    fn find(&self, path: &str) -> Result<usize, usize> {
        self.slots.binary_search_by(|s| Packed::path(&self.text, s).cmp(path))
    }

    /// Inserts a path not there at slot `i`; gives the node back (nothing changed) when the
    /// text would pass the offsets' range.
    fn insert(&mut self, i: usize, path: &str, node: V) -> Result<(), V> {
        if !self.make_room(path.len()) {
            return Err(node);
        }
        let (Ok(at), Ok(len)) = (u32::try_from(self.text.len()), u32::try_from(path.len())) else {
            return Err(node);
        };
        self.text.push_str(path);
        if self.slots.len() == self.slots.capacity() {
            self.slots.reserve_exact((self.slots.len() / 4).max(4));
        }
        self.slots.insert(i, Slot { at, len, node });
        Ok(())
    }

    fn remove(&mut self, i: usize) -> V {
        let slot = self.slots.remove(i);
        self.garbage += slot.len as usize;
        slot.node
    }

    /// Makes room in the text for `extra` more bytes: when they do not fit, moves the live paths
    /// together in place when that is enough room, else copies them into a new text a quarter
    /// larger (or what they need). False when the text would pass the offsets' range.
    fn make_room(&mut self, extra: usize) -> bool {
        let room = self.text.capacity();
        if self.text.len() + extra <= room {
            return true;
        }
        let needed = self.text.len() - self.garbage + extra;
        if u32::try_from(needed).is_err() {
            return false;
        }
        if needed <= room {
            self.compact();
            return true;
        }
        let old = std::mem::replace(&mut self.text, String::with_capacity(needed.max(room + room / 4)));
        for slot in &mut self.slots {
            let path = Packed::path(&old, slot);
            // Within the range: the live paths take at most `needed` bytes.
            slot.at = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
            self.text.push_str(path);
        }
        self.garbage = 0;
        true
    }

    /// Drops the removed paths' bytes from the text, in place: a new block for every compaction
    /// would leave the old one as a hole, at every fire whose `running` nodes come and go.
    fn compact(&mut self) {
        // The slots in the order of their paths in the text; at most LARGE of them in a vector.
        let mut order = [0u16; LARGE];
        let n = self.slots.len().min(LARGE);
        for (i, o) in order[..n].iter_mut().enumerate() {
            *o = u16::try_from(i).unwrap_or(u16::MAX);
        }
        let order = &mut order[..n];
        let slots = &mut self.slots;
        order.sort_unstable_by_key(|&i| slots[usize::from(i)].at);
        let range = |i: u16| {
            let s = &slots[usize::from(i)];
            (s.at as usize, s.at as usize + s.len as usize)
        };
        let (mut byte, mut next) = (0usize, 0usize);
        self.text.retain(|c| {
            let at = byte;
            byte += c.len_utf8();
            while next < order.len() && range(order[next]).1 <= at {
                next += 1;
            }
            next < order.len() && range(order[next]).0 <= at
        });
        let mut at = 0u32;
        for &i in order.iter() {
            let slot = &mut slots[usize::from(i)];
            slot.at = at;
            at += slot.len;
        }
        self.garbage = 0;
    }

    /// Into a B-tree.
    fn into_map(self) -> BTreeMap<Box<str>, V> {
        let text = self.text;
        self.slots.into_iter().map(|s| (Box::from(Packed::path(&text, &s)), s.node)).collect()
    }
}

/// The nodes in byte order of the path, or those of a range of paths.
pub struct Iter<'a, V>(IterRepr<'a, V>);

enum IterRepr<'a, V> {
    /// Of the vector: its paths and slots.
    Small(&'a str, std::slice::Iter<'a, Slot<V>>),
    /// Of the B-tree.
    Large(btree_map::Range<'a, Box<str>, V>),
}

impl<'a, V> Iterator for Iter<'a, V> {
    type Item = (&'a str, &'a V);

    fn next(&mut self) -> Option<(&'a str, &'a V)> {
        match &mut self.0 {
            IterRepr::Small(text, i) => i.next().map(|s| (Packed::path(text, s), &s.node)),
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
        let node = match v.find(path) {
            Ok(i) => return known(&mut v.slots[i].node, node),
            Err(i) if v.slots.len() < LARGE => match v.insert(i, path, node) {
                Ok(()) => return new,
                Err(node) => node,
            },
            Err(_) => node,
        };
        // Into a B-tree: past LARGE nodes, or past the offsets' range (paths of hundreds of MB).
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
                    *self = PathMap::with_room(std::mem::take(m).into_iter().collect(), 0, 0);
                }
                removed
            }
        }
    }

    /// How many nodes, and how many bytes of their paths, the vector has room for without
    /// growing (none in a B-tree).
    pub fn room(&self) -> (usize, usize) {
        match &self.0 {
            Repr::Small(v) => (v.slots.capacity(), v.text.capacity()),
            Repr::Large(_) => (0, 0),
        }
    }

    /// Every node, in byte order of the path.
    pub fn iter(&self) -> Iter<'_, V> {
        match &self.0 {
            Repr::Small(v) => Iter(IterRepr::Small(&v.text, v.slots.iter())),
            Repr::Large(m) => Iter(IterRepr::Large(m.range::<str, _>(..))),
        }
    }

    /// Every node whose path starts with `prefix` (a directory's path with its trailing `/`),
    /// in byte order of the path.
    pub fn under<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = (&'a str, &'a V)> + 'a {
        let from = match &self.0 {
            Repr::Small(v) => {
                let first = v.slots.partition_point(|s| Packed::path(&v.text, s) < prefix);
                IterRepr::Small(&v.text, v.slots[first..].iter())
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
    /// nodes and `text_room` bytes of their paths: a cache makes room when it starts for the
    /// nodes it will hold, since a vector grown later leaves its old block as a hole among the
    /// other jobs' memory. The paths are taken as read (a `String` each): the vector copies them
    /// into its text, and only a B-tree keeps them as keys.
    pub fn with_room<K: AsRef<str> + Into<Box<str>>>(mut v: Vec<(K, V)>, room: usize, text_room: usize) -> PathMap<V> {
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
        let bytes: usize = v.iter().map(|(p, _)| p.as_ref().len()).sum();
        let mut packed = Packed {
            text: String::with_capacity(bytes.max(text_room)),
            slots: Vec::with_capacity(v.len().max(room)),
            garbage: 0,
        };
        let mut given = v.into_iter();
        while let Some((p, node)) = given.next() {
            let i = packed.slots.len();
            if let Err(node) = packed.insert(i, p.as_ref(), node) {
                // Paths of hundreds of MB: the B-tree takes them all.
                let mut map = packed.into_map();
                map.insert(p.into(), node);
                map.extend(given.map(|(p, node)| (p.into(), node)));
                return PathMap(Repr::Large(map));
            }
        }
        PathMap(Repr::Small(packed))
    }
}

impl<V> FromIterator<(Box<str>, V)> for PathMap<V> {
    /// As [`PathMap::with_room`], without room to spare.
    fn from_iter<I: IntoIterator<Item = (Box<str>, V)>>(iter: I) -> PathMap<V> {
        PathMap::with_room(iter.into_iter().collect(), 0, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::cache::{Cached, Nodes};

    fn node(byte: u8) -> Cached {
        Cached { data: Some(crate::registry::bytes::share(&[byte])), stat: None }
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

    #[test]
    fn an_entry_stays_small() {
        // An idle job's cache is a vector of these.
        assert_eq!(size_of::<Slot<Cached>>(), 32);
    }

    /// A fire's `running` nodes come and go: their paths' bytes are reused, not added to.
    #[test]
    fn paths_coming_and_going_do_not_grow_the_text() {
        let dirs: Vec<String> = (0..8).map(|i| format!("/job/sharding/{i}")).collect();
        let mut nodes = Nodes::with_room(dirs.iter().map(|p| (Box::from(p.as_str()), node(0))).collect(), 16, 16 * 24);
        let room = nodes.room();
        for fire in 0..100u8 {
            for d in &dirs {
                assert_eq!(nodes.insert(&format!("{d}/running"), node(fire)), None);
            }
            for d in &dirs {
                assert_eq!(nodes.remove(&format!("{d}/running")), Some(node(fire)));
            }
        }
        assert_eq!(nodes.room(), room);
        assert_eq!(nodes.iter().map(|(p, _)| p.to_string()).collect::<Vec<_>>(), dirs);
    }

    /// Removed paths' bytes are dropped in place, multi-byte characters among them.
    #[test]
    fn compaction_keeps_every_live_path() {
        let mut nodes = Nodes::with_room(Vec::<(&str, Cached)>::new(), 8, 64);
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
