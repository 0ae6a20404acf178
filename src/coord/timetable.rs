//! A job's cron fires on this instance, as a machine without I/O or clock: the instant of the
//! next fire ([`Timetable::poll_timeout`]), whether a timer that went off finds it due and which
//! fire it is ([`Timetable::handle_timeout`]), and the next fire after a change of the cron or its
//! time zone ([`Timetable::reschedule`]). The instant comes in with each call; the cron with the
//! calls that need it (a job keeps its checked configuration once, not a copy here).
//!
//! **Contract.** The driver arms one timer for [`Timetable::poll_timeout`] (a wall-clock instant:
//! fires are due on the worker's clock) and calls [`Timetable::handle_timeout`] when it goes off,
//! or whenever it wakes with a fire possibly due; a fire returned must be fired (or owed, when it
//! is late: that is the fire's rule, [`super::firing`]). A timeout that finds no fire due expects
//! nothing: the timer is armed again for the same instant.
//!
//! **Rules.** A fire is due once the worker's clock reaches its instant: a timer armed before the
//! clock was set back (NTP) goes off early, and a fire fired early would start runs "before" it
//! that do not cover it. After a fire, the next one is the cron's next instant after it, or —
//! when that has passed too (a stalled process, a clock set forward) — the next one after now:
//! the missed instants coalesce into the fire being handled.

use chrono::{DateTime, Utc};

use super::fire::due;
use super::validate::Checked;
use crate::schedule::cron::{CronExpr, JobTimeZone};

/// The next cron fire of one job on this instance (`None`: the job has no cron, or it never fires
/// again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timetable {
    next: Option<DateTime<Utc>>,
}

impl Timetable {
    /// The first fire after `now`.
    pub fn new(checked: &Checked, now: DateTime<Utc>) -> Timetable {
        Timetable { next: after(checked, now) }
    }

    /// The instant of the next fire, on the wall clock.
    pub fn poll_timeout(&self) -> Option<DateTime<Utc>> {
        self.next
    }

    /// A timer went off at `now`: the fire due (its scheduled instant), if the clock has reached
    /// it; the timetable moves on to the fire after it.
    pub fn handle_timeout(&mut self, checked: &Checked, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let scheduled = self.next.filter(|at| due(*at, now))?;
        self.next = next_fire(checked.cron.as_ref(), &checked.time_zone, scheduled, now);
        Some(scheduled)
    }

    /// The cron or its time zone changed at `now`: the next fire is the new cron's first after it.
    pub fn reschedule(&mut self, checked: &Checked, now: DateTime<Utc>) {
        self.next = after(checked, now);
    }
}

/// The cron's first instant after `now`.
fn after(checked: &Checked, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    checked.cron.as_ref().and_then(|cron| cron.next_after(now, &checked.time_zone))
}

/// The instant after a fire scheduled at `scheduled`, handled at `now` (see the module's rules).
fn next_fire(
    cron: Option<&CronExpr>,
    tz: &JobTimeZone,
    scheduled: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    let cron = cron?;
    match cron.next_after(scheduled, tz) {
        Some(next) if next <= now => cron.next_after(now, tz),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;
    use crate::config::JobConfig;
    use crate::coord::validate;

    fn checked(cron: &str) -> Checked {
        let mut config = JobConfig::new("job", 1);
        config.cron = Some(cron.to_string()).filter(|c| !c.is_empty());
        config.time_zone = Some("GMT".into());
        validate::check(&config).unwrap()
    }

    fn at(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_700_000_000 + s, 0).unwrap()
    }

    #[test]
    fn fires_come_due_in_turn_and_missed_periods_coalesce() {
        let every_10s = checked("0/10 * * * * ?");
        // (rule, timer goes off at (ms after the start), the fire due, the next fire after it)
        let rows = [
            ("early: nothing due, the next fire stays", 9_999, None, Some(10_000)),
            ("on time: the next period", 10_000, Some(10_000), Some(20_000)),
            ("a little late: still the next period", 29_000, Some(20_000), Some(30_000)),
            ("late by exactly a period: coalesced to the one after now", 40_000, Some(30_000), Some(50_000)),
            ("late by several periods: coalesced to the one after now", 85_000, Some(50_000), Some(90_000)),
        ];
        let ms = |ms: i64| at(-(1_700_000_000 % 10)) + Duration::milliseconds(ms);
        let mut timetable = Timetable::new(&every_10s, ms(0));
        assert_eq!(timetable.poll_timeout(), Some(ms(10_000)));
        for (rule, now, fire, next) in rows {
            assert_eq!(timetable.handle_timeout(&every_10s, ms(now)), fire.map(ms), "rule: {rule}");
            assert_eq!(timetable.poll_timeout(), next.map(ms), "rule: {rule}");
        }
    }

    #[test]
    fn a_fire_is_due_once_the_clock_reaches_it() {
        let ms = |ms: i64| at(0) + Duration::milliseconds(ms);
        // (rule, scheduled ms, now ms, due)
        let rows = [
            ("on time", 1000, 1000, true),
            ("late", 1000, 1700, true),
            ("a timer armed before the clock was set back goes off early: not yet", 1000, 660, false),
        ];
        for (rule, scheduled, now, expect) in rows {
            assert_eq!(due(ms(scheduled), ms(now)), expect, "rule: {rule}");
        }
    }

    #[test]
    fn a_timer_armed_before_the_clock_was_set_back_finds_nothing_due() {
        let every_10s = checked("0/10 * * * * ?");
        let mut timetable = Timetable::new(&every_10s, at(0));
        let next = timetable.poll_timeout().unwrap();
        let set_back = next - Duration::milliseconds(340);
        assert_eq!(timetable.handle_timeout(&every_10s, set_back), None);
        assert_eq!(timetable.poll_timeout(), Some(next), "the fire waits for the clock");
        assert_eq!(timetable.handle_timeout(&every_10s, next), Some(next));
    }

    #[test]
    fn a_one_off_job_and_a_cron_that_never_fires_again_have_no_timeout() {
        let now = at(0);
        assert_eq!(Timetable::new(&checked(""), now).poll_timeout(), None, "a one-off job never fires by itself");
        let never_again = checked("0 0 0 1 1 ? 2020");
        let mut timetable = Timetable::new(&never_again, now);
        assert_eq!(timetable.poll_timeout(), None);
        assert_eq!(timetable.handle_timeout(&never_again, now), None);
    }

    #[test]
    fn a_new_cron_takes_effect_from_now() {
        let (hourly, every_10s) = (checked("0 0 * * * ?"), checked("0/10 * * * * ?"));
        let mut timetable = Timetable::new(&hourly, at(0));
        timetable.reschedule(&every_10s, at(0));
        assert_eq!(timetable.poll_timeout(), every_10s.cron.as_ref().unwrap().next_after(at(0), &every_10s.time_zone));
        timetable.reschedule(&checked(""), at(0));
        assert_eq!(timetable.poll_timeout(), None, "a cron removed: no fire");
    }
}
