//! `shardingItemParameters` (`0=a,1=b`): parsing never panics, and values come out trimmed as
//! Java's `String.trim` does.
#![no_main]

use ejctl::coord::params::parse_item_parameters;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(items) = parse_item_parameters(text) {
        for value in items.values() {
            assert_eq!(value.trim_matches(|c| c <= ' '), value, "{text:?}");
        }
    }
});
