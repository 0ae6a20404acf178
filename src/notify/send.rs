//! The background sender of a job's failure notifications: a bounded queue, a per-job rate
//! limit, and retries with backoff, in a task of its own so that a slow, hanging or absent
//! receiver never delays or fails a fire.
//!
//! * Queue: [`QUEUE`] notifications; when it is full, new ones are dropped (logged, counted).
//! * Rate limit: a token bucket of [`BURST`] notifications refilled one per [`REFILL`]; over it,
//!   notifications are dropped (logged, counted). ElasticJob has none; a job whose 100 items fail
//!   every second would otherwise flood the on-call channel and get the robot blocked.
//! * Retries: [`ATTEMPTS`] attempts, backing off with jitter between them
//!   ([`crate::retry::NOTIFY`]: receivers of many workers' notifications fail together), for
//!   transport errors,
//!   HTTP 429 and 5xx, and transient SMTP errors; a robot's non-zero `errcode` or a permanent
//!   SMTP error is not retried. Each attempt is bounded by the handler's timeouts.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use super::handler::{Email, ErrorHandler, Failure, Notifier, Timeouts, dingtalk_url, robot_body, webhook_body};
use crate::config::secrets::mask_urls;
use crate::retry::{self, Attempts, Jitter};

/// How many notifications wait at most.
pub const QUEUE: usize = 100;
/// How many notifications may go out at once before the rate limit applies.
pub const BURST: u32 = 20;
/// One more notification may go out per this much time (20 a minute).
pub const REFILL: Duration = Duration::from_secs(3);
/// Attempts per notification.
pub const ATTEMPTS: u32 = 3;

/// What became of a job's notifications (a log line reports them; a metrics endpoint can read
/// them).
#[derive(Debug, Default)]
pub struct Counts {
    /// Delivered.
    pub sent: AtomicU64,
    /// Given up on after the last attempt, or refused for good.
    pub failed: AtomicU64,
    /// Dropped: the queue was full or the rate limit was reached.
    pub dropped: AtomicU64,
}

/// A queued notification (boxed: the queue's first block holds 32 slots, and most jobs never
/// notify).
type Queued = Box<(Notifier, Failure)>;

/// A job's handle on its sender (clones share it).
#[derive(Clone)]
pub struct Alerts {
    /// The queue, made with its sender task on the first notification: a job whose handler only
    /// logs (most of them) costs no task and no queue.
    tx: Arc<OnceLock<mpsc::Sender<Queued>>>,
    counts: Arc<Counts>,
}

impl Alerts {
    /// The handle of a job's sender. The sender starts (on the current tokio runtime) with the
    /// first notification and ends once every handle is dropped and the queue is drained. The
    /// job's name comes with each failure.
    pub fn start() -> Alerts {
        Alerts { tx: Arc::default(), counts: Arc::default() }
    }

    /// The queue, started if need be; `None` outside a tokio runtime.
    fn queue(&self) -> Option<&mpsc::Sender<Queued>> {
        if let Some(tx) = self.tx.get() {
            return Some(tx);
        }
        let runtime = tokio::runtime::Handle::try_current().ok()?;
        Some(self.tx.get_or_init(|| {
            let (tx, rx) = mpsc::channel(QUEUE);
            runtime.spawn(run(rx, Arc::clone(&self.counts)));
            tx
        }))
    }

    /// The counters.
    pub fn counts(&self) -> &Counts {
        &self.counts
    }

    /// The counters, shared (the metrics endpoint reads them when scraped).
    pub fn shared_counts(&self) -> Arc<Counts> {
        Arc::clone(&self.counts)
    }

