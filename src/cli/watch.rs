//! `--watch` for the list views (`job list --watch`, `sharding show JOB --watch`): like
//! `kubectl get -w`, the view is drawn, then drawn again after every change in the registry.
//!
//! Changes come from one persistent recursive ZooKeeper watch on the subtree the view reads (no
//! polling); the watch is re-registered after a reconnect and then yields a resync, which
//! redraws too. A task owns the watch (its `next` is not cancel-safe) and forwards events; bursts
//! are coalesced ([`COALESCE`]) and a view whose document did not change is not drawn again. In
//! the table format a terminal is cleared and redrawn; otherwise each view follows the previous
//! one after a blank line. With `-o json` every change prints the document as one JSON line.
//! Ctrl-C ends it (exit 0).

use std::time::Duration;

use anyhow::Result;
use tokio::sync::mpsc;

use super::output::{Format, Output, Render};
use crate::exit::{CliError, Exit};
use crate::registry::Registry;

/// How long a burst of changes is gathered before one redraw.
pub const COALESCE: Duration = Duration::from_millis(200);

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
    let mut last: Option<String> = None;
    let mut first = true;
    loop {
        let view = read().await?;
        let doc = serde_json::to_string(&view.document())?;
        if last.as_deref() != Some(doc.as_str()) {
            draw(out, &view, &doc, first)?;
            first = false;
            last = Some(doc);
        }
        tokio::select! {
            event = rx.recv() => {
                if event.is_none() {
                    break;
                }
                tokio::time::sleep(COALESCE).await;
                while rx.try_recv().is_ok() {}
            }
            _ = tokio::signal::ctrl_c() => break,
        }
    }
    drop(forward);
    Ok(Exit::Ok)
}

fn draw(out: &mut Output, view: &impl Render, doc: &str, first: bool) -> Result<()> {
    match out.format {
        Format::Json => out.text(&format!("{doc}\n")),
        Format::Yaml => {
            out.text("---\n")?;
            out.render(view)
        }
        Format::Table | Format::Wide | Format::Boxes if out.is_terminal() => {
            out.text("\x1b[2J\x1b[H")?;
            out.render(view)
        }
        Format::Table | Format::Wide | Format::Boxes | Format::Plain => {
            if !first {
                out.text("\n")?;
            }
            out.render(view)
        }
    }
}
