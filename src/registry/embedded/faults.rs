//! Fault injection in the embedded registry, for tests and the deterministic simulator: the
//! server going away for everyone, one handle cut off (partition) and healed, sessions expired by
//! the server, crashed handles whose sessions linger, and per-request faults (slow, failed, or
//! applied with the reply lost, or interleaved with other clients' requests).

use std::time::Duration;

use super::{EmbeddedBackend, EmbeddedStore, EmbeddedWatch, LinkState};
use crate::registry::WatchEvent;

/// What happens to one request of a handle under fault injection ([`EmbeddedStore::set_faults`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Served normally.
    None,
    /// Served after a delay (a slow server or link).
    Delay(Duration),
    /// Served once the other tasks ready to run have had their turn: no time passes, but other
    /// clients' requests may be served first, as on a real network (the simulator's
    /// interleaving of round trips).
    Yield,
    /// Fails with a connection loss before reaching the server: nothing is applied.
    Fail,
    /// Applied by the server, but the reply is lost: the caller sees a connection loss.
    LoseReply,
}

/// Decides the fate of each request of one handle.
pub type FaultPlan = Box<dyn FnMut() -> Fault + Send>;

impl EmbeddedStore {
    /// Simulates the server going away: every handle sees [`LinkState::Disconnected`], requests
    /// wait, watch events are lost.
    pub fn disconnect(&self) {
        let mut st = self.lock();
        st.offline = true;
        for link in st.clients.values_mut() {
            link.deaf = true;
            link.status.send_modify(|s| s.state = LinkState::Disconnected);
        }
    }

    /// Ends a simulated outage within the session timeout: sessions survive, handles reconnect and
    /// every watch yields [`WatchEvent::Resync`].
    pub fn reconnect(&self) {
        let mut st = self.lock();
        st.offline = false;
        let clients: Vec<u64> = st.clients.keys().copied().collect();
        for client in clients {
            st.resume_client(client);
        }
    }

    /// Cuts one handle (`client`, see [`Registry::embedded_client`](crate::registry::Registry::embedded_client))
    /// off from the server: it sees [`LinkState::Disconnected`], its requests wait, its watch
    /// events are lost. The server keeps its session until [`EmbeddedStore::expire`] ends it.
    pub fn partition(&self, client: u64) {
        let mut st = self.lock();
        if let Some(link) = st.clients.get_mut(&client) {
            link.partitioned = true;
            link.deaf = true;
            link.status.send_modify(|s| s.state = LinkState::Disconnected);
        }
    }

    /// Ends a partition: the handle reconnects — in its session if the server kept it (its
    /// watches resync), else it learns the session expired and gets a new one.
    pub fn heal(&self, client: u64) {
        let mut st = self.lock();
        let Some(link) = st.clients.get_mut(&client) else { return };
        link.partitioned = false;
        let session = link.status.borrow().session_id;
        if !st.sessions.contains_key(&session) {
            st.renew_session(client);
        }
        if !st.offline {
            st.resume_client(client);
        }
    }

    /// The server expires `client`'s session (its ephemeral nodes go). A connected handle learns
    /// it at once and gets a new session; a partitioned one when the partition heals.
    pub fn expire(&self, client: u64) {
        let mut st = self.lock();
        let Some(link) = st.clients.get(&client) else { return };
        let (session, partitioned) = (link.status.borrow().session_id, link.partitioned);
        st.close_session(session);
        if !partitioned && !st.offline {
            st.renew_session(client);
            st.resume_client(client);
        }
    }

    /// The server expires a session whose handle is gone (see [`EmbeddedStore::linger`]).
    pub fn expire_session_id(&self, session: i64) {
        self.lock().close_session(session);
    }

    /// When `client`'s handle is dropped, its session stays open (a crashed process does not
    /// close its session: the server expires it after the session timeout).
    pub fn linger(&self, client: u64) {
        if let Some(link) = self.lock().clients.get_mut(&client) {
            link.linger = true;
        }
    }

    /// Injects faults into `client`'s requests (`None`: none).
    pub fn set_faults(&self, client: u64, plan: Option<FaultPlan>) {
        if let Some(link) = self.lock().clients.get_mut(&client) {
            link.faults = plan;
        }
    }

    /// Delivers `client`'s watch events `lag` after they happen (a slow link; zero: at once),
    /// in order.
    pub fn set_event_lag(&self, client: u64, lag: Duration) {
        if let Some(link) = self.lock().clients.get_mut(&client) {
            link.event_lag = lag;
        }
    }

    /// True while `session` is open on the server.
    pub fn session_open(&self, session: i64) -> bool {
        self.lock().sessions.contains_key(&session)
    }
}

impl EmbeddedBackend {
    /// The injected fate of the next request (see [`EmbeddedStore::set_faults`]); a delay is
    /// served here.
    pub(super) async fn fault(&self) -> Fault {
        let fault = {
            let mut st = self.store.lock();
            match st.clients.get_mut(&self.client).and_then(|l| l.faults.as_mut()) {
                Some(plan) => plan(),
                None => Fault::None,
            }
        };
        match fault {
            Fault::Delay(d) => tokio::time::sleep(d).await,
            Fault::Yield => tokio::task::yield_now().await,
            Fault::None | Fault::Fail | Fault::LoseReply => {}
        }
        fault
    }
}

impl EmbeddedWatch {
    /// The next event, once its handle's event lag has passed since it happened.
    pub(crate) async fn next(&mut self) -> Option<WatchEvent> {
        let (at, event) = self.rx.recv().await?;
        let lag = self.store.lock().clients.get(&self.client).map_or(Duration::ZERO, |l| l.event_lag);
        if !lag.is_zero() {
            tokio::time::sleep_until(at + lag).await;
        }
        Some(event)
    }
}