    /// Handles a failed item as `handler` says: logs it, ignores it, or queues a notification
    /// (never waiting).
    pub fn failed(&self, handler: &ErrorHandler, failure: Failure) {
        match handler {
            ErrorHandler::Ignore => {}
            ErrorHandler::Log | ErrorHandler::Throw => tracing::error!(
                job = %failure.job,
                item = failure.item,
                cause = %failure.reason,
                "Job '{}' exception occur in job processing",
                failure.job
            ),
            ErrorHandler::Notify(n) => {
                let refused = match self.queue() {
                    Some(tx) => tx.try_send(Box::new((Notifier::clone(n), failure))).err().map(|e| e.into_inner().1),
                    None => Some(failure),
                };
                if let Some(failure) = refused {
                    let dropped = self.counts.dropped.fetch_add(1, Ordering::Relaxed) + 1;
                    tracing::warn!(job = %failure.job, dropped, "failure notification dropped: the queue is full");
                }
            }
        }
    }
}

/// A token bucket.
struct Bucket {
    tokens: u32,
    last: Instant,
}

impl Bucket {
    fn take(&mut self, now: Instant) -> bool {
        let refill = now.duration_since(self.last).as_millis() / REFILL.as_millis().max(1);
        if refill > 0 {
            self.tokens = BURST.min(self.tokens.saturating_add(u32::try_from(refill).unwrap_or(BURST)));
            self.last += REFILL * u32::try_from(refill).unwrap_or(BURST);
        }
        if self.tokens == 0 {
            return false;
        }
        if self.tokens == BURST {
            self.last = now;
        }
        self.tokens -= 1;
        true
    }
}

async fn run(mut rx: mpsc::Receiver<Queued>, counts: Arc<Counts>) {
    let mut bucket = Bucket { tokens: BURST, last: Instant::now() };
    let jitter = Jitter::from_os();
    while let Some(queued) = rx.recv().await {
        let (notifier, failure) = *queued;
        if !bucket.take(Instant::now()) {
            let dropped = counts.dropped.fetch_add(1, Ordering::Relaxed) + 1;
            tracing::warn!(job = %failure.job, item = failure.item, dropped, "failure notification dropped: rate limit reached");
            continue;
        }
        let mut failures = Attempts::default();
        for attempt in 1..=ATTEMPTS {
            match deliver(&notifier, &failure).await {
                Ok(()) => {
                    counts.sent.fetch_add(1, Ordering::Relaxed);
                    tracing::info!(job = %failure.job, item = failure.item, "failure notification sent");
                    break;
                }
                Err(Attempt { message, retry }) if retry && attempt < ATTEMPTS => {
                    // An HTTP client's error names the URL, tokens and signatures included.
                    let message = mask_urls(&message);
                    tracing::warn!(job = %failure.job, item = failure.item, attempt, error = %message, "failure notification failed; retrying");
                    tokio::time::sleep(failures.fail(&retry::NOTIFY, jitter.draw())).await;
                }
                Err(Attempt { message, .. }) => {
                    let message = mask_urls(&message);
                    counts.failed.fetch_add(1, Ordering::Relaxed);
                    tracing::error!(job = %failure.job, item = failure.item, attempt, error = %message, "failure notification not sent");
                    break;
                }
            }
        }
    }
}

/// A failed attempt.
struct Attempt {
    message: String,
    retry: bool,
}

impl Attempt {
    fn fatal(message: impl Into<String>) -> Attempt {
        Attempt { message: message.into(), retry: false }
    }
}

async fn deliver(notifier: &Notifier, failure: &Failure) -> Result<(), Attempt> {
    match notifier {
        Notifier::DingTalk { webhook, keyword, secret, timeouts } => {
            let url = dingtalk_url(webhook, secret, chrono::Utc::now().timestamp_millis());
            robot(&url, &robot_body(&format!("{keyword}{}", failure.text())), *timeouts).await
        }
        Notifier::WeChat { webhook, timeouts } => robot(webhook, &robot_body(&failure.text()), *timeouts).await,
        Notifier::Webhook { url, timeouts } => post(url, webhook_body(failure), *timeouts).await.map(|_| ()),
        Notifier::Email(email) => mail(email, failure.text()).await,
    }
}

