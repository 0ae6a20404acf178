//! The embedded registry's nodes, kept small: a store holds every node of every job.

use std::sync::Arc;

use crate::registry::{NodeData, Stat};

/// A node: its path is its map's key ([`super::map::NodeMap`]). Its data, short data shared with
/// every holder of the same bytes ([`crate::registry::bytes`]: the caches of the jobs, and the
/// other jobs' nodes), and a stat without what can be derived: a store holds every node of every
/// job, and a node takes 64 bytes beside its path instead of the 104 of a `Vec` and a whole
/// [`Stat`].
#[derive(Clone, Debug)]
pub(super) struct ENode {
    pub(super) data: Arc<[u8]>,
    pub(super) stat: EStat,
}

/// What a node keeps of its [`Stat`]: the data length comes from the data, and the owner is the
/// session id in 32 bits (this store's ids are small: [`super::State::open_session`]).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct EStat {
    pub(super) czxid: i64,
    pub(super) mzxid: i64,
    pub(super) ctime: i64,
    pub(super) mtime: i64,
    pub(super) version: i32,
    pub(super) cversion: i32,
    pub(super) num_children: i32,
    /// The owning session's id; 0: the node is persistent.
    pub(super) owner: u32,
}

impl ENode {
    /// The node's stat as a read returns it.
    pub(super) fn stat(&self) -> Stat {
        let s = &self.stat;
        Stat {
            czxid: s.czxid,
            mzxid: s.mzxid,
            ctime: s.ctime,
            mtime: s.mtime,
            version: s.version,
            cversion: s.cversion,
            ephemeral_owner: self.ephemeral_owner(),
            num_children: s.num_children,
            data_length: i32::try_from(self.data.len()).unwrap_or(i32::MAX),
        }
    }

    /// The owning session's id; 0 for a persistent node.
    pub(super) fn ephemeral_owner(&self) -> i64 {
        i64::from(self.stat.owner)
    }

    /// The node as a read returns it.
    pub(super) fn read(&self) -> NodeData {
        NodeData { data: self.data.to_vec(), stat: self.stat() }
    }
}
