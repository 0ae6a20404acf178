//! HTTP jobs (REF §3.6 HTTP): the `http.*` props and one request per item, sent by a small
//! HTTP/1.1 client written here on tokio's `TcpStream` (ejctl carries no HTTP crate).
//!
//! What is sent: `{METHOD} {path?query} HTTP/1.1` with `Host`, `User-Agent: ejctl/<version>`,
//! `Content-Type` (when `http.content.type` is set), `Content-Length` (when a body is sent),
//! `shardingContext: <Gson JSON>` (REF §3.6) and `Connection: close`. The body `http.data` is
//! sent for POST, PUT and DELETE, as ElasticJob does, and for PATCH, which ElasticJob cannot send
//! at all (`HttpURLConnection` has no PATCH) and which is useless without one. A POST, PUT or
//! PATCH without data sends `Content-Length: 0`, so servers do not answer 411.
//!
//! What counts: the status line must arrive within `http.read.timeout.milliseconds` (default
//! 5000; like Java's read timeout it bounds each wait for data, not the whole response), after
//! a connection made within `http.connect.timeout.milliseconds` (default 3000, name lookup
//! included). **Unlike ElasticJob, a status ≥ 400 fails the item**
//! (`HTTP 503 Service Unavailable from http://...`); < 400 succeeds. The response body is read
//! by its framing (`Content-Length`, chunked, or until close) as Java does, up to 16 MiB; the
//! first 4 KiB go to the log. Connection, timeout and protocol errors fail the item, and the
//! run's kill token aborts the request.
//!
//! Only `http://host[:port]/path?query` URIs are supported: no TLS, no credentials in the URI,
//! no redirects followed. Header values are sent as UTF-8 bytes; the context JSON never
//! contains a line break (Gson escapes them), and the request is refused if it ever did.

use crate::config::schema::prop;
use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use super::context::ShardingContext;
use super::process::format_duration;
use super::{ItemOutcome, RunControl};

/// Default of `http.connect.timeout.milliseconds`.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_millis(3000);
/// Default of `http.read.timeout.milliseconds`.
pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_millis(5000);

/// How much of a response body is kept for the log.
const BODY_LOG_CAP: usize = 4 * 1024;
/// How much of a response body is read at most; the connection is closed after that.
const BODY_READ_CAP: u64 = 16 * 1024 * 1024;
/// The longest status or header line accepted.
const LINE_CAP: usize = 16 * 1024;
/// The most header bytes accepted in one response.
const HEADERS_CAP: usize = 64 * 1024;

/// An HTTP method an HTTP job may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpMethod {
    /// GET
    Get,
    /// POST (sends `http.data`)
    Post,
    /// PUT (sends `http.data`)
    Put,
    /// DELETE (sends `http.data`)
    Delete,
    /// PATCH (sends `http.data`)
    Patch,
    /// HEAD
    Head,
    /// OPTIONS
    Options,
}

impl HttpMethod {
    /// Parses a method name, case-insensitively.
    pub fn parse(name: &str) -> Option<HttpMethod> {
        Some(match name.trim().to_ascii_uppercase().as_str() {
            "GET" => HttpMethod::Get,
            "POST" => HttpMethod::Post,
            "PUT" => HttpMethod::Put,
            "DELETE" => HttpMethod::Delete,
            "PATCH" => HttpMethod::Patch,
            "HEAD" => HttpMethod::Head,
            "OPTIONS" => HttpMethod::Options,
            _ => return None,
        })
    }

    /// The method as sent.
    pub fn as_str(self) -> &'static str {
        match self {
            HttpMethod::Get => "GET",
            HttpMethod::Post => "POST",
            HttpMethod::Put => "PUT",
            HttpMethod::Delete => "DELETE",
            HttpMethod::Patch => "PATCH",
            HttpMethod::Head => "HEAD",
            HttpMethod::Options => "OPTIONS",
        }
    }

    /// True when `http.data` is sent with this method.
    pub fn sends_body(self) -> bool {
        matches!(self, HttpMethod::Post | HttpMethod::Put | HttpMethod::Delete | HttpMethod::Patch)
    }
}

