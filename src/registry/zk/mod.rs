//! The ZooKeeper backend of [`Registry`](super::Registry), on the `zookeeper-client` crate.
//!
//! * **Connecting**: the connect string is validated up front; connection attempts fail eagerly
//!   per attempt and are retried with backoff ([`crate::retry::ZK_CONNECT`]) until the connection
//!   timeout; the namespace node is
//!   created (persistent, with the session's ACL) when asked and the client is chrooted to it; a
//!   first read of the namespace proves the credentials.
//! * **ACLs**: with a digest every node is created creator-only (`CREATOR_ALL_ACL`, as
//!   ElasticJob's ACL provider does), and so with a TLS client certificate (ZooKeeper's x509
//!   authentication: the ACL names the certificate's subject); otherwise open.
//! * **Session supervision**: a task follows the client's state. Disconnected and reconnected are
//!   published as they happen. A terminal state (expired, closed, auth failed) is published as
//!   [`LinkState::Expired`]; the task then builds a new client (retrying with backoff,
//!   [`crate::retry::ZK_SESSION`], jittered: every worker of a cluster does it at once), swaps it
//!   in and bumps the session epoch, which tells owners to re-create their ephemeral nodes.
//!   `zookeeper-client` declares a session expired on its own after about 1.4 × the session
//!   timeout without a successful reconnect, so a partitioned process learns of the expiry even
//!   when it cannot hear from the server.
//! * **Watches**: `zookeeper-client` 0.11 does not re-register persistent watches after a
//!   reconnect (`resend_watches` sends only the one-shot lists). `ZkWatch` therefore re-adds its
//!   watch on every `SyncConnected` that follows a `Disconnected`, and on the new client after an
//!   expiry, swapping the new watcher in before dropping the old one so no `RemoveWatches` is
//!   sent, and yields [`WatchEvent::Resync`](crate::registry::WatchEvent::Resync): events during a disconnect are lost anyway
//!   (ZOOKEEPER-4698), so the consumer must re-read.
//! * **TLS** ([`ZkTls`], `tls.rs`): with TLS settings every server of the connect string is
//!   reached over TLS (ZooKeeper's `secureClientPort`), verified against the given CA, with an
//!   optional client certificate for ZooKeeper's x509 authentication (with which creator-only
//!   ACLs name the certificate's subject).
//! * **Requests** carry a deadline (the request timeout) so that no caller waits forever on a
//!   registry that is gone; the error is [`RegistryError::Timeout`]. Reads of many nodes are
//!   pipelined multi-reads (`reads.rs`).

mod reads;
mod subtree;
mod tls;

pub(crate) use self::subtree::ZkWatch;
pub use self::tls::ZkTls;

use std::future::Future;
use std::sync::{Arc, RwLock, Weak};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;
use zookeeper_client as zkc;

use super::{LinkState, Mode, NodeData, Op, RegistryError, Result, SessionStatus, Stat, path};
use crate::retry::{self, Attempts, Jitter};

/// How to reach a ZooKeeper registry.
#[derive(Debug, Clone)]
pub struct ZkOptions {
    /// The connect string, `host1:2181,host2:2181`.
    pub servers: String,
    /// The namespace (chroot), without the leading `/`.
    pub namespace: String,
    /// `user:password` for digest authentication.
    pub digest: Option<String>,
    /// The session timeout asked for (the server clamps it to 2–20 × its tick time).
    pub session_timeout: Duration,
    /// How long connecting may take, across retries.
    pub connection_timeout: Duration,
    /// How long one request may take before it fails with [`RegistryError::Timeout`].
    pub request_timeout: Duration,
    /// Create the namespace node when it is missing (workers); admin commands leave it alone.
    pub create_namespace: bool,
    /// Reach the servers over TLS.
    pub tls: Option<ZkTls>,
    /// With credentials, accept namespace and job nodes that others can read or write
    /// ([`super::Registry::foreign_access`]); workers refuse them otherwise.
    pub allow_open_acl: bool,
}

impl ZkOptions {
    /// Options with ElasticJob's defaults: 60 s session (clamped by the server), 15 s connection
    /// timeout, requests bounded by the session timeout.
    pub fn new(servers: &str, namespace: &str) -> ZkOptions {
        ZkOptions {
            servers: servers.to_string(),
            namespace: namespace.to_string(),
            digest: None,
            session_timeout: Duration::from_secs(60),
            connection_timeout: Duration::from_secs(15),
            request_timeout: Duration::from_secs(60),
            create_namespace: false,
            tls: None,
            allow_open_acl: false,
        }
    }

