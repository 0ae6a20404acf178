//! The port of Quartz 2.3.2's cron parser (`buildExpression`, `storeExpressionVals`,
//! `checkNext`, `addToSet`): what it accepts and how it reads it, normalised into the pattern
//! croner evaluates (see the [`cron`](super::cron) module docs).

use std::collections::BTreeSet;
use std::sync::OnceLock;

use chrono::{Datelike, Utc};

/// Day-of-month rules evaluated here by the cron module rather than by croner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DayRule {
    /// croner's pattern chooses the days.
    Croner,
    /// `L-n` (`weekday` false) or `L-nW` (true), `n` ≥ 1.
    LastDayOffset { offset: u32, weekday: bool },
    /// `nW` with `n` ≥ 29: months shorter than `n` follow Quartz's lenient calendar.
    NearestWeekday { day: u32 },
}

/// Quartz's `CronExpression.MAX_YEAR`: the current year plus 100, fixed when first needed.
pub(super) fn max_year() -> i32 {
    static MAX_YEAR: OnceLock<i32> = OnceLock::new();
    *MAX_YEAR.get_or_init(|| Utc::now().year() + 100)
}

const SECOND: usize = 0;
const MINUTE: usize = 1;
const HOUR: usize = 2;
const DAY_OF_MONTH: usize = 3;
const MONTH: usize = 4;
const DAY_OF_WEEK: usize = 5;
const YEAR: usize = 6;
const FIELD_NAMES: [&str; 7] = ["second", "minute", "hour", "day-of-month", "month", "day-of-week", "year"];
/// Quartz's marker for `*` in a value set.
const ALL_SPEC: i32 = 99;
/// Quartz's marker for `?` in a value set.
const NO_SPEC: i32 = 98;
const MONTH_NAMES: [&str; 12] = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const DAY_NAMES: [&str; 7] = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

/// Quartz's parse state: the value sets (Java `TreeSet<Integer>`, markers included) and flags.
#[derive(Debug, Default)]
pub(super) struct QuartzFields {
    sets: [BTreeSet<i32>; 7],
    lastday_of_week: bool,
    nth_day_of_week: i32,
    lastday_of_month: bool,
    nearest_weekday: bool,
    lastday_offset: i32,
}

/// What croner gets, and what this module evaluates itself.
pub(super) struct Normalised {
    pub(super) pattern: String,
    pub(super) day_rule: DayRule,
    pub(super) last_year: Option<i32>,
}

type Reason = String;

impl QuartzFields {
    /// `CronExpression(String)` + `buildExpression`: uppercase, split, store every value.
    pub(super) fn parse(expr: &str) -> Result<Self, Reason> {
        if !expr.is_ascii() {
            return Err("the expression must contain only ASCII characters".to_owned());
        }
        let upper = expr.to_ascii_uppercase();
        let tokens: Vec<&str> = upper.split([' ', '\t']).filter(|t| !t.is_empty()).collect();
        // The same fields as written, for messages.
        let written: Vec<&str> = expr.split([' ', '\t']).filter(|t| !t.is_empty()).collect();
        if !(6..=7).contains(&tokens.len()) {
            return Err(format!(
                "expected 6 or 7 fields (second minute hour day-of-month month day-of-week \
                 [year]), found {}",
                tokens.len()
            ));
        }
        let mut fields = QuartzFields::default();
        for (ty, (token, written)) in tokens.iter().zip(&written).enumerate() {
            // Java's `String.trim`: strips every char <= U+0020 (newlines inside a field).
            let token = token.trim_matches(|c: char| c <= ' ');
            let field = format!("{} field '{}'", FIELD_NAMES[ty], written.trim());
            if ty == DAY_OF_MONTH && token.contains('L') && token.len() > 1 && token.contains(',') {
                return Err(format!("{field}: 'L' and 'LW' cannot be combined with other days"));
            }
            if ty == DAY_OF_WEEK && token.contains('L') && token.len() > 1 && token.contains(',') {
                return Err(format!("{field}: 'L' cannot be combined with other days"));
            }
            if ty == DAY_OF_WEEK && token.matches('#').count() > 1 {
                return Err(format!("{field}: only one '#' (nth day) is supported"));
            }
            for value in token.split(',').filter(|v| !v.is_empty()) {
                fields.store(value.as_bytes(), ty).map_err(|what| format!("{field}: {what}"))?;
            }
        }
        if tokens.len() == 6 {
            fields.store(b"*", YEAR)?;
        }
        let dom_specified = !fields.sets[DAY_OF_MONTH].contains(&NO_SPEC);
        let dow_specified = !fields.sets[DAY_OF_WEEK].contains(&NO_SPEC);
        if dom_specified == dow_specified {
            return Err("exactly one of day-of-month and day-of-week must be '?'".to_owned());
        }
        Ok(fields)
    }

