//! Every mutation of ElasticJob's `JobOperateAPI` and `ShardingOperateAPI`
//! (docs/src/design/compatibility.md#admin-operations), with its node effects, in two steps:
//! plan ([`Change`]s from a read, validated before anything is written) and apply
//! ([`Admin::apply`], in transactions). A caller that asks for confirmation (`job shutdown`, `job
//! remove`, ...) does so between the two.
//!
//! * job disable/enable (pause/resume): `servers/{ip}` = `DISABLED` / `ENABLED` on every server
//!   of the job or one ([`job_status`]); the same for one IP across every job
//!   ([`server_status`]).
//! * shutdown: delete the instance nodes of the job, or of one server ([`job_shutdown`]; across
//!   jobs: [`server_shutdown`]). Each owning process stops the job until it is restarted.
//! * remove: shutdown, then delete `servers/{ip}`; with purge, the whole `/{job}` tree
//!   ([`job_remove`], [`server_shutdown`] with `remove`).
//! * item disable/enable: create or delete `sharding/{item}/disabled` ([`item_switch`]). Unlike
//!   Java, items are validated: each must be an integer in `0..shardingTotalCount`.
//!
//! Plans contain only what differs from the read, so applying the same request twice is a no-op
//! the second time; a node that vanished meanwhile is left out of what [`Admin::apply`] reports.

use serde::Serialize;

use super::OpsError;
use super::read::JobData;
use super::{Admin, check_ip};
use crate::coord::status;
use crate::registry::codec::{self, ServerStatus};
use crate::registry::path::{self, ItemLeaf, JobPaths};
use crate::registry::{Mode, Op};

/// A planned change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Set `servers/{ip}`.
    Server {
        /// The job.
        job: String,
        /// The server.
        ip: String,
        /// The new value.
        to: ServerStatus,
    },
    /// Delete `instances/{id}`.
    Instance {
        /// The job.
        job: String,
        /// The instance id.
        id: String,
    },
    /// Delete `servers/{ip}`.
    DeleteServer {
        /// The job.
        job: String,
        /// The server.
        ip: String,
    },
    /// Delete the whole `/{job}` tree.
    Purge {
        /// The job.
        job: String,
    },
    /// Create (`disable`) or delete `sharding/{item}/disabled`.
    Item {
        /// The job.
        job: String,
        /// The item.
        item: u32,
        /// True to disable the item, false to enable it.
        disable: bool,
        /// `sharding` must be created first (ElasticJob's `persist` creates parents).
        create_sharding: bool,
        /// `sharding/{item}` must be created first.
        create_item: bool,
    },
}

impl Change {
    /// The instance whose node this change deletes, if any.
    pub fn instance_id(&self) -> Option<&str> {
        match self {
            Change::Instance { id, .. } => Some(id),
            _ => None,
        }
    }

    /// True when this change deletes a `servers/{ip}` node.
    pub fn deletes_server(&self) -> bool {
        matches!(self, Change::DeleteServer { .. })
    }

    /// What the change did, once applied.
    fn done(&self) -> Changed {
        let (job, server, instance, item, effect) = match self {
            Change::Server { job, ip, to } => {
                (job, Some(ip.clone()), None, None, if to.is_enabled() { "enabled" } else { "disabled" })
            }
            Change::Instance { job, id } => (job, None, Some(id.clone()), None, "deleted"),
            Change::DeleteServer { job, ip } => (job, Some(ip.clone()), None, None, "deleted"),
            Change::Purge { job } => (job, None, None, None, "deleted"),
            Change::Item { job, item, disable, .. } => {
                (job, None, None, Some(*item), if *disable { "disabled" } else { "enabled" })
            }
        };
        Changed { job: job.clone(), server, instance, item, effect }
    }
}

