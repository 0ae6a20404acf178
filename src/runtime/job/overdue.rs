//! `ejctl_items_overdue{job}`: the items of the job this instance sees `OVERDUE`, by the rule every
//! view applies ([`crate::coord::state::overdue`]), from what its cache already receives — no
//! request per fire. A run's end writes the item's `result` node; the cache hears of the write
//! (its data is lazy, never read), and the instant it hears it stands for the run's end. An item
//! whose owner is registered and idle, and whose result has not been written for two fires since,
//! is overdue: its owner is frozen, cut off, or dead with its session still open — which the
//! owner itself cannot report, and which every other instance of the job does.
//!
//! Kept only when the worker serves metrics; evaluated at each cron fire of the job (so within a
//! period of the views' verdict). Before the first end it hears of, an item counts from when this
//! task started.

use chrono::{DateTime, Utc};

use crate::coord::snapshot::JobSnapshot;
use crate::coord::state::overdue;
use crate::coord::status::job_status;
use crate::registry::cache::CacheEvent;
use crate::registry::path::{self, ItemLeaf, JobPaths, Node};
use crate::schedule::cron::{CronExpr, JobTimeZone};

/// When this instance last heard of each item's run ending.
pub(super) struct RunEnds {
    /// When the task started: the end of items it has not heard of.
    since: DateTime<Utc>,
    /// Epoch ms per item; 0: not heard of yet.
    ends: Vec<i64>,
}

impl RunEnds {
    pub(super) fn new(now: DateTime<Utc>) -> RunEnds {
        RunEnds { since: now, ends: Vec::new() }
    }

    /// Notes the results written among `events` as runs ended at `now`.
    pub(super) fn heard(&mut self, paths: &JobPaths, events: &[CacheEvent], now: DateTime<Utc>) {
        for event in events {
            let (CacheEvent::Created(p) | CacheEvent::Changed(p)) = event else { continue };
            let Some((job, Node::ItemLeaf(item, ItemLeaf::Result))) = path::parse(p) else { continue };
            if job != paths.job() {
                continue;
            }
            let Ok(item) = usize::try_from(item) else { continue };
            if self.ends.len() <= item {
                self.ends.resize(item + 1, 0);
            }
            self.ends[item] = now.timestamp_millis();
        }
    }

    /// How many of the job's `total` items are overdue at `now`.
    pub(super) fn count(
        &self,
        view: &JobSnapshot,
        total: u32,
        cron: Option<(&CronExpr, &JobTimeZone)>,
        now: DateTime<Utc>,
    ) -> i64 {
        let status = job_status(view);
        let ended = |item: u32| {
            let ms = usize::try_from(item).ok().and_then(|i| self.ends.get(i)).copied().unwrap_or(0);
            if ms == 0 { Some(self.since) } else { DateTime::from_timestamp_millis(ms) }
        };
        let overdue_items = (0..total).filter(|&item| {
            let Some(state) = view.items.get(&item) else { return false };
            let owner =
                state.owner.as_deref().filter(|o| view.instances.contains_key(*o) && !state.running && !state.disabled);
            overdue(status, owner, ended(item), cron, now).is_some()
        });
        i64::try_from(overdue_items.count()).unwrap_or(i64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::snapshot::ItemSnapshot;
    use crate::registry::codec::ServerStatus;
    use crate::schedule::cron;

    fn t(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_700_000_000 + s, 0).unwrap()
    }

    #[test]
    fn an_item_whose_result_stops_being_written_is_overdue() {
        let paths = JobPaths::new("j");
        let (a, b) = ("10.0.0.1@-@1", "10.0.0.2@-@2");
        let mut view = JobSnapshot::default();
        for id in [a, b] {
            view.instances.insert(id.into(), None);
        }
        view.servers.insert("10.0.0.1".into(), ServerStatus::Enabled);
        view.servers.insert("10.0.0.2".into(), ServerStatus::Enabled);
        view.leader = Some(a.into());
        view.sharding_root = true;
        for (item, owner) in [(0, a), (1, b)] {
            view.items.insert(item, ItemSnapshot { owner: Some(owner.into()), ..ItemSnapshot::default() });
        }
        let every_second = cron::parse("* * * * * ?").unwrap();
        let tz = cron::parse_time_zone("GMT").unwrap();
        let schedule = Some((&every_second, &tz));
        let mut ends = RunEnds::new(t(0));
        // Both items end runs every second until 10 s; then only item 0 does.
        for s in 1..=20 {
            let results: Vec<CacheEvent> = (0..if s <= 10 { 2 } else { 1 })
                .map(|i| CacheEvent::Changed(paths.item_leaf(i, ItemLeaf::Result).into()))
                .collect();
            ends.heard(&paths, &results, t(s));
        }
        assert_eq!(ends.count(&view, 2, schedule, t(12)), 0);
        assert_eq!(ends.count(&view, 2, schedule, t(20)), 1);
        // Running, disabled, or owned by an instance that is gone: not overdue.
        view.items.get_mut(&1).unwrap().running = true;
        assert_eq!(ends.count(&view, 2, schedule, t(20)), 0);
        view.items.get_mut(&1).unwrap().running = false;
        view.instances.remove(b);
        assert_eq!(ends.count(&view, 2, schedule, t(20)), 0);
        // Items not heard of count from the start.
        let fresh = RunEnds::new(t(0));
        view.instances.insert(b.into(), None);
        assert_eq!(fresh.count(&view, 2, schedule, t(2)), 0);
        assert_eq!(fresh.count(&view, 2, schedule, t(5)), 2);
    }
}
