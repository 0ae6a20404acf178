//! Real local receivers for notifications: an HTTP server that records requests and answers
//! (or hangs), and an SMTP server that takes mail (EHLO, AUTH PLAIN/LOGIN, MAIL, RCPT, DATA) and
//! records it. Both listen on a free loopback port and stop when dropped.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// A recorded HTTP request.
#[derive(Debug, Clone)]
pub struct Request {
    /// Method and target (path and query).
    pub line: String,
    /// Header lines, lowercase names.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: String,
}

/// How the HTTP receiver answers.
#[derive(Debug, Clone)]
pub enum Answer {
    /// This status and JSON body.
    Json(u16, String),
    /// Never: the connection stays open without a reply.
    Hang,
}

/// An HTTP receiver.
pub struct HttpReceiver {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    requests: Arc<Mutex<Vec<Request>>>,
    task: tokio::task::JoinHandle<()>,
}

impl HttpReceiver {
    /// Starts one answering every request with `answer`.
    pub async fn start(answer: Answer) -> HttpReceiver {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else { return };
                let (answer, seen) = (answer.clone(), seen.clone());
                tokio::spawn(async move {
                    let (read, mut write) = stream.into_split();
                    let mut reader = BufReader::new(read);
                    let mut line = String::new();
                    if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    let mut headers = Vec::new();
                    loop {
                        let mut h = String::new();
                        if reader.read_line(&mut h).await.unwrap_or(0) == 0 || h.trim().is_empty() {
                            break;
                        }
                        if let Some((k, v)) = h.trim_end().split_once(':') {
                            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
                        }
                    }
                    let len = headers
                        .iter()
                        .find(|(k, _)| k == "content-length")
                        .and_then(|(_, v)| v.parse::<usize>().ok())
                        .unwrap_or(0);
                    let mut body = vec![0u8; len];
                    if reader.read_exact(&mut body).await.is_err() {
                        return;
                    }
                    let target = line.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
                    seen.lock().unwrap().push(Request {
                        line: target,
                        headers,
                        body: String::from_utf8_lossy(&body).into_owned(),
                    });
                    match answer {
                        Answer::Json(status, body) => {
                            let reply = format!(
                                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                                body.len()
                            );
                            let _ = write.write_all(reply.as_bytes()).await;
                            let _ = write.shutdown().await;
                        }
                        Answer::Hang => {
                            std::future::pending::<()>().await;
                        }
                    }
                });
            }
        });
        HttpReceiver { url, requests, task }
    }

    /// The requests so far.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for HttpReceiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A mail the SMTP receiver took.
#[derive(Debug, Clone, Default)]
pub struct Mail {
    /// The `AUTH` exchange's decoded credentials (`\0user\0password` for PLAIN).
    pub auth: Vec<String>,
    /// `MAIL FROM` argument.
    pub from: String,
    /// `RCPT TO` arguments.
    pub to: Vec<String>,
    /// The message (headers and body).
    pub data: String,
}

/// An SMTP receiver (no TLS).
pub struct SmtpReceiver {
    /// Its port.
    pub port: u16,
    mails: Arc<Mutex<Vec<Mail>>>,
    /// Every `AUTH` exchange's decoded credentials, on any connection (a mail sent or not).
    auths: Arc<Mutex<Vec<String>>>,
    task: tokio::task::JoinHandle<()>,
}

fn decode(s: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(s.trim())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

impl SmtpReceiver {
    /// Starts one.
    pub async fn start() -> SmtpReceiver {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let mails = Arc::new(Mutex::new(Vec::new()));
        let auths = Arc::new(Mutex::new(Vec::new()));
        let seen = mails.clone();
        let seen_auths = auths.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else { return };
                let seen = seen.clone();
                let seen_auths = seen_auths.clone();
                tokio::spawn(async move {
                    let (read, mut w) = stream.into_split();
                    let mut lines = BufReader::new(read).lines();
                    let mut mail = Mail::default();
                    let _ = w.write_all(b"220 localhost ESMTP test\r\n").await;
                    while let Ok(Some(line)) = lines.next_line().await {
                        let upper = line.to_ascii_uppercase();
                        let reply: String = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                            "250-localhost\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n".into()
                        } else if upper.starts_with("AUTH PLAIN") {
                            match line.split_whitespace().nth(2) {
                                Some(initial) => mail.auth.push(decode(initial)),
                                None => {
                                    let _ = w.write_all(b"334 \r\n").await;
                                    if let Ok(Some(l)) = lines.next_line().await {
                                        mail.auth.push(decode(&l));
                                    }
                                }
                            }
                            "235 ok\r\n".into()
                        } else if upper.starts_with("AUTH LOGIN") {
                            if let Some(user) = line.split_whitespace().nth(2) {
                                mail.auth.push(decode(user));
                            } else {
                                let _ = w.write_all(b"334 VXNlcm5hbWU6\r\n").await;
                                if let Ok(Some(l)) = lines.next_line().await {
                                    mail.auth.push(decode(&l));
                                }
                            }
                            let _ = w.write_all(b"334 UGFzc3dvcmQ6\r\n").await;
                            if let Ok(Some(l)) = lines.next_line().await {
                                mail.auth.push(decode(&l));
                            }
                            "235 ok\r\n".into()
                        } else if upper.starts_with("MAIL FROM") {
                            mail.from = line[10..].trim().to_string();
                            "250 ok\r\n".into()
                        } else if upper.starts_with("RCPT TO") {
                            mail.to.push(line[8..].trim().to_string());
                            "250 ok\r\n".into()
                        } else if upper == "DATA" {
                            let _ = w.write_all(b"354 go\r\n").await;
                            let mut data = String::new();
                            while let Ok(Some(l)) = lines.next_line().await {
                                if l == "." {
                                    break;
                                }
                                data.push_str(&l);
                                data.push('\n');
                            }
                            mail.data = data;
                            seen_auths.lock().unwrap().extend(mail.auth.iter().cloned());
                            seen.lock().unwrap().push(std::mem::take(&mut mail));
                            "250 queued\r\n".into()
                        } else if upper == "QUIT" {
                            seen_auths.lock().unwrap().extend(mail.auth.drain(..));
                            let _ = w.write_all(b"221 bye\r\n").await;
                            return;
                        } else {
                            "250 ok\r\n".into()
                        };
                        if w.write_all(reply.as_bytes()).await.is_err() {
                            break;
                        }
                    }
                    seen_auths.lock().unwrap().extend(mail.auth.drain(..));
                });
            }
        });
        SmtpReceiver { port, mails, auths, task }
    }

    /// The mails so far.
    pub fn mails(&self) -> Vec<Mail> {
        self.mails.lock().unwrap().clone()
    }

    /// The credentials sent so far, with a mail or without.
    pub fn auths(&self) -> Vec<String> {
        self.auths.lock().unwrap().clone()
    }
}

impl Drop for SmtpReceiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}