/// One change that took effect (the `changed` entries of an action document).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Changed {
    /// The job.
    pub job: String,
    /// The server concerned (`servers/{ip}` set or deleted), if any.
    pub server: Option<String>,
    /// The instance concerned (instance node deleted), if any.
    pub instance: Option<String>,
    /// The sharding item concerned, if any.
    pub item: Option<u32>,
    /// `disabled`, `enabled` or `deleted`.
    pub effect: &'static str,
}

/// Most operations per transaction.
const TRANSACTION_CHUNK: usize = 500;

impl Admin {
    /// Applies changes in order: server values (in transactions of at most 500), item switches
    /// (one transaction), instance deletions, server deletions, purges. Returns the changes that
    /// took effect (a node that vanished meanwhile is left out).
    ///
    /// # Errors
    /// Registry errors; a failed transaction wrote nothing of its part.
    pub async fn apply(&self, changes: &[Change]) -> Result<Vec<Changed>, OpsError> {
        let registry = self.registry();
        let mut done = Vec::new();
        let sets: Vec<(&Change, Op)> = changes
            .iter()
            .filter_map(|c| match c {
                Change::Server { job, ip, to } => Some((
                    c,
                    Op::Set { path: JobPaths::new(job).server(ip), data: to.encode().to_vec(), version: None },
                )),
                _ => None,
            })
            .collect();
        for chunk in sets.chunks(TRANSACTION_CHUNK) {
            let ops: Vec<Op> = chunk.iter().map(|(_, op)| op.clone()).collect();
            registry.transaction(&ops).await.map_err(|e| OpsError::registry("cannot change the server status", e))?;
            done.extend(chunk.iter().map(|(c, _)| c.done()));
        }
        let items: Vec<&Change> = changes.iter().filter(|c| matches!(c, Change::Item { .. })).collect();
        if let Some(Change::Item { job, disable, .. }) = items.first() {
            let ops: Vec<Op> = items.iter().flat_map(|c| item_ops(c)).collect();
            let action = if *disable { "disable" } else { "enable" };
            registry
                .transaction(&ops)
                .await
                .map_err(|e| OpsError::registry(format!("cannot {action} items of job '{job}'"), e))?;
            done.extend(items.iter().map(|c| c.done()));
        }
        let instances: Vec<&Change> = changes.iter().filter(|c| matches!(c, Change::Instance { .. })).collect();
        let deleted = futures::future::join_all(instances.iter().map(|c| async move {
            let Change::Instance { job, id } = c else { return Ok(false) };
            registry
                .delete_if_exists(&JobPaths::new(job).instance(id))
                .await
                .map_err(|e| OpsError::registry(format!("cannot delete instance '{id}' of job '{job}'"), e))
        }))
        .await;
        for (c, result) in instances.iter().zip(deleted) {
            if result? {
                done.push(c.done());
            }
        }
        for c in changes {
            let (path, what) = match c {
                Change::DeleteServer { job, ip } => {
                    (JobPaths::new(job).server(ip), format!("server '{ip}' of job '{job}'"))
                }
                Change::Purge { job } => (JobPaths::new(job).root().to_string(), format!("job '{job}'")),
                _ => continue,
            };
            let deleted = registry
                .delete_recursive(&path)
                .await
                .map_err(|e| OpsError::registry(format!("cannot delete {what}"), e))?;
            if deleted {
                done.push(c.done());
            }
        }
        Ok(done)
    }

    /// Reads a job, disables or enables it on every server or on `server`, and returns what
    /// changed (`job disable|enable`).
    ///
    /// # Errors
    /// See [`Admin::read_job`], [`job_status`] and [`Admin::apply`].
    pub async fn set_job_status(
        &self,
        job: &str,
        server: Option<&str>,
        to: &ServerStatus,
    ) -> Result<Vec<Changed>, OpsError> {
        let job = self.read_job(job).await?;
        let changes = job_status(self, &job, server, to)?;
        self.apply(&changes).await
    }
}

