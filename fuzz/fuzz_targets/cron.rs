//! Quartz cron expressions: parsing never panics, and an accepted expression's next fires are
//! increasing (computing them never panics or loops forever).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ejctl_fuzz::cron(data));
