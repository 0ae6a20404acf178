//! Triggering a job now (ElasticJob's `JobOperateAPI.trigger`,
//! docs/src/design/compatibility.md#admin-operations): `trigger/{id}` for every live instance,
//! after clearing what an earlier trigger left.
//!
//! Waiting for that fire is an ejctl extension: the trigger nodes carry a fresh token, ejctl
//! workers record each item's outcome at `trigger-results/{token}/{item}`, and
//! [`TriggerWait::wait`] follows that subtree with a registry watch (no polling) until every
//! expected item has a result, the timeout passes or the caller's interrupt fires. Only ejctl
//! workers report results; a Java instance runs the trigger but never reports, so a wait on a
//! Java cluster ends at the timeout.
//!
//! The expected items are those a worker runs for a trigger: owned by a live instance on an
//! enabled server and not disabled ([`expected_items`]); the others are reported as skipped,
//! with the reason.

use std::collections::BTreeMap;
use std::future::Future;
use std::time::Duration;

use serde::Serialize;

use super::Admin;
use super::OpsError;
use super::read::JobData;
use super::text::humanize;
use crate::registry::codec::{self, TriggerResult};
use crate::registry::path::{self, JobPaths, Node};
use crate::registry::{Mode, Op, Registry, SubtreeWatch, WatchEvent};

/// An item a trigger does not run, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The item.
    pub item: u32,
    /// Why no worker runs it for this trigger.
    pub reason: String,
}

/// One item's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemResult {
    /// The item.
    pub item: u32,
    /// The instance that ran it.
    pub instance: String,
    /// True when it succeeded.
    pub success: bool,
    /// The process exit code (or 128 + signal), when there was a process.
    pub exit_code: Option<i32>,
    /// How long the run took.
    pub elapsed_ms: u64,
    /// Why it failed, or a short note.
    pub message: Option<String>,
}

/// Which items a trigger will run, with their owners: those owned by a live instance on an
/// enabled server and not disabled (what an ejctl worker runs for a trigger); the others, with
/// the reason.
pub fn expected_items(job: &JobData, total: u32) -> (BTreeMap<u32, String>, Vec<Skipped>) {
    let mut expected = BTreeMap::new();
    let mut skipped = Vec::new();
    for item in 0..total {
        let state = job.view.items.get(&item);
        let owner = state.and_then(|s| s.owner.clone());
        let reason = match (&owner, state) {
            (_, Some(s)) if s.disabled => Some("the item is disabled".to_string()),
            (None, _) => Some("the item has no owner yet (sharding pending)".to_string()),
            (Some(o), _) if !job.view.instances.contains_key(o) => Some(format!("its owner {o} is not live")),
            (Some(o), _) if !job.view.is_available(o) => {
                Some(format!("its owner's server {} is disabled", job.view.instance_server_ip(o)))
            }
            _ => None,
        };
        match (reason, owner) {
            (Some(reason), _) => skipped.push(Skipped { item, reason }),
            (None, owner) => {
                expected.extend(owner.map(|o| (item, o)));
            }
        }
    }
    (expected, skipped)
}

impl Admin {
    /// Triggers `job` on every live instance and returns their ids.
    ///
    /// # Errors
    /// A job without live instances (exit 1), registry errors.
    pub async fn trigger(&self, job: &JobData) -> Result<Vec<String>, OpsError> {
        let ids = live_instances(job)?;
        self.write_triggers(job, &ids, None).await?;
        Ok(ids)
    }

    /// Triggers `job` on every live instance with a fresh token, watching where the results of
    /// that fire will appear; [`TriggerWait::wait`] then collects them.
    ///
    /// # Errors
    /// A job without live instances or without a usable `shardingTotalCount` (exit 1), no item
    /// a worker would run (exit 4), registry errors.
    pub async fn trigger_and_watch(&self, job: &JobData) -> Result<TriggerWait, OpsError> {
        let ids = live_instances(job)?;
        let total = job.total().ok_or_else(|| {
            OpsError::failure(format!(
                "job '{}' has no usable shardingTotalCount: {}",
                job.name,
                job.config.as_ref().err().cloned().unwrap_or_else(|| "it is not positive".into())
            ))
        })?;
        let (expected, skipped) = expected_items(job, total);
        if expected.is_empty() {
            return Err(OpsError::refused(format!(
                "job '{}': no item is owned by a live instance on an enabled server, nothing to wait for ({})",
                job.name,
                skipped.iter().map(|s| format!("item {}: {}", s.item, s.reason)).collect::<Vec<_>>().join("; ")
            )));
        }
        let token = uuid::Uuid::new_v4().to_string();
        // Watch the results before anything can be written there.
        let watch = self.registry().watch_subtree(&job.paths.trigger_results(&token)).await?;
        self.write_triggers(job, &ids, Some(&token)).await?;
        Ok(TriggerWait {
            registry: self.registry().clone(),
            job: job.name.clone(),
            paths: job.paths.clone(),
            token,
            instances: ids,
            expected,
            skipped,
            watch,
        })
    }

