//! `ejctl config apply FILE...` and `ejctl config diff FILE...`: the job files' configurations
//! against the registry, planned by [`crate::ops::publish`].
//!
//! `apply` writes every plan in one transaction (all or nothing) and prints per job `created`,
//! `updated` (with the changed keys) or `unchanged`; `-o json`: `{"namespace", "jobs": [{"job",
//! "file", "result", "version", "changed"}]}`. `diff` prints a unified diff of the YAML per
//! drifting job, and exits 1 when there is drift; `-o json`: `{"namespace", "drift", "jobs":
//! [{"job", "file", "action": "create"|"update"|"none", "version", "changed", "old", "new"}]}`.
//!
//! The registry comes from the command line, then a context named with `--context`, then the
//! files' `[registry]`, then the current context ([`crate::cli::context::for_job_files`]);
//! `apply` creates the namespace when it is missing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use serde::Serialize;

use crate::cli::context::{self, Layer};
use crate::cli::global::GlobalArgs;
use crate::cli::output::{Block, Output, Render};
use crate::cli::prompt;
use crate::config::JobConfig;
use crate::exit::{CliError, Exit};
use crate::jobfile;
use crate::ops::config::{self as ops_config, ValueChange};
use crate::ops::publish::{self, Action, Plan};
use crate::ops::text::plain_value;
use crate::registry::codec::JobType;
use crate::registry::path::JobPaths;
use crate::registry::{Registry, RegistryError};

/// One job of a file, planned.
struct FilePlan<'a> {
    file: &'a Path,
    plan: Plan,
}

/// The result of `apply`.
struct Applied<'a> {
    namespace: &'a str,
    plans: Vec<FilePlan<'a>>,
}

#[derive(Serialize)]
struct ApplyDoc<'a> {
    namespace: &'a str,
    jobs: Vec<ApplyJob<'a>>,
}

#[derive(Serialize)]
struct ApplyJob<'a> {
    job: &'a str,
    file: String,
    result: &'static str,
    version: i32,
    changed: &'a BTreeMap<String, ValueChange>,
}

impl Applied<'_> {
    /// Each plan with its result word and the node version after the write.
    fn rows(&self) -> Vec<(&FilePlan<'_>, &'static str, i32)> {
        self.plans
            .iter()
            .map(|p| match p.plan.action {
                Action::Create => (p, "created", 0),
                Action::Update => (p, "updated", p.plan.version.unwrap_or(0) + 1),
                Action::Unchanged => (p, "unchanged", p.plan.version.unwrap_or(0)),
            })
            .collect()
    }
}

impl Render for Applied<'_> {
    fn document(&self) -> impl Serialize {
        ApplyDoc {
            namespace: self.namespace,
            jobs: self
                .rows()
                .into_iter()
                .map(|(p, result, version)| ApplyJob {
                    job: &p.plan.job,
                    file: p.file.display().to_string(),
                    result,
                    version,
                    changed: &p.plan.changed,
                })
                .collect(),
        }
    }

    fn plain(&self) -> Vec<Block> {
        let rows = self
            .rows()
            .iter()
            .map(|(p, result, version)| {
                vec![p.plan.job.clone(), result.to_string(), version.to_string(), p.file.display().to_string()]
            })
            .collect();
        vec![Block::Rows(rows)]
    }

    fn table(&self) -> Vec<Block> {
        let mut text = String::new();
        for (p, result, _) in self.rows() {
            text.push_str(&format!("job '{}': {result}", p.plan.job));
            if p.plan.action == Action::Update {
                let keys: Vec<&str> = p.plan.changed.keys().map(String::as_str).collect();
                text.push_str(&format!(" ({})", keys.join(", ")));
            }
            text.push('\n');
        }
        vec![Block::Text(text)]
    }
}

/// The result of `diff`.
struct Diff<'a> {
    namespace: &'a str,
    plans: Vec<FilePlan<'a>>,
    drift: bool,
}

