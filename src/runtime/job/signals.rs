//! The worker's signals every job waits on: the stop, the fence and the session, and a beacon
//! that changes whenever any of them does.
//!
//! An idle job waits on the beacon alone, then looks at which changed. A wait on a tokio watch
//! channel is a future of 120 bytes (its place in the channel's list of waiters), held by every
//! idle job's loop. A job polls its [`Beacon`] instead: the beacon keeps the job's waker in a
//! slot of the shared [`Hub`] (16 bytes), and the wait needs no state of its own. The stop is
//! read through the hub too ([`Beacon::stop`]): a job only looks at what it is now, and a
//! receiver of its own was 16 bytes of every job's state.

use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::task::{Context, Poll, Waker};

use tokio::sync::watch;

use super::FenceState;
use crate::registry::SessionStatus;
use crate::runtime::StopMode;
use crate::sync::lock;

/// The worker's signals (see the module docs).
#[derive(Clone)]
pub(crate) struct Signals {
    pub(super) fence: watch::Receiver<FenceState>,
    pub(super) any: Beacon,
}

impl Signals {
    /// Signals every change of `stop`, `fence` and `session` on [`Signals::any`] until one of
    /// them closes (then the beacon closes too), or until the first change after no job or
    /// worker holds a beacon any more.
    pub(crate) fn start(
        stop: watch::Receiver<StopMode>,
        fence: watch::Receiver<FenceState>,
        session: watch::Receiver<SessionStatus>,
    ) -> Signals {
        let (mut s, mut f, mut z) = (stop.clone(), fence.clone(), session);
        let hub = Arc::new(Hub { state: Mutex::default(), stop });
        let any = Hub::beacon(&hub, 0);
        let hub = Arc::downgrade(&hub);
        tokio::spawn(async move {
            loop {
                let closed = tokio::select! {
                    r = s.changed() => r.is_err(),
                    r = f.changed() => r.is_err(),
                    r = z.changed() => r.is_err(),
                };
                let Some(hub) = Weak::upgrade(&hub) else { break };
                if closed {
                    hub.close();
                    break;
                }
                hub.signal();
            }
        });
        Signals { fence, any }
    }
}

/// A version many beacons wait on, the waker of each beacon's pending wait, and the stop.
struct Hub {
    state: Mutex<HubState>,
    stop: watch::Receiver<StopMode>,
}

#[derive(Default)]
struct HubState {
    version: u64,
    closed: bool,
    /// By beacon slot: the waker of its last poll that found nothing new.
    wakers: Vec<Option<Waker>>,
    /// Slots of dropped beacons, for the next.
    free: Vec<usize>,
}

impl Hub {
    fn lock(&self) -> MutexGuard<'_, HubState> {
        lock(&self.state)
    }

    /// A beacon that has seen `seen`.
    fn beacon(hub: &Arc<Hub>, seen: u64) -> Beacon {
        let mut state = hub.lock();
        let slot = match state.free.pop() {
            Some(slot) => slot,
            None => {
                state.wakers.push(None);
                state.wakers.len() - 1
            }
        };
        Beacon { hub: Arc::clone(hub), slot, seen }
    }

    /// A change: every beacon sees it at its next poll, and every pending one is woken.
    fn signal(&self) {
        self.wake_all(|state| state.version += 1);
    }

    /// The end: a beacon that has seen every change returns an error from now on.
    fn close(&self) {
        self.wake_all(|state| state.closed = true);
    }

    fn wake_all(&self, change: impl FnOnce(&mut HubState)) {
        let wakers: Vec<Waker> = {
            let mut state = self.lock();
            change(&mut state);
            state.wakers.iter_mut().filter_map(Option::take).collect()
        };
        for waker in wakers {
            waker.wake();
        }
    }
}

/// One waiter's view of the [`Hub`]: a clone is a new waiter that has seen what this one has.
pub(crate) struct Beacon {
    hub: Arc<Hub>,
    slot: usize,
    seen: u64,
}

