//! `ejctl dump [JOB]`: the registry tree (the namespace, or one job) with node values.
//!
//! The tree is read with pipelined multi-read requests ([`Registry::read_subtree`]), so a large
//! namespace costs a few round trips per level, not one per node. Formats:
//!
//! * `table` (default): an indented tree for people; multi-line values (the config YAML) are
//!   printed under their node.
//! * `plain`: one node per line, the document's fields tab-separated: `path value ephemeral
//!   version mtime`, parents first (newlines, tabs and backslashes in values as `\n`, `\t`,
//!   `\\`).
//! * `--elasticjob` (any format but the documents): ElasticJob's dump lines
//!   (docs/src/design/compatibility.md#dump): `path | value`, children in reverse lexicographic
//!   order, pre-order, without the job root line — the same text a Java worker's dump port prints,
//!   so the two can be diffed.
//! * `json` / `yaml`: `{"namespace", "job", "nodes": [{"path", "value", "ephemeral", "version",
//!   "mtime"}]}`, parents before children.
//!
//! `--addr HOST:PORT` asks a worker's dump port instead (`dump@{job}` line protocol) and prints
//! its answer. `--mask-ips` replaces every IPv4 address with `ip1`, `ip2`, ... in order of first
//! appearance, consistently across the whole output, as ElasticJob's `SensitiveInfoUtils` does.
//! Secrets of job configurations are masked ([`crate::config::secrets`]) unless `--show-secrets`;
//! a worker's dump port always masks them.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::global::GlobalArgs;
use super::output::{Block, Output, Render};
use crate::config::secrets;
use crate::exit::{CliError, Exit};
use crate::registry::path::{self, JobPaths};
use crate::registry::snapshot::{self, IpMasker};
use crate::registry::{Registry, TreeNode};

/// Arguments of `ejctl dump`.
#[derive(Debug, Args)]
pub struct DumpArgs {
    /// Dump only this job.
    pub job: Option<String>,
    /// Ask a worker's dump port (`dump@JOB` protocol) instead of reading the registry.
    #[arg(long, value_name = "HOST:PORT", requires = "job")]
    pub addr: Option<String>,
    /// Replace IPv4 addresses with ip1, ip2, ... (as ElasticJob's dump does).
    #[arg(long)]
    pub mask_ips: bool,
    /// Print ElasticJob's dump lines (`path | value`), as a Java worker's dump port answers.
    #[arg(long)]
    pub elasticjob: bool,
    /// Show the secrets of job configurations (`email.password`, `dingtalk.secret`, tokens in
    /// webhook URLs) instead of `****`.
    #[arg(long)]
    pub show_secrets: bool,
}

/// Runs `ejctl dump`.
///
/// # Errors
/// Registry errors, an unknown job (exit 3), an unreachable dump port.
pub async fn exec(global: &GlobalArgs, args: DumpArgs, out: &mut Output) -> Result<Exit> {
    if let Some(job) = &args.job {
        path::validate_job_name(job).map_err(CliError::usage)?;
    }
    if let (Some(addr), Some(job)) = (&args.addr, &args.job) {
        return dump_port(global, addr, job, args.mask_ips, out).await;
    }
    let registry = super::global::connect(global).await?;
    let namespace = global.namespace.clone().unwrap_or_default();
    let root =
        args.job.as_ref().map_or_else(|| path::NAMESPACE_ROOT.to_string(), |j| JobPaths::new(j).root().to_string());
    let Some(mut nodes) = read_tree(global, &registry, &root).await? else {
        let job = args.job.as_deref().unwrap_or_default();
        return Err(crate::ops::Admin::new(registry, &namespace).missing_job(job).await.into());
    };
    if !args.show_secrets {
        for n in &mut nodes {
            let text = n.node.text();
            let masked = secrets::mask_yaml(&text);
            if masked != text {
                n.node.data = masked.into_bytes();
            }
        }
    }
    let elasticjob = args.elasticjob;
    out.render(&Dump { tree: Tree::new(nodes), root, namespace, job: args.job, mask_ips: args.mask_ips, elasticjob })?;
    Ok(Exit::Ok)
}

/// A dump read from the registry. Each format masks IPs with a masker of its own, so that the
/// numbering follows the order of appearance in what is printed.
struct Dump {
    tree: Tree,
    root: String,
    namespace: String,
    job: Option<String>,
    mask_ips: bool,
    elasticjob: bool,
}

impl Dump {
    fn elasticjob_lines(&self) -> Vec<Block> {
        let mut masker = IpMasker::new(self.mask_ips);
        vec![Block::Text(self.tree.elasticjob_lines(&self.root, self.job.is_some(), &mut masker))]
    }
}

impl Render for Dump {
    fn document(&self) -> impl Serialize {
        self.tree.document(&self.namespace, self.job.as_deref(), &mut IpMasker::new(self.mask_ips))
    }

