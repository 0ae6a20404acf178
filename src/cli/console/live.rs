//! The full-screen loop: the terminal, keys from a reader thread, the registry connection (retried
//! until it works, backing off with jitter, [`crate::retry::CONSOLE`]: the console never exits on
//! its own), one read of the namespace and then one
//! persistent recursive watch ([`TreeCache`]: re-added after a reconnect, the tree re-read and the
//! difference replayed as changes, then "resynced: N changes"), actions run in the background,
//! the editor of `E` (the console steps aside while it runs), and drawing: at once after a key,
//! at most [`FRAME`] apart for registry changes (bursts are coalesced), every second for the
//! clocks.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use chrono::Utc;
use futures::StreamExt;
use futures::stream::FuturesUnordered;
use ratatui::crossterm::event::{self, Event as TermEvent, KeyEventKind};
use tokio::sync::{mpsc, watch};

use super::action::{self, Action};
use super::data::{Data, Event};
use super::model::{App, Effect, Link};
use super::render::{self, Theme};
use crate::cli::config::editor::{EditFile, check_editor, run_editor};
use crate::cli::global::{self, GlobalArgs};
use crate::config::JobConfig;
use crate::exit::Exit;
use crate::ops::Admin;
use crate::ops::config;
use crate::registry::cache::{CacheEvent, TreeCache};
use crate::registry::path::NAMESPACE_ROOT;
use crate::registry::{LinkState, Registry, SessionStatus};
use crate::retry::{self, Attempts, Jitter};

/// The shortest time between two frames drawn for registry changes (10 frames a second).
pub const FRAME: Duration = Duration::from_millis(100);

type Boxed<T> = Pin<Box<dyn Future<Output = T>>>;

/// What the key reader sends.
enum Input {
    Key(event::KeyEvent),
    Resize,
}

/// Reads terminal events on a thread of its own until the receiver is gone; not while `paused`
/// (an editor has the terminal).
fn read_keys(tx: mpsc::Sender<Input>, paused: Arc<AtomicBool>) {
    while !tx.is_closed() {
        if paused.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        match event::poll(Duration::from_millis(100)) {
            Ok(true) => {}
            Ok(false) => continue,
            Err(_) => return,
        }
        let input = match event::read() {
            Ok(TermEvent::Key(k)) if k.kind != KeyEventKind::Release => Input::Key(k),
            Ok(TermEvent::Resize(..)) => Input::Resize,
            Ok(_) => continue,
            Err(_) => return,
        };
        if tx.blocking_send(input).is_err() {
            return;
        }
    }
}

async fn connect(global: GlobalArgs, delay: Duration) -> Result<Registry, String> {
    tokio::time::sleep(delay).await;
    global::connect(&global).await.map_err(|e| format!("{e:#}"))
}

async fn load(registry: Registry, progress: Arc<AtomicUsize>, delay: Duration) -> Result<TreeCache, String> {
    tokio::time::sleep(delay).await;
    let report = move |n: usize| progress.store(n, Ordering::Relaxed);
    TreeCache::start_with_progress(registry, NAMESPACE_ROOT, |_| false, &report)
        .await
        .map_err(|e| format!("cannot read the namespace: {e}"))
}

/// Runs the console until `q`.
///
/// # Errors
/// The terminal cannot be set up.
pub async fn run(global: &GlobalArgs, mut app: App) -> Result<Exit> {
    let mut terminal = ratatui::try_init()?;
    let outcome = run_on(&mut terminal, global, &mut app).await;
    ratatui::try_restore()?;
    outcome
}

