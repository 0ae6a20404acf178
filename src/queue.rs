//! An unbounded multi-producer, single-consumer queue that holds no buffer while it is empty.
//!
//! Every job keeps two event streams open for its whole life (its registry watch and its cache's
//! changes) and both are idle nearly all the time. Tokio's unbounded channel allocates its first
//! block of 32 slots when it is created (about 1.5 KB for a watch event), which made the two
//! streams a tenth of an idle job's memory; this queue costs one small allocation until events
//! flow, and gives its buffer back each time it has been emptied. The one receiver waits by
//! leaving its waker in the queue ([`Receiver::poll_recv`]), so a wait takes a few bytes of the
//! waiting future instead of the 80 of a `Notified`.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

struct Inner<T> {
    state: Mutex<State<T>>,
}

struct State<T> {
    items: VecDeque<T>,
    senders: usize,
    receiver: bool,
    /// The waiting receiver's waker: woken by the next push, or when the last sender goes.
    waker: Option<Waker>,
}

impl<T> Inner<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        // Nothing panics while holding the lock; a poisoned queue's state is still consistent.
        crate::sync::lock(&self.state)
    }
}

/// The sending half; cloned for more producers.
pub(crate) struct Sender<T> {
    inner: Arc<Inner<T>>,
}

/// The receiving half.
pub(crate) struct Receiver<T> {
    inner: Arc<Inner<T>>,
}

/// A new empty queue.
pub(crate) fn unbounded<T>() -> (Sender<T>, Receiver<T>) {
    let inner = Arc::new(Inner {
        state: Mutex::new(State { items: VecDeque::new(), senders: 1, receiver: true, waker: None }),
    });
    (Sender { inner: Arc::clone(&inner) }, Receiver { inner })
}

impl<T> Sender<T> {
    /// Queues `item`; gives it back when the receiver is gone.
    pub(crate) fn send(&self, item: T) -> Result<(), T> {
        let waker = {
            let mut state = self.inner.lock();
            if !state.receiver {
                return Err(item);
            }
            state.items.push_back(item);
            state.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
        Ok(())
    }

    /// True once the receiver is gone.
    pub(crate) fn is_closed(&self) -> bool {
        !self.inner.lock().receiver
    }
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Sender<T> {
        self.inner.lock().senders += 1;
        Sender { inner: Arc::clone(&self.inner) }
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        let waker = {
            let mut state = self.inner.lock();
            state.senders -= 1;
            if state.senders == 0 { state.waker.take() } else { None }
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

impl<T> Receiver<T> {
    /// The next item; `None` once every sender is gone and the queue is empty. Cancel-safe: an
    /// item is taken only by the call that returns it.
    pub(crate) async fn recv(&mut self) -> Option<T> {
        std::future::poll_fn(|cx| self.poll_recv(cx)).await
    }

    /// The next item if there is one (`None` once every sender is gone and the queue is
    /// empty); otherwise leaves `cx`'s waker for the next push. The waker is left under the same
    /// lock a push takes, so no push falls between the look and the wait.
    pub(crate) fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Option<T>> {
        let mut state = self.inner.lock();
        if let Some(item) = take(&mut state) {
            return Poll::Ready(Some(item));
        }
        if state.senders == 0 {
            return Poll::Ready(None);
        }
        match &mut state.waker {
            Some(waker) if waker.will_wake(cx.waker()) => {}
            slot => *slot = Some(cx.waker().clone()),
        }
        Poll::Pending
    }

    /// An item already queued, without waiting.
    pub(crate) fn try_recv(&mut self) -> Option<T> {
        take(&mut self.inner.lock())
    }
}

fn take<T>(state: &mut State<T>) -> Option<T> {
    let item = state.items.pop_front();
    if state.items.is_empty() {
        // Freed, not kept: a burst of events (a reshard's) must not stay allocated for the rest
        // of an idle job's life, and an empty deque allocates nothing.
        state.items = VecDeque::new();
    }
    item
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        let mut state = self.inner.lock();
        state.receiver = false;
        state.items = VecDeque::new();
        state.waker = None;
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn delivers_in_order_and_ends_when_the_senders_are_gone() {
        let (tx, mut rx) = unbounded();
        let tx2 = tx.clone();
        tx.send(1).unwrap();
        tx2.send(2).unwrap();
        assert_eq!(rx.try_recv(), Some(1));
        assert_eq!(rx.recv().await, Some(2));
        assert_eq!(rx.try_recv(), None);
        drop(tx);
        tx2.send(3).unwrap();
        drop(tx2);
        assert_eq!(rx.recv().await, Some(3));
        assert_eq!(rx.recv().await, None);
    }

    #[tokio::test(start_paused = true)]
    async fn a_waiting_receiver_wakes_on_a_send_and_on_the_last_sender_leaving() {
        let (tx, mut rx) = unbounded::<u32>();
        let waiter = tokio::spawn(async move {
            let first = rx.recv().await;
            let second = rx.recv().await;
            (first, second)
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        tx.send(7).unwrap();
        tokio::time::sleep(Duration::from_millis(10)).await;
        drop(tx);
        assert_eq!(waiter.await.unwrap(), (Some(7), None));
    }

    #[tokio::test]
    async fn a_receive_call_dropped_after_its_wake_up_loses_nothing() {
        let (tx, mut rx) = unbounded();
        {
            let mut waiting = std::pin::pin!(rx.recv());
            assert!(futures::poll!(waiting.as_mut()).is_pending());
            // Wakes the waiting call, which is then dropped without being polled again.
            tx.send("a").unwrap();
        }
        assert_eq!(rx.try_recv(), Some("a"));
        tx.send("b").unwrap();
        assert_eq!(rx.recv().await, Some("b"));
    }

    #[test]
    fn sending_fails_once_the_receiver_is_gone_and_a_burst_gives_its_buffer_back() {
        let (tx, mut rx) = unbounded();
        for i in 0..1000 {
            tx.send(i).unwrap();
        }
        while rx.try_recv().is_some() {}
        assert_eq!(rx.inner.lock().items.capacity(), 0);
        assert!(!tx.is_closed());
        drop(rx);
        assert!(tx.is_closed());
        assert_eq!(tx.send(1), Err(1));
    }
}
