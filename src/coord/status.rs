//! Job, server and sharding-item statuses exactly as ElasticJob's statistics API computes them
//! (docs/src/design/compatibility.md#statuses), from a [`JobSnapshot`] snapshot.
//!
//! * [`job_status`]: `JobStatisticsAPI.getJobBriefInfo` — `CRASHED`, `DISABLED`, `SHARDING_FLAG`
//!   or `OK`, evaluated in that order.
//! * [`server_job_status`]: `getJobsBriefInfo(ip)` — one server's view of one job.
//! * [`item_status`] / [`sharding_info`]: `ShardingStatisticsAPI.getShardingInfo` — `DISABLED`,
//!   `RUNNING`, `SHARDING_FLAG` or `PENDING` per item. Where Java throws because the owner's
//!   instance node is gone, the instance id and server IP fall back to the raw owner id.
//! * [`servers_brief`]: `ServerStatisticsAPI.getAllServersBriefInfo` across jobs.
//!
//! Pure functions: no I/O, so every reference vector is a plain unit test.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::Serialize;

use super::snapshot::JobSnapshot;
use crate::registry::codec::{self, ServerStatus};

/// The status of a job (`JobBriefInfo.JobStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum JobStatus {
    /// Instances are up and own the items.
    Ok,
    /// No live instance.
    Crashed,
    /// Every server of the job is `DISABLED` (also when it has no servers at all).
    Disabled,
    /// The assignment is missing or names instances that are gone: sharding is due.
    ShardingFlag,
}

impl JobStatus {
    /// The name ElasticJob uses.
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Ok => "OK",
            JobStatus::Crashed => "CRASHED",
            JobStatus::Disabled => "DISABLED",
            JobStatus::ShardingFlag => "SHARDING_FLAG",
        }
    }
}

