//! The console's copy of the namespace: every node as read once and then kept current from the
//! watch, and per job the [`JobData`] and `job list` row built from its nodes.
//!
//! Changes arrive as node paths ([`Data::set`]); the job a path belongs to is marked touched and
//! [`Data::refresh`] rebuilds only the touched jobs, comparing each with what it was to log what
//! happened to it (instance up/down, leader, resharding, failover, disable/enable, config) in the
//! events view. Nothing here does I/O, so the views can be tested from a list of nodes.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use chrono::{DateTime, Utc};

use crate::coord::status::JobStatus;
use crate::ops::read::JobData;
use crate::ops::report::{self, JobBrief};
use crate::ops::text::item_ranges;
use crate::registry::{NodeData, Stat, TreeNode};

/// How many events the events view keeps.
const EVENTS_KEPT: usize = 1000;

/// One job: as read, and its `job list` row.
pub struct JobEntry {
    /// The job as the admin views read it.
    pub data: JobData,
    /// Its `job list` row (next fire as of the last change; the view recomputes it).
    pub brief: JobBrief,
    /// Items running now.
    pub running: usize,
    /// Items being failed over or waiting to be.
    pub failover: usize,
    /// Disabled items.
    pub disabled_items: usize,
}

impl JobEntry {
    fn new(data: JobData, now: DateTime<Utc>) -> JobEntry {
        let items = &data.view.items;
        let failover = items.values().filter(|s| s.failover.is_some() || s.failovering.is_some()).count()
            + data.view.failover_queue.len();
        JobEntry {
            brief: report::job_brief(&data, now),
            running: items.values().filter(|s| s.running).count(),
            failover,
            disabled_items: items.values().filter(|s| s.disabled).count(),
            data,
        }
    }
}

/// Something that happened in the namespace, or a result of the console's own actions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// When the console saw it.
    pub at: DateTime<Utc>,
    /// What kind: `instance up`, `leader`, `config`, `action`, `error`, ...
    pub kind: &'static str,
    /// The job it concerns, if one.
    pub job: Option<String>,
    /// What happened.
    pub text: String,
}

/// The namespace as the console knows it.
#[derive(Default)]
pub struct Data {
    nodes: BTreeMap<String, Vec<u8>>,
    jobs: BTreeMap<String, JobEntry>,
    touched: BTreeSet<String>,
    events: VecDeque<Event>,
    /// True once the first read is in.
    pub loaded: bool,
    /// When the namespace last changed (or the first read completed).
    pub last_change: Option<DateTime<Utc>>,
}

/// The job a namespace path belongs to (its first segment).
fn job_of(path: &str) -> Option<&str> {
    path.strip_prefix('/')?.split('/').next().filter(|s| !s.is_empty())
}

impl Data {
    /// The data of a first read: every node of the namespace, in any order.
    pub fn load(nodes: impl IntoIterator<Item = (String, Vec<u8>)>, now: DateTime<Utc>) -> Data {
        let mut data = Data::default();
        for (path, value) in nodes {
            data.set(&path, Some(value));
        }
        data.refresh_quietly(now);
        data.loaded = true;
        data.last_change = Some(now);
        data
    }

    /// Replaces every node with those of a new read of the namespace, logging what changed in
    /// the jobs; returns how many nodes differed.
    pub fn replace(&mut self, nodes: impl IntoIterator<Item = (String, Vec<u8>)>, now: DateTime<Utc>) -> usize {
        let fresh: BTreeMap<String, Vec<u8>> = nodes.into_iter().collect();
        let gone: Vec<String> = self.nodes.keys().filter(|p| !fresh.contains_key(*p)).cloned().collect();
        let mut changed = gone.len();
        for path in gone {
            self.set(&path, None);
        }
        for (path, value) in fresh {
            if self.nodes.get(&path) != Some(&value) {
                changed += 1;
                self.set(&path, Some(value));
            }
        }
        self.refresh(now);
        changed
    }

    /// Records a node's value (`None`: the node is gone) and marks its job touched.
    pub fn set(&mut self, path: &str, value: Option<Vec<u8>>) {
        match value {
            Some(v) => {
                self.nodes.insert(path.to_string(), v);
            }
            None => {
                self.nodes.remove(path);
            }
        }
        if let Some(job) = job_of(path) {
            self.touched.insert(job.to_string());
        }
    }