    /// Clears `trigger` and creates `trigger/{id}` for each instance, in one transaction.
    async fn write_triggers(&self, job: &JobData, ids: &[String], token: Option<&str>) -> Result<(), OpsError> {
        let registry = self.registry();
        registry
            .delete_recursive(&job.paths.triggers())
            .await
            .map_err(|e| OpsError::registry(format!("cannot clear the trigger nodes of job '{}'", job.name), e))?;
        let data = codec::encode_trigger(token);
        let mut ops = vec![Op::Create { path: job.paths.triggers(), data: Vec::new(), mode: Mode::Persistent }];
        ops.extend(ids.iter().map(|id| Op::Create {
            path: job.paths.trigger(id),
            data: data.clone(),
            mode: Mode::Persistent,
        }));
        registry
            .transaction(&ops)
            .await
            .map_err(|e| OpsError::registry(format!("cannot trigger job '{}'", job.name), e))
    }
}

/// The live instances of a job, which must have at least one.
fn live_instances(job: &JobData) -> Result<Vec<String>, OpsError> {
    let ids: Vec<String> = job.view.instances.keys().cloned().collect();
    if ids.is_empty() {
        return Err(OpsError::refused(format!(
            "job '{}' has no live instances to trigger: start a worker with its job file (ejctl run FILE)",
            job.name
        )));
    }
    Ok(ids)
}

/// A fire triggered with [`Admin::trigger_and_watch`], whose results have not been collected yet.
pub struct TriggerWait {
    registry: Registry,
    job: String,
    paths: JobPaths,
    token: String,
    instances: Vec<String>,
    expected: BTreeMap<u32, String>,
    skipped: Vec<Skipped>,
    watch: SubtreeWatch,
}

/// How a wait ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitOutcome {
    /// Every expected item has a result.
    Done,
    /// The timeout passed first.
    TimedOut,
    /// The caller's interrupt fired first.
    Interrupted,
}

/// What a triggered fire did.
#[derive(Debug, Clone)]
pub struct TriggerReport {
    /// The job.
    pub job: String,
    /// The instances triggered.
    pub triggered: Vec<String>,
    /// The token of this fire.
    pub token: String,
    /// The results received, by item.
    pub results: Vec<ItemResult>,
    /// Expected items without a result.
    pub missing: Vec<u32>,
    /// Items no worker runs for this trigger.
    pub skipped: Vec<Skipped>,
    /// The expected items and their owners.
    pub expected: BTreeMap<u32, String>,
    /// How the wait ended.
    pub outcome: WaitOutcome,
    /// How long the wait could last.
    pub timeout: Duration,
}

impl TriggerWait {
    /// The token of this fire.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The items waited for, with their owners.
    pub fn expected(&self) -> &BTreeMap<u32, String> {
        &self.expected
    }

    /// Waits until every expected item has a result, `timeout` passes or `interrupt` completes;
    /// `progress` is told how many expected items have a result whenever that may have changed.
    /// The results subtree is deleted afterwards.
    ///
    /// # Errors
    /// Registry errors while reading results; the registry connection closing.
    pub async fn wait(
        mut self,
        timeout: Duration,
        progress: impl FnMut(usize),
        interrupt: impl Future,
    ) -> Result<TriggerReport, OpsError> {
        let waited = self.collect(timeout, progress, interrupt).await;
        if let Err(e) = self.registry.delete_recursive(&self.paths.trigger_results(&self.token)).await {
            tracing::warn!(job = %self.job, error = %e, "cannot delete the trigger results");
        }
        let (results, outcome) = waited?;
        let missing: Vec<u32> = self.expected.keys().filter(|i| !results.contains_key(i)).copied().collect();
        let results = results
            .into_iter()
            .map(|(item, r)| ItemResult {
                item,
                instance: r.instance,
                success: r.success,
                exit_code: r.exit_code,
                elapsed_ms: r.elapsed_ms,
                message: r.message,
            })
            .collect();
        Ok(TriggerReport {
            job: self.job,
            triggered: self.instances,
            token: self.token,
            results,
            missing,
            skipped: self.skipped,
            expected: self.expected,
            outcome,
            timeout,
        })
    }

    async fn collect(
        &mut self,
        timeout: Duration,
        mut progress: impl FnMut(usize),
        interrupt: impl Future,
    ) -> Result<(BTreeMap<u32, TriggerResult>, WaitOutcome), OpsError> {
        let mut interrupt = std::pin::pin!(interrupt);
        let deadline = tokio::time::Instant::now() + timeout;
        let mut results = self.read_results().await?;
        loop {
            progress(self.expected.keys().filter(|i| results.contains_key(i)).count());
            if self.expected.keys().all(|i| results.contains_key(i)) {
                return Ok((results, WaitOutcome::Done));
            }
            tokio::select! {
                event = self.watch.next() => match event {
                    Some(WatchEvent::Created(p) | WatchEvent::Changed(p)) => {
                        if let Some((_, Node::TriggerResult(t, item))) = path::parse(&p)
                            && t == self.token
                            && let Some(node) = self.registry.get(&p).await?
                        {
                            match TriggerResult::decode(&node.data) {
                                Ok(r) => {
                                    results.insert(item, r);
                                }
                                Err(e) => tracing::warn!(job = %self.job, item, error = %e, "unreadable trigger result"),
                            }
                        }
                    }
                    Some(WatchEvent::Resync) => results = self.read_results().await?,
                    Some(WatchEvent::Deleted(_)) => {}
                    None => {
                        return Err(OpsError::failure(format!(
                            "the registry connection closed while waiting for job '{}'",
                            self.job
                        )));
                    }
                },
                () = tokio::time::sleep_until(deadline) => return Ok((results, WaitOutcome::TimedOut)),
                _ = &mut interrupt => return Ok((results, WaitOutcome::Interrupted)),
            }
        }
    }

