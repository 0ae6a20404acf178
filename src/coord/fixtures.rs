//! What the table tests of a job's fires and runs share: two instances, instants, and the job as
//! the cache would show it.

use chrono::{DateTime, Duration, Utc};

use super::fire::Source;
use super::firing::Facts;
use super::snapshot::{ItemSnapshot, JobSnapshot};
use crate::registry::codec::ServerStatus;
use crate::registry::path::JobPaths;

/// This instance.
pub const ME: &str = "10.0.0.1@-@1";
/// The other instance.
pub const OTHER: &str = "10.0.0.2@-@2";

/// Instants in seconds after an arbitrary origin.
pub fn t(secs: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(1_700_000_000, 0).unwrap() + Duration::seconds(secs)
}

/// The cron fire under test, at 100.
pub fn cron_fire() -> Source {
    Source::Cron(t(100))
}

/// A `job trigger --wait` (token `tok`) seen at 100, of no known identity.
pub fn trigger_fire() -> Source {
    Source::Trigger(t(100), Some("tok".into()), None)
}

/// Both instances live on enabled servers; `owners` own their items, and `items` are in the given
/// state (keeping their owner).
pub fn view_with(owners: &[(u32, &str)], items: &[(u32, ItemSnapshot)]) -> JobSnapshot {
    let mut v = JobSnapshot::default();
    v.instances.insert(ME.into(), None);
    v.instances.insert(OTHER.into(), None);
    v.servers.insert("10.0.0.1".into(), ServerStatus::Enabled);
    v.servers.insert("10.0.0.2".into(), ServerStatus::Enabled);
    for (i, owner) in owners {
        v.items.insert(*i, ItemSnapshot { owner: Some((*owner).into()), ..ItemSnapshot::default() });
    }
    for (i, state) in items {
        let owner = v.items.get(i).and_then(|s| s.owner.clone());
        v.items.insert(*i, ItemSnapshot { owner, ..state.clone() });
    }
    v
}

/// What a fire on this instance goes by, for a job `job` of `total` items: monitoring and misfire
/// on, no clock check, no listeners, runnable, the registry reachable.
pub fn fire_facts(total: u32) -> Facts {
    Facts {
        paths: JobPaths::new("job"),
        me: ME.into(),
        total,
        monitor: true,
        misfire: true,
        max_time_diff_seconds: -1,
        listeners: false,
        unrunnable: None,
        link_ok: true,
        drop_misfires: false,
    }
}