    /// Rebuilds the touched jobs and logs what changed in them; returns how many jobs changed.
    pub fn refresh(&mut self, now: DateTime<Utc>) -> usize {
        let touched = std::mem::take(&mut self.touched);
        let n = touched.len();
        for name in touched {
            let new = self.build(&name, now);
            let old = self.jobs.remove(&name);
            let events = changes(&name, old.as_ref().map(|e| &e.data), new.as_ref().map(|e| &e.data));
            for text in events {
                self.push(Event { at: now, kind: text.0, job: Some(name.clone()), text: text.1 });
            }
            if let Some(new) = new {
                self.jobs.insert(name, new);
            }
        }
        if n > 0 {
            self.last_change = Some(now);
        }
        n
    }

    fn refresh_quietly(&mut self, now: DateTime<Utc>) {
        for name in std::mem::take(&mut self.touched) {
            match self.build(&name, now) {
                Some(entry) => self.jobs.insert(name, entry),
                None => self.jobs.remove(&name),
            };
        }
    }

    /// A job rebuilt from its nodes; `None` when it has none left.
    fn build(&self, name: &str, now: DateTime<Utc>) -> Option<JobEntry> {
        let root = format!("/{name}");
        let nodes: Vec<TreeNode> = self.subtree(&root).map(|(p, d)| tree_node(p, d)).collect();
        (!nodes.is_empty()).then(|| JobEntry::new(JobData::from_nodes(name, &nodes), now))
    }

    /// The nodes of the subtree at `root` (itself included), in path order.
    pub fn subtree<'a>(&'a self, root: &str) -> impl Iterator<Item = (&'a String, &'a Vec<u8>)> + 'a {
        let own = self.nodes.get_key_value(root);
        let under = self.nodes.range(format!("{root}/")..format!("{root}0"));
        own.into_iter().chain(under)
    }

    /// Every node, in path order.
    pub fn nodes(&self) -> &BTreeMap<String, Vec<u8>> {
        &self.nodes
    }

    /// The jobs by name, configured or not.
    pub fn jobs(&self) -> &BTreeMap<String, JobEntry> {
        &self.jobs
    }

    /// The jobs `job list` shows (those with a configuration), by name.
    pub fn listed(&self) -> impl Iterator<Item = &JobEntry> {
        self.jobs.values().filter(|j| j.data.has_config)
    }

    /// One job.
    pub fn job(&self, name: &str) -> Option<&JobEntry> {
        self.jobs.get(name)
    }

    /// The number of listed jobs in each status.
    pub fn counts(&self) -> BTreeMap<JobStatus, usize> {
        let mut counts = BTreeMap::new();
        for j in self.listed() {
            *counts.entry(j.brief.status).or_insert(0) += 1;
        }
        counts
    }

    /// The live instances across jobs.
    pub fn instance_count(&self) -> usize {
        self.jobs.values().map(|j| j.data.view.instances.len()).sum()
    }

    /// The events, oldest first.
    pub fn events(&self) -> &VecDeque<Event> {
        &self.events
    }

    /// Logs an event.
    pub fn push(&mut self, event: Event) {
        if self.events.len() == EVENTS_KEPT {
            self.events.pop_front();
        }
        self.events.push_back(event);
    }
}

fn tree_node(path: &str, data: &[u8]) -> TreeNode {
    TreeNode { path: path.to_string(), node: NodeData { data: data.to_vec(), stat: Stat::default() } }
}

