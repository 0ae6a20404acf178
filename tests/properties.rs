//! Property tests (proptest, with a fixed seed so that every run checks the same cases) for every parser
//! of outside input: round trips where a value is written and read back, and no panic on any
//! input where text comes from users, the registry or the network. The coverage-guided fuzz
//! targets in `fuzz/` explore the same parsers without a bound.

use std::path::Path;

use chrono::{TimeZone, Utc};
use ejctl::config::JobConfig;
use ejctl::coord::params::parse_item_parameters;
use ejctl::ops::assign::{apply_assignment, parse_assignments};
use ejctl::registry::codec::{self, InstanceId, InstanceInfo};
use ejctl::registry::snapshot::parse_dump_request;
use ejctl::schedule::cron::{self, parse_time_zone};
use proptest::prelude::*;

fn config() -> impl Strategy<Value = JobConfig> {
    let text = || proptest::option::of(any::<String>().prop_filter("non-empty", |s| !s.is_empty()));
    (
        ("[a-zA-Z][a-zA-Z0-9_.-]{0,20}", 1..10_000i32, text(), text(), text()),
        (any::<bool>(), any::<bool>(), any::<bool>(), any::<i32>(), any::<i32>()),
        (proptest::collection::btree_map("[a-z][a-z.]{0,12}", any::<String>(), 0..4), text(), any::<bool>()),
        proptest::collection::vec("[A-Za-z]{1,10}", 0..3),
    )
        .prop_map(|((name, total, parameter, description, label), flags, (props, items, disabled), listeners)| {
            let mut c = JobConfig::new(&name, total);
            c.cron = Some("0/5 * * * * ?".to_string());
            c.job_parameter = parameter;
            c.description = description;
            c.label = label;
            (c.monitor_execution, c.failover, c.misfire, c.max_time_diff_seconds, c.reconcile_interval_minutes) = flags;
            c.props = props.into();
            c.sharding_item_parameters = items;
            c.disabled = disabled;
            c.job_listener_types = listeners;
            c
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x656a_6374_6c00),
        ..ProptestConfig::default()
    })]

    /// What ejctl writes to a config node it reads back unchanged, whatever the strings hold.
    #[test]
    fn config_yaml_round_trips(c in config()) {
        let yaml = c.to_yaml();
        let back = JobConfig::from_yaml(&yaml).map_err(|e| TestCaseError::fail(format!("{e}\n{yaml}")))?;
        prop_assert_eq!(back, c, "{}", yaml);
    }

    /// Any text as a config node: an error or a configuration, never a panic; and what decodes
    /// re-encodes to YAML that decodes to the same fields.
    #[test]
    fn config_yaml_never_panics(text in any::<String>()) {
        if let Ok(mut c) = JobConfig::from_yaml(&text) {
            let _ = ejctl::coord::validate::check(&c);
            let mut again = JobConfig::from_yaml(&c.to_yaml()).map_err(|e| TestCaseError::fail(e.to_string()))?;
            c.preserved.clear();
            again.preserved.clear();
            prop_assert_eq!(again, c);
        }
    }

    /// Item parameters written as ElasticJob's `k=v,k=v` parse back to the same map.
    #[test]
    fn item_parameters_round_trip(items in proptest::collection::btree_map(any::<i32>(), "[^,=\\x00-\\x20]([^,=]*[^,=\\x00-\\x20])?", 0..8)) {
        let text = items.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",");
        prop_assert_eq!(parse_item_parameters(&text).unwrap(), items);
    }

    #[test]
    fn item_parameters_never_panic(text in any::<String>()) {
        let _ = parse_item_parameters(&text);
    }

    /// Instance YAML round trips for every IPv4 address and pid.
    #[test]
    fn instance_yaml_round_trips(ip in any::<[u8; 4]>(), pid in any::<u32>(), labels in proptest::option::of("[a-z,]{1,10}")) {
        let ip = format!("{}.{}.{}.{}", ip[0], ip[1], ip[2], ip[3]);
        let id = InstanceId::new(&ip, pid);
        let mut info = InstanceInfo::new(&id);
        info.labels = labels;
        let back = InstanceInfo::from_yaml(&info.to_yaml(), "fallback").unwrap();
        prop_assert_eq!(back, info);
    }

    #[test]
    fn instance_yaml_never_panics(text in any::<String>()) {
        let _ = InstanceInfo::from_yaml(&text, "10.0.0.1@-@1");
    }

    /// Cron: any text parses or is refused; an accepted expression's fires increase.
    #[test]
    fn cron_never_panics(text in any::<String>()) {
        let _ = cron::parse(&text);
    }

    #[test]
    fn cron_fires_increase(
        second in 0..60u32, minute in proptest::option::of(0..60u32), step in 1..30u32,
        hours in "(\\*|[0-9]|1[0-9]|2[0-3])", zone in "GMT([+-]([0-9]|1[0-4])(:[0-5][0-9])?)?",
    ) {
        let minute = minute.map_or_else(|| format!("0/{step}"), |m| m.to_string());
        let expr = format!("{second} {minute} {hours} * * ?");
        let parsed = cron::parse(&expr).unwrap();
        let tz = parse_time_zone(&zone).unwrap();
        let start = Utc.with_ymd_and_hms(2026, 10, 25, 0, 0, 0).unwrap();
        let mut last = start;
        for next in parsed.iter_after(start, &tz).take(5) {
            prop_assert!(next > last, "{} in {}: {} after {}", expr, zone, next, last);
            prop_assert_eq!(chrono::Timelike::second(&next), second);
            last = next;
        }
    }

    /// Time zones: any text parses or is refused; `GMT±H[H][:MM]` always parses.
    #[test]
    fn time_zones(text in any::<String>(), hours in 0..24u32, minutes in 0..60u32, sign in "[+-]") {
        let _ = parse_time_zone(&text);
        let zone = format!("GMT{sign}{hours}:{minutes:02}");
        prop_assert!(parse_time_zone(&zone).is_ok(), "{}", zone);
    }

    /// `config set` assignments: parsing and applying any of them never panics.
    #[test]
    fn assignments_never_panic(raw in proptest::collection::vec(any::<String>(), 0..4)) {
        if let Ok(assignments) = parse_assignments(&raw) {
            let mut c = JobConfig::new("j", 1);
            for a in &assignments {
                apply_assignment(&mut c, a);
            }
        }
    }

    /// Job files: any text is a job file or a one-line error naming the file.
    #[test]
    fn job_files_never_panic(text in any::<String>()) {
        if let Err(e) = ejctl::jobfile::check_text(Path::new("p.toml"), &text) {
            let message = e.to_string();
            prop_assert!(message.starts_with("p.toml"), "{}", message);
        }
    }

    /// Dump requests: `dump@{job}` names the job; anything else names none.
    #[test]
    fn dump_requests(job in "[a-zA-Z0-9_.-]{1,30}", noise in any::<String>()) {
        let line = format!("dump@{job}\r\n");
        prop_assert_eq!(parse_dump_request(&line), Some(job.as_str()));
        if let Some(named) = parse_dump_request(&noise) {
            prop_assert!(noise.starts_with("dump@") && !named.contains('@'));
        }
    }

    /// Trigger tokens round trip; other small values decode without panicking.
    #[test]
    fn registry_values(token in "[a-zA-Z0-9-]{1,40}", data in any::<Vec<u8>>()) {
        prop_assert_eq!(codec::decode_trigger(&codec::encode_trigger(Some(&token))), Some(token));
        let _ = codec::decode_trigger(&data);
        let _ = codec::decode_millis(&data);
        let _ = codec::JobType::decode(&data);
        let _ = codec::TriggerResult::decode(&data);
    }
}
