//! HTTP jobs (docs/src/design/compatibility.md#sharding-context): the `http.*` props and one
//! request per item, sent with `reqwest` on rustls (aws-lc), the same TLS stack as the ZooKeeper
//! connection.
//!
//! What is sent: `{METHOD} {uri}` with `User-Agent: ejctl/<version>`, `Content-Type` (when
//! `http.content.type` is set) and `shardingContext: <Gson JSON>`. The body
//! `http.data` is sent for POST, PUT and DELETE, as ElasticJob does, and for PATCH, which
//! ElasticJob cannot send at all (`HttpURLConnection` has no PATCH) and which is useless without
//! one. A POST, PUT or PATCH without data sends `Content-Length: 0`, so servers do not answer 411.
//!
//! What counts: the response must start within `http.read.timeout.milliseconds` (default 5000;
//! like Java's read timeout it bounds each wait for data, not the whole response), after a
//! connection made within `http.connect.timeout.milliseconds` (default 3000, name lookup and TLS
//! handshake included). **Unlike ElasticJob, a status ≥ 400 fails the item**
//! (`HTTP 503 Service Unavailable from http://...`); < 400 succeeds. The response body is read
//! up to 16 MiB; the first 4 KiB go to the log. Connection, TLS, timeout and protocol errors fail
//! the item with their innermost cause (`invalid peer certificate: UnknownIssuer`), and the run's
//! kill token aborts the request.
//!
//! * `http://` and `https://` URIs; no credentials in the URI (the registry is readable by
//!   every worker and operator).
//! * HTTPS servers are verified against the system's trusted CAs (`SSL_CERT_FILE` /
//!   `SSL_CERT_DIR` name others, as OpenSSL does).
//! * Redirects are not followed: a 3xx is the answer (a success, as before), so a job never ends
//!   up calling a host its URI does not name.
//! * Proxies come from the environment (`http_proxy`, `https_proxy`, `no_proxy`, upper case too).
//!
//! The client is built at the first run and reused (its connection pool and TLS sessions) until
//! the configuration changes.

use crate::config::Props;
use crate::config::schema::prop;
use std::fmt;
use std::sync::OnceLock;
use std::time::Duration;

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
const BODY_READ_CAP: usize = 16 * 1024 * 1024;

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

    fn to_reqwest(self) -> reqwest::Method {
        match self {
            HttpMethod::Get => reqwest::Method::GET,
            HttpMethod::Post => reqwest::Method::POST,
            HttpMethod::Put => reqwest::Method::PUT,
            HttpMethod::Delete => reqwest::Method::DELETE,
            HttpMethod::Patch => reqwest::Method::PATCH,
            HttpMethod::Head => reqwest::Method::HEAD,
            HttpMethod::Options => reqwest::Method::OPTIONS,
        }
    }
}

impl fmt::Display for HttpMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An HTTP job's configuration.
#[derive(Debug, Clone)]
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
    /// The parsed URI.
    url: reqwest::Url,
    /// The client, built at the first run.
    client: OnceLock<reqwest::Client>,
}

impl HttpSpec {
    /// Reads the `http.*` props.
    ///
    /// # Errors
    /// A message naming the prop that is missing or invalid.
    pub fn from_props(props: &Props) -> Result<HttpSpec, String> {
        let get = |key: &str| props.get(key).map(|v| v.trim()).filter(|v| !v.is_empty());
        let uri = get(prop::HTTP_URI)
            .ok_or_else(|| format!("props '{}' is missing; an http job needs a URI", prop::HTTP_URI))?;
        let url = parse_uri(uri)?;
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
            && (value.chars().any(char::is_control) || reqwest::header::HeaderValue::from_str(value).is_err())
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
            url,
            client: OnceLock::new(),
        })
    }

    /// The client for this job's requests (built once).
    fn client(&self) -> Result<&reqwest::Client, String> {
        if let Some(client) = self.client.get() {
            return Ok(client);
        }
        let client = reqwest::Client::builder()
            .user_agent(concat!("ejctl/", env!("CARGO_PKG_VERSION")))
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(self.connect_timeout)
            .read_timeout(self.read_timeout)
            .build()
            .map_err(|e| format!("cannot set up the HTTP client: {}", innermost(&e)))?;
        Ok(self.client.get_or_init(|| client))
    }
}