    /// `storeExpressionVals(0, s, type)` for one comma-separated value.
    fn store(&mut self, s: &[u8], ty: usize) -> Result<(), Reason> {
        let Some(&c) = s.first() else {
            return Ok(());
        };
        if c.is_ascii_uppercase() && s != b"L" && s != b"LW" && !is_last_day_offset(s) {
            return self.store_name(s, ty);
        }
        if c == b'?' {
            let i = 1;
            if i + 1 < s.len() && s[i] != b' ' && s[i + 1] != b'\t' {
                return Err(format!("illegal character '{}' after '?'", char::from(s[i])));
            }
            if ty != DAY_OF_WEEK && ty != DAY_OF_MONTH {
                return Err("'?' is only allowed in day-of-month and day-of-week".to_owned());
            }
            if ty == DAY_OF_WEEK && !self.lastday_of_month {
                match self.sets[DAY_OF_MONTH].last() {
                    Some(&NO_SPEC) => {
                        return Err("exactly one of day-of-month and day-of-week must be '?'".to_owned());
                    }
                    Some(_) => {}
                    None => return Err("day-of-month field matches no value".to_owned()),
                }
            }
            return self.add_to_set(NO_SPEC, -1, 0, ty);
        }
        if c == b'*' || c == b'/' {
            if c == b'*' && s.len() == 1 {
                return self.add_to_set(ALL_SPEC, -1, 0, ty);
            }
            if c == b'/' && (s.len() < 2 || s[1] == b' ' || s[1] == b'\t') {
                return Err("'/' must be followed by an integer".to_owned());
            }
            let mut i = usize::from(c == b'*');
            let increment = if at(s, i)? == b'/' {
                i += 1;
                if i >= s.len() {
                    return Err("unexpected end after '/'".to_owned());
                }
                let increment = parse_java_int(&s[i..])?;
                check_increment(increment, ty)?;
                increment
            } else {
                1
            };
            return self.add_to_set(ALL_SPEC, -1, increment, ty);
        }
        if c == b'L' {
            let mut i = 1;
            if ty == DAY_OF_MONTH {
                self.lastday_of_month = true;
            }
            if ty == DAY_OF_WEEK {
                self.add_to_set(7, 7, 0, ty)?;
            }
            if ty == DAY_OF_MONTH && s.len() > i {
                if s[i] == b'-' {
                    let (offset, pos) = get_value(0, s, i + 1)?;
                    if offset > 30 {
                        return Err("the offset from the last day ('L-n') must be at most 30".to_owned());
                    }
                    self.lastday_offset = offset;
                    i = pos;
                }
                if s.len() > i && s[i] == b'W' {
                    self.nearest_weekday = true;
                }
            }
            return Ok(());
        }
        if c.is_ascii_digit() {
            let mut val = i32::from(c - b'0');
            let mut i = 1;
            if i >= s.len() {
                return self.add_to_set(val, -1, -1, ty);
            }
            if s[i].is_ascii_digit() {
                let (v, pos) = get_value(val, s, i)?;
                val = v;
                i = pos;
            }
            return self.check_next(i, s, val, ty);
        }
        Err(format!("unexpected character '{}'", char::from(c)))
    }

