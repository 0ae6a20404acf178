//! Commands that need no registry, end to end through the `ejctl` binary: `ejctl cron next` (fixed
//! offsets, UTC, an IANA zone across both DST changes, Quartz specials, every output format, bad
//! input) and `ejctl sharding plan` (the vectors of
//! docs/src/design/compatibility.md#sharding-strategies in the unit tests' order and in
//! ElasticJob's production order, every output format, bad input). Then `ejctl run` with bad job
//! files — one case per class of error, each with its exact one-line message, exit 2, nothing on
//! stdout and nothing written to the real ZooKeeper the files point at — and one valid file that
//! runs until SIGTERM and leaves the registry.

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::Duration;

use assert_cmd::Command;
use ejctl::registry::Registry;
use ejctl::registry::path::JobPaths;
use serde_json::{Value, json};

use crate::support::cluster::signal;
use crate::support::{ZkServer, eventually, unique_ns, wait_exit, zk_options, zk_registry};

/// `ejctl` without environment that could change its behaviour, and with backtraces asked for:
/// an error must still be one line.
fn ejctl() -> Command {
    let mut cmd = crate::support::ejctl();
    cmd.env("RUST_BACKTRACE", "1").timeout(Duration::from_secs(60));
    cmd
}

/// Runs `ejctl ARGS`, expecting success with nothing on stderr; returns stdout.
fn stdout_of(args: &[&str]) -> String {
    let out = ejctl().args(args).assert().success().stderr("").get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

/// Runs `ejctl ARGS`, expecting exit 2, nothing on stdout and exactly `ejctl: error: {message}`.
fn usage_error(args: &[&str], message: &str) {
    ejctl().args(args).assert().code(2).stdout("").stderr(format!("ejctl: error: {message}\n"));
}

/// Runs `ejctl ARGS`, expecting a clap usage error (exit 2) whose first line is `first_line`
/// after the `ejctl: ` every error starts with.
fn clap_error(args: &[&str], first_line: &str) {
    let out = ejctl().args(args).assert().code(2).stdout("").get_output().stderr.clone();
    let err = String::from_utf8(out).unwrap();
    assert_eq!(err.lines().next(), Some(format!("ejctl: {first_line}").as_str()), "{args:?}: {err}");
    assert!(!err.contains("panicked") && !err.contains("backtrace"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// ejctl cron next
// ---------------------------------------------------------------------------------------------

/// `ejctl cron next EXPR --time-zone TZ --after AFTER -n N -o plain`, as lines.
fn fires(expr: &str, tz: &str, after: &str, n: usize) -> Vec<String> {
    let count = n.to_string();
    stdout_of(&["cron", "next", expr, "--time-zone", tz, "--after", after, "-n", &count, "-o", "plain"])
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn cron_next_in_a_fixed_offset_zone_in_every_format() {
    let args = ["cron", "next", "0 0 12 * * ?", "--time-zone", "GMT+8", "--after", "2024-03-01T00:00:00Z", "-n", "3"];
    let expected = "2024-03-01T12:00:00+08:00\n2024-03-02T12:00:00+08:00\n2024-03-03T12:00:00+08:00\n";
    // table (the default) and plain: one RFC 3339 instant per line, in the zone's offset.
    assert_eq!(stdout_of(&args), expected);
    assert_eq!(stdout_of(&[&args[..], &["-o", "table"]].concat()), expected);
    assert_eq!(stdout_of(&[&args[..], &["-o", "plain"]].concat()), expected);

    // json: one document; the zone normalised as Java writes it, `after` in UTC.
    let doc = json!({
        "expression": "0 0 12 * * ?",
        "timeZone": "GMT+08:00",
        "after": "2024-03-01T00:00:00+00:00",
        "next": ["2024-03-01T12:00:00+08:00", "2024-03-02T12:00:00+08:00", "2024-03-03T12:00:00+08:00"],
    });
    let out = stdout_of(&[&args[..], &["-o", "json"]].concat());
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap(), doc, "{out}");
    // yaml carries the same document.
    let out = stdout_of(&[&args[..], &["-o", "yaml"]].concat());
    assert_eq!(serde_yaml_ng::from_str::<Value>(&out).unwrap(), doc, "{out}");

    // Negative offsets with minutes; `--after` in another offset is the same instant.
    let out = stdout_of(&[
        "cron",
        "next",
        "0/20 * * * * ?",
        "--time-zone",
        "GMT-0530",
        "--after",
        "2024-03-01T05:30:00+05:30",
        "-n",
        "2",
        "-o",
        "json",
    ]);
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap(),
        json!({
            "expression": "0/20 * * * * ?",
            "timeZone": "GMT-05:30",
            "after": "2024-03-01T00:00:00+00:00",
            "next": ["2024-02-29T18:30:20-05:30", "2024-02-29T18:30:40-05:30"],
        })
    );

    // Without -n: five instants.
    let out = stdout_of(&["cron", "next", "0 0 * * * ?", "--time-zone", "GMT", "--after", "2024-03-01T00:00:00Z"]);
    assert_eq!(
        out,
        "2024-03-01T01:00:00+00:00\n2024-03-01T02:00:00+00:00\n2024-03-01T03:00:00+00:00\n\
         2024-03-01T04:00:00+00:00\n2024-03-01T05:00:00+00:00\n"
    );
}

#[test]
fn cron_next_is_strictly_after_the_given_instant() {
    // A fire exactly at `--after` is not listed; sub-second parts of `--after` are kept in the
    // document and do not move the next fire.
    assert_eq!(
        fires("0 0 0 * * ?", "UTC", "2024-03-01T00:00:00Z", 2),
        ["2024-03-02T00:00:00+00:00", "2024-03-03T00:00:00+00:00"]
    );
    assert_eq!(
        fires("* * * * * ?", "UTC", "2024-03-01T00:00:00.999Z", 2),
        ["2024-03-01T00:00:01+00:00", "2024-03-01T00:00:02+00:00"]
    );
    let out = stdout_of(&[
        "cron",
        "next",
        "0 0 12 * * ?",
        "--time-zone",
        "UTC",
        "--after",
        "2024-03-01T00:00:00.500+05:30",
        "-n",
        "1",
        "-o",
        "json",
    ]);
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["after"], "2024-02-29T18:30:00.500+00:00");
    assert_eq!(doc["next"], json!(["2024-03-01T12:00:00+00:00"]));
}

#[test]
fn cron_next_in_utc_with_quartz_specials() {
    let cases: &[(&str, &str, [&str; 4])] = &[
        // L: the last day of the month (2024 is a leap year).
        (
            "0 0 12 L * ?",
            "2024-02-01T00:00:00Z",
            [
                "2024-02-29T12:00:00+00:00",
                "2024-03-31T12:00:00+00:00",
                "2024-04-30T12:00:00+00:00",
                "2024-05-31T12:00:00+00:00",
            ],
        ),
        // 15W: the weekday nearest the 15th (Sat 15 June -> Fri 14; Sun 15 Sept -> Mon 16).
        (
            "0 0 9 15W * ?",
            "2024-06-01T00:00:00Z",
            [
                "2024-06-14T09:00:00+00:00",
                "2024-07-15T09:00:00+00:00",
                "2024-08-15T09:00:00+00:00",
                "2024-09-16T09:00:00+00:00",
            ],
        ),
        // LW: the last weekday of the month (Sat 31 Aug -> Fri 30; Sat 30 Nov -> Fri 29).
        (
            "0 0 9 LW * ?",
            "2024-08-01T00:00:00Z",
            [
                "2024-08-30T09:00:00+00:00",
                "2024-09-30T09:00:00+00:00",
                "2024-10-31T09:00:00+00:00",
                "2024-11-29T09:00:00+00:00",
            ],
        ),
        // 6#3: the third Friday (day-of-week 1-7 = SUN-SAT).
        (
            "0 0 10 ? * 6#3",
            "2024-03-01T00:00:00Z",
            [
                "2024-03-15T10:00:00+00:00",
                "2024-04-19T10:00:00+00:00",
                "2024-05-17T10:00:00+00:00",
                "2024-06-21T10:00:00+00:00",
            ],
        ),
        // 5L: the last Thursday.
        (
            "0 0 10 ? * 5L",
            "2024-03-01T00:00:00Z",
            [
                "2024-03-28T10:00:00+00:00",
                "2024-04-25T10:00:00+00:00",
                "2024-05-30T10:00:00+00:00",
                "2024-06-27T10:00:00+00:00",
            ],
        ),
        // ? with a day-of-week range of names (Fri 1 March, then Mon-Wed).
        (
            "0 0 2 ? * MON-FRI",
            "2024-03-01T00:00:00Z",
            [
                "2024-03-01T02:00:00+00:00",
                "2024-03-04T02:00:00+00:00",
                "2024-03-05T02:00:00+00:00",
                "2024-03-06T02:00:00+00:00",
            ],
        ),
        // A year field and lower-case month names.
        (
            "0 15 10 1 jan,jul ? 2025-2026",
            "2024-03-01T00:00:00Z",
            [
                "2025-01-01T10:15:00+00:00",
                "2025-07-01T10:15:00+00:00",
                "2026-01-01T10:15:00+00:00",
                "2026-07-01T10:15:00+00:00",
            ],
        ),
    ];
    for (expr, after, expected) in cases {
        assert_eq!(fires(expr, "UTC", after, 4), expected, "{expr} after {after}");
    }
}

#[test]
fn cron_next_follows_dst_in_an_iana_zone() {
    // Europe/Berlin springs forward on Sunday 31 March 2024 (02:00 CET -> 03:00 CEST): a daily
    // 02:30 does not fire that day, as in Quartz.
    assert_eq!(
        fires("0 30 2 * * ?", "Europe/Berlin", "2024-03-29T00:00:00Z", 4),
        [
            "2024-03-29T02:30:00+01:00",
            "2024-03-30T02:30:00+01:00",
            "2024-04-01T02:30:00+02:00",
            "2024-04-02T02:30:00+02:00",
        ]
    );
    // An hourly job: 02:00 does not exist, the next fire is 03:00 CEST, one real hour after
    // 01:00 CET (= the --after instant, which is itself not listed).
    assert_eq!(
        fires("0 0 * * * ?", "Europe/Berlin", "2024-03-31T00:00:00Z", 3),
        ["2024-03-31T03:00:00+02:00", "2024-03-31T04:00:00+02:00", "2024-03-31T05:00:00+02:00",]
    );
    // A 01:00 daily job is not affected by the change; its offset is.
    assert_eq!(
        fires("0 0 1 * * ?", "Europe/Berlin", "2024-03-29T00:00:00Z", 4),
        [
            "2024-03-30T01:00:00+01:00",
            "2024-03-31T01:00:00+01:00",
            "2024-04-01T01:00:00+02:00",
            "2024-04-02T01:00:00+02:00",
        ]
    );
    // Falling back on Sunday 27 October 2024 (03:00 CEST -> 02:00 CET): the repeated 02:30
    // fires once, at its later (standard-time) instant, as Quartz's lenient calendar resolves it.
    assert_eq!(
        fires("0 30 2 * * ?", "Europe/Berlin", "2024-10-26T00:00:00Z", 3),
        ["2024-10-26T02:30:00+02:00", "2024-10-27T02:30:00+01:00", "2024-10-28T02:30:00+01:00",]
    );
    assert_eq!(
        fires("0 0/30 2 * * ?", "Europe/Berlin", "2024-10-26T23:00:00Z", 3),
        ["2024-10-27T02:00:00+01:00", "2024-10-27T02:30:00+01:00", "2024-10-28T02:00:00+01:00",]
    );
    // The same instants in UTC show the skipped and the repeated hour.
    assert_eq!(fires("0 0 * * * ?", "UTC", "2024-03-31T00:00:00Z", 1), ["2024-03-31T01:00:00+00:00"]);
    // The document names the IANA zone.
    let out = stdout_of(&[
        "cron",
        "next",
        "0 30 2 * * ?",
        "--time-zone",
        "Europe/Berlin",
        "--after",
        "2024-03-30T12:00:00Z",
        "-n",
        "1",
        "-o",
        "json",
    ]);
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap(),
        json!({
            "expression": "0 30 2 * * ?",
            "timeZone": "Europe/Berlin",
            "after": "2024-03-30T12:00:00+00:00",
            "next": ["2024-04-01T02:30:00+02:00"],
        })
    );
}

#[test]
fn cron_next_without_a_time_zone_uses_the_local_zone() {
    let out = ejctl()
        .env("TZ", "Asia/Tokyo")
        .args(["cron", "next", "0 0 12 * * ?", "--after", "2024-03-01T00:00:00Z", "-n", "2"])
        .assert()
        .success()
        .stderr("")
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(out).unwrap(), "2024-03-01T12:00:00+09:00\n2024-03-02T12:00:00+09:00\n");
}

