//! Event sequences of one fire's once-per-fire phase on this instance: a claim and its callbacks,
//! a claim whose reply was lost, claims and reports that fail, the timeout, fencing while the
//! callbacks run, `done` that fails, a stop.

use super::*;

const ME: &str = "10.0.0.1@-@1";
const FIRE: FireId = FireId { at_ms: 100_000, trigger: None };
const LATER: FireId = FireId { at_ms: 110_000, trigger: None };
/// Random bits in the middle of the range: a pause midway between its floor and its widest.
const MID: u64 = u64::MAX / 2;

fn claim() -> Guard {
    Guard::Claimed { fire: FIRE, instance: ME.to_string() }
}

fn actions(w: &mut OnceWaiter) -> Vec<WaitAction> {
    std::iter::from_fn(|| w.poll_action()).collect()
}

fn failure(error: WriteError, now: Instant) -> Failure {
    Failure { error, now, random: MID }
}

/// A waiter started at `t0` with a timeout of a minute, that claimed the phase at version 4 and
/// runs the callbacks.
fn running(t0: Instant) -> OnceWaiter {
    let mut w = OnceWaiter::new(FIRE, ME, Some(Duration::from_secs(60)), t0);
    w.handle(WaitEvent::Look(Step::Claim { version: Some(3) }));
    w.handle(WaitEvent::Written(Ok(4)));
    assert_eq!(
        actions(&mut w),
        [WaitAction::Write { guard: claim(), version: Some(3) }, WaitAction::Run { version: 4 }]
    );
    w
}

#[test]
fn a_complete_fire_is_claimed_its_callbacks_run_and_done_is_recorded() {
    let t0 = Instant::now();
    let mut w = OnceWaiter::new(FIRE, ME, Some(Duration::from_secs(60)), t0);
    assert_eq!(w.poll_timeout(), Some(t0 + Duration::from_secs(60)));
    w.handle(WaitEvent::Look(Step::Wait));
    assert_eq!(actions(&mut w), []);
    w.handle(WaitEvent::Look(Step::Claim { version: None }));
    assert_eq!(actions(&mut w), [WaitAction::Write { guard: claim(), version: None }]);
    w.handle(WaitEvent::Written(Ok(0)));
    assert_eq!(actions(&mut w), [WaitAction::Run { version: 0 }]);
    // The deadline passes while the callbacks run: they are not cut short by it.
    assert_eq!(w.poll_timeout(), None);
    w.handle_timeout(t0 + Duration::from_secs(61));
    w.handle(WaitEvent::Look(Step::Wait));
    assert_eq!(actions(&mut w), []);
    w.handle(WaitEvent::Ran { fenced: false });
    assert_eq!(actions(&mut w), [WaitAction::WriteDone { version: 0 }]);
    w.handle(WaitEvent::Written(Ok(1)));
    assert_eq!(actions(&mut w), [WaitAction::End]);
}

#[test]
fn a_phase_done_or_over_elsewhere_ends_the_wait() {
    for step in [Step::Done, Step::Over] {
        let mut w = OnceWaiter::new(FIRE, ME, None, Instant::now());
        assert_eq!(w.poll_timeout(), None, "no timeout: waits until the phase is over");
        w.handle(WaitEvent::Look(step));
        assert_eq!(actions(&mut w), [WaitAction::End]);
        w.handle(WaitEvent::Look(Step::Claim { version: None }));
        assert_eq!(actions(&mut w), [], "nothing after the end");
    }
}

#[test]
fn a_claim_whose_reply_was_lost_is_settled_by_reading_the_root() {
    let t0 = Instant::now();
    let lost = |w: &mut OnceWaiter| {
        w.handle(WaitEvent::Look(Step::Claim { version: Some(2) }));
        w.handle(WaitEvent::Written(Err(failure(WriteError::Unknown, t0))));
        assert_eq!(actions(w), [WaitAction::Write { guard: claim(), version: Some(2) }, WaitAction::ReadRoot]);
    };
    // Written after all: ours at version 3.
    let mut w = OnceWaiter::new(FIRE, ME, None, t0);
    lost(&mut w);
    w.handle(WaitEvent::RootRead { root: Ok(Some((claim(), 3))), now: t0, random: MID });
    assert_eq!(actions(&mut w), [WaitAction::Run { version: 3 }]);
    // Not written: someone else's claim, no root, or the read failed too — a failed claim.
    let other = Guard::Claimed { fire: FIRE, instance: "10.0.0.2@-@2".into() };
    for root in [Ok(Some((other, 3))), Ok(None), Err(WriteError::Failed)] {
        let mut w = OnceWaiter::new(FIRE, ME, None, t0);
        lost(&mut w);
        w.handle(WaitEvent::RootRead { root, now: t0, random: MID });
        let delay = Duration::from_millis(750);
        assert_eq!(actions(&mut w), [WaitAction::Note(Note::Retrying { claim: true, delay })]);
        assert_eq!(w.poll_timeout(), Some(t0 + delay));
    }
}