    /// Whether the connection has an identity of its own (a digest, or a client certificate):
    /// the nodes it creates are then creator-only.
    pub fn has_identity(&self) -> bool {
        self.digest.is_some() || self.tls.as_ref().is_some_and(|t| t.cert.is_some())
    }
}

/// Checks a connect string: comma-separated `host[:port]` entries (port 2181 when omitted), no
/// chroot suffix (the namespace is the chroot). Returns the normalised string.
///
/// # Errors
/// [`RegistryError::InvalidConnectString`] naming what is wrong.
pub fn parse_connect_string(servers: &str) -> Result<String> {
    let invalid = |reason: String| RegistryError::InvalidConnectString { servers: servers.to_string(), reason };
    let trimmed = servers.trim();
    if trimmed.is_empty() {
        return Err(invalid("it is empty".into()));
    }
    if let Some((scheme, _)) = trimmed.split_once("://") {
        return Err(invalid(format!(
            "a connect string has no scheme ('{scheme}://'): write HOST:PORT[,HOST:PORT...], such as zk1:2181,zk2:2181"
        )));
    }
    if let Some(i) = trimmed.find('/') {
        return Err(invalid(format!("it has a path '{}'; the namespace is set separately", &trimmed[i..])));
    }
    let mut hosts = Vec::new();
    for entry in trimmed.split(',') {
        let entry = entry.trim();
        if entry.is_empty() {
            return Err(invalid("it has an empty host entry".into()));
        }
        let (host, port) = match entry.rsplit_once(':') {
            Some((h, p)) if !h.contains(':') || h.starts_with('[') => (h, Some(p)),
            _ => (entry, None),
        };
        let host_ok = !host.is_empty() && host.chars().all(|c| c.is_ascii_alphanumeric() || "-._[]:".contains(c));
        if !host_ok {
            return Err(invalid(format!("'{host}' is not a host name or address")));
        }
        let port = match port {
            None => 2181,
            Some(p) => match p.parse::<u16>() {
                Ok(p) if p > 0 => p,
                _ => return Err(invalid(format!("'{p}' is not a port number"))),
            },
        };
        hosts.push(format!("{host}:{port}"));
    }
    Ok(hosts.join(","))
}

/// The ZooKeeper backend: the current client (replaced after an expiry) and its supervisor.
pub(crate) struct ZkBackend {
    options: ZkOptions,
    servers: String,
    client: RwLock<zkc::Client>,
    status: watch::Sender<SessionStatus>,
    supervisor: std::sync::Mutex<Option<JoinHandle<()>>>,
    renew: mpsc::UnboundedSender<oneshot::Sender<()>>,
}

impl Drop for ZkBackend {
    fn drop(&mut self) {
        if let Ok(mut guard) = self.supervisor.lock()
            && let Some(task) = guard.take()
        {
            task.abort();
        }
    }
}

impl ZkBackend {
    /// The namespace (chroot), without the leading `/`.
    pub(crate) fn namespace(&self) -> &str {
        &self.options.namespace
    }

    pub(crate) async fn connect(options: ZkOptions) -> Result<Arc<ZkBackend>> {
        path::validate_namespace(&options.namespace)
            .map_err(|reason| RegistryError::InvalidConnectString { servers: options.servers.clone(), reason })?;
        let servers = parse_connect_string(&options.servers)?;
        // Local mistakes first (unusable TLS files), then the names, then the network.
        if let Some(tls) = &options.tls {
            tls.options().map_err(RegistryError::TlsConfig)?;
        }
        resolve_hosts(&servers, options.connection_timeout).await?;
        let client = establish(&options, &servers).await?;
        let status = SessionStatus { epoch: 1, session_id: client.session_id().0, state: LinkState::Connected };
        let states = client.state_watcher();
        let (renew, renewals) = mpsc::unbounded_channel();
        let backend = Arc::new(ZkBackend {
            options,
            servers,
            client: RwLock::new(client),
            status: watch::Sender::new(status),
            supervisor: std::sync::Mutex::new(None),
            renew,
        });
        let task = tokio::spawn(supervise(Arc::downgrade(&backend), states, renewals));
        *crate::sync::lock(&backend.supervisor) = Some(task);
        Ok(backend)
    }