#[test]
fn cron_next_for_an_expression_that_never_fires_again() {
    let args = ["cron", "next", "0 0 12 * * ? 2020", "--time-zone", "UTC", "--after", "2024-03-01T00:00:00Z"];
    // plain: no lines at all.
    assert_eq!(stdout_of(&[&args[..], &["-o", "plain"]].concat()), "");
    // json: an empty list.
    let out = stdout_of(&[&args[..], &["-o", "json"]].concat());
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap(),
        json!({
            "expression": "0 0 12 * * ? 2020",
            "timeZone": "UTC",
            "after": "2024-03-01T00:00:00+00:00",
            "next": [],
        })
    );
    // table: a note for people. (It currently lacks its final newline; see the report.)
    assert_eq!(stdout_of(&args).trim_end(), "(the expression never fires again)");
    // A year range that has ended.
    assert_eq!(fires("0 0 0 1 1 ? 2000-2023", "GMT+8", "2024-01-01T00:00:00Z", 3), Vec::<String>::new());
}

#[test]
fn cron_next_rejects_bad_input() {
    // Invalid expressions: exit 2, the parser's one-line reason, nothing on stdout, in any format.
    let both_days = "invalid cron expression '0 0 12 * * *': exactly one of day-of-month and day-of-week must be '?'";
    usage_error(&["cron", "next", "0 0 12 * * *"], both_days);
    usage_error(&["cron", "next", "0 0 12 * * *", "-o", "json"], both_days);
    usage_error(&["cron", "next", "0 0 12 * * *", "-o", "plain"], both_days);
    usage_error(
        &["cron", "next", "nope"],
        "invalid cron expression 'nope': expected 6 or 7 fields (second minute hour day-of-month month \
         day-of-week [year]), found 1",
    );
    // Invalid time zones: an unknown name, a GMT offset out of range.
    usage_error(
        &["cron", "next", "0 0 12 * * ?", "--time-zone", "Mars/Olympus"],
        "invalid time zone 'Mars/Olympus': not a GMT offset (GMT+8, GMT+08:00, GMT-0530) nor an IANA time zone \
         name (Asia/Shanghai, UTC)",
    );
    usage_error(
        &["cron", "next", "0 0 12 * * ?", "--time-zone", "GMT+25", "-o", "json"],
        "invalid time zone 'GMT+25': expected GMT, GMT+H, GMT+HH, GMT+HHMM or GMT+HH:MM (either sign) with hours \
         0-23 and minutes 0-59",
    );
    // Invalid --after: not RFC 3339 (a date alone is not an instant either).
    usage_error(
        &["cron", "next", "0 0 12 * * ?", "--after", "yesterday"],
        "--after 'yesterday' is not an RFC 3339 instant: premature end of input",
    );
    usage_error(
        &["cron", "next", "0 0 12 * * ?", "--after", "2024-03-01"],
        "--after '2024-03-01' is not an RFC 3339 instant: premature end of input",
    );
    // The expression is checked before the zone and the instant.
    usage_error(&["cron", "next", "0 0 12 * * *", "--time-zone", "Mars/Olympus", "--after", "x"], both_days);
    // clap usage errors.
    clap_error(
        &["cron", "next", "0 0 12 * * ?", "-n", "abc"],
        "error: invalid value 'abc' for '--count <N>': invalid digit found in string",
    );
    clap_error(&["cron", "next"], "error: the following required arguments were not provided:");
}

