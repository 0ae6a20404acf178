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
    let probe = m.job("j");
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
fn off_records_nothing() {
    let m = Metrics::off();
    m.job("j");
    m.fire("j", "cron");
    let store = crate::registry::embedded::EmbeddedStore::new();
    assert_eq!(m.render(Utc::now(), &Registry::embedded(&store), HEALTHY, false), "");
}

#[test]
fn readiness_needs_registration_and_a_healthy_link() {
    let m = Metrics::on();
    let probe = m.job("j");
    let store = crate::registry::embedded::EmbeddedStore::new();
    let registry = Registry::embedded(&store);
    assert!(!m.readiness(&registry, HEALTHY, false).ready);
    probe.turn(None, true);
    assert!(m.readiness(&registry, HEALTHY, false).ready);
    assert!(!m.readiness(&registry, Link { healthy: false, fenced: false }, false).ready);
    assert!(!m.readiness(&registry, HEALTHY, true).ready);
}