#[test]
fn a_failed_claim_is_decided_again_on_a_change_or_after_a_pause() {
    let t0 = Instant::now();
    let mut w = OnceWaiter::new(FIRE, ME, Some(Duration::from_secs(60)), t0);
    let mut pauses = Vec::new();
    for _ in 0..3 {
        w.handle(WaitEvent::Look(Step::Claim { version: Some(1) }));
        w.handle(WaitEvent::Written(Err(failure(WriteError::Failed, t0))));
        let [WaitAction::Write { .. }, WaitAction::Note(Note::Retrying { claim: true, delay })] = actions(&mut w)[..]
        else {
            panic!("a claim, then a retry");
        };
        pauses.push(delay);
        assert_eq!(w.poll_timeout(), Some(t0 + delay), "the pause comes before the deadline");
        // Nothing changed until the pause's end: the driver looks again then.
        w.handle_timeout(t0 + delay);
        assert_eq!(w.poll_timeout(), Some(t0 + Duration::from_secs(60)));
    }
    assert_eq!(pauses, [750, 1250, 2250].map(Duration::from_millis));
    // A write that lost to another instance's is no failure to log; a change decides again.
    w.handle(WaitEvent::Look(Step::Claim { version: Some(1) }));
    w.handle(WaitEvent::Written(Err(failure(WriteError::Conflict, t0))));
    assert_eq!(actions(&mut w), [WaitAction::Write { guard: claim(), version: Some(1) }]);
    w.handle(WaitEvent::Look(Step::Claim { version: Some(2) }));
    w.handle(WaitEvent::Written(Ok(3)));
    assert_eq!(
        actions(&mut w),
        [WaitAction::Write { guard: claim(), version: Some(2) }, WaitAction::Run { version: 3 }]
    );
}

#[test]
fn a_fire_that_can_no_longer_complete_is_reported_by_the_instance_that_records_it() {
    let t0 = Instant::now();
    let mut w = OnceWaiter::new(FIRE, ME, None, t0);
    let hopeless = Step::Hopeless { item: 2, later: LATER, version: Some(5) };
    let record = WaitAction::Write { guard: Guard::TimedOut(FIRE), version: Some(5) };
    w.handle(WaitEvent::Look(hopeless.clone()));
    w.handle(WaitEvent::Written(Err(failure(WriteError::Failed, t0))));
    let delay = Duration::from_millis(750);
    assert_eq!(actions(&mut w), [record.clone(), WaitAction::Note(Note::Retrying { claim: false, delay })]);
    w.handle(WaitEvent::Look(hopeless));
    w.handle(WaitEvent::Written(Ok(6)));
    let report = WaitAction::Report(PhaseReport::Hopeless { item: 2, later: LATER });
    assert_eq!(actions(&mut w), [record, report, WaitAction::End]);
}

