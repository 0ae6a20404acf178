//! Pruning servers that are gone for good: `servers/{ip}` nodes that nothing uses any more.
//!
//! ElasticJob keeps a `servers/{ip}` node per IP that ever ran a job; where pod IPs come and go
//! (Kubernetes), they accumulate without bound. A server node is *prunable* when, in its job:
//!
//! * no live instance runs on that IP (`instances/{ip}@-@*`, the IP compared exactly);
//! * no sharding item refers to an instance on that IP (`sharding/{item}/instance`, or
//!   `sharding/{item}/failovering` of a failover in progress);
//! * its value is not `DISABLED` (an operator's decision, kept until the operator enables it);
//! * it was last written at least `older_than` ago (its `mtime`), so a server that is just
//!   registering (the server node is written before the instance node) is left alone.
//!
//! [`Admin::plan_prune`] finds them (two rounds of pipelined reads for all jobs together);
//! [`Admin::prune`] deletes them, one transaction per job of version-checked deletes, after
//! reading the instances again: a server that came alive meanwhile (an instance appeared, or its
//! node was written) is not removed. `ejctl server prune` and a worker's `prune_servers_after`
//! setting use these.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use serde::Serialize;

use super::Admin;
use super::OpsError;
use super::change::Changed;
use crate::registry::codec::{ServerStatus, decode_text, instance_ip};
use crate::registry::path::{ItemLeaf, JobPaths, parse_item};
use crate::registry::{Op, RegistryError};

/// A server node that nothing uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Prunable {
    /// The job.
    pub job: String,
    /// The server IP.
    pub ip: String,
    /// The node's version when it was read (the delete is checked against it).
    #[serde(skip)]
    pub version: i32,
    /// When the node was last written, milliseconds since the epoch.
    pub mtime: i64,
}

/// What was read of one job's servers.
struct JobServers {
    job: String,
    /// `servers/{ip}`: value, version, mtime.
    servers: Vec<(String, ServerStatus, i32, i64)>,
    /// IPs in use: live instances and instances named by sharding items.
    in_use: BTreeSet<String>,
}

impl JobServers {
    /// The prunable servers: unused, not disabled and not written since `cutoff_ms`.
    fn prunable(self, cutoff_ms: i64) -> Vec<Prunable> {
        let job = self.job;
        let in_use = self.in_use;
        self.servers
            .into_iter()
            .filter(|(ip, status, _, mtime)| {
                !in_use.contains(ip) && *status != ServerStatus::Disabled && *mtime <= cutoff_ms
            })
            .map(|(ip, _, version, mtime)| Prunable { job: job.clone(), ip, version, mtime })
            .collect()
    }
}

impl Admin {
    /// The server nodes of `jobs` (every job of the namespace when `None`) that nothing uses and
    /// that were not written during the last `older_than` before `now_ms`.
    ///
    /// # Errors
    /// Registry errors.
    pub async fn plan_prune(
        &self,
        jobs: Option<&[String]>,
        older_than: Duration,
        now_ms: i64,
    ) -> Result<Vec<Prunable>, OpsError> {
        let names = match jobs {
            Some(jobs) => jobs.to_vec(),
            None => self.job_names().await?,
        };
        let cannot = |e| OpsError::registry("cannot read the servers", e);
        let registry = self.registry();
        let paths: Vec<JobPaths> = names.iter().map(|n| JobPaths::new(n)).collect();
        let lists: Vec<String> = paths.iter().flat_map(|p| [p.servers(), p.instances(), p.sharding()]).collect();
        let children = registry.children_many(&lists).await.map_err(cannot)?;
        let mut reads = Vec::new();
        // Per job: its server IPs and what is known so far, and the span of its reads.
        let mut read: Vec<(Vec<String>, JobServers)> = Vec::new();
        let mut spans = Vec::new();
        for (i, (name, p)) in names.iter().zip(&paths).enumerate() {
            let [ips, instances, items] = [0, 1, 2].map(|k| children[3 * i + k].clone().unwrap_or_default());
            let in_use: BTreeSet<String> = instances.iter().map(|id| instance_ip(id).to_string()).collect();
            let start = reads.len();
            reads.extend(ips.iter().map(|ip| p.server(ip)));
            for item in items.iter().filter_map(|s| parse_item(s)) {
                reads.push(p.item_leaf(item, ItemLeaf::Instance));
                reads.push(p.item_leaf(item, ItemLeaf::Failovering));
            }
            spans.push((start, reads.len()));
            read.push((ips, JobServers { job: name.clone(), servers: Vec::new(), in_use }));
        }
        let values = registry.get_many(&reads).await.map_err(cannot)?;
        let mut out = Vec::new();
        let cutoff = now_ms.saturating_sub(i64::try_from(older_than.as_millis()).unwrap_or(i64::MAX));
        for ((ips, mut job), (start, end)) in read.into_iter().zip(spans) {
            let count = ips.len();
            for (ip, node) in ips.into_iter().zip(&values[start..start + count]) {
                if let Some(node) = node {
                    job.servers.push((ip, ServerStatus::decode(&node.data), node.stat.version, node.stat.mtime));
                }
            }
            for node in values[start + count..end].iter().flatten() {
                let owner = decode_text(&node.data);
                if !owner.is_empty() {
                    job.in_use.insert(instance_ip(&owner).to_string());
                }
            }
            out.extend(job.prunable(cutoff));
        }
        Ok(out)
    }