    pub(crate) fn describe(&self) -> String {
        format!("zookeeper {}/{}", self.servers, self.options.namespace)
    }

    pub(crate) fn session(&self) -> watch::Receiver<SessionStatus> {
        self.status.subscribe()
    }

    pub(crate) fn session_timeout(&self) -> Duration {
        self.client().session_timeout()
    }

    fn client(&self) -> zkc::Client {
        crate::sync::read(&self.client).clone()
    }

    fn acls(&self) -> zkc::Acls<'static> {
        acls(&self.options)
    }

    /// Runs one request with the request deadline.
    async fn call<T>(&self, fut: impl Future<Output = Result<T>>) -> Result<T> {
        match tokio::time::timeout(self.options.request_timeout, fut).await {
            Ok(r) => r,
            Err(_) => Err(RegistryError::Timeout(self.options.request_timeout)),
        }
    }

    /// Ends the current session the way an expiry does: the supervisor builds a new session,
    /// swaps it in and drops the old client, which closes the old session on the server (its
    /// ephemeral nodes vanish at once). Closing it from a second connection instead races with
    /// this client's own reconnect (the server moves the session between the two).
    pub(crate) async fn expire_session(&self) -> Result<()> {
        let (done, renewed) = oneshot::channel();
        self.renew.send(done).map_err(|_| RegistryError::Closed)?;
        renewed.await.map_err(|_| RegistryError::Closed)
    }

    pub(crate) async fn get(&self, p: &str) -> Result<Option<NodeData>> {
        let client = self.client();
        self.call(async {
            match client.get_data(p).await {
                Ok((data, stat)) => Ok(Some(NodeData { data, stat: Stat::from(&stat) })),
                Err(zkc::Error::NoNode) => Ok(None),
                Err(e) => Err(RegistryError::from_zk(e, p)),
            }
        })
        .await
    }

    pub(crate) async fn children(&self, p: &str) -> Result<Option<Vec<String>>> {
        let client = self.client();
        self.call(async {
            match client.list_children(p).await {
                Ok(children) => Ok(Some(children)),
                Err(zkc::Error::NoNode) => Ok(None),
                Err(e) => Err(RegistryError::from_zk(e, p)),
            }
        })
        .await
    }

    pub(crate) async fn foreign_access(&self, p: &str) -> Result<Vec<String>> {
        if !self.options.has_identity() {
            return Ok(Vec::new());
        }
        let client = self.client();
        let user = self.options.digest.as_deref().and_then(|d| d.split_once(':')).map(|(u, _)| u);
        self.call(async {
            match client.get_acl(p).await {
                Ok((acls, _)) => Ok(foreign(&acls, user)),
                Err(zkc::Error::NoNode) => Ok(Vec::new()),
                Err(e) => Err(RegistryError::from_zk(e, p)),
            }
        })
        .await
    }

    pub(crate) async fn exists(&self, p: &str) -> Result<Option<Stat>> {
        let client = self.client();
        self.call(async {
            client.check_stat(p).await.map(|s| s.as_ref().map(Stat::from)).map_err(|e| RegistryError::from_zk(e, p))
        })
        .await
    }

    pub(crate) async fn create(&self, p: &str, data: &[u8], mode: Mode) -> Result<String> {
        let client = self.client();
        let acls = self.acls();
        let options = zk_mode(mode).with_acls(acls);
        self.call(async {
            match client.create(p, data, &options).await {
                Ok((_stat, seq)) if mode.is_sequential() => Ok(format!("{p}{seq}")),
                Ok(_) => Ok(p.to_string()),
                Err(e) => Err(RegistryError::from_zk(e, p)),
            }
        })
        .await
    }

    pub(crate) async fn set(&self, p: &str, data: &[u8], version: Option<i32>) -> Result<Stat> {
        let client = self.client();
        self.call(async {
            client.set_data(p, data, version).await.map(|s| Stat::from(&s)).map_err(|e| RegistryError::from_zk(e, p))
        })
        .await
    }

    pub(crate) async fn delete(&self, p: &str, version: Option<i32>) -> Result<()> {
        let client = self.client();
        self.call(async { client.delete(p, version).await.map_err(|e| RegistryError::from_zk(e, p)) }).await
    }

    pub(crate) async fn transaction(&self, ops: &[Op]) -> Result<()> {
        let client = self.client();
        let acls = self.acls();
        let mut writer = client.new_multi_writer();
        for op in ops {
            let added = match op {
                Op::Check { path, version } => writer.add_check_version(path, version.unwrap_or(-1)),
                Op::Create { path, data, mode } => writer.add_create(path, data, &zk_mode(*mode).with_acls(acls)),
                Op::Set { path, data, version } => writer.add_set_data(path, data, *version),
                Op::Delete { path, version } => writer.add_delete(path, *version),
            };
            added.map_err(|e| RegistryError::from_zk(e, op.path()))?;
        }
        let commit = writer.commit();
        self.call(async {
            match commit.await {
                Ok(_) => Ok(()),
                Err(zkc::MultiWriteError::RequestFailed { source }) => Err(RegistryError::from_zk(source, "/")),
                Err(zkc::MultiWriteError::OperationFailed { index, source }) => {
                    let path = ops.get(index).map_or("/", Op::path);
                    Err(RegistryError::Transaction { index, source: Box::new(RegistryError::from_zk(source, path)) })
                }
            }
        })
        .await
    }

    pub(crate) async fn latch(&self, dir: &str) -> Result<zkc::OwnedLockClient> {
        let client = self.client();
        let acls = self.acls();
        // Curator's node name, `{dir}/_c_{uuid}-latch-{sequence}`, with the uuid chosen here: the
        // client's own Curator prefix cleans up after an interrupted creation (a dropped future,
        // an error) by deleting the node's bare name instead of its path (zookeeper-client
        // 0.11.2), which fails and leaves the node in this live session, ahead of every later
        // contender. A custom prefix is cleaned up by its full path and this session's ownership.
        let name = path::LATCH_NODE_NAME;
        let prefix = zkc::LockPrefix::new_custom(format!("{dir}/_c_{}-{name}", uuid::Uuid::new_v4()), name)
            .map_err(|e| RegistryError::from_zk(e, dir))?;
        let options = zkc::LockOptions::new(acls)
            .with_ancestor_options(zkc::CreateMode::Container.with_acls(acls))
            .map_err(|e| RegistryError::from_zk(e, dir))?;
        let lock = client.lock(prefix, b"", options).await.map_err(|e| RegistryError::from_zk(e, dir))?;
        Ok(lock.into_owned())
    }
}

