//! Real PostgreSQL servers for tests, from the Debian `postgresql` package: `initdb` in a
//! temporary directory (as the `postgres` user when the tests run as root, since PostgreSQL
//! refuses to run as root), a free loopback port, trust authentication for the user `ejctl`.
//! The server can be killed and restarted; it is stopped on drop, even when a test panics.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::zk::free_port;

/// The newest `/usr/lib/postgresql/N/bin`, if PostgreSQL is installed.
fn bin_dir() -> Option<PathBuf> {
    let mut dirs: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let version = e.file_name().to_string_lossy().parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    dirs.sort();
    dirs.pop().map(|(_, bin)| bin)
}

/// The uid and gid of the `postgres` user.
fn postgres_user() -> Option<(u32, u32)> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|l| {
        let f: Vec<&str> = l.split(':').collect();
        (f.first() == Some(&"postgres")).then(|| Some((f.get(2)?.parse().ok()?, f.get(3)?.parse().ok()?)))?
    })
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("Uid:").map(|r| r.split_whitespace().next() == Some("0"))))
        .unwrap_or(false)
}

/// A PostgreSQL server of its own.
pub struct PgServer {
    _dir: tempfile::TempDir,
    data: PathBuf,
    sockets: PathBuf,
    log: PathBuf,
    bin: PathBuf,
    as_postgres: bool,
    port: u16,
    running: bool,
}

impl PgServer {
    /// Initialises a cluster and starts it.
    pub fn start() -> PgServer {
        let Some(bin) = bin_dir() else {
            panic!(
                "these tests need a real PostgreSQL: the Debian `postgresql` package is missing.\n\
                 Install it with `sudo apt-get install -y --no-install-recommends postgresql`, \
                 or run the README test command (`.ci/test`), which installs it."
            );
        };
        let dir = tempfile::Builder::new().prefix("ejctl-pg-").tempdir().unwrap();
        let as_postgres = is_root();
        if as_postgres {
            let (uid, gid) = postgres_user().expect("the postgresql package creates a postgres user");
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid)).unwrap();
        }
        let data = dir.path().join("data");
        let sockets = dir.path().to_path_buf();
        let log = dir.path().join("pg.log");
        let mut pg = PgServer { _dir: dir, data, sockets, log, bin, as_postgres, port: free_port(), running: false };
        let status = pg
            .command("initdb")
            .arg("-D")
            .arg(&pg.data)
            .args(["-A", "trust", "-U", "ejctl", "--no-sync"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "initdb failed");
        // The free port may be taken by someone else before the server binds it: try others.
        for _ in 0..5 {
            if pg.try_ctl_start() {
                return pg;
            }
            pg.port = free_port();
        }
        pg.run_ctl_start();
        pg
    }

    fn command(&self, tool: &str) -> Command {
        let program = self.bin.join(tool);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(program).current_dir("/tmp");
            c
        } else {
            Command::new(program)
        }
    }

    fn run_ctl_start(&mut self) {
        let started = self.try_ctl_start();
        assert!(started, "pg_ctl start failed: {}", std::fs::read_to_string(&self.log).unwrap_or_default());
    }

    fn try_ctl_start(&mut self) -> bool {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
            self.port,
            self.sockets.display()
        );
        let status = self
            .command("pg_ctl")
            .arg("-D")
            .arg(&self.data)
            .arg("-l")
            .arg(&self.log)
            .args(["-o", &options, "-w", "-t", "60", "start"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        self.running = status.success();
        self.running
    }

    fn ctl_stop(&mut self, mode: &str) {
        if !self.running {
            return;
        }
        let _ = self
            .command("pg_ctl")
            .arg("-D")
            .arg(&self.data)
            .args(["-m", mode, "-w", "-t", "60", "stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        self.running = false;
    }

    /// The port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A URL for database `db` as user `ejctl`.
    pub fn url(&self, db: &str) -> String {
        format!("postgres://ejctl@127.0.0.1:{}/{db}", self.port)
    }

    /// Creates a database.
    pub fn create_database(&self, name: &str) {
        let status = Command::new("psql")
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", "ejctl", "-d", "postgres", "-q", "-c"])
            .arg(format!("CREATE DATABASE {name}"))
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "cannot create database {name}");
    }

    /// Kills the server at once (`immediate`: no shutdown checkpoint, clients cut off).
    pub fn kill(&mut self) {
        self.ctl_stop("immediate");
    }

    /// Starts it again (same port and data).
    pub fn restart(&mut self) {
        if !self.running {
            self.run_ctl_start();
        }
    }

    /// The server log.
    pub fn log_path(&self) -> &Path {
        &self.log
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        self.ctl_stop("immediate");
    }
}
