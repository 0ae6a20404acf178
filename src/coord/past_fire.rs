//! What became of a past fire of an item (`ejctl why --fire`): a checker, not a story.
//!
//! In the words of the delivery guarantee (docs/src/design/guarantee.md), a run *covers* a fire
//! of its item when it starts at or after the fire's instant; the fire's covering run is the
//! first such run that was not killed (a killed run leaves its fire owed). [`check`] decides,
//! from the cron, what the registry shows (when the job was created, when its live instances
//! registered, the item's last result and its run in progress) and the runs a trace store
//! recorded, one [`Verdict`]:
//!
//! * the instant is still to come, or is not a fire time of the cron;
//! * it is before the job existed, or before any instance was registered;
//! * the fire was run in time (its covering run started within [`fire::LATE`]);
//! * it was covered late, and why: the item was still busy with an earlier run, its owner changed
//!   (died, or was cut off, until the registry noticed), a run was killed first, or it was owed and
//!   run as a misfire;
//! * it was not run (no run started since);
//! * or it cannot be told from what is known (no trace store, and the item's last run started
//!   after the fire).
//!
//! It never says "covered" without a run that started at or after the instant and is the item's
//! first such run.

use chrono::{DateTime, TimeDelta, Utc};

use super::fire;
use crate::schedule::cron::{CronExpr, JobTimeZone};

/// A run of an item as far as the checker needs it: a row of the trace store, or the item's last
/// result (and its run in progress) when there is no store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TracedRun {
    /// Where it is recorded: `trace:<row id>`, or the item's `result` node.
    pub node: String,
    /// The item.
    pub item: u32,
    /// The fire it was started for (for a misfire run, the latest fire it coalesced; for a
    /// failover run, when it was claimed).
    pub fire: DateTime<Utc>,
    /// When it started.
    pub start: DateTime<Utc>,
    /// When it ended (`None` while it runs, or when its end was lost).
    pub end: Option<DateTime<Utc>>,
    /// `cron`, `trigger`, `misfire` or `failover`.
    pub source: String,
    /// `ok`, `failed`, `killed`, or `None` while running.
    pub outcome: Option<String>,
    /// The instance.
    pub instance: String,
}

impl TracedRun {
    fn killed(&self) -> bool {
        self.outcome.as_deref() == Some("killed")
    }
}

/// What is known of the job around a past fire.
#[derive(Debug, Clone, Copy)]
pub struct JobFacts<'a> {
    /// The parsed cron and time zone (`None`: a one-off job).
    pub cron: Option<(&'a CronExpr, &'a JobTimeZone)>,
    /// Now.
    pub now: DateTime<Utc>,
    /// When the job's configuration node was created, if known.
    pub created: Option<DateTime<Utc>>,
    /// When the earliest of the job's live instances registered, if any is.
    pub registered: Option<DateTime<Utc>>,
    /// Whether a run of any item of the job started before the fire, as far as the trace store
    /// shows (`None`: no store).
    pub ran_before: Option<bool>,
}

/// What is known of one item's runs.
#[derive(Debug, Clone, Default)]
pub struct ItemRuns {
    /// The item's known runs, in any order.
    pub runs: Vec<TracedRun>,
    /// Runs that started before this instant are not all known (with no trace store: the start of
    /// the item's last recorded run).
    pub known_since: Option<DateTime<Utc>>,
    /// Runs that started after this instant may be missing (the read stopped at its limit).
    pub known_until: Option<DateTime<Utc>>,
}

/// Why a fire was covered late.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LateCause {
    /// The item was still running this earlier run at the fire's instant (or it never recorded
    /// its end).
    Busy(TracedRun),
    /// The run before the fire was killed (fencing, shutdown, an operator): the fire stayed owed.
    Killed,
    /// Another instance ran the item last, before the fire: its owner changed in between (it died
    /// or was cut off, and the item waited until the registry noticed, then failed over or was
    /// resharded).
    OwnerChanged(TracedRun),
    /// The fire was owed (the item had no owner while resharding, or the worker could not reach
    /// the registry) and run as a misfire.
    Owed,
    /// Nothing known explains it (the last run before it, if known).
    Unexplained(Option<TracedRun>),
}

/// What became of a past fire of an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The instant is still to come.
    NotDue,
    /// The instant is not a fire time of the cron (the fire times around it), or the job has no
    /// cron and no run was triggered at that instant.
    NotAFireTime {
        /// The last fire time before it.
        previous: Option<DateTime<Utc>>,
        /// The first fire time after it.
        next: Option<DateTime<Utc>>,
    },
    /// The job's configuration was created after it.
    BeforeJob {
        /// When.
        created: DateTime<Utc>,
    },
    /// No instance was registered then, as far as the registry and the trace store show.
    NoInstance {
        /// When the earliest live instance registered.
        registered: DateTime<Utc>,
    },
    /// Its covering run started within [`fire::LATE`].
    InTime(TracedRun),
    /// Its covering run started later.
    Late {
        /// The covering run.
        run: TracedRun,
        /// Why it was late.
        cause: LateCause,
    },
    /// No run started since (the last run before it, if known; killed runs after it).
    NotRun {
        /// The last run that started before the fire.
        last: Option<TracedRun>,
        /// Runs after the fire that were killed.
        killed: Vec<TracedRun>,
    },
    /// It cannot be told from what is known.
    Unknown(String),
}

