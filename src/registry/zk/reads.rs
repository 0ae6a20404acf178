//! The pipelined reads of the ZooKeeper backend: many nodes, their children, or both, a
//! multi-read request per batch of paths, every batch in flight at once.

use zookeeper_client as zkc;

use super::ZkBackend;
use crate::registry::{NodeData, READ_BATCH, RegistryError, Result, Stat, join_batches};

impl ZkBackend {
    pub(crate) async fn get_many(&self, paths: &[String]) -> Result<Vec<Option<NodeData>>> {
        let client = self.client();
        self.call(join_batches(paths.chunks(READ_BATCH).map(|chunk| {
            let mut reader = client.new_multi_reader();
            let added = chunk.iter().try_for_each(|p| reader.add_get_data(p));
            let commit = reader.commit();
            async move {
                added.map_err(|e| RegistryError::from_zk(e, &chunk[0]))?;
                let results = commit.await.map_err(|e| RegistryError::from_zk(e, &chunk[0]))?;
                chunk
                    .iter()
                    .zip(results)
                    .map(|(p, r)| match r {
                        zkc::MultiReadResult::Data { data, stat } => {
                            Ok(Some(NodeData { data, stat: Stat::from(&stat) }))
                        }
                        zkc::MultiReadResult::Error { err: zkc::Error::NoNode } => Ok(None),
                        zkc::MultiReadResult::Error { err } => Err(RegistryError::from_zk(err, p)),
                        _ => Err(RegistryError::Corrupt(format!("unexpected reply reading {p}"))),
                    })
                    .collect()
            }
        })))
        .await
    }

    pub(crate) async fn get_many_with_children(
        &self,
        paths: &[String],
    ) -> Result<Vec<Option<(NodeData, Vec<String>)>>> {
        let client = self.client();
        // Two reads a node: as many nodes a request as `get_many` has reads.
        self.call(join_batches(paths.chunks(READ_BATCH / 2).map(|chunk| {
            let mut reader = client.new_multi_reader();
            let added = chunk.iter().try_for_each(|p| {
                reader.add_get_data(p)?;
                reader.add_get_children(p)
            });
            let commit = reader.commit();
            async move {
                added.map_err(|e| RegistryError::from_zk(e, &chunk[0]))?;
                let results = commit.await.map_err(|e| RegistryError::from_zk(e, &chunk[0]))?;
                let mut results = results.into_iter();
                chunk
                    .iter()
                    .map(|p| match (results.next(), results.next()) {
                        (
                            Some(zkc::MultiReadResult::Data { data, stat }),
                            Some(zkc::MultiReadResult::Children { children }),
                        ) => Ok(Some((NodeData { data, stat: Stat::from(&stat) }, children))),
                        // Gone (or going: deleted between the two reads).
                        (Some(zkc::MultiReadResult::Error { err: zkc::Error::NoNode }), _)
                        | (_, Some(zkc::MultiReadResult::Error { err: zkc::Error::NoNode })) => Ok(None),
                        (Some(zkc::MultiReadResult::Error { err }), _)
                        | (_, Some(zkc::MultiReadResult::Error { err })) => Err(RegistryError::from_zk(err, p)),
                        _ => Err(RegistryError::Corrupt(format!("unexpected reply reading {p}"))),
                    })
                    .collect()
            }
        })))
        .await
    }

    pub(crate) async fn children_many(&self, paths: &[String]) -> Result<Vec<Option<Vec<String>>>> {
        let client = self.client();
        self.call(join_batches(paths.chunks(READ_BATCH).map(|chunk| {
            let mut reader = client.new_multi_reader();
            let added = chunk.iter().try_for_each(|p| reader.add_get_children(p));
            let commit = reader.commit();
            async move {
                added.map_err(|e| RegistryError::from_zk(e, &chunk[0]))?;
                let results = commit.await.map_err(|e| RegistryError::from_zk(e, &chunk[0]))?;
                chunk
                    .iter()
                    .zip(results)
                    .map(|(p, r)| match r {
                        zkc::MultiReadResult::Children { children } => Ok(Some(children)),
                        zkc::MultiReadResult::Error { err: zkc::Error::NoNode } => Ok(None),
                        zkc::MultiReadResult::Error { err } => Err(RegistryError::from_zk(err, p)),
                        _ => Err(RegistryError::Corrupt(format!("unexpected reply listing {p}"))),
                    })
                    .collect()
            }
        })))
        .await
    }
}