/// The operations of an item switch.
fn item_ops(change: &Change) -> Vec<Op> {
    let Change::Item { job, item, disable, create_sharding, create_item } = change else { return Vec::new() };
    let paths = JobPaths::new(job);
    let create = |path: String| Op::Create { path, data: codec::EMPTY.to_vec(), mode: Mode::Persistent };
    if !disable {
        return vec![Op::Delete { path: paths.item_leaf(*item, ItemLeaf::Disabled), version: None }];
    }
    let mut ops = Vec::new();
    if *create_sharding {
        ops.push(create(paths.sharding()));
    }
    if *create_item {
        ops.push(create(paths.item(*item)));
    }
    ops.push(create(paths.item_leaf(*item, ItemLeaf::Disabled)));
    ops
}

/// Checks that `ip` is a server of `job` (`servers/{ip}` exists, or with `or_instances` a live
/// instance runs there).
fn check_server(admin: &Admin, job: &JobData, ip: &str, or_instances: bool) -> Result<(), OpsError> {
    check_ip(ip)?;
    if job.view.servers.contains_key(ip) || (or_instances && !status::instances_on(&job.view, ip).is_empty()) {
        return Ok(());
    }
    let hint = super::text::did_you_mean(ip, job.view.servers.keys().map(String::as_str));
    Err(OpsError::not_found(format!(
        "server '{ip}' not found in job '{}' (namespace '{}'){hint}",
        job.name,
        admin.namespace()
    )))
}

/// `job disable|enable|pause|resume JOB [--server IP]`: `servers/{ip}` set to `to` wherever it
/// is not already.
///
/// # Errors
/// A malformed IP (exit 2), a server the job does not have (exit 3).
pub fn job_status(
    admin: &Admin,
    job: &JobData,
    server: Option<&str>,
    to: &ServerStatus,
) -> Result<Vec<Change>, OpsError> {
    if let Some(ip) = server {
        check_server(admin, job, ip, false)?;
    }
    Ok(job
        .view
        .servers
        .iter()
        .filter(|(ip, status)| server.is_none_or(|s| s == ip.as_str()) && *status != to)
        .map(|(ip, _)| Change::Server { job: job.name.clone(), ip: ip.clone(), to: to.clone() })
        .collect())
}

/// `job shutdown JOB [--server IP]`: delete the instance nodes of the job (on `server`).
///
/// # Errors
/// A malformed IP (exit 2), a server with neither a node nor a live instance (exit 3).
pub fn job_shutdown(admin: &Admin, job: &JobData, server: Option<&str>) -> Result<Vec<Change>, OpsError> {
    if let Some(ip) = server {
        check_server(admin, job, ip, true)?;
    }
    Ok(job.instances_on(server).into_iter().map(|id| Change::Instance { job: job.name.clone(), id }).collect())
}

/// `job remove JOB [--server IP] [--purge]`: shutdown, then delete `servers/{ip}` (every one, or
/// `server`'s); with `purge` also the whole job tree.
///
/// # Errors
/// See [`job_shutdown`].
pub fn job_remove(admin: &Admin, job: &JobData, server: Option<&str>, purge: bool) -> Result<Vec<Change>, OpsError> {
    let mut changes = job_shutdown(admin, job, server)?;
    changes.extend(
        job.view
            .servers
            .keys()
            .filter(|ip| server.is_none_or(|s| s == ip.as_str()))
            .map(|ip| Change::DeleteServer { job: job.name.clone(), ip: ip.clone() }),
    );
    if purge {
        changes.push(Change::Purge { job: job.name.clone() });
    }
    Ok(changes)
}

/// Checks that `ip` is known to at least one job (a `servers/{ip}` node, or with `or_instances`
/// a live instance on it): the `server ...` commands act on every such job.
///
/// # Errors
/// A malformed IP (exit 2), an IP no job knows (exit 3).
pub fn server_known(admin: &Admin, jobs: &[JobData], ip: &str, or_instances: bool) -> Result<(), OpsError> {
    check_ip(ip)?;
    let known = jobs
        .iter()
        .any(|j| j.view.servers.contains_key(ip) || (or_instances && !status::instances_on(&j.view, ip).is_empty()));
    if known {
        Ok(())
    } else {
        let known = jobs.iter().flat_map(|j| j.view.servers.keys().map(String::as_str));
        let hint = super::text::did_you_mean(ip, known);
        Err(OpsError::not_found(format!("server '{ip}' not found in namespace '{}'{hint}", admin.namespace())))
    }
}

