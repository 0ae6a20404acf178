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
use crate::ops::report::{CannotShard, Health, ItemRow};
use crate::ops::text::{ago, rfc3339, when};
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
pub struct ActionOutcome {
    /// The document.
    pub doc: ActionDoc,
    /// The note.
    pub note: String,
}

impl Render for ActionOutcome {
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

/// At most this many items in `job show`'s item table, which is an overview: `sharding show`
/// lists every item (and `-o json` / `-o plain` of both carry them all).
pub const OVERVIEW_ITEMS: usize = 20;

/// The rows `job show` shows of a job's items: all of them for a small job; for a larger one the
/// items whose health calls for attention (overdue, failing, overridden, slow) first, the lowest
/// items after them, [`OVERVIEW_ITEMS`] in all, in item order — and a line that counts the rest
/// by health and says where the whole list is.
pub fn overview_rows(rows: &[ItemRow], job: &str) -> (Vec<ItemRow>, Option<String>) {
    if rows.len() <= OVERVIEW_ITEMS {
        return (rows.to_vec(), None);
    }
    let attention = |h: Health| matches!(h, Health::Overdue | Health::Failing | Health::Overridden | Health::Slow);
    let mut chosen: Vec<&ItemRow> = rows.iter().filter(|r| attention(r.health)).take(OVERVIEW_ITEMS).collect();
    for r in rows {
        if chosen.len() >= OVERVIEW_ITEMS {
            break;
        }
        if !attention(r.health) {
            chosen.push(r);
        }
    }
    chosen.sort_by_key(|r| r.item);
    let shown: std::collections::BTreeSet<u32> = chosen.iter().map(|r| r.item).collect();
    let mut rest: std::collections::BTreeMap<Health, usize> = std::collections::BTreeMap::new();
    for r in rows.iter().filter(|r| !shown.contains(&r.item)) {
        *rest.entry(r.health).or_default() += 1;
    }
    let counts: Vec<String> = rest.iter().rev().map(|(h, n)| format!("{n} {h}")).collect();
    let note = format!(
        "… and {} more items ({}): `ejctl sharding show {job}` lists every item\n",
        rows.len() - chosen.len(),
        counts.join(", ")
    );
    (chosen.into_iter().cloned().collect(), Some(note))
}

/// The job's health when it cannot shard, with why: said above its item table, whose items keep
/// the old assignment's owners.
pub fn cannot_shard_note(c: Option<&CannotShard>) -> Option<String> {
    c.map(|c| format!("job health: {}: {}\n", Health::CannotShard, c.reason))
}

/// The items that are overdue, overridden or slow, one line each with why (their table shows only
/// the word; a failure's message is in its RESULT cell).
pub fn health_notes(rows: &[ItemRow]) -> Option<String> {
    let lines: Vec<String> = rows
        .iter()
        .filter(|r| matches!(r.health, Health::Overdue | Health::Overridden | Health::Slow))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(item: u32, health: Health) -> ItemRow {
        ItemRow {
            item,
            instance: None,
            server_ip: None,
            status: crate::coord::status::ItemStatus::Pending,
            health,
            reason: None,
            failover: None,
            failovering: None,
            running: false,
            misfire: false,
            disabled: false,
            last_run: None,
            result: None,
            exit_code: None,
            message: None,
            last_instance: None,
            next_fire: None,
        }
    }

    #[test]
    fn job_show_lists_a_large_job_s_items_that_need_attention_and_counts_the_rest() {
        let small: Vec<ItemRow> = (0..20).map(|i| row(i, Health::Ok)).collect();
        let (shown, note) = overview_rows(&small, "j");
        assert_eq!((shown.len(), note), (20, None));
        let mut big: Vec<ItemRow> = (0..10_000).map(|i| row(i, Health::Ok)).collect();
        big[9_000].health = Health::Failing;
        big[42].health = Health::Overdue;
        let (shown, note) = overview_rows(&big, "j");
        let items: Vec<u32> = shown.iter().map(|r| r.item).collect();
        assert_eq!(items, [&(0..18).collect::<Vec<u32>>()[..], &[42, 9_000]].concat());
        assert_eq!(note.unwrap(), "… and 9980 more items (9980 OK): `ejctl sharding show j` lists every item\n");
    }
}
