//! An instance node (`jobInstanceId` / `serverIp` YAML): decoding never panics.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ejctl_fuzz::instance_yaml(data));
