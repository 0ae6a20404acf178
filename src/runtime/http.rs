//! The worker's HTTP endpoint (`[instance] http`), on axum:
//!
//! * `GET /metrics`: the Prometheus families of `metrics.rs`, in the OpenMetrics text format.
//! * `GET /healthz`: 200 while the process is alive and its scheduler runs tasks (a spawned task
//!   must answer within [`HEALTH_TIMEOUT`]). It does not look at the registry on purpose: a
//!   liveness probe that failed during a ZooKeeper outage would restart every worker at once,
//!   which fixes nothing and loses the running items; the outage is `/readyz`'s business.
//! * `GET /readyz`: 200 when connected to the registry, answered by it recently (not fenced),
//!   every job registered in the current session, no job whose sharding this worker leads failed
//!   without completing since (a line names the job and the error), and the worker not stopping;
//!   503 otherwise. The body lists each check.
//! * `GET /dump/{job}`: what the dump port answers for `dump@{job}` (404 for a job this worker
//!   does not run).
//!
//! The endpoint may face clients that are slow on purpose. It serves at most
//! [`MAX_CONNECTIONS`] connections at once (one more is closed as soon as it is accepted, so
//! idle connections can never take the file descriptors the jobs need), closes a connection that
//! has not sent a request's headers within [`HEADER_TIMEOUT`] (whether it is new or kept alive
//! between requests), and bounds every connection's life to [`CONNECTION_LIFETIME`].

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

use super::fence::FenceState;
use super::metrics::{Link, Metrics};
use super::{Clock, StopMode, dumpport};
use crate::registry::Registry;
use crate::registry::cache::CacheReader;
use crate::retry::{self, Attempts, Jitter};

/// How long `/healthz` waits for a spawned task to run.
const HEALTH_TIMEOUT: Duration = Duration::from_secs(5);

/// Connections served at once: a few scrapers and probes need a handful; the rest is headroom.
pub(crate) const MAX_CONNECTIONS: usize = 64;

/// How long a client may take to send a request's headers, on a new connection or between the
/// requests of a kept-alive one.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest a connection is served, however busy: a Prometheus scraper reconnects.
const CONNECTION_LIFETIME: Duration = Duration::from_secs(300);

const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";
const TEXT: &str = "text/plain; charset=utf-8";

/// What the handlers read.
#[derive(Clone)]
pub(crate) struct Endpoint {
    pub(crate) metrics: Arc<Metrics>,
    pub(crate) registry: Registry,
    pub(crate) fence: watch::Receiver<FenceState>,
    pub(crate) stop: watch::Receiver<StopMode>,
    pub(crate) jobs: Arc<HashMap<String, CacheReader>>,
    pub(crate) clock: Arc<dyn Clock>,
}

/// Serves the endpoint until the worker stops (the task is aborted with the other services, and
/// the connections' tasks with it: they are spawned into a set the loop owns).
pub(crate) async fn serve(listener: TcpListener, endpoint: Endpoint) {
    let app = Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/dump/{job}", get(dump))
        .with_state(endpoint);
    let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut connections = tokio::task::JoinSet::new();
    // Accepting after an error (out of file descriptors, say) backs off until it works again.
    let (mut refused, jitter) = (Attempts::default(), Jitter::from_os());
    loop {
        tokio::select! {
            biased;
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _)) => {
                        refused.reset();
                        stream
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "the HTTP endpoint cannot accept a connection");
                        tokio::time::sleep(refused.fail(&retry::ACCEPT, jitter.draw())).await;
                        continue;
                    }
                };
                // Over the cap the connection is closed at once (dropped with its permit-less
                // stream): the client sees a reset, the worker keeps its descriptors.
                let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else { continue };
                let service = hyper_util::service::TowerToHyperService::new(app.clone());
                connections.spawn(async move {
                    let connection = hyper::server::conn::http1::Builder::new()
                        .timer(hyper_util::rt::TokioTimer::new())
                        .header_read_timeout(HEADER_TIMEOUT)
                        .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
                    if let Ok(Err(e)) = tokio::time::timeout(CONNECTION_LIFETIME, connection).await {
                        tracing::debug!(error = %e, "an HTTP endpoint connection ended with an error");
                    }
                    drop(permit);
                });
            }
        }
    }
}

fn link(e: &Endpoint) -> Link {
    let state = *e.fence.borrow();
    Link { healthy: state.healthy, fenced: state.fenced }
}

fn text(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, TEXT)], body).into_response()
}

async fn metrics(State(e): State<Endpoint>) -> Response {
    let fence = link(&e);
    let stopping = !matches!(*e.stop.borrow(), StopMode::Run);
    let body = e.metrics.render(e.clock.now(), &e.registry, fence, stopping);
    (StatusCode::OK, [(header::CONTENT_TYPE, OPENMETRICS)], body).into_response()
}

async fn healthz() -> Response {
    match tokio::time::timeout(HEALTH_TIMEOUT, tokio::spawn(async {})).await {
        Ok(Ok(())) => text(StatusCode::OK, "ok\n".to_string()),
        _ => text(StatusCode::SERVICE_UNAVAILABLE, "the scheduler is not running tasks\n".to_string()),
    }
}

async fn readyz(State(e): State<Endpoint>) -> Response {
    let fence = link(&e);
    let stopping = !matches!(*e.stop.borrow(), StopMode::Run);
    let readiness = e.metrics.readiness(&e.registry, fence, stopping);
    let status = if readiness.ready { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    text(status, readiness.detail)
}

async fn dump(State(e): State<Endpoint>, Path(job): Path<String>) -> Response {
    match dumpport::dump_text(&e.registry, &e.jobs, &job).await {
        Ok(Some(body)) => text(StatusCode::OK, body),
        Ok(None) => text(StatusCode::NOT_FOUND, format!("job '{job}' does not run in this worker\n")),
        Err(err) => {
            text(StatusCode::SERVICE_UNAVAILABLE, format!("cannot read job '{job}' from the registry: {err}\n"))
        }
    }
}
