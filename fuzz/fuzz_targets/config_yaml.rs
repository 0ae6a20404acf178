//! A job configuration node (ElasticJob's YAML): decoding never panics, and what decodes
//! re-encodes to YAML that decodes to the same fields. (Keys ejctl does not model are kept as
//! written; a garbage YAML tag on one of them may be normalised on the way, so they are not
//! compared.)
#![no_main]

use ejctl::config::JobConfig;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(mut config) = JobConfig::from_yaml(&text) {
        let _ = ejctl::config::validate::check(&config);
        let mut again = JobConfig::from_yaml(&config.to_yaml()).expect("re-encoded configuration decodes");
        config.preserved.clear();
        again.preserved.clear();
        assert_eq!(again, config);
    }
});
