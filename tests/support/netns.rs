//! Hosts as network namespaces on this one machine, and network faults between them.
//!
//! A [`Net`] is a Linux bridge and one network namespace per [`Host`], each joined to the bridge
//! by a veth pair and given its own address in a private /24, with loopback up and a default
//! route through the bridge (so a process detects the host's address as its own, as on a real
//! machine). The bridge itself holds the subnet's `.254`, so the test process reaches every host.
//! Processes run inside a host with `ip netns exec`, which keeps the pid of the program it starts.
//!
//! Faults are nftables rules in a table of our own inside a host's namespace: [`Net::partition`]
//! drops every packet between a host and some peers (both directions, so TCP sees silence, not a
//! refusal), [`Net::loss`] drops a share of the host's packets at random (`numgen random`; the
//! kernel has no netem). [`Net::heal`] deletes the tables.
//!
//! Names carry the pid of the test process (`ejn{pid}-{host}`, `brejn{pid}`, `vejn{pid}-{i}`), so
//! parallel runs do not collide; everything is deleted on drop, and a new `Net` first sweeps what
//! runs whose process is gone left behind (a killed test process drops nothing), killing the
//! processes still inside their namespaces. Creating a namespace needs root, iproute2, nftables
//! and a kernel with network namespaces, veth and bridges: without one of them the test fails and
//! says which.

use std::net::Ipv4Addr;
use std::process::{Child, Command, Output, Stdio};

use super::signal;

/// The prefix of every name a `Net` creates.
const PREFIX: &str = "ejn";

/// `program` run inside the namespace `netns` (`ip netns exec`), or in this one when `None`.
pub fn command_in(netns: Option<&str>, program: impl AsRef<std::ffi::OsStr>) -> Command {
    match netns {
        Some(ns) => {
            let mut cmd = Command::new("ip");
            cmd.args(["netns", "exec", ns]).arg(program);
            cmd
        }
        None => Command::new(program),
    }
}

/// Runs `program args` and returns its output (a failure to start it is an error status).
fn run(program: &str, args: &[&str]) -> Output {
    Command::new(program).args(args).stdin(Stdio::null()).output().unwrap_or_else(|e| Output {
        status: std::os::unix::process::ExitStatusExt::from_raw(127 << 8),
        stdout: Vec::new(),
        stderr: format!("cannot run {program}: {e}").into_bytes(),
    })
}

/// Runs `ip args`; panics with `what` and the command's error when it fails.
fn ip(what: &str, args: &[&str]) {
    let out = run("ip", args);
    assert!(
        out.status.success(),
        "network namespaces: cannot {what} (`ip {}`): {}\nThis test needs root, iproute2 and a kernel \
         with network namespaces, veth pairs and bridges.",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr).trim()
    );
}