fn acls(options: &ZkOptions) -> zkc::Acls<'static> {
    if options.has_identity() { zkc::Acls::creator_all() } else { zkc::Acls::anyone_all() }
}

/// The entries of `acls` that grant access to someone other than the digest user `user` (or, with
/// a client certificate, other than a certificate identity: ZooKeeper names the subject, which
/// this side does not know, so `x509` entries pass), as `scheme:id`.
fn foreign(acls: &[zkc::Acl], user: Option<&str>) -> Vec<String> {
    acls.iter()
        .filter(|a| match a.scheme() {
            "digest" => user.is_none_or(|u| a.id().split(':').next() != Some(u)),
            "x509" => false,
            _ => true,
        })
        .map(|a| format!("{}:{}", a.scheme(), a.id()))
        .collect()
}

fn zk_mode(mode: Mode) -> zkc::CreateMode {
    match mode {
        Mode::Persistent => zkc::CreateMode::Persistent,
        Mode::Ephemeral => zkc::CreateMode::Ephemeral,
        Mode::PersistentSequential => zkc::CreateMode::PersistentSequential,
        Mode::Container => zkc::CreateMode::Container,
        Mode::EphemeralSequential => zkc::CreateMode::EphemeralSequential,
    }
}

/// Checks that the hosts of a (normalised) connect string resolve, so that a misspelt host fails
/// at once, naming it, instead of after the connection timeout. Fails only when no host
/// resolves: an ensemble with one member's name gone still works (that member is logged).
async fn resolve_hosts(servers: &str, timeout: Duration) -> Result<()> {
    let mut failures = Vec::new();
    let entries: Vec<&str> = servers.split(',').collect();
    for entry in &entries {
        let host = entry.rsplit_once(':').map_or(*entry, |(h, _)| h);
        let lookup = tokio::time::timeout(timeout, tokio::net::lookup_host(*entry)).await;
        let reason = match lookup.map(|r| r.map(|addrs| addrs.count())) {
            Ok(Ok(n)) if n > 0 => continue,
            Ok(Ok(_)) => "it has no address".to_string(),
            Ok(Err(e)) => e.to_string(),
            Err(_) => format!("no answer from the resolver within {}s", timeout.as_secs()),
        };
        failures.push(format!("host '{host}' does not resolve ({reason})"));
    }
    if failures.len() == entries.len() {
        return Err(RegistryError::Unreachable { servers: servers.to_string(), reason: failures.join("; ") });
    }
    for failure in failures {
        tracing::warn!(servers = %servers, "{failure}");
    }
    Ok(())
}

