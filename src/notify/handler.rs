//! The error handler a job's configuration names (`jobErrorHandlerType` and its `props`), parsed
//! and checked once, and the notification texts and request bodies ElasticJob's handlers send.
//!
//! Property names, defaults, bodies and DingTalk signing follow ElasticJob 3.x exactly, so a job
//! configured by a Java cluster notifies the same way. `WEBHOOK` is ejctl's own: a JSON `POST`
//! whose body ([`webhook_body`]) carries the fields Slack (`text`), Teams (`text`) and Lark
//! (`msg_type` + `content.text`) read, plus the run's details for any other receiver.

use std::time::Duration;

use base64::Engine as _;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::config::{JobConfig, Props};

/// ElasticJob's connect timeout default for the HTTP senders.
const CONNECT_TIMEOUT_MS: u64 = 3000;
/// ElasticJob's read timeout default for the HTTP senders.
const READ_TIMEOUT_MS: u64 = 5000;
/// ElasticJob's default e-mail subject.
const EMAIL_SUBJECT: &str = "ElasticJob error message";
/// The SMTP timeout: ElasticJob sets none; a hanging mail server must not hold the queue forever.
const SMTP_TIMEOUT: Duration = Duration::from_secs(30);

/// What a job does with a failed item.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ErrorHandler {
    /// `LOG` (the default): the failure is logged at error level.
    #[default]
    Log,
    /// `IGNORE`: nothing.
    Ignore,
    /// `THROW`: logged like `LOG`. ElasticJob rethrows into the scheduler thread, which skips
    /// the misfire re-run, failover and the `after` listeners for a single-item fire only (a side
    /// effect, not a feature); ejctl has no thread to throw into and keeps the fire's bookkeeping.
    Throw,
    /// A notification sent by the background sender. Boxed: every job's configuration holds a
    /// handler, and nearly all are `Log` (104 bytes inline otherwise).
    Notify(Box<Notifier>),
}

/// A notification channel and its settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notifier {
    /// `DINGTALK`: a DingTalk robot.
    DingTalk {
        /// `dingtalk.webhook` (it must already hold `?access_token=`).
        webhook: String,
        /// `dingtalk.keyword`, put before the text.
        keyword: String,
        /// `dingtalk.secret`: when set, the URL is signed.
        secret: String,
        /// Connect and read timeouts.
        timeouts: Timeouts,
    },
    /// `WECHAT`: a Work WeChat robot.
    WeChat {
        /// `wechat.webhook`.
        webhook: String,
        /// Connect and read timeouts.
        timeouts: Timeouts,
    },
    /// `WEBHOOK`: a JSON `POST` of [`webhook_body`].
    Webhook {
        /// `webhook.url`.
        url: String,
        /// Connect and read timeouts.
        timeouts: Timeouts,
    },
    /// `EMAIL`: SMTP.
    Email(Box<Email>),
}

/// HTTP timeouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// `*.connectTimeoutMilliseconds` (3000).
    pub connect: Duration,
    /// `*.readTimeoutMilliseconds` (5000), bounding the whole request.
    pub read: Duration,
}

/// The `EMAIL` handler's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email {
    /// `email.host`.
    pub host: String,
    /// `email.port`.
    pub port: u16,
    /// `email.username`.
    pub username: String,
    /// `email.password`.
    pub password: String,
    /// `email.from`.
    pub from: String,
    /// `email.to`, split on `,`.
    pub to: Vec<String>,
    /// `email.cc`.
    pub cc: Vec<String>,
    /// `email.bcc`.
    pub bcc: Vec<String>,
    /// `email.subject`.
    pub subject: String,
    /// `email.useSsl` (default `true`): implicit TLS, as ElasticJob's `SSLSocketFactory`.
    /// `false`: STARTTLS, required unless `plaintext`.
    pub use_ssl: bool,
    /// `ejctl.email.plaintext = true`: with `useSsl` off, the session may go without TLS, as
    /// ElasticJob's does (the credentials and the failure text then cross the network in
    /// clear). Pinned to the job file ([`crate::coord::pin`]).
    pub plaintext: bool,
    /// The whole exchange's bound.
    pub timeout: Duration,
}