// ---------------------------------------------------------------------------------------------
// ejctl sharding plan
// ---------------------------------------------------------------------------------------------

/// `ejctl sharding plan ... -o plain` as `(instance, items)` rows.
fn plan(strategy: &str, job: &str, instances: &str, total: u32, keep_order: bool) -> Vec<(String, String)> {
    let total = total.to_string();
    let mut args = vec![
        "sharding",
        "plan",
        "--strategy",
        strategy,
        "--job-name",
        job,
        "--instances",
        instances,
        "--total",
        &total,
        "-o",
        "plain",
    ];
    if keep_order {
        args.push("--keep-order");
    }
    stdout_of(&args)
        .lines()
        .map(|l| {
            let (instance, items) = l.split_once('\t').unwrap_or_else(|| panic!("not tab-separated: {l:?}"));
            (instance.to_string(), items.to_string())
        })
        .collect()
}

/// A sharding vector: strategy, job name, instances, total, expected `(instance, items)` rows.
type Vector = (&'static str, &'static str, &'static str, u32, &'static [(&'static str, &'static str)]);

fn rows(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected.iter().map(|(i, items)| ((*i).to_string(), (*items).to_string())).collect()
}

#[test]
fn sharding_plan_matches_the_reference_vectors() {
    const H3: &str = "host0@-@0,host1@-@0,host2@-@0";
    const S3: &str = "host0,host1,host2";
    // (strategy, job name, instances in the unit tests' ascending order, total, expected)
    let cases: &[Vector] = &[
        // AverageAllocationJobShardingStrategyTest
        ("AVG_ALLOCATION", "test_job", "host0@-@0", 3, &[("host0@-@0", "0,1,2")]),
        ("AVG_ALLOCATION", "test_job", H3, 2, &[("host0@-@0", "0"), ("host1@-@0", "1"), ("host2@-@0", "")]),
        (
            "AVG_ALLOCATION",
            "test_job",
            H3,
            9,
            &[("host0@-@0", "0,1,2"), ("host1@-@0", "3,4,5"), ("host2@-@0", "6,7,8")],
        ),
        ("AVG_ALLOCATION", "test_job", H3, 8, &[("host0@-@0", "0,1,6"), ("host1@-@0", "2,3,7"), ("host2@-@0", "4,5")]),
        (
            "AVG_ALLOCATION",
            "test_job",
            H3,
            10,
            &[("host0@-@0", "0,1,2,9"), ("host1@-@0", "3,4,5"), ("host2@-@0", "6,7,8")],
        ),
        // OdevitySortByNameJobShardingStrategyTest: "0".."3" hash to 48..51; even reverses the list.
        ("ODEVITY", "1", S3, 2, &[("host0", "0"), ("host1", "1"), ("host2", "")]),
        ("ODEVITY", "0", S3, 2, &[("host2", "0"), ("host1", "1"), ("host0", "")]),
        ("ODEVITY", "2", S3, 2, &[("host2", "0"), ("host1", "1"), ("host0", "")]),
        ("ODEVITY", "3", S3, 2, &[("host0", "0"), ("host1", "1"), ("host2", "")]),
        // RotateServerByNameJobShardingStrategyTest: offsets 48%3=0, 49%3=1, 50%3=2, 51%3=0.
        ("ROUND_ROBIN", "0", S3, 2, &[("host0", "0"), ("host1", "1"), ("host2", "")]),
        ("ROUND_ROBIN", "1", S3, 2, &[("host1", "0"), ("host2", "1"), ("host0", "")]),
        ("ROUND_ROBIN", "2", S3, 2, &[("host2", "0"), ("host0", "1"), ("host1", "")]),
        ("ROUND_ROBIN", "3", S3, 2, &[("host0", "0"), ("host1", "1"), ("host2", "")]),
        // The reference's extra vectors: "test_job" hashes to -1146456432 (even, |h|%3=0).
        ("ODEVITY", "test_job", S3, 5, &[("host2", "0,3"), ("host1", "1,4"), ("host0", "2")]),
        ("ROUND_ROBIN", "test_job", S3, 5, &[("host0", "0,3"), ("host1", "1,4"), ("host2", "2")]),
        ("AVG_ALLOCATION", "", "a,b,c,d", 10, &[("a", "0,1,8"), ("b", "2,3,9"), ("c", "4,5"), ("d", "6,7")]),
        // "polygenelubricants" hashes to i32::MIN: Java throws; ejctl normalises the offset -2 to 1.
        ("ROUND_ROBIN", "polygenelubricants", S3, 3, &[("host1", "0"), ("host2", "1"), ("host0", "2")]),
        // More instances than items: the rest are listed with empty lists.
        ("AVG_ALLOCATION", "j", "a,b,c,d,e", 2, &[("a", "0"), ("b", "1"), ("c", ""), ("d", ""), ("e", "")]),
    ];
    for (strategy, job, instances, total, expected) in cases {
        assert_eq!(
            plan(strategy, job, instances, *total, true),
            rows(expected),
            "{strategy} job '{job}' [{instances}] total {total}"
        );
    }

    // SingleShardingBalanceJobShardingStrategyTest: one item, on exactly one instance, and every
    // instance listed (which one depends on the clock).
    let result = plan("SINGLE_SHARDING_BALANCE", "JobName", S3, 1, true);
    let mut instances: Vec<&str> = result.iter().map(|(i, _)| i.as_str()).collect();
    instances.sort_unstable();
    assert_eq!(instances, ["host0", "host1", "host2"]);
    let items: Vec<&str> = result.iter().map(|(_, items)| items.as_str()).filter(|s| !s.is_empty()).collect();
    assert_eq!(items, ["0"], "{result:?}");
}