impl fmt::Display for HttpMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An HTTP job's configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpSpec {
    /// `http.uri` as configured.
    pub uri: String,
    /// `http.method`.
    pub method: HttpMethod,
    /// `http.data`: the body for POST, PUT, DELETE and PATCH (not sent when empty).
    pub data: Option<String>,
    /// `http.content.type`.
    pub content_type: Option<String>,
    /// `http.connect.timeout.milliseconds`.
    pub connect_timeout: Duration,
    /// `http.read.timeout.milliseconds`.
    pub read_timeout: Duration,
    /// Where the URI points.
    target: Target,
}

/// The parts of an `http://` URI the client needs.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Target {
    /// Host name or IP address, without IPv6 brackets.
    host: String,
    port: u16,
    /// The `Host` header value.
    host_header: String,
    /// Path and query, at least `/`.
    path: String,
}

impl HttpSpec {
    /// Reads the `http.*` props.
    ///
    /// # Errors
    /// A message naming the prop that is missing or invalid; an `https://` URI is refused.
    pub fn from_props(props: &BTreeMap<String, String>) -> Result<HttpSpec, String> {
        let get = |key: &str| props.get(key).map(|v| v.trim()).filter(|v| !v.is_empty());
        let uri = get(prop::HTTP_URI)
            .ok_or_else(|| format!("props '{}' is missing; an http job needs a URI", prop::HTTP_URI))?;
        let target = parse_uri(uri)?;
        let method_name = get(prop::HTTP_METHOD)
            .ok_or_else(|| format!("props '{}' is missing; an http job needs a method", prop::HTTP_METHOD))?;
        let method = HttpMethod::parse(method_name).ok_or_else(|| {
            format!(
                "props '{}' must be GET, POST, PUT, DELETE, PATCH, HEAD or OPTIONS, not '{method_name}'",
                prop::HTTP_METHOD
            )
        })?;
        let content_type = get(prop::HTTP_CONTENT_TYPE).map(str::to_owned);
        if let Some(value) = &content_type
            && value.chars().any(char::is_control)
        {
            return Err(format!("props '{}' contains control characters", prop::HTTP_CONTENT_TYPE));
        }
        // The body is sent as configured, surrounding blanks included.
        let data = props.get(prop::HTTP_DATA).filter(|v| !v.is_empty()).cloned();
        Ok(HttpSpec {
            uri: uri.to_owned(),
            method,
            data,
            content_type,
            connect_timeout: millis_prop(props, prop::HTTP_CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT)?,
            read_timeout: millis_prop(props, prop::HTTP_READ_TIMEOUT, DEFAULT_READ_TIMEOUT)?,
            target,
        })
    }

    /// The request bytes for one item.
    fn request(&self, context_json: &str) -> Vec<u8> {
        let body = if self.method.sends_body() { self.data.as_deref() } else { None };
        let mut head = format!(
            "{} {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: ejctl/{}\r\n",
            self.method,
            self.target.path,
            self.target.host_header,
            env!("CARGO_PKG_VERSION")
        );
        if let Some(content_type) = &self.content_type {
            head.push_str(&format!("Content-Type: {content_type}\r\n"));
        }
        match body {
            Some(body) => head.push_str(&format!("Content-Length: {}\r\n", body.len())),
            None if matches!(self.method, HttpMethod::Post | HttpMethod::Put | HttpMethod::Patch) => {
                head.push_str("Content-Length: 0\r\n");
            }
            None => {}
        }
        head.push_str(&format!("shardingContext: {context_json}\r\nConnection: close\r\n\r\n"));
        let mut bytes = head.into_bytes();
        if let Some(body) = body {
            bytes.extend_from_slice(body.as_bytes());
        }
        bytes
    }
}

fn millis_prop(props: &BTreeMap<String, String>, key: &str, default: Duration) -> Result<Duration, String> {
    match props.get(key).map(|v| v.trim()).filter(|v| !v.is_empty()) {
        None => Ok(default),
        Some(value) => match value.parse::<u64>() {
            Ok(ms) if ms > 0 => Ok(Duration::from_millis(ms)),
            _ => Err(format!("props '{key}' must be a positive whole number of milliseconds, not '{value}'")),
        },
    }
}

