//! What each view lists: its columns and its rows after the filter and the sort ([`rows`]).
//! Selection, marks and actions work on row identities. The job list and the tree, the views that
//! grow with the namespace, are filtered without building rows and build the cells of the rows on
//! screen only (of every row only while sorted by a column); the other views are built whole.

use chrono::{DateTime, Utc};

use super::data::Data;
use crate::cli::render::item_flags;
use crate::coord::status;
use crate::ops::read::JobData;
use crate::ops::report;
use crate::ops::text::{ago, item_ranges, name_list};
use crate::registry::codec::decode_text;

/// A view of the console.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum View {
    /// Every job (`job list`).
    Jobs,
    /// One job, on one of its tabs.
    Job(String, Tab),
    /// The servers across jobs.
    Servers,
    /// The live instances across jobs.
    Instances,
    /// Items being failed over or waiting to be.
    Failover,
    /// What the console saw happen.
    Events,
    /// The raw tree, like `ejctl dump`.
    Tree,
}

/// A tab of the job view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    /// The sharding items.
    Items,
    /// The configuration YAML.
    Config,
    /// The job's servers.
    Servers,
    /// The job's instances.
    Instances,
}

impl Tab {
    /// Every tab, in key order (`1`..`4`).
    pub const ALL: [Tab; 4] = [Tab::Items, Tab::Config, Tab::Servers, Tab::Instances];

    /// The tab's name.
    pub fn name(self) -> &'static str {
        match self {
            Tab::Items => "items",
            Tab::Config => "config",
            Tab::Servers => "servers",
            Tab::Instances => "instances",
        }
    }
}

impl View {
    /// The view's name, as `:` takes it.
    pub fn name(&self) -> String {
        match self {
            View::Jobs => "jobs".into(),
            View::Job(job, tab) => format!("job {job} ({})", tab.name()),
            View::Servers => "servers".into(),
            View::Instances => "instances".into(),
            View::Failover => "failover".into(),
            View::Events => "events".into(),
            View::Tree => "tree".into(),
        }
    }

    /// The column headers.
    pub fn columns(&self) -> &'static [&'static str] {
        match self {
            View::Jobs => &[
                "NAME",
                "STATUS",
                "HEALTH",
                "CRON (ZONE)",
                "NEXT FIRE",
                "INST",
                "ITEMS",
                "RUN",
                "FAILOVER",
                "DIS.ITEMS",
                "LAST RUN",
            ],
            View::Job(_, Tab::Items) => {
                &["ITEM", "INSTANCE", "IP", "STATUS", "HEALTH", "FAILOVER", "FLAGS", "LAST RESULT"]
            }
            View::Job(_, Tab::Config) => &["CONFIGURATION"],
            View::Job(_, Tab::Servers) => &["IP", "STATUS", "INSTANCES"],
            View::Job(_, Tab::Instances) => &["INSTANCE", "IP", "LEADER", "ITEMS"],
            View::Servers => &["IP", "INSTANCES", "JOBS", "DISABLED", "STALE"],
            View::Instances => &["JOB", "INSTANCE", "IP", "LEADER", "ITEMS"],
            View::Failover => &["JOB", "ITEM", "STATE", "OWNER", "FAILOVER TO"],
            View::Events => &["TIME", "KIND", "JOB", "WHAT"],
            View::Tree => &["PATH", "VALUE"],
        }
    }

    /// The views `:` jumps to, by name and alias.
    pub fn parse(command: &str) -> Option<View> {
        let mut words = command.split_whitespace();
        let view = match words.next()? {
            "jobs" | "job" | "j" => match words.next() {
                Some(name) => View::Job(name.to_string(), Tab::Items),
                None => View::Jobs,
            },
            "servers" | "server" | "s" => View::Servers,
            "instances" | "instance" | "i" => View::Instances,
            "failover" | "fo" => View::Failover,
            "events" | "ev" | "e" => View::Events,
            "tree" | "dump" | "t" => View::Tree,
            _ => return None,
        };
        Some(view)
    }
}

/// The identity of a row.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum RowId {
    /// A job.
    Job(String),
    /// An item of the job on screen.
    Item(u32),
    /// A server (of the job on screen, or across jobs).
    Server(String),
    /// An instance of a job.
    Instance(String, String),
    /// An item of a job.
    JobItem(String, u32),
    /// An event, by position.
    Event(usize),
    /// A line of text (the configuration).
    Line(usize),
    /// A node.
    Node(String),
}