#[derive(Serialize)]
struct DiffDoc<'a> {
    namespace: &'a str,
    drift: bool,
    jobs: Vec<DiffJob<'a>>,
}

#[derive(Serialize)]
struct DiffJob<'a> {
    job: &'a str,
    file: String,
    action: &'static str,
    version: Option<i32>,
    changed: &'a BTreeMap<String, ValueChange>,
    old: Option<&'a str>,
    new: &'a str,
}

fn action_word(a: Action) -> &'static str {
    match a {
        Action::Create => "create",
        Action::Update => "update",
        Action::Unchanged => "none",
    }
}

impl Render for Diff<'_> {
    fn document(&self) -> impl Serialize {
        DiffDoc {
            namespace: self.namespace,
            drift: self.drift,
            jobs: self
                .plans
                .iter()
                .map(|p| DiffJob {
                    job: &p.plan.job,
                    file: p.file.display().to_string(),
                    action: action_word(p.plan.action),
                    version: p.plan.version,
                    changed: &p.plan.changed,
                    old: p.plan.old_yaml.as_deref(),
                    new: &p.plan.new_yaml,
                })
                .collect(),
        }
    }

    fn plain(&self) -> Vec<Block> {
        let mut rows = Vec::new();
        for p in &self.plans {
            for (k, c) in &p.plan.changed {
                rows.push(vec![
                    p.plan.job.clone(),
                    action_word(p.plan.action).to_string(),
                    k.clone(),
                    plain_value(&c.old),
                    plain_value(&c.new),
                ]);
            }
        }
        vec![Block::Rows(rows)]
    }

    fn table(&self) -> Vec<Block> {
        let mut text = String::new();
        for p in self.plans.iter().filter(|p| p.plan.action != Action::Unchanged) {
            let path = JobPaths::new(&p.plan.job).config();
            match p.plan.version {
                Some(v) => text.push_str(&format!("--- {path} (registry, version {v})\n")),
                None => text.push_str(&format!("--- {path} (absent)\n")),
            }
            text.push_str(&format!("+++ {path} ({})\n", p.file.display()));
            text.push_str(&unified_diff(p.plan.old_yaml.as_deref().unwrap_or(""), &p.plan.new_yaml, 3));
        }
        vec![Block::Text(text)]
    }
}

/// Connects for `apply` (creating the namespace) or `diff` (a missing namespace: `None`).
async fn connect_for_files(global: &GlobalArgs, create_namespace: bool) -> Result<Option<Registry>> {
    let mut options = global.zk_options()?;
    options.create_namespace = create_namespace;
    let namespace = options.namespace.clone();
    let spinner = global.spinner(format!("connecting to {}", options.servers));
    let result = Registry::connect(options).await;
    spinner.finish_and_clear();
    match result {
        Ok(registry) => Ok(Some(registry)),
        Err(RegistryError::NoNode(_)) if !create_namespace => Ok(None),
        Err(RegistryError::NoNode(_)) => {
            Err(CliError::not_found(format!("namespace '{namespace}' does not exist in the registry")).into())
        }
        Err(e) => Err(e).context("cannot connect to the registry"),
    }
}

