//! The checker of a simulated history: SPEC §2a (no miss, no overlap, no repeat except after a
//! killed run) and liveness (once faults heal, every enabled item runs, resharding finishes, no
//! failover item is left queued).
//!
//! Unlike the chaos test, the simulator knows exactly when every run started and stopped (a killed
//! run stops after its kill latency), so overlaps are checked on exact times. The bounds are
//! tighter than the chaos test's: a fire away from any event is covered by a completed run that
//! starts within 500 ms of the item being free (a misfire runs as the previous run ends); a fire
//! near an event (from a period before it starts to the
//! session timeout after it ends) within `period + session timeout + 2 s`; fires while the item or
//! the job is disabled by an operator are not owed. A trigger run (fire instant off the whole
//! second) covers the fires before it like any run (§2a: "some run of that item starts at or
//! after F and completes") and is never a repeat. Resharding waits for every running item, so an
//! event's window lasts until the runs in progress when it could reshard have ended.

use std::collections::{BTreeMap, BTreeSet};

use super::super::miss;
use super::{Event, EventKind, JOB, Run, SESSION_TIMEOUT_MS, SimOutcome};

/// The cron period.
const PERIOD: i64 = 1000;

/// What the checker found.
#[derive(Debug, Default)]
pub struct Verdict {
    pub fires: usize,
    pub runs: usize,
    pub kills: usize,
    pub misses: usize,
    pub overlaps: usize,
    pub repeats: usize,
    pub violations: Vec<String>,
}

impl Verdict {
    /// True when nothing was violated.
    pub fn ok(&self) -> bool {
        self.violations.is_empty()
    }
}

fn is_trigger(r: &Run) -> bool {
    r.source == "trigger"
}

/// How soon, away from any event, a fire's first covering run starts once the item is free: at
/// once (a run owed by a misfire starts as the previous one ends, not at the next fire), give or
/// take the registry round trips.
const FREE_SLACK: i64 = 500;

/// How long after an event a fire's first covering run may start: a crashed or cut-off owner is
/// detected when its session expires (`T`), a stopped one hands its items over once its runs
/// ended (up to the shutdown timeout); then failover or resharding starts the item within about
/// a period. Slack for the registry round trips of a claim or a reshard under slow replies.
const EVENT_SLACK: i64 = 3000;

/// The latest instant by which a fire at `fire`, on an item busy until `busy_end`, must have been
/// covered: [`FREE_SLACK`] after the item is free, pushed back by every event that starts before the
/// bound and ends (plus the session timeout) after the fire.
fn bound(events: &[Event], fire: i64, busy_end: i64) -> i64 {
    let mut bound = busy_end.max(fire) + FREE_SLACK;
    loop {
        let mut next = bound;
        for e in events {
            if e.start <= bound && e.end + SESSION_TIMEOUT_MS + PERIOD >= fire {
                next = next.max(e.start + SESSION_TIMEOUT_MS + PERIOD + EVENT_SLACK).max(e.end + PERIOD + EVENT_SLACK);
            }
        }
        if next == bound {
            return bound;
        }
        bound = next;
    }
}

/// The events, each lasting until the resharding it may cause can finish: resharding waits for
/// every item's run in progress (ElasticJob's rule), so a run going on when the job would be
/// resharded (until the session timeout after the event) stalls every item until it ends.
fn stalls(o: &SimOutcome) -> Vec<Event> {
    let mut events = o.events.clone();
    for e in &mut events {
        let resharded_by = e.end + SESSION_TIMEOUT_MS + PERIOD;
        let longest = o
            .runs
            .iter()
            .filter(|r| r.start < resharded_by && r.end.unwrap_or(o.ended) > e.start)
            .map(|r| r.end.unwrap_or(o.ended))
            .max();
        e.end = e.end.max(longest.unwrap_or(e.end));
    }
    events
}

