//! The embedded registry's nodes, kept small: a store holds every node of every job.

use crate::registry::bytes::Data;
use crate::registry::{NodeData, Stat};

/// A node: its path is its map's key ([`super::map::NodeMap`]). Its data, short data shared with
/// every holder of the same bytes ([`crate::registry::bytes`]: the caches of the jobs, and the
/// other jobs' nodes), and a stat without what can be derived: a store holds every node of every
/// job, and a node takes 48 bytes beside its path instead of the 104 of a `Vec` and a whole
/// [`Stat`].
#[derive(Clone, Debug)]
pub(super) struct ENode {
    pub(super) data: Data,
    pub(super) stat: EStat,
}

/// What a node keeps of its [`Stat`]: the data length comes from the data, and the owner is the
/// session id in 32 bits (this store's ids are small: [`super::State::open_session`]). Its zxids
/// and times take 48 bits each ([`U48`]): 8 bytes less of every node (10,000 idle jobs:
/// 76.4–76.5 → 74.4 MB of anonymous memory).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct EStat {
    pub(super) czxid: U48,
    pub(super) mzxid: U48,
    pub(super) ctime: U48,
    pub(super) mtime: U48,
    pub(super) version: i32,
    pub(super) cversion: i32,
    pub(super) num_children: i32,
    /// The owning session's id; 0: the node is persistent.
    pub(super) owner: u32,
}

/// A zxid or a time in milliseconds since 1970, in 48 bits: 2^48 zxids are 89 years of 100,000
/// transactions a second, and 2^48 milliseconds end in the year 10,889. A value outside the range
/// (a time before 1970 from a simulation's clock) is held as the nearest one within it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct U48([u16; 3]);

impl U48 {
    const MAX: i64 = (1 << 48) - 1;

    pub(super) fn get(self) -> i64 {
        let [a, b, c] = self.0;
        i64::from(a) | i64::from(b) << 16 | i64::from(c) << 32
    }
}

impl From<i64> for U48 {
    fn from(v: i64) -> U48 {
        let v = v.clamp(0, U48::MAX);
        // Each part is 16 bits of a value within 48: the casts keep them whole.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        U48([v as u16, (v >> 16) as u16, (v >> 32) as u16])
    }
}

impl ENode {
    /// The node's stat as a read returns it.
    pub(super) fn stat(&self) -> Stat {
        let s = &self.stat;
        Stat {
            czxid: s.czxid.get(),
            mzxid: s.mzxid.get(),
            ctime: s.ctime.get(),
            mtime: s.mtime.get(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zxids_and_times_keep_48_bits_and_clamp_the_rest() {
        for v in [0, 1, 0xffff, 0x1_0000, 1_764_000_000_000, U48::MAX] {
            assert_eq!(U48::from(v).get(), v);
        }
        assert_eq!(U48::from(-5).get(), 0);
        assert_eq!(U48::from(i64::MAX).get(), U48::MAX);
    }
}