    /// The month / day-name branch of `storeExpressionVals`.
    fn store_name(&mut self, s: &[u8], ty: usize) -> Result<(), Reason> {
        let name = |at: usize| -> Result<&str, Reason> {
            s.get(at..at + 3)
                .and_then(|b| std::str::from_utf8(b).ok())
                .ok_or_else(|| format!("'{}' is not a valid value", String::from_utf8_lossy(s)))
        };
        let sub = name(0)?;
        let mut end = -1;
        let start;
        match ty {
            MONTH => {
                start = month_number(sub).ok_or_else(|| format!("invalid month name '{sub}'"))?;
                if s.get(3) == Some(&b'-') {
                    let sub = name(4)?;
                    end = month_number(sub).ok_or_else(|| format!("invalid month name '{sub}'"))?;
                }
            }
            DAY_OF_WEEK => {
                start = day_number(sub).ok_or_else(|| format!("invalid day-of-week name '{sub}'"))?;
                match s.get(3) {
                    Some(b'-') => {
                        let sub = name(4)?;
                        end = day_number(sub).ok_or_else(|| format!("invalid day-of-week name '{sub}'"))?;
                    }
                    Some(b'#') => {
                        self.nth_day_of_week = parse_nth(&s[4..])?;
                    }
                    Some(b'L') => self.lastday_of_week = true,
                    _ => {}
                }
            }
            _ => return Err(format!("names such as '{sub}' are not allowed here")),
        }
        let increment = if end != -1 { 1 } else { 0 };
        self.add_to_set(start, end, increment, ty)
    }

    /// `checkNext`: what follows a number.
    fn check_next(&mut self, pos: usize, s: &[u8], val: i32, ty: usize) -> Result<(), Reason> {
        let Some(&c) = s.get(pos) else {
            return self.add_to_set(val, -1, -1, ty);
        };
        match c {
            b'L' => {
                if ty != DAY_OF_WEEK {
                    return Err("'nL' is only allowed in day-of-week".to_owned());
                }
                if !(1..=7).contains(&val) {
                    return Err("day-of-week values must be between 1 and 7".to_owned());
                }
                self.lastday_of_week = true;
                self.sets[ty].insert(val);
                Ok(())
            }
            b'W' => {
                if ty != DAY_OF_MONTH {
                    return Err("'W' is only allowed in day-of-month".to_owned());
                }
                if val > 31 {
                    return Err("'W' needs a day of month between 1 and 31".to_owned());
                }
                self.nearest_weekday = true;
                self.sets[ty].insert(val);
                Ok(())
            }
            b'#' => {
                if ty != DAY_OF_WEEK {
                    return Err("'#' is only allowed in day-of-week".to_owned());
                }
                self.nth_day_of_week = parse_nth(&s[pos + 1..])?;
                self.sets[ty].insert(val);
                Ok(())
            }
            b'-' => {
                let mut i = pos + 1;
                let v = digit(at(s, i)?)?;
                let mut end = v;
                i += 1;
                if i >= s.len() {
                    return self.add_to_set(val, end, 1, ty);
                }
                if s[i].is_ascii_digit() {
                    let (e, p) = get_value(v, s, i)?;
                    end = e;
                    i = p;
                }
                if s.get(i) != Some(&b'/') {
                    return self.add_to_set(val, end, 1, ty);
                }
                i += 1;
                let v2 = digit(at(s, i)?)?;
                i += 1;
                match s.get(i) {
                    Some(d) if d.is_ascii_digit() => {
                        let (v3, _) = get_value(v2, s, i)?;
                        self.add_to_set(val, end, v3, ty)
                    }
                    _ => self.add_to_set(val, end, v2, ty),
                }
            }
            b'/' => {
                if s.len() <= pos + 1 || s[pos + 1] == b' ' || s[pos + 1] == b'\t' {
                    return Err("'/' must be followed by an integer".to_owned());
                }
                let mut i = pos + 1;
                let v2 = digit(s[i])?;
                i += 1;
                match s.get(i) {
                    None => {
                        check_increment(v2, ty)?;
                        self.add_to_set(val, -1, v2, ty)
                    }
                    Some(d) if d.is_ascii_digit() => {
                        let (v3, _) = get_value(v2, s, i)?;
                        check_increment(v3, ty)?;
                        self.add_to_set(val, -1, v3, ty)
                    }
                    Some(&d) => Err(format!("unexpected character '{}' after '/'", char::from(d))),
                }
            }
            _ => self.add_to_set(val, -1, 0, ty),
        }
    }

