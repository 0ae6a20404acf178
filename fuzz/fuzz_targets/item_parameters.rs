//! `shardingItemParameters` (`0=a,1=b`): parsing never panics, and values come out trimmed as
//! Java's `String.trim` does.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ejctl_fuzz::item_parameters(data));
