//! The persistent recursive watch on ZooKeeper, re-added after every reconnect (the client does
//! not re-add it: ZOOKEEPER-4698) and after a new session, each time followed by a resync (see the
//! [module docs](super)).

use std::sync::{Arc, Weak};

use zookeeper_client as zkc;

use super::ZkBackend;
use crate::registry::{LinkState, RegistryError, Result, WatchEvent};
use crate::retry::{self, Attempts, Jitter};

/// A persistent recursive watch that re-registers itself (see the module docs).
pub(crate) struct ZkWatch {
    backend: Weak<ZkBackend>,
    path: String,
    watcher: Option<zkc::PersistentWatcher>,
    epoch: u64,
    disconnected: bool,
}

impl ZkWatch {
    pub(crate) async fn start(backend: &Arc<ZkBackend>, p: &str) -> Result<ZkWatch> {
        let epoch = backend.status.borrow().epoch;
        let client = backend.client();
        let watcher = backend
            .call(async {
                client.watch(p, zkc::AddWatchMode::PersistentRecursive).await.map_err(|e| RegistryError::from_zk(e, p))
            })
            .await?;
        Ok(ZkWatch {
            backend: Arc::downgrade(backend),
            path: p.to_string(),
            watcher: Some(watcher),
            epoch,
            disconnected: false,
        })
    }

    /// The next event. The re-registrations are boxed: they are rare, and every job's cache task
    /// holds this future while it waits (with them inline it was 472 bytes).
    pub(crate) async fn next(&mut self) -> Option<WatchEvent> {
        loop {
            let Some(watcher) = self.watcher.as_mut() else {
                Box::pin(self.rewatch_new_session()).await?;
                return Some(WatchEvent::Resync);
            };
            let event = watcher.changed().await;
            match event.event_type {
                zkc::EventType::NodeCreated => return Some(WatchEvent::Created(event.path.into())),
                zkc::EventType::NodeDataChanged => return Some(WatchEvent::Changed(event.path.into())),
                zkc::EventType::NodeDeleted => return Some(WatchEvent::Deleted(event.path.into())),
                zkc::EventType::NodeChildrenChanged => {}
                zkc::EventType::Session => match event.session_state {
                    zkc::SessionState::Disconnected => self.disconnected = true,
                    zkc::SessionState::SyncConnected | zkc::SessionState::ConnectedReadOnly if self.disconnected => {
                        self.disconnected = false;
                        if Box::pin(self.rewatch_same_session()).await {
                            return Some(WatchEvent::Resync);
                        }
                    }
                    zkc::SessionState::Expired | zkc::SessionState::Closed | zkc::SessionState::AuthFailed => {
                        // The watcher must not be polled after a terminal state.
                        self.watcher = None;
                    }
                    _ => {}
                },
            }
        }
    }

    /// Re-adds the watch on the same session after a reconnect. Returns false when the session
    /// turned out to be gone (the next loop round handles that).
    async fn rewatch_same_session(&mut self) -> bool {
        let Some(backend) = self.backend.upgrade() else {
            self.watcher = None;
            return false;
        };
        let client = backend.client();
        match client.watch(&self.path, zkc::AddWatchMode::PersistentRecursive).await {
            Ok(new) => {
                // Swap first, then drop the old watcher: the path keeps a watcher throughout.
                let _old = self.watcher.replace(new);
                true
            }
            Err(e) => {
                tracing::debug!(path = %self.path, error = %e, "re-adding watch after reconnect failed");
                if e == zkc::Error::SessionExpired || e == zkc::Error::ClientClosed {
                    self.watcher = None;
                }
                false
            }
        }
    }

    /// Waits for the supervisor's new session and registers the watch on it.
    async fn rewatch_new_session(&mut self) -> Option<()> {
        let (mut failures, jitter) = (Attempts::default(), Jitter::from_os());
        loop {
            let backend = self.backend.upgrade()?;
            let mut status = backend.session();
            drop(backend);
            let epoch = self.epoch;
            let ready = status.wait_for(|s| s.epoch > epoch && s.state == LinkState::Connected).await.ok()?.epoch;
            let backend = self.backend.upgrade()?;
            let client = backend.client();
            match client.watch(&self.path, zkc::AddWatchMode::PersistentRecursive).await {
                Ok(w) => {
                    self.watcher = Some(w);
                    self.epoch = ready;
                    self.disconnected = false;
                    return Some(());
                }
                Err(e) => {
                    tracing::debug!(path = %self.path, error = %e, "registering watch on the new session failed");
                    drop(backend);
                    tokio::time::sleep(failures.fail(&retry::ZK_REWATCH, jitter.draw())).await;
                }
            }
        }
    }
}