    fn plain(&self) -> Vec<Block> {
        if self.elasticjob {
            return self.elasticjob_lines();
        }
        let doc = self.tree.document(&self.namespace, self.job.as_deref(), &mut IpMasker::new(self.mask_ips));
        let escape = |v: &str| v.replace('\\', "\\\\").replace('\n', "\\n").replace('\t', "\\t").replace('\r', "\\r");
        let rows = doc
            .nodes
            .iter()
            .map(|n| {
                vec![escape(&n.path), escape(&n.value), n.ephemeral.to_string(), n.version.to_string(), n.mtime.clone()]
            })
            .collect();
        vec![Block::Rows(rows)]
    }

    fn table(&self) -> Vec<Block> {
        if self.elasticjob {
            return self.elasticjob_lines();
        }
        vec![Block::Text(self.tree.render(&self.root, &self.namespace, &mut IpMasker::new(self.mask_ips)))]
    }
}

/// What a worker's dump port answered.
#[derive(Serialize)]
struct PortDump<'a> {
    job: &'a str,
    addr: &'a str,
    text: String,
}

impl Render for PortDump<'_> {
    fn document(&self) -> impl Serialize {
        self
    }

    fn plain(&self) -> Vec<Block> {
        vec![Block::Text(self.text.clone())]
    }

    fn table(&self) -> Vec<Block> {
        self.plain()
    }
}

async fn read_tree(global: &GlobalArgs, registry: &Registry, root: &str) -> Result<Option<Vec<TreeNode>>> {
    let bar = if global.show_progress() {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} reading {pos} nodes ({per_sec})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(Duration::from_millis(100));
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let progress = |n: usize| bar.set_position(n as u64);
    let nodes = registry.read_subtree(root, &progress).await.with_context(|| format!("cannot read {root}"))?;
    bar.finish_and_clear();
    Ok(nodes)
}

/// Reads a worker's dump port: sends `dump@{job}\n`, reads until the worker closes.
async fn dump_port(global: &GlobalArgs, addr: &str, job: &str, mask_ips: bool, out: &mut Output) -> Result<Exit> {
    if job.contains('@') {
        return Err(
            CliError::usage(format!("job '{job}' contains '@' and cannot be dumped through a dump port")).into()
        );
    }
    let deadline = global.connect_timeout.max(Duration::from_secs(1));
    let exchange = async {
        let mut stream = tokio::net::TcpStream::connect(addr).await?;
        stream.write_all(format!("dump@{job}\n").as_bytes()).await?;
        let mut reply = Vec::new();
        stream.read_to_end(&mut reply).await?;
        Ok::<_, std::io::Error>(reply)
    };
    let reply = tokio::time::timeout(deadline * 6, exchange)
        .await
        .map_err(|_| anyhow::anyhow!("the dump port at {addr} did not answer within {:?}", deadline * 6))?
        .with_context(|| format!("cannot read the dump port at {addr}"))?;
    let text = IpMasker::new(mask_ips).mask(&String::from_utf8_lossy(&reply));
    out.render(&PortDump { job, addr, text })?;
    Ok(Exit::Ok)
}

/// The nodes of a dump, indexed by parent.
struct Tree {
    nodes: HashMap<String, TreeNode>,
    children: HashMap<String, Vec<String>>,
}

/// One node of the JSON / YAML document.
#[derive(Serialize)]
struct DocNode {
    path: String,
    value: String,
    ephemeral: bool,
    version: i32,
    mtime: String,
}

#[derive(Serialize)]
struct Doc {
    namespace: String,
    job: Option<String>,
    nodes: Vec<DocNode>,
}

impl Tree {
    fn new(list: Vec<TreeNode>) -> Tree {
        let mut children: HashMap<String, Vec<String>> = HashMap::new();
        let mut nodes = HashMap::with_capacity(list.len());
        for n in list {
            if n.path != "/" {
                children.entry(path::parent(&n.path).to_string()).or_default().push(path::name(&n.path).to_string());
            }
            nodes.insert(n.path.clone(), n);
        }
        Tree { nodes, children }
    }

    fn value(&self, p: &str) -> String {
        self.nodes.get(p).map(|n| n.node.text()).unwrap_or_default()
    }

    /// Child names in natural order (numeric names by number).
    fn sorted_children(&self, p: &str) -> Vec<String> {
        let mut names = self.children.get(p).cloned().unwrap_or_default();
        names.sort_by(|a, b| match (path::parse_item(a), path::parse_item(b)) {
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => a.cmp(b),
        });
        names
    }