impl RowId {
    /// The job this row is about, if one.
    pub fn job(&self) -> Option<&str> {
        match self {
            RowId::Job(j) | RowId::Instance(j, _) | RowId::JobItem(j, _) => Some(j),
            _ => None,
        }
    }
}

/// A row of a view: its identity and, unless they are built only when on screen (the job list
/// and the tree in their natural order), its cells.
#[derive(Debug, Clone)]
pub struct Row {
    /// The identity.
    pub id: RowId,
    /// The cells, when built.
    pub cells: Option<Vec<String>>,
}

impl Row {
    /// The cells: built now if they were not.
    pub fn cells(&self, view: &View, data: &Data, now: DateTime<Utc>) -> Vec<String> {
        self.cells.clone().unwrap_or_else(|| lazy_cells(view, data, &self.id, now))
    }
}

/// The rows of `view`, filtered by `filter` (case-insensitive, on the row's text) and sorted by
/// column `sort` (`None`: the view's natural order).
pub fn rows(view: &View, data: &Data, filter: &str, sort: Option<(usize, bool)>, now: DateTime<Utc>) -> Vec<Row> {
    let needle = filter.to_lowercase();
    let lazy = |id: RowId| Row { id, cells: None };
    let mut rows: Vec<Row> = match view {
        // The job list is filtered on name and status without building rows.
        View::Jobs => data
            .listed()
            .filter(|j| {
                needle.is_empty()
                    || j.data.name.to_lowercase().contains(&needle)
                    || j.brief.status.as_str().to_lowercase().contains(&needle)
            })
            .map(|j| lazy(RowId::Job(j.data.name.clone())))
            .collect(),
        View::Tree => data
            .nodes()
            .keys()
            .filter(|p| needle.is_empty() || p.to_lowercase().contains(&needle))
            .map(|p| lazy(RowId::Node(p.clone())))
            .collect(),
        _ => table(view, data, now)
            .into_iter()
            .filter(|(_, cells)| needle.is_empty() || cells.join(" ").to_lowercase().contains(&needle))
            .map(|(id, cells)| Row { id, cells: Some(cells) })
            .collect(),
    };
    if let Some((col, descending)) = sort {
        for row in &mut rows {
            if row.cells.is_none() {
                row.cells = Some(lazy_cells(view, data, &row.id, now));
            }
        }
        let key = |r: &Row| r.cells.as_ref().and_then(|c| c.get(col).cloned()).unwrap_or_default();
        rows.sort_by(|a, b| natural(&key(a), &key(b)));
        if descending {
            rows.reverse();
        }
    }
    rows
}

/// Compares numbers as numbers, anything else as text.
fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x.total_cmp(&y),
        _ => a.cmp(b),
    }
}

/// Every row of the views that are built whole (all but the job list and the tree).
fn table(view: &View, data: &Data, now: DateTime<Utc>) -> Vec<(RowId, Vec<String>)> {
    match view {
        View::Jobs | View::Tree => Vec::new(),
        View::Job(name, tab) => match data.job(name) {
            Some(job) => job_tab(name, &job.data, *tab, now),
            None => Vec::new(),
        },
        View::Servers => status::servers_brief(data.jobs().values().map(|j| (j.data.name.as_str(), &j.data.view)))
            .into_iter()
            .map(|s| {
                let cells = vec![
                    s.ip.clone(),
                    s.instances.len().to_string(),
                    s.jobs.len().to_string(),
                    s.disabled_jobs.len().to_string(),
                    if s.instances.is_empty() { "stale".into() } else { String::new() },
                ];
                (RowId::Server(s.ip), cells)
            })
            .collect(),
        View::Instances => data
            .jobs()
            .values()
            .flat_map(|j| {
                report::instance_rows(&j.data).into_iter().map(|r| {
                    let leader = if r.leader { "yes" } else { "" }.to_string();
                    let id = RowId::Instance(r.job.clone(), r.id.clone());
                    (id, vec![r.job, r.id, r.server_ip, leader, item_ranges(&r.items)])
                })
            })
            .collect(),
        View::Failover => data
            .jobs()
            .values()
            .flat_map(|j| {
                let v = &j.data.view;
                let mut items: Vec<u32> = v.failover_queue.iter().copied().collect();
                items.extend(
                    v.items.iter().filter(|(_, s)| s.failover.is_some() || s.failovering.is_some()).map(|(i, _)| *i),
                );
                items.sort_unstable();
                items.dedup();
                items
                    .into_iter()
                    .map(|item| {
                        let state = v.items.get(&item).cloned().unwrap_or_default();
                        let to = state.failovering.clone().or(state.failover.clone());
                        let cells = vec![
                            j.data.name.clone(),
                            item.to_string(),
                            if v.failover_queue.contains(&item) { "pending" } else { "assigned" }.to_string(),
                            dash(state.owner.as_deref()),
                            dash(to.as_deref()),
                        ];
                        (RowId::JobItem(j.data.name.clone(), item), cells)
                    })
                    .collect::<Vec<_>>()
            })
            .collect(),
        View::Events => data
            .events()
            .iter()
            .enumerate()
            .rev()
            .map(|(n, e)| {
                let cells = vec![
                    e.at.with_timezone(&chrono::Local).format("%H:%M:%S").to_string(),
                    e.kind.to_string(),
                    dash(e.job.as_deref()),
                    e.text.clone(),
                ];
                (RowId::Event(n), cells)
            })
            .collect(),
    }
}