impl ErrorHandler {
    /// The handler `cfg` names, with its properties checked as ElasticJob does at scheduler start
    /// (required keys present; timeouts and ports integers > 0).
    ///
    /// # Errors
    /// The property at fault, named.
    pub fn from_config(cfg: &JobConfig) -> Result<ErrorHandler, String> {
        let kind = cfg.job_error_handler_type.as_deref().unwrap_or("").to_ascii_uppercase();
        let props = &cfg.props;
        Ok(match kind.as_str() {
            "" | "LOG" => ErrorHandler::Log,
            "IGNORE" => ErrorHandler::Ignore,
            "THROW" => ErrorHandler::Throw,
            "DINGTALK" => ErrorHandler::Notify(Box::new(Notifier::DingTalk {
                webhook: url(props, "dingtalk.webhook")?,
                keyword: optional(props, "dingtalk.keyword").unwrap_or_default(),
                secret: optional(props, "dingtalk.secret").unwrap_or_default(),
                timeouts: timeouts(props, "dingtalk")?,
            })),
            "WECHAT" => ErrorHandler::Notify(Box::new(Notifier::WeChat {
                webhook: url(props, "wechat.webhook")?,
                timeouts: timeouts(props, "wechat")?,
            })),
            "WEBHOOK" => ErrorHandler::Notify(Box::new(Notifier::Webhook {
                url: url(props, "webhook.url")?,
                timeouts: timeouts(props, "webhook")?,
            })),
            "EMAIL" => ErrorHandler::Notify(Box::new(Notifier::Email(Box::new(email(props)?)))),
            other => return Err(format!("unknown error handler type '{other}'")),
        })
    }
}

fn optional(props: &Props, key: &str) -> Option<String> {
    props.get(key).filter(|v| !v.is_empty()).cloned()
}

fn required(props: &Props, key: &str) -> Result<String, String> {
    optional(props, key).ok_or_else(|| format!("props '{key}' is required by the error handler"))
}

/// A required `http://` or `https://` URL with a host: checked when the configuration is, not at
/// the first send (a `gopher://` or `file:` target is refused up front).
fn url(props: &Props, key: &str) -> Result<String, String> {
    let value = required(props, key)?;
    let rest = value.strip_prefix("https://").or_else(|| value.strip_prefix("http://"));
    match rest.map(|r| r.split(['/', '?', '#']).next().unwrap_or_default()) {
        Some(host) if !host.is_empty() && !host.chars().any(char::is_whitespace) => Ok(value),
        _ => Err(format!(
            "props '{key}' must be an http:// or https:// URL with a host, got '{}'",
            crate::config::secrets::mask_urls(&value)
        )),
    }
}

fn positive(props: &Props, key: &str, default: u64) -> Result<u64, String> {
    match optional(props, key) {
        None => Ok(default),
        Some(v) => match v.trim().parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!("props '{key}' must be an integer > 0, got '{v}'")),
        },
    }
}

fn timeouts(props: &Props, prefix: &str) -> Result<Timeouts, String> {
    Ok(Timeouts {
        connect: Duration::from_millis(positive(
            props,
            &format!("{prefix}.connectTimeoutMilliseconds"),
            CONNECT_TIMEOUT_MS,
        )?),
        read: Duration::from_millis(positive(props, &format!("{prefix}.readTimeoutMilliseconds"), READ_TIMEOUT_MS)?),
    })
}

fn addresses(v: Option<String>) -> Vec<String> {
    v.map(|v| v.split(',').map(str::trim).filter(|a| !a.is_empty()).map(String::from).collect()).unwrap_or_default()
}

fn email(props: &Props) -> Result<Email, String> {
    let port = positive(props, "email.port", 0)?;
    let port = u16::try_from(port).map_err(|_| format!("props 'email.port' must be a port number, got {port}"))?;
    let host = required(props, "email.host")?;
    required(props, "email.port")?;
    Ok(Email {
        host,
        port,
        username: required(props, "email.username")?,
        password: required(props, "email.password")?,
        from: required(props, "email.from")?,
        to: addresses(Some(required(props, "email.to")?)),
        cc: addresses(optional(props, "email.cc")),
        bcc: addresses(optional(props, "email.bcc")),
        subject: optional(props, "email.subject").unwrap_or_else(|| EMAIL_SUBJECT.to_string()),
        use_ssl: optional(props, "email.useSsl").is_none_or(|v| !v.trim().eq_ignore_ascii_case("false")),
        plaintext: optional(props, crate::config::schema::prop::EMAIL_PLAINTEXT)
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true")),
        timeout: SMTP_TIMEOUT,
    })
}

