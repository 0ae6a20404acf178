//! `ejctl config set` assignments (`KEY=VALUE`): parsing and applying them never panics.
#![no_main]

use ejctl::config::JobConfig;
use ejctl::ops::assign::{apply_assignment, parse_assignments};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let raw: Vec<String> = text.split('\n').map(str::to_string).collect();
    if let Ok(assignments) = parse_assignments(&raw) {
        let mut config = JobConfig::new("fuzz", 3);
        for a in &assignments {
            apply_assignment(&mut config, a);
        }
        let _ = ejctl::config::validate::check(&config);
    }
});
