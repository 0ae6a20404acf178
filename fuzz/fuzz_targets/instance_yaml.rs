//! An instance node (`jobInstanceId` / `serverIp` YAML): decoding never panics.
#![no_main]

use ejctl::registry::codec::InstanceInfo;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(info) = InstanceInfo::from_yaml(&text, "10.0.0.1@-@1") {
        let _ = InstanceInfo::from_yaml(&info.to_yaml(), "10.0.0.1@-@1").expect("re-encoded instance decodes");
    }
});
