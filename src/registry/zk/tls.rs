//! TLS to ZooKeeper ([`ZkTls`]): PEM files for the CA that signed the servers' certificates and,
//! for ZooKeeper's x509 authentication, the client's certificate and key.
//!
//! * **Verification is always on**: the server's certificate must chain to the CA and name the
//!   host of the connect string (a DNS name or an IP address in its subject alternative names).
//!   There is no switch to turn the host check off (`zookeeper-client` offers it only as an
//!   `unsafe fn`, and a certificate with the right names is the fix).
//! * **Files are read at each connection** (a new session after an expiry re-reads them), so
//!   rotated certificates are picked up without a restart; [`ZkTls::check`] reads them once up
//!   front so a bad path or PEM is a usage error before anything connects.
//! * **Why a handshake failed**: `zookeeper-client` reports a failed TLS connection only as "no
//!   hosts" or a timeout (the cause goes to its debug log). [`diagnose`] repeats the handshake
//!   with rustls against the first server and returns rustls's reason (`invalid peer
//!   certificate: UnknownIssuer`), which the connection error then names.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use zookeeper_client as zkc;

/// TLS settings for a ZooKeeper registry: PEM files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZkTls {
    /// The CA certificate(s) the servers' certificates must chain to (CRLs in the file are used).
    pub ca: PathBuf,
    /// The client certificate (chain) presented for x509 authentication.
    pub cert: Option<PathBuf>,
    /// The client certificate's private key (PKCS#8, PKCS#1 or SEC1).
    pub key: Option<PathBuf>,
}

impl ZkTls {
    /// Reads and parses the files once, as a connection would.
    ///
    /// # Errors
    /// A one-line message naming the file and what is wrong with it; a certificate without a key
    /// (or the reverse).
    pub fn check(&self) -> Result<(), String> {
        self.options().map(|_| ())
    }

    /// The `zookeeper-client` options, read from the files now.
    pub(super) fn options(&self) -> Result<zkc::TlsOptions, String> {
        let ca = read(&self.ca, "CA")?;
        if CertificateDer::pem_slice_iter(ca.as_bytes()).next().is_none() {
            return Err(format!("TLS CA file {}: no PEM certificate in it", self.ca.display()));
        }
        let options =
            zkc::TlsOptions::new().with_pem_ca(&ca).map_err(|e| format!("TLS CA file {}: {e}", self.ca.display()))?;
        match (&self.cert, &self.key) {
            (None, None) => Ok(options),
            (Some(cert_path), Some(key_path)) => {
                let cert = read(cert_path, "certificate")?;
                let key = read(key_path, "key")?;
                if CertificateDer::pem_slice_iter(cert.as_bytes()).next().is_none() {
                    return Err(format!("TLS certificate file {}: no PEM certificate in it", cert_path.display()));
                }
                if PrivateKeyDer::from_pem_slice(key.as_bytes()).is_err() {
                    return Err(format!("TLS key file {}: no PEM private key in it", key_path.display()));
                }
                options
                    .with_pem_identity(&cert, &key)
                    .map_err(|e| format!("TLS certificate {} and key {}: {e}", cert_path.display(), key_path.display()))
            }
            (Some(_), None) => Err("a TLS client certificate needs its key too".to_string()),
            (None, Some(_)) => Err("a TLS client key needs its certificate too".to_string()),
        }
    }

    /// A rustls client configuration with the same trust and identity, for [`diagnose`].
    fn rustls_config(&self) -> Result<rustls::ClientConfig, String> {
        let ca = read(&self.ca, "CA")?;
        let mut roots = rustls::RootCertStore::empty();
        for cert in CertificateDer::pem_slice_iter(ca.as_bytes()) {
            let cert = cert.map_err(|e| format!("TLS CA file {}: {e}", self.ca.display()))?;
            roots.add(cert).map_err(|e| format!("TLS CA file {}: {e}", self.ca.display()))?;
        }
        let builder =
            rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::aws_lc_rs::default_provider()))
                .with_safe_default_protocol_versions()
                .map_err(|e| e.to_string())?
                .with_root_certificates(roots);
        match (&self.cert, &self.key) {
            (Some(cert), Some(key)) => {
                let chain: Result<Vec<_>, _> =
                    CertificateDer::pem_file_iter(cert).map_err(|e| e.to_string())?.collect();
                let chain = chain.map_err(|e| format!("TLS certificate file {}: {e}", cert.display()))?;
                let key =
                    PrivateKeyDer::from_pem_file(key).map_err(|e| format!("TLS key file {}: {e}", key.display()))?;
                builder.with_client_auth_cert(chain, key).map_err(|e| e.to_string())
            }
            _ => Ok(builder.with_no_client_auth()),
        }
    }
}

fn read(path: &Path, what: &str) -> Result<String, String> {
    crate::files::read_regular(path, crate::files::TLS_FILE_LIMIT)
        .map_err(|e| format!("cannot read the TLS {what} file {}: {e}", path.display()))
}

/// Repeats the TLS handshake with the first server of a normalised connect string
/// (`host:port,...`) and returns why it fails, or `None` when it succeeds.
pub(super) async fn diagnose(tls: &ZkTls, servers: &str) -> Option<String> {
    let config = match tls.rustls_config() {
        Ok(config) => Arc::new(config),
        Err(e) => return Some(e),
    };
    let first = servers.split(',').next()?.to_string();
    let task = tokio::task::spawn_blocking(move || handshake(config, &first));
    match tokio::time::timeout(Duration::from_secs(10), task).await {
        Ok(Ok(result)) => result.err(),
        _ => None,
    }
}

/// A blocking TLS handshake with `host:port`; the error is rustls's reason.
fn handshake(config: Arc<rustls::ClientConfig>, server: &str) -> Result<(), String> {
    use std::net::ToSocketAddrs;
    let (host, _) = server.rsplit_once(':').ok_or_else(|| format!("bad server '{server}'"))?;
    let host = host.trim_start_matches('[').trim_end_matches(']').to_string();
    let name = ServerName::try_from(host.clone()).map_err(|e| format!("'{host}' cannot be checked by TLS: {e}"))?;
    let address = server.to_socket_addrs().ok().and_then(|mut a| a.next()).ok_or("unresolvable")?;
    let mut socket =
        std::net::TcpStream::connect_timeout(&address, Duration::from_secs(5)).map_err(|e| e.to_string())?;
    socket.set_read_timeout(Some(Duration::from_secs(5))).map_err(|e| e.to_string())?;
    socket.set_write_timeout(Some(Duration::from_secs(5))).map_err(|e| e.to_string())?;
    let mut conn = rustls::ClientConnection::new(config, name).map_err(|e| e.to_string())?;
    while conn.is_handshaking() {
        conn.complete_io(&mut socket).map_err(|e| format!("TLS handshake with {server} failed: {e}"))?;
    }
    Ok(())
}