/// Runs `ejctl config apply` (`write`) or `ejctl config diff`.
///
/// # Errors
/// Bad job files (exit 2), a concurrent change (exit 4), registry errors.
pub async fn apply_or_diff(global: &GlobalArgs, files: &[PathBuf], out: &mut Output, write: bool) -> Result<Exit> {
    let loaded = jobfile::load(files).map_err(|e| CliError::usage(e.to_string()))?;
    for w in &loaded.warnings {
        tracing::warn!("{w}");
    }
    let file_layer = loaded.registry.as_ref().map(Layer::from_section);
    let global = context::for_job_files(global, file_layer.as_ref());
    let registry = connect_for_files(&global, write).await?;
    let namespace = global.namespace.clone().unwrap_or_default().trim_matches('/').to_string();
    let jobs: Vec<(&JobType, &JobConfig)> = loaded.jobs.iter().map(|d| (&d.job_type, &d.config)).collect();
    let plans = publish::plan(registry.as_ref(), &jobs).await?;
    for w in plans.iter().flat_map(|p| &p.warnings) {
        tracing::warn!("{w}");
    }
    let plans: Vec<FilePlan<'_>> =
        loaded.jobs.iter().zip(plans).map(|(def, plan)| FilePlan { file: &def.file, plan }).collect();
    if write {
        if let Some(registry) = &registry {
            let risks: Vec<String> = plans
                .iter()
                .filter(|p| p.plan.action == Action::Update)
                .flat_map(|p| {
                    ops_config::risks(&p.plan.job, p.plan.stored.as_ref(), &p.plan.config, chrono::Utc::now())
                })
                .collect();
            if !risks.is_empty() {
                prompt::confirm(&global, &risks.join("; "))?;
            }
            let plans: Vec<&Plan> = plans.iter().map(|p| &p.plan).collect();
            publish::apply(registry, &plans).await?;
        }
        out.render(&Applied { namespace: &namespace, plans })?;
        Ok(Exit::Ok)
    } else {
        let drift = plans.iter().any(|p| p.plan.action != Action::Unchanged);
        out.render(&Diff { namespace: &namespace, plans, drift })?;
        Ok(if drift { Exit::Failure } else { Exit::Ok })
    }
}

/// `config diff --files A B`: the jobs of two files compared (the old and new YAML of each job
/// that differs, is only in A or only in B).
struct FileDiff {
    old: PathBuf,
    new: PathBuf,
    jobs: Vec<FileDiffJob>,
}

#[derive(Serialize)]
struct FileDiffJob {
    job: String,
    /// `create` (only in the second file), `delete` (only in the first), `update`, `none`.
    action: &'static str,
    changed: BTreeMap<String, ValueChange>,
    #[serde(skip)]
    old_yaml: String,
    #[serde(skip)]
    new_yaml: String,
}

#[derive(Serialize)]
struct FileDiffDoc<'a> {
    old: String,
    new: String,
    drift: bool,
    jobs: &'a [FileDiffJob],
}

impl FileDiff {
    fn drift(&self) -> bool {
        self.jobs.iter().any(|j| j.action != "none")
    }
}

impl Render for FileDiff {
    fn document(&self) -> impl Serialize {
        FileDiffDoc {
            old: self.old.display().to_string(),
            new: self.new.display().to_string(),
            drift: self.drift(),
            jobs: &self.jobs,
        }
    }

    fn plain(&self) -> Vec<Block> {
        let mut rows = Vec::new();
        for j in &self.jobs {
            for (k, c) in &j.changed {
                rows.push(vec![
                    j.job.clone(),
                    j.action.to_string(),
                    k.clone(),
                    plain_value(&c.old),
                    plain_value(&c.new),
                ]);
            }
        }
        vec![Block::Rows(rows)]
    }

    fn table(&self) -> Vec<Block> {
        let mut text = String::new();
        for j in self.jobs.iter().filter(|j| j.action != "none") {
            text.push_str(&format!("--- {} (job '{}')\n", self.old.display(), j.job));
            text.push_str(&format!("+++ {} (job '{}')\n", self.new.display(), j.job));
            text.push_str(&unified_diff(&j.old_yaml, &j.new_yaml, 3));
        }
        vec![Block::Text(text)]
    }
}

