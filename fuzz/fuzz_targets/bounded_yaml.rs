//! Registry YAML through the bounded decoder: the pre-scan and every decode behind it never
//! panic, refusals agree, and what is admitted decodes to a value the expansion limit bounds.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ejctl_fuzz::bounded_yaml(data));