/// Whether `t` is a fire time of `cron` (fires are whole seconds).
pub fn is_fire_time(cron: &CronExpr, tz: &JobTimeZone, t: DateTime<Utc>) -> bool {
    t.timestamp_subsec_millis() == 0 && cron.next_after(t - TimeDelta::seconds(1), tz) == Some(t)
}

/// The last fire time of `cron` strictly before `t`, looked for in windows of growing length
/// (a minute up to a year), so that a frequent cron costs a few steps and a rare one a few more.
pub fn previous_fire(cron: &CronExpr, tz: &JobTimeZone, t: DateTime<Utc>) -> Option<DateTime<Utc>> {
    const WINDOWS: [i64; 5] = [60, 3_600, 86_400, 32 * 86_400, 367 * 86_400];
    WINDOWS.iter().find_map(|&w| cron.iter_after(t - TimeDelta::seconds(w), tz).take_while(|f| *f < t).last())
}

/// Decides what became of the fire at `fire` of the item whose runs `item` holds (see the module
/// docs).
pub fn check(fire: DateTime<Utc>, job: &JobFacts<'_>, item: &ItemRuns) -> Verdict {
    if fire > job.now {
        return Verdict::NotDue;
    }
    let a_fire_time = match job.cron {
        Some((cron, tz)) => is_fire_time(cron, tz, fire),
        None => item.runs.iter().any(|r| r.fire == fire),
    };
    if !a_fire_time {
        let (previous, next) = match job.cron {
            Some((cron, tz)) => (previous_fire(cron, tz, fire), cron.next_after(fire, tz)),
            None => (None, None),
        };
        return Verdict::NotAFireTime { previous, next };
    }
    if let Some(created) = job.created.filter(|c| *c > fire) {
        return Verdict::BeforeJob { created };
    }
    if job.ran_before == Some(false)
        && let Some(registered) = job.registered.filter(|r| *r > fire)
    {
        return Verdict::NoInstance { registered };
    }
    let mut runs: Vec<&TracedRun> = item.runs.iter().collect();
    runs.sort_by(|a, b| (a.start, &a.node).cmp(&(b.start, &b.node)));
    let first = runs.partition_point(|r| r.start < fire);
    let last = first.checked_sub(1).map(|i| runs[i].clone());
    let killed: Vec<TracedRun> = runs[first..].iter().take_while(|r| r.killed()).map(|r| (*r).clone()).collect();
    let cover = runs.get(first + killed.len()).map(|r| (*r).clone());
    if item.known_since.is_some_and(|since| fire < since) {
        // Runs between the fire and the first known one are not known: only a first known run
        // close enough to the fire tells (any run before it would be in time too).
        return match cover {
            Some(run) if run.start - fire <= fire::LATE => Verdict::InTime(run),
            _ => Verdict::Unknown(
                "the item's last recorded run started after the fire, and without a trace store the runs before it are not known"
                    .into(),
            ),
        };
    }
    let Some(run) = cover else {
        if item.known_until.is_some() {
            return Verdict::Unknown(
                "more runs started since the fire than were read: ask about one item (--item N)".into(),
            );
        }
        return Verdict::NotRun { last, killed };
    };
    if run.start - fire <= fire::LATE {
        return Verdict::InTime(run);
    }
    let cause = match last {
        Some(last) if last.end.is_none_or(|end| end > fire) => LateCause::Busy(last),
        _ if !killed.is_empty() => LateCause::Killed,
        Some(last) if last.instance != run.instance => LateCause::OwnerChanged(last),
        _ if run.source == "misfire" => LateCause::Owed,
        last => LateCause::Unexplained(last),
    };
    Verdict::Late { run, cause }
}

impl TracedRun {
    /// `the misfire run that started at … on … (ok)`.
    fn describe(&self, tz: &JobTimeZone) -> String {
        format!(
            "the {} run that started at {} on {} ({})",
            self.source,
            tz.format(&self.start),
            self.instance,
            self.outcome.as_deref().unwrap_or("in progress")
        )
    }
}

