//! Quartz cron expressions and job time zones: this module owns the cron dialect ejctl accepts,
//! the job time zone string, and the computation of a job's next fire instant.
//!
//! # Dialect
//!
//! The dialect is Quartz 2.3.2's `CronExpression`, the one ElasticJob schedules with
//! (docs/src/cron.md): six or seven whitespace-separated fields `second minute hour day-of-month
//! month day-of-week [year]`; exactly one of day-of-month and day-of-week is `?`; month names
//! `JAN`–`DEC` and day names `SUN`–`SAT`, case-insensitive; day-of-week `1`–`7` = `SUN`–`SAT`; `*`,
//! `,`, `-`, `/`; day-of-month `L`, `L-n`, `LW`, `L-nW`, `nW`; day-of-week `nL`, `n#k` and `L`
//! alone (= `7`, Saturday); wrap-around ranges such as `22-2` (hours 22, 23, 0, 1, 2) or `FRI-MON`.
//!
//! # How it works
//!
//! [`parse`] is a port of Quartz's own parser (`buildExpression`, `storeExpressionVals`,
//! `checkNext`, `addToSet`), so it accepts, rejects and interprets exactly what Quartz does,
//! including Quartz's global-flag quirks: `W`, `#` and `nL` act on the *smallest* listed day
//! only (`1W,15` is `1W`, `6#2,2` is `MON#2`), text after a range or a name is ignored
//! (`MON-FRI/2` is `MON-FRI`, `2-4L` is `2-4`, `JAN/3` is `JAN`). The resulting value sets are
//! handed to `croner` as a normalised pattern of plain numbers, `L`, `LW`, `nW`, `nL` and `n#k`,
//! which croner evaluates on the wall clock. `L-n`, `L-nW` and `nW` with `n` ≥ 29 (where Quartz's
//! lenient calendar arithmetic matters) are evaluated here, one target day per month, with croner
//! still doing seconds to years.
//!
//! The search runs on the zone's wall clock and maps the result to an instant the way Quartz's
//! lenient `java.util.GregorianCalendar` does: it starts from the wall clock of `after + 1 s`
//! (milliseconds dropped), a wall-clock time repeated by a fall-back transition resolves to its
//! *later* (standard-time) instant, and a wall-clock time that a spring-forward transition skips
//! does not fire (the search goes on after it). Consequences, all shared with Quartz: a daily
//! `0 30 2 * * ?` in `Europe/Berlin` skips the spring-forward day and fires once on the
//! fall-back day, at the second 02:30; `0 0/30 * * * ?` fires only in the second copy of the
//! repeated hour.
//!
//! Years run up to Quartz's `MAX_YEAR`, the current year plus 100; later instants are never
//! returned.
//!
//! # Differences from Quartz
//!
//! Measured against real Quartz 2.3.2 with the golden cases in `tests/data/quartz/` (the test
//! `golden_cases_agree_with_quartz` lists the allow-listed cases); every difference is a
//! rejection of an expression Quartz accepts or a case in which Quartz does not terminate:
//!
//! * More than seven fields: Quartz silently ignores everything after the seventh field; ejctl
//!   rejects the expression.
//! * Fields that select nothing (`L` or `LW` in the second, minute, hour or month field; a
//!   trailing `,` only): Quartz accepts them and then fails on the first fire-time computation;
//!   ejctl rejects them when parsing. (`L` in the year field never fires, in both.)
//! * `0W`, and `n#k` or `nL` with a day-of-week outside 1–7 reached through `#` (`9#2`): Quartz
//!   accepts them and computes dates in other months; ejctl rejects them.
//! * `L-nW` in a month where `L-n` falls before the 1st (`L-29W` in February): Quartz 2.3.2
//!   loops forever; ejctl does not fire in that month.
//! * Non-ASCII characters: rejected by ejctl (Quartz mostly rejects them too, with exceptions
//!   such as `?` followed by one arbitrary character).
//!
//! # Time zones
//!
//! [`parse_time_zone`]: an empty string is the machine's local zone (ElasticJob: the JVM
//! default); `GMT`, `GMT+8`, `GMT+08:00`, `GMT-0530`, `GMT+8:30` are fixed offsets in the syntax
//! of Java's `TimeZone.getTimeZone` custom ids; anything else must be an IANA name such as
//! `Asia/Shanghai` or `UTC` — an ejctl extension that a Java ElasticJob instance rejects
//! ([`JobTimeZone::is_java_compatible`]). Java turns an unparseable `GMT…` id into GMT without
//! a word; ejctl rejects it.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, LazyLock, Mutex, Weak};

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, SubsecRound, TimeDelta, Utc, Weekday};
use croner::Cron;
use croner::parser::{CronParser, Seconds, Year};