/// Parses `http://host[:port]/path?query` (a fragment is dropped).
fn parse_uri(uri: &str) -> Result<Target, String> {
    if uri.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!("props 'http.uri' contains blanks or control characters: '{uri}'"));
    }
    let scheme_end = uri.find("://").map(|i| i + 3).unwrap_or(0);
    let (scheme, rest) = uri.split_at(scheme_end);
    if scheme.eq_ignore_ascii_case("https://") {
        return Err("https is not supported by ejctl's http jobs yet; use an http:// endpoint".to_owned());
    }
    if !scheme.eq_ignore_ascii_case("http://") {
        return Err(format!("props 'http.uri' must be an http:// URI, not '{uri}'"));
    }
    let rest = rest.split('#').next().unwrap_or_default();
    let (authority, path) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let path = match path.strip_prefix('?') {
        Some(query) => format!("/?{query}"),
        None if path.is_empty() => "/".to_owned(),
        None => path.to_owned(),
    };
    if authority.contains('@') {
        return Err(format!("props 'http.uri' must not contain credentials: '{uri}'"));
    }
    let (host, port) = if let Some(bracketed) = authority.strip_prefix('[') {
        let (host, after) =
            bracketed.split_once(']').ok_or_else(|| format!("props 'http.uri' has an unclosed '[': '{uri}'"))?;
        match after {
            "" => (host, None),
            _ => match after.strip_prefix(':') {
                Some(port) => (host, Some(port)),
                None => return Err(format!("props 'http.uri' has an invalid host: '{uri}'")),
            },
        }
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err(format!("props 'http.uri' has no host: '{uri}'"));
    }
    let port = match port {
        None => 80,
        Some(port) => match port.parse::<u16>() {
            Ok(port) if port > 0 => port,
            _ => return Err(format!("props 'http.uri' has an invalid port '{port}': '{uri}'")),
        },
    };
    let host_name = if host.contains(':') { format!("[{host}]") } else { host.to_owned() };
    let host_header = if port == 80 { host_name } else { format!("{host_name}:{port}") };
    Ok(Target { host: host.to_owned(), port, host_header, path })
}

/// Runs one item: one request; a status ≥ 400, a connection or protocol error or a timeout
/// fails the item; the kill token aborts it.
pub async fn run(spec: &HttpSpec, ctx: &ShardingContext, control: RunControl) -> ItemOutcome {
    let outcome = tokio::select! {
        biased;
        () = control.kill.cancelled() => ItemOutcome { killed: true, ..ItemOutcome::failed("killed by the worker") },
        outcome = execute(spec, ctx) => outcome,
    };
    if let Some(message) = outcome.message.as_deref().filter(|_| !outcome.success) {
        tracing::warn!(job = %ctx.job_name, item = ctx.sharding_item, "http job failed: {message}");
    }
    outcome
}

async fn execute(spec: &HttpSpec, ctx: &ShardingContext) -> ItemOutcome {
    let json = ctx.to_gson_json();
    if json.contains(['\r', '\n', '\0']) {
        return ItemOutcome::failed("the sharding context contains a line break; refusing to send it as a header");
    }
    let response = match exchange(spec, &spec.request(&json)).await {
        Ok(response) => response,
        Err(message) => return ItemOutcome::failed(message),
    };
    let status = if response.reason.is_empty() {
        format!("HTTP {}", response.status)
    } else {
        format!("HTTP {} {}", response.status, response.reason)
    };
    let body = String::from_utf8_lossy(&response.body);
    if response.status >= 400 {
        tracing::warn!(job = %ctx.job_name, item = ctx.sharding_item, status = response.status, body = %body, "http job got an error status");
        return ItemOutcome::failed(format!("{status} from {}", spec.uri));
    }
    if let Some(error) = response.body_error {
        return ItemOutcome::failed(error);
    }
    tracing::debug!(job = %ctx.job_name, item = ctx.sharding_item, status = response.status, body = %body, "http job done");
    ItemOutcome { message: Some(status), ..ItemOutcome::ok() }
}

/// What came back.
#[derive(Debug)]
struct Response {
    status: u16,
    reason: String,
    /// The first [`BODY_LOG_CAP`] bytes of the body.
    body: Vec<u8>,
    /// Why reading the body failed, if it did (the status is still known).
    body_error: Option<String>,
}

