//! ElasticJob's storage verbs on top of the primitive operations (`JobNodeStorage`'s
//! `createJobNodeIfNeeded`, `replaceJobNode`, `fillEphemeralJobNode`, `removeJobNodeIfExisted`),
//! and the pipelined subtree reader.

use super::{Mode, Registry, RegistryError, Result, TreeNode, path};

impl Registry {
    /// Creates a persistent node with `data` unless it exists (ElasticJob's `createJobNodeIfNeeded`
    /// without the job-root check). Returns whether it was created.
    ///
    /// # Errors
    /// Registry errors other than "already exists".
    pub async fn create_if_absent(&self, path: &str, data: &[u8]) -> Result<bool> {
        match self.create(path, data, Mode::Persistent).await {
            Ok(_) => Ok(true),
            Err(RegistryError::NodeExists(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Creates a persistent node or replaces its data (ElasticJob's `persist`).
    ///
    /// # Errors
    /// Registry errors.
    pub async fn put(&self, path: &str, data: &[u8]) -> Result<()> {
        for _ in 0..3 {
            match self.set(path, data, None).await {
                Ok(_) => return Ok(()),
                Err(RegistryError::NoNode(_)) => {}
                Err(e) => return Err(e),
            }
            match self.create(path, data, Mode::Persistent).await {
                Ok(_) => return Ok(()),
                Err(RegistryError::NodeExists(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Err(RegistryError::BadVersion(path.to_string()))
    }

    /// Makes sure an ephemeral node owned by this session exists with `data`: it is created when
    /// missing, its data replaced when it is ours, and replaced (delete, then create) when another
    /// session owns it. A node that is already ours is never deleted, so a reconnect within the
    /// session causes no churn for watchers.
    ///
    /// # Errors
    /// Registry errors.
    pub async fn put_ephemeral(&self, path: &str, data: &[u8]) -> Result<()> {
        for _ in 0..3 {
            match self.get(path).await? {
                Some(node) if node.stat.ephemeral_owner == self.session_id() => {
                    if node.data == data {
                        return Ok(());
                    }
                    match self.set(path, data, Some(node.stat.version)).await {
                        Ok(_) => return Ok(()),
                        Err(RegistryError::NoNode(_) | RegistryError::BadVersion(_)) => continue,
                        Err(e) => return Err(e),
                    }
                }
                Some(node) => match self.delete(path, Some(node.stat.version)).await {
                    Ok(()) | Err(RegistryError::NoNode(_)) => {}
                    Err(RegistryError::BadVersion(_)) => continue,
                    Err(e) => return Err(e),
                },
                None => {}
            }
            match self.create(path, data, Mode::Ephemeral).await {
                Ok(_) => return Ok(()),
                Err(RegistryError::NodeExists(_)) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(RegistryError::NodeExists(path.to_string()))
    }

    /// Deletes a node without children if it exists. Returns whether it existed.
    ///
    /// # Errors
    /// Registry errors other than "does not exist".
    pub async fn delete_if_exists(&self, path: &str) -> Result<bool> {
        match self.delete(path, None).await {
            Ok(()) => Ok(true),
            Err(RegistryError::NoNode(_)) => Ok(false),
            Err(RegistryError::NotEmpty(_)) => self.delete_recursive(path).await,
            Err(e) => Err(e),
        }
    }

    /// Deletes a node and everything below it. Returns whether it existed.
    ///
    /// # Errors
    /// Registry errors; [`RegistryError::NotEmpty`] if children keep appearing.
    pub async fn delete_recursive(&self, path: &str) -> Result<bool> {
        let mut existed = false;
        for _ in 0..5 {
            let Some(nodes) = self.read_subtree(path, &|_| {}).await? else {
                return Ok(existed);
            };
            existed = true;
            let mut by_depth: Vec<Vec<&str>> = Vec::new();
            for n in &nodes {
                let depth = n.path.matches('/').count();
                if by_depth.len() <= depth {
                    by_depth.resize(depth + 1, Vec::new());
                }
                by_depth[depth].push(&n.path);
            }
            let mut retry = false;
            for level in by_depth.iter().rev() {
                let results = futures::future::join_all(level.iter().map(|p| self.delete(p, None))).await;
                for r in results {
                    match r {
                        Ok(()) | Err(RegistryError::NoNode(_)) => {}
                        Err(RegistryError::NotEmpty(_)) => retry = true,
                        Err(e) => return Err(e),
                    }
                }
                if retry {
                    break;
                }
            }
            if !retry {
                return Ok(true);
            }
        }
        Err(RegistryError::NotEmpty(path.to_string()))
    }

    /// Reads `root` and every node below it, breadth first with pipelined multi-read requests
    /// (not one round trip per node): one request a level, reading each node's data and its
    /// children's names together. `progress` is called with the number of nodes read so far.
    /// Nodes come parents-first; `None` when `root` does not exist.
    ///
    /// # Errors
    /// Registry errors.
    pub async fn read_subtree(&self, root: &str, progress: &(dyn Fn(usize) + Sync)) -> Result<Option<Vec<TreeNode>>> {
        let mut out = Vec::new();
        let mut level = vec![root.to_string()];
        while !level.is_empty() {
            let read = self.get_many_with_children(&level).await?;
            let mut next = Vec::new();
            for (p, node) in level.into_iter().zip(read) {
                // A node deleted between two reads is simply not part of the snapshot.
                let Some((node, children)) = node else { continue };
                next.extend(children.iter().map(|name| path::child(&p, name)));
                out.push(TreeNode { path: p, node });
            }
            if out.is_empty() {
                return Ok(None);
            }
            progress(out.len());
            level = next;
        }
        Ok(Some(out))
    }
}
