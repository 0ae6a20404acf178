//! Rendering that several commands share: sharding items (`job show`, `sharding show`) and the
//! result of a mutation (`job`, `server` and `sharding` commands).
//!
//! A mutation prints a short note on stderr in the `table`/`plain` formats (stdout stays empty)
//! and an action document with `-o json|yaml`: `{"action", "job", "server", "changed": [...]}`,
//! `changed` listing what took effect (empty for a no-op).

use comfy_table::Table;
use serde::Serialize;

use super::output::{Block, Render};
use crate::ops::change::Changed;
use crate::ops::text::{local_time, rfc3339};
use crate::ops::view::ItemRow;
use crate::registry::path::ItemLeaf;

/// The result of a mutation in `-o json|yaml`.
#[derive(Serialize)]
pub struct ActionDoc {
    /// The command: `disable`, `enable`, `pause`, `resume`, `shutdown`, `remove`.
    pub action: &'static str,
    /// The job named on the command line (`null` for server commands).
    pub job: Option<String>,
    /// The server named on the command line, if any.
    pub server: Option<String>,
    /// What was changed; empty for a no-op.
    pub changed: Vec<Changed>,
}

/// A mutation's result: its document, and the note people get instead.
pub struct ActionView {
    /// The document.
    pub doc: ActionDoc,
    /// The note.
    pub note: String,
}

impl Render for ActionView {
    fn document(&self) -> impl Serialize {
        &self.doc
    }

    fn plain(&self) -> Vec<Block> {
        vec![Block::Note(self.note.clone())]
    }

    fn table(&self) -> Vec<Block> {
        self.plain()
    }
}

/// The flags of an item for tables: `running misfire disabled`.
fn flags(r: &ItemRow) -> String {
    [(ItemLeaf::Running, r.running), (ItemLeaf::Misfire, r.misfire), (ItemLeaf::Disabled, r.disabled)]
        .iter()
        .filter(|(_, on)| *on)
        .map(|(leaf, _)| leaf.name())
        .collect::<Vec<_>>()
        .join(" ")
}

/// An item's last result for a table cell: `OK`, or `FAILED exit code 1: cannot connect`
/// (the reason cut at 60 characters); `-` when nothing is recorded.
pub fn result_cell(result: Option<&str>, message: Option<&str>) -> String {
    match (result, message) {
        (None, _) => "-".to_string(),
        (Some(r), Some(m)) if r != "OK" => {
            let short: String = m.chars().take(60).collect();
            let more = if short.len() < m.len() { "…" } else { "" };
            format!("{r} {short}{more}")
        }
        (Some(r), _) => r.to_string(),
    }
}

/// The items as a table.
pub fn item_table(rows: &[ItemRow]) -> Table {
    let mut table = Table::new();
    table.set_header([
        "ITEM",
        "INSTANCE",
        "SERVER IP",
        "STATUS",
        "FAILOVER",
        "FLAGS",
        "LAST RUN",
        "RESULT",
        "NEXT FIRE",
    ]);
    for r in rows {
        let failover = match (&r.failover, &r.failovering) {
            (Some(to), _) => to.clone(),
            (None, Some(to)) => format!("{to} (failovering)"),
            (None, None) => String::new(),
        };
        table.add_row([
            r.item.to_string(),
            r.instance.clone().unwrap_or_default(),
            r.server_ip.clone().unwrap_or_default(),
            r.status.to_string(),
            failover,
            flags(r),
            r.last_run.as_ref().map_or_else(|| "-".to_string(), local_time),
            result_cell(r.result, r.message.as_deref()),
            r.next_fire.as_ref().map_or_else(|| "-".to_string(), local_time),
        ]);
    }
    table
}

/// One item as a plain row: `[kind] item instance server_ip status failover disabled last_run
/// result next_fire`.
pub fn item_plain_row(kind: &str, r: &ItemRow) -> Vec<String> {
    let mut row = vec![
        r.item.to_string(),
        r.instance.clone().unwrap_or_default(),
        r.server_ip.clone().unwrap_or_default(),
        r.status.to_string(),
        r.failover.clone().or_else(|| r.failovering.clone()).unwrap_or_default(),
        r.disabled.to_string(),
        r.last_run.as_ref().map(rfc3339).unwrap_or_default(),
        r.result.unwrap_or_default().to_string(),
        r.next_fire.as_ref().map(rfc3339).unwrap_or_default(),
    ];
    if !kind.is_empty() {
        row.insert(0, kind.to_string());
    }
    row
}
