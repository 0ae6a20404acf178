//! The checker of a simulated history: docs/src/design/guarantee.md (no miss, no overlap, no repeat
//! except after a killed run), operators' actions honoured, and liveness (once faults heal, every
//! enabled item runs, resharding finishes, no failover item is left queued, no waiter waits
//! forever).
//!
//! Unlike the chaos test, the simulator knows exactly when every run started and stopped (a killed
//! run stops after its kill latency), so overlaps are checked on exact times. The bounds are
//! tighter than the chaos test's: a fire away from any event is covered by a completed run that
//! starts within 500 ms of the item being free (a misfire runs as the previous run ends).
//!
//! What each event excuses, and no more:
//!
//! * a fault of a worker (crash, stop, partition, expiry, slow or lossy link) and the older admin
//!   actions (trigger, item or job disabled): a fire near it (from a period before it starts to
//!   the session timeout after it ends) is covered within `period + session timeout + 3 s` of
//!   its start, or a period and 3 s after its end;
//! * a server disabled and enabled again, a server shut down and restarted, a change of
//!   `shardingTotalCount`: each is a resharding at an instant, which waits for the runs in
//!   progress; a fire near it is covered within a period and 3 s of that (the session timeout
//!   plays no part: nothing has to expire). Between the two switches of a server, its items run
//!   elsewhere on time;
//! * the job shut down or removed: its fires are not owed until the operator restarts the
//!   workers, then as after a resharding;
//! * an item or the job disabled: the fires while disabled are not owed; a `shardingTotalCount`
//!   change: a removed item is not owed from a period or two before the change, an added one
//!   from a period after it;
//! * a clock skewed within `maxTimeDiffSeconds`: a run covers the fires up to its start on its
//!   worker's clock (which never runs backwards), and may start as much later as that clock is
//!   behind; no other slack;
//! * a clock skewed beyond the limit: its worker refuses its fires, so the items it owned are
//!   owed as after a fault ending when the skew does (a clock that was ahead: once it has
//!   caught up again).
//!
//! A trigger run (fire instant off the whole second) covers the fires before it like any run
//! (docs/src/design/guarantee.md#the-promise: "some run of that item starts at or after F and completes") and is never a repeat.
//! Operators are obeyed: no run starts on a worker after an operator shut it down or removed the
//! job, on a disabled server, for a disabled item or job, or for an item beyond the count.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::super::miss;
use super::{EVENT_WATCH_LAG_MS, Event, EventKind, JOB, Run, SESSION_TIMEOUT_MS, SimOutcome};

/// The cron period.
const PERIOD: i64 = 1000;

/// How soon, away from any event, a fire's first covering run starts once the item is free: at
/// once (a run owed by a misfire starts as the previous one ends, not at the next fire), give or
/// take the registry round trips.
const FREE_SLACK: i64 = 500;

/// How long after an event a fire's first covering run may start: a crashed or cut-off owner is
/// detected when its session expires (`T`), a stopped one hands its items over once its runs
/// ended (up to the shutdown timeout); then failover or resharding starts the item within about
/// a period. Slack for the registry round trips of a claim or a reshard under slow replies.
const EVENT_SLACK: i64 = 3000;

/// How soon an operator's action reaches the workers: a run that starts later disobeys it. The
/// slowest watch of a worker during an event lags [`EVENT_WATCH_LAG_MS`]; 100 ms more for the
/// round trips of the fire that reads the change.
const HONOUR: i64 = EVENT_WATCH_LAG_MS as i64 + 100;

/// One violation: what, and the item and instant its trace is about.
#[derive(Debug, Clone)]
pub struct Violation {
    pub item: Option<u32>,
    /// Epoch ms.
    pub at: i64,
    pub text: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// What the checker found.
#[derive(Debug, Default)]
pub struct Verdict {
    pub fires: usize,
    pub runs: usize,
    pub kills: usize,
    pub misses: usize,
    pub overlaps: usize,
    pub repeats: usize,
    /// Trigger-and-waits made, and those that got every result.
    pub waits: usize,
    pub waits_done: usize,
    pub violations: Vec<Violation>,
}

impl Verdict {
    /// True when nothing was violated.
    pub fn ok(&self) -> bool {
        self.violations.is_empty()
    }