    /// Every result written so far for this fire.
    async fn read_results(&self) -> Result<BTreeMap<u32, TriggerResult>, OpsError> {
        let root = self.paths.trigger_results(&self.token);
        let names = self.registry.children(&root).await?.unwrap_or_default();
        let items: Vec<u32> = names.iter().filter_map(|n| path::parse_item(n)).collect();
        let paths: Vec<String> = items.iter().map(|i| self.paths.trigger_result(&self.token, *i)).collect();
        let nodes = self.registry.get_many(&paths).await?;
        let mut out = BTreeMap::new();
        for (item, node) in items.into_iter().zip(nodes) {
            if let Some(node) = node {
                match TriggerResult::decode(&node.data) {
                    Ok(r) => {
                        out.insert(item, r);
                    }
                    Err(e) => tracing::warn!(job = %self.job, item, error = %e, "unreadable trigger result"),
                }
            }
        }
        Ok(out)
    }
}

impl TriggerReport {
    /// True when every expected item reported success.
    pub fn ok(&self) -> bool {
        self.missing.is_empty() && self.results.iter().all(|r| r.success)
    }

    /// The error this fire ends with, if any: an interrupted wait (exit 130), expected items
    /// without a result at the timeout or failed items (exit 1).
    pub fn error(&self) -> Option<OpsError> {
        if self.outcome == WaitOutcome::Interrupted {
            return Some(OpsError::interrupted(format!("interrupted while waiting for job '{}'", self.job)));
        }
        let failed: Vec<&ItemResult> = self.results.iter().filter(|r| !r.success).collect();
        let failures = match failed.as_slice() {
            [] => None,
            [one] => Some(format!(
                "item {} failed on {}{}",
                one.item,
                one.instance,
                one.exit_code.map(|c| format!(" (exit code {c})")).unwrap_or_default()
            )),
            many => Some(format!(
                "{} items failed ({})",
                many.len(),
                many.iter().map(|r| r.item.to_string()).collect::<Vec<_>>().join(", ")
            )),
        };
        if !self.missing.is_empty() {
            let items: Vec<String> = self.missing.iter().map(u32::to_string).collect();
            let also = failures.map(|f| format!("; {f}")).unwrap_or_default();
            return Some(OpsError::failure(format!(
                "job '{}': timed out after {} waiting for item{} {}{also}",
                self.job,
                humanize(self.timeout),
                if self.missing.len() == 1 { "" } else { "s" },
                items.join(", ")
            )));
        }
        failures.map(|f| OpsError::failure(format!("job '{}': {f}", self.job)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{NodeData, Stat, TreeNode};

    fn node(path: &str, value: &str) -> TreeNode {
        TreeNode { path: path.into(), node: NodeData { data: value.as_bytes().to_vec(), stat: Stat::default() } }
    }

    #[test]
    fn expected_items_follow_what_a_worker_runs() {
        let nodes = vec![
            node("/j", "SCRIPT"),
            node("/j/config", "jobName: j\nshardingTotalCount: 5\n"),
            node("/j/servers/10.0.0.1", "ENABLED"),
            node("/j/servers/10.0.0.2", "DISABLED"),
            node("/j/instances/10.0.0.1@-@1", "jobInstanceId: 10.0.0.1@-@1\nserverIp: 10.0.0.1\n"),
            node("/j/instances/10.0.0.2@-@2", "jobInstanceId: 10.0.0.2@-@2\nserverIp: 10.0.0.2\n"),
            node("/j/sharding/0/instance", "10.0.0.1@-@1"),
            node("/j/sharding/1/instance", "10.0.0.1@-@1"),
            node("/j/sharding/1/disabled", ""),
            node("/j/sharding/2/instance", "10.0.0.2@-@2"),
            node("/j/sharding/3/instance", "10.0.0.3@-@3"),
        ];
        let job = JobData::from_nodes("j", &nodes);
        assert_eq!(job.total(), Some(5));
        let (expected, skipped) = expected_items(&job, 5);
        assert_eq!(expected.keys().copied().collect::<Vec<_>>(), [0]);
        let reasons: Vec<(u32, &str)> = skipped.iter().map(|s| (s.item, s.reason.as_str())).collect();
        assert_eq!(
            reasons,
            [
                (1, "the item is disabled"),
                (2, "its owner's server 10.0.0.2 is disabled"),
                (3, "its owner 10.0.0.3@-@3 is not live"),
                (4, "the item has no owner yet (sharding pending)"),
            ]
        );
    }
}
