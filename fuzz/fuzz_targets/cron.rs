//! Quartz cron expressions: parsing never panics, and an accepted expression's next fires are
//! increasing (computing them never panics or loops forever).
#![no_main]

use chrono::{TimeZone, Utc};
use ejctl::schedule::cron;
use ejctl::schedule::cron::parse_time_zone;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(expr) = cron::parse(text) else { return };
    let zone = parse_time_zone("GMT+8").expect("a fixed zone");
    let start = Utc.with_ymd_and_hms(2026, 3, 29, 0, 59, 58).single().expect("a valid instant");
    let mut last = start;
    for next in expr.iter_after(start, &zone).take(5) {
        assert!(next > last, "{text}: {next} after {last}");
        last = next;
    }
});
