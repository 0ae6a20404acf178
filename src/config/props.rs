//! A job's `props` (ElasticJob's `java.util.Properties`): string pairs in key order.
//!
//! Held as a sorted vector rather than a `BTreeMap`: a job has a few properties (a script job
//! one), and a B-tree leaf holds 11 entries whether or not they are used, 540 bytes for one
//! property in the configuration of every running job.

use std::collections::BTreeMap;

/// Property names and values, in byte order of the name, each name once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Props(Vec<(String, String)>);

impl Props {
    /// No properties.
    pub fn new() -> Props {
        Props(Vec::new())
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&String> {
        self.find(key).ok().map(|i| &self.0[i].1)
    }

    /// True when `key` is set.
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// Sets `key`; returns the value it replaced.
    pub fn insert(&mut self, key: String, value: String) -> Option<String> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    /// Unsets `key`; returns its value.
    pub fn remove(&mut self, key: &str) -> Option<String> {
        self.find(key).ok().map(|i| self.0.remove(i).1)
    }

    /// The properties in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &String)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// The number of properties.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when none is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The properties as a map (for the schema's field values).
    pub fn to_map(&self) -> BTreeMap<String, String> {
        self.0.iter().cloned().collect()
    }
}

/// The last value of a name given twice wins, as with a map.
impl FromIterator<(String, String)> for Props {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(pairs: I) -> Props {
        let mut v: Vec<(String, String)> = pairs.into_iter().collect();
        // Stable: among equal names, the order given is kept, and the last one stays.
        v.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(String, String)> = Vec::with_capacity(v.len());
        for pair in v {
            match out.last_mut() {
                Some(last) if last.0 == pair.0 => *last = pair,
                _ => out.push(pair),
            }
        }
        out.shrink_to_fit();
        Props(out)
    }
}

impl From<BTreeMap<String, String>> for Props {
    fn from(map: BTreeMap<String, String>) -> Props {
        map.into_iter().collect()
    }
}

impl<const N: usize> From<[(String, String); N]> for Props {
    fn from(pairs: [(String, String); N]) -> Props {
        pairs.into_iter().collect()
    }
}

impl std::ops::Index<&str> for Props {
    type Output = String;

    /// # Panics
    /// When `key` is not set, as a map's index does.
    fn index(&self, key: &str) -> &String {
        match self.get(key) {
            Some(v) => v,
            None => panic!("no property {key:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Props;

    fn pair(k: &str, v: &str) -> (String, String) {
        (k.to_string(), v.to_string())
    }

    #[test]
    fn behaves_as_a_sorted_map() {
        let mut p: Props = [pair("b", "1"), pair("a", "2"), pair("b", "3")].into_iter().collect();
        assert_eq!(p.iter().collect::<Vec<_>>(), [(&"a".to_string(), &"2".to_string()), (&"b".into(), &"3".into())]);
        assert_eq!(p.insert("c".into(), "4".into()), None);
        assert_eq!(p.insert("a".into(), "5".into()), Some("2".into()));
        assert_eq!(p.remove("b"), Some("3".into()));
        assert_eq!(p.remove("b"), None);
        assert_eq!(p.to_map().into_iter().collect::<Vec<_>>(), [pair("a", "5"), pair("c", "4")]);
        assert!(p.contains_key("c") && !p.contains_key("b"));
        assert_eq!(p["a"], "5");
        assert_eq!(p.len(), 2);
    }
}