/// The rows of a tab of the job view.
fn job_tab(name: &str, job: &JobData, tab: Tab, now: DateTime<Utc>) -> Vec<(RowId, Vec<String>)> {
    match tab {
        Tab::Items => report::item_rows(job, now)
            .into_iter()
            .map(|r| {
                let flags = item_flags(&r);
                let failover = r.failovering.clone().or_else(|| r.failover.clone());
                let result =
                    r.result.map_or_else(|| "-".to_string(), |res| format!("{res} {}", ago(r.last_run.as_ref(), now)));
                let cells = vec![
                    r.item.to_string(),
                    dash(r.instance.as_deref()),
                    dash(r.server_ip.as_deref()),
                    r.status.to_string(),
                    r.health.to_string(),
                    dash(failover.as_deref()),
                    flags,
                    result,
                ];
                (RowId::Item(r.item), cells)
            })
            .collect(),
        Tab::Config => {
            job.config_text.lines().enumerate().map(|(n, l)| (RowId::Line(n), vec![l.to_string()])).collect()
        }
        Tab::Servers => report::server_rows(job)
            .into_iter()
            .map(|s| (RowId::Server(s.ip.clone()), vec![s.ip, s.status, name_list(&s.instances)]))
            .collect(),
        Tab::Instances => report::instance_rows(job)
            .into_iter()
            .map(|r| {
                let leader = if r.leader { "yes" } else { "" }.to_string();
                (
                    RowId::Instance(name.to_string(), r.id.clone()),
                    vec![r.id, r.server_ip, leader, item_ranges(&r.items)],
                )
            })
            .collect(),
    }
}

fn dash(s: Option<&str>) -> String {
    s.filter(|s| !s.is_empty()).unwrap_or("-").to_string()
}

/// The cells of a row of the job list or the tree (empty when the row is gone).
fn lazy_cells(view: &View, data: &Data, id: &RowId, now: DateTime<Utc>) -> Vec<String> {
    match (view, id) {
        (View::Jobs, RowId::Job(name)) => {
            let Some(j) = data.job(name) else { return Vec::new() };
            let b = &j.brief;
            vec![
                b.name.clone(),
                b.status.to_string(),
                b.health_cell(),
                b.cron_cell(),
                ago(j.data.upcoming_fire(now).as_ref(), now),
                b.instance_count.to_string(),
                b.sharding_total_count.to_string(),
                j.running.to_string(),
                j.failover.to_string(),
                j.disabled_items.to_string(),
                ago(b.last_run.as_ref(), now),
            ]
        }
        (View::Tree, RowId::Node(path)) => {
            let value = data.nodes().get(path).map(|v| decode_text(v)).unwrap_or_default();
            let first = value.lines().next().unwrap_or_default();
            let more = if value.lines().nth(1).is_some() { " …" } else { "" };
            vec![path.clone(), format!("{first}{more}")]
        }
        _ => Vec::new(),
    }
}