#[test]
fn the_timeout_is_recorded_once_and_reported_by_the_instance_whose_write_won() {
    let t0 = Instant::now();
    let deadline = t0 + Duration::from_secs(60);
    let expired = |w: &mut OnceWaiter| {
        w.handle_timeout(deadline - Duration::from_millis(1));
        assert_eq!(actions(w), [], "not before the deadline");
        w.handle_timeout(deadline);
        assert_eq!(actions(w), [WaitAction::ReadExpiry]);
        assert_eq!(w.poll_timeout(), None);
    };
    let record = |version| WaitAction::Write { guard: Guard::TimedOut(FIRE), version };
    // Recorded and reported.
    let mut w = OnceWaiter::new(FIRE, ME, Some(Duration::from_secs(60)), t0);
    expired(&mut w);
    w.handle(WaitEvent::Look(Step::Claim { version: None }));
    assert_eq!(actions(&mut w), [], "the wait is over: no claim after the timeout");
    w.handle(WaitEvent::ExpiryRead(Ok((Expiry::Report { version: Some(4) }, 2))));
    w.handle(WaitEvent::Written(Ok(5)));
    let report = WaitAction::Report(PhaseReport::TimedOut { reached: 2 });
    assert_eq!(actions(&mut w), [record(Some(4)), report, WaitAction::End]);
    // The phase ended meanwhile (done, reported, a later fire's): quiet.
    let mut w = OnceWaiter::new(FIRE, ME, Some(Duration::from_secs(60)), t0);
    expired(&mut w);
    w.handle(WaitEvent::ExpiryRead(Ok((Expiry::Quiet, 3))));
    assert_eq!(actions(&mut w), [WaitAction::End]);
    // Other writes keep winning: read and tried again, then reported from here.
    let mut w = OnceWaiter::new(FIRE, ME, Some(Duration::from_secs(60)), t0);
    expired(&mut w);
    for version in 0..EXPIRY_TRIES as i32 {
        w.handle(WaitEvent::ExpiryRead(Ok((Expiry::Report { version: Some(version) }, 1))));
        w.handle(WaitEvent::Written(Err(failure(WriteError::Conflict, t0))));
    }
    let all = actions(&mut w);
    assert_eq!(all[all.len() - 2..], [WaitAction::Report(PhaseReport::Unrecorded), WaitAction::End]);
    assert_eq!(all.iter().filter(|a| matches!(a, WaitAction::Write { .. })).count(), EXPIRY_TRIES as usize);
    // The registry fails the read: reported from here, at least once.
    let mut w = OnceWaiter::new(FIRE, ME, Some(Duration::from_secs(60)), t0);
    expired(&mut w);
    w.handle(WaitEvent::ExpiryRead(Err(failure(WriteError::Failed, t0))));
    assert_eq!(actions(&mut w), [WaitAction::Report(PhaseReport::Unrecorded), WaitAction::End]);
}

#[test]
fn fencing_while_the_callbacks_run_records_nothing() {
    let mut w = running(Instant::now());
    w.handle(WaitEvent::Ran { fenced: true });
    // No `done`: once this session ends, another instance claims the phase again.
    assert_eq!(actions(&mut w), [WaitAction::Note(Note::Fenced), WaitAction::End]);
}

#[test]
fn done_that_fails_is_written_again_then_given_up_with_a_word() {
    let t0 = Instant::now();
    let mut w = running(t0);
    w.handle(WaitEvent::Ran { fenced: false });
    assert_eq!(actions(&mut w), [WaitAction::WriteDone { version: 4 }]);
    for _ in 1..DONE_TRIES {
        w.handle(WaitEvent::Written(Err(failure(WriteError::Failed, t0))));
        let [WaitAction::Note(Note::DoneRetrying { delay })] = actions(&mut w)[..] else { panic!("a retry") };
        assert_eq!(w.poll_timeout(), Some(t0 + delay));
        w.handle(WaitEvent::Look(Step::Claim { version: None }));
        assert_eq!(actions(&mut w), [], "looks do not matter any more");
        w.handle_timeout(t0 + delay);
        assert_eq!(actions(&mut w), [WaitAction::WriteDone { version: 4 }]);
    }
    w.handle(WaitEvent::Written(Err(failure(WriteError::Unknown, t0))));
    assert_eq!(actions(&mut w), [WaitAction::Note(Note::DoneGivenUp), WaitAction::End]);
}

#[test]
fn done_after_the_root_changed_says_the_phase_ended_without_the_callbacks() {
    for error in [WriteError::Conflict, WriteError::Gone] {
        let mut w = running(Instant::now());
        w.handle(WaitEvent::Ran { fenced: false });
        w.handle(WaitEvent::Written(Err(failure(error, Instant::now()))));
        let expected = [WaitAction::WriteDone { version: 4 }, WaitAction::Note(Note::DoneLate), WaitAction::End];
        assert_eq!(actions(&mut w), expected);
    }
}

#[test]
fn a_stop_ends_the_wait_but_not_the_recording_of_done() {
    let t0 = Instant::now();
    let mut w = OnceWaiter::new(FIRE, ME, Some(Duration::from_secs(60)), t0);
    w.handle(WaitEvent::Stop);
    assert_eq!(actions(&mut w), [WaitAction::End]);
    assert_eq!(w.poll_timeout(), None);
    // The callbacks ran: `done` is still written, retried after its pause.
    let mut w = running(t0);
    w.handle(WaitEvent::Ran { fenced: false });
    w.handle(WaitEvent::Written(Err(failure(WriteError::Failed, t0))));
    let [_, WaitAction::Note(Note::DoneRetrying { delay })] = actions(&mut w)[..] else { panic!("a retry") };
    w.handle(WaitEvent::Stop);
    assert_eq!(actions(&mut w), []);
    w.handle_timeout(t0 + delay);
    w.handle(WaitEvent::Written(Ok(5)));
    assert_eq!(actions(&mut w), [WaitAction::WriteDone { version: 4 }, WaitAction::End]);
}