impl Verdict {
    /// What it means, for people, with times in the job's zone `tz`; `item` is the item it is
    /// about (`None`: every item has it).
    pub fn message(&self, fire: DateTime<Utc>, item: Option<u32>, cron: Option<&str>, tz: &JobTimeZone) -> String {
        let at = tz.format(&fire);
        let of = item.map(|i| format!(" of item {i}")).unwrap_or_default();
        match self {
            Verdict::NotDue => format!("the fire at {at} is still to come"),
            Verdict::NotAFireTime { previous, next } => match cron {
                Some(cron) => {
                    let around: Vec<String> = [previous, next].into_iter().flatten().map(|t| tz.format(t)).collect();
                    let around = match around.len() {
                        0 => String::new(),
                        _ => format!(": the fire times around it are {}", around.join(" and ")),
                    };
                    format!("{at} is not a fire time of the cron '{cron}'{around}")
                }
                None => format!(
                    "{at} is not a fire of the job: it has no cron, runs only when triggered, and no run was triggered at that instant"
                ),
            },
            Verdict::BeforeJob { created } => {
                format!("{at} is before the job existed: its configuration was created at {}", tz.format(created))
            }
            Verdict::NoInstance { registered } => format!(
                "no instance ran the job at {at}: the trace store holds no run of it before then, and its live instances registered from {} on",
                tz.format(registered)
            ),
            Verdict::InTime(run) => format!("the fire at {at}{of} ran in time: {}", run.describe(tz)),
            Verdict::Late { run, cause } => {
                let late = crate::clock::humanize((run.start - fire).to_std().unwrap_or_default());
                let why = match cause {
                    LateCause::Busy(last) => match last.end {
                        Some(end) => format!(
                            "the item was still running the run that started at {} on {} (it ended at {}){}",
                            tz.format(&last.start),
                            last.instance,
                            tz.format(&end),
                            if run.source == "misfire" { "; the misfire run coalesced the fires due meanwhile" } else { "" }
                        ),
                        None => format!(
                            "the run that started at {} on {} never recorded its end: its worker died, was frozen or was cut off",
                            tz.format(&last.start),
                            last.instance
                        ),
                    },
                    LateCause::Killed => "the run that started after it was killed, so the fire stayed owed".into(),
                    LateCause::OwnerChanged(last) => format!(
                        "no run started in between: {} ran the item last (at {}), {} next — the owner changed: it died or was cut off, and the item waited until the registry noticed (its session expired), then failed over or was resharded",
                        last.instance,
                        tz.format(&last.start),
                        run.instance
                    ),
                    LateCause::Owed => "it was owed (the item had no owner while the job was resharded, or the worker could not reach the registry) and run as a misfire".into(),
                    LateCause::Unexplained(Some(last)) => format!(
                        "no run started between the run at {} on {} and this one",
                        tz.format(&last.start),
                        last.instance
                    ),
                    LateCause::Unexplained(None) => "no earlier run is known".into(),
                };
                format!("the fire at {at}{of} was covered late, {late} after it, by {}: {why}", run.describe(tz))
            }
            Verdict::NotRun { last, killed } => {
                let since = if killed.is_empty() { "no run started since" } else { "only killed runs started since" };
                let before = match last {
                    Some(last) if last.end.is_none_or(|e| e > fire) => format!(
                        "; {} was still running then{}",
                        last.describe(tz),
                        if last.end.is_none() { " and never recorded its end" } else { "" }
                    ),
                    Some(last) => format!("; the last run before it was {}", last.describe(tz)),
                    None => String::new(),
                };
                format!("the fire at {at}{of} was not run: {since}{before}")
            }
            Verdict::Unknown(why) => format!("cannot tell whether the fire at {at}{of} ran: {why}"),
        }
    }

    /// The runs it rests on, with what each is to it.
    pub fn runs(&self) -> Vec<(&TracedRun, &'static str)> {
        match self {
            Verdict::InTime(run) => vec![(run, "the covering run")],
            Verdict::Late { run, cause } => {
                let mut out = vec![(run, "the covering run")];
                match cause {
                    LateCause::Busy(last) | LateCause::OwnerChanged(last) | LateCause::Unexplained(Some(last)) => {
                        out.push((last, "the run before the fire"));
                    }
                    _ => {}
                }
                out
            }
            Verdict::NotRun { last, killed } => {
                let mut out: Vec<(&TracedRun, &'static str)> =
                    last.iter().map(|r| (r, "the run before the fire")).collect();
                out.extend(killed.iter().map(|r| (r, "killed after the fire")));
                out
            }
            _ => Vec::new(),
        }
    }

    /// Whether every item of the job has this verdict alike (it is about the instant or the job,
    /// not an item's runs).
    pub fn is_job_wide(&self) -> bool {
        matches!(
            self,
            Verdict::NotDue | Verdict::NotAFireTime { .. } | Verdict::BeforeJob { .. } | Verdict::NoInstance { .. }
        )
    }
}

#[cfg(test)]
#[path = "past_fire_tests.rs"]
mod tests;
