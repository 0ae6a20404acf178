//! Wake-ups at an exact instant, for fires.
//!
//! tokio's timer counts whole milliseconds: it rounds a sleep's deadline up to the next
//! millisecond, and its driver parks with a timeout in milliseconds, so a sleep ends up to 2 ms
//! after its instant — 1 ms on average that a fire's first run waits for nothing. A job sleeps
//! with tokio until [`LEAD`] before its fire, then waits for an [`Alarm`]: one thread of the
//! process sleeps on a condition variable (a futex with a nanosecond timeout and 1 ns of timer
//! slack) until the earliest instant asked for, and wakes the tasks whose instants have come.
//! Without that thread (it could not start, or it died) an alarm ends at once, before its
//! instant, and the job sleeps on tokio's timer again ([`running`]): a wake-up before a fire is
//! due only goes round.
//! Only the last few milliseconds before a fire are waited for here, so the thread holds a few
//! entries at a time whatever the number of jobs, and an idle job holds none.
//!
//! The simulator does without it ([`super::WorkerConfig::exact_wakeups`]): its tokio clock is
//! paused and exact, and this thread sleeps in real time.

use std::collections::BTreeMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

/// How long before its instant a wake-up is left to the alarm thread: more than tokio's
/// rounding (up to 2 ms), so that tokio's sleep never ends after the instant.
pub(crate) const LEAD: Duration = Duration::from_millis(3);

/// The instants asked for, and the thread's bell.
struct Alarms {
    waiting: Mutex<Waiting>,
    bell: Condvar,
}

/// The tasks to wake, by instant (and a number that tells two of one instant apart).
#[derive(Default)]
struct Waiting {
    last_key: u64,
    wakers: BTreeMap<(Instant, u64), Waker>,
}

impl Alarms {
    fn lock(&self) -> MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// True while the alarm thread runs.
static RUNNING: AtomicBool = AtomicBool::new(false);

/// The process's alarms; the thread starts with the first.
fn alarms() -> &'static Alarms {
    static ALARMS: OnceLock<&'static Alarms> = OnceLock::new();
    ALARMS.get_or_init(|| {
        let alarms: &'static Alarms =
            Box::leak(Box::new(Alarms { waiting: Mutex::new(Waiting::default()), bell: Condvar::new() }));
        RUNNING.store(true, Ordering::SeqCst);
        if let Err(e) = std::thread::Builder::new().name("ejctl-alarm".into()).spawn(move || ring(alarms)) {
            RUNNING.store(false, Ordering::SeqCst);
            tracing::warn!(error = %e, "cannot start the alarm thread: fires wake on tokio's millisecond timer");
        }
        alarms
    })
}

/// True when alarms ring: the thread runs (started by this call if it was not yet).
pub(crate) fn running() -> bool {
    alarms();
    RUNNING.load(Ordering::SeqCst)
}

/// Marks the thread gone if it ever stops (a panic), and wakes every task that waits: their
/// alarms then end at once, and the jobs sleep on tokio's timer.
struct Stopped(&'static Alarms);

impl Drop for Stopped {
    fn drop(&mut self) {
        RUNNING.store(false, Ordering::SeqCst);
        let wakers = std::mem::take(&mut self.0.lock().wakers);
        wakers.into_values().for_each(Waker::wake);
    }
}

/// The alarm thread: wakes the tasks whose instants have come, then sleeps until the next one.
fn ring(alarms: &'static Alarms) {
    let _stopped = Stopped(alarms);
    // The kernel may end a timed wait up to the thread's timer slack late (50 µs by default).
    // SAFETY: `prctl(PR_SET_TIMERSLACK)` takes a number and changes only this thread's slack.
    #[allow(unsafe_code)]
    unsafe {
        libc::prctl(
            libc::PR_SET_TIMERSLACK,
            1 as libc::c_ulong,
            0 as libc::c_ulong,
            0 as libc::c_ulong,
            0 as libc::c_ulong,
        );
    }
    let mut waiting = alarms.lock();
    loop {
        let now = Instant::now();
        let mut due = Vec::new();
        while let Some(entry) = waiting.wakers.first_entry() {
            if entry.key().0 > now {
                break;
            }
            due.push(entry.remove());
        }
        if !due.is_empty() {
            // Woken without the lock: a task may be polled, or dropped, on this thread.
            drop(waiting);
            due.into_iter().for_each(Waker::wake);
            waiting = alarms.lock();
            continue;
        }
        waiting = match waiting.wakers.first_key_value().map(|(&(at, _), _)| at) {
            Some(at) => alarms.bell.wait_timeout(waiting, at - now).map_or_else(|e| e.into_inner().0, |(w, _)| w),
            None => alarms.bell.wait(waiting).unwrap_or_else(std::sync::PoisonError::into_inner),
        };
    }
}

/// A wake-up at `at`, from the alarm thread: ends at the first poll at or after it, or at once
/// when the thread does not run.
#[derive(Debug)]
pub(crate) struct Alarm {
    at: Instant,
    /// Its entry among the alarms, while it waits.
    key: Option<u64>,
}

impl Alarm {
    pub(crate) fn at(at: Instant) -> Alarm {
        Alarm { at, key: None }
    }
}

impl Future for Alarm {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = self.get_mut();
        let alarms = alarms();
        let mut waiting = alarms.lock();
        if Instant::now() >= this.at || !RUNNING.load(Ordering::SeqCst) {
            if let Some(key) = this.key.take() {
                waiting.wakers.remove(&(this.at, key));
            }
            return Poll::Ready(());
        }
        let key = match this.key {
            Some(key) => key,
            None => {
                waiting.last_key += 1;
                *this.key.insert(waiting.last_key)
            }
        };
        let earliest = waiting.wakers.first_key_value().map(|(&(at, _), _)| at);
        waiting.wakers.insert((this.at, key), cx.waker().clone());
        if earliest.is_none_or(|e| this.at < e) {
            alarms.bell.notify_one();
        }
        Poll::Pending
    }
}

impl Drop for Alarm {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            alarms().lock().wakers.remove(&(self.at, key));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_alarm_ends_at_its_instant_not_before() {
        for _ in 0..20 {
            let at = Instant::now() + Duration::from_micros(2_500);
            Alarm::at(at).await;
            let late = Instant::now().saturating_duration_since(at);
            assert!(Instant::now() >= at);
            // Generous: a loaded machine may run the task late; the point is that it ends.
            assert!(late < Duration::from_secs(1), "{late:?}");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn alarms_end_at_their_instants_and_a_dropped_one_leaves_nothing() {
        let now = Instant::now();
        let gone = now + Duration::from_secs(60);
        let mut dropped = Box::pin(Alarm::at(gone));
        assert!(futures::poll!(dropped.as_mut()).is_pending());
        assert!(alarms().lock().wakers.keys().any(|&(at, _)| at == gone));
        drop(dropped);
        assert!(!alarms().lock().wakers.keys().any(|&(at, _)| at == gone));
        let (a, b) = (now + Duration::from_millis(4), now + Duration::from_millis(2));
        let (end_a, end_b) = tokio::join!(
            async {
                Alarm::at(a).await;
                Instant::now()
            },
            async {
                Alarm::at(b).await;
                Instant::now()
            }
        );
        assert!(end_a >= a && end_b >= b);
    }
}