#[test]
fn sharding_plan_uses_elasticjob_instance_order_without_keep_order() {
    const S3: &str = "host0,host1,host2";
    // Production order is reverse lexicographic: the same vector gives host2 the first block.
    assert_eq!(
        plan("AVG_ALLOCATION", "test_job", S3, 8, false),
        rows(&[("host2", "0,1,6"), ("host1", "2,3,7"), ("host0", "4,5")])
    );
    assert_ne!(plan("AVG_ALLOCATION", "test_job", S3, 8, false), plan("AVG_ALLOCATION", "test_job", S3, 8, true));
    // The order the ids are given in does not matter without --keep-order.
    assert_eq!(
        plan("AVG_ALLOCATION", "test_job", "host1,host0,host2", 8, false),
        plan("AVG_ALLOCATION", "test_job", S3, 8, false)
    );
    // Lexicographic, not numeric: 10.0.0.9 > 10.0.0.2 > 10.0.0.10.
    assert_eq!(
        plan("AVG_ALLOCATION", "j", "10.0.0.10@-@1,10.0.0.2@-@1,10.0.0.9@-@1", 4, false),
        rows(&[("10.0.0.9@-@1", "0,3"), ("10.0.0.2@-@1", "1"), ("10.0.0.10@-@1", "2")])
    );
    // ODEVITY's real effect in production: odd hash -> descending, even hash -> ascending.
    assert_eq!(plan("ODEVITY", "1", S3, 2, false), rows(&[("host2", "0"), ("host1", "1"), ("host0", "")]));
    assert_eq!(plan("ODEVITY", "0", S3, 2, false), rows(&[("host0", "0"), ("host1", "1"), ("host2", "")]));
    // ROUND_ROBIN rotates the descending list: "1" (offset 1) starts at host1.
    assert_eq!(plan("ROUND_ROBIN", "1", S3, 2, false), rows(&[("host1", "0"), ("host0", "1"), ("host2", "")]));
    assert_eq!(plan("ROUND_ROBIN", "3", S3, 2, false), rows(&[("host2", "0"), ("host1", "1"), ("host0", "")]));
    // The default strategy is AVG_ALLOCATION, and names are matched ignoring case.
    let default = stdout_of(&["sharding", "plan", "--instances", S3, "--total", "8", "-o", "plain"]);
    assert_eq!(default, "host2\t0,1,6\nhost1\t2,3,7\nhost0\t4,5\n");
    assert_eq!(plan("round_robin", "1", S3, 2, false), plan("ROUND_ROBIN", "1", S3, 2, false));
    // Spaces around ids are ignored.
    assert_eq!(plan("AVG_ALLOCATION", "j", "host0, host1 ,host2", 8, false), plan("AVG_ALLOCATION", "j", S3, 8, false));
}

