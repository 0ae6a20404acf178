//! `ejctl config set` assignments (`KEY=VALUE`): parsing and applying them never panics.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ejctl_fuzz::assignments(data));