async fn exchange(spec: &HttpSpec, request: &[u8]) -> Result<Response, String> {
    let uri = &spec.uri;
    let stream = connect(spec).await?;
    let mut reader = Reader { stream: BufReader::new(stream), timeout: spec.read_timeout };
    match tokio::time::timeout(spec.read_timeout, reader.stream.get_mut().write_all(request)).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(format!("cannot send the request to {uri}: {e}")),
        Err(_) => {
            return Err(format!("cannot send the request to {uri} within {}", format_duration(spec.read_timeout)));
        }
    }
    let head_error = |e: ReadError| match e {
        ReadError::Timeout => format!("no response from {uri} within {}", format_duration(spec.read_timeout)),
        ReadError::Io(e) => format!("cannot read the response from {uri}: {e}"),
        ReadError::Protocol(what) => format!("invalid response from {uri}: {what}"),
    };
    // Skip interim 1xx responses.
    let (status, reason, headers) = loop {
        let Some(line) = reader.line(LINE_CAP).await.map_err(head_error)? else {
            return Err(format!("{uri} closed the connection without a response"));
        };
        let (status, reason) = parse_status_line(&line).map_err(|e| head_error(ReadError::Protocol(e)))?;
        let headers = reader.headers().await.map_err(head_error)?;
        if !(100..200).contains(&status) {
            break (status, reason, headers);
        }
    };
    let mut body = Vec::new();
    let no_body = spec.method == HttpMethod::Head || status == 204 || status == 304;
    let body_error = if no_body {
        None
    } else {
        reader.body(&headers, &mut body).await.err().map(|e| match e {
            ReadError::Timeout => {
                format!("reading the response body from {uri} timed out after {}", format_duration(spec.read_timeout))
            }
            ReadError::Io(e) => format!("cannot read the response body from {uri}: {e}"),
            ReadError::Protocol(what) => format!("invalid response body from {uri}: {what}"),
        })
    };
    Ok(Response { status, reason, body, body_error })
}

async fn connect(spec: &HttpSpec) -> Result<TcpStream, String> {
    let Target { host, port, .. } = &spec.target;
    let uri = &spec.uri;
    let attempt = async {
        let addresses = tokio::net::lookup_host((host.as_str(), *port))
            .await
            .map_err(|e| format!("cannot resolve '{host}' for {uri}: {e}"))?;
        let mut last_error = None;
        for address in addresses {
            match TcpStream::connect(address).await {
                Ok(stream) => return Ok(stream),
                Err(e) => last_error = Some(e),
            }
        }
        Err(match last_error {
            Some(e) => format!("cannot connect to {uri}: {e}"),
            None => format!("cannot resolve '{host}' for {uri}: no addresses"),
        })
    };
    match tokio::time::timeout(spec.connect_timeout, attempt).await {
        Ok(result) => result,
        Err(_) => Err(format!("cannot connect to {uri} within {}", format_duration(spec.connect_timeout))),
    }
}

/// `HTTP/1.1 503 Service Unavailable` → (503, "Service Unavailable").
fn parse_status_line(line: &str) -> Result<(u16, String), String> {
    let mut parts = line.splitn(3, ' ');
    let version = parts.next().unwrap_or_default();
    let code = parts.next().unwrap_or_default();
    let reason = parts.next().unwrap_or_default().trim();
    if !version.starts_with("HTTP/") {
        return Err(format!("bad status line '{}'", truncate(line, 100)));
    }
    match code.parse::<u16>() {
        Ok(status) if code.len() == 3 && (100..1000).contains(&status) => Ok((status, reason.to_owned())),
        _ => Err(format!("bad status line '{}'", truncate(line, 100))),
    }
}

fn truncate(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((i, _)) => text.get(..i).unwrap_or(text),
        None => text,
    }
}

#[derive(Debug)]
enum ReadError {
    Timeout,
    Io(std::io::Error),
    Protocol(String),
}

/// A buffered response reader whose every wait for data is bounded by the read timeout.
struct Reader<R> {
    stream: BufReader<R>,
    timeout: Duration,
}

/// How the body is delimited.
enum Framing {
    Length(u64),
    Chunked,
    UntilClose,
}

