use std::time::{Duration, Instant};

use super::*;
use crate::registry::LinkState;

/// Random bits in the middle of the range: the pause is midway between the policy's floor and
/// its widest.
const MID: u64 = u64::MAX / 2;

fn status(state: LinkState, session_id: i64) -> RegEvent {
    RegEvent::Session(SessionStatus { epoch: 1, session_id, state })
}

fn actions(r: &mut Registrar) -> Vec<RegAction> {
    std::iter::from_fn(|| r.poll_action()).collect()
}

/// A registrar registered in session 1.
fn registered() -> Registrar {
    let mut r = Registrar::new();
    r.register();
    assert_eq!(actions(&mut r), [RegAction::Register]);
    r.handle(RegEvent::Registered { session: 1 });
    assert_eq!(actions(&mut r), [], "the first registration is not a re-registration");
    r
}

#[test]
fn a_link_lost_and_back_in_the_same_session_resumes_without_registering() {
    let mut r = registered();
    r.handle(status(LinkState::Connected, 1));
    assert_eq!(actions(&mut r), [RegAction::Resume { back_in_session: false }]);
    r.handle(status(LinkState::Disconnected, 1));
    assert_eq!(actions(&mut r), [RegAction::LinkLost(LinkState::Disconnected)]);
    assert!(!r.connected());
    assert_eq!(r.leaving(), Leaving::Nothing);
    r.handle(status(LinkState::Disconnected, 1));
    assert_eq!(actions(&mut r), [], "said once");
    r.handle(status(LinkState::Connected, 1));
    assert_eq!(actions(&mut r), [RegAction::Resume { back_in_session: true }]);
    assert!(r.connected());
}

#[test]
fn a_new_session_registers_again_then_resumes() {
    let mut r = registered();
    r.handle(status(LinkState::Expired, 1));
    assert_eq!(actions(&mut r), [RegAction::LinkLost(LinkState::Expired)]);
    r.handle(status(LinkState::Connected, 2));
    assert_eq!(actions(&mut r), [RegAction::Register, RegAction::Resume { back_in_session: false }]);
    r.handle(RegEvent::Registered { session: 2 });
    assert_eq!(actions(&mut r), [RegAction::Reregistered]);
    r.handle(RegEvent::Registered { session: 2 });
    assert_eq!(actions(&mut r), [], "the same session again is not news");
}

#[test]
fn failed_registrations_are_retried_backing_off_until_one_succeeds() {
    let t0 = Instant::now();
    let mut r = Registrar::new();
    r.register();
    let mut delays = Vec::new();
    for _ in 0..3 {
        assert_eq!(actions(&mut r), [RegAction::Register]);
        r.handle(RegEvent::RegisterFailed { now: t0, random: MID });
        let at = r.poll_timeout().expect("a retry");
        assert_eq!(actions(&mut r), [RegAction::RetryIn(at - t0)]);
        delays.push(at - t0);
        r.handle_timeout(at - Duration::from_millis(1));
        assert_eq!(actions(&mut r), [], "not before the pause ends");
        r.handle_timeout(at);
        assert_eq!(r.poll_timeout(), None);
    }
    assert_eq!(delays, [750, 1250, 2250].map(Duration::from_millis));
    assert_eq!(actions(&mut r), [RegAction::Register]);
    r.handle(RegEvent::Registered { session: 1 });
    r.register();
    assert_eq!(actions(&mut r), [RegAction::Register]);
    r.handle(RegEvent::RegisterFailed { now: t0, random: MID });
    assert_eq!(r.poll_timeout(), Some(t0 + Duration::from_millis(750)), "back to the first pause");
}

#[test]
fn an_instance_node_deleted_within_our_session_by_an_operator_stops_the_job_here() {
    let mut r = registered();
    // Another session's view (a new one, before its registration): expected, no look.
    r.handle(RegEvent::InstanceGone { session: 2 });
    assert_eq!(actions(&mut r), []);
    r.handle(RegEvent::InstanceGone { session: 1 });
    assert_eq!(actions(&mut r), [RegAction::CheckInstance]);
    // The node is there after all, as this session's (the cache was behind).
    r.handle(RegEvent::InstanceChecked { ours: true });
    assert_eq!(actions(&mut r), []);
    assert!(!r.stopped_by_admin());
    r.handle(RegEvent::InstanceGone { session: 1 });
    assert_eq!(actions(&mut r), [RegAction::CheckInstance]);
    r.handle(RegEvent::InstanceChecked { ours: false });
    assert_eq!(actions(&mut r), [RegAction::StoppedByAdmin]);
    assert!(r.stopped_by_admin());
    assert_eq!(r.leaving(), Leaving::Runner, "the operator removed the instance node");
    // Disconnected, nothing is looked at.
    let mut r = registered();
    r.handle(status(LinkState::Disconnected, 1));
    actions(&mut r);
    r.handle(RegEvent::InstanceGone { session: 1 });
    assert_eq!(actions(&mut r), []);
}

#[test]
fn a_missing_server_node_is_written_again_only_for_a_registered_running_job() {
    let mut r = Registrar::new();
    r.handle(RegEvent::ServerGone { session: 1 });
    assert_eq!(actions(&mut r), [], "not registered yet: the registration writes it");
    let mut r = registered();
    assert_eq!(r.leaving(), Leaving::InstanceAndRunner);
    r.handle(RegEvent::ServerGone { session: 1 });
    assert_eq!(actions(&mut r), [RegAction::RestoreServer]);
    r.handle(RegEvent::ServerGone { session: 2 });
    assert_eq!(actions(&mut r), [], "a new session registers again instead");
    r.handle(RegEvent::InstanceGone { session: 1 });
    r.handle(RegEvent::InstanceChecked { ours: false });
    actions(&mut r);
    r.handle(RegEvent::ServerGone { session: 1 });
    assert_eq!(actions(&mut r), [], "stopped by an operator");
}
