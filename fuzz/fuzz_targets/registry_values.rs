//! Small registry values: trigger tokens, job types, start stamps, server statuses and trigger
//! results decode without panicking.
#![no_main]

use ejctl::registry::codec::{self, JobType, ServerStatus, TriggerResult};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(token) = codec::decode_trigger(data) {
        assert_eq!(codec::decode_trigger(&codec::encode_trigger(Some(&token))), Some(token));
    }
    let _ = JobType::decode(data);
    let _ = codec::decode_millis(data);
    let _ = codec::decode_misfire(data);
    let _ = ServerStatus::decode(data);
    let _ = TriggerResult::decode(data);
});
