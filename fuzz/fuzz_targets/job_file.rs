//! Job files (TOML): parsing and validation never panic; an accepted file defines a job.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ejctl_fuzz::job_file(data));