/// The signals have closed: the worker is gone.
#[derive(Debug)]
pub(crate) struct Closed;

impl Beacon {
    /// What the worker asks of its jobs now.
    pub(crate) fn stop(&self) -> StopMode {
        *self.hub.stop.borrow()
    }

    /// A receiver of the stop, to wait for its next change.
    pub(crate) fn stop_receiver(&self) -> watch::Receiver<StopMode> {
        self.hub.stop.clone()
    }

    /// `Ok` once there is a change this beacon has not seen (it has then); `Err` once the hub
    /// has closed and every change is seen; otherwise leaves `cx`'s waker for the next change.
    /// The look and the waker are under the lock a change takes, so no change falls between.
    pub(crate) fn poll_changed(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Closed>> {
        let mut state = self.hub.lock();
        if state.version != self.seen {
            self.seen = state.version;
            return Poll::Ready(Ok(()));
        }
        if state.closed {
            return Poll::Ready(Err(Closed));
        }
        if let Some(slot) = state.wakers.get_mut(self.slot) {
            match slot {
                Some(waker) if waker.will_wake(cx.waker()) => {}
                slot => *slot = Some(cx.waker().clone()),
            }
        }
        Poll::Pending
    }
}

impl Clone for Beacon {
    fn clone(&self) -> Beacon {
        Hub::beacon(&self.hub, self.seen)
    }
}

impl Drop for Beacon {
    fn drop(&mut self) {
        let mut state = self.hub.lock();
        if let Some(slot) = state.wakers.get_mut(self.slot) {
            *slot = None;
            state.free.push(self.slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::pin::pin;
    use std::time::Duration;

    use futures::poll;

    use super::*;

    fn changed(beacon: &mut Beacon) -> impl Future<Output = Result<(), Closed>> + '_ {
        std::future::poll_fn(|cx| beacon.poll_changed(cx))
    }

    /// Waits for `beacon`'s next answer; the forwarding task runs meanwhile.
    async fn answer(beacon: &mut Beacon) -> Result<(), Closed> {
        tokio::time::timeout(Duration::from_secs(10), changed(beacon)).await.unwrap_or_else(|_| panic!("no answer"))
    }

    /// Every beacon, waiting or not, sees each change once; a clone has seen what its source
    /// had; a closed hub ends the waits after the last change.
    #[tokio::test]
    async fn every_beacon_sees_each_change_once_then_the_end() {
        let (stop_tx, stop) = watch::channel(StopMode::Run);
        let (_fence_tx, fence) = watch::channel(FenceState::HEALTHY);
        let status = SessionStatus { epoch: 0, session_id: 1, state: crate::registry::LinkState::Connected };
        let (_session_tx, session) = watch::channel(status);
        let signals = Signals::start(stop, fence, session);
        let (mut a, mut b) = (signals.any.clone(), signals.any.clone());
        {
            // Waiting: its waker is left with the hub before the change.
            let mut waiting = pin!(changed(&mut a));
            assert!(poll!(waiting.as_mut()).is_pending(), "nothing changed yet");
            stop_tx.send_replace(StopMode::Forced);
            let seen = tokio::time::timeout(Duration::from_secs(10), waiting).await;
            assert!(matches!(seen, Ok(Ok(()))), "the waiting beacon is woken");
        }
        assert!(matches!(answer(&mut b).await, Ok(())), "a beacon that was not waiting sees it too");
        assert!(poll!(pin!(changed(&mut a))).is_pending(), "once");
        let mut c = b.clone();
        assert!(poll!(pin!(changed(&mut c))).is_pending(), "a clone has seen what its source had");
        drop(b);
        let mut d = signals.any.clone();
        assert!(matches!(answer(&mut d).await, Ok(())), "a dropped beacon's slot serves the next");
        drop(stop_tx);
        assert!(matches!(answer(&mut a).await, Err(Closed)), "closed");
        assert!(matches!(answer(&mut d).await, Err(Closed)), "closed for every beacon");
    }
}