/// Posts a JSON body; 2xx is success, 429 and 5xx are retried.
async fn post(url: &str, body: String, timeouts: Timeouts) -> Result<String, Attempt> {
    let client = reqwest::Client::builder()
        .connect_timeout(timeouts.connect)
        .timeout(timeouts.read)
        .build()
        .map_err(|e| Attempt::fatal(e.to_string()))?;
    let response = client
        .post(url)
        .header("Content-Type", "application/json")
        .header("Content-Encoding", "UTF-8")
        .body(body)
        .send()
        .await
        .map_err(|e| Attempt { message: chain(&e), retry: true })?;
    let status = response.status();
    let text = response.text().await.map_err(|e| Attempt { message: chain(&e), retry: true })?;
    if status.is_success() {
        Ok(text)
    } else {
        let retry = status.as_u16() == 429 || status.is_server_error();
        Err(Attempt { message: format!("HTTP {status}: {}", text.chars().take(200).collect::<String>()), retry })
    }
}

/// A DingTalk or Work WeChat robot: HTTP 200 and `errcode` "0".
async fn robot(url: &str, body: &str, timeouts: Timeouts) -> Result<(), Attempt> {
    let text = post(url, body.to_string(), timeouts).await?;
    let errcode = serde_json::from_str::<serde_json::Value>(&text).ok().and_then(|v| match &v["errcode"] {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    });
    if errcode.as_deref() == Some("0") {
        Ok(())
    } else {
        Err(Attempt::fatal(format!("the robot refused it: {}", text.chars().take(200).collect::<String>())))
    }
}

async fn mail(email: &Email, text: String) -> Result<(), Attempt> {
    use lettre::message::header::ContentType;
    use lettre::message::{Mailbox, MultiPart, SinglePart};
    use lettre::transport::smtp::authentication::Credentials;
    use lettre::transport::smtp::client::{Tls, TlsParameters};
    use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

    let address = |a: &str| a.parse::<Mailbox>().map_err(|e| Attempt::fatal(format!("e-mail address '{a}': {e}")));
    let mut builder = Message::builder().from(address(&email.from)?).subject(email.subject.clone());
    for a in &email.to {
        builder = builder.to(address(a)?);
    }
    for a in &email.cc {
        builder = builder.cc(address(a)?);
    }
    for a in &email.bcc {
        builder = builder.bcc(address(a)?);
    }
    let message = builder
        .multipart(MultiPart::mixed().singlepart(SinglePart::builder().header(ContentType::TEXT_HTML).body(text)))
        .map_err(|e| Attempt::fatal(e.to_string()))?;
    let mut transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(email.host.as_str())
        .port(email.port)
        .credentials(Credentials::new(email.username.clone(), email.password.clone()))
        .timeout(Some(email.timeout));
    // Implicit TLS, else STARTTLS that must succeed before the credentials go, else (the job
    // file's explicit choice) none.
    if email.use_ssl || !email.plaintext {
        let tls = TlsParameters::new(email.host.clone()).map_err(|e| Attempt::fatal(e.to_string()))?;
        transport = transport.tls(if email.use_ssl { Tls::Wrapper(tls) } else { Tls::Required(tls) });
    }
    match tokio::time::timeout(email.timeout, transport.build().send(message)).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(Attempt { retry: !e.is_permanent(), message: chain(&e) }),
        Err(_) => Err(Attempt { message: "the mail server did not answer in time".into(), retry: true }),
    }
}

/// An error with its sources, one line.
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bucket_allows_a_burst_then_one_per_refill() {
        let start = Instant::now();
        let mut b = Bucket { tokens: BURST, last: start };
        for _ in 0..BURST {
            assert!(b.take(start));
        }
        assert!(!b.take(start));
        assert!(!b.take(start + REFILL / 2));
        assert!(b.take(start + REFILL));
        assert!(!b.take(start + REFILL));
        assert!(b.take(start + REFILL * 2));
    }
}
