//! Certificates and TLS servers for tests: a CA, server and client certificates made with rcgen
//! (ECDSA P-256, written as PEM files into a temporary directory), a second CA nobody trusts, and
//! a small HTTPS server that answers every request with a fixed status and records what it got.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// PEM files of a test PKI.
pub struct Pki {
    _dir: tempfile::TempDir,
    /// The CA that signed everything below.
    pub ca: PathBuf,
    /// A CA that signed nothing here (a client trusting it must refuse the servers).
    pub other_ca: PathBuf,
    /// The server's certificate (SANs 127.0.0.1 and localhost) and key.
    pub server_cert: PathBuf,
    pub server_key: PathBuf,
    /// The server's key and certificate in one file (ZooKeeper's PEM key store).
    pub server_keystore: PathBuf,
    /// A client certificate (`O=ejctl, CN=ejctl-client`) and key, for x509 authentication.
    pub client_cert: PathBuf,
    pub client_key: PathBuf,
    /// Another client certificate from the same CA (`CN=intruder`).
    pub other_client_cert: PathBuf,
    pub other_client_key: PathBuf,
}

fn ca(name: &str) -> CertifiedIssuer<'static, KeyPair> {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
    CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap()
}

fn leaf(issuer: &CertifiedIssuer<'static, KeyPair>, names: &[&str], cn: &str) -> (String, String) {
    let mut params = CertificateParams::new(names.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
    params.distinguished_name.push(DnType::OrganizationName, "ejctl");
    params.distinguished_name.push(DnType::CommonName, cn);
    let key = KeyPair::generate().unwrap();
    let cert = params.signed_by(&key, issuer).unwrap();
    (cert.pem(), key.serialize_pem())
}

impl Pki {
    /// Generates the certificates and writes them.
    pub fn generate() -> Pki {
        let dir = tempfile::Builder::new().prefix("ejctl-pki-").tempdir().unwrap();
        let write = |name: &str, text: &str| -> PathBuf {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let authority = ca("ejctl test CA");
        let stranger = ca("somebody else's CA");
        let (server_cert, server_key) = leaf(&authority, &["127.0.0.1", "localhost"], "zookeeper");
        let (client_cert, client_key) = leaf(&authority, &[], "ejctl-client");
        let (other_cert, other_key) = leaf(&authority, &[], "intruder");
        Pki {
            ca: write("ca.pem", &authority.pem()),
            other_ca: write("other-ca.pem", &stranger.pem()),
            server_keystore: write("server-keystore.pem", &format!("{server_key}{server_cert}")),
            server_cert: write("server.pem", &server_cert),
            server_key: write("server.key", &server_key),
            client_cert: write("client.pem", &client_cert),
            client_key: write("client.key", &client_key),
            other_client_cert: write("intruder.pem", &other_cert),
            other_client_key: write("intruder.key", &other_key),
            _dir: dir,
        }
    }

    /// The directory the files are in.
    pub fn dir(&self) -> &Path {
        self.ca.parent().unwrap()
    }

    /// A rustls server configuration with the server certificate.
    pub fn server_config(&self) -> Arc<rustls::ServerConfig> {
        use rustls::pki_types::pem::PemObject;
        use rustls::pki_types::{CertificateDer, PrivateKeyDer};
        let certs: Vec<CertificateDer<'static>> =
            CertificateDer::pem_file_iter(&self.server_cert).unwrap().map(Result::unwrap).collect();
        let key = PrivateKeyDer::from_pem_file(&self.server_key).unwrap();
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .unwrap();
        Arc::new(config)
    }
}

/// An HTTPS server on a free loopback port answering every request with `status`; it records
/// each request's head (method, path, headers). Stops when dropped.
pub struct HttpsServer {
    pub port: u16,
    pub requests: Arc<Mutex<Vec<String>>>,
    task: tokio::task::JoinHandle<()>,
}

impl HttpsServer {
    pub async fn start(pki: &Pki, status: u16) -> HttpsServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let acceptor = tokio_rustls::TlsAcceptor::from(pki.server_config());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&requests);
        let task = tokio::spawn(async move {
            loop {
                let Ok((socket, _)) = listener.accept().await else { return };
                let acceptor = acceptor.clone();
                let seen = Arc::clone(&seen);
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(socket).await else { return };
                    let mut data = Vec::new();
                    let mut buf = [0u8; 4096];
                    while !data.windows(4).any(|w| w == b"\r\n\r\n") {
                        match tls.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => data.extend_from_slice(&buf[..n]),
                        }
                    }
                    seen.lock().unwrap().push(String::from_utf8_lossy(&data).into_owned());
                    let reply = format!("HTTP/1.1 {status} X\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
                    let _ = tls.write_all(reply.as_bytes()).await;
                    let _ = tls.shutdown().await;
                });
            }
        });
        HttpsServer { port, requests, task }
    }

    /// `https://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("https://127.0.0.1:{}{path}", self.port)
    }

    pub fn request_count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }
}

impl Drop for HttpsServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}
