use std::time::Duration;

use super::*;

const WORK: ClaimEvent = ClaimEvent::Look { work: true };
/// Random bits in the middle of the range: the pause is midway between the policy's floor and its
/// widest.
const MID: u64 = u64::MAX / 2;

fn actions(c: &mut Claimer) -> Vec<ClaimAction> {
    std::iter::from_fn(|| c.poll_action()).collect()
}

fn failed(now: Instant) -> ClaimEvent {
    ClaimEvent::Ended(RoundEnd::Failed { now, random: MID })
}

#[test]
fn one_round_at_a_time_and_only_with_work() {
    let mut c = Claimer::new();
    c.handle(ClaimEvent::Look { work: false });
    assert_eq!(actions(&mut c), []);
    c.handle(WORK);
    assert_eq!(actions(&mut c), [ClaimAction::Round]);
    assert!(c.in_flight());
    // The round's own nodes change the cache: no second round meanwhile.
    c.handle(ClaimEvent::Wake);
    c.handle(WORK);
    assert_eq!(actions(&mut c), []);
}

#[test]
fn a_claimed_item_runs_and_the_next_round_follows_at_once() {
    let mut c = Claimer::new();
    c.handle(WORK);
    assert_eq!(actions(&mut c), [ClaimAction::Round]);
    c.handle(ClaimEvent::Ended(RoundEnd::Claimed(3)));
    assert_eq!(actions(&mut c), [ClaimAction::Run(3)]);
    assert!(!c.in_flight());
    // More may be queued: every live instance claims until none is left.
    c.handle(WORK);
    assert_eq!(actions(&mut c), [ClaimAction::Round]);
}

#[test]
fn a_claimed_item_that_cannot_start_goes_back_to_the_queue() {
    let mut c = Claimer::new();
    c.handle(WORK);
    assert_eq!(actions(&mut c), [ClaimAction::Round]);
    c.handle(ClaimEvent::Ended(RoundEnd::Claimed(5)));
    assert_eq!(actions(&mut c), [ClaimAction::Run(5)]);
    c.handle(ClaimEvent::Refused(5));
    assert_eq!(actions(&mut c), [ClaimAction::Return(5)]);
}

#[test]
fn a_round_that_found_nothing_waits_for_a_change_that_can_matter() {
    let mut c = Claimer::new();
    c.handle(WORK);
    c.handle(ClaimEvent::Ended(RoundEnd::Nothing));
    assert_eq!(actions(&mut c), [ClaimAction::Round]);
    // A suspect that a round confirmed alive stays a suspect: looks alone start nothing.
    for _ in 0..3 {
        c.handle(WORK);
        assert_eq!(actions(&mut c), []);
    }
    assert_eq!(c.poll_timeout(), None, "no pause: nothing failed");
    c.handle(ClaimEvent::Wake);
    c.handle(WORK);
    assert_eq!(actions(&mut c), [ClaimAction::Round]);
}

#[test]
fn failed_rounds_pause_backing_off_until_one_ends() {
    let t0 = Instant::now();
    let mut c = Claimer::new();
    let mut pauses = Vec::new();
    for _ in 0..3 {
        c.handle(WORK);
        assert_eq!(actions(&mut c), [ClaimAction::Round]);
        c.handle(failed(t0));
        let at = c.poll_timeout().expect("a pause");
        assert_eq!(actions(&mut c), [ClaimAction::RetryIn(at - t0)]);
        pauses.push(at - t0);
        c.handle(WORK);
        c.handle_timeout(at - Duration::from_millis(1));
        c.handle(WORK);
        assert_eq!(actions(&mut c), [], "no round before the pause ends");
        c.handle_timeout(at);
        assert_eq!(c.poll_timeout(), None);
        assert_eq!(actions(&mut c), [], "the timeout asks for nothing: the next look does");
    }
    assert_eq!(pauses, [750, 1250, 2250].map(Duration::from_millis));
    c.handle(WORK);
    c.handle(ClaimEvent::Ended(RoundEnd::Nothing));
    c.handle(ClaimEvent::Wake);
    c.handle(WORK);
    c.handle(failed(t0));
    assert_eq!(c.poll_timeout(), Some(t0 + Duration::from_millis(750)), "back to the first pause");
}

#[test]
fn a_change_that_can_matter_ends_a_pause() {
    let t0 = Instant::now();
    let mut c = Claimer::new();
    for _ in 0..4 {
        c.handle(WORK);
        c.handle(failed(t0));
    }
    assert!(c.poll_timeout().is_some_and(|at| at - t0 > Duration::from_secs(3)));
    actions(&mut c);
    // An instance left (its items are orphans now): the round does not wait out the backoff.
    c.handle(ClaimEvent::Wake);
    assert_eq!(c.poll_timeout(), None);
    c.handle(WORK);
    assert_eq!(actions(&mut c), [ClaimAction::Round]);
}

#[test]
fn stopping_returns_what_the_round_in_flight_claims_and_starts_no_round() {
    let mut c = Claimer::new();
    c.handle(WORK);
    assert_eq!(actions(&mut c), [ClaimAction::Round]);
    c.handle(ClaimEvent::Stop);
    assert!(c.in_flight(), "the round in flight is waited for");
    c.handle(ClaimEvent::Ended(RoundEnd::Claimed(2)));
    assert_eq!(actions(&mut c), [ClaimAction::Return(2)], "the instance is leaving: the item goes back");
    c.handle(ClaimEvent::Wake);
    c.handle(WORK);
    assert_eq!(actions(&mut c), []);
}

#[test]
fn a_round_asked_for_and_not_polled_is_dropped_by_a_stop() {
    let mut c = Claimer::new();
    c.handle(WORK);
    c.handle(ClaimEvent::Stop);
    assert_eq!(actions(&mut c), []);
    assert!(!c.in_flight(), "nothing to wait for");
}

#[test]
fn a_round_crossing_a_reconnect_fails_and_the_resync_starts_the_next() {
    let t0 = Instant::now();
    let mut c = Claimer::new();
    c.handle(WORK);
    assert_eq!(actions(&mut c), [ClaimAction::Round]);
    // The link drops mid-round: the job stops looking (no look while the link is down), and the
    // round's requests fail.
    c.handle(failed(t0));
    assert!(matches!(actions(&mut c)[..], [ClaimAction::RetryIn(_)]));
    // Back in a new session before the pause ends: the cache's resync is a change that can
    // matter (the lost instance's items may be orphans now), and the next look claims at once.
    assert!(crate::coord::failover::wakes(&crate::registry::cache::CacheEvent::Resynced));
    c.handle(ClaimEvent::Wake);
    c.handle(WORK);
    assert_eq!(actions(&mut c), [ClaimAction::Round]);
    c.handle(ClaimEvent::Ended(RoundEnd::Claimed(1)));
    assert_eq!(actions(&mut c), [ClaimAction::Run(1)]);
}