    /// `addToSet`: range checks, then the values `val..=end` step `incr`, wrapping around.
    fn add_to_set(&mut self, val: i32, end: i32, incr: i32, ty: usize) -> Result<(), Reason> {
        // Unlike Quartz, a range end beyond the field is refused even when the start is the
        // literal 99 (Quartz's "all" sentinel, which it lets through): `99-333333333` would
        // otherwise fill a set with hundreds of millions of values (found by fuzzing).
        if ty != YEAR && end > field_bounds(ty).1 {
            let (lo, hi) = field_bounds(ty);
            return Err(format!("values must be between {lo} and {hi}"));
        }
        let out_of_range = match ty {
            SECOND | MINUTE => (!(0..=59).contains(&val) || end > 59) && val != ALL_SPEC,
            HOUR => (!(0..=23).contains(&val) || end > 23) && val != ALL_SPEC,
            DAY_OF_MONTH => (!(1..=31).contains(&val) || end > 31) && val != ALL_SPEC && val != NO_SPEC,
            MONTH => (!(1..=12).contains(&val) || end > 12) && val != ALL_SPEC,
            // Quartz checks `val == 0`, not `val < 1`; values here are never negative.
            DAY_OF_WEEK => (val == 0 || val > 7 || end > 7) && val != ALL_SPEC && val != NO_SPEC,
            _ => false,
        };
        if out_of_range {
            let (lo, hi) = field_bounds(ty);
            return Err(format!("values must be between {lo} and {hi}"));
        }
        let set = &mut self.sets[ty];
        if (incr == 0 || incr == -1) && val != ALL_SPEC {
            set.insert(if val == -1 { NO_SPEC } else { val });
            return Ok(());
        }
        let mut incr = incr;
        if val == ALL_SPEC && incr <= 0 {
            incr = 1;
            set.insert(ALL_SPEC);
        }
        let (lo, hi) = if ty == YEAR { (1970, max_year()) } else { field_bounds(ty) };
        let start = if val == -1 || val == ALL_SPEC { lo } else { val };
        let mut stop = if end == -1 { hi } else { end };
        let mut modulus = None;
        if stop < start {
            let m = match ty {
                SECOND | MINUTE => 60,
                HOUR => 24,
                MONTH => 12,
                DAY_OF_WEEK => 7,
                DAY_OF_MONTH => 31,
                _ => return Err("the start year must not be after the end year".to_owned()),
            };
            stop += m;
            modulus = Some(m);
        }
        if ty == YEAR {
            // Years past MAX_YEAR never fire; do not spend time on them.
            stop = stop.min(max_year());
        }
        let mut i = start;
        while i <= stop {
            let value = match modulus {
                None => i,
                Some(m) => match i % m {
                    0 if matches!(ty, MONTH | DAY_OF_WEEK | DAY_OF_MONTH) => m,
                    v => v,
                },
            };
            set.insert(value);
            match i.checked_add(incr) {
                Some(next) => i = next,
                None => break,
            }
        }
        Ok(())
    }

