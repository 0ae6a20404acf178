//! The pipelined reads of the ZooKeeper backend: many nodes, their children, or both, a
//! multi-read request per batch of paths, every batch in flight at once.

use zookeeper_client as zkc;

use super::ZkBackend;
use crate::registry::{NodeData, READ_BATCH, RegistryError, Result, Stat, join_batches};

impl ZkBackend {
    /// Reads `paths` in multi-read requests of `per_request` paths, every request in flight at
    /// once: `add` puts one path's reads into a request, `decode` takes that path's results from
    /// the reply, in the same order.
    async fn multi_read<T>(
        &self,
        paths: &[String],
        per_request: usize,
        add: impl Fn(&mut zkc::MultiReader<'_>, &str) -> std::result::Result<(), zkc::Error>,
        decode: impl Fn(&str, &mut std::vec::IntoIter<zkc::MultiReadResult>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let client = self.client();
        let decode = &decode;
        self.call(join_batches(paths.chunks(per_request).map(|chunk| {
            let mut reader = client.new_multi_reader();
            let added = chunk.iter().try_for_each(|p| add(&mut reader, p));
            let commit = reader.commit();
            async move {
                added.map_err(|e| RegistryError::from_zk(e, &chunk[0]))?;
                let mut results = commit.await.map_err(|e| RegistryError::from_zk(e, &chunk[0]))?.into_iter();
                chunk.iter().map(|p| decode(p, &mut results)).collect()
            }
        })))
        .await
    }

    pub(crate) async fn get_many(&self, paths: &[String]) -> Result<Vec<Option<NodeData>>> {
        self.multi_read(
            paths,
            READ_BATCH,
            |reader, p| reader.add_get_data(p),
            |p, results| match results.next() {
                Some(zkc::MultiReadResult::Data { data, stat }) => Ok(Some(NodeData { data, stat: Stat::from(&stat) })),
                Some(zkc::MultiReadResult::Error { err: zkc::Error::NoNode }) => Ok(None),
                Some(zkc::MultiReadResult::Error { err }) => Err(RegistryError::from_zk(err, p)),
                _ => Err(RegistryError::Corrupt(format!("unexpected reply reading {p}"))),
            },
        )
        .await
    }

    pub(crate) async fn get_many_with_children(
        &self,
        paths: &[String],
    ) -> Result<Vec<Option<(NodeData, Vec<String>)>>> {
        // Two reads a node: as many nodes a request as `get_many` has reads.
        let add = |reader: &mut zkc::MultiReader<'_>, p: &str| {
            reader.add_get_data(p)?;
            reader.add_get_children(p)
        };
        self.multi_read(paths, READ_BATCH / 2, add, |p, results| match (results.next(), results.next()) {
            (Some(zkc::MultiReadResult::Data { data, stat }), Some(zkc::MultiReadResult::Children { children })) => {
                Ok(Some((NodeData { data, stat: Stat::from(&stat) }, children)))
            }
            // Gone (or going: deleted between the two reads).
            (Some(zkc::MultiReadResult::Error { err: zkc::Error::NoNode }), _)
            | (_, Some(zkc::MultiReadResult::Error { err: zkc::Error::NoNode })) => Ok(None),
            (Some(zkc::MultiReadResult::Error { err }), _) | (_, Some(zkc::MultiReadResult::Error { err })) => {
                Err(RegistryError::from_zk(err, p))
            }
            _ => Err(RegistryError::Corrupt(format!("unexpected reply reading {p}"))),
        })
        .await
    }

    pub(crate) async fn children_many(&self, paths: &[String]) -> Result<Vec<Option<Vec<String>>>> {
        self.multi_read(
            paths,
            READ_BATCH,
            |reader, p| reader.add_get_children(p),
            |p, results| match results.next() {
                Some(zkc::MultiReadResult::Children { children }) => Ok(Some(children)),
                Some(zkc::MultiReadResult::Error { err: zkc::Error::NoNode }) => Ok(None),
                Some(zkc::MultiReadResult::Error { err }) => Err(RegistryError::from_zk(err, p)),
                _ => Err(RegistryError::Corrupt(format!("unexpected reply listing {p}"))),
            },
        )
        .await
    }
}