/// `server disable|enable IP`: `servers/{ip}` set to `to` in every job that has it and differs.
pub fn server_status(jobs: &[JobData], ip: &str, to: &ServerStatus) -> Vec<Change> {
    jobs.iter()
        .filter(|j| j.view.servers.get(ip).is_some_and(|s| s != to))
        .map(|j| Change::Server { job: j.name.clone(), ip: ip.to_string(), to: to.clone() })
        .collect()
}

/// `server shutdown|remove IP`: delete the instances on `ip` in every job; with `remove` also
/// every job's `servers/{ip}`.
pub fn server_shutdown(jobs: &[JobData], ip: &str, remove: bool) -> Vec<Change> {
    let mut changes = Vec::new();
    for j in jobs {
        changes.extend(
            status::instances_on(&j.view, ip).into_iter().map(|id| Change::Instance { job: j.name.clone(), id }),
        );
    }
    if remove {
        changes.extend(
            jobs.iter()
                .filter(|j| j.view.servers.contains_key(ip))
                .map(|j| Change::DeleteServer { job: j.name.clone(), ip: ip.to_string() }),
        );
    }
    changes
}

/// Parses and range-checks items named by the user: each an integer in
/// `0..shardingTotalCount`; duplicates are dropped, the order is kept.
///
/// # Errors
/// Exit 3 for a job without usable `shardingTotalCount` or an item out of range.
pub fn check_items(admin: &Admin, job: &JobData, items: &[String]) -> Result<Vec<u32>, OpsError> {
    let total = job.total().ok_or_else(|| {
        OpsError::not_found(format!(
            "job '{}' has no sharding items in namespace '{}' ({})",
            job.name,
            admin.namespace(),
            job.config.as_ref().err().cloned().unwrap_or_else(|| "shardingTotalCount is not positive".into())
        ))
    })?;
    let range =
        if total == 1 { "the only item is 0".to_string() } else { format!("valid items are 0 to {}", total - 1) };
    let mut out = Vec::new();
    for raw in items {
        if !raw.trim().chars().all(|c| c.is_ascii_digit()) || raw.trim().is_empty() {
            return Err(OpsError::usage(format!("'{raw}' is not an item number: {range}")));
        }
        match path::parse_item(raw.trim()).filter(|i| *i < total) {
            Some(item) => {
                if !out.contains(&item) {
                    out.push(item);
                }
            }
            None => {
                return Err(OpsError::not_found(format!(
                    "item '{raw}' not found in job '{}': {range} (shardingTotalCount {total})",
                    job.name
                )));
            }
        }
    }
    Ok(out)
}

/// `sharding disable|enable JOB ITEM...`: the items (checked with [`check_items`]) and the
/// switches of those not already in the asked state. Applied, the switches are one transaction.
///
/// # Errors
/// See [`check_items`].
pub fn item_switch(
    admin: &Admin,
    job: &JobData,
    items: &[String],
    disable: bool,
) -> Result<(Vec<u32>, Vec<Change>), OpsError> {
    let items = check_items(admin, job, items)?;
    let mut changes = Vec::new();
    let mut sharding_created = job.view.sharding_root;
    for &item in &items {
        let state = job.view.items.get(&item);
        if disable == state.is_some_and(|s| s.disabled) {
            continue;
        }
        changes.push(Change::Item {
            job: job.name.clone(),
            item,
            disable,
            create_sharding: disable && !sharding_created,
            create_item: disable && state.is_none(),
        });
        sharding_created |= disable;
    }
    Ok((items, changes))
}