impl fmt::Display for JobStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The status of one sharding item (`ShardingInfo.ShardingStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ItemStatus {
    /// `sharding/{i}/disabled` exists.
    Disabled,
    /// `sharding/{i}/running` exists.
    Running,
    /// The owner's instance node is missing (or the item has no owner).
    ShardingFlag,
    /// Owned by a live instance and idle.
    Pending,
}

impl ItemStatus {
    /// The name ElasticJob uses.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemStatus::Disabled => "DISABLED",
            ItemStatus::Running => "RUNNING",
            ItemStatus::ShardingFlag => "SHARDING_FLAG",
            ItemStatus::Pending => "PENDING",
        }
    }
}

impl fmt::Display for ItemStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `getJobBriefInfo(job).status`, in ElasticJob's order:
///
/// 1. `CRASHED` when there are no instances;
/// 2. `DISABLED` when every `servers/*` value is `DISABLED` — zero servers included;
/// 3. `SHARDING_FLAG` when the set of non-empty `sharding/*/instance` values is empty or not a
///    subset of the live instances;
/// 4. `OK` otherwise.
pub fn job_status(view: &JobSnapshot) -> JobStatus {
    if view.instances.is_empty() {
        return JobStatus::Crashed;
    }
    if view.servers.values().all(|s| *s == ServerStatus::Disabled) {
        return JobStatus::Disabled;
    }
    let owners: BTreeSet<&str> =
        view.items.values().filter_map(|i| i.owner.as_deref()).filter(|o| !o.is_empty()).collect();
    if owners.is_empty() || !owners.iter().all(|o| view.instances.contains_key(*o)) {
        return JobStatus::ShardingFlag;
    }
    JobStatus::Ok
}

/// One server's view of a job (`getJobsBriefInfo(ip)`): `None` when the job has no
/// `servers/{ip}`; `DISABLED` when its value is `DISABLED` ignoring case; `OK` otherwise.
pub fn server_job_status(view: &JobSnapshot, ip: &str) -> Option<JobStatus> {
    let status = view.servers.get(ip)?;
    Some(if is_disabled_ignore_case(status) { JobStatus::Disabled } else { JobStatus::Ok })
}

/// The live instances of a job whose server IP (instance YAML `serverIp`) is `ip`.
pub fn instances_on(view: &JobSnapshot, ip: &str) -> Vec<String> {
    view.instances.keys().filter(|id| view.instance_server_ip(id) == ip).cloned().collect()
}

fn is_disabled_ignore_case(status: &ServerStatus) -> bool {
    String::from_utf8_lossy(status.encode()).eq_ignore_ascii_case("DISABLED")
}

/// The status of item `item`: `DISABLED` if disabled, else `RUNNING` if running, else
/// `SHARDING_FLAG` if its owner's `instances/{id}` node does not exist (or it has no owner),
/// else `PENDING`.
pub fn item_status(view: &JobSnapshot, item: u32) -> ItemStatus {
    let Some(state) = view.items.get(&item) else {
        return ItemStatus::ShardingFlag;
    };
    if state.disabled {
        ItemStatus::Disabled
    } else if state.running {
        ItemStatus::Running
    } else if state.owner.as_deref().is_none_or(|o| !view.instances.contains_key(o)) {
        ItemStatus::ShardingFlag
    } else {
        ItemStatus::Pending
    }
}

/// One row of `getShardingInfo`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemInfo {
    /// The item number.
    pub item: u32,
    /// The owner's instance id: from its instance YAML, else the raw `sharding/{i}/instance`
    /// value (Java throws there); `None` when the item has no owner.
    pub instance_id: Option<String>,
    /// The owner's server IP: from its instance YAML, else the IP part of the raw id.
    pub server_ip: Option<String>,
    /// The item status.
    pub status: ItemStatus,
    /// `sharding/{i}/failover` exists.
    pub failover: bool,
}

/// `getShardingInfo(job)`: every child item of `sharding`, plus the items `0..total` that do not
/// exist yet (when `total` is given), sorted by item.
pub fn sharding_info(view: &JobSnapshot, total: Option<u32>) -> Vec<ItemInfo> {
    let mut items: BTreeSet<u32> = view.items.keys().copied().collect();
    items.extend(0..total.unwrap_or(0));
    items
        .into_iter()
        .map(|item| {
            let state = view.items.get(&item);
            let owner = state.and_then(|s| s.owner.as_deref());
            let instance_id = owner.map(|o| match view.instances.get(o) {
                Some(Some(info)) if !info.job_instance_id.is_empty() => info.job_instance_id.clone(),
                _ => o.to_string(),
            });
            let server_ip = owner.map(|o| view.instance_server_ip(o));
            ItemInfo {
                item,
                instance_id,
                server_ip,
                status: item_status(view, item),
                failover: state.is_some_and(|s| s.failover.is_some()),
            }
        })
        .collect()
}

/// `getAllServersBriefInfo` for one server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerBrief {
    /// The server IP.
    pub ip: String,
    /// Ids of live instances whose `serverIp` is this IP, across all jobs.
    pub instances: BTreeSet<String>,
    /// Jobs with a `servers/{ip}` node.
    pub jobs: Vec<String>,
    /// Those of [`ServerBrief::jobs`] where the value is `DISABLED` (ignoring case).
    pub disabled_jobs: Vec<String>,
}

/// `getAllServersBriefInfo()`: one entry per IP that appears under any job's `servers`, sorted
/// by IP string; an instance counts for the server its YAML `serverIp` names.
pub fn servers_brief<'a>(jobs: impl IntoIterator<Item = (&'a str, &'a JobSnapshot)>) -> Vec<ServerBrief> {
    let mut servers: BTreeMap<String, ServerBrief> = BTreeMap::new();
    let mut instances: Vec<(String, String)> = Vec::new();
    for (name, view) in jobs {
        for (ip, status) in &view.servers {
            let brief =
                servers.entry(ip.clone()).or_insert_with(|| ServerBrief { ip: ip.clone(), ..ServerBrief::default() });
            brief.jobs.push(name.to_string());
            if is_disabled_ignore_case(status) {
                brief.disabled_jobs.push(name.to_string());
            }
        }
        for id in view.instances.keys() {
            instances.push((view.instance_server_ip(id), id.clone()));
        }
    }
    for (ip, id) in instances {
        if let Some(brief) = servers.get_mut(&ip) {
            brief.instances.insert(id);
        }
    }
    servers.into_values().collect()
}

/// The IP part of an owner id, for rows where the instance is unknown.
pub fn owner_ip(owner: &str) -> &str {
    codec::instance_ip(owner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::snapshot::ItemSnapshot;
    use crate::registry::codec::{InstanceId, InstanceInfo};

    /// Builds a view: instances (with YAML), servers, item owners.
    fn view(instances: &[&str], servers: &[(&str, &str)], owners: &[(u32, &str)]) -> JobSnapshot {
        let mut v = JobSnapshot::default();
        for id in instances {
            v.instances.insert((*id).to_string(), Some(InstanceInfo::new(&InstanceId::from_raw(*id))));
        }
        for (ip, status) in servers {
            v.servers.insert((*ip).to_string(), ServerStatus::decode(status.as_bytes()));
        }
        for (i, owner) in owners {
            v.items.insert(*i, ItemSnapshot { owner: Some((*owner).to_string()), ..ItemSnapshot::default() });
        }
        v
    }

    const IP1: &str = "ip1@-@defaultInstance";
    const IP2: &str = "ip2@-@defaultInstance";

    // JobStatisticsAPIImplTest vectors (docs/src/design/compatibility.md#statuses).

    #[test]
    fn ok_when_instances_own_the_items() {
        let v = view(&[IP1, IP2], &[("ip1", "ENABLED"), ("ip2", "ENABLED")], &[(0, IP1), (1, IP1), (2, IP2)]);
        assert_eq!(job_status(&v), JobStatus::Ok);
        assert_eq!(v.instances.len(), 2);
    }

    #[test]
    fn partial_disable_is_still_ok() {
        let v = view(&[IP1, IP2], &[("ip1", "DISABLED"), ("ip2", "ENABLED")], &[(0, IP1), (1, IP2)]);
        assert_eq!(job_status(&v), JobStatus::Ok);
    }

    #[test]
    fn disabled_when_every_server_is_disabled() {
        let v = view(&[IP1, IP2], &[("ip1", "DISABLED"), ("ip2", "DISABLED")], &[(0, IP1), (1, IP1), (2, IP2)]);
        assert_eq!(job_status(&v), JobStatus::Disabled);
        // Zero servers also gives DISABLED (`allMatch` over an empty list).
        let no_servers = view(&[IP1], &[], &[(0, IP1)]);
        assert_eq!(job_status(&no_servers), JobStatus::Disabled);
        // Only the exact value counts for the job status.
        let lower = view(&[IP1], &[("ip1", "disabled")], &[(0, IP1)]);
        assert_eq!(job_status(&lower), JobStatus::Ok);
    }

    #[test]
    fn sharding_flag_when_an_owner_is_not_an_instance() {
        let v = view(
            &[IP1, IP2],
            &[("ip1", "ENABLED"), ("ip2", "ENABLED")],
            &[(0, IP1), (1, IP2), (2, "ip3@-@defaultInstance")],
        );
        assert_eq!(job_status(&v), JobStatus::ShardingFlag);
        // No assignment at all.
        let unsharded = view(&[IP1], &[("ip1", "ENABLED")], &[]);
        assert_eq!(job_status(&unsharded), JobStatus::ShardingFlag);
        // Items whose instance value is empty do not count as owners.
        let mut empty_owner = view(&[IP1], &[("ip1", "ENABLED")], &[(0, IP1)]);
        empty_owner.items.insert(1, ItemSnapshot { owner: Some(String::new()), ..ItemSnapshot::default() });
        assert_eq!(job_status(&empty_owner), JobStatus::Ok);
    }

    #[test]
    fn crashed_without_instances() {
        let v = view(&[], &[("ip1", "ENABLED"), ("ip2", "ENABLED")], &[(0, IP1), (1, IP1), (2, IP2)]);
        assert_eq!(job_status(&v), JobStatus::Crashed);
        // CRASHED wins over DISABLED.
        let both = view(&[], &[("ip1", "DISABLED")], &[]);
        assert_eq!(job_status(&both), JobStatus::Crashed);
    }

    #[test]
    fn jobs_brief_by_ip() {
        // job_1 has servers/ip1 (enabled) and one instance on ip1; job_2 has servers/ip1=DISABLED.
        let job1 = view(&["ip1@-@defaultInstance"], &[("ip1", "ENABLED")], &[(0, "ip1@-@defaultInstance")]);
        let job2 = view(&[], &[("ip1", "DISABLED")], &[]);
        assert_eq!(server_job_status(&job1, "ip1"), Some(JobStatus::Ok));
        assert_eq!(instances_on(&job1, "ip1").len(), 1);
        assert_eq!(server_job_status(&job2, "ip1"), Some(JobStatus::Disabled));
        assert_eq!(instances_on(&job2, "ip1").len(), 0);
        // equalsIgnoreCase for the per-IP status.
        let lower = view(&[], &[("ip1", "disabled")], &[]);
        assert_eq!(server_job_status(&lower, "ip1"), Some(JobStatus::Disabled));
        // A job without the server is not listed for it.
        assert_eq!(server_job_status(&job1, "ip9"), None);
        // No `startsWith` prefix matching: 10.0.0.1 has no instance 10.0.0.12@-@1.
        let prefix = view(&["10.0.0.12@-@1"], &[("10.0.0.1", "ENABLED")], &[]);
        assert!(instances_on(&prefix, "10.0.0.1").is_empty());
    }

    #[test]
    fn sharding_info_vector() {
        // ShardingStatisticsAPIImplTest: items 0..3 owned by ip1@-@1234, ip2@-@2341, ip3@-@3412,
        // ip4@-@4123. Item 0 running, item 1 failover with its instance missing, item 2 disabled,
        // item 3 with its instance present.
        let owners = [(0, "ip1@-@1234"), (1, "ip2@-@2341"), (2, "ip3@-@3412"), (3, "ip4@-@4123")];
        let mut v = view(&["ip1@-@1234", "ip3@-@3412", "ip4@-@4123"], &[], &owners);
        v.items.get_mut(&0).unwrap().running = true;
        v.items.get_mut(&1).unwrap().failover = Some("ip4@-@4123".into());
        v.items.get_mut(&2).unwrap().disabled = true;
        let info = sharding_info(&v, None);
        let statuses: Vec<ItemStatus> = info.iter().map(|i| i.status).collect();
        assert_eq!(
            statuses,
            [ItemStatus::Running, ItemStatus::ShardingFlag, ItemStatus::Disabled, ItemStatus::Pending]
        );
        assert_eq!(info.iter().map(|i| i.failover).collect::<Vec<_>>(), [false, true, false, false]);
        assert_eq!(info[0].server_ip.as_deref(), Some("ip1"));
        assert_eq!(info[3].instance_id.as_deref(), Some("ip4@-@4123"));
        // Item 1's instance is gone: Java throws; we fall back to the raw id.
        assert_eq!(info[1].instance_id.as_deref(), Some("ip2@-@2341"));
        assert_eq!(info[1].server_ip.as_deref(), Some("ip2"));
    }

    #[test]
    fn item_status_order_and_missing_items() {
        let mut v = view(&[IP1], &[("ip1", "ENABLED")], &[(0, IP1)]);
        // Disabled beats running.
        let item = v.items.get_mut(&0).unwrap();
        item.running = true;
        item.disabled = true;
        assert_eq!(item_status(&v, 0), ItemStatus::Disabled);
        // A running item whose owner is gone is still RUNNING.
        v.items.get_mut(&0).unwrap().disabled = false;
        v.instances.clear();
        assert_eq!(item_status(&v, 0), ItemStatus::Running);
        // An item that does not exist yet, or has no owner: SHARDING_FLAG, no owner fields.
        let info = sharding_info(&v, Some(3));
        assert_eq!(info.len(), 3);
        assert_eq!(info[2].status, ItemStatus::ShardingFlag);
        assert_eq!(info[2].instance_id, None);
        assert_eq!(info[2].server_ip, None);
    }

    #[test]
    fn instance_yaml_decides_the_server_ip() {
        let mut v = view(&[], &[("10.0.0.9", "ENABLED")], &[(0, "host@-@1")]);
        v.instances.insert(
            "host@-@1".into(),
            Some(InstanceInfo { job_instance_id: "host@-@1".into(), labels: None, server_ip: "10.0.0.9".into() }),
        );
        let info = sharding_info(&v, None);
        assert_eq!(info[0].server_ip.as_deref(), Some("10.0.0.9"));
        assert_eq!(instances_on(&v, "10.0.0.9"), ["host@-@1"]);
    }

    #[test]
    fn servers_brief_across_jobs() {
        let job1 = view(&["ip1@-@1", "ip2@-@2"], &[("ip1", "ENABLED"), ("ip2", "DISABLED")], &[]);
        let job2 = view(&["ip1@-@1"], &[("ip1", "DISABLED")], &[]);
        let job3 = view(&["ip3@-@3"], &[], &[]);
        let briefs = servers_brief([("job1", &job1), ("job2", &job2), ("job3", &job3)]);
        assert_eq!(briefs.len(), 2, "ip3 has no servers node: not a server (Java)");
        assert_eq!(briefs[0].ip, "ip1");
        assert_eq!(briefs[0].jobs, ["job1", "job2"]);
        assert_eq!(briefs[0].disabled_jobs, ["job2"]);
        assert_eq!(briefs[0].instances.iter().collect::<Vec<_>>(), ["ip1@-@1"]);
        assert_eq!(briefs[1].ip, "ip2");
        assert_eq!(briefs[1].disabled_jobs, ["job1"]);
        assert_eq!(owner_ip("ip2@-@2"), "ip2");
    }
}