/// What changed between two reads of a job, as `(kind, text)`.
fn changes(name: &str, old: Option<&JobData>, new: Option<&JobData>) -> Vec<(&'static str, String)> {
    let (old, new) = match (old, new) {
        (None, None) => return Vec::new(),
        (None, Some(_)) => return vec![("job", format!("job '{name}' appeared"))],
        (Some(_), None) => return vec![("job", format!("job '{name}' removed"))],
        (Some(old), Some(new)) => (old, new),
    };
    let mut out = Vec::new();
    let (ov, nv) = (&old.view, &new.view);
    for id in nv.instances.keys().filter(|id| !ov.instances.contains_key(*id)) {
        out.push(("instance up", format!("instance {id} up")));
    }
    for id in ov.instances.keys().filter(|id| !nv.instances.contains_key(*id)) {
        out.push(("instance down", format!("instance {id} down")));
    }
    if ov.leader != nv.leader {
        let leader = nv.leader.as_deref().unwrap_or("none");
        out.push(("leader", format!("leader: {leader}")));
    }
    for (ip, status) in &nv.servers {
        if ov.servers.get(ip).is_some_and(|s| s != status) || (!ov.servers.contains_key(ip) && !status.is_enabled()) {
            let word = if status.is_enabled() { "enabled" } else { "disabled" };
            out.push((if status.is_enabled() { "enable" } else { "disable" }, format!("{word} on server {ip}")));
        }
    }
    let owners = |d: &JobData| d.items_by_owner();
    if owners(old) != owners(new) && !new.items_by_owner().is_empty() {
        let text = new
            .items_by_owner()
            .iter()
            .map(|(id, items)| format!("{id}: {}", item_ranges(items)))
            .collect::<Vec<_>>()
            .join("; ");
        out.push(("reshard", format!("items assigned: {text}")));
    }
    let disabled = |d: &JobData| d.view.items.iter().filter(|(_, s)| s.disabled).map(|(i, _)| *i).collect::<Vec<_>>();
    if disabled(old) != disabled(new) {
        out.push(("items", format!("disabled items: {}", none_or(&item_ranges(&disabled(new))))));
    }
    let failover = |d: &JobData| {
        let mut items: Vec<u32> = d.view.failover_queue.iter().copied().collect();
        items.extend(
            d.view.items.iter().filter(|(_, s)| s.failover.is_some() || s.failovering.is_some()).map(|(i, _)| *i),
        );
        items
    };
    if failover(old) != failover(new) {
        out.push(("failover", format!("items failing over: {}", none_or(&item_ranges(&failover(new))))));
    }
    let cannot_shard = |d: &JobData| d.view.sharding_failure.clone();
    if cannot_shard(old).is_some() != cannot_shard(new).is_some() {
        let text = cannot_shard(new).map_or_else(
            || "sharding completed".to_string(),
            |f| format!("cannot shard: {}", crate::coord::state::cannot_shard_reason(&f)),
        );
        out.push(("sharding", text));
    }
    if old.config_text != new.config_text {
        out.push(("config", "configuration changed".to_string()));
    }
    if old.status() != new.status() {
        out.push(("status", format!("status {} → {}", old.status(), new.status())));
    }
    out
}

fn none_or(s: &str) -> &str {
    if s.is_empty() { "none" } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(p: &str, v: &str) -> (String, Vec<u8>) {
        (p.to_string(), v.as_bytes().to_vec())
    }

    #[test]
    fn touched_jobs_only_are_rebuilt_and_their_changes_logged() {
        let now = Utc::now();
        let mut data = Data::load(
            [
                node("/a", ""),
                node("/a/config", "jobName: a\ncron: 0/5 * * * * ?\nshardingTotalCount: 1\n"),
                node("/a/servers/10.0.0.1", "ENABLED"),
                node("/ab", ""),
                node("/ab/config", "jobName: ab\nshardingTotalCount: 1\n"),
            ],
            now,
        );
        assert_eq!(data.listed().count(), 2);
        assert!(data.events().is_empty());
        data.set("/a/servers/10.0.0.1", Some(b"DISABLED".to_vec()));
        assert_eq!(data.refresh(now), 1);
        let texts: Vec<&str> = data.events().iter().map(|e| e.text.as_str()).collect();
        assert!(texts.contains(&"disabled on server 10.0.0.1"), "{texts:?}");
        assert_eq!(data.subtree("/a").count(), 3, "/ab is not under /a");
        data.set("/ab/config", None);
        data.set("/ab", None);
        data.refresh(now);
        assert_eq!(data.jobs().len(), 1);
        assert_eq!(data.events().back().map(|e| e.text.as_str()), Some("job 'ab' removed"));
        // A new read replaces the nodes and logs the difference.
        let reread = vec![node("/a", ""), node("/a/config", "jobName: a\nshardingTotalCount: 1\n")];
        assert_eq!(data.replace(reread, now), 2, "a server gone, the config changed");
        assert_eq!(data.events().back().map(|e| e.text.as_str()), Some("configuration changed"));
    }
}
