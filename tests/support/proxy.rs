//! A TCP proxy between one worker and a ZooKeeper server, to cut the worker off.
//!
//! While [`Proxy::cut`] is on, the proxy is a black hole: bytes in both directions are read and
//! dropped, new connections are accepted and go nowhere, so the client notices only by its own
//! timeouts — a network partition, not a refused connection. When healed, connections made during
//! the cut are closed (the client reconnects) and older ones forward again.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::Duration;

/// A running proxy; stops (closing every connection) when dropped.
pub struct Proxy {
    pub port: u16,
    cut: Arc<AtomicBool>,
    /// Bumped at every heal: connections accepted during a cut carry an older generation.
    generation: Arc<AtomicU64>,
    stopped: Arc<AtomicBool>,
}

impl Proxy {
    /// Proxies a free loopback port to `upstream`.
    pub fn start(upstream: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        listener.set_nonblocking(true).unwrap();
        let cut = Arc::new(AtomicBool::new(false));
        let generation = Arc::new(AtomicU64::new(0));
        let stopped = Arc::new(AtomicBool::new(false));
        let (c, g, s) = (Arc::clone(&cut), Arc::clone(&generation), Arc::clone(&stopped));
        thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((client, _)) => {
                        let (c, g, s) = (Arc::clone(&c), Arc::clone(&g), Arc::clone(&s));
                        thread::spawn(move || serve(client, upstream, &c, &g, &s));
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => thread::sleep(Duration::from_millis(10)),
                    Err(_) => thread::sleep(Duration::from_millis(10)),
                }
            }
        });
        Proxy { port, cut, generation, stopped }
    }

    /// `127.0.0.1:PORT`.
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Starts or ends a black-hole partition.
    pub fn cut(&self, on: bool) {
        if !on {
            self.generation.fetch_add(1, Ordering::SeqCst);
        }
        self.cut.store(on, Ordering::SeqCst);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stopped.store(true, Ordering::SeqCst);
    }
}

fn serve(
    client: TcpStream,
    upstream: SocketAddr,
    cut: &Arc<AtomicBool>,
    generation: &Arc<AtomicU64>,
    stopped: &Arc<AtomicBool>,
) {
    let born_cut = cut.load(Ordering::SeqCst);
    let born = generation.load(Ordering::SeqCst);
    if born_cut {
        // Swallow everything until the cut heals, then close: the client must reconnect.
        let _ = client.set_read_timeout(Some(Duration::from_millis(50)));
        let mut buf = [0u8; 4096];
        let mut client = client;
        while !stopped.load(Ordering::SeqCst) && generation.load(Ordering::SeqCst) == born {
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
    let Ok(server) = TcpStream::connect_timeout(&upstream, Duration::from_secs(2)) else {
        let _ = client.shutdown(Shutdown::Both);
        return;
    };
    let (c2, s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
    let (cut_a, stop_a) = (Arc::clone(cut), Arc::clone(stopped));
    let up = thread::spawn(move || pump(client, server, &cut_a, &stop_a));
    pump(s2, c2, cut, stopped);
    let _ = up.join();
}

/// Copies `from` to `to` until either side closes; while cut, reads and drops.
fn pump(mut from: TcpStream, mut to: TcpStream, cut: &AtomicBool, stopped: &AtomicBool) {
    let _ = from.set_read_timeout(Some(Duration::from_millis(50)));
    let mut buf = [0u8; 16384];
    loop {
        if stopped.load(Ordering::SeqCst) {
            break;
        }
        match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                if !cut.load(Ordering::SeqCst) && to.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => break,
        }
    }
    let _ = from.shutdown(Shutdown::Both);
    let _ = to.shutdown(Shutdown::Both);
}
