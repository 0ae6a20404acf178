//! HTTP responses as an HTTP job sees them: a loopback server answers the job's request with the
//! input bytes, and the job's outcome is a success or a failure, never a panic or a hang.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ejctl_fuzz::http_response(data));
