//! The bodies of the fuzz targets, one function per target of `fuzz_targets/`, each taking the
//! raw input. They are kept apart from the targets' `fuzz_target!` wrappers so that the main
//! crate's test suite runs the same bodies over the seed corpus and a bounded number of mutated
//! inputs (`tests/fuzz.rs`), without the instrumented build cargo-fuzz needs; the long,
//! coverage-guided runs are `cargo bench --bench fuzz`.

use std::sync::OnceLock;
use std::time::Duration;

use chrono::{TimeZone, Utc};
use ejctl::config::JobConfig;
use ejctl::exec::RunControl;
use ejctl::exec::context::ShardingContext;
use ejctl::exec::http::{self, HttpSpec};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A target's body: it returns for any input, or panics on a bug.
pub type Body = fn(&[u8]);

/// Every target: its name (the directory of its corpus) and its body.
pub const TARGETS: &[(&str, Body)] = &[
    ("assignments", assignments),
    ("bounded_yaml", bounded_yaml),
    ("config_yaml", config_yaml),
    ("cron", cron),
    ("dump_line", dump_line),
    ("http_response", http_response),
    ("instance_yaml", instance_yaml),
    ("item_parameters", item_parameters),
    ("job_file", job_file),
    ("registry_values", registry_values),
    ("time_zone", time_zone),
];

/// `ejctl config set` assignments (`KEY=VALUE`): parsing and applying them never panics.
pub fn assignments(data: &[u8]) {
    use ejctl::ops::assign::{apply_assignment, parse_assignments};
    let text = String::from_utf8_lossy(data);
    let raw: Vec<String> = text.split('\n').map(str::to_string).collect();
    if let Ok(assignments) = parse_assignments(&raw) {
        let mut config = JobConfig::new("fuzz", 3);
        for a in &assignments {
            apply_assignment(&mut config, a);
        }
        let _ = ejctl::coord::validate::check(&config);
    }
}

/// Registry YAML through the bounded decoder (`registry::codec::bounded`): the pre-scan and
/// every decode behind it never panic; a text the pre-scan refuses is refused, for the same
/// reason, by the generic decode and the configuration decode; an admitted text decodes to a
/// value whose size the expansion limit bounds (an alias bomb the scan under-estimated would
/// not); and the unmodelled entries a configuration keeps pass the pre-scan on their own.
pub fn bounded_yaml(data: &[u8]) {
    use ejctl::registry::codec::bounded;
    use ejctl::registry::{NodeData, Stat, TreeNode};
    let text = String::from_utf8_lossy(data);
    let checked = bounded::check(&text);
    let value = bounded::value(&text, "fuzz").map_err(|e| e.reason);
    let config = JobConfig::from_yaml(&text).map_err(|e| e.reason);
    match checked {
        Err(reason) => {
            assert_eq!(value, Err(reason.clone()));
            assert_eq!(config, Err(reason));
        }
        Ok(()) => {
            if let Ok(config) = &config {
                for (key, block) in &config.preserved {
                    assert!(bounded::check(block).is_ok(), "the kept entry {key} does not pass the pre-scan");
                }
                let _ = ejctl::ops::config::config_json(config);
            }
            // `job show`'s decode: the value as JSON, a few bytes a node at most.
            let node = |path: &str, data: &[u8]| TreeNode {
                path: path.to_string(),
                node: NodeData { data: data.to_vec(), stat: Stat::default() },
            };
            let job = ejctl::ops::read::JobData::from_nodes("j", &[node("/j", b"SCRIPT"), node("/j/config", data)]);
            let shown = ejctl::ops::report::job_detail("fuzz", &job, Utc::now()).config.to_string().len();
            assert!(
                shown <= 16 * bounded::MAX_EXPANDED_BYTES,
                "{} bytes of YAML shown as {shown} bytes of JSON",
                text.len()
            );
        }
    }
}

/// A job configuration node (ElasticJob's YAML): decoding never panics, and what decodes
/// re-encodes to YAML that decodes to the same fields. (Keys ejctl does not model are kept as
/// written; a garbage YAML tag on one of them may be normalised on the way, so they are not
/// compared.)
pub fn config_yaml(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(mut config) = JobConfig::from_yaml(&text) {
        let _ = ejctl::coord::validate::check(&config);
        let mut again = JobConfig::from_yaml(&config.to_yaml()).expect("re-encoded configuration decodes");
        config.preserved.clear();
        again.preserved.clear();
        assert_eq!(again, config);
    }
}

/// Quartz cron expressions: parsing never panics, and an accepted expression's next fires are
/// increasing (computing them never panics or loops forever).
pub fn cron(data: &[u8]) {
    use ejctl::schedule::cron::{self, parse_time_zone};
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(expr) = cron::parse(text) else { return };
    let zone = parse_time_zone("GMT+8").expect("a fixed zone");
    let start = Utc.with_ymd_and_hms(2026, 3, 29, 0, 59, 58).single().expect("a valid instant");
    let mut last = start;
    for next in expr.iter_after(start, &zone).take(5) {
        assert!(next > last, "{text}: {next} after {last}");
        last = next;
    }
}