/// Checks an outcome.
pub fn check(o: &SimOutcome) -> Verdict {
    let mut v = Verdict::default();
    let items = o.config.items;
    let mut by_item: BTreeMap<u32, Vec<&Run>> = (0..items).map(|i| (i, Vec::new())).collect();
    for r in &o.runs {
        by_item.entry(r.item).or_default().push(r);
    }
    for list in by_item.values_mut() {
        list.sort_by_key(|r| (r.start, r.end));
    }
    v.runs = o.runs.len();
    v.kills = o.runs.iter().filter(|r| !r.completed).count();

    // No overlap, on exact times. A run that never ended is taken to run to the end.
    for (item, list) in &by_item {
        for w in list.windows(2) {
            let first_end = w[0].end.unwrap_or(o.ended);
            if first_end > w[1].start {
                v.overlaps += 1;
                v.violations.push(format!("item {item} overlapped: {:?} and {:?}", w[0], w[1]));
            }
        }
    }

    // No miss. Every fire gets its first covering run (for the repeat check below); fires while
    // the item or the job is disabled by an operator are not owed one.
    let first_fire = (o.checked_from / PERIOD + 1) * PERIOD;
    let last_fire = ((o.ended - SESSION_TIMEOUT_MS - 5000) / PERIOD) * PERIOD;
    let disabled = |item: u32, f: i64| {
        o.events.iter().any(|e| {
            let hit = match e.kind {
                EventKind::DisableJob => true,
                EventKind::DisableItem(i) => i == item,
                _ => false,
            };
            // A fire just before the switch may be dropped with it; one right after it is not owed.
            hit && f >= e.start - 2 * PERIOD && f <= e.end + PERIOD
        })
    };
    let events = stalls(o);
    let mut covering: BTreeSet<(u32, i64)> = BTreeSet::new();
    for fire in (first_fire..=last_fire).step_by(PERIOD as usize) {
        v.fires += 1;
        for (item, list) in &by_item {
            let covered_by = list.iter().filter(|r| r.completed && r.start >= fire).min_by_key(|r| r.start);
            if let Some(r) = covered_by {
                covering.insert((*item, r.start));
            }
            if disabled(*item, fire) {
                continue;
            }
            // Busy: a run that began before the fire holds the item until it ends; and when the
            // fire's first run was killed, the fire is owed again from that kill on.
            let first_killed_end = list
                .iter()
                .filter(|r| r.start >= fire)
                .min_by_key(|r| r.start)
                .filter(|r| !r.completed)
                .map(|r| r.end.unwrap_or(o.ended));
            let busy_end = list
                .iter()
                .filter(|r| r.start < fire && r.end.unwrap_or(o.ended) > fire)
                .map(|r| r.end.unwrap_or(o.ended))
                .chain(first_killed_end)
                .max()
                .unwrap_or(fire);
            let bound = bound(&events, fire, busy_end);
            match covered_by {
                Some(r) if r.start <= bound => {}
                // Owed after the end: a run (a hung process) holds the item past it.
                None if bound >= o.ended => {}
                _ => {
                    v.misses += 1;
                    v.violations.push(miss(*item, fire, covered_by.map(|r| r.start), bound));
                }
            }
        }
    }

    // No repeat: a completed cron run in the checked range that is the first covering run of no
    // fire must follow a killed run.
    for (item, list) in &by_item {
        let cron: Vec<&&Run> = list.iter().filter(|r| !is_trigger(r)).collect();
        for (i, r) in cron.iter().enumerate() {
            let prev = i.checked_sub(1).map(|p| cron[p]);
            let after_kill = prev.is_some_and(|p| !p.completed);
            let in_range = r.start > first_fire && r.start <= last_fire;
            if in_range && r.completed && !covering.contains(&(*item, r.start)) && !after_kill {
                v.repeats += 1;
                v.violations.push(format!("item {item}: repeated run {r:?} after {prev:?}"));
            }
        }
    }

    // Liveness: in the quiet tail every item completed a run, and the registry settled.
    // The tail starts once the last event's stall is over; a run going on until (nearly) the end
    // (a hung process) holds its item, and a resharding waiting for it, throughout.
    let tail =
        events.iter().map(|e| e.end + PERIOD + EVENT_SLACK).fold(o.faults_ended + SESSION_TIMEOUT_MS + 5000, i64::max);
    let hung = |r: &Run| r.start < tail && r.end.unwrap_or(o.ended) >= o.ended - 5000;
    let any_hung = o.runs.iter().any(hung);
    for (item, list) in &by_item {
        let held = tail >= o.ended - 5000 || list.iter().any(|r| hung(r));
        // Ran: a run started in the tail that completed, or is still going near the end.
        let ran = list.iter().any(|r| r.start >= tail && (r.completed || r.end.unwrap_or(o.ended) >= o.ended - 5000));
        if !held && !ran {
            v.violations.push(format!("liveness: item {item} did not run after the faults healed (tail from {tail})"));
        }
    }
    match &o.final_job {
        None => v.violations.push(format!("liveness: job '{JOB}' could not be read at the end")),
        Some(job) => {
            if (job.view.necessary || job.view.processing) && !any_hung {
                v.violations.push("liveness: resharding did not finish".into());
            }
            if !job.view.failover_queue.is_empty() {
                v.violations.push(format!("liveness: failover items left queued: {:?}", job.view.failover_queue));
            }
            for item in 0..items {
                let owner = job.view.items.get(&item).and_then(|s| s.owner.clone());
                if !owner.as_deref().is_some_and(|o| job.view.instances.contains_key(o)) {
                    v.violations.push(format!("liveness: item {item} is not owned by a live instance ({owner:?})"));
                }
            }
        }
    }
    v
}

/// A readable account of what happened to `item` around `at`: its runs and the events near it.
pub fn trace(o: &SimOutcome, item: u32, at: i64) -> String {
    let window = |t: i64| t >= at - 30_000 && t <= at + 30_000;
    let mut lines: Vec<(i64, String)> = Vec::new();
    for r in o.runs.iter().filter(|r| r.item == item && (window(r.start) || r.end.is_some_and(window))) {
        lines.push((
            r.start,
            format!(
                "{:>8} run   item {item} on {} for fire {} until {} ({})",
                r.start - o.checked_from,
                r.instance,
                r.fire - o.checked_from,
                r.end.map_or("the end".to_string(), |e| (e - o.checked_from).to_string()),
                if r.completed { "completed" } else { "killed" }
            ),
        ));
    }
    for e in o.events.iter().filter(|e: &&Event| window(e.start) || window(e.end)) {
        lines.push((
            e.start,
            format!(
                "{:>8} event {:?} on {} until {}",
                e.start - o.checked_from,
                e.kind,
                e.instance.as_deref().unwrap_or("the job"),
                e.end - o.checked_from
            ),
        ));
    }
    lines.sort();
    let mut out = format!("times in ms since checking began; item {item} around {}:\n", at - o.checked_from);
    for (_, l) in lines {
        out.push_str(&l);
        out.push('\n');
    }
    out
}