fn millis_prop(props: &Props, key: &str, default: Duration) -> Result<Duration, String> {
    match props.get(key).map(|v| v.trim()).filter(|v| !v.is_empty()) {
        None => Ok(default),
        Some(value) => match value.parse::<u64>() {
            Ok(ms) if ms > 0 => Ok(Duration::from_millis(ms)),
            _ => Err(format!("props '{key}' must be a positive whole number of milliseconds, not '{value}'")),
        },
    }
}

/// Parses an `http://` or `https://` URI (a fragment is dropped).
fn parse_uri(uri: &str) -> Result<reqwest::Url, String> {
    let key = prop::HTTP_URI;
    if uri.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!("props '{key}' contains blanks or control characters: '{uri}'"));
    }
    if !uri.contains("://") {
        return Err(format!("props '{key}' must be an http:// or https:// URI, not '{uri}'"));
    }
    let mut url = reqwest::Url::parse(uri).map_err(|e| format!("props '{key}' is not a valid URI ({e}): '{uri}'"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("props '{key}' must be an http:// or https:// URI, not '{uri}'"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(format!("props '{key}' has no host: '{uri}'"));
    }
    if url.port() == Some(0) {
        return Err(format!("props '{key}' has an invalid port '0': '{uri}'"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!("props '{key}' must not contain credentials: '{uri}'"));
    }
    url.set_fragment(None);
    Ok(url)
}

/// Runs one item: one request; a status ≥ 400, a connection or protocol error or a timeout
/// fails the item; the kill token aborts it.
pub async fn run(spec: &HttpSpec, ctx: &ShardingContext, control: RunControl) -> ItemOutcome {
    let outcome = tokio::select! {
        biased;
        () = control.kill.cancelled() => ItemOutcome { killed: true, ..ItemOutcome::failed("killed by the worker") },
        outcome = execute(spec, ctx) => outcome,
    };
    // A failure is logged once, with its reason, where the run ends.
    outcome
}

async fn execute(spec: &HttpSpec, ctx: &ShardingContext) -> ItemOutcome {
    let json = ctx.to_gson_json();
    // Header values are sent as UTF-8 bytes; Gson escapes line breaks, so this never refuses a
    // real context.
    let Ok(header) = reqwest::header::HeaderValue::from_bytes(json.as_bytes()) else {
        return ItemOutcome::failed("the sharding context contains a line break; refusing to send it as a header");
    };
    let client = match spec.client() {
        Ok(client) => client,
        Err(message) => return ItemOutcome::failed(message),
    };
    let mut request = client.request(spec.method.to_reqwest(), spec.url.clone()).header("shardingContext", header);
    if let Some(content_type) = &spec.content_type {
        request = request.header(reqwest::header::CONTENT_TYPE, content_type);
    }
    match (spec.method.sends_body(), &spec.data) {
        (true, Some(data)) => request = request.body(data.clone()),
        (true, None) if spec.method != HttpMethod::Delete => request = request.body(Vec::new()),
        _ => {}
    }
    let uri = &spec.uri;
    let mut response = match request.send().await {
        Ok(response) => response,
        Err(e) => return ItemOutcome::failed(send_error(spec, &e)),
    };
    let code = response.status();
    let status = match code.canonical_reason() {
        Some(reason) => format!("HTTP {} {reason}", code.as_u16()),
        None => format!("HTTP {}", code.as_u16()),
    };
    let (body, body_error) = read_body(&mut response).await;
    let body = String::from_utf8_lossy(&body);
    if code.as_u16() >= 400 {
        tracing::warn!(job = %ctx.job_name, item = ctx.sharding_item, status = code.as_u16(), body = %body, "http job got an error status");
        return ItemOutcome::failed(format!("{status} from {uri}"));
    }
    if let Some(e) = body_error {
        let message = if e.is_timeout() {
            format!("reading the response body from {uri} timed out after {}", format_duration(spec.read_timeout))
        } else {
            format!("invalid response body from {uri}: {}", innermost(&e))
        };
        return ItemOutcome::failed(message);
    }
    tracing::debug!(job = %ctx.job_name, item = ctx.sharding_item, status = code.as_u16(), body = %body, "http job done");
    ItemOutcome { message: Some(status), ..ItemOutcome::ok() }
}

/// Reads the body up to [`BODY_READ_CAP`], keeping the first [`BODY_LOG_CAP`] bytes.
async fn read_body(response: &mut reqwest::Response) -> (Vec<u8>, Option<reqwest::Error>) {
    let mut kept = Vec::new();
    let mut read = 0usize;
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                let room = BODY_LOG_CAP.saturating_sub(kept.len());
                kept.extend_from_slice(chunk.get(..room.min(chunk.len())).unwrap_or_default());
                read += chunk.len();
                if read >= BODY_READ_CAP {
                    tracing::debug!("not reading an http response body past {BODY_READ_CAP} bytes");
                    return (kept, None);
                }
            }
            Ok(None) => return (kept, None),
            Err(e) => return (kept, Some(e)),
        }
    }
}

