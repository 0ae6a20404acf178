//! `--watch` for the list views (`job list --watch`, `sharding show JOB --watch`): like
//! `kubectl get -w`, the view is drawn, then drawn again after every change in the registry.
//!
//! Changes come from one persistent recursive ZooKeeper watch on the subtree the view reads; the
//! watch is re-registered after a reconnect and then yields a resync, which redraws too. Some of
//! a view depends on the time alone (an item becomes `OVERDUE` when fires pass without a start,
//! the next fire moves on), so while connected the view is also read again every [`REFRESH`].
//! Table columns keep the widest width they have had, so they do not shift between frames. A task owns the watch (its `next` is not cancel-safe) and forwards events; bursts
//! are coalesced ([`COALESCE`]) and a view whose document did not change is not drawn again. In
//! the table format a terminal is cleared and redrawn; otherwise each view follows the previous
//! one after a blank line. With `-o json` every change prints the document as one JSON line.
//! Ctrl-C ends it (exit 0).
//!
//! While the registry is unreachable nothing changes on screen, which would pass for a quiet
//! registry: the link state the console shows (the registry handle's session status) is followed
//! too, and the view is drawn again whenever it changes. While the link is down, a table starts
//! with a banner saying since when, that the view may be stale (plain rows: on stderr); JSON
//! lines carry a `registry` object (`state`, `since`, `stale: true`); YAML documents start with
//! the banner as a comment.

use std::time::Duration;

use anyhow::Result;
use chrono::{DateTime, Utc};
use tokio::sync::mpsc;

use super::output::{Format, Output, Render};
use crate::exit::{CliError, Exit};
use crate::ops::text::{local_time, rfc3339};
use crate::registry::{LinkState, Registry};

/// How long a burst of changes is gathered before one redraw.
pub const COALESCE: Duration = Duration::from_millis(200);

/// How often the view is read again without a change (see the module docs).
pub const REFRESH: Duration = Duration::from_secs(5);

/// Draws `read()`'s view, then again after each change under `root`, until Ctrl-C or the
/// registry session ends.
///
/// # Errors
/// Registry and output errors.
pub async fn watch<V: Render>(
    out: &mut Output,
    registry: &Registry,
    root: &str,
    mut read: impl AsyncFnMut() -> Result<V>,
) -> Result<Exit> {
    let mut watch =
        registry.watch_subtree(root).await.map_err(|e| CliError::registry(format!("cannot watch {root}"), e))?;
    let (tx, mut rx) = mpsc::channel(1024);
    let forward = crate::task::OwnedTask::spawn(async move {
        while let Some(event) = watch.next().await {
            if tx.send(event).await.is_err() {
                break;
            }
        }
    });
    let mut session = registry.session();
    let mut lost: Option<Lost> = None;
    out.keep_column_widths();
    let mut refresh = tokio::time::interval_at(tokio::time::Instant::now() + REFRESH, REFRESH);
    refresh.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut view = read().await?;
    let mut last: Option<(String, Option<Lost>)> = None;
    let mut first = true;
    loop {
        let doc = serde_json::to_string(&view.document())?;
        let shown = (doc, lost);
        if last.as_ref() != Some(&shown) {
            draw(out, &view, &shown.0, lost, first)?;
            first = false;
            last = Some(shown);
        }
        tokio::select! {
            event = rx.recv() => {
                if event.is_none() {
                    break;
                }
                tokio::time::sleep(COALESCE).await;
                while rx.try_recv().is_ok() {}
                view = read().await?;
            }
            _ = refresh.tick(), if lost.is_none() => view = read().await?,
            changed = session.changed() => {
                if changed.is_err() {
                    break;
                }
                // The view stays as last read: a read would wait for the link.
                let state = session.borrow_and_update().state;
                lost = match (state, lost) {
                    (LinkState::Connected, _) => None,
                    // An outage's age counts from when the link was first lost.
                    (state, Some(l)) => Some(Lost { state, since: l.since }),
                    (state, None) => Some(Lost { state, since: Utc::now() }),
                };
            }
            _ = tokio::signal::ctrl_c() => break,
        }
    }
    drop(forward);
    Ok(Exit::Ok)
}

/// The registry link is down: how, and since when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Lost {
    state: LinkState,
    since: DateTime<Utc>,
}

impl Lost {
    /// The banner line of a table.
    fn banner(self) -> String {
        let what = match self.state {
            LinkState::Expired => "registry session expired",
            LinkState::Connected | LinkState::Disconnected => "registry disconnected",
        };
        format!("{what} since {}: reconnecting; the view below may be stale", local_time(&self.since))
    }

    /// The `registry` object of a JSON line.
    fn json(self) -> serde_json::Value {
        serde_json::json!({"state": self.state.as_str(), "since": rfc3339(&self.since), "stale": true})
    }
}

fn draw(out: &mut Output, view: &impl Render, doc: &str, lost: Option<Lost>, first: bool) -> Result<()> {
    match out.format {
        Format::Json => match lost {
            None => out.text(&format!("{doc}\n")),
            Some(lost) => {
                let mut value: serde_json::Value = serde_json::from_str(doc)?;
                if let Some(object) = value.as_object_mut() {
                    object.insert("registry".into(), lost.json());
                }
                out.text(&format!("{value}\n"))
            }
        },
        Format::Yaml => {
            out.text("---\n")?;
            if let Some(lost) = lost {
                out.text(&format!("# {}\n", lost.banner()))?;
            }
            out.render(view)
        }
        Format::Table | Format::Wide | Format::Boxes | Format::Plain => {
            if matches!(out.format, Format::Plain) || !out.is_terminal() {
                if !first {
                    out.text("\n")?;
                }
            } else {
                out.text("\x1b[2J\x1b[H")?;
            }
            match lost {
                // Plain rows are data for scripts: the banner goes to stderr.
                Some(lost) if matches!(out.format, Format::Plain) => out.note(&lost.banner())?,
                Some(lost) => out.text(&format!("{}\n", lost.banner()))?,
                None => {}
            }
            out.render(view)
        }
    }
}