/// The cells of a table's rows (header first).
fn table_cells(text: &str) -> Vec<Vec<String>> {
    // Columns three spaces apart (cells hold no such run); a missing last cell is empty.
    let widest = text.lines().map(|l| l.split("   ").filter(|c| !c.is_empty()).count()).max().unwrap_or(0);
    text.lines()
        .map(|l| {
            let mut cells: Vec<String> =
                l.split("   ").filter(|c| !c.is_empty()).map(|c| c.trim().to_string()).collect();
            cells.resize(widest, String::new());
            cells
        })
        .collect()
}

#[test]
fn sharding_plan_formats() {
    let args =
        ["sharding", "plan", "--strategy", "odevity", "--job-name", "0", "--instances", "a,b,c,d", "--total", "2"];
    // table: INSTANCE / ITEMS headers, empty cells for instances without items.
    let table = stdout_of(&args);
    assert_eq!(table_cells(&table), [["INSTANCE", "ITEMS"], ["a", "0"], ["b", "1"], ["c", ""], ["d", ""]], "{table}");
    assert_eq!(stdout_of(&[&args[..], &["-o", "table"]].concat()), table);
    // plain: `instance<TAB>items`, no header.
    assert_eq!(stdout_of(&[&args[..], &["-o", "plain"]].concat()), "a\t0\nb\t1\nc\t\nd\t\n");
    // json: the strategy in ElasticJob's spelling, every instance with its (possibly empty) list.
    let doc = json!({
        "strategy": "ODEVITY",
        "jobName": "0",
        "total": 2,
        "assignments": [
            {"instance": "a", "items": [0]},
            {"instance": "b", "items": [1]},
            {"instance": "c", "items": []},
            {"instance": "d", "items": []},
        ],
    });
    let out = stdout_of(&[&args[..], &["-o", "json"]].concat());
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap(), doc, "{out}");
    let out = stdout_of(&[&args[..], &["-o", "yaml"]].concat());
    assert_eq!(serde_yaml_ng::from_str::<Value>(&out).unwrap(), doc, "{out}");

    // Multi-item lists in JSON, and the default job name.
    let out =
        stdout_of(&["sharding", "plan", "--instances", "x@-@1,y@-@2", "--total", "5", "-o", "json", "--keep-order"]);
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap(),
        json!({
            "strategy": "AVG_ALLOCATION",
            "jobName": "",
            "total": 5,
            "assignments": [{"instance": "x@-@1", "items": [0, 1, 4]}, {"instance": "y@-@2", "items": [2, 3]}],
        })
    );
}