impl<R: tokio::io::AsyncRead + Unpin> Reader<R> {
    /// Waits for buffered data; an empty slice is end of file.
    async fn fill(&mut self) -> Result<&[u8], ReadError> {
        match tokio::time::timeout(self.timeout, self.stream.fill_buf()).await {
            Ok(Ok(buf)) => Ok(buf),
            Ok(Err(e)) => Err(ReadError::Io(e)),
            Err(_) => Err(ReadError::Timeout),
        }
    }

    /// One line without its CRLF (or LF); `None` at end of file before any byte.
    async fn line(&mut self, cap: usize) -> Result<Option<String>, ReadError> {
        let mut line = Vec::new();
        loop {
            let buf = self.fill().await?;
            if buf.is_empty() {
                if line.is_empty() {
                    return Ok(None);
                }
                return Err(ReadError::Protocol("the connection closed in the middle of a line".to_owned()));
            }
            let (taken, done) = match buf.iter().position(|b| *b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            line.extend_from_slice(buf.get(..taken).unwrap_or_default());
            self.stream.consume(taken);
            if line.len() > cap {
                return Err(ReadError::Protocol(format!("a line longer than {cap} bytes")));
            }
            if done {
                break;
            }
        }
        while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            line.pop();
        }
        Ok(Some(String::from_utf8_lossy(&line).into_owned()))
    }

