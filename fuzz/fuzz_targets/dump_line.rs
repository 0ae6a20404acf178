//! The dump protocol: request lines, and the IP masking applied to every answered line.
#![no_main]

use ejctl::registry::snapshot::{IpMasker, dump_line, parse_dump_request};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some(job) = parse_dump_request(&text) {
        assert!(!job.contains('@'));
    }
    let mut masker = IpMasker::new(true);
    let line = dump_line("/job/instances/x", &text, None);
    let _ = masker.mask(&line);
});