#[test]
fn sharding_plan_rejects_bad_input() {
    let unknown = |name: &str| {
        format!(
            "Cannot find sharding strategy using type '{name}'. Valid types: AVG_ALLOCATION, ODEVITY, ROUND_ROBIN, \
             SINGLE_SHARDING_BALANCE"
        )
    };
    usage_error(&["sharding", "plan", "--strategy", "FANCY", "--instances", "a", "--total", "1"], &unknown("FANCY"));
    usage_error(
        &["sharding", "plan", "--strategy", "AVERAGE", "--instances", "a", "--total", "1", "-o", "json"],
        &unknown("AVERAGE"),
    );
    // Empty instance ids, wherever they are.
    for instances in ["a,,b", ",a", "a,", "", " ", "a, ,b"] {
        usage_error(
            &["sharding", "plan", "--instances", instances, "--total", "1"],
            "--instances has an empty instance id",
        );
    }
    // Missing required options and bad numbers: clap's usage errors.
    clap_error(&["sharding", "plan", "--total", "3"], "error: the following required arguments were not provided:");
    clap_error(
        &["sharding", "plan", "--instances", "a,b"],
        "error: the following required arguments were not provided:",
    );
    clap_error(
        &["sharding", "plan", "--instances", "a", "--total", "abc"],
        "error: invalid value 'abc' for '--total <TOTAL>': invalid digit found in string",
    );
    clap_error(&["sharding", "plan", "--instances", "a", "--total", "-1"], "error: unexpected argument '-1' found");
}

// ---------------------------------------------------------------------------------------------
// ejctl run with bad job files
// ---------------------------------------------------------------------------------------------