/// The message for a request that got no response.
fn send_error(spec: &HttpSpec, e: &reqwest::Error) -> String {
    let uri = &spec.uri;
    if e.is_connect() {
        if e.is_timeout() || innermost(e).contains("timed out") {
            return format!("cannot connect to {uri} within {}", format_duration(spec.connect_timeout));
        }
        return format!("cannot connect to {uri}: {}", innermost(e));
    }
    if e.is_timeout() {
        return format!("no response from {uri} within {}", format_duration(spec.read_timeout));
    }
    format!("no valid response from {uri}: {}", innermost(e))
}

/// The deepest cause of an error: what actually went wrong (`Connection refused (os error 111)`,
/// `invalid peer certificate: UnknownIssuer`), not the layers around it.
fn innermost(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;
    use tokio::task::JoinHandle;

    use super::*;
    use crate::exec::context::task_id;

    fn props(pairs: &[(&str, &str)]) -> Props {
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
        let u = parse_uri("http://example.com").unwrap();
        assert_eq!(
            (u.scheme(), u.host_str(), u.port_or_known_default(), u.path()),
            ("http", Some("example.com"), Some(80), "/")
        );
        let u = parse_uri("HTTP://127.0.0.1:8080/a/b?x=1&y=2#frag").unwrap();
        assert_eq!(u.as_str(), "http://127.0.0.1:8080/a/b?x=1&y=2");
        let u = parse_uri("https://[::1]:8443?q").unwrap();
        assert_eq!(u.as_str(), "https://[::1]:8443/?q");

        assert_eq!(
            parse_uri("ftp://x/"),
            Err("props 'http.uri' must be an http:// or https:// URI, not 'ftp://x/'".to_owned())
        );
        assert_eq!(
            parse_uri("example.com"),
            Err("props 'http.uri' must be an http:// or https:// URI, not 'example.com'".to_owned())
        );
        assert!(parse_uri("http://:80/").unwrap_err().contains("'http://:80/'"));
        assert_eq!(parse_uri("http://h:0/"), Err("props 'http.uri' has an invalid port '0': 'http://h:0/'".to_owned()));
        assert!(parse_uri("http://h:x/").unwrap_err().contains("invalid port"));
        assert!(parse_uri("http://u:p@h/").unwrap_err().contains("credentials"));
        assert!(parse_uri("https://u@h/").unwrap_err().contains("credentials"));
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
        let https = HttpSpec::from_props(&props(&[("http.uri", "https://h/"), ("http.method", "GET")])).unwrap();
        assert_eq!(https.uri, "https://h/");

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
                .find_map(|l| {
                    l.split_once(':').filter(|(n, _)| n.eq_ignore_ascii_case("content-length")).map(|(_, v)| v)
                })
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
        assert!(head.starts_with("POST /jobs/run?x=1 HTTP/1.1\r\n"), "{head}");
        let lower = head.to_ascii_lowercase();
        for header in [
            format!("host: {host}"),
            format!("user-agent: ejctl/{}", env!("CARGO_PKG_VERSION")),
            "content-type: application/x-www-form-urlencoded".to_owned(),
            "content-length: 10".to_owned(),
            format!("shardingcontext: {}", ctx.to_gson_json().to_ascii_lowercase()),
        ] {
            assert!(lower.contains(&format!("\r\n{header}\r\n")), "{header} missing in {head}");
        }
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
        let lower = head.to_ascii_lowercase();
        assert!(!lower.contains("content-length"), "{head}");
        assert!(!lower.contains("content-type"), "{head}");
        assert!(
            lower.contains(&format!("\r\nshardingcontext: {}\r\n", context().to_gson_json().to_ascii_lowercase())),
            "{head}"
        );
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
        let message = outcome.message.unwrap();
        assert!(message.starts_with(&format!("invalid response body from {base}: ")), "{message}");
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
