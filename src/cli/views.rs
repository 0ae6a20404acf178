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
use crate::ops::text::{ago, rfc3339, when};
use crate::ops::view::{CannotShard, Health, ItemRow};
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
pub fn item_flags(r: &ItemRow) -> String {
    [(ItemLeaf::Running, r.running), (ItemLeaf::Misfire, r.misfire), (ItemLeaf::Disabled, r.disabled)]
        .iter()
        .filter(|(_, on)| *on)
        .map(|(leaf, _)| leaf.name())
        .collect::<Vec<_>>()
        .join(" ")
}

/// An item's last result for a table cell: `OK`, or `FAILED exit code 1: cannot connect`; `-`
/// when nothing is recorded. (Tables cut free text to the terminal's width.)
pub fn result_cell(result: Option<&str>, message: Option<&str>) -> String {
    match (result, message) {
        (None, _) => "-".to_string(),
        (Some(r), Some(m)) if r != "OK" => format!("{r} {m}"),
        (Some(r), _) => r.to_string(),
    }
}

/// The items as a table: times relative (`2m ago`, `in 3s`); with `wide`, in full (in the job's
/// time zone `zone`, else local time) with the exit code and the instance of the last run.
pub fn item_table(rows: &[ItemRow], zone: Option<&str>, wide: bool) -> Table {
    let now = chrono::Utc::now();
    let mut table = Table::new();
    let mut header = vec![
        "ITEM",
        "INSTANCE",
        "SERVER IP",
        "STATUS",
        "HEALTH",
        "FAILOVER",
        "FLAGS",
        "LAST RUN",
        "RESULT",
        "NEXT FIRE",
    ];
    if wide {
        header.extend(["EXIT", "LAST INSTANCE"]);
    }
    table.set_header(header);
    for r in rows {
        let failover = match (&r.failover, &r.failovering) {
            (Some(to), _) => to.clone(),
            (None, Some(to)) => format!("{to} (failovering)"),
            (None, None) => String::new(),
        };
        let time = |t: Option<&chrono::DateTime<chrono::Utc>>| if wide { when(t, zone, now) } else { ago(t, now) };
        let mut row = vec![
            r.item.to_string(),
            r.instance.clone().unwrap_or_default(),
            r.server_ip.clone().unwrap_or_default(),
            r.status.to_string(),
            r.health.to_string(),
            failover,
            item_flags(r),
            time(r.last_run.as_ref()),
            result_cell(r.result, r.message.as_deref()),
            time(r.next_fire.as_ref()),
        ];
        if wide {
            row.push(r.exit_code.map_or_else(|| "-".to_string(), |c| c.to_string()));
            row.push(r.last_instance.clone().unwrap_or_else(|| "-".to_string()));
        }
        table.add_row(row);
    }
    table
}

/// The job's health when it cannot shard, with why: said above its item table, whose items keep
/// the old assignment's owners.
pub fn cannot_shard_note(c: Option<&CannotShard>) -> Option<String> {
    c.map(|c| format!("job health: {}: {}\n", Health::CannotShard, c.reason))
}

/// The items that are overdue or slow, one line each with why (their table shows only the word;
/// a failure's message is in its RESULT cell).
pub fn health_notes(rows: &[ItemRow]) -> Option<String> {
    let lines: Vec<String> = rows
        .iter()
        .filter(|r| matches!(r.health, Health::Overdue | Health::Slow))
        .filter_map(|r| Some(format!("item {}: {}: {}", r.item, r.health, r.reason.as_deref()?)))
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n") + "\n")
}

/// One item as a plain row, every field of its document: `[kind] item instance server_ip status
/// failover-or-failovering disabled last_run result next_fire failovering running misfire
/// exit_code message last_instance health reason`.
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
        r.failovering.clone().unwrap_or_default(),
        r.running.to_string(),
        r.misfire.to_string(),
        r.exit_code.map(|c| c.to_string()).unwrap_or_default(),
        r.message.clone().unwrap_or_default(),
        r.last_instance.clone().unwrap_or_default(),
        r.health.to_string(),
        r.reason.clone().unwrap_or_default(),
    ];
    if !kind.is_empty() {
        row.insert(0, kind.to_string());
    }
    row
}