pub use super::CronError;
use super::quartz::{DayRule, QuartzFields, max_year};
pub use super::zone::{JobTimeZone, parse_time_zone};

/// A parsed Quartz cron expression. Parse once with [`parse`], then ask for fire instants with
/// [`CronExpr::next_after`] or [`CronExpr::iter_after`].
#[derive(Clone)]
pub struct CronExpr {
    /// The expression as given.
    expr: Box<str>,
    /// Evaluates everything except the day rules croner lacks; shared by every expression with
    /// the same pattern ([`shared_cron`]).
    cron: Arc<Cron>,
    /// How the day of the month is chosen.
    day_rule: DayRule,
    /// The last year in which the expression can fire; `None` when it never fires.
    last_year: Option<i32>,
}

impl fmt::Debug for CronExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CronExpr")
            .field("expr", &self.expr)
            .field("pattern", &self.cron.pattern.as_str())
            .field("day_rule", &self.day_rule)
            .field("last_year", &self.last_year)
            .finish()
    }
}

/// Two expressions are equal when their original strings are.
impl PartialEq for CronExpr {
    fn eq(&self, other: &Self) -> bool {
        self.expr == other.expr
    }
}

impl Eq for CronExpr {}

/// The original expression.
impl fmt::Display for CronExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.expr)
    }
}

impl FromStr for CronExpr {
    type Err = CronError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse(s)
    }
}

impl serde::Serialize for CronExpr {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.expr)
    }
}

impl<'de> serde::Deserialize<'de> for CronExpr {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        parse(&s).map_err(serde::de::Error::custom)
    }
}

/// Parses a Quartz cron expression (see the module documentation for the dialect).
pub fn parse(expr: &str) -> Result<CronExpr, CronError> {
    let invalid = |reason: String| CronError::InvalidExpression { expr: expr.to_owned(), reason };
    let fields = QuartzFields::parse(expr).map_err(invalid)?;
    let max_year = max_year();
    let normalised = fields.normalise(max_year).map_err(invalid)?;
    let cron = shared_cron(&normalised.pattern)
        .map_err(|e| invalid(format!("internal error: croner rejected '{}': {e}", normalised.pattern)))?;
    Ok(CronExpr { expr: expr.into(), cron, day_rule: normalised.day_rule, last_year: normalised.last_year })
}

/// The parsed patterns in use, by pattern. A parsed pattern holds a bitfield per field (several
/// KB with the year's), and thousands of jobs in one worker often share a handful of schedules.
static PATTERNS: LazyLock<Mutex<HashMap<String, Weak<Cron>>>> = LazyLock::new(Mutex::default);

/// The parsed croner `pattern`, shared with every live expression of the same pattern.
fn shared_cron(pattern: &str) -> Result<Arc<Cron>, croner::errors::CronError> {
    let mut patterns = crate::sync::lock(&PATTERNS);
    if let Some(cron) = patterns.get(pattern).and_then(Weak::upgrade) {
        return Ok(cron);
    }
    let cron = Arc::new(
        CronParser::builder()
            .seconds(Seconds::Required)
            .year(Year::Required)
            .alternative_weekdays(true)
            .build()
            .parse(pattern)?,
    );
    // Forget the patterns no expression uses any more before the table doubles.
    if patterns.len() >= 64 && patterns.len().is_power_of_two() {
        patterns.retain(|_, cron| cron.strong_count() > 0);
    }
    patterns.insert(pattern.to_owned(), Arc::downgrade(&cron));
    Ok(cron)
}

impl CronExpr {
    /// The expression as it was given to [`parse`].
    pub fn as_str(&self) -> &str {
        &self.expr
    }

    /// The first fire instant strictly after `after`, evaluated in `tz`, or `None` when the
    /// expression never fires again (a past year, `30 2` = February 30th, beyond Quartz's
    /// `MAX_YEAR`). Matches Quartz's `CronExpression.getNextValidTimeAfter`.
    pub fn next_after(&self, after: DateTime<Utc>, tz: &JobTimeZone) -> Option<DateTime<Utc>> {
        // Quartz: one second after `after`, milliseconds dropped, on the zone's wall clock.
        let start = after.trunc_subsecs(0).checked_add_signed(TimeDelta::seconds(1))?;
        let mut wall = tz.wall_clock(start);
        loop {
            let candidate = self.next_wall_clock(wall)?;
            match tz.resolve_wall_clock(candidate) {
                Some(t) => return Some(t),
                // Skipped by a spring-forward transition: Quartz never fires there.
                None => wall = candidate.checked_add_signed(TimeDelta::seconds(1))?,
            }
        }
    }