/// The dump protocol: request lines, and the IP masking applied to every answered line.
pub fn dump_line(data: &[u8]) {
    use ejctl::registry::snapshot::{IpMasker, dump_line, parse_dump_request};
    let text = String::from_utf8_lossy(data);
    if let Some(job) = parse_dump_request(&text) {
        assert!(!job.contains('@'));
    }
    let mut masker = IpMasker::new(true);
    let line = dump_line("/job/instances/x", &text, None);
    let _ = masker.mask(&line);
}

/// A loopback server that answers HTTP jobs, and the job that asks it.
struct Harness {
    runtime: tokio::runtime::Runtime,
    listener: tokio::net::TcpListener,
    spec: HttpSpec,
}

fn harness() -> &'static Harness {
    static HARNESS: OnceLock<Harness> = OnceLock::new();
    HARNESS.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).expect("bind");
        let address = listener.local_addr().expect("address");
        let props = [
            ("http.uri".to_string(), format!("http://{address}/run")),
            ("http.method".to_string(), "GET".to_string()),
            ("http.read.timeout.milliseconds".to_string(), "200".to_string()),
        ]
        .into_iter()
        .collect();
        let spec = HttpSpec::from_props(&props).expect("spec");
        Harness { runtime, listener, spec }
    })
}

/// HTTP responses as an HTTP job sees them: a loopback server answers the job's request with the
/// input bytes, and the job's outcome is a success or a failure, never a panic or a hang.
pub fn http_response(data: &[u8]) {
    let h = harness();
    let context = ShardingContext {
        job_name: "fuzz".into(),
        task_id: "fuzz@-@0@-@READY@-@127.0.0.1@-@1".into(),
        sharding_total_count: 1,
        job_parameter: String::new(),
        sharding_item: 0,
        sharding_parameter: None,
    };
    h.runtime.block_on(async {
        let serve = async {
            let (mut socket, _) = h.listener.accept().await.expect("accept");
            let mut buf = [0u8; 4096];
            let _ = tokio::time::timeout(Duration::from_millis(200), socket.read(&mut buf)).await;
            let _ = socket.write_all(data).await;
            let _ = socket.shutdown().await;
        };
        let run = tokio::time::timeout(Duration::from_secs(5), http::run(&h.spec, &context, RunControl::detached()));
        let (outcome, ()) = tokio::join!(run, serve);
        let outcome = outcome.expect("an http run ends within its timeouts");
        assert!(outcome.success || outcome.message.is_some());
    });
}

/// An instance node (`jobInstanceId` / `serverIp` YAML): decoding never panics.
pub fn instance_yaml(data: &[u8]) {
    use ejctl::registry::codec::InstanceInfo;
    let text = String::from_utf8_lossy(data);
    if let Ok(info) = InstanceInfo::from_yaml(&text, "10.0.0.1@-@1") {
        let _ = InstanceInfo::from_yaml(&info.to_yaml(), "10.0.0.1@-@1").expect("re-encoded instance decodes");
    }
}

/// `shardingItemParameters` (`0=a,1=b`): parsing never panics, and values come out trimmed as
/// Java's `String.trim` does.
pub fn item_parameters(data: &[u8]) {
    use ejctl::coord::params::parse_item_parameters;
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(items) = parse_item_parameters(text) {
        for value in items.values() {
            assert_eq!(value.trim_matches(|c| c <= ' '), value, "{text:?}");
        }
    }
}

/// Job files (TOML): parsing and validation never panic.
pub fn job_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = ejctl::jobfile::check_text(std::path::Path::new("fuzz.toml"), text);
}

/// Small registry values: trigger tokens, job types, start stamps, server statuses and trigger
/// results decode without panicking.
pub fn registry_values(data: &[u8]) {
    use ejctl::registry::codec::{self, JobType, ServerStatus, TriggerResult};
    if let Some(token) = codec::decode_trigger(data) {
        assert_eq!(codec::decode_trigger(&codec::encode_trigger(Some(&token))), Some(token));
    }
    let _ = JobType::decode(data);
    let _ = codec::decode_millis(data);
    let _ = codec::decode_misfire(data);
    let _ = ServerStatus::decode(data);
    let _ = TriggerResult::decode(data);
}

/// Job time zones (`GMT+8`, `GMT-05:30`, IANA names): parsing never panics.
pub fn time_zone(data: &[u8]) {
    use ejctl::schedule::cron::parse_time_zone;
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(zone) = parse_time_zone(text) {
        let _ = zone.is_java_compatible();
    }
}