/// A failed item (or fire), as the handlers report it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The job.
    pub job: String,
    /// The item; `None` for a failure of the fire rather than of one item (a listener, a fire
    /// refused).
    pub item: Option<u32>,
    /// The instance that ran it.
    pub instance: String,
    /// What started the run (`cron`, `misfire`, `failover`, `trigger`, ...).
    pub source: String,
    /// When it failed (RFC 3339).
    pub at: String,
    /// The exit code, for a process.
    pub exit_code: Option<i32>,
    /// Why it failed, one line.
    pub reason: String,
    /// The last lines of its stderr.
    pub stderr_tail: String,
}

impl Failure {
    /// The cause, as ElasticJob's stack trace text stands in it: the reason, then the stderr
    /// tail, ending with a line separator.
    pub fn cause(&self) -> String {
        let mut cause = format!("{}\n", self.reason);
        if !self.stderr_tail.trim().is_empty() {
            cause.push_str(&self.stderr_tail);
            if !cause.ends_with('\n') {
                cause.push('\n');
            }
        }
        cause
    }

    /// ElasticJob's notification text.
    pub fn text(&self) -> String {
        format!("Job '{}' exception occur in job processing, caused by {}", self.job, self.cause())
    }
}

/// JSON as Gson's default `create()` writes it: HTML-sensitive characters escaped.
fn gson(value: &serde_json::Value) -> String {
    let mut out = String::new();
    for c in value.to_string().chars() {
        match c {
            '<' | '>' | '&' | '=' | '\'' | '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// The DingTalk and Work WeChat robot body: `{"msgtype":"text","text":{"content":…}}`.
pub fn robot_body(content: &str) -> String {
    gson(&serde_json::json!({"msgtype": "text", "text": {"content": content}}))
}

/// DingTalk's signed URL: `{webhook}&timestamp={millis}&sign={sign}` with
/// `sign = urlencode(base64(HmacSHA256(secret, millis + "\n" + secret)))`.
pub fn dingtalk_url(webhook: &str, secret: &str, millis: i64) -> String {
    if secret.is_empty() {
        return webhook.to_string();
    }
    let sign = match Hmac::<Sha256>::new_from_slice(secret.as_bytes()) {
        Ok(mut mac) => {
            mac.update(format!("{millis}\n{secret}").as_bytes());
            base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
        }
        // HMAC takes keys of any length.
        Err(_) => String::new(),
    };
    let sign: String = sign
        .chars()
        .map(|c| match c {
            '+' => "%2B".to_string(),
            '/' => "%2F".to_string(),
            '=' => "%3D".to_string(),
            c => c.to_string(),
        })
        .collect();
    format!("{webhook}&timestamp={millis}&sign={sign}")
}

/// The `WEBHOOK` body:
///
/// ```json
/// {"text": "<ElasticJob's text>", "msg_type": "text", "content": {"text": "<the same>"},
///  "job": "…", "item": 0, "instance": "…", "source": "cron", "at": "<RFC 3339>",
///  "exit_code": 1, "reason": "…", "stderr_tail": "…"}
/// ```
///
/// `item` is `null` for a failure of the fire as a whole (a listener, a refused fire).
pub fn webhook_body(f: &Failure) -> String {
    let text = f.text();
    serde_json::json!({
        "text": text,
        "msg_type": "text",
        "content": {"text": text},
        "job": f.job,
        "item": f.item,
        "instance": f.instance,
        "source": f.source,
        "at": f.at,
        "exit_code": f.exit_code,
        "reason": f.reason,
        "stderr_tail": f.stderr_tail,
    })
    .to_string()
}

#[cfg(test)]
#[path = "handler_tests.rs"]
mod tests;