    /// Header lines up to the blank line, names lowercased.
    async fn headers(&mut self) -> Result<Vec<(String, String)>, ReadError> {
        let mut headers = Vec::new();
        let mut total = 0;
        loop {
            let line = self
                .line(LINE_CAP)
                .await?
                .ok_or_else(|| ReadError::Protocol("the connection closed in the headers".to_owned()))?;
            if line.is_empty() {
                return Ok(headers);
            }
            total += line.len();
            if total > HEADERS_CAP {
                return Err(ReadError::Protocol(format!("headers longer than {HEADERS_CAP} bytes")));
            }
            let (name, value) = line
                .split_once(':')
                .ok_or_else(|| ReadError::Protocol(format!("bad header line '{}'", truncate(&line, 100))))?;
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }

    /// Reads the body by its framing, keeping the first [`BODY_LOG_CAP`] bytes.
    async fn body(&mut self, headers: &[(String, String)], keep: &mut Vec<u8>) -> Result<(), ReadError> {
        let header = |name: &str| headers.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        let framing = if header("transfer-encoding").is_some_and(|v| v.to_ascii_lowercase().contains("chunked")) {
            Framing::Chunked
        } else if let Some(length) = header("content-length") {
            Framing::Length(
                length
                    .parse()
                    .map_err(|_| ReadError::Protocol(format!("bad Content-Length '{}'", truncate(length, 40))))?,
            )
        } else {
            Framing::UntilClose
        };
        let mut budget = BODY_READ_CAP;
        match framing {
            Framing::Length(length) => self.bytes(Some(length), keep, &mut budget).await,
            Framing::UntilClose => self.bytes(None, keep, &mut budget).await,
            Framing::Chunked => loop {
                let line = self
                    .line(LINE_CAP)
                    .await?
                    .ok_or_else(|| ReadError::Protocol("the connection closed before the last chunk".to_owned()))?;
                let size = line.split(';').next().unwrap_or_default().trim();
                let size = u64::from_str_radix(size, 16)
                    .map_err(|_| ReadError::Protocol(format!("bad chunk size '{}'", truncate(size, 40))))?;
                if size == 0 {
                    // Trailers up to the blank line.
                    while let Some(line) = self.line(LINE_CAP).await? {
                        if line.is_empty() {
                            break;
                        }
                    }
                    return Ok(());
                }
                self.bytes(Some(size), keep, &mut budget).await?;
                if budget == 0 {
                    return Ok(());
                }
                // The CRLF after the chunk data.
                self.line(2).await?;
            },
        }
    }

    /// Reads `length` bytes (or to end of file), keeping a prefix, within `budget`.
    async fn bytes(&mut self, length: Option<u64>, keep: &mut Vec<u8>, budget: &mut u64) -> Result<(), ReadError> {
        let mut left = length;
        while left != Some(0) {
            if *budget == 0 {
                tracing::debug!("not reading an http response body past {BODY_READ_CAP} bytes");
                return Ok(());
            }
            let buf = self.fill().await?;
            if buf.is_empty() {
                return match left {
                    None => Ok(()),
                    Some(_) => Err(ReadError::Protocol("the connection closed before the end of the body".to_owned())),
                };
            }
            let available = u64::try_from(buf.len()).unwrap_or(u64::MAX);
            let take = available.min(left.unwrap_or(u64::MAX)).min(*budget);
            let take_usize = usize::try_from(take).unwrap_or(buf.len());
            let room = BODY_LOG_CAP.saturating_sub(keep.len());
            keep.extend_from_slice(buf.get(..take_usize.min(room)).unwrap_or_default());
            self.stream.consume(take_usize);
            *budget -= take;
            left = left.map(|l| l - take);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use tokio::io::AsyncReadExt;
    use tokio::net::TcpListener;
    use tokio::task::JoinHandle;

    use super::*;
    use crate::exec::context::task_id;

    fn props(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    fn context() -> ShardingContext {
        ShardingContext {
            job_name: "httpJob".to_owned(),
            task_id: task_id("httpJob", &[0, 1], "10.0.0.5@-@4242"),
            sharding_total_count: 2,
            job_parameter: "a=b".to_owned(),
            sharding_item: 1,
            sharding_parameter: Some("Shanghai".to_owned()),
        }
    }

    #[test]
    fn uri_parsing() {
        let t = parse_uri("http://example.com").unwrap();
        assert_eq!(
            (t.host.as_str(), t.port, t.host_header.as_str(), t.path.as_str()),
            ("example.com", 80, "example.com", "/")
        );
        let t = parse_uri("HTTP://127.0.0.1:8080/a/b?x=1&y=2#frag").unwrap();
        assert_eq!(
            (t.host.as_str(), t.port, t.host_header.as_str(), t.path.as_str()),
            ("127.0.0.1", 8080, "127.0.0.1:8080", "/a/b?x=1&y=2")
        );
        let t = parse_uri("http://[::1]:81?q").unwrap();
        assert_eq!((t.host.as_str(), t.port, t.host_header.as_str(), t.path.as_str()), ("::1", 81, "[::1]:81", "/?q"));
        let t = parse_uri("http://host:80/").unwrap();
        assert_eq!(t.host_header, "host");

        assert_eq!(
            parse_uri("https://example.com/"),
            Err("https is not supported by ejctl's http jobs yet; use an http:// endpoint".to_owned())
        );
        assert_eq!(parse_uri("ftp://x/"), Err("props 'http.uri' must be an http:// URI, not 'ftp://x/'".to_owned()));
        assert_eq!(
            parse_uri("example.com"),
            Err("props 'http.uri' must be an http:// URI, not 'example.com'".to_owned())
        );
        assert_eq!(parse_uri("http://:80/"), Err("props 'http.uri' has no host: 'http://:80/'".to_owned()));
        assert_eq!(parse_uri("http://h:0/"), Err("props 'http.uri' has an invalid port '0': 'http://h:0/'".to_owned()));
        assert_eq!(parse_uri("http://h:x/"), Err("props 'http.uri' has an invalid port 'x': 'http://h:x/'".to_owned()));
        assert!(parse_uri("http://u:p@h/").unwrap_err().contains("credentials"));
        assert!(parse_uri("http://h/a b").unwrap_err().contains("blanks"));
        assert!(parse_uri("http://h/a\r\nX: y").unwrap_err().contains("control"));
    }

    #[test]
    fn spec_from_props() {
        let spec = HttpSpec::from_props(&props(&[
            ("http.uri", "http://localhost:9000/run"),
            ("http.method", "post"),
            ("http.data", "{\"a\":1}"),
            ("http.content.type", "application/json"),
            ("http.connect.timeout.milliseconds", "100"),
        ]))
        .unwrap();
        assert_eq!(spec.method, HttpMethod::Post);
        assert_eq!(spec.data.as_deref(), Some("{\"a\":1}"));
        assert_eq!(spec.content_type.as_deref(), Some("application/json"));
        assert_eq!(spec.connect_timeout, Duration::from_millis(100));
        assert_eq!(spec.read_timeout, DEFAULT_READ_TIMEOUT);

        let err = |pairs: &[(&str, &str)]| HttpSpec::from_props(&props(pairs)).unwrap_err();
        assert_eq!(err(&[("http.method", "GET")]), "props 'http.uri' is missing; an http job needs a URI");
        assert_eq!(err(&[("http.uri", "http://h/")]), "props 'http.method' is missing; an http job needs a method");
        assert_eq!(
            err(&[("http.uri", "http://h/"), ("http.method", "FETCH")]),
            "props 'http.method' must be GET, POST, PUT, DELETE, PATCH, HEAD or OPTIONS, not 'FETCH'"
        );
        assert_eq!(
            err(&[("http.uri", "http://h/"), ("http.method", "GET"), ("http.read.timeout.milliseconds", "0")]),
            "props 'http.read.timeout.milliseconds' must be a positive whole number of milliseconds, not '0'"
        );
        assert_eq!(
            err(&[("http.uri", "https://h/"), ("http.method", "GET")]),
            "https is not supported by ejctl's http jobs yet; use an http:// endpoint"
        );
    }

    #[test]
    fn status_lines() {
        assert_eq!(parse_status_line("HTTP/1.1 200 OK"), Ok((200, "OK".to_owned())));
        assert_eq!(parse_status_line("HTTP/1.0 503 Service Unavailable"), Ok((503, "Service Unavailable".to_owned())));
        assert_eq!(parse_status_line("HTTP/1.1 204"), Ok((204, String::new())));
        assert!(parse_status_line("HTTP/1.1 2000 OK").is_err());
        assert!(parse_status_line("SSH-2.0-OpenSSH").is_err());
    }

    /// A one-connection server: returns the request it read (head and body) after answering
    /// with `response`; `None` as response never answers.
    async fn serve_once(response: Option<&'static str>) -> (String, JoinHandle<(String, Vec<u8>)>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let task = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut data = Vec::new();
            let mut buf = [0u8; 4096];
            let head_end = loop {
                let n = socket.read(&mut buf).await.unwrap();
                assert!(n > 0, "client closed before the end of the head");
                data.extend_from_slice(&buf[..n]);
                if let Some(i) = data.windows(4).position(|w| w == b"\r\n\r\n") {
                    break i + 4;
                }
            };
            let head = String::from_utf8(data[..head_end].to_vec()).unwrap();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .map(|v| v.trim().parse().unwrap())
                .unwrap_or(0);
            while data.len() < head_end + length {
                let n = socket.read(&mut buf).await.unwrap();
                assert!(n > 0);
                data.extend_from_slice(&buf[..n]);
            }
            let body = data[head_end..].to_vec();
            match response {
                Some(response) => {
                    socket.write_all(response.as_bytes()).await.unwrap();
                    socket.shutdown().await.unwrap();
                }
                None => tokio::time::sleep(Duration::from_secs(30)).await,
            }
            (head, body)
        });
        (format!("http://{address}"), task)
    }

    fn spec(uri: &str, method: &str, extra: &[(&str, &str)]) -> HttpSpec {
        let mut p = props(&[("http.uri", uri), ("http.method", method)]);
        for (k, v) in extra {
            p.insert((*k).to_owned(), (*v).to_owned());
        }
        HttpSpec::from_props(&p).unwrap()
    }

    #[tokio::test]
    async fn post_sends_headers_and_body() {
        let (base, server) = serve_once(Some("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")).await;
        let uri = format!("{base}/jobs/run?x=1");
        let spec = spec(
            &uri,
            "POST",
            &[("http.data", "name=ejctl"), ("http.content.type", "application/x-www-form-urlencoded")],
        );
        let ctx = context();
        let outcome = run(&spec, &ctx, RunControl::detached()).await;
        assert!(outcome.success, "{outcome:?}");
        assert_eq!(outcome.message.as_deref(), Some("HTTP 200 OK"));
        let (head, body) = server.await.unwrap();
        let host = base.strip_prefix("http://").unwrap();
        assert_eq!(
            head,
            format!(
                "POST /jobs/run?x=1 HTTP/1.1\r\nHost: {host}\r\nUser-Agent: ejctl/{}\r\n\
                 Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 10\r\n\
                 shardingContext: {}\r\nConnection: close\r\n\r\n",
                env!("CARGO_PKG_VERSION"),
                ctx.to_gson_json()
            )
        );
        assert_eq!(body, b"name=ejctl");
    }

    #[tokio::test]
    async fn get_sends_no_body() {
        let (base, server) =
            serve_once(Some("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")).await;
        let spec = spec(&base, "get", &[("http.data", "ignored")]);
        let outcome = run(&spec, &context(), RunControl::detached()).await;
        assert!(outcome.success, "{outcome:?}");
        let (head, body) = server.await.unwrap();
        assert!(head.starts_with("GET / HTTP/1.1\r\n"), "{head}");
        assert!(!head.contains("Content-Length"), "{head}");
        assert!(!head.contains("Content-Type"), "{head}");
        assert!(head.contains(&format!("\r\nshardingContext: {}\r\n", context().to_gson_json())), "{head}");
        assert!(body.is_empty());
    }

    #[tokio::test]
    async fn error_status_fails() {
        let (base, server) =
            serve_once(Some("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\noops")).await;
        let outcome = run(&spec(&base, "GET", &[]), &context(), RunControl::detached()).await;
        assert!(!outcome.success && !outcome.killed);
        assert_eq!(outcome.message, Some(format!("HTTP 500 Internal Server Error from {base}")));
        server.await.unwrap();

        let (base, server) = serve_once(Some("HTTP/1.1 503 Service Unavailable\r\n\r\n")).await;
        let outcome = run(&spec(&base, "DELETE", &[]), &context(), RunControl::detached()).await;
        assert_eq!(outcome.message, Some(format!("HTTP 503 Service Unavailable from {base}")));
        server.await.unwrap();
    }

    #[tokio::test]
    async fn interim_and_redirect_statuses_succeed() {
        let (base, server) =
            serve_once(Some("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 302 Found\r\nLocation: /x\r\n\r\n")).await;
        let outcome = run(&spec(&base, "GET", &[]), &context(), RunControl::detached()).await;
        assert!(outcome.success, "{outcome:?}");
        assert_eq!(outcome.message.as_deref(), Some("HTTP 302 Found"));
        server.await.unwrap();
    }

    #[tokio::test]
    async fn silent_server_times_out() {
        let (base, server) = serve_once(None).await;
        let spec = spec(&base, "GET", &[("http.read.timeout.milliseconds", "300")]);
        let started = Instant::now();
        let outcome = run(&spec, &context(), RunControl::detached()).await;
        assert!(started.elapsed() < Duration::from_secs(2));
        assert_eq!(outcome.message, Some(format!("no response from {base} within 300ms")));
        assert!(!outcome.success);
        server.abort();
    }

    #[tokio::test]
    async fn truncated_body_fails() {
        let (base, server) = serve_once(Some("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")).await;
        let outcome = run(&spec(&base, "GET", &[]), &context(), RunControl::detached()).await;
        assert!(!outcome.success);
        assert_eq!(
            outcome.message,
            Some(format!("invalid response body from {base}: the connection closed before the end of the body"))
        );
        server.await.unwrap();
    }

    #[tokio::test]
    async fn connection_refused_fails() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        drop(listener);
        let uri = format!("http://{address}/");
        let outcome = run(&spec(&uri, "GET", &[]), &context(), RunControl::detached()).await;
        assert!(!outcome.success);
        assert_eq!(outcome.message, Some(format!("cannot connect to {uri}: Connection refused (os error 111)")));
    }

    #[tokio::test]
    async fn kill_token_aborts() {
        let (base, server) = serve_once(None).await;
        let spec = spec(&base, "GET", &[("http.read.timeout.milliseconds", "60000")]);
        let control = RunControl::detached();
        let kill = control.kill.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(100)).await;
            kill.cancel();
        });
        let started = Instant::now();
        let outcome = run(&spec, &context(), control).await;
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(outcome.killed && !outcome.success);
        assert_eq!(outcome.message.as_deref(), Some("killed by the worker"));
        server.abort();
    }
}
