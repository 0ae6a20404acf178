//! A TCP relay between one worker and a ZooKeeper server, to cut the worker off or slow it down.
//!
//! While [`Proxy::cut`] is on, the proxy is a black hole: bytes in both directions are read and
//! dropped, new connections are accepted and go nowhere, so the client notices only by its own
//! timeouts — a network partition, not a refused connection. When healed, connections made during
//! the cut are closed (the client reconnects) and older ones forward again.
//!
//! [`Proxy::delay`] holds every chunk read from either side for a delay drawn per chunk (a base
//! plus or minus a jitter) before writing it on; a chunk never overtakes the one before it, so a
//! stream's bytes keep their order (TCP's own guarantee: a relay cannot reorder within a
//! connection). Relays to different servers can be given different delays, so one connection
//! lags another. [`Proxy::start_in`] runs a relay inside a network namespace (its listener on
//! that host's loopback, its connections to the server from that host's address), so the host's
//! own network faults still apply to what it relays.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use super::Rng;

/// A relay's delay: each chunk is held `base` ± `jitter` ms.
#[derive(Default)]
struct Delay {
    base_ms: AtomicU64,
    jitter_ms: AtomicU64,
}

impl Delay {
    fn draw(&self, rng: &mut Rng) -> Duration {
        let base = self.base_ms.load(Ordering::SeqCst);
        let jitter = self.jitter_ms.load(Ordering::SeqCst);
        Duration::from_millis((base + rng.below(2 * jitter + 1)).saturating_sub(jitter))
    }
}

/// What every connection of a proxy shares.
struct Shared {
    upstream: SocketAddr,
    cut: AtomicBool,
    /// Bumped at every heal: connections accepted during a cut carry an older generation.
    generation: AtomicU64,
    stopped: AtomicBool,
    delay: Delay,
    /// Connections accepted so far (each gets its own jitter sequence).
    accepted: AtomicU64,
}

/// A running proxy; stops (closing every connection) when dropped.
pub struct Proxy {
    pub port: u16,
    shared: Arc<Shared>,
}

impl Proxy {
    /// Proxies a free loopback port to `upstream`.
    pub fn start(upstream: SocketAddr) -> Proxy {
        Proxy::spawn(None, upstream)
    }

    /// Proxies a free port on the loopback of the network namespace `netns` to `upstream`,
    /// connecting from inside that namespace.
    pub fn start_in(netns: &str, upstream: SocketAddr) -> Proxy {
        Proxy::spawn(Some(netns.to_string()), upstream)
    }

    fn spawn(netns: Option<String>, upstream: SocketAddr) -> Proxy {
        let shared = Arc::new(Shared {
            upstream,
            cut: AtomicBool::new(false),
            generation: AtomicU64::new(0),
            stopped: AtomicBool::new(false),
            delay: Delay::default(),
            accepted: AtomicU64::new(0),
        });
        let (port_tx, port_rx) = mpsc::channel();
        let s = Arc::clone(&shared);
        // The accepting thread enters the namespace first: a thread's network namespace is its
        // own, and the threads it starts for each connection inherit it.
        thread::spawn(move || {
            if let Some(ns) = netns {
                let file = std::fs::File::open(format!("/var/run/netns/{ns}")).unwrap();
                nix::sched::setns(&file, nix::sched::CloneFlags::CLONE_NEWNET).unwrap();
            }
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            listener.set_nonblocking(true).unwrap();
            port_tx.send(listener.local_addr().unwrap().port()).unwrap();
            while !s.stopped.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((client, _)) => {
                        let s = Arc::clone(&s);
                        thread::spawn(move || serve(client, &s));
                    }
                    Err(_) => thread::sleep(Duration::from_millis(10)),
                }
            }
        });
        let port = port_rx.recv().unwrap();
        Proxy { port, shared }
    }

    /// `127.0.0.1:PORT`.
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Starts or ends a black-hole partition.
    pub fn cut(&self, on: bool) {
        if !on {
            self.shared.generation.fetch_add(1, Ordering::SeqCst);
        }
        self.shared.cut.store(on, Ordering::SeqCst);
    }

    /// Holds each chunk `base` ± `jitter` before forwarding it (zero: no delay).
    pub fn delay(&self, base: Duration, jitter: Duration) {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        self.shared.delay.jitter_ms.store(ms(jitter), Ordering::SeqCst);
        self.shared.delay.base_ms.store(ms(base), Ordering::SeqCst);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.shared.stopped.store(true, Ordering::SeqCst);
    }
}

fn serve(client: TcpStream, shared: &Arc<Shared>) {
    let born_cut = shared.cut.load(Ordering::SeqCst);
    let born = shared.generation.load(Ordering::SeqCst);
    let n = shared.accepted.fetch_add(1, Ordering::SeqCst);
    if born_cut {
        // Swallow everything until the cut heals, then close: the client must reconnect.
        let _ = client.set_read_timeout(Some(Duration::from_millis(50)));
        let mut buf = [0u8; 4096];
        let mut client = client;
        while !shared.stopped.load(Ordering::SeqCst) && shared.generation.load(Ordering::SeqCst) == born {
            match client.read(&mut buf) {
                Ok(0) => return,
                Ok(_) => {}
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                Err(_) => return,
            }
        }
        let _ = client.shutdown(Shutdown::Both);
        return;
    }
    let Ok(server) = TcpStream::connect_timeout(&shared.upstream, Duration::from_secs(2)) else {
        let _ = client.shutdown(Shutdown::Both);
        return;
    };
    let (c2, s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
    let up_shared = Arc::clone(shared);
    let up = thread::spawn(move || pump(client, server, &up_shared, Rng::new(2 * n)));
    pump(s2, c2, shared, Rng::new(2 * n + 1));
    let _ = up.join();
}

/// Copies `from` to `to` until either side closes; while cut, reads and drops. A writer thread
/// forwards each chunk once its delay has passed, in the order read.
fn pump(mut from: TcpStream, mut to: TcpStream, shared: &Shared, mut rng: Rng) {
    let _ = from.set_read_timeout(Some(Duration::from_millis(50)));
    let (tx, rx) = mpsc::channel::<(Instant, Vec<u8>)>();
    let writer = thread::spawn(move || {
        for (at, chunk) in rx {
            thread::sleep(at.saturating_duration_since(Instant::now()));
            if to.write_all(&chunk).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Both);
    });
    let mut last = Instant::now();
    let mut buf = [0u8; 16384];
    loop {
        if shared.stopped.load(Ordering::SeqCst) {
            break;
        }
        match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                if shared.cut.load(Ordering::SeqCst) {
                    continue;
                }
                last = last.max(Instant::now() + shared.delay.draw(&mut rng));
                if tx.send((last, buf[..n].to_vec())).is_err() {
                    break;
                }
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => break,
        }
    }
    drop(tx);
    let _ = writer.join();
    let _ = from.shutdown(Shutdown::Both);
}
