//! Real ZooKeeper servers for tests: a standalone server or a 3-member ensemble from the Debian
//! `zookeeper` package, each on free loopback ports (or an ensemble whose members are hosts of
//! their own, network namespaces of tests/support/netns.rs) with a temporary data directory.
//! Members can be stopped, killed, frozen and restarted; everything is killed on drop, even when a
//! test panics.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::signal;

const ZK_JAR: &str = "/usr/share/java/zookeeper.jar";
const SLF4J_JAR: &str = "/usr/share/java/slf4j-simple.jar";
/// Debian's `zookeeper.jar` manifest leaves it out, and TLS connections need it.
const NETTY_CODEC_JAR: &str = "/usr/share/java/netty-codec.jar";

/// Panics with installation instructions when Java or the ZooKeeper package is missing.
fn require_zookeeper() {
    let java = Command::new("java").arg("-version").stdout(Stdio::null()).stderr(Stdio::null()).status();
    if java.map(|s| !s.success()).unwrap_or(true) || !Path::new(ZK_JAR).exists() {
        panic!(
            "these tests need a real ZooKeeper: Java and the Debian `zookeeper` package are missing.\n\
             Install them with `sudo apt-get install -y --no-install-recommends zookeeper`, \
             or run the README test command (`.ci/test`), which installs them."
        );
    }
}

/// A free TCP port on 127.0.0.1.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Sends a four-letter word to a loopback port and returns the reply ("" when the server does not
/// answer).
pub fn four_letter(port: u16, word: &str) -> String {
    four_letter_at(([127, 0, 0, 1], port).into(), word)
}

