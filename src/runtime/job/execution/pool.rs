//! The job's executor pool on this instance: at most [`crate::coord::pool::limit`] of its items
//! run at once, as ElasticJob's per-job thread pool bounds them.
//!
//! Items over the bound wait in the order their runs were started (item order within a fire),
//! first in first out. A waiting item already counts as started, as a task queued in
//! ElasticJob's pool does: its `running` node is written, its misfire settled by the run, and a
//! failover claims it if this instance dies. A kill (fencing, a forced stop) ends a waiting run
//! without running it.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

use crate::sync::lock;

#[derive(Default)]
struct Slots {
    busy: usize,
    waiting: VecDeque<oneshot::Sender<()>>,
}

impl Slots {
    /// A slot is free: hand it to the first waiter still waiting.
    fn release(&mut self) {
        self.busy = self.busy.saturating_sub(1);
        while let Some(next) = self.waiting.pop_front() {
            if next.send(()).is_ok() {
                self.busy += 1;
                return;
            }
        }
    }
}

/// The pool's slots, shared with the tickets (made with the first run: see `Execution::busy`).
#[derive(Default)]
pub(crate) struct Pool {
    slots: Arc<Mutex<Slots>>,
}

/// A run's place in the pool: held, or waiting for a slot. Dropping it frees the slot (or the
/// place in line).
pub(crate) struct Ticket {
    slots: Arc<Mutex<Slots>>,
    waiting: Option<oneshot::Receiver<()>>,
    held: bool,
}

impl Pool {
    /// A place for one run under `limit` runs at once (`None`: no bound).
    pub(crate) fn ticket(&self, limit: Option<u32>) -> Ticket {
        let shared = &self.slots;
        let mut slots = lock(shared);
        if limit.is_none_or(|l| slots.busy < usize::try_from(l.max(1)).unwrap_or(usize::MAX)) {
            slots.busy += 1;
            return Ticket { slots: shared.clone(), waiting: None, held: true };
        }
        let (tx, rx) = oneshot::channel();
        slots.waiting.push_back(tx);
        Ticket { slots: shared.clone(), waiting: Some(rx), held: false }
    }
}

impl Ticket {
    /// True when the run had to wait for a slot.
    pub(crate) fn queued(&self) -> bool {
        !self.held
    }

    /// Waits for the slot.
    pub(crate) async fn acquire(&mut self) {
        if let Some(rx) = &mut self.waiting {
            // The sender is only dropped after a successful send or with the pool itself.
            let _ = rx.await;
            self.waiting = None;
            self.held = true;
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut slots = lock(&self.slots);
        if let Some(mut rx) = self.waiting.take() {
            // Given up while waiting; a slot handed over meanwhile is passed on.
            rx.close();
            if rx.try_recv().is_ok() {
                slots.release();
            }
        } else if self.held {
            slots.release();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn waiters_get_slots_in_order_and_dropped_ones_pass_them_on() {
        let pool = Pool::default();
        let first = pool.ticket(Some(1));
        assert!(!first.queued());
        let mut second = pool.ticket(Some(1));
        let third = pool.ticket(Some(1));
        let mut fourth = pool.ticket(Some(1));
        assert!(second.queued() && third.queued() && fourth.queued());
        drop(first);
        second.acquire().await;
        // The third gives up before its turn: the fourth gets the slot after the second.
        drop(third);
        drop(second);
        fourth.acquire().await;
        let busy = || pool.slots.lock().unwrap().busy;
        assert_eq!(busy(), 1);
        drop(fourth);
        assert_eq!(busy(), 0);
        // A slot handed to a ticket dropped before it looked is not lost.
        let held = pool.ticket(Some(1));
        let waiting = pool.ticket(Some(1));
        drop(held);
        drop(waiting);
        assert_eq!(busy(), 0);
    }
}