    /// Turns Quartz's sets and flags into a croner pattern plus this module's day rule.
    pub(super) fn normalise(&self, max_year: i32) -> Result<Normalised, Reason> {
        let values = |ty: usize, lo: i32, hi: i32| -> Vec<i32> { self.sets[ty].range(lo..=hi).copied().collect() };
        let list = |ty: usize| -> Result<String, Reason> {
            let (lo, hi) = field_bounds(ty);
            let v = values(ty, lo, hi);
            if v.is_empty() {
                return Err(format!("the {} field matches no value", FIELD_NAMES[ty]));
            }
            Ok(join(&v, lo, hi))
        };
        let seconds = list(SECOND)?;
        let minutes = list(MINUTE)?;
        let hours = list(HOUR)?;
        let months = list(MONTH)?;

        let mut day_rule = DayRule::Croner;
        let dom_specified = !self.sets[DAY_OF_MONTH].contains(&NO_SPEC);
        let dom = if !dom_specified {
            "*".to_owned()
        } else if self.lastday_of_month {
            let offset = u32::try_from(self.lastday_offset).unwrap_or(0);
            match (offset, self.nearest_weekday) {
                (0, false) => "L".to_owned(),
                (0, true) => "LW".to_owned(),
                (offset, weekday) => {
                    day_rule = DayRule::LastDayOffset { offset, weekday };
                    "*".to_owned()
                }
            }
        } else if self.nearest_weekday {
            // Quartz uses the smallest day of the set, whatever else is listed.
            let day = self.sets[DAY_OF_MONTH].first().copied().unwrap_or(0);
            let day = u32::try_from(day)
                .ok()
                .filter(|d| (1..=31).contains(d))
                .ok_or_else(|| "'W' needs a day of month between 1 and 31".to_owned())?;
            if day <= 28 {
                format!("{day}W")
            } else {
                day_rule = DayRule::NearestWeekday { day };
                "*".to_owned()
            }
        } else {
            list(DAY_OF_MONTH)?
        };

        let dow_specified = !self.sets[DAY_OF_WEEK].contains(&NO_SPEC);
        let dow = if !dow_specified {
            "*".to_owned()
        } else if self.lastday_of_week || self.nth_day_of_week != 0 {
            // Quartz uses the smallest day of the set, whatever else is listed.
            let day = self.sets[DAY_OF_WEEK]
                .first()
                .copied()
                .filter(|d| (1..=7).contains(d))
                .ok_or_else(|| "day-of-week values must be between 1 and 7".to_owned())?;
            if self.lastday_of_week { format!("{day}L") } else { format!("{day}#{}", self.nth_day_of_week) }
        } else {
            list(DAY_OF_WEEK)?
        };

        // Years: croner knows 1..=5000, Quartz stops at MAX_YEAR. No year left: never fires.
        let years = values(YEAR, 1970, max_year.min(5000));
        let last_year = years.last().copied();
        let year_field = if years.is_empty() { "*".to_owned() } else { join(&years, i32::MIN, i32::MAX) };
        let last_year = last_year.filter(|_| {
            // `30 2` and friends: a plain day list that no selected month can hold.
            !(day_rule == DayRule::Croner
                && dom_specified
                && !self.lastday_of_month
                && !self.nearest_weekday
                && !self.can_hold_some_day())
        });

        Ok(Normalised {
            pattern: format!("{seconds} {minutes} {hours} {dom} {months} {dow} {year_field}"),
            day_rule,
            last_year,
        })
    }

