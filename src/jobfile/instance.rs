//! The `[instance]` table of a job file: this worker's identity and local settings.

use std::path::Path;
use std::time::Duration;

use toml::Table;

use super::JobFileError;
use super::fields::Fields;
use crate::config::schema::INSTANCE_KEYS;
use crate::registry::path::is_ipv4;

/// The `[instance]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstanceSection {
    /// `ip`: overrides the detected IP of the instance id.
    pub ip: Option<String>,
    /// `dump_port`: serve `dump@{job}` on this TCP port.
    pub dump_port: Option<u16>,
    /// `dump_address`: the address the dump port listens on (loopback when `None`).
    pub dump_address: Option<std::net::IpAddr>,
    /// `http`: serve `/metrics`, `/healthz`, `/readyz` and `/dump/{job}` on this address.
    pub http: Option<std::net::SocketAddr>,
    /// `shutdown_timeout_seconds`: how long a graceful stop waits for running items (default 30).
    pub shutdown_timeout: Duration,
    /// `kill_grace_seconds`: SIGTERM to SIGKILL delay when killing an item; `None` (not written)
    /// derives it from the session and fencing timeouts ([`kill_grace`]).
    pub kill_grace: Option<Duration>,
    /// `prune_servers_after_seconds`: remove the jobs' `servers/{ip}` nodes that nothing uses and
    /// that were not written during this long (default: off).
    pub prune_servers_after: Option<Duration>,
}

impl Default for InstanceSection {
    fn default() -> InstanceSection {
        InstanceSection {
            ip: None,
            dump_port: None,
            dump_address: None,
            http: None,
            shutdown_timeout: Duration::from_secs(30),
            kill_grace: None,
            prune_servers_after: None,
        }
    }
}

/// The kill grace when a job file does not write `kill_grace_seconds`.
pub const DEFAULT_KILL_GRACE: Duration = Duration::from_secs(5);

/// The kill grace of a worker whose job files do not write `kill_grace_seconds`: 5 s, or less
/// when the session timeout leaves no room for it.
///
/// An item cut off from the registry is killed after the fencing timeout plus the kill grace;
/// that sum must stay below the session timeout, or the item may still run when another
/// instance takes it over. Defaults the user never wrote must not break that (a file with only
/// `session_timeout_ms = 10000` would have a fencing timeout of 5 s plus a kill grace of 5 s),
/// so the grace gets what is left below the session timeout after the fencing timeout, less a
/// fifth of it (at most a second) as the margin for the fencing check's own timing.
pub fn kill_grace(session_timeout: Duration, fencing_timeout: Duration) -> Duration {
    let left = session_timeout.saturating_sub(fencing_timeout);
    let margin = (left / 5).min(Duration::from_secs(1));
    DEFAULT_KILL_GRACE.min(left - margin)
}

/// Parses and checks an `[instance]` table.
pub(super) fn parse_instance(file: &Path, table: &Table) -> Result<InstanceSection, JobFileError> {
    let f = Fields { table, file, job: None, prefix: "instance." };
    let known: Vec<&str> = INSTANCE_KEYS.iter().map(|k| k.key).collect();
    f.check_keys(&known, &[])?;
    let ip = f.string("ip")?;
    if let Some(ip) = &ip
        && !is_ipv4(ip)
    {
        return Err(f.err("ip", format!("'{ip}' is not an IPv4 address")));
    }
    let dump_port = match f.integer("dump_port")? {
        None => None,
        Some(p) => Some(
            u16::try_from(p)
                .ok()
                .filter(|p| *p > 0)
                .ok_or_else(|| f.err("dump_port", format!("must be a port number from 1 to 65535, got {p}")))?,
        ),
    };
    let dump_address = match f.string("dump_address")? {
        None => None,
        Some(a) => Some(
            a.trim()
                .parse::<std::net::IpAddr>()
                .map_err(|_| f.err("dump_address", format!("'{a}' is not an IP address (such as 0.0.0.0)")))?,
        ),
    };
    let http = match f.string("http")? {
        None => None,
        Some(a) => Some(parse_http(a.trim()).ok_or_else(|| {
            f.err("http", format!("'{a}' is not an address such as 127.0.0.1:9110, 0.0.0.0:9110 or a port"))
        })?),
    };
    let seconds = |key: &str, default: u64| -> Result<Duration, JobFileError> {
        Ok(Duration::from_secs(f.int_at_least(key, 0)?.map_or(default, |v| v as u64)))
    };
    Ok(InstanceSection {
        ip,
        dump_port,
        dump_address,
        http,
        shutdown_timeout: seconds("shutdown_timeout_seconds", 30)?,
        kill_grace: f.int_at_least("kill_grace_seconds", 0)?.map(|v| Duration::from_secs(v as u64)),
        prune_servers_after: f
            .int_at_least("prune_servers_after_seconds", 0)?
            .map(|v| Duration::from_secs(u64::try_from(v).unwrap_or(0))),
    })
}

/// `[instance] http`: `IP:PORT` (`[IPv6]:PORT`), or a bare port on loopback (the endpoint is only
/// reachable from other machines when an address says so).
fn parse_http(value: &str) -> Option<std::net::SocketAddr> {
    if let Ok(port) = value.parse::<u16>() {
        return Some(std::net::SocketAddr::from((std::net::Ipv4Addr::LOCALHOST, port)));
    }
    value.parse().ok()
}
