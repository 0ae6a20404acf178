//! How admin results spell instants, durations, lists and configuration values for people and
//! documents. The operations' messages and the command line's tables share these, so a duration
//! or an item list reads the same everywhere.

use chrono::{DateTime, Utc};

pub use crate::clock::humanize;

/// An instant for people, with its offset, in local time: `2026-11-25 09:12:40 +08:00`.
pub fn local_time(t: &DateTime<Utc>) -> String {
    absolute(t, None)
}

/// An instant for people, with its offset: in the job's time zone `zone` when it names one
/// (`GMT+8`, `Asia/Shanghai`), else in local time. Every absolute time ejctl shows people goes
/// through here; documents use [`rfc3339`] (UTC).
pub fn absolute(t: &DateTime<Utc>, zone: Option<&str>) -> String {
    let zone = zone.filter(|z| !z.trim().is_empty()).and_then(|z| crate::schedule::cron::parse_time_zone(z).ok());
    zone.unwrap_or_default().format(t)
}

/// How far an instant is from `now`, for people: `in 3s`, `2m ago`, `in 5h`, `3d ago`, `now`.
pub fn relative(t: &DateTime<Utc>, now: DateTime<Utc>) -> String {
    let ms = (*t - now).num_milliseconds();
    let secs = (ms.unsigned_abs() + 500) / 1000;
    if secs == 0 {
        return "now".to_string();
    }
    let amount = match secs {
        0..90 => format!("{secs}s"),
        90..5400 => format!("{}m", (secs + 30) / 60),
        5400..129_600 => format!("{}h", (secs + 1800) / 3600),
        _ => format!("{}d", (secs + 43_200) / 86_400),
    };
    if ms > 0 { format!("in {amount}") } else { format!("{amount} ago") }
}

/// An instant for a table cell: [`relative`], or `-` when there is none (nothing will fire, no
/// run yet).
pub fn ago(t: Option<&DateTime<Utc>>, now: DateTime<Utc>) -> String {
    t.map_or_else(|| "-".to_string(), |t| relative(t, now))
}

/// An instant in full: `2026-11-25 09:12:40 +08:00 (in 3s)` ([`absolute`] and [`relative`]), or
/// `-` when there is none.
pub fn when(t: Option<&DateTime<Utc>>, zone: Option<&str>, now: DateTime<Utc>) -> String {
    t.map_or_else(|| "-".to_string(), |t| format!("{} ({})", absolute(t, zone), relative(t, now)))
}

/// An instant for documents: RFC 3339, UTC, seconds.
pub fn rfc3339(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Serialises an optional instant as [`rfc3339`] (for `#[serde(serialize_with)]`).
///
/// # Errors
/// Whatever the serializer fails with.
pub fn serialize_rfc3339<S: serde::Serializer>(t: &Option<DateTime<Utc>>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_some(&rfc3339(t)),
        None => s.serialize_none(),
    }
}

/// Items as `0,1,2`.
pub fn join_items(items: &[u32]) -> String {
    items.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// Items for people, in order, runs of three or more as ranges: `0-4999`, `1,3,5-9`. The tables,
/// the console and the logs show a job's items this way, so an instance of a 10,000-item job is
/// one short cell; `-o plain` and JSON keep every number ([`join_items`]).
pub fn item_ranges(items: &[u32]) -> String {
    let mut sorted = items.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        match j - i {
            0 => parts.push(sorted[i].to_string()),
            1 => parts.extend([sorted[i].to_string(), sorted[j].to_string()]),
            _ => parts.push(format!("{}-{}", sorted[i], sorted[j])),
        }
        i = j + 1;
    }
    parts.join(",")
}

/// Names for a message: `a, b, c` (at most 5, then `and N more`).
pub fn name_list<S: AsRef<str>>(names: &[S]) -> String {
    let shown: Vec<&str> = names.iter().take(5).map(AsRef::as_ref).collect();
    let mut s = shown.join(", ");
    if names.len() > 5 {
        s.push_str(&format!(" and {} more", names.len() - 5));
    }
    s
}