async fn run_on(terminal: &mut ratatui::DefaultTerminal, global: &GlobalArgs, app: &mut App) -> Result<Exit> {
    let theme = Theme::from_env();
    let (tx, mut keys) = mpsc::channel(64);
    let paused = Arc::new(AtomicBool::new(false));
    let reader_paused = Arc::clone(&paused);
    std::thread::spawn(move || read_keys(tx, reader_paused));
    let mut quiet = global.clone();
    quiet.quiet = true;
    let mut data = Data::default();
    let progress = Arc::new(AtomicUsize::new(0));
    let mut connecting: Option<Boxed<Result<Registry, String>>> =
        Some(Box::pin(connect(quiet.clone(), Duration::ZERO)));
    let mut loading: Option<Boxed<Result<TreeCache, String>>> = None;
    // Connecting and reading the namespace back off apart, each reset by its success.
    let (mut connect_failures, mut load_failures, jitter) =
        (Attempts::default(), Attempts::default(), Jitter::from_os());
    let mut cache: Option<TreeCache> = None;
    let mut admin: Option<Admin> = None;
    let mut session: Option<watch::Receiver<SessionStatus>> = None;
    let mut running: FuturesUnordered<Boxed<Result<String, String>>> = FuturesUnordered::new();
    // Changes seen since the link was last lost: a resync reports them.
    let mut since_lost: Option<usize> = None;
    let mut dirty = true;
    let mut urgent = true;
    let mut last_draw = Instant::now();
    loop {
        app.loading = progress.load(Ordering::Relaxed);
        if urgent || (dirty && last_draw.elapsed() >= FRAME) || last_draw.elapsed() >= Duration::from_secs(1) {
            terminal.draw(|f| render::draw(f, app, &data, theme, Utc::now()))?;
            (dirty, urgent, last_draw) = (false, false, Instant::now());
        }
        let wake = if dirty { last_draw + FRAME } else { last_draw + Duration::from_secs(1) };
        tokio::select! {
            input = keys.recv() => match input {
                Some(Input::Key(key)) => {
                    urgent = true;
                    match app.key(key, &data) {
                        Some(Effect::Quit) => return Ok(Exit::Ok),
                        Some(Effect::Edit(job)) => match &admin {
                            Some(admin) => match edit(admin, &job, terminal, &paused).await {
                                Ok(Some(action)) => app.confirm(action),
                                Ok(None) => app.flash(format!("job '{job}': configuration unchanged"), false),
                                Err(e) => app.finished(&mut data, Err(e)),
                            },
                            None => app.flash("not connected: writes are refused", true),
                        },
                        Some(Effect::Run(a)) => match &admin {
                            Some(admin) => {
                                let (admin, refusal) = (admin.clone(), app.refusal());
                                running.push(Box::pin(async move { action::execute(&admin, &a, refusal).await }));
                            }
                            None => app.flash("not connected: writes are refused", true),
                        },
                        None => {}
                    }
                }
                Some(Input::Resize) => urgent = true,
                None => return Ok(Exit::Ok),
            },
            r = outcome(&mut connecting), if connecting.is_some() => {
                connecting = None;
                match r {
                    Ok(registry) => {
                        connect_failures.reset();
                        app.link = Link::Connected;
                        admin = Some(Admin::new(registry.clone(), &app.namespace));
                        session = Some(registry.session());
                        loading = Some(Box::pin(load(registry, Arc::clone(&progress), Duration::ZERO)));
                    }
                    Err(e) => {
                        app.link = Link::Connecting { error: Some(e) };
                        let delay = connect_failures.fail(&retry::CONSOLE, jitter.draw());
                        connecting = Some(Box::pin(connect(quiet.clone(), delay)));
                    }
                }
                urgent = true;
            }
            r = outcome(&mut loading), if loading.is_some() => {
                loading = None;
                match r {
                    Ok(c) => {
                        load_failures.reset();
                        let nodes = c.read().contents();
                        if data.loaded {
                            let n = data.replace(nodes, Utc::now());
                            app.flash(format!("resynced: {n} change{}", if n == 1 { "" } else { "s" }), false);
                        } else {
                            data = Data::load(nodes, Utc::now());
                        }
                        cache = Some(c);
                    }
                    Err(e) => {
                        app.flash(format!("{e}; retrying"), true);
                        if let Some(a) = &admin {
                            let delay = load_failures.fail(&retry::CONSOLE, jitter.draw());
                            loading = Some(Box::pin(load(a.registry().clone(), Arc::clone(&progress), delay)));
                        }
                    }
                }
                urgent = true;
            }
            event = next_change(&mut cache), if cache.is_some() => {
                let Some(c) = cache.as_mut() else { continue };
                if event.is_none() {
                    // The watch ended: read the namespace again, keeping the data meanwhile.
                    cache = None;
                    if let Some(a) = &admin {
                        let delay = load_failures.fail(&retry::CONSOLE, jitter.draw());
                        loading = Some(Box::pin(load(a.registry().clone(), Arc::clone(&progress), delay)));
                    }
                    continue;
                }
                let mut next = event;
                let mut resynced = false;
                let mut changes = 0;
                while let Some(e) = next {
                    match e {
                        CacheEvent::Created(p) | CacheEvent::Changed(p) => {
                            let value = c.read().node(&p).map(|n| n.data_vec());
                            data.set(&p, value);
                            changes += 1;
                        }
                        CacheEvent::Deleted(p) => {
                            data.set(&p, None);
                            changes += 1;
                        }
                        CacheEvent::Resynced => resynced = true,
                    }
                    next = c.try_recv();
                }
                data.refresh(Utc::now());
                if let Some(n) = since_lost.as_mut() {
                    *n += changes;
                }
                if resynced {
                    let n = since_lost.take().unwrap_or(0);
                    let text = format!("resynced: {n} change{}", if n == 1 { "" } else { "s" });
                    data.push(Event { at: Utc::now(), kind: "resync", job: None, text: text.clone() });
                    app.flash(text, false);
                }
                dirty = true;
            }
            changed = link_change(&mut session), if session.is_some() => {
                if changed.is_err() {
                    session = None;
                    continue;
                }
                let state = session.as_ref().map(|s| s.borrow().state);
                let now = Utc::now();
                // An outage's age counts from when the link was first lost.
                let lost_since = match &app.link {
                    Link::Disconnected { since } | Link::Expired { since } => *since,
                    _ => now,
                };
                app.link = match state {
                    Some(LinkState::Connected) => Link::Connected,
                    Some(LinkState::Disconnected) => Link::Disconnected { since: lost_since },
                    Some(LinkState::Expired) => Link::Expired { since: lost_since },
                    None => app.link.clone(),
                };
                if app.link != Link::Connected && since_lost.is_none() {
                    since_lost = Some(0);
                    data.push(Event { at: now, kind: "registry", job: None, text: "registry connection lost".into() });
                }
                urgent = true;
            }
            Some(result) = running.next(), if !running.is_empty() => {
                app.finished(&mut data, result);
                urgent = true;
            }
            () = tokio::time::sleep_until(wake.into()) => {}
        }
    }
}

