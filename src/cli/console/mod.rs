//! `ejctl console`: a live, full-screen console of a namespace in the terminal (k9s habits).
//!
//! The parts, each testable alone:
//!
//! * [`data`]: the namespace as the console knows it — every node, and per job the
//!   [`crate::ops::read::JobData`] and `job list` row, rebuilt only for the jobs a change touched;
//!   the events view's log of what changed.
//! * [`rows`]: the views (jobs, a job's items / config / servers / instances, servers,
//!   instances, failover, events, raw tree), their columns, filter and sort.
//! * [`model`]: the state and what keys do to it, a pure function of key and data that returns
//!   an effect (quit, or a confirmed [`action::Action`]).
//! * [`action`]: the writes, each with its equivalent `ejctl` command, and the executor that
//!   carries them out through [`crate::ops`] and refuses them in read-only mode or while the
//!   registry is lost.
//! * [`render`]: one frame from the state and the data.
//! * `live`: the terminal, the registry connection and watch, and the loop.
//!
//! `--snapshot COLSxROWS` reads the namespace once, prints one frame of the jobs view as plain
//! text and exits.

pub mod action;
pub mod data;
mod live;
pub mod model;
pub mod render;
pub mod rows;

use std::io::IsTerminal;

use anyhow::Result;
use chrono::{DateTime, Utc};
use clap::Args;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use self::data::Data;
use self::model::{App, Link};
use self::render::Theme;
use super::context::file as contexts;
use super::global::{self, GlobalArgs, RegistryArgs};
use super::output::Output;
use crate::exit::{CliError, Exit};
use crate::registry::path::NAMESPACE_ROOT;

/// Arguments of `ejctl console`.
#[derive(Debug, Clone, Args)]
pub struct ConsoleArgs {
    /// Refuse every write: action keys only say why (a context may also say `readonly = true`).
    #[arg(long)]
    pub readonly: bool,
    /// Print one frame of the jobs view, COLS wide and ROWS high, as plain text after the first
    /// read of the namespace, and exit.
    #[arg(long, value_name = "COLSxROWS", value_parser = parse_size)]
    pub snapshot: Option<Size>,
}

/// `ejctl console`: its arguments and the registry options.
#[derive(Debug, Args)]
pub struct ConsoleCmd {
    /// The console's own arguments.
    #[command(flatten)]
    pub args: ConsoleArgs,
    /// Registry options.
    #[command(flatten)]
    pub registry: RegistryArgs,
}

/// A terminal size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    /// Columns.
    pub cols: u16,
    /// Rows.
    pub rows: u16,
}

/// Parses `120x40`.
///
/// # Errors
/// A message naming the expected form.
pub fn parse_size(s: &str) -> Result<Size, String> {
    let bad = || format!("'{s}' is not a size: expected COLSxROWS, such as 120x40 (at least 40x10)");
    let (c, r) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (cols, rows) = (c.trim().parse::<u16>().map_err(|_| bad())?, r.trim().parse::<u16>().map_err(|_| bad())?);
    if cols < 40 || rows < 10 {
        return Err(bad());
    }
    Ok(Size { cols, rows })
}

/// The context in use and whether it says `readonly = true`.
fn context_readonly() -> (Option<String>, bool) {
    let Some(name) = contexts::resolution().and_then(|r| r.context).map(|(name, _)| name) else {
        return (None, false);
    };
    let readonly = contexts::contexts_path()
        .and_then(|p| contexts::load(&p).ok().flatten())
        .and_then(|f| f.contexts.get(&name).map(|c| c.readonly))
        .unwrap_or(false);
    (Some(name), readonly)
}

/// Runs `ejctl console`.
///
/// # Errors
/// Missing registry options or no terminal without `--snapshot` (exit 2); with `--snapshot`, an
/// unreachable registry (exit 5).
pub async fn exec(global: &GlobalArgs, args: &ConsoleArgs, out: &mut Output) -> Result<Exit> {
    let options = global.zk_options()?;
    let (context, context_ro) = context_readonly();
    let readonly = args.readonly || context_ro;
    let reason = match (&context, args.readonly) {
        (_, true) | (None, _) => "--readonly".to_string(),
        (Some(name), false) => format!("context '{name}' is read-only"),
    };
    let app = App::new(&options.namespace, context, readonly, &reason);
    match args.snapshot {
        Some(size) => snapshot(global, app, size, out).await,
        None if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) => Err(CliError::usage(
            "ejctl console needs a terminal (stdin and stdout); without one, print a frame with --snapshot COLSxROWS",
        )
        .into()),
        None => live::run(global, app).await,
    }
}

async fn snapshot(global: &GlobalArgs, mut app: App, size: Size, out: &mut Output) -> Result<Exit> {
    let mut quiet = global.clone();
    quiet.quiet = true;
    let registry = global::connect(&quiet).await?;
    let nodes = registry
        .read_subtree(NAMESPACE_ROOT, &|_| {})
        .await
        .map_err(|e| CliError::registry("cannot read the namespace", e))?
        .unwrap_or_default();
    let now = Utc::now();
    let data = Data::load(nodes.into_iter().map(|n| (n.path, n.node.data)), now);
    app.link = Link::Connected;
    out.text(&frame_text(&mut app, &data, size, Theme { color: false }, now))?;
    Ok(Exit::Ok)
}

/// One frame as plain text.
pub fn frame_text(app: &mut App, data: &Data, size: Size, theme: Theme, now: DateTime<Utc>) -> String {
    match Terminal::new(TestBackend::new(size.cols, size.rows)) {
        Ok(mut terminal) => match terminal.draw(|f| render::draw(f, app, data, theme, now)) {
            Ok(_) => render::buffer_text(terminal.backend().buffer()),
            Err(e) => format!("cannot draw: {e}\n"),
        },
        Err(e) => format!("cannot draw: {e}\n"),
    }
}
