//! The `[instance]` table of a job file: this worker's identity and local settings.

use std::path::Path;
use std::time::Duration;

use toml::Table;

use super::fields::Fields;
use super::{InstanceSection, JobFileError};
use crate::config::schema::INSTANCE_KEYS;
use crate::registry::path::is_ipv4;

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