/// `E`: the job's configuration in `$VISUAL` / `$EDITOR` (the console steps aside meanwhile),
/// checked as `config edit` checks it; returns the write to confirm, `None` when nothing changed.
async fn edit(
    admin: &Admin,
    job: &str,
    terminal: &mut ratatui::DefaultTerminal,
    paused: &AtomicBool,
) -> Result<Option<Action>, String> {
    let editor = check_editor(job).map_err(|e| e.to_string())?;
    let stored = admin.read_config(job).await.map_err(|e| format!("{:#}", anyhow::Error::new(e)))?;
    let old = JobConfig::from_yaml(&stored.text).ok();
    let job_file = admin.job_file_values(job).await.map_err(|e| format!("{:#}", anyhow::Error::new(e)))?;
    let mut file = EditFile::create(job, &stored.text).map_err(|e| format!("{e:#}"))?;
    // The key reader lets go of the terminal first.
    paused.store(true, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_millis(150)).await;
    let _ = ratatui::try_restore();
    let ran = run_editor(job, &editor, &file.path).await;
    let back = ratatui::try_init();
    paused.store(false, Ordering::Relaxed);
    *terminal = back.map_err(|e| format!("cannot take the terminal back: {e}"))?;
    terminal.clear().map_err(|e| format!("cannot take the terminal back: {e}"))?;
    ran.map_err(|e| format!("{:#}", file.kept(e)))?;
    let edited = std::fs::read_to_string(&file.path).map_err(|e| format!("job '{job}': cannot read the edit: {e}"))?;
    if edited == stored.text {
        return Ok(None);
    }
    let (new, warnings) = config::prepare_edit(job, stored.job_type().as_ref(), old.as_ref(), &edited, &job_file)
        .map_err(|e| format!("{:#}", file.kept(e.into())))?;
    let mut changed: Vec<String> =
        config::changes(old.as_ref(), &new).into_iter().map(|(k, v)| format!("{k}: {} → {}", v.old, v.new)).collect();
    changed.extend(warnings.into_iter().map(|w| format!("warning: {w}")));
    Ok(Some(Action::Config { job: job.to_string(), version: stored.version(), yaml: new.to_yaml(), changed }))
}

/// The outcome of an optional future; never, when there is none (its `select!` branch is then
/// disabled by its guard and never polled).
async fn outcome<T>(future: &mut Option<Boxed<T>>) -> T {
    match future.as_mut() {
        Some(f) => f.await,
        None => std::future::pending().await,
    }
}

/// The next change of the cache, if there is one.
async fn next_change(cache: &mut Option<TreeCache>) -> Option<CacheEvent> {
    match cache.as_mut() {
        Some(c) => c.recv().await,
        None => std::future::pending().await,
    }
}

/// The next change of the session's link state, if there is a session.
async fn link_change(session: &mut Option<watch::Receiver<SessionStatus>>) -> Result<(), watch::error::RecvError> {
    match session.as_mut() {
        Some(s) => s.changed().await,
        None => std::future::pending().await,
    }
}
