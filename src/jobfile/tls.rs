//! The `[registry] tls = { ca = ..., cert = ..., key = ... }` table of a job file: PEM files for
//! TLS to ZooKeeper, read and checked when the file is loaded. Relative paths are relative to the
//! job file's directory (as kubeconfig does), so a job file and its certificates move together.

use std::path::{Path, PathBuf};

use toml::Value;

use super::JobFileError;
use super::fields::{Fields, describe};
use crate::registry::ZkTls;

/// The keys of the `tls` table.
const TLS_KEYS: &[&str] = &["ca", "cert", "key"];

/// Reads `registry.tls`, if present, and checks that its files hold usable PEM.
pub(super) fn parse_tls(f: &Fields<'_>, key: &str) -> Result<Option<ZkTls>, JobFileError> {
    let Some(table) = f.table(key)? else { return Ok(None) };
    let t = Fields { table, file: f.file, job: None, prefix: "registry.tls." };
    t.check_keys(TLS_KEYS, &[])?;
    let path = |name: &str| -> Result<Option<PathBuf>, JobFileError> {
        match table.get(name) {
            None => Ok(None),
            Some(Value::String(s)) if s.trim().is_empty() => Err(t.err(name, "must not be empty")),
            Some(Value::String(s)) => Ok(Some(relative_to(f.file, s))),
            Some(other) => Err(t.err(name, format!("expected a file path, found {}", describe(other)))),
        }
    };
    let ca = path("ca")?.ok_or_else(|| t.err("ca", "required (the PEM file of the CA that signed the servers)"))?;
    let tls = ZkTls { ca, cert: path("cert")?, key: path("key")? };
    tls.check().map_err(|e| f.err(key, e))?;
    Ok(Some(tls))
}

/// `path` as written, or joined to the job file's directory when relative.
fn relative_to(file: &Path, path: &str) -> PathBuf {
    let path = PathBuf::from(path);
    match file.parent() {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path,
    }
}
