//! Job files (TOML): parsing and validation never panic; an accepted file defines a job.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(jobs) = ejctl::jobfile::check_text(std::path::Path::new("fuzz.toml"), text) {
        let _ = jobs;
    }
});
