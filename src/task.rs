//! Spawned tasks with an owner: aborted when the owner drops them, so no background work (an
//! election, a failover claim, a reader of a run's output) outlives what started it.

use std::future::Future;

use tokio::task::{JoinError, JoinHandle};

/// A tokio task owned by a value; dropping it aborts the task.
pub(crate) struct OwnedTask<T> {
    handle: JoinHandle<T>,
}

impl<T: Send + 'static> OwnedTask<T> {
    /// Spawns `future` on the current runtime.
    pub(crate) fn spawn(future: impl Future<Output = T> + Send + 'static) -> OwnedTask<T> {
        OwnedTask { handle: tokio::spawn(future) }
    }
}

impl<T> OwnedTask<T> {
    /// True once the task has ended.
    pub(crate) fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// The task's result if it has ended; otherwise leaves `cx`'s waker for its end.
    pub(crate) fn poll_join(&mut self, cx: &mut std::task::Context<'_>) -> std::task::Poll<Result<T, JoinError>> {
        std::pin::Pin::new(&mut self.handle).poll(cx)
    }

    /// Waits for the task's result. Cancel-safe: the task keeps running if this future is dropped.
    pub(crate) async fn join(&mut self) -> Result<T, JoinError> {
        (&mut self.handle).await
    }

    /// Waits for the task's result at most `limit`; `None` when it is not done by then (the task
    /// is aborted when this value is dropped).
    pub(crate) async fn join_within(&mut self, limit: std::time::Duration) -> Option<Result<T, JoinError>> {
        tokio::time::timeout(limit, &mut self.handle).await.ok()
    }
}

impl<T> Drop for OwnedTask<T> {
    fn drop(&mut self) {
        self.handle.abort();
    }
}