    /// Deletes the planned server nodes that are still unused: each job's instances are read
    /// again first, and the deletes are checked against the versions read, in one transaction
    /// per job (a job whose transaction fails is done node by node). Returns what was deleted;
    /// a server that came alive or changed meanwhile is kept.
    ///
    /// # Errors
    /// Registry errors other than a node that changed or vanished meanwhile.
    pub async fn prune(&self, plan: &[Prunable]) -> Result<Vec<Changed>, OpsError> {
        let cannot = |e| OpsError::registry("cannot prune the servers", e);
        let registry = self.registry();
        let mut by_job: BTreeMap<&str, Vec<&Prunable>> = BTreeMap::new();
        for p in plan {
            by_job.entry(&p.job).or_default().push(p);
        }
        let jobs: Vec<&str> = by_job.keys().copied().collect();
        let lists: Vec<String> = jobs.iter().map(|j| JobPaths::new(j).instances()).collect();
        let live = registry.children_many(&lists).await.map_err(cannot)?;
        let mut done = Vec::new();
        for (job, live) in jobs.into_iter().zip(live) {
            let live: BTreeSet<String> =
                live.unwrap_or_default().iter().map(|id| instance_ip(id).to_string()).collect();
            let paths = JobPaths::new(job);
            let go: Vec<&Prunable> = by_job[job].iter().copied().filter(|p| !live.contains(&p.ip)).collect();
            let delete = |p: &Prunable| Op::Delete { path: paths.server(&p.ip), version: Some(p.version) };
            let ops: Vec<Op> = go.iter().map(|p| delete(p)).collect();
            let deleted: Vec<&Prunable> = match registry.transaction(&ops).await {
                Ok(()) => go,
                Err(RegistryError::Transaction { .. }) => {
                    let mut one_by_one = Vec::new();
                    for p in go {
                        match registry.transaction(&[delete(p)]).await {
                            Ok(()) => one_by_one.push(p),
                            Err(RegistryError::Transaction { .. }) => {}
                            Err(e) => return Err(cannot(e)),
                        }
                    }
                    one_by_one
                }
                Err(e) => return Err(cannot(e)),
            };
            done.extend(deleted.into_iter().map(|p| Changed {
                job: p.job.clone(),
                server: Some(p.ip.clone()),
                instance: None,
                item: None,
                effect: "deleted",
            }));
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_unused_enabled_old_servers_are_prunable() {
        let status = |s: &str| ServerStatus::decode(s.as_bytes());
        let job = JobServers {
            job: "j".into(),
            servers: vec![
                ("10.0.0.1".into(), status("ENABLED"), 0, 100),
                ("10.0.0.2".into(), status("ENABLED"), 3, 100),
                ("10.0.0.3".into(), status("DISABLED"), 1, 100),
                ("10.0.0.4".into(), status(""), 0, 100),
                ("10.0.0.5".into(), status("ENABLED"), 0, 900),
            ],
            in_use: ["10.0.0.1".to_string()].into_iter().collect(),
        };
        let got: Vec<(String, i32)> = job.prunable(500).into_iter().map(|p| (p.ip, p.version)).collect();
        // In use, disabled, or written after the cutoff: kept.
        assert_eq!(got, [("10.0.0.2".to_string(), 3), ("10.0.0.4".to_string(), 0)]);
    }
}