/// Sends a four-letter word to `addr` and returns the reply ("" when the server does not answer).
pub fn four_letter_at(addr: SocketAddr, word: &str) -> String {
    let Ok(mut s) = TcpStream::connect_timeout(&addr, Duration::from_millis(500)) else {
        return String::new();
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    if s.write_all(word.as_bytes()).is_err() {
        return String::new();
    }
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out
}

/// A numeric `mntr` counter (0 when absent; summaries such as averages are truncated).
pub fn counter(mntr: &std::collections::HashMap<String, String>, key: &str) -> i64 {
    mntr.get(key).and_then(|v| v.trim().parse::<f64>().ok()).map_or(0, |v| v as i64)
}

/// The `Total watches:N` of the server's `wchs` (the watches of its own sessions); 0 when it does
/// not answer.
pub fn total_watches(port: u16) -> i64 {
    let reply = four_letter(port, "wchs");
    reply.lines().find_map(|l| l.strip_prefix("Total watches:")).and_then(|n| n.trim().parse().ok()).unwrap_or(0)
}

/// One ZooKeeper process: its config, data directory and (when running) child process.
pub struct Member {
    /// The address its client port listens on (127.0.0.1, or its host's in a network namespace).
    pub ip: Ipv4Addr,
    pub client_port: u16,
    /// The network namespace it runs in (`None`: this one).
    netns: Option<String>,
    dir: PathBuf,
    cfg: PathBuf,
    main_class: &'static str,
    /// The JVM's maximum heap (`-Xmx`), in MiB.
    heap_mb: u32,
    child: Option<Child>,
}

impl Member {
    fn spawn(&mut self) {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(self.log()).unwrap();
        let child = super::netns::command_in(self.netns.as_deref(), "java")
            .arg(format!("-Xmx{}m", self.heap_mb))
            .args(["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto"])
            .arg("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn")
            .arg("-Dzookeeper.jmx.log4j.disable=true")
            .arg("-cp")
            .arg(format!("{ZK_JAR}:{NETTY_CODEC_JAR}:{SLF4J_JAR}"))
            .arg(self.main_class)
            .arg(&self.cfg)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("start java");
        self.child = Some(child);
    }

    /// Sends a four-letter word to this member.
    fn four_letter(&self, word: &str) -> String {
        four_letter_at((self.ip, self.client_port).into(), word)
    }

    fn serving(&self) -> bool {
        let srvr = self.four_letter("srvr");
        srvr.contains("Mode:")
    }

    /// For a TLS-only server: a TLS handshake with the port completes.
    fn serving_tls(&self, pki: &super::tls::Pki) -> bool {
        use rustls::pki_types::pem::PemObject;
        use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
        let mut roots = rustls::RootCertStore::empty();
        roots.add(CertificateDer::from_pem_file(&pki.ca).unwrap()).unwrap();
        let chain = vec![CertificateDer::from_pem_file(&pki.client_cert).unwrap()];
        let key = PrivateKeyDer::from_pem_file(&pki.client_key).unwrap();
        let config = rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(
            rustls::crypto::aws_lc_rs::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_client_auth_cert(chain, key)
        .unwrap();
        let name = ServerName::try_from("127.0.0.1").unwrap();
        let mut conn = rustls::ClientConnection::new(std::sync::Arc::new(config), name).unwrap();
        let Ok(mut socket) =
            TcpStream::connect_timeout(&([127, 0, 0, 1], self.client_port).into(), Duration::from_millis(500))
        else {
            return false;
        };
        let _ = socket.set_read_timeout(Some(Duration::from_secs(2)));
        while conn.is_handshaking() {
            if conn.complete_io(&mut socket).is_err() {
                return false;
            }
        }
        true
    }

    /// The server's `mntr` counters.
    pub fn mntr(&self) -> std::collections::HashMap<String, String> {
        self.four_letter("mntr")
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(k, v)| (k.to_string(), v.trim().to_string()))
            .collect()
    }

    /// `leader`, `follower` or `standalone` (empty when not serving).
    pub fn mode(&self) -> String {
        self.four_letter("srvr").lines().find_map(|l| l.strip_prefix("Mode: ")).unwrap_or("").trim().to_string()
    }

    /// The hexadecimal session ids connected to this member (`cons`).
    pub fn session_ids(&self) -> Vec<i64> {
        self.four_letter("cons")
            .split("sid=0x")
            .skip(1)
            .filter_map(|s| {
                let hex: String = s.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
                i64::from_str_radix(&hex, 16).ok()
            })
            .collect()
    }

    /// SIGKILL: the process dies at once (data survives, the log is synced per transaction).
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// SIGTERM and wait for the exit.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            signal(child.id(), "TERM");
            let deadline = Instant::now() + Duration::from_secs(10);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// SIGSTOP / SIGCONT: freeze the server without closing its sockets.
    pub fn freeze(&self, frozen: bool) {
        if let Some(child) = &self.child {
            signal(child.id(), if frozen { "STOP" } else { "CONT" });
        }
    }

    /// The server's log (standard output and error).
    pub fn log(&self) -> PathBuf {
        self.dir.join("server.log")
    }

    pub fn is_running(&self) -> bool {
        self.child.is_some()
    }

    /// The JVM's resident memory in KiB (`VmRSS`), when it runs.
    pub fn rss_kib(&self) -> Option<u64> {
        super::status_kib(self.child.as_ref()?.id(), "VmRSS")
    }
}

impl Drop for Member {
    fn drop(&mut self) {
        self.kill();
    }
}

fn wait_until(what: &str, timeout: Duration, mut ok: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !ok() {
        assert!(Instant::now() < deadline, "timed out after {timeout:?} waiting for {what}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// A standalone ZooKeeper server.
pub struct ZkServer {
    member: Member,
    _dir: tempfile::TempDir,
}

impl ZkServer {
    /// Starts a server (tick time 1 s, so sessions may be 2–20 s) and waits until it serves.
    pub fn start() -> ZkServer {
        ZkServer::start_with_tick(1000)
    }

    /// Starts a server with this tick time (sessions may be 2–20 ticks) and waits until it
    /// serves. A short tick makes session expiry happen closer to the session timeout.
    pub fn start_with_tick(tick_ms: u32) -> ZkServer {
        let server = ZkServer::spawn(|port, data| {
            format!(
                "tickTime={tick_ms}\ndataDir={}\nclientPort={port}\nclientPortAddress=127.0.0.1\n\
                 admin.enableServer=false\n4lw.commands.whitelist=*\nforceSync=no\nmaxClientCnxns=0\n",
                data.display()
            )
        });
        server.wait_serving();
        server
    }

    /// Starts a standalone server on a free port with the configuration `config(port, data_dir)`
    /// gives, without waiting for it.
    fn spawn(config: impl FnOnce(u16, &Path) -> String) -> ZkServer {
        require_zookeeper();
        let dir = tempfile::Builder::new().prefix("ejctl-zk-").tempdir().unwrap();
        let port = free_port();
        let data = dir.path().join("data");
        std::fs::create_dir_all(&data).unwrap();
        let cfg = dir.path().join("zoo.cfg");
        std::fs::write(&cfg, config(port, &data)).unwrap();
        let mut member = Member {
            ip: Ipv4Addr::LOCALHOST,
            client_port: port,
            netns: None,
            dir: dir.path().to_path_buf(),
            cfg,
            main_class: "org.apache.zookeeper.server.ZooKeeperServerMain",
            heap_mb: 256,
            child: None,
        };
        member.spawn();
        ZkServer { member, _dir: dir }
    }

    fn wait_serving(&self) {
        wait_until("zookeeper to serve", Duration::from_secs(30), || self.member.serving());
    }

    /// Starts a TLS-only server: no plaintext port, a `secureClientPort` with the PKI's server
    /// certificate, client certificates from its CA optional (`ssl.clientAuth=want`; with one,
    /// ZooKeeper's x509 authentication names the session after its subject).
    pub fn start_tls(pki: &super::tls::Pki) -> ZkServer {
        let server = ZkServer::spawn(|port, data| {
            format!(
                "tickTime=1000\ndataDir={}\nsecureClientPort={port}\nsecureClientPortAddress=127.0.0.1\n\
                 serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory\n\
                 ssl.keyStore.location={}\nssl.keyStore.type=PEM\n\
                 ssl.trustStore.location={}\nssl.trustStore.type=PEM\nssl.clientAuth=want\n\
                 admin.enableServer=false\nforceSync=no\nmaxClientCnxns=0\n",
                data.display(),
                pki.server_keystore.display(),
                pki.ca.display()
            )
        });
        wait_until("zookeeper to serve TLS", Duration::from_secs(30), || server.member.serving_tls(pki));
        server
    }

    /// `127.0.0.1:PORT`.
    pub fn connect_string(&self) -> String {
        format!("127.0.0.1:{}", self.member.client_port)
    }

    pub fn port(&self) -> u16 {
        self.member.client_port
    }

    /// The server process.
    pub fn member(&mut self) -> &mut Member {
        &mut self.member
    }

    /// The `mntr` counters.
    pub fn mntr(&self) -> std::collections::HashMap<String, String> {
        self.member.mntr()
    }

    /// Stops the server (SIGTERM) and starts it again on the same port and data.
    pub fn restart(&mut self) {
        self.member.stop();
        self.start_again();
    }

    /// Starts a stopped or killed server again.
    pub fn start_again(&mut self) {
        self.member.spawn();
        self.wait_serving();
    }

    /// SIGKILLs the server, leaves it down for `down` and starts it again (blocking).
    pub fn outage(&mut self, down: Duration) {
        self.member.kill();
        std::thread::sleep(down);
        self.start_again();
    }
}

/// Where an ensemble member runs: its address, its client, quorum and election ports, and its
/// network namespace (`None`: this one).
pub struct Placement {
    pub ip: Ipv4Addr,
    pub ports: [u16; 3],
    pub netns: Option<String>,
}

/// A 3-member ensemble, on loopback or on hosts of their own.
pub struct ZkEnsemble {
    pub members: Vec<Member>,
    _dir: tempfile::TempDir,
}

impl ZkEnsemble {
    /// Starts three members (256 MiB of heap each) and waits until they serve.
    pub fn start() -> ZkEnsemble {
        ZkEnsemble::start_with_heap(256)
    }

    /// Starts three members with `heap_mb` MiB of heap each (every member holds the whole tree)
    /// and waits until they serve.
    pub fn start_with_heap(heap_mb: u32) -> ZkEnsemble {
        let places: Vec<Placement> = (0..3)
            .map(|_| Placement { ip: Ipv4Addr::LOCALHOST, ports: [free_port(), free_port(), free_port()], netns: None })
            .collect();
        ZkEnsemble::start_at(&places, heap_mb)
    }

    /// Starts one member at each placement (`heap_mb` MiB of heap each) and waits until they
    /// serve.
    pub fn start_at(places: &[Placement], heap_mb: u32) -> ZkEnsemble {
        require_zookeeper();
        let dir = tempfile::Builder::new().prefix("ejctl-zkens-").tempdir().unwrap();
        let servers: String = places
            .iter()
            .enumerate()
            .map(|(i, p)| format!("server.{}={}:{}:{}\n", i + 1, p.ip, p.ports[1], p.ports[2]))
            .collect();
        let mut members = Vec::new();
        for (i, p) in places.iter().enumerate() {
            let mdir = dir.path().join(format!("n{}", i + 1));
            let data = mdir.join("data");
            std::fs::create_dir_all(&data).unwrap();
            std::fs::write(data.join("myid"), format!("{}\n", i + 1)).unwrap();
            let cfg = mdir.join("zoo.cfg");
            std::fs::write(
                &cfg,
                format!(
                    "tickTime=1000\ninitLimit=10\nsyncLimit=5\ndataDir={}\nclientPort={}\nclientPortAddress={}\n\
                     admin.enableServer=false\n4lw.commands.whitelist=*\nforceSync=no\nmaxClientCnxns=0\n{servers}",
                    data.display(),
                    p.ports[0],
                    p.ip
                ),
            )
            .unwrap();
            members.push(Member {
                ip: p.ip,
                client_port: p.ports[0],
                netns: p.netns.clone(),
                dir: mdir,
                cfg,
                main_class: "org.apache.zookeeper.server.quorum.QuorumPeerMain",
                heap_mb,
                child: None,
            });
        }
        for m in &mut members {
            m.spawn();
        }
        let ensemble = ZkEnsemble { members, _dir: dir };
        wait_until("the ensemble to serve", Duration::from_secs(60), || ensemble.members.iter().all(Member::serving));
        ensemble
    }

    /// All three members.
    pub fn connect_string(&self) -> String {
        self.members.iter().map(|m| format!("{}:{}", m.ip, m.client_port)).collect::<Vec<_>>().join(",")
    }

    /// Starts a stopped member again and waits until it serves.
    pub fn start_member(&mut self, i: usize) {
        self.members[i].spawn();
        let m = &self.members[i];
        wait_until("the member to rejoin", Duration::from_secs(60), || m.serving());
    }

    /// Starts a stopped member again without waiting for it to serve.
    pub fn spawn_member(&mut self, i: usize) {
        self.members[i].spawn();
    }

    /// The index of the member holding `session`.
    pub fn member_with_session(&self, session: i64) -> Option<usize> {
        self.members.iter().position(|m| m.is_running() && m.session_ids().contains(&session))
    }
}
