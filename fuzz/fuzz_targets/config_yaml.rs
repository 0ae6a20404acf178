//! A job configuration node (ElasticJob's YAML): decoding never panics, and what decodes
//! re-encodes to YAML that decodes to the same fields. (Keys ejctl does not model are kept as
//! written; a garbage YAML tag on one of them may be normalised on the way, so they are not
//! compared.)
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ejctl_fuzz::config_yaml(data));