    /// Whether some selected month has room for the smallest selected day of month.
    fn can_hold_some_day(&self) -> bool {
        let Some(&smallest) = self.sets[DAY_OF_MONTH].range(1..=31).next() else {
            return false;
        };
        self.sets[MONTH].range(1..=12).any(|&m| {
            let longest = match m {
                2 => 29,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            smallest <= longest
        })
    }
}

/// The value range of a field (years: Quartz's `*` range start and croner's limit).
fn field_bounds(ty: usize) -> (i32, i32) {
    match ty {
        SECOND | MINUTE => (0, 59),
        HOUR => (0, 23),
        DAY_OF_MONTH => (1, 31),
        MONTH => (1, 12),
        DAY_OF_WEEK => (1, 7),
        _ => (1970, 5000),
    }
}

/// `v` as a croner list; `*` when it is the whole range `lo..=hi`.
fn join(v: &[i32], lo: i32, hi: i32) -> String {
    let whole = i64::from(hi) - i64::from(lo) + 1;
    if i64::try_from(v.len()).ok() == Some(whole) {
        return "*".to_owned();
    }
    let parts: Vec<String> = v.iter().map(i32::to_string).collect();
    parts.join(",")
}

/// `s.matches("^L-[0-9]*[W]?")` (whole string).
fn is_last_day_offset(s: &[u8]) -> bool {
    let Some(rest) = s.strip_prefix(b"L-") else {
        return false;
    };
    let rest = rest.strip_suffix(b"W").unwrap_or(rest);
    rest.iter().all(u8::is_ascii_digit)
}

/// `s.charAt(i)`.
fn at(s: &[u8], i: usize) -> Result<u8, Reason> {
    s.get(i).copied().ok_or_else(|| format!("unexpected end of '{}'", String::from_utf8_lossy(s)))
}

/// `Integer.parseInt(String.valueOf(c))`.
fn digit(c: u8) -> Result<i32, Reason> {
    if c.is_ascii_digit() {
        Ok(i32::from(c - b'0'))
    } else {
        Err(format!("expected a digit, found '{}'", char::from(c)))
    }
}

/// `Integer.parseInt(s)`.
fn parse_java_int(s: &[u8]) -> Result<i32, Reason> {
    std::str::from_utf8(s)
        .ok()
        .and_then(|t| t.parse::<i32>().ok())
        .ok_or_else(|| format!("'{}' is not a number", String::from_utf8_lossy(s)))
}

/// The number after `#`: 1 to 5.
fn parse_nth(s: &[u8]) -> Result<i32, Reason> {
    parse_java_int(s)
        .ok()
        .filter(|n| (1..=5).contains(n))
        .ok_or_else(|| "'#' must be followed by a number between 1 and 5".to_owned())
}

/// `getValue(v, s, i)`: `v` followed by the digits from `i`; returns the value and the position
/// after them (`len + 1` when they run to the end, as in Quartz).
fn get_value(v: i32, s: &[u8], i: usize) -> Result<(i32, usize), Reason> {
    let mut i = i;
    let mut c = at(s, i)?;
    let mut text = v.to_string();
    while c.is_ascii_digit() {
        text.push(char::from(c));
        i += 1;
        match s.get(i) {
            Some(&next) => c = next,
            None => break,
        }
    }
    let pos = if i < s.len() { i } else { i + 1 };
    let value = text.parse::<i32>().map_err(|_| format!("'{text}' is not a number"))?;
    Ok((value, pos))
}

/// `checkIncrementRange`.
fn check_increment(increment: i32, ty: usize) -> Result<(), Reason> {
    let max = match ty {
        SECOND | MINUTE => 59,
        HOUR => 23,
        DAY_OF_MONTH => 31,
        DAY_OF_WEEK => 7,
        MONTH => 12,
        _ => return Ok(()),
    };
    if increment > max {
        return Err(format!("the {} increment must be at most {max}, found {increment}", FIELD_NAMES[ty]));
    }
    Ok(())
}

fn month_number(name: &str) -> Option<i32> {
    let index = MONTH_NAMES.iter().position(|m| *m == name)?;
    i32::try_from(index + 1).ok()
}

fn day_number(name: &str) -> Option<i32> {
    let index = DAY_NAMES.iter().position(|d| *d == name)?;
    i32::try_from(index + 1).ok()
}
