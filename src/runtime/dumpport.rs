//! The dump port (`[instance] dump_port`): ElasticJob's `SnapshotService`
//! (docs/src/design/compatibility.md#dump).
//!
//! One request per connection: the client sends one line `dump@{job}`; the worker answers with
//! the job's subtree read directly from the registry, one `path | value` line per node (children
//! in reverse lexicographic order, the job root left out), adding `| cachePath | cacheValue`
//! where the worker's cache disagrees, with IPv4 addresses masked; then it closes the
//! connection. Anything else closes the connection without an answer.
//!
//! At most [`MAX_CONNECTIONS`] requests are answered at once (one more connection is closed as
//! soon as it is accepted), a request line must come within [`REQUEST_TIMEOUT`], and an answer
//! that the client does not read within [`ANSWER_TIMEOUT`] is abandoned: idle or slow clients
//! cannot take the file descriptors the jobs need.

use std::collections::HashMap;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;

use super::StopMode;
use crate::config::secrets::mask_yaml;
use crate::registry::cache::CacheReader;
use crate::registry::path::{self, JobPaths};
use crate::registry::snapshot::{IpMasker, dump_line, parse_dump_request};
use crate::registry::{Registry, TreeNode};
use crate::retry::{self, Attempts, Jitter};

/// Requests answered at once.
const MAX_CONNECTIONS: usize = 16;

/// How long a client may take to send its request line.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a whole request may take, the answer's writing included.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// Serves dump requests until the worker stops.
pub(crate) async fn serve(
    listener: TcpListener,
    registry: Registry,
    jobs: HashMap<String, CacheReader>,
    mut stop: watch::Receiver<StopMode>,
) {
    let mut connections = JoinSet::new();
    // Accepting after an error (out of file descriptors, say) backs off until it works again.
    let (mut refused, jitter) = (Attempts::default(), Jitter::from_os());
    loop {
        tokio::select! {
            biased;
            changed = stop.changed() => {
                if changed.is_err() || !matches!(*stop.borrow(), StopMode::Run) {
                    return;
                }
            }
            // Ended requests before new ones: under a flood of connections their slots free up.
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            accepted = listener.accept() => match accepted {
                // Over the cap the connection is dropped, which closes it.
                Ok(_) if connections.len() >= MAX_CONNECTIONS => refused.reset(),
                Ok((stream, _)) => {
                    refused.reset();
                    let registry = registry.clone();
                    let jobs = jobs.clone();
                    connections.spawn(async move {
                        match tokio::time::timeout(ANSWER_TIMEOUT, answer(stream, &registry, &jobs)).await {
                            Ok(Ok(())) => {}
                            Ok(Err(e)) => tracing::debug!(error = %e, "dump request failed"),
                            Err(_) => tracing::debug!("dump request abandoned: the client was too slow"),
                        }
                    });
                }
                Err(e) => {
                    tracing::warn!(error = %e, "dump port accept failed");
                    tokio::time::sleep(refused.fail(&retry::ACCEPT, jitter.draw())).await;
                }
            },
        }
    }
}

async fn answer(stream: TcpStream, registry: &Registry, jobs: &HashMap<String, CacheReader>) -> anyhow::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut line = String::new();
    let mut reader = BufReader::new(read.take(4096));
    tokio::time::timeout(REQUEST_TIMEOUT, reader.read_line(&mut line)).await??;
    let Some(job) = parse_dump_request(&line) else {
        return Ok(());
    };
    let Some(text) = dump_text(registry, jobs, job).await? else {
        return Ok(());
    };
    write.write_all(text.as_bytes()).await?;
    write.shutdown().await?;
    Ok(())
}

/// What the dump port answers for `job` (also served on `/dump/{job}`); `None` when this worker
/// does not run the job.
pub(crate) async fn dump_text(
    registry: &Registry,
    jobs: &HashMap<String, CacheReader>,
    job: &str,
) -> anyhow::Result<Option<String>> {
    let Some(cache) = jobs.get(job) else {
        return Ok(None);
    };
    let paths = JobPaths::new(job);
    let nodes = registry.read_subtree(paths.root(), &|_| {}).await?.unwrap_or_default();
    Ok(Some(render(&paths, &nodes, cache)))
}

/// The dump text for a job: pre-order, reverse lexicographic children, root left out.
fn render(paths: &JobPaths, nodes: &[TreeNode], cache: &CacheReader) -> String {
    let mut children: HashMap<&str, Vec<String>> = HashMap::new();
    let mut values: HashMap<&str, String> = HashMap::new();
    for n in nodes {
        children.entry(path::parent(&n.path)).or_default().push(path::name(&n.path).to_string());
        values.insert(&n.path, n.node.text());
    }
    let view = cache.read();
    let mut masker = IpMasker::new(true);
    let mut lines = Vec::with_capacity(nodes.len());
    let mut stack = vec![paths.root().to_string()];
    while let Some(p) = stack.pop() {
        if p != paths.root() {
            let value = values.get(p.as_str()).cloned().unwrap_or_default();
            // A lazily cached node (a marker whose data the worker never reads) agrees when present.
            let cached = view
                .node(&p)
                .map(|c| c.data.as_deref().map_or_else(|| value.clone(), crate::registry::codec::decode_text));
            // Secrets never leave through the port: anyone on the machine can ask it.
            let line = match cached {
                Some(c) if c == value => dump_line(&p, &mask_yaml(&value), None),
                Some(c) => dump_line(&p, &mask_yaml(&value), Some((&p, &mask_yaml(&c)))),
                None => dump_line(&p, &mask_yaml(&value), Some(("", ""))),
            };
            lines.push(masker.mask(&line));
        }
        let mut names = children.get(p.as_str()).cloned().unwrap_or_default();
        path::sort_reverse_java(&mut names);
        for name in names.iter().rev() {
            stack.push(path::child(&p, name));
        }
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}
