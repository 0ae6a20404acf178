//! Job time zones (`GMT+8`, `GMT-05:30`, IANA names): parsing never panics.
#![no_main]

use ejctl::schedule::cron::parse_time_zone;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(zone) = parse_time_zone(text) {
        let _ = zone.is_java_compatible();
    }
});
