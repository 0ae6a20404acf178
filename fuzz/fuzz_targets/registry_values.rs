//! Small registry values: trigger tokens, job types, start stamps, server statuses and trigger
//! results decode without panicking.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ejctl_fuzz::registry_values(data));