/// The candidate closest to a mistyped `name` (case-insensitive edit distance), when it is close
/// enough to be what was meant: at most 2 edits (3 for names of 9 characters or more), fewer than
/// the shorter name has characters.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (crate::jobfile::edit_distance(&lower, &c.to_lowercase()), c))
        .filter(|(d, c)| {
            let (a, b) = (c.chars().count(), name.chars().count());
            *d < a.min(b) && (*d <= 2 || (*d == 3 && a.max(b) >= 9))
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// ` (did you mean 'x'?)` for a mistyped name, or nothing.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(name, candidates).map(|c| format!(" (did you mean '{c}'?)")).unwrap_or_default()
}

/// A configuration value for people: strings bare (quoted when empty or padded), `(unset)` for
/// null.
pub fn show_value(v: &serde_json::Value) -> String {
    use serde_json::Value as Json;
    match v {
        Json::Null => "(unset)".to_string(),
        Json::String(s) if s.is_empty() || s.trim() != s => Json::String(s.clone()).to_string(),
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A configuration value for `-o plain`: strings bare, empty for null.
pub fn plain_value(v: &serde_json::Value) -> String {
    use serde_json::Value as Json;
    match v {
        Json::Null => String::new(),
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn durations_for_people() {
        assert_eq!(humanize(Duration::from_millis(850)), "850ms");
        assert_eq!(humanize(Duration::from_secs(1)), "1s");
        assert_eq!(humanize(Duration::from_millis(1250)), "1.2s");
        assert_eq!(humanize(Duration::from_secs(185)), "3m05s");
        assert_eq!(name_list(&["a", "b"]), "a, b");
        assert_eq!(name_list(&["1", "2", "3", "4", "5", "6", "7"]), "1, 2, 3, 4, 5 and 2 more");
        assert_eq!(join_items(&[0, 2]), "0,2");
        assert_eq!(item_ranges(&[]), "");
        assert_eq!(item_ranges(&(0..10_000).collect::<Vec<u32>>()), "0-9999");
        assert_eq!(item_ranges(&[9, 1, 3, 5, 6, 7, 8, 11, 12]), "1,3,5-9,11,12");
    }

    #[test]
    fn times_for_people() {
        let now: DateTime<Utc> = "2026-11-25T01:00:00Z".parse().unwrap();
        let at = |s: &str| -> DateTime<Utc> { s.parse().unwrap() };
        assert_eq!(relative(&at("2026-11-25T01:00:03Z"), now), "in 3s");
        assert_eq!(relative(&at("2026-11-25T00:58:00Z"), now), "2m ago");
        assert_eq!(relative(&at("2026-11-25T06:00:00Z"), now), "in 5h");
        assert_eq!(relative(&at("2026-11-22T01:00:00Z"), now), "3d ago");
        assert_eq!(relative(&now, now), "now");
        assert_eq!(absolute(&now, Some("GMT+8")), "2026-11-25 09:00:00 +08:00");
        assert_eq!(absolute(&now, Some("America/New_York")), "2026-11-24 20:00:00 -05:00");
        let local = absolute(&now, None);
        assert!(local.ends_with(":00") && (local.contains(" +") || local.contains(" -")), "{local}");
        assert_eq!(when(Some(&at("2026-11-25T01:00:03Z")), Some("GMT"), now), "2026-11-25 01:00:03 +00:00 (in 3s)");
        assert_eq!(when(None, None, now), "-");
        assert_eq!(ago(None, now), "-");
    }

    #[test]
    fn close_names_are_suggested() {
        assert_eq!(closest("helo", ["hello", "report"]), Some("hello"));
        assert_eq!(closest("HELLO", ["hello"]), Some("hello"));
        assert_eq!(closest("x", ["hello"]), None);
        assert_eq!(did_you_mean("prdo", ["prod", "local"]), " (did you mean 'prod'?)");
        assert_eq!(did_you_mean("zzz", ["prod"]), "");
    }

    #[test]
    fn values_for_people() {
        use serde_json::Value as Json;
        assert_eq!(show_value(&Json::Null), "(unset)");
        assert_eq!(show_value(&Json::String(String::new())), "\"\"");
        assert_eq!(show_value(&Json::String("0/5 * * * * ?".into())), "0/5 * * * * ?");
        assert_eq!(plain_value(&Json::Null), "");
        assert_eq!(plain_value(&Json::from(4)), "4");
    }
}
