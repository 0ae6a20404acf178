//! One `ejctl run` process on a job file written for the test, and scripts for its jobs.

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

use super::{ZkServer, unique_ns, write_script};

/// An `ejctl run` process, killed when dropped.
pub struct Worker {
    /// The registry namespace of its job file.
    pub ns: String,
    child: Child,
    stderr: PathBuf,
    _dir: tempfile::TempDir,
}

impl Worker {
    /// Runs `jobs` (`[[job]]` tables) on `server`.
    pub fn start(server: &ZkServer, dir: tempfile::TempDir, jobs: &str) -> Worker {
        let file = dir.path().join("jobs.toml");
        let ns = unique_ns("worker");
        std::fs::write(
            &file,
            format!(
                "[registry]\nservers = \"{}\"\nnamespace = \"{}\"\nsession_timeout_ms = 10000\n\n\
                 [instance]\nip = \"127.0.0.1\"\nshutdown_timeout_seconds = 5\n\n{jobs}",
                server.connect_string(),
                ns
            ),
        )
        .unwrap();
        let stderr = dir.path().join("stderr.txt");
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_ejctl"))
            .arg("run")
            .arg(&file)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .unwrap();
        Worker { ns, child, stderr, _dir: dir }
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    pub fn check_alive(&mut self) {
        if let Some(status) = self.child.try_wait().unwrap() {
            panic!("ejctl run exited with {status}: {}", self.log());
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A script that records its start (ms since the epoch) in `record`, writes `boom` on stderr and
/// fails.
pub fn failing_script(dir: &Path, record: &Path) -> PathBuf {
    let script = dir.join("fail.sh");
    write_script(
        &script,
        &format!("#!/bin/sh\necho $(($(date +%s%N)/1000000)) >> {}\necho boom >&2\nexit 3\n", record.display()),
    );
    script
}
