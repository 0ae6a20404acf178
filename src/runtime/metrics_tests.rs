//! Tests of the metrics module: labels, off means nothing, families render.

use super::*;

const HEALTHY: Link = Link { healthy: true, fenced: false };

#[test]
fn outcome_labels() {
    assert_eq!(outcome_label(true, false, false), "success");
    assert_eq!(outcome_label(false, false, false), "failure");
    assert_eq!(outcome_label(false, true, false), "killed");
    assert_eq!(outcome_label(false, true, true), "fenced");
}

#[test]
fn counts_render_in_openmetrics_text() {
    let m = Metrics::on();
    let probe = m.job("j", Arc::default());
    m.fire("j", "cron");
    m.item_started("j", "cron", Some(0.002));
    m.item_ended("j", "cron", "failure", 0.5);
    m.misfire_owed("j");
    let now = Utc::now();
    probe.turn(Some(now - chrono::Duration::seconds(10)), true);
    let store = crate::registry::embedded::EmbeddedStore::new();
    let text = m.render(now, &Registry::embedded(&store), HEALTHY, false);
    for line in [
        "ejctl_fires_total{job=\"j\",source=\"cron\"} 1",
        "ejctl_item_runs_total{job=\"j\",source=\"cron\",outcome=\"failure\"} 1",
        "ejctl_items_running{job=\"j\"} 0",
        "ejctl_misfires_owed_total{job=\"j\"} 1",
        "ejctl_fire_lateness_seconds_count{job=\"j\"} 1",
        "ejctl_fires_due_not_started{job=\"j\"} 1",
        "ejctl_fire_overdue_seconds{job=\"j\"} 10.0",
        "# EOF",
    ] {
        assert!(text.lines().any(|l| l == line), "missing {line} in\n{text}");
    }
}

#[test]
fn notifications_and_listener_failures_are_counted() {
    let m = Metrics::on();
    let counts = Arc::new(crate::notify::send::Counts::default());
    m.job("j", counts.clone());
    counts.sent.fetch_add(2, Ordering::Relaxed);
    counts.dropped.fetch_add(1, Ordering::Relaxed);
    m.listener_failed("j", "after_once");
    let store = crate::registry::embedded::EmbeddedStore::new();
    let registry = Registry::embedded(&store);
    let _ = m.render(Utc::now(), &registry, HEALTHY, false);
    counts.sent.fetch_add(1, Ordering::Relaxed);
    let text = m.render(Utc::now(), &registry, HEALTHY, false);
    for line in [
        "ejctl_notifications_total{job=\"j\",outcome=\"sent\"} 3",
        "ejctl_notifications_total{job=\"j\",outcome=\"failed\"} 0",
        "ejctl_notifications_total{job=\"j\",outcome=\"dropped\"} 1",
        "ejctl_listener_failures_total{job=\"j\",phase=\"after_once\"} 1",
        "ejctl_listener_failures_total{job=\"j\",phase=\"before\"} 0",
    ] {
        assert!(text.lines().any(|l| l == line), "missing {line} in\n{text}");
    }
}

#[test]
fn off_records_nothing() {
    let m = Metrics::off();
    m.job("j", Arc::default());
    m.fire("j", "cron");
    let store = crate::registry::embedded::EmbeddedStore::new();
    assert_eq!(m.render(Utc::now(), &Registry::embedded(&store), HEALTHY, false), "");
}

#[test]
fn readiness_needs_registration_and_a_healthy_link() {
    let m = Metrics::on();
    let probe = m.job("j", Arc::default());
    let store = crate::registry::embedded::EmbeddedStore::new();
    let registry = Registry::embedded(&store);
    assert!(!m.readiness(&registry, HEALTHY, false).ready);
    probe.turn(None, true);
    assert!(m.readiness(&registry, HEALTHY, false).ready);
    assert!(!m.readiness(&registry, Link { healthy: false, fenced: false }, false).ready);
    assert!(!m.readiness(&registry, HEALTHY, true).ready);
}

#[test]
fn a_job_that_cannot_shard_makes_the_worker_unready_until_it_shards() {
    let m = Metrics::on();
    let probe = m.job("j", Arc::default());
    let store = crate::registry::embedded::EmbeddedStore::new();
    let registry = Registry::embedded(&store);
    probe.turn(None, true);
    probe.sharding_failed(Some("transaction refused".into()));
    let r = m.readiness(&registry, HEALTHY, false);
    assert!(!r.ready);
    assert!(r.detail.contains("\njob j: cannot shard: transaction refused\n"), "{}", r.detail);
    probe.sharding_failed(None);
    let r = m.readiness(&registry, HEALTHY, false);
    assert!(r.ready && !r.detail.contains("cannot shard"), "{}", r.detail);
}

/// Family names with their series name (`_total` for counters), from the `# TYPE` lines.
fn families() -> Vec<(String, String)> {
    let store = crate::registry::embedded::EmbeddedStore::new();
    let m = Metrics::on();
    m.job("j", Arc::default());
    m.fire("j", "cron");
    m.fire_refused("j", Refusal::ClockSkew);
    m.item_started("j", "cron", Some(0.0));
    m.item_ended("j", "cron", "success", 1.0);
    m.item_started("j", "failover", Some(0.0));
    m.reshard("j", Duration::from_millis(5));
    let text = m.render(Utc::now(), &Registry::embedded(&store), HEALTHY, false);
    text.lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .filter_map(|l| l.split_once(' '))
        .map(|(name, kind)| {
            let series = if kind == "counter" { format!("{name}_total") } else { name.to_string() };
            (name.to_string(), series)
        })
        .collect()
}

#[test]
fn the_guide_documents_every_family() {
    let readme = include_str!("../../docs/src/operations/metrics.md");
    let families = families();
    assert!(families.len() >= 20, "{families:?}");
    for (_, series) in families {
        let short = series.trim_start_matches("ejctl_");
        assert!(
            readme.contains(&format!("| `{short}{{")) || readme.contains(&format!("| `{short}` |")),
            "the guide's metric table (docs/src/operations/metrics.md) misses {series}"
        );
    }
}

#[test]
fn the_examples_use_only_families_that_exist() {
    let series: Vec<String> = families().into_iter().map(|(_, s)| s).collect();
    let examples = [
        include_str!("../../examples/production/alerts.yaml"),
        include_str!("../../examples/production/grafana-dashboard.json"),
    ];
    let name = regex::Regex::new(r"ejctl_[a-z_]+").unwrap();
    let mut seen = 0;
    for text in examples {
        for m in name.find_iter(text) {
            let used = m.as_str();
            let base = ["_bucket", "_count", "_sum"].iter().fold(used, |n, s| n.strip_suffix(s).unwrap_or(n));
            assert!(series.iter().any(|s| s == base), "{used} is not a metric ejctl exports");
            seen += 1;
        }
    }
    assert!(seen > 10);
}

#[test]
fn the_production_job_file_loads() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/production/jobs.toml");
    let files = crate::jobfile::load(&[path]).unwrap();
    assert_eq!(files.instance.http, Some("0.0.0.0:9110".parse().unwrap()));
}