/// How long one connection attempt to one server may take: the connection timeout shared by the
/// servers of the connect string (at least a second, at most 5 s), so that a server that drops
/// every packet, tried first, leaves time for the others within the timeout.
fn attempt_timeout(total: Duration, servers: &str) -> Duration {
    let hosts = servers.split('/').next().unwrap_or_default().split(',').filter(|h| !h.trim().is_empty()).count();
    let share = total / u32::try_from(hosts.max(1)).unwrap_or(u32::MAX);
    share.clamp(Duration::from_secs(1), Duration::from_secs(5)).min(total)
}

/// Connects (retrying until the connection timeout), makes sure the namespace exists, chroots to
/// it and proves the credentials with a first read.
async fn establish(options: &ZkOptions, servers: &str) -> Result<zkc::Client> {
    let deadline = Instant::now() + options.connection_timeout;
    let mut connector = zkc::Client::connector()
        .with_session_timeout(options.session_timeout)
        .with_connection_timeout(attempt_timeout(options.connection_timeout, servers))
        .with_fail_eagerly();
    if let Some(digest) = &options.digest {
        connector = connector.with_auth("digest", digest.as_bytes());
    }
    if let Some(tls) = &options.tls {
        connector = connector.with_tls(tls.options().map_err(RegistryError::TlsConfig)?);
    }
    let unreachable = |reason: String| RegistryError::Unreachable { servers: servers.to_string(), reason };
    // `zookeeper-client` hides why a TLS connection failed; a handshake of our own names it.
    let tls_reason = |reason: String| async move {
        let Some(tls) = &options.tls else { return reason };
        match tls::diagnose(tls, servers).await {
            Some(cause) => {
                tracing::warn!(servers = %servers, cause = %cause, "TLS connection to the registry failed");
                format!("{reason}; {cause}")
            }
            None => reason,
        }
    };
    let (mut failures, jitter) = (Attempts::default(), Jitter::from_os());
    let client = loop {
        let attempt = match &options.tls {
            Some(_) => futures::future::Either::Left(connector.clone().secure_connect(servers)),
            None => futures::future::Either::Right(connector.clone().connect(servers)),
        };
        let last = match tokio::time::timeout_at(deadline, attempt).await {
            Ok(Ok(client)) => break client,
            Ok(Err(e)) => e,
            Err(_) => {
                let reason = format!("no server answered within {:?}", options.connection_timeout);
                return Err(unreachable(tls_reason(reason).await));
            }
        };
        let delay = failures.fail(&retry::ZK_CONNECT, jitter.draw());
        if Instant::now() + delay >= deadline {
            let reason = format!("{last} (gave up after {:?})", options.connection_timeout);
            return Err(unreachable(tls_reason(reason).await));
        }
        tokio::time::sleep(delay).await;
    };
    let ns = format!("/{}", options.namespace);
    let exists = client.check_stat(&ns).await.map_err(|e| RegistryError::from_zk(e, &ns))?.is_some();
    if !exists {
        if !options.create_namespace {
            return Err(RegistryError::NoNode(format!("namespace {ns}")));
        }
        client
            .mkdir(&ns, &zkc::CreateMode::Persistent.with_acls(acls(options)))
            .await
            .map_err(|e| RegistryError::from_zk(e, &ns))?;
    }
    let client = client.chroot(ns.clone()).map_err(|_| RegistryError::InvalidConnectString {
        servers: servers.to_string(),
        reason: format!("bad namespace {ns}"),
    })?;
    match client.list_children("/").await {
        Ok(_) => Ok(client),
        Err(zkc::Error::NoAuth) => Err(RegistryError::NoAuth(ns)),
        Err(e) => Err(RegistryError::from_zk(e, &ns)),
    }
}

