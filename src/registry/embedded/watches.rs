//! The subtree watches of the embedded registry, indexed by their root: an event looks up its
//! path and its ancestors only, so a write costs the same whether one job watches the tree or
//! ten thousand do (a worker has one watch per job when its jobs are a small part of the
//! namespace; see `runtime::shared_caches`).

use std::collections::HashMap;

use tokio::time::Instant;

use super::path;
use crate::registry::WatchEvent;

/// Where a watch's events go, each with when it happened (a lagging link delivers it later).
pub(super) type EventSender = crate::queue::Sender<(Instant, WatchEvent)>;

/// One handle's watch.
struct EWatch {
    client: u64,
    tx: EventSender,
}

/// The watches of a store, by root.
#[derive(Default)]
pub(super) struct Watches {
    by_root: HashMap<String, Vec<EWatch>>,
}

impl Watches {
    /// Adds `client`'s watch on `root`.
    pub(super) fn add(&mut self, root: &str, client: u64, tx: EventSender) {
        // Room for one: a root has one watch as a rule (its job's), and a first push would
        // make room for four.
        self.by_root.entry(root.to_string()).or_insert_with(|| Vec::with_capacity(1)).push(EWatch { client, tx });
    }

    /// Keeps the watches for which `keep` holds (it may send them an event); drops the rest.
    fn retain(&mut self, mut keep: impl FnMut(u64, &EventSender) -> bool) {
        for list in self.by_root.values_mut() {
            list.retain(|w| keep(w.client, &w.tx));
        }
        self.by_root.retain(|_, list| !list.is_empty());
    }

    /// Drops `client`'s watches.
    pub(super) fn remove_client(&mut self, client: u64) {
        self.retain(|c, _| c != client);
    }

    /// Tells `client`'s watches that events may have been lost.
    pub(super) fn resync_client(&mut self, client: u64) {
        let now = Instant::now();
        self.retain(|c, tx| c != client || tx.send((now, WatchEvent::Resync)).is_ok());
    }

    /// Sends `event` about `p` to the watches rooted at `p` or an ancestor, except those of
    /// clients that are `deaf`; drops the watches whose receiver is gone.
    pub(super) fn deliver(&mut self, p: &str, event: &WatchEvent, deaf: impl Fn(u64) -> bool) {
        let now = Instant::now();
        let mut root = p;
        loop {
            if let Some(list) = self.by_root.get_mut(root) {
                list.retain(|w| deaf(w.client) || w.tx.send((now, event.clone())).is_ok());
                if list.is_empty() {
                    self.by_root.remove(root);
                }
            }
            if root == "/" {
                break;
            }
            root = path::parent(root);
        }
    }
}