/// Runs `ejctl config diff --files A B`: exit 1 when their jobs differ.
///
/// # Errors
/// Not exactly two files, or a bad job file (exit 2).
pub fn diff_files(files: &[PathBuf], out: &mut Output) -> Result<Exit> {
    let [old, new] = files else {
        return Err(CliError::usage(format!("--files compares two job files, got {}", files.len())).into());
    };
    let load = |f: &PathBuf| -> Result<Vec<jobfile::JobDefinition>, CliError> {
        let loaded = jobfile::load(std::slice::from_ref(f)).map_err(|e| CliError::usage(e.to_string()))?;
        Ok(loaded.jobs)
    };
    let (a, b) = (load(old)?, load(new)?);
    let text = |d: &jobfile::JobDefinition| format!("# type: {}\n{}", d.job_type, d.config.to_yaml());
    let mut names: Vec<&str> = a.iter().chain(&b).map(|d| d.config.job_name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let jobs = names
        .into_iter()
        .map(|name| {
            let find = |defs: &[jobfile::JobDefinition]| defs.iter().find(|d| d.config.job_name == name).cloned();
            let (x, y) = (find(&a), find(&b));
            let old_yaml = x.as_ref().map(text).unwrap_or_default();
            let new_yaml = y.as_ref().map(text).unwrap_or_default();
            let changed = match (&x, &y) {
                (Some(x), Some(y)) => crate::ops::config::changes(Some(&x.config), &y.config),
                (None, Some(y)) => crate::ops::config::changes(None, &y.config),
                (Some(x), None) => crate::ops::config::changes(None, &x.config)
                    .into_iter()
                    .map(|(k, c)| (k, ValueChange { old: c.new, new: c.old }))
                    .collect(),
                (None, None) => BTreeMap::new(),
            };
            let action = match (&x, &y) {
                (None, _) => "create",
                (_, None) => "delete",
                _ if old_yaml == new_yaml => "none",
                _ => "update",
            };
            FileDiffJob { job: name.to_string(), action, changed, old_yaml, new_yaml }
        })
        .collect();
    let diff = FileDiff { old: old.clone(), new: new.clone(), jobs };
    out.render(&diff)?;
    Ok(if diff.drift() { Exit::Failure } else { Exit::Ok })
}

/// A unified line diff (hunks with `context` lines around changes), without file headers.
fn unified_diff(old: &str, new: &str, context: usize) -> String {
    #[derive(Clone, Copy, PartialEq)]
    enum Line {
        Same,
        Del,
        Ins,
    }
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    // (kind, index in a, index in b, text): for Del / Ins the other index is the position.
    let mut ops: Vec<(Line, usize, usize, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push((Line::Same, i, j, a[i]));
            i += 1;
            j += 1;
        } else if j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push((Line::Del, i, j, a[i]));
            i += 1;
        } else {
            ops.push((Line::Ins, i, j, b[j]));
            j += 1;
        }
    }
    let changed: Vec<usize> = ops.iter().enumerate().filter(|(_, o)| o.0 != Line::Same).map(|(k, _)| k).collect();
    let mut hunks: Vec<(usize, usize)> = Vec::new();
    for &k in &changed {
        let start = k.saturating_sub(context);
        let end = (k + context + 1).min(ops.len());
        match hunks.last_mut() {
            Some(last) if start <= last.1 => last.1 = end,
            _ => hunks.push((start, end)),
        }
    }
    let mut out = String::new();
    for (start, end) in hunks {
        let slice = &ops[start..end];
        let old_len = slice.iter().filter(|o| o.0 != Line::Ins).count();
        let new_len = slice.iter().filter(|o| o.0 != Line::Del).count();
        let (a0, b0) = (slice[0].1, slice[0].2);
        let old_start = if old_len == 0 { a0 } else { a0 + 1 };
        let new_start = if new_len == 0 { b0 } else { b0 + 1 };
        out.push_str(&format!("@@ -{old_start},{old_len} +{new_start},{new_len} @@\n"));
        for (kind, _, _, text) in slice {
            let mark = match kind {
                Line::Same => ' ',
                Line::Del => '-',
                Line::Ins => '+',
            };
            out.push(mark);
            out.push_str(text);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unified_diffs() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
        let new = "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\n";
        assert_eq!(unified_diff(old, new, 2), "@@ -2,5 +2,5 @@\n b\n c\n-d\n+D\n e\n f\n@@ -9,2 +9,3 @@\n i\n j\n+k\n");
        assert_eq!(unified_diff("", "x\ny\n", 3), "@@ -0,0 +1,2 @@\n+x\n+y\n");
        assert_eq!(unified_diff("same\n", "same\n", 3), "");
    }
}
