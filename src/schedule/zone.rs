//! Job time zones (ElasticJob's `timeZone`): see the [`cron`](super::cron) module docs,
//! "Time zones".

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, FixedOffset, LocalResult, NaiveDateTime, TimeZone, Utc};

use super::CronError;

/// The time zone a job's cron expression is evaluated in (ElasticJob's `timeZone`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum JobTimeZone {
    /// The machine's local time zone: an empty time zone string, as the JVM default zone is for
    /// a Java ElasticJob instance.
    #[default]
    Local,
    /// A fixed offset from GMT, written `GMT`, `GMT+8`, `GMT+08:00`, `GMT-0530`, `GMT+8:30`.
    Fixed(FixedOffset),
    /// An IANA time zone such as `Asia/Shanghai` (DST-aware). An ejctl extension: a Java
    /// ElasticJob instance rejects any zone id that does not start with `GMT`.
    Iana(chrono_tz::Tz),
}

/// Parses a job's time zone string: empty (local zone), a `GMT` offset or an IANA name.
///
/// The `GMT` syntax is that of Java's `TimeZone.getTimeZone` custom ids: `GMT`, `GMT0`, or
/// `GMT`, a sign, and hours (one or two digits, 0–23) optionally followed by minutes (two digits,
/// 0–59) with or without a `:`; `GMT+830` is `GMT+08:30`. Names are case-sensitive, as in Java.
pub fn parse_time_zone(s: &str) -> Result<JobTimeZone, CronError> {
    if s.is_empty() {
        return Ok(JobTimeZone::Local);
    }
    if let Some(rest) = s.strip_prefix("GMT") {
        return parse_gmt_offset(rest).and_then(FixedOffset::east_opt).map(JobTimeZone::Fixed).ok_or_else(|| {
            CronError::InvalidTimeZone {
                zone: s.to_owned(),
                reason: "expected GMT, GMT+H, GMT+HH, GMT+HHMM or GMT+HH:MM (either sign) with \
                         hours 0-23 and minutes 0-59"
                    .to_owned(),
            }
        });
    }
    s.parse::<chrono_tz::Tz>().map(JobTimeZone::Iana).map_err(|_| CronError::InvalidTimeZone {
        zone: s.to_owned(),
        reason: "not a GMT offset (GMT+8, GMT+08:00, GMT-0530) nor an IANA time zone name \
                     (Asia/Shanghai, UTC)"
            .to_owned(),
    })
}

/// Java's `TimeZone.parseCustomTimeZone` on the text after `GMT`; the offset in seconds.
fn parse_gmt_offset(rest: &str) -> Option<i32> {
    // "GMT", "GMT0", "GMT+0" and "GMT-0" are tzdb ids that Java finds before parsing.
    if rest.is_empty() || rest == "0" {
        return Some(0);
    }
    let bytes = rest.as_bytes();
    let negative = match bytes.first() {
        Some(b'+') => false,
        Some(b'-') => true,
        _ => return None,
    };
    let body = &bytes[1..];
    if body.is_empty() {
        return None;
    }
    let (mut hours, mut num, mut delimiters, mut len) = (0i32, 0i32, 0, 0);
    for &c in body {
        if c == b':' {
            if delimiters > 0 || len > 2 {
                return None;
            }
            hours = num;
            delimiters += 1;
            num = 0;
            len = 0;
            continue;
        }
        if !c.is_ascii_digit() || len >= 4 {
            return None;
        }
        num = num * 10 + i32::from(c - b'0');
        len += 1;
    }
    if delimiters == 0 {
        if len <= 2 {
            hours = num;
            num = 0;
        } else {
            hours = num / 100;
            num %= 100;
        }
    } else if len != 2 {
        return None;
    }
    if hours > 23 || num > 59 {
        return None;
    }
    let seconds = (hours * 60 + num) * 60;
    Some(if negative { -seconds } else { seconds })
}

impl JobTimeZone {
    /// Whether a Java ElasticJob instance accepts this zone: true for the local zone (empty
    /// string) and `GMT` offsets, false for IANA names (Java requires the id to start with
    /// `GMT`).
    pub fn is_java_compatible(&self) -> bool {
        !matches!(self, JobTimeZone::Iana(_))
    }

    /// An instant for people in this zone, with its offset: `2026-11-25 09:12:40 +08:00`.
    pub fn format(&self, t: &DateTime<Utc>) -> String {
        const FORMAT: &str = "%Y-%m-%d %H:%M:%S %:z";
        match self {
            JobTimeZone::Local => t.with_timezone(&chrono::Local).format(FORMAT).to_string(),
            JobTimeZone::Fixed(offset) => t.with_timezone(offset).format(FORMAT).to_string(),
            JobTimeZone::Iana(tz) => t.with_timezone(tz).format(FORMAT).to_string(),
        }
    }

    /// The wall clock (local date and time) of an instant in this zone.
    pub fn wall_clock(&self, t: DateTime<Utc>) -> NaiveDateTime {
        match self {
            JobTimeZone::Local => t.with_timezone(&chrono::Local).naive_local(),
            JobTimeZone::Fixed(offset) => t.with_timezone(offset).naive_local(),
            JobTimeZone::Iana(tz) => t.with_timezone(tz).naive_local(),
        }
    }

    /// The instant of a wall-clock time as Java's lenient calendar resolves it when Quartz sets
    /// it: a repeated time is the later (standard-time) instant; a skipped one is `None`.
    pub fn resolve_wall_clock(&self, wall: NaiveDateTime) -> Option<DateTime<Utc>> {
        fn later<Z: TimeZone>(r: LocalResult<DateTime<Z>>) -> Option<DateTime<Utc>> {
            r.latest().map(|t| t.with_timezone(&Utc))
        }
        match self {
            JobTimeZone::Local => later(chrono::Local.from_local_datetime(&wall)),
            JobTimeZone::Fixed(offset) => later(offset.from_local_datetime(&wall)),
            JobTimeZone::Iana(tz) => later(tz.from_local_datetime(&wall)),
        }
    }
}

/// The canonical time zone string, which [`parse_time_zone`] reads back: the empty string for
/// the local zone, `GMT` or `GMT+08:00` (Java's normalised custom id) for fixed offsets, the
/// zone name for IANA zones.
impl fmt::Display for JobTimeZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobTimeZone::Local => Ok(()),
            JobTimeZone::Fixed(offset) => {
                let seconds = offset.local_minus_utc();
                if seconds == 0 {
                    return f.write_str("GMT");
                }
                let sign = if seconds < 0 { '-' } else { '+' };
                let minutes = seconds.abs() / 60;
                write!(f, "GMT{sign}{:02}:{:02}", minutes / 60, minutes % 60)
            }
            JobTimeZone::Iana(tz) => f.write_str(tz.name()),
        }
    }
}

impl FromStr for JobTimeZone {
    type Err = CronError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_time_zone(s)
    }
}

impl serde::Serialize for JobTimeZone {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for JobTimeZone {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        parse_time_zone(&s).map_err(serde::de::Error::custom)
    }
}