    fn add(&mut self, item: Option<u32>, at: i64, text: String) {
        self.violations.push(Violation { item, at, text });
    }
}

fn is_trigger(r: &Run) -> bool {
    r.source == "trigger"
}

/// A stretch of time in which fires may be late: from `from` to `to` (stretched to the end of
/// the runs a resharding it causes waits for), plus `detect` for a fault noticed only when a
/// session expires; for `items`, or every item.
#[derive(Debug, Clone)]
struct Window {
    from: i64,
    to: i64,
    detect: i64,
    items: Option<Vec<u32>>,
}

impl Window {
    fn point(at: i64) -> Window {
        Window { from: at, to: at, detect: 0, items: None }
    }

    fn applies(&self, item: u32) -> bool {
        self.items.as_ref().is_none_or(|items| items.contains(&item))
    }
}

/// The windows of the events (see the module docs), each lasting until the resharding it may
/// cause can finish: resharding waits for every item's run in progress (ElasticJob's rule), so a
/// run going on when the job would be resharded stalls every item until it ends.
fn windows(o: &SimOutcome) -> Vec<Window> {
    let mut out = Vec::new();
    for e in &o.events {
        match e.kind {
            EventKind::Skew(_) => {}
            // A clock set back when the skew ends fires no instant it has fired already: the
            // window lasts until it has caught up.
            EventKind::SkewBeyond(ms) => {
                let to = e.end + ms.max(0);
                out.push(Window { from: e.start, to, detect: 0, items: Some(e.items.clone()) });
            }
            EventKind::DisableServer | EventKind::ShutdownServer => {
                out.push(Window::point(e.start));
                out.push(Window::point(e.end));
            }
            EventKind::ShutdownJob | EventKind::RemoveJob { .. } => {
                out.push(Window { from: e.start, to: e.end, detect: 0, items: None });
            }
            EventKind::Total { .. } => out.push(Window::point(e.start)),
            _ => out.push(Window { from: e.start, to: e.end, detect: SESSION_TIMEOUT_MS, items: None }),
        }
    }
    for w in &mut out {
        let resharded_by = w.to + w.detect + PERIOD;
        let longest = o
            .runs
            .iter()
            .filter(|r| r.start < resharded_by && r.end.unwrap_or(o.ended) > w.from)
            .map(|r| r.end.unwrap_or(o.ended))
            .max();
        w.to = w.to.max(longest.unwrap_or(w.to));
    }
    out
}

/// The latest instant by which a fire of `item` at `fire`, busy until `busy_end`, must have been
/// covered: [`FREE_SLACK`] after the item is free, pushed back by every window of the item that
/// starts before the bound and ends (plus its detection time and a period) after the fire.
fn bound(windows: &[Window], item: u32, fire: i64, busy_end: i64) -> i64 {
    let mut bound = busy_end.max(fire) + FREE_SLACK;
    loop {
        let mut next = bound;
        for w in windows.iter().filter(|w| w.applies(item)) {
            if w.from <= bound && w.to + w.detect + PERIOD >= fire {
                next = next.max(w.from + w.detect + PERIOD + EVENT_SLACK).max(w.to + PERIOD + EVENT_SLACK);
            }
        }
        if next == bound {
            return bound;
        }
        bound = next;
    }
}

/// `shardingTotalCount` over time: `(from, count)` in order.
fn totals(o: &SimOutcome) -> Vec<(i64, u32)> {
    let mut out = vec![(i64::MIN, o.config.items)];
    for e in &o.events {
        match e.kind {
            EventKind::Total { to, .. } => out.push((e.start, to)),
            // A purged job is published again from the job file when its workers restart.
            EventKind::RemoveJob { purge: true } => out.push((e.end, o.config.items)),
            _ => {}
        }
    }
    out
}

fn total_at(totals: &[(i64, u32)], t: i64) -> u32 {
    totals.iter().rev().find(|(from, _)| *from <= t).map_or(0, |(_, n)| *n)
}

/// Whether a fire of `item` at `f` is owed a run: the item exists (not within two periods of the
/// change that adds or removes it) and neither it nor the job is disabled, shut down or removed
/// by an operator.
fn owed(o: &SimOutcome, totals: &[(i64, u32)], item: u32, f: i64) -> bool {
    if item >= total_at(totals, f) {
        return false;
    }
    let changing = totals.windows(2).any(|w| {
        let (before, (at, after)) = (w[0].1, w[1]);
        (item < before) != (item < after) && f >= at - 2 * PERIOD && f <= at + PERIOD
    });
    let stopped = o.events.iter().any(|e| {
        let hit = match e.kind {
            EventKind::DisableJob | EventKind::ShutdownJob | EventKind::RemoveJob { .. } => true,
            EventKind::DisableItem(i) => i == item,
            _ => false,
        };
        // A fire just before the switch may be dropped with it; one right after it is not owed.
        hit && f >= e.start - 2 * PERIOD && f <= e.end + PERIOD
    });
    !changing && !stopped
}

/// How much later than on a true clock a run may start: as far as its machine's clock was
/// skewed around it (0 on a true clock).
fn skew_tolerance(o: &SimOutcome, r: &Run) -> i64 {
    o.events
        .iter()
        .filter(|e| e.instance.as_deref() == Some(r.instance.as_str()))
        .filter(|e| r.start >= e.start - PERIOD && r.start <= e.end + PERIOD)
        .filter_map(|e| match e.kind {
            EventKind::Skew(ms) | EventKind::SkewBeyond(ms) => Some(ms.abs()),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// Checks an outcome.
pub fn check(o: &SimOutcome) -> Verdict {
    let mut v = Verdict::default();
    let totals = totals(o);
    let items = totals.iter().map(|(_, n)| *n).max().unwrap_or(o.config.items);
    let mut by_item: BTreeMap<u32, Vec<&Run>> = (0..items).map(|i| (i, Vec::new())).collect();
    for r in &o.runs {
        by_item.entry(r.item).or_default().push(r);
    }
    for list in by_item.values_mut() {
        list.sort_by_key(|r| (r.start, r.end));
    }
    // A run covers the fires up to its start on its worker's clock; it may start as much later
    // (in true time) as that clock was behind. A clock skewed past the limit is not trusted (its
    // worker refuses that clock's fires): what runs there meanwhile (a failed-over item) covers
    // the fires up to its true start only.
    let skewed: Vec<(&str, i64, i64)> = o
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::SkewBeyond(_)))
        .filter_map(|e| Some((e.instance.as_deref()?, e.start, e.end)))
        .collect();
    let untrusted: BTreeSet<(&str, i64)> = o
        .runs
        .iter()
        .filter(|r| skewed.iter().any(|&(i, from, to)| i == r.instance && (from..=to).contains(&r.start)))
        .map(|r| (r.instance.as_str(), r.start))
        .collect();
    let covers = |r: &Run, fire: i64| {
        let start = if untrusted.contains(&(r.instance.as_str(), r.start)) {
            r.local_start.min(r.start)
        } else {
            r.local_start
        };
        start >= fire
    };
    let early = |r: &Run| r.start - skew_tolerance(o, r);
    v.runs = o.runs.len();
    v.kills = o.runs.iter().filter(|r| !r.completed).count();

    // No overlap, on exact times. A run that never ended is taken to run to the end.
    for (item, list) in &by_item {
        for w in list.windows(2) {
            let first_end = w[0].end.unwrap_or(o.ended);
            if first_end > w[1].start {
                v.overlaps += 1;
                v.add(Some(*item), w[1].start, format!("item {item} overlapped: {:?} and {:?}", w[0], w[1]));
            }
        }
    }

    // No miss. Every fire gets its first covering run (for the repeat check below): a completed
    // run that started at or after it on its worker's clock.
    let first_fire = (o.checked_from / PERIOD + 1) * PERIOD;
    let last_fire = ((o.ended - SESSION_TIMEOUT_MS - 5000) / PERIOD) * PERIOD;
    v.fires = usize::try_from((last_fire - first_fire) / PERIOD + 1).unwrap_or(0);
    let windows = windows(o);
    let mut covering: BTreeSet<(u32, i64)> = BTreeSet::new();
    // The warm-up's last fires too, only for the runs that cover them (a late run may cover
    // nothing newer).
    for fire in (first_fire - 5 * PERIOD..=last_fire).step_by(PERIOD as usize) {
        for (item, list) in &by_item {
            let covered_by = list.iter().filter(|r| r.completed && covers(r, fire)).min_by_key(|r| r.start);
            if let Some(r) = covered_by {
                covering.insert((*item, r.start));
            }
            if fire < first_fire || !owed(o, &totals, *item, fire) {
                continue;
            }
            // Busy: a run that began before the fire (and so does not cover it) holds the item
            // until it ends; and when the fire's first run was killed, the fire is owed again from
            // that kill on.
            let first_killed_end = list
                .iter()
                .filter(|r| covers(r, fire))
                .min_by_key(|r| r.start)
                .filter(|r| !r.completed)
                .map(|r| r.end.unwrap_or(o.ended));
            let busy_end = list
                .iter()
                .filter(|r| !covers(r, fire) && r.end.unwrap_or(o.ended) > fire)
                .map(|r| r.end.unwrap_or(o.ended))
                .chain(first_killed_end)
                .max()
                .unwrap_or(fire);
            let bound = bound(&windows, *item, fire, busy_end);
            match covered_by {
                // A clock behind starts the run as much later as it is behind.
                Some(r) if early(r) <= bound => {}
                // Owed after the end: a run (a hung process) holds the item past it.
                None if bound >= o.ended => {}
                // The item was removed (the count shrank) before it was due to run.
                _ if totals.iter().any(|(at, n)| *at > fire && *at <= bound && *item >= *n) => {}
                _ => {
                    v.misses += 1;
                    v.add(Some(*item), fire, miss(*item, fire, covered_by.map(|r| r.start), bound));
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
                v.add(Some(*item), r.start, format!("item {item}: repeated run {r:?} after {prev:?}"));
            }
        }
    }

    honoured(o, &totals, &mut v);
    waiters(o, &totals, &windows, &mut v);
    liveness(o, &totals, &windows, &by_item, &mut v);
    v
}

/// Operators are obeyed (see the module docs).
fn honoured(o: &SimOutcome, totals: &[(i64, u32)], v: &mut Verdict) {
    for e in &o.events {
        // Until the operator undoes it (a run may start the instant it is undone).
        let after = |r: &&Run| r.start > e.start + HONOUR && r.start < e.end;
        let what = match e.kind {
            EventKind::ShutdownServer | EventKind::ShutdownJob | EventKind::RemoveJob { .. } => "shut down",
            EventKind::DisableServer => "its server disabled",
            EventKind::DisableJob => "the job disabled",
            EventKind::DisableItem(_) => "the item disabled",
            _ => continue,
        };
        let ip = e.instance.as_deref().map(ejctl::registry::codec::instance_ip);
        for r in o.runs.iter().filter(after) {
            let disobeyed = match e.kind {
                EventKind::DisableServer => Some(ejctl::registry::codec::instance_ip(&r.instance)) == ip,
                EventKind::DisableItem(item) => r.item == item,
                EventKind::DisableJob => true,
                _ => e.stopped.contains(&r.instance),
            };
            if disobeyed {
                v.add(
                    Some(r.item),
                    r.start,
                    format!("item {} ran with {what} ({:?} at {}): {r:?}", r.item, e.kind, e.start),
                );
            }
        }
    }
    for r in &o.runs {
        if r.item >= total_at(totals, r.start - HONOUR) && r.item >= total_at(totals, r.start) {
            let total = total_at(totals, r.start);
            v.add(Some(r.item), r.start, format!("item {} ran beyond shardingTotalCount {total}: {r:?}", r.item));
        }
    }
}

/// No waiter waits forever: every `job trigger --wait` ends by its timeout, and one that timed out
/// lacks only items that a fault, an operator or a run still going at its deadline excuses. The
/// one made once the faults healed (see [`super::HEALED_WAIT_MS`]) is not refused (unless a
/// resharding still waits for a run).
fn waiters(o: &SimOutcome, totals: &[(i64, u32)], windows: &[Window], v: &mut Verdict) {
    for w in &o.waiters {
        v.waits += 1;
        if let Some(refused) = &w.refused {
            // Refused while faults go on (no item owned by a live instance), as the command is;
            // once they healed, only while a resharding still waits for a run.
            let resharding = windows.iter().any(|x| x.from <= w.start && x.to + x.detect + PERIOD >= w.start);
            if w.healed && !resharding {
                v.add(
                    None,
                    w.start,
                    format!("liveness: a trigger-and-wait after the faults healed was refused: {refused}"),
                );
            }
            continue;
        }
        let Some(end) = &w.end else {
            v.add(None, w.start, format!("waiter from {} never ended ({:?})", w.start, w.expected));
            continue;
        };
        v.waits_done += usize::from(end.done);
        if end.at > w.start + w.timeout_ms + PERIOD {
            v.add(None, w.start, format!("waiter from {} ended at {}, past its timeout", w.start, end.at));
        }
        if let Some(e) = &end.error {
            v.add(None, w.start, format!("waiter from {} failed: {e}", w.start));
        }
        for &item in &end.missing {
            let faulted =
                windows.iter().any(|x| x.applies(item) && x.from <= end.at && x.to + x.detect + PERIOD >= w.start);
            let withheld = (w.start..=end.at).step_by(PERIOD as usize).any(|t| !owed(o, totals, item, t));
            // Slow: the trigger's run of the item was still going at the deadline; or none had
            // started, a run holding the item throughout (a trigger waits for it).
            let going = |r: &&Run| r.start <= end.at - FREE_SLACK && r.end.unwrap_or(o.ended) > end.at - FREE_SLACK;
            let runs = || o.runs.iter().filter(|r| r.item == item);
            let triggered = runs().filter(|r| is_trigger(r) && r.start >= w.start).min_by_key(|r| r.start);
            let busy = match triggered {
                Some(r) => going(&r) || r.start > end.at - FREE_SLACK,
                None => runs().any(|r| going(&r)),
            };
            if !faulted && !withheld && !busy {
                let when = if w.healed { "liveness: after the faults healed, " } else { "" };
                v.add(
                    Some(item),
                    w.start,
                    format!(
                        "{when}item {item}: a trigger waited from {} timed out at {} without its result",
                        w.start, end.at
                    ),
                );
            }
        }
    }
}

/// In the quiet tail every item completed a run, and the registry settled. The tail starts once
/// the last window is over; a run going on until (nearly) the end (a hung process) holds its
/// item, and a resharding waiting for it, throughout.
fn liveness(
    o: &SimOutcome,
    totals: &[(i64, u32)],
    windows: &[Window],
    by_item: &BTreeMap<u32, Vec<&Run>>,
    v: &mut Verdict,
) {
    let tail =
        windows.iter().map(|w| w.to + PERIOD + EVENT_SLACK).fold(o.faults_ended + SESSION_TIMEOUT_MS + 5000, i64::max);
    let hung = |r: &Run| r.start < tail && r.end.unwrap_or(o.ended) >= o.ended - 5000;
    let any_hung = o.runs.iter().any(hung);
    let items = total_at(totals, o.ended);
    for (item, list) in by_item.range(..items) {
        let held = tail >= o.ended - 5000 || list.iter().any(|r| hung(r));
        // Ran: a run started in the tail that completed, or is still going near the end.
        let ran = list.iter().any(|r| r.start >= tail && (r.completed || r.end.unwrap_or(o.ended) >= o.ended - 5000));
        if !held && !ran {
            v.add(
                Some(*item),
                tail,
                format!("liveness: item {item} did not run after the faults healed (tail from {tail})"),
            );
        }
    }
    match &o.final_job {
        None => v.add(None, o.ended, format!("liveness: job '{JOB}' could not be read at the end")),
        Some(job) => {
            if (job.view.necessary || job.view.processing) && !any_hung {
                v.add(None, o.ended, "liveness: resharding did not finish".into());
            }
            if !job.view.failover_queue.is_empty() {
                v.add(None, o.ended, format!("liveness: failover items left queued: {:?}", job.view.failover_queue));
            }
            for item in 0..items {
                let owner = job.view.items.get(&item).and_then(|s| s.owner.clone());
                if !owner.as_deref().is_some_and(|o| job.view.instances.contains_key(o)) {
                    v.add(
                        Some(item),
                        o.ended,
                        format!("liveness: item {item} is not owned by a live instance ({owner:?})"),
                    );
                }
            }
        }
    }
}

/// A readable account of what happened to `item` around `at`: its runs, the events and the
/// trigger waits near it.
pub fn trace(o: &SimOutcome, item: Option<u32>, at: i64) -> String {
    let window = |t: i64| t >= at - 30_000 && t <= at + 30_000;
    let mut lines: Vec<(i64, String)> = Vec::new();
    let rel = |t: i64| t - o.checked_from;
    for r in
        o.runs.iter().filter(|r| item.is_none_or(|i| r.item == i) && (window(r.start) || r.end.is_some_and(window)))
    {
        lines.push((
            r.start,
            format!(
                "{:>8} run   item {} on {} for fire {} until {} ({}{})",
                rel(r.start),
                r.item,
                r.instance,
                rel(r.fire),
                r.end.map_or("the end".to_string(), |e| rel(e).to_string()),
                if r.completed { "completed" } else { "killed" },
                if r.local_start == r.start {
                    String::new()
                } else {
                    format!(", clock {:+} ms", r.local_start - r.start)
                }
            ),
        ));
    }
    for e in o.events.iter().filter(|e: &&Event| window(e.start) || window(e.end)) {
        lines.push((
            e.start,
            format!(
                "{:>8} event {:?} on {} until {}",
                rel(e.start),
                e.kind,
                e.instance.as_deref().unwrap_or("the job"),
                rel(e.end)
            ),
        ));
    }
    for w in o.waiters.iter().filter(|w| window(w.start)) {
        let end = w.end.as_ref().map_or("never ended".to_string(), |e| {
            format!("ended at {} ({}, missing {:?})", rel(e.at), if e.done { "done" } else { "timed out" }, e.missing)
        });
        lines.push((w.start, format!("{:>8} wait  for {:?}: {end}", rel(w.start), w.expected)));
    }
    lines.sort();
    let about = item.map_or("the job".to_string(), |i| format!("item {i}"));
    let mut out = format!("times in ms since checking began; {about} around {}:\n", rel(at));
    for (_, l) in lines {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// The trace of a verdict's first violation, if any.
pub fn first_trace(o: &SimOutcome, v: &Verdict) -> Option<String> {
    v.violations.first().map(|x| trace(o, x.item, x.at))
}
