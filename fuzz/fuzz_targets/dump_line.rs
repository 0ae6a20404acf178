//! The dump protocol: request lines, and the IP masking applied to every answered line.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ejctl_fuzz::dump_line(data));