    /// The fire instants strictly after `after`, in order; ends when the expression never fires
    /// again.
    pub fn iter_after<'a>(
        &'a self,
        after: DateTime<Utc>,
        tz: &'a JobTimeZone,
    ) -> impl Iterator<Item = DateTime<Utc>> + 'a {
        std::iter::successors(self.next_after(after, tz), move |t| self.next_after(*t, tz))
    }

    /// The first matching wall-clock time at or after `from`.
    fn next_wall_clock(&self, from: NaiveDateTime) -> Option<NaiveDateTime> {
        match self.day_rule {
            DayRule::Croner => self.croner_next(from),
            DayRule::LastDayOffset { .. } | DayRule::NearestWeekday { .. } => {
                let mut from = from;
                loop {
                    // croner's pattern has `*` days here: it finds the time, month and year.
                    let t = self.croner_next(from)?;
                    let (year, month) = (t.year(), t.month());
                    match self.day_rule.target_day(year, month) {
                        Some(day) if t.day() == day => return Some(t),
                        Some(day) if t.day() < day => {
                            from = NaiveDate::from_ymd_opt(year, month, day)?.and_time(NaiveTime::MIN);
                        }
                        _ => from = first_of_next_month(year, month)?,
                    }
                }
            }
        }
    }

    /// croner's first match at or after `from`, within Quartz's years.
    fn croner_next(&self, from: NaiveDateTime) -> Option<NaiveDateTime> {
        let last_year = self.last_year?;
        if from.year() > last_year {
            return None;
        }
        let t = self.cron.find_next_occurrence(&from, true).ok()?;
        (t.year() <= last_year).then_some(t)
    }
}

impl DayRule {
    /// The day of `year`-`month` on which the rule fires, if any.
    fn target_day(self, year: i32, month: u32) -> Option<u32> {
        let last = days_in_month(year, month)?;
        match self {
            DayRule::Croner => None,
            DayRule::LastDayOffset { offset, weekday } => {
                let day = last.checked_sub(offset).filter(|d| *d >= 1)?;
                if weekday { nearest_weekday(year, month, day, last) } else { Some(day) }
            }
            DayRule::NearestWeekday { day } if day <= last => nearest_weekday(year, month, day, last),
            DayRule::NearestWeekday { day } => {
                // Quartz sets day `day` of a shorter month: the lenient calendar rolls into the
                // next month, whose weekday decides. Only "the 1st of the next month is a
                // Saturday, one day past the end" moves back into this month (to its last day,
                // a Friday); every other case leaves the month.
                let next = first_of_next_month(year, month)?.date();
                (day == last + 1 && next.weekday() == Weekday::Sat).then_some(last)
            }
        }
    }
}

/// Quartz's `W` rule for `day` (1..=`last`) of a month: Saturday moves to Friday (or to Monday
/// the 3rd when it is the 1st), Sunday to Monday (or to Friday when it is the last day).
fn nearest_weekday(year: i32, month: u32, day: u32, last: u32) -> Option<u32> {
    Some(match NaiveDate::from_ymd_opt(year, month, day)?.weekday() {
        Weekday::Sat if day == 1 => day + 2,
        Weekday::Sat => day - 1,
        Weekday::Sun if day == last => day - 2,
        Weekday::Sun => day + 1,
        _ => day,
    })
}

fn days_in_month(year: i32, month: u32) -> Option<u32> {
    let first = NaiveDate::from_ymd_opt(year, month, 1)?;
    let next = first_of_next_month(year, month)?.date();
    u32::try_from(next.signed_duration_since(first).num_days()).ok()
}

fn first_of_next_month(year: i32, month: u32) -> Option<NaiveDateTime> {
    let (y, m) = if month >= 12 { (year + 1, 1) } else { (year, month + 1) };
    Some(NaiveDate::from_ymd_opt(y, m, 1)?.and_time(NaiveTime::MIN))
}

#[cfg(test)]
#[path = "cron_tests.rs"]
mod tests;