/// Whether the process `pid` is alive.
fn alive(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// The pid a name made by a `Net` carries (`ejn{pid}-...`, `brejn{pid}`, `vejn{pid}-...`).
fn owner(name: &str) -> Option<u32> {
    let bare = name.strip_prefix("br").or_else(|| name.strip_prefix('v')).unwrap_or(name);
    let digits: String = bare.strip_prefix(PREFIX)?.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Kills every process in the namespace `ns` (they outlive the namespace's name otherwise).
fn kill_inside(ns: &str) {
    let out = run("ip", &["netns", "pids", ns]);
    for pid in String::from_utf8_lossy(&out.stdout).split_whitespace().filter_map(|p| p.parse::<u32>().ok()) {
        signal(pid, "KILL");
    }
}

/// Deletes the namespaces, bridges and veths of runs whose process is gone.
fn sweep() {
    let netns = run("ip", &["netns", "list"]);
    for line in String::from_utf8_lossy(&netns.stdout).lines() {
        let Some(name) = line.split_whitespace().next() else { continue };
        if name.starts_with(PREFIX) && owner(name).is_some_and(|pid| !alive(pid)) {
            kill_inside(name);
            let _ = run("ip", &["netns", "del", name]);
        }
    }
    let links = run("ip", &["-o", "link", "show"]);
    for line in String::from_utf8_lossy(&links.stdout).lines() {
        // `7: vejn123-1@if6: <...>`: the name is the second field, up to `@` or `:`.
        let Some(name) = line.split_whitespace().nth(1).and_then(|f| f.split(['@', ':']).next()) else { continue };
        let ours = name.starts_with(&format!("br{PREFIX}")) || name.starts_with(&format!("v{PREFIX}"));
        if ours && owner(name).is_some_and(|pid| !alive(pid)) {
            let _ = run("ip", &["link", "del", name]);
        }
    }
}

/// A /24 under 10.231.0.0/16 that no interface of this machine uses, starting at `pid % 250`.
fn free_subnet(pid: u32) -> u8 {
    let addrs = String::from_utf8_lossy(&run("ip", &["-o", "-4", "addr", "show"]).stdout).to_string();
    let start = u8::try_from(pid % 250).unwrap_or(0);
    (0..250u8)
        .map(|k| start.wrapping_add(k) % 250)
        .find(|s| !addrs.contains(&format!("10.231.{s}.")))
        .expect("a free 10.231.x.0/24")
}

/// One host: a network namespace with its own address.
#[derive(Debug, Clone)]
pub struct Host {
    /// The namespace's name (`ejn{pid}-{label}`).
    pub netns: String,
    /// What the test calls it (`z1`, `w3`, ...).
    pub label: String,
    pub ip: Ipv4Addr,
}

impl Host {
    /// `program` to be run inside this host.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        command_in(Some(&self.netns), program)
    }

    /// Starts `program args` inside this host, its output appended to `log`.
    pub fn spawn(&self, program: impl AsRef<std::ffi::OsStr>, args: &[&str], log: &std::path::Path) -> Child {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
        self.command(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap()
    }

    /// Runs `nft` inside this host with `script` on its standard input; panics when it fails.
    fn nft(&self, script: &str) {
        use std::io::Write;
        let mut child = self
            .command("nft")
            .args(["-f", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "nft in {}: {}\n{script}",
            self.netns,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
}

/// A bridge and its hosts; deleted on drop.
pub struct Net {
    bridge: String,
    pub hosts: Vec<Host>,
    /// The hosts that have a fault table now.
    faulted: Vec<usize>,
}

/// The name of the table faults live in, inside each host's namespace.
const TABLE: &str = "ejfault";

impl Net {
    /// Creates one host per label (at most 200). Fails the test, naming what is missing, when
    /// this machine cannot.
    pub fn create(labels: &[&str]) -> Net {
        assert!(
            run("nft", &["--version"]).status.success(),
            "network faults need nftables: `nft` is missing (apt-get install -y --no-install-recommends nftables; \
             the test command .ci/test installs it)"
        );
        sweep();
        let pid = std::process::id();
        let subnet = free_subnet(pid);
        let bridge = format!("br{PREFIX}{pid}");
        let mut net = Net { bridge: bridge.clone(), hosts: Vec::new(), faulted: Vec::new() };
        ip("create a bridge", &["link", "add", &bridge, "type", "bridge"]);
        ip("address the bridge", &["addr", "add", &format!("10.231.{subnet}.254/24"), "dev", &bridge]);
        ip("bring the bridge up", &["link", "set", &bridge, "up"]);
        for (i, label) in labels.iter().enumerate() {
            let netns = format!("{PREFIX}{pid}-{label}");
            let outside = format!("v{PREFIX}{pid}-{i}");
            let inside = format!("v{PREFIX}{pid}p{i}");
            let addr = Ipv4Addr::new(10, 231, subnet, u8::try_from(i + 1).unwrap());
            ip("create a network namespace", &["netns", "add", &netns]);
            net.hosts.push(Host { netns: netns.clone(), label: (*label).to_string(), ip: addr });
            ip("create a veth pair", &["link", "add", &outside, "type", "veth", "peer", "name", &inside]);
            ip("move a veth into a namespace", &["link", "set", &inside, "netns", &netns]);
            ip("attach a veth to the bridge", &["link", "set", &outside, "master", &bridge, "up"]);
            let inns = |what: &str, args: &[&str]| {
                let mut full = vec!["netns", "exec", &netns, "ip"];
                full.extend_from_slice(args);
                ip(what, &full);
            };
            inns("rename the veth in a namespace", &["link", "set", &inside, "name", "eth0"]);
            inns("address a host", &["addr", "add", &format!("{addr}/24"), "dev", "eth0"]);
            inns("bring a host's link up", &["link", "set", "eth0", "up"]);
            inns("bring a host's loopback up", &["link", "set", "lo", "up"]);
            inns("route through the bridge", &["route", "add", "default", "via", &format!("10.231.{subnet}.254")]);
        }
        net
    }

    /// The host called `label`.
    pub fn host(&self, label: &str) -> &Host {
        self.hosts.iter().find(|h| h.label == label).unwrap()
    }

    /// Notes that `host` has a fault table.
    fn note_fault(&mut self, host: &Host) {
        let i = self.hosts.iter().position(|h| h.netns == host.netns).unwrap();
        if !self.faulted.contains(&i) {
            self.faulted.push(i);
        }
    }

    /// Drops every packet between `host` and each of `peers`, both ways (rules in `host`'s
    /// namespace; the test process, on the bridge's address, still reaches it).
    pub fn partition(&mut self, host: &Host, peers: &[&Host]) {
        let set: Vec<String> = peers.iter().map(|p| p.ip.to_string()).collect();
        let set = set.join(", ");
        host.nft(&format!(
            "table inet {TABLE} {{\n\
             chain input {{ type filter hook input priority 0; policy accept; ip saddr {{ {set} }} drop; }}\n\
             chain output {{ type filter hook output priority 0; policy accept; ip daddr {{ {set} }} drop; }}\n\
             }}\n"
        ));
        self.note_fault(host);
    }

    /// Drops `percent` % of `host`'s packets at random, in each direction.
    pub fn loss(&mut self, host: &Host, percent: u32) {
        host.nft(&format!(
            "table inet {TABLE} {{\n\
             chain input {{ type filter hook input priority 0; policy accept; numgen random mod 100 < {percent} drop; }}\n\
             chain output {{ type filter hook output priority 0; policy accept; numgen random mod 100 < {percent} drop; }}\n\
             }}\n"
        ));
        self.note_fault(host);
    }

    /// Removes the faults of `host`.
    pub fn heal_host(&mut self, host: &Host) {
        let i = self.hosts.iter().position(|h| h.netns == host.netns).unwrap();
        if let Some(k) = self.faulted.iter().position(|&j| j == i) {
            self.faulted.remove(k);
            self.hosts[i].nft(&format!("delete table inet {TABLE}\n"));
        }
    }

    /// Removes every fault.
    pub fn heal(&mut self) {
        for i in std::mem::take(&mut self.faulted) {
            self.hosts[i].nft(&format!("delete table inet {TABLE}\n"));
        }
    }
}

impl Drop for Net {
    fn drop(&mut self) {
        for h in &self.hosts {
            kill_inside(&h.netns);
            let _ = run("ip", &["netns", "del", &h.netns]);
        }
        let _ = run("ip", &["link", "del", &self.bridge]);
    }
}
