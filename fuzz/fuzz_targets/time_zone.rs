//! Job time zones (`GMT+8`, `GMT-05:30`, IANA names): parsing never panics.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ejctl_fuzz::time_zone(data));