/// One class of bad job file: the files written, the files passed to `ejctl run` (in a directory
/// holding the files, so messages show bare names) and the exact message after `ejctl: error: `.
struct BadFiles {
    class: &'static str,
    files: Vec<(&'static str, String)>,
    run: Vec<&'static str>,
    message: String,
}

impl BadFiles {
    fn one(class: &'static str, text: String, message: impl Into<String>) -> BadFiles {
        BadFiles { class, files: vec![("jobs.toml", text)], run: vec!["jobs.toml"], message: message.into() }
    }
}

const HELLO: &str = "[[job]]\nname = \"hello\"\ncron = \"0/5 * * * * ?\"\ncommand = \"echo hi\"\n";

/// Every class of bad job file, each pointing at the real ZooKeeper `servers`, with [`NS`] for the
/// case's namespace, which must not exist afterwards.
fn bad_job_files(servers: &str) -> Vec<BadFiles> {
    let ns = NS;
    let registry = format!("[registry]\nservers = \"{servers}\"\nnamespace = \"{ns}\"\n");
    let with_job = |job: &str| format!("{registry}{job}");
    let hello_and = |extra: &str| with_job(&format!("{HELLO}{extra}"));
    vec![
        BadFiles::one(
            "TOML syntax error",
            with_job("[[job]]\nname = \"x\"\ncron = 0/5\ncommand = \"echo\"\n"),
            "jobs.toml:6:8: string values must be quoted, expected literal string",
        ),
        BadFiles::one(
            "duplicate TOML key",
            with_job("[[job]]\nname = \"x\"\nname = \"y\"\n"),
            "jobs.toml:6:1: duplicate key",
        ),
        BadFiles::one("unknown top-level key", format!("foo = 1\n{}", hello_and("")), "jobs.toml: unknown key 'foo'"),
        BadFiles::one(
            "unknown top-level table",
            format!("{registry}[jobs]\nname = \"x\"\n"),
            "jobs.toml: unknown key 'jobs' (did you mean 'job'?)",
        ),
        BadFiles::one(
            "unknown key in a job",
            hello_and("failvoer = true\n"),
            "jobs.toml: job 'hello': unknown key 'failvoer' (did you mean 'failover'?)",
        ),
        BadFiles::one(
            "Java key in a job",
            hello_and("shardingTotalCount = 2\n"),
            "jobs.toml: job 'hello': unknown key 'shardingTotalCount' (did you mean 'sharding_total_count'?)",
        ),
        BadFiles::one(
            "unknown key in [registry]",
            format!("{registry}foo = 1\n{HELLO}"),
            "jobs.toml: unknown key 'registry.foo'",
        ),
        BadFiles::one(
            "missing name",
            hello_and("[[job]]\ncommand = \"x\"\n"),
            "jobs.toml: name: missing in [[job]] number 2 of this file",
        ),
        BadFiles::one(
            "bad cron (both day fields)",
            with_job("[[job]]\nname = \"hello\"\ncron = \"0 0 12 * * *\"\ncommand = \"x\"\n"),
            "jobs.toml: job 'hello': cron: invalid cron expression '0 0 12 * * *': exactly one of day-of-month and \
             day-of-week must be '?'",
        ),
        BadFiles::one(
            "bad time zone",
            hello_and("time_zone = \"Mars/Olympus\"\n"),
            "jobs.toml: job 'hello': time_zone: invalid time zone 'Mars/Olympus': not a GMT offset (GMT+8, \
             GMT+08:00, GMT-0530) nor an IANA time zone name (Asia/Shanghai, UTC)",
        ),
        BadFiles::one(
            "unknown strategy",
            hello_and("job_sharding_strategy_type = \"FANCY\"\n"),
            "jobs.toml: job 'hello': job_sharding_strategy_type: Cannot find sharding strategy using type 'FANCY'. \
             Valid types: AVG_ALLOCATION, ODEVITY, ROUND_ROBIN, SINGLE_SHARDING_BALANCE",
        ),
        BadFiles::one(
            "bad sharding_item_parameters (format)",
            hello_and("sharding_total_count = 2\nsharding_item_parameters = \"0=A,,1=B\"\n"),
            "jobs.toml: job 'hello': sharding_item_parameters: Sharding item parameters '0=A,,1=B' format error, \
             should be int=xx,int=xx",
        ),
        BadFiles::one(
            "bad sharding_item_parameters (key)",
            hello_and("sharding_item_parameters = \"xxx=xxx\"\n"),
            "jobs.toml: job 'hello': sharding_item_parameters: Sharding item parameters key 'xxx' is not an integer.",
        ),
        BadFiles::one(
            "sharding_total_count = 0",
            hello_and("sharding_total_count = 0\n"),
            "jobs.toml: job 'hello': sharding_total_count: must be at least 1, got 0",
        ),
        BadFiles::one(
            "missing command",
            with_job("[[job]]\nname = \"hello\"\ncron = \"0/5 * * * * ?\"\n"),
            "jobs.toml: job 'hello': script jobs need 'command'",
        ),
        BadFiles::one(
            "command on an http job",
            with_job(
                "[[job]]\nname = \"w\"\ntype = \"http\"\nhttp_uri = \"http://127.0.0.1:1/\"\nhttp_method = \"GET\"\n\
                 command = \"echo\"\n",
            ),
            "jobs.toml: job 'w': command is only for script jobs",
        ),
        BadFiles::one(
            "option and prop conflict",
            hello_and("props = { \"script.command.line\" = \"other\" }\n"),
            "jobs.toml: job 'hello': command: conflicts with props 'script.command.line'; set only one of them",
        ),
        BadFiles::one(
            "bad servers",
            format!("[registry]\nservers = \"{servers}/chroot\"\nnamespace = \"{ns}\"\n{HELLO}"),
            format!(
                "jobs.toml: registry.servers: invalid connect string '{servers}/chroot': it has a path '/chroot'; \
                 the namespace is set separately"
            ),
        ),
        BadFiles::one(
            "bad namespace",
            format!("[registry]\nservers = \"{servers}\"\nnamespace = \"{ns}/\"\n{HELLO}"),
            format!(
                "jobs.toml: registry.namespace: namespace '{ns}/' must not start or end with '/' or contain an empty \
                 segment"
            ),
        ),
        BadFiles::one(
            "bad IP",
            format!("{registry}[instance]\nip = \"10.0.0.256\"\n{HELLO}"),
            "jobs.toml: instance.ip: '10.0.0.256' is not an IPv4 address",
        ),
        BadFiles {
            class: "duplicate job names across two files",
            files: vec![("a.toml", with_job(HELLO)), ("b.toml", HELLO.to_string())],
            run: vec!["a.toml", "b.toml"],
            message: "b.toml: job 'hello': name: also defined in a.toml".into(),
        },
        BadFiles {
            class: "different [registry] tables across two files",
            files: vec![
                ("a.toml", with_job(HELLO)),
                (
                    "b.toml",
                    format!(
                        "[registry]\nservers = \"{servers}\"\nnamespace = \"{ns}-other\"\n\
                         [[job]]\nname = \"other\"\ncommand = \"x\"\n"
                    ),
                ),
            ],
            run: vec!["a.toml", "b.toml"],
            message: "b.toml: registry: differs from the [registry] table in a.toml; the files of one run share one \
                      [registry] table"
                .into(),
        },
        BadFiles {
            class: "a missing file after a good one",
            files: vec![("jobs.toml", with_job(HELLO))],
            run: vec!["jobs.toml", "missing.toml"],
            message: "missing.toml: cannot read: No such file or directory (os error 2)".into(),
        },
        BadFiles::one(
            "no jobs at all",
            registry.clone(),
            "jobs.toml: no [[job]] table; a job file defines at least one job",
        ),
        BadFiles {
            class: "no jobs in any file",
            files: vec![("a.toml", registry.clone()), ("b.toml", "[instance]\nip = \"127.0.0.1\"\n".into())],
            run: vec!["a.toml", "b.toml"],
            message: "a.toml: no [[job]] table in any of the files (a.toml, b.toml)".into(),
        },
    ]
}

/// Stands for the namespace of one case in [`bad_job_files`].
const NS: &str = "@NS@";

/// The number of znodes on the server.
fn znode_count(server: &ZkServer) -> String {
    server.mntr().get("zk_znode_count").cloned().unwrap_or_else(|| panic!("no zk_znode_count in mntr"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_job_files_exit_2_with_one_line_and_write_nothing() {
    let server = ZkServer::start();
    // Each class gets its own namespace below `parent`, which this session owns and watches.
    let parent = unique_ns("badfiles");
    let checker = Registry::connect(zk_options(&server.connect_string(), &parent)).await.unwrap();
    let before = znode_count(&server);
    for (i, case) in bad_job_files(&server.connect_string()).into_iter().enumerate() {
        let leaf = format!("case{i}");
        let ns = format!("{parent}/{leaf}");
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in &case.files {
            std::fs::write(dir.path().join(name), text.replace(NS, &ns)).unwrap();
        }
        let (class, message) = (case.class, case.message.replace(NS, &ns));
        let assert = tokio::task::block_in_place(|| {
            ejctl().current_dir(dir.path()).arg("run").args(&case.run).timeout(Duration::from_secs(20)).assert()
        });
        let out = assert.get_output();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{class}: exit code; stderr: {stderr}");
        assert_eq!(stderr, format!("ejctl: error: {message}\n"), "{class}: message");
        assert!(out.stdout.is_empty(), "{class}: stdout {:?}", String::from_utf8_lossy(&out.stdout));
        assert_eq!(checker.exists(&format!("/{leaf}")).await.unwrap(), None, "{class}: the namespace was created");
    }
    assert_eq!(checker.children("/").await.unwrap(), Some(vec![]), "nothing was written below {parent}");
    assert_eq!(znode_count(&server), before, "nothing was written anywhere on the server");
}

/// A child process killed when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_valid_job_file_runs_until_sigterm_and_leaves_the_registry() {
    let (server, ns, registry) = zk_registry("offline-run").await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("jobs.toml");
    std::fs::write(
        &file,
        format!(
            "[registry]\nservers = \"{}\"\nnamespace = \"{ns}\"\nsession_timeout_ms = 10000\n\n\
             [instance]\nip = \"127.0.0.1\"\nshutdown_timeout_seconds = 5\n\n\
             [[job]]\nname = \"idle\"\ncron = \"0 0 0 1 1 ? 2099\"\nsharding_total_count = 2\ncommand = \"true\"\n",
            server.connect_string()
        ),
    )
    .unwrap();
    let stdout = dir.path().join("stdout.txt");
    let stderr = dir.path().join("stderr.txt");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_ejctl"))
        .arg("run")
        .arg(&file)
        .env_remove("RUST_LOG")
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout).unwrap())
        .stderr(std::fs::File::create(&stderr).unwrap())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut worker = Running(child);
    let paths = JobPaths::new("idle");
    let instance = paths.instance(&format!("127.0.0.1@-@{pid}"));

    // Started: the config is published and the instance registered.
    eventually(30, "ejctl run to register", async || {
        if let Some(status) = worker.0.try_wait().unwrap() {
            panic!("ejctl run exited early with {status}: {}", read(&stderr));
        }
        registry.exists(&paths.config()).await.unwrap().is_some() && registry.exists(&instance).await.unwrap().is_some()
    })
    .await;
    let config = registry.get(&paths.config()).await.unwrap().unwrap().text();
    assert!(config.contains("jobName: idle\n"), "{config}");
    assert!(config.contains("cron: 0 0 0 1 1 ? 2099\n"), "{config}");
    assert!(config.contains("shardingTotalCount: 2\n"), "{config}");
    assert!(
        config.contains("script.command.line: 'true'") || config.contains("script.command.line: \"true\""),
        "{config}"
    );
    assert_eq!(registry.get(paths.root()).await.unwrap().unwrap().text(), "SCRIPT");

    // SIGTERM: exit 0 within a few seconds, the instance node gone.
    signal(pid, "TERM");
    let code = tokio::task::block_in_place(|| wait_exit(&mut worker.0, Duration::from_secs(10)));
    let log = read(&stderr);
    assert_eq!(code, Some(0), "exit 0 within 10 s of SIGTERM: {log}");
    assert_eq!(registry.exists(&instance).await.unwrap(), None, "the instance node is gone: {log}");
    assert_eq!(read(&stdout), "", "ejctl run writes nothing on stdout");
    assert!(!log.contains("panicked"), "{log}");
    // The persistent nodes stay, as with ElasticJob.
    assert!(registry.exists(&paths.config()).await.unwrap().is_some());
}