    /// ElasticJob's dump format: pre-order, reverse lexicographic children, `path | value`.
    fn elasticjob_lines(&self, root: &str, skip_root: bool, masker: &mut IpMasker) -> String {
        let mut out = String::new();
        let mut stack = vec![root.to_string()];
        while let Some(p) = stack.pop() {
            if !(p == "/" || (skip_root && p == root)) {
                let _ = writeln!(out, "{}", snapshot::dump_line(&masker.mask(&p), &masker.mask(&self.value(&p)), None));
            }
            let mut names = self.children.get(&p).cloned().unwrap_or_default();
            path::sort_reverse_java(&mut names);
            // Pushed in reverse so the first (largest) child is visited first.
            for name in names.iter().rev() {
                stack.push(path::child(&p, name));
            }
        }
        out
    }

    /// The indented tree.
    fn render(&self, root: &str, namespace: &str, masker: &mut IpMasker) -> String {
        let mut out = String::new();
        if root == "/" {
            let _ = writeln!(out, "/{}", masker.mask(namespace));
        } else {
            let value = self.value(root);
            let _ = writeln!(out, "{}{}", masker.mask(root), inline_value(&masker.mask(&value)));
        }
        self.render_children(root, "", masker, &mut out);
        out
    }

    fn render_children(&self, p: &str, prefix: &str, masker: &mut IpMasker, out: &mut String) {
        let names = self.sorted_children(p);
        let last = names.len().saturating_sub(1);
        for (i, name) in names.iter().enumerate() {
            let child = path::child(p, name);
            let (branch, cont) = if i == last { ("└── ", "    ") } else { ("├── ", "│   ") };
            let value = masker.mask(&self.value(&child));
            let name = masker.mask(name);
            let inner = format!("{prefix}{cont}");
            if value.contains('\n') {
                let _ = writeln!(out, "{prefix}{branch}{name}");
                let bar = if self.children.contains_key(&child) { "│" } else { " " };
                for line in value.trim_end_matches('\n').lines() {
                    let _ = writeln!(out, "{inner}{bar}   {line}");
                }
            } else {
                let _ = writeln!(out, "{prefix}{branch}{name}{}", inline_value(&value));
            }
            self.render_children(&child, &inner, masker, out);
        }
    }

    fn document(&self, namespace: &str, job: Option<&str>, masker: &mut IpMasker) -> Doc {
        let mut nodes = Vec::with_capacity(self.nodes.len());
        let root = job.map_or_else(|| "/".to_string(), |j| JobPaths::new(j).root().to_string());
        let mut stack = vec![root];
        while let Some(p) = stack.pop() {
            if let Some(n) = self.nodes.get(&p)
                && p != "/"
            {
                nodes.push(DocNode {
                    path: masker.mask(&p),
                    value: masker.mask(&n.node.text()),
                    ephemeral: n.node.stat.ephemeral_owner != 0,
                    version: n.node.stat.version,
                    mtime: chrono::DateTime::from_timestamp_millis(n.node.stat.mtime)
                        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
                        .unwrap_or_default(),
                });
            }
            for name in self.sorted_children(&p).iter().rev() {
                stack.push(path::child(&p, name));
            }
        }
        Doc { namespace: masker.mask(namespace), job: job.map(|j| masker.mask(j)), nodes }
    }
}

fn inline_value(value: &str) -> String {
    if value.is_empty() { String::new() } else { format!(" = {value}") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{NodeData, Stat};

    fn node(path: &str, value: &str) -> TreeNode {
        TreeNode { path: path.into(), node: NodeData { data: value.as_bytes().to_vec(), stat: Stat::default() } }
    }

    #[test]
    fn elasticjob_lines_are_reverse_ordered_without_the_root() {
        let tree = Tree::new(vec![
            node("/j", "SCRIPT"),
            node("/j/config", "cron: x\njobName: j\n"),
            node("/j/sharding", ""),
            node("/j/sharding/0", ""),
            node("/j/sharding/10", ""),
            node("/j/sharding/2", ""),
            node("/j/sharding/2/instance", "10.0.0.1@-@5"),
        ]);
        let text = tree.elasticjob_lines("/j", true, &mut IpMasker::new(true));
        assert_eq!(
            text,
            "/j/sharding | \n/j/sharding/2 | \n/j/sharding/2/instance | ip1@-@5\n/j/sharding/10 | \n/j/sharding/0 | \n/j/config | cron: x\njobName: j\n\n"
        );
    }

    #[test]
    fn tree_rendering() {
        let tree = Tree::new(vec![
            node("/", ""),
            node("/j", "SCRIPT"),
            node("/j/config", "cron: x\njobName: j\n"),
            node("/j/sharding", ""),
            node("/j/sharding/10", ""),
            node("/j/sharding/2", ""),
        ]);
        let text = tree.render("/", "ns", &mut IpMasker::new(false));
        assert_eq!(
            text,
            "/ns\n└── j = SCRIPT\n    ├── config\n    │       cron: x\n    │       jobName: j\n    └── sharding\n        ├── 2\n        └── 10\n"
        );
    }
}