/// Follows the client's state; on a terminal state, or when asked, builds a new client.
async fn supervise(
    backend: Weak<ZkBackend>,
    mut states: zkc::StateWatcher,
    mut renewals: mpsc::UnboundedReceiver<oneshot::Sender<()>>,
) {
    loop {
        let requested = tokio::select! {
            // A requested renewal wins over the state change it causes on the old client.
            biased;
            request = renewals.recv() => match request {
                Some(done) => Some(done),
                None => return,
            },
            state = states.changed() => {
                let Some(b) = backend.upgrade() else { return };
                match state {
                    zkc::SessionState::Disconnected => {
                        b.publish(LinkState::Disconnected, None);
                        continue;
                    }
                    zkc::SessionState::SyncConnected | zkc::SessionState::ConnectedReadOnly => {
                        b.publish(LinkState::Connected, None);
                        continue;
                    }
                    zkc::SessionState::Expired | zkc::SessionState::Closed | zkc::SessionState::AuthFailed => {
                        let state = match state {
                            zkc::SessionState::Expired => "expired",
                            zkc::SessionState::AuthFailed => "auth failed",
                            _ => "closed",
                        };
                        tracing::warn!(registry = %b.describe(), state = %state, "registry session ended, establishing a new one");
                        None
                    }
                }
            }
        };
        let Some(new_states) = renew(&backend).await else {
            return;
        };
        states = new_states;
        if let Some(done) = requested {
            let _ = done.send(());
        }
    }
}

/// Publishes the expiry, builds a new session (retrying with backoff), swaps it in and starts a
/// new epoch. Returns the new client's state watcher; `None` when the backend is gone.
async fn renew(backend: &Weak<ZkBackend>) -> Option<zkc::StateWatcher> {
    backend.upgrade()?.publish(LinkState::Expired, None);
    let (mut failures, jitter) = (Attempts::default(), Jitter::from_os());
    loop {
        let b = backend.upgrade()?;
        match establish(&b.options, &b.servers).await {
            Ok(client) => {
                let states = client.state_watcher();
                let id = client.session_id().0;
                let old = std::mem::replace(&mut *crate::sync::write(&b.client), client);
                // Dropping the last clone of the old client closes its session, if it is alive.
                drop(old);
                b.publish(LinkState::Connected, Some(id));
                tracing::info!(registry = %b.describe(), session = format_args!("{id:#x}"), "new registry session");
                return Some(states);
            }
            Err(e) => {
                tracing::warn!(registry = %b.describe(), error = %e, "cannot establish a new registry session yet")
            }
        }
        drop(b);
        tokio::time::sleep(failures.fail(&retry::ZK_SESSION, jitter.draw())).await;
    }
}

impl ZkBackend {
    /// Publishes a link state; `new_session` starts a new epoch.
    fn publish(&self, state: LinkState, new_session: Option<i64>) {
        self.status.send_modify(|s| {
            s.state = state;
            if let Some(id) = new_session {
                s.epoch += 1;
                s.session_id = id;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connect_strings() {
        assert_eq!(parse_connect_string("127.0.0.1:2181").unwrap(), "127.0.0.1:2181");
        assert_eq!(parse_connect_string("a, b:2182").unwrap(), "a:2181,b:2182");
        for bad in ["", "not a host", "h:abc", "h:0", "h:99999", "h:2181/chroot", "a,,b", "h:"] {
            let err = parse_connect_string(bad).unwrap_err();
            assert!(matches!(err, RegistryError::InvalidConnectString { .. }), "{bad}: {err}");
        }
        let err = parse_connect_string("zk://h:2181").unwrap_err().to_string();
        assert!(err.contains("a connect string has no scheme ('zk://')"), "{err}");
    }

    #[test]
    fn each_server_gets_a_share_of_the_connection_timeout() {
        let s = Duration::from_secs;
        // (timeout, connect string, one attempt's timeout)
        let rows = [
            (s(5), "a:2181", s(5)),
            (s(5), "a:2181,b:2181,c:2181", s(5) / 3),
            (s(12), "a:2181,b:2181,c:2181", s(4)),
            (s(60), "a:2181,b:2181", s(5)),
            (s(2), "a,b,c,d,e", s(1)),
            (Duration::from_millis(500), "a,b", Duration::from_millis(500)),
        ];
        for (total, servers, expect) in rows {
            assert_eq!(attempt_timeout(total, servers), expect, "{servers} within {total:?}");
        }
    }
}
